"""YAML read as kubectl reads it, tested differentially against the real kubectl.

kubectl converts YAML to JSON with go-yaml v2 (YAML 1.1 booleans for plain scalars, ``<<``
merges with the mapping's own keys winning). Each case is one value in one object; the plugin
(run as the repo server runs it) and ``kubectl label --local -o json`` (no server needed) must
read the same. Where we are deliberately stricter (duplicate keys) the difference is asserted.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.adapters.yamlload import load_file
from tests.argocd.harness import run_plugin
from tests.bad_input.corpus import GRAPH_HEAD, shared_template_graph, yaml_semantics_cases
from tests.conftest import BIN, run_cli

KUBECTL = BIN / "kubectl"
CASES = yaml_semantics_cases()


def _object(i: int, value: str) -> str:
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\nspec:\n  v: {value}\n"


def _kubectl_read(path: Path) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [str(KUBECTL), "label", "--local", "-o", "json", "-f", str(path), "probe=1"],
        capture_output=True,
        text=True,
        env={**os.environ, "KUBECONFIG": os.devnull},
        timeout=120,
        check=True,
    )
    decoder, text, pos, objects = json.JSONDecoder(), proc.stdout, 0, []
    while pos < len(text.rstrip()):  # one JSON object per input document, back to back
        value, pos = decoder.raw_decode(text, pos)
        objects.append(value)
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return objects


def _same(value: Any) -> Any:
    """Numbers compared by value (Go prints 1e3 as 1000, float64 for uint64), bools apart."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        return ("number", float(value) if math.isfinite(value) else str(value))
    if isinstance(value, dict):
        return {k: _same(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_same(v) for v in value]
    return ("other", repr(value))


@pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl is installed in the dev venv")
@pytest.mark.parametrize("layout", ["a-file-each", "one-stream", "one-stream-with-a-question-mark"])
def test_the_plugin_reads_every_scalar_spelling_as_kubectl_does(
    tmp_path: Path, layout: str
) -> None:
    """Every parser is compared (adapters/yamlfallback.py): a file each keeps most cases on
    ruamel's C parser; in one stream the flow-colon cases send the stream to PyYAML's C parser,
    and with a ``?`` anywhere in the text (here in a comment) to ruamel's pure-Python parser."""
    repo = tmp_path / "repo"
    app = repo / "apps" / "semantics"
    app.mkdir(parents=True)
    if layout.startswith("one-stream"):
        comment = "# why?\n" if layout.endswith("question-mark") else ""
        (app / "values.yaml").write_text(
            comment + "---\n".join(_object(i, v) for i, (_, v) in enumerate(CASES))
        )
    else:
        for i, (_, value) in enumerate(CASES):
            (app / f"case-{i:03}.yaml").write_text(_object(i, value))
    theirs = {o["metadata"]["name"]: o["spec"] for o in _kubectl_read(app)}
    run = run_plugin(repo, "apps/semantics")
    assert run.returncode == 0, run.stderr
    ours = {o["metadata"]["name"]: o["spec"] for o in run.objects}
    differ = [
        name
        for i, (name, _) in enumerate(CASES)
        if _same(ours.get(f"c{i}")) != _same(theirs.get(f"c{i}"))
    ]
    assert differ == [], {
        n: (ours.get(f"c{i}"), theirs.get(f"c{i}")) for i, (n, _) in enumerate(CASES) if n in differ
    }


@pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl is installed in the dev venv")
def test_keys_that_collide_once_read_are_refused_where_kubectl_keeps_the_last(
    tmp_path: Path,
) -> None:
    """Deliberately stricter: ``{yes: 1, on: 2}`` is two ``true`` keys; kubectl silently keeps
    one, which hides a mistake, so validate refuses it as a duplicate key with its line."""
    path = tmp_path / "collide.yaml"
    path.write_text(_object(0, "{yes: 1, on: 2}"))
    assert _kubectl_read(path)[0]["spec"] == {"v": {"true": 2}}
    result = run_cli("validate", str(path))
    assert result.returncode == 2
    assert f"{path}:6: duplicate key 'true'" in result.stdout + result.stderr


def test_checkpoint_enabled_yes_is_a_boolean_as_for_kubectl(tmp_path: Path) -> None:
    worker = (
        "    - name: Worker\n      type: worker\n      experimental:\n        checkpoint:\n"
        "          enabled: {value}\n"
        "      podTemplate:\n        spec:\n          containers:\n            - name: main\n"
        "              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0\n"
    )
    outputs = {}
    for value in ("yes", "true", '"yes"'):
        path = tmp_path / f"graph-{len(outputs)}.yaml"
        path.write_text(GRAPH_HEAD + worker.format(value=value))
        result = run_cli("validate", "-o", "json", str(path))
        outputs[value] = [
            f["path"] for item in json.loads(result.stdout)["items"] for f in item["findings"]
        ]
    assert outputs["yes"] == outputs["true"]
    assert any("checkpoint.enabled" in p for p in outputs['"yes"'])
    assert not any("checkpoint.enabled" in p for p in outputs["yes"])


def test_an_unquoted_yes_in_annotations_fails_the_plugin_instead_of_becoming_text(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    app = repo / "apps" / "ann"
    app.mkdir(parents=True)
    (app / "graph.yaml").write_text(
        GRAPH_HEAD.replace("  name: broken\n", "  name: broken\n  annotations: {a: yes}\n")
    )
    run = run_plugin(repo, "apps/ann")
    assert (run.returncode, run.stdout) == (1, "")
    assert "graph.yaml:5: metadata.annotations.a:" in run.stderr


def test_a_key_overriding_a_merge_is_not_a_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "merge.yaml"
    path.write_text(
        GRAPH_HEAD.replace(
            "metadata:\n  name: broken\n",
            "metadata:\n  <<: {name: base, namespace: team}\n  name: broken\n",
        )
    )
    result = run_cli("validate", "-o", "json", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    restarted = run_cli("restart", "-f", str(path), "--id", "merged")
    assert restarted.returncode == 0, restarted.stderr
    # Readable still (spec.restart on a new graph is the one finding: exit 1, not 2).
    after = run_cli("validate", str(path))
    assert after.returncode == 1 and "restart" in after.stdout, after.stdout + after.stderr


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "kind": "Secret"\n}\n', 4),
        ('{"apiVersion": "v1", "kind": "ConfigMap",\n "data": {"a": "1",\t"a": "2"}}\n', 2),
    ],
    ids=["yaml-readable", "tab-separated"],
)
def test_duplicate_keys_in_json_are_refused(tmp_path: Path, text: str, line: int | None) -> None:
    path = tmp_path / "dup.json"
    path.write_text(text)
    result = run_cli("validate", str(path))
    assert result.returncode == 2, result.stdout + result.stderr
    where = f"{path}:{line}" if line else f"{path}"
    assert f"error: {where}: " in result.stderr + result.stdout
    assert "duplicate key" in result.stderr + result.stdout


_MOSTLY_ALIASES = (  # 200 aliases of a 1,000-item list: 99.4 % of the decodes are aliased
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nspec:\n"
    f"  t: &t [{', '.join(['x'] * 1000)}]\n  a: [{', '.join(['*t'] * 200)}]\n"
)


@pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl is installed in the dev venv")
@pytest.mark.parametrize(
    ("text", "readable"),
    [(shared_template_graph(), True), (_MOSTLY_ALIASES, False)],
    ids=["graph-sharing-a-pod-template-96-percent-aliases", "99.4-percent-aliases"],
)
def test_aliases_are_limited_by_kubectls_ratio_rule(
    tmp_path: Path, text: str, readable: bool
) -> None:
    """go-yaml v2 refuses a document once aliases pass 99 % of its decodes (over 100 aliased,
    over 1,000 decoded); below that kubectl reads it, and so must we."""
    path = tmp_path / "aliases.yaml"
    path.write_text(text)
    kubectl = subprocess.run(
        [str(KUBECTL), "label", "--local", "-o", "json", "-f", str(path), "probe=1"],
        capture_output=True,
        text=True,
        env={**os.environ, "KUBECONFIG": os.devnull},
        timeout=120,
        check=False,
    )
    ours = run_cli("validate", str(path))
    if readable:
        assert kubectl.returncode == 0, kubectl.stderr
        assert ours.returncode != 2, ours.stderr
        theirs = json.loads(kubectl.stdout)["spec"]
        assert _same(load_file(str(path))[0].data["spec"]) == _same(theirs)
    else:
        assert "excessive aliasing" in kubectl.stderr
        assert ours.returncode == 2
        assert f"{path}:7: document contains excessive aliasing" in ours.stderr


@pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl is installed in the dev venv")
@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_with_a_byte_order_mark_reads_as_kubectl_reads_it(
    tmp_path: Path, encoding: str
) -> None:
    path = tmp_path / "utf16.yaml"
    text = "---\n".join(_object(i, v) for i, (_, v) in enumerate(CASES))
    path.write_bytes(("\ufeff" + text).encode(encoding))
    theirs = {o["metadata"]["name"]: o["spec"] for o in _kubectl_read(path)}
    ours = {d.data["metadata"]["name"]: d.data["spec"] for d in load_file(str(path))}
    assert _same(ours) == _same(theirs)
    without_bom = tmp_path / "no-bom.yaml"
    without_bom.write_bytes(text.encode(encoding))
    assert run_cli("validate", str(without_bom)).returncode == 2  # kubectl refuses it too

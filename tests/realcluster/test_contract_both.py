"""The same API cases against the real kube-apiserver and the project's test API server
(tests/apiserver), so the fake stays honest where the tests lean on it, and the places where
it differs are written down here (``FAKE_DIFFERS``) rather than discovered by a user.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.apiserver.server import ApiServer
from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace
from tests.realcluster.rest import Obj, Rest, RestError

# Where the test server answers otherwise than kube-apiserver 1.37, and why that is kept.
FAKE_DIFFERS = {
    "list items carry kind": "the fake puts apiVersion and kind on every LIST item; a real "
    "server does so for custom resources only and leaves built-in kinds' items to the List "
    "(the adapter stamps them, so both read the same)",
    "no structural schema": "the fake does not run the CRD's OpenAPI schema or CEL rules (the "
    "real server is the oracle for those: tests/realcluster/test_schema_oracle.py)",
}


@dataclass
class Server:
    name: str
    rest: Rest
    namespace: str


@pytest.fixture(params=["real", "fake"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    if request.param == "real":
        ns: RealNamespace = request.getfixturevalue("real_ns")
        ns.operator.stop()  # these cases talk to the API alone
        yield Server("real", ns.rest, ns.name)
        return
    fake = ApiServer().start()
    try:
        fake.install_crd()
        fake.store.ensure_namespace("contract")
        yield Server("fake", Rest(fake.url, fake.token, str(fake.ca_file)), "contract")
    finally:
        fake.stop()


def graph(server: Server, name: str = "contract") -> Obj:
    obj = scenarios.healthy(server.namespace)
    obj["metadata"]["name"] = name
    return obj


def test_a_missing_graph_is_a_not_found_status(server: Server) -> None:
    with pytest.raises(RestError) as caught:
        server.rest.get("DynamoGraphDeployment", "nowhere", server.namespace)
    assert caught.value.status == 404
    body = caught.value.body
    assert (body["kind"], body["reason"]) == ("Status", "NotFound")
    assert body["message"] == 'dynamographdeployments.nvidia.com "nowhere" not found'


def test_a_write_with_a_stale_resource_version_is_a_conflict(server: Server) -> None:
    created = server.rest.create(graph(server))
    server.rest.merge_patch(
        "DynamoGraphDeployment", "contract", server.namespace, {"metadata": {"labels": {"a": "b"}}}
    )
    stale = copy.deepcopy(created)
    stale["metadata"]["labels"] = {"c": "d"}
    with pytest.raises(RestError) as caught:
        server.rest.request(
            "PUT", server.rest.path("DynamoGraphDeployment", server.namespace, "contract"), stale
        )
    assert caught.value.status == 409
    assert caught.value.body["reason"] == "Conflict"
    assert caught.value.body["message"].endswith(
        "the object has been modified; please apply your changes to the latest version and try again"
    )


def test_generation_moves_with_the_spec_not_with_the_status(server: Server) -> None:
    created = server.rest.create(graph(server))
    assert created["metadata"]["generation"] == 1
    created["status"] = {"state": "pending"}
    after_status = server.rest.replace_status(created)
    assert after_status["metadata"]["generation"] == 1
    patched = server.rest.merge_patch(
        "DynamoGraphDeployment",
        "contract",
        server.namespace,
        {"spec": {"backendFramework": "sglang"}},
    )
    assert patched["metadata"]["generation"] == 2
    assert patched["status"] == {"state": "pending"}


def test_the_status_subresource_ignores_spec_changes(server: Server) -> None:
    created = server.rest.create(graph(server))
    created["spec"]["backendFramework"] = "sglang"
    created["status"] = {"state": "successful"}
    written = server.rest.replace_status(created)
    assert written["spec"]["backendFramework"] == "vllm"
    assert written["status"] == {"state": "successful"}


def test_a_list_is_a_typed_list_with_a_resource_version(server: Server) -> None:
    server.rest.create(graph(server))
    listed = server.rest.request("GET", server.rest.path("DynamoGraphDeployment", server.namespace))
    assert listed["kind"] == "DynamoGraphDeploymentList"
    assert listed["apiVersion"] == "nvidia.com/v1beta1"
    assert listed["metadata"]["resourceVersion"]
    assert {item.get("kind") for item in listed["items"]} == {"DynamoGraphDeployment"}


def test_built_in_list_items_leave_their_kind_to_the_list(server: Server) -> None:
    server.rest.create(
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "c", "namespace": server.namespace},
        }
    )
    listed = server.rest.request("GET", server.rest.path("ConfigMap", server.namespace))
    assert listed["kind"] == "ConfigMapList"
    kinds = {item.get("kind") for item in listed["items"]}
    if server.name == "real":
        assert kinds == {None}
    else:
        assert kinds == {"ConfigMap"}, FAKE_DIFFERS["list items carry kind"]


def test_schema_errors_are_an_invalid_status_naming_the_field(server: Server) -> None:
    bad = graph(server)
    bad["spec"]["components"][0]["replicas"] = "two"
    if server.name == "fake":
        assert server.rest.create(bad), FAKE_DIFFERS["no structural schema"]
        return
    with pytest.raises(RestError) as caught:
        server.rest.create(bad)
    assert caught.value.status == 422
    body = caught.value.body
    assert body["reason"] == "Invalid"
    causes = [(c.get("field"), c.get("reason")) for c in body["details"]["causes"]]
    assert ("spec.components[0].replicas", "FieldValueTypeInvalid") in causes

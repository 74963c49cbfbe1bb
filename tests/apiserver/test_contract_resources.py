"""Custom resources as kube-apiserver serves them: reads, writes, resourceVersion, generation,
the status subresource, patches and Status bodies. Driven with the real kubernetes client and
with raw HTTP for exact codes and bodies."""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from tests.apiserver.fixtures import api_client, raw, sample_dgd
from tests.apiserver.server import ApiServer

GROUP, VERSION, PLURAL = "nvidia.com", "v1beta1", "dynamographdeployments"
NS = "dynamo"
BASE = f"/apis/{GROUP}/{VERSION}/namespaces/{NS}/{PLURAL}"


@pytest.fixture
def api(apiserver: ApiServer) -> Any:
    return client.CustomObjectsApi(api_client(apiserver))


def _status_body(error: ApiException) -> dict[str, Any]:
    import json

    body: dict[str, Any] = json.loads(error.body or "{}")
    return body


# -- reads -----------------------------------------------------------------------------------


def test_get_returns_the_stored_object(apiserver: ApiServer, api: Any) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    assert api.get_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha") == stored


def test_get_missing_is_404_with_real_status_body(apiserver: ApiServer) -> None:
    response = raw(apiserver, "GET", f"{BASE}/missing")
    assert response.code == 404
    assert response.body == {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": 'dynamographdeployments.nvidia.com "missing" not found',
        "reason": "NotFound",
        "details": {"name": "missing", "group": "nvidia.com", "kind": "dynamographdeployments"},
        "code": 404,
    }


def test_unknown_resource_type_is_404_the_server_could_not_find(apiserver: ApiServer) -> None:
    apiserver.uninstall_crd()
    response = raw(apiserver, "GET", f"{BASE}/alpha")
    assert response.code == 404
    assert response.body["message"] == "the server could not find the requested resource"
    assert response.body["reason"] == "NotFound"
    assert raw(apiserver, "GET", "/apis/nvidia.com/v1beta1").code == 404
    assert "nvidia.com" not in [g["name"] for g in raw(apiserver, "GET", "/apis").body["groups"]]


def test_list_has_list_kind_and_resource_version(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("beta"), sample_dgd("alpha"), sample_dgd("other", namespace="x"))
    listed = api.list_namespaced_custom_object(GROUP, VERSION, NS, PLURAL)
    assert listed["kind"] == "DynamoGraphDeploymentList"
    assert listed["apiVersion"] == "nvidia.com/v1beta1"
    assert listed["metadata"]["resourceVersion"] == str(apiserver.store.resource_version)
    assert [item["metadata"]["name"] for item in listed["items"]] == ["alpha", "beta"]


def test_cluster_wide_list_spans_namespaces(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"), sample_dgd("other", namespace="x"))
    listed = api.list_cluster_custom_object(GROUP, VERSION, PLURAL)
    assert [(i["metadata"]["namespace"], i["metadata"]["name"]) for i in listed["items"]] == [
        ("dynamo", "alpha"),
        ("x", "other"),
    ]


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("team=a", ["one", "three"]),
        ("team==a", ["one", "three"]),
        ("team!=a", ["four", "two"]),
        ("team in (a,b)", ["one", "three", "two"]),
        ("team notin (a)", ["four", "two"]),
        ("tier", ["three"]),
        ("!tier", ["four", "one", "two"]),
        ("team=a,tier=gold", ["three"]),
    ],
)
def test_label_selectors_match_as_kubernetes(
    apiserver: ApiServer, api: Any, selector: str, expected: list[str]
) -> None:
    apiserver.seed(
        sample_dgd("one", labels={"team": "a"}),
        sample_dgd("two", labels={"team": "b"}),
        sample_dgd("three", labels={"team": "a", "tier": "gold"}),
        sample_dgd("four"),
    )
    listed = api.list_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, label_selector=selector)
    assert sorted(i["metadata"]["name"] for i in listed["items"]) == expected


def test_field_selector_metadata_name(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"), sample_dgd("beta"))
    listed = api.list_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, field_selector="metadata.name=beta"
    )
    assert [i["metadata"]["name"] for i in listed["items"]] == ["beta"]


def test_field_selector_metadata_namespace_across_namespaces(
    apiserver: ApiServer, api: Any
) -> None:
    """As kube-apiserver serves every custom resource: metadata.name and metadata.namespace
    with =, == and !=, several requirements ANDed."""
    apiserver.store.ensure_namespace("other")
    apiserver.seed(sample_dgd("alpha"), sample_dgd("beta"), sample_dgd("gamma", "other"))

    def names(selector: str) -> list[str]:
        listed = api.list_cluster_custom_object(GROUP, VERSION, PLURAL, field_selector=selector)
        return sorted(i["metadata"]["name"] for i in listed["items"])

    assert names("metadata.namespace=other") == ["gamma"]
    assert names("metadata.namespace==dynamo") == ["alpha", "beta"]
    assert names("metadata.namespace!=other,metadata.name!=alpha") == ["beta"]


def test_unsupported_field_selector_is_400(apiserver: ApiServer) -> None:
    response = raw(apiserver, "GET", f"{BASE}?fieldSelector=spec.backendFramework%3Dvllm")
    assert response.code == 400
    assert response.body["message"] == "field label not supported: spec.backendFramework"


# -- create, update, delete -------------------------------------------------------------------


def test_create_sets_uid_timestamp_generation_and_drops_status(
    apiserver: ApiServer, api: Any
) -> None:
    body = sample_dgd("fresh")
    created = api.create_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, body)
    meta = created["metadata"]
    assert meta["generation"] == 1
    assert meta["uid"] and meta["creationTimestamp"].endswith("Z")
    assert int(meta["resourceVersion"]) == apiserver.store.resource_version
    assert "status" not in created  # status is written only through /status


def test_create_existing_is_409_already_exists(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"))
    with pytest.raises(ApiException) as caught:
        api.create_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, sample_dgd("alpha"))
    assert caught.value.status == 409
    body = _status_body(caught.value)
    assert body["reason"] == "AlreadyExists"
    assert body["message"] == 'dynamographdeployments.nvidia.com "alpha" already exists'


def test_create_in_missing_namespace_is_404(apiserver: ApiServer) -> None:
    response = raw(
        apiserver,
        "POST",
        f"/apis/{GROUP}/{VERSION}/namespaces/nope/{PLURAL}",
        sample_dgd("alpha", namespace="nope"),
    )
    assert response.code == 404
    assert response.body["message"] == 'namespaces "nope" not found'


def test_stale_resource_version_update_is_409_conflict(apiserver: ApiServer, api: Any) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    api.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "alpha", {"metadata": {"labels": {"by": "someone-else"}}}
    )
    stored["spec"]["backendFramework"] = "sglang"
    with pytest.raises(ApiException) as caught:
        api.replace_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha", stored)
    assert caught.value.status == 409
    body = _status_body(caught.value)
    assert body["reason"] == "Conflict"
    assert body["message"] == (
        'Operation cannot be fulfilled on dynamographdeployments.nvidia.com "alpha": the object '
        "has been modified; please apply your changes to the latest version and try again"
    )
    assert body["details"] == {"name": "alpha", "group": "nvidia.com", "kind": PLURAL}


def test_update_without_resource_version_is_422_for_custom_resources(
    apiserver: ApiServer,
) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    del stored["metadata"]["resourceVersion"]
    response = raw(apiserver, "PUT", f"{BASE}/alpha", stored)
    assert response.code == 422
    assert "must be specified for an update" in response.body["message"]


def test_update_with_current_resource_version_succeeds(apiserver: ApiServer, api: Any) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    stored["spec"]["backendFramework"] = "sglang"
    updated = api.replace_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha", stored)
    assert updated["spec"]["backendFramework"] == "sglang"
    assert int(updated["metadata"]["resourceVersion"]) > int(stored["metadata"]["resourceVersion"])


def test_delete_removes_and_returns_the_object(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"))
    deleted = api.delete_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha")
    assert deleted["metadata"]["name"] == "alpha"
    assert raw(apiserver, "GET", f"{BASE}/alpha").code == 404


# -- generation and the status subresource ------------------------------------------------------


def test_spec_change_bumps_generation_status_change_does_not(
    apiserver: ApiServer, api: Any
) -> None:
    apiserver.seed(sample_dgd("alpha"))
    after_spec = api.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "alpha", {"spec": {"restart": {"id": "r1"}}}
    )
    assert after_spec["metadata"]["generation"] == 2
    after_status = api.patch_namespaced_custom_object_status(
        GROUP, VERSION, NS, PLURAL, "alpha", {"status": {"observedGeneration": 2}}
    )
    assert after_status["metadata"]["generation"] == 2
    after_labels = api.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "alpha", {"metadata": {"labels": {"a": "b"}}}
    )
    assert after_labels["metadata"]["generation"] == 2
    assert int(after_labels["metadata"]["resourceVersion"]) > int(
        after_status["metadata"]["resourceVersion"]
    )


def test_main_resource_ignores_status_changes(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"))
    patched = api.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "alpha", {"status": {"state": "failed"}}
    )
    assert patched["status"]["state"] == "successful"


def test_status_subresource_ignores_spec_changes(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"))
    patched = api.patch_namespaced_custom_object_status(
        GROUP,
        VERSION,
        NS,
        PLURAL,
        "alpha",
        {"spec": {"backendFramework": "sglang"}, "status": {"state": "pending"}},
    )
    assert patched["spec"]["backendFramework"] == "vllm"
    assert patched["status"]["state"] == "pending"


def test_no_op_patch_keeps_resource_version(apiserver: ApiServer, api: Any) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    patched = api.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "alpha", {"spec": {"backendFramework": "vllm"}}
    )
    assert patched["metadata"]["resourceVersion"] == stored["metadata"]["resourceVersion"]


# -- patch types --------------------------------------------------------------------------------


def test_merge_patch_null_deletes_a_field(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    response = raw(
        apiserver,
        "PATCH",
        f"{BASE}/alpha",
        {"spec": {"backendFramework": None}},
        content_type="application/merge-patch+json",
    )
    assert response.code == 200
    assert "backendFramework" not in response.body["spec"]


def test_merge_patch_with_stale_resource_version_is_409(apiserver: ApiServer) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    stale = str(int(stored["metadata"]["resourceVersion"]) - 1)
    patch = {"metadata": {"resourceVersion": stale}, "spec": {"restart": {"id": "r1"}}}
    response = raw(
        apiserver, "PATCH", f"{BASE}/alpha", patch, content_type="application/merge-patch+json"
    )
    assert response.code == 409
    assert response.body["reason"] == "Conflict"
    assert "spec" in raw(apiserver, "GET", f"{BASE}/alpha").body
    assert "restart" not in raw(apiserver, "GET", f"{BASE}/alpha").body["spec"]


def test_merge_patch_with_current_resource_version_applies(apiserver: ApiServer) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    patch = {
        "metadata": {"resourceVersion": stored["metadata"]["resourceVersion"]},
        "spec": {"restart": {"id": "r1"}},
    }
    response = raw(
        apiserver, "PATCH", f"{BASE}/alpha", patch, content_type="application/merge-patch+json"
    )
    assert response.code == 200
    assert response.body["spec"]["restart"] == {"id": "r1"}


def test_json_patch_applies_operations_in_order(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"))
    patched = api.patch_namespaced_custom_object(
        GROUP,
        VERSION,
        NS,
        PLURAL,
        "alpha",
        [
            {"op": "test", "path": "/spec/backendFramework", "value": "vllm"},
            {"op": "add", "path": "/spec/restart", "value": {"id": "r1"}},
            {"op": "replace", "path": "/spec/components/0/replicas", "value": 3},
            {"op": "remove", "path": "/metadata/annotations/nvidia.com~1workload-provider"},
        ],
        _content_type="application/json-patch+json",  # the client defaults to merge-patch
    )
    assert patched["spec"]["restart"] == {"id": "r1"}
    assert patched["spec"]["components"][0]["replicas"] == 3
    assert patched["metadata"]["annotations"] == {}


def test_json_patch_failed_test_is_422(apiserver: ApiServer) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    patch = [
        {"op": "test", "path": "/metadata/resourceVersion", "value": "1"},
        {"op": "add", "path": "/spec/restart", "value": {"id": "r1"}},
    ]
    response = raw(
        apiserver, "PATCH", f"{BASE}/alpha", patch, content_type="application/json-patch+json"
    )
    assert response.code == 422
    assert response.body["reason"] == "Invalid"
    assert response.body["status"] == "Failure"
    current = raw(apiserver, "GET", f"{BASE}/alpha").body
    assert current["metadata"]["resourceVersion"] == stored["metadata"]["resourceVersion"]


def test_json_patch_of_missing_path_is_422(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    patch = [{"op": "replace", "path": "/spec/nothing/here", "value": 1}]
    response = raw(
        apiserver, "PATCH", f"{BASE}/alpha", patch, content_type="application/json-patch+json"
    )
    assert response.code == 422


def test_strategic_merge_patch_is_415_for_custom_resources(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    response = raw(
        apiserver,
        "PATCH",
        f"{BASE}/alpha",
        {"spec": {}},
        content_type="application/strategic-merge-patch+json",
    )
    assert response.code == 415
    assert response.body["reason"] == "UnsupportedMediaType"
    assert response.body["message"].startswith(
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json-patch+json, application/merge-patch+json"
    )


def test_patch_of_missing_object_is_404(apiserver: ApiServer) -> None:
    response = raw(
        apiserver,
        "PATCH",
        f"{BASE}/missing",
        {"spec": {}},
        content_type="application/merge-patch+json",
    )
    assert response.code == 404
    assert response.body["message"] == 'dynamographdeployments.nvidia.com "missing" not found'


# -- auth ---------------------------------------------------------------------------------------


def test_missing_or_wrong_token_is_401(apiserver: ApiServer) -> None:
    if not apiserver.use_tls:
        pytest.skip("plain HTTP mode does not require a token")
    for token in (None, "wrong"):
        response = raw(apiserver, "GET", BASE, token=token)
        assert response.code == 401
        assert response.body == {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": "Unauthorized",
            "reason": "Unauthorized",
            "code": 401,
        }


# -- the CRD itself -----------------------------------------------------------------------------

CRD_PATH = (
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/dynamographdeployments.nvidia.com"
)


def test_installed_crd_is_readable_as_a_cluster_object(apiserver: ApiServer) -> None:
    response = raw(apiserver, "GET", CRD_PATH)
    assert response.code == 200
    crd = response.body
    assert crd["kind"] == "CustomResourceDefinition"
    assert crd["spec"]["names"]["shortNames"] == ["dgd"]
    assert crd["spec"]["scope"] == "Namespaced"
    served = {v["name"]: (v["served"], v["storage"]) for v in crd["spec"]["versions"]}
    assert served == {"v1alpha1": (True, False), "v1beta1": (True, True)}
    assert "openAPIV3Schema" in crd["spec"]["versions"][1]["schema"]


def test_uninstalled_crd_object_is_404_not_found(apiserver: ApiServer) -> None:
    apiserver.uninstall_crd()
    response = raw(apiserver, "GET", CRD_PATH)
    assert response.code == 404
    assert response.body["message"] == (
        'customresourcedefinitions.apiextensions.k8s.io "dynamographdeployments.nvidia.com" '
        "not found"
    )
    apiserver.install_crd()
    assert raw(apiserver, "GET", CRD_PATH).code == 200
    assert raw(apiserver, "GET", BASE).code == 200


def test_namespaced_object_without_namespace_in_path_is_an_unknown_path(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(sample_dgd("alpha"))
    response = raw(apiserver, "GET", f"/apis/{GROUP}/{VERSION}/{PLURAL}/alpha")
    assert response.code == 404
    assert response.body["message"] == "the server could not find the requested resource"


def test_writing_to_a_discovery_path_is_405(apiserver: ApiServer) -> None:
    response = raw(apiserver, "POST", "/apis", {})
    assert response.code == 405
    assert response.body["reason"] == "MethodNotAllowed"


def test_chunked_request_body_is_read(apiserver: ApiServer) -> None:
    import http.client
    import json

    apiserver.seed(sample_dgd("alpha"))
    host, port = apiserver.address.split(":")
    conn = (
        http.client.HTTPSConnection(host, int(port), context=apiserver.ssl_context())
        if apiserver.use_tls
        else http.client.HTTPConnection(host, int(port))
    )
    body = json.dumps({"spec": {"restart": {"id": "chunked"}}}).encode()
    conn.request(
        "PATCH",
        f"{BASE}/alpha",
        body=iter([body[:10], body[10:]]),
        headers={
            "Content-Type": "application/merge-patch+json",
            "Authorization": f"Bearer {apiserver.token}",
        },
        encode_chunked=True,
    )
    response = conn.getresponse()
    assert response.status == 200
    assert json.loads(response.read())["spec"]["restart"] == {"id": "chunked"}
    conn.close()


AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"


def test_aggregated_discovery_v2_lists_dgd_with_status_subresource(apiserver: ApiServer) -> None:
    response = raw(apiserver, "GET", "/apis", accept=f"{AGGREGATED},application/json")
    assert response.code == 200
    assert response.headers["Content-Type"] == AGGREGATED
    assert response.body["kind"] == "APIGroupDiscoveryList"
    (group,) = [g for g in response.body["items"] if g["metadata"]["name"] == "nvidia.com"]
    assert [v["version"] for v in group["versions"]] == ["v1beta1", "v1alpha1"]
    (dgd,) = [
        r for r in group["versions"][0]["resources"] if r["resource"] == "dynamographdeployments"
    ]
    assert dgd["shortNames"] == ["dgd"]
    assert dgd["scope"] == "Namespaced"
    assert dgd["responseKind"]["kind"] == "DynamoGraphDeployment"
    assert dgd["subresources"][0]["subresource"] == "status"


def test_legacy_discovery_documents_when_not_asked_for_v2(apiserver: ApiServer) -> None:
    groups = raw(apiserver, "GET", "/apis").body
    assert groups["kind"] == "APIGroupList"
    nvidia = next(g for g in groups["groups"] if g["name"] == "nvidia.com")
    assert nvidia["preferredVersion"] == {
        "groupVersion": "nvidia.com/v1beta1",
        "version": "v1beta1",
    }
    resources = raw(apiserver, "GET", "/apis/nvidia.com/v1beta1").body
    names = {r["name"]: r for r in resources["resources"]}
    assert names["dynamographdeployments"]["shortNames"] == ["dgd"]
    assert names["dynamographdeployments"]["singularName"] == "dynamographdeployment"
    assert names["dynamographdeployments"]["namespaced"] is True
    assert "patch" in names["dynamographdeployments"]["verbs"]
    assert names["dynamographdeployments/status"]["verbs"] == ["get", "patch", "update"]
    assert raw(apiserver, "GET", "/api").body["versions"] == ["v1"]
    assert raw(apiserver, "GET", "/version").body["major"] == "1"

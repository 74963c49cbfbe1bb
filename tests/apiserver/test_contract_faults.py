"""Failures a real cluster produces, injected on demand: RBAC 403, 5xx, slowness, a concurrent
writer between two requests, and admission (dry run and validating webhooks)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from tests.apiserver.faults import RequestRecord, matching
from tests.apiserver.fixtures import api_client, raw, sample_dgd
from tests.apiserver.resources import DGD
from tests.apiserver.server import ApiServer

GROUP, VERSION, PLURAL, NS = "nvidia.com", "v1beta1", "dynamographdeployments", "dynamo"
BASE = f"/apis/{GROUP}/{VERSION}/namespaces/{NS}/{PLURAL}"


@pytest.fixture
def api(apiserver: ApiServer) -> Any:
    return client.CustomObjectsApi(api_client(apiserver))


def test_forbidden_patch_is_403_with_rbac_message(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    apiserver.faults.forbid("patch")
    response = raw(
        apiserver,
        "PATCH",
        f"{BASE}/alpha",
        {"spec": {}},
        content_type="application/merge-patch+json",
    )
    assert response.code == 403
    assert response.body["reason"] == "Forbidden"
    assert response.body["message"] == (
        'dynamographdeployments.nvidia.com "alpha" is forbidden: User "dgd-tester" cannot patch '
        'resource "dynamographdeployments" in API group "nvidia.com" in the namespace "dynamo"'
    )
    assert raw(apiserver, "GET", f"{BASE}/alpha").code == 200  # only the forbidden verb


def test_forbidden_cluster_wide_list_names_the_cluster_scope(apiserver: ApiServer) -> None:
    apiserver.faults.forbid("list")
    response = raw(apiserver, "GET", f"/apis/{GROUP}/{VERSION}/{PLURAL}")
    assert response.code == 403
    assert response.body["message"] == (
        'dynamographdeployments.nvidia.com is forbidden: User "dgd-tester" cannot list '
        'resource "dynamographdeployments" in API group "nvidia.com" at the cluster scope'
    )


def test_forbid_in_one_namespace_only(apiserver: ApiServer) -> None:
    apiserver.faults.forbid("list", namespace="other")
    assert raw(apiserver, "GET", BASE).code == 200
    assert raw(apiserver, "GET", f"/apis/{GROUP}/{VERSION}/namespaces/other/{PLURAL}").code == 403


def test_next_requests_fail_with_500_then_recover(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    apiserver.faults.fail_next(2, code=500)
    codes = [raw(apiserver, "GET", f"{BASE}/alpha").code for _ in range(3)]
    assert codes == [500, 500, 200]


def test_service_unavailable_is_503_status(apiserver: ApiServer) -> None:
    apiserver.faults.fail_next(1, code=503)
    response = raw(apiserver, "GET", BASE)
    assert response.code == 503
    assert response.body["reason"] == "ServiceUnavailable"


def test_failures_spare_discovery_by_default(apiserver: ApiServer) -> None:
    apiserver.faults.fail_next(1, code=500)
    assert raw(apiserver, "GET", "/apis").code == 200
    assert raw(apiserver, "GET", BASE).code == 500


def test_delay_slows_matching_requests(apiserver: ApiServer) -> None:
    apiserver.faults.delay(0.3, matching(verb="list"))
    start = time.monotonic()
    assert raw(apiserver, "GET", BASE).code == 200
    assert time.monotonic() - start >= 0.3


def test_client_timeout_against_a_slow_server(apiserver: ApiServer, api: Any) -> None:
    apiserver.faults.delay(1.0, matching(verb="list"))
    with pytest.raises(Exception, match="timed out"):
        api.list_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, _request_timeout=0.2)


def test_another_writer_between_read_and_patch_makes_precondition_fail(
    apiserver: ApiServer, api: Any
) -> None:
    apiserver.seed(sample_dgd("alpha"))
    read = api.get_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha")

    def other_writer(_: RequestRecord) -> None:
        apiserver.store.patch(
            DGD,
            NS,
            "alpha",
            lambda obj: {**obj, "metadata": {**obj["metadata"], "labels": {"x": "y"}}},
        )

    apiserver.faults.before(other_writer, matching(verb="patch"))
    precondition = {
        "metadata": {"resourceVersion": read["metadata"]["resourceVersion"]},
        "spec": {"restart": {"id": "r1"}},
    }
    with pytest.raises(ApiException) as caught:
        api.patch_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha", precondition)
    assert caught.value.status == 409
    current = api.get_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha")
    assert current["metadata"]["labels"] == {"x": "y"}  # the other writer's change stands
    assert "restart" not in current["spec"]
    # the hook ran once: a retry with the fresh resourceVersion lands
    precondition["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"]
    retried = api.patch_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha", precondition)
    assert retried["spec"]["restart"] == {"id": "r1"}
    assert retried["metadata"]["labels"] == {"x": "y"}


def test_request_log_counts_requests_by_verb(apiserver: ApiServer, api: Any) -> None:
    apiserver.seed(sample_dgd("alpha"))
    apiserver.clear_log()
    api.get_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha")
    api.patch_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha", {"spec": {}})
    assert [(r.verb, r.resource, r.name) for r in apiserver.requests()] == [
        ("get", PLURAL, "alpha"),
        ("patch", PLURAL, "alpha"),
    ]
    assert apiserver.requests("patch")[0].content_type == "application/merge-patch+json"


# -- admission ----------------------------------------------------------------------------------


def test_dry_run_patch_returns_result_without_storing(apiserver: ApiServer) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    response = raw(
        apiserver,
        "PATCH",
        f"{BASE}/alpha?dryRun=All",
        {"spec": {"restart": {"id": "r"}}},
        content_type="application/merge-patch+json",
    )
    assert response.code == 200
    assert response.body["spec"]["restart"] == {"id": "r"}
    current = raw(apiserver, "GET", f"{BASE}/alpha").body
    assert current == stored


def test_dry_run_create_does_not_store(apiserver: ApiServer) -> None:
    response = raw(apiserver, "POST", f"{BASE}?dryRun=All", sample_dgd("fresh"))
    assert response.code == 201
    assert raw(apiserver, "GET", f"{BASE}/fresh").code == 404


def test_validator_rejects_like_a_webhook_with_422_and_causes(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))

    def no_sglang(op: str, rt: Any, old: Any, new: Any) -> list[tuple[str, str, str]] | None:
        if new["spec"].get("backendFramework") == "sglang":
            return [
                (
                    "spec.backendFramework",
                    "FieldValueForbidden",
                    "spec.backendFramework: Forbidden: field is immutable",
                )
            ]
        return None

    apiserver.store.validators.append(no_sglang)
    patch = {"spec": {"backendFramework": "sglang"}}
    for query in ("?dryRun=All", ""):
        response = raw(
            apiserver,
            "PATCH",
            f"{BASE}/alpha{query}",
            patch,
            content_type="application/merge-patch+json",
        )
        assert response.code == 422
        assert response.body["message"] == (
            'DynamoGraphDeployment.nvidia.com "alpha" is invalid: '
            "spec.backendFramework: Forbidden: field is immutable"
        )
        assert response.body["details"]["causes"] == [
            {
                "reason": "FieldValueForbidden",
                "message": "spec.backendFramework: Forbidden: field is immutable",
                "field": "spec.backendFramework",
            }
        ]
    assert raw(apiserver, "GET", f"{BASE}/alpha").body["spec"]["backendFramework"] == "vllm"


def test_restart_during_rolling_update_is_denied_by_the_webhook_when_enabled(
    apiserver: ApiServer,
) -> None:
    from tests.apiserver.webhooks import restart_frozen_during_rolling_update

    graph = sample_dgd("alpha")
    graph["status"]["rollingUpdate"] = {"phase": "InProgress"}
    apiserver.seed(graph)
    apiserver.store.validators.append(restart_frozen_during_rolling_update)
    response = raw(
        apiserver,
        "PATCH",
        f"{BASE}/alpha",
        {"spec": {"restart": {"id": "new"}}},
        content_type="application/merge-patch+json",
    )
    assert response.code == 403
    assert response.body["message"] == (
        'admission webhook "vdynamographdeployment.nvidia.com" denied the request: '
        'spec.restart.id: Invalid value: "new": cannot be changed while a rolling update is '
        "InProgress"
    )
    labels = raw(
        apiserver,
        "PATCH",
        f"{BASE}/alpha",
        {"metadata": {"labels": {"a": "b"}}},
        content_type="application/merge-patch+json",
    )
    assert labels.code == 200  # other changes pass


def test_delete_with_stale_resource_version_precondition_is_409(apiserver: ApiServer) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    rv = stored["metadata"]["resourceVersion"]
    apiserver.store.write_status(DGD, NS, "alpha", {"state": "pending"})
    response = raw(
        apiserver,
        "DELETE",
        f"{BASE}/alpha",
        {"kind": "DeleteOptions", "apiVersion": "v1", "preconditions": {"resourceVersion": rv}},
    )
    assert response.code == 409
    assert "Precondition failed: ResourceVersion in precondition: " + rv in response.body["message"]
    assert raw(apiserver, "GET", f"{BASE}/alpha").code == 200


def test_too_many_requests_is_429_with_retry_after(apiserver: ApiServer) -> None:
    apiserver.faults.fail_next(1, code=429)
    response = raw(apiserver, "GET", BASE)
    assert response.code == 429
    assert response.body["reason"] == "TooManyRequests"
    assert response.body["details"] == {"retryAfterSeconds": 1}
    assert response.headers["Retry-After"] == "1"


def test_gateway_timeout_is_504_status(apiserver: ApiServer) -> None:
    apiserver.faults.fail_next(1, code=504)
    response = raw(apiserver, "GET", BASE)
    assert (response.code, response.body["reason"]) == (504, "Timeout")


def test_request_log_keeps_the_user_agent(apiserver: ApiServer, api: Any) -> None:
    api.list_namespaced_custom_object(GROUP, VERSION, NS, PLURAL)
    assert apiserver.requests("list")[0].user_agent.startswith("OpenAPI-Generator/")

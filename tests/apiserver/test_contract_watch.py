"""Watch as kube-apiserver serves it, through the kubernetes client's Watch and raw HTTP."""

from __future__ import annotations

import json
import threading
import urllib.request
from typing import Any

import pytest
from kubernetes import client, watch
from kubernetes.client.exceptions import ApiException

from tests.apiserver.fixtures import api_client, sample_dgd
from tests.apiserver.resources import DGD
from tests.apiserver.server import ApiServer

GROUP, VERSION, PLURAL, NS = "nvidia.com", "v1beta1", "dynamographdeployments", "dynamo"


@pytest.fixture
def api(apiserver: ApiServer) -> Any:
    return client.CustomObjectsApi(api_client(apiserver))


def _stream(api: Any, stop_after: int = 0, **kwargs: Any) -> list[tuple[str, str, str]]:
    """(type, name, resourceVersion) of every event until the server's timeout ends the watch
    (or, with ``stop_after``, until that many events came)."""
    seen = []
    stream: Any = watch.Watch()  # type: ignore[no-untyped-call]
    for event in stream.stream(
        api.list_namespaced_custom_object, GROUP, VERSION, NS, PLURAL, **kwargs
    ):
        meta = event["object"]["metadata"]
        seen.append((event["type"], meta.get("name", ""), meta["resourceVersion"]))
        if len(seen) == stop_after:
            stream.stop()
    return seen


def _later(delay: float, action: Any) -> threading.Timer:
    timer = threading.Timer(delay, action)
    timer.start()
    return timer


def test_watch_without_resource_version_starts_with_added_for_existing(
    apiserver: ApiServer, api: Any
) -> None:
    apiserver.seed(sample_dgd("alpha"), sample_dgd("beta"))
    events = _stream(api, timeout_seconds=1)
    assert [(t, n) for t, n, _ in events] == [("ADDED", "alpha"), ("ADDED", "beta")]


def test_watch_resumes_after_resource_version(apiserver: ApiServer, api: Any) -> None:
    (alpha,) = apiserver.seed(sample_dgd("alpha"))
    since = alpha["metadata"]["resourceVersion"]
    apiserver.store.write_status(DGD, NS, "alpha", {"state": "pending"})
    apiserver.seed(sample_dgd("beta"))
    events = _stream(api, resource_version=since, timeout_seconds=1)
    assert [(t, n) for t, n, _ in events] == [("MODIFIED", "alpha"), ("ADDED", "beta")]
    assert all(int(rv) > int(since) for _, _, rv in events)


def test_watch_streams_changes_as_they_happen(apiserver: ApiServer, api: Any) -> None:
    (alpha,) = apiserver.seed(sample_dgd("alpha"))
    timer = _later(0.3, lambda: apiserver.store.write_status(DGD, NS, "alpha", {"state": "x"}))
    events = _stream(
        api, stop_after=1, resource_version=alpha["metadata"]["resourceVersion"], timeout_seconds=5
    )
    timer.join()
    assert [(t, n) for t, n, _ in events] == [("MODIFIED", "alpha")]


def test_watch_sees_deletion(apiserver: ApiServer, api: Any) -> None:
    (alpha,) = apiserver.seed(sample_dgd("alpha"))
    api.delete_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "alpha")
    events = _stream(api, resource_version=alpha["metadata"]["resourceVersion"], timeout_seconds=1)
    assert [(t, n) for t, n, _ in events] == [("DELETED", "alpha")]


def test_watch_field_selector_metadata_name(apiserver: ApiServer, api: Any) -> None:
    (alpha,) = apiserver.seed(sample_dgd("alpha"))
    since = alpha["metadata"]["resourceVersion"]
    apiserver.seed(sample_dgd("beta"))
    apiserver.store.write_status(DGD, NS, "alpha", {"state": "pending"})
    events = _stream(
        api, resource_version=since, field_selector="metadata.name=alpha", timeout_seconds=1
    )
    assert [(t, n) for t, n, _ in events] == [("MODIFIED", "alpha")]


def test_watch_label_selector_sends_deleted_when_object_stops_matching(
    apiserver: ApiServer, api: Any
) -> None:
    (alpha,) = apiserver.seed(sample_dgd("alpha", labels={"team": "a"}))
    since = alpha["metadata"]["resourceVersion"]
    api.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "alpha", {"metadata": {"labels": {"team": "b"}}}
    )
    api.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "alpha", {"metadata": {"labels": {"team": "a"}}}
    )
    events = _stream(api, resource_version=since, label_selector="team=a", timeout_seconds=1)
    assert [t for t, _, _ in events] == ["DELETED", "ADDED"]


def test_watch_other_namespace_is_not_seen(apiserver: ApiServer, api: Any) -> None:
    since = str(apiserver.store.resource_version)
    apiserver.seed(sample_dgd("elsewhere", namespace="other"))
    assert _stream(api, resource_version=since, timeout_seconds=1) == []


def test_watch_too_old_resource_version_is_410_expired(apiserver: ApiServer, api: Any) -> None:
    (alpha,) = apiserver.seed(sample_dgd("alpha"))
    apiserver.store.write_status(DGD, NS, "alpha", {"state": "pending"})
    apiserver.store.compact()
    with pytest.raises(ApiException) as caught:
        _stream(api, resource_version=alpha["metadata"]["resourceVersion"], timeout_seconds=1)
    assert caught.value.status == 410
    assert "Expired: too old resource version" in str(caught.value.reason)


def test_watch_expired_is_an_error_event_in_a_200_stream(apiserver: ApiServer) -> None:
    (alpha,) = apiserver.seed(sample_dgd("alpha"))
    apiserver.store.write_status(DGD, NS, "alpha", {"state": "pending"})
    apiserver.store.compact()
    rv = alpha["metadata"]["resourceVersion"]
    lines, code = _raw_watch(apiserver, f"watch=1&resourceVersion={rv}&timeoutSeconds=1")
    assert code == 200
    (event,) = [json.loads(line) for line in lines]
    assert event["type"] == "ERROR"
    assert event["object"]["code"] == 410
    assert event["object"]["reason"] == "Expired"


def test_watch_history_is_bounded(apiserver: ApiServer) -> None:
    apiserver.store._history_limit = 5  # a small window, as a small watch cache
    (alpha,) = apiserver.seed(sample_dgd("alpha"))
    for i in range(10):
        apiserver.store.write_status(DGD, NS, "alpha", {"state": f"s{i}"})
    rv = alpha["metadata"]["resourceVersion"]
    lines, _ = _raw_watch(apiserver, f"watch=true&resourceVersion={rv}&timeoutSeconds=1")
    assert json.loads(lines[0])["object"]["code"] == 410


def test_watch_bookmark_before_timeout_when_allowed(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    rv = apiserver.store.resource_version
    lines, _ = _raw_watch(
        apiserver, f"watch=true&resourceVersion={rv}&timeoutSeconds=1&allowWatchBookmarks=true"
    )
    (event,) = [json.loads(line) for line in lines]
    assert event["type"] == "BOOKMARK"
    assert event["object"]["metadata"]["resourceVersion"] == str(rv)


def _raw_watch(server: ApiServer, query: str) -> tuple[list[str], int]:
    url = f"{server.url}/apis/{GROUP}/{VERSION}/namespaces/{NS}/{PLURAL}?{query}"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(request, timeout=10, context=server.ssl_context()) as response:
        body = response.read().decode()
        return [line for line in body.splitlines() if line], response.status

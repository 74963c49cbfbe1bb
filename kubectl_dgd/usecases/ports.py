"""What the live use cases need from a cluster; ``adapters.cluster.Cluster`` provides it.

Tests and other front ends may pass anything with these methods. Objects are plain dicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

# Monotonic seconds, for deadlines (time.monotonic in production, a fake in tests).
Clock = Callable[[], float]


class GraphCluster(Protocol):
    namespace: str
    # How to wait (between watches, before a retry): time.sleep, or a fake in tests.
    sleep: Callable[[float], None]

    def get_graph(self, name: str, namespace: str | None = None) -> dict[str, Any]: ...

    def list_graphs(
        self, namespace: str | None, selector: str | None = None, fields: str | None = None
    ) -> dict[str, Any]: ...

    def watch_graphs(
        self, namespace: str, name: str, resource_version: str, timeout: float | None = None
    ) -> Iterator[tuple[str, dict[str, Any]]]: ...

    def watch_list(
        self,
        namespace: str | None,
        resource_version: str,
        selector: str | None = None,
        fields: str | None = None,
        timeout: float | None = None,
    ) -> Iterator[tuple[str, dict[str, Any]]]: ...

    def patch_restart(
        self,
        name: str,
        namespace: str,
        restart: dict[str, Any],
        resource_version: str,
        dry_run: bool = False,
    ) -> dict[str, Any]: ...

    def dry_run_apply(
        self, obj: dict[str, Any], namespace: str, exists: bool
    ) -> dict[str, Any]: ...

    def dgd_admission_webhooks(self) -> list[str] | None: ...

    def get_crd(self) -> dict[str, Any] | None: ...

    def crd_installed(self) -> bool: ...

    def list_events(self, name: str, namespace: str) -> list[dict[str, Any]]: ...

    def operator_images(self) -> list[str]:
        """Images of the Dynamo operator's manager containers ([] when none can be read)."""
        ...

    def list_objects(
        self,
        api_version: str,
        plural: str,
        namespace: str | None,
        selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        """Every object of one kind in ``namespace`` (all pages of one LIST); None lists every
        namespace, or a cluster-scoped kind (nodes). ``api_version`` is ``v1`` or
        ``group/version``. NotFoundError when the kind is not served (its CRD is not installed);
        ApiError with status 403 when the LIST is forbidden, 400 when the server does not support
        the field selector."""
        ...

    def pod_log(
        self,
        namespace: str,
        pod: str,
        container: str | None = None,
        *,
        follow: bool = False,
        previous: bool = False,
        tail: int | None = None,
        since_seconds: int | None = None,
        timestamps: bool = False,
    ) -> Iterator[str]:
        """The lines (without their newline) of one container's log (``pods/log``); with
        ``follow``, as they come, until the container or the pod ends; with ``timestamps``
        each starts with the kubelet's RFC 3339 time and a space."""
        ...

    def served_versions(self, group: str, plural: str) -> list[str] | None:
        """The versions at which the API serves ``plural`` of ``group`` (discovery, which any
        account may read), preferred first; [] when not served; None when unknown."""
        ...

    def list_names(self, api_version: str, plural: str, namespace: str) -> list[str]:
        """The names of one kind's objects in ``namespace``, nothing else (for Secrets: never
        their data). Errors as ``list_objects``."""
        ...


class VersionedCluster(GraphCluster, Protocol):
    """A cluster that also says its API server's version (``version``)."""

    def server_version(self) -> dict[str, Any]:
        """The API server's ``/version`` document, as it answered."""
        ...

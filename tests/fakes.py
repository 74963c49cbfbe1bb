"""The fake twin of ``kubectl_dgd.cli.deps.Deps`` (as argo-rollouts' ``options/fake``), and an
in-memory cluster for it: command tests run in-process and compare exact stdout and stderr.

    fake = FakeDeps(cluster=FakeCluster([graph()]))
    code = invoke(fake, "status", "my-graph")
    assert (code, fake.out, fake.err) == (0, "...", "")
"""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator, Mapping
from typing import Any

from kubectl_dgd.cli.deps import Deps, parse_now
from kubectl_dgd.errors import NotFoundError
from kubectl_dgd.usecases.ports import GraphCluster

FIXED_NOW = "2026-11-30T10:00:00Z"


class _Stream(io.StringIO):
    """A captured stream that says whether it is a terminal, as a real one does."""

    def __init__(self, text: str = "", tty: bool = False) -> None:
        super().__init__(text)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


class FakeCluster:
    """Graphs kept in memory, keyed by namespace and name; implements ``GraphCluster``.

    ``watch_scripts``: what each call of ``watch_graphs`` yields, in turn (the operator's moves);
    ``events``: the Events of a graph, keyed by ``(namespace, name)``. ``calls`` records every
    request as ``(verb, namespace, name)``.
    """

    def __init__(
        self,
        graphs: list[dict[str, Any]] | None = None,
        namespace: str = "dynamo",
        watch_scripts: list[list[tuple[str, dict[str, Any]]]] | None = None,
        events: Mapping[tuple[str, str], list[dict[str, Any]]] | None = None,
        crd: dict[str, Any] | None = None,
    ) -> None:
        self.namespace = namespace
        self.graphs: dict[tuple[str, str], dict[str, Any]] = {}
        for obj in graphs or []:
            meta = obj["metadata"]
            self.graphs[(meta.get("namespace") or namespace, meta["name"])] = copy.deepcopy(obj)
        self.watch_scripts = list(watch_scripts or [])
        self.events = dict(events or {})
        self.crd = crd
        self.objects: dict[str, list[dict[str, Any]]] = {}  # plural -> objects (list_objects)
        self.images: list[str] = []  # the operator's manager images (operator_images)
        self.logs: dict[tuple[str, str], list[str]] = {}  # (namespace, pod) -> its log lines
        self.calls: list[tuple[str, str | None, str | None]] = []

    def _key(self, name: str, namespace: str | None) -> tuple[str, str]:
        key = (namespace or self.namespace, name)
        if key not in self.graphs:
            raise NotFoundError(
                f'dynamographdeployments "{name}" not found in namespace "{key[0]}"'
            )
        return key

    def get_graph(self, name: str, namespace: str | None = None) -> dict[str, Any]:
        self.calls.append(("get", namespace, name))
        return copy.deepcopy(self.graphs[self._key(name, namespace)])

    def list_graphs(
        self, namespace: str | None, selector: str | None = None, fields: str | None = None
    ) -> dict[str, Any]:
        self.calls.append(("list", namespace, selector))
        items = [
            copy.deepcopy(obj)
            for (ns, _), obj in self.graphs.items()
            if (namespace is None or ns == namespace)
            and _selects(selector, obj)
            and _named(fields, obj)
        ]
        return {
            "apiVersion": "nvidia.com/v1beta1",
            "kind": "DynamoGraphDeploymentList",
            "items": items,
        }

    def watch_graphs(
        self, namespace: str, name: str, resource_version: str, timeout: float | None = None
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        self.calls.append(("watch", namespace, name))
        if not self.watch_scripts:
            raise KeyboardInterrupt  # the script is over: the user presses Ctrl-C
        yield from self.watch_scripts.pop(0)

    def watch_list(
        self,
        namespace: str | None,
        resource_version: str,
        selector: str | None = None,
        fields: str | None = None,
        timeout: float | None = None,
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """The next of ``watch_scripts``, as ``watch_graphs`` (one script for both)."""
        self.calls.append(("watch-list", namespace, None))
        if not self.watch_scripts:
            raise KeyboardInterrupt
        yield from self.watch_scripts.pop(0)

    def operator_images(self) -> list[str]:
        self.calls.append(("list", None, "operator-deployments"))
        return list(self.images)

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
        """``logs[(namespace, pod)]``, its last ``tail`` lines when given (no streaming)."""
        self.calls.append(("log", namespace, pod))
        lines = self.logs.get((namespace, pod), [])
        yield from lines if tail is None else lines[max(len(lines) - tail, 0) :]

    def list_names(self, api_version: str, plural: str, namespace: str) -> list[str]:
        if plural == "dynamographdeployments":
            self.calls.append(("list-names", namespace, plural))
            return sorted(name for ns, name in self.graphs if ns == namespace)
        return [o["metadata"]["name"] for o in self.list_objects(api_version, plural, namespace)]

    def patch_restart(
        self,
        name: str,
        namespace: str,
        restart: dict[str, Any],
        resource_version: str,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        self.calls.append(("patch-dry-run" if dry_run else "patch", namespace, name))
        obj = self.graphs[self._key(name, namespace)]
        if dry_run:
            obj = copy.deepcopy(obj)
        spec_restart = obj.setdefault("spec", {}).setdefault("restart", {})
        for key, value in restart.items():
            if value is None:
                spec_restart.pop(key, None)
            else:
                spec_restart[key] = value
        return copy.deepcopy(obj)

    def dry_run_apply(self, obj: dict[str, Any], namespace: str, exists: bool) -> dict[str, Any]:
        self.calls.append(("dry-run", namespace, obj["metadata"]["name"]))
        return copy.deepcopy(obj)

    def dgd_admission_webhooks(self) -> list[str] | None:
        # As a cluster with the operator installed: its validating webhook covers DGDs.
        return ["vdynamographdeployment.kb.io"]

    def get_crd(self) -> dict[str, Any] | None:
        self.calls.append(("get-crd", None, None))
        return self.crd

    def crd_installed(self) -> bool:
        return True

    def list_events(self, name: str, namespace: str) -> list[dict[str, Any]]:
        self.calls.append(("events", namespace, name))
        return copy.deepcopy(self.events.get((namespace, name), []))

    def served_versions(self, group: str, plural: str) -> list[str] | None:
        """Unknown: the use cases then ask for each kind and see (a 404 is not served)."""
        return None

    def list_objects(
        self,
        api_version: str,
        plural: str,
        namespace: str | None,
        selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        """``objects[plural]`` (none by default: a cluster without nodes or pods); ``events``
        also serves the graphs' Events given to the constructor, as about those graphs."""
        self.calls.append(("list", namespace, plural))
        found = [copy.deepcopy(o) for o in self.objects.get(plural, []) if _selects(selector, o)]
        if plural == "events":
            for (ns, name), events in self.events.items():
                if namespace is None or ns == namespace:
                    about = {"kind": "DynamoGraphDeployment", "name": name, "namespace": ns}
                    found += [{"involvedObject": about, **copy.deepcopy(e)} for e in events]
        return found


def _named(fields: str | None, obj: dict[str, Any]) -> bool:
    """A field selector of one ``metadata.name=X`` term, as the server judges it; any other is
    left to the caller (the fake judges no other)."""
    if not fields or not fields.startswith("metadata.name=") or "," in fields:
        return True
    return bool(fields.removeprefix("metadata.name=") == obj["metadata"]["name"])


def _selects(selector: str | None, obj: dict[str, Any]) -> bool:
    """Equality selectors only (a=b,c!=d), enough for the tests."""
    labels = (obj.get("metadata") or {}).get("labels") or {}
    for term in (selector or "").split(","):
        if "!=" in term:
            key, value = term.split("!=", 1)
            if labels.get(key) == value:
                return False
        elif "=" in term:
            key, value = term.split("=", 1)
            if labels.get(key) != value:
                return False
    return True


class FakeDeps(Deps):
    """StringIO streams, a fixed clock (wall and monotonic), a given environment, and a given
    cluster (it is never built from a kubeconfig)."""

    def __init__(
        self,
        cluster: GraphCluster | None = None,
        stdin: str = "",
        environ: Mapping[str, str] | None = None,
        now: str = FIXED_NOW,
        tty: bool = False,
    ) -> None:
        fixed = parse_now(now)
        self.ticks = 0.0
        super().__init__(
            stdin=_Stream(stdin),
            stdout=_Stream(tty=tty),
            stderr=_Stream(),
            environ=dict(environ or {}),
            wall_clock=lambda: fixed,
            monotonic=self._tick,
            watch_refresh=0.0,  # no timer thread: a watch screen is drawn only on a change
        )
        self.given_cluster = cluster

    def _tick(self) -> float:
        self.ticks += 1.0  # every reading moves the clock one second: deadlines pass, fast
        return self.ticks

    def connect(self) -> GraphCluster:
        if self.given_cluster is None:
            raise AssertionError("this command asked for a cluster; give FakeDeps(cluster=...)")
        return self.given_cluster

    @property
    def out(self) -> str:
        return self.stdout.getvalue()  # type: ignore[attr-defined,no-any-return]

    @property
    def err(self) -> str:
        return self.stderr.getvalue()  # type: ignore[attr-defined,no-any-return]


def invoke(deps: FakeDeps, *args: str) -> int:
    """Run ``kubectl dgd ARGS`` in this process through the real entry point, with ``deps``;
    the exit code (stdout and stderr are in ``deps.out`` and ``deps.err``)."""
    from kubectl_dgd.cli.main import main

    try:
        main(list(args), deps=deps)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    raise AssertionError("main() returned without an exit code")

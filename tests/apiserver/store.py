"""The object store behind the test API server: resourceVersion, generation, history for watches.

One global resourceVersion counter (as etcd's revision), bumped by every write that changes an
object; a no-op write changes nothing, as on the real server. ``metadata.generation`` starts at 1
and moves only when something outside ``metadata`` and ``status`` changes. With the status
subresource, the main resource ignores ``status`` and ``/status`` ignores everything else.
"""

from __future__ import annotations

import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from tests.apiserver import errors
from tests.apiserver.resources import DEFAULT_TYPES, NAMESPACES, OPTIONAL_GROUPS, ResourceType

Obj = dict[str, Any]
# (operation "CREATE"|"UPDATE", type, old object or None, new object) -> causes (field, reason,
# message) for a 422, or nothing when the object is admitted; may raise an ApiError itself (a
# webhook denial). Emulates admission: CEL rules and validating webhooks.
Validator = Callable[[str, ResourceType, Obj | None, Obj], list[tuple[str, str, str]] | None]

_T = TypeVar("_T")

_SYSTEM_META = ("uid", "creationTimestamp", "generation", "resourceVersion", "namespace", "name")


@dataclass(frozen=True)
class Change:
    """One entry of the watch history."""

    rv: int
    type: str  # ADDED, MODIFIED, DELETED
    rt_key: tuple[str, str, str]
    namespace: str
    obj: Obj
    previous: Obj | None


def clone(value: _T) -> _T:
    """A deep copy of a JSON value (dicts, lists, scalars). copy.deepcopy's memo made the ~270 kB
    CRD object, copied on every seed and read, the largest cost of a test's setup."""
    return cast(_T, _clone(value))


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clone(item) for item in value]
    return value


def _timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _without(obj: Mapping[str, Any], *keys: str) -> Obj:
    return {k: v for k, v in obj.items() if k not in keys}


class Store:
    def __init__(
        self,
        types: Iterable[ResourceType] = DEFAULT_TYPES,
        *,
        history_limit: int = 1000,
        clock: Callable[[], datetime] | None = None,
        first_resource_version: int = 1000,
    ) -> None:
        self.types: dict[tuple[str, str, str], ResourceType] = {rt.key: rt for rt in types}
        # "uninstalled" CRD groups; Grove and LWS start uninstalled (ApiServer.install_addon)
        self.hidden_groups: set[str] = set(OPTIONAL_GROUPS)
        self.served_at: dict[tuple[str, str, str], str] = {}  # see serve_at
        self.validators: list[Validator] = []
        self.clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._rv = first_resource_version
        self._objects: dict[tuple[str, str, str], dict[tuple[str, str], Obj]] = {
            key: {} for key in self.types
        }
        self._history: deque[Change] = deque()
        self._history_limit = history_limit
        self._oldest_rv = first_resource_version  # history holds every change after this
        self.closed = False

    # -- lookup ---------------------------------------------------------------------------------

    def type_for(self, group: str, version: str, plural: str) -> ResourceType | None:
        rt = self.types.get((group, version, plural))
        if rt is not None and rt.key in self.served_at:
            return None  # served at another version now
        if rt is None:
            moved = [t for t in self.types.values() if self.served_at.get(t.key) == version]
            rt = next((t for t in moved if (t.group, t.plural) == (group, plural)), None)
        if rt is None or rt.group in self.hidden_groups:
            return None
        return rt

    def type_of(self, obj: Mapping[str, Any]) -> ResourceType:
        api_version, kind = obj.get("apiVersion", ""), obj.get("kind", "")
        for rt in self.types.values():
            if rt.group_version == api_version and rt.kind == kind:
                return rt
        raise KeyError(f"no resource type for {api_version} {kind}")

    def serve_at(self, rt: ResourceType, version: str) -> None:
        """Serve ``rt`` at ``version`` instead of its own (an operator release whose CRD moved
        on): discovery and the paths name ``version``; the objects stay where they are, as if
        the server converted them."""
        with self._cond:
            self.served_at[rt.key] = version

    @property
    def lock(self) -> Any:
        """Held by a writer that must read and write atomically (the operator simulation)."""
        return self._lock

    @property
    def resource_version(self) -> int:
        with self._cond:
            return self._rv

    # -- reads ----------------------------------------------------------------------------------

    def get(self, rt: ResourceType, namespace: str, name: str) -> Obj:
        with self._cond:
            obj = self._objects[rt.key].get((namespace if rt.namespaced else "", name))
            if obj is None:
                raise errors.not_found(rt, name)
            return clone(obj)

    def list(
        self,
        rt: ResourceType,
        namespace: str | None,
        predicate: Callable[[Obj], bool] = lambda obj: True,
    ) -> tuple[list[Obj], str]:
        """Matching objects sorted by namespace and name (as etcd keys), and the list's RV."""
        with self._cond:
            items = [
                clone(obj)
                for (ns, _), obj in sorted(self._objects[rt.key].items())
                if (namespace is None or ns == namespace) and predicate(obj)
            ]
            return items, str(self._rv)

    # -- writes ---------------------------------------------------------------------------------

    def create(self, rt: ResourceType, namespace: str, obj: Obj, *, dry_run: bool = False) -> Obj:
        with self._cond:
            new = clone(obj)
            meta = new.setdefault("metadata", {})
            if not meta.get("name") and meta.get("generateName"):
                meta["name"] = meta["generateName"] + uuid.uuid4().hex[:5]
            name = meta.get("name", "")
            if not name:
                raise errors.invalid(
                    rt,
                    "",
                    [
                        (
                            "metadata.name",
                            "FieldValueRequired",
                            "metadata.name: Required value: name or generateName is required",
                        )
                    ],
                )
            if rt.namespaced:
                if meta.get("namespace", namespace) != namespace:
                    raise errors.bad_request(
                        "the namespace of the provided object does not match the namespace "
                        "sent on the request"
                    )
                if ("", namespace) not in self._objects[NAMESPACES.key]:
                    raise errors.not_found(NAMESPACES, namespace)
                meta["namespace"] = namespace
            else:
                meta.pop("namespace", None)
            key = (namespace if rt.namespaced else "", name)
            if key in self._objects[rt.key]:
                raise errors.already_exists(rt, name)
            if rt.status_subresource:
                new.pop("status", None)  # status is written only through /status
            for field in ("resourceVersion", "uid", "deletionTimestamp", "managedFields"):
                meta.pop(field, None)
            new["apiVersion"], new["kind"] = rt.group_version, rt.kind
            meta["uid"] = str(uuid.uuid4())
            meta["creationTimestamp"] = _timestamp(self.clock())
            if rt.custom:
                meta["generation"] = 1
            self._admit("CREATE", rt, None, new)
            if dry_run:
                return new
            return self._store(rt, key, new, "ADDED", None)

    def replace(
        self,
        rt: ResourceType,
        namespace: str,
        name: str,
        obj: Obj,
        *,
        subresource: str = "",
        dry_run: bool = False,
    ) -> Obj:
        """PUT: the body's resourceVersion must match (custom resources require one)."""
        with self._cond:
            current = self.get(rt, namespace, name)
            sent_rv = obj.get("metadata", {}).get("resourceVersion")
            if not sent_rv and rt.custom:
                raise errors.invalid(
                    rt,
                    name,
                    [
                        (
                            "metadata.resourceVersion",
                            "FieldValueInvalid",
                            "metadata.resourceVersion: Invalid value: 0x0: must be specified "
                            "for an update",
                        )
                    ],
                )
            return self._update(rt, current, obj, subresource=subresource, dry_run=dry_run)

    def patch(
        self,
        rt: ResourceType,
        namespace: str,
        name: str,
        apply: Callable[[Obj], Obj],
        *,
        subresource: str = "",
        dry_run: bool = False,
    ) -> Obj:
        """Apply a patch function to the current object atomically; a resourceVersion the patch
        sets acts as a precondition."""
        with self._cond:
            current = self.get(rt, namespace, name)
            patched = apply(clone(current))
            return self._update(rt, current, patched, subresource=subresource, dry_run=dry_run)

    def delete(
        self, rt: ResourceType, namespace: str, name: str, preconditions: Obj | None = None
    ) -> Obj:
        """DELETE, with DeleteOptions preconditions (uid, resourceVersion) checked first."""
        with self._cond:
            current = self.get(rt, namespace, name)
            meta = current["metadata"]
            for field, label in (("uid", "UID"), ("resourceVersion", "ResourceVersion")):
                wanted = (preconditions or {}).get(field)
                if wanted and wanted != meta.get(field):
                    raise errors.conflict(
                        rt,
                        name,
                        f"Precondition failed: {label} in precondition: {wanted}, "
                        f"{label} in object meta: {meta.get(field)}",
                    )
            key = (namespace if rt.namespaced else "", name)
            del self._objects[rt.key][key]
            self._rv += 1
            gone = clone(current)
            gone["metadata"]["resourceVersion"] = str(self._rv)
            self._record(Change(self._rv, "DELETED", rt.key, key[0], gone, current))
            return gone

    def seed(self, obj: Obj) -> Obj:
        """Store an object as a test fixture: status kept, namespace created if missing,
        explicit creationTimestamp/uid/generation kept."""
        return self._seed(clone(obj))

    def seed_shared(self, obj: Obj) -> None:
        """``seed`` for a cached object that nobody edits (the bundled CRD, ~270 kB): all but
        its metadata is shared, not copied, as a stored object is never edited in place."""
        self._seed({**obj, "metadata": dict(obj.get("metadata") or {})}, give_copy=False)

    def _seed(self, new: Obj, give_copy: bool = True) -> Obj:
        rt = self.type_of(new)
        with self._cond:
            meta = new.setdefault("metadata", {})
            namespace = meta.get("namespace", "default") if rt.namespaced else ""
            if rt.namespaced:
                meta["namespace"] = namespace
                self.ensure_namespace(namespace)
            key = (namespace, meta["name"])
            meta.setdefault("uid", str(uuid.uuid4()))
            meta.setdefault("creationTimestamp", _timestamp(self.clock()))
            if rt.custom:
                meta.setdefault("generation", 1)
            previous = self._objects[rt.key].get(key)
            kind = "MODIFIED" if previous else "ADDED"
            return self._store(rt, key, new, kind, previous, give_copy=give_copy)

    def ensure_namespace(self, name: str) -> None:
        with self._cond:
            if ("", name) not in self._objects[NAMESPACES.key]:
                self.seed(
                    {
                        "apiVersion": "v1",
                        "kind": "Namespace",
                        "metadata": {"name": name},
                        "status": {"phase": "Active"},
                    }
                )

    def write_status(self, rt: ResourceType, namespace: str, name: str, status: Obj) -> Obj:
        """What a controller's status update does (no precondition)."""
        return self.patch(
            rt, namespace, name, lambda obj: {**obj, "status": status}, subresource="status"
        )

    # -- internals ------------------------------------------------------------------------------

    def _admit(self, operation: str, rt: ResourceType, old: Obj | None, new: Obj) -> None:
        for validator in self.validators:
            causes = validator(operation, rt, clone(old), clone(new))
            if causes:
                raise errors.invalid(rt, new.get("metadata", {}).get("name", ""), causes)

    def _update(
        self, rt: ResourceType, current: Obj, proposed: Obj, *, subresource: str, dry_run: bool
    ) -> Obj:
        meta = current["metadata"]
        name = meta["name"]
        sent = proposed.get("metadata") or {}
        if sent.get("resourceVersion") and sent["resourceVersion"] != meta["resourceVersion"]:
            raise errors.conflict(rt, name)
        if sent.get("name", name) != name:
            raise errors.bad_request(
                f"the name of the object ({sent.get('name')}) does not match the name on the URL "
                f"({name})"
            )
        if subresource == "status":
            new = clone(current)
            if "status" in proposed:
                new["status"] = clone(proposed["status"])
            else:
                new.pop("status", None)
        else:
            new = clone(proposed)
            new_meta = new.setdefault("metadata", {})
            for field in _SYSTEM_META:
                if field in meta:
                    new_meta[field] = meta[field]
            new_meta.pop("managedFields", None)
            if rt.status_subresource:
                new.pop("status", None)
                if "status" in current:
                    new["status"] = clone(current["status"])
        new["apiVersion"], new["kind"] = rt.group_version, rt.kind
        if rt.custom and _without(new, "metadata", "status") != _without(
            current, "metadata", "status"
        ):
            new["metadata"]["generation"] = int(meta.get("generation", 1)) + 1
        if new == current:
            return new  # a no-op write: no new resourceVersion, no watch event
        if subresource != "status":
            self._admit("UPDATE", rt, current, new)
        if dry_run:
            return new
        key = (meta.get("namespace", "") if rt.namespaced else "", name)
        return self._store(rt, key, new, "MODIFIED", current)

    def _store(
        self,
        rt: ResourceType,
        key: tuple[str, str],
        obj: Obj,
        kind: str,
        previous: Obj | None,
        give_copy: bool = True,
    ) -> Obj:
        self._rv += 1
        obj["metadata"]["resourceVersion"] = str(self._rv)
        self._objects[rt.key][key] = obj
        # A stored object is never edited in place (every write stores a new one), so the
        # history shares it, as it shares ``previous``.
        self._record(Change(self._rv, kind, rt.key, key[0], obj, previous))
        return clone(obj) if give_copy else obj

    def _record(self, change: Change) -> None:
        if len(self._history) >= self._history_limit:
            self._oldest_rv = self._history.popleft().rv
        self._history.append(change)
        self._cond.notify_all()

    # -- watch support --------------------------------------------------------------------------

    def changes_after(self, rt: ResourceType, after: int) -> tuple[Sequence[Change], int]:
        """Changes of this type with rv > after, and the current rv (to wait beyond);
        410 Expired when the history no longer reaches back to ``after``."""
        with self._cond:
            if after < self._oldest_rv:
                raise errors.expired(after, self._oldest_rv)
            changes = [c for c in self._history if c.rv > after and c.rt_key == rt.key]
            return changes, self._rv

    def wait_beyond(self, rv: int, timeout: float) -> None:
        with self._cond:
            self._cond.wait_for(lambda: self._rv > rv or self.closed, timeout)

    def compact(self) -> None:
        """Forget all history, as etcd compaction does: older resourceVersions become 410."""
        with self._cond:
            self._history.clear()
            self._oldest_rv = self._rv

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

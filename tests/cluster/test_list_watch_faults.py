"""``list -w`` against misbehaving servers: the collection watch backs off when every watch ends
at once, survives a dropped connection, lists again after 410 Gone (reporting what changed
meanwhile), and ends on a real API error. Driven on the use case over the real adapter with an
injected sleep, so nothing here really waits."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

import pytest

from kubectl_dgd.errors import ApiError
from kubectl_dgd.usecases.watch_list import ListEvent, ListWatch
from tests.apiserver.faults import dropped_stream, empty_watch, matching, watch_lines
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, graph
from tests.cluster.test_watch_faults import FakeTime, _cluster

WATCH = matching(verb="watch")


class Stop(Exception):
    """Ends a watch that would otherwise run for ever (as Ctrl-C ends it for a user)."""


def _rt(server: ApiServer) -> object:
    rt = server.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    return rt


def _stopping_after(fake: FakeTime, sleeps: int) -> FakeTime:
    real = fake.sleep

    def sleep(seconds: float) -> None:
        real(seconds)
        if len(fake.slept) >= sleeps:
            raise Stop

    fake.sleep = sleep  # type: ignore[method-assign]
    return fake


def _watch(server: ApiServer, fake: FakeTime) -> ListWatch:
    return ListWatch(_cluster(server, fake), NS, None, None, fake.clock, rand=lambda: 0).list()


def _names(events: Iterator[ListEvent], count: int) -> list[tuple[str, str]]:
    return [(e.type, e.obj["metadata"]["name"]) for e in itertools.islice(events, count)]


def test_every_watch_ending_at_once_backs_off(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    apiserver.faults.respond(empty_watch, WATCH)
    fake = _stopping_after(FakeTime(), 5)
    watch = _watch(apiserver, fake)
    with pytest.raises(Stop):
        next(watch.events())
    assert [round(s, 6) for s in fake.slept] == [0.8, 1.6, 3.2, 6.4, 12.8]
    assert len(apiserver.requests("watch")) == 5


def test_a_dropped_connection_is_waited_out_and_the_watch_goes_on(apiserver: ApiServer) -> None:
    apiserver.seed(graph("first"))
    apiserver.faults.respond(dropped_stream(), WATCH, times=1)
    fake = FakeTime()
    watch = _watch(apiserver, fake)
    events = watch.events()
    apiserver.store.create(_rt(apiserver), NS, graph("second", status={}))  # type: ignore[arg-type]
    assert _names(events, 1) == [("ADDED", "second")]
    assert [round(s, 6) for s in fake.slept] == [0.8]


def test_410_gone_lists_again_and_reports_what_changed_meanwhile(apiserver: ApiServer) -> None:
    apiserver.seed(graph("kept"), graph("changed"), graph("deleted"))
    fake = FakeTime()
    watch = _watch(apiserver, fake)
    rt = _rt(apiserver)
    gone = {"type": "ERROR", "object": {"kind": "Status", "code": 410, "reason": "Expired"}}
    apiserver.faults.respond(watch_lines(json.dumps(gone).encode()), WATCH, times=1)
    status = apiserver.store.get(rt, NS, "changed")["status"]  # type: ignore[arg-type]
    apiserver.store.write_status(rt, NS, "changed", {**status, "state": "pending"})  # type: ignore[arg-type]
    apiserver.store.delete(rt, NS, "deleted")  # type: ignore[arg-type]
    apiserver.store.create(rt, NS, graph("added", status={}))  # type: ignore[arg-type]
    events = watch.events()
    assert _names(events, 3) == [
        ("ADDED", "added"),
        ("MODIFIED", "changed"),
        ("DELETED", "deleted"),
    ]
    assert len(apiserver.requests("list")) == 2
    apiserver.store.create(rt, NS, graph("later", status={}))  # type: ignore[arg-type]
    assert _names(events, 1) == [("ADDED", "later")]  # watching again from the new list


def test_a_forbidden_watch_ends_it_with_the_error(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    fake = FakeTime()
    watch = _watch(apiserver, fake)
    apiserver.faults.forbid("watch")
    with pytest.raises(ApiError) as raised:
        next(watch.events())
    assert raised.value.status == 403
    assert fake.slept == []

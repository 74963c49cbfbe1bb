"""The dependencies object of the kubectl front end (cli/deps.py): the clock it gives, colour, and
a cluster client built once, on first use only."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kubectl_dgd.cli.deps import Deps
from kubectl_dgd.errors import UsageError
from tests.fakes import FakeCluster, FakeDeps, invoke

WALL = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _deps(environ: dict[str, str] | None = None, stdout: Any = None) -> Deps:
    return Deps(io.StringIO(), stdout or io.StringIO(), io.StringIO(), environ or {}, lambda: WALL)


def test_now_is_the_wall_clock_unless_fixed() -> None:
    assert _deps().now() == WALL
    assert _deps().now("2026-11-30T10:00:00Z") == datetime(2026, 11, 30, 10, tzinfo=UTC)
    assert _deps({"DGD_NOW": "2026-11-30T10:00:00Z"}).now().hour == 10


def test_a_fixed_time_keeps_its_offset_and_a_bare_one_is_utc() -> None:
    plus_two = _deps().now("2026-11-30T12:00:00+02:00")
    assert plus_two.utcoffset() == timedelta(hours=2)
    assert plus_two == datetime(2026, 11, 30, 10, tzinfo=UTC)
    assert _deps().now("2026-11-30T10:00:00").tzinfo == UTC


def test_a_bad_fixed_time_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--now: not an RFC 3339 time: 'noon'"):
        _deps().now("noon")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    assert _deps(stdout=_Tty()).style().enabled
    assert not _deps().style().enabled
    assert not _deps({"NO_COLOR": "1"}, stdout=_Tty()).style().enabled


class _Counting(Deps):
    built = 0

    def connect(self) -> Any:
        self.built += 1
        return FakeCluster([])


def test_the_cluster_is_built_on_first_use_and_once() -> None:
    deps = _Counting(io.StringIO(), io.StringIO(), io.StringIO(), {})
    assert deps.built == 0
    assert deps.cluster() is deps.cluster()
    assert deps.built == 1


def test_a_command_gets_its_connection_flags_in_the_deps() -> None:
    fake = FakeDeps(FakeCluster([]))
    assert invoke(fake, "list", "-n", "prod", "--request-timeout", "5s") == 0
    assert fake.connection is not None
    assert (fake.connection.namespace, fake.connection.request_timeout) == ("prod", 5.0)


def test_the_status_watch_redraws_in_place_on_a_terminal() -> None:
    from tests.cluster.conftest import NOW, graph

    changed = graph()
    changed["metadata"]["resourceVersion"] = "2"
    cluster = FakeCluster([graph()], watch_scripts=[[("MODIFIED", changed)]])
    fake = FakeDeps(cluster, now=NOW, tty=True)
    assert invoke(fake, "status", "my-graph", "--watch", "-o", "name") == 2  # refused
    assert invoke(fake, "status", "my-graph", "--watch") == 130
    frames = fake.out.split("\x1b[H\x1b[2J")
    assert frames[0] == "" and len(frames) == 3
    assert frames[1] == frames[2]
    assert frames[1].startswith("Name:         my-graph\n")


def test_wiring_the_deps_imports_no_cluster_client() -> None:
    code = (
        "import sys, kubectl_dgd.cli.deps, kubectl_dgd.cli.flags, kubectl_dgd.output.printer;"
        "print(sorted(m for m in ('kubernetes', 'deepdiff', 'pydantic') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout == "[]\n"


def test_the_fake_cluster_and_the_adapter_implement_every_method_of_the_port() -> None:
    """mypy does not check tests/: the fake must not drift from the port it stands in for."""
    import inspect

    from kubectl_dgd.adapters.cluster import Cluster
    from kubectl_dgd.usecases.ports import GraphCluster
    from tests.fakes import FakeCluster

    methods = [
        name
        for name, member in vars(GraphCluster).items()
        if callable(member) and not name.startswith("_")
    ]
    assert len(methods) >= 12
    for implementation in (FakeCluster, Cluster):
        for name in methods:
            wanted = list(inspect.signature(getattr(GraphCluster, name)).parameters)
            given = list(inspect.signature(getattr(implementation, name)).parameters)
            assert given == wanted, (implementation.__name__, name)

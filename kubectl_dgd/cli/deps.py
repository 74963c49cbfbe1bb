"""What a command may touch, in one object: the streams, the clocks, the environment and the
cluster client (as argo-rollouts' ``options``). Commands read it from the click context
(:func:`current_deps`) instead of reaching for ``sys.stdout``, ``os.environ`` or the clock;
tests give a fake twin (``tests/fakes.py``) and get exact stdout and stderr in-process.

The cluster client is built on first use from the connection flags, so an offline command
never imports ``kubernetes``.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from kubectl_dgd.errors import DgdError, UsageError
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.fit import DEFAULT_WIDTH
from kubectl_dgd.output.printer import Options, Printer, View, to_printer
from kubectl_dgd.output.style import Style
from kubectl_dgd.usecases.watching import Screen

# How often a watch screen's "Last change" line has its age moved on (seconds; 0: never).
WATCH_REFRESH = 1.0

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
    from kubectl_dgd.cli.last_change import LastChange
    from kubectl_dgd.usecases.ports import GraphCluster

F = TypeVar("F", bound=Callable[..., Any])


def _wall_clock() -> datetime:
    return datetime.now(UTC)


def parse_now(value: str) -> datetime:
    """A fixed time given as RFC 3339 (``--now``, ``DGD_NOW``); a bare time is UTC."""
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as err:
        raise UsageError(f"--now: not an RFC 3339 time: {value!r}") from err
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


@dataclass
class Deps:
    """What a command may touch: its streams, clocks, environment and cluster."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO
    environ: Mapping[str, str]
    wall_clock: Callable[[], datetime] = _wall_clock
    monotonic: Callable[[], float] = time.monotonic
    # Set by the connection flags of the running command; None: kubectl's defaults.
    connection: ConnectionSettings | None = None
    watch_refresh: float = WATCH_REFRESH
    _cluster: GraphCluster | None = field(default=None, repr=False)

    @classmethod
    def from_process(cls) -> Deps:
        return cls(sys.stdin, sys.stdout, sys.stderr, os.environ)

    # ---- time ----

    def now(self, fixed: str | None = None) -> datetime:
        """The current time, or the fixed one tests give with the hidden --now / DGD_NOW."""
        fixed = fixed or self.environ.get("DGD_NOW")
        return parse_now(fixed) if fixed else self.wall_clock()

    def local_time(self, moment: datetime) -> datetime:
        """``moment`` in the local time zone: the environment's TZ (an IANA name such as
        ``Europe/Paris``), else the process's own zone (which also reads a POSIX TZ rule)."""
        zone = (self.environ.get("TZ") or "").lstrip(":")
        if zone:
            from zoneinfo import ZoneInfo

            try:
                return moment.astimezone(ZoneInfo(zone))
            except (KeyError, ValueError, OSError):  # not a zone name (a POSIX rule, ...)
                pass
        return moment.astimezone()

    # ---- cluster ----

    def cluster(self) -> GraphCluster:
        """The cluster of the connection flags, resolved as kubectl does, built once."""
        if self._cluster is None:
            self._cluster = self.connect()
        return self._cluster

    def connect(self) -> GraphCluster:
        from kubectl_dgd.adapters.cluster import Cluster
        from kubectl_dgd.adapters.kubeconfig import ConnectionSettings, resolve
        from kubectl_dgd.output.terminal import escape_cell

        conn = self.connection or ConnectionSettings()
        log = self.warn if conn.verbose else None

        def server_warning(line: str) -> None:  # the server's words: shown, never obeyed
            self.warn(escape_cell(line))

        return Cluster(resolve(conn, self.environ), conn.request_timeout, log, warn=server_warning)

    # ---- output ----

    def style(self) -> Style:
        """Colour only on a terminal and never with NO_COLOR."""
        return Style(self.is_terminal() and not self.environ.get("NO_COLOR"))

    def terminal_width(self) -> int:
        """COLUMNS when set (as a shell exports it), else the terminal's, else 80."""
        try:
            columns = int(self.environ.get("COLUMNS") or 0)
        except ValueError:
            columns = 0
        if columns > 0:
            return columns
        if self.is_terminal():
            import shutil

            return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
        return DEFAULT_WIDTH

    def options(self, headers: bool = True, **display: Any) -> Options:
        display.setdefault("width", self.terminal_width())
        display.setdefault("terminal", self.is_terminal())
        return Options(self.style(), headers, **display)

    def print(
        self, view: View, printer: Printer | str, headers: bool = True, **display: Any
    ) -> None:
        """The view on stdout by the command's printer (``-o``, see ``output/printer.py``; a
        plain format's name will do); ``display``: the other fields of ``Options`` (label
        columns, ...)."""
        to_printer(printer).print(view, self.stdout, self.options(headers, **display))

    def redraw(
        self, views: Iterable[View | Screen[Any]], printer: Printer | str, headers: bool = True
    ) -> None:
        """``--watch``: on a terminal each view replaces the screen, with the time it last
        changed under it, kept current and fitted to the terminal (cli/last_change.py); piped,
        the views follow each other as one stream (``---`` between YAML documents, as
        ``kubectl get -w``). A ``Screen`` is drawn again at each refresh from what was read."""
        printer = to_printer(printer)
        if not self.is_terminal():
            for count, view in enumerate(views):
                text = printer.render(_as_read(view), self.options(headers))
                self.stdout.write((printer.separator if count else "") + text)
                self.stdout.flush()
            return
        from kubectl_dgd.cli.last_change import LastChange

        def drawing(view: View | Screen[Any]) -> Callable[[], str]:
            def draw() -> str:
                options = self.options(headers)  # the terminal's width now
                shown = view.at(self.now(), options.width) if isinstance(view, Screen) else view
                return printer.render(shown, options)

            return draw

        screen = LastChange(self.stdout, self.now, self.watch_refresh, self.terminal_rows)
        with screen, screen.resizes():
            for view in views:
                screen.show(drawing(view))

    def terminal_rows(self) -> int | None:
        """LINES when set, else the terminal's rows; None when stdout has no terminal size
        (a fake stream): nothing is clipped then."""
        try:
            rows = int(self.environ.get("LINES") or 0)
        except ValueError:
            rows = 0
        if rows > 0:
            return rows
        try:
            return os.get_terminal_size(self.stdout.fileno()).lines
        except (AttributeError, OSError, ValueError):
            return None

    def last_change(self) -> LastChange | None:
        """On a terminal, the keeper of a follow's last-change line (rollout status: close it
        when done); piped, None: the lines are the whole output."""
        if not self.is_terminal():
            return None
        from kubectl_dgd.cli.last_change import LastChange

        return LastChange(self.stdout, self.now, self.watch_refresh)

    def is_terminal(self) -> bool:
        """stdout is a terminal (a StringIO or a pipe is not)."""
        return bool(getattr(self.stdout, "isatty", lambda: False)())

    def warn(self, line: str) -> None:
        """One line on stderr (warnings, errors, progress that is not the result)."""
        click.echo(line, file=self.stderr)


def _as_read(view: View | Screen[Any]) -> View:
    return view.view if isinstance(view, Screen) else view


def current_deps() -> Deps:
    """The running command's dependencies: the context's ``obj`` (tests put a fake there),
    else the process's own, made once per invocation."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return Deps.from_process()
    root = ctx.find_root()
    if not isinstance(root.obj, Deps):
        root.obj = Deps.from_process()
    return root.obj


def handle_errors(func: F) -> F:
    """Turn the project's exceptions into one line on stderr and the documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except DgdError as err:
            # The message may quote an API server's answer: shown, never obeyed by the terminal.
            from kubectl_dgd.output.terminal import escape_cell

            current_deps().warn(f"error: {escape_cell(str(err))}")
            sys.exit(int(err.exit_code))
        except KeyboardInterrupt:
            sys.exit(int(Exit.INTERRUPTED))
        except BrokenPipeError:
            sys.exit(int(Exit.OK))

    return wrapper  # type: ignore[return-value]

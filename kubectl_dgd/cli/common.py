"""Pieces every command shares: output flags, colour, profile flags, and error handling."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import click

from kubectl_dgd.core.profile import NEWEST_VERSION, SUPPORTED_VERSIONS, Profile, release_of
from kubectl_dgd.errors import DgdError, UsageError
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.style import Style

F = TypeVar("F", bound=Callable[..., Any])


def style_for(stream: Any = None) -> Style:
    stream = stream or sys.stdout
    return Style(
        bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")
    )


def handle_errors(func: F) -> F:
    """Turn the project's exceptions into one line on stderr and the documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except DgdError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(int(err.exit_code))
        except KeyboardInterrupt:
            sys.exit(int(Exit.INTERRUPTED))
        except BrokenPipeError:
            sys.exit(int(Exit.OK))

    return wrapper  # type: ignore[return-value]


def input_options(func: F) -> F:
    """PATHS arguments and -f/--filename (repeatable): files, directories, - for stdin."""
    func = click.option(
        "-f",
        "--filename",
        "filenames",
        multiple=True,
        help="File or directory (repeatable); - for stdin.",
    )(func)
    return click.argument("paths", nargs=-1, type=click.Path())(func)


def profile_options(func: F) -> F:
    """--provider, --no-grove, --lpx, --checkpoint, --discovery: the operator settings to assume."""
    decorators = [
        click.option(
            "--provider",
            type=click.Choice(["grove", "component"]),
            default=None,
            help="Workload provider. Default: decided from the annotations as the mutating webhook does.",
        ),
        click.option(
            "--grove/--no-grove",
            default=True,
            show_default=True,
            help="Operator has Grove enabled.",
        ),
        click.option(
            "--lpx/--no-lpx", default=False, show_default=True, help="Operator has lpx.enabled."
        ),
        click.option(
            "--checkpoint/--no-checkpoint",
            default=True,
            show_default=True,
            help="Operator checkpoint gate.",
        ),
        click.option(
            "--discovery",
            type=click.Choice(["kubernetes", "default"]),
            default="default",
            show_default=True,
            help="Operator discovery backend (kubernetes adds Services for every component).",
        ),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _operator_version(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    del ctx, param
    if value is None:
        return None
    release = release_of(value)
    if release is None or release not in SUPPORTED_VERSIONS:
        raise click.BadParameter(
            f"{value!r} is not a supported operator version; one of {', '.join(SUPPORTED_VERSIONS)}."
        )
    return release


operator_version_option = click.option(
    "--operator-version",
    "operator_version",
    metavar="X.Y",
    default=None,
    callback=_operator_version,
    help=(
        f"Operator release whose rules, messages and CRD apply: {', '.join(SUPPORTED_VERSIONS)} "
        f"(X.Y.Z accepted). Default: {NEWEST_VERSION}, the newest we know; with --live, the "
        "cluster's (operator image tag, else the graphs' origin-version annotation)."
    ),
)


def make_profile(
    provider: str | None,
    grove: bool,
    lpx: bool,
    checkpoint: bool,
    discovery: str = "default",
    strict: bool = False,
    operator_version: str | None = None,
) -> Profile:
    return Profile(
        provider=provider,  # type: ignore[arg-type]
        grove=grove,
        lpx=lpx,
        checkpoint=checkpoint,
        kubernetes_discovery=discovery == "kubernetes",
        strict=strict,
        operator_version=operator_version or NEWEST_VERSION,
    )


now_option = click.option(
    "--now", hidden=True, envvar="DGD_NOW", help="Fixed clock for tests (RFC 3339)."
)


def clock(now: str | None) -> datetime:
    """The current time, or the fixed one tests give with the hidden --now / DGD_NOW."""
    if not now:
        return datetime.now(UTC)
    try:
        parsed = datetime.fromisoformat(now.replace("Z", "+00:00"))
    except ValueError as err:
        raise UsageError(f"--now: not an RFC 3339 time: {now!r}") from err
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)

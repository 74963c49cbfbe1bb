"""The flags commands share, declared once: input paths, operator profile, output format, the
hidden fixed clock, and kubectl's connection flags.

kubectl does not pass its own global flags to plugins ("flags cannot be placed before plugin
name"), so ``kubectl dgd status x -n ns`` must parse ``-n`` itself, with kubectl's names. A
command decorated with :func:`cluster_options` receives one ``conn: ConnectionSettings``
instead of the separate flags (and ``all_namespaces`` when it offers ``-A``); the same settings
go to the command's dependencies, which build the cluster client from them on first use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.core.profile import NEWEST_VERSION, SUPPORTED_VERSIONS, Profile, release_of

if TYPE_CHECKING:
    from kubectl_dgd.adapters.connection import ConnectionSettings

F = TypeVar("F", bound=Callable[..., Any])


class OutputFormat(click.Choice):  # type: ignore[type-arg]
    """``-o``: one of the choices, or a template format with its argument
    (``jsonpath=TEMPLATE``), turned into the command's :class:`Printer` as soon as the flags
    are read, before any request (cli-runtime's ``PrintFlags.ToPrinter``): a template is parsed
    and a template file read here, once."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from kubectl_dgd.output.printer import Printer, split_format, to_printer

        if isinstance(value, Printer):
            return value
        name, _ = split_format(str(value))
        super().convert(name, param, ctx)
        what = "template" if name.startswith("custom-columns") else "--template"  # kubectl's
        return to_printer(str(value), lambda path: read_template_file(path, what))

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
        """``-o <TAB>`` lists the formats ready to use; a template format (which needs its
        ``=ARGUMENT``) is offered as ``jsonpath=`` once its first letters are typed."""
        from click.shell_completion import CompletionItem

        from kubectl_dgd.output.printer import TEMPLATE_FORMATS

        plain = [c for c in self.choices if c not in TEMPLATE_FORMATS and c.startswith(incomplete)]
        templates = [
            f"{c}="
            for c in self.choices
            if c in TEMPLATE_FORMATS and incomplete and c.startswith(incomplete)
        ]
        # the template's text follows the "=" at once: no space after the candidate
        return [CompletionItem(c) for c in plain] + [
            CompletionItem(c, type="nospace") for c in templates
        ]


def read_template_file(path: str, what: str = "template") -> str:
    """A ``-o jsonpath-file=``/``custom-columns-file=`` file, read once and bounded as a
    manifest is: at most the manifest limit, a FIFO or device refused, ``/dev/stdin`` and
    ``<(...)`` read as the streams they are. ``-`` is a file named ``-``, as for kubectl."""
    from kubectl_dgd.adapters.yamlload import read_bytes
    from kubectl_dgd.errors import InputError, UsageError

    try:
        raw = read_bytes("./-" if path == "-" else path)
        return raw.decode("utf-8")
    except InputError as err:
        reason = str(err).removeprefix(f"{err.source}: ")
        raise UsageError(f"error reading {what} {path}, {reason}") from None
    except UnicodeDecodeError:
        raise UsageError(f"error reading {what} {path}, not UTF-8 text") from None


def output_option(
    choices: Sequence[str], default: str, show_default: bool = True
) -> Callable[[F], F]:
    """``-o/--output``: the formats of ``output/`` this command offers."""
    return click.option(
        "-o",
        "--output",
        type=OutputFormat(list(choices)),
        default=default,
        show_default=show_default,
    )


def input_options(func: F) -> F:
    """PATHS arguments and -f/--filename (repeatable): files, directories, - for stdin."""
    func = click.option(
        "-f",
        "--filename",
        "filenames",
        multiple=True,
        help="File or directory (repeatable); - for stdin.",
        shell_complete=completers.manifest_paths,
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


lws_option = click.option(
    "--lws/--no-lws", default=True, show_default=True, help="Operator has LeaderWorkerSet enabled."
)

# the flags profile_flags folds into one Profile: click's parameter names
_PROFILE_KEYS = ("provider", "grove", "lpx", "checkpoint", "discovery", "operator_version", "lws")


def profile_flags(release: bool = False, lws: bool = False) -> Callable[[F], F]:
    """The operator settings to assume (:func:`profile_options`; ``release``: also
    ``--operator-version``; ``lws``: also ``--lws/--no-lws``), handed to the command as one
    ``profile: Profile``. Without ``--operator-version`` the profile has the newest release; a
    command that detects the cluster's asks ``release_given()``."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            given = {key: kwargs.pop(key) for key in _PROFILE_KEYS if key in kwargs}
            kwargs["profile"] = Profile(
                provider=given["provider"],
                grove=given["grove"],
                lpx=given["lpx"],
                checkpoint=given["checkpoint"],
                kubernetes_discovery=given["discovery"] == "kubernetes",
                operator_version=given.get("operator_version") or NEWEST_VERSION,
                lws=given.get("lws", True),
            )
            return func(*args, **kwargs)

        decorated: Any = operator_version_option(wrapper) if release else wrapper
        decorated = profile_options(decorated)  # the help lists --lws, these, the release
        if lws:
            decorated = lws_option(decorated)
        return decorated  # type: ignore[no-any-return]

    return decorate


def release_given() -> bool:
    """The running command was given ``--operator-version`` (else: the newest, or detected)."""
    ctx = click.get_current_context()
    source = ctx.get_parameter_source("operator_version")
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


now_option = click.option(
    "--now", hidden=True, envvar="DGD_NOW", help="Fixed clock for tests (RFC 3339)."
)

_KEYS = ("kubeconfig", "context", "namespace", "request_timeout", "verbose")
# kubectl's connection overrides: click's parameter name -> ConnectionSettings field.
_OVERRIDES = {
    "cluster": "cluster",
    "user": "user",
    "server": "server",
    "certificate_authority": "certificate_authority",
    "insecure_skip_tls_verify": "insecure_skip_tls_verify",
    "tls_server_name": "tls_server_name",
    "token": "token",
    "client_certificate": "client_certificate",
    "client_key": "client_key",
    "as_user": "impersonate",
    "as_group": "impersonate_groups",
    "as_uid": "impersonate_uid",
}


def _connection_flags() -> list[Callable[[Any], Any]]:
    """kubectl's global connection flags, with its names and meanings (kubectl options)."""
    return [
        click.option(
            "--cluster",
            metavar="NAME",
            help="The kubeconfig cluster to use.",
            shell_complete=completers.clusters,
        ),
        click.option(
            "--user",
            metavar="NAME",
            help="The kubeconfig user to use.",
            shell_complete=completers.users,
        ),
        click.option(
            "-s", "--server", metavar="URL", help="The address and port of the API server."
        ),
        click.option(
            "--certificate-authority",
            metavar="PATH",
            help="A cert file for the CA to trust.",
            shell_complete=completers.any_path,
        ),
        click.option(
            "--insecure-skip-tls-verify",
            is_flag=True,
            help="Do not check the server's certificate (insecure).",
        ),
        click.option(
            "--tls-server-name",
            metavar="NAME",
            help="Server name to check the server's certificate against (default: the host).",
        ),
        click.option(
            "--token", metavar="TOKEN", help="Bearer token for the API server (never printed)."
        ),
        click.option(
            "--client-certificate",
            metavar="PATH",
            help="A client certificate file.",
            shell_complete=completers.any_path,
        ),
        click.option(
            "--client-key",
            metavar="PATH",
            help="A client key file.",
            shell_complete=completers.any_path,
        ),
        click.option("--as", "as_user", metavar="USER", help="Impersonate this user."),
        click.option(
            "--as-group",
            "as_group",
            metavar="GROUP",
            multiple=True,
            help="Impersonate this group (repeatable).",
        ),
        click.option("--as-uid", "as_uid", metavar="UID", help="Impersonate this UID."),
    ]


def connection_settings(params: Mapping[str, Any]) -> ConnectionSettings:
    """The ConnectionSettings of the connection flags' parsed values (a command's keyword
    arguments, or what completion has parsed of the line so far)."""
    # Imported here: offline commands also carry these flags but never pay for the adapter.
    from kubectl_dgd.adapters.connection import ConnectionSettings, parse_timeout

    values = {key: params.get(key) for key in _KEYS}
    overrides: dict[str, Any] = {field: params.get(key) for key, field in _OVERRIDES.items()}
    overrides["impersonate_groups"] = tuple(overrides["impersonate_groups"] or ())
    overrides["insecure_skip_tls_verify"] = bool(overrides["insecure_skip_tls_verify"])
    wants_more = overrides["impersonate_groups"] or overrides["impersonate_uid"]
    if wants_more and not overrides["impersonate"]:
        # kubectl's rule (client-go's impersonation): a group or UID needs --as
        from kubectl_dgd.errors import UsageError

        raise UsageError("requesting uid, groups or user-extra without impersonating a user (--as)")
    return ConnectionSettings(
        kubeconfig=values["kubeconfig"],
        context=values["context"],
        namespace=values["namespace"],
        request_timeout=parse_timeout(values["request_timeout"]),
        verbose=bool(values["verbose"]),
        **overrides,
    )


def cluster_options(all_namespaces: bool = False) -> Callable[[F], F]:
    """Add --kubeconfig, --context, -n, --request-timeout, -v, kubectl's connection overrides
    (--server, --token, --as, ...; see :func:`_connection_flags`), and -A if asked."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            from kubectl_dgd.cli.deps import current_deps

            conn = connection_settings(kwargs)
            for key in (*_KEYS, *_OVERRIDES):
                kwargs.pop(key, None)
            current_deps().connection = conn
            kwargs["conn"] = conn
            return func(*args, **kwargs)

        options = [
            click.option(
                "--kubeconfig",
                metavar="PATH",
                help="Use only this kubeconfig file (default: $KUBECONFIG, else ~/.kube/config).",
                shell_complete=completers.any_path,
            ),
            click.option(
                "--context",
                metavar="NAME",
                help="The kubeconfig context to use.",
                shell_complete=completers.contexts,
            ),
            click.option(
                "-n",
                "--namespace",
                metavar="NS",
                help="Namespace (default: the context's namespace, else default).",
                shell_complete=completers.namespaces,
            ),
            click.option(
                "--request-timeout",
                metavar="DURATION",
                default=None,
                help="Give up on a single request after this long (30s, 1m; 0 = never). Default 0.",
            ),
            click.option(
                "-v", "--verbose", is_flag=True, help="Show each API request on standard error."
            ),
        ]
        options += _connection_flags()
        if all_namespaces:
            options.append(
                click.option(
                    "-A",
                    "--all-namespaces",
                    is_flag=True,
                    help="List graphs of every namespace.",
                )
            )
        decorated: Any = wrapper
        for option in reversed(options):
            decorated = option(decorated)
        return decorated  # type: ignore[no-any-return]

    return decorate


DRY_RUN_VALUES = ("none", "client", "server")


def dry_run_option(help_text: str) -> Callable[[F], F]:
    """kubectl's ``--dry-run=none|client|server``; ``--dry-run`` alone means client (kubectl's
    default when no value is given: ``kubectl_args`` in main.py spells it out before parsing,
    since a value-taking click option would swallow the next word)."""
    return click.option(
        "--dry-run",
        "dry_run",
        type=click.Choice(DRY_RUN_VALUES),
        default="none",
        metavar="[=none|client|server]",
        help=help_text,
    )


def listing_options(func: F) -> F:
    """kubectl get's table flags: --sort-by, --show-labels, -L/--label-columns."""
    decorators = [
        click.option(
            "--sort-by",
            metavar="FIELD",
            help="Sort by this field of the objects, e.g. '{.metadata.creationTimestamp}'.",
        ),
        click.option("--show-labels", is_flag=True, help="Add a LABELS column (key=value,...)."),
        click.option(
            "-L",
            "--label-columns",
            multiple=True,
            metavar="KEY[,KEY]",
            help="A column with the value of each of these labels (repeatable).",
        ),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def label_keys(values: tuple[str, ...]) -> tuple[str, ...]:
    """-L a,b -L c -> (a, b, c), as kubectl splits its string-slice flags."""
    return tuple(key.strip() for value in values for key in value.split(",") if key.strip())

"""kubectl's flag syntax (pflag) for every flag of every command, through click's own parsing of
the rewritten arguments: ``-x=value`` for every short option that takes a value, ``--flag=BOOL``
and ``-x=BOOL`` for every boolean with each of strconv.ParseBool's spellings, the last of a
repeated boolean winning. The same spellings against the real kubectl: tests/cluster/
test_pflag_kubectl.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import click
import pytest

from kubectl_dgd.cli import main as cli_main
from kubectl_dgd.cli.pflag import pflag_args
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer
from tests.conftest import run_cli

TRUE = ("1", "t", "T", "TRUE", "true", "True")
FALSE = ("0", "f", "F", "FALSE", "false", "False")
ROOT = click.Context(cli_main.cli, info_name="kubectl dgd", help_option_names=["-h", "--help"])


def _commands() -> Iterator[tuple[str, click.Command]]:
    for name in cli_main.COMMANDS:
        command = cli_main.cli.get_command(ROOT, name)
        assert command is not None
        if isinstance(command, click.Group):
            for sub, subcommand in command.commands.items():
                yield f"{name} {sub}", subcommand
        else:
            yield name, command


COMMANDS = dict(_commands())


# Values for required options whose value is checked as it is parsed (any word will do for
# the others): upgrade-check --to takes an operator release.
SAMPLES = {"target": "1.6"}


def _parsed(command: click.Command, args: list[str]) -> dict[str, Any]:
    """click's values for ``args`` as pflag spells them (required arguments filled in)."""
    ctx = click.Context(command, parent=ROOT, info_name="x", resilient_parsing=False)
    required: list[str] = []
    for param in command.get_params(ctx):
        if param.required and isinstance(param, click.Argument):
            required.append("x")
        elif param.required and isinstance(param, click.Option):
            required += [param.opts[0], SAMPLES.get(str(param.name), "x")]
    rewritten = pflag_args(command, ctx, [*required, *args])
    return command.make_context("x", rewritten, parent=ROOT).params


def _options(kind: str) -> Iterator[tuple[str, click.Command, click.Option]]:
    for name, command in COMMANDS.items():
        for param in command.params:
            if not isinstance(param, click.Option) or param.hidden or param.expose_value is False:
                continue
            boolean = param.is_flag and param.is_bool_flag
            if (kind == "bool") == boolean and (boolean or param.nargs == 1):
                yield name, command, param


BOOLS = list(_options("bool"))
VALUES = [(n, c, p) for n, c, p in _options("value") if any(len(o) == 2 for o in p.opts)]


def _value(param: click.Option) -> str:
    if isinstance(param.type, click.Choice):
        plain = [str(c) for c in param.type.choices if c not in TEMPLATE_FORMATS]
        return plain[-1]
    return "y"


def _plain(value: Any) -> Any:
    """-o's value is the printer built from it: its format."""
    return value.format if isinstance(value, Printer) else value


@pytest.mark.parametrize(
    ("command", "option"),
    [(c, p) for _, c, p in BOOLS],
    ids=[f"{n} {p.opts[-1]}" for n, _, p in BOOLS],
)
def test_every_boolean_takes_kubectls_values_after_an_equals_sign(
    command: click.Command, option: click.Option
) -> None:
    name = option.name
    default = _parsed(command, [])[name]
    for spelling in option.opts:
        for word in TRUE:
            assert _parsed(command, [f"{spelling}={word}"])[name] is True, (spelling, word)
        for word in FALSE:
            assert _parsed(command, [f"{spelling}={word}"])[name] is False, (spelling, word)
        # the last one wins, as pflag sets the flag again
        assert _parsed(command, [spelling, f"{spelling}=false"])[name] is False
        assert _parsed(command, [f"{spelling}=false", spelling])[name] is True
        with pytest.raises(click.UsageError, match=r'strconv\.ParseBool: parsing "yes"'):
            _parsed(command, [f"{spelling}=yes"])
    assert default in (True, False)


@pytest.mark.parametrize(
    ("command", "option"),
    [(c, p) for _, c, p in VALUES],
    ids=[f"{n} {p.opts[0]}" for n, _, p in VALUES],
)
def test_every_short_option_takes_its_value_after_an_equals_sign(
    command: click.Command, option: click.Option
) -> None:
    short = next(o for o in option.opts if len(o) == 2)
    value = _value(option)
    for args in ([f"{short}={value}"], [f"{short}{value}"], [short, value]):
        parsed = _plain(_parsed(command, args)[option.name])
        # a required repeatable option was given once already (-f x) to make the line valid
        assert (parsed[-1] if option.multiple else parsed) == value, args


def test_a_value_that_looks_like_a_flag_is_still_the_value() -> None:
    listing = COMMANDS["list"]
    assert _parsed(listing, ["-n", "-A"])["namespace"] == "-A"
    assert _parsed(listing, ["-n", "-A"])["all_namespaces"] is False
    assert _parsed(listing, ["-Ao=name"])["output"].format == "name"
    assert _parsed(listing, ["-Aw=false"])["all_namespaces"] is True
    assert _parsed(listing, ["-l=app=x,tier!=y"])["selector"] == "app=x,tier!=y"


def test_after_a_double_dash_nothing_is_rewritten() -> None:
    validate = COMMANDS["validate"]
    ctx = click.Context(validate, parent=ROOT)
    assert pflag_args(validate, ctx, ["--", "-o=json", "--strict=false"]) == [
        "--",
        "-o=json",
        "--strict=false",
    ]


def test_a_bare_equals_sign_after_a_boolean_is_refused_as_pflag_refuses_it() -> None:
    result = run_cli("list", "-A=", env={"KUBECONFIG": "/nonexistent"})
    assert result.returncode == 2
    assert result.stderr.startswith("error: unknown shorthand flag: '=' in -A=")


def test_a_bad_boolean_is_one_line_naming_the_flag() -> None:
    result = run_cli("status", "x", "--watch=maybe", env={"KUBECONFIG": "/nonexistent"})
    assert result.returncode == 2
    assert result.stderr == (
        'error: invalid argument "maybe" for "-w, --watch" flag: strconv.ParseBool: parsing '
        "\"maybe\": invalid syntax See 'kubectl dgd status --help'.\n"
    )


def test_kubectl_spellings_of_offline_flags(tmp_path: Any) -> None:
    from tests.conftest import EXAMPLES

    example = str(EXAMPLES / "vllm-agg.yaml")
    plain = run_cli("validate", "-f", example, "-o", "json")
    assert run_cli("validate", f"-f={example}", "-o=json").stdout == plain.stdout
    strict = run_cli("validate", "-f", example, "--strict")
    assert run_cli("validate", f"-f={example}", "--strict=true").returncode == strict.returncode

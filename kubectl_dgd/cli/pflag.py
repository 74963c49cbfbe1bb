"""kubectl's flag syntax (spf13/pflag) on top of click, for every command's own flags.

pflag and click agree on most spellings (``-n ns``, ``-nns``, ``--namespace=ns``, ``-Aw``) and
differ on three, which scripts copied from kubectl's docs use:

- ``-x=value``: pflag drops the ``=`` (``-o=json``, ``-n=ns``, ``-l=app=x``, ``-L=team``);
  click keeps it as part of the value.
- ``--flag=BOOL`` and ``-x=BOOL`` for a boolean: pflag reads BOOL as Go's ``strconv.ParseBool``
  (1 t T TRUE true True, 0 f F FALSE false False); click has no value for a flag.
- a boolean given twice: the last one wins (``-w --watch=false`` is off).

:func:`pflag_args` rewrites a command's arguments into spellings click reads the same way,
from the command's own declared parameters, so a new flag follows the rule with no entry
anywhere. Everything else (unknown flags, a missing value) is left for click to refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import click

# Go's strconv.ParseBool, the parser of pflag's boolean flags.
_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})


def parse_bool(value: str, flag: click.Option, ctx: click.Context | None) -> bool:
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise click.UsageError(
        f'invalid argument "{value}" for "{_flag_name(flag)}" flag: '
        f'strconv.ParseBool: parsing "{value}": invalid syntax',
        ctx,
    )


def _flag_name(option: click.Option) -> str:
    """pflag's way of naming a flag in its errors: ``-w, --watch``."""
    short = [o for o in option.opts if not o.startswith("--")]
    long = [o for o in option.opts if o.startswith("--")]
    return ", ".join(short[:1] + long[:1])


def _is_bool(option: click.Option) -> bool:
    return option.is_flag and option.is_bool_flag and not option.count


def _takes_value(option: click.Option) -> bool:
    return not option.is_flag and not option.count and option.nargs == 1


@dataclass
class _Rewriter:
    """The arguments as click will read them, built left to right."""

    ctx: click.Context | None
    options: dict[str, click.Option]
    out: list[str] = field(default_factory=list)
    # where each single-spelling boolean was set on: --flag=false takes those back
    on_at: dict[str, list[int]] = field(default_factory=dict)
    taken_back: set[int] = field(default_factory=set)

    def boolean(self, option: click.Option, spelled: str, value: bool) -> None:
        """A boolean set to ``value`` by the spelling ``spelled`` (maybe its --no- form)."""
        if spelled in option.secondary_opts:
            value = not value
        if option.secondary_opts:  # --grove/--no-grove: click has both forms, the last wins
            self.out.append(_primary(option) if value else option.secondary_opts[0])
            return
        key = option.name or spelled
        if value:
            self.on_at.setdefault(key, []).append(len(self.out))
            self.out.append(_primary(option))
            return
        if option.default is True:  # an on-by-default flag with no off form: say so, do not guess
            raise click.UsageError(f"{_flag_name(option)} cannot be turned off", self.ctx)
        self.taken_back.update(self.on_at.pop(key, []))
        # nothing to add: off is the default

    def value(self, option: click.Option, value: str) -> None:
        self.out += [_primary(option), value]

    def long(self, arg: str, rest: list[str]) -> list[str]:
        name, sep, value = arg.partition("=")
        option = self.options.get(name)
        if option is None:
            self.out.append(arg)
        elif _is_bool(option):
            self.boolean(option, name, parse_bool(value, option, self.ctx) if sep else True)
        elif _takes_value(option) and not sep and rest:
            self.value(option, rest[0])
            return rest[1:]
        else:
            self.out.append(arg)
        return rest

    def shorts(self, arg: str, rest: list[str]) -> list[str]:
        """pflag's parseShortArg: each letter a flag until one takes the rest as its value."""
        letters = arg[1:]
        while letters:
            option = self.options.get("-" + letters[0])
            if letters[0] == "=":
                raise click.UsageError(f"unknown shorthand flag: '=' in {arg}", self.ctx)
            if option is None or not (_is_bool(option) or _takes_value(option)):
                self.out.append("-" + letters)  # click's own error, or its own kind of flag
                return rest
            after = letters[1:]
            if len(after) > 1 and after[0] == "=":  # -x=value
                if _is_bool(option):
                    self.boolean(option, "-" + letters[0], parse_bool(after[1:], option, self.ctx))
                else:
                    self.value(option, after[1:])
                return rest
            if _is_bool(option):
                self.boolean(option, "-" + letters[0], True)
                letters = after
            elif after:  # -xvalue
                self.value(option, after)
                return rest
            elif rest:  # -x value
                self.value(option, rest[0])
                return rest[1:]
            else:  # -x with nothing after: click says it needs a value
                self.out.append("-" + letters)
                return rest
        return rest


def _primary(option: click.Option) -> str:
    """The spelling handed to click: the long one where there is one."""
    long = [o for o in option.opts if o.startswith("--")]
    return (long or option.opts)[0]


def pflag_args(command: click.Command, ctx: click.Context, args: list[str]) -> list[str]:
    """``args`` of ``command`` rewritten so that click reads them as pflag would."""
    options: dict[str, click.Option] = {}
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            for spelling in (*param.opts, *param.secondary_opts):
                options[spelling] = param
    rewriter = _Rewriter(ctx, options)
    rest = list(args)
    while rest:
        arg, rest = rest[0], rest[1:]
        if arg == "--":
            rewriter.out += [arg, *rest]
            break
        if arg.startswith("--"):
            rest = rewriter.long(arg, rest)
        elif arg.startswith("-") and len(arg) > 1:
            rest = rewriter.shorts(arg, rest)
        elif not command.allow_interspersed_args:  # a group: the rest is its subcommand's
            rewriter.out += [arg, *rest]
            break
        else:
            rewriter.out.append(arg)
    return [arg for i, arg in enumerate(rewriter.out) if i not in rewriter.taken_back]

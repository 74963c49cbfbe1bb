"""A template format's argument checked up front (``-o jsonpath=...`` that does not parse fails
before the command reads a file or asks the cluster, as kubectl builds its printer first)."""

from __future__ import annotations

from kubectl_dgd.errors import UsageError


def check_template(fmt: str, argument: str) -> None:
    """Raise the one-line error kubectl would give for this template (exit 2)."""
    if fmt in ("jsonpath", "jsonpath-as-json", "jsonpath-file"):
        from kubectl_dgd.output.jsonpath import template_of
        from kubectl_dgd.output.printer import Options

        template_of(Options(argument=argument), fmt == "jsonpath-file")
    elif fmt in ("custom-columns", "custom-columns-file"):
        from kubectl_dgd.output.custom_columns import columns_of
        from kubectl_dgd.output.printer import Options

        columns_of(Options(argument=argument), fmt == "custom-columns-file")
    else:
        raise UsageError(f"-o {fmt} takes no argument")

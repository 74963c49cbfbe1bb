"""The command line: plugin.yaml's own commands are read without argparse (main.py), and must
mean exactly what argparse makes of them; everything else goes to argparse."""

from __future__ import annotations

import pytest

from kubectl_dgd.argocd.arguments import parse
from kubectl_dgd.argocd.main import PROG, _plain_command
from kubectl_dgd.core.views import ManifestStream
from kubectl_dgd.output.manifest_yaml import dump_stream
from kubectl_dgd.output.printer import format_view


@pytest.mark.parametrize(
    "argv",
    [
        ["generate"],
        ["parameters"],
        ["generate", "."],
        ["generate", "apps/plain"],
        ["parameters", "some dir"],
        ["generate", ""],
        ["generate", "parameters"],
    ],
)
def test_plain_command_lines_read_as_argparse_reads_them(argv: list[str]) -> None:
    assert _plain_command(argv) == parse(argv, PROG)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["generate", "--help"],
        ["generate", "-h"],
        ["generate", "--", "."],
        ["generate", "-1"],
        ["generate", "a", "b"],
        ["gen"],
        ["render", "."],
    ],
)
def test_anything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert _plain_command(argv) is None


def test_generate_prints_the_bytes_of_a_yaml_manifest_stream() -> None:
    objects = [{"a": "on", "b": [{"c": None}]}, {"kind": "List", "items": []}, {"t": "x\ny\n"}]
    assert dump_stream(objects) == format_view(ManifestStream(objects), "yaml")

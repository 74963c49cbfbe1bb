"""Backend framework detection from the worker command (docs/operator-semantics.md#backend-detection)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_dgd.core.backend import detect, detect_backend, resolve_backend


def worker(
    command: list[str] | None = None, args: list[str] | None = None, type_: str = "worker"
) -> dict[str, Any]:
    main: dict[str, Any] = {"name": "main", "image": "img:1.5.0"}
    if command is not None:
        main["command"] = command
    if args is not None:
        main["args"] = args
    return {"name": "w", "type": type_, "podTemplate": {"spec": {"containers": [main]}}}


@pytest.mark.parametrize(
    ("command", "args", "expected"),
    [
        (["python3", "-m", "dynamo.vllm"], None, "vllm"),
        (["python3.12", "-u", "-m", "dynamo.sglang.worker"], None, "sglang"),
        (["sh", "-c"], ["python -m dynamo.trtllm --model x"], "trtllm"),
        (["python3"], ["-m", "dynamo.vllm", "--model", "x"], "vllm"),
        (["dynamo.vllm"], None, None),
        (["sh", "-c"], ["python -m foo | dynamo.vllm"], None),
        (None, None, None),
    ],
    ids=[
        "python -m",
        "python3.12 -u",
        "sh -c",
        "split command and args",
        "bare module",
        "after a pipe",
        "no command",
    ],
)
def test_detects_the_framework_like_the_operator(
    command: list[str] | None, args: list[str] | None, expected: str | None
) -> None:
    assert detect_backend(worker(command, args)) == expected


def test_non_worker_types_detect_nothing() -> None:
    assert detect_backend(worker(["python3", "-m", "dynamo.vllm"], type_="frontend")) is None


def test_several_frameworks_are_reported_as_ambiguous() -> None:
    found = detect(worker(["sh", "-c"], ["python -m dynamo.vllm && python -m dynamo.sglang"]))
    assert found.ambiguous and found.frameworks == ("vllm", "sglang") and found.framework is None


def test_mismatch_is_the_operator_reconcile_error() -> None:
    result = resolve_backend(worker(["python3", "-m", "dynamo.vllm"]), "sglang")
    assert (
        result.error
        == 'backend framework mismatch: detected "vllm" from command but explicitly configured as "sglang"'
    )


def test_explicit_value_wins_over_an_ambiguous_command() -> None:
    result = resolve_backend(
        worker(["sh", "-c"], ["python -m dynamo.vllm; python -m dynamo.sglang"]), "vllm"
    )
    assert (result.framework, result.error) == ("vllm", None)


def test_ambiguous_without_explicit_value_is_an_error() -> None:
    result = resolve_backend(
        worker(["sh", "-c"], ["python -m dynamo.vllm && python -m dynamo.sglang"]), None
    )
    assert result.error == "multiple backend frameworks detected from command: vllm, sglang"


def test_detection_never_raises_on_odd_shapes() -> None:
    for odd in (
        {},
        {"type": "worker", "podTemplate": 3},
        {"type": "worker", "podTemplate": {"spec": {"containers": [1]}}},
    ):
        assert detect_backend(odd) is None

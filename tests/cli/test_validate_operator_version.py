"""``validate --operator-version``: the release's rules, the default, bad values; live detection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.usecases.operator_version import detect
from tests.conftest import run_cli

CUSTOM_TAG = (
    Path(__file__).resolve().parent.parent
    / "fixtures"
    / "versions"
    / "custom-tag-without-override.yaml"
)
RUNTIME_REQUIRED = (
    "spec.components[1].runtimeVersionOverride: Required value: is required when the specified "
    "main container image has no parseable semantic-version tag"
)


def test_1_3_admits_a_custom_tag_without_an_override() -> None:
    result = run_cli("validate", "--operator-version", "1.3", str(CUSTOM_TAG))
    assert result.returncode == int(Exit.OK), result.stdout
    assert RUNTIME_REQUIRED not in result.stdout  # (1.3 does not know the field: a warning)


def test_a_patch_version_selects_its_release() -> None:
    assert run_cli("validate", "--operator-version", "1.3.2", str(CUSTOM_TAG)).returncode == 0


def test_the_default_rejects_it_with_the_operators_message() -> None:
    result = run_cli("validate", str(CUSTOM_TAG))
    assert result.returncode == int(Exit.FAILED)
    assert any(RUNTIME_REQUIRED in line for line in result.stdout.splitlines())


def test_an_unknown_version_is_a_usage_error_naming_the_supported_ones() -> None:
    result = run_cli("validate", "--operator-version", "2.0", str(CUSTOM_TAG))
    assert result.returncode == int(Exit.USAGE)
    assert "1.3, 1.4, 1.5, 1.6" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_states_the_default() -> None:
    out = run_cli("validate", "--help").stdout
    assert "--operator-version" in out and "Default: 1.6" in " ".join(out.split())


class Cluster:
    namespace = "dynamo"

    def __init__(self, images: list[str], graphs: list[dict[str, Any]]) -> None:
        self.images = images
        self.graphs = graphs

    def operator_images(self) -> list[str]:
        return self.images

    def list_graphs(self, namespace: str | None, selector: str | None = None) -> dict[str, Any]:
        return {"items": self.graphs}


def _stamped(version: str) -> dict[str, Any]:
    return {"metadata": {"annotations": {"nvidia.com/dynamo-operator-origin-version": version}}}


def test_live_detection_prefers_the_operator_image_tag() -> None:
    cluster = Cluster(["nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.4.1"], [_stamped("1.3.0")])
    version, how = detect(cluster)  # type: ignore[arg-type]
    assert version == "1.4"
    assert "kubernetes-operator:1.4.1" in how


def test_live_detection_falls_back_to_the_newest_origin_version() -> None:
    cluster = Cluster([], [_stamped("1.3.0"), _stamped("1.5.0-dev.2"), {"metadata": {}}])
    version, how = detect(cluster)  # type: ignore[arg-type]
    assert version == "1.5"
    assert "origin-version" in how


def test_live_detection_maps_unknown_releases_to_the_nearest_supported_one() -> None:
    assert detect(Cluster(["x/kubernetes-operator:1.9.0"], []))[0] == "1.6"  # type: ignore[arg-type]
    assert detect(Cluster(["x/kubernetes-operator:1.1.0"], []))[0] == "1.3"  # type: ignore[arg-type]


def test_live_detection_says_when_it_found_nothing() -> None:
    version, how = detect(Cluster([], []))  # type: ignore[arg-type]
    assert (version, how.startswith("not detected")) == ("1.6", True)

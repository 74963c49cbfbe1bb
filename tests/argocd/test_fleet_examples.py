"""The ApplicationSet and app-of-apps examples (manifests/argocd/fleet/): the Applications they
generate name the plugin, pass it parameters it accepts, and sync as every example does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_dgd.argocd.settings import BY_NAME, read_settings
from kubectl_dgd.core.profile import SUPPORTED_VERSIONS
from tests.argocd.harness import argocd_env

FLEET = Path(__file__).resolve().parents[2] / "manifests" / "argocd" / "fleet"
LABEL = "dynamo.nvidia.com/operator-version"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FLEET / name).read_text())
    return data


SETS = ["applicationset-clusters.yaml", "applicationset-environments.yaml"]


@pytest.mark.parametrize("name", SETS)
def test_generated_applications_sync_as_every_example_does(name: str) -> None:
    appset = _load(name)
    assert (appset["apiVersion"], appset["kind"]) == ("argoproj.io/v1alpha1", "ApplicationSet")
    assert appset["spec"]["goTemplateOptions"] == ["missingkey=error"]
    template = appset["spec"]["template"]
    annotations = template["metadata"]["annotations"]
    assert annotations["argocd.argoproj.io/compare-options"] == "ServerSideDiff=true"
    spec = template["spec"]
    assert spec["source"]["plugin"]["name"] == "dgd"
    assert {p["name"] for p in spec["source"]["plugin"].get("parameters", [])} <= set(BY_NAME)
    policy = spec["syncPolicy"]
    assert "ServerSideApply=true" in policy["syncOptions"]
    assert policy["retry"]["backoff"] == {"duration": "30s", "factor": 2, "maxDuration": "10m"}


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_the_cluster_label_fills_an_operator_version_the_plugin_accepts(version: str) -> None:
    appset = _load("applicationset-clusters.yaml")
    (generator,) = appset["spec"]["generators"]
    # Only clusters that carry the label get an application.
    assert generator["clusters"]["selector"]["matchExpressions"] == [
        {"key": LABEL, "operator": "Exists"}
    ]
    (param,) = appset["spec"]["template"]["spec"]["source"]["plugin"]["parameters"]
    expression = f'{{{{index .metadata.labels "{LABEL}"}}}}'
    assert (param["name"], param["string"]) == ("operator-version", expression)
    rendered = [
        {"name": "operator-version", "string": param["string"].replace(expression, version)}
    ]
    settings = read_settings(argocd_env("apps/inference", parameters=rendered))
    assert settings.warnings == ()
    assert settings.operator_version == version


def test_app_of_apps_renders_applications_not_graphs_and_never_prunes_them() -> None:
    root = _load("app-of-apps.yaml")
    assert root["kind"] == "Application"
    assert "plugin" not in root["spec"]["source"]
    assert root["spec"]["destination"]["namespace"] == "argocd"
    assert root["spec"]["syncPolicy"]["automated"]["prune"] is False

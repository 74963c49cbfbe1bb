"""The example Applications in manifests/argocd/ name the plugin and parameters that exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_dgd.argocd.settings import BY_NAME, PARAMETERS, read_settings
from tests.argocd.harness import PLUGIN_YAML, argocd_env

ROOT = Path(__file__).resolve().parents[2]
APPLICATIONS = [
    doc
    for path in sorted((ROOT / "manifests" / "argocd").glob("*.yaml"))
    for doc in yaml.safe_load_all(path.read_text())
    if doc
]
PLUGIN_ENV = {p.env for p in PARAMETERS}


def test_there_are_example_applications() -> None:
    assert len(APPLICATIONS) >= 3


@pytest.mark.parametrize("app", APPLICATIONS, ids=lambda a: a["metadata"]["name"])
def test_example_application_names_the_plugin_and_known_parameters(app: dict[str, Any]) -> None:
    assert (app["apiVersion"], app["kind"]) == ("argoproj.io/v1alpha1", "Application")
    plugin = app["spec"]["source"]["plugin"]
    assert plugin["name"] == yaml.safe_load(PLUGIN_YAML.read_text())["metadata"]["name"]
    parameters = plugin.get("parameters", [])
    assert {p["name"] for p in parameters} <= set(BY_NAME)
    assert {e["name"] for e in plugin.get("env", [])} <= PLUGIN_ENV
    env = argocd_env(
        app["spec"]["source"]["path"],
        parameters=parameters,
        plugin_env={e["name"]: e["value"] for e in plugin.get("env", [])},
    )
    assert read_settings(env).warnings == ()  # every value is accepted as given

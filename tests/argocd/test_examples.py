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


def _sync_policy(app: dict[str, Any]) -> dict[str, Any]:
    policy: dict[str, Any] = app["spec"].get("syncPolicy") or {}
    return policy


@pytest.mark.parametrize("app", APPLICATIONS, ids=lambda a: a["metadata"]["name"])
def test_example_application_applies_and_diffs_server_side(app: dict[str, Any]) -> None:
    # Client-side apply replaces spec.components whole and resets a scaling adapter's replicas
    # (tests/argocd/test_apply.py shows both applies with the real kubectl).
    options = _sync_policy(app).get("syncOptions") or []
    assert "ServerSideApply=true" in options
    annotations = app["metadata"].get("annotations") or {}
    assert annotations.get("argocd.argoproj.io/compare-options") == "ServerSideDiff=true"
    # Replace/Force delete or overwrite the live graph when a patch is refused.
    assert not {o for o in options if o.startswith(("Replace=", "Force="))}
    assert "RespectIgnoreDifferences=true" not in options


@pytest.mark.parametrize("app", APPLICATIONS, ids=lambda a: a["metadata"]["name"])
def test_example_application_that_syncs_itself_retries_with_backoff(app: dict[str, Any]) -> None:
    policy = _sync_policy(app)
    if "automated" not in policy:
        assert "retry" not in policy  # a manual sync is retried by whoever clicks
        return
    retry = policy["retry"]
    assert retry["limit"] >= 3
    backoff = retry["backoff"]
    assert backoff["duration"] == "30s"
    assert backoff["factor"] >= 2
    assert backoff["maxDuration"] == "10m"


@pytest.mark.parametrize("app", APPLICATIONS, ids=lambda a: a["metadata"]["name"])
def test_example_application_first_sync_carries_no_restart(app: dict[str, Any]) -> None:
    # Admission refuses spec.restart on create: an example's first sync must create its graphs.
    parameters = app["spec"]["source"]["plugin"].get("parameters") or []
    assert "restart-id" not in {p["name"] for p in parameters}
    env = app["spec"]["source"]["plugin"].get("env") or []
    assert "DGD_RESTART_ID" not in {e["name"] for e in env}

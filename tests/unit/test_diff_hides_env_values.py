"""`kubectl dgd diff` never prints env values (they can carry tokens); it shows what changed."""

from __future__ import annotations

import json
from typing import Any

from kubectl_dgd.usecases.diff import HIDDEN, field_changes


def _graph(*env: dict[str, str], graph_env: list[dict[str, str]] | None = None) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "main", "image": "x:1.0.0"}
    if env:
        container["env"] = list(env)
    spec: dict[str, Any] = {
        "components": [{"name": "w", "podTemplate": {"spec": {"containers": [container]}}}]
    }
    if graph_env is not None:
        spec["env"] = graph_env
    return {"spec": spec}


def _printed(live: dict[str, Any], new: dict[str, Any]) -> str:
    return json.dumps([c.to_dict() for c in field_changes(live, new)])


def test_a_changed_env_value_is_reported_without_either_value() -> None:
    live = _graph({"name": "HF_TOKEN", "value": "hf_old_secret"})
    new = _graph({"name": "HF_TOKEN", "value": "hf_new_secret"})
    [change] = field_changes(live, new)
    assert change.path.endswith("env[0].value")
    assert (change.old, change.new) == (HIDDEN, HIDDEN)
    assert "secret" not in _printed(live, new)


def test_added_env_entries_and_lists_keep_names_but_hide_values() -> None:
    live = _graph()
    new = _graph({"name": "API_KEY", "value": "k-123"}, graph_env=[{"name": "G", "value": "g-456"}])
    printed = _printed(live, new)
    assert "API_KEY" in printed and "G" in printed
    assert "k-123" not in printed and "g-456" not in printed


def test_other_fields_are_shown_as_they_are() -> None:
    live, new = _graph(), _graph()
    new["spec"]["components"][0]["replicas"] = 3
    [change] = field_changes(live, new)
    assert (change.path, change.new) == ("spec.components[0].replicas", 3)


def test_v1alpha1_envs_values_are_hidden_too() -> None:
    def alpha(value: str) -> dict[str, Any]:
        return {
            "spec": {
                "envs": [{"name": "HF_TOKEN", "value": value}],
                "services": {"w": {"envs": [{"name": "K", "value": value}]}},
            }
        }

    changes = field_changes(alpha("hf_old_secret"), alpha("hf_new_secret"))
    assert {c.path for c in changes} == {"spec.envs[0].value", "spec.services.w.envs[0].value"}
    assert "secret" not in _printed(alpha("hf_old_secret"), alpha("hf_new_secret"))


def test_annotations_holding_a_serialized_object_are_never_printed() -> None:
    """kubectl's last-applied-configuration (and the operator's nvidia.com/dgd-spec) hold a whole
    earlier file, env values and all: a change shows, the value does not."""
    applied = json.dumps(_graph({"name": "HF_TOKEN", "value": "hf_old_secret"}))

    def annotated(value: str) -> dict[str, Any]:
        obj = _graph()
        obj["metadata"] = {
            "annotations": {
                "kubectl.kubernetes.io/last-applied-configuration": value,
                "nvidia.com/dgd-spec": value,
            }
        }
        return obj

    changes = field_changes(annotated(applied), annotated(applied.replace("old", "new")))
    assert {c.path for c in changes} == {
        "metadata.annotations[kubectl.kubernetes.io/last-applied-configuration]",
        "metadata.annotations[nvidia.com/dgd-spec]",
    }
    assert "secret" not in json.dumps([c.to_dict() for c in changes])
    removed = field_changes(annotated(applied), _graph())
    assert "secret" not in json.dumps([c.to_dict() for c in removed])

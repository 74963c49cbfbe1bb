"""LPX components keep their pod templates in roles: no main-container or runtime-version rule."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.pipeline import validate_object
from tests.unit.dgd_factory import graph


def _lpx_graph() -> dict[str, Any]:
    obj = graph()
    del obj["spec"]["backendFramework"]
    obj["spec"]["components"][1] = {
        "name": "engine",
        "type": "lpx",
        "lpx": {"buildId": "b1", "localPartitions": {"all": True}},
        "roles": [
            {
                "name": "agent",
                "replicas": 1,
                "podTemplate": {"spec": {"containers": [{"name": "main", "image": "x:custom"}]}},
            },
            {
                "name": "conductor",
                "replicas": 1,
                "podTemplate": {"spec": {"containers": [{"name": "main", "image": "y:custom"}]}},
            },
        ],
    }
    return obj


def _codes(obj: dict[str, Any], profile: Profile) -> set[str]:
    return {
        f.code for f in validate_object(obj, bundled_schemas(), profile) if f.severity == "error"
    }


def test_lpx_component_needs_no_main_container_or_runtime_version() -> None:
    codes = _codes(_lpx_graph(), Profile(lpx=True))
    assert "main-image-required" not in codes
    assert "runtime-version-required" not in codes
    assert codes == set()


def test_lpx_component_is_still_gated_when_lpx_is_disabled() -> None:
    assert "lpx-gate" in _codes(_lpx_graph(), Profile(lpx=False))


def test_non_lpx_component_without_main_container_is_still_rejected() -> None:
    obj = _lpx_graph()
    obj["spec"]["components"][0]["podTemplate"]["spec"]["containers"] = []
    assert "main-image-required" in _codes(obj, Profile(lpx=True))

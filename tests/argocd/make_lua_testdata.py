"""Write the upstream-layout test files of the DGD customization (run after changing a verdict).

    .venv/bin/python -m tests.argocd.make_lua_testdata

Argo CD's util/lua tests need, beside health.lua, a health_test.yaml whose inputs live in
testdata/, and beside actions/discovery.lua an action_test.yaml with actions/testdata/. The
inputs are the saved status fixtures as they are, and the health variants applied to the
healthy one; each expected verdict is the core's (kubectl_dgd.core.health), so the files say
what the core says, and test_upstream_layout.py checks that the Lua script agrees.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from kubectl_dgd.core.health import health
from kubectl_dgd.output.manifest_yaml import dump_stream
from kubectl_dgd.usecases.generate import RESTART_FROM_ANNOTATION
from tests.argocd.health_variants import variants

ROOT = Path(__file__).resolve().parents[2]
KIND_DIR = (
    ROOT / "argocd-plugin" / "resource_customizations" / "nvidia.com" / "DynamoGraphDeployment"
)
STATUS = ROOT / "manifests" / "examples" / "status"
RESTARTED_ID = "0001-01-01T00:00:00Z"  # what the test normaliser puts in place of the clock


def _yaml(data: Any) -> str:
    return dump_stream([data]).removeprefix("---\n")


def _load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((STATUS / f"{name}.yaml").read_text())
    assert isinstance(data, dict)
    return data


def health_inputs() -> dict[str, dict[str, Any]]:
    inputs = {path.stem: _load(path.stem) for path in sorted(STATUS.glob("*.yaml"))}
    for name, edit in variants():
        if name in ("as-saved", "deleting"):  # Argo CD itself answers for a deleted object
            continue
        obj = _load("healthy")
        edit(obj)
        inputs[name] = obj
    return inputs


def _restarted(obj: dict[str, Any], strategy: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    out["spec"]["restart"] = {"id": RESTARTED_ID, "strategy": strategy}
    return out


def action_files() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    healthy = _load("healthy")
    ordered = copy.deepcopy(healthy)
    ordered["spec"]["restart"] = {
        "id": "old",
        "strategy": {"type": "Sequential", "order": ["B", "A"]},
    }
    lpx = copy.deepcopy(healthy)
    lpx["spec"]["components"][0]["type"] = "lpx"
    rolling = _load("rolling-update-in-progress")
    from_git = copy.deepcopy(ordered)
    from_git["metadata"].setdefault("annotations", {})[RESTART_FROM_ANNOTATION] = "git"
    data = {
        "healthy.yaml": healthy,
        "healthy-restarted.yaml": _restarted(healthy, {"type": "Sequential"}),
        "healthy-restarted-parallel.yaml": _restarted(healthy, {"type": "Parallel"}),
        "ordered.yaml": ordered,
        "ordered-restarted.yaml": _restarted(ordered, {"type": "Sequential", "order": ["B", "A"]}),
        "ordered-restarted-parallel.yaml": _restarted(ordered, {"type": "Parallel"}),
        "lpx.yaml": lpx,
        "lpx-restarted-parallel.yaml": _restarted(lpx, {"type": "Parallel"}),
        "rolling-update.yaml": rolling,
        "restart-from-git.yaml": from_git,
    }

    def offered(sequential: bool, parallel: bool, why: str = "") -> list[dict[str, Any]]:
        return [
            {
                "name": "restart",
                "disabled": not sequential,
                "iconClass": "fa fa-fw fa-redo",
                "displayName": "Restart (one component at a time)" + why,
            },
            {
                "name": "restart-parallel",
                "disabled": not parallel,
                "iconClass": "fa fa-fw fa-forward",
                "displayName": "Restart (all components at once)" + why,
            },
        ]

    git_why = " - disabled: the restart id comes from Git (change restart-id instead)"

    tests = {
        "discoveryTests": [
            {"inputPath": "testdata/healthy.yaml", "result": offered(True, True)},
            {"inputPath": "testdata/lpx.yaml", "result": offered(False, True)},
            {"inputPath": "testdata/rolling-update.yaml", "result": offered(False, False)},
            {
                "inputPath": "testdata/restart-from-git.yaml",
                "result": offered(False, False, git_why),
            },
        ],
        "actionTests": [
            {
                "action": a,
                "inputPath": f"testdata/{i}.yaml",
                "expectedOutputPath": f"testdata/{o}.yaml",
            }
            for a, i, o in [
                ("restart", "healthy", "healthy-restarted"),
                ("restart-parallel", "healthy", "healthy-restarted-parallel"),
                ("restart", "ordered", "ordered-restarted"),
                ("restart-parallel", "ordered", "ordered-restarted-parallel"),
                ("restart-parallel", "lpx", "lpx-restarted-parallel"),
            ]
        ]
        + [
            {
                "action": "restart",
                "inputPath": "testdata/lpx.yaml",
                "expectedErrorMessage": "spec.restart.strategy.type must be Parallel when the "
                "graph contains LPX components; use the restart-parallel action",
            },
        ]
        + [
            {
                "action": action,
                "inputPath": "testdata/restart-from-git.yaml",
                "expectedErrorMessage": "the restart id of this graph comes from Git; change the "
                "restart-id parameter instead (a restart made here is undone by the next sync)",
            }
            for action in ("restart", "restart-parallel")
        ]
        + [
            {
                "action": "restart-parallel",
                "inputPath": "testdata/rolling-update.yaml",
                "expectedErrorMessage": "a rolling update is in progress; the operator rejects a "
                "new restart id until it completes",
            },
        ],
    }
    return data, tests


def main() -> None:
    testdata = KIND_DIR / "testdata"
    testdata.mkdir(exist_ok=True)
    cases = []
    for name, obj in health_inputs().items():
        (testdata / f"{name}.yaml").write_text(_yaml(obj))
        status, message = health(obj)
        cases.append(
            {
                "healthStatus": {"status": status, "message": message},
                "inputPath": f"testdata/{name}.yaml",
            }
        )
    (KIND_DIR / "health_test.yaml").write_text(_yaml({"tests": cases}))
    action_data, action_tests = action_files()
    action_dir = KIND_DIR / "actions" / "testdata"
    action_dir.mkdir(exist_ok=True)
    for name, obj in action_data.items():
        (action_dir / name).write_text(_yaml(obj))
    (KIND_DIR / "actions" / "action_test.yaml").write_text(_yaml(action_tests))


if __name__ == "__main__":
    main()

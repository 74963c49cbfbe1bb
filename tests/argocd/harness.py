"""An emulation of Argo CD's repo server running our config-management plugin.

What the cmp-server does for ``generate`` (argo-cd ``cmpserver/plugin/plugin.go``), and what this
harness reproduces:

- the repository arrives as a copy in a fresh temporary directory (symbolic links kept);
- the command is ``spec.generate.command + spec.generate.args`` from plugin.yaml, run directly
  (no shell), with the application path inside the copy as working directory;
- the environment is the sidecar's own (here only PATH: no HOME, no locale) plus the build
  environment and the plugin's env and parameters; an empty value is passed as ``NAME=``
  (cmpserver's ``environ`` skips only entries without a name);
- stdout is split as ``kube.SplitYAMLToString`` does (a YAML-or-JSON decoder: ``---`` lines
  separate YAML documents, empty and ``null`` documents are skipped) and every document must
  unmarshal into an object with apiVersion and kind, read as Go's YAML reader (go-yaml v2, under
  sigs.k8s.io/yaml) reads it: not PyYAML's YAML 1.1 rules, which differ (see ``GoYamlLoader``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess as _subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from tests.conftest import assert_installed_checkout, run_in_process

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_YAML = ROOT / "argocd-plugin" / "plugin.yaml"
FIXTURE_REPO = ROOT / "tests" / "fixtures" / "argocd" / "repo"
BIN = Path(sys.executable).parent
KUBE_API_VERSIONS = ",".join(
    sorted(
        [
            "v1",
            "v1/ConfigMap",
            "v1/Secret",
            "v1/Service",
            "apps/v1",
            "apps/v1/Deployment",
            "nvidia.com/v1beta1",
            "nvidia.com/v1beta1/DynamoGraphDeployment",
            "nvidia.com/v1alpha1",
            "nvidia.com/v1alpha1/DynamoGraphDeployment",
            "grove.io/v1alpha1",
            "grove.io/v1alpha1/PodCliqueSet",
        ]
    )
)


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    env: dict[str, str] = field(default_factory=dict)

    @property
    def objects(self) -> list[dict[str, Any]]:
        return split_like_argocd(self.stdout)

    @property
    def stderr_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line]


def plugin_spec() -> dict[str, Any]:
    spec: dict[str, Any] = yaml.safe_load(PLUGIN_YAML.read_text())["spec"]
    return spec


def argocd_env(
    app_path: str,
    *,
    app_name: str = "dgd-app",
    namespace: str = "dynamo",
    parameters: list[dict[str, Any]] | None = None,
    plugin_env: dict[str, str] | None = None,
    sidecar_env: dict[str, str] | None = None,
    for_parameters: bool = False,
) -> dict[str, str]:
    """The environment the cmp-server gives a command (empty values kept, as Argo CD keeps them)."""
    env: dict[str, str] = {"PATH": f"{BIN}:/usr/local/bin:/usr/bin:/bin"}
    # The suite's run with every start-up trick off (DGD_PLAIN_STARTUP=1, .ci/run) reaches
    # the plugin too, as a sidecar's image environment would.
    if os.environ.get("DGD_PLAIN_STARTUP"):
        env["DGD_PLAIN_STARTUP"] = os.environ["DGD_PLAIN_STARTUP"]
    env.update(sidecar_env or {})
    build = {
        "ARGOCD_APP_NAME": app_name,
        "ARGOCD_APP_SOURCE_REPO_URL": "https://git.example.com/ml/dynamo-deploy.git",
        "ARGOCD_APP_SOURCE_PATH": app_path,
        "ARGOCD_APP_SOURCE_TARGET_REVISION": "main",
    }
    if (
        not for_parameters
    ):  # the parameters path gets a smaller environment (populatePluginAppDetails)
        build |= {
            "ARGOCD_APP_NAMESPACE": namespace,
            "ARGOCD_APP_PROJECT_NAME": "default",
            "ARGOCD_APP_REVISION": "3f2a9c1d0b8e7f6a5d4c3b2a19087f6e5d4c3b2a",
            "ARGOCD_APP_REVISION_SHORT": "3f2a9c1",
            "ARGOCD_APP_REVISION_SHORT_8": "3f2a9c1d",
            "KUBE_VERSION": "1.31.4",
            "KUBE_API_VERSIONS": KUBE_API_VERSIONS,
        }
    env.update(build)
    for name, value in (plugin_env or {}).items():
        env[f"ARGOCD_ENV_{name}"] = value
    # Argo CD always sends ARGOCD_APP_PARAMETERS to a plugin: its parameter list marshalled by
    # Go, which writes an Application without parameters as JSON null.
    env["ARGOCD_APP_PARAMETERS"] = json.dumps(parameters or None)
    if parameters:
        for param in parameters:
            key = re.sub(r"[^A-Z0-9_]", "_", param["name"].upper())
            if "string" in param:
                env[f"PARAM_{key}"] = param["string"]
            for i, item in enumerate(param.get("array", [])):
                env[f"PARAM_{key}_{i}"] = item
            for k, v in param.get("map", {}).items():
                env[f"PARAM_{key}_{re.sub(r'[^A-Z0-9_]', '_', k.upper())}"] = v
    return env


def run_plugin(
    repo: Path,
    app_path: str,
    *,
    command: str = "generate",
    workdir: Path | None = None,
    env_overrides: dict[str, str] | None = None,
    subprocess: bool = False,
    **env_args: Any,
) -> Run:
    """Copy ``repo`` as the repo server would and run a plugin.yaml command in ``app_path``.

    The command's entry point runs in this process (environment, cwd and streams as the
    cmp-server gives them); ``subprocess=True`` runs plugin.yaml's command as the real process,
    found on the sidecar's PATH."""
    spec = plugin_spec()
    step = spec["generate"] if command == "generate" else spec["parameters"]["dynamic"]
    argv = [*step["command"], *step.get("args", [])]
    env = argocd_env(app_path, for_parameters=command != "generate", **env_args)
    env.update(env_overrides or {})
    with tempfile.TemporaryDirectory(prefix="_cmp_server") as tmp:
        checkout = Path(workdir or tmp) / "checkout"
        shutil.copytree(repo, checkout, symlinks=True)
        if not subprocess:
            result = run_in_process(
                argv[0],
                argv[1:],
                stdin=None,
                full_env=env,
                cwd=checkout / app_path,
                timeout=300,
                universal_newlines=False,
            )
            return Run(result.returncode, result.stdout, result.stderr, env)
        assert_installed_checkout()
        proc = _subprocess.run(
            argv,
            cwd=checkout / app_path,
            env=env,
            capture_output=True,
            shell=False,
            timeout=300,
            check=False,
        )
    return Run(proc.returncode, proc.stdout.decode(), proc.stderr.decode(), env)


_SEPARATOR = re.compile(r"^---")


class GoYamlLoader(yaml.SafeLoader):  # type: ignore[misc]
    """Plain scalars resolved as go-yaml v2 resolves them, where PyYAML's YAML 1.1 rules differ:
    ``y``/``Y``/``n``/``N`` are booleans, and an integer is whatever Go's
    ``strconv.ParseInt(s, 0, 64)`` reads (``0o17`` and ``017`` are 15, ``0b101`` is 5,
    underscores allowed), while ``190:20:30`` (sexagesimal in PyYAML) is a string."""


GoYamlLoader.yaml_implicit_resolvers = {
    first: [
        (tag, regexp)
        for tag, regexp in resolvers
        if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int")
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
GoYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(
        r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"
    ),
    list("yYnNtTfFoO"),
)
_GO_INT = re.compile(
    r"^[-+]?(?:0[bB][01_]+|0[oO][0-7_]+|0[xX][0-9a-fA-F_]+|0[0-7_]*|[1-9][0-9_]*)$"
)
GoYamlLoader.add_implicit_resolver("tag:yaml.org,2002:int", _GO_INT, list("-+0123456789"))


def _go_bool(loader: yaml.SafeLoader, node: yaml.Node) -> bool:
    return loader.construct_scalar(node) in (
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "true",
        "True",
        "TRUE",
        "on",
        "On",
        "ON",
    )


def _go_int(loader: yaml.SafeLoader, node: yaml.Node) -> int:
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits[:2] in ("0o", "0O"):
        return sign * int(digits[2:], 8)
    if len(digits) > 1 and digits[0] == "0" and digits[1] not in "xXbB":
        return sign * int(digits, 8)
    return sign * int(digits, 0)


GoYamlLoader.add_constructor("tag:yaml.org,2002:bool", _go_bool)
GoYamlLoader.add_constructor("tag:yaml.org,2002:int", _go_int)


def split_like_argocd(stdout: str) -> list[dict[str, Any]]:
    """Objects from a plugin's stdout, as ``kube.SplitYAMLToString`` + Unstructured read them."""
    text = stdout.lstrip()
    chunks: list[str] = []
    if text.startswith("{"):
        decoder = json.JSONDecoder()
        pos = 0
        while pos < len(text):
            value, end = decoder.raw_decode(text, pos)
            chunks.append(json.dumps(value))
            pos = end
            while pos < len(text) and text[pos].isspace():
                pos += 1
    else:
        current: list[str] = []
        for line in stdout.splitlines(keepends=True):
            if _SEPARATOR.match(line):
                rest = line[3:].strip()
                assert not rest or rest.startswith("#"), f"invalid document separator {line!r}"
                chunks.append("".join(current))
                current = []
            else:
                current.append(line)
        chunks.append("".join(current))
    objects = []
    for chunk in chunks:
        data = yaml.load(chunk, Loader=GoYamlLoader)
        if data is None:
            continue
        assert isinstance(data, dict), f"not an object: {chunk[:80]!r}"
        assert data.get("kind"), f"Object 'Kind' is missing in {chunk[:80]!r}"
        assert data.get("apiVersion"), f"apiVersion is missing in {chunk[:80]!r}"
        objects.append(data)
    return objects


def write_large_repo(root: Path, graphs: int = 200) -> Path:
    """A repository with ``graphs`` graph files of five components each under apps/large."""
    app = root / "apps" / "large"
    app.mkdir(parents=True)
    template = (FIXTURE_REPO / "apps" / "plain" / "disagg.yaml").read_text()
    for i in range(graphs):
        text = template.replace("name: disagg", f"name: graph-{i:03d}\n  namespace: team-{i % 7}")
        text = text.replace(
            "    - name: Decode\n",
            "    - name: Planner\n      type: planner\n      replicas: 1\n      podTemplate:\n        spec:\n          containers:\n            - name: main\n              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0\n    - name: Router\n      type: frontend\n      replicas: 1\n      podTemplate:\n        spec:\n          containers:\n            - name: main\n              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0\n    - name: Decode\n",
            1,
        )
        (app / f"graph-{i:03d}.yaml").write_text(text)
    return root


def repo_copy(tmp_path: Path) -> Path:
    """A writable copy of the fixture repository, for cases that add links or files."""
    target = tmp_path / "repo"
    shutil.copytree(FIXTURE_REPO, target, symlinks=True)
    return target


def env_without_argocd() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("ARGOCD_", "PARAM_", "DGD_"))}

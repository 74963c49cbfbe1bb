"""Kubeconfig resolution matches kubectl: file choice, merge order, context and namespace."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_dgd.adapters.kubeconfig import ConnectionSettings, parse_timeout, resolve
from kubectl_dgd.errors import InputError
from tests.conftest import run_cli


def write(
    path: Path, contexts: dict[str, dict[str, Any]], current: str | None = None, **extra: Any
) -> str:
    doc: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {"name": name, "cluster": {"server": f"https://{name}:6443"}}
            for name in dict.fromkeys(c["cluster"] for c in contexts.values())
        ],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "contexts": [{"name": n, "context": {"user": "u", **c}} for n, c in contexts.items()],
        **extra,
    }
    if current:
        doc["current-context"] = current
    path.write_text(yaml.safe_dump(doc))
    return str(path)


def test_kubeconfig_flag_uses_only_that_file(tmp_path: Path) -> None:
    env_file = write(tmp_path / "env", {"env-ctx": {"cluster": "env"}}, "env-ctx")
    flag_file = write(tmp_path / "flag", {"flag-ctx": {"cluster": "flag"}}, "flag-ctx")
    resolved = resolve(
        ConnectionSettings(kubeconfig=flag_file), {"KUBECONFIG": env_file}, str(tmp_path)
    )
    assert resolved.context == "flag-ctx"
    assert resolved.files == [flag_file]
    with pytest.raises(InputError, match='context "env-ctx" does not exist'):
        resolve(ConnectionSettings(kubeconfig=flag_file, context="env-ctx"), {}, str(tmp_path))


def test_missing_kubeconfig_flag_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        resolve(ConnectionSettings(kubeconfig=str(tmp_path / "nope")), {}, str(tmp_path))


def test_kubeconfig_env_merges_files_first_definition_wins(tmp_path: Path) -> None:
    first = write(tmp_path / "a", {"shared": {"cluster": "from-a", "namespace": "ns-a"}}, None)
    second = write(
        tmp_path / "b",
        {"shared": {"cluster": "from-b", "namespace": "ns-b"}, "only-b": {"cluster": "b-only"}},
        "shared",
    )
    missing = str(tmp_path / "missing")
    env = {"KUBECONFIG": os.pathsep.join([missing, first, second])}
    resolved = resolve(ConnectionSettings(), env, str(tmp_path))
    # current-context only in the second file; the context itself from the first.
    assert resolved.context == "shared"
    assert resolved.namespace == "ns-a"
    assert resolved.server == "https://from-a:6443"
    assert (
        resolve(ConnectionSettings(context="only-b"), env, str(tmp_path)).server
        == "https://b-only:6443"
    )


def test_current_context_from_the_first_file_that_sets_it(tmp_path: Path) -> None:
    # (not "y": kubectl reads a plain y as a boolean, and refuses it as a name)
    first = write(tmp_path / "a", {"first": {"cluster": "cx"}}, "first")
    second = write(tmp_path / "b", {"second": {"cluster": "cy"}}, "second")
    env = {"KUBECONFIG": os.pathsep.join([first, second])}
    assert resolve(ConnectionSettings(), env, str(tmp_path)).context == "first"


def test_namespace_flag_then_context_then_default(tmp_path: Path) -> None:
    path = write(
        tmp_path / "c",
        {"with": {"cluster": "c", "namespace": "team"}, "without": {"cluster": "c"}},
        "with",
    )
    env = {"KUBECONFIG": path}
    assert resolve(ConnectionSettings(), env, str(tmp_path)).namespace == "team"
    assert resolve(ConnectionSettings(namespace="mine"), env, str(tmp_path)).namespace == "mine"
    assert resolve(ConnectionSettings(context="without"), env, str(tmp_path)).namespace == "default"


def test_home_kube_config_when_nothing_else(tmp_path: Path) -> None:
    (tmp_path / ".kube").mkdir()
    write(tmp_path / ".kube" / "config", {"home": {"cluster": "h"}}, "home")
    assert resolve(ConnectionSettings(), {}, str(tmp_path)).context == "home"


def test_in_cluster_when_no_kubeconfig_and_service_host_set(tmp_path: Path) -> None:
    resolved = resolve(
        ConnectionSettings(namespace="pods-ns"),
        {"KUBERNETES_SERVICE_HOST": "10.0.0.1"},
        str(tmp_path),
    )
    assert resolved.in_cluster
    assert resolved.namespace == "pods-ns"


def test_no_kubeconfig_at_all_says_how_to_give_one(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no kubeconfig found"):
        resolve(ConnectionSettings(), {}, str(tmp_path))


def test_a_kubeconfig_variable_naming_only_missing_files_says_so_not_none_set(
    tmp_path: Path,
) -> None:
    missing = str(tmp_path / "nope.yaml")
    result = run_cli("list", env={"KUBECONFIG": missing, "HOME": str(tmp_path)})
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"error: KUBECONFIG names no kubeconfig file that exists ({missing!r}): fix the path, or "
        "unset it to use ~/.kube/config\n"
    )


def test_relative_certificate_paths_are_relative_to_their_file(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    path = sub / "config"
    path.write_text(
        yaml.safe_dump(
            {
                "clusters": [
                    {
                        "name": "c",
                        "cluster": {"server": "https://x", "certificate-authority": "ca.crt"},
                    }
                ],
                "users": [
                    {"name": "u", "user": {"client-key": "/abs/key", "client-certificate": "c.crt"}}
                ],
                "contexts": [{"name": "ctx", "context": {"cluster": "c", "user": "u"}}],
                "current-context": "ctx",
            }
        )
    )
    resolved = resolve(ConnectionSettings(), {"KUBECONFIG": str(path)}, str(tmp_path))
    assert resolved.config["clusters"][0]["cluster"]["certificate-authority"] == str(sub / "ca.crt")
    assert resolved.config["users"][0]["user"]["client-certificate"] == str(sub / "c.crt")
    assert resolved.config["users"][0]["user"]["client-key"] == "/abs/key"


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        (None, None),
        ("0", None),
        ("5", 5.0),
        ("30s", 30.0),
        ("2m", 120.0),
        ("1m30s", 90.0),
        ("1h", 3600.0),
        ("500ms", 0.5),
    ],
)
def test_request_timeout_accepts_kubectl_durations(text: str | None, seconds: float | None) -> None:
    assert parse_timeout(text) == seconds


@pytest.mark.parametrize("text", ["abc", "5x", "1m-3s"])
def test_request_timeout_rejects_nonsense(text: str) -> None:
    with pytest.raises(InputError, match="invalid duration"):
        parse_timeout(text)

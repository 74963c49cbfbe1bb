"""``generate``: Argo CD's environment in, one YAML stream (or the reasons for none) out.

This module only translates: the parameters, the application path and the destination come
from the environment; usecases/generate.py validates and assembles the objects; main.py prints
them as one YAML stream.

Fail closed: any error leaves stdout empty (Argo CD prunes every resource of an application whose
generate prints nothing and exits 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from kubectl_dgd.adapters.resources import CGROUP_ROOT, SLOT_DIR_NAME
from kubectl_dgd.argocd.settings import api_versions, read_settings
from kubectl_dgd.argocd.source import list_manifests, locate
from kubectl_dgd.usecases.generate import GenerateRequest, Outcome, Sizing, generate_objects

MAX_ERRORS_SHOWN = 50
MAX_WARNINGS_SHOWN = 20
# Tests only: a directory laid out as /sys/fs/cgroup, to give the plugin fake limits.
TEST_CGROUP_ROOT = "DGD_TEST_CGROUP_ROOT"


STDIN = Path("-")  # `generate -`: one YAML stream on standard input (helm template | ...)
STDIN_SHOWN = "<stdin>"


def generate(app_dir: Path, env: Mapping[str, str]) -> Outcome:
    """Everything ``generate`` does except printing; raises UsageError for bad parameters."""
    settings = read_settings(env)
    served = api_versions(env)
    if app_dir == STDIN:
        files, listing_errors, label = [(STDIN, STDIN_SHOWN)], [], "on standard input"
    else:
        source = locate(app_dir, env)
        listing = list_manifests(source)
        files = [(path, source.display(path)) for path in listing.files]
        listing_errors, label = [f"{e}" for e in listing.errors], _app_label(env)
    preview = None
    if settings.children == "preview":
        from kubectl_dgd.argocd.preview import preview_configmap

        preview = preview_configmap
    outcome = generate_objects(
        GenerateRequest(
            files=files,
            profile=settings.profile(served),
            namespace=env.get("ARGOCD_APP_NAMESPACE", ""),
            app_label=label,
            listing_errors=listing_errors,
            served_apis=served,
            restart_id=settings.restart_id,
            restart_strategy=settings.restart_strategy,
            preview=preview,
            workers=_workers_wanted(env),
            sizing=_sizing(env),
        )
    )
    outcome.warnings[:0] = settings.warnings
    return outcome


def _workers_wanted(env: Mapping[str, str]) -> int:
    """DGD_WORKERS: worker processes for large applications; 1 turns them off, unset is auto."""
    try:
        return int(env.get("DGD_WORKERS", "0"))
    except ValueError:
        return 0


def _sizing(env: Mapping[str, str]) -> Sizing:
    """The generates of one sidecar share its /tmp (an emptyDir of its own), and count each
    other through slots there; TMPDIR moves it, as it moves every temporary file."""
    tmp = env.get("TMPDIR", "").strip() or "/tmp"
    root = env.get(TEST_CGROUP_ROOT, "").strip()
    return Sizing(
        cgroup_root=Path(root) if root else CGROUP_ROOT, slot_dir=Path(tmp) / SLOT_DIR_NAME
    )


def _app_label(env: Mapping[str, str]) -> str:
    path = env.get("ARGOCD_APP_SOURCE_PATH", "").strip()
    return f"below the application path {path!r}" if path else "below the application path"


def capped(lines: list[str], limit: int, noun: str) -> list[str]:
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"... and {len(lines) - limit} more {noun}"]

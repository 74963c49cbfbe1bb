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

from kubectl_dgd.argocd.settings import api_versions, read_settings
from kubectl_dgd.argocd.source import list_manifests, locate
from kubectl_dgd.usecases.generate import GenerateRequest, Outcome, generate_objects

MAX_ERRORS_SHOWN = 50
MAX_WARNINGS_SHOWN = 20


def generate(app_dir: Path, env: Mapping[str, str]) -> Outcome:
    """Everything ``generate`` does except printing; raises UsageError for bad parameters."""
    settings = read_settings(env)
    served = api_versions(env)
    source = locate(app_dir, env)
    listing = list_manifests(source)
    preview = None
    if settings.children == "preview":
        from kubectl_dgd.argocd.preview import preview_configmap

        preview = preview_configmap
    outcome = generate_objects(
        GenerateRequest(
            files=[(path, source.display(path)) for path in listing.files],
            profile=settings.profile(served),
            namespace=env.get("ARGOCD_APP_NAMESPACE", ""),
            app_label=_app_label(env),
            listing_errors=[f"{e}" for e in listing.errors],
            served_apis=served,
            restart_id=settings.restart_id,
            restart_strategy=settings.restart_strategy,
            preview=preview,
            workers=_workers_wanted(env),
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


def _app_label(env: Mapping[str, str]) -> str:
    path = env.get("ARGOCD_APP_SOURCE_PATH", "").strip()
    return f"the application path {path!r}" if path else "the application path"


def capped(lines: list[str], limit: int, noun: str) -> list[str]:
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"... and {len(lines) - limit} more {noun}"]

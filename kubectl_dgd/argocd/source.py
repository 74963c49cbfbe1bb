"""Which files an application consists of, without ever leaving its repository.

The repo server streams the repository into a fresh directory and runs us in the application's
path inside it, with ``ARGOCD_APP_SOURCE_PATH`` set to that path relative to the repository. The
repository root is therefore the working directory minus that suffix. Anything beyond the root is
the sidecar's own filesystem, including other applications' checkouts under the same temporary
directory, so no file outside it is read, and a symbolic link that resolves outside it is an
error rather than a silent skip (a skipped manifest would make Argo CD prune its resource).
When the suffix does not match (a local run, or an unusual layout) the root is the application
path itself: the narrowest choice that is always safe.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from kubectl_dgd.adapters.yamlload import MANIFEST_SUFFIXES
from kubectl_dgd.errors import InputError

SOURCE_PATH_ENV = "ARGOCD_APP_SOURCE_PATH"


@dataclass(frozen=True)
class AppSource:
    """The application's directory and the repository it lies in."""

    app_dir: Path  # resolved
    repo_root: Path  # resolved; app_dir is inside it

    def display(self, path: Path) -> str:
        """``path`` as shown in messages: relative to the application path, POSIX separators."""
        try:
            return PurePosixPath(*path.relative_to(self.app_dir).parts).as_posix()
        except ValueError:
            return path.as_posix()


@dataclass
class Listing:
    """The application's manifest files, and what could not be listed."""

    files: list[Path] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)


def locate(app_dir: Path, env: Mapping[str, str]) -> AppSource:
    """The application path and the repository root it may read from (see module doc)."""
    resolved = Path(os.path.realpath(app_dir))
    if not resolved.is_dir():
        raise InputError("application path is not a directory", str(app_dir))
    relative = PurePosixPath(env.get(SOURCE_PATH_ENV, "").strip() or ".")
    parts = [p for p in relative.parts if p not in (".", "/")]
    if not parts or ".." in parts or relative.is_absolute():
        return AppSource(resolved, resolved)
    logical = Path(os.path.abspath(app_dir))
    if tuple(logical.parts[-len(parts) :]) != tuple(parts):
        return AppSource(resolved, resolved)
    root = Path(os.path.realpath(logical.parents[len(parts) - 1]))
    if not _inside(resolved, root):
        return AppSource(resolved, resolved)
    return AppSource(resolved, root)


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def list_manifests(source: AppSource) -> Listing:
    """Manifest files below the application path, sorted, hidden entries skipped."""
    listing = Listing()
    _walk(source, source.app_dir, source.app_dir, listing, {source.app_dir})
    return listing


def _walk(source: AppSource, shown: Path, real: Path, listing: Listing, seen: set[Path]) -> None:
    try:
        entries = sorted(os.scandir(real), key=lambda e: e.name)
    except OSError as err:
        listing.errors.append(
            InputError(f"cannot list directory: {err.strerror}", source.display(shown))
        )
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue  # .git, .argocd-source*.yaml, editor files
        link = shown / entry.name
        if entry.is_symlink():
            target = Path(os.path.realpath(entry.path))
            if not _inside(target, source.repo_root):
                listing.errors.append(
                    InputError(
                        "symbolic link leads outside the repository; not read", source.display(link)
                    )
                )
                continue
            if not target.exists():
                if entry.name.endswith(MANIFEST_SUFFIXES):
                    listing.errors.append(InputError("broken symbolic link", source.display(link)))
                continue
        else:
            target = Path(entry.path)
        if target.is_dir():
            if target in seen:
                continue  # a link back up the tree: each directory is read once
            _walk(source, link, target, listing, seen | {target})
        elif entry.name.endswith(MANIFEST_SUFFIXES):
            if target.is_file():
                listing.files.append(link)
            else:  # a FIFO would hang the read; skipping it would prune its objects
                listing.errors.append(
                    InputError(
                        "not a regular file (a FIFO, socket or device); not read",
                        source.display(link),
                    )
                )

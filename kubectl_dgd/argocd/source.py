"""Which files an application consists of, without ever leaving its repository.

The repo server streams the repository into a fresh directory and runs us in the application's
path inside it, with ``ARGOCD_APP_SOURCE_PATH`` set to that path relative to the repository. The
repository root is therefore the working directory minus that suffix. Anything beyond the root is
the sidecar's own filesystem, including other applications' checkouts under the same temporary
directory, so no file outside it is read, and a symbolic link that resolves outside it is an
error rather than a silent skip (a skipped manifest would make Argo CD prune its resource).
When the application path is itself a symbolic link, the working directory shows its target: the
root is then the nearest directory above it from which the application path leads there, and
when there is none (the link leaves the repository) nothing is read. Without the variable (a
local run) the root is the application path itself: the narrowest choice that is always safe.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from kubectl_dgd.adapters.manifest_tree import inside, walk
from kubectl_dgd.errors import InputError
from kubectl_dgd.output.terminal import escape_line as display_name

SOURCE_PATH_ENV = "ARGOCD_APP_SOURCE_PATH"


@dataclass(frozen=True)
class AppSource:
    """The application's directory and the repository it lies in."""

    app_dir: Path  # resolved
    repo_root: Path  # resolved; app_dir is inside it

    def display(self, path: Path) -> str:
        """``path`` as shown in messages: relative to the application path, POSIX separators,
        every control character escaped (Argo CD shows stderr in the Application's conditions:
        a line break in a file name would start a line of its own there)."""
        try:
            shown = PurePosixPath(*path.relative_to(self.app_dir).parts).as_posix()
        except ValueError:
            shown = path.as_posix()
        return display_name(shown)


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
    if tuple(logical.parts[-len(parts) :]) == tuple(parts):
        root = Path(os.path.realpath(logical.parents[len(parts) - 1]))
        if inside(resolved, root):
            return AppSource(resolved, root)
    # The working directory comes resolved: an application path that is a symbolic link (or
    # runs through one) shows its target. The repository is the nearest directory above it from
    # which the application path leads here; there is none when the link leaves the repository.
    for candidate in resolved.parents:
        if Path(os.path.realpath(candidate.joinpath(*parts))) == resolved:
            return AppSource(resolved, candidate)
    raise InputError(
        "the application path is a symbolic link leading outside the repository; not read",
        display_name(relative.as_posix()),
    )


def list_manifests(source: AppSource) -> Listing:
    """Manifest files below the application path, sorted, hidden entries skipped; each real
    directory read once (adapters.manifest_tree)."""
    listing = Listing()
    for found in walk(source.app_dir, source.repo_root, outside="the repository"):
        if found.problem is None:
            listing.files.append(found.shown)
        else:
            listing.errors.append(InputError(found.problem, source.display(found.shown)))
    return listing

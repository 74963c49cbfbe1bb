"""The manifest files below a directory: one walk for ``validate/render/diff DIR`` and the Argo CD
plugin, so ``validate apps/x/`` reads what the plugin syncs for the path ``apps/x``.

- Hidden entries (``.git``, ``.argocd-source*.yaml``, editor files) are skipped.
- Symbolic links, to files and to directories, are followed while their target stays inside the
  boundary (the repository); one leading outside is reported, never skipped in silence: a
  skipped manifest would make Argo CD prune its objects, and ``validate`` pass what it never read.
- Each real directory is read once, under the first path that reaches it, however many links
  lead to it: a link back up cannot loop, and links that fan out cannot multiply the work (they
  made 2^depth paths), nor list one file twice.
- The walk keeps its own stack: a tree thousands of directories deep needs no recursion.
- What cannot be read is reported where it is (a loop of links or a broken link named like a
  manifest, a FIFO, a directory that cannot be listed or searched) and the walk goes on.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kubectl_dgd.adapters.yamlload import MANIFEST_SUFFIXES
from kubectl_dgd.errors import InputError


@dataclass(frozen=True)
class Found:
    """A manifest file (``problem`` None), or what stood in the way of reading one.

    ``in_directory``: the problem concerns a directory or a link (nothing more will be read
    there), not one file a reader would refuse by itself (a FIFO, a broken link)."""

    shown: Path  # the path under the starting directory, as the walk reached it
    problem: str | None = None
    in_directory: bool = False
    leaves_boundary: bool = False  # a link to outside the boundary


@dataclass(frozen=True)
class _Dir:
    """A directory to read: the path the walk reached it by, and the directory itself."""

    shown: Path
    real: Path


def inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def enclosing_repository(directory: Path) -> Path | None:
    """The Git work tree holding ``directory`` (resolved), if any."""
    for candidate in (directory, *directory.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


def expand_paths(paths: list[str], recursive: bool = True) -> list[str]:
    """Files as given; each directory walked for its manifest files (see the module doc), its
    own files before its subdirectories. The boundary of a directory is the Git work tree it
    lies in (the repository Argo CD would read), else the directory itself. A problem with a
    directory or a link refuses the run in one line; a file the reader refuses (a FIFO, a broken
    link) is passed on, for the reader to report beside the files it reads.
    ``recursive=False`` reads only a directory's own files (``kubectl diff -f DIR`` without -R)."""
    result: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            result.append(path)
            continue
        real = Path(os.path.realpath(path))
        repository = enclosing_repository(real)
        outside = "the repository" if repository else "the directory given"
        for found in walk(
            Path(path), repository or real, outside=outside, files_first=True, recursive=recursive
        ):
            if found.in_directory:
                hint = (
                    " (give its target as an argument of its own)" if found.leaves_boundary else ""
                )
                raise InputError(f"{found.problem}{hint}", str(found.shown))
            result.append(str(found.shown))
    return result


def walk(
    shown: Path,
    boundary: Path,
    *,
    outside: str,
    files_first: bool = False,
    recursive: bool = True,
) -> Iterator[Found]:
    """Manifest files below ``shown`` in name order. ``files_first``: a directory's own files
    before its subdirectories (else files and directories interleaved, each directory read where
    its name sorts). ``outside`` names the boundary in messages ("the repository")."""
    start = Path(os.path.realpath(shown))
    seen = {start}
    stack: list[Iterator[Found | _Dir]] = [
        iter(_entries(shown, start, boundary, outside, files_first))
    ]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
        elif isinstance(item, Found):
            yield item
        elif item.real not in seen and recursive:
            seen.add(item.real)
            stack.append(iter(_entries(item.shown, item.real, boundary, outside, files_first)))


def _entries(
    shown: Path, real: Path, boundary: Path, outside: str, files_first: bool
) -> list[Found | _Dir]:
    try:
        with os.scandir(real) as listing:
            names = sorted(entry.name for entry in listing if not entry.name.startswith("."))
    except OSError as err:
        return [Found(shown, f"cannot list directory: {_reason(err)}", in_directory=True)]
    files: list[Found | _Dir] = []
    directories: list[Found | _Dir] = []
    for name in names:
        path = shown / name
        try:
            item = _classify(path, real / name, boundary, outside)
        except PermissionError:  # listed but not searchable: no entry of it can be read
            return [Found(shown, "cannot read directory: permission denied", in_directory=True)]
        if item is None:
            continue
        (directories if isinstance(item, _Dir) and files_first else files).append(item)
    return files + directories


def _classify(path: Path, real: Path, boundary: Path, outside: str) -> Found | _Dir | None:
    is_manifest = path.name.endswith(MANIFEST_SUFFIXES)
    linked = os.path.islink(real)
    if linked:
        target = Path(os.path.realpath(real))
        if not inside(target, boundary):
            message = f"symbolic link leads outside {outside}; not read"
            return Found(path, message, in_directory=True, leaves_boundary=True)
    else:
        target = real
    try:
        mode = os.stat(real).st_mode
    except PermissionError:
        raise  # the directory is not searchable: _entries reports it once
    except OSError as err:
        if not is_manifest:
            return None  # a broken link to what may not be a manifest: nothing to read
        if err.errno == errno.ELOOP:
            return Found(path, "symbolic link loop; not read")
        if err.errno == errno.ENOENT and linked:
            return Found(path, "broken symbolic link")
        return Found(path, _reason(err))
    if stat.S_ISDIR(mode):
        return _Dir(path, target)
    if not is_manifest:
        return None
    if not stat.S_ISREG(mode):  # a FIFO would hang the read; skipping it would prune its objects
        return Found(path, "not a regular file (a FIFO, socket or device); not read")
    return Found(path)


def _reason(err: OSError) -> str:
    return "permission denied" if isinstance(err, PermissionError) else err.strerror or str(err)

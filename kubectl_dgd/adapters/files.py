"""Edit manifest files in place: change one field of one document, leave every other byte alone.

ruamel's composer gives each node its exact position in the text; we splice new text into
that position instead of re-dumping the stream, so comments, key order, quoting, indentation
and the other documents stay byte for byte. The result is parsed again (ruamel round-trip)
and compared with the intended data before anything is written; the write itself is atomic.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.errors import ChangedMeanwhileError, DgdError, InputError


class WriteError(DgdError):
    """The file could not be replaced; it was left as it was."""


@dataclass(frozen=True)
class _Span:
    """A range of characters of the file's text."""

    start: int
    end: int


def set_spec_field(text: str, position: int, key: str, value: dict[str, Any], source: str) -> str:
    """``text`` with ``spec.<key>`` of document ``position`` set to ``value`` (a mapping).

    An existing block is replaced where it stands; a missing one is appended as the last key
    of ``spec``. A flow-style ``spec`` (a JSON file's) gets the entry as JSON, which is YAML.
    Raises InputError when the document's ``spec`` is not a mapping.
    """
    root = _document_node(text, position, source)
    spec_key, spec = _mapping_entry(root, "spec")
    if spec is None or spec_key is None or not _is_mapping(spec):
        raise InputError("spec is not a YAML mapping; edit such files by hand", source)
    newline = "\r\n" if "\r\n" in text else "\n"
    if not _is_block_mapping(spec):
        return _set_flow_entry(text, spec, key, value, newline)
    entries = spec.value
    column = entries[0][0].start_mark.column
    # The file's own step: how far spec's keys sit right of "spec:".
    indent = column - spec_key.start_mark.column or 2
    block = _render_block(key, value, column, indent, newline)
    existing_key, existing_value = _mapping_entry(spec, key)
    edits = _scalar_edits(existing_value, value) if existing_value is not None else None
    if edits is not None:
        # Same shape as before: rewrite only the values that change, so comments, quoting
        # and layout around them stay.
        for start, end, replacement in sorted(edits, reverse=True):
            text = text[:start] + replacement + text[end:]
        return text
    if existing_key is not None and existing_value is not None:
        span = _Span(existing_key.start_mark.index, _line_end(text, _content_end(existing_value)))
        # The block starts at the key's column: its first line needs no indentation of its own.
        return text[: span.start] + block[column:].rstrip("\r\n") + text[span.end :]
    insert_at = _after_line(text, _content_end(spec))
    if insert_at == len(text) and not text.endswith("\n"):
        text = _strip_final_block_scalar(text, spec)
        insert_at = len(text)
    prefix = "" if insert_at == 0 or text[insert_at - 1] == "\n" else newline
    return text[:insert_at] + prefix + block + text[insert_at:]


def _set_flow_entry(text: str, spec: Any, key: str, value: Any, newline: str) -> str:
    """``key: value`` set in a flow mapping (``{...}``): the old value replaced where it stands,
    or a new last entry, on a line of its own at the entries' column when they have their own."""
    rendered = json.dumps(value, ensure_ascii=False)
    _, existing = _mapping_entry(spec, key)
    if existing is not None:
        return text[: existing.start_mark.index] + rendered + text[existing.end_mark.index :]
    entry = f"{json.dumps(key)}: {rendered}"
    if not spec.value:  # {}: between the braces
        inside = spec.start_mark.index + 1
        return text[:inside] + entry + text[inside:]
    last_key, last_value = spec.value[-1]
    end = last_value.end_mark.index
    own_lines = last_key.start_mark.line > spec.start_mark.line
    separator = "," + newline + " " * last_key.start_mark.column if own_lines else ", "
    return text[:end] + separator + entry + text[end:]


def plain_documents(text: str, source: str) -> list[Any]:
    """Every document as plain data, read with ruamel's round-trip loader (used to verify edits)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="rt")
    try:
        return [_plain(doc) for doc in yaml.load_all(io.StringIO(text))]
    except YAMLError as err:
        raise InputError(f"malformed YAML: {err}", source) from None


@dataclass(frozen=True)
class Snapshot:
    """A file as read under its edit lock: the bytes and the stat that identify that version."""

    path: str  # as given, for messages
    target: str  # symlinks resolved: the file that is replaced
    raw: bytes
    stat: os.stat_result


LOCK_WAIT_SECONDS = 60.0


@contextlib.contextmanager
def locked_for_edit(path: str, limit: int) -> Iterator[Snapshot]:
    """Hold an advisory lock (flock) on ``path`` while it is read, edited and replaced.

    The lock is taken on the file itself, so no lock file is left in the repository. A writer
    that replaced the file while we waited for the lock released a different inode: we then
    lock the new one, and read only after holding the lock on the file ``path`` names.
    """
    import fcntl

    target = os.path.realpath(path)
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        fd = _open_regular(target, path)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise WriteError(
                            f"{path}: another process holds its edit lock; not written"
                        ) from None
                    time.sleep(0.02)
            now = os.stat(target)
            if _same_file(now, os.fstat(fd)):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    try:
        os.set_blocking(fd, True)
        raw = _read_at_most(fd, limit + 1)
        if len(raw) > limit:
            raise InputError(f"file is larger than the {limit // (1024 * 1024)} MiB limit", path)
        yield Snapshot(path, target, raw, os.fstat(fd))
    finally:
        os.close(fd)  # releases the lock, after the replace


def _open_regular(target: str, shown: str) -> int:
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer.
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError("no such file", shown) from None
    except PermissionError:
        raise InputError("permission denied", shown) from None
    except OSError as err:
        raise InputError(err.strerror or str(err), shown) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "is a directory" if stat.S_ISDIR(mode) else "not a regular file (a FIFO or device)"
        raise InputError(f"{what}; not edited", shown)
    return fd


def _read_at_most(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _unchanged(a: os.stat_result, b: os.stat_result) -> bool:
    return _same_file(a, b) and (a.st_size, a.st_mtime_ns, a.st_ctime_ns) == (
        b.st_size,
        b.st_mtime_ns,
        b.st_ctime_ns,
    )


def atomic_write(
    path: str, data: str, expected: Snapshot | None = None, encoding: str = "utf-8"
) -> None:
    """Replace ``path`` with ``data`` via a temporary file in the same directory.

    Mode, owner and extended attributes are kept (xattrs where the file system allows); a
    symlink is followed (its target is replaced); the directory is synced after the rename.
    Refused, with the file untouched: what is not a regular file, a read-only file, a file with
    other hard links (they would be split off). With ``expected`` (the version read under the
    edit lock) the file is compared just before the rename: if anyone changed it, theirs stays
    and ChangedMeanwhileError is raised. Any failure, SIGTERM included, removes the temporary file.
    """
    target = expected.target if expected is not None else os.path.realpath(path)
    directory = os.path.dirname(target) or "."
    try:
        current = os.stat(target)
    except OSError as err:
        raise WriteError(f"{path}: cannot read file mode: {err.strerror or err}") from err
    _refuse_unsafe_target(path, current)
    if expected is not None:
        _refuse_if_changed(expected, current)
    tmp_path = ""
    try:
        with _terminate_as_exception():
            # Held back until the name is known here: a signal inside mkstemp would leave
            # a file nobody knows the name of.
            held = _hold_signals()
            try:
                fd, tmp_path = tempfile.mkstemp(
                    dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp"
                )
            finally:
                _release_signals(held)
            with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
                fh.write(data)
                fh.flush()
                _keep_owner_and_xattrs(path, target, tmp_path, current, fh.fileno())
                os.chmod(tmp_path, stat.S_IMODE(current.st_mode))
                os.fsync(fh.fileno())
            if expected is not None:
                _refuse_if_changed(expected, os.stat(target))
            os.replace(tmp_path, target)
            tmp_path = ""
            _fsync_directory(directory)
    except OSError as err:
        raise WriteError(
            f"{path}: not written ({err.strerror or err}); the file is unchanged"
        ) from err
    except _Terminated as stop:
        if tmp_path:
            with contextlib.suppress(OSError):
                os.unlink(tmp_path)
            tmp_path = ""
        import signal

        signal.raise_signal(stop.signum)  # ends the process as the signal would have
        raise SystemExit(128 + stop.signum) from None
    finally:
        if tmp_path:
            with contextlib.suppress(OSError):
                os.unlink(tmp_path)


def _refuse_unsafe_target(path: str, current: os.stat_result) -> None:
    if not stat.S_ISREG(current.st_mode):
        raise WriteError(f"{path}: not a regular file; not replaced")
    if not current.st_mode & stat.S_IWUSR or not os.access(path, os.W_OK):
        raise WriteError(f"{path}: the file is read-only; not written")
    if current.st_nlink > 1:
        raise WriteError(
            f"{path}: the file has {current.st_nlink} hard links and replacing it would split "
            "them; not written"
        )


def _refuse_if_changed(expected: Snapshot, current: os.stat_result) -> None:
    changed = not _unchanged(current, expected.stat)
    if not changed:
        with open(expected.target, "rb") as fh:
            changed = fh.read(len(expected.raw) + 1) != expected.raw
    if changed:
        raise ChangedMeanwhileError(
            f"{expected.path}: changed by someone else while being edited; not written, their "
            "version is kept (run again)"
        )


def _keep_owner_and_xattrs(
    path: str, target: str, tmp_path: str, current: os.stat_result, fd: int
) -> None:
    if (current.st_uid, current.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, current.st_uid, current.st_gid)
        except PermissionError:
            raise WriteError(
                f"{path}: cannot keep the file's owner ({current.st_uid}:{current.st_gid}); "
                "not written"
            ) from None
    for name in _xattr_names(target):
        with contextlib.suppress(OSError):  # "where permitted": security.* may need privileges
            os.setxattr(tmp_path, name, os.getxattr(target, name))


def _xattr_names(target: str) -> list[str]:
    try:
        return os.listxattr(target)
    except (OSError, AttributeError):
        return []


def _fsync_directory(directory: str) -> None:
    """Make the rename itself durable: without it a crash can bring back the old file."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _hold_signals() -> set[int] | None:
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP}))


def _release_signals(held: set[int] | None) -> None:
    import signal

    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class _Terminated(BaseException):
    def __init__(self, signum: int) -> None:
        self.signum = signum


@contextlib.contextmanager
def _terminate_as_exception() -> Iterator[None]:
    """SIGTERM and SIGHUP raise _Terminated while the temporary file exists, so the caller
    can remove it before the process ends as the signal would have ended it."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _frame: Any) -> None:
        raise _Terminated(signum)

    saved = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, previous in saved.items():
            signal.signal(sig, previous)


# ---- node positions -----------------------------------------------------------------------------


def _document_node(text: str, position: int, source: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        nodes = list(YAML(typ="rt").compose_all(io.StringIO(text)))
    except YAMLError as err:
        raise InputError(f"malformed YAML: {err}", source) from None
    if position >= len(nodes) or not _is_mapping(nodes[position]):
        raise InputError(f"document {position + 1} is not a mapping", source)
    return nodes[position]


def _is_mapping(node: Any) -> bool:
    from ruamel.yaml.nodes import MappingNode

    return isinstance(node, MappingNode)


def _is_block_mapping(node: Any) -> bool:
    return _is_mapping(node) and not node.flow_style and bool(node.value)


def _mapping_entry(node: Any, key: str) -> tuple[Any, Any]:
    for key_node, value_node in node.value:
        if getattr(key_node, "value", None) == key:
            return key_node, value_node
    return None, None


def _leaves(node: Any) -> Iterator[Any]:
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    if isinstance(node, MappingNode | SequenceNode) and not node.flow_style:
        for item in node.value:
            if isinstance(item, tuple):
                yield from _leaves(item[0])
                yield from _leaves(item[1])
            else:
                yield from _leaves(item)
    else:
        yield node


_BLOCK_HEADER = re.compile(r"[|>](?:([1-9])?[+-]?|[+-]([1-9])?)")


def _strip_final_block_scalar(text: str, node: Any) -> str:
    """A ``|``/``>`` scalar that ends the file without a line break holds no final newline; text
    appended after it would give it one, so its header gets the strip indicator (``|-``)."""
    last = list(_leaves(node))[-1]
    if getattr(last, "style", None) not in ("|", ">"):
        return text
    start = last.start_mark.index
    header = _BLOCK_HEADER.match(text, start)
    if header is None:
        return text
    indent = header.group(1) or header.group(2) or ""
    return text[:start] + text[start] + indent + "-" + text[header.end() :]


def _content_end(node: Any) -> int:
    """Where a node's own text ends: a block collection's end mark runs on over trailing comments."""
    return max(_leaf_end(leaf.end_mark) for leaf in _leaves(node))


def _leaf_end(mark: Any) -> int:
    # A block scalar (| or >) ends after its final line break, at column 0 of the next line.
    return int(mark.index - 1 if mark.column == 0 and mark.index > 0 else mark.index)


def _line_end(text: str, index: int) -> int:
    """End of the line holding ``index`` (before its newline): a trailing comment goes with the block."""
    newline = text.find("\n", index)
    end = len(text) if newline < 0 else newline
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


def _after_line(text: str, index: int) -> int:
    newline = text.find("\n", index)
    return len(text) if newline < 0 else newline + 1


def _scalar_edits(node: Any, value: Any) -> list[tuple[int, int, str]] | None:
    """Replacements that turn ``node`` into ``value`` scalar by scalar, or None when the shape
    differs (keys added or removed, a block sequence): then the whole entry is rewritten."""
    from ruamel.yaml.nodes import ScalarNode, SequenceNode

    if isinstance(value, dict):
        if not _is_block_mapping(node):
            return None
        keys = [getattr(k, "value", None) for k, _ in node.value]
        if sorted(map(str, keys)) != sorted(value) or len(keys) != len(value):
            return None
        edits: list[tuple[int, int, str]] = []
        for key_node, child in node.value:
            child_edits = _scalar_edits(child, value[key_node.value])
            if child_edits is None:
                return None
            edits.extend(child_edits)
        return edits
    if isinstance(value, list):
        if not isinstance(node, SequenceNode) or not node.flow_style:
            return None
        current = [getattr(item, "value", None) for item in node.value]
        if current == value:
            return []
        return [(node.start_mark.index, node.end_mark.index, _flow(value))]
    if not isinstance(node, ScalarNode) or node.style in ("|", ">") or not isinstance(value, str):
        return None
    if node.value == value and str(getattr(node.tag, "value", node.tag)).endswith(":str"):
        return []
    return [(node.start_mark.index, node.end_mark.index, _scalar_like(node.style, value))]


def _scalar_like(style: str | None, value: str) -> str:
    """``value`` written in the quoting style the old value had, where that style can hold it."""
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if style == '"':
        return json.dumps(value, ensure_ascii=False)
    return _flow(value)


# ---- rendering the new block -------------------------------------------------------------------


def _render_block(key: str, value: dict[str, Any], column: int, indent: int, newline: str) -> str:
    lines: list[str] = []
    _render_mapping_lines(key, value, column, indent, lines)
    return "".join(line + newline for line in lines)


def _render_mapping_lines(key: str, value: Any, column: int, indent: int, lines: list[str]) -> None:
    pad = " " * column
    if isinstance(value, dict) and value:
        lines.append(f"{pad}{key}:")
        for child_key, child_value in value.items():
            _render_mapping_lines(str(child_key), child_value, column + indent, indent, lines)
    else:
        lines.append(f"{pad}{key}: {_flow(value)}")


_PLAIN_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


def _flow(value: Any) -> str:
    """A flow-style YAML value. Words stay plain; anything else is JSON-quoted (JSON is YAML),
    so an id such as 2026-11-30T01:00:00Z is never read back as a timestamp."""
    if isinstance(value, str) and _PLAIN_WORD.match(value) and value.lower() not in _YAML_WORDS:
        return value
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value

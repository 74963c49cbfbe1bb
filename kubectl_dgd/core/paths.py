"""Field paths in the operator's notation: ``spec.components[1].podTemplate``, ``metadata.annotations[a/b]``.

The same notation keys the line maps of parsed documents, so a finding's path finds its line.
"""

import re

from kubectl_dgd.core.lazyre import LazyPattern

_BRACKETED_KEY = re.compile(r"\[((?![0-9]+\])[^\]]*)\]")  # [key], not [3]
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_CONTROL = LazyPattern(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # compiled when a key has one


def _escape(key: str) -> str:
    """Control characters as \\xNN, so a path (and every finding line) stays one line."""
    if key.isprintable():  # none of them is printable
        return key
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", key)


# Whether a key is an identifier, by key: the walks ask for the same few hundred keys millions
# of times on a large stream (bounded: cleared when full).
_PLAIN: dict[str, bool] = {}
_PLAIN_MAX = 10_000


def child(path: str, key: str) -> str:
    """The path of ``key`` below ``path``; keys that are not identifiers are bracketed, as the operator does."""
    plain = _PLAIN.get(key)
    if plain is None:
        if len(_PLAIN) >= _PLAIN_MAX:
            _PLAIN.clear()
        plain = _PLAIN[key] = _PLAIN_KEY.match(key) is not None
    if plain:
        return f"{path}.{key}" if path else key
    return f"{path}[{_escape(key)}]"


def schema_form(path: str) -> str:
    """``path`` as the API server's schema validator writes it: a bracketed map key joined with
    a dot instead (``limits[nvidia.com/gpu]`` -> ``limits.nvidia.com/gpu``); list indexes stay."""
    if "[" not in path:
        return path
    return _BRACKETED_KEY.sub(lambda m: "." + m.group(1), path)


def index(path: str, i: int) -> str:
    return f"{path}[{i}]"


def parent(path: str) -> str | None:
    """The enclosing path, or None at the top."""
    if not path:
        return None
    if path.endswith("]"):
        depth = 0
        for pos in range(len(path) - 1, -1, -1):
            if path[pos] == "]":
                depth += 1
            elif path[pos] == "[":
                depth -= 1
                if depth == 0:
                    return path[:pos]
        return None
    dot = path.rfind(".")
    return path[:dot] if dot >= 0 else ""


def line_for(lines: dict[str, int], path: str, default: int) -> int:
    """The line of ``path``, or of its nearest ancestor that has one."""
    current: str | None = path
    while current is not None:
        found = lines.get(current)
        if found is not None:
            return found
        current = parent(current)
    return default

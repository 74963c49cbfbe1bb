"""Field paths in the operator's notation: ``spec.components[1].podTemplate``, ``metadata.annotations[a/b]``.

The same notation keys the line maps of parsed documents, so a finding's path finds its line.
"""

import re

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def child(path: str, key: str) -> str:
    """The path of ``key`` below ``path``; keys that are not identifiers are bracketed, as the operator does."""
    if _PLAIN_KEY.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{key}]"


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

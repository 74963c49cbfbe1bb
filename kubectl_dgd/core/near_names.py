"""Which names a mistyped one may have meant: cobra's rule for kubectl's "Did you mean", used for
commands and for graph names alike."""

from __future__ import annotations

from collections.abc import Iterable

# cobra's SuggestionsMinimumDistance
MAX_EDITS = 2


def distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions), as cobra's suggestions use."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            )
        previous = current
    return previous[-1]


def near_names(typed: str, names: Iterable[str]) -> list[str]:
    """The names within two edits of ``typed`` (case ignored: cobra lowers what was typed, and
    component names are mixed case), or that it is a prefix of, in the order given; never
    ``typed`` itself."""
    lowered = typed.lower()
    return [
        name
        for name in names
        if name != typed
        and (name.lower().startswith(lowered) or distance(lowered, name.lower()) <= MAX_EDITS)
    ]


def did_you_mean(typed: str, names: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the near names, or nothing."""
    near = near_names(typed, names)
    return f" (did you mean {' or '.join(near)}?)" if near else ""

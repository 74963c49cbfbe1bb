"""Start-up machinery of the console scripts, fenced in one place: the collector's settings
(``gcpolicy``), modules entered before their code runs (``deferred``) and dataclasses' generated
methods cached beside the byte code (``dataclass_code``). ``process.run`` applies them around a
console script's main; nothing here acts at import.

Only the entry points (``cli``, ``argocd``) and ``adapters`` may import this package (import
contract ``startup-fenced`` in pyproject.toml). ``DGD_PLAIN_STARTUP=1`` turns every trick off,
so a maintainer can bisect a difference between the fast and the plain start-up; each trick and
the test that holds its two paths equal is listed in docs/architecture.md (Speed work).
"""

from __future__ import annotations

import os

SWITCH = "DGD_PLAIN_STARTUP"


def plain() -> bool:
    """Every start-up trick off (``DGD_PLAIN_STARTUP`` set, and not to ``0``)."""
    return os.environ.get(SWITCH, "") not in ("", "0")

"""SHA-256 hex digests (the worker hash, model cache names) without loading OpenSSL.

``hashlib`` imports ``_hashlib``, which loads OpenSSL's libcrypto: about 2.5 ms of start-up to
hash a kilobyte or two once. CPython's own implementation gives the same digest in 0.2 ms of
import; it is a private module (``_sha256`` up to 3.11, ``_sha2`` from 3.12), so ``hashlib``
stays the fallback. tests/unit/test_sha256.py compares the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_sha256: Callable[[bytes], Any]
try:
    from _sha2 import sha256 as _sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
except ImportError:
    try:
        from _sha256 import sha256 as _sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
    except ImportError:  # pragma: no cover - a Python built without them
        from hashlib import sha256 as _sha256  # type: ignore[assignment,unused-ignore]


def hexdigest(text: str) -> str:
    """The SHA-256 of ``text`` (UTF-8), in hex."""
    return str(_sha256(text.encode()).hexdigest())

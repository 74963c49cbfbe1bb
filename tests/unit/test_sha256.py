"""core/sha256.py gives hashlib's SHA-256 (it only avoids loading OpenSSL to compute it)."""

from __future__ import annotations

import hashlib

import pytest

from kubectl_dgd.core.sha256 import hexdigest


@pytest.mark.parametrize("text", ["", "a", "vllm-agg/VllmDecodeWorker", "é✓" * 1000, "x" * 100_000])
def test_the_digest_is_hashlibs(text: str) -> None:
    assert hexdigest(text) == hashlib.sha256(text.encode()).hexdigest()

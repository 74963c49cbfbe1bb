"""Fuzzing the kubeconfig reader (bounded: FUZZ_EXAMPLES).

The promise: any file given as a kubeconfig resolves, or fails with the project's own error in
one line, and no message shows the token it holds, however the file is spelled.
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_dgd.adapters.kubeconfig import ConnectionSettings, resolve, settled_config
from kubectl_dgd.errors import DgdError

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TOKEN = "s3cr3t-T0ken-Value"
_VALID = f"""apiVersion: v1
kind: Config
current-context: c
contexts: [{{name: c, context: {{cluster: k, user: u, namespace: ns}}}}]
clusters: [{{name: k, cluster: {{server: "https://127.0.0.1:1"}}}}]
users: [{{name: u, user: {{token: {TOKEN}}}}}]
"""
_PIECES = [
    "\n", "  ", "- ", ": ", "{", "}", "[", "]", ",", "#", "&a ", "*a", "<<: ", "!!int ",
    "!!binary ", '"', "'", "\t", "~", "null", "current-context", "contexts", "clusters", "users",
    "name", "context", "cluster", "user", "token", "tokenFile", "exec", "auth-provider",
    "client-certificate-data", "certificate-authority", "server", "https://x", "http://x",
    TOKEN, "\\x", "\ufeff", "\xff",
    # the fields kubectl's decoder types (kubeconfigtypes), block scalars, numbers
    "insecure-skip-tls-verify", '"false"', "true", "5", "|\n  ", "as-groups", "kind", "apiVersion",
    "certificate-authority-data", "proxy-url",
]  # fmt: skip
pieces = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)
# Mostly edits of a valid file, so the reader gets past the YAML into the kubeconfig's shape.
kubeconfig_text = st.one_of(
    pieces,
    st.tuples(st.integers(0, len(_VALID)), st.integers(0, 40), pieces).map(
        lambda t: _VALID[: t[0]] + t[2] + _VALID[t[0] + t[1] :]
    ),
)


@FUZZ
@given(kubeconfig_text)
def test_any_kubeconfig_resolves_or_fails_in_one_line_without_the_token(text: str) -> None:
    with tempfile.TemporaryDirectory() as home:
        path = os.path.join(home, "config")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(text)
        try:
            resolved = resolve(ConnectionSettings(kubeconfig=path), environ={}, home=home)
            settled_config(resolved, timeout=2)
        except DgdError as err:
            message = str(err)
            assert "\n" not in message.strip(), message
            assert TOKEN not in message, message

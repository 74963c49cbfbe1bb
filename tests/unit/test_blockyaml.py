"""The kubeconfig subset reader (``adapters.blockyaml``) gives the manifest loader's mapping or
None, input by input.

Each test compares the two: where the subset reader answers, the loader must read the same
mapping (repr: key order and types count) without an error. The first tests prove that the
subset reader does answer for the kubeconfigs that kubectl and the cloud tools write, so the
comparison is not between the loader and itself; the others that it gives up where it must.
"""

from __future__ import annotations

import os
import string
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_dgd.adapters.blockyaml import read_block_mapping
from kubectl_dgd.adapters.yamlload import load_text
from kubectl_dgd.errors import InputError
from tests.bad_input.corpus import harmless_cases, unreadable_cases, yaml_semantics_cases

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# As the tools write them (names and data shortened; the shapes and spellings are theirs).
KUBECTL = """\
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=
    server: https://127.0.0.1:6443
  name: kind-kind
contexts:
- context:
    cluster: kind-kind
    namespace: dynamo
    user: kind-kind
  name: kind-kind
current-context: kind-kind
kind: Config
preferences: {}
users:
- name: kind-kind
  user:
    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t
    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQ==
"""
EKS = """\
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t
    server: https://ABCDEF0123.gr7.us-west-2.eks.amazonaws.com
  name: arn:aws:eks:us-west-2:123456789012:cluster/demo
contexts:
- context:
    cluster: arn:aws:eks:us-west-2:123456789012:cluster/demo
    user: arn:aws:eks:us-west-2:123456789012:cluster/demo
  name: arn:aws:eks:us-west-2:123456789012:cluster/demo
current-context: arn:aws:eks:us-west-2:123456789012:cluster/demo
kind: Config
preferences: {}
users:
- name: arn:aws:eks:us-west-2:123456789012:cluster/demo
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - --region
      - us-west-2
      - eks
      - get-token
      - --cluster-name
      - demo
      command: aws
      env: null
      interactiveMode: IfAvailable
      provideClusterInfo: false
"""
GKE = """\
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t
    server: https://34.0.0.1
  name: gke_project_us-central1_demo
contexts:
- context:
    cluster: gke_project_us-central1_demo
    user: gke_project_us-central1_demo
  name: gke_project_us-central1_demo
current-context: gke_project_us-central1_demo
kind: Config
preferences: {}
users:
- name: gke_project_us-central1_demo
  user:
    auth-provider:
      config:
        cmd-args: config config-helper --format=json
        cmd-path: /usr/lib/google-cloud-sdk/bin/gcloud
        expiry-key: '{.credential.token_expiry}'
        token-key: '{.credential.access_token}'
      name: gcp
"""
# Written by a Python tool (PyYAML's style: entries indented, quotes where needed), with
# comments and blank lines a person added.
HAND = """\
# the lab cluster
apiVersion: v1
kind: Config
current-context: lab   # switch with --context

clusters:
  - name: lab
    cluster:
      server: "https://lab.example:6443"
      insecure-skip-tls-verify: true
      tls-server-name: ''
users:
  - name: me@example.com
    user:
      token: eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtZSJ9.c2ln
      as-groups:
        - 'dev''s group'
        - "ops #2"
contexts:
  - name: lab
    context:
      cluster: lab
      user: me@example.com
      namespace:
extensions: []
"""
CORPUS = {"kubectl": KUBECTL, "eks": EKS, "gke": GKE, "hand-written": HAND}


def loaded(text: str) -> Any:
    """What the manifest loader reads: the first document's data, or the error."""
    try:
        documents = load_text(text, "config")
    except InputError as err:
        return ("error", str(err))
    return documents[0].data if documents else None


def assert_agrees(text: str) -> Any:
    fast = read_block_mapping(text)
    if fast is not None:
        assert repr(fast) == repr(loaded(text)), text
    return fast


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_tools_kubeconfigs_are_read_in_the_subset(name: str) -> None:
    fast = assert_agrees(CORPUS[name])
    assert fast is not None
    assert fast["kind"] == "Config"


def test_what_the_subset_reads_in_detail() -> None:
    fast = assert_agrees(HAND)
    assert fast is not None
    assert fast["current-context"] == "lab"
    cluster = fast["clusters"][0]["cluster"]
    assert cluster == {
        "server": "https://lab.example:6443",
        "insecure-skip-tls-verify": True,
        "tls-server-name": "",
    }
    assert fast["users"][0]["user"]["as-groups"] == ["dev's group", "ops #2"]
    assert fast["contexts"][0]["context"]["namespace"] is None
    assert fast["extensions"] == []
    exec_ = assert_agrees(EKS)["users"][0]["user"]["exec"]  # type: ignore[index]
    assert exec_["args"][:2] == ["--region", "us-west-2"]
    assert (exec_["env"], exec_["provideClusterInfo"]) == (None, False)


OUTSIDE = {
    "tab": "a:\tb\n",
    "carriage return": "a: b\r\n",
    "non-ASCII": "a: caf\u00e9\n",
    "byte order mark": "\ufeffa: b\n",
    "anchor and alias": "a: &x b\nc: *x\n",
    "tag": "a: !!str b\n",
    "merge key": "a:\n  <<: {b: c}\n",
    "flow mapping": "a: {b: c}\n",
    "flow sequence": "a: [b]\n",
    "literal block": "a: |\n  b\n",
    "folded block": "a: >\n  b\n",
    "continued plain scalar": "a: b\n  c\n",
    "continued quoted scalar": 'a: "b\n  c"\n',
    "escape in double quotes": 'a: "b\\tc"\n',
    "integer": "a: 1\n",
    "negative integer": "a: -1\n",
    "float": "a: .5\n",
    "timestamp": "a: 2001-12-14\n",
    "token starting with a digit": "a: 9f86d081884c7d659a2feaa0c55ad015\n",
    "YAML 1.1 boolean": "a: yes\n",
    "capitalised boolean": "a: True\n",
    "capitalised null": "a: Null\n",
    "tilde null": "a: ~\n",
    "boolean key": "on: b\n",
    "quoted key": '"a": b\n',
    "complex key": "? a\n: b\n",
    "space before colon": "a : b\n",
    "duplicate key": "a: b\na: c\n",
    "two documents": "a: b\n---\nc: d\n",
    "document end": "a: b\n...\n",
    "directive": "%YAML 1.1\n---\na: b\n",
    "nested sequence": "a:\n- - b\n",
    "bad indentation": "a:\n    b: c\n  d: e\n",
    "mapping value in a scalar": "a: b: c\n",
    "text after a quote": "a: 'b' c\n",
    "comment without a space": "a: 'b'#c\n",
    "unclosed quote": "a: 'b\n",
    "top-level sequence": "- a\n",
    "top-level scalar": "a\n",
    "indented top level": "  a: b\n",
    "empty": "",
    "comments only": "# nothing\n",
}


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_anything_outside_the_subset_is_left_to_the_loader(name: str) -> None:
    assert read_block_mapping(OUTSIDE[name]) is None


def test_the_bad_input_corpus_agrees() -> None:
    texts = [case.content for case in (*unreadable_cases(), *harmless_cases())]
    decoded = [raw.decode("utf-8", "replace") for raw in texts if len(raw) < 1_000_000]
    for text in [*decoded, *(text for _, text in yaml_semantics_cases())]:
        assert_agrees(text)


# Kubeconfig-like documents: the keys and values a kubeconfig holds, with tricky spellings.
_KEYS = st.sampled_from(
    ["name", "cluster", "user", "server", "token", "args", "env", "as-groups", "x.y/z", "_k"]
)
_TRICKY = [
    "https://10.0.0.1:6443", "--region", "-x", "a: b", "a #b", "a#b", "it's", 'say "hi"', "yes",
    "no", "on", "y", "n", "true", "false", "null", "Null", "~", "", " lead", "trail ", "1",
    "0x1F", "1e3", ".inf", "2001-12-14", "12:30", "[a]", "{a}", "a,b", "*a", "&a", "!a", "%a",
    "@a", "`a", "?a", "|", ">", "=", "<<", "- a", "-", "a:", "\u00e9", "\t", "\\", "a\\b",
    "LS0tLS1CRUdJTg==",
]  # fmt: skip
_STRINGS = st.one_of(
    st.sampled_from(_TRICKY),
    st.text(string.ascii_letters + string.digits + " -_./:#'\"\\", max_size=12),
)
_SCALARS = st.one_of(_STRINGS, st.booleans(), st.none(), st.integers(-5, 5))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=12,
)
_DOCUMENTS = st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=5)
_STYLES = st.fixed_dictionaries(
    {"indent": st.sampled_from([2, 4]), "width": st.sampled_from([20, 80, 4096])}
)


@FUZZ
@given(_DOCUMENTS, _STYLES)
def test_dumped_documents_agree(document: dict[str, Any], style: dict[str, int]) -> None:
    text = yaml.safe_dump(document, default_flow_style=False, sort_keys=False, **style)
    fast = assert_agrees(text)
    if fast is not None:
        assert fast == document


_PIECES = [
    "\n", " ", "  ", "- ", ":", ": ", "#", " #", "'", '"', "{}", "[]", "-", "--", "a", "b",
    "true", "null", "yes", "1", "~", "&x ", "*x", "!!str ", "|", ">", "\t", "---", "...",
]  # fmt: skip


@FUZZ
@given(
    st.sampled_from(sorted(CORPUS)),
    st.integers(0, 2000),
    st.integers(0, 8),
    st.lists(st.sampled_from(_PIECES), max_size=6).map("".join),
)
def test_edited_kubeconfigs_agree(name: str, at: int, cut: int, piece: str) -> None:
    text = CORPUS[name]
    at %= len(text) + 1
    assert_agrees(text[:at] + piece + text[at + cut :])

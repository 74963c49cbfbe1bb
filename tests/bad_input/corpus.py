"""The bad-input corpus, generated at test time (some cases are large or not text).

Run ``python -m tests.bad_input.corpus DIR`` to write the cases into DIR for a look by hand;
the tests write them into a temporary directory. Each case says what the CLI must answer:
the exit code, and for unreadable input the line its single error line names.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kubectl_dgd.core.paths import child, index

ROOT = Path(__file__).resolve().parents[2]
VALID_GRAPH_FILE = ROOT / "manifests" / "examples" / "vllm-agg.yaml"

# A small valid graph the text cases corrupt at a known line.
GRAPH_HEAD = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: broken
spec:
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
"""


@dataclass(frozen=True)
class Unreadable:
    """Input the CLI must refuse with exit 2 and one line naming the file (and ``line``)."""

    name: str
    content: bytes
    line: int | None
    message: str


@dataclass(frozen=True)
class Harmless:
    """Odd but readable input: exit ``exit_code``, no error line, ``graphs`` graphs counted."""

    name: str
    content: bytes
    exit_code: int
    graphs: int


def _alias_bomb(levels: int = 10, width: int = 9) -> bytes:
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return ("\n".join(lines) + "\n").encode()


def _valid_json_graph() -> bytes:
    graph = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "from-json"},
        "spec": {
            "components": [
                {
                    "name": "Frontend",
                    "type": "frontend",
                    "podTemplate": {
                        "spec": {
                            "containers": [
                                {
                                    "name": "main",
                                    "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0",
                                }
                            ]
                        }
                    },
                }
            ]
        },
    }
    return json.dumps(graph, indent=2).encode()


def unreadable_cases() -> list[Unreadable]:
    head = GRAPH_HEAD.encode()
    return [
        Unreadable("malformed-indent.yaml", head + b"  - stray item\n", 14, "malformed YAML"),
        Unreadable(
            "unclosed-flow.yaml", head + b'              args: ["--model", \n', 15, "malformed YAML"
        ),
        Unreadable(
            "unclosed-quote.yaml", head + b'              command: "python3\n', 15, "malformed YAML"
        ),
        Unreadable(
            "tab-indent.yaml", head + b"              args:\n\t- --model\n", 15, "malformed YAML"
        ),
        Unreadable(
            "duplicate-key.yaml",
            head.replace(b"  name: broken\n", b"  name: a\n  name: b\n"),
            5,
            "duplicate key",
        ),
        Unreadable(
            "duplicate-component-key.yaml",
            head + b"              image: other:1.0.0\n",
            14,
            "duplicate key",
        ),
        Unreadable("alias-bomb.yaml", _alias_bomb(), 4, "alias bomb"),
        Unreadable(
            "undefined-alias.yaml", head + b"      replicas: *nothing\n", 14, "malformed YAML"
        ),
        Unreadable("merge-of-scalar.yaml", b"base: &b 1\nspec:\n  <<: *b\n", 3, "merge key"),
        Unreadable("complex-key.yaml", b"? [a, b]\n: 1\n", 1, "keys must be scalars"),
        Unreadable("null-key.yaml", head + b"      ~: nothing\n", 14, "must not be null"),
        Unreadable("int-key-twice.yaml", b"a:\n  1: x\n  '1': y\n", 3, "duplicate key"),
        Unreadable("deep-flow.yaml", b"[" * 100_000 + b"]" * 100_000 + b"\n", 1, "nested"),
        Unreadable("deep-block-sequence.yaml", b"- " * 60_000 + b"x\n", 1, "nested"),
        Unreadable("deep-flow-mapping.yaml", b"{a: " * 60_000 + b"1" + b"}" * 60_000, 1, "nested"),
        Unreadable("binary.yaml", bytes(range(256)) * 64, None, "binary"),
        Unreadable("latin-1.yaml", head + "      type: caf\xe9\n".encode("latin-1"), 14, "UTF-8"),
        # kubectl reads UTF-16 only after a byte-order mark; without one it is binary.
        Unreadable("utf-16-without-bom.yaml", GRAPH_HEAD.encode("utf-16-le"), None, "binary"),
        Unreadable(
            "control-character.yaml", head + b'      type: "\x07"\n', 14, "control characters"
        ),
        Unreadable("bad-int-tag.yaml", head + b"      replicas: !!int many\n", 14, "bad int"),
        Unreadable(
            "huge-int.yaml", head + b"      replicas: " + b"9" * 20_000 + b"\n", 14, "bad int"
        ),
        Unreadable(
            "malformed.json",
            b'{"apiVersion": "nvidia.com/v1beta1",\n "kind": }\n',
            2,
            "malformed JSON",
        ),
        Unreadable(
            "json-trailing-comma.json",
            b'{\n  "kind": "DynamoGraphDeployment",\n}\n',
            3,
            "malformed JSON",
        ),
        Unreadable("second-document-malformed.yaml", head + b"---\na: [\n", 16, "malformed YAML"),
        # Hex is exempt from Python's 4,300-digit limit: the value once reached the printer.
        Unreadable(
            "huge-hex-int.yaml", head + b"      replicas: 0x" + b"f" * 4000 + b"\n", 14, "bad int"
        ),
        Unreadable("bool-maybe.yaml", head + b"      replicas: !!bool maybe\n", 14, "bad bool"),
        Unreadable(
            "huge-int.json",
            b'{\n  "apiVersion": "v1",\n  "n": ' + b"9" * 5000 + b"\n}\n",
            3,
            "bad int",
        ),
        Unreadable(
            "json-duplicate-key.json",
            b'{\n  "kind": "DynamoGraphDeployment",\n  "kind": "ConfigMap"\n}\n',
            3,
            "duplicate key",
        ),
    ]


# Secrets spelled every way the reader must see through; the password must never be printed.
SECRET_VALUE = "s3cr3t-Pa55w0rd-for-prod-" + "x" * 60


def secret_cases() -> list[Unreadable]:
    v = SECRET_VALUE.encode()
    meta = b"apiVersion: v1\nmetadata: {name: s}\n"
    hidden = "value not shown"
    return [
        Unreadable(
            "secret-long-int.yaml",
            meta + b"kind: Secret\ndata:\n  p: !!int " + v + b"\n",
            5,
            hidden,
        ),
        Unreadable(
            "secret-escaped-kind.yaml",
            meta + b'kind: "\\x53ecret"\ndata:\n  p: !!int ' + v + b"\n",
            5,
            hidden,
        ),
        Unreadable(
            "secret-binary-kind.yaml",
            meta + b"kind: !!binary U2VjcmV0\ndata:\n  p: !!float " + v + b"\n",
            5,
            hidden,
        ),
        Unreadable(
            "secret-kind-later.yaml",
            meta + b"data:\n  p: !!int " + v + b"\nkind: Secret\n",
            4,
            hidden,
        ),
        Unreadable(
            "secret-merged-kind.yaml",
            meta + b"<<: {kind: Secret}\ndata:\n  p: !!int " + v + b"\n",
            5,
            hidden,
        ),
        Unreadable(
            "secret-duplicate-key.yaml",
            meta + b"kind: Secret\nstringData:\n  " + v + b": a\n  " + v + b": b\n",
            6,
            hidden,
        ),
        Unreadable(
            "secret-list.yaml",
            b"apiVersion: v1\nkind: List\nitems:\n- {kind: Secret, data: {p: !!int " + v + b"}}\n",
            4,
            hidden,
        ),
    ]


def yaml_semantics_cases() -> list[tuple[str, str]]:
    """(name, value text) pairs whose reading kubectl and we must agree on."""
    return [
        *((word, word) for word in ("yes", "no", "on", "off", "y", "n", "Y", "NO", "True", "Off")),
        ("quoted-yes", '"yes"'),
        ("single-quoted-no", "'no'"),
        ("str-tag-on", "!!str on"),
        ("bool-tag-yes", "!!bool yes"),
        ("flow-list", "[yes, no, on, off]"),
        ("keys-y-n", "{y: 1, n: 2}"),
        ("octal-0644", "0644"),
        ("octal-0o17", "0o17"),
        ("hex", "0x1F"),
        ("underscore", "1_000"),
        ("plus", "+12"),
        ("minus-zero", "-0"),
        ("leading-zero-9", "09"),
        ("exponent", "1e3"),
        ("float", "1.5"),
        ("half", ".5"),
        ("sexagesimal", "12:30"),
        ("tilde", "~"),
        ("Null", "Null"),
        ("empty-quoted", '""'),
        ("date", "2001-12-14"),
        ("binary", "!!binary U2VjcmV0"),
        ("int-tag-quoted", "!!int '7'"),
        ("float-tag", "!!float 1"),
        ("inf-text", '".inf"'),
        ("int64-min", "-9223372036854775808"),
        ("merge-override", "{<<: {a: 1, b: 2}, a: 3}"),
        ("merge-list-first-wins", "{<<: [{a: 1}, {a: 2, b: 3}]}"),
        ("merge-over-an-earlier-key", "{a: 3, <<: {a: 1}, b: 2}"),
        ("anchor-redefined", "{a: &x [1], b: *x, c: &x [3], d: *x}"),
        ("alias-as-key", "{x: &k a, *k : 2}"),
        # ':' in flow collections: ruamel's C scanner refuses these, go-yaml reads them.
        *FLOW_COLON_CASES,
        ("flow-colon-before-indicator", "[a:, b:]"),
        ("flow-key-without-space", "{a:b, c:d: e}"),
        ("flow-quoted-key-adjacent", '["a":b, {"c":d}]'),
        ("flow-times", "[12:30, 1:2:3, 2001-12-14t21:59:43.10-05:00]"),
        ("flow-double-colon", "[a::b, fe80::1%eth0]"),
        ("flow-url-as-key", "[http://x: 1]"),
        ("flow-colon-then-newline", "[a:\n    b]"),
        # The same words outside flow collections (the C scanner reads these).
        ("block-url", "https://example.com/x"),
        ("block-host-port", "0.0.0.0:8000"),
        ("block-time-window", "02:00-04:00"),
        ("quoted-url-in-flow", '["http://etcd:2379"]'),
    ]


# The spellings of issue 21 (the last is an upstream Dynamo example's).
FLOW_COLON_CASES = [
    ("flow-host-port", "[--host, 0.0.0.0:8000]"),
    ("flow-url", "[--etcd, http://etcd:2379]"),
    ("flow-env-port", "[{name: ADDR, value: nats:4222}]"),
    ("flow-annotation-url", "{docs: https://example.com/x}"),
    ("flow-time-window", "{window: 02:00-04:00}"),
    ("flow-grpc-endpoint", "[--grpc-endpoint, 127.0.0.1:50051]"),
]


# A graph using every flow-collection spelling of issue 21 (valid: kubectl reads it).
FLOW_COLON_GRAPH = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: flow-colons
  annotations: {docs: https://example.com/x, window: 02:00-04:00}
spec:
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
              args: [--host, 0.0.0.0:8000, --etcd, http://etcd:2379, --grpc-endpoint, 127.0.0.1:50051]
              env: [{name: ADDR, value: nats:4222}]
"""


def shared_template_graph(components: int = 25, env: int = 900) -> str:
    """A graph whose workers share one anchored pod template: ``components`` x ~(5 x ``env``)
    nodes, nearly all from aliases (25 x 900: about 113,000 nodes, 96 % aliased; the CRD allows
    25 components)."""
    variables = "".join(f"                - {{name: V{i}, value: v{i}}}\n" for i in range(env))
    first = (
        "    - name: Worker0\n      type: worker\n      podTemplate: &pod\n        spec:\n"
        "          containers:\n            - name: main\n"
        "              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0\n"
        "              env:\n" + variables
    )
    others = "".join(
        f"    - name: Worker{i}\n      type: worker\n      podTemplate: *pod\n"
        for i in range(1, components)
    )
    return (
        "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n"
        "  name: shared-template\nspec:\n  components:\n" + first + others
    )


def harmless_cases() -> list[Harmless]:
    head = GRAPH_HEAD.encode()
    return [
        Harmless("empty.yaml", b"", 0, 0),
        Harmless("only-comments.yaml", b"# nothing here\n# at all\n", 0, 0),
        Harmless("empty-documents.yaml", b"---\n---\n...\n---\n", 0, 0),
        Harmless("null-document.yaml", b"null\n", 0, 0),
        Harmless("tilde-document.yaml", b"--- ~\n", 0, 0),
        Harmless("scalar-document.yaml", b"just a string\n", 0, 0),
        Harmless("list-document.yaml", b"- 1\n- 2\n", 0, 0),
        Harmless(
            "not-a-graph.yaml", b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", 0, 0
        ),
        Harmless("valid.json", _valid_json_graph(), 0, 1),
        Harmless("bom.yaml", "\ufeff".encode() + head, 0, 1),
        Harmless(
            "utf-16-le-bom.yaml",
            "\ufeff".encode("utf-16-le") + GRAPH_HEAD.encode("utf-16-le"),
            0,
            1,
        ),
        Harmless(
            "utf-16-be-bom.yaml",
            "\ufeff".encode("utf-16-be") + GRAPH_HEAD.encode("utf-16-be"),
            0,
            1,
        ),
        Harmless("crlf.yaml", head.replace(b"\n", b"\r\n"), 0, 1),
        Harmless("graph-between-nulls.yaml", b"--- null\n---\n" + head + b"--- ~\n", 0, 1),
    ]


# A large file: the valid graph, then ConfigMaps (comments, quoting, flow lists) up to a size.
_CONFIGMAP = (
    "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{n}\n  labels: {{app: bench}}\n"
    "data:\n  # a comment that must survive\n  key: 'value {n}'\n  other: \"text\"\n"
    "  list: [a, b, c]\n"
)


def write_large_file(path: Path, mebibytes: float) -> int:
    """The example graph, then ConfigMaps up to ``mebibytes``; returns the size in bytes."""
    limit = int(mebibytes * 1024 * 1024)
    parts = [VALID_GRAPH_FILE.read_text()]
    size, n = len(parts[0]), 0
    while True:
        chunk = _CONFIGMAP.format(n=n)
        if size + len(chunk) > limit:
            break
        parts.append(chunk)
        size += len(chunk)
        n += 1
    path.write_text("".join(parts))
    return size


def write_cases(directory: Path) -> dict[str, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    cases: list[Unreadable | Harmless] = [*unreadable_cases(), *harmless_cases()]
    for case in cases:
        path = directory / case.name
        path.write_bytes(case.content)
        paths[case.name] = path
    return paths


# Wrong types: every node of a valid graph replaced, one at a time, by values of other types.
_WRONG: dict[type, list[Any]] = {
    dict: [["a", "list"], "a string", 7],
    list: [{"a": "mapping"}, "a string", 7],
    str: [{"a": "mapping"}, ["a", "list"], True],
    bool: [{"a": "mapping"}, ["a", "list"], "a string"],
    int: [{"a": "mapping"}, ["a", "list"], "not-a-number"],
}


@dataclass(frozen=True)
class WrongType:
    name: str
    path: str
    replacement: Any
    graph: Any


def _nodes(
    value: Any, path: str, keys: tuple[Any, ...]
) -> Iterator[tuple[str, tuple[Any, ...], Any]]:
    yield path, keys, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, child(path, str(key)), (*keys, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _nodes(item, index(path, i), (*keys, i))


def _replaced(graph: Any, keys: tuple[Any, ...], replacement: Any) -> Any:
    if not keys:
        return copy.deepcopy(replacement)
    mutated = copy.deepcopy(graph)
    target = mutated
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = copy.deepcopy(replacement)
    return mutated


def wrong_type_variants(graph: Any) -> list[WrongType]:
    variants: list[WrongType] = []
    for n, (path, keys, value) in enumerate(_nodes(graph, "", ())):
        for m, replacement in enumerate(_WRONG.get(type(value), [{"a": "mapping"}])):
            name = f"wrong-type-{n:03d}-{m}.yaml"
            variants.append(WrongType(name, path, replacement, _replaced(graph, keys, replacement)))
    return variants


def write_wrong_types(directory: Path, graph: Any) -> list[tuple[WrongType, Path]]:
    """Each variant as indented JSON (valid YAML) so that every node has its own line."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for variant in wrong_type_variants(graph):
        path = directory / variant.name
        path.write_text(f"# {variant.path or '<document>'} := {json.dumps(variant.replacement)}\n")
        with path.open("a") as fh:
            json.dump(variant.graph, fh, indent=2)
        written.append((variant, path))
    return written


if __name__ == "__main__":
    from kubectl_dgd.adapters.yamlload import load_file

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bad-input-corpus")
    write_cases(out)
    write_wrong_types(out / "wrong-types", load_file(str(VALID_GRAPH_FILE))[0].data)
    print(f"wrote the corpus to {out}")

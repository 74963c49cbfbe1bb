"""Our Go-JSON serialiser reproduces every upstream worker-hash golden.

Inputs are the upstream tests' own: ``api/v1alpha1/legacy_worker_hash_test.go`` ·
``TestComputeDGDWorkersSpecHashGolden`` (the legacy v1 hash, on main at 1.5.0-dev) and
``api/v1beta1/worker_hash_test.go`` · ``TestComputeDGDWorkersSpecHashDeterministic`` with the
normalised-input variant of ``api/v1beta1/worker_hash.go`` (search index 55126183580).
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_dgd.core.render.gojson import (
    CONTAINER,
    POD_TEMPLATE,
    STRING,
    F,
    canonical_quantity,
    go_string,
    map_of,
    marshal,
    struct,
)
from kubectl_dgd.core.render.worker_hash import legacy_hash_bytes, legacy_worker_hash, typed_hash


def legacy_dgd_worker() -> dict[str, Any]:
    """legacyWorkerHashDGD: the worker with what the hash must ignore, and a frontend."""
    return {
        "frontend": {"componentType": "frontend", "replicas": 1},
        "worker": {
            "componentType": "worker",
            "annotations": {"ignored": "yes"},
            "labels": {"ignored": "yes"},
            "replicas": 3,
            "envs": [{"name": "MODEL", "value": "llama"}],
            "extraPodMetadata": {
                "labels": {"rollout": "base"},
                "annotations": {"checksum/config": "base"},
            },
        },
    }


LEGACY_CASES = [
    ("no workers", {"frontend": {"componentType": "frontend"}}, "{}", "44136fa3"),
    ("nil services", None, "{}", "44136fa3"),
    (
        "worker",
        legacy_dgd_worker(),
        '{"worker":{"envs":[{"name":"MODEL","value":"llama"}],"extraPodMetadata":'
        '{"annotations":{"checksum/config":"base"},"labels":{"rollout":"base"}}}}',
        "9b66accc",
    ),
    (
        "worker ordering",
        {
            "z-worker": {"componentType": "worker", "envs": [{"name": "Z", "value": "1"}]},
            "a-worker": {"componentType": "worker", "envs": [{"name": "A", "value": "1"}]},
        },
        '{"a-worker":{"envs":[{"name":"A","value":"1"}]},"z-worker":{"envs":[{"name":"Z","value":"1"}]}}',
        "59cae8b3",
    ),
    (
        "all worker component types",
        {
            name: {"componentType": name, "envs": [{"name": "ROLE", "value": name}]}
            for name in ("decode", "prefill", "worker")
        },
        '{"decode":{"envs":[{"name":"ROLE","value":"decode"}]},"prefill":{"envs":[{"name":"ROLE",'
        '"value":"prefill"}]},"worker":{"envs":[{"name":"ROLE","value":"worker"}]}}',
        "b175ee30",
    ),
    (
        "main container name only",
        {
            "worker": {
                "componentType": "worker",
                "extraPodSpec": {"mainContainer": {"name": "main"}},
            }
        },
        '{"worker":{"extraPodSpec":{"mainContainer":{"name":"main","resources":{}}}}}',
        "0c322ce0",
    ),
    (
        "main container rich",
        {
            "worker": {
                "componentType": "worker",
                "extraPodSpec": {
                    "mainContainer": {
                        "name": "main",
                        "image": "worker:1",
                        "command": ["python", "-m", "server"],
                        "args": ["--model", "qwen"],
                        "env": [{"name": "EXTRA", "value": "true"}],
                        "resources": {"requests": {"cpu": "2"}},
                    }
                },
            }
        },
        '{"worker":{"extraPodSpec":{"mainContainer":{"name":"main","image":"worker:1","command":'
        '["python","-m","server"],"args":["--model","qwen"],"env":[{"name":"EXTRA","value":"true"}],'
        '"resources":{"requests":{"cpu":"2"}}}}}}',
        "9e64367a",
    ),
]


@pytest.mark.parametrize(
    ("services", "data", "golden"), [c[1:] for c in LEGACY_CASES], ids=[c[0] for c in LEGACY_CASES]
)
def test_legacy_worker_hash_goldens(services: Any, data: str, golden: str) -> None:
    assert legacy_hash_bytes(services) == data
    assert legacy_worker_hash(services) == golden


# The normalised-input v2 variant: {"version", "workers": {name: {"podTemplate"}}}.
V2_VARIANT = struct(
    F("version", STRING, omitempty=False),
    F("workers", map_of(struct(F("podTemplate", POD_TEMPLATE))), omitempty=False),
)


def test_v1beta1_deterministic_golden() -> None:
    value = {
        "version": "dgd-worker-rollout-v2",
        "workers": {
            "worker": {
                "podTemplate": {
                    "spec": {
                        "containers": [
                            {
                                "name": "main",
                                "image": "worker:latest",
                                "env": [{"name": "FOO", "value": "bar"}],
                            }
                        ]
                    }
                }
            }
        },
    }
    data, digest = typed_hash(value, V2_VARIANT)
    assert data == (
        '{"version":"dgd-worker-rollout-v2","workers":{"worker":{"podTemplate":{"metadata":{},'
        '"spec":{"containers":[{"name":"main","image":"worker:latest","env":[{"name":"FOO",'
        '"value":"bar"}],"resources":{}}]}}}}}'
    )
    assert digest == "2bc34b39"


def test_the_wrong_encodings_the_reference_names_give_other_values() -> None:
    # {"creationTimestamp":null} instead of {} would give 97a8593f: we must not emit it.
    data, _ = typed_hash({"spec": {"containers": [{"name": "main"}]}}, POD_TEMPLATE)
    assert data == '{"metadata":{},"spec":{"containers":[{"name":"main","resources":{}}]}}'


def test_go_string_escaping_and_canonical_quantities() -> None:
    assert go_string("a<b>&c\u2028") == '"a\\u003cb\\u003e\\u0026c\\u2028"'
    assert [
        canonical_quantity(q) for q in ("2", 2, "1000", "1500", "0.5", "1024Mi", "8Gi", "2000m")
    ] == [
        "2",
        "2",
        "1k",
        "1500",
        "500m",
        "1Gi",
        "8Gi",
        "2",
    ]


def test_unmodelled_keys_are_kept_and_flagged() -> None:
    data, approximate = marshal({"name": "main", "futureField": {"b": 1, "a": 2}}, CONTAINER)
    assert approximate
    assert data == '{"name":"main","resources":{},"futureField":{"a":2,"b":1}}'

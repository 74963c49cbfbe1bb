"""Corpus generators of the benchmarks: graph streams of any size, deterministic.

``graph_stream(n)`` is ``n`` five-component DynamoGraphDeployments (frontend, planner, prefill,
decode and aggregated workers) as one ``---``-separated YAML stream, about 2.8 KiB a graph. The
graphs differ in name, namespace, labels, replicas and image patch, so nothing can be cached
across documents by their text. The Argo CD file ladder uses ``tests/argocd/harness.py``'s
``write_large_repo`` (through ``bench_argocd.py``), the repository layout its tests use.
"""

from __future__ import annotations

from pathlib import Path

_COMPONENT = """\
    - name: {name}
      type: {type}
      replicas: {replicas}
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.{patch}
              command: ["python3", "-m", "{module}"]
              args:
                - --model
                - Qwen/Qwen3-0.6B
              env:
                - name: DYN_LOG
                  value: info
              resources:
                limits:
                  memory: 32Gi
                  nvidia.com/gpu: "{gpus}"
"""
_SHAPES = [
    ("Frontend", "frontend", "dynamo.frontend", 0),
    ("Planner", "planner", "dynamo.planner.planner_sla", 0),
    ("VllmPrefillWorker", "prefill", "dynamo.vllm", 1),
    ("VllmDecodeWorker", "decode", "dynamo.vllm", 2),
    ("VllmAggWorker", "worker", "dynamo.vllm", 1),
]


def graph(i: int) -> str:
    """Graph number ``i`` of the stream, as one YAML document (with its ``---``)."""
    head = (
        f"---\napiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
        f"metadata:\n  name: graph-{i}\n  namespace: team-{i % 7}\n"
        f"  labels:\n    team: team-{i % 7}\n"
        f"spec:\n  backendFramework: vllm\n  env:\n    - name: DYN_NAMESPACE_PREFIX\n"
        f"      value: g{i}\n  components:\n"
    )
    components = "".join(
        _COMPONENT.format(
            name=name, type=kind, module=module, gpus=gpus, replicas=1 + i % 3, patch=i % 10
        )
        for name, kind, module, gpus in _SHAPES
    )
    return head + components


def graph_stream(count: int) -> str:
    """``count`` five-component graphs as one stream (about 2.8 MB for 1000)."""
    return "".join(graph(i) for i in range(count))


def write_stream(path: Path, count: int) -> Path:
    path.write_text(graph_stream(count))
    return path

"""Container logs on the real control plane: kwok's kubelet API serves each container's log
from the file a ``Logs`` object (kwok.x-k8s.io/v1alpha1) names, in the CRI format a real kubelet
writes, and follows it as the kubelet does. The kube-apiserver proxies ``pods/log`` there
(tests/realcluster/controlplane.py starts kwok with its server on loopback)."""

from __future__ import annotations

from pathlib import Path

from tests.realcluster.conftest import RealNamespace

STAMP = "2026-11-01T11:00:0{}.000000000Z"


def running_pods(ns: RealNamespace, graph: str, want: int) -> dict[str, list[str]]:
    """The graph's ``want`` pods and their containers, once every one is Running."""

    def bound() -> dict[str, list[str]] | None:
        pods = ns.rest.list("Pod", ns.name, f"nvidia.com/dynamo-graph-deployment-name={graph}")
        running = [p for p in pods if (p.get("status") or {}).get("phase") == "Running"]
        if len(running) < want:
            return None
        return {
            p["metadata"]["name"]: [c["name"] for c in p["spec"]["containers"]] for p in running
        }

    found: dict[str, list[str]] = ns.rest.wait_for("the graph's pods Running", bound, timeout=90)
    return found


def serve_logs(ns: RealNamespace, pods: dict[str, list[str]], skip: str = "") -> dict[Path, str]:
    """One CRI log file per container, and the kwok Logs object serving them; ``skip`` names a
    container left without a file. Returns each file and the pod/container it belongs to."""
    files: dict[Path, str] = {}
    for pod, containers in pods.items():
        entries = []
        for container in containers:
            if container == skip:
                continue
            path = ns.folder / f"{pod}.{container}.log"
            path.write_text(
                f"{STAMP.format(0)} stdout F {container} starting\n"
                f"{STAMP.format(1)} stderr F {container} ready on {pod}\n"
            )
            files[path] = f"{pod}/{container}"
            entries.append({"containers": [container], "logsFile": str(path), "follow": True})
        ns.create(
            {
                "apiVersion": "kwok.x-k8s.io/v1alpha1",
                "kind": "Logs",
                "metadata": {"name": pod},
                "spec": {"logs": entries},
            }
        )
    return files


def served(ns: RealNamespace, pod: str, container: str) -> list[str]:
    """What real kubectl prints for one container (kwok picks Logs objects up by watching)."""

    def answer() -> list[str] | None:
        done = ns.kubectl("logs", pod, "-c", container, "--timestamps")
        return done.stdout.splitlines() if done.returncode == 0 and done.stdout else None

    lines: list[str] = ns.rest.wait_for(f"kwok serving {pod}/{container}", answer, timeout=30)
    return lines

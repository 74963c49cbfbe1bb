"""What a fresh real control plane gets before the tests use it: the CRDs (the DGD's as the
operator ships it, from the bundled schema of each release; DCD, Grove and LeaderWorkerSet as
structural stand-ins), kwok GPU nodes, and the ClusterRoles the test users are bound to per
namespace.

CRDs are applied server-side, as the operator's Makefile and Helm chart do (the DGD CRD is too
large for client-side apply's last-applied annotation).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from tests.realcluster.rest import Obj, Rest, RestError

DATA = Path(__file__).resolve().parents[2] / "kubectl_dgd" / "data"
NEWEST = "1.6"
INSTALLED = "1.5"  # the release whose CRD a fresh control plane gets (see install())
RELEASES = ("1.3", "1.4", "1.5", "1.6")
GPU_PRODUCT = "NVIDIA-H100-80GB-HBM3"
PRINTER_COLUMNS = [
    {
        "name": "Ready",
        "type": "string",
        "jsonPath": '.status.conditions[?(@.type=="Ready")].status',
    },
    {"name": "Backend", "type": "string", "jsonPath": ".spec.backendFramework"},
    {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
]
ALPHA_WARNING = "nvidia.com/v1alpha1 {kind} is deprecated; use nvidia.com/v1beta1 {kind}"


@cache
def dgd_crd(release: str = NEWEST) -> str:
    """The DGD CRD of ``release`` as JSON text: the bundled schema (descriptions stripped, as in
    kubectl_dgd/data) with the operator's scope, status subresource, printer columns and the
    v1alpha1 deprecation warning. No conversion webhook: nothing here serves one, so v1alpha1
    requests are converted by the API server's None strategy (apiVersion only)."""
    name = "crd-schema.json" if release == NEWEST else f"crd-schema-{release}.json"
    crd: Obj = json.loads((DATA / name).read_text())
    crd.pop("_notice", None)
    crd["spec"]["scope"] = "Namespaced"
    for version in crd["spec"]["versions"]:
        version["subresources"] = {"status": {}}
        version["additionalPrinterColumns"] = PRINTER_COLUMNS
        if version["name"] == "v1alpha1" and version.get("deprecated"):
            version["deprecationWarning"] = ALPHA_WARNING.format(kind="DynamoGraphDeployment")
    return json.dumps(crd)


def _open_crd(
    group: str,
    kind: str,
    plural: str,
    versions: list[tuple[str, bool, bool]],
    short: list[str] | None = None,
    scale: str | None = None,
) -> Obj:
    """A structural CRD that keeps every field (x-kubernetes-preserve-unknown-fields): the
    tests need the kind served, its status subresource and its versions, not its schema.
    ``versions``: (name, storage, deprecated)."""
    schema = {
        "openAPIV3Schema": {
            "type": "object",
            "properties": {
                "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            },
        }
    }
    subresources: dict[str, Any] = {"status": {}}
    if scale:
        subresources["scale"] = {
            "specReplicasPath": ".spec.replicas",
            "statusReplicasPath": ".status.replicas",
            "labelSelectorPath": scale,
        }
    out = []
    for name, storage, deprecated in versions:
        v: Obj = {
            "name": name,
            "served": True,
            "storage": storage,
            "schema": schema,
            "subresources": subresources,
        }
        if deprecated:
            v["deprecated"] = True
            v["deprecationWarning"] = ALPHA_WARNING.format(kind=kind)
        out.append(v)
    names: Obj = {
        "kind": kind,
        "listKind": f"{kind}List",
        "plural": plural,
        "singular": kind.lower(),
    }
    if short:
        names["shortNames"] = short
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{group}"},
        "spec": {"group": group, "names": names, "scope": "Namespaced", "versions": out},
    }


def other_crds(grove: bool = True, lws: bool = True) -> list[Obj]:
    crds = [
        # The DCD: v1alpha1 served and deprecated, v1beta1 stored, as the newest operator ships it
        _open_crd(
            "nvidia.com",
            "DynamoComponentDeployment",
            "dynamocomponentdeployments",
            [("v1alpha1", False, True), ("v1beta1", True, False)],
            ["dcd"],
        ),
        _open_crd(
            "nvidia.com",
            "DynamoGraphDeploymentScalingAdapter",
            "dynamographdeploymentscalingadapters",
            [("v1alpha1", True, False)],
            ["dgdsa"],
            scale=".status.selector",
        ),
    ]
    if grove:
        crds += [
            _open_crd(
                "grove.io", "PodCliqueSet", "podcliquesets", [("v1alpha1", True, False)], ["pcs"]
            ),
            _open_crd("grove.io", "PodClique", "podcliques", [("v1alpha1", True, False)], ["pclq"]),
            _open_crd(
                "grove.io",
                "PodCliqueScalingGroup",
                "podcliquescalinggroups",
                [("v1alpha1", True, False)],
                ["pcsg"],
            ),
        ]
    if lws:
        crds.append(
            _open_crd(
                "leaderworkerset.x-k8s.io",
                "LeaderWorkerSet",
                "leaderworkersets",
                [("v1", True, False)],
                ["lws"],
            )
        )
    return crds


def gpu_node(
    name: str,
    gpus: int = 8,
    product: str = GPU_PRODUCT,
    extra: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
) -> Obj:
    """A kwok-managed node with GPUs as the NVIDIA device plugin and GPU feature discovery
    report them (capacity and product labels)."""
    capacity = {
        "cpu": "64",
        "memory": "512Gi",
        "pods": "110",
        "nvidia.com/gpu": str(gpus),
        **(extra or {}),
    }
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
            "labels": {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                "type": "kwok",
                "nvidia.com/gpu.present": "true",
                "nvidia.com/gpu.product": product,
                "nvidia.com/gpu.count": str(gpus),
                "nvidia.com/gpu.memory": "81559",
                **(labels or {}),
            },
        },
        "spec": {},
        "status": {"capacity": capacity, "allocatable": capacity},
    }


# What the namespace-scoped user (kdgd-dev) may do in its namespace, and the read-only user
# (kdgd-viewer): the Role a team is usually given. No cluster scope: no nodes, no CRDs.
DEV_RULES = [
    {
        "apiGroups": ["nvidia.com"],
        "resources": ["dynamographdeployments", "dynamocomponentdeployments"],
        "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"],
    },
    {
        "apiGroups": [""],
        "resources": ["pods", "pods/log", "events", "services"],
        "verbs": ["get", "list", "watch"],
    },
    {"apiGroups": ["events.k8s.io"], "resources": ["events"], "verbs": ["get", "list", "watch"]},
    {
        "apiGroups": ["apps"],
        "resources": ["deployments", "replicasets"],
        "verbs": ["get", "list", "watch"],
    },
]
VIEWER_RULES = [
    {
        "apiGroups": ["nvidia.com"],
        "resources": ["dynamographdeployments"],
        "verbs": ["get", "list", "watch"],
    },
]


def cluster_roles() -> list[Obj]:
    return [
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRole",
            "metadata": {"name": f"kdgd-{who}"},
            "rules": rules,
        }
        for who, rules in (("dev", DEV_RULES), ("viewer", VIEWER_RULES))
    ]


def install_dgd_crd(rest: Rest, release: str = NEWEST) -> None:
    """Apply the DGD CRD of ``release`` (replacing another release's) and wait until served."""
    rest.request(
        "PATCH",
        rest.path("CustomResourceDefinition", None, "dynamographdeployments.nvidia.com"),
        dgd_crd(release).encode(),
        "application/apply-patch+yaml",
        {"fieldManager": "kdgd-bootstrap", "force": "true"},
    )
    wait_established(rest, "dynamographdeployments.nvidia.com")


def install_kwok_logs_crd(server: str, token: str, ca_file: str, crd: Path) -> None:
    """Apply kwok's Logs CRD (YAML, sent as is: server-side apply reads YAML) and wait."""
    rest = Rest(server, token, ca_file)
    name = "logs.kwok.x-k8s.io"
    rest.request(
        "PATCH",
        rest.path("CustomResourceDefinition", None, name),
        crd.read_bytes(),
        "application/apply-patch+yaml",
        {"fieldManager": "kdgd-bootstrap", "force": "true"},
    )
    wait_established(rest, name)


def wait_established(rest: Rest, name: str) -> None:
    def established() -> bool:
        crd = rest.get("CustomResourceDefinition", name)
        conditions = {
            c["type"]: c["status"] for c in (crd.get("status") or {}).get("conditions") or []
        }
        return conditions.get("Established") == "True" and conditions.get("NamesAccepted") == "True"

    rest.wait_for(f"CRD {name} Established", established, timeout=60)


def install(server: str, token: str, ca_file: str, gpu_nodes: int = 2) -> None:
    rest = Rest(server, token, ca_file)
    install_dgd_crd(rest, INSTALLED)
    for crd in other_crds():
        rest.apply(crd, "kdgd-bootstrap")
    for crd in other_crds():
        wait_established(rest, crd["metadata"]["name"])
    for role in cluster_roles():
        rest.apply(role, "kdgd-bootstrap")
    for i in range(gpu_nodes):
        node = gpu_node(f"gpu-node-{i}")
        status = node.pop("status")
        try:
            rest.create(node)
        except RestError as e:
            if e.status != 409:
                raise
        # Capacity is status: set it through the status subresource, as a kubelet would
        rest.merge_patch("Node", node["metadata"]["name"], None, {"status": status}, "status")

    def nodes_ready() -> bool:
        nodes = rest.list("Node")
        ready = [
            n
            for n in nodes
            if any(
                c["type"] == "Ready" and c["status"] == "True"
                for c in n.get("status", {}).get("conditions", [])
            )
        ]
        return len(ready) >= gpu_nodes

    rest.wait_for("kwok nodes Ready", nodes_ready, timeout=60)
    # kube-controller-manager at work: it creates every namespace's default ServiceAccount
    rest.wait_for(
        "default ServiceAccount", lambda: rest.get("ServiceAccount", "default", "default"), 60
    )

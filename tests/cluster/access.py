"""Who the tests run as, written as RBAC data: the test API server enforces it
(``apiserver.faults.grant_only``), and a real-cluster test creates the same Role from
``Rule.to_manifest()`` and binds it to its namespace-scoped user.

The namespace-scoped user is the usual way teams get access (issue 18): a Role in one namespace
on DGDs, DCDs, pods, pods/log, events, Deployments and ReplicaSets, nothing at the cluster
scope (no nodes, no Deployments of other namespaces, no CRDs). ``.without(...)`` takes away one
more resource for the cases below.
"""

from __future__ import annotations

from tests.apiserver.faults import Access, Rule
from tests.cluster.conftest import NS

READ = ("get", "list", "watch")

NAMESPACE_SCOPED_USER = Access(
    NS,
    (
        Rule(("nvidia.com",), ("dynamographdeployments",), (*READ, "patch")),
        Rule(("nvidia.com",), ("dynamocomponentdeployments",), READ),
        Rule(("",), ("pods", "pods/log", "events"), READ),
        Rule(("apps",), ("deployments", "replicasets"), READ),
    ),
)

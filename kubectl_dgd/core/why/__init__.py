"""``why NAME``: why a graph is not Ready, root cause first, one finding per problem.

Pure: it gets what the use case read (the graph, the objects below it, the namespace's Events,
the names of its Secrets, ConfigMaps and ServiceAccounts, its PVCs, the nodes and the pods that
hold their GPUs, the operator's Deployments, previous logs of crash-looping containers) and
returns findings. Anything it was not given (None: not read, e.g. forbidden) is not judged.
Secrets come as names only: no value can reach a finding.

Reasons are a stable set (REASONS, documented in docs/why.md); findings are ordered by how far
up the chain of cause their reason sits (a stopped operator explains everything below it; a
missing Secret explains the pod that cannot start; a rollout blocked by Pending pods is a
consequence of why they are Pending), then by component in spec order.
"""

from __future__ import annotations

from kubectl_dgd.core.why.diagnosis import diagnose, is_operator_deployment
from kubectl_dgd.core.why.pods import (
    MAX_LOGS,
    crash_looping,
    graph_pods,
    needs_operator,
    pending_on_scheduler,
)
from kubectl_dgd.core.why.report import REASONS, Finding, WhyInput, WhyReport

__all__ = [
    "MAX_LOGS",
    "REASONS",
    "Finding",
    "WhyInput",
    "WhyReport",
    "crash_looping",
    "diagnose",
    "graph_pods",
    "is_operator_deployment",
    "needs_operator",
    "pending_on_scheduler",
]

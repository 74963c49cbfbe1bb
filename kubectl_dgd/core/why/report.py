"""What ``why`` is given and what it answers: the input, the findings, the reason set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

COMPONENT_LABEL = "nvidia.com/dynamo-component"

OPERATOR_DOWN = "OperatorLagging"  # the operator's pods do not run (ranked first)
FAILED = "Failed"
STALE_READY = "StaleReady"
MISSING_REFERENCE = "MissingReference"
PVC_PENDING = "PVCPending"
INSUFFICIENT_GPU = "InsufficientGPU"
UNSCHEDULABLE = "Unschedulable"
IMAGE_PULL = "ImagePull"
OOM_KILLED = "OOMKilled"
CRASH_LOOP = "CrashLoop"
ROLLOUT_BLOCKED = "RolloutBlocked"
OPERATOR_LAGGING = "OperatorLagging"

# The documented set, in root-cause order (OperatorLagging ranks first when the operator is
# down, last when it only has not caught up yet).
REASONS = (
    OPERATOR_LAGGING,
    FAILED,
    STALE_READY,
    MISSING_REFERENCE,
    PVC_PENDING,
    INSUFFICIENT_GPU,
    UNSCHEDULABLE,
    IMAGE_PULL,
    OOM_KILLED,
    CRASH_LOOP,
    ROLLOUT_BLOCKED,
)
ERROR = "error"
WARNING = "warning"


@dataclass
class Finding:
    """One reason a graph is not Ready, with what to do about it."""

    component: str | None  # None: about the graph as a whole (the operator, its state)
    severity: str
    reason: str
    message: str  # what is wrong, with the figures
    objects: list[str]  # "Kind/name"
    action: str = ""  # what to do
    details: list[str] = field(default_factory=list)  # supporting lines (nodes, log lines)
    rank: int = field(default=0, compare=False)

    def to_data(self) -> dict[str, Any]:
        return {
            "component": self.component,
            "severity": self.severity,
            "reason": self.reason,
            "message": self.message,
            "objects": list(self.objects),
            "action": self.action,
            "details": list(self.details),
        }


@dataclass
class WhyReport:
    """What `why` found for one graph."""

    # -o custom-columns: a row per item of this list in the JSON
    TEMPLATE_ROWS: ClassVar[str] = "findings"

    name: str
    namespace: str
    ready: bool
    findings: list[Finding]
    pods: int = 0  # the graph's pods, for the text's summary
    ready_pods: int = 0
    width: int = 80  # of the terminal, for text; not part of the data
    warnings: list[str] = field(default_factory=list)  # LISTs refused; on stderr, not data

    @property
    def ok(self) -> bool:
        return self.ready and not self.findings

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "ready": self.ready,
            "findings": [f.to_data() for f in self.findings],
        }


@dataclass
class WhyInput:
    """What ``why`` looks at. None: the use case could not read it (forbidden, not asked)."""

    graph: Mapping[str, Any]
    objects: Sequence[Mapping[str, Any]]  # usecases/tree.list_children
    events: Sequence[Mapping[str, Any]] | None = None
    names: Mapping[str, set[str] | None] = field(default_factory=dict)  # kind -> names
    pvcs: Sequence[Mapping[str, Any]] | None = None
    nodes: Sequence[Mapping[str, Any]] | None = None
    node_pods: Sequence[Mapping[str, Any]] | None = None  # pods of every namespace (GPU holders)
    operators: Sequence[Mapping[str, Any]] | None = None  # the operator's Deployments
    previous_logs: Mapping[tuple[str, str], list[str]] = field(default_factory=dict)
    unread: frozenset[str] = frozenset()  # the kinds below the graph whose LIST was refused

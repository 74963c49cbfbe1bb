"""The resource types the test server serves, described as discovery and the REST paths need."""

from __future__ import annotations

from dataclasses import dataclass

ALL_VERBS = ("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")


@dataclass(frozen=True)
class PrinterColumn:
    name: str
    json_path: str  # a dotted path, or a condition lookup "status.conditions[Ready].status"
    type: str = "string"


@dataclass(frozen=True)
class ResourceType:
    group: str
    version: str
    plural: str
    kind: str
    singular: str
    namespaced: bool = True
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    status_subresource: bool = False
    custom: bool = False  # a CRD: no strategic merge patch, no unconditional update
    verbs: tuple[str, ...] = ALL_VERBS
    printer_columns: tuple[PrinterColumn, ...] = ()
    field_labels: tuple[str, ...] = ("metadata.name", "metadata.namespace")

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def qualified(self) -> str:
        """``plural.group`` as the API writes it in messages (core types have no group)."""
        return f"{self.plural}.{self.group}" if self.group else self.plural

    @property
    def list_kind(self) -> str:
        return f"{self.kind}List"

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.group, self.version, self.plural)


DGD = ResourceType(
    group="nvidia.com",
    version="v1beta1",
    plural="dynamographdeployments",
    kind="DynamoGraphDeployment",
    singular="dynamographdeployment",
    short_names=("dgd",),
    categories=("all",),
    status_subresource=True,
    custom=True,
    printer_columns=(
        PrinterColumn("Ready", "status.conditions[Ready].status"),
        PrinterColumn("Backend", "spec.backendFramework"),
    ),
)

DCD = ResourceType(
    group="nvidia.com",
    version="v1alpha1",
    plural="dynamocomponentdeployments",
    kind="DynamoComponentDeployment",
    singular="dynamocomponentdeployment",
    short_names=("dcd",),
    categories=("all",),
    status_subresource=True,
    custom=True,
)

NAMESPACES = ResourceType(
    group="",
    version="v1",
    plural="namespaces",
    kind="Namespace",
    singular="namespace",
    namespaced=False,
    short_names=("ns",),
    verbs=("create", "delete", "get", "list", "patch", "update", "watch"),
    field_labels=("metadata.name", "status.phase"),
)

EVENTS = ResourceType(
    group="",
    version="v1",
    plural="events",
    kind="Event",
    singular="event",
    short_names=("ev",),
    field_labels=(
        "metadata.name",
        "metadata.namespace",
        "involvedObject.kind",
        "involvedObject.namespace",
        "involvedObject.name",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.resourceVersion",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
    ),
)

CONFIGMAPS = ResourceType(
    group="",
    version="v1",
    plural="configmaps",
    kind="ConfigMap",
    singular="configmap",
    short_names=("cm",),
)

SECRETS = ResourceType(
    group="",
    version="v1",
    plural="secrets",
    kind="Secret",
    singular="secret",
    field_labels=("metadata.name", "metadata.namespace", "type"),
)

PVCS = ResourceType(
    group="",
    version="v1",
    plural="persistentvolumeclaims",
    kind="PersistentVolumeClaim",
    singular="persistentvolumeclaim",
    short_names=("pvc",),
    status_subresource=True,
)

SERVICEACCOUNTS = ResourceType(
    group="",
    version="v1",
    plural="serviceaccounts",
    kind="ServiceAccount",
    singular="serviceaccount",
    short_names=("sa",),
)

CRDS = ResourceType(
    group="apiextensions.k8s.io",
    version="v1",
    plural="customresourcedefinitions",
    kind="CustomResourceDefinition",
    singular="customresourcedefinition",
    namespaced=False,
    short_names=("crd", "crds"),
    categories=("api-extensions",),
    status_subresource=True,
)

PODS = ResourceType(
    group="",
    version="v1",
    plural="pods",
    kind="Pod",
    singular="pod",
    short_names=("po",),
    categories=("all",),
    status_subresource=True,
    field_labels=("metadata.name", "metadata.namespace", "spec.nodeName", "status.phase"),
)

NODES = ResourceType(
    group="",
    version="v1",
    plural="nodes",
    kind="Node",
    singular="node",
    namespaced=False,
    short_names=("no",),
    status_subresource=True,
)

# events.k8s.io/v1 is served from the core Events (one storage, two shapes; handler.py).
EVENTS_V1 = ResourceType(
    group="events.k8s.io",
    version="v1",
    plural="events",
    kind="Event",
    singular="event",
    short_names=("ev",),
    verbs=("get", "list", "watch"),
    field_labels=("metadata.name", "metadata.namespace", "reason", "type"),
)

DEPLOYMENTS = ResourceType(
    group="apps",
    version="v1",
    plural="deployments",
    kind="Deployment",
    singular="deployment",
    short_names=("deploy",),
    categories=("all",),
    status_subresource=True,
)

REPLICASETS = ResourceType(
    group="apps",
    version="v1",
    plural="replicasets",
    kind="ReplicaSet",
    singular="replicaset",
    short_names=("rs",),
    categories=("all",),
    status_subresource=True,
)

STATEFULSETS = ResourceType(
    group="apps",
    version="v1",
    plural="statefulsets",
    kind="StatefulSet",
    singular="statefulset",
    short_names=("sts",),
    categories=("all",),
    status_subresource=True,
)

DAEMONSETS = ResourceType(
    group="apps",
    version="v1",
    plural="daemonsets",
    kind="DaemonSet",
    singular="daemonset",
    short_names=("ds",),
    categories=("all",),
    status_subresource=True,
)

# What ``doctor`` reads: storage classes, admission webhooks and the endpoints behind them.
STORAGECLASSES = ResourceType(
    group="storage.k8s.io",
    version="v1",
    plural="storageclasses",
    kind="StorageClass",
    singular="storageclass",
    namespaced=False,
    short_names=("sc",),
)

VALIDATING_WEBHOOKS = ResourceType(
    group="admissionregistration.k8s.io",
    version="v1",
    plural="validatingwebhookconfigurations",
    kind="ValidatingWebhookConfiguration",
    singular="validatingwebhookconfiguration",
    namespaced=False,
    categories=("api-extensions",),
)

MUTATING_WEBHOOKS = ResourceType(
    group="admissionregistration.k8s.io",
    version="v1",
    plural="mutatingwebhookconfigurations",
    kind="MutatingWebhookConfiguration",
    singular="mutatingwebhookconfiguration",
    namespaced=False,
    categories=("api-extensions",),
)

ENDPOINTSLICES = ResourceType(
    group="discovery.k8s.io",
    version="v1",
    plural="endpointslices",
    kind="EndpointSlice",
    singular="endpointslice",
)

GROVE_GROUP = "grove.io"
LWS_GROUP = "leaderworkerset.x-k8s.io"


def _crd(group: str, version: str, plural: str, kind: str, short: tuple[str, ...]) -> ResourceType:
    return ResourceType(
        group=group,
        version=version,
        plural=plural,
        kind=kind,
        singular=kind.lower(),
        short_names=short,
        status_subresource=True,
        custom=True,
    )


PODCLIQUESETS = _crd(GROVE_GROUP, "v1alpha1", "podcliquesets", "PodCliqueSet", ("pcs",))
PODCLIQUES = _crd(GROVE_GROUP, "v1alpha1", "podcliques", "PodClique", ("pclq",))
PODCLIQUESCALINGGROUPS = _crd(
    GROVE_GROUP, "v1alpha1", "podcliquescalinggroups", "PodCliqueScalingGroup", ("pcsg",)
)
LEADERWORKERSETS = _crd(LWS_GROUP, "v1", "leaderworkersets", "LeaderWorkerSet", ("lws",))

# Grove and LeaderWorkerSet are optional add-ons: not installed until a test installs them.
OPTIONAL_GROUPS = frozenset({GROVE_GROUP, LWS_GROUP})

DEFAULT_TYPES: tuple[ResourceType, ...] = (
    NAMESPACES,
    EVENTS,
    CONFIGMAPS,
    SECRETS,
    PVCS,
    SERVICEACCOUNTS,
    CRDS,
    DGD,
    DCD,
    PODS,
    NODES,
    EVENTS_V1,
    DEPLOYMENTS,
    REPLICASETS,
    STATEFULSETS,
    DAEMONSETS,
    STORAGECLASSES,
    VALIDATING_WEBHOOKS,
    MUTATING_WEBHOOKS,
    ENDPOINTSLICES,
    PODCLIQUESETS,
    PODCLIQUES,
    PODCLIQUESCALINGGROUPS,
    LEADERWORKERSETS,
)

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

DEFAULT_TYPES: tuple[ResourceType, ...] = (
    NAMESPACES,
    EVENTS,
    CONFIGMAPS,
    SECRETS,
    CRDS,
    DGD,
    DCD,
)

"""``version``: what ``kubectl dgd version`` reports, in kubectl version's shape (its
``clientVersion`` and ``serverVersion`` keys), plus the Dynamo operator's release and the
DynamoGraphDeployment API versions the cluster serves."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class OperatorDeployment:
    """A Deployment running the Dynamo operator (its ``manager`` container's image)."""

    namespace: str
    name: str
    image: str
    release: str | None  # the image's tag when it is a release (1.5.0, v1.6.0-rc.1), else None

    def to_data(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "name": self.name,
            "image": self.image,
            "release": self.release,
        }


@dataclass(frozen=True)
class OperatorRelease:
    """The operator release the cluster runs, and how it was found.

    ``release`` None: unknown, ``how`` says why. ``lower_bound``: only the graphs' origin-version
    annotation gave it (the release that created them; the running one may be newer)."""

    release: str | None
    how: str
    lower_bound: bool = False
    deployments: list[OperatorDeployment] = field(default_factory=list)

    def shown(self) -> str:
        if self.release is None:
            return f"unknown ({self.how})"
        bound = " or newer" if self.lower_bound else ""
        return f"{self.release}{bound} (from {self.how})"

    def to_data(self) -> dict[str, Any]:
        return {
            "release": self.release,
            "lowerBound": self.lower_bound,
            "detectedFrom": self.how,
            "deployments": [d.to_data() for d in self.deployments],
        }


@dataclass(frozen=True)
class VersionReport:
    """``client``: the plugin's own; the rest is None when the server was not asked (--client)
    or could not be reached. ``server``: the API server's ``/version`` as it answered.
    ``dgd_versions``: served DGD versions, preferred first ([] none; None: discovery unread)."""

    client: dict[str, str]
    server: dict[str, Any] | None = None
    operator: OperatorRelease | None = None
    dgd_versions: list[str] | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"clientVersion": self.client}
        if self.server is not None:
            data["serverVersion"] = self.server
        if self.operator is not None:
            data["dynamoOperator"] = self.operator.to_data()
            data["dgdApiVersions"] = self.dgd_versions
        return data

"""The text of ``version``: kubectl version's ``Client Version:`` / ``Server Version:`` lines,
then the Dynamo operator's release and the DGD API versions served."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.printer import Options

if TYPE_CHECKING:
    from kubectl_dgd.core.version import VersionReport


def draw_version(view: VersionReport, options: Options, wide: bool = False) -> str:
    del options, wide
    lines = [f"Client Version: {view.client['version']}"]
    if view.server is not None:
        lines.append(f"Server Version: {view.server.get('gitVersion') or 'unknown'}")
    if view.operator is not None:
        lines.append(f"Dynamo Operator: {view.operator.shown()}")
        served = view.dgd_versions
        if served is None:
            shown = "unknown (discovery could not be read)"
        elif not served:
            shown = "none (the DynamoGraphDeployment CRD is not installed)"
        else:
            shown = ", ".join(f"nvidia.com/{v}" for v in served)
        lines.append(f"DGD API Versions: {shown}")
    return "\n".join(lines) + "\n"

"""Conversion between DGD API versions, as the operator's conversion webhook does it."""

from kubectl_dgd.core.convert.alpha import (
    Conversion,
    alpha_to_beta,
    for_render,
    preserved_pod_metadata,
    service_line_path,
    service_path,
)
from kubectl_dgd.model.kinds import is_alpha

__all__ = [
    "Conversion",
    "alpha_to_beta",
    "for_render",
    "is_alpha",
    "preserved_pod_metadata",
    "service_line_path",
    "service_path",
]

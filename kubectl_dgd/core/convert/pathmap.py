"""Where a field of a converted v1beta1 graph came from in its v1alpha1 source.

Keys are v1beta1 paths (``spec.components[2].podTemplate.spec.containers[0].image``); values are
v1alpha1 paths in the loader's notation (``spec.services.VllmWorker.extraPodSpec.mainContainer.image``),
so a finding on the converted object finds the line of the field the user wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kubectl_dgd.core.paths import parent


@dataclass
class PathMap:
    """Exact entries carry their subtree (same shape below); inexact ones stop there."""

    entries: dict[str, tuple[str, bool]] = field(default_factory=dict)

    def add(self, beta: str, alpha: str, *, exact: bool = True) -> None:
        self.entries[beta] = (alpha, exact)

    def alpha_of(self, beta: str) -> str | None:
        """The v1alpha1 path of ``beta``, from the nearest mapped ancestor; None when unmapped."""
        current: str | None = beta
        while current is not None:
            hit = self.entries.get(current)
            if hit is not None:
                alpha, exact = hit
                return alpha + beta[len(current) :] if exact else alpha
            current = parent(current)
        return None

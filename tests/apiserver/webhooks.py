"""Admission rules of the Dynamo operator's webhook that tests may switch on (store.validators).

Only what the live commands can trip over; the offline validator has the full rule set. The
webhook name is this emulation's: the operator's messages are reproduced, its registration name
is not.
"""

from __future__ import annotations

from typing import Any

from tests.apiserver import errors
from tests.apiserver.resources import DGD, ResourceType

WEBHOOK = "vdynamographdeployment.nvidia.com"
ACTIVE_ROLLOUT = ("Pending", "InProgress")


def restart_frozen_during_rolling_update(
    operation: str, rt: ResourceType, old: dict[str, Any] | None, new: dict[str, Any]
) -> list[tuple[str, str, str]] | None:
    """Update rule: a new spec.restart.id while status.rollingUpdate is Pending or InProgress."""
    if operation != "UPDATE" or rt != DGD or old is None:
        return None
    phase = ((old.get("status") or {}).get("rollingUpdate") or {}).get("phase")
    old_id = ((old.get("spec") or {}).get("restart") or {}).get("id")
    new_id = ((new.get("spec") or {}).get("restart") or {}).get("id")
    if phase in ACTIVE_ROLLOUT and new_id and new_id != old_id:
        message = (
            f'spec.restart.id: Invalid value: "{new_id}": cannot be changed while a rolling '
            f"update is {phase}"
        )
        raise errors.webhook_denied(WEBHOOK, message)
    return None

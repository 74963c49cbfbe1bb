"""Run the layers in the order admission applies them (fact sheet §2.0) and tag each finding.

defaults (CRD structural + mutating webhook) -> schema -> CEL -> validating webhook; lint last.
The webhook runs only on objects whose structure is sound, as on a real API server.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding, has_errors
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate import cel, lint, schema, webhook, webhook_update
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.core.validate.defaults import apply_defaults
from kubectl_dgd.model.kinds import V1ALPHA1

DEPRECATION = "nvidia.com/v1alpha1 DynamoGraphDeployment is deprecated; use nvidia.com/v1beta1 DynamoGraphDeployment"


def validate_object(
    obj: dict[str, Any], schemas: CrdSchemas, profile: Profile, old: dict[str, Any] | None = None
) -> list[Finding]:
    """All findings for one DGD (``old`` = the live object for an update). Never raises."""
    version = str(obj.get("apiVersion", "")).rpartition("/")[2]
    findings: list[Finding] = []
    if obj.get("apiVersion") == V1ALPHA1:
        findings.append(
            Finding("warning", "schema", "apiVersion", DEPRECATION, "deprecated-version")
        )
    version_schema = schemas.get(version)
    if version_schema is None:
        findings.append(
            Finding(
                "error",
                "schema",
                "apiVersion",
                f"version {version!r} is not served by this CRD",
                "unknown-version",
            )
        )
        return findings
    creating = old is None
    defaulted = apply_defaults(obj, schemas, profile, old=old)
    old_defaulted = None if old is None else apply_defaults(old, schemas, profile, old=old)

    schema_findings = schema.check(defaulted, version_schema, strict=profile.strict)
    findings.extend(schema_findings)
    structural_ok = not any(
        f.severity == "error" and f.code != "unknown-field" for f in schema_findings
    )
    # As the API server: only type/required/enum/length/count errors stop the CEL rules.
    if not schema.blocks_cel(schema_findings):
        findings.extend(cel.check(defaulted, old_defaulted, version_schema))
    else:
        findings.append(Finding("info", "cel", "", schema.CEL_NOT_CHECKED, "cel-not-checked"))
    if version != "v1beta1":
        findings.append(
            Finding(
                "info",
                "webhook",
                "apiVersion",
                "webhook rules checked for v1beta1 only",
                "webhook-skipped",
            )
        )
    elif not structural_ok:
        findings.append(
            Finding(
                "info",
                "webhook",
                "",
                "webhook rules not checked: fix the schema errors first",
                "webhook-skipped",
            )
        )
    else:
        stateless = webhook.check_create(defaulted, profile, old=old_defaulted)
        findings.extend(stateless)
        # The operator's update handler returns the stateless errors alone when there are any;
        # the update rules (immutability, component set, restart during a rollout) run after.
        if old_defaulted is not None and not has_errors(stateless):
            findings.extend(webhook_update.check_update(defaulted, old_defaulted, profile))
    if structural_ok and version == "v1beta1":
        findings.extend(lint.check(obj, creating=creating, version=profile.operator_version))
    return findings

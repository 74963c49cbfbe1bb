"""Run the layers in the order admission applies them, and tag each finding.

defaults (CRD structural + mutating webhook) -> schema -> CEL -> validating webhook; lint last.
The webhook runs only on objects whose structure is sound, as on a real API server
(docs/operator-semantics.md#admission-order). A v1alpha1 object gets its own version's schema
and CEL, then the webhooks on its v1beta1 conversion, as the operator does (its conversion
webhook and the v1alpha1 validator, deploy/operator/api/v1alpha1/).
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding, has_errors
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate import cel, lint, schema, webhook
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.core.validate.defaults import apply_defaults
from kubectl_dgd.model.kinds import API_GROUP, SERVED, is_alpha, unserved_message

# The v1alpha1 conversion and rules, and the update rules, load when an object needs them: a
# file of v1beta1 graphs to create (the common case) never runs them.

DEPRECATION = "nvidia.com/v1alpha1 DynamoGraphDeployment is deprecated; use nvidia.com/v1beta1 DynamoGraphDeployment"


def validate_object(
    obj: dict[str, Any], schemas: CrdSchemas, profile: Profile, old: dict[str, Any] | None = None
) -> list[Finding]:
    """All findings for one DGD (``old`` = the live object for an update). Never raises."""
    version = str(obj.get("apiVersion", "")).rpartition("/")[2]
    findings: list[Finding] = []
    if is_alpha(obj):
        findings.append(
            Finding("warning", "schema", "apiVersion", DEPRECATION, "deprecated-version")
        )
    version_schema = schemas.get(version)
    if version_schema is None or obj.get("apiVersion") not in SERVED:
        findings.append(_unserved(obj, schemas))
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
    if version == "v1alpha1":
        from kubectl_dgd.core.validate import webhook_alpha

        findings = [webhook_alpha.cel_service_path(f) for f in findings]
    if not structural_ok:
        findings.append(
            Finding(
                "info",
                "webhook",
                "",
                "webhook rules not checked: fix the schema errors first",
                "webhook-skipped",
            )
        )
    elif version == "v1alpha1":
        findings.extend(_alpha_webhook(obj, defaulted, old, schemas, profile))
    else:
        stateless = webhook.check_create(defaulted, profile, old=old_defaulted)
        findings.extend(stateless)
        # The operator's update handler returns the stateless errors alone when there are any;
        # the update rules (immutability, component set, restart during a rollout) run after.
        if old_defaulted is not None and not has_errors(stateless):
            findings.extend(_check_update(defaulted, old_defaulted, profile))
    if structural_ok and version == "v1beta1":
        findings.extend(lint.check(obj, creating=creating, version=profile.operator_version))
    elif structural_ok:
        from kubectl_dgd.core.convert import alpha_to_beta
        from kubectl_dgd.core.validate import webhook_alpha

        conversion = alpha_to_beta(obj)
        findings.extend(
            webhook_alpha.relocate(
                lint.check(conversion.obj, creating=creating, version=profile.operator_version),
                conversion,
            )
        )
    return findings


def _check_update(new: dict[str, Any], old: dict[str, Any], profile: Profile) -> list[Finding]:
    # Imported here: only an update runs these rules, and they bring the rollout phase model
    # (core.phase), some 2-3 ms of every create's start-up.
    from kubectl_dgd.core.validate import webhook_update

    return webhook_update.check_update(new, old, profile)


def _alpha_webhook(
    obj: dict[str, Any],
    defaulted: dict[str, Any],
    old: dict[str, Any] | None,
    schemas: CrdSchemas,
    profile: Profile,
) -> list[Finding]:
    """A v1alpha1 request: the mutating and validating webhooks see its v1beta1 conversion;
    the runtime-version pair and the alpha-only rules are reported at alpha paths."""
    from kubectl_dgd.core.convert import alpha_to_beta
    from kubectl_dgd.core.validate import webhook_alpha

    conversion = alpha_to_beta(defaulted)
    old_beta = alpha_to_beta(old).obj if is_alpha(old) and old is not None else old
    beta = apply_defaults(conversion.obj, schemas, profile, old=old_beta)
    old_defaulted = (
        None if old_beta is None else apply_defaults(old_beta, schemas, profile, old=old_beta)
    )
    stateless = webhook.check_create(
        beta, profile, old=old_defaulted, changed_alpha=_changed_services(obj, old)
    )
    kept, runtime = webhook_alpha.split_runtime(stateless, conversion)
    alpha_rules = webhook_alpha.check(defaulted, runtime)
    found = webhook_alpha.relocate(kept, conversion) + alpha_rules
    if old_defaulted is not None and not has_errors(found):
        found += webhook_alpha.relocate(_check_update(beta, old_defaulted, profile), conversion)
    return found


def _changed_services(obj: dict[str, Any], old: dict[str, Any] | None) -> frozenset[str]:
    """Services of a v1alpha1 update that differ from the stored alpha view (the operator's
    LPX gate compares that view too, so an ingress edit counts as a change)."""
    if not is_alpha(old) or old is None:
        return frozenset()
    new_services = _services(obj)
    old_services = _services(old)
    return frozenset(
        str(name) for name in new_services if new_services[name] != old_services.get(name)
    )


def _services(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj.get("spec")
    services = spec.get("services") if isinstance(spec, dict) else None
    return services if isinstance(services, dict) else {}


def _unserved(obj: dict[str, Any], schemas: CrdSchemas) -> Finding:
    """As kubectl: a DGD of a version the CRD does not serve is refused, naming what is served."""
    served = tuple(f"{API_GROUP}/{v}" for v in sorted(schemas, reverse=True))
    message = unserved_message(obj.get("apiVersion"), served)
    return Finding("error", "schema", "apiVersion", message, "unknown-version")

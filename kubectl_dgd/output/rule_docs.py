"""What each rule of a validation report is, for the formats that list rules (SARIF's
``tool.driver.rules``): a short and a full description, and a help page where one fits.

Webhook and lint rules are described from their row in the one table of rules
(core/validate/rules_by_version.py: releases, upstream source); a CEL rule by the CRD's own
message and expression; the schema layer's and the tool's own codes by the texts below.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubectl_dgd.core.findings import Finding

# The DGD API reference: the fields and the rules admission enforces on them.
DGD_API_DOCS = "https://docs.nvidia.com/dynamo/dev/kubernetes-api/dynamo-graph-deployment"

LAYERS = {
    "schema": (
        "A check of the CRD's structural schema, which the API server applies first: a "
        "violation rejects the request before any webhook sees it."
    ),
    "cel": (
        "A CRD validation rule (x-kubernetes-validations), evaluated by the API server on "
        "create and update; a violation rejects the request."
    ),
    "webhook": (
        "A rule of the Dynamo operator's validating webhook; an error rejects the request, "
        "with the operator's own message."
    ),
    "lint": (
        "A check of what the operator only finds when it reconciles the graph, or never: "
        "admission accepts the graph, which then fails or behaves unexpectedly."
    ),
    "input": "A manifest kubectl-dgd could not read; nothing in it was checked.",
}

# The schema layer's codes and the tool's own notes: (short, full).
FIXED: dict[str, tuple[str, str]] = {
    "schema/schema-type": (
        "Value of the wrong type",
        "The field's value is not of the type the CRD's schema declares.",
    ),
    "schema/schema-required": (
        "Required field missing",
        "A field the CRD's schema requires is not set.",
    ),
    "schema/schema-enum": (
        "Value not among the allowed ones",
        "The field's value is not one of the values the CRD's schema enumerates.",
    ),
    "schema/schema-pattern": (
        "Value does not match the pattern",
        "A string does not match the regular expression the CRD's schema gives for the field.",
    ),
    "schema/schema-format": (
        "Value not in the declared format",
        "A string is not in the format the CRD's schema declares (for example a quantity or a date-time).",
    ),
    "schema/schema-minimum": (
        "Number below the minimum",
        "A number is smaller than the minimum the CRD's schema allows.",
    ),
    "schema/schema-maximum": (
        "Number above the maximum",
        "A number is larger than the maximum the CRD's schema allows.",
    ),
    "schema/schema-min-length": (
        "String too short",
        "A string is shorter than the CRD's schema allows.",
    ),
    "schema/schema-max-length": (
        "String too long",
        "A string is longer than the CRD's schema allows.",
    ),
    "schema/schema-min-items": (
        "Too few list items",
        "A list has fewer items than the CRD's schema requires.",
    ),
    "schema/schema-max-items": (
        "Too many list items",
        "A list has more items than the CRD's schema allows.",
    ),
    "schema/schema-min-properties": (
        "Too few map entries",
        "A map has fewer entries than the CRD's schema requires.",
    ),
    "schema/schema-max-properties": (
        "Too many map entries",
        "A map has more entries than the CRD's schema allows.",
    ),
    "schema/schema-duplicate": (
        "Duplicate list entry",
        "A list of type set or map holds the same value or key twice.",
    ),
    "schema/schema-list-map-item": (
        "List-map item without its key",
        "An item of a list keyed by fields (x-kubernetes-list-type: map) lacks a key field or is not an object.",
    ),
    "schema/schema-any-of": (
        "Value matches none of the allowed shapes",
        "The value satisfies none of the alternatives (anyOf) the CRD's schema gives.",
    ),
    "schema/schema-depth": (
        "Nesting too deep",
        "The object is nested deeper than the API server decodes.",
    ),
    "schema/unknown-field": (
        "Unknown field",
        "A field the CRD's schema does not declare: the API server drops it (an error with --strict).",
    ),
    "schema/deprecated-version": (
        "Deprecated API version",
        "The object uses an API version the CRD marks deprecated (nvidia.com/v1alpha1); kubectl-dgd convert rewrites it as v1beta1.",
    ),
    "schema/unknown-version": (
        "API version not served",
        "The CRD does not serve the object's API version; the API server refuses it.",
    ),
    "cel/cel-eval-error": (
        "CEL rule could not be evaluated",
        "Evaluating a CRD validation rule failed (a missing key, a wrong type); the API server rejects the request with the same error.",
    ),
    "cel/cel-not-checked": (
        "CEL rules not checked",
        "The schema errors stop the API server from evaluating the CRD's validation rules; fix them to see the rest.",
    ),
    "cel/cel-unsupported": (
        "CEL rule not evaluated offline",
        "The rule uses something the offline evaluator does not provide; the cluster evaluates it (validate --live --server-dry-run).",
    ),
    "webhook/webhook-skipped": (
        "Webhook rules not checked",
        "The object's structure is broken, so the operator's webhook rules were not run; fix the schema errors first.",
    ),
    "webhook/saved-object": (
        "Checked as an update of itself",
        "A saved live object (it has metadata.uid) is checked with the update rules against itself; give --old to check a change.",
    ),
    "webhook/old-not-matched": (
        "--old names another graph",
        "The object given with --old is another graph, so this one was checked as a create.",
    ),
    "webhook/server-dry-run": (
        "Refused by the API server's dry run",
        "validate --server-dry-run submitted the graph with dryRun=All and the API server refused it.",
    ),
    "webhook/server-dry-run-no-webhook": (
        "No webhook answered the dry run",
        "No validating webhook is registered for DynamoGraphDeployments: only the CRD's schema and rules were applied.",
    ),
    "lint/restart-on-create": (
        "spec.restart in a graph being created",
        "The CRD rejects spec.restart on create: create the graph first, then request a restart.",
    ),
    "lint/backend-ambiguous": (
        "Several backend frameworks in one command",
        "A worker's main container command names several backend frameworks; without spec.backendFramework the operator fails to reconcile the graph.",
    ),
    "lint/backend-mismatch": (
        "backendFramework disagrees with the command",
        "The worker command names another backend than backendFramework; the operator fails to reconcile the graph.",
    ),
    "lint/backend-multiple": (
        "Workers of several backend frameworks",
        "The workers' commands name different backend frameworks and spec.backendFramework is unset; the operator fails to reconcile the graph.",
    ),
    "lint/grove-name-budget": (
        "Names too long for the Grove pathway",
        "A graph on the component pathway whose combined resource names exceed Grove's pod-name limit: it would be rejected if moved to the Grove pathway.",
    ),
    "lint/image-untagged": (
        "Image without a tag",
        "An image without a tag or digest is not reproducible.",
    ),
    "lint/image-latest": (
        "Image tagged latest",
        "An image tagged latest is not reproducible.",
    ),
    "lint/env-order-reference": (
        "Environment reference depends on the merge order",
        "The operator merges spec.env with the component's and sorts by name, so a $(VAR) reference depends on alphabetical order.",
    ),
    "lint/replicas-with-scaling-adapter": (
        "replicas beside a scaling adapter",
        "With a scaling adapter the adapter owns replicas: the operator writes its value back and refuses direct edits, so a value in Git drifts and later applies are refused.",
    ),
    "input/unreadable": (
        "Unreadable input",
        "The file could not be read or parsed as YAML or JSON (the message says where and why).",
    ),
}

_WORDS = {
    "api": "API", "cel": "CEL", "dcd": "DCD", "dgd": "DGD", "epp": "EPP", "gms": "GMS",
    "gpu": "GPU", "gpus": "GPUs", "kv": "KV", "lpx": "LPX", "lws": "LWS", "mig": "MIG",
    "pvc": "PVC", "pvcs": "PVCs", "semver": "semver", "sla": "SLA", "url": "URL",
}  # fmt: skip


@dataclass(frozen=True)
class RuleDoc:
    """A rule's descriptions and help page (None: no page fits)."""

    short: str
    full: str
    help_uri: str | None


def describe(
    layer: str, code: str, ref_message: str = "", expression: str = "", at: str = ""
) -> RuleDoc:
    """The description of the rule ``layer/code`` (a CEL rule: with its message, expression
    and schema location)."""
    if layer == "cel" and code == "cel-rule" and expression:
        where = f" at {at}" if at and at != "(root)" else ""
        short = ref_message or f"CEL rule {expression}"
        return RuleDoc(short, f"{LAYERS['cel']} The rule{where}: {expression}", DGD_API_DOCS)
    fixed = FIXED.get(f"{layer}/{code}")
    help_uri = DGD_API_DOCS if layer in ("schema", "cel", "webhook") else None
    if fixed is not None:
        return RuleDoc(fixed[0], f"{LAYERS.get(layer, '')} {fixed[1]}".strip(), help_uri)
    history = _history(code) if layer == "webhook" else ""  # lint rows: every release alike
    return RuleDoc(humanized(code), f"{LAYERS.get(layer, '')}{history}".strip(), help_uri)


def describe_finding(finding: Finding) -> RuleDoc:
    ref = finding.rule
    if ref is None:
        return describe(finding.layer, finding.code)
    return describe(
        finding.layer, finding.code, ref.message, ref.expression, ref.id.rpartition(":")[0]
    )


def humanized(code: str) -> str:
    """``main-image-required`` -> ``Main image required`` (acronyms kept)."""
    words = [_WORDS.get(word, word) for word in code.split("-")]
    first = words[0] if words[0] in _WORDS.values() else words[0].capitalize()
    return " ".join([first, *words[1:]])


def _history(code: str) -> str:
    """Which operator releases have the rule and where upstream it comes from."""
    from kubectl_dgd.core.validate.rules_by_version import RULES

    rule = RULES.get(code)
    if rule is None:
        return ""
    releases = (
        f"operator {rule.since} and later"
        if rule.until is None
        else (
            f"operator {rule.since} only"
            if rule.until == rule.since
            else f"operator {rule.since} to {rule.until}"
        )
    )
    source = f"; upstream: {rule.source}" if rule.source else ""
    return f" In {releases}{source}."

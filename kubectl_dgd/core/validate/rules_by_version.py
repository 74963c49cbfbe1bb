"""Which webhook and lint rule exists in which operator version: the one table.

Every finding code the webhook and lint layers can emit has a row; a test fails when one is missing.
Rules compute their findings as the newest logic knows them, and ``gate`` drops the findings of
rules the selected release does not have. Where a release changed a rule's wording or accepted
values, ``variants`` holds them keyed by the first release that used them (``variant`` picks one).
Rows name their upstream source (PR number or search-index id) so a reader can check each one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import SUPPORTED_VERSIONS, at_least, version_key


@dataclass(frozen=True)
class Rule:
    """A rule present from ``since`` through ``until`` (inclusive; None = still present)."""

    since: str = "1.3"
    until: str | None = None
    source: str = ""
    variants: dict[str, str] = field(default_factory=dict)

    def exists_in(self, version: str) -> bool:
        return at_least(version, self.since) and (
            self.until is None or at_least(self.until, version)
        )


def _r(since: str = "1.3", until: str | None = None, source: str = "", **variants: str) -> Rule:
    # Variant keys are written v1_6 (keyword-safe) and stored as "1.6".
    return Rule(since, until, source, {k[1:].replace("_", "."): v for k, v in variants.items()})


RULES: dict[str, Rule] = {
    # metadata
    "origin-version-semver": _r(source="M1"),
    "vllm-backend-annotation": _r(source="M2"),
    "grove-update-strategy": _r(
        source="M3, #11085; Coherent: docs 70638219375, value order of SupportedGroveUpdateStrategies 71258107834",
        v1_3="RollingRecreate,OnDelete",
        v1_6="Coherent,RollingRecreate,OnDelete",
    ),
    "discovery-mode": _r(source="M4"),
    "workload-provider": _r("1.4", source="M5, #12942"),
    "failover-discovery-mode": _r(source="M6, #11090"),
    "workload-provider-materialize": _r("1.4", source="M7, #12942"),
    "workload-provider-immutable": _r("1.4", source="M8, #12942"),
    # graph level
    "priority-class-grove-only": _r(source="S1, #10217"),
    "components-required": _r(source="S2, #10934"),
    "grove-name-length": _r(source="S3"),
    "restart-order-parallel": _r(source="R1"),
    "restart-order-unique": _r(source="R2"),
    "restart-order-incomplete": _r(source="R3"),
    "restart-order-unknown": _r(source="R4"),
    # topology and KV transfer policy
    "topology-spec-required": _r(source="T1"),
    "topology-pack-domain-required": _r("1.4", source="T2, #12448"),
    "topology-component-required": _r(until="1.3", source="T3, removed by #12448"),
    "topology-binding-not-checked": _r(source="T4-T6 (cluster)"),
    "provider-override-typed-topology": _r("1.5", source="T7, #13273"),
    "kv-transfer-lpx": _r("1.6", source="K1, 70778590138"),
    "kv-transfer-topology-name": _r(source="K2, #10041"),
    "kv-transfer-grove-only": _r(source="K3"),
    "kv-transfer-binding-not-checked": _r(source="K4 (cluster)"),
    # provider overrides
    "provider-override-unadopted": _r("1.5", source="P1, #13273"),
    "provider-override-grove-only": _r("1.5", source="P2"),
    "provider-override-api-version": _r("1.5", source="P3, P4"),
    "provider-override-scope": _r("1.5", source="P5, po/registry.go ExpectedTarget"),
    "provider-override-target": _r("1.5", source="P6"),
    "provider-override-schema": _r("1.5", source="P7 validateKnownGroveShape"),
    "provider-override-path": _r(
        "1.5",
        source="P8; 1.6 registers component minAvailable (docs 70638219375)",
        v1_5="topology",
        v1_6="topology,minAvailable",
    ),
    "provider-override-required-path": _r(
        "1.5", source="P8 missing subtree; 1.6 wording from po/registry.go 71643200112"
    ),
    "provider-override-number": _r(
        "1.6", source="po/registry.go validateComponentValue, 71643200112"
    ),
    "provider-override-budget": _r(
        "1.6", source="P9, validateProviderOverride 70561057532 (the 1.6 docs disagree)"
    ),
    "provider-override-immutable": _r("1.5", source="P11"),
    "provider-override-lpx": _r("1.6", source="P10, 70778590138"),
    # components
    "min-available-grove-only": _r(source="CO1, #10532"),
    # 1.6 native minimum: behaviour from docs 70638219375 and 70243226474, reading of the two
    # forms from provideroverride/availability.go 70722253782; the operator's message texts are
    # not in the indexed sources, so these five are worded by us (docs/operator-semantics.md)
    "min-available-mixed-forms": _r("1.6", source="docs 70638219375; wording ours"),
    "min-available-effective-immutable": _r(
        "1.6", source="docs 70243226474, EffectiveGroveMinAvailable 70722253782; wording ours"
    ),
    "min-available-native-replicas": _r("1.6", source="docs 70638219375; wording ours"),
    "min-available-deprecated": _r("1.6", source="docs 70638219375 (warning); wording ours"),
    "coherent-offline-risk": _r("1.6", source="docs 70638219375 (warning); wording ours"),
    "force-scaling-group-grove-only": _r("1.4", source="CO2, #11772"),
    "shared-memory-negative": _r(source="CO3"),
    "epp-multinode": _r(until="1.5", source="CO4a"),
    "multinode-worker-only": _r("1.6", source="CO4b, 70561057532"),
    "epp-inference-pool-not-checked": _r(source="CO5 (cluster)"),
    "epp-replicas": _r(
        source="CO6; 1.6 only for the legacy Go EPP (eppConfig set), 70561057532",
    ),
    "epp-config-missing": _r(until="1.5", source="CO7"),
    "epp-config-required": _r("1.6", source="CO8, 68937854049"),
    "epp-config-forbidden": _r("1.6", source="CO8, 68937854049"),
    "epp-configmap-name": _r(source="CO9"),
    "frontend-sidecar-empty": _r(source="CO10"),
    "frontend-sidecar-unknown": _r(source="CO10"),
    "frontend-sidecar-containers": _r(source="CO10 (no podTemplate / role templates)"),
    "lpx-scheduler-name": _r("1.6", source="CO12, 70778590138"),
    "dynamo-sidecar-worker-only": _r(
        "1.6", source="CO11, dynamo.ValidateDynamoSidecar 70139814946"
    ),
    "dynamo-sidecar-restart-policy": _r("1.6", source="CO11, 70139814946"),
    "dynamo-sidecar-engine": _r("1.6", source="CO11, 70139814946"),
    "dynamo-sidecar-layout": _r("1.6", source="CO11, 70139814946"),
    "main-image-required": _r("1.4", source="#10494"),
    "runtime-version-required": _r("1.4", source="#10494"),
    "elastic-ep-command": _r("1.4", source="S8, #12943"),
    # GPU memory service, failover, checkpoint, power
    "gms-worker-only": _r(source="G1"),
    "gms-requires-gpu": _r(source="G2"),
    "gms-extra-client-container": _r("1.4", source="G3, #12580"),
    "gms-inter-pod-grove-only": _r(source="S4"),
    "gms-inter-pod-vllm-only": _r(source="S5, #11090"),
    "gms-role-templates": _r("1.6", source="G4, 70561057532"),
    "failover-requires-gms": _r(source="F1"),
    "failover-mode-mismatch": _r(source="F2"),
    "failover-requires-gpu": _r(source="F3"),
    "failover-component-type": _r(source="F3"),
    "checkpoint-disabled": _r(source="CK1, #11765"),
    "checkpoint-worker-only": _r("1.6", source="CK2"),
    "checkpoint-gms-clients": _r(source="CK3, #9641"),
    "checkpoint-inter-pod-gms": _r("1.4", source="CK4, #12685"),
    "checkpoint-failover": _r("1.4", source="CK5, #12685"),
    "checkpoint-gms-snapshot": _r(until="1.3", source="CK6, removed by #12685"),
    "gpu-power-limit-format": _r("1.4", source="S6, #12012"),
    "gpu-power-limit-positive": _r("1.4", source="S6, #12012"),
    "gpu-power-limit-dra": _r("1.4", source="S7, #12012"),
    # roles[]
    "roles-unsupported-shape": _r("1.6", source="70561057532"),
    "role-name": _r("1.6", source="70561057532"),
    "role-replicas": _r("1.6", source="70561057532"),
    "role-required": _r("1.6", source="70561057532"),
    "role-template-mode": _r("1.6", source="70561057532"),
    "role-template-required": _r("1.6", source="70561057532"),
    "role-sidecar-mode": _r("1.6", source="70561057532"),
    "role-annotations": _r("1.6", source="70561057532"),
    "role-container-image": _r("1.6", source="70561057532"),
    "role-main-container": _r("1.6", source="70561057532"),
    # LPX
    "lpx-gate": _r("1.6", source="70392193259, 70778590138"),
    "lpx-grove-only": _r("1.6", source="70778590138"),
    "lpx-conductor-role": _r("1.6", source="70778590138"),
    "lpx-conductor-template": _r("1.6", source="70778590138"),
    "lpx-agent-template": _r("1.6", source="70561057532"),
    "lpx-topology": _r("1.6", source="70561057532"),
    "lpx-build-id": _r("1.6", source="70561057532"),
    "lpx-component-template": _r("1.6", source="70561057532"),
    "lpx-main-container": _r("1.6", source="70561057532"),
    "lpx-container-image": _r("1.6", source="70561057532"),
    "lpx-agent-name": _r("1.6", source="70561057532"),
    "lpx-role-placement": _r("1.6", source="70561057532"),
    "lpx-agent-placement": _r("1.6", source="70561057532"),
    "lpx-draft-replicas": _r("1.6", source="70778590138"),
    "lpx-draft-endpoint": _r("1.6", source="70778590138"),
    "lpx-draft-min-available": _r("1.6", source="70778590138"),
    "lpx-target-replicas": _r("1.6", source="70778590138"),
    "lpx-type-change": _r("1.6", source="70778590138"),
    # v1alpha1 requests only: the operator's v1alpha1 validator (api/v1alpha1 in wxsms/dynamo)
    "alpha-epp-config": _r(source="api/v1alpha1 validator"),
    "alpha-failover-num-shadows": _r(source="api/v1alpha1 validator"),
    "alpha-frontend-sidecar-conflict": _r(source="api/v1alpha1 validator"),
    "alpha-ingress-host": _r(source="api/v1alpha1 validator"),
    "alpha-pvc-name": _r(source="api/v1alpha1 validator"),
    "alpha-vllm-backend-annotation": _r(source="api/v1alpha1 validator"),
    "alpha-volume-mount-point": _r(source="api/v1alpha1 validator"),
    # update-only
    "component-set-immutable": _r(source="U1"),
    "scaling-adapter-replicas": _r(source="U2"),
    "multinode-toggle": _r(source="U3"),
    "node-count-change": _r(until="1.5", source="U4: admitted before 1.6 (warning)"),
    "node-count-immutable": _r("1.6", source="U4"),
    "roles-mode-switch": _r("1.6", source="validateComponentRolesUpdate, 70561057532"),
    "role-names-immutable": _r("1.6", source="validateComponentRolesUpdate, 70561057532"),
    "gpu-power-limit-nodes": _r("1.4", until="1.5", source="U4 with the power annotation"),
    "topology-immutable": _r(source="U5, U6"),
    "kv-transfer-immutable": _r(source="U7"),
    "backend-immutable": _r(source="U8"),
    "backend-change-warning": _r(source="U8"),
    "gms-layout-immutable": _r(source="U9"),
    "failover-layout-immutable": _r(source="U10"),
    "failover-shadows-immutable": _r(source="U11"),
    "force-scaling-group-toggle": _r("1.4", source="U12"),
    "gpu-power-limit-immutable": _r("1.4", source="U13"),
    "gpu-power-limit-gpus": _r("1.4", source="U13"),
    "restart-during-rolling-update": _r(source="U14"),
    # lint: reconcile-time behaviour, the same in every modelled release
    "restart-on-create": _r(source="lint (X1 on create)"),
    "backend-ambiguous": _r(source="lint (reconcile)"),
    "backend-mismatch": _r(source="lint (reconcile)"),
    "backend-multiple": _r(source="lint (reconcile)"),
    "grove-name-budget": _r(source="lint"),
    "image-untagged": _r(source="lint"),
    "image-latest": _r(source="lint"),
    "env-order-reference": _r(source="lint (env merge)"),
    "replicas-with-scaling-adapter": _r(source="lint"),
}


def exists(code: str, version: str) -> bool:
    """Whether ``code`` is a rule of ``version``; codes without a row are kept (a test forbids them)."""
    rule = RULES.get(code)
    return rule is None or rule.exists_in(version)


def variant(code: str, version: str) -> str:
    """The wording or value set of ``code`` in ``version``: the newest variant not after it."""
    chosen = ""
    for since, text in sorted(RULES[code].variants.items(), key=lambda kv: version_key(kv[0])):
        if at_least(version, since):
            chosen = text
    return chosen


def gate(findings: Iterable[Finding], version: str) -> list[Finding]:
    """``findings`` without those of rules ``version`` does not have."""
    return [f for f in findings if exists(f.code, version)]


def versions_of(code: str) -> list[str]:
    """The supported releases that have ``code`` (for docs and tests)."""
    return [v for v in SUPPORTED_VERSIONS if RULES[code].exists_in(v)]

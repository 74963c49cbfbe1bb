"""The Grove pathway: one PodCliqueSet per graph, and Services (docs/operator-semantics.md#grove-pathway)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.datacopy import deep_copy
from kubectl_dgd.core.graph import GROVE_UPDATE_STRATEGY_ANNOTATION as UPDATE_STRATEGY_ANNOTATION
from kubectl_dgd.core.naming import child_name, pcs_name
from kubectl_dgd.core.render.context import Graph, is_multinode, is_worker, mapping, node_count
from kubectl_dgd.core.render.objects import (
    HASH_PREVIEW,
    NOT_SHOWN_ANNOTATION,
    NOTE_ANNOTATION,
    PREVIEW_ANNOTATION,
    RenderedObject,
    metadata,
)
from kubectl_dgd.core.render.podtemplate import LABEL_GRAPH, not_shown, pod_template
from kubectl_dgd.core.render.services import component_service, wants_service

PCS_API_VERSION = "grove.io/v1alpha1"
LEADER_SUFFIX = "-ldr"
WORKER_SUFFIX = "-wkr"
GMS_SUFFIX = "-gms-"
# Grove's CliqueStartupType values (search index 70766669505); Explicit once any startsAfter.
STARTUP_ANY_ORDER = "CliqueStartupTypeAnyOrder"
STARTUP_EXPLICIT = "CliqueStartupTypeExplicit"
GMS_NOT_SHOWN = "the GPU memory service server pod spec (operator-generated)"


def inter_pod_gms(component: dict[str, Any]) -> bool:
    gms = mapping(mapping(component.get("experimental")).get("gpuMemoryService"))
    return bool(gms) and (gms.get("mode") or "IntraPod") == "InterPod"


def uses_scaling_group(component: dict[str, Any]) -> bool:
    forced = mapping(mapping(component.get("experimental")).get("grove")).get("forceScalingGroup")
    return is_multinode(component) or forced is True or inter_pod_gms(component)


def _engine_names(component: dict[str, Any]) -> list[str]:
    """Engine cliques per rank: leader then workers (one per rank with inter-pod GMS)."""
    name = str(component.get("name")).lower()
    if not is_multinode(component):
        return [name]
    if inter_pod_gms(component):
        return [name + LEADER_SUFFIX] + [
            f"{name}{WORKER_SUFFIX}-{r}" for r in range(1, node_count(component))
        ]
    return [name + LEADER_SUFFIX, name + WORKER_SUFFIX]


def clique_names(component: dict[str, Any]) -> list[str]:
    """Cliques in operator order: with inter-pod GMS, each rank's GMS clique before its engine."""
    name = str(component.get("name")).lower()
    engines = _engine_names(component)
    if not inter_pod_gms(component):
        return engines
    ordered: list[str] = []
    for rank, engine in enumerate(engines):
        ordered += [f"{name}{GMS_SUFFIX}{rank}", engine]
    return ordered


def name_budget(component: dict[str, Any]) -> int:
    """Characters a component needs in pod names: its name, plus its longest clique in a PCSG."""
    name = str(component.get("name")).lower()
    if uses_scaling_group(component):
        return len(name) + max(len(c) for c in clique_names(component))
    return len(name)


def topology(graph: Graph, component: dict[str, Any]) -> dict[str, Any] | None:
    """A component's own constraint; it names the topology only when the graph has no packing
    constraint to inherit from. Components without one inherit the PodCliqueSet's."""
    domain = mapping(component.get("topologyConstraint")).get("packDomain")
    if not domain:
        return None
    constraint: dict[str, Any] = {"packDomain": domain}
    spec_constraint = mapping(graph.spec.get("topologyConstraint"))
    if spec_constraint and not spec_constraint.get("packDomain"):
        constraint = {"topologyName": spec_constraint.get("clusterTopologyName"), **constraint}
    return constraint


def _override(target: dict[str, Any], override: Any) -> None:
    """Apply a providerOverride value: mappings merge key by key, anything else replaces."""
    for key, value in mapping(mapping(override).get("value")).items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _override(target[key], {"value": value})
        else:
            target[key] = deep_copy(value)


def _clique(
    name: str, template: dict[str, Any], replicas: Any, min_available: Any, hidden: str
) -> dict[str, Any]:
    annotations = {**template["metadata"].get("annotations", {}), NOT_SHOWN_ANNOTATION: hidden}
    return {
        "name": name,
        "labels": template["metadata"]["labels"],
        "annotations": dict(sorted(annotations.items())),
        "spec": {
            "roleName": name,
            "replicas": replicas,
            "minAvailable": min_available,
            "podSpec": template["spec"],
        },
    }


def _starts_after(
    graph: Graph, component: dict[str, Any], leader: dict[str, Any], worker: dict[str, Any]
) -> None:
    """Only TRT-LLM orders its cliques: the leader starts after its workers (MPI launches from
    the leader). vLLM and SGLang cliques start in any order; the operator's helper has a
    worker-after-leader rule for them, but it is only reached for TRT-LLM."""
    if graph.backends.get(str(component.get("name"))) == "trtllm":
        leader["spec"]["startsAfter"] = [worker["name"]]


def component_cliques(
    graph: Graph, component: dict[str, Any], worker_hash: str | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The cliques of one component, and its PodCliqueScalingGroup when it uses one."""
    name = str(component.get("name")).lower()
    template = pod_template(graph, component, worker_hash)
    hidden = not_shown(graph, component)
    replicas = component.get("replicas", 1)
    min_available = component.get("minAvailable", 1)
    constraint = topology(graph, component)
    if inter_pod_gms(component):
        cliques = _gms_cliques(component, template, hidden)
    elif is_multinode(component):
        nodes = node_count(component)
        leader = _clique(name + LEADER_SUFFIX, template, 1, 1, hidden)
        worker = _clique(name + WORKER_SUFFIX, deep_copy(template), nodes - 1, nodes - 1, hidden)
        _starts_after(graph, component, leader, worker)
        multinode = mapping(component.get("multinode"))
        _override(leader, mapping(multinode.get("leader")).get("providerOverride"))
        _override(worker, mapping(multinode.get("worker")).get("providerOverride"))
        cliques = [leader, worker]
    elif uses_scaling_group(component):
        cliques = [_clique(name, template, 1, 1, hidden)]
    else:
        clique = _clique(name, template, replicas, min_available, hidden)
        if constraint:
            clique["topologyConstraint"] = constraint
        _override(clique, component.get("providerOverride"))
        return [clique], None
    group: dict[str, Any] = {
        "name": name,
        "cliqueNames": [c["name"] for c in cliques],
        "replicas": replicas,
        "minAvailable": min_available,
    }
    if constraint:
        group["topologyConstraint"] = constraint
    _override(group, component.get("providerOverride"))
    return cliques, group


def _gms_cliques(
    component: dict[str, Any], template: dict[str, Any], hidden: str
) -> list[dict[str, Any]]:
    """Inter-pod GMS: per rank a GMS clique (1 pod) and its engine clique (1 + shadows),
    the engine starting after its GMS clique."""
    failover = mapping(mapping(component.get("experimental")).get("failover"))
    shadows = failover.get("numShadows", 1) if failover else 0
    engines = 1 + (shadows if isinstance(shadows, int) else 0)
    cliques: list[dict[str, Any]] = []
    names = clique_names(component)
    for gms_name, engine_name in zip(names[::2], names[1::2], strict=True):
        gms = _clique(gms_name, template, 1, 1, hidden)
        gms["annotations"][NOT_SHOWN_ANNOTATION] = GMS_NOT_SHOWN
        gms["spec"].pop("podSpec")
        engine = _clique(engine_name, deep_copy(template), engines, engines, hidden)
        engine["spec"]["startsAfter"] = [gms_name]
        cliques += [gms, engine]
    return cliques


def render_grove(graph: Graph, worker_hash: str | None) -> list[RenderedObject]:
    components = [c for c in graph.components if c.get("type") != "lpx"]
    cliques: list[dict[str, Any]] = []
    groups: list[dict[str, Any]] = []
    for component in components:
        own, group = component_cliques(graph, component, worker_hash)
        cliques.extend(own)
        if group:
            groups.append(group)
    template: dict[str, Any] = {"cliques": cliques}
    if groups:
        template["podCliqueScalingGroups"] = groups
    explicit = any("startsAfter" in c["spec"] for c in cliques)
    template["cliqueStartupType"] = STARTUP_EXPLICIT if explicit else STARTUP_ANY_ORDER
    template["headlessServiceConfig"] = {"publishNotReadyAddresses": True}
    if graph.spec.get("priorityClassName"):
        template["priorityClassName"] = graph.spec["priorityClassName"]
    spec_constraint = mapping(graph.spec.get("topologyConstraint"))
    if spec_constraint.get("packDomain"):
        template["topologyConstraint"] = {
            "topologyName": spec_constraint.get("clusterTopologyName"),
            "packDomain": spec_constraint["packDomain"],
        }
    pcs_spec: dict[str, Any] = {"replicas": 1}
    if UPDATE_STRATEGY_ANNOTATION in graph.annotations:
        pcs_spec["updateStrategy"] = {"type": graph.annotations[UPDATE_STRATEGY_ANNOTATION]}
    pcs_spec["template"] = template
    pcs = {
        "apiVersion": PCS_API_VERSION,
        "kind": "PodCliqueSet",
        "metadata": metadata(
            pcs_name(graph.name, [name_budget(c) for c in components]),
            graph.namespace,
            labels={**_strings(graph.spec.get("labels")), LABEL_GRAPH: graph.name},
            annotations={
                **_strings(graph.spec.get("annotations")),
                **_pcs_notes(graph, worker_hash),
            },
        ),
        "spec": pcs_spec,
    }
    _override(pcs, graph.spec.get("providerOverride"))
    result = [RenderedObject(graph.name, pcs)]
    for component in components:
        if wants_service(graph, component):
            name = child_name(graph.name, str(component.get("name")))
            result.append(
                RenderedObject(
                    f"{graph.name}/{component.get('name')}",
                    component_service(graph, component, name),
                )
            )
    return result


def _pcs_notes(graph: Graph, worker_hash: str | None) -> dict[str, str]:
    notes = {
        NOT_SHOWN_ANNOTATION: "terminationDelay and scheduler settings from the operator configuration; "
        "GPU memory service cliques"
    }
    if worker_hash and any(is_worker(c) for c in graph.components):
        notes[PREVIEW_ANNOTATION] = HASH_PREVIEW
    lpx = [str(c.get("name")) for c in graph.components if c.get("type") == "lpx"]
    if lpx:
        notes[NOTE_ANNOTATION] = f"LPX components are not rendered offline: {', '.join(lpx)}"
    return notes


def _strings(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in mapping(value).items()}

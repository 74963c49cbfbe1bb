"""1.6 minimum availability: the old component field, its provider-override form, and Coherent.

Through the whole pipeline (bundled CRDs, defaults, CEL, webhook), per operator release.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.pipeline import validate_object
from kubectl_dgd.core.validate.webhook_min_available import effective_minimum, native_minimum
from tests.unit.dgd_factory import frontend, graph, stored, worker

Mutation = Callable[[dict[str, Any]], None]
W = "spec.components[1]"
IMMUTABLE_CEL = f"{W}: Invalid value: minAvailable is immutable after creation"
MIXED = (
    "spec.components: Forbidden: cannot combine the deprecated component minAvailable with a "
    "providerOverride minAvailable; migrate every component to providerOverride in one update"
)
DEPRECATED = (
    f"{W}.minAvailable: {W}.minAvailable is deprecated; set the minimum in the component "
    "providerOverride (value.spec.minAvailable, or value.minAvailable for a scaling group) instead"
)


def effective(was: int, now: int) -> str:
    return (
        f"{W}.minAvailable: Invalid value: {now}: the effective minimum availability is immutable "
        f"after creation (was {was}); move the same value between minAvailable and providerOverride"
    )


def offline(minimum: int, path: str = W) -> str:
    return (
        f"{path}: {path}: under the Coherent update strategy a minimum of {minimum} equal to "
        "replicas could take the entire component offline during an update"
    )


def native(value: Any) -> dict[str, Any]:
    return {"apiVersion": "grove.io/v1alpha1", "value": value}


def on_worker(**fields: Any) -> Mutation:
    """Set (or, with None, remove) worker fields."""

    def apply(obj: dict[str, Any]) -> None:
        for key, value in fields.items():
            if value is None:
                worker(obj).pop(key, None)
            else:
                worker(obj)[key] = copy.deepcopy(value)

    return apply


def coherent(obj: dict[str, Any]) -> None:
    obj["metadata"].setdefault("annotations", {})["nvidia.com/grove-update-strategy"] = "Coherent"


def both(*steps: Mutation) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        for step in steps:
            step(obj)

    return apply


def findings(new: Mutation, old: Mutation | None, version: str) -> list[str]:
    obj = stored(graph())
    new(obj)
    before = None
    if old is not None:
        before = stored(graph())
        old(before)
    found = validate_object(
        obj, bundled_schemas(version), Profile(operator_version=version), old=before
    )
    return [f"{f.path}: {f.message}" for f in found if f.severity != "info"]


CASES: list[tuple[str, Mutation, Mutation | None, dict[str, list[str]]]] = [
    (
        "removing the old field with the same value moved into the override is the migration",
        on_worker(minAvailable=None, providerOverride=native({"spec": {"minAvailable": 2}})),
        on_worker(replicas=3, minAvailable=2),
        {
            "1.5": [
                IMMUTABLE_CEL,
                f"{W}.providerOverride.value.spec: Forbidden: is Dynamo-owned or not enabled for "
                "provider override",
                f"{W}.providerOverride.value.topologyConstraint: Invalid value: null: is required",
            ],
            "1.6": [],
        },
    ),
    (
        "removing a minimum of 1 keeps the effective value (the native default)",
        on_worker(minAvailable=None),
        on_worker(minAvailable=1),
        {"1.5": [], "1.6": []},  # 1.5 re-defaults it to 1 on Grove
    ),
    (
        "removing a minimum of 2 without the override changes the effective value",
        on_worker(replicas=3, minAvailable=None),
        on_worker(replicas=3, minAvailable=2),
        {"1.5": [IMMUTABLE_CEL], "1.6": [effective(2, 1)]},
    ),
    (
        "moving to a different native value changes the effective value",
        on_worker(
            replicas=3, minAvailable=None, providerOverride=native({"spec": {"minAvailable": 3}})
        ),
        on_worker(replicas=3, minAvailable=2),
        {"1.6": [effective(2, 3)]},
    ),
    (
        "changing the native minimum is refused",
        on_worker(replicas=3, providerOverride=native({"spec": {"minAvailable": 3}})),
        on_worker(replicas=3, providerOverride=native({"spec": {"minAvailable": 2}})),
        {"1.6": [effective(2, 3)]},
    ),
    (
        "changing the old field is still the CRD's rule",
        on_worker(replicas=3, minAvailable=3),
        on_worker(replicas=3, minAvailable=2),
        {"1.5": [IMMUTABLE_CEL], "1.6": [IMMUTABLE_CEL, DEPRECATED]},
    ),
    (
        "an unchanged old field draws no warning on update",
        on_worker(replicas=4, minAvailable=2),
        on_worker(replicas=3, minAvailable=2),
        {"1.5": [], "1.6": []},
    ),
    (
        "the old field on create is deprecated",
        on_worker(replicas=3, minAvailable=2),
        None,
        {"1.5": [], "1.6": [DEPRECATED]},
    ),
    (
        "mixing the two forms in one graph is refused",
        both(
            on_worker(minAvailable=1),
            lambda o: frontend(o).update(providerOverride=native({"spec": {"minAvailable": 1}})),
        ),
        None,
        {"1.6": [MIXED, DEPRECATED]},
    ),
    (
        "a native minimum above a positive replica count is refused",
        on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 3}})),
        None,
        {
            "1.6": [
                f"{W}.providerOverride.value.spec.minAvailable: Invalid value: 3: must be less "
                "than or equal to replicas (2) unless replicas is 0"
            ]
        },
    ),
    (
        "a native minimum survives scaling to zero",
        on_worker(replicas=0, providerOverride=native({"spec": {"minAvailable": 3}})),
        on_worker(replicas=3, providerOverride=native({"spec": {"minAvailable": 3}})),
        {"1.6": []},
    ),
    (
        "Coherent with a minimum equal to replicas warns on create",
        both(
            coherent, on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        None,
        {"1.6": [offline(2)]},
    ),
    (
        "a single replica with the default minimum is not an explicit minimum",
        both(coherent, on_worker(replicas=1)),
        None,
        {"1.6": []},
    ),
    (
        "an explicit old-field minimum equal to replicas warns beside the deprecation",
        both(coherent, on_worker(replicas=2, minAvailable=2)),
        None,
        {"1.6": [DEPRECATED, offline(2)]},
    ),
    (
        "Coherent with spare replicas does not warn",
        both(coherent, on_worker(replicas=3)),
        None,
        {"1.6": []},
    ),
    (
        "a replica-only edit that introduces the risk warns",
        both(
            coherent, on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        both(
            coherent, on_worker(replicas=3, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        {"1.6": [offline(2)]},
    ),
    (
        "a replica-only edit that leaves the risk as it was does not repeat the warning",
        both(
            coherent, on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        both(
            coherent, on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        {"1.6": []},
    ),
    (
        "a pod-template edit under the risk warns before the rollout",
        both(
            coherent,
            on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}})),
            lambda o: worker(o)["podTemplate"]["spec"].update({"nodeSelector": {"pool": "b"}}),
        ),
        both(
            coherent, on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        {"1.6": [offline(2)]},
    ),
    (
        "opting an at-risk graph into Coherent warns",
        both(
            coherent, on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}})),
        {"1.6": [offline(2)]},
    ),
    (
        "a metadata-only edit of an at-risk Coherent graph does not repeat the warning",
        both(
            coherent,
            on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}})),
            lambda o: o["metadata"].update(labels={"team": "a"}),
        ),
        both(
            coherent, on_worker(replicas=2, providerOverride=native({"spec": {"minAvailable": 2}}))
        ),
        {"1.6": []},
    ),
]


@pytest.mark.parametrize(
    ("new", "old", "version", "expected"),
    [
        pytest.param(n, o, v, want, id=f"{v}: {name}")
        for name, n, o, per_version in CASES
        for v, want in per_version.items()
    ],
)
def test_min_available_rules_per_release(
    new: Mutation, old: Mutation | None, version: str, expected: list[str]
) -> None:
    assert findings(new, old, version) == expected


def test_a_frontend_minimum_warns_at_its_own_path() -> None:
    def frontend_minimum(obj: dict[str, Any]) -> None:
        coherent(obj)
        frontend(obj).update(providerOverride=native({"spec": {"minAvailable": 1}}))

    assert findings(frontend_minimum, None, "1.6") == [offline(1, "spec.components[0]")]


@pytest.mark.parametrize(
    ("value", "minimum"),
    [
        ({"spec": {"minAvailable": 2}}, 2),
        ({"minAvailable": 3}, 3),
        ({"minAvailable": 3, "spec": {"minAvailable": 2}}, 3),
        ({"spec": {"minAvailable": "2"}}, None),  # json.Unmarshal fails: no native minimum
        ({"spec": "x"}, None),
        ({"topologyConstraint": {}}, None),
    ],
)
def test_the_native_minimum_is_read_as_grove_min_available_reads_it(
    value: dict[str, Any], minimum: int | None
) -> None:
    component = {"providerOverride": native(value)}
    assert native_minimum(component) == minimum
    assert effective_minimum(component) == (1 if minimum is None else minimum)
    assert effective_minimum({**component, "minAvailable": 5}) == 5
    assert (
        native_minimum({"providerOverride": {"apiVersion": "grove.io/v2", "value": value}}) is None
    )


def test_a_role_whose_name_is_not_a_string_is_reported_not_raised() -> None:
    """Hypothesis found ``roles: [{name: []}]`` raising TypeError in the role-replica default."""
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.core.validate.pipeline import validate_object

    obj = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g"},
        "spec": {
            "components": [
                {
                    "name": "w",
                    "type": "worker",
                    "multinode": {"nodeCount": 2},
                    "roles": [{"name": []}],
                }
            ]
        },
    }
    found = validate_object(obj, bundled_schemas("1.6"), Profile(operator_version="1.6"))
    assert any(f.severity == "error" and "roles[0].name" in f.path for f in found)

"""``diff``'s field changes over graphs of any shape: a graph never differs from itself or from a
reordering of its named components and roles, and whatever the shapes, it returns changes (it
never raises) whose paths all start at a top-level key of either side."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kubectl_dgd.usecases.diff import field_changes
from tests.property.test_validator_properties import SETTINGS

leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b", "x:1"]))
value = st.recursive(
    leaf,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["name", "image", "env", "roles", "x"]), children, max_size=3
        )
    ),
    max_leaves=12,
)
roles = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["leader", "worker"])}, optional={"x": value}),
    max_size=2,
    unique_by=lambda r: r["name"],
)
component = st.fixed_dictionaries(
    {"name": st.sampled_from(["Frontend", "decode", "prefill", "planner"])},
    optional={"replicas": st.integers(0, 3), "roles": roles, "podTemplate": value},
)
named = st.lists(component, max_size=4, unique_by=lambda c: c["name"])


def _graph(components: Any, extra: Any = None) -> dict[str, Any]:
    return {"spec": {"components": components, "x": extra}}


@SETTINGS
@given(named, st.randoms(use_true_random=False))
def test_a_reordering_of_named_components_and_roles_is_no_change(
    components: list[dict[str, Any]], rand: Any
) -> None:
    shuffled = copy.deepcopy(components)
    rand.shuffle(shuffled)
    for c in shuffled:
        if isinstance(c.get("roles"), list):
            rand.shuffle(c["roles"])
    assert field_changes(_graph(components), _graph(shuffled)) == []


@SETTINGS
@given(st.one_of(named, value), st.one_of(named, value), value, value)
def test_any_shapes_give_changes_exactly_when_the_graphs_differ_beyond_order(
    live_components: Any, new_components: Any, live_extra: Any, new_extra: Any
) -> None:
    live, new = _graph(live_components, live_extra), _graph(new_components, new_extra)
    changes = field_changes(live, new)
    assert all(c.path.startswith("spec.") for c in changes)
    assert field_changes(new, new) == []
    # compared as JSON text, where false and 0 differ (Python has False == 0); a number is a
    # number, whether written 1 or 1.0, as the API server stores it
    assert bool(changes) == (_json(_canonical(live)) != _json(_canonical(new)))


def _json(obj: Any) -> str:
    def number(value: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, dict):
            return {k: number(v) for k, v in value.items()}
        if isinstance(value, list):
            return [number(v) for v in value]
        return value

    return json.dumps(number(obj), sort_keys=True)


def _sorted_by_name(items: Any) -> Any:
    """A list of uniquely, string-named mappings sorted by name (any other value as it is)."""
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        return items
    names = [i.get("name") for i in items]
    if not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
        return items
    return sorted(items, key=lambda i: str(i["name"]))


def _canonical(obj: dict[str, Any]) -> dict[str, Any]:
    """The oracle: order of named components and of their named roles removed by sorting."""
    raw = copy.deepcopy(obj["spec"]["components"])
    components = _sorted_by_name(raw)
    if components is not raw:  # keyed by name: so are the roles of each component
        for c in components:
            if "roles" in c:
                c["roles"] = _sorted_by_name(c["roles"])
    return {"spec": {**obj["spec"], "components": components}}

"""Provider-override values decoded as encoding/json decodes them into the Grove types."""

from __future__ import annotations

from kubectl_dgd.core.validate.grove_shape import mismatch, not_an_object


def test_values_of_the_right_shape_decode() -> None:
    assert mismatch("PodCliqueSet", {"spec": {"template": {"topologyConstraint": {}}}}) is None
    assert mismatch("PodCliqueTemplateSpec", {"spec": {"minAvailable": 2}, "unknown": [1]}) is None
    assert mismatch("PodCliqueScalingGroupConfig", {"minAvailable": None}) is None


def test_a_struct_given_a_scalar_names_the_innermost_struct_and_the_full_path() -> None:
    assert mismatch("PodCliqueSet", {"spec": {"template": "rack"}}) == (
        "json: cannot unmarshal string into Go struct field PodCliqueSetSpec.spec.template of "
        "type v1alpha1.PodCliqueSetTemplateSpec"
    )


def test_numbers_that_do_not_fit_an_int32_carry_their_text() -> None:
    assert mismatch("PodCliqueTemplateSpec", {"spec": {"minAvailable": 1.5}}) == (
        "json: cannot unmarshal number 1.5 into Go struct field PodCliqueSpec.spec.minAvailable "
        "of type int32"
    )
    assert mismatch("PodCliqueScalingGroupConfig", {"minAvailable": "1"}) == (
        "json: cannot unmarshal string into Go struct field "
        "PodCliqueScalingGroupConfig.minAvailable of type int32"
    )


def test_map_values_and_the_top_level_value() -> None:
    assert mismatch("PodCliqueTemplateSpec", {"labels": {"a": 1}}) == (
        "json: cannot unmarshal number into Go struct field PodCliqueTemplateSpec.labels of type "
        "string"
    )
    assert not_an_object("x") == (
        "json: cannot unmarshal string into Go value of type map[string]json.RawMessage"
    )

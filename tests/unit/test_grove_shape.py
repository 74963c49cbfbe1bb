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


def test_grove_pack_is_a_struct_of_required_and_preferred_domains() -> None:
    topology = {"topologyName": "t", "pack": {"required": "rack", "preferred": "host"}}
    assert mismatch("PodCliqueTemplateSpec", {"topologyConstraint": topology}) is None
    assert mismatch("PodCliqueScalingGroupConfig", {"topologyConstraint": {"pack": "rack"}}) == (
        "json: cannot unmarshal string into Go struct field "
        "TopologyConstraint.topologyConstraint.pack of type v1alpha1.TopologyPackConstraint"
    )
    assert mismatch("PodCliqueTemplateSpec", {"topologyConstraint": {"topologyName": 1}}) == (
        "json: cannot unmarshal number into Go struct field "
        "TopologyConstraint.topologyConstraint.topologyName of type string"
    )


def test_the_first_error_is_the_first_in_sorted_key_order() -> None:
    value = {"topologyConstraint": {"packDomain": 1}, "minAvailable": "x"}
    assert mismatch("PodCliqueScalingGroupConfig", value) == (
        "json: cannot unmarshal string into Go struct field "
        "PodCliqueScalingGroupConfig.minAvailable of type int32"
    )


def test_keys_match_fields_case_insensitively_as_encoding_json_does() -> None:
    assert mismatch("PodCliqueScalingGroupConfig", {"topologyConstraint": {"Pack": "rack"}}) == (
        "json: cannot unmarshal string into Go struct field "
        "TopologyConstraint.topologyConstraint.pack of type v1alpha1.TopologyPackConstraint"
    )

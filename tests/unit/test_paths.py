"""Field paths: the operator's notation, and always one line."""

from kubectl_dgd.core.paths import child, index, line_for, parent


def test_identifier_keys_are_dotted_and_others_bracketed_like_the_operator() -> None:
    assert child("spec", "components") == "spec.components"
    assert child("metadata.annotations", "nvidia.com/workload-provider") == (
        "metadata.annotations[nvidia.com/workload-provider]"
    )
    assert index("spec.components", 1) == "spec.components[1]"


def test_control_characters_in_keys_are_escaped_so_paths_stay_on_one_line() -> None:
    assert child("spec", "a\nb") == "spec[a\\x0ab]"
    assert "\n" not in child("spec", "x\r\n\x85\u2028y")


def test_parent_walks_up_brackets_and_dots() -> None:
    assert parent("metadata.annotations[a.b/c]") == "metadata.annotations"
    assert parent("spec.components[1]") == "spec.components"
    assert parent("spec") == ""
    assert parent("") is None


def test_line_for_falls_back_to_the_nearest_ancestor() -> None:
    lines = {"": 1, "spec": 4, "spec.components[0]": 6}
    assert line_for(lines, "spec.components[0].podTemplate.spec", 1) == 6
    assert line_for(lines, "status.state", 9) == 1

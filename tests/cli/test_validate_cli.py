from tests.conftest import EXAMPLES, run_cli


def test_validate_examples_directory_exits_zero() -> None:
    result = run_cli("validate", "--lpx", *sorted(str(p) for p in EXAMPLES.glob("*.yaml")))
    assert result.returncode == 0, result.stdout + result.stderr
    # The summary always names an "invalid" count; what matters is that it is zero.
    assert "invalid" in result.stdout.splitlines()[-1]
    count = len(list(EXAMPLES.glob("*.yaml")))
    assert result.stdout.splitlines()[-1] == (
        f"{count} documents, {count} graphs: {count} valid, 0 invalid, 0 skipped"
    )


def test_validate_without_input_is_a_usage_error() -> None:
    result = run_cli("validate")
    assert result.returncode == 2
    assert "no input" in result.stderr
    assert "Traceback" not in result.stderr


def test_saved_live_object_is_checked_as_an_update_of_itself() -> None:
    saved = EXAMPLES / "status" / "sequential-restart-in-progress.yaml"
    result = run_cli("validate", "-o", "json", str(saved))
    assert result.returncode == 0, result.stdout
    import json

    findings = json.loads(result.stdout)["items"][0]["findings"]
    codes = {f["code"] for f in findings}
    assert "saved-object" in codes
    assert "cel-rule" not in codes  # spec.restart is fine on an existing graph


def test_same_graph_without_uid_is_a_create_and_spec_restart_is_rejected(tmp_path) -> None:  # type: ignore[no-untyped-def]
    saved = (EXAMPLES / "status" / "sequential-restart-in-progress.yaml").read_text()
    fresh = tmp_path / "fresh.yaml"
    fresh.write_text("\n".join(line for line in saved.splitlines() if "uid:" not in line) + "\n")
    result = run_cli("validate", str(fresh))
    assert result.returncode == 1
    assert "spec.restart must be unset on create" in result.stdout


def test_old_object_of_another_graph_is_reported_not_silently_ignored() -> None:
    result = run_cli(
        "validate",
        str(EXAMPLES / "vllm-agg.yaml"),
        "--old",
        str(EXAMPLES / "status" / "healthy.yaml"),
    )
    assert result.returncode == 0
    assert "--old is graph 'vllm-disagg', not this one: validated as a create" in result.stdout


def test_a_symlinked_subdirectory_is_validated_as_the_argocd_plugin_reads_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """It was skipped (exit 0, nothing checked) while the plugin followed it."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "bad.yaml").write_text(
        "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x}\nspec: {components: 7}\n"
    )
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "linked").symlink_to("../real")
    (tmp_path / "real" / "loop").symlink_to("..")  # a link back up: read once, no loop
    result = run_cli("validate", str(tmp_path), timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "apps/linked/bad.yaml" in result.stdout


def test_a_symlinked_directory_leading_outside_the_tree_is_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "outside").mkdir()
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "away").symlink_to("../outside")
    result = run_cli("validate", str(tmp_path / "tree"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'tree' / 'away'}: symbolic link leads outside the directory given; "
        "not read (give its target as an argument of its own)"
    ]


def test_validate_jsonpath_and_custom_columns_read_the_json_report() -> None:
    """-o jsonpath= and -o custom-columns= over the same data -o json prints (issue 10)."""
    bad = str(EXAMPLES / "invalid" / "common-mistakes.yaml")
    good = str(EXAMPLES / "vllm-agg.yaml")
    result = run_cli(
        "validate",
        bad,
        good,
        "-o",
        "custom-columns=NAME:.name,VALID:.valid,LINE:.line",
    )
    assert result.returncode == 1, result.stderr
    assert [line.split() for line in result.stdout.splitlines()] == [
        ["NAME", "VALID", "LINE"],
        ["common-mistakes", "false", "6"],
        ["vllm-agg", "true", "2"],
    ]
    template = 'jsonpath={range .items[?(@.valid==false)]}{.name}{"\\n"}{end}'
    result = run_cli("validate", bad, good, "-o", template)
    assert (result.returncode, result.stdout) == (1, "common-mistakes\n")
    result = run_cli("validate", good, "-o", "jsonpath={.summary.valid}")
    assert (result.returncode, result.stdout, result.stderr) == (0, "1", "")


def test_validate_with_a_bad_template_is_one_line_exit_2() -> None:
    result = run_cli("validate", str(EXAMPLES / "vllm-agg.yaml"), "-o", "jsonpath={.items[0")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: error parsing jsonpath {.items[0, unterminated array\n"

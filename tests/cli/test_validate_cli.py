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

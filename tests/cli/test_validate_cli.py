from tests.conftest import EXAMPLES, run_cli


def test_validate_examples_directory_exits_zero() -> None:
    result = run_cli("validate", "--lpx", *sorted(str(p) for p in EXAMPLES.glob("*.yaml")))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "invalid" in result.stdout.splitlines()[-1]


def test_validate_without_input_is_a_usage_error() -> None:
    result = run_cli("validate")
    assert result.returncode == 2
    assert "no input" in result.stderr
    assert "Traceback" not in result.stderr


def test_every_command_has_help() -> None:
    top = run_cli("--help")
    assert top.returncode == 0
    commands = [
        line.split()[0] for line in top.stdout.split("Commands:")[1].splitlines() if line.strip()
    ]
    assert "validate" in commands
    for command in commands:
        result = run_cli(command, "--help")
        assert result.returncode == 0, command
        assert "Usage: kubectl dgd" in result.stdout, command


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

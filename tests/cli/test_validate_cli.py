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

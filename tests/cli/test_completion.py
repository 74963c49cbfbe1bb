"""`kubectl dgd <TAB>`: kubectl runs kubectl_complete-dgd and reads Cobra's __complete answer."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import BIN, assert_installed_checkout, cli_env, run_cli


def _complete(*words: str) -> tuple[list[str], str]:
    result = run_cli(*words, script="kubectl_complete-dgd")
    assert result.returncode == 0, result.stderr
    *candidates, directive = result.stdout.splitlines()
    return [c.split("\t")[0] for c in candidates], directive


def test_command_names_complete_without_file_completion() -> None:
    candidates, directive = _complete("st")
    assert candidates == ["status"]
    assert directive == ":4"


def test_flags_and_choices_complete_from_the_command_tree() -> None:
    assert "--output" in _complete("status", "--out")[0]
    assert _complete("status", "-o", "")[0] == ["text", "wide", "json", "yaml", "name"]
    assert sorted(_complete("rollout", "")[0]) == ["explain", "status"]


def test_version_and_its_client_flag_complete() -> None:
    assert _complete("vers") == (["version"], ":4")
    assert _complete("version", "--cl")[0][0] == "--client"


def test_template_formats_complete_up_to_their_equals_sign_without_a_space() -> None:
    assert _complete("status", "-o", "custom") == (
        ["custom-columns=", "custom-columns-file="],
        ":6",
    )


def test_path_arguments_leave_completion_to_the_shell() -> None:
    assert _complete("validate", "") == ([], ":0")


def test_real_kubectl_delegates_plugin_completion_to_us() -> None:
    assert_installed_checkout()
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = subprocess.run(
        [str(BIN / "kubectl"), "__complete", "dgd", "rest"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].split("\t")[0] == "restart"


# ---- values that need no cluster: the kubeconfig, files, the protocol ------------------------


def _kubeconfig(path: Path, contexts: list[str], server: str = "https://127.0.0.1:1") -> Path:
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": f"{c}-cluster", "cluster": {"server": server}} for c in contexts],
        "users": [{"name": f"{c}-user", "user": {"token": "t"}} for c in contexts],
        "contexts": [
            {"name": c, "context": {"cluster": f"{c}-cluster", "user": f"{c}-user"}}
            for c in contexts
        ],
        "current-context": contexts[0],
    }
    path.write_text(json.dumps(config))
    return path


def _complete_env(env: dict[str, str], *words: str) -> tuple[list[str], str, str]:
    result = run_cli(*words, script="kubectl_complete-dgd", env=env)
    assert result.returncode == 0, result.stderr
    *candidates, directive = result.stdout.splitlines()
    return [c.split("\t")[0] for c in candidates], directive, result.stderr


def test_contexts_come_from_the_kubeconfig_of_the_line(tmp_path: Path) -> None:
    env = {"KUBECONFIG": str(_kubeconfig(tmp_path / "env", ["prod", "staging", "dev"]))}
    other = _kubeconfig(tmp_path / "other", ["kind-a", "kind-b"])
    assert _complete_env(env, "status", "--context", "")[:2] == (["dev", "prod", "staging"], ":4")
    assert _complete_env(env, "status", "--context", "st")[0] == ["staging"]
    assert _complete_env(env, "status", "--context=p")[0] == ["prod"]
    on_line = ("tree", "--kubeconfig", str(other), "--context", "")
    assert _complete_env(env, *on_line)[0] == ["kind-a", "kind-b"]
    assert _complete_env(env, "logs", "--cluster", "d")[0] == ["dev-cluster"]
    assert _complete_env(env, "events", "--user", "")[0] == [
        "dev-user",
        "prod-user",
        "staging-user",
    ]


def test_kubeconfig_files_merge_as_kubectl_merges_them(tmp_path: Path) -> None:
    first = _kubeconfig(tmp_path / "a", ["prod", "dev"])
    second = _kubeconfig(tmp_path / "b", ["dev", "lab"])
    env = {"KUBECONFIG": f"{first}{os.pathsep}{second}"}
    assert _complete_env(env, "status", "--context", "")[0] == ["dev", "lab", "prod"]


def test_no_kubeconfig_at_all_gives_no_candidates_and_no_error(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    assert _complete_env(env, "status", "--context", "") == ([], ":4", "")
    assert _complete_env(env, "status", "") == ([], ":4", "")
    assert _complete_env(env, "status", "-n", "") == ([], ":4", "")


def test_unreachable_cluster_gives_no_candidates_and_no_error(tmp_path: Path) -> None:
    # 127.0.0.1:1 refuses at once: every cluster value is empty, nothing but the protocol.
    env = {"KUBECONFIG": str(_kubeconfig(tmp_path / "kc", ["gone"]))}
    for words in (
        ("status", ""),
        ("restart", "g", "--order", ""),
        ("logs", "g", ""),
        ("list", "-n", ""),
    ):
        assert _complete_env(env, *words) == ([], ":4", "")


def test_manifest_flags_ask_for_yaml_and_json_files_and_directories() -> None:
    manifest = (["yaml", "yml", "json"], ":8")
    for words in (
        ("status", "-f", ""),
        ("restart", "--filename", ""),
        ("diff", "-f", "gra"),
        ("convert", "-f", ""),
        ("validate", "-f", ""),
        ("render", "--filename=x"),
    ):
        assert _complete(*words) == manifest, words


def test_credential_paths_leave_any_file_to_the_shell() -> None:
    for flag in ("--kubeconfig", "--certificate-authority", "--client-certificate", "--client-key"):
        assert _complete("status", flag, "") == ([], ":0"), flag


def test_order_components_come_from_the_file_of_the_line(tmp_path: Path) -> None:
    two = tmp_path / "two.yaml"
    two.write_text(
        _beta("first", ["Frontend", "decode", "prefill"])
        + "---\n"
        + _beta("second", ["router", "worker"])
    )
    order = ("restart", "-f", str(two), "--name", "first", "--order")
    assert _complete(*order, "") == (["Frontend", "decode", "prefill"], ":6")  # no space
    assert _complete(*order, "decode,") == (["decode,Frontend", "decode,prefill"], ":6")
    assert _complete(*order, "decode,pre") == (["decode,prefill"], ":6")
    # the last one completes the list: a space may follow
    assert _complete(*order, "decode,prefill,") == (["decode,prefill,Frontend"], ":4")
    assert _complete(*order, "decode,prefill,Frontend,") == ([], ":4")
    both = _complete("restart", "-f", str(two), "--order=")[0]
    assert both == ["Frontend", "decode", "prefill", "router", "worker"]


def test_order_of_a_v1alpha1_file_names_its_services(tmp_path: Path) -> None:
    alpha = tmp_path / "alpha.yaml"
    alpha.write_text(
        "apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata: {name: old}\n"
        "spec:\n  services:\n    Frontend: {componentType: frontend}\n"
        "    VllmWorker: {componentType: worker}\n"
    )
    assert _complete("restart", "-f", str(alpha), "--order", "")[0] == ["Frontend", "VllmWorker"]


def test_order_of_an_unreadable_file_is_empty(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("spec: [unclosed\n")
    assert _complete("restart", "-f", str(broken), "--order", "") == ([], ":4")
    assert _complete("restart", "-f", str(tmp_path / "missing.yaml"), "--order", "") == ([], ":4")


def test_an_unknown_command_before_the_cursor_is_no_traceback() -> None:
    result = run_cli("nosuch", "", script="kubectl_complete-dgd")
    assert (result.returncode, result.stdout, result.stderr) == (0, ":4\n", "")


def test_kubectl_dgd_answers_cobras_hidden_complete_command_the_same() -> None:
    for words in (("st",), ("status", "-o", ""), ("restart", "-f", "")):
        ours = run_cli("__complete", *words)
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout == run_cli(*words, script="kubectl_complete-dgd").stdout


def _beta(name: str, components: list[str]) -> str:
    items = "".join(f"    - name: {c}\n      type: worker\n" for c in components)
    return (
        "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
        f"metadata:\n  name: {name}\nspec:\n  components:\n{items}"
    )


# ---- start-up: no kubernetes unless a cluster value is asked ---------------------------------


def test_completion_imports_kubernetes_only_for_cluster_values(tmp_path: Path) -> None:
    manifest = tmp_path / "g.yaml"
    manifest.write_text(_beta("g", ["a", "b"]))
    probe = (
        "import sys, json\n"
        "from kubectl_dgd.cli.complete import completions\n"
        "for words in json.loads(sys.argv[1]):\n"
        "    completions(words)\n"
        "print('kubernetes' in sys.modules, 'pydantic' in sys.modules)\n"
    )
    offline = [
        ["st"],
        ["status", "--out"],
        ["status", "-f", ""],
        ["status", "--context", ""],
        ["restart", "-f", str(manifest), "--order", ""],
    ]
    env = {**os.environ, "KUBECONFIG": str(_kubeconfig(tmp_path / "kc", ["x"]))}
    run = [str(BIN / "python"), "-c", probe]
    proc = subprocess.run(
        [*run, json.dumps(offline)], check=False, capture_output=True, text=True, env=env
    )
    assert proc.stdout.split() == ["False", "False"], proc.stderr
    proc = subprocess.run(
        [*run, '[["status", ""]]'], check=False, capture_output=True, text=True, env=env
    )
    assert proc.stdout.split()[0] == "True", proc.stderr  # the one that asks the cluster


# ---- `kubectl dgd completion SHELL` ------------------------------------------------------------


def completion_script(shell: str) -> str:
    result = run_cli("completion", shell)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_is_valid_for_its_shell(shell: str, tmp_path: Path) -> None:
    binary = shutil.which(shell)
    if binary is None:
        pytest.skip(f"{shell} is not installed on this machine: its syntax is not checked")
    script = tmp_path / f"completion.{shell}"
    script.write_text(completion_script(shell))
    proc = subprocess.run([binary, "-n", str(script)], check=False, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_completion_refuses_an_unknown_shell() -> None:
    result = run_cli("completion", "tcsh")
    assert result.returncode == 2
    assert "'tcsh' is not one of" in result.stderr


BASH_DRIVER = r"""
[[ -n $2 ]] && source "$2"
source "$1"
COMP_LINE=$3
COMP_POINT=${#COMP_LINE}
shift 3
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_kubectl_dgd
printf '%s\n' "${COMPREPLY[@]}"
"""
# bash-completion's library: with it the script reads the words with _get_comp_words_by_ref.
BASH_COMPLETION = Path("/usr/share/bash-completion/bash_completion")


def bash_words(line: str) -> list[str]:
    """COMP_WORDS as bash splits a line: at blanks, and "=" and ":" are words of their own
    (COMP_WORDBREAKS); a trailing blank starts an empty word."""
    words = [piece for token in line.split() for piece in re.split(r"([=:])", token) if piece]
    return [*words, ""] if line.endswith(" ") else words


def drive_bash(
    script: str,
    line: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    library: bool = False,
) -> list[str]:
    """The completion function of ``script`` run as bash runs it on TAB at the end of
    ``line`` (COMP_LINE, COMP_POINT, COMP_WORDS, COMP_CWORD); ``library``: with
    bash-completion loaded first, as most interactive shells have it."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed on this machine")
    if library and not BASH_COMPLETION.exists():
        pytest.skip(f"bash-completion is not installed ({BASH_COMPLETION})")
    path = Path(cwd or ".") / ".completion.bash"
    path.write_text(script)
    env = {**cli_env(env), "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    loaded = str(BASH_COMPLETION) if library else ""
    proc = subprocess.run(
        [bash, "--norc", "-c", BASH_DRIVER, "drive", str(path), loaded, line, *bash_words(line)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [found for found in proc.stdout.splitlines() if found]


WITH_AND_WITHOUT_LIBRARY = pytest.mark.parametrize(
    "library", [False, True], ids=["plain-bash", "bash-completion"]
)


@WITH_AND_WITHOUT_LIBRARY
def test_bash_script_completes_commands_flags_and_choices(tmp_path: Path, library: bool) -> None:
    script = completion_script("bash")

    def drive(line: str) -> list[str]:
        return drive_bash(script, line, tmp_path, library=library)

    assert drive("kubectl-dgd st") == ["status"]
    assert drive("kubectl-dgd rollout ") == ["explain", "status"]
    assert "--output" in drive("kubectl-dgd status --ou")
    # bash hands "-o", "=", "ya": the words are joined back before asking
    assert drive("kubectl-dgd status -o=ya") == ["yaml"]
    assert drive("kubectl-dgd status -o ya") == ["yaml"]


@WITH_AND_WITHOUT_LIBRARY
def test_bash_script_lists_manifests_and_directories_for_f(tmp_path: Path, library: bool) -> None:
    for name in ("graph.yaml", "other.yml", "obj.json", "notes.txt", "yaml"):
        (tmp_path / name).write_text("")
    (tmp_path / "dir").mkdir()
    found = drive_bash(completion_script("bash"), "kubectl-dgd status -f ", tmp_path, None, library)
    assert sorted(found) == ["dir", "graph.yaml", "obj.json", "other.yml"]


@WITH_AND_WITHOUT_LIBRARY
def test_bash_script_completes_order_lists_from_a_file(tmp_path: Path, library: bool) -> None:
    (tmp_path / "g.yaml").write_text(_beta("g", ["Frontend", "decode"]))
    script, line = completion_script("bash"), "kubectl-dgd restart -f g.yaml --order"
    assert drive_bash(script, f"{line} Frontend,", tmp_path, None, library) == ["Frontend,decode"]
    assert drive_bash(script, f"{line}=d", tmp_path, None, library) == ["decode"]


@WITH_AND_WITHOUT_LIBRARY
def test_bash_script_keeps_what_bash_keeps_of_a_word_with_colons(
    tmp_path: Path, library: bool
) -> None:
    # bash replaces only the part after the last ":", so the candidate must start there too
    kubeconfig = _kubeconfig(tmp_path / "kc", ["arn:aws:eks:one", "arn:aws:eks:two", "plain"])
    env = {"KUBECONFIG": str(kubeconfig)}
    script = completion_script("bash")
    line = "kubectl-dgd status --context arn:aws:eks:t"
    assert drive_bash(script, line, tmp_path, env, library) == ["two"]
    line = "kubectl-dgd status --context=arn:aws:eks:"
    assert drive_bash(script, line, tmp_path, env, library) == ["one", "two"]
    assert drive_bash(script, "kubectl-dgd status --context p", tmp_path, env, library) == ["plain"]


# zsh's completion builtins work only inside a completion widget: the driver stands in for the
# three the script calls, and prints what the script hands them.
ZSH_DRIVER = r"""
compdef() { : }
compset() { : }
_describe() {
    local name=$4
    print -rl -- "${(@P)name}"
    [[ ${argv[(I)-S]} -gt 0 ]] && print -r -- "<no space>"
    return 0
}
_files() { print -r -- "<files $*>" }
source $1
shift
words=("$@")
CURRENT=${#words}
_kubectl_dgd
"""


def test_zsh_script_hands_the_answer_to_zsh(tmp_path: Path) -> None:
    zsh = shutil.which("zsh")
    if zsh is None:
        pytest.skip("zsh is not installed on this machine")
    script = tmp_path / "completion.zsh"
    script.write_text(completion_script("zsh"))
    (tmp_path / "g.yaml").write_text(_beta("g", ["Frontend", "decode", "prefill"]))
    kubeconfig = _kubeconfig(tmp_path / "kc", ["arn:aws:eks:one"])
    env = {**cli_env({"KUBECONFIG": str(kubeconfig)}), "PATH": f"{BIN}{os.pathsep}/usr/bin:/bin"}

    def complete(*words: str) -> list[str]:
        proc = subprocess.run(
            [zsh, "-f", "-c", ZSH_DRIVER, "drive", str(script), *words],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.splitlines()

    assert complete("kubectl-dgd", "st")[0].startswith("status:")  # value:description
    assert complete("kubectl-dgd", "status", "-f", "") == ["<files -g *.(yaml|yml|json)>"]
    assert complete("kubectl-dgd", "status", "--kubeconfig", "") == ["<files >"]
    order = ("kubectl-dgd", "restart", "-f", "g.yaml", "--order", "decode,")
    assert complete(*order) == ["decode,Frontend:worker", "decode,prefill:worker", "<no space>"]
    # a colon in a value is escaped, as _describe splits value from description at one
    assert complete("kubectl-dgd", "status", "--context", "a") == [r"arn\:aws\:eks\:one"]


def test_fish_script_completes_through_fish(tmp_path: Path) -> None:
    fish = shutil.which("fish")
    if fish is None:
        pytest.skip("fish is not installed on this machine")
    script = tmp_path / "completion.fish"
    script.write_text(completion_script("fish"))
    (tmp_path / "g.yaml").write_text(_beta("g", ["Frontend", "decode"]))
    (tmp_path / "notes.txt").write_text("")
    env = {**cli_env(), "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}

    def complete(line: str) -> list[str]:
        command = f"source {script}; complete -C '{line}'"
        proc = subprocess.run(
            [fish, "--no-config", "-c", command],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        return [line.split("\t")[0] for line in proc.stdout.splitlines()]

    assert complete("kubectl-dgd st") == ["status"]
    assert complete("kubectl-dgd restart -f ") == ["g.yaml"]
    assert complete("kubectl-dgd restart -f g.yaml --order Frontend,") == ["Frontend,decode"]
    assert complete("kubectl-dgd restart -f g.yaml --order=F") == ["--order=Frontend"]


def test_every_graph_name_argument_completes_graph_names() -> None:
    """A command added later with a NAME argument gets graph-name completion too."""
    import click

    from kubectl_dgd.cli import completers
    from kubectl_dgd.cli.main import cli

    def commands(group: click.Group, ctx: click.Context) -> list[click.Command]:
        found: list[click.Command] = []
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None, name
            found.extend(commands(command, ctx) if isinstance(command, click.Group) else [command])
        return found

    ctx = click.Context(cli)
    named = [
        (command.name, param)
        for command in commands(cli, ctx)
        for param in command.params
        if isinstance(param, click.Argument) and param.name == "name"
    ]
    assert len(named) >= 8
    for command_name, param in named:
        assert param._custom_shell_complete is completers.graph_names, command_name

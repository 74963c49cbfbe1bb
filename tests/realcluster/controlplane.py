"""A real Kubernetes control plane on 127.0.0.1: etcd, kube-apiserver, kube-controller-manager,
kube-scheduler and kwok (fake GPU nodes that run pods), from the binaries that
scripts/control-plane/build.sh builds into a cache outside the work tree.

Used by the real-cluster tests (tests/realcluster/conftest.py: one control plane per test run,
shared by every xdist worker) and by the sandbox (scripts/sandbox.py). Everything listens on
loopback; kwok reports the nodes' address as 127.0.0.1, so nothing ever dials elsewhere.

    python -m tests.realcluster.controlplane up --state DIR    # start, detach, print env
    python -m tests.realcluster.controlplane down --state DIR  # stop everything it started

Users are static tokens (``--token-auth-file``) with RBAC: ``kdgd-admin`` (system:masters),
and ``kdgd-dev`` / ``kdgd-viewer``, who can do nothing until a test binds a Role in its own
namespace (tests/realcluster/users.py).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "scripts" / "control-plane" / "build.sh"
KWOK_VERSION_FILE = ROOT / "tools" / "kwok" / "go.mod"
# Binaries scripts/control-plane/build.sh writes, in start order
BINARIES = ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok")
TOKENS = {"admin": "kdgd-admin-token", "dev": "kdgd-dev-token", "viewer": "kdgd-viewer-token"}
USERS = {"admin": "kdgd-admin", "dev": "kdgd-dev", "viewer": "kdgd-viewer"}
START_TIMEOUT = 90.0  # readiness under a loaded 2-core machine can take 30 s (kubernetes#137743)


class ControlPlaneError(RuntimeError):
    pass


def find_binaries(build: bool = False) -> Path | None:
    """The cache directory with every binary, or None. ``build`` builds it when missing (minutes
    cold); otherwise only looks (build.sh --find)."""
    if shutil.which("go") is None:
        return None
    args = ["bash", str(BUILD)] + ([] if build else ["--find"])
    # --find says nothing on stderr; a build's progress goes to ours
    done = subprocess.run(args, check=False, text=True, stdout=subprocess.PIPE)
    if done.returncode != 0:
        return None
    out = Path(done.stdout.strip().splitlines()[-1])
    return out if all((out / b).is_file() for b in BINARIES) else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_pki(folder: Path) -> None:
    """A CA, the apiserver's serving certificate for 127.0.0.1, the service-account key pair."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "server.ext").write_text(
        "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=serverAuth\n"
        "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\n"
    )
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl(
        "req",
        "-x509",
        *ec,
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=kdgd-test-ca",
        cwd=folder,
    )
    _openssl(
        "req",
        *ec,
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=kube-apiserver",
        cwd=folder,
    )
    _openssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "2",
        "-extfile",
        "server.ext",
        cwd=folder,
    )
    _openssl("genrsa", "-out", "sa.key", "2048", cwd=folder)
    _openssl("rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub", cwd=folder)


def kubeconfig(
    server: str, ca_file: Path, user: str, token: str, namespace: str = "default"
) -> str:
    return json.dumps(
        {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {
                    "name": "real",
                    "cluster": {"server": server, "certificate-authority": str(ca_file)},
                }
            ],
            "users": [{"name": user, "user": {"token": token}}],
            "contexts": [
                {
                    "name": user,
                    "context": {"cluster": "real", "user": user, "namespace": namespace},
                }
            ],
            "current-context": user,
        },
        indent=1,
    )


def kwok_module() -> Path:
    """kwok's module folder in the module cache build.sh filled (its Stage files and CRDs)."""
    gomodcache = subprocess.run(
        ["go", "env", "GOMODCACHE"], capture_output=True, text=True, check=True
    ).stdout.strip()
    version = subprocess.run(
        ["go", "list", "-m", "-f", "{{.Version}}", "sigs.k8s.io/kwok"],
        cwd=KWOK_VERSION_FILE.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return Path(gomodcache) / f"sigs.k8s.io/kwok@{version}"


def kwok_logs_crd() -> Path:
    """kwok's Logs CRD: a Logs object names the file kwok serves as a pod's container log."""
    crd = kwok_module() / "kustomize" / "crd" / "bases" / "kwok.x-k8s.io_logs.yaml"
    if not crd.is_file():
        raise ControlPlaneError(f"kwok's Logs CRD missing from the module cache: {crd}")
    return crd


def kwok_stages() -> list[Path]:
    """kwok's own Stage files (node initialise and heartbeat, pods completed and deleted), read
    from the module cache build.sh filled, plus ours (tests/realcluster/kwok-stages.yaml: pods
    Ready, or in a failure state the kubelet reports, simulated)."""
    stage = kwok_module() / "kustomize" / "stage"
    ours = Path(__file__).with_name("kwok-stages.yaml")
    files = [
        stage / "node" / "fast" / "node-initialize.yaml",
        stage / "node" / "heartbeat" / "node-heartbeat.yaml",
        stage / "pod" / "fast" / "pod-complete.yaml",
        stage / "pod" / "fast" / "pod-delete.yaml",
    ]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise ControlPlaneError(f"kwok stage files missing from the module cache: {missing[0]}")
    return [ours, *files]


@dataclass
class State:
    """What ``up`` leaves in the state directory for tests, the sandbox and ``down``."""

    folder: Path

    @property
    def env_file(self) -> Path:
        return self.folder / "env.json"

    def kubeconfig(self, who: str) -> Path:
        return self.folder / f"kubeconfig-{who}"

    def read(self) -> dict[str, str]:
        return dict(json.loads(self.env_file.read_text()))

    @property
    def pids(self) -> Path:
        return self.folder / "pids"


def _wait(
    what: str, check: object, deadline: float, proc: subprocess.Popen[bytes], log: Path
) -> None:
    while True:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise ControlPlaneError(f"{what} exited with {proc.returncode}:\n{tail}")
        try:
            if check():  # type: ignore[operator]
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise ControlPlaneError(f"{what} not ready after {START_TIMEOUT:.0f} s; see {log}")
        time.sleep(0.2)


def _get(
    url: str, token: str | None = None, ctx: ssl.SSLContext | None = None
) -> tuple[int, bytes]:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    # Loopback only, and never through a proxy the environment names.
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=ctx)
    )
    try:
        with opener.open(req, timeout=5) as answer:
            return int(answer.status), answer.read()
    except urllib.error.HTTPError as e:
        return int(e.code), e.read()


def up(
    folder: Path,
    bindir: Path,
    gpu_nodes: int = 2,
    every_log: Path | None = None,
    every_previous_log: Path | None = None,
) -> dict[str, float]:
    """Start everything, wait until it serves, write kubeconfigs and env.json. Returns the
    seconds each step took. ``every_log`` (and ``every_previous_log``, for ``--previous``): a
    CRI log file kwok serves for every container that no Logs object names (the sandbox's;
    tests name their own files)."""
    state = State(folder)
    folder.mkdir(parents=True, exist_ok=True)
    configs = kwok_stages()
    if every_log is not None:
        served: dict[str, object] = {"logsFile": str(every_log), "follow": True}
        if every_previous_log is not None:
            served["previousLogsFile"] = str(every_previous_log)
        cluster_logs = folder / "kwok-cluster-logs.json"
        cluster_logs.write_text(
            json.dumps(
                {
                    "apiVersion": "kwok.x-k8s.io/v1alpha1",
                    "kind": "ClusterLogs",
                    "metadata": {"name": "every-container"},
                    "spec": {"logs": [served]},
                }
            )
        )
        configs.append(cluster_logs)
    pki = folder / "pki"
    timings: dict[str, float] = {}
    t0 = time.monotonic()
    make_pki(pki)
    (folder / "tokens.csv").write_text(
        "".join(
            f'{TOKENS[w]},{USERS[w]},uid-{w},"{"system:masters" if w == "admin" else ""}"\n'
            for w in TOKENS
        )
    )
    timings["pki"] = time.monotonic() - t0
    ports = {name: free_port() for name in ("etcd", "peer", "apiserver", "kcm", "sched", "kwok")}
    server = f"https://127.0.0.1:{ports['apiserver']}"
    ctx = ssl.create_default_context(cafile=str(pki / "ca.crt"))
    for who, token in TOKENS.items():
        state.kubeconfig(who).write_text(kubeconfig(server, pki / "ca.crt", USERS[who], token))
    admin_kc = str(state.kubeconfig("admin"))
    commands: dict[str, list[str]] = {
        "etcd": [
            str(bindir / "etcd"),
            "--name=node0",
            f"--data-dir={folder / 'etcd'}",
            f"--listen-client-urls=http://127.0.0.1:{ports['etcd']}",
            f"--advertise-client-urls=http://127.0.0.1:{ports['etcd']}",
            f"--listen-peer-urls=http://127.0.0.1:{ports['peer']}",
            f"--initial-advertise-peer-urls=http://127.0.0.1:{ports['peer']}",
            f"--initial-cluster=node0=http://127.0.0.1:{ports['peer']}",
            "--unsafe-no-fsync",
            "--quota-backend-bytes=2147483648",
            "--log-level=warn",
            "--listen-metrics-urls=",
        ],
        "kube-apiserver": [
            str(bindir / "kube-apiserver"),
            f"--etcd-servers=http://127.0.0.1:{ports['etcd']}",
            "--bind-address=127.0.0.1",
            f"--secure-port={ports['apiserver']}",
            "--advertise-address=127.0.0.1",
            "--endpoint-reconciler-type=none",
            f"--tls-cert-file={pki / 'server.crt'}",
            f"--tls-private-key-file={pki / 'server.key'}",
            f"--client-ca-file={pki / 'ca.crt'}",
            f"--token-auth-file={folder / 'tokens.csv'}",
            "--authorization-mode=Node,RBAC",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            f"--service-account-key-file={pki / 'sa.pub'}",
            f"--service-account-signing-key-file={pki / 'sa.key'}",
            "--service-cluster-ip-range=10.0.0.0/24",
            "--allow-privileged=true",
            "--kubelet-preferred-address-types=InternalIP",
            f"--cert-dir={folder / 'apiserver'}",
            "--enable-priority-and-fairness=false",
            "--v=0",
        ],
        "kube-controller-manager": [
            str(bindir / "kube-controller-manager"),
            f"--kubeconfig={admin_kc}",
            "--leader-elect=false",
            "--bind-address=127.0.0.1",
            f"--secure-port={ports['kcm']}",
            f"--root-ca-file={pki / 'ca.crt'}",
            f"--service-account-private-key-file={pki / 'sa.key'}",
            "--use-service-account-credentials=false",
            "--kube-api-qps=200",
            "--kube-api-burst=400",
            "--controllers=*,-nodeipam",
            "--concurrent-deployment-syncs=10",
            "--concurrent-replicaset-syncs=10",
        ],
        "kube-scheduler": [
            str(bindir / "kube-scheduler"),
            f"--kubeconfig={admin_kc}",
            "--leader-elect=false",
            "--bind-address=127.0.0.1",
            f"--secure-port={ports['sched']}",
        ],
        "kwok": [
            str(bindir / "kwok"),
            f"--kubeconfig={admin_kc}",
            "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
            "--node-ip=127.0.0.1",
            "--cidr=10.1.0.0/16",
            # kwok's kubelet API on loopback (a self-signed certificate, which the API server
            # does not verify without --kubelet-certificate-authority): pods/log is proxied
            # there and served from the file a Logs object names.
            f"--server-address=127.0.0.1:{ports['kwok']}",
            f"--node-port={ports['kwok']}",
            "--enable-crds=Logs",
            *(f"--config={p}" for p in configs),
        ],
    }
    pids: list[int] = []
    procs: dict[str, subprocess.Popen[bytes]] = {}
    deadline = time.monotonic() + START_TIMEOUT
    try:
        for name in BINARIES:
            log = folder / f"{name}.log"
            proc = subprocess.Popen(
                commands[name],
                stdin=subprocess.DEVNULL,
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
                start_new_session=True,  # survives the caller; down() stops it by pid
                env={**_clean_env(), "HOME": str(folder)},
            )
            pids.append(proc.pid)
            procs[name] = proc
            state.pids.write_text("".join(f"{p}\n" for p in pids))
            t = time.monotonic()
            if name == "etcd":
                health = f"http://127.0.0.1:{ports['etcd']}/health"
                _wait(name, lambda u=health: _get(u)[0] == 200, deadline, proc, log)
            elif name == "kube-apiserver":
                readyz = f"{server}/readyz"
                _wait(
                    name,
                    lambda u=readyz: _get(u, TOKENS["admin"], ctx)[0] == 200,
                    deadline,
                    proc,
                    log,
                )
                from tests.realcluster import bootstrap

                bootstrap.install_kwok_logs_crd(
                    server, TOKENS["admin"], str(pki / "ca.crt"), kwok_logs_crd()
                )  # before kwok starts watching Logs
            timings[name] = time.monotonic() - t
        env = {
            "KDGD_REAL_SERVER": server,
            "KDGD_REAL_STATE": str(folder),
            "KDGD_REAL_CA": str(pki / "ca.crt"),
            **{f"KDGD_REAL_KUBECONFIG_{w.upper()}": str(state.kubeconfig(w)) for w in TOKENS},
            **{f"KDGD_REAL_TOKEN_{w.upper()}": TOKENS[w] for w in TOKENS},
        }
        from tests.realcluster import bootstrap

        _check_alive(folder, procs)

        t = time.monotonic()
        bootstrap.install(server, TOKENS["admin"], str(pki / "ca.crt"), gpu_nodes=gpu_nodes)
        timings["bootstrap"] = time.monotonic() - t
        state.env_file.write_text(json.dumps(env, indent=1))
    except BaseException:
        down(folder)
        raise
    timings["total"] = time.monotonic() - t0
    return timings


def _check_alive(folder: Path, procs: dict[str, subprocess.Popen[bytes]]) -> None:
    """A controller that stops at once (a bad flag) would otherwise only show as pods that never
    come: wait a moment and name it."""
    time.sleep(1.0)
    for name, proc in procs.items():
        if proc.poll() is not None:
            tail = (folder / f"{name}.log").read_text(errors="replace")[-2000:]
            raise ControlPlaneError(f"{name} exited with {proc.returncode}:\n{tail}")


def _clean_env() -> dict[str, str]:
    """The processes' environment: no proxies (everything is loopback), no kubeconfig."""
    drop = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "kubeconfig")
    return {k: v for k, v in os.environ.items() if k.lower() not in drop}


def down(folder: Path, grace: float = 10.0) -> None:
    """SIGTERM every process, in reverse start order; SIGKILL what is left after ``grace``.
    Only processes still running with this state folder in their command line are signalled
    (a pid from an old state file may belong to someone else by now)."""
    state = State(folder)
    if not state.pids.exists():
        return
    pids = [p for p in (int(p) for p in state.pids.read_text().split()) if _ours(p, folder)]
    for pid in reversed(pids):
        _signal(pid, signal.SIGTERM)
    end = time.monotonic() + grace
    while time.monotonic() < end and any(_alive(p) for p in pids):
        time.sleep(0.1)
    for pid in pids:
        if _alive(pid):
            _signal(pid, signal.SIGKILL)
    for pid in pids:
        _reap(pid)
    state.pids.unlink(missing_ok=True)
    state.env_file.unlink(missing_ok=True)
    shutil.rmtree(folder / "etcd", ignore_errors=True)


def _ours(pid: int, folder: Path) -> bool:
    try:
        return str(folder).encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)  # each started its own session: its group is its pid


def _alive(pid: int) -> bool:
    """Running, and not a zombie (a child of ours that exited is reaped here)."""
    with contextlib.suppress(ChildProcessError):
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="controlplane", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("up", "down", "find"))
    parser.add_argument("--state", type=Path, help="state directory (up, down)")
    parser.add_argument("--build", action="store_true", help="build the binaries when missing")
    parser.add_argument("--gpu-nodes", type=int, default=2)
    args = parser.parse_args(argv)
    if args.action == "find":
        found = find_binaries(build=args.build)
        print(found or "")
        return 0 if found else 1
    if args.state is None:
        parser.error("--state is required")
    if args.action == "down":
        down(args.state)
        return 0
    bindir = find_binaries(build=args.build)
    if bindir is None:
        print("controlplane: binaries not built (scripts/control-plane/build.sh)", file=sys.stderr)
        return 3
    try:
        timings = up(args.state, bindir, gpu_nodes=args.gpu_nodes)
    except ControlPlaneError as e:
        print(f"controlplane: {e}", file=sys.stderr)
        return 1
    print(
        json.dumps(
            {"timings": {k: round(v, 2) for k, v in timings.items()}, **State(args.state).read()}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One ``kubectl dgd status NAME`` in phases, timed in this process (a child of
``bench_cluster.py``; KUBECONFIG names the test server): the command's own calls, in its order,
from the click group to the text on stdout, with ``perf_counter`` between them. Prints one JSON
object: milliseconds per phase, and the part of them spent creating dataclasses (each compiles
its generated methods at import).

Usage: ``python bench/status_phases.py NAME`` (stdout: the JSON line; the view goes to stderr).
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()

import dataclasses  # noqa: E402
import importlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from kubectl_dgd.startup import dataclass_code  # noqa: E402 - the class cache, as the console script

dataclass_code.install()

CREATING = [0.0]  # seconds spent in dataclass creation


def _timed(create: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return create(*args, **kwargs)
        finally:
            CREATING[0] += time.perf_counter() - started

    return timed


def main(name: str) -> dict[str, float]:
    process = getattr(dataclasses, "_process_class", None)
    if process is not None:  # private: measured where it exists, else reported as 0
        dataclasses._process_class = _timed(process)  # type: ignore[attr-defined]
    phases: dict[str, float] = {}
    last = [STARTED]

    def phase(label: str) -> None:
        now = time.perf_counter()
        phases[label] = (now - last[0]) * 1000
        last[0] = now

    from kubectl_dgd.startup import gcpolicy

    gcpolicy.loading()
    phase("dataclasses and inspect (click imports both; first here, to time class creation)")
    importlib.import_module("kubectl_dgd.cli.main")
    phase("click and the CLI group (cli/main.py)")
    importlib.import_module("kubectl_dgd.cli.status")
    gcpolicy.running()
    phase("the status command and its options (cli/status.py, flags, deps)")
    from kubectl_dgd.cli.deps import Deps
    from kubectl_dgd.core.views import LiveStatusView
    from kubectl_dgd.usecases.status import status_view

    importlib.import_module("kubectl_dgd.cli.status_live")
    importlib.import_module("kubectl_dgd.usecases.live_status")
    phase("the use case and the status view model (usecases/, core/)")
    from kubectl_dgd.adapters.cluster import Cluster
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings, resolve

    phase("the cluster and kubeconfig adapters")
    deps = Deps(sys.stdin, io.StringIO(), sys.stderr, dict(os.environ))
    resolved = resolve(ConnectionSettings(), deps.environ)
    phase("reading the kubeconfig (file, context, namespace)")
    cluster = Cluster(resolved)
    from kubectl_dgd.adapters.kubeclient import kube, load_transport

    load_transport()
    phase("urllib3 (the client's transport; http.client, ssl, email)")
    kube()
    phase("the client's five modules (kubernetes.client/config; typing_extensions, urllib.request)")
    cluster._api()
    phase("the Configuration from the kubeconfig (client loader, CA file) and the transport")
    graph = cluster.get_graph(name, cluster.namespace)
    phase("the GET: connect, TLS handshake, request, response, JSON decode")
    view = LiveStatusView(status_view(graph, deps.now()), None)
    phase("the view model of the graph")
    deps.print(view, "text")
    phase("the text output (output/ modules and drawing)")
    sys.stderr.write(deps.stdout.getvalue())  # type: ignore[attr-defined]
    phases["in process, all of the above"] = (last[0] - STARTED) * 1000
    phases["of which dataclass creation"] = CREATING[0] * 1000
    return phases


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])), flush=True)
    from kubectl_dgd.startup import gcpolicy

    gcpolicy.exiting()  # as the command's main() does

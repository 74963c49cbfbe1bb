"""kubectl-dgd: tools for NVIDIA Dynamo DynamoGraphDeployments (DGDs)."""

try:  # the first module either entry point loads: a Ctrl-C here ends it as an interruption
    from kubectl_dgd import dataclass_code

    # Before any of our dataclasses is created: their generated methods come from a cache kept
    # beside the byte code instead of being compiled at every start (kubectl_dgd/dataclass_code.py).
    dataclass_code.install()
except KeyboardInterrupt:  # pragma: no cover - timing dependent
    raise SystemExit(130) from None  # Exit.INTERRUPTED (exitcodes.py), before it can be loaded

__version__ = "0.1.0"

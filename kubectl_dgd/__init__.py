"""kubectl-dgd: tools for NVIDIA Dynamo DynamoGraphDeployments (DGDs)."""

from kubectl_dgd import dataclass_code

__version__ = "0.1.0"

# Before any of our dataclasses is created: their generated methods come from a cache kept
# beside the byte code instead of being compiled at every start (kubectl_dgd/dataclass_code.py).
dataclass_code.install()

"""kubectl-dgd: tools for NVIDIA Dynamo DynamoGraphDeployments (DGDs)."""

__version__ = "0.1.0"

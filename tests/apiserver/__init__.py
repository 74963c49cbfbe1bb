"""A kube-apiserver emulation and a simulated Dynamo operator, for tests only (see server.py)."""

from tests.apiserver.fixtures import apiserver  # noqa: F401

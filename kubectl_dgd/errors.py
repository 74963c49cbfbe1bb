"""The project's own exceptions. Each carries the exit code a front end should use.

Validation never raises: it returns findings. These are for I/O and impossible requests.
"""

from kubectl_dgd.exitcodes import Exit


class DgdError(Exception):
    """Base class; ``str(err)`` is the one line shown to the user."""

    exit_code: Exit = Exit.USAGE


class InputError(DgdError):
    """Unreadable or malformed input: a file, a document, a flag value."""

    def __init__(self, message: str, source: str = "", line: int | None = None) -> None:
        self.source = source
        self.line = line
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: {message}" if where else message)


class UsageError(DgdError):
    """A request that cannot be carried out as asked (e.g. --order with --parallel)."""


class RefusedError(DgdError):
    """An operation that admission would reject; nothing was changed."""

    exit_code = Exit.FAILED


class ChangedMeanwhileError(DgdError):
    """Someone else changed a file between our read and our replace; their version is kept."""

    exit_code = Exit.FAILED


class ReconcileError(DgdError):
    """Admission would accept the object, but the operator would fail to reconcile it."""

    exit_code = Exit.FAILED


class NotFoundError(DgdError):
    exit_code = Exit.NOT_FOUND


class NoGraphError(NotFoundError):
    """Readable input holding no DynamoGraphDeployment: what the command works on is not there
    (not malformed input, so not exit 2; not success, so a wrong path does not pass CI)."""

    def __init__(self, where: str, files: int, others: int) -> None:
        read = f"{files} file{'' if files == 1 else 's'} read"
        other = f"{others} other object{'' if others == 1 else 's'}"
        super().__init__(f"no DynamoGraphDeployment in {where} ({read}, {other})")


class GraphNotInFileError(NotFoundError):
    """A readable file without the graph asked for (none, or none of that name): exit 3, as
    NoGraphError and a NAME not on the cluster."""

    def __init__(self, message: str, source: str) -> None:
        self.source = source
        super().__init__(f"{source}: {message}")


class ApiError(DgdError):
    """The API server refused the request or could not be reached."""

    exit_code = Exit.API

    def __init__(self, message: str, status: int | None = None, reason: str = "") -> None:
        self.status = status
        self.reason = reason
        super().__init__(message)


class ConflictError(ApiError):
    """409 Conflict that persisted after bounded retries."""

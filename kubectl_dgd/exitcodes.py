"""Exit codes, in one place. The README's "Exit codes" table mirrors this module."""

from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    # validate: error findings; diff: differences found; why: a problem found;
    # rollout/restart --wait: failed or timed out.
    FAILED = 1
    # Bad flags, unreadable or malformed input.
    USAGE = 2
    # The object (or its CRD) does not exist.
    NOT_FOUND = 3
    # The API server refused or could not be reached (401, 403, 409 after retries, 422, 5xx, TLS, timeout).
    API = 4
    # Interrupted by Ctrl-C.
    INTERRUPTED = 130

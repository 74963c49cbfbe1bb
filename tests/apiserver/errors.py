"""metav1.Status error bodies, shaped and worded as kube-apiserver writes them."""

from __future__ import annotations

from typing import Any

from tests.apiserver.resources import ResourceType


class ApiError(Exception):
    """An error the server answers with a Status body and an HTTP code."""

    def __init__(
        self, code: int, reason: str, message: str, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.details = details
        self.retry_after: int | None = None  # seconds, sent as the Retry-After header

    def status(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
        }
        if self.details is not None:
            body["details"] = self.details
        body["code"] = self.code
        return body


def _details(rt: ResourceType, name: str, kind: str | None = None) -> dict[str, Any]:
    details: dict[str, Any] = {}
    if name:
        details["name"] = name
    if rt.group:
        details["group"] = rt.group
    details["kind"] = kind or rt.plural
    return details


def not_found(rt: ResourceType, name: str) -> ApiError:
    return ApiError(404, "NotFound", f'{rt.qualified} "{name}" not found', _details(rt, name))


def unknown_resource() -> ApiError:
    return ApiError(404, "NotFound", "the server could not find the requested resource", {})


def already_exists(rt: ResourceType, name: str) -> ApiError:
    return ApiError(
        409, "AlreadyExists", f'{rt.qualified} "{name}" already exists', _details(rt, name)
    )


def conflict(rt: ResourceType, name: str, why: str | None = None) -> ApiError:
    why = why or (
        "the object has been modified; please apply your changes to the latest version "
        "and try again"
    )
    message = f'Operation cannot be fulfilled on {rt.qualified} "{name}": {why}'
    return ApiError(409, "Conflict", message, _details(rt, name))


def invalid(rt: ResourceType, name: str, causes: list[tuple[str, str, str]]) -> ApiError:
    """``causes``: (field, reason, message) triples, e.g. ("spec.restart", "FieldValueInvalid",
    "spec.restart: Invalid value: ...")."""
    texts = [message for _, _, message in causes]
    joined = texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"
    group_kind = f"{rt.kind}.{rt.group}" if rt.group else rt.kind
    details = _details(rt, name, kind=rt.kind)
    details["causes"] = [
        {"reason": reason, "message": message, "field": field} for field, reason, message in causes
    ]
    return ApiError(422, "Invalid", f'{group_kind} "{name}" is invalid: {joined}', details)


def webhook_denied(webhook: str, message: str, code: int = 403) -> ApiError:
    """What the API server answers when a validating admission webhook says no."""
    reason = {403: "Forbidden", 422: "Invalid", 400: "BadRequest"}.get(code, "Forbidden")
    return ApiError(code, reason, f'admission webhook "{webhook}" denied the request: {message}')


def patch_rejected() -> ApiError:
    """A JSON patch that cannot be applied (a failed ``test``, a missing path)."""
    return ApiError(
        422, "Invalid", "the server rejected our request due to an error in our request", {}
    )


def bad_request(message: str) -> ApiError:
    return ApiError(400, "BadRequest", message)


def forbidden(rt: ResourceType, verb: str, user: str, namespace: str | None, name: str) -> ApiError:
    target = f'{rt.qualified} "{name}"' if name else rt.qualified
    scope = f'in the namespace "{namespace}"' if namespace else "at the cluster scope"
    message = (
        f'{target} is forbidden: User "{user}" cannot {verb} resource "{rt.plural}" '
        f'in API group "{rt.group}" {scope}'
    )
    return ApiError(403, "Forbidden", message, _details(rt, name))


def forbidden_path(
    group: str, plural: str, verb: str, user: str, namespace: str | None, name: str
) -> ApiError:
    """RBAC's refusal, which comes before the server looks the resource up (a kind that is not
    served is refused all the same)."""
    qualified = f"{plural}.{group}" if group else plural
    target = f'{qualified} "{name}"' if name else qualified
    scope = f'in the namespace "{namespace}"' if namespace else "at the cluster scope"
    message = (
        f'{target} is forbidden: User "{user}" cannot {verb} resource "{plural}" '
        f'in API group "{group}" {scope}'
    )
    details = {"name": name, "group": group, "kind": plural}
    return ApiError(403, "Forbidden", message, details)


def unauthorized() -> ApiError:
    return ApiError(401, "Unauthorized", "Unauthorized")


def unsupported_media_type(content_type: str, accepted: list[str]) -> ApiError:
    message = (
        f"the body of the request was in an unknown format - accepted media types include: "
        f"{', '.join(accepted)}"
    )
    del content_type
    return ApiError(415, "UnsupportedMediaType", message, {})


def method_not_allowed(verb: str) -> ApiError:
    return ApiError(
        405,
        "MethodNotAllowed",
        f"the server does not allow this method on the requested resource ({verb})",
        {},
    )


def internal_error(
    message: str = "an error on the server has prevented the request from succeeding",
) -> ApiError:
    return ApiError(500, "InternalError", f"Internal error occurred: {message}", {})


def too_many_requests(retry_after: int = 1) -> ApiError:
    error = ApiError(
        429,
        "TooManyRequests",
        "Too many requests, please try again later.",
        {"retryAfterSeconds": retry_after},
    )
    error.retry_after = retry_after
    return error


def injected(code: int) -> ApiError:
    """The Status a server answers with an injected failure code."""
    if code == 503:
        return service_unavailable()
    if code == 429:
        return too_many_requests()
    if code == 504:
        return ApiError(
            504, "Timeout", "Timeout: request did not complete within requested timeout", {}
        )
    return internal_error("injected fault")


def service_unavailable() -> ApiError:
    return ApiError(
        503, "ServiceUnavailable", "the server is currently unable to handle the request", {}
    )


def expired(requested: int, oldest: int) -> ApiError:
    return ApiError(410, "Expired", f"too old resource version: {requested} ({oldest})")

"""The plugin's parameters: one table, read from everywhere Argo CD can put a value.

Precedence, highest first (the first source that has a non-empty value wins):

1. ``ARGOCD_APP_PARAMETERS``: the JSON list of parameters set in the Application (``null``
   when it sets none: Argo CD marshals its empty list as JSON ``null`` and always sends it).
2. ``PARAM_<NAME>``: Argo CD's per-parameter copy of the same (also handy for local runs).
3. ``ARGOCD_ENV_DGD_<NAME>``: ``spec.source.plugin.env`` of the Application (prefixed since 2.4).
4. ``DGD_<NAME>``: the sidecar's own environment, i.e. cluster-wide defaults set by the operator
   of Argo CD, and the unprefixed form plugins used before 2.4.

Argo CD sends only parameters set explicitly, never the announced defaults, so the defaults
below are applied here. The same table feeds plugin.yaml's announcements (a test checks them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from kubectl_dgd.core.profile import NEWEST_VERSION, SUPPORTED_VERSIONS, Profile, release_of
from kubectl_dgd.errors import UsageError

APP_PARAMETERS = "ARGOCD_APP_PARAMETERS"
ENV_PREFIX = "DGD_"
ARGOCD_ENV_PREFIX = "ARGOCD_ENV_"
# Parameters the dynamic announcement shows for information; setting them changes nothing.
INFORMATIONAL = ("graphs", "components.")

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True)
class Parameter:
    """One parameter the plugin announces to Argo CD's UI."""

    name: str
    title: str
    tooltip: str
    default: str
    choices: tuple[str, ...] = ()

    @property
    def env(self) -> str:
        return ENV_PREFIX + param_env_suffix(self.name)


PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "restart-id",
        "Restart id",
        "Set spec.restart.id on every graph to request a restart; change it to restart again. "
        "Only for graphs that already exist: admission rejects spec.restart on create.",
        "",
    ),
    Parameter(
        "restart-strategy",
        "Restart strategy",
        "Sequential (one component at a time, the operator's default order) or Parallel. "
        "Graphs with LPX components must use Parallel. Empty: Sequential, or Parallel for LPX.",
        "",
        ("", "Sequential", "Parallel"),
    ),
    Parameter(
        "provider",
        "Workload provider",
        "auto decides as the operator's mutating webhook does (Grove unless disabled); "
        "grove or component forces the pathway the operator of this cluster uses.",
        "auto",
        ("auto", "grove", "component"),
    ),
    Parameter(
        "operator-version",
        "Dynamo operator version",
        f"The operator release of the target cluster ({', '.join(SUPPORTED_VERSIONS)}): selects its "
        f"admission rules, messages and CRD. Default {NEWEST_VERSION}, the newest known.",
        NEWEST_VERSION,
        SUPPORTED_VERSIONS,
    ),
    Parameter(
        "lpx",
        "Operator has LPX enabled",
        "true when the Dynamo operator runs with lpx.enabled; LPX components are refused otherwise.",
        "false",
        ("true", "false"),
    ),
    Parameter(
        "strict",
        "Strict validation",
        "true turns unknown fields from warnings into errors that fail the sync.",
        "false",
        ("true", "false"),
    ),
    Parameter(
        "children",
        "Children preview",
        "preview adds one ConfigMap per graph with the child resources the operator will create "
        "and the impact summary, so the diff view shows what a sync changes; none adds nothing.",
        "none",
        ("none", "preview"),
    ),
)

BY_NAME: dict[str, Parameter] = {p.name: p for p in PARAMETERS}


def param_env_suffix(name: str) -> str:
    """Argo CD's rule for ``PARAM_`` names: upper case, anything outside [A-Z0-9_] becomes ``_``."""
    return re.sub(r"[^A-Z0-9_]", "_", name.upper())


@dataclass(frozen=True)
class Settings:
    """What the application's parameters and environment ask of `generate`."""

    restart_id: str | None = None
    restart_strategy: Literal["Sequential", "Parallel"] | None = None
    provider: Literal["grove", "component"] | None = None
    operator_version: str = NEWEST_VERSION
    lpx: bool = False
    strict: bool = False
    children: Literal["none", "preview"] = "none"
    warnings: tuple[str, ...] = field(default=())

    def profile(self, api_versions: frozenset[str] = frozenset()) -> Profile:
        """The operator settings to validate against. ``api_versions`` is KUBE_API_VERSIONS:
        when Argo CD sent it, Grove and LWS count as available only if their APIs are served."""
        grove = "grove.io/v1alpha1" in api_versions if api_versions else True
        lws = (
            any(v.startswith("leaderworkerset.x-k8s.io/") for v in api_versions)
            if api_versions
            else True
        )
        return Profile(
            provider=self.provider,
            grove=grove,
            lws=lws,
            lpx=self.lpx,
            strict=self.strict,
            operator_version=self.operator_version,
        )


def _explicit(env: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Values from ARGOCD_APP_PARAMETERS, and warnings for names we do not know."""
    raw = env.get(APP_PARAMETERS, "")
    if not raw.strip():
        return {}, []
    try:
        entries = json.loads(raw)
    except json.JSONDecodeError as err:
        raise UsageError(
            f"{APP_PARAMETERS} is not valid JSON ({err.msg} at character {err.pos})"
        ) from None
    except RecursionError:  # Argo CD's list is two levels deep, a map three
        raise UsageError(
            f"{APP_PARAMETERS} is nested too deeply to be Argo CD's parameter list"
        ) from None
    if entries is None:  # what Argo CD sends for an Application without parameters
        return {}, []
    if not isinstance(entries, list):
        raise UsageError(f"{APP_PARAMETERS} must be a JSON list of parameters")
    values: dict[str, str] = {}
    warnings: list[str] = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise UsageError(f"{APP_PARAMETERS}: every entry needs a name")
        name = entry["name"]
        if name not in BY_NAME:
            if not name.startswith(INFORMATIONAL):
                warnings.append(f"unknown parameter {name!r} ignored")
            continue
        if "string" not in entry:
            raise UsageError(f"parameter {name}: must be a string, not an array or a map")
        value = entry["string"]
        if not isinstance(value, str):  # str() would stamp "None" or "5" as a restart id
            raise UsageError(f"parameter {name}: must be a string, not {_json_type(value)}")
        values[name] = value
    return values, warnings


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "an array" if isinstance(value, list) else "a map"


def lookup(env: Mapping[str, str], explicit: Mapping[str, str], param: Parameter) -> str | None:
    """The raw value of ``param`` and nothing else: empty means unset, as Argo CD drops empties."""
    suffix = param_env_suffix(param.name)
    for value in (
        explicit.get(param.name),
        env.get("PARAM_" + suffix),
        env.get(ARGOCD_ENV_PREFIX + param.env),
        env.get(param.env),
    ):
        if value is not None and value.strip():
            return value.strip()
    return None


def _choice(param: Parameter, value: str) -> str:
    for choice in param.choices:
        if choice and value.lower() == choice.lower():
            return choice
    shown = ", ".join(c for c in param.choices if c)
    raise UsageError(f"parameter {param.name}: {value!r} is not one of {shown}")


def _version(value: str) -> str:
    """X.Y of a supported release; X.Y.Z and a leading v are accepted."""
    release = release_of(value)
    if release is None or release not in SUPPORTED_VERSIONS:
        return _choice(BY_NAME["operator-version"], value)  # raises with the supported list
    return release


def _bool(param: Parameter, value: str) -> bool:
    low = value.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise UsageError(f"parameter {param.name}: {value!r} is not true or false")


def read_settings(env: Mapping[str, str]) -> Settings:
    """Settings from Argo CD's environment; a malformed value raises UsageError naming it."""
    explicit, warnings = _explicit(env)

    def get(name: str) -> str | None:
        return lookup(env, explicit, BY_NAME[name])

    restart_id = get("restart-id")
    strategy = get("restart-strategy")
    provider = get("provider")
    operator_version = get("operator-version")
    lpx = get("lpx")
    strict = get("strict")
    children = get("children")
    if strategy is not None and restart_id is None:
        warnings.append("restart-strategy is set but restart-id is not; no restart is requested")
    return Settings(
        restart_id=restart_id,
        restart_strategy=_choice(BY_NAME["restart-strategy"], strategy) if strategy else None,  # type: ignore[arg-type]
        provider=None
        if provider is None or provider.lower() == "auto"
        else _choice(BY_NAME["provider"], provider),  # type: ignore[arg-type]
        operator_version=_version(operator_version) if operator_version else NEWEST_VERSION,
        lpx=_bool(BY_NAME["lpx"], lpx) if lpx else False,
        strict=_bool(BY_NAME["strict"], strict) if strict else False,
        children=_choice(BY_NAME["children"], children) if children else "none",  # type: ignore[arg-type]
        warnings=tuple(warnings),
    )


def api_versions(env: Mapping[str, str]) -> frozenset[str]:
    """KUBE_API_VERSIONS as a set (empty when Argo CD did not send it, e.g. for parameters)."""
    return frozenset(v.strip() for v in env.get("KUBE_API_VERSIONS", "").split(",") if v.strip())

"""The ``kubectl dgd list`` table (and ``-o wide``, ``-o name``)."""

from __future__ import annotations

from kubectl_dgd.core.listing import GraphRow


def human_age(seconds: int | None) -> str:
    """kubectl's HumanDuration: 45s, 3m20s, 15m, 5h30m, 20h, 3d4h, 120d, 2y..."""
    if seconds is None:
        return "<unknown>"
    s = max(seconds, 0)
    minutes, hours, days = s // 60, s // 3600, s // 86400
    if s < 120:
        return f"{s}s"
    if minutes < 10:
        return f"{minutes}m{s % 60}s" if s % 60 else f"{minutes}m"
    if minutes < 180:
        return f"{minutes}m"
    if hours < 8:
        return f"{hours}h{minutes % 60}m" if minutes % 60 else f"{hours}h"
    if hours < 48:
        return f"{hours}h"
    if hours < 192:
        return f"{days}d{hours % 24}h" if hours % 24 else f"{days}d"
    if days < 365 * 2:
        return f"{days}d"
    years = days // 365
    if years < 8:
        return f"{years}y{days % 365}d" if days % 365 else f"{years}y"
    return f"{years}y"


def _cells(row: GraphRow, all_namespaces: bool, wide: bool) -> list[str]:
    cells = [row.namespace] if all_namespaces else []
    cells += [
        row.name,
        row.state,
        f"{row.ready_components}/{row.components}",
        f"{row.ready_replicas}/{row.desired_replicas}",
        "?" if row.gpus is None else str(row.gpus),
        row.restart,
        row.rollout,
        human_age(row.age_seconds),
    ]
    if wide:
        cells += [row.provider, row.backend, row.ready_reason]
    return cells


def render_table(
    rows: list[GraphRow], all_namespaces: bool, wide: bool = False, headers: bool = True
) -> str:
    head = ["NAMESPACE"] if all_namespaces else []
    head += ["NAME", "STATE", "READY", "REPLICAS", "GPUS", "RESTART", "ROLLOUT", "AGE"]
    if wide:
        head += ["PROVIDER", "BACKEND", "REASON"]
    table = [head] if headers else []
    table += [_cells(r, all_namespaces, wide) for r in rows]
    if not table:
        return ""
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = [
        "   ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in table
    ]
    return "\n".join(lines) + "\n"


def render_names(rows: list[GraphRow]) -> str:
    return "".join(f"dynamographdeployment.nvidia.com/{r.name}\n" for r in rows)

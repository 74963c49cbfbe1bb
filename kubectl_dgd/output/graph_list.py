"""The ``kubectl dgd list`` table (and ``-o wide``, ``-o name``)."""

from __future__ import annotations

from kubectl_dgd.core.listing import GraphRow
from kubectl_dgd.core.timefmt import human_age


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

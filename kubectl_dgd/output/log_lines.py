"""``kubectl dgd logs`` lines as text (the pod first, a colour per pod on a terminal) or as
JSON lines (-o json: one object per line, as stern's). Built once, at flag time."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from kubectl_dgd.output.style import Color, Style

_COLOURS: tuple[Color, ...] = ("cyan", "green", "yellow", "bold")
LOG_FORMATS = ("text", "json")


@dataclass
class LinePrinter:
    """One log line (usecases.logs.LogLine) -> its output line."""

    output: str
    style: Style
    all_containers: bool = False
    _colours: dict[str, Color] = field(default_factory=dict)

    @property
    def needs_timestamps(self) -> bool:
        """Every JSON line carries the kubelet's timestamp."""
        return self.output == "json"

    def __call__(self, line: Any) -> str:
        if self.output == "json":
            return json.dumps(asdict(line)) + "\n"
        colour = self._colours.setdefault(line.pod, _COLOURS[len(self._colours) % len(_COLOURS)])
        prefix = self.style(line.pod, colour)
        if self.all_containers:
            prefix += " " + self.style(line.container, "dim")
        stamp = f"{line.timestamp} " if line.timestamp else ""
        return f"{prefix} {stamp}{line.message}\n"

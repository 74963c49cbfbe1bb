"""Text written now, copied out later: in memory while small, in a temporary file once large.

``render`` must print nothing when a later graph fails (one error, exit 2, empty stdout), yet
must not hold the children of every graph in memory: each graph's text goes here as soon as it
is rendered, and the whole reaches stdout only once every graph has rendered.
"""

from __future__ import annotations

from typing import IO, Any

# Characters held in memory before the text moves to a temporary file.
IN_MEMORY_CHARS = 4 * 1024 * 1024


class TextSpool:
    def __init__(self, limit: int = IN_MEMORY_CHARS) -> None:
        self._parts: list[str] = []
        self._size = 0
        self._limit = limit
        self._file: IO[str] | None = None

    def write(self, text: str) -> None:
        if self._file is not None:
            self._file.write(text)
            return
        self._parts.append(text)
        self._size += len(text)
        if self._size > self._limit:
            import tempfile

            # Closed by close(): the file outlives this call.
            self._file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")  # noqa: SIM115
            self._file.writelines(self._parts)
            self._parts = []

    def copy_to(self, stream: Any) -> None:
        """Everything written, in order, onto ``stream``; the spool is then closed."""
        if self._file is None:
            stream.write("".join(self._parts))
            self._parts = []
            return
        self._file.seek(0)
        while chunk := self._file.read(1 << 20):
            stream.write(chunk)
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._parts = []

    def __enter__(self) -> TextSpool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

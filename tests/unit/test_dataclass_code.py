"""The cache of our dataclasses' generated methods (kubectl_dgd/startup/dataclass_code.py).

A probe package stands in for ours (the cache serves one package by name), so the tests write
only below tmp_path; the last tests run the real console script in fresh processes.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import marshal
import os
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.startup import dataclass_code

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "manifests" / "examples" / "vllm-agg.yaml"

PROBE = """
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


@dataclass
class Box:
    name: str
    items: list[int] = field(default_factory=list)
    size: int = field(default=1, repr=False)
"""


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package ``dcprobe`` with one module of dataclasses, served by the cache."""
    package = tmp_path / "dcprobe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "shapes.py").write_text(PROBE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(dataclass_code, "PACKAGE", "dcprobe")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    for table in ("_cached", "_used", "_files"):
        monkeypatch.setattr(dataclass_code, table, {})
    monkeypatch.setattr(dataclass_code, "_missed", set())
    dataclass_code.install()
    yield package / "shapes.py"
    for name in ("dcprobe.shapes", "dcprobe"):
        sys.modules.pop(name, None)


def _fresh_import() -> Any:
    """Import the probe module as a new process would: its classes created afresh."""
    sys.modules.pop("dcprobe.shapes", None)
    dataclass_code._cached.clear()
    dataclass_code._used.clear()
    return importlib.import_module("dcprobe.shapes")


def _cache_of(module: Path) -> Path:
    path = dataclass_code.cache_file(str(module))
    assert path is not None
    return Path(path)


def _behaves(shapes: Any) -> None:
    p = shapes.Point(1, tags=("a",))
    assert p == shapes.Point(1, 0, ("a",)) and p != shapes.Point(2)
    assert hash(p) == hash(shapes.Point(1, 0, ("a",)))
    assert repr(p) == "Point(x=1, y=0, tags=('a',))"
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 5
    assert dataclasses.replace(p, y=3) == shapes.Point(1, 3, ("a",))
    b, c = shapes.Box("b"), shapes.Box("c")
    b.items.append(1)
    assert c.items == [] and repr(b) == "Box(name='b', items=[1])"
    assert dataclasses.asdict(b) == {"name": "b", "items": [1], "size": 1}
    with pytest.raises(TypeError):
        shapes.Box()


def test_the_first_process_compiles_and_writes_the_next_one_reads(probe: Path) -> None:
    shapes = _fresh_import()
    _behaves(shapes)
    assert dataclass_code._missed == {"dcprobe.shapes"}
    dataclass_code.save()
    cache = _cache_of(probe)
    magic, form, codes = marshal.loads(cache.read_bytes())
    assert (magic, form) == (importlib.util.MAGIC_NUMBER, dataclass_code.FORM)
    assert len(codes) >= 7  # Point: init, repr, eq, hash, setattr, delattr; Box: init, repr, eq
    assert all("def __create_fn__" in text for text in codes)

    again = _fresh_import()
    assert dataclass_code._missed == set()  # nothing compiled
    _behaves(again)
    written = cache.stat().st_mtime_ns
    dataclass_code.save()
    assert cache.stat().st_mtime_ns == written  # a process that missed nothing writes nothing


def test_an_edited_class_misses_and_the_cache_is_rewritten(probe: Path) -> None:
    _fresh_import()
    dataclass_code.save()
    probe.write_text(PROBE.replace("    y: int = 0\n", "    y: int = 0\n    z: int = 9\n"))
    shapes = _fresh_import()
    assert shapes.Point(1) == shapes.Point(1, 0, 9) and shapes.Point(1).z == 9
    assert dataclass_code._missed == {"dcprobe.shapes"}
    dataclass_code.save()
    _, _, codes = marshal.loads(_cache_of(probe).read_bytes())
    point_reprs = [t for t in codes if "def __repr__" in t and "x={self.x!r}" in t]
    assert len(point_reprs) == 1 and "z={self.z!r}" in point_reprs[0]  # the old text is gone


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00garbage",
        marshal.dumps((b"\x00\x00\r\n", 2, {})),  # another interpreter's magic number
        marshal.dumps([1, 2]),
        marshal.dumps((importlib.util.MAGIC_NUMBER, 2, ["not", "a", "dict"])),
        # the first form (no form number): its code was compiled with __future__ annotations
        marshal.dumps((importlib.util.MAGIC_NUMBER, {})),
    ],
    ids=["empty", "garbage", "other-magic", "wrong-shape", "not-a-dict", "first-form"],
)
def test_a_damaged_or_foreign_cache_means_plain_compilation(probe: Path, content: bytes) -> None:
    cache = _cache_of(probe)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(content)
    shapes = _fresh_import()
    _behaves(shapes)
    assert dataclass_code._missed == {"dcprobe.shapes"}
    dataclass_code.save()  # and the file is replaced by a good one
    assert marshal.loads(cache.read_bytes())[0] == importlib.util.MAGIC_NUMBER


def test_no_write_without_bytecode_caching_or_where_the_directory_is_read_only(
    probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fresh_import()
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    dataclass_code.save()
    assert not _cache_of(probe).exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache_dir = _cache_of(probe).parent
    if cache_dir.exists():
        for leftover in cache_dir.iterdir():
            leftover.unlink()
        cache_dir.rmdir()
    cache_dir.write_text("")  # a place no file can be written below (as root too)
    dataclass_code.save()  # no error
    assert sorted(p.name for p in cache_dir.parent.iterdir()) == [
        "__init__.py",
        "__pycache__",
        "shapes.py",
    ]


def test_other_modules_dataclasses_are_compiled_by_the_builtin(probe: Path) -> None:
    @dataclasses.dataclass(frozen=True)
    class Local:
        a: int

    assert Local(1) == Local(1)
    assert __name__ not in dataclass_code._used and "tests" not in str(dataclass_code._files)
    # As dataclasses' own exec compiles them: the field's annotation (the text "int", under
    # this file's __future__ import), not dataclass_code's __future__ flags.
    assert Local.__init__.__annotations__ == {"a": "int", "return": None}


def _init_annotations(shapes: Any) -> list[dict[str, Any]]:
    return [dict(cls.__init__.__annotations__) for cls in (shapes.Point, shapes.Box)]


def test_cached_uncached_and_plain_methods_have_the_same_annotations(
    probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache compiles a method's text as ``exec`` in ``dataclasses`` would, without the
    ``from __future__ import annotations`` of its own module: the annotations are the fields'
    types, equal cached or not, and ``typing.get_type_hints`` resolves them."""
    uncached = _init_annotations(_fresh_import())
    assert dataclass_code._missed == {"dcprobe.shapes"}
    dataclass_code.save()
    shapes = _fresh_import()
    assert dataclass_code._missed == set()
    cached = _init_annotations(shapes)
    monkeypatch.setattr(dataclass_code, "PACKAGE", "not-this-package")  # the builtin's path
    plain = _init_annotations(_fresh_import())
    assert uncached == cached == plain
    assert cached[0] == {"x": "int", "y": "int", "tags": "tuple[str, ...]", "return": None}
    hints = typing.get_type_hints(shapes.Point.__init__)
    assert hints == {"x": int, "y": int, "tags": tuple[str, ...], "return": type(None)}
    assert typing.get_type_hints(shapes.Box.__init__)["items"] == list[int]


def _env(prefix: Path) -> dict[str, str]:
    # The cache is a start-up trick: on whatever DGD_PLAIN_STARTUP the suite runs with.
    drop = ("PYTHONDONTWRITEBYTECODE", "DGD_PLAIN_STARTUP")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)  # keep the checkout's __pycache__ out of it
    return env


def _caches(prefix: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in prefix.rglob("*" + dataclass_code.SUFFIX)}


def test_the_console_script_fills_the_cache_once_then_only_reads_it(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "kubectl-dgd"
    run = [str(script), "validate", str(EXAMPLE)]
    first = subprocess.run(run, env=_env(tmp_path), capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr
    written = _caches(tmp_path)
    names = {p.name.split(".")[0] for p in written}
    assert {"findings", "report", "profile"} <= names
    second = subprocess.run(run, env=_env(tmp_path), capture_output=True, text=True, check=False)
    assert (second.returncode, second.stdout) == (0, first.stdout)
    assert _caches(tmp_path) == written  # nothing missed, nothing rewritten


def test_fill_caches_every_module_with_dataclasses(tmp_path: Path) -> None:
    code = "from kubectl_dgd.startup import dataclass_code as c; print(c.fill())"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout.strip()) == (0, "[]"), proc.stderr
    declaring = {
        p.stem
        for p in (ROOT / "kubectl_dgd").rglob("*.py")
        if "@dataclass" in p.read_text() and "\n@dataclass" in p.read_text()
    }
    cached = {p.name.split(".")[0] for p in _caches(tmp_path)}
    assert declaring <= cached, declaring - cached


def test_every_dataclass_of_the_package_has_a_docstring() -> None:
    """Without one, ``dataclasses`` builds ``__doc__`` from ``inspect.signature`` at every start."""
    import ast

    missing = []
    for path in sorted((ROOT / "kubectl_dgd").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ClassDef) or ast.get_docstring(node) is not None:
                continue
            names = {
                getattr(d.func if isinstance(d, ast.Call) else d, "id", "")
                for d in node.decorator_list
            }
            if "dataclass" in names:
                missing.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert missing == []


def test_dataclasses_stays_unloaded_until_asked_for_and_then_runs_with_the_cache() -> None:
    code = (
        "import sys, kubectl_dgd\n"
        "from kubectl_dgd.startup import dataclass_code\n"
        "from kubectl_dgd.startup.deferred import is_deferred\n"
        "print('dataclasses' in sys.modules)\n"  # importing the package installs nothing
        "dataclass_code.install()\n"  # as the console scripts do (startup/process.py)
        "print(is_deferred(sys.modules['dataclasses']))\n"
        "from dataclasses import dataclass\n"
        "import dataclasses\n"
        "print(is_deferred(dataclasses), dataclasses.exec is dataclass_code._exec)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.split() == ["False", "True", "False", "True"], proc.stderr

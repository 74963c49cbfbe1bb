"""The methods ``@dataclass`` generates for our classes, compiled once and kept beside the byte code.

Up to Python 3.13, ``dataclasses`` writes each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` and frozen ``__setattr__``/``__delattr__`` as source text and compiles it with
``exec`` every time the class is created, that is at every import: 0.3-0.6 ms a class, which for
a command that creates 20 to 60 of them is more than any other single part of its start-up.
Python's byte-code cache does not cover that text. This module does, the same way: the first
process to create a module's dataclasses compiles their text as usual and, at exit, writes the
code objects (``marshal``, as a ``.pyc`` holds them) next to the module's ``.pyc``; later
processes look the text up there and run the cached code, which is what the compiler would have
produced for that exact text. The text is the key, so an edited class simply misses and is
compiled afresh; a file from another interpreter (magic number), a damaged or unreadable file,
a read-only install or ``PYTHONDONTWRITEBYTECODE`` each mean plain compilation, never an error.

Only our own modules (``kubectl_dgd.*``) go through the cache; every other caller of ``exec``
inside ``dataclasses`` gets the builtin unchanged. ``fill()`` imports every module of the
package once, so an image built with ``compileall`` fills the cache at build time too
(argocd-plugin/Dockerfile does).
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import importlib.util
import marshal
import os
import sys
from types import CodeType
from typing import Any

PACKAGE = "kubectl_dgd"
SUFFIX = ".dataclasses"  # beside "<module>.<cache tag>.pyc" in the module's __pycache__
# The cache's own format: raised when what a cached text compiles to changes (2: compiled
# without this module's __future__ flags), so older files are read as missing.
FORM = 2

_builtin_exec = builtins.exec
_cached: dict[str, dict[str, CodeType]] = {}  # module name -> source text -> code, from disk
_used: dict[str, dict[str, CodeType]] = {}  # what this process compiled or looked up
_missed: set[str] = set()  # modules whose cache file lacked a text this process needed
_files: dict[str, str | None] = {}  # module name -> its cache file (None: no place for one)


def cache_file(module_file: str) -> str | None:
    """Where the cache of the module at ``module_file`` lives (None: not a source module)."""
    if not module_file.endswith(".py"):
        return None
    try:
        return importlib.util.cache_from_source(module_file).removesuffix(".pyc") + SUFFIX
    except (NotImplementedError, ValueError):  # no cache tag: byte code caching is off
        return None


def _load(module: str, path: str | None) -> dict[str, CodeType]:
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            magic, form, codes = marshal.loads(fh.read())  # marshal.load reads in small pieces
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if magic != importlib.util.MAGIC_NUMBER or form != FORM or not isinstance(codes, dict):
        return {}
    return codes


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    name = globals.get("__name__") if isinstance(globals, dict) else None
    if (
        not isinstance(source, str)
        or not isinstance(name, str)
        or not (name == PACKAGE or name.startswith(PACKAGE + "."))
    ):
        if isinstance(source, str):  # exec would inherit this module's __future__ flags
            source = compile(source, "<string>", "exec", dont_inherit=True)
        _builtin_exec(source, globals, locals)
        return
    if name not in _cached:
        module_file = globals.get("__file__")
        _files[name] = cache_file(module_file) if isinstance(module_file, str) else None
        _cached[name] = _load(name, _files[name])
    code = _cached[name].get(source)
    if code is None:
        # What exec(source) compiles: exec inherits no __future__ flag from its caller, and
        # neither may this (annotations would become strings naming dataclasses' locals).
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _missed.add(name)
    _used.setdefault(name, {})[source] = code
    _builtin_exec(code, globals, locals)


def save() -> None:
    """Write the cache of each module that missed (atomically: a reader sees the old or the new
    file whole). Runs at exit; a failure to write costs the next process a compilation only."""
    if sys.dont_write_bytecode:
        return
    for name in sorted(_missed):
        path = _files.get(name)
        if path is None:
            continue
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(temporary, "wb") as fh:
                fh.write(marshal.dumps((importlib.util.MAGIC_NUMBER, FORM, _used[name])))
            os.replace(temporary, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    _missed.clear()


def install() -> None:
    """Route ``dataclasses``' compilations of our modules' methods through the cache."""
    module = sys.modules.get("dataclasses")
    if module is None:  # not loaded yet (``--help`` never loads it): entered deferred, so that
        # its code runs with our exec among its globals
        from kubectl_dgd.startup.deferred import defer

        module = defer("dataclasses")
    if vars(module).get("exec") is not _exec:
        vars(module)["exec"] = _exec  # a module global shadows the builtin it calls
        atexit.register(save)


def fill() -> list[str]:
    """Import every module of the package, so that each one's dataclasses are cached; returns
    the modules skipped because a package they import is not installed (the Argo CD image has
    no kubernetes client or deepdiff)."""
    import pkgutil

    install()
    package = importlib.import_module(PACKAGE)
    skipped = []
    for info in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
        if info.name.endswith(".__main__"):  # running it would run the command line
            continue
        try:
            importlib.import_module(info.name)
        except ModuleNotFoundError:
            skipped.append(info.name)
    return skipped

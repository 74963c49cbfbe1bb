"""Modules entered in ``sys.modules`` before their code runs; it runs, in place, at the first
name asked of them that is not there yet.

For start-up time: a module that something imports but may never use (the CEL extension's
``logging``, the ``kubernetes`` package ``__init__`` modules) costs nothing until it is used,
and then it is the same module object, run as an import would have run it. A submodule imported
meanwhile is not "asked for" (the import system sets it on its parent), so a package's
submodules load without its ``__init__``.

Process-wide import machinery (it looks modules up on disk), so it sits beside gcpolicy.py, not
in ``core``; core's CEL environment and the client adapter both use it.
"""

from __future__ import annotations

import _thread  # not threading: its import costs 0.7 ms, and only a lock is needed
import importlib
import importlib.machinery
import importlib.util
import sys
import types
from typing import Any

_LOCK = _thread.RLock()  # the first use may come from a worker thread
_PYTHON_LOADERS = (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader)


class DeferredModule(types.ModuleType):
    """A module whose code has not run yet."""

    def __getattr__(self, name: str) -> Any:
        with _LOCK:
            if type(self) is DeferredModule:
                self.__class__ = types.ModuleType  # type: ignore[assignment]  # once, no recursion
                spec = self.__spec__
                assert spec is not None and spec.loader is not None
                spec.loader.exec_module(self)
        return getattr(self, name)


def defer(name: str) -> types.ModuleType:
    """``sys.modules[name]``: the module already there, else the module entered deferred (a
    dotted name's parent must be loaded or deferred already)."""
    with _LOCK:
        module = sys.modules.get(name)
        if module is not None:
            return module
        spec = importlib.util.find_spec(name)  # a deferred parent's code is not run for this
        if spec is None or spec.loader is None:
            raise ImportError(f"no module named {name!r}", name=name)
        if not isinstance(spec.loader, _PYTHON_LOADERS):  # an extension runs as it is created
            return importlib.import_module(name)
        module = importlib.util.module_from_spec(spec)
        module.__class__ = DeferredModule
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)
        return module


def is_deferred(module: types.ModuleType) -> bool:
    return isinstance(module, DeferredModule)

"""Modules entered in ``sys.modules`` before their code runs; it runs, in place, at the first
name asked of them that is not there yet.

For start-up time: a module that something imports but may never use (the CEL extension's
``logging``, the ``kubernetes`` package ``__init__`` modules) costs nothing until it is used,
and then it is the same module object, run as an import would have run it. A submodule imported
meanwhile is not "asked for" (the import system sets it on its parent), so a package's
submodules load without its ``__init__``.

The protocol is the standard library's ``importlib.util.LazyLoader``'s: the module's class
says it is not loaded yet, and the first access runs the loader under a lock. A thread that
asks while another runs the code waits for it (it would otherwise see a module half run); the
thread running the code, asking again (a cycle), gets the partially initialised module's
``AttributeError``, as an import would give it. A load that fails leaves ``sys.modules`` as a
failed import does, without the module; the next import runs it afresh. Unlike LazyLoader, the
trigger is a *missing* name (``__getattr__``), so reading ``__spec__`` or ``__path__`` never
runs the code, and a loaded module is a plain ``ModuleType`` with no hook left on it.

Process-wide import machinery (it looks modules up on disk), so it sits in ``startup``, not in
``core``; the entry points and the client adapter use it.
"""

from __future__ import annotations

import _thread  # not threading: its import costs 0.7 ms, and only a lock is needed
import importlib
import importlib.machinery
import importlib.util
import sys
import types
from typing import Any

# One lock for every deferred module: a module's code may ask for another deferred module
# (re-entrant), and two threads loading two modules that ask for each other cannot deadlock.
_LOCK = _thread.RLock()
_LOADING: set[str] = set()  # modules whose code is running now (in the thread holding _LOCK)
_PYTHON_LOADERS = (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader)


class DeferredModule(types.ModuleType):
    """A module whose code has not run yet."""

    def __getattr__(self, name: str) -> Any:
        module = self.__name__
        with _LOCK:
            if type(self) is DeferredModule:
                if module in _LOADING:  # asked by its own code, in this thread: a cycle
                    raise AttributeError(
                        f"partially initialized module {module!r} has no attribute {name!r}",
                        name=name,
                        obj=self,
                    )
                _run(self)
        return getattr(self, name)


def _run(module: DeferredModule) -> None:
    """Run the module's code in place (``_LOCK`` held): a plain module after, or gone from
    ``sys.modules`` and its parent if the code raised."""
    spec = module.__spec__
    assert spec is not None and spec.loader is not None
    _LOADING.add(module.__name__)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        _forget(module)
        raise
    finally:
        _LOADING.discard(module.__name__)
        # Loaded, or failed: either way no longer deferred (a failed module's names stay as far
        # as its code got, as with a failed import that someone kept a reference to).
        module.__class__ = types.ModuleType  # type: ignore[assignment]


def _forget(module: types.ModuleType) -> None:
    """What the import system does when a module's code raises: the entry goes."""
    name = module.__name__
    if sys.modules.get(name) is module:
        del sys.modules[name]
    parent, _, child = name.rpartition(".")
    if parent and getattr(sys.modules.get(parent), child, None) is module:
        delattr(sys.modules[parent], child)


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

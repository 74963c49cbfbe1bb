"""The ``cel`` library's compiled extension, loaded without the package's ``__init__``.

A start-up trick (off with ``DGD_PLAIN_STARTUP=1``): ``import cel`` runs the package's
``__init__``, which imports its command line (prompt_toolkit: about 170 ms of a ``validate``).
The extension module beside it (``cel/cel.*.so``) is what the checks call, so the front ends hand
``load`` to ``core.validate.cel_env.use_loader``: it loads the extension by its path and falls
back to ``import cel`` for any other layout. ``tests/unit/test_cel_layer.py`` holds the two
loaders equal on every function and sample the CEL layer uses.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType

from kubectl_dgd.core.validate import cel_env
from kubectl_dgd.startup.deferred import defer


def install() -> None:
    """Validation loads the library with ``load`` (from here on, in this process)."""
    cel_env.use_loader(load)


def load() -> ModuleType:
    """The compiled extension module, or the package where there is no loose one."""
    # The extension imports logging (its Rust log bridge) and uses it only when a message is
    # logged, which checking a graph never does: the module loads then, not at every start-up.
    defer("logging")
    return extension() or importlib.import_module("cel")


def extension() -> ModuleType | None:
    """``cel/cel.*.so`` loaded as the module ``cel.cel``, outside ``sys.modules`` (None: not
    found, or not loadable)."""
    try:
        spec = importlib.util.find_spec("cel")
        for location in list(spec.submodule_search_locations or []) if spec else []:
            # What glob("cel.*.so") finds, without importing glob for it.
            names = os.listdir(location) if os.path.isdir(location) else []
            found = [n for n in names if n.startswith("cel.") and n.endswith(".so") and len(n) > 6]
            for path in sorted(os.path.join(location, n) for n in found):
                ext_spec = importlib.util.spec_from_file_location("cel.cel", path)
                if ext_spec is None or ext_spec.loader is None:
                    continue
                module = importlib.util.module_from_spec(ext_spec)
                ext_spec.loader.exec_module(module)
                return module
    except (ImportError, OSError):
        return None
    return None

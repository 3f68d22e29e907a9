"""A Keras namespace's public names (clause api.namespaces): the module's `__all__`, TF 2.21's names at
that path. Its implementation submodules and helpers stay importable (simdist's Keras imports them)
but `dir()` does not list them, as `dir(tf.keras.layers)` lists no module of Keras's implementation."""

from __future__ import annotations

import sys
from typing import Callable


def dir_of(module_name: str) -> Callable[[], list[str]]:
    """The module `__dir__` (PEP 562) of `module_name`: its `__all__`, sorted."""
    def __dir__() -> list[str]:
        return sorted(sys.modules[module_name].__all__)
    return __dir__

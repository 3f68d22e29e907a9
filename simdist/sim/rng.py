"""Named random streams derived from one root seed.

``derive(seed, name)`` builds ``np.random.Generator(PCG64(SeedSequence(seed, spawn_key=K)))`` where
K is the first 16 bytes of sha256(name) as four uint32 words. The key depends only on the name
(never on Python's salted ``hash()`` or on how many streams exist), so adding a stream does not
shift the others, and every process gets the same numbers.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np

__all__ = ["derive", "name_key", "check_seed", "Streams", "global_states", "seed_globals"]


def check_seed(seed: object, field: str = "seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or int(seed) < 0:
        raise ValueError(f"{field}: expected an int >= 0, got {seed!r}")
    return int(seed)


def name_key(name: str) -> tuple[int, int, int, int]:
    """Four uint32 words from sha256(name): a stable, process-independent key."""
    if not isinstance(name, str):
        raise TypeError(f"rng name: expected a str, got {type(name).__name__} {name!r}")
    d = hashlib.sha256(name.encode("utf-8")).digest()
    return tuple(int.from_bytes(d[i:i + 4], "little") for i in range(0, 16, 4))  # type: ignore[return-value]


def derive(seed: int, name: str) -> np.random.Generator:
    """A fresh Generator for stream ``name`` under root ``seed``."""
    ss = np.random.SeedSequence(entropy=check_seed(seed), spawn_key=name_key(name))
    return np.random.Generator(np.random.PCG64(ss))


class Streams:
    """One Generator per name, created on first use and then reused (its state advances)."""

    __slots__ = ("seed", "_gens")

    def __init__(self, seed: int) -> None:
        self.seed = check_seed(seed)
        self._gens: dict[str, np.random.Generator] = {}

    def get(self, name: str) -> np.random.Generator:
        g = self._gens.get(name)
        if g is None:
            g = derive(self.seed, name)
            self._gens[name] = g
        return g


def global_states(seed: int, name: str) -> tuple[Any, Any]:
    """(Python's `random` state, NumPy's legacy global state) as `random.seed(k)` and
    `np.random.seed(k)` leave them, k drawn from stream ``name`` under root ``seed`` (any int: taken
    mod 2**64). Library code that draws from these global generators as Keras does (ImageDataGenerator,
    tf.keras.preprocessing.image's random_* functions, PyDataset shuffling after set_random_seed) then
    gives the same draws on every run, while a program's own `np.random.seed(s)` still gives Keras's."""
    k = derive(int(seed) % 2**64, name).integers(0, 2**32, size=2)
    return random.Random(int(k[0])).getstate(), np.random.RandomState(int(k[1])).get_state()


def seed_globals(seed: int, name: str) -> None:
    """Seed Python's and NumPy's global generators from root ``seed`` and ``name`` (global_states):
    what simdist's own entry points (the `simdist` command, each client of `simdist launch`) do before
    any user code runs, so that a run without any seed is reproducible (TF's process: OS entropy)."""
    py, npst = global_states(seed, name)
    random.setstate(py)
    np.random.set_state(npst)

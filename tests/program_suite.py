"""The scaffolding of a differential module whose cases are programs `program(tf, strategy)`
run on real TF 2.21 (in a worker process, tests/tf_workers.py) and on simdist: the registry of
(name, clause, strategy kind, replicas, program), the runner on either backend, the TF worker,
the `tf_results` answers and the checks. Used by tests/runtime/test_autodiff_differential_tf.py
and tests/runtime/test_bound_ops_tf.py.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_workers
from diff_helpers import assert_same, make_strategy, normalise
from simdist import tf as sim_tf

Program = Callable[[Any, Any], Any]


class ProgramSuite:
    """The programs of one test module (`module_file`). `normalise` turns a program's result into
    the comparable form (diff_helpers.normalise by default). With `share_strategies`, TF runs
    every program of one (kind, replicas) on one strategy (a second MirroredStrategy's
    collectives after the first's fail in one TF process: their collective keys collide);
    simdist makes a fresh machine and strategy per program either way."""

    def __init__(self, module_file: str, normalise: Callable[[Any], Any] = normalise,
                 share_strategies: bool = False) -> None:
        self.module_file = module_file
        self.normalise = normalise
        self.share_strategies = share_strategies
        self.programs: list[tuple[str, str, tuple[str | None, int, Program]]] = []
        self._tf_strategies: dict[tuple[str, int], Any] = {}

    def program(self, name: str, clause: str, strategy: str | None = None, n: int = 1) -> Callable[[Program], Program]:
        """Decorator: register a program under `clause`, run with a strategy of `strategy`'s
        kind (diff_helpers.KINDS) over n replicas, or with None."""
        def deco(fn: Program) -> Program:
            self.programs.append((name, clause, (strategy, n, fn)))
            return fn
        return deco

    def name(self, k: int) -> str:
        return self.programs[k][0]

    def _strategy(self, tf: Any, kind: str, n: int) -> Any:
        if tf is sim_tf or not self.share_strategies:
            return make_strategy(tf, kind, n)
        if (kind, n) not in self._tf_strategies:
            self._tf_strategies[kind, n] = make_strategy(tf, kind, n)
        return self._tf_strategies[kind, n]

    def run(self, tf: Any, k: int) -> Any:
        """Program k's normalised result on `tf` (real TF or simdist's facade); an exception is
        a result: ("error", class name, the message's first 200 characters)."""
        _name, _clause, (kind, n, fn) = self.programs[k]
        try:
            s = self._strategy(tf, kind, n) if kind is not None else None
            if s is None and tf is sim_tf:
                import simdist
                simdist.reset()
            return self.normalise(fn(tf, s))
        except Exception as e:  # noqa: BLE001 - the exception class is part of the result
            return ("error", type(e).__name__, str(e)[:200])

    def tf_worker(self, indices: list[int]) -> dict[int, Any]:
        """The TF side (`python module.py 0,1,2`): four logical CPUs, then the programs."""
        import tensorflow as real_tf
        cpu = real_tf.config.list_physical_devices("CPU")[0]
        real_tf.config.set_logical_device_configuration(cpu, [real_tf.config.LogicalDeviceConfiguration()] * 4)
        return {i: self.run(real_tf, i) for i in indices}

    def tf_results(self) -> dict[int, Any]:
        """TF's answers for every program (live, or the module's golden: tf_workers.spawn)."""
        return tf_workers.spawn(self.module_file, list(range(len(self.programs))))

    def check(self, k: int, tf_results: dict[int, Any], rtol: float, message: bool = False) -> None:
        """simdist's result of program k is TF's. An error TF raised: the same class (with
        `message`, and the same message up to its first object repr, '<...>')."""
        want = tf_results[k]
        got = self.run(sim_tf, k)
        if is_error(want):
            same = is_error(got) and got[1] == want[1] and (not message or got[2].split("<")[0] == want[2].split("<")[0])
            assert same, f"simdist gave {got!r}, but TF 2.21 raised {want!r} [{self.name(k)}]"
            return
        assert_same(got, want, self.name(k), rtol=rtol)

    def of(self, clause: str) -> Any:
        """A parametrize mark over the programs of `clause`, by name."""
        ks = [k for k, p in enumerate(self.programs) if p[1] == clause]
        return pytest.mark.parametrize("k", ks, ids=[self.programs[k][0] for k in ks])

    def stray_clauses(self, tested: set[str]) -> list[str]:
        """The clauses of registered programs that no test function checks."""
        return sorted({c for _, c, _ in self.programs} - tested)

    def serve(self) -> None:
        """The module run as a TF worker script."""
        tf_workers.serve(self.tf_worker)


def is_error(result: Any) -> bool:
    return isinstance(result, tuple) and bool(result) and result[0] == "error"

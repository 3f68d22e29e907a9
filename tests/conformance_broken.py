"""Deliberately broken conformance backends, for the meta-tests of the suite.

Each wraps a working backend (``base``: "simdist" or "tensorflow") and breaks one documented
rule, so tests/conformance/test_conformance_meta.py can check that the suite fails exactly the clauses that
rule belongs to, and no others.

    --backend conformance_broken:mean_of_means?base=simdist
    --backend conformance_broken:remainder_last          (simdist only)
    --backend "conformance_broken:crashes_on?base='simdist'&target='test_x'"
"""

from __future__ import annotations

import os
from typing import Any

from simdist.conformance import load_backend


class _Wrapped:
    """Delegates everything to the base backend."""

    breaks = "nothing"

    def __init__(self, base: str = "simdist"):
        self._base = load_backend(base)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    @property
    def name(self) -> str:
        return f"{self._base.name}+{self.breaks}"

    @property
    def tf(self) -> Any:
        return self._base.tf


class MeanOfMeans(_Wrapped):
    """reduce(MEAN, value, axis=k) averages the per-replica means (each replica's mean weighs
    the same however many elements it holds) instead of dividing by the true count — the
    mistake the reduce docs warn about ("weigh some values 1/8 and others 1/4")."""

    breaks = "mean-of-means"

    def make_strategy(self, kind: str, replicas: int = 1, device_type: str = "CPU") -> Any:
        strategy = self._base.make_strategy(kind, replicas, device_type)
        if getattr(strategy, "_conformance_broken_mean", False):
            return strategy
        original = strategy.reduce
        tf = self.tf

        def reduce(reduce_op: Any, value: Any, axis: Any = None) -> Any:
            name = reduce_op if isinstance(reduce_op, str) else getattr(reduce_op, "value", str(reduce_op))
            if axis is not None and str(name).upper() == "MEAN":
                means = strategy.run(lambda v: tf.reduce_mean(v, axis=axis), args=(value,))
                return original("MEAN", means, axis=None)
            return original(reduce_op, value, axis=axis)

        strategy.reduce = reduce
        strategy._conformance_broken_mean = True
        return strategy


class RemainderLast(_Wrapped):
    """The div partition puts the longer shards last (13 rows over 5 shards: 2,2,3,3,3)."""

    breaks = "remainder-last"

    def setup(self) -> None:
        self._base.setup()
        from simdist.semantics import partition  # noqa: PLC0415 - breaking simdist on purpose

        if not getattr(partition, "_conformance_broken", False):
            correct = partition.shard_sizes
            partition.shard_sizes = lambda n, k: list(reversed(correct(n, k)))
            partition._conformance_broken = True


def mean_of_means(base: str = "simdist") -> MeanOfMeans:
    return MeanOfMeans(base)


def remainder_last(base: str = "simdist") -> RemainderLast:
    if base != "simdist":
        raise ValueError("remainder_last breaks simdist's partition rule; base must be simdist")
    return RemainderLast(base)


class CrashesOn(_Wrapped):
    """Kills its process (os._exit) after the call of the first test whose node id contains `target`: a backend
    that crashes the interpreter (a segfault in a native kernel), for the report's record of a crashed xdist
    worker."""

    breaks = "process-crash"

    def __init__(self, base: str = "simdist", target: str = "") -> None:
        super().__init__(base)
        self._target = target

    def after_test(self, nodeid: str, failed_with: BaseException | None) -> None:
        if self._target and self._target in nodeid:
            os._exit(70)
        after = getattr(self._base, "after_test", None)
        if callable(after):
            after(nodeid, failed_with)


def crashes_on(base: str = "simdist", target: str = "") -> CrashesOn:
    return CrashesOn(base, target)

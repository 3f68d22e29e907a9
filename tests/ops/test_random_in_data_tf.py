"""Random ops inside tf.data functions, seeded as TF 2.21 seeds them (clause ops.random-in-function):
tf.data traces a map/filter/flat_map/reduce function when the dataset is made (graph seed: the
global seed then, or the enclosing tf.function's), its seedless ops take op seeds 0, 1, ... of
that graph, and each iterator resource instantiates it with fresh kernels whose streams continue
across the elements, and across a `repeat`, of that iterator. Tracing leaves the eager op-seed
sequence alone. Each program runs on simdist and on TF; the values must be equal (Philox bits).
TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _vals(ds: Any) -> list[Any]:
    out = []
    for x in ds:
        out.append([np.asarray(v) for v in x] if isinstance(x, tuple) else np.asarray(x))
    return out


def _two_passes(tf: Any) -> Any:
    ds = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform([2]))
    return {"first": _vals(ds), "second": _vals(ds), "eager_after": np.asarray(tf.random.uniform([2]))}


def _repeat(tf: Any) -> Any:
    return _vals(tf.data.Dataset.range(3).map(lambda x: tf.random.normal([2])).repeat(2))


def _several_ops(tf: Any) -> Any:
    ds = tf.data.Dataset.range(3).map(lambda x: (tf.random.uniform([]), tf.random.normal([1]),
                                                 tf.random.uniform([], seed=3)))
    return _vals(ds)


def _filter(tf: Any) -> Any:
    return _vals(tf.data.Dataset.range(8).filter(lambda x: tf.random.uniform([]) > 0.5))


def _reduce(tf: Any) -> Any:
    ds = tf.data.Dataset.range(4)
    return [np.asarray(ds.reduce(tf.constant(0.0), lambda s, x: s + tf.random.uniform([]))) for _ in range(2)]


def _flat_map_shuffle(tf: Any) -> Any:
    ds = tf.data.Dataset.range(2).flat_map(
        lambda x: tf.data.Dataset.from_tensor_slices(tf.random.shuffle(tf.range(6, dtype=tf.int64))))
    return _vals(ds)


def _keras_permutation(tf: Any) -> Any:
    """Keras 3.15's fit(shuffle=True) index pipeline: the same permutation each epoch."""
    idx = tf.data.Dataset.range(1).map(lambda _: tf.random.shuffle(tf.range(10, dtype=tf.int64))).prefetch(1)
    return [_vals(idx) for _ in range(3)]


def _in_function(tf: Any) -> Any:
    @tf.function
    def f() -> Any:
        d = tf.data.Dataset.range(2).map(lambda x: tf.random.uniform([]))
        return d.reduce(tf.constant(0.0), lambda s, x: s + x)
    return [np.asarray(f()), np.asarray(f())]


def _reseed(tf: Any) -> Any:
    ds = tf.data.Dataset.range(2).map(lambda x: tf.random.uniform([]))
    first = _vals(ds)
    tf.random.set_seed(11)
    return {"first": first, "after_set_seed_11": _vals(ds),
            "made_after": _vals(tf.data.Dataset.range(2).map(lambda x: tf.random.uniform([])))}


PROGRAMS = [("two-passes", _two_passes), ("repeat-continues", _repeat), ("several-ops", _several_ops),
            ("filter", _filter), ("reduce", _reduce), ("flat-map-shuffle", _flat_map_shuffle),
            ("keras-permutation", _keras_permutation), ("in-function", _in_function), ("reseed", _reseed)]
CASES = [(name, fn, seed) for name, fn in PROGRAMS for seed in (5, 1234)]


def _run(tf: Any, k: int) -> Any:
    _, fn, seed = CASES[k]
    tf.random.set_seed(seed)
    return fn(tf)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import warnings

    import tensorflow as tf
    warnings.simplefilter("ignore")
    return {k: _run(tf, k) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), f"{where}: keys {sorted(got)}, but TF 2.21 has {sorted(want)}"
        for key in want:
            _same(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert len(got) == len(want), f"{where}: {len(got)} elements, but TF 2.21 gives {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        g, w = np.asarray(got), np.asarray(want)
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w), \
            f"{where}: {g.ravel()[:6].tolist()} ({g.dtype}{g.shape}), but TF 2.21 gives {w.ravel()[:6].tolist()} " \
            f"({w.dtype}{w.shape})"


@pytest.mark.clause("ops.random-in-function")
@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{n}-seed{s}" for n, _, s in CASES])
def test_random_ops_in_tf_data_functions_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(_run(tf, k), tf_results[k], CASES[k][0])


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(_tf_worker)
    os._exit(0)

"""tf.quantization's fake quantization against real TensorFlow 2.21 (clause ops.fake-quant): the
Args, Vars and VarsPerChannel ops and their Gradient ops, values bit for bit over a grid and the
rounding ties of each range, num_bits 2..16, narrow_range, the degenerate ranges (min = max = 0,
min > max), per-channel ranks 1 to 5, a tape's gradients (min and max get the sums outside the
range) and a tf.function; and TF's errors. Inputs are exact (a grid of k / 200, ties built by
float32 multiplication and addition): the same bits on every host. Needs the `tf` extra
(golden-backed otherwise)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

F = np.float32
GRID = (np.arange(-1700, 1701, dtype=F) / F(200)).astype(F)   # [-8.5, 8.5] by 0.005


def _ties(lo: float, hi: float, bits: int = 8) -> np.ndarray:
    """The grid plus the midpoints between the range's steps (and one float32 ulp either side)."""
    step = F((F(hi) - F(lo)) / F((1 << bits) - 1))
    mids = (np.arange(-3, (1 << min(bits, 10)) + 3, dtype=F) * step + F(lo) + step / F(2)).astype(F)
    return np.concatenate([GRID, mids, np.nextafter(mids, F(np.inf)), np.nextafter(mids, F(-np.inf))])


RANGES = [(-6.0, 6.0), (-1.0, 1.0), (-0.3, 2.7), (-2.5, 0.7), (-10.0, 0.1), (0.0, 1.0), (-1.0, 0.0),
          (-0.1234, 0.5678)]
BITS = [(8, False), (8, True), (2, False), (4, True), (16, False)]


def _args(lo: float, hi: float, bits: int, narrow: bool) -> Callable[[Any], Any]:
    x = _ties(lo, hi, bits)
    return lambda tf: tf.quantization.fake_quant_with_min_max_args(x, lo, hi, bits, narrow)


def _args_grad(lo: float, hi: float, bits: int, narrow: bool) -> Callable[[Any], Any]:
    x = _ties(lo, hi, bits)
    return lambda tf: tf.quantization.fake_quant_with_min_max_args_gradient(x * F(0.5) - F(1), x, lo, hi, bits, narrow)


def _vars(lo: float, hi: float, bits: int, narrow: bool) -> Callable[[Any], Any]:
    x = _ties(lo, hi, bits)
    return lambda tf: tf.quantization.fake_quant_with_min_max_vars(x, F(lo), F(hi), bits, narrow)


def _vars_grad(lo: float, hi: float, bits: int, narrow: bool) -> Callable[[Any], Any]:
    x = _ties(lo, hi, bits)
    return lambda tf: list(tf.quantization.fake_quant_with_min_max_vars_gradient(x / F(3), x, F(lo), F(hi), bits,
                                                                                 narrow))


def _per_channel(shape: tuple[int, ...], grad: bool) -> Callable[[Any], Any]:
    x = GRID[:int(np.prod(shape))].reshape(shape)
    d = shape[-1]
    lo = np.resize(np.array([-1, -6, 0, -0.3, -2.5, 0], F), d)
    hi = np.resize(np.array([1, 6, 0, 2.7, 0.7, 1], F), d)
    q = lambda tf: tf.quantization  # noqa: E731
    if grad:
        return lambda tf: list(q(tf).fake_quant_with_min_max_vars_per_channel_gradient(x / F(4), x, lo, hi, 8, False))
    return lambda tf: q(tf).fake_quant_with_min_max_vars_per_channel(x, lo, hi, 6, True)


def _tape(tf: Any) -> Any:
    x = tf.constant(GRID)
    lo, hi = tf.Variable(-1.5), tf.Variable(2.0)
    clo, chi = tf.Variable([-1.0, -2, 0, -3]), tf.Variable([1.0, 2, 0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.quantization.fake_quant_with_min_max_vars(x, lo, hi) * x)
        y += tf.reduce_sum(tf.quantization.fake_quant_with_min_max_args(x, -2.0, 3.0, 5) * x)
        y += tf.reduce_sum(tf.quantization.fake_quant_with_min_max_vars_per_channel(tf.reshape(x[:3400], [850, 4]),
                                                                                   clo, chi))
    return tape.gradient(y, [x, lo, hi, clo, chi])


SMALL = GRID[::425]   # (9 values: the first call of each op, which tf.raw_ops's recorded cases take)
CASES: list[tuple[str, str, Callable[[Any], Any]]] = (
    [("small-args", "fake-quant-args", lambda tf: tf.quantization.fake_quant_with_min_max_args(SMALL, -1.0, 1.0, 4)),
     ("small-args-grad", "fake-quant-args",
      lambda tf: tf.quantization.fake_quant_with_min_max_args_gradient(SMALL * F(2), SMALL, -1.0, 1.0)),
     ("small-vars", "fake-quant-vars", lambda tf: tf.quantization.fake_quant_with_min_max_vars(SMALL, -2.0, 3.0)),
     ("small-vars-grad", "fake-quant-vars",
      lambda tf: list(tf.quantization.fake_quant_with_min_max_vars_gradient(SMALL * F(2), SMALL, -2.0, 3.0))),
     ("small-per-channel", "fake-quant-per-channel",
      lambda tf: tf.quantization.fake_quant_with_min_max_vars_per_channel(SMALL[:8].reshape(4, 2), [-1.0, -3],
                                                                          [1.0, 0.5])),
     ("small-per-channel-grad", "fake-quant-per-channel",
      lambda tf: list(tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(
          SMALL[:8].reshape(4, 2), SMALL[:8].reshape(4, 2), [-1.0, -3], [1.0, 0.5])))]
    +     [(f"args{r}{b}", "fake-quant-args", _args(*r, *b)) for r in RANGES for b in BITS]
    + [(f"args-grad{r}{b}", "fake-quant-args", _args_grad(*r, *b)) for r in RANGES for b in BITS[:3]]
    + [(f"vars{r}{b}", "fake-quant-vars", _vars(*r, *b)) for r in RANGES + [(0.0, 0.0), (1.0, -1.0), (0.5, 2.0)]
       for b in BITS]
    + [(f"vars-grad{r}{b}", "fake-quant-vars", _vars_grad(*r, *b)) for r in RANGES + [(0.0, 0.0), (0.5, 2.0)]
       for b in BITS[:3]]
    + [(f"per-channel{s}{g}", "fake-quant-per-channel", _per_channel(s, g))
       for s in [(6,), (300, 6), (20, 10, 5), (4, 5, 6, 3), (2, 3, 4, 5, 6)] for g in (False, True)]
    + [("tape", "fake-quant-gradients", _tape),
       ("in-function", "fake-quant-gradients",
        lambda tf: tf.function(lambda a: tf.quantization.fake_quant_with_min_max_vars(a, -1.0, 1.0, 4))(GRID))]
    + [("args-bits-1", "errors", lambda tf: tf.quantization.fake_quant_with_min_max_args(GRID, num_bits=1)),
       ("args-bits-17", "errors", lambda tf: tf.quantization.fake_quant_with_min_max_args(GRID, num_bits=17)),
       ("args-min-max", "errors", lambda tf: tf.quantization.fake_quant_with_min_max_args(GRID, 0.1, -0.1)),
       ("args-zero-range", "errors", lambda tf: tf.quantization.fake_quant_with_min_max_args(GRID, 0.0, 0.0)),
       ("args-float64", "errors", lambda tf: tf.quantization.fake_quant_with_min_max_args(tf.constant([1.0], tf.float64))),
       ("vars-bits", "errors", lambda tf: tf.quantization.fake_quant_with_min_max_vars(GRID, -1.0, 1.0, 17)),
       ("vars-rank", "errors", lambda tf: tf.quantization.fake_quant_with_min_max_vars(GRID, [-1.0], [1.0])),
       ("per-channel-size", "errors",
        lambda tf: tf.quantization.fake_quant_with_min_max_vars_per_channel(GRID[:8].reshape(2, 4), [-1.0], [1.0])),
       ("per-channel-rank", "errors",
        lambda tf: tf.quantization.fake_quant_with_min_max_vars_per_channel(GRID[:8].reshape(2, 4), -1.0, 1.0)),
       ("grad-shapes", "errors",
        lambda tf: tf.quantization.fake_quant_with_min_max_vars_gradient(GRID[:4], GRID[:5], -1.0, 1.0))])

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fake-quant")
@EDGES.parametrize("fake-quant-args")
def test_fake_quant_args(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fake-quant")
@EDGES.parametrize("fake-quant-vars")
def test_fake_quant_vars(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fake-quant")
@EDGES.parametrize("fake-quant-per-channel")
def test_fake_quant_per_channel(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fake-quant")
@EDGES.parametrize("fake-quant-gradients")
def test_fake_quant_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fake-quant")
@EDGES.parametrize("errors")
def test_fake_quant_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_fake_quant_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

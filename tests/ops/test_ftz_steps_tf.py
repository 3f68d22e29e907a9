"""oneDNN's float32 products flush each step's subnormal result to a zero of its sign (clause ops.subnormals, its
paragraph "Each step flushes", sixty-third session, fix63m).

TF 2.21 runs its kernels with the FTZ and DAZ bits of the MXCSR set, so every fused multiply-add and add of
oneDNN's float32 MatMul/BatchMatMulV2/einsum/Conv2D kernels writes a zero of the exact result's sign where that
result, rounded to 24 bits, lies below 2^-126: a chain of subnormal terms runs on zeros. Operands here are
uniform(-1, 1) times 2^-63, 2^-62 or 2^-61, so products lie around float32's smallest normal and the partial sums
cross it both ways; a second family places a normal term and a cancelling one so that a chain's last step is a
tiny negative; a third, one-row and one-column products of k with pieces of 4, 2 and 1 (each piece's sum joins a
+0.0). simdist flushed only the final sum (dispatch's subnormal rule): 124 of 130 such products were off
(/work/wt/fix63m_logs/p_sub.py). Each case runs on TF 2.21 and on simdist (the golden's host model); outputs as
float32 bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_SCALES = np.array([2.0 ** -63, 2.0 ** -62, 2.0 ** -61], np.float32)


def _tiny(r: np.random.RandomState, shape: tuple) -> np.ndarray:
    """uniform(-1, 1) values times 2^-63, 2^-62 or 2^-61 (exact: powers of two)."""
    u = r.uniform(-1, 1, shape).astype(np.float32)
    return (u * _SCALES[r.randint(0, 3, shape)]).astype(np.float32)


def _bits(z: Any) -> list:
    return np.asarray(z.numpy(), np.float32).view(np.uint32).ravel().tolist()


def _matmul(seed: int, m: int, k: int, n: int, ta: bool, tb: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x, y = _tiny(r, (m, k)), _tiny(r, (k, n))
        a = tf.constant(np.ascontiguousarray(x.T) if ta else x)
        b = tf.constant(np.ascontiguousarray(y.T) if tb else y)
        return _bits(tf.linalg.matmul(a, b, transpose_a=ta, transpose_b=tb))
    return run


def _batched(seed: int, b: int, m: int, k: int, n: int, adj: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x, y = _tiny(r, (b, m, k)), _tiny(r, (b, k, n))
        if adj:
            return _bits(tf.linalg.matmul(tf.constant(x), tf.constant(np.ascontiguousarray(np.swapaxes(y, 1, 2))),
                                          adjoint_b=True))
        return _bits(tf.linalg.matmul(tf.constant(x), tf.constant(y)))
    return run


def _einsum(seed: int, eq: str, sx: tuple, sy: tuple) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        return _bits(tf.einsum(eq, tf.constant(_tiny(r, sx)), tf.constant(_tiny(r, sy))))
    return run


def _pieces(seed: int, k: int) -> Callable[[Any], Any]:
    """One row with transpose_b, and one column, of k = 16q + pieces of 8, 4, 2, 1, by 256 outputs."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x, y = _tiny(r, (1, k)), _tiny(r, (k, 256))
        yt = tf.constant(np.ascontiguousarray(y.T))
        return [_bits(tf.linalg.matmul(tf.constant(x), yt, transpose_b=True)),
                _bits(tf.linalg.matmul(yt, tf.constant(np.ascontiguousarray(x.T))))]
    return run


_A, _NEG = np.float32(2.0 ** -60), np.float32(-(1 + 2.0 ** -20))


def _last_tiny(k: int, pairs: tuple, kind: str) -> Callable[[Any], Any]:
    """Products 2^-120 at i and -2^-120 (1 + 2^-20) at j for each (i, j) in `pairs`, 0 elsewhere: the step that adds
    the second is -2^-140, flushed to -0.0 (a zero of the exact result's sign)."""
    def run(tf: Any) -> Any:
        x = np.zeros(k, np.float32)
        y = np.full(k, np.float32(2.0 ** -60), np.float32)
        for i, j in pairs:
            x[i], x[j] = _A, _A * _NEG
        c = tf.constant
        if kind == "row-tb":
            return _bits(tf.linalg.matmul(c(x[None, :]), c(np.stack([y] * 3)), transpose_b=True))
        if kind == "row":
            return _bits(tf.linalg.matmul(c(x[None, :]), c(np.stack([y] * 3, 1))))
        if kind == "column":
            return _bits(tf.linalg.matmul(c(np.stack([x, x])), c(y[:, None])))
        if kind == "small-n":
            return _bits(tf.linalg.matmul(c(np.stack([x] * 3)), c(np.stack([y] * 8)), transpose_b=True))
        if kind == "plain":
            return _bits(tf.linalg.matmul(c(np.stack([x, x])), c(np.stack([y] * 3, 1))))
        return _bits(tf.linalg.matmul(c(np.stack([x, x])[None]), c(np.stack([y] * 3, 1)[None])))
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    seed = 6300
    shapes = [(1, k, n, False, False) for k in (3, 17, 100, 385, 1000, 4141) for n in (5, 127)]
    shapes += [(1, k, 3, False, True) for k in (16, 17, 33, 100)] + [(1, k, 3, True, False) for k in (15, 33, 500)]
    shapes += [(m, k, 1, ta, tb) for m, k in ((2, 3), (5, 3), (16, 9), (17, 40), (40, 300))
               for ta, tb in ((False, False), (False, True), (True, False))]
    shapes += [(m, k, 8, False, True) for m in (2, 3, 5, 9, 15) for k in (16, 40)]
    shapes += [(m, k, n, ta, tb) for m, k, n in ((2, 10, 2), (4, 100, 7), (8, 384, 5), (3, 385, 4), (3, 784, 2),
                                                  (4, 1000, 3), (16, 50, 16))
               for ta, tb in ((False, False), (True, False), (True, True))]
    shapes += [(16, 40, 16, False, True), (20, 300, 30, False, True), (16, 40, 101, False, True)]
    for m, k, n, ta, tb in shapes:
        c[f"matmul/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _matmul(seed, m, k, n, ta, tb)
        seed += 1
    for b, m, k, n in ((2, 3, 17, 4), (2, 1, 40, 5), (3, 5, 513, 2), (2, 6, 100, 1)):
        for adj in (False, True):
            c[f"batched/{b}x{m}x{k}x{n}/adj{int(adj)}"] = _batched(seed, b, m, k, n, adj)
            seed += 1
    for eq, sx, sy in (("bij,jk->bik", (2, 3, 17), (17, 4)), ("ij,kj->ik", (3, 40), (5, 40)), ("i,i->", (33,), (33,))):
        c[f"einsum/{eq}"] = _einsum(seed, eq, sx, sy)
        seed += 1
    for k in (7, 11, 13, 15, 19, 21, 22, 23, 25, 26, 27, 28, 29, 31, 35, 37, 39):
        # (the one-row kernel's pieces of 4, 2 and 1: a piece's sum joins +0.0, /work/wt/fix63m_logs/p_row.py)
        c[f"pieces/k{k}"] = _pieces(1000 + k, k)
    lanes = tuple((lane, lane + 8) for lane in range(8))
    for k, pairs in ((2, ((0, 1),)), (7, ((0, 6),)), (7, ((4, 6),)), (16, lanes), (17, ((0, 16),)),
                     (33, lanes + ((16, 32),))):
        for kind in ("row-tb", "row", "column", "small-n", "plain", "batched"):
            c[f"last-tiny/k{k}/{pairs[0]}/{kind}"] = _last_tiny(k, pairs, kind)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(ftz_steps_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.subnormals")
def test_onednn_float32_products_flush_each_step_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

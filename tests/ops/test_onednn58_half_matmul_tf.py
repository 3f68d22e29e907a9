"""oneDNN's float16 and bfloat16 MatMul/BatchMatMulV2 (clause ops.packet-paths, its paragraph "oneDNN's half
products", fifty-eighth session, onednn58).

On a host where oneDNN takes the half types (this Xeon: AVX512-FP16, AMX-BF16) TF 2.21 widens both operands to float32
(their products are exact) and rounds the float32 sum once, in these orders: float16 sums k in blocks of 512 (1,024
beyond k = 1,024 for two rows or more without transpose_a), each in order from +0, the blocks' sums added in order;
bfloat16 sums a small product (m·k < 64, and one row or an even k without transpose_a) pair by pair, each pair's odd
element first, and every other one in tiles of 32 (the tile's even elements and its odd elements each in order, the
two added, the tiles' sums added in order). simdist summed float16 over k in order and bfloat16 in NumPy's BLAS order (einsum's bfloat16 likewise).
The operands hold +H and -H at two positions of k (every order leaves its own residue) or values 2^-8..2^8 wide.
Each case runs on TF 2.21 and on simdist (the golden's host model); results as 16-bit patterns, gradients included.
Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any) -> list:
    return np.asarray(t.numpy()).view(np.uint16).ravel().tolist()


def _operands(seed: int, sa: tuple, sb: tuple, ta: bool, tb: bool, huge: float, dense: bool) -> tuple:
    """x [..., m, k] and y [..., k, n] (float32 values), given as the product's operands (transposed as asked)."""
    r = np.random.RandomState(seed)
    x, y = r.randn(*sa).astype(np.float32), r.randn(*sb).astype(np.float32)
    k = sa[-1]
    if dense:
        x *= portable_inputs.pow2(r.randint(-8, 9, size=x.shape)).astype(np.float32)
    elif k >= 2:
        p, q = sorted(r.choice(k, 2, replace=False))
        x[..., :, p], x[..., :, q], y[..., p, :], y[..., q, :] = huge, -huge, 1.0, 1.0
    a = np.ascontiguousarray(np.swapaxes(x, -1, -2)) if ta else x
    b = np.ascontiguousarray(np.swapaxes(y, -1, -2)) if tb else y
    return a, b


def _product(dtype: str, seed: int, batch: tuple, m: int, k: int, n: int, ta: bool = False, tb: bool = False,
             dense: bool = False, grads: bool = False, raw: bool = False) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        huge = 2.0 ** 14 if dtype == "float16" else 2.0 ** 21
        a, b = _operands(seed, batch + (m, k), batch + (k, n), ta, tb, huge, dense)
        dt = getattr(tf, dtype)
        x, y = tf.cast(tf.constant(a), dt), tf.cast(tf.constant(b), dt)
        if raw:
            return _bits(tf.raw_ops.BatchMatMulV2(x=x, y=y, adj_x=ta, adj_y=tb))
        if not grads:
            return _bits(tf.linalg.matmul(x, y, transpose_a=ta, transpose_b=tb))
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = tf.linalg.matmul(x, y, transpose_a=ta, transpose_b=tb)
            loss = tf.reduce_sum(tf.cast(z, tf.float32) * tf.constant(np.random.RandomState(seed + 1).randn(
                *z.shape).astype(np.float32)))
        return [_bits(z)] + [_bits(g) for g in tape.gradient(loss, [x, y])]
    return run


def _einsum(dtype: str, seed: int, q: int, kk: int, d: int, eq: str) -> Callable[[Any], Any]:
    """Attention scores (einsum's _MklEinsum, a oneDNN batch product) with cancelling terms along d."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        huge = 2.0 ** 14 if dtype == "float16" else 2.0 ** 21
        x, y = r.randn(2, q, d).astype(np.float32), r.randn(2, kk, d).astype(np.float32)
        p, s = sorted(r.choice(d, 2, replace=False))
        x[..., p], x[..., s], y[..., p], y[..., s] = huge, -huge, 1.0, 1.0
        dt = getattr(tf, dtype)
        return _bits(tf.einsum(eq, tf.cast(tf.constant(x), dt), tf.cast(tf.constant(y), dt)))
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    # float16: one block, two blocks of 512, blocks of 1,024 (two rows or more) or 512 (one row, transpose_a)
    for i, (m, k, n, ta, tb) in enumerate(((3, 40, 5, False, False), (16, 511, 2, False, True), (2, 513, 3, False, False),
                                           (5, 700, 2, False, True), (4, 1024, 3, True, False),
                                           (6, 1300, 2, False, False), (1, 1300, 4, False, False),
                                           (3, 2100, 2, True, True), (16, 2048, 2, False, True))):
        for raw in (False, True):
            c[f"float16/{'bmm' if raw else 'mm'}/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _product(
                "float16", 500 + i, (2,) if raw else (), m, k, n, ta, tb, raw=raw)
    c["float16/grads/16x600x8"] = _product("float16", 520, (), 16, 600, 8, grads=True)
    c["float16/dense/33x800x17"] = _product("float16", 521, (), 33, 800, 17, dense=True)
    # bfloat16: the pair kernel (m·k < 64) and AMX's tiles of 32, at their bounds
    shapes = ((1, 5, 16, False, True), (1, 33, 3, False, False), (1, 63, 2, False, True), (1, 64, 2, False, False),
              (1, 200, 3, True, False), (2, 8, 16, False, False), (2, 8, 3, True, True), (2, 9, 3, False, False),
              (3, 16, 33, False, True), (3, 15, 4, False, False), (4, 16, 3, False, False), (4, 12, 3, True, True),
              (15, 4, 17, False, False), (16, 4, 17, False, False), (8, 40, 16, False, True), (17, 33, 3, False, False),
              (20, 300, 3, False, True), (33, 800, 17, False, False))
    for i, (m, k, n, ta, tb) in enumerate(shapes):
        for raw in (False, True):
            c[f"bfloat16/{'bmm' if raw else 'mm'}/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _product(
                "bfloat16", 600 + i, (2,) if raw else (), m, k, n, ta, tb, raw=raw)
        c[f"bfloat16/dense/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _product("bfloat16", 640 + i, (), m, k, n, ta, tb,
                                                                           dense=True)
    c["bfloat16/grads/8x64x16"] = _product("bfloat16", 660, (), 8, 64, 16, grads=True)
    c["bfloat16/grads/1x40x4"] = _product("bfloat16", 661, (), 1, 40, 4, grads=True)
    c["bfloat16/grads-batched/3x20x5"] = _product("bfloat16", 662, (2,), 3, 20, 5, grads=True)
    for i, (q, kk, d) in enumerate(((3, 5, 40), (8, 5, 16), (1, 17, 600), (20, 5, 64), (3, 1, 4))):
        for dtype in ("float16", "bfloat16"):
            for eq in ("bqd,bkd->bqk", "bqd,bkd->bkq"):
                c[f"einsum/{dtype}/{eq}/{q}x{kk}x{d}"] = _einsum(dtype, 680 + i, q, kk, d, eq)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(onednn58_half_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_half_matmul_kernels_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""Clause ops.einsum (TF 2.21 only): a float16 Einsum is, on CPUs without oneDNN's float16
(no AVX512-FP16, AMX-FP16 or AVX-NE-CONVERT: ops.host-cpu), Eigen's half-precision matrix product
(every product and sum rounded to float16, in the order of Eigen's kernel), and on CPUs with it
oneDNN's _MklEinsum (float32 accumulation, rounded once); a float16 MatMul adds in float32 and
rounds once on both. The expected values are computed here from the rule, in NumPy; the operands
are multiples of 1/8 whose float32 sums are exact (so no check depends on the order of float32
additions) and whose float16 running sums are not. Each test runs where its CPU rule applies
(simdist: the CPU model in force; TF: this machine's CPU). tests/ops/test_f16tr_tf.py checks the
rules against TF 2.21 on 155 cases.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, to_numpy
from simdist.conformance.suite.host_model import runs_onednn

clause = pytest.mark.clause


def _operands(b: int, m: int, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1201)
    x = (rng.integers(-63, 64, (b, m, k)) / 8).astype(np.float16)
    y = (rng.integers(-63, 64, (b, k, n)) / 8).astype(np.float16)
    return x, y


def _h(v: np.ndarray) -> np.ndarray:
    return v.astype(np.float16).astype(np.float32)


def _rounded_chain(x: np.ndarray, y: np.ndarray, ks: range, acc: np.ndarray) -> np.ndarray:
    """acc = h(acc + h(a·b)) for k in ks: a product rounded to float16, then the sum."""
    for k in ks:
        acc = _h(acc + _h(x[:, :, k, None].astype(np.float32) * y[:, None, k, :].astype(np.float32)))
    return acc


def _onednn_float16(tf) -> bool:
    """Whether TF runs float16 through oneDNN on the CPU the backend models (simdist) or runs on (TF)."""
    return runs_onednn(tf, "float16")


def _needs_eigen_float16(tf) -> None:
    if _onednn_float16(tf):
        pytest.skip("this CPU runs float16 Einsum through oneDNN (ops.host-cpu): "
                    "test_float16_einsum_through_onednn_rounds_once applies")


def _same(got, want: np.ndarray, call: str) -> None:
    got = to_numpy(got)
    bad = np.argwhere(got != want)
    assert_true(got.dtype == want.dtype and bad.size == 0,
                f"{call} differs at {bad[:3].tolist()}: {[float(got[tuple(i)]) for i in bad[:3]]}, but should be "
                f"{[float(want[tuple(i)]) for i in bad[:3]]} ({len(bad)} of {want.size})", call=call)


@clause("ops.einsum", ref="tf221")
def test_float16_einsum_rounds_every_product_and_sum(tf):
    _needs_eigen_float16(tf)
    # 16 output columns: Eigen's two-packet panel, one accumulator, k in order
    x, y = _operands(2, 5, 12, 16)
    zero = np.zeros((2, 5, 16), np.float32)
    want = _rounded_chain(x, y, range(12), zero).astype(np.float16)
    once = np.matmul(x.astype(np.float32), y.astype(np.float32)).astype(np.float16)
    assert_true(bool((want != once).any()), "the rule's values should differ from the float32 product rounded once",
                call="reference")
    _same(tf.einsum("bmk,bkn->bmn", tf.constant(x), tf.constant(y)), want, "tf.einsum('bmk,bkn->bmn', float16)")


@clause("ops.einsum", ref="tf221")
def test_float16_einsum_of_eight_columns_adds_even_and_odd_k_apart(tf):
    _needs_eigen_float16(tf)
    # 8 output columns (one packet) and rows in groups of 4: even k and odd k in two accumulators
    x, y = _operands(3, 8, 12, 8)
    zero = np.zeros((3, 8, 8), np.float32)
    even = _rounded_chain(x, y, range(0, 8, 2), zero)
    odd = _rounded_chain(x, y, range(1, 8, 2), zero)
    want = _rounded_chain(x, y, range(8, 12), _h(even + odd)).astype(np.float16)
    single = _rounded_chain(x, y, range(12), zero).astype(np.float16)
    assert_true(bool((want != single).any()), "two accumulators should differ from one here", call="reference")
    _same(tf.einsum("bmk,bkn->bmn", tf.constant(x), tf.constant(y)), want, "tf.einsum('bmk,bkn->bmn', float16)")


@clause("ops.einsum", ref="tf221")
def test_float16_einsum_through_onednn_rounds_once(tf):
    if not _onednn_float16(tf):
        pytest.skip("this CPU runs float16 Einsum in Eigen's half-precision product (ops.host-cpu)")
    x, y = _operands(2, 5, 12, 16)
    want = np.matmul(x.astype(np.float32), y.astype(np.float32)).astype(np.float16)   # (exact in float32)
    _same(tf.einsum("bmk,bkn->bmn", tf.constant(x), tf.constant(y)), want, "tf.einsum('bmk,bkn->bmn', float16)")


@clause("ops.einsum", ref="tf221")
def test_float16_matmul_adds_in_float32_and_rounds_once(tf):
    x, y = _operands(2, 5, 12, 16)
    want = np.matmul(x.astype(np.float32), y.astype(np.float32)).astype(np.float16)   # (exact in float32)
    _same(tf.matmul(tf.constant(x), tf.constant(y)), want, "tf.matmul(float16)")
    if not _onednn_float16(tf):
        einsum = to_numpy(tf.einsum("bmk,bkn->bmn", tf.constant(x), tf.constant(y)))
        assert_true(bool((einsum != want).any()), "float16 einsum (Eigen's product) and matmul should round "
                    "differently on these operands", call="tf.einsum vs tf.matmul (float16)")

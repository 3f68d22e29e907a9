"""The classes around the eighty-third blind batch's mutants (tests/mutants.py TRAINING_BATCH83) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind83_gaps --record`, which rewrites blind83_reference.json.gz;
MirroredStrategy over two logical CPUs). Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on
(recorded_programs.avx512_with_onednn): the programs whose values follow the CPU (prefix `kernel-`: oneDNN's sgemm
kernels, their k blocks and NaN payloads) run on simdist elsewhere under its reference model of such a host. Floats
are compared by their bits (a NaN's payload too)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind83_reference.json.gz")

#: programs whose TF 2.21 values follow the CPU (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu,
                       replicas=2)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _raw(t: Any) -> list:
    """A float tensor's values as their bit patterns (a NaN's payload included)."""
    a = np.asarray(t.numpy())
    return a.view(f"u{a.dtype.itemsize}").ravel().tolist()


def _tag(a: np.ndarray, r: Any, share: float, base: int) -> np.ndarray:
    """float32 `a` with about `share` of its elements NaNs whose payloads count up from `base` (in place)."""
    m = r.uniform(size=a.shape) < share
    a[m] = (np.arange(int(m.sum()), dtype=np.uint32) + np.uint32(0x7FC00000 + base)).view(np.float32)
    return a


# -- kernels: oneDNN's float32 products, their NaN payloads and kernel choice by shape -------------------------------
def _matmul_nans(tf: Any, mk: Any) -> Any:
    """float32 matmul with NaN-tagged operands (x's payloads from 0x10, y's from 0x2000), some at one step in both,
    an inf times zero: plain products of k within one block and across several (k 7 to 2,000), transpose_a,
    transpose_b of 2 to 15 rows (the dot-product kernel) and of more, one row and one column: every result's bits."""
    r = _rng("matmulnans")
    out = {}
    cases = [(3, 7, 4, False, False), (5, 40, 6, False, False), (8, 100, 3, False, False), (4, 384, 5, False, False),
             (3, 800, 4, False, False), (5, 1200, 6, False, False), (2, 2000, 3, False, False),
             (6, 50, 5, True, False), (3, 600, 4, True, False),
             (3, 40, 5, False, True), (8, 64, 17, False, True), (15, 33, 40, False, True), (2, 100, 3, False, True),
             (20, 30, 8, False, True), (1, 50, 7, False, False), (1, 5000, 30, False, False), (9, 300, 1, False, False)]
    for m, k, n, ta, tb in cases:
        x = r.uniform(-1, 1, (m, k)).astype(np.float32)
        y = r.uniform(-1, 1, (k, n)).astype(np.float32)
        for share in (0.03, 0.3):
            xx, yy = _tag(x.copy(), r, share, 0x10), _tag(y.copy(), r, share, 0x2000)
            j = k // 2
            xx[:, j] = (np.arange(m, dtype=np.uint32) + np.uint32(0x7FC00400)).view(np.float32)
            yy[j, :] = (np.arange(n, dtype=np.uint32) + np.uint32(0x7FC06000)).view(np.float32)
            xx[0, 1], yy[1, 0] = np.inf, 0.0
            a = tf.constant(xx.T.copy() if ta else xx)
            b = tf.constant(yy.T.copy() if tb else yy)
            out[f"m{m} k{k} n{n} ta{int(ta)} tb{int(tb)} nan{share}"] = _error(
                lambda: _raw(tf.matmul(a, b, transpose_a=ta, transpose_b=tb)))
    return out


_program("kernel-matmul-nan-payloads", _matmul_nans)


def _matmul_shapes(tf: Any, mk: Any) -> Any:
    """float32 products at the edges of oneDNN's kernel choice: transpose_b with 15 to 20 rows and 99 to 101 columns
    (its copy-based sgemm), k 700 to 1,280 (32 rows with k 1,199 and 1,200: open; 199 and 200 rows, 1,199 columns: left
    to NumPy's BLAS, whose bits follow OpenBLAS's kernel); one row by 500 to 1,100 columns (the matrix-vector
    kernel's split of k by its outputs): their bits."""
    r = _rng("matmulshapes")
    out = {}
    for m, k, n in ((16, 800, 99), (16, 800, 100), (16, 800, 101), (15, 800, 101), (17, 700, 100), (20, 1000, 100),
                    (16, 1280, 100)):
        x = tf.constant(r.uniform(-1, 1, (m, k)).astype(np.float32))
        y = tf.constant(r.uniform(-1, 1, (n, k)).astype(np.float32))
        out[f"tb m{m} k{k} n{n}"] = _bits(tf.matmul(x, y, transpose_b=True))
    for k, n in ((2001, 1100), (3000, 1001), (4141, 1200), (2001, 1000), (4141, 500), (8001, 999)):
        x = tf.constant(r.uniform(-1, 1, (1, k)).astype(np.float32))
        y = tf.constant(r.uniform(-1, 1, (k, n)).astype(np.float32))
        out[f"row k{k} n{n}"] = _bits(tf.matmul(x, y))
    return out


_program("kernel-matmul-shapes", _matmul_shapes)


# -- ops: index depths, softmax ranks, label and data dtypes, where's conditions, dropout's noise shapes ------------
def _index_depths(tf: Any, mk: Any) -> Any:
    """The scatter and gather kernels by index depth 1 to 8 into tensors of rank 1 to 8 (sizes 2): tensor_scatter_nd
    update/add/sub/max/min, scatter_nd and gather_nd, eagerly and traced: values or error classes."""
    out = {}
    for rank in (5, 6, 7, 8):
        t = tf.reshape(tf.range(2 ** rank, dtype=tf.float32), [2] * rank)
        for d in range(1, rank + 1):
            idx = [[1] * d, [0] * d]
            upd = tf.ones([2] + [2] * (rank - d))
            for name, fn in (("update", tf.tensor_scatter_nd_update), ("add", tf.tensor_scatter_nd_add),
                             ("sub", tf.tensor_scatter_nd_sub), ("max", tf.tensor_scatter_nd_max),
                             ("min", tf.tensor_scatter_nd_min)):
                out[f"{name} r{rank} d{d}"] = _error(lambda: _bits(tf.reduce_sum(fn(t, idx, upd * 3.0), axis=0)))
            out[f"scatter_nd r{rank} d{d}"] = _error(lambda: _bits(tf.reduce_sum(
                tf.scatter_nd(tf.constant(idx), upd, [2] * rank), axis=0)))
            out[f"gather_nd r{rank} d{d}"] = _error(lambda: _bits(tf.gather_nd(t, idx)))
            g = tf.function(lambda t, u: tf.tensor_scatter_nd_add(t, idx, u))
            out[f"traced add r{rank} d{d}"] = _error(lambda: _bits(tf.reduce_sum(g(t, upd), axis=0)))
    return out


_program("op-index-depths", _index_depths)


def _softmax_ranks(tf: Any, mk: Any) -> Any:
    """softmax and log_softmax of ranks 0 to 8 (the last axis and axis 0), float32, bfloat16, float16 and float64,
    eagerly and traced: values or error classes."""
    out = {}
    for dt in ("float32", "bfloat16", "float16", "float64"):
        for rank in range(0, 9):
            shape = [2] + [1] * max(rank - 2, 0) + [3] if rank >= 2 else ([3] if rank == 1 else [])
            x = tf.cast(tf.reshape(tf.range(int(np.prod(shape)), dtype=tf.float32) / 4.0, shape), dt)
            for name, fn in (("softmax", tf.nn.softmax), ("log_softmax", tf.nn.log_softmax)):
                out[f"{name} {dt} r{rank}"] = _error(lambda: _bits(fn(x)))
                out[f"{name} {dt} r{rank} traced"] = _error(lambda: _bits(tf.function(fn)(x)))
                if rank >= 2:
                    out[f"{name} {dt} r{rank} axis0"] = _error(lambda: _bits(fn(x, axis=0)))
    return out


_program("op-softmax-ranks", _softmax_ranks)


def _label_dtypes(tf: Any, mk: Any) -> Any:
    """sparse_softmax_cross_entropy_with_logits with labels of every integer dtype (and float), logits float32,
    float16, float64, eagerly and traced; unsorted_segment_sum/max/min/prod of data of bool, int8, uint8, uint16,
    float16, complex64 and string: values or error classes."""
    out = {}
    lg = np.array([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]])
    for ldt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float32"):
        for fdt in ("float32", "float16", "float64"):
            lab, lo = tf.constant([0, 2], ldt), tf.constant(lg, fdt)
            fn = tf.nn.sparse_softmax_cross_entropy_with_logits
            out[f"xent {ldt} {fdt}"] = _error(lambda: _bits(fn(labels=lab, logits=lo)))
            out[f"xent {ldt} {fdt} traced"] = _error(lambda: _bits(tf.function(lambda a, b: fn(labels=a, logits=b))(lab, lo)))
    for ddt in ("bool", "int8", "uint8", "uint16", "float16", "complex64", "string", "int32"):
        vals = {"bool": [True, False, True], "string": ["a", "b", "c"]}.get(ddt, [1, 2, 3])
        d = tf.constant(vals, ddt)
        for name, fn in (("sum", tf.math.unsorted_segment_sum), ("max", tf.math.unsorted_segment_max),
                         ("min", tf.math.unsorted_segment_min), ("prod", tf.math.unsorted_segment_prod)):
            out[f"segment {name} {ddt}"] = _error(lambda: np.asarray(fn(d, [0, 1, 0], 2).numpy()).astype(str).tolist())
        out[f"segment_sum sorted {ddt}"] = _error(lambda: np.asarray(tf.math.segment_sum(d, [0, 0, 1]).numpy())
                                                  .astype(str).tolist())
    return out


_program("op-label-and-data-dtypes", _label_dtypes)


def _where_conditions(tf: Any, mk: Any) -> Any:
    """tf.where(condition, x, y) and tf.where(condition) with conditions of every form: Python lists of floats,
    ints, bools and nested lists, NumPy float, int and bool arrays, tensors of bool, int32 and float32, eagerly and
    traced: values or error classes."""
    out = {}
    conds = {"py floats": [0.0, 2.0, -1.0], "py ints": [0, 3, 1], "py bools": [True, False, True],
             "nested floats": [[0.0, 1.5, 0.0]], "np float": np.array([0.0, 2.0, -1.0]), "np int": np.array([0, 3, 1]),
             "np bool": np.array([True, False, False]), "np float32": np.array([0.0, 1.0, 0.5], np.float32)}
    for name, c in conds.items():
        out[f"select {name}"] = _error(lambda: _bits(tf.where(c, [1, 2, 3], [4, 5, 6])))
        out[f"select scalars {name}"] = _error(lambda: _bits(tf.where(c, 1.5, 2.5)))
        out[f"coords {name}"] = _error(lambda: _bits(tf.where(c)))
        out[f"select traced {name}"] = _error(lambda: _bits(tf.function(lambda: tf.where(c, 1.5, 2.5))()))
    for dt in ("int32", "float32"):
        t = tf.constant([0, 2, 1], dt)
        out[f"select tensor {dt}"] = _error(lambda: _bits(tf.where(t, [1, 2, 3], [4, 5, 6])))
        out[f"coords tensor {dt}"] = _error(lambda: _bits(tf.where(t)))
    return out


_program("op-where-conditions", _where_conditions)


def _dropout_shapes(tf: Any, mk: Any) -> Any:
    """tf.nn.dropout's noise_shape against x's rank and dimensions (higher and lower ranks, broadcasting ones,
    mismatches), inside a tf.function with x's shape known and unknown, and eagerly: the result's shape or the
    error's class (a noise_shape [4, 3] beside an x of unknown dimensions: open)."""
    out = {}
    for shape in ((), (3,), (2, 3), (2, 1, 3)):
        for ns in ([2, 3], [3], [1], [2, 1], [1, 1, 1], [2, 2, 3], [1, 3, 1, 1]):
            x = tf.ones(shape)
            f = tf.function(lambda v: tf.shape(tf.nn.dropout(v, 0.5, noise_shape=ns, seed=1)))
            out[f"x{list(shape)} ns{ns}"] = _error(lambda: _bits(f(x)))
            g = tf.function(lambda v: tf.shape(tf.nn.dropout(v, 0.5, noise_shape=ns, seed=1)),
                            input_signature=[tf.TensorSpec([None] * len(shape), tf.float32)])
            out[f"x{list(shape)} ns{ns} unknown dims"] = _error(lambda: _bits(g(x)))
            out[f"x{list(shape)} ns{ns} eager"] = _error(lambda: _bits(tf.shape(tf.nn.dropout(x, 0.5, noise_shape=ns,
                                                                                                seed=1))))
    return out


_program("op-dropout-noise-shapes", _dropout_shapes)


# -- the tape: watched variables' order --------------------------------------------------------------------------
def _watched_order(tf: Any, mk: Any) -> Any:
    """GradientTape.watched_variables() after gradient, jacobian and batch_jacobian on persistent and non-persistent
    tapes, variables created in one order, read in another, watched explicitly and read twice: their names in order,
    and the gradients."""
    out = {}
    for how in ("gradient", "jacobian", "batch_jacobian", "none"):
        for persistent in (False, True):
            a = tf.Variable([[1.0, 2.0]], name="a")
            b = tf.Variable([[3.0, 4.0]], name="b")
            c = tf.Variable(0.5, name="c")
            d = tf.Variable([[2.0, 1.0]], name="d")
            with tf.GradientTape(persistent=persistent) as t:
                t.watch(d)
                y = c * b * a + tf.reduce_sum(b) * d
            res: Any
            if how == "gradient":
                res = [_bits(g) for g in t.gradient(y, [a, b, c, d])]
            elif how == "jacobian":
                res = [_bits(g) for g in t.jacobian(y, [a, b])]
            elif how == "batch_jacobian":
                res = _bits(t.batch_jacobian(y, a))
            else:
                res = None
            out[f"{how} persistent={persistent}"] = [[v.name for v in t.watched_variables()], res]
    return out


_program("tape-watched-variables-order", _watched_order)


# -- tf.function: Grappler's Square(Sub) and Mul-by-ones rewrites by dtype and consumers -----------------------------
def _grappler_dtypes(tf: Any, mk: Any) -> Any:
    """Inside a tf.function: tf.square(a - b) with the difference also returned, used twice or used alone, for every
    integer dtype and float32 (SquaredDifference has no kernel for the narrow and unsigned integers); `x * ones`
    broadcasting, with subnormal x, for float32, float64, bfloat16, float16 and complex64, arguments named before and
    after "ones": values or error classes."""
    out = {}
    for dt in ("int8", "int16", "uint8", "uint16", "uint32", "uint64", "int32", "int64", "float32"):
        a, b = tf.constant([5, 3, 7], dt), tf.constant([2, 1, 7], dt)
        forms = {"alone": lambda a, b: tf.square(a - b),
                 "returned": lambda a, b: (lambda d: (tf.square(d), d))(a - b),
                 "twice": lambda a, b: (lambda d: tf.square(d) + d)(a - b),
                 "other consumer": lambda a, b: (lambda d: (tf.square(d), tf.abs(d)))(a - b)}
        for name, fn in forms.items():
            out[f"square {dt} {name}"] = _error(lambda: tf.nest.map_structure(_bits, tf.function(fn)(a, b)))
    subs = {"float32": [5e-42, 1.0, -3e-40, 2.5], "float64": [5e-320, 1.0, -3e-310, 2.5],
            "float16": [3e-8, 1.0, -5e-8, 2.5], "bfloat16": [1e-39, 1.0, -2e-39, 2.5], "complex64": [5e-42, 1.0, 2.5, 3.0]}
    for dt, v in subs.items():
        x = tf.constant(np.array(v).reshape(4, 1), dt)
        ones = tf.ones([1, 3], dt)
        for arg in ("a", "x", "zz"):
            scope: dict = {"tf": tf, "dt": dt}
            exec(f"def f({arg}):\n    return {arg} * tf.ones([1, 3], dt), tf.ones([1, 3], dt) * {arg}\n", scope)
            out[f"mul ones {dt} arg {arg}"] = _error(lambda: [_raw(t) if dt != "complex64" else _raw(tf.math.real(t))
                                                             for t in tf.function(scope["f"])(x)])
        out[f"mul ones {dt} eager"] = _error(lambda: _raw(tf.math.real(x * ones) if dt == "complex64" else x * ones))
    return out


_program("fn-grappler-rewrites-by-dtype", _grappler_dtypes)


# -- distribution: reduce and gather of per-replica values of mixed kinds --------------------------------------------
def _mixed_components(tf: Any, mk: Any) -> Any:
    """strategy.reduce(SUM/MEAN, axis=None) of per-replica values whose replicas hold different kinds (a tensor, a
    Python float or int, a NumPy value, a list, a bool, a string), MirroredStrategy of two replicas: values or error
    classes (with an axis, and gather: open)."""
    s = mk()
    out = {}
    kinds = {"tensor": lambda i: tf.constant([1.0 + i]), "float": lambda i: 2.0 + i, "int": lambda i: 3 + i,
             "numpy": lambda i: np.array([4.0 + i], np.float32), "list": lambda i: [5.0 + i], "bool": lambda i: True,
             "string": lambda i: "s"}
    for k0, f0 in kinds.items():
        for k1, f1 in kinds.items():
            if k0 == k1 and k0 != "tensor":
                continue
            try:
                pv = s.experimental_distribute_values_from_function(
                    lambda ctx, f0=f0, f1=f1: f0(0) if ctx.replica_id_in_sync_group == 0 else f1(1))
            except Exception as e:  # noqa: BLE001 - the class is the result
                out[f"values {k0}/{k1}"] = f"raised {type(e).__name__}"
                continue
            for op in ("SUM", "MEAN"):
                out[f"reduce {op} {k0}/{k1}"] = _error(lambda: _bits(s.reduce(op, pv, axis=None)))
    return out


_program("dist-mixed-components", _mixed_components)


@pytest.mark.clause("ops.host-cpu")
@pytest.mark.parametrize("name", _ids("kernel-"))
def test_blind83_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """oneDNN's float32 products: NaN payloads of every kernel and the kernel choice at its shape edges, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("ops.array-more")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind83_ops_arguments(backend: Any, name: str) -> None:
    """Index depths, softmax ranks, label and data dtypes, where's conditions, dropout's noise shapes: values or
    error classes."""
    _check(backend, name)


@pytest.mark.clause("autodiff.watch")
@pytest.mark.parametrize("name", _ids("tape-"))
def test_blind83_tape(backend: Any, name: str) -> None:
    """A tape's watched variables in order after its gradients."""
    _check(backend, name)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("fn-"))
def test_blind83_function_rewrites(backend: Any, name: str) -> None:
    """Grappler's rewrites by dtype, consumers and operand names: values or error classes."""
    _check(backend, name)


@pytest.mark.clause("reduce.axis-none")
@pytest.mark.parametrize("name", _ids("dist-"))
def test_blind83_distribution(backend: Any, name: str) -> None:
    """reduce(axis=None) of per-replica values of mixed kinds: values or error classes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

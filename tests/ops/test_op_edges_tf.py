"""Edge values and operand conversion against real TensorFlow 2.21: the same program on both
backends gives the same dtype and the same bits (NaN matches NaN), or raises the same exception
class. Float floor division and modulo over a grid of signed zeros, infinities, NaN and ordinary
values; bitwise ops and `&`, `|`, `^`, `~`; Python values converted to tensors (wrap-around, refused
floats, mixed sequences, out-of-range literals); `==` on tensors and variables; bools refused by
arithmetic; empty inputs. Needs the `tf` extra.

Subnormal floats are left out of the grids on purpose: TF's CPU kernels run with flush-to-zero
and denormals-are-zero (1e-45 + 0.0 is 0.0 in TF), which simdist does not model (docs/spec.md,
`ops.floor-division-float`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_EDGES = [1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 0.2, 5.5, -5.5, 3.0, 1e30]


def _grid(dt: Any) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(over="ignore"):   # 1e30 is inf in float16
        v = np.array(_EDGES, dtype=dt)
    return np.repeat(v, len(v)), np.tile(v, len(v))


def _int_grid(dt: Any) -> tuple[np.ndarray, np.ndarray]:
    info = np.iinfo(dt)
    v = np.array([7, -7, 1, -1, 3, info.max, info.min if info.min else 2], dtype=dt)
    x, y = np.repeat(v, len(v)), np.tile(v, len(v))
    return x, y


def _var(tf: Any, value: Any) -> Any:
    return tf.Variable(value)


def _gather_grad_empty(tf: Any) -> Any:
    """The gradient of a gather whose slices are empty, with an index past the axis (fuzzer, seed 20261201 #20)."""
    v = tf.Variable(tf.zeros([2, 0, 3]))
    with tf.GradientTape() as tape:
        y = tf.gather(v, [5], axis=2)
    return tf.convert_to_tensor(tape.gradient(y, v))


def _batch_gather_grad(tf: Any) -> Any:
    v = tf.Variable(tf.reshape(tf.range(24.0), [2, 3, 4]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, tf.constant([[0, 2, 2], [1, 3, 0]]), axis=2, batch_dims=1) * 3.0)
    return tf.convert_to_tensor(tape.gradient(y, v))


def _guards(tf: Any, r: Any) -> Any:
    """r with its finite non-zero entries set to 0: the zero guards' signed zeros, infinities and
    NaNs compared bit for bit, not the last bits of log (values: test_op_differential_tf.py)."""
    return tf.where(tf.math.is_finite(r) & tf.math.not_equal(r, 0), tf.zeros_like(r), r)


def _diag_part_grad(tf: Any) -> Any:
    v = tf.Variable(tf.reshape(tf.range(12.0), [3, 4]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.diag_part(v, k=(-1, 1)) * tf.constant([[1.0], [2.0], [3.0]]))
    return tape.gradient(y, v)


def _max_pool_grad(tf: Any, values: list[float]) -> Any:
    x = tf.Variable(np.array(values, np.float32).reshape(1, 2, 2, 1))
    with tf.GradientTape() as tape:
        y = tf.nn.max_pool2d(x, 2, 1, "VALID")
    return [y, tape.gradient(y, x)]


def _sort_rows(count: int) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Seeded rows with NaN, infinities and ties, sorted, argsorted and top-k'd every way TF's
    TopKV2 kernel branches (k == 1, k == n, 1 < k < n, sorted or not; rows shorter and longer
    than a SIMD packet and than libstdc++'s insertion-sort threshold)."""
    rng = np.random.default_rng(7)
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for i in range(count):
        n = int(rng.choice([2, 3, 5, 8, 15, 16, 17, 33, 64, 100, 257]))
        row = rng.normal(size=n).astype(np.float32)
        if rng.random() < 0.5:
            row = np.round(row * 2) / 2
        row[rng.random(n) < rng.choice([0.0, 0.05, 0.2, 0.5, 0.9])] = np.nan
        if rng.random() < 0.2:
            row[rng.random(n) < 0.1] = np.inf
        kind, k = int(rng.integers(6)), int(rng.integers(0, n + 1))
        programs = [
            (f"top_k[k={k}]", lambda tf, r=row, k=k: list(tf.math.top_k(tf.constant(r), k))),
            (f"top_k[k={k},unsorted]", lambda tf, r=row, k=k: list(tf.math.top_k(tf.constant(r), k, sorted=False))),
            ("sort", lambda tf, r=row: tf.sort(tf.constant(r))),
            ("sort[descending]", lambda tf, r=row: tf.sort(tf.constant(r), direction="DESCENDING")),
            ("argsort", lambda tf, r=row: tf.argsort(tf.constant(r))),
            ("top_k[k=1]", lambda tf, r=row: list(tf.math.top_k(tf.constant(r), 1))),
        ]
        name, fn = programs[kind]
        out.append((f"row{i}-n{n}-{name}", "ops.sort", fn))
    return out


def _segment_rows(count: int) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Seeded sorted segment_max/min of rows holding NaN, infinities and signed zeros, with
    column counts below, at and past a SIMD packet (float64 4, float32/float16 8 lanes), so both
    of the kernel's folds (packet columns, scalar columns) and one-row segments are compared
    (fuzzer, seed 20261130 #1301 and #11036, seed 20261201 #2297 and #2333)."""
    rng = np.random.default_rng(11)
    pool = np.array([np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, -1.0, 2.0])
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for i in range(count):
        dt = ("float16", "float32", "float64")[i % 3]
        cols, rows = int(rng.choice([1, 3, 4, 5, 8, 9, 12, 16, 17])), int(rng.integers(2, 7))
        ids = np.sort(rng.integers(0, 3, rows)).tolist()
        x = rng.choice(pool, size=(rows, cols))
        fn = ("segment_max", "segment_min")[int(rng.integers(2))]
        out.append((f"{fn}-{dt}-{rows}x{cols}-{i}", "ops.nan-folds",
                    lambda tf, fn=fn, x=x, dt=dt, ids=ids: getattr(tf.math, fn)(tf.constant(x, getattr(tf, dt)), ids)))
    return out


def _shape_axes(rng: np.random.Generator) -> tuple[list[int], list[int] | None]:
    """A random shape of rank 1-4 with at most 400 elements (dimensions below, at and past the
    packet widths) and a random sorted subset of its axes (None: all)."""
    rank = int(rng.integers(1, 5))
    shape = [int(rng.choice([1, 2, 3, 4, 5, 8, 9, 17, 40])) for _ in range(rank)]
    while int(np.prod(shape)) > 400:
        shape[int(rng.integers(rank))] = 2
    k = int(rng.integers(0, rank + 1))
    return shape, (sorted(rng.choice(rank, k, replace=False).tolist()) if k else None)


def _zero_reductions(count: int) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Seeded float32/float64 reduce_max/min of tensors of zeros of both signs (and a few values
    beyond), over random shapes and axes: full, row, column, middle and transposed reductions,
    slices shorter and longer than four packets (fuzzer, seed 20261130 #1076)."""
    rng = np.random.default_rng(13)
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for i in range(count):
        dt = ("float32", "float64")[i % 2]
        shape, axes = _shape_axes(rng)
        fn = ("reduce_min", "reduce_max")[int(rng.integers(2))]
        x = rng.choice(np.array([-0.0, 0.0, 1.0, 2.0]) * (1 if fn == "reduce_min" else -1), shape, p=[0.4, 0.4, 0.1, 0.1])
        out.append((f"{fn}-zeros-{dt}-{'x'.join(map(str, shape))}-axes{axes}-{i}", "ops.simd-signed-zeros",
                    lambda tf, fn=fn, x=x, dt=dt, axes=axes: getattr(tf, fn)(tf.constant(x, getattr(tf, dt)), axis=axes)))
    return out


def _products(count: int, dtypes: tuple[str, ...] = ("float32", "float64"), seed: int = 17) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Seeded float32/float64 reduce_prod over random shapes and axes of values that overflow,
    underflow, or are zeros and infinities: Eigen's order of products decides 0, inf or NaN
    (fuzzer, seed 20261201 #2178; float16, seed 20261130 #4597)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for i in range(count):
        dt = dtypes[i % len(dtypes)]
        shape, axes = _shape_axes(rng)
        big = {"float32": 1e30, "float64": 1e200, "float16": 300.0}[dt]
        pool = np.array([0.0, -0.0, np.inf, -np.inf, big, -big, 1 / big, 1.0, -1.0, 2.0])
        x = rng.choice(pool, shape, p=[0.02, 0.02, 0.02, 0.02, 0.1, 0.1, 0.12, 0.3, 0.2, 0.1])
        out.append((f"reduce-prod-{dt}-{'x'.join(map(str, shape))}-axes{axes}-{i}", "ops.packet-paths",
                    lambda tf, x=x, dt=dt, axes=axes: tf.reduce_prod(tf.constant(x, getattr(tf, dt)), axis=axes)))
    return out


def _contractions(count: int) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Seeded float32/float64 matmul and einsum ('ij,kj->ik', 'ij,ij->i') of values near the
    dtype's largest and infinities, k below 16: TF accumulates over k in order, float32 with fused
    multiply-adds (fuzzer, seed 20261201 #2105 and #2154)."""
    rng = np.random.default_rng(19)
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for i in range(count):
        dt = ("float32", "float64")[i % 2]
        big = float(np.finfo(dt).max)
        m, k, n = int(rng.integers(2, 9)), int(rng.integers(1, 16)), int(rng.integers(2, 9))
        pool = np.array([big, -big, big / 2, 1.0, -1.0, 1.5, 7.25, 0.0, np.inf, -np.inf, 2.0])
        p = [0.15, 0.15, 0.05, 0.15, 0.15, 0.1, 0.05, 0.06, 0.02, 0.02, 0.1]
        a, b = rng.choice(pool, (m, k), p=p), rng.choice(pool, (k, n), p=p)
        kind = ("matmul", "einsum-ij,kj->ik", "einsum-ij,ij->i")[i % 3]
        fns = {"matmul": lambda tf, a=a, b=b, dt=dt: tf.matmul(tf.constant(a, getattr(tf, dt)), tf.constant(b, getattr(tf, dt))),
               "einsum-ij,kj->ik": lambda tf, a=a, b=b, dt=dt: tf.einsum("ij,kj->ik", tf.constant(a, getattr(tf, dt)),
                                                                         tf.constant(b.T, getattr(tf, dt))),
               "einsum-ij,ij->i": lambda tf, a=a, dt=dt: tf.einsum("ij,ij->i", tf.constant(a, getattr(tf, dt)),
                                                                   tf.constant(a[::-1], getattr(tf, dt)))}
        out.append((f"{kind}-{dt}-{m}x{k}x{n}-{i}", "ops.packet-paths", fns[kind]))
    return out


def _half_sums(count: int) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Seeded float16 reduce_sum over random shapes and axes of values whose float16 running
    sums round or overflow: TF adds in float16 in Eigen's order (fuzzer, seed 20261130 #15835)."""
    rng = np.random.default_rng(29)
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for i in range(count):
        shape, axes = _shape_axes(rng)
        x = rng.choice(np.array([65504.0, -65504.0, 3.0, -3.0, 7.0, 0.5, 1000.0, 0.0, 0.1, -2049.0]), shape)
        out.append((f"reduce-sum-float16-{'x'.join(map(str, shape))}-axes{axes}-{i}", "ops.packet-paths",
                    lambda tf, x=x, axes=axes: tf.reduce_sum(tf.constant(x, tf.float16), axis=axes)))
    return out


def _overflowing_sums(count: int) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Seeded float32/float64 reduce_sum/reduce_mean of values near the dtype's largest and
    infinities over random shapes and axes: Eigen's order decides inf or NaN (fuzzer, seed
    20261130 #16473)."""
    rng = np.random.default_rng(43)
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for i in range(count):
        dt = ("float32", "float64")[i % 2]
        shape, axes = _shape_axes(rng)
        big = float(np.finfo(dt).max)
        x = rng.choice(np.array([big, -big, big / 2, -big / 3, 1.0, -1.0, np.inf, -np.inf, 0.0]), shape,
                       p=[0.2, 0.2, 0.1, 0.1, 0.15, 0.15, 0.03, 0.03, 0.04])
        fn = ("reduce_sum", "reduce_mean")[i // 2 % 2]
        out.append((f"{fn}-overflow-{dt}-{'x'.join(map(str, shape))}-axes{axes}-{i}", "ops.packet-paths",
                    lambda tf, fn=fn, x=x, dt=dt, axes=axes: _guards(tf, getattr(tf, fn)(tf.constant(x, getattr(tf, dt)), axis=axes))))
    return out


# (id, clause, program): each program gets a `tf` module and returns a tensor (or a list of them).
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # float floor division and modulo: floor(x / y), and fmod corrected toward y's sign
    *[(f"floordiv-{np.dtype(d).name}", "ops.floor-division-float",
       (lambda d: lambda tf: tf.math.floordiv(*map(tf.constant, _grid(d))))(d)) for d in (np.float32, np.float64)],
    *[(f"floormod-{np.dtype(d).name}", "ops.floor-division-float",
       (lambda d: lambda tf: tf.math.floormod(*map(tf.constant, _grid(d))))(d)) for d in (np.float32, np.float64)],
    ("floordiv-float16", "ops.floor-division-float",
     lambda tf: tf.math.floordiv(*map(tf.constant, _grid(np.float16)))),
    ("floordiv-1-by-0.2", "ops.floor-division-float", lambda tf: tf.math.floordiv(1.0, 0.2)),
    ("floordiv-subnormal-quotient", "ops.floor-division-float",
     lambda tf: tf.constant([-1.5, 1.5, -7.25, -1e-30]) // tf.constant([1e38, 1e38, 1e38, 1e10])),
    ("floordiv-subnormal-quotient-float64", "ops.floor-division-float",
     lambda tf: tf.constant([-1.5, 2.0], tf.float64) // tf.constant([1e308, -1e308], tf.float64)),
    ("floordiv-operator", "ops.floor-division-float", lambda tf: tf.constant([1.0, -1.0, 7.5]) // 0.2),
    ("floordiv-int32-grid", "ops.floor-division-float",
     lambda tf: tf.math.floordiv(*map(tf.constant, _int_grid(np.int32)))),
    ("floormod-int64-grid", "ops.floor-division-float",
     lambda tf: tf.math.floormod(*map(tf.constant, _int_grid(np.int64)))),
    # bitwise
    ("and-int32", "ops.bitwise", lambda tf: tf.constant([6, -7, 5]) & 3),
    ("rand-int32", "ops.bitwise", lambda tf: 3 & tf.constant([6, -7, 5])),
    ("or-int32", "ops.bitwise", lambda tf: tf.constant([6, -7, 5]) | tf.constant([1, 1, 8])),
    *[(f"{name}-none-{dt}", "ops.bitwise", (lambda f, dt: lambda tf: f(tf.constant([1, 0], getattr(tf, dt)), None))(f, dt))
      for name, f in (("or", lambda x, y: x | y), ("and", lambda x, y: x & y), ("xor", lambda x, y: x ^ y),
                      ("ror", lambda x, y: y | x), ("add", lambda x, y: x + y))
      for dt in ("int32", "float32", "bool")],   # fuzzer, seed 20261130 #2677
    ("xor-uint8", "ops.bitwise", lambda tf: tf.constant([5, 255], tf.uint8) ^ tf.constant([3, 1], tf.uint8)),
    ("invert-int64", "ops.bitwise", lambda tf: ~tf.constant([0, -1, 2**40], tf.int64)),
    ("invert-uint8", "ops.bitwise", lambda tf: tf.bitwise.invert(tf.constant([0, 255], tf.uint8))),
    ("and-bool-is-logical", "ops.bitwise", lambda tf: tf.constant([True, False]) & tf.constant([True, True])),
    ("invert-bool-is-logical", "ops.bitwise", lambda tf: ~tf.constant([True, False])),
    ("and-broadcast", "ops.bitwise", lambda tf: tf.bitwise.bitwise_and(tf.constant([[1], [3]]), tf.constant([1, 2]))),
    ("left-shift-clamped", "ops.bitwise",
     lambda tf: tf.bitwise.left_shift(tf.constant([1, 1, 3, -1, 5]), tf.constant([40, -1, 31, 3, 2]))),
    ("right-shift-clamped", "ops.bitwise",
     lambda tf: tf.bitwise.right_shift(tf.constant([-8, 8, -8, 255]), tf.constant([40, -2, 2, 1]))),
    ("left-shift-uint8-wraps", "ops.bitwise",
     lambda tf: tf.bitwise.left_shift(tf.constant([200], tf.uint8), tf.constant([1], tf.uint8))),
    ("and-float-refused", "ops.bitwise", lambda tf: tf.constant([1.0]) & tf.constant([2.0])),
    ("invert-float-refused", "ops.bitwise", lambda tf: ~tf.constant([1.0])),
    ("bitwise-and-bool-refused", "ops.bitwise",
     lambda tf: tf.bitwise.bitwise_and(tf.constant([True]), tf.constant([False]))),
    ("bitwise-or-bool-literal", "ops.bitwise", lambda tf: tf.bitwise.bitwise_or(tf.constant([True]), 2)),
    ("bitwise-xor-float-literal", "ops.bitwise", lambda tf: tf.bitwise.bitwise_xor(tf.constant([1.5]), 2)),
    ("bitwise-and-int-float-literal", "ops.bitwise", lambda tf: tf.bitwise.bitwise_and(tf.constant([3]), 2.5)),
    ("and-mixed-int-refused", "ops.bitwise", lambda tf: tf.constant([1]) & tf.constant([1], tf.int64)),
    # operators on variables read the variable
    ("variable-and", "ops.bitwise", lambda tf: _var(tf, [6, -7, 5]) & 3),
    ("variable-invert", "ops.bitwise", lambda tf: ~_var(tf, [6, -7, 5])),
    ("variable-xor-reflected", "ops.bitwise", lambda tf: 3 ^ _var(tf, [6, -7, 5])),
    ("variable-mod", "ops.floor-division-float", lambda tf: _var(tf, [1.0, -2.5, 3.0]) % 2.0),
    ("variable-rmod", "ops.floor-division-float", lambda tf: 2.0 % _var(tf, [1.0, -2.5, 3.0])),
    ("variable-floordiv", "ops.floor-division-float", lambda tf: _var(tf, [1.0, -2.5, 3.0]) // 0.2),
    ("variable-rfloordiv", "ops.floor-division-float", lambda tf: 7.0 // _var(tf, [1.0, -2.5, 3.0])),
    ("variable-abs", "ops.floor-division-float", lambda tf: abs(_var(tf, [1.0, -2.5, -0.0]))),
    ("variable-rpow", "ops.floor-division-float", lambda tf: 2.0 ** _var(tf, [1.0, -2.5, 3.0])),
    # equality
    ("variable-eq-variable", "ops.tensor-equality", lambda tf: _var(tf, [1.0, 2.0, 3.0]) == _var(tf, [1.0, 0.0, 3.0])),
    ("variable-ne-variable", "ops.tensor-equality", lambda tf: _var(tf, [1.0, 2.0, 3.0]) != _var(tf, [1.0, 0.0, 3.0])),
    ("variable-eq-scalar", "ops.tensor-equality", lambda tf: _var(tf, [1.0, 2.0]) == 1.0),
    ("variable-eq-none", "ops.tensor-equality", lambda tf: _var(tf, [1.0, 2.0]) == None),  # noqa: E711
    ("variable-eq-other-shape", "ops.tensor-equality", lambda tf: _var(tf, [1.0, 2.0]) == _var(tf, [1.0, 2.0, 3.0])),
    ("variable-ne-other-shape", "ops.tensor-equality", lambda tf: _var(tf, [1.0, 2.0]) != _var(tf, [1.0, 2.0, 3.0])),
    ("tensor-eq-other-shape", "ops.tensor-equality", lambda tf: tf.constant([1, 2]) == [1, 2, 3]),
    ("tensor-eq-float-of-int", "ops.tensor-equality", lambda tf: tf.constant([1, 2]) == 1.5),
    ("tensor-eq-string", "ops.tensor-equality", lambda tf: tf.constant([1, 2]) == "a"),
    ("tensor-eq-other-dtype", "ops.tensor-equality", lambda tf: tf.constant([1, 2]) == tf.constant([1.0, 2.0])),
    ("tensor-eq-numpy", "ops.tensor-equality", lambda tf: tf.constant([1.0, 2.0]) == np.array([1.0, 3.0])),
    # conversion of Python and NumPy values
    ("float-list-to-int64", "ops.conversion", lambda tf: tf.constant([1.0], dtype=tf.int64)),
    # tf.math.add converts an int literal a bool tensor refuses without the dtype (int32), then refuses
    # the pair: InvalidArgumentError, where subtract & co. raise TypeError (fuzzer, seed 20261201 #914)
    *[(f"math-add-bool-int-literal-{i}", "ops.conversion", fn) for i, fn in enumerate([
        lambda tf: tf.math.add(tf.constant([True, False]), 2), lambda tf: tf.math.add(2, tf.constant([True])),
        lambda tf: tf.math.add(tf.constant([], tf.bool), 0), lambda tf: tf.math.subtract(tf.constant([True]), 2)])],
    ("integral-float-to-int32", "ops.conversion", lambda tf: tf.constant(1.0, dtype=tf.int32)),
    ("int-wraps-int32", "ops.conversion", lambda tf: tf.constant(2**33 + 5, tf.int32)),
    ("int-list-wraps-int32", "ops.conversion", lambda tf: tf.constant([2**33, -(2**31) - 1], tf.int32)),
    ("int-wraps-uint8", "ops.conversion", lambda tf: tf.constant([-1, 300], tf.uint8)),
    ("int-beyond-int64", "ops.conversion", lambda tf: tf.constant(2**63)),
    ("int-2**31-is-int64", "ops.conversion", lambda tf: tf.constant([1, 2**31])),
    ("uint64-max", "ops.conversion", lambda tf: tf.constant(2**64 - 1, tf.uint64)),
    ("float-beyond-float32", "ops.conversion", lambda tf: tf.constant([1e40])),
    ("float-beyond-float32-explicit", "ops.conversion", lambda tf: tf.constant([1e40, 1.0], tf.float32)),
    ("float-beyond-float16", "ops.conversion", lambda tf: tf.constant(7e4, tf.float16)),
    ("nan-to-int", "ops.conversion", lambda tf: tf.constant(float("nan"), tf.int32)),
    ("int-to-bool", "ops.conversion", lambda tf: tf.constant([0, 1], tf.bool)),
    ("bool-to-int", "ops.conversion", lambda tf: tf.constant(True, tf.int32)),
    ("bool-int-mixed", "ops.conversion", lambda tf: tf.constant([True, 2])),
    ("int-string-mixed", "ops.conversion", lambda tf: tf.constant([1, "a"])),
    ("none-in-list", "ops.conversion", lambda tf: tf.constant([1, None])),
    ("ragged-list", "ops.conversion", lambda tf: tf.constant([[1, 2], [3]])),
    ("numpy-float-truncates", "ops.conversion", lambda tf: tf.constant(np.array([1.5, -2.7]), tf.int32)),
    ("numpy-int-wraps", "ops.conversion", lambda tf: tf.constant(np.array([2**40 + 3]), tf.int32)),
    ("numpy-scalar-in-list-to-int", "ops.conversion", lambda tf: tf.constant([np.float64(1.5)], tf.int32)),
    ("numpy-float64-in-list", "ops.conversion", lambda tf: tf.constant([np.float64(1e40)])),
    ("hint-refused-falls-back", "ops.conversion", lambda tf: tf.convert_to_tensor(2.5, dtype_hint=tf.int32)),
    ("hint-numpy-array", "ops.conversion", lambda tf: tf.convert_to_tensor(np.array([1.5]), dtype_hint=tf.int32)),
    ("hint-int-wraps", "ops.conversion", lambda tf: tf.convert_to_tensor(300, dtype_hint=tf.int8)),
    ("range-float-to-int64", "ops.conversion", lambda tf: tf.range(0.5, 5, dtype=tf.int64)),
    ("int32-plus-numpy-float", "ops.conversion", lambda tf: tf.constant([1, 2]) + np.float64(2.5)),
    ("int32-plus-huge-int", "ops.conversion", lambda tf: tf.constant([1]) + 2**40),
    ("int8-plus-300", "ops.conversion", lambda tf: tf.constant([1], tf.int8) + 300),
    ("int-over-int64", "ops.conversion", lambda tf: -3 / tf.constant([2], tf.int64)),
    ("where-int-and-float", "ops.conversion",
     lambda tf: tf.where(tf.constant([True, False]), 3, tf.constant([1.0, 2.0]))),
    ("where-float-into-int", "ops.conversion",
     lambda tf: tf.where(tf.constant([True, False]), 3.5, tf.constant([1, 2]))),
    # bools refused by arithmetic (Mul, Equal and NotEqual take them)
    *[(f"bool-{name}", "ops.dtype-refusal", fn) for name, fn in [
        ("add", lambda tf: tf.constant([True]) + tf.constant([False])),
        ("sub", lambda tf: tf.constant([True]) - tf.constant([False])),
        ("mul", lambda tf: tf.constant([True]) * tf.constant([False])),
        ("truediv", lambda tf: tf.constant([True]) / tf.constant([True])),
        ("floordiv", lambda tf: tf.constant([True]) // tf.constant([True])),
        ("pow", lambda tf: tf.constant([True]) ** tf.constant([True])),
        ("maximum", lambda tf: tf.maximum(tf.constant([True]), tf.constant([False]))),
        ("less", lambda tf: tf.constant([True]) < tf.constant([False])),
        ("greater-equal", lambda tf: tf.math.greater_equal(tf.constant([True]), tf.constant([False]))),
        ("add-n", lambda tf: tf.add_n([tf.constant([True]), tf.constant([False])])),
        ("equal", lambda tf: tf.equal(tf.constant([True]), tf.constant([False]))),
        ("matmul", lambda tf: tf.matmul(tf.constant([[True]]), tf.constant([[True]]))),
    ]],
    # integer means: summed in int64, divided exactly, truncated toward zero
    ("mean-int32-no-wrap", "ops.integer-mean", lambda tf: tf.reduce_mean(tf.constant([2**30] * 3, tf.int32))),
    ("mean-int64-near-2**62", "ops.integer-mean",
     lambda tf: tf.reduce_mean(tf.constant([2**62 + 1, 2**62 + 3, 2**61 + 7], tf.int64))),
    ("mean-int64-wraps", "ops.integer-mean", lambda tf: tf.reduce_mean(tf.constant([2**62 + 1, 2**62 + 3], tf.int64))),
    ("mean-int32-truncates", "ops.integer-mean",
     lambda tf: tf.reduce_mean(tf.constant([[-7, 1], [3, 4]], tf.int32), axis=0)),
    ("segment-mean-int32-wrapped-sum", "ops.integer-mean",
     lambda tf: tf.math.segment_mean(tf.constant([2**30, 2**30, 7, -7, -8], tf.int32), [0, 0, 1, 1, 2])),
    ("unsorted-segment-mean-int8", "ops.integer-mean",
     lambda tf: tf.math.unsorted_segment_mean(tf.constant([-7, 2, 100, 100], tf.int8), [0, 0, 1, 1], 2)),
    ("mean-uint8", "ops.integer-mean", lambda tf: tf.reduce_mean(tf.constant([250, 10, 3], tf.uint8))),
    # NaN, infinities and ties through TF's TopKV2 kernel
    *_sort_rows(150),
    ("sort-nan-small", "ops.sort", lambda tf: tf.sort(tf.constant([3.0, np.nan, 1.0, -np.nan, 2.0]))),
    ("argsort-descending-nan", "ops.sort",
     lambda tf: tf.argsort(tf.constant([3.0, np.nan, 1.0, 2.0]), direction="DESCENDING")),
    ("top_k-1-nan-float64", "ops.sort", lambda tf: list(tf.math.top_k(tf.constant([np.nan, 1.0], tf.float64), 1))),
    ("top_k-1-nan-float16-rows", "ops.sort",
     lambda tf: list(tf.math.top_k(tf.constant([[np.nan, 2.0, 1.0], [0.5, np.nan, np.nan]], tf.float16), 1))),
    ("top_k-nan-float64", "ops.sort", lambda tf: list(tf.math.top_k(tf.constant([3.0, np.nan, 1.0], tf.float64), 2))),
    ("sort-int-extremes", "ops.sort",
     lambda tf: tf.sort(tf.constant([0, np.iinfo(np.int32).min, -1, np.iinfo(np.int32).max], tf.int32))),
    # MaxPool skips NaN and starts at the lowest finite value; its gradient's argmax
    *[(f"max-pool-{name}", "nn.max-pool-nan",
       (lambda v: lambda tf: tf.nn.max_pool2d(tf.constant(np.array(v, np.float32).reshape(1, 2, 2, 1)), 2, 1, "VALID"))(v))
      for name, v in [("nan-second", [1.0, np.nan, 3.0, 2.0]), ("nan-first", [np.nan, 1.0, 3.0, 2.0]),
                      ("all-nan", [np.nan] * 4), ("all-minus-inf", [-np.inf] * 4),
                      ("nan-and-minus-inf", [-np.inf, np.nan, -np.inf, -np.inf])]],
    *[(f"max-pool-grad-{name}", "nn.max-pool-nan", (lambda v: lambda tf: _max_pool_grad(tf, v))(v))
      for name, v in [("nan-first", [np.nan, 1.0, 5.0, 2.0]), ("nan-between", [1.0, np.nan, 5.0, np.nan]),
                      ("all-minus-inf", [-np.inf] * 4), ("ties", [1.0, 2.0, 2.0, 1.0])]],
    ("max-pool-same-padding-nan", "nn.max-pool-nan",
     lambda tf: tf.nn.max_pool2d(tf.constant(np.array([np.nan, 1.0, 3.0, np.nan], np.float32).reshape(1, 2, 2, 1)),
                                 2, 1, "SAME")),
    # float attrs are 32-bit, and a cast to the same dtype is the input itself
    ("leaky-relu-alpha-float64", "nn.float-attrs",
     lambda tf: tf.nn.leaky_relu(tf.constant([-1.0, 2.0], tf.float64), alpha=0.1)),
    ("elu-tiny-negative", "nn.float-attrs", lambda tf: tf.nn.elu(tf.constant([-5e-31, -6.4e-29, 1.5e-30, -1e-8]))),
    ("selu-tiny-negative", "nn.float-attrs",
     lambda tf: tf.nn.selu(tf.constant([-5e-31, -1e-300, 2.0], tf.float64))),
    ("leaky-relu-alpha-float16", "nn.float-attrs",
     lambda tf: tf.nn.leaky_relu(tf.constant([-1.0], tf.float16), alpha=0.1)),
    # gather with batch_dims
    ("gather-batch-dims-1", "ops.gather-batch-dims",
     lambda tf: tf.gather(tf.constant([[.1, .5, .3], [.9, .2, .4]]), [2, 0], axis=1, batch_dims=1)),
    ("gather-batch-dims-axis2", "ops.gather-batch-dims",
     lambda tf: tf.gather(tf.reshape(tf.range(24.0), [2, 3, 4]), tf.constant([[0, 2], [1, 1]]), axis=2, batch_dims=1)),
    ("gather-batch-dims-default-axis", "ops.gather-batch-dims",
     lambda tf: tf.gather(tf.reshape(tf.range(24.0), [2, 3, 4]), tf.constant([[0, 2], [1, 1]]), batch_dims=1)),
    ("gather-batch-dims-negative", "ops.gather-batch-dims",
     lambda tf: tf.gather(tf.reshape(tf.range(24), [2, 3, 4]), tf.constant([[0, 2], [1, 1]]), axis=1, batch_dims=-1)),
    ("gather-batch-dims-2", "ops.gather-batch-dims",
     lambda tf: tf.gather(tf.reshape(tf.range(24.0), [2, 3, 4]), tf.constant([[[3], [0], [1]], [[2], [2], [0]]]),
                          axis=2, batch_dims=2)),
    ("gather-batch-dims-mismatch", "ops.gather-batch-dims",
     lambda tf: tf.gather(tf.reshape(tf.range(24.0), [2, 3, 4]), tf.constant([[0], [1], [2]]), axis=1, batch_dims=1)),
    ("gather-batch-dims-gradient", "ops.gather-batch-dims", lambda tf: _batch_gather_grad(tf)),
    # empty inputs
    ("reduce-max-empty-int32", "ops.empty-inputs", lambda tf: tf.reduce_max(tf.constant([], tf.int32))),
    ("reduce-max-empty-float", "ops.empty-inputs", lambda tf: tf.reduce_max(tf.zeros([0, 3]), axis=0)),
    ("reduce-min-empty-int64", "ops.empty-inputs", lambda tf: tf.reduce_min(tf.zeros([2, 0], tf.int64), axis=1)),
    ("reduce-min-empty-float", "ops.empty-inputs", lambda tf: tf.reduce_min(tf.constant([], tf.float32))),
    ("reduce-mean-empty", "ops.empty-inputs", lambda tf: tf.reduce_mean(tf.zeros([0]))),
    ("cumsum-exclusive-empty", "ops.empty-inputs", lambda tf: tf.cumsum(tf.constant([], tf.float32), exclusive=True)),
    ("cumprod-exclusive-reverse-empty", "ops.empty-inputs",
     lambda tf: tf.math.cumprod(tf.zeros([0, 2]), axis=0, exclusive=True, reverse=True)),
    ("split-rest-is-empty", "ops.empty-inputs", lambda tf: tf.split(tf.constant([1.0, 2.0]), [2, -1])),
    ("split-rest", "ops.empty-inputs", lambda tf: tf.split(tf.constant([1.0, 2.0, 3.0]), [1, -1])),
    ("split-zero-piece", "ops.empty-inputs", lambda tf: tf.split(tf.constant([1.0, 2.0, 3.0]), [0, 3])),
    ("split-two-unknown", "ops.empty-inputs", lambda tf: tf.split(tf.constant([1.0, 2.0, 3.0]), [-1, -1, 3])),
    ("split-negative-size", "ops.empty-inputs", lambda tf: tf.split(tf.constant([1.0, 2.0, 3.0]), [1, -2, 4])),
    ("split-rest-too-big", "ops.empty-inputs", lambda tf: tf.split(tf.constant([1.0, 2.0, 3.0]), [4, -1])),
    # gather checks no index when the slices around the axis are empty (fuzzer, seed 20261201 #20)
    *[(f"gather-empty-slices-{i}", "ops.empty-inputs", lambda tf, s=s, ax=ax: tf.gather(tf.zeros(s), [5], axis=ax))
      for i, (s, ax) in enumerate([([0, 0, 0], -1), ([0, 2], -1), ([2, 0], 0), ([2, 0], 1), ([0, 2], 0),
                                   ([2, 0, 3], 2), ([2, 0, 3], 0)])],
    ("gather-grad-empty-slices", "ops.empty-inputs", lambda tf: _gather_grad_empty(tf)),
    # a non-zero constant_values is converted before the paddings are checked (fuzzer, seed 20261201 #168)
    ("pad-bool-int-constant-empty-paddings", "ops.empty-inputs",
     lambda tf: tf.pad(tf.constant(False), [], constant_values=1)),
    ("pad-bool-bool-constant-empty-paddings", "ops.empty-inputs",
     lambda tf: tf.pad(tf.constant(False), [], constant_values=False)),
    # float16 segment max/min keep the later of equal values: signed zeros (fuzzer, seed 20261201 #127)
    *[(f"segment-{kind}-signed-zeros-{dt}-{i}", "ops.nan-folds",
       lambda tf, kind=kind, dt=dt, a=a: getattr(tf.math, f"unsorted_segment_{kind}")(
           tf.constant(np.array(a).reshape(-1, 1), getattr(tf, dt)), [0] * len(a), 2) if i % 2 else
       getattr(tf.math, f"segment_{kind}")(tf.constant(np.array(a).reshape(-1, 1), getattr(tf, dt)), [0] * len(a)))
      for kind in ("min", "max") for dt in ("float16", "float32")
      for i, a in enumerate([[0.0, -0.0], [-0.0, 0.0], [0.0, -0.0, 0.0], [np.nan, -0.0, 0.0], [-0.0, np.nan, 0.0, -0.0]])],
    # fuzzer, seed 20261201 #1667, #1672, #1090: round of an integer tensor is the tensor (uint8 too);
    # float16 unique keeps -0.0 and 0.0 apart; einsum reads each operand's .shape first
    ("round-uint8-is-identity", "ops.truncation", lambda tf: tf.math.round(tf.zeros([2, 0], tf.uint8))),
    ("round-uint8-values", "ops.truncation", lambda tf: tf.math.round(tf.constant([1, 255], tf.uint8))),
    *[(f"unique-signed-zeros-{dt}", "ops.counting",
       lambda tf, dt=dt: list(tf.unique_with_counts(tf.constant([0.0, -0.0, 1.0, -0.0], getattr(tf, dt)))))
      for dt in ("float16", "float32", "float64")],
    ("einsum-none-operand", "ops.argument-errors", lambda tf: tf.einsum("ij->ji", None)),
    # RealDiv/TruncateMod look their kernel up by the first input's dtype before checking the second
    # (fuzzer, seed 20261201 #355)
    *[(f"{op}-{a}-{b}-kernel-first", "ops.argument-errors",
       lambda tf, op=op, a=a, b=b: getattr(tf, op)(tf.constant([1], getattr(tf, a)), tf.constant([1], getattr(tf, b))))
      for op, a, b in [("realdiv", "int64", "int32"), ("realdiv", "int32", "float32"), ("realdiv", "uint8", "int8"),
                       ("realdiv", "float32", "int32"), ("truncatemod", "float16", "float32"),
                       ("truncatemod", "float32", "float16")]],
    # pow by 0.5 at -inf and -0.0 is pow's, not sqrt's: inf and 0.0 (fuzzer, seed 20261201 #314); edge
    # values only: TF's float32 pow of ordinary values is not correctly rounded (9 ** 2 is 81.00001)
    *[(f"pow-{dt}-{y}", "ops.special-functions",
       lambda tf, dt=dt, y=y: tf.math.pow(tf.constant([-np.inf, np.inf, -0.0, 0.0, -1.0, np.nan, -4.0],
                                                      getattr(tf, dt)), y))
      for dt in ("float16", "float32", "float64") for y in (0.5, 2.0, -1.0, 1.5)],
    ("pow-scalar-half", "ops.special-functions", lambda tf: tf.math.pow(tf.constant(-np.inf), 0.5)),
    *[(f"lgamma-near-zeros-{dt}", "ops.special-functions",   # fuzzer, seed 20261201 #2974: bit for bit, the C library's lgamma
       (lambda dt: lambda tf: tf.math.lgamma(tf.constant(np.concatenate([
           1 + np.linspace(-1e-6, 1e-6, 41), 2 + np.linspace(-1e-6, 1e-6, 41), [1 + 100 / 2 ** 40, 2.5, -2.5, 0.5, -0.0, 30.0,
                                                                              171.5, -np.inf, np.inf, np.nan, 1e-30]]),
           getattr(tf, dt))))(dt)) for dt in ("float32", "float64", "float16")],
    # after a NaN an unsorted segment's fold restarts at the next element, not at its finite start
    # (fuzzer, seed 20261201 #674)
    *[(f"unsorted-segment-{k}-nan-then-inf-{dt}", "ops.nan-folds",
       lambda tf, k=k, dt=dt: getattr(tf.math, f"unsorted_segment_{k}")(
           tf.constant([[np.nan, 1.0], [np.inf if k == "min" else -np.inf, np.nan], [5.0, -np.inf]], getattr(tf, dt)),
           [1, 1, 0], 3))
      for k in ("min", "max") for dt in ("float16", "float32")],
    # NaN in folds: segment max/min and cumulative_logsumexp fold as TF's C++ comparisons pick
    *[(f"{name}", "ops.nan-folds", fn) for name, fn in [
        ("segment-max-nan", lambda tf: tf.math.segment_max(tf.constant([0.0, np.nan, np.nan, 3.0, 1.0, np.nan],
                                                                      tf.float64), [1, 1, 2, 2, 3, 3])),
        ("segment-min-nan", lambda tf: tf.math.segment_min(tf.constant([0.0, np.nan, np.nan, -3.0, 1.0, np.nan]),
                                                           [0, 0, 1, 1, 1, 2])),
        ("unsorted-segment-max-nan", lambda tf: tf.math.unsorted_segment_max(
            tf.constant([[np.nan, 1.0], [1.0, np.nan], [3.0, 2.0], [np.nan, np.inf]]), [0, 0, 1, 1], 3)),
        ("unsorted-segment-min-nan-float16", lambda tf: tf.math.unsorted_segment_min(
            tf.constant([np.nan, 1.0, 3.0, np.nan, 2.0], tf.float16), [1, 1, 0, 0, 0], 2)),
        ("cumulative-logsumexp-nan-skipped", lambda tf: tf.math.cumulative_logsumexp(tf.constant([1.0, np.nan, 1.0]))),
        ("cumulative-logsumexp-inf-inf", lambda tf: tf.math.cumulative_logsumexp(tf.constant([np.inf, np.inf, 1.0]))),
        ("cumulative-logsumexp-minus-inf", lambda tf: tf.math.cumulative_logsumexp(
            tf.constant([-np.inf, -np.inf, 6.0], tf.float64), exclusive=True)),
        ("cumulative-logsumexp-leading-nan", lambda tf: tf.math.cumulative_logsumexp(
            tf.constant([[np.nan, 2.0], [-np.inf, np.nan]]), axis=1, reverse=True)),
    ]],
    # issue 29: x-functions, truncation, counting, diagonals (simdist/runtime/ops/xfunctions.py ...)
    *[(f"{fn}-{np.dtype(d).name}", "ops.xfunctions",
       (lambda fn, d: lambda tf: _guards(tf, getattr(tf.math, fn)(*map(tf.constant, _grid(d)))))(fn, d))
      for fn in ("xlogy", "xdivy", "xlog1py", "multiply_no_nan") for d in (np.float32, np.float64)],
    ("xlogy-float16", "ops.xfunctions", lambda tf: _guards(tf, tf.math.xlogy(*map(tf.constant, _grid(np.float16))))),
    ("xlogy-broadcast-zero", "ops.xfunctions",
     lambda tf: tf.math.xlogy(tf.constant([[0.0], [-0.0]]), tf.constant([0.0, np.nan, 2.0]))),
    ("xdivy-int-refused", "ops.xfunctions", lambda tf: tf.math.xdivy(tf.constant([1]), tf.constant([2]))),
    ("multiply-no-nan-int-refused", "ops.xfunctions", lambda tf: tf.math.multiply_no_nan(tf.constant([1]), 2)),
    ("multiply-no-nan-int64-y", "ops.xfunctions",
     lambda tf: tf.math.multiply_no_nan(tf.constant([1.0]), tf.constant([2], tf.int64))),
    ("multiply-no-nan-python-x", "ops.xfunctions", lambda tf: tf.math.multiply_no_nan(2, tf.constant([1.0]))),
    ("multiply-no-nan-python-y", "ops.xfunctions", lambda tf: tf.math.multiply_no_nan(tf.constant([1.5]), 2)),
    ("xlogy-int64-y", "ops.xfunctions", lambda tf: tf.math.xlogy(tf.constant([1.0]), tf.constant([2], tf.int64))),
    ("atan2-quadrants", "ops.xfunctions",
     lambda tf: tf.math.atan2(tf.constant([0.0, -0.0, 0.0, -0.0, 1.0, -np.inf, np.nan, 2.0]),
                              tf.constant([0.0, 0.0, -0.0, -0.0, np.inf, -np.inf, 1.0, np.nan]))),
    ("atan2-int-refused", "ops.xfunctions", lambda tf: tf.math.atan2(tf.constant([1]), tf.constant([2]))),
    *[(f"{fn}-{np.dtype(d).name}", "ops.truncation",
       (lambda fn, d: lambda tf: getattr(tf, fn)(*map(tf.constant, _int_grid(d))))(fn, d))
      for fn in ("truncatediv", "truncatemod") for d in (np.int32, np.int64)],
    ("truncatediv-int8", "ops.truncation", lambda tf: tf.truncatediv(*map(tf.constant, _int_grid(np.int8)))),
    ("truncatediv-uint8", "ops.truncation", lambda tf: tf.truncatediv(tf.constant([7, 255], tf.uint8), tf.constant([2, 3], tf.uint8))),
    ("truncatemod-int8-refused", "ops.truncation", lambda tf: tf.truncatemod(*map(tf.constant, _int_grid(np.int8)))),
    ("truncatemod-float16-refused", "ops.truncation",
     lambda tf: tf.truncatemod(tf.constant([1.0], tf.float16), tf.constant([2.0], tf.float16))),
    ("truncatediv-zero", "ops.truncation", lambda tf: tf.truncatediv(tf.constant([7]), tf.constant([0]))),
    ("truncatemod-zero", "ops.truncation", lambda tf: tf.truncatemod(tf.constant([7]), tf.constant([0]))),
    ("truncatemod-empty-by-zero", "ops.truncation", lambda tf: tf.truncatemod(tf.zeros([0], tf.int64), 0)),
    ("truncatediv-empty-by-zero", "ops.truncation", lambda tf: tf.truncatediv(tf.zeros([2, 0], tf.int32), [[0], [0]])),
    ("floordiv-empty-by-zero", "ops.truncation", lambda tf: tf.math.floordiv(tf.zeros([0], tf.int32), 0)),
    *[(f"{fn}-float-{np.dtype(d).name}", "ops.truncation",
       (lambda fn, d: lambda tf: getattr(tf, fn)(*map(tf.constant, _grid(d))))(fn, d))
      for fn in ("truncatediv", "truncatemod") for d in (np.float32, np.float64)],
    ("realdiv-float", "ops.truncation", lambda tf: tf.realdiv(*map(tf.constant, _grid(np.float32)))),
    ("realdiv-int-refused", "ops.truncation", lambda tf: tf.realdiv(tf.constant([7]), tf.constant([2]))),
    ("math-mod-is-floormod", "ops.truncation", lambda tf: tf.math.mod(*map(tf.constant, _grid(np.float32)))),
    *[(f"saturate-cast-{src}-{dst}", "ops.truncation",
       (lambda v, src, dst: lambda tf: tf.dtypes.saturate_cast(tf.constant(v, getattr(tf, src)), getattr(tf, dst)))(v, src, dst))
      for v, src, dst in [([-1.0, 300.0, np.nan, np.inf, -np.inf, 2.7], "float32", "uint8"),
                          ([1e10, -1e10, np.nan, 2.1e9, 3e9], "float32", "int32"),
                          ([np.nan, 1e30, -1e30], "float32", "int64"),
                          ([1e300, -1e300, np.nan], "float64", "float32"),
                          ([200, 5], "uint8", "int8"), ([-100, 5], "int8", "uint8"),
                          ([2**40, -2**40], "int64", "int32"), ([300, -3, np.inf], "float16", "uint8"),
                          ([100000, -100000], "int32", "float16"), ([1.5], "float32", "float32")]],
    ("saturate-cast-to-bool", "ops.truncation", lambda tf: tf.saturate_cast(tf.constant([-5]), tf.bool)),
    ("saturate-cast-list", "ops.truncation", lambda tf: tf.saturate_cast([1.5, 300.0], tf.uint8)),
    ("rint", "ops.truncation",
     lambda tf: tf.math.rint(tf.constant([0.5, 1.5, 2.5, -0.5, -2.5, np.nan, -0.0, 3.7, np.inf, 1e30]))),
    ("rint-float16-refused", "ops.truncation", lambda tf: tf.math.rint(tf.constant([0.5], tf.float16))),
    ("rint-int-refused", "ops.truncation", lambda tf: tf.math.rint(tf.constant([1]))),
    ("unique", "ops.counting", lambda tf: list(tf.unique(tf.constant([3, 1, 3, 2, 1])))),
    ("unique-nan-signed-zero", "ops.counting",
     lambda tf: list(tf.unique(tf.constant([np.nan, 1.0, np.nan, -0.0, 0.0, 1.0])))),
    ("unique-int64-idx", "ops.counting", lambda tf: list(tf.unique(tf.constant([3, 1, 3]), out_idx=tf.int64))),
    ("unique-bool", "ops.counting", lambda tf: list(tf.unique(tf.constant([True, False, True])))),
    ("unique-empty", "ops.counting", lambda tf: list(tf.unique(tf.constant([], tf.float32)))),
    ("unique-2d-refused", "ops.counting", lambda tf: list(tf.unique(tf.constant([[1, 2]])))),
    ("unique-float-idx-refused", "ops.counting", lambda tf: list(tf.unique(tf.constant([1]), out_idx=tf.float32))),
    ("unique-with-counts", "ops.counting",
     lambda tf: list(tf.unique_with_counts(tf.constant([3.0, 1.0, 3.0, 2.0, 1.0, 3.0])))),
    ("bincount", "ops.counting", lambda tf: tf.math.bincount(tf.constant([1, 1, 3, 0]))),
    ("bincount-weights", "ops.counting",
     lambda tf: tf.math.bincount(tf.constant([1, 1, 3, 0]), weights=tf.constant([0.5, 1.0, 2.0, 3.0]))),
    ("bincount-min-max-length", "ops.counting",
     lambda tf: tf.math.bincount(tf.constant([1, 2, 9]), minlength=5, maxlength=3)),
    ("bincount-negative", "ops.counting", lambda tf: tf.math.bincount(tf.constant([1, -1]))),
    ("bincount-empty", "ops.counting", lambda tf: tf.math.bincount(tf.constant([], tf.int32))),
    ("bincount-2d-flat", "ops.counting", lambda tf: tf.math.bincount(tf.constant([[1, 2], [2, 2]]))),
    ("bincount-2d-rows", "ops.counting", lambda tf: tf.math.bincount(tf.constant([[1, 2], [2, 2]]), axis=-1)),
    ("bincount-rows-weights", "ops.counting",
     lambda tf: tf.math.bincount(tf.constant([[1, 2], [2, 2]]), weights=tf.constant([[1., 2.], [3., 4.]]), axis=-1)),
    ("bincount-empty-rows", "ops.counting", lambda tf: tf.math.bincount(tf.zeros([2, 0], tf.int32), axis=-1)),
    ("bincount-binary", "ops.counting", lambda tf: tf.math.bincount(tf.constant([1, 1, 2]), binary_output=True)),
    ("bincount-float-input", "ops.counting", lambda tf: tf.math.bincount(tf.constant([1.0, 2.7]))),
    ("bincount-int8-refused", "ops.counting", lambda tf: tf.math.bincount(tf.constant([1, 2], tf.int8))),
    ("bincount-dtype-float16-refused", "ops.counting",
     lambda tf: tf.math.bincount(tf.constant([1, 2]), dtype=tf.float16)),
    ("bincount-rank3-rows-refused", "ops.counting", lambda tf: tf.math.bincount(tf.constant([[[1, 2]]]), axis=-1)),
    # rank 2 (axis=-1): the sign check sees the last negative value's low 32 bits (fuzzer, seed 20261130 #10)
    *[(f"bincount-rows-int64-negative-{i}", "ops.counting",
       lambda tf, a=a: tf.math.bincount(tf.constant(a, tf.int64), axis=-1, minlength=1))
      for i, a in enumerate([[[-2 ** 63, -1]], [[-1, -2 ** 63]], [[-1], [-2 ** 63]], [[-1, -2 ** 63, 2]],
                             [[-2 ** 63, 2, -1, -1]], [[-1, -2 ** 32]], [[-1, -2 ** 32 - 1]], [[-1, -2]],
                             [[-2 ** 31, 3]], [[-2 ** 32 + 1, 1]]])],
    ("bincount-rows-int64-min-weights", "ops.counting",
     lambda tf: tf.math.bincount(tf.constant([[-2 ** 63, 1], [2, 1]], tf.int64), weights=tf.constant([[1., 2.], [3., 4.]]),
                                 axis=-1)),
    ("bincount-rows-int64-min-maxlength", "ops.counting",
     lambda tf: tf.math.bincount(tf.constant([[7, 3], [-2 ** 63, 3]], tf.int64), maxlength=1, minlength=6, axis=-1)),
    ("count-nonzero", "ops.counting",
     lambda tf: tf.math.count_nonzero(tf.constant([[0.0, 1.0, np.nan], [-0.0, 2.0, 0.0]]))),
    ("count-nonzero-axis", "ops.counting",
     lambda tf: tf.math.count_nonzero(tf.constant([[0, 1, 3], [0, 2, 0]]), axis=1, keepdims=True, dtype=tf.int32)),
    ("count-nonzero-bool", "ops.counting", lambda tf: tf.math.count_nonzero(tf.constant([True, False]))),
    ("count-nonzero-empty", "ops.counting", lambda tf: tf.math.count_nonzero(tf.zeros([0, 3]), axis=0)),
    ("in-top-k", "ops.counting",
     lambda tf: tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9], [0.5, 0.5]]), 1)),
    ("in-top-k-nonfinite-rows", "ops.counting",
     lambda tf: tf.math.in_top_k(tf.constant([1, 0, 2]), tf.constant([[np.nan, 0.9, 0.1], [0.5, np.inf, 0.5],
                                                                        [1.0, 2.0, 3.0]]), 2)),
    ("in-top-k-out-of-range", "ops.counting",
     lambda tf: tf.nn.in_top_k(tf.constant([5, -1]), tf.constant([[0.1, 0.9], [0.5, 0.5]]), 1)),
    ("in-top-k-ties-and-k", "ops.counting",
     lambda tf: [tf.math.in_top_k(tf.constant([0, 1, 2]), tf.constant([[0.5, 0.5, 0.5]] * 3), k)
                 for k in (-1, 0, 1, 5)]),
    ("in-top-k-float64-refused", "ops.counting",
     lambda tf: tf.math.in_top_k(tf.constant([1]), tf.constant([[0.1, 0.9]], tf.float64), 1)),
    ("in-top-k-float64-list-targets", "ops.counting",
     lambda tf: tf.math.in_top_k([1], tf.constant([[0.1, 0.9]], tf.float64), 1)),
    ("in-top-k-uint8-list-targets", "ops.counting",
     lambda tf: tf.math.in_top_k([2], tf.constant([[1, 2, 3]], tf.uint8), 3)),
    ("in-top-k-empty-list-targets", "ops.counting",
     lambda tf: tf.math.in_top_k([], tf.zeros([0, 3]), 2)),
    ("in-top-k-shape-refused", "ops.counting",
     lambda tf: tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9]]), 1)),
    ("diag-part", "ops.matrix-diag", lambda tf: tf.linalg.diag_part(tf.reshape(tf.range(12.0), [2, 2, 3]))),
    ("diag-part-k", "ops.matrix-diag", lambda tf: tf.linalg.diag_part(tf.reshape(tf.range(12.0), [3, 4]), k=1)),
    ("diag-part-band", "ops.matrix-diag",
     lambda tf: tf.linalg.diag_part(tf.reshape(tf.range(12.0), [3, 4]), k=(-1, 1), padding_value=9)),
    ("diag-part-band-tall", "ops.matrix-diag",
     lambda tf: tf.linalg.diag_part(tf.reshape(tf.range(15), [5, 3]), k=(-2, 1), padding_value=-1)),
    *[(f"diag-part-align-{a}", "ops.matrix-diag",
       (lambda a: lambda tf: tf.linalg.diag_part(tf.reshape(tf.range(15), [3, 5]), k=(-1, 2), align=a))(a))
      for a in ("LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT", "RIGHT_LEFT")],
    ("diag-part-bool-band", "ops.matrix-diag",
     lambda tf: tf.linalg.diag_part(tf.constant([[[True, False], [True, True]]]), k=[0, 1])),
    ("diag-part-1d-refused", "ops.matrix-diag", lambda tf: tf.linalg.diag_part(tf.range(3.0))),
    ("diag", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([[1, 2], [3, 4]]))),
    ("diag-k", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([1.0, 2.0]), k=1)),
    ("diag-k-rows-padding", "ops.matrix-diag",
     lambda tf: tf.linalg.diag(tf.constant([1.0, 2.0]), k=1, num_rows=4, padding_value=-1)),
    ("diag-band", "ops.matrix-diag",
     lambda tf: tf.linalg.diag(tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), k=(-1, 1))),
    ("diag-band-align", "ops.matrix-diag",
     lambda tf: tf.linalg.diag(tf.constant([[1, 2, 0], [4, 5, 6], [7, 8, 0]]), k=(-1, 1), align="LEFT_RIGHT")),
    ("diag-bool-k", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([True]), k=-1)),
    ("diag-part-gradient", "ops.matrix-diag", lambda tf: _diag_part_grad(tf)),
    # a Python bool or number converted for a tensor operand (issue 29: the fuzzer's classes)
    *[(f"bool-literal-{name}", "ops.conversion", fn) for name, fn in [
        ("int8-plus-true", lambda tf: tf.constant([1], tf.int8) + True),
        ("true-plus-int8", lambda tf: True + tf.constant([1], tf.int8)),
        ("add-int8-true", lambda tf: tf.math.add(tf.constant([1], tf.int8), True)),
        ("add-true-int8", lambda tf: tf.math.add(True, tf.constant([1], tf.int8))),
        ("uint8-minus-true", lambda tf: tf.constant([3], tf.uint8) - True),
        ("uint8-div-true", lambda tf: tf.constant([3], tf.uint8) / True),
        ("int32-div-true", lambda tf: tf.constant([3]) / True),
        ("float-mul-true", lambda tf: tf.constant([1.5]) * True),
        ("int32-xor-true", lambda tf: tf.constant([3]) ^ True),
        ("bitwise-xor-uint8-true", lambda tf: tf.bitwise.bitwise_xor(tf.constant([3], tf.uint8), True)),
        ("constant-true-int16", lambda tf: tf.constant(True, tf.int16)),
        ("constant-bools-uint8", lambda tf: tf.constant([True, False], tf.uint8)),
        ("where-int8-true", lambda tf: tf.where(tf.constant([True, False]), tf.constant([1, 2], tf.int8), True)),
        ("less-true-int8", lambda tf: tf.math.less(True, tf.constant([1], tf.int8))),
        ("subtract-2-int8", lambda tf: tf.math.subtract(2, tf.constant([1], tf.int8))),
        ("maximum-2.5-int8", lambda tf: tf.math.maximum(2.5, tf.constant([1], tf.int8))),
        ("bool-times-2", lambda tf: tf.constant([True, False]) * 2),
        ("bool-times-half", lambda tf: tf.constant([True, False]) * 0.5),
        ("bool-times-2**32", lambda tf: tf.constant([True, False]) * 2**32),
        ("bool-times-2**32+1", lambda tf: tf.constant([True, False]) * (2**32 + 1)),
        ("bool-times-1e30", lambda tf: tf.constant([True, False]) * 1e30),
        ("bool-times-nan", lambda tf: tf.constant([True, False]) * float("nan")),
        ("bool-times-2**63", lambda tf: tf.constant([True, False]) * 2**63),
        ("bool-plus-1", lambda tf: tf.constant([True, False]) + 1),
        ("bool-minus-1", lambda tf: tf.constant([True, False]) - 1),
        ("2-times-bool", lambda tf: 2 * tf.constant([True, False])),
        ("multiply-bool-2", lambda tf: tf.math.multiply(tf.constant([True, False]), 2)),
        ("bool-and-1", lambda tf: tf.constant([True, False]) & 1),
        ("1-and-bool", lambda tf: 1 & tf.constant([True, False])),
        ("bool-or-2.5", lambda tf: tf.constant([True, False]) | 2.5),
        ("bool-xor-0", lambda tf: tf.constant([True, False]) ^ 0),
        ("bool-xor-true", lambda tf: tf.constant([True, False]) ^ True),
        ("logical-and-bool-2", lambda tf: tf.math.logical_and(tf.constant([True, False]), 2)),
        ("logical-and-2-bool", lambda tf: tf.math.logical_and(2, tf.constant([True, False]))),
        ("logical-xor-bool-1e30", lambda tf: tf.math.logical_xor(tf.constant([True, False]), 1e30)),
        ("logical-or-bool-int", lambda tf: tf.math.logical_or(tf.constant([True]), tf.constant([1]))),
        ("logical-or-int-float-literal", lambda tf: tf.math.logical_or(tf.constant([1]), -3.0)),
        ("logical-and-float-int-literal", lambda tf: tf.math.logical_and(tf.constant([1.0]), 2)),
        ("logical-and-int-bool-literal", lambda tf: tf.math.logical_and(tf.constant([1]), True)),
        ("logical-and-bool-int-list", lambda tf: tf.math.logical_and(tf.constant([True]), [1])),
        ("int-or-float-literal", lambda tf: tf.constant([1]) | 2.5),
        ("float-or-float-literal", lambda tf: tf.constant([1.0]) | 2.5),
        ("equal-bool-1", lambda tf: tf.math.equal(tf.constant([True, False]), 1)),
        ("float-times-bool", lambda tf: tf.constant([0.5, -0.0, 1e30, 2.0, np.nan]) * tf.constant([True] * 4 + [False])),
        ("int64-times-bool", lambda tf: tf.constant([2**32, 2**32 + 1, 0, 5], tf.int64) * tf.constant([True] * 4)),
        ("bool-times-float16", lambda tf: tf.constant([True, True, False]) * tf.constant([0.5, np.nan, 2.0], tf.float16)),
        ("bool-times-int8-broadcast", lambda tf: tf.constant([[True], [False]]) * tf.constant([0, 1, -1], tf.int8)),
        ("multiply-float-bool", lambda tf: tf.math.multiply(tf.constant([0.5]), tf.constant([True]))),
        ("multiply-bool-bool", lambda tf: tf.math.multiply(tf.constant([True, False]), tf.constant([True, True]))),
        ("bool-times-bool", lambda tf: tf.constant([True, False]) * tf.constant([True, True])),
        ("float-plus-bool", lambda tf: tf.constant([0.5]) + tf.constant([True])),
        ("float-div-bool", lambda tf: tf.constant([0.5]) / tf.constant([True])),
    ]],
    # SIMD packets and the sign of zero (simdist/runtime/ops/simd.py)
    *[(f"{fn}-minus-zero-{np.dtype(d).name}-{n}", "ops.simd-signed-zeros",
       (lambda fn, d, n: lambda tf: getattr(tf.nn, fn)(tf.constant(np.full(n, -0.0, d))))(fn, d, n))
      for fn in ("relu", "relu6") for d in (np.float32, np.float64, np.float16) for n in (3, 8, 9, 19)],
    *[(f"{f}-float16-zero-ties-{i}", "ops.simd-signed-zeros",
       (lambda f, v: lambda tf: [getattr(tf, f)(tf.constant(v, tf.float16)),
                                 getattr(tf, f)(tf.reshape(tf.constant(v * 2, tf.float16), [2, -1]), axis=1),
                                 getattr(tf, f)(tf.reshape(tf.constant(v * 2, tf.float16), [-1, 2]), axis=0),
                                 getattr(tf, f)(tf.reshape(tf.constant(v * 3, tf.float16), [3, -1]), axis=[0, 1],
                                                keepdims=True)])(f, v))
      for f in ("reduce_max", "reduce_min")
      for i, v in enumerate([[-0.0, 0.0], [0.0, -0.0], [-0.0, -0.0, 0.0], [0.0] + [-0.0] * 9, [-1.0, -0.0, 0.0, -0.0],
                             [1.0, 0.0, -0.0, -2.0]])],
    *[(f"{name}-zero-ties-{np.dtype(d).name}-{n}", "ops.simd-signed-zeros",
       (lambda fn, d, n: lambda tf: fn(tf, np.full(n, -0.0, d), np.full(n, 0.0, d)))(fn, d, n))
      for name, fn in [("maximum", lambda tf, m, p: [tf.maximum(m, p), tf.maximum(p, m), tf.maximum(m, p.dtype.type(0))]),
                       ("minimum", lambda tf, m, p: [tf.minimum(m, p), tf.minimum(p, m)]),
                       ("maximum-broadcast", lambda tf, m, p: tf.maximum(tf.constant(m)[:, None], tf.constant(p[:2]))),
                       ("clip-by-value", lambda tf, m, p: tf.clip_by_value(tf.constant(m), 0.0, 2.0))]
      for d in (np.float32, np.float64, np.float16) for n in (3, 9, 19)],
    ("relu-minus-zero-3x3", "ops.simd-signed-zeros", lambda tf: tf.nn.relu(tf.constant(np.full((3, 3), -0.0, np.float32)))),
    *[(f"{fn}-minus-zero-{np.dtype(d).name}-{n}", "ops.simd-signed-zeros",
       (lambda fn, d, n: lambda tf: getattr(tf.math, fn)(tf.constant(np.full(n, -0.0, d)),
                                                         tf.constant(np.full(n, 2.0, d))))(fn, d, n))
      for fn in ("xlogy", "xdivy", "xlog1py") for d in (np.float32, np.float64, np.float16) for n in (3, 8, 9, 17)],
    # kernels' dtype lists (no kernel: NotFoundError; not in the op def: InvalidArgumentError)
    *[(f"kernel-dtypes-{name}", "ops.dtype-refusal", fn) for name, fn in [
        ("pow-uint8", lambda tf: tf.constant([3], tf.uint8) ** tf.constant([2], tf.uint8)),
        ("pow-uint8-literal", lambda tf: tf.constant([3], tf.uint8) ** 2),
        ("pow-uint16", lambda tf: tf.math.pow(tf.constant([3], tf.uint16), tf.constant([2], tf.uint16))),
        ("pow-int8", lambda tf: tf.constant([3], tf.int8) ** tf.constant([2], tf.int8)),
        ("einsum-int8", lambda tf: tf.einsum("ij->", tf.constant([[1, 2]], tf.int8))),
        ("einsum-uint8", lambda tf: tf.einsum("ij,kj->ik", tf.constant([[1]], tf.uint8), tf.constant([[1]], tf.uint8))),
        ("einsum-bool", lambda tf: tf.einsum("ij->ji", tf.constant([[True]]))),
        ("einsum-int16", lambda tf: tf.einsum("ij->j", tf.constant([[1]], tf.int16))),
        ("matmul-int8", lambda tf: tf.matmul(tf.constant([[1]], tf.int8), tf.constant([[1]], tf.int8))),
        ("matmul-uint8", lambda tf: tf.matmul(tf.constant([[1]], tf.uint8), tf.constant([[1]], tf.uint8))),
        ("batch-matmul-int16", lambda tf: tf.matmul(tf.constant([[[2]]], tf.int16), tf.constant([[[3]]], tf.int16))),
        ("unsorted-segment-sum-bool", lambda tf: tf.math.unsorted_segment_sum(tf.constant([True, False]), [0, 0], 2)),
        ("unsorted-segment-mean-bool", lambda tf: tf.math.unsorted_segment_mean(tf.constant([True, False]), [0, 1], 2)),
        ("unsorted-segment-sqrt-n-bool",
         lambda tf: tf.math.unsorted_segment_sqrt_n(tf.constant([True, False]), [0, 1], 2)),
        ("unsorted-segment-sqrt-n-int", lambda tf: tf.math.unsorted_segment_sqrt_n(tf.constant([3, 4]), [0, 1], 2)),
    ]],
    # int64 extremes sort without wrapping; empty axis lists; -1 beside 0 in reshape; erf's float64 overflow
    *[(f"top-k-1-nan-{dt}-{n}", "ops.sort",   # fuzzer, seed 20261130 #2691: packet lanes of each dtype
       (lambda dt, n: lambda tf: list(tf.math.top_k(tf.constant(np.resize(np.array([0.0, np.nan, -1.0, -2.0, np.nan, 3.0, -np.inf,
                                                                                      np.nan, 1.0]), n) * np.resize([1, 1, 1, -1, 1], n),
                                                                 getattr(tf, dt)), 1)))(dt, n))
      for dt in ("float16", "float32", "float64") for n in (4, 5, 9, 17, 33)],
    ("sort-int64-extremes", "ops.sort",
     lambda tf: tf.sort(tf.constant([7, 2**63 - 1, -2**63, 2**63 - 1, 0], tf.int64))),
    ("sort-int64-extremes-descending", "ops.sort",
     lambda tf: tf.sort(tf.constant([7, 2**63 - 1, -2**63, 2**63 - 1, 0], tf.int64), direction="DESCENDING")),
    ("argsort-int64-extremes", "ops.sort",
     lambda tf: [tf.argsort(tf.constant([7, 2**63 - 1, -2**63, 2**63 - 1, 0], tf.int64), direction=d)
                 for d in ("ASCENDING", "DESCENDING")]),
    ("top-k-int64-min", "ops.sort", lambda tf: list(tf.math.top_k(tf.constant([-2**63, 2, 0], tf.int64), 2))),
    ("sort-int8-extremes", "ops.sort", lambda tf: tf.sort(tf.constant([7, 127, -128, 1], tf.int8), direction="DESCENDING")),
    *[(f"pow-int-negative-exponent-{i}", "ops.empty-inputs", fn) for i, fn in enumerate([
        lambda tf: tf.math.pow(tf.zeros([0, 1, 3], tf.int8), -1),
        lambda tf: tf.math.pow(tf.constant([], tf.int32), tf.constant([-1])),
        lambda tf: tf.math.pow(tf.zeros([0, 3], tf.int64), tf.constant([1, -1, 2], tf.int64)),
        lambda tf: tf.math.pow(tf.constant([2], tf.int32), tf.constant([-1]))])],   # fuzzer, seed 20261130 #3928
    ("reverse-empty-axes", "ops.empty-inputs", lambda tf: tf.reverse(tf.constant([1.0, 2.0]), [])),
    ("reverse-scalar-empty-axes", "ops.empty-inputs", lambda tf: tf.reverse(tf.constant(7.0), [])),
    ("reverse-empty-input-bad-axis", "ops.empty-inputs", lambda tf: tf.reverse(tf.zeros([0]), [2])),
    ("reverse-empty-input-repeated-axis", "ops.empty-inputs", lambda tf: tf.reverse(tf.zeros([0, 2]), [0, 0])),
    ("reverse-empty-input-float-axis", "ops.empty-inputs", lambda tf: tf.reverse(tf.zeros([0]), [1.0])),
    ("slice-scalar-empty-lists", "ops.empty-inputs", lambda tf: tf.slice(tf.constant(1), [], [])),
    ("slice-scalar-empty-tensors", "ops.empty-inputs",
     lambda tf: tf.slice(tf.constant(1), tf.constant([], tf.int32), tf.constant([], tf.int32))),
    *[(f"reshape-zero-{src}-to-{dst}", "ops.empty-inputs",
       (lambda src, dst: lambda tf: tf.reshape(tf.zeros(src), dst))(src, dst))
      for src, dst in [([0, 2], [0, 1, -1]), ([0], [0, -1]), ([2, 0], [-1, 0]), ([3, 0], [0, 5, -1]),
                       ([0], [2, -1]), ([0, 3], [-1, 3]), ([2, 0, 3], [0, -1])]],
    ("erf-float64-overflow", "ops.nan-folds",
     lambda tf: tf.math.erf(tf.constant([1.3e154, 1.3407807830046642e154, 1.3407807830046643e154, 1e300,
                                         1.7976931348623157e308, np.inf, -1e200, 26.0], tf.float64))),
    ("erf-float32-large", "ops.nan-folds", lambda tf: tf.math.erf(tf.constant([1e30, np.inf, -3e38]))),
    # oneDNN's float32/float16 softmax of rows holding NaN or +inf
    *[(f"{fn}-nonfinite-{dt}", "nn.softmax-nonfinite",
       (lambda fn, dt: lambda tf: getattr(tf.nn, fn)(tf.constant(
           [[np.nan, 1.0, -np.inf], [1.0, np.inf, 2.0], [np.inf, np.nan, 0.0], [-np.inf, -np.inf, np.inf],
            [np.nan, np.nan, np.nan], [-np.inf, 1.0, -np.inf]], getattr(tf, dt))))(fn, dt))
      for fn in ("softmax", "log_softmax") for dt in ("float16", "float32", "float64")],
    *[(f"softmax-nan-rows-{dt}-{i}", "nn.softmax-nonfinite",   # fuzzer, seed 20261130 #12311: oneDNN's NaN partners
       (lambda rows, dt: lambda tf: tf.math.is_nan(tf.nn.softmax(tf.constant(rows, getattr(tf, dt)))))(rows, dt))
      for i, (rows, dt) in enumerate(
          (np.where(np.random.default_rng(37 + i).random((3, n)) < q, np.nan,
                    np.random.default_rng(41 + i).normal(size=(3, n)).round(1)), ("float32", "float16")[i % 2])
          for i, (n, q) in enumerate([(9, 0.3), (12, 0.2), (17, 0.1), (24, 0.1), (31, 0.05), (33, 0.05), (40, 0.05),
                                      (48, 0.03), (63, 0.03), (64, 0.03), (100, 0.02), (128, 0.01), (150, 0.01),
                                      (200, 0.01), (257, 0.01), (16, 0.1)]))],
    ("softmax-nan-fuzz-12311", "nn.softmax-nonfinite",
     lambda tf: tf.nn.softmax(tf.constant([[0.0, 0.0, np.nan] * 3], tf.float32))),
    ("softmax-nonfinite-axis0", "nn.softmax-nonfinite",
     lambda tf: tf.nn.softmax(tf.constant([[np.nan, -np.inf], [1.0, 1.0]]), axis=0)),
    *_segment_rows(48),
    *_zero_reductions(60),
    *_products(40),
    *_products(24, ("float16",), 23),
    *_contractions(36),
    *_half_sums(30),
    ("einsum-total-overflow", "ops.packet-paths",   # fuzzer, seed 20261130 #18554
     lambda tf: tf.einsum("ij->", tf.constant([[1.0, np.inf], [-3.4028235e38, -3.4028235e38], [0.0, 0.0]], tf.float32))),
    *_overflowing_sums(40),
    *[(f"matmul-overflow-{name}", "ops.packet-paths",   # fuzzer, seed 20261201 #2105 (transpose_b) and #2154 (einsum)
       (lambda fn: lambda tf: fn(tf, tf.constant([[7.25, -3.4028235e38, -3.4028235e38], [-3.4028235e38, 8.128788, -3.4028235e38],
                                                  [0.0, -1.0, 1.5]], tf.float32)))(fn))
      for name, fn in (("transpose-b", lambda tf, v: tf.matmul(v, v, transpose_b=True)),
                       ("plain", lambda tf, v: tf.matmul(v, tf.transpose(v))),
                       ("transpose-a", lambda tf, v: tf.matmul(v, v, transpose_a=True)),
                       ("einsum", lambda tf, v: tf.einsum("ij,kj->ik", v, v)))],
    ("reduce-prod-zero-then-overflow", "ops.packet-paths", lambda tf: tf.reduce_prod(tf.constant(
        [[3.0, -1.5], [2.0, -0.0], [-1.7976931348623157e308, -1.7976931348623157e308]], tf.float64), keepdims=True)),
    # argmax/argmin start from (index 0, the dtype's lowest/highest finite value): NaN and infinities
    # past it never win (fuzzer, seed 20261130 #10417)
    *[(f"{fn}-nonfinite-{dt}", "ops.argmax",
       (lambda fn, dt: lambda tf: [getattr(tf, fn)(tf.constant(r, getattr(tf, dt))) for r in (
           [-np.inf, 5.0], [5.0, -np.inf], [-np.inf, -np.inf], [np.inf, np.inf, 3.0], [np.nan, -np.inf, -5.0],
           [-np.inf, -3.0e38], [np.nan, np.inf, np.inf], [np.inf, np.nan], [np.nan, 1.0, 2.0], [2.0, 1.0, np.nan],
           [np.nan, np.nan, 1.0])] + [getattr(tf, fn)(tf.constant(
               [[np.nan, 1.0], [3.0e38, np.inf], [3.0e38, -np.inf]], getattr(tf, dt)), axis=0)])(fn, dt))
      for fn in ("argmin", "argmax") for dt in ("float16", "float32", "float64")],
    # float to int8/uint8/int16/uint16: packets saturate through int32, the scalar tail wraps
    # (fuzzer, seed 20261201 #2687 and seed 20261130 #11423)
    *[(f"cast-{src}-to-{dst}-{n}", "ops.packet-paths",
       (lambda src, dst, n: lambda tf: tf.cast(tf.cast(tf.constant(np.resize(np.array(
           [np.nan, np.inf, -np.inf, 300.0, -300.0, 1e10, -1e10, 3e9, 65504.0, 44.7, -44.7, 2.0 ** 31, -2.0 ** 31]),
           n)), getattr(tf, src)), getattr(tf, dst)))(src, dst, n))
      for src in ("float16", "float32", "float64") for dst in ("int8", "uint8", "int16", "uint16")
      for n in (15, 17, 33, 80)],
    ("saturate-cast-float16-int8", "ops.packet-paths",
     lambda tf: tf.dtypes.saturate_cast(tf.linalg.diag(tf.constant([[np.nan, np.nan, 0.4], [6.0, 14.5, 200.0]],
                                                                  tf.float16)), tf.int8)),
    # argument errors raised with TF's classes
    *[(f"{name}", "ops.argument-errors", fn) for name, fn in [
        ("argmax-scalar", lambda tf: tf.argmax(tf.constant(1.0))),
        ("argmin-scalar-axis0", lambda tf: tf.argmin(tf.constant(1), axis=0)),
        ("broadcast-to-not-to", lambda tf: tf.broadcast_to(tf.constant([1, 2]), [3, 1])),
        ("broadcast-to-ok", lambda tf: tf.broadcast_to(tf.constant([1, 2]), [3, 2])),
        ("unstack-axis-out-of-range", lambda tf: tf.unstack(tf.constant([[True, False]]), axis=3)),
        ("unstack-axis-negative", lambda tf: tf.unstack(tf.constant([[1, 2]]), axis=-2)),
        ("gather-float-indices", lambda tf: tf.gather(tf.constant([[1.0, 2.0]]), [], axis=1)),
        ("gather-variable-float-indices", lambda tf: tf.gather(tf.Variable([[1.0, 2.0]]), [], axis=0)),
        ("gather-variable-float-indices-axis1", lambda tf: tf.gather(tf.Variable([[1.0, 2.0]]), [], axis=1)),
        ("squared-difference-int8", lambda tf: tf.math.squared_difference(tf.constant([1], tf.int8), 2)),
        ("stack-axis-out-of-range", lambda tf: tf.stack([tf.constant([1.0]), tf.constant([2.0])], axis=6)),
        ("stack-axis-last", lambda tf: tf.stack([tf.constant([1.0]), tf.constant([2.0])], axis=-2)),
        ("squared-difference-int64", lambda tf: tf.math.squared_difference(tf.constant([1], tf.int64), 3)),
    ]],
]
EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.special-functions")
@EDGES.parametrize("ops.special-functions")
def test_special_functions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.floor-division-float")
@EDGES.parametrize("ops.floor-division-float")
def test_floor_division(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.bitwise")
@EDGES.parametrize("ops.bitwise")
def test_bitwise(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.tensor-equality")
@EDGES.parametrize("ops.tensor-equality")
def test_tensor_equality(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.dtype-refusal")
@EDGES.parametrize("ops.dtype-refusal")
def test_bools_refused(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.integer-mean")
@EDGES.parametrize("ops.integer-mean")
def test_integer_mean(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sort")
@EDGES.parametrize("ops.sort")
def test_sort_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("nn.max-pool-nan")
@EDGES.parametrize("nn.max-pool-nan")
def test_max_pool_nan(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("nn.float-attrs")
@EDGES.parametrize("nn.float-attrs")
def test_float_attrs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nan-folds")
@EDGES.parametrize("ops.nan-folds")
def test_nan_folds(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gather-batch-dims")
@EDGES.parametrize("ops.gather-batch-dims")
def test_gather_batch_dims(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.empty-inputs")
@EDGES.parametrize("ops.empty-inputs")
def test_empty_inputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.xfunctions")
@EDGES.parametrize("ops.xfunctions")
def test_xfunctions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.truncation")
@EDGES.parametrize("ops.truncation")
def test_truncation(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.counting")
@EDGES.parametrize("ops.counting")
def test_counting(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.matrix-diag")
@EDGES.parametrize("ops.matrix-diag")
def test_matrix_diag(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.simd-signed-zeros")
@EDGES.parametrize("ops.simd-signed-zeros")
def test_simd_signed_zeros(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argmax")
@EDGES.parametrize("ops.argmax")
def test_argmax_nonfinite(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_packet_paths(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("nn.softmax-nonfinite")
@EDGES.parametrize("nn.softmax-nonfinite")
def test_softmax_nonfinite(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of clauses {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_op_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

"""The classes around the eighty-seventh blind batch's mutants (tests/mutants.py TRAINING_BATCH87: op kernels,
gradients, shape functions, Grappler, variables, tf.data, checkpoints, distributed values, random ops) that the suite
did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind87_gaps --record`, which rewrites blind87_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits may follow the CPU's kernels (prefix `kernel-`: Eigen's packets, the NaN an elementwise kernel
keeps, its sums' order) run on simdist elsewhere under its reference model of such a host. Floats are compared by
their bits (a NaN's payload too)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.raw_bits import raw_bits as _raw
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind87_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _specials(n: int, r: Any) -> np.ndarray:
    """n float32 values: ordinary ones of either sign, +-0, +-inf and quiet NaNs of either sign with payloads that
    count up, placed by `r` (the same draws on every backend)."""
    v = r.uniform(-4.0, 4.0, n).astype(np.float32)
    kinds = r.randint(0, 8, n)
    w = v.view(np.uint32).copy()
    for i, k in enumerate(kinds):
        if k == 0:
            w[i] = 0x7FC00000 + 0x10000 * (i % 7) + i
        elif k == 1:
            w[i] = 0xFFC00000 + 0x10000 * (i % 5) + i
        elif k == 2:
            w[i] = 0x80000000 if i % 2 else 0
        elif k == 3:
            w[i] = 0xFF800000 if i % 2 else 0x7F800000
    return w.view(np.float32).copy()


def _as(tf: Any, x: np.ndarray, dt: str) -> Any:
    """x (float32) in dtype dt: float64 and the half types by a cast of its float32 tensor (NaN payloads as the
    cast keeps them)."""
    t = tf.constant(x)
    return t if dt == "float32" else tf.cast(t, getattr(tf, dt))


# -- 1. composite reductions pass their options: keepdims, axes, dtypes; non-finite rows --------------------------
def _composite_reductions(tf: Any, mk: Any) -> Any:
    """reduce_std, reduce_variance, reduce_logsumexp, reduce_euclidean_norm, reduce_mean and tf.nn.moments over
    axis None, 0, -1, [0, 2], [-1, 1] and [] with keepdims True and False, of float32, float64, float16 and complex64
    (variance/std/norm) inputs [2, 3, 4], eagerly and traced; and reduce_logsumexp of rows holding -inf, +inf and NaN:
    every result's shape and bits (or the error's class)."""
    r = _rng("composite-reductions")
    x32 = r.normal(size=(2, 3, 4)).astype(np.float32)
    xc = (r.normal(size=(2, 3, 4)) + 1j * r.normal(size=(2, 3, 4))).astype(np.complex64)
    out = {}
    fns = {"std": tf.math.reduce_std, "variance": tf.math.reduce_variance, "logsumexp": tf.math.reduce_logsumexp,
           "euclidean": tf.math.reduce_euclidean_norm, "mean": tf.math.reduce_mean}
    for dt in ("float32", "float64", "float16", "complex64"):
        x = tf.constant(xc) if dt == "complex64" else _as(tf, x32, dt)
        combos = [(name, fn, axis, keep) for name, fn in fns.items() if not (dt == "complex64" and name in
                  ("logsumexp", "mean")) for axis in (None, 0, -1, [0, 2], [-1, 1], []) for keep in (True, False)]
        ok = []
        for name, fn, axis, keep in combos:
            key = f"{name} {dt} axis={axis} keepdims={keep}"
            out[key] = _error(lambda: _raw(fn(x, axis=axis, keepdims=keep)))
            if not str(out[key]).startswith("raised"):
                ok.append((key, fn, axis, keep))
        f = tf.function(lambda t, ok=ok: {k: fn(t, axis=a, keepdims=kd) for k, fn, a, kd in ok})
        traced = _error(lambda: {k: _raw(v) for k, v in f(x).items()})
        out[f"{dt} traced"] = traced
        if dt != "complex64":
            for axes in ([0], [0, 1], [2]):
                for keep in (True, False):
                    out[f"moments {dt} {axes} keepdims={keep}"] = _error(
                        lambda: [_raw(m) for m in tf.nn.moments(x, axes=axes, keepdims=keep)])
    inf, nan = np.inf, np.nan
    rows = np.array([[-inf, -inf, -inf], [1.0, 2.0, 3.0], [inf, 1.0, 2.0], [-inf, 3.0, 0.5], [inf, -inf, 1.0],
                     [nan, 1.0, 2.0], [inf, inf, 0.0], [-1e30, -1e30, -inf]], np.float32)
    for dt in ("float32", "float64"):
        t = _as(tf, rows, dt)
        f = tf.function(lambda t: tf.reduce_logsumexp(t, axis=1))
        out[f"logsumexp non-finite {dt}"] = _error(lambda: _raw(tf.reduce_logsumexp(t, axis=1)))
        out[f"logsumexp non-finite {dt} traced"] = _error(lambda: _raw(f(t)))
        out[f"logsumexp non-finite {dt} keepdims"] = _error(lambda: _raw(tf.reduce_logsumexp(t, axis=-1, keepdims=True)))
        out[f"logsumexp non-finite {dt} all"] = _error(lambda: _raw(tf.reduce_logsumexp(t[:1])))
    return out


_program("kernel-composite-reductions-options", _composite_reductions)


@pytest.mark.clause("ops.math-composites")
def test_blind87_composite_reductions_pass_their_options(backend: Any) -> None:
    """reduce_std/variance/logsumexp/euclidean_norm/mean and moments under every keepdims and axis form, eager and
    traced, bit for bit (the composite reductions forward keepdims; logsumexp's non-finite max is zeroed)."""
    _check(backend, "kernel-composite-reductions-options")


# -- 2. reductions over dimensions of size 0 and 1 inside tf.function (Grappler's identity rewrite) -----------------
def _unit_and_empty_reductions(tf: Any, mk: Any) -> Any:
    """Inside tf.function and eagerly: reduce_sum/prod/mean/max/min/logsumexp/euclidean_norm/std/any/all over inputs
    of shapes [2, 0], [0, 3], [2, 1], [1, 1], [2, 1, 0], [3] and [] with axis [], the size-1 axes, the size-0 axes,
    negative forms and None, keepdims True and False: every result's shape and values."""
    out = {}
    fns = {"sum": tf.reduce_sum, "prod": tf.reduce_prod, "mean": tf.reduce_mean, "max": tf.reduce_max,
           "min": tf.reduce_min, "logsumexp": tf.reduce_logsumexp, "euclidean": tf.math.reduce_euclidean_norm,
           "std": tf.math.reduce_std}
    r = _rng("unit-and-empty")
    for shape in ((2, 0), (0, 3), (2, 1), (1, 1), (2, 1, 0), (3,), ()):
        x = tf.constant(r.normal(size=shape).astype(np.float32))
        b = tf.constant(r.normal(size=shape) > 0)
        axes = [None, []] + [[i] for i in range(len(shape))] + [[-1]] * bool(shape) + \
            ([list(range(len(shape)))] if len(shape) > 1 else [])
        ok = []
        for axis in axes:
            for keep in (True, False):
                for name, fn in list(fns.items()) + [("any", tf.reduce_any), ("all", tf.reduce_all)]:
                    key = f"{name} {list(shape)} axis={axis} keepdims={keep}"
                    arg = b if name in ("any", "all") else x
                    out[key] = _error(lambda: _raw(fn(arg, axis=axis, keepdims=keep)))
                    if not str(out[key]).startswith("raised"):
                        ok.append((key, fn, axis, keep, name in ("any", "all")))
        f = tf.function(lambda t, u, ok=ok: {k: fn(u if bo else t, axis=a, keepdims=kd) for k, fn, a, kd, bo in ok})
        out[f"{list(shape)} traced"] = _error(lambda: {k: _raw(v) for k, v in f(x, b).items()})
    return out


_program("kernel-reductions-over-unit-and-empty-dims", _unit_and_empty_reductions)


@pytest.mark.clause("function.grappler-rewrites")
def test_blind87_reductions_over_unit_and_empty_dimensions(backend: Any) -> None:
    """Reductions over size-0 and size-1 dimensions, eager and traced (Grappler's ReplaceReductionWithIdentity only
    where every reduced dimension is 1), shapes and values."""
    _check(backend, "kernel-reductions-over-unit-and-empty-dims")


# -- 3. elementwise kernels' signed zeros and NaN bits in the half types; extremes' NaN bits ------------------------
def _elementwise_zero_and_nan_bits(tf: Any, mk: Any) -> Any:
    """sign, square, abs, negative, relu, floor, ceil, round, rint, sqrt and reciprocal of bfloat16, float16,
    float32 and float64 tensors of 1-20 and 33 elements holding +-0, +-inf and NaNs of either sign with payloads,
    eagerly and traced; reduce_max/min by rows and columns of [6, 21] and [21, 6] with some NaN rows (two tagged NaNs
    each) and some finite ones, and of all-NaN and NaN-free rows: every result's bits."""
    r = _rng("zero-nan-bits")
    out = {}
    ops = {"sign": tf.math.sign, "square": tf.math.square, "abs": tf.math.abs, "negative": tf.math.negative,
           "relu": tf.nn.relu, "floor": tf.math.floor, "ceil": tf.math.ceil, "round": tf.math.round,
           "rint": tf.math.rint, "sqrt": tf.math.sqrt, "reciprocal": tf.math.reciprocal}
    for dt in ("bfloat16", "float16", "float32", "float64"):
        # (NaN inputs left out where simdist's NaN bits are open: bfloat16's Sign, Ceil, Floor, Round, Neg and Relu;
        # docs/conformance.md's blind87 section)
        open_nan = {"sign", "ceil", "floor", "round", "negative", "relu"} if dt == "bfloat16" else set()
        for n in list(range(1, 21)) + [33]:
            xs = _specials(n, r)
            x = _as(tf, xs, dt)
            xz = _as(tf, np.where(np.isnan(xs), np.float32(-1.5), xs), dt)
            for name, fn in ops.items():
                out[f"{name} {dt} {n}"] = _error(lambda: _raw(fn(xz if name in open_nan else x)))
            if n in (3, 17, 33):
                f = tf.function(lambda t, u: {k: ops[k](u if k in open_nan else t)
                                              for k in ("sign", "square", "abs", "negative", "relu")})
                out[f"{dt} {n} traced"] = _error(lambda: {k: _raw(v) for k, v in f(x, xz).items()})
    for dt in ("float32", "float64", "float16"):   # (bfloat16's extremes of NaNs: open)
        a = r.normal(size=(6, 21)).astype(np.float32)
        w = a.view(np.uint32)
        for i, (p, q) in enumerate([(0, 20), (3, 17), (16, 1), (5, 9)]):
            w[i, p] = 0x7FC00000 + 0x10000 * i + 11
            w[i, q] = 0xFFC00000 + 0x10000 * i + 29
        w[5, :] = 0x7FC00000 + np.arange(21, dtype=np.uint32) * 0x10000
        a = w.view(np.float32)
        for shape_name, arr in (("rows", a), ("columns", a.T.copy())):
            t = _as(tf, arr, dt)
            ax = 1 if shape_name == "rows" else 0
            out[f"max {dt} {shape_name}"] = _error(lambda: _raw(tf.reduce_max(t, axis=ax)))
            out[f"min {dt} {shape_name}"] = _error(lambda: _raw(tf.reduce_min(t, axis=ax)))
            out[f"max {dt} {shape_name} keepdims"] = _error(lambda: _raw(tf.reduce_max(t, axis=ax, keepdims=True)))
        out[f"max {dt} all"] = _error(lambda: _raw(tf.reduce_max(_as(tf, a, dt))))
    return out


_program("kernel-elementwise-zero-and-nan-bits", _elementwise_zero_and_nan_bits)


@pytest.mark.clause("ops.eigen-kernels")
def test_blind87_elementwise_signed_zeros_and_nan_bits(backend: Any) -> None:
    """Elementwise kernels' signed zeros and NaN bits in every float dtype, packets and tail; the extreme
    reductions' NaN bits where only some rows hold NaNs."""
    _check(backend, "kernel-elementwise-zero-and-nan-bits")


# -- 4. complex sign and modulus at zeros, infinities and NaNs -----------------------------------------------------
def _complex_sign(tf: Any, mk: Any) -> Any:
    """tf.sign, tf.abs and tf.math.divide_no_nan of complex64 and complex128 tensors whose parts are +-0, +-1,
    +-inf, NaN and ordinary values in every pairing, eagerly and traced, and sign's gradient (zeros): bits."""
    vals = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 3e-39, 1e30]
    # (a NaN part beside an infinite one left out: the sign of the NaN simdist gives is open)
    pairs = np.array([complex(a, b) for a in vals for b in vals
                      if not ((np.isnan(a) and np.isinf(b)) or (np.isinf(a) and np.isnan(b)))])
    out = {}
    for dt in ("complex64", "complex128"):
        x = tf.constant(pairs, getattr(tf, dt))
        f = tf.function(tf.sign)
        out[f"sign {dt}"] = _error(lambda: _raw(tf.sign(x)))
        out[f"sign {dt} traced"] = _error(lambda: _raw(f(x)))
        out[f"abs {dt}"] = _error(lambda: _raw(tf.abs(x)))
        out[f"sign {dt} of zeros"] = _error(lambda: _raw(tf.sign(tf.zeros([5], getattr(tf, dt)))))
    for dt in ("float32", "float64", "complex64"):
        x = tf.constant([-2.0, -0.0, 0.0, 3.0], getattr(tf, dt))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sign(x)
        out[f"sign gradient {dt}"] = _error(lambda: _raw(tape.gradient(y, x)))
    return out


_program("kernel-complex-sign-and-modulus", _complex_sign)


@pytest.mark.clause("ops.complex")
def test_blind87_complex_sign_at_zeros_and_non_finite_parts(backend: Any) -> None:
    """Complex sign (DivNoNan of x by its modulus: 0 at 0) and modulus at zeros, infinities and NaNs, bit for bit."""
    _check(backend, "kernel-complex-sign-and-modulus")


# -- 5. variable writes convert with the variable's dtype; read_value=False ----------------------------------------
def _variable_writes(tf: Any, mk: Any) -> Any:
    """tf.Variable of float64, float32, float16, bfloat16, int32 and int64 written by assign, assign_add and
    assign_sub with Python floats and ints, lists, float64/float32/int64 NumPy arrays and scalars, and tensors of its
    own and another dtype, eagerly and inside a tf.function; with read_value=False what the write returns: the
    variable's value after each write, or the error's class."""
    out = {}
    values = {"py-float": 0.1, "py-int": 3, "list": [0.1, 2.5], "np-f64": np.array([0.1, 0.2]),
              "np-f32": np.array([0.1, 0.2], np.float32), "np-i64": np.array([1, 2]), "np-scalar": np.float64(0.3)}
    for dt in ("float64", "float32", "float16", "bfloat16", "int32", "int64"):
        for vname, val in values.items():
            shape = [] if np.ndim(val) == 0 else [2]
            for op in ("assign", "assign_add", "assign_sub"):
                v = tf.Variable(tf.ones(shape, getattr(tf, dt)))

                def write(v: Any = v, op: str = op, val: Any = val) -> Any:
                    getattr(v, op)(val)
                    return _raw(v.read_value())
                out[f"{dt} {op} {vname}"] = _error(write)
                if vname not in ("py-float", "np-f64", "list"):
                    continue
                w = tf.Variable(tf.ones(shape, getattr(tf, dt)))
                seen: list = []
                f = tf.function(_writer(tf, w, op, val, seen))
                out[f"{dt} {op} {vname} traced"] = _error(lambda: (f(), [seen[-1], _raw(w.read_value())])[1])
        t32 = tf.constant([1.5, 2.5])
        v = tf.Variable(tf.ones([2], getattr(tf, dt)))
        out[f"{dt} assign float32 tensor"] = _error(lambda: (v.assign(t32), _raw(v))[1])
    v = tf.Variable(1.0)
    out["read_value False eager"] = [v.assign(2.0, read_value=False) is None,
                                     v.assign_add(1.0, read_value=False) is None,
                                     v.assign_sub(0.5, read_value=False) is None, _raw(v.read_value())]
    out["read_value True eager"] = [_raw(v.assign(4.0)), _raw(v.assign_add(1.0)), _raw(v.assign_sub(0.5))]
    return out


def _writer(tf: Any, w: Any, op: str, val: Any, seen: list) -> Any:
    """A function of no arguments writing `val` into `w` by `op` with read_value=False (what it returns noted)."""
    def fn() -> Any:
        seen.append(getattr(w, op)(val, read_value=False) is None)
        return tf.constant(0)
    return fn


_program("var-writes-convert-in-the-variable-dtype", _variable_writes)


@pytest.mark.clause("ops.conversion")
def test_blind87_variable_writes_convert_in_the_variable_dtype(backend: Any) -> None:
    """Variable writes of Python and NumPy values convert with the variable's dtype; read_value=False returns no
    value; values or error classes, eager and traced."""
    _check(backend, "var-writes-convert-in-the-variable-dtype")


# -- 6. static shapes of concat, stack and one_hot with unknown dimensions -----------------------------------------
def _static_shapes(tf: Any, mk: Any) -> Any:
    """Inside tf.functions with input signatures of unknown dimensions, called once: the static shapes of concat
    along each axis (either input's dimension unknown, both, none), stack along each axis, one_hot with axis -1, 0
    and 1 of ids [3, None], [None, 2] and [None, None], and tile/reshape of them: the shapes the trace sees."""
    out = {}
    sigs = {"a-rows": ([None, 3], [2, 3]), "b-rows": ([2, 3], [None, 3]), "cols": ([2, None], [2, 4]),
            "both": ([None, None], [2, 3]), "none": ([2, 3], [2, 3]), "all": ([None, None], [None, None])}
    for name, (sa, sb) in sigs.items():
        for axis in (0, 1, -1):
            shapes: list = []
            f = tf.function(_concat_recorder(tf, axis, shapes), input_signature=[tf.TensorSpec(sa), tf.TensorSpec(sb)])
            xa = [d if d is not None else 2 for d in sa]
            xb = [d if d is not None else (2 if i == 0 else 3) for i, d in enumerate(sb)]
            out[f"concat {name} axis={axis}"] = _error(lambda: (f(tf.ones(xa), tf.ones(xb)), shapes[-1])[1])
    for sig in ([3, None], [None, 2], [None, None], [None]):
        for axis in (-1, 0, 1):
            shapes = []
            f = tf.function(_one_hot_recorder(tf, axis, shapes), input_signature=[tf.TensorSpec(sig, tf.int32)])
            x = tf.zeros([d if d is not None else 4 for d in sig], tf.int32)
            out[f"one_hot {sig} axis={axis}"] = _error(lambda: (f(x), shapes[-1])[1])
    return out


def _concat_recorder(tf: Any, axis: int, shapes: list) -> Any:
    def fn(a: Any, b: Any) -> Any:
        c = tf.concat([a, b], axis)
        s = tf.stack([a, a], axis)
        shapes.append([c.shape.as_list(), s.shape.as_list()])
        return c
    return fn


def _one_hot_recorder(tf: Any, axis: int, shapes: list) -> Any:
    def fn(i: Any) -> Any:
        o = tf.one_hot(i, 5, axis=axis)
        shapes.append(o.shape.as_list())
        return o
    return fn


_program("fn-static-shapes-concat-stack-one-hot", _static_shapes)


@pytest.mark.clause("function.static-shapes")
def test_blind87_static_shapes_of_concat_stack_and_one_hot(backend: Any) -> None:
    """Static shapes inside tf.function with unknown dimensions: concat's axis dimension unknown if any input's is,
    the others merged; stack and one_hot insert their known dimension at the axis."""
    _check(backend, "fn-static-shapes-concat-stack-one-hot")


# -- 7. split's size_splits at their edges, eager and traced ---------------------------------------------------------
def _split_sizes(tf: Any, mk: Any) -> Any:
    """tf.split of a [3] and a [2, 6] tensor by size lists holding the whole dimension, -1 alone and beside other
    sizes, two -1s, sizes below -1, too short and too long, a single zero, and by num_or_size_splits integers
    (1, the dimension, a non-divisor, 0), with num, along axis 0, 1 and -1, eagerly and inside a tf.function: the
    parts' shapes and values, or the error's class."""
    out = {}
    v = tf.constant([1.0, 2.0, 3.0])
    m = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 6))
    cases = [(v, [-1], 0), (v, [3], 0), (v, [1, -1], 0), (v, [-1, 1], 0), (v, [-1, -1], 0), (v, [4, -1], 0),
             (v, [-2, 5], 0), (v, [1, 1], 0), (v, [1, 1, 1, 1], 0), (v, [0, 3], 0), (v, [0], 0), (v, 1, 0), (v, 3, 0),
             (v, 2, 0), (m, [-1], 1), (m, [6], 1), (m, [2, -1, 1], 1), (m, [-1], 0), (m, [2], 0), (m, [1, -1], -1),
             (m, 3, 1), (m, 4, -1), (m, [-1], -1)]
    for i, (t, sizes, axis) in enumerate(cases):
        key = f"{i} {t.shape.as_list()} {sizes} axis={axis}"
        out[key] = _error(lambda: [_raw(p) for p in tf.split(t, sizes, axis)])
        f = tf.function(_splitter(tf, sizes, axis))
        out[key + " traced"] = _error(lambda: [_raw(p) for p in f(t)])
    out["num given"] = _error(lambda: [_raw(p) for p in tf.split(v, [1, 2], num=2)])
    out["num mismatched"] = _error(lambda: [_raw(p) for p in tf.split(v, [1, 2], num=3)])
    return out


def _splitter(tf: Any, sizes: Any, axis: int) -> Any:
    def fn(t: Any) -> Any:
        return tf.split(t, sizes, axis)
    return fn


_program("op-split-sizes-at-their-edges", _split_sizes)


@pytest.mark.clause("ops.argument-errors")
def test_blind87_split_sizes_at_their_edges(backend: Any) -> None:
    """tf.split's size_splits and counts at their edges (a single size must be the whole dimension eagerly, -1 too),
    eager and traced: parts or error classes."""
    _check(backend, "op-split-sizes-at-their-edges")


# -- 8. tf.data's parallelism and buffer arguments at their edges -----------------------------------------------------
def _data_parallelism(tf: Any, mk: Any) -> Any:
    """Dataset.map, interleave and batch with num_parallel_calls None, AUTOTUNE, 1, 2, 0, -2 and a NumPy int;
    prefetch and shuffle with buffer sizes AUTOTUNE, 0, 1, -2; interleave's cycle_length and block_length 1, 2,
    AUTOTUNE, 0 and -2 (block lengths 1 and 2 only): the elements (map/batch/prefetch in order; interleave's, deterministic) or the error's
    class, at creation or iteration."""
    out = {}

    def elements(make: Any) -> Any:
        return [np.asarray(e).tolist() for e in make().as_numpy_iterator()]
    base = lambda: tf.data.Dataset.range(6)   # noqa: E731
    for n in (None, tf.data.AUTOTUNE, 1, 2, 0, -2, np.int64(2)):
        out[f"map num_parallel_calls={n!r}"] = _error(lambda: elements(lambda: base().map(lambda x: x * 2,
                                                                                       num_parallel_calls=n)))
        if not (isinstance(n, int) and n in (0, -2)):   # (batch's 0 or -2: TF 2.21's iteration does not end)
            out[f"batch num_parallel_calls={n!r}"] = _error(lambda: elements(lambda: base().batch(4, num_parallel_calls=n)))
        out[f"interleave num_parallel_calls={n!r}"] = _error(lambda: elements(lambda: base().interleave(
            lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2, block_length=1,
            num_parallel_calls=n, deterministic=True)))
    for b in (tf.data.AUTOTUNE, 0, 1, -2):
        out[f"prefetch {b}"] = _error(lambda: elements(lambda: base().prefetch(b)))
    for c in (1, 2, tf.data.AUTOTUNE, 0, -2):
        for blk in (1, 2):   # (block lengths 0 and -2 left out: not run on TF 2.21 after batch's hang below)
            out[f"interleave cycle={c} block={blk}"] = _error(lambda: elements(lambda: base().interleave(
                lambda x: tf.data.Dataset.range(x, x + 3), cycle_length=c, block_length=blk)))
    return out


_program("data-parallelism-and-buffer-arguments", _data_parallelism)


@pytest.mark.clause("dataset.api-surface")
def test_blind87_data_parallelism_and_buffer_arguments(backend: Any) -> None:
    """tf.data's num_parallel_calls, buffer sizes, cycle and block lengths at their edges: elements or error
    classes."""
    _check(backend, "data-parallelism-and-buffer-arguments")


# -- 9. a restore's status assertions by what the program and the checkpoint hold --------------------------------------
def _restore_status(tf: Any, mk: Any) -> Any:
    """Checkpoints written by write and save (with and without its save counter) of one variable, restored and read
    into an empty Checkpoint, one with another name, one with the same name, one with both and one with a nested
    object: assert_consumed, assert_existing_objects_matched, assert_nontrivial_match and expect_partial's result
    class, and the values restored."""
    import tempfile
    d = tempfile.mkdtemp()
    out = {}
    written = {"write": tf.train.Checkpoint(v=tf.Variable(1.5)).write(os.path.join(d, "w")),
               "save": tf.train.Checkpoint(v=tf.Variable(2.5)).save(os.path.join(d, "s"))}
    targets = {"empty": lambda: ({}, []), "other": lambda: ({"w": tf.Variable(0.0)}, []),
               "same": lambda: ({"v": tf.Variable(0.0)}, ["v"]),
               "both": lambda: ({"v": tf.Variable(0.0), "w": tf.Variable(0.0)}, ["v", "w"]),
               "nested": lambda: ({"n": tf.train.Checkpoint(v=tf.Variable(0.0))}, [])}
    for wname, path in written.items():
        for tname, make in targets.items():
            for how in ("restore", "read"):
                for check in ("assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match",
                              "expect_partial"):
                    objs, names = make()

                    def run() -> Any:
                        status = getattr(tf.train.Checkpoint(**objs), how)(path)
                        getattr(status, check)()
                        return [_raw(objs[n]) for n in names]
                    out[f"{wname} {tname} {how} {check}"] = _error(run)
    return out


_program("ckpt-restore-status-assertions", _restore_status)


@pytest.mark.clause("checkpoint.restore-status")
def test_blind87_restore_status_assertions(backend: Any) -> None:
    """A restore's and a read's status assertions by what the program and the checkpoint hold (nothing to load, only
    the root, partial and full matches): pass or the assertion's class, and the values restored."""
    _check(backend, "ckpt-restore-status-assertions")

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

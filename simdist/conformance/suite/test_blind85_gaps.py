"""The classes around the eighty-fifth blind batch's mutants (tests/mutants.py TRAINING_BATCH85) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind85_gaps --record`, which rewrites blind85_reference.json.gz;
MirroredStrategy over three logical CPUs). Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on
(recorded_programs.avx512_with_onednn): the programs whose values follow the CPU (prefix `kernel-`) run on simdist
elsewhere under its reference model of such a host. Floats are compared by their bits (a NaN's payload too)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind85_reference.json.gz")

#: programs whose TF 2.21 values follow the CPU (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu,
                       replicas=3)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _raw(t: Any) -> list:
    """A tensor's values: floats as their bit patterns (a NaN's payload included), complex part by part."""
    a = np.asarray(t.numpy())
    if a.dtype.kind == "c":
        a = np.stack([a.real, a.imag])
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return a.view(f"u{a.dtype.itemsize}").ravel().tolist()
    if a.dtype.kind in "OSU":
        return [v.decode() if isinstance(v, bytes) else str(v) for v in a.ravel().tolist()]
    return a.ravel().tolist()


def _specials(n: int, r: Any, dt: str) -> np.ndarray:
    """n float32 values in [0.25, 4) with tagged quiet NaNs, a signalling NaN, -NaN, negatives, +-inf and +-0 placed
    by `r` (the same draws on every backend), in dtype `dt`'s bits where the dtype is float32."""
    v = r.uniform(0.25, 4.0, n).astype(np.float32)
    kinds = r.randint(0, 9, n)
    w = v.view(np.uint32).copy()
    for i, k in enumerate(kinds):
        if k == 0:
            w[i] = 0x7FC00000 + 0x10 + i
        elif k == 1:
            w[i] = 0xFFC00000 + 0x20 + i
        elif k == 2 and dt == "float32":   # (a signalling NaN: float16's tail NaN of one is open)
            w[i] = 0x7F800001 + i
        elif k == 3:
            w[i] = np.float32(-v[i]).view(np.uint32)
    out = w.view(np.float32).copy()
    for i, k in enumerate(kinds):
        if k == 4:
            out[i] = np.inf if i % 2 else -np.inf
        elif k == 5:
            out[i] = 0.0 if i % 2 else -0.0
    return out


# -- kernels: Log's NaN bits by dtype, size and position (packets and tail) ------------------------------------------
def _log_nan_bits(tf: Any, mk: Any) -> Any:
    """tf.math.log of float32, float64, float16 and bfloat16 tensors of 1 to 20 and 33 elements (and [3, 5], [2, 9])
    holding tagged NaNs, signalling NaNs, -NaN, negatives, infinities and signed zeros at every position, eagerly and
    traced: every result's bits."""
    r = _rng("lognanbits")
    out = {}
    f = tf.function(tf.math.log)
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for shape in [(n,) for n in range(1, 21)] + [(33,), (3, 5), (2, 9)]:
            x = _specials(int(np.prod(shape)), r, dt).reshape(shape)
            t = tf.constant(x) if dt == "float32" else tf.cast(tf.constant(x), getattr(tf, dt))
            out[f"{dt} {shape}"] = _error(lambda: _raw(tf.math.log(t)))
            out[f"{dt} {shape} traced"] = _error(lambda: _raw(f(t)))
    return out


_program("kernel-log-nan-bits", _log_nan_bits)


# -- kernels: the half-type cross entropies' class sums ---------------------------------------------------------------
def _half_xent(tf: Any, mk: Any) -> Any:
    """sparse_softmax_cross_entropy_with_logits and softmax_cross_entropy_with_logits of float16 and bfloat16 logits
    with 2 to 70 classes (rows 1 to 12), their losses and the gradients of the logits, eagerly and traced: every
    result's bits."""
    r = _rng("halfxent")
    out = {}
    for dt in ("float16", "bfloat16"):
        for rows, classes in ((1, 2), (3, 7), (5, 8), (4, 15), (12, 16), (6, 17), (2, 33), (7, 37), (3, 64), (4, 70)):
            lg = tf.cast(tf.constant(r.uniform(-4, 4, (rows, classes)).astype(np.float32)), getattr(tf, dt))
            lab = tf.constant(r.randint(0, classes, rows).astype(np.int32))
            soft = tf.cast(tf.constant(r.uniform(0, 1, (rows, classes)).astype(np.float32)), getattr(tf, dt))

            def sparse(x: Any, y: Any) -> Any:
                with tf.GradientTape() as t:
                    t.watch(x)
                    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x)
                return loss, t.gradient(loss, x)

            def dense(x: Any, y: Any) -> Any:
                with tf.GradientTape() as t:
                    t.watch(x)
                    loss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)
                return loss, t.gradient(loss, x)
            for name, fn, y in (("sparse", sparse, lab), ("dense", dense, soft)):
                out[f"{name} {dt} {rows}x{classes}"] = _error(lambda: [_raw(v) for v in fn(lg, y)])
                out[f"{name} {dt} {rows}x{classes} traced"] = _error(lambda: [_raw(v) for v in tf.function(fn)(lg, y)])
    return out


_program("kernel-half-cross-entropies", _half_xent)


def _complex_segment_means(tf: Any, mk: Any) -> Any:
    """Sorted segment_mean of complex64/complex128 data holding NaNs, infinities and signed zeros in either part,
    1 to 11 columns (Eigen's MeanReducer finalizes whole packets of columns by pdiv_complex and the tail columns by
    the scalar complex division: (nan - inf j) / 2 differs between them), 1-D to 3-D rows, eager and traced; every
    result's real and imaginary parts by their bits."""
    sp = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0, 3.0]
    r = _rng("complex-segment-means")
    fn = tf.function(lambda d, i: tf.math.segment_mean(d, i))
    out = {}
    for dt in ("complex64", "complex128"):
        for shape in [(1,), (2,), (3,), (4,), (5,), (7,), (8,), (9,), (11,), (2, 3), (2, 5)]:
            rows = int(r.randint(2, 12))
            d = np.zeros((rows,) + shape, dt)
            d.real = r.choice(sp, d.shape)
            d.imag = r.choice(sp, d.shape)
            ids = np.sort(r.randint(0, 3, rows)).astype(np.int32)
            for mode, f in (("eager", tf.math.segment_mean), ("traced", fn)):
                res = np.asarray(f(tf.constant(d), tf.constant(ids)))
                out[f"{dt} {shape} {mode}"] = [_bits(res.real), _bits(res.imag)]
    return out


_program("kernel-complex-segment-means", _complex_segment_means)


# -- ops: dtype refusals eagerly and inside tf.function --------------------------------------------------------------
_BINARY = ("multiply", "subtract", "divide", "truediv", "floordiv", "floormod", "maximum", "minimum", "pow",
           "squared_difference", "add", "multiply_no_nan", "xdivy", "atan2")
_UNARY = ("negative", "abs", "square", "sqrt", "exp", "sign", "reciprocal", "round", "floor", "cumsum", "reduce_prod",
          "reduce_sum", "argmax")


def _dtype_refusals(tf: Any, mk: Any) -> Any:
    """tf.math's binary and unary ops on bool, int8, uint16, uint32, int32, float16 and string tensors, eagerly and
    inside a tf.function (tensor arguments; a Python bool literal beside a bool tensor too): values or error classes."""
    out = {}
    vals = {"bool": [True, False, True], "int8": [3, -2, 1], "uint16": [3, 2, 1], "uint32": [3, 2, 1],
            "int32": [3, -2, 1], "float16": [1.5, -2.0, 0.5], "string": [b"a", b"b", b"c"]}
    for dt, v in vals.items():
        a = tf.constant(v, dtype=getattr(tf, dt))
        b = tf.constant(v[::-1], dtype=getattr(tf, dt))
        for name in _BINARY:
            op = getattr(tf.math, name)
            out[f"{name} {dt}"] = _error(lambda: _raw(op(a, b)))
            out[f"{name} {dt} traced"] = _error(lambda: _raw(tf.function(lambda x, y: op(x, y))(a, b)))
        for name in _UNARY:
            op = getattr(tf.math, name)
            out[f"{name} {dt}"] = _error(lambda: _raw(op(a)))
            out[f"{name} {dt} traced"] = _error(lambda: _raw(tf.function(lambda x: op(x))(a)))
    t = tf.constant([True, False])
    out["multiply bool literal"] = _error(lambda: _raw(tf.math.multiply(t, True)))
    out["multiply bool literal traced"] = _error(lambda: _raw(tf.function(lambda x: tf.math.multiply(x, True))(t)))
    out["star bool traced"] = _error(lambda: _raw(tf.function(lambda x, y: x * y)(t, t)))
    return out


_program("op-dtype-refusals-eager-and-traced", _dtype_refusals)


def _concat_one_value(tf: Any, mk: Any) -> Any:
    """tf.concat of a single value (array_ops.concat: a value that is not a list or tuple is a list of one, and a list
    of one is its identity, the axis checked for rank 0 only): a tensor, a variable, a NumPy array, a nested Python
    list, a scalar, a 3-D tensor, given alone, as a list or a tuple of one, on every axis of its rank and out of range,
    eagerly and traced; two tensors on an axis out of range and of scalars for contrast. Values, shapes and dtypes, or
    error classes."""
    out = {}
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = tf.constant(np.arange(24, dtype=np.int64).reshape(2, 3, 4) - 7)
    values = {"tensor": x, "tensor3d": y, "variable": tf.Variable(x), "numpy": np.arange(4.0).reshape(2, 2),
              "pylist": [[1, 2], [3, 4]], "scalar": tf.constant(3.5)}

    def res(t: Any) -> Any:
        return [t.dtype.name, t.shape.as_list(), _bits(t)]
    for vname, v in values.items():
        for form, wrap in (("alone", lambda v: v), ("list", lambda v: [v]), ("tuple", lambda v: (v,))):
            for axis in (0, 1, -1, 2, 5, -4):
                out[f"{vname} {form} axis={axis}"] = _error(lambda: res(tf.concat(wrap(v), axis)))
            if vname in ("tensor", "tensor3d"):
                fn = tf.function(lambda a, form=form, wrap=wrap: tf.concat(wrap(a), 7))
                out[f"{vname} {form} traced axis=7"] = _error(lambda: res(fn(v)))
    out["two axis=5"] = _error(lambda: res(tf.concat([x, x], 5)))
    out["two scalars"] = _error(lambda: res(tf.concat([tf.constant(1.0), tf.constant(2.0)], 0)))
    out["list of one, tensor axis"] = _error(lambda: res(tf.concat([x], tf.constant([0]))))
    out["list of one, float axis"] = _error(lambda: res(tf.concat([x], 0.5)))
    return out


_program("op-concat-one-value", _concat_one_value)


# -- tf.function: static shapes of matmul and cross entropies with unknown dimensions --------------------------------
def _matmul_recorder(tf: Any, kw: dict, shapes: list) -> Any:
    def fn(x: Any, y: Any) -> Any:
        z = tf.matmul(x, y, **kw)
        shapes.append(z.shape.as_list())
        return z
    return fn


def _xent_recorder(tf: Any, shapes: list, sparse: bool) -> Any:
    def fn(lg: Any, lb: Any) -> Any:
        if sparse:
            loss, bp = tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=lg, labels=lb)
            shapes.append([loss.shape.as_list(), bp.shape.as_list()])
            return loss
        loss, bp = tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=lg, labels=lb)
        w = tf.nn.softmax_cross_entropy_with_logits(labels=lb, logits=lg)
        shapes.append([loss.shape.as_list(), bp.shape.as_list(), w.shape.as_list()])
        return loss
    return fn


def _static_shapes(tf: Any, mk: Any) -> Any:
    """Inside tf.functions with input signatures of unknown dimensions, called once with matching tensors: the static
    shapes of matmul (each transpose and adjoint, 2-D and batched, unknown rows, columns, inner or every dimension),
    the raw SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits (loss and backprop; the known
    dimensions on either operand) and softmax_cross_entropy_with_logits: the last trace's shapes (None unknown)."""
    out = {}
    m, k, n = 2, 3, 4
    masks = {"x-rows": ((1, 0), (0, 0)), "x-all": ((1, 1), (0, 0)), "y-all": ((0, 0), (1, 1)),
             "inner": ((0, 1), (1, 0)), "outer": ((1, 0), (0, 1)), "every": ((1, 1), (1, 1))}
    for ta in (False, True):
        for tb in (False, True):
            xs = [k, m] if ta else [m, k]
            ys = [n, k] if tb else [k, n]
            for mask, (mx, my) in masks.items():
                # (the mask names x's [rows, columns] and y's [rows, columns] as the product reads them)
                sx = [None if mx[(i + ta) % 2] else d for i, d in enumerate(xs)]
                sy = [None if my[(i + tb) % 2] else d for i, d in enumerate(ys)]
                for adj in (False, True):
                    for batch in (False,):   # (batched: open, docs/conformance.md's blind85 section)
                        shapes = []
                        kw = {"adjoint_a": ta, "adjoint_b": tb} if adj else {"transpose_a": ta, "transpose_b": tb}

                        fn = _matmul_recorder(tf, kw, shapes)
                        bx, by = ([5] if batch else []), ([None] if batch else [])
                        f = tf.function(fn, input_signature=[tf.TensorSpec(by + sx), tf.TensorSpec(by + sy)])
                        out[f"matmul {mask} ta{int(ta)} tb{int(tb)} adj{int(adj)} batch{int(batch)}"] = _error(
                            lambda: (f(tf.ones(bx + xs), tf.ones(bx + ys)), shapes[-1])[1])
    for sf, sl in (([None, None], [None, 4]), ([None, 4], [None, None]), ([2, None], [None, 4]),
                   ([None, None], [2, 4]), ([None, 4], [2, 4]), ([None, None], [None, None])):
        shapes = []

        f = tf.function(_xent_recorder(tf, shapes, False), input_signature=[tf.TensorSpec(sf), tf.TensorSpec(sl)])
        out[f"xent {sf} {sl}"] = _error(lambda: (f(tf.ones([2, 4]), tf.ones([2, 4]) / 4), shapes[-1])[1])
    for sf, sl in (([None, None], [None]), ([None, 5], [None]), ([2, None], [None]), ([None, None], [2])):
        shapes = []

        f = tf.function(_xent_recorder(tf, shapes, True), input_signature=[tf.TensorSpec(sf), tf.TensorSpec(sl, tf.int32)])
        out[f"sparse xent {sf} {sl}"] = _error(lambda: (f(tf.ones([2, 5]), tf.constant([1, 3])), shapes[-1])[1])
    return out


_program("fn-static-shapes-matmul-and-xent", _static_shapes)


@pytest.mark.clause("ops.host-cpu")
@pytest.mark.parametrize("name", _ids("kernel-"))
def test_blind85_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """Log's NaN bits by dtype, size and position, the half cross entropies and complex segment means, bit for
    bit."""
    _check(backend, name)


@pytest.mark.clause("ops.argument-errors")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind85_ops_arguments(backend: Any, name: str) -> None:
    """Dtype refusals eagerly and traced, and concat of a single value: values or error classes."""
    _check(backend, name)


@pytest.mark.clause("function.static-shapes")
@pytest.mark.parametrize("name", _ids("fn-"))
def test_blind85_function_shapes(backend: Any, name: str) -> None:
    """Static shapes inside tf.function: matmul and the cross entropies with unknown dimensions."""
    _check(backend, name)


# -- a failed collective aborts the process's collective executor (its own client: a fresh TF process) --------------
_ABORT_PROGRAM = """
cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
result = {}


def attempt(name, f):
    try:
        r = f()
        result[name] = ["ok", [backend.to_numpy(v).tolist() for v in s.experimental_local_results(r)]]
    except Exception as e:
        result[name] = [type(e).__name__, "Collective ops is aborted by" in str(getattr(e, "message", e))]


def all_reduce():
    return s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant([1.0, 2.0])))


def uneven_gather():
    ctx = tf.distribute.get_replica_context()
    return ctx.all_gather(tf.ones([2, ctx.replica_id_in_sync_group + 1]), 0)


def mean_step():
    return s.run(lambda: tf.distribute.get_replica_context().all_reduce("MEAN", tf.constant(2.0)))


attempt("all_reduce before", all_reduce)
attempt("gather of uneven shapes", lambda: s.run(uneven_gather))
result["gather of uneven shapes"] = result["gather of uneven shapes"][:1]   # (its message is TF's own: not compared)
attempt("all_reduce after", all_reduce)
attempt("all_gather after", lambda: s.run(lambda: tf.distribute.get_replica_context().all_gather(tf.constant([1.0]), 0)))
attempt("strategy.reduce after", lambda: s.reduce("SUM", s.run(lambda: tf.constant([1.0])), axis=None))
attempt("strategy.gather after", lambda: s.gather(s.run(lambda: tf.constant([1.0])), 0))
s2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
attempt("a new strategy's all_reduce after",
        lambda: s2.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant([1.0]))))
attempt("a traced all_reduce after", tf.function(mean_step))
"""


@pytest.mark.clause("gather.shape-rule")
@pytest.mark.requires("multi_client")
def test_blind85_a_failed_collective_aborts_every_later_one(backend: Any) -> None:
    """MirroredStrategy over two CPUs in a process of its own: an all_gather whose replicas' shapes disagree fails as
    it runs (InvalidArgumentError), and from then on every collective of the process — all_reduce, all_gather,
    strategy.gather, another strategy's, a traced one — fails with the same class and "Collective ops is aborted by:
    ..."; strategy.reduce, which is not a collective, still works (observed on TF 2.21; blind85's
    collective-abort-not-sticky)."""
    got = backend.run_multi_worker(_ABORT_PROGRAM, 1, make_strategy=False)[0]
    want = {"all_reduce before": ["ok", [[2.0, 4.0], [2.0, 4.0]]],
            "gather of uneven shapes": ["InvalidArgumentError"],
            "all_reduce after": ["InvalidArgumentError", True],
            "all_gather after": ["InvalidArgumentError", True],
            "strategy.reduce after": ["ok", [[2.0]]],
            "strategy.gather after": ["InvalidArgumentError", True],
            "a new strategy's all_reduce after": ["InvalidArgumentError", True],
            "a traced all_reduce after": ["InvalidArgumentError", True]}
    assert got == want, f"TF 2.21 gives {want}, got {got}"


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

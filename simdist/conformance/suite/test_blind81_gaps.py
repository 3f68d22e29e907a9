"""The classes around the eighty-first blind batch's mutants (tests/mutants.py TRAINING_BATCH81) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant, and a disagreement the batch's
probes found (dataset.api-surface).

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind81_gaps --record`, which rewrites blind81_reference.json.gz;
MirroredStrategy over two logical CPUs). Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on
(recorded_programs.avx512_with_onednn): the programs whose values follow the CPU (prefix `kernel-`: oneDNN's kernels'
summation orders and its threads' splits) run on simdist elsewhere under its reference model of such a host. Floats
are compared by their bits."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind81_reference.json.gz")

#: programs whose TF 2.21 values follow the CPU (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu,
                       replicas=2)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- kernels: oneDNN's convolution gradients, matrix-vector products, NaN payloads ----------------------------------
def _conv_grads(tf: Any, x: Any, f: Any, strides: Any, padding: Any, bias: Any, up: Any, traced: bool) -> Any:
    def run(x: Any, f: Any, b: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch([x, f, b])
            y = tf.nn.bias_add(tf.nn.conv2d(x, f, strides, padding), b)
            loss = tf.reduce_sum(y * up(y.shape))
        return t.gradient(loss, [x, f, b])
    fn = tf.function(run) if traced else run
    return [_bits(g) for g in fn(tf.constant(x), tf.constant(f), tf.constant(bias))]


def _conv_gradients(tf: Any, mk: Any) -> Any:
    """The three gradients (input, filter, bias) of conv2d + bias_add under a non-uniform upstream, float32, eagerly
    (oneDNN's kernels: the bias gradient's reducer, the filter gradient's kernel by padding): batches of 1 to 7
    images, 1 to 33 output channels (oneDNN's 16-channel blocks), 1, 3, 16 and 20 input channels, 3x3, 2x2, 5x5 and
    3x1 filters, VALID and SAME at strides 1 and 2: their bits (traced, and explicit paddings: open)."""
    r = _rng("convgradients")
    out = {}
    cases = [(1, 6, 1, 3, (3, 3), 1, "VALID"), (2, 7, 3, 5, (3, 3), 1, "SAME"), (3, 8, 3, 4, (3, 3), 1, "VALID"),
             (4, 9, 2, 17, (3, 3), 1, "SAME"), (5, 6, 16, 8, (3, 3), 1, "SAME"), (3, 10, 20, 6, (3, 3), 1, "SAME"),
             (7, 5, 3, 33, (2, 2), 1, "VALID"), (2, 9, 4, 3, (5, 5), 1, "SAME"), (3, 8, 3, 4, (3, 1), 1, "SAME"),
             (3, 9, 3, 4, (3, 3), 2, "SAME"), (2, 8, 16, 5, (3, 3), 2, "VALID"), (5, 7, 1, 1, (3, 3), 1, "VALID")]
    for n, h, ci, co, (kh, kw), s, pad in cases:
        x = r.uniform(-1, 1, (n, h, h, ci)).astype("float32")
        f = r.uniform(-1, 1, (kh, kw, ci, co)).astype("float32")
        b = r.uniform(-1, 1, co).astype("float32")
        ru = _rng(f"convup{n}{h}{ci}{co}")

        def up(shape: Any, ru: Any = ru) -> Any:
            return tf.constant(ru.uniform(-1, 1, shape.as_list()).astype("float32"))
        for traced in (False,):   # (traced, and explicit paddings: open, docs/conformance.md)
            ru.seed(n * 1000 + h * 10 + ci)
            key = f"n{n} h{h} ci{ci} co{co} k{kh}x{kw} s{s} {pad}{' traced' if traced else ''}"
            out[key] = _error(lambda: _conv_grads(tf, x, f, s, pad, b, up, traced))
    return out


_program("kernel-conv-gradients", _conv_gradients)


def _keras_conv_bias(tf: Any, mk: Any) -> Any:
    """A Keras Conv2D's kernel and bias gradients in a tf.function training step (the fused bias gradient), batches
    of 1 to 9 images and 2 to 40 filters: their bits."""
    r = _rng("kerasconvbias")
    out = {}
    for n, c, filters in ((1, 3, 4), (2, 3, 16), (5, 2, 17), (4, 3, 40), (3, 8, 32)):   # (9 x 1 x 2: open)
        conv = tf.keras.layers.Conv2D(filters, 3, kernel_initializer=tf.keras.initializers.Constant(0.05),
                                      bias_initializer="zeros", padding="same" if n % 2 else "valid")
        x = tf.constant(r.uniform(-1, 1, (n, 9, 9, c)).astype("float32"))

        @tf.function
        def step(x: Any, conv: Any = conv) -> Any:
            with tf.GradientTape() as t:
                y = conv(x)
                loss = tf.reduce_sum(y * y * 0.5 + y)
            return t.gradient(loss, conv.trainable_variables)
        out[f"n{n} c{c} f{filters}"] = [_bits(g) for g in step(x)]
    return out


_program("kernel-keras-conv-bias", _keras_conv_bias)


def _gemv_splits(tf: Any, mk: Any) -> Any:
    """One row times a wide matrix (oneDNN's matrix-vector kernel, k split over its threads) and a matrix given
    transposed times one column, k odd and even from 255 to 30,001: their bits."""
    r = _rng("gemvsplits")
    out = {}
    for k, n in ((255, 20), (257, 9), (4141, 20), (4140, 33), (8001, 100), (12001, 64), (30001, 300), (9999, 2)):
        x = tf.constant(r.uniform(-1, 1, (1, k)).astype("float32"))
        y = tf.constant(r.uniform(-1, 1, (k, n)).astype("float32"))
        out[f"row k{k} n{n}"] = _bits(tf.matmul(x, y))
    for k, m in ((601, 3), (1001, 5), (4001, 1), (2047, 7)):
        a = tf.constant(r.uniform(-1, 1, (k, m)).astype("float32"))
        v = tf.constant(r.uniform(-1, 1, (k, 1)).astype("float32"))
        out[f"column k{k} m{m}"] = _bits(tf.matmul(a, v, transpose_a=True))
    return out


_program("kernel-gemv-splits", _gemv_splits)


def _nan(dtype: str, payload: int) -> Any:
    if dtype == "float32":
        return np.array([0x7FC00000 | payload], np.uint32).view(np.float32)[0]
    if dtype == "float64":
        return np.array([0x7FF8000000000000 | payload], np.uint64).view(np.float64)[0]
    return np.array([0x7E00 | (payload & 0xFF)], np.uint16).view(np.float16)[0]


def _raw(t: Any) -> list:
    """A float tensor's values as their bit patterns (a NaN's payload included)."""
    a = np.asarray(t.numpy())
    return a.view(f"u{a.dtype.itemsize}").ravel().tolist()


def _nan_payloads(tf: Any, mk: Any) -> Any:
    """Which NaN a float add, subtract, multiply, divide, maximum and minimum return where both operands are NaN
    (payloads tagged): a tensor beside a scalar (either side), two tensors, tensors of 1 to 40 elements (the packets
    and their scalar tail), float32, float64 and float16: the results' bits."""
    out = {}
    ops = {"add": tf.add, "sub": tf.subtract, "mul": tf.multiply, "div": tf.math.divide, "max": tf.maximum,
           "min": tf.minimum}
    for dt in ("float32", "float64", "float16"):
        for n in (1, 3, 8, 15, 16, 17, 33, 40):
            a = np.array([_nan(dt, 0x11 + i) if i % 3 != 1 else 1.5 for i in range(n)], dt)
            b = np.array([_nan(dt, 0x71 + i) if i % 2 == 0 else 2.0 for i in range(n)], dt)
            s = np.array(_nan(dt, 0x5A), dt)
            for oname, op in ops.items():
                key = f"{dt} n{n} {oname}"
                out[key + " t,s"] = _error(lambda op=op, a=a, s=s: _raw(op(tf.constant(a), tf.constant(s))))
                out[key + " s,t"] = _error(lambda op=op, a=a, s=s: _raw(op(tf.constant(s), tf.constant(a))))
                out[key + " t,t"] = _error(lambda op=op, a=a, b=b: _raw(op(tf.constant(a), tf.constant(b))))
    return out


_program("kernel-nan-payloads", _nan_payloads)


# -- ops: integer division of empty tensors, index dtypes ------------------------------------------------------------
def _int_div_empty(tf: Any, mk: Any) -> Any:
    """Integer floordiv, floormod, truncatediv, truncatemod, `//` and `%` of int32/int64/uint8 tensors with empty
    results (a zero-sized operand beside a zero divisor, broadcast from a scalar or a [1] or [0, 3] tensor) and with
    non-empty ones (a zero divisor: TF's error), eagerly and inside a tf.function: values or the error's class."""
    out = {}
    fns = {"floordiv": tf.math.floordiv, "floormod": tf.math.floormod, "truncatediv": tf.truncatediv,
           "truncatemod": tf.truncatemod, "//": lambda a, b: a // b, "%": lambda a, b: a % b}
    for dt in ("int32", "int64", "uint8"):
        d = getattr(tf, dt)
        pairs = {"[0] / 0": (tf.zeros([0], d), tf.constant(0, d)), "0 / [0]": (tf.constant(3, d), tf.zeros([0], d)),
                 "[0,3] / [3] zeros": (tf.zeros([0, 3], d), tf.zeros([3], d)),
                 "[2,0] / [1]": (tf.ones([2, 0], d), tf.zeros([1], d)),
                 "[3] / 0": (tf.ones([3], d), tf.constant(0, d)), "[3] / [3] one zero": (tf.ones([3], d),
                                                                                          tf.constant([1, 0, 2], d))}
        for fname, fn in fns.items():
            for pname, (a, b) in pairs.items():
                out[f"{dt} {fname} {pname}"] = _error(lambda fn=fn, a=a, b=b: _bits(fn(a, b)))
                out[f"{dt} {fname} {pname} traced"] = _error(lambda fn=fn, a=a, b=b: _bits(tf.function(fn)(a, b)))
    return out


_program("op-int-div-empty", _int_div_empty)


def _index_dtypes(tf: Any, mk: Any) -> Any:
    """The index operands of gather (and batch_dims), gather_nd, scatter_nd, tensor_scatter_nd_update/add,
    unsorted_segment_sum, one_hot and tf.experimental.numpy.take in int8, int16, int32, int64, uint8, uint16, uint32
    and uint64, eagerly and inside a tf.function: values or the error's class."""
    x = tf.reshape(tf.range(12.0), [3, 4])
    out = {}
    for dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        d = getattr(tf, dt)
        ops = {"gather": lambda d=d: tf.gather(x, tf.constant([2, 0], d)),
               "gather axis1": lambda d=d: tf.gather(x, tf.constant([1, 3], d), axis=1),
               "gather batch_dims": lambda d=d: tf.gather(x, tf.constant([[1], [0], [3]], d), batch_dims=1),
               "gather axis tensor": lambda d=d: tf.gather(x, [1], axis=tf.constant(1, d)),
               "gather_nd": lambda d=d: tf.gather_nd(x, tf.constant([[2, 1], [0, 3]], d)),
               "scatter_nd": lambda d=d: tf.scatter_nd(tf.constant([[1], [3]], d), [5.0, 6.0], tf.constant([5], d)),
               "tensor_scatter_nd_update": lambda d=d: tf.tensor_scatter_nd_update(x, tf.constant([[1]], d),
                                                                                   [[9.0, 9.0, 9.0, 9.0]]),
               "tensor_scatter_nd_add": lambda d=d: tf.tensor_scatter_nd_add(x, tf.constant([[0, 1]], d), [2.5]),
               "unsorted_segment_sum": lambda d=d: tf.math.unsorted_segment_sum(x, tf.constant([1, 0, 1], d), 2),
               "one_hot": lambda d=d: tf.one_hot(tf.constant([0, 2], d), 3)}
        for oname, fn in ops.items():
            if dt in ("int16", "uint16") and "scatter" in oname:   # (open: docs/conformance.md)
                continue
            out[f"{dt} {oname}"] = _error(lambda fn=fn: _bits(fn()))
            out[f"{dt} {oname} traced"] = _error(lambda fn=fn: _bits(tf.function(fn)()))
    return out


_program("op-index-dtypes", _index_dtypes)


def _scatter_update_shapes(tf: Any, mk: Any) -> Any:
    """tensor_scatter_nd_update/add/max and scatter_nd with updates of the right shape, of fewer and more inner
    dimensions than the slices they replace (broadcastable and not), of a wrong outer dimension and a scalar, into
    [4], [4, 3] and [4, 3, 2] tensors with index depths 1 and 2, eagerly and inside a tf.function: values or the
    error's class."""
    out = {}
    cases = {"[4] d1 [1]": ([4], [[1]], [1]), "[4] d1 []": ([4], [[1]], []), "[4] d1 [1,1]": ([4], [[1]], [1, 1]),
             "[4,3] d1 [1,3]": ([4, 3], [[1]], [1, 3]), "[4,3] d1 [1]": ([4, 3], [[1]], [1]),
             "[4,3] d1 [1,1]": ([4, 3], [[1]], [1, 1]), "[4,3] d1 [1,3,1]": ([4, 3], [[1]], [1, 3, 1]),
             "[4,3] d1 [2,3]": ([4, 3], [[1]], [2, 3]), "[4,3] d2 [1]": ([4, 3], [[1, 2]], [1]),
             "[4,3] d2 [1,3]": ([4, 3], [[1, 2]], [1, 3]), "[4,3,2] d1 [1,3]": ([4, 3, 2], [[1]], [1, 3]),
             "[4,3,2] d1 [1,3,2]": ([4, 3, 2], [[1]], [1, 3, 2]), "[4,3,2] d2 [1,2]": ([4, 3, 2], [[1, 0]], [1, 2]),
             "[4,3,2] d2 [1]": ([4, 3, 2], [[1, 0]], [1])}
    fns = {"update": tf.tensor_scatter_nd_update, "add": tf.tensor_scatter_nd_add, "max": tf.tensor_scatter_nd_max}
    for key, (shape, idx, ushape) in cases.items():
        x = tf.zeros(shape)
        u = tf.fill(ushape, 2.5)
        for fname, fn in fns.items():
            out[f"{fname} {key}"] = _error(lambda fn=fn, x=x, i=idx, u=u: _bits(fn(x, i, u)))
            out[f"{fname} {key} traced"] = _error(lambda fn=fn, x=x, i=idx, u=u: _bits(tf.function(fn)(x, i, u)))
        out[f"scatter_nd {key}"] = _error(lambda i=idx, u=u, sh=shape: _bits(tf.scatter_nd(i, u, sh)))
    return out


_program("op-scatter-update-shapes", _scatter_update_shapes)


def _softmax_axes(tf: Any, mk: Any) -> Any:
    """softmax and log_softmax of ranks 1 to 4 along every axis from -rank - 1 to rank (the ends out of range), as a
    Python int and an int32 tensor, eagerly and inside a tf.function: values or the error's class."""
    r = _rng("softmaxaxes")
    out = {}
    for rank in (1, 2, 3, 4):
        x = tf.constant(r.uniform(-3, 3, (2, 3, 2, 3)[:rank]).astype("float32"))
        for axis in range(-rank - 1, rank + 1):
            for fname, fn in (("softmax", tf.nn.softmax), ("log_softmax", tf.nn.log_softmax)):
                key = f"{fname} rank{rank} axis{axis}"
                out[key] = _error(lambda fn=fn, x=x, a=axis: _bits(fn(x, axis=a)))
                out[key + " traced"] = _error(lambda fn=fn, x=x, a=axis: _bits(tf.function(lambda u: fn(u, axis=a))(x)))
    return out


_program("op-softmax-axes", _softmax_axes)


def _pool_window_entries(tf: Any, mk: Any) -> Any:
    """max_pool2d, avg_pool2d, max_pool (2-D and 3-D) and max_pool_with_argmax with ksize and strides whose batch or
    channel entry is not 1 (and whose spatial entries are), NHWC: values or the error's class."""
    r = _rng("poolentries")
    x = tf.constant(r.uniform(-1, 1, (4, 6, 6, 2)).astype("float32"))
    x3 = tf.constant(r.uniform(-1, 1, (2, 4, 4, 4, 2)).astype("float32"))
    out = {}
    windows = {"k batch 2": ([2, 2, 2, 1], [1, 2, 2, 1]), "s batch 2": ([1, 2, 2, 1], [2, 2, 2, 1]),
               "k chan 2": ([1, 2, 2, 2], [1, 2, 2, 1]),
               "s batch 2 chan 2": ([1, 2, 2, 1], [2, 1, 1, 2]), "plain": ([1, 2, 2, 1], [1, 2, 2, 1])}
    for key, (k, st) in windows.items():
        out[f"max_pool2d {key}"] = _error(lambda k=k, st=st: _bits(tf.nn.max_pool2d(x, k, st, "VALID")))
        out[f"avg_pool2d {key}"] = _error(lambda k=k, st=st: _bits(tf.nn.avg_pool2d(x, k, st, "VALID")))
        out[f"max_pool {key}"] = _error(lambda k=k, st=st: _bits(tf.nn.max_pool(x, k, st, "SAME")))
        out[f"max_pool2d {key} traced"] = _error(lambda k=k, st=st: _bits(tf.function(
            lambda u: tf.nn.max_pool2d(u, k, st, "VALID"))(x)))
        out[f"argmax {key}"] = _error(lambda k=k, st=st: [_bits(t) for t in tf.nn.max_pool_with_argmax(
            x, k, st, "VALID")])
        k3, s3 = k[:1] + [2] + k[1:], st[:1] + [2] + st[1:]
        out[f"max_pool3d {key}"] = _error(lambda k=k3, st=s3: _bits(tf.nn.max_pool3d(x3, k, st, "VALID")))
        out[f"avg_pool3d {key}"] = _error(lambda k=k3, st=s3: _bits(tf.nn.avg_pool3d(x3, k, st, "VALID")))
    return out


_program("op-pool-window-entries", _pool_window_entries)


def _complex_prod_one(tf: Any, mk: Any) -> Any:
    """reduce_prod of complex64 and complex128 tensors whose reduced axis has one element (an axis of size 1,
    keepdims both ways, and a [1] vector fully reduced) holding infinities, NaNs and signed zeros in either part,
    and of two elements for contrast: the results' bits (real and imaginary parts)."""
    inf, nan = float("inf"), float("nan")
    vals = [complex(inf, nan), complex(-0.0, inf), complex(nan, 1.0), complex(inf, -0.0), complex(-0.0, -0.0),
            complex(1.5, -2.0), complex(-inf, -inf), complex(0.0, nan)]
    out = {}
    for dt in ("complex64", "complex128"):
        v = np.array(vals, dt)
        t = tf.constant(v.reshape(1, 8))
        for key, fn in (("axis0", lambda: tf.reduce_prod(t, axis=0)),
                        ("axis0 keepdims", lambda: tf.reduce_prod(t, axis=0, keepdims=True)),
                        ("column axis1", lambda: tf.reduce_prod(tf.transpose(t), axis=1)),
                        ("pairs", lambda: tf.reduce_prod(tf.reshape(t, [4, 2]), axis=1)),
                        ("traced axis0", lambda: tf.function(lambda u: tf.reduce_prod(u, axis=0))(t))):
            got = fn().numpy()
            out[f"{dt} {key}"] = [_bits(got.real), _bits(got.imag)]
        for i, c in enumerate(vals):
            got = tf.reduce_prod(tf.constant(np.array([c], dt))).numpy()
            out[f"{dt} scalar {i}"] = [_bits(got.real), _bits(got.imag)]
    return out


_program("op-complex-prod-one-element", _complex_prod_one)


def _cast_same_dtype(tf: Any, mk: Any) -> Any:
    """tf.cast and tf.dtypes.cast of a variable, a tensor and a MirroredVariable to their own dtype and to another,
    eagerly and in a tf.function: whether the result is the object itself, a variable, and its value."""
    out = {}
    v = tf.Variable([1.0, 2.5])
    t = tf.constant([1.0, 2.5])
    vi = tf.Variable([1, 2])
    s = mk()
    with s.scope():
        mv = tf.Variable([0.5, 1.5])
    for name, obj in (("variable", v), ("tensor", t), ("int variable", vi), ("mirrored", mv)):
        for dname in ("float32", "float64", "int32"):
            d = getattr(tf, dname)
            for fname, fn in (("cast", tf.cast), ("dtypes.cast", tf.dtypes.cast)):
                def res(fn: Any = fn, obj: Any = obj, d: Any = d) -> Any:
                    c = fn(obj, d)
                    return [c is obj, isinstance(c, tf.Variable), c.dtype.name, _bits(tf.convert_to_tensor(c))]
                out[f"{name} {fname} {dname}"] = _error(res)
        out[f"{name} traced identity"] = _error(lambda obj=obj: _bits(tf.function(lambda: tf.cast(obj, obj.dtype))()))
    return out


_program("op-cast-same-dtype", _cast_same_dtype)


# -- random: the stateless ops' alg argument ------------------------------------------------------------------------
def _alg_seeds(tf: Any, mk: Any) -> Any:
    """tf.random.split, fold_in, stateless_uniform and stateless_normal under alg "philox", "threefry", "auto_select",
    None and the Algorithm enum, with seeds of two and three elements as Python lists and int32/int64 arrays (and no
    element): the draws or the error's class. (A seed of one element, unsigned seeds: open, docs/conformance.md.)"""
    out = {}
    seeds = {"[1, 2]": [1, 2], "[1, 2, 3]": [1, 2, 3], "int32 [5, 6]": np.array([5, 6], np.int32),
             "int64 [7, 8, 9]": np.array([7, 8, 9], np.int64), "int64 []": np.zeros([0], np.int64)}
    algs = {"philox": "philox", "threefry": "threefry", "auto_select": "auto_select", "None": None,
            "enum philox": tf.random.Algorithm.PHILOX}
    for sname, seed in seeds.items():
        for aname, alg in algs.items():
            key = f"{sname} {aname}"
            out[f"split {key}"] = _error(lambda s=seed, a=alg: _bits(tf.random.split(s, 2, alg=a)))
            out[f"fold_in {key}"] = _error(lambda s=seed, a=alg: _bits(tf.random.fold_in(s, 3, alg=a)))
            out[f"uniform {key}"] = _error(lambda s=seed, a=alg: _bits(tf.random.stateless_uniform([3], s, alg=a)))
            out[f"normal {key}"] = _error(lambda s=seed, a=alg: _bits(tf.random.stateless_normal([2], s, alg=a)))
    return out


_program("random-alg-seeds", _alg_seeds)


# -- tf.function: random ops per trace ------------------------------------------------------------------------------
def _random_per_trace(tf: Any, mk: Any) -> Any:
    """Seeded stateful random ops (uniform, normal, truncated_normal, categorical, shuffle; op seed given and not) in a
    tf.function called in turn with arguments of three signatures (each its own trace, so its own kernels): the draws
    of every call, bit for bit (reduce_retracing's relaxed traces: open)."""
    out = {}
    tf.random.set_seed(11)

    @tf.function
    def f(x: Any) -> Any:
        return [tf.random.uniform([3]) + tf.reduce_sum(x), tf.random.normal([2], seed=5),
                tf.random.truncated_normal([2]), tf.random.categorical([[0.1, 0.5, 0.4]], 4, seed=2),
                tf.random.shuffle(tf.range(5))]
    args = [tf.constant(0.0), tf.constant([0.0, 0.0]), tf.constant(0.0), tf.constant([[0.0]]), tf.constant([0.0, 0.0]),
            tf.constant(0.0)]
    for i, a in enumerate(args):
        out[f"call {i} rank {a.shape.rank}"] = [_bits(t) for t in f(a)]
    out["tracing count"] = f.experimental_get_tracing_count()   # (reduce_retracing's relaxed traces: open)
    return out




# -- tf.data ---------------------------------------------------------------------------------------------------------
def _int64_arguments(tf: Any, mk: Any) -> Any:
    """The dataset methods' integer scalar arguments given as Python ints, NumPy integers and tensors of int64, int32,
    int16, uint8, uint64, bool and float32, and as a Python float, eagerly, inside a flat_map function (the element's
    dtype) and inside a tf.function: the first elements or the error's class (clause dataset.api-surface)."""
    tf.random.set_seed(5)   # (shuffle's seeds: the same whatever ran before)
    ds = tf.data.Dataset.range(7)

    def first(d: Any) -> Any:
        return [np.asarray(e).tolist() for e in d.take(4)]
    methods = {
        "range": lambda v: tf.data.Dataset.range(v),
        "range start": lambda v: tf.data.Dataset.range(v, 5),
        "range step": lambda v: tf.data.Dataset.range(0, 6, v),
        "take": lambda v: ds.take(v), "skip": lambda v: ds.skip(v), "repeat": lambda v: ds.repeat(v),
        "batch": lambda v: ds.batch(v), "padded_batch": lambda v: ds.padded_batch(v),
        "shard num": lambda v: ds.shard(v, 0), "shard index": lambda v: ds.shard(3, v),
        "prefetch": lambda v: ds.prefetch(v), "shuffle buffer": lambda v: ds.shuffle(v, seed=3),
        "shuffle seed": lambda v: ds.shuffle(4, seed=v), "enumerate": lambda v: ds.enumerate(v),
    }
    values = {"int": lambda: 2, "np.int32": lambda: np.int32(2), "np.int64": lambda: np.int64(2),
              "int64": lambda: tf.constant(2, tf.int64), "int32": lambda: tf.constant(2),
              "int16": lambda: tf.constant(2, tf.int16), "uint8": lambda: tf.constant(2, tf.uint8),
              "uint64": lambda: tf.constant(2, tf.uint64), "bool": lambda: tf.constant(True),
              "float32": lambda: tf.constant(2.0), "float": lambda: 2.0}
    out = {}
    for mname, m in methods.items():
        for vname, v in values.items():
            out[f"{mname} {vname}"] = _error(lambda m=m, v=v: first(m(v())))
    for dt in ("int32", "int64", "uint8", "float32"):
        elems = tf.constant([2, 0, 3], getattr(tf, dt))
        out[f"flat_map range {dt}"] = _error(lambda e=elems: [int(x) for x in tf.data.Dataset.from_tensor_slices(e)
                                                             .flat_map(lambda x: tf.data.Dataset.range(x))])
        out[f"flat_map take {dt}"] = _error(lambda e=elems: [int(x) for x in tf.data.Dataset.from_tensor_slices(e)
                                                            .flat_map(lambda x: ds.take(x))])
        out[f"function range {dt}"] = _error(lambda d=dt: int(tf.function(
            lambda n: tf.data.Dataset.range(n).reduce(np.int64(0), lambda s, x: s + x))(tf.constant(4, getattr(tf, d)))))
    return out


def _unknown_rank_specs(tf: Any, mk: Any) -> Any:
    """map, flat_map and filter functions over elements of unknown rank (from_generator with TensorSpec(None)) whose
    outputs' shapes TF can or cannot tell (reshape to a vector, a fixed reshape, size, rank, a reduction, a concat with a
    known vector, a known constant beside it): the element specs, and the elements."""
    def gen() -> Any:
        yield np.array([1, 2, 3], np.int32)
        yield np.array([[4, 5], [6, 7]], np.int32)
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec(None, tf.int32))
    fns = {"reshape -1": lambda x: tf.reshape(x, [-1]) * 2, "size": lambda x: tf.size(x), "rank": lambda x: tf.rank(x), "reduce_sum": lambda x: tf.reduce_sum(x),
           "concat": lambda x: tf.concat([tf.reshape(x, [-1]), [0, 0]], 0), "pair": lambda x: (tf.constant([1, 2]),
                                                                                                tf.reshape(x, [-1]))}
    out = {}
    for key, fn in fns.items():
        m = ds.map(fn)
        out[f"map {key} spec"] = str(m.element_spec)
        out[f"map {key}"] = [np.asarray(e).tolist() if not isinstance(e, tuple) else [np.asarray(v).tolist() for v in e]
                             for e in m]
    fm = ds.flat_map(lambda x: tf.data.Dataset.from_tensor_slices(tf.reshape(x, [-1])))
    out["flat_map spec"] = str(fm.element_spec)
    out["flat_map"] = [int(e) for e in fm]
    fl = ds.filter(lambda x: tf.size(x) > 3)
    out["filter spec"] = str(fl.element_spec)
    out["filter"] = [np.asarray(e).tolist() for e in fl]
    return out


_program("data-unknown-rank-specs", _unknown_rank_specs)


_program("data-int64-arguments", _int64_arguments)
_program("fn-random-per-trace", _random_per_trace)   # (last: it sets the global seed)


@pytest.mark.clause("ops.host-cpu")
@pytest.mark.parametrize("name", _ids("kernel-"))
def test_blind81_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """oneDNN's convolution gradients (the bias's fused reducer, the filter's kernels by padding), its matrix-vector
    products' k splits and the float ops' NaN payloads, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("ops.array-more")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind81_ops_arguments(backend: Any, name: str) -> None:
    """Integer division of empty tensors by zero and the index operands' dtypes: values or error classes."""
    _check(backend, name)


@pytest.mark.clause("ops.random-bits")
@pytest.mark.parametrize("name", _ids("random-"))
def test_blind81_random_algorithms(backend: Any, name: str) -> None:
    """The stateless ops' seeds under each alg: draws bit for bit, or error classes."""
    _check(backend, name)


@pytest.mark.clause("ops.random-in-function")
@pytest.mark.parametrize("name", _ids("fn-"))
def test_blind81_function_random(backend: Any, name: str) -> None:
    """A tf.function's seeded random ops per trace, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", _ids("data-"))
def test_blind81_data(backend: Any, name: str) -> None:
    """tf.data's arguments, element specs and iteration: values or error classes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

"""The classes around the ninety-third blind batch's mutants (tests/mutants.py TRAINING_BATCH93: keras.ops on the TF
backend, Keras layers' configs and layouts, metrics' thresholds, regularizers and initializers) that the suite did not
catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind93_gaps --record`, which rewrites blind93_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits may follow the CPU's kernels (prefix `kernel-`: vectorized transcendental functions' last bits,
convolutions' and products' sums) run on simdist elsewhere under its reference model of such a host. Floats are
compared by their bits (a NaN's sign and payload, a zero's sign included)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error, plain,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind93_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: cases simdist still answers differently (left out of the comparison; docs/conformance.md, the ninety-third blind
#: batch's section)
OPEN: dict[str, tuple[str, ...]] = {}
_program, _ids, _check = registrar(REF, OPEN), REF.ids, REF.check


def _raw(t: Any) -> list:
    """A tensor's dtype, shape and values, floats as their bit patterns (a NaN's payload and sign, a zero's sign)."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return [str(a.dtype), list(a.shape), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]
    return [str(a.dtype), list(a.shape), a.ravel().tolist()]


def _specials(dt: str) -> np.ndarray:
    """±0, ±inf, NaNs of both signs and two payloads, the smallest subnormal of each sign, ±1 and ±0.5, then 41
    ordinary values from -6 to 6 and 9 from -40 to 40 (packets and tails both meet them) in `dt`."""
    uint = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}[dt]
    nans = {"float16": (0x7e12, 0xfe34), "float32": (0x7fc01234, 0xffc05678),
            "float64": (0x7ff8000000001234, 0xfff8000000005678)}[dt]
    tiny = np.array([1], uint).view(dt)[0]
    special = [0.0, -0.0, np.inf, -np.inf, *np.array(nans, uint).view(dt), tiny, -tiny, 1.0, -1.0, 0.5, -0.5]
    ordinary = np.concatenate([np.linspace(-6.0, 6.0, 41), np.linspace(-40.0, 40.0, 9) + 0.3])
    return np.concatenate([np.array(special, dt), ordinary.astype(dt)])


#: keras.ops unary elementwise functions (x in (-inf, inf); the domain-limited ones give NaN outside theirs)
_UNARY = ("abs", "negative", "sign", "sqrt", "square", "exp", "expm1", "log", "log1p",
          "log2", "log10", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
          "arccosh", "arctanh", "floor", "ceil", "round", "trunc", "sigmoid", "softplus", "softsign", "silu",
          "relu", "relu6", "elu", "selu", "gelu", "log_sigmoid", "hard_sigmoid", "isnan", "isinf", "isfinite",
          "signbit", "cbrt", "exp2", "deg2rad", "rad2deg", "fix", "conj", "real", "nan_to_num")


def _unary_math(tf: Any, mk: Any) -> Any:
    """keras.ops' unary elementwise functions on float16/32/64 special values (±0, ±inf, signed NaNs with payloads,
    subnormals) and ordinary ones, by their bits: a zero's sign (sqrt(-0) is -0, sign(-0) is -0, tanh(-0) is -0),
    which NaN comes out, sqrt(-inf) NaN, and the last bits of the transcendental ones (tan and tanh are single TF ops,
    not written through sin/cos or a sigmoid)."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    for dt in ("float16", "float32", "float64"):
        x = _specials(dt)
        for name in _UNARY:
            f = getattr(ops, name, None)
            if f is None:
                continue
            out[f"{name} {dt}"] = _error(lambda f=f: _raw(f(x)))
    return out


_program("kernel-keras-ops-unary-math", _unary_math)

#: keras.ops comparisons and binary functions whose NaN answers are rules, not kernels' choices
_COMPARE = ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "isclose", "logical_and",
            "logical_or", "logical_xor", "maximum", "minimum", "mod", "subtract", "add", "copysign", "hypot",
            "arctan2")


def _comparisons(tf: Any, mk: Any) -> Any:
    """keras.ops' comparisons, logical functions and elementwise binaries on pairs of special values — NaN against
    NaN, a number, ±0 and ±inf (every comparison with a NaN is False but not_equal's, True), ±0 against ±0 — in both
    operand orders, float32 and float64, with a Python number as either operand too: the values (floats by their
    bits: subtract keeps a NaN subtrahend's sign) and the result dtypes. (No Python zero as an operand: TF's eager
    scalar cache, ops.scalar-cache, gives a Python -0.0 the first zero converted in the process.)"""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        s = _specials(dt)[:14]
        a = np.repeat(s, len(s))
        b = np.tile(s, len(s))
        for name in _COMPARE:
            f = getattr(ops, name, None)
            if f is None:
                continue
            out[f"{name} {dt}"] = _error(lambda f=f: _raw(f(a, b)))
            out[f"{name} {dt} python right"] = _error(lambda f=f: _raw(f(s, 0.5)))
            out[f"{name} {dt} python left"] = _error(lambda f=f: _raw(f(-1.5, s)))
    return out


_program("kernel-keras-ops-comparisons-with-specials", _comparisons)

_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")


def _result_dtypes(tf: Any, mk: Any) -> Any:
    """keras.ops' result dtypes by Keras's promotion rules: every unary function and reduction of a small tensor of
    each dtype (bool, unsigned, signed, half, float32/64: a float16 floor stays float16, an integer std is floatx,
    a bool std is the std of 0/1, isnan of integers all False), binary functions of each dtype with a Python int and
    a Python float on either side (weak: multiply(float16, 0.5) is float16, multiply(int8, 2) int8), concatenate/
    stack/where/append of mixed dtypes (their result type, not the first input's), cumsum/cumprod of a long float16
    run (float16 partial sums, by their bits)."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    base = np.array([0, 1, 3, 2, 0, 1], np.float64)
    unary = ("abs", "negative", "sign", "sqrt", "square", "exp", "log1p", "sin", "tanh", "floor", "ceil", "round",
             "trunc", "isnan", "isinf", "isfinite", "signbit", "cbrt", "sigmoid", "relu", "nan_to_num", "argsort",
             "sort", "cumsum", "cumprod", "std", "var", "mean", "sum", "prod", "max", "median", "count_nonzero",
             "logsumexp", "ptp", "average", "norm")
    for dt in _DTYPES:
        x = base.astype(bool) if dt == "bool" else base.astype(dt if dt != "bfloat16" else np.float32)
        t = tf.cast(tf.constant(x), dt) if dt == "bfloat16" else x
        for name in unary:
            f = getattr(ops, name, None)
            if f is not None:
                out[f"{name} {dt}"] = _error(lambda f=f: _raw(f(t)))
        for name in ("add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "floor_divide", "mod",
                     "true_divide"):
            f = getattr(ops, name)
            for pname, p in (("int", 2), ("float", 0.5)):
                out[f"{name} {dt} {pname} right"] = _error(lambda f=f, p=p: _raw(f(t, p)))
                out[f"{name} {dt} {pname} left"] = _error(lambda f=f, p=p: _raw(f(p, t)))
    pairs = (("int32", "float32"), ("int8", "float16"), ("bool", "int32"), ("uint8", "int8"), ("float16", "float64"),
             ("int64", "float16"), ("float32", "int32"), ("bool", "float16"))
    for d1, d2 in pairs:
        a = np.array([1, 0, 3], d1)
        b = np.array([0.5, 2, 7], d2) if "float" in d2 else np.array([1, 1, 0], d2)
        out[f"concatenate {d1} {d2}"] = _error(lambda a=a, b=b: _raw(ops.concatenate([a, b])))
        out[f"concatenate {d1} {d2} {d1}"] = _error(lambda a=a, b=b: _raw(ops.concatenate([a, b, a])))
        out[f"stack {d1} {d2}"] = _error(lambda a=a, b=b: _raw(ops.stack([a, b])))
        out[f"append {d1} {d2}"] = _error(lambda a=a, b=b: _raw(ops.append(a, b)))
        out[f"where {d1} {d2}"] = _error(lambda a=a, b=b: _raw(ops.where(np.array([True, False, True]), a, b)))
        out[f"hstack {d1} {d2}"] = _error(lambda a=a, b=b: _raw(ops.hstack([a, b])))
    r = _rng("blind93-long-half-scans")
    for dt in ("float16", "float32"):
        x = r.normal(size=(300,)).astype(dt)
        out[f"cumsum long {dt}"] = _raw(ops.cumsum(x))
        out[f"cumsum long {dt} 2-d"] = _raw(ops.cumsum(x.reshape(3, 100), axis=1))
        out[f"cumprod {dt}"] = _raw(ops.cumprod(1.0 + x[:60] / 50))
    return out


_program("kernel-keras-ops-result-dtypes", _result_dtypes)


def _axis_arguments(tf: Any, mk: Any) -> Any:
    """keras.ops' axis and shape arguments beyond the simple forms: moveaxis of several axes to destinations in any
    order (rank 3 to 5), expand_dims of an unsorted tuple of axes, take and take_along_axis with negative indices on
    each axis (wrapped by that axis' size), eye(N, M, k) of non-square shapes at every k, argsort/sort/argmax of a
    rank-0 tensor, one_hot and multi_hot as sparse tensors at each axis, pad's mode/constant_values checks, conv and
    conv_transpose, depthwise_conv and separable_conv of channels_first 1-D and 2-D inputs, batch_normalization with
    its default epsilon: shapes, values (by bits) and error classes."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    x5 = np.arange(120.0, dtype=np.float32).reshape(1, 2, 3, 4, 5)
    x4 = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4, 1)
    for src, dst in (((0, 1), (3, 0)), ((0, 1), (4, 1)), ((1, 3), (0, 4)), ((4, 0), (0, 4)), ((0, 2, 4), (4, 0, 1)),
                     ((2, 0), (1, 3)), ((-1, 0), (0, -2)), ((0, 1, 2), (2, 1, 0))):
        out[f"moveaxis rank5 {src} {dst}"] = _error(lambda s=src, d=dst: list(ops.moveaxis(x5, s, d).shape))
        if max(max(abs(v) for v in src), max(abs(v) for v in dst)) < 4:
            out[f"moveaxis rank4 {src} {dst}"] = _error(lambda s=src, d=dst: _raw(ops.moveaxis(x4, s, d)))
    m = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    for axes in ((3, 0), (0, 3), (-1, 0), (2, 0, 1), (4, 1, 0), (-1, -5)):
        out[f"expand_dims {axes}"] = _error(lambda a=axes: list(ops.expand_dims(m, a).shape))
    x3 = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1, -2):
        for idx in ([-1, 0], [-2], [[-1, 1], [0, -3]]):
            out[f"take {axis} {idx}"] = _error(lambda a=axis, i=idx: _raw(ops.take(x3, np.array(i), axis=a)))
        ti = -np.ones((2, 3, 4), np.int32)
        ti = np.take(ti, [0], axis=axis)
        out[f"take_along_axis {axis}"] = _error(lambda a=axis, i=ti: _raw(ops.take_along_axis(x3, i, axis=a)))
    for n, mm in ((2, 5), (5, 2), (3, 3), (4, 6)):
        for k in (-3, -1, 0, 1, 2, 4):
            out[f"eye {n} {mm} {k}"] = _error(lambda n=n, mm=mm, k=k: _raw(ops.eye(n, mm, k=k)))
    for name in ("argsort", "sort", "argmax", "argmin", "cumsum", "flip", "ravel"):
        out[f"{name} scalar"] = _error(lambda name=name: _raw(getattr(ops, name)(np.float32(3.0))))
    ids = np.array([[0, 2], [1, 1], [3, 0]])
    for axis in (-1, -2, -3, 0, 1, 2):
        def sparse_hot(f: Any, axis: int = axis) -> Any:
            r = f(ids, 4, axis=axis, sparse=True)
            return [list(r.shape), _raw(tf.sparse.to_dense(tf.sparse.reorder(r)))]
        out[f"one_hot sparse {axis}"] = _error(lambda: sparse_hot(ops.one_hot))
        out[f"multi_hot sparse {axis}"] = _error(lambda: sparse_hot(ops.multi_hot))
        out[f"one_hot dense {axis}"] = _error(lambda axis=axis: _raw(ops.one_hot(ids, 4, axis=axis)))
    for mode in ("constant", "reflect", "symmetric"):
        for cv in (None, 0, 0.0, 2.5):
            out[f"pad {mode} {cv}"] = _error(lambda mode=mode, cv=cv: _raw(
                ops.pad(m, ((1, 1), (1, 2)), mode=mode, constant_values=cv)))
    r = _rng("blind93-channels-first")
    x1 = r.normal(size=(2, 3, 7)).astype(np.float32)   # (batch, channels, width): channels != width
    x2 = r.normal(size=(1, 3, 5, 6)).astype(np.float32)
    k1 = r.normal(size=(3, 3, 2)).astype(np.float32)
    k2 = r.normal(size=(2, 3, 3, 2)).astype(np.float32)
    dk1 = r.normal(size=(3, 3, 2)).astype(np.float32)
    dk2 = r.normal(size=(2, 2, 3, 2)).astype(np.float32)
    pk = r.normal(size=(1, 6, 4)).astype(np.float32)
    pk2 = r.normal(size=(1, 1, 6, 4)).astype(np.float32)
    tk1 = r.normal(size=(3, 2, 3)).astype(np.float32)
    for fmt in ("channels_first", "channels_last"):
        a1 = x1 if fmt == "channels_first" else np.swapaxes(x1, 1, 2)
        a2 = x2 if fmt == "channels_first" else np.transpose(x2, (0, 2, 3, 1))
        calls = {
            "conv 1d": lambda a1=a1, fmt=fmt: ops.conv(a1, k1, strides=2, padding="same", data_format=fmt),
            "conv 2d": lambda a2=a2, fmt=fmt: ops.conv(a2, k2, padding="valid", data_format=fmt),
            "conv_transpose 1d": lambda a1=a1, fmt=fmt: ops.conv_transpose(a1, tk1, strides=2, padding="valid",
                                                                           data_format=fmt),
            "depthwise_conv 1d": lambda a1=a1, fmt=fmt: ops.depthwise_conv(a1, dk1, padding="same", data_format=fmt),
            "depthwise_conv 2d": lambda a2=a2, fmt=fmt: ops.depthwise_conv(a2, dk2, strides=1, data_format=fmt),
            "separable_conv 1d": lambda a1=a1, fmt=fmt: ops.separable_conv(a1, dk1, pk, data_format=fmt),
            "separable_conv 2d": lambda a2=a2, fmt=fmt: ops.separable_conv(a2, dk2, pk2, data_format=fmt),
            "max_pool 1d": lambda a1=a1, fmt=fmt: ops.max_pool(a1, 2, data_format=fmt),
            "average_pool 2d": lambda a2=a2, fmt=fmt: ops.average_pool(a2, 2, padding="same", data_format=fmt),
        }
        for name, f in calls.items():
            out[f"{name} {fmt}"] = _error(lambda f=f: _raw(f()))
    xb = r.normal(size=(3, 4)).astype(np.float32)
    mean, var = np.array([0.1, -0.2, 0.3, 0.0], np.float32), np.array([1e-4, 0.5, 2.0, 1e-3], np.float32)
    out["batch_normalization default"] = _raw(ops.batch_normalization(xb, mean, var, axis=-1))
    out["batch_normalization scale offset"] = _raw(ops.batch_normalization(xb, mean, var, axis=-1, offset=mean,
                                                                             scale=var * 3))
    out["batch_normalization axis 0"] = _raw(ops.batch_normalization(xb.T, mean, var, axis=0))
    return out


_program("kernel-keras-ops-axis-arguments", _axis_arguments)


def _config_round_trips(tf: Any, mk: Any) -> Any:
    """Layers, losses, metrics, regularizers and constraints with every argument away from its default: their
    get_config (each key, floats by their hex), the config of the object re-made from it (from_config), and the
    re-made layer's outputs on the same input (a key the config drops — SeparableConv's pointwise_constraint, a cell's
    recurrent_dropout, Dice's axis — or adds — SparseTopKCategoricalAccuracy's from_sorted_ids=False — shows), and the
    values of regularizers whose factors are 0."""
    keras = tf.keras
    L = keras.layers
    C, R = keras.constraints, keras.regularizers
    out: dict[str, Any] = {}
    common = dict(kernel_constraint=C.MaxNorm(2.0), bias_constraint=C.NonNeg(), use_bias=True)
    layers = {
        "SeparableConv1D": lambda: L.SeparableConv1D(3, 2, strides=1, padding="same", depth_multiplier=2,
                                                     dilation_rate=1, depthwise_constraint=C.NonNeg(),
                                                     pointwise_constraint=C.UnitNorm(), bias_constraint=C.NonNeg(),
                                                     depthwise_regularizer=R.L2(0.1), pointwise_regularizer=R.L1(0.2),
                                                     activity_regularizer=R.L1(0.05)),
        "SeparableConv2D": lambda: L.SeparableConv2D(2, 2, padding="same", pointwise_constraint=C.MinMaxNorm(0.1, 0.9),
                                                     pointwise_initializer="ones", depthwise_initializer="ones",
                                                     bias_initializer="ones"),
        "DepthwiseConv1D": lambda: L.DepthwiseConv1D(2, depth_multiplier=3, depthwise_constraint=C.NonNeg(),
                                                     depthwise_regularizer=R.L1L2(0.1, 0.2), activation="relu"),
        "DepthwiseConv2D": lambda: L.DepthwiseConv2D(2, padding="same", depthwise_initializer="ones",
                                                     bias_constraint=C.NonNeg()),
        "SimpleRNN": lambda: L.SimpleRNN(3, dropout=0.2, recurrent_dropout=0.1, seed=3, return_sequences=True),
        "LSTM": lambda: L.LSTM(3, dropout=0.3, recurrent_dropout=0.15, unit_forget_bias=False, seed=4,
                               recurrent_constraint=C.NonNeg(), recurrent_regularizer=R.L2(0.01)),
        "GRU": lambda: L.GRU(2, dropout=0.25, recurrent_dropout=0.05, reset_after=False, seed=5, go_backwards=True),
        "AlphaDropout": lambda: L.AlphaDropout(0.3, noise_shape=(1, 5), seed=7),
        "GaussianDropout": lambda: L.GaussianDropout(0.2, seed=8),
        "GaussianNoise": lambda: L.GaussianNoise(0.3, seed=9),
        "Dense": lambda: L.Dense(3, kernel_regularizer=R.L1(0.0), bias_regularizer=R.L2(0.0), **common),
        "Conv1D": lambda: L.Conv1D(2, 2, kernel_regularizer=R.L1L2(0.0, 0.1), **common),
        "Embedding": lambda: L.Embedding(7, 2, embeddings_constraint=C.UnitNorm(), embeddings_regularizer=R.L1(0.0)),
    }
    r = _rng("blind93-config-round-trips")
    inputs = {"SeparableConv1D": (2, 5, 4), "SeparableConv2D": (1, 4, 4, 3), "DepthwiseConv1D": (2, 5, 3),
              "DepthwiseConv2D": (1, 4, 4, 2), "SimpleRNN": (2, 4, 3), "LSTM": (2, 4, 3), "GRU": (2, 4, 3),
              "AlphaDropout": (3, 5), "GaussianDropout": (3, 5), "GaussianNoise": (3, 5), "Dense": (2, 4),
              "Conv1D": (2, 5, 3), "Embedding": (2, 3)}
    for name, make in layers.items():
        def run(make: Any = make, name: str = name) -> Any:
            keras.utils.set_random_seed(93)
            layer = make()
            shape = inputs[name]
            x = r.randint(0, 7, size=shape) if name == "Embedding" else r.normal(size=shape).astype(np.float32)
            y = layer(x)
            c = layer.get_config()
            again = type(layer).from_config(c)
            again(x)
            again.set_weights(layer.get_weights())
            res = {"config": plain(c), "again config": plain(again.get_config()), "out": _raw(y),
                   "again out": _raw(again(x)), "losses": [_raw(v) for v in layer.losses]}
            if name in ("AlphaDropout", "GaussianDropout", "GaussianNoise"):
                keras.utils.set_random_seed(93)
                t = layer(np.ones(shape, np.float32), training=True)
                res["training"] = _raw(t)
            return res
        out[name] = _error(run)
    for name, make in {"L1 0": lambda: R.L1(0.0), "L2 0": lambda: R.L2(0.0), "L1L2 0 0.1": lambda: R.L1L2(0.0, 0.1),
                       "L1L2 0.2 0": lambda: R.L1L2(0.2, 0.0), "L1 default": lambda: R.L1(),
                       "L2 default": lambda: R.L2(),
                       "OrthogonalRegularizer": lambda: R.OrthogonalRegularizer(0.0, mode="columns")}.items():
        def reg(make: Any = make) -> Any:
            g = make()
            w = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
            return {"config": plain(g.get_config()), "value": _raw(g(w)),
                    "again": _raw(type(g).from_config(g.get_config())(w))}
        out[f"regularizer {name}"] = _error(reg)
    losses = {"Dice": lambda: keras.losses.Dice(axis=(1, 2), reduction="sum"),
              "Tversky": lambda: keras.losses.Tversky(alpha=0.3, beta=0.7, axis=(1,)),
              "Huber": lambda: keras.losses.Huber(delta=0.4, reduction="none"),
              "CategoricalFocalCrossentropy": lambda: keras.losses.CategoricalFocalCrossentropy(alpha=0.4, gamma=1.5,
                                                                                                 axis=1),
              "LogCosh": lambda: keras.losses.LogCosh(reduction="sum"),
              "CosineSimilarity": lambda: keras.losses.CosineSimilarity(axis=1)}
    yt = r.uniform(size=(2, 3, 4)).astype(np.float32)
    yp = r.uniform(size=(2, 3, 4)).astype(np.float32)
    for name, make in losses.items():
        def loss(make: Any = make) -> Any:
            lo = make()
            c = lo.get_config()
            again = type(lo).from_config(c)
            return {"config": plain(c), "again config": plain(again.get_config()), "value": _raw(lo(yt, yp)),
                    "again value": _raw(again(yt, yp))}
        out[f"loss {name}"] = _error(loss)
    metrics = {"SparseTopKCategoricalAccuracy": lambda: keras.metrics.SparseTopKCategoricalAccuracy(k=2),
               "SparseTopKCategoricalAccuracy sorted": lambda: keras.metrics.SparseTopKCategoricalAccuracy(
                   k=2, from_sorted_ids=True),
               "TopKCategoricalAccuracy": lambda: keras.metrics.TopKCategoricalAccuracy(k=3),
               "Precision": lambda: keras.metrics.Precision(thresholds=0.3, top_k=2, class_id=1),
               "AUC": lambda: keras.metrics.AUC(num_thresholds=9, curve="PR", from_logits=True, multi_label=True,
                                                num_labels=3),
               "F1Score": lambda: keras.metrics.F1Score(average="weighted", threshold=0.4),
               "IoU": lambda: keras.metrics.IoU(3, [0, 2], ignore_class=1, sparse_y_pred=False),
               "MeanIoU": lambda: keras.metrics.MeanIoU(3, ignore_class=0)}
    for name, make in metrics.items():
        def metric(make: Any = make) -> Any:
            met = make()
            c = met.get_config()
            return {"config": plain(c), "again config": plain(type(met).from_config(c).get_config())}
        out[f"metric {name}"] = _error(metric)
    for name, make in {"Dense ones": lambda v: L.Dense(3, kernel_initializer=v),
                       "Conv1D": lambda v: L.Conv1D(3, 2, kernel_initializer=v)}.items():
        for vshape, ishape in (((4, 3), (2, 4)), ((3, 4), (2, 4)), ((2, 6), (2, 4)), ((2, 4, 3), (2, 5, 4)),
                               ((2, 3, 4), (2, 5, 4)), ((4, 2, 3), (2, 5, 4))):
            if (name == "Conv1D") != (len(vshape) == 3):
                continue
            def init(make: Any = make, vshape: tuple = vshape, ishape: tuple = ishape) -> Any:
                layer = make(np.ones(vshape, np.float32) * 0.5)
                return _raw(layer(np.ones(ishape, np.float32)))
            out[f"array initializer {name} {vshape}"] = _error(init)
    return out


_program("kernel-keras-config-round-trips", _config_round_trips)


def _threshold_metrics(tf: Any, mk: Any) -> Any:
    """Metrics over explicit thresholds — Precision, Recall, the four confusion counts, PrecisionAtRecall,
    SensitivityAtSpecificity, AUC's num_thresholds — with 1 to 5 thresholds, evenly spaced ([0, 0.5, 1], [0, 1/3,
    2/3, 1], [0, 0.25, ..., 1]) and not, on predictions exactly at a threshold, at 0 and 1, below 0 and above 1: the
    evenly spaced fast path (buckets) and the comparison path agree only where a prediction at a threshold counts
    below it and out-of-range predictions are clipped the same way."""
    keras = tf.keras
    M = keras.metrics
    yt = np.array([1, 1, 0, 1, 1, 0, 0, 1, 1, 0], np.float32)
    yp = np.array([0.5, 0.25, 0.5, 1.5, 0.0, -0.5, 1.0, 1 / 3, 2 / 3, 0.75], np.float32)
    sw = np.array([1.0, 2.0, 0.5, 1.0, 1.0, 3.0, 1.0, 1.0, 0.25, 1.0], np.float32)
    out: dict[str, Any] = {}
    lists = {"one": [0.5], "two": [0.0, 1.0], "three even": [0.0, 0.5, 1.0], "three uneven": [0.0, 0.4, 1.0],
             "four even": [0.0, 1 / 3, 2 / 3, 1.0], "five even": [0.0, 0.25, 0.5, 0.75, 1.0],
             "five uneven": [0.1, 0.25, 0.5, 0.75, 0.9]}
    kinds = {"Precision": M.Precision, "Recall": M.Recall, "TruePositives": M.TruePositives,
             "FalsePositives": M.FalsePositives, "TrueNegatives": M.TrueNegatives, "FalseNegatives": M.FalseNegatives}
    for lname, th in lists.items():
        for kname, cls in kinds.items():
            def run(cls: Any = cls, th: list = th) -> Any:
                m = cls(thresholds=th)
                m.update_state(yt, yp)
                first = _raw(m.result())
                m.update_state(yt, yp, sample_weight=sw)
                return [first, _raw(m.result())]
            out[f"{kname} {lname}"] = _error(run)
    for n in (3, 4, 5, 9):
        for curve in ("ROC", "PR"):
            def auc(n: int = n, curve: str = curve) -> Any:
                m = M.AUC(num_thresholds=n, curve=curve)
                m.update_state(yt, np.clip(yp, 0.0, 1.0), sample_weight=sw)
                return _raw(m.result())
            out[f"AUC {n} {curve}"] = _error(auc)
        for name, make in {"PrecisionAtRecall": lambda n=n: M.PrecisionAtRecall(0.5, num_thresholds=n),
                           "SensitivityAtSpecificity": lambda n=n: M.SensitivityAtSpecificity(0.5, num_thresholds=n),
                           "RecallAtPrecision": lambda n=n: M.RecallAtPrecision(0.5, num_thresholds=n)}.items():
            def at(make: Any = make) -> Any:
                m = make()
                m.update_state(yt, np.clip(yp, 0.0, 1.0))
                return _raw(m.result())
            out[f"{name} {n}"] = _error(at)
    return out


_program("keras-metrics-threshold-boundaries", _threshold_metrics)


def _channels_first_layers(tf: Any, mk: Any) -> Any:
    """The conv family's layers with data_format='channels_first' on inputs whose channel count differs from their
    width (so an InputSpec or kernel that reads the wrong axis shows): DepthwiseConv1D/2D, SeparableConv1D/2D, Conv1D,
    Conv2D, Conv1DTranspose, the pooling layers; the output shapes and values, the InputSpec's axes, and a second call
    with another channel count refused (its class)."""
    keras = tf.keras
    L = keras.layers
    r = _rng("blind93-channels-first-layers")
    x1 = r.normal(size=(2, 3, 7)).astype(np.float32)
    x2 = r.normal(size=(1, 3, 5, 6)).astype(np.float32)
    makers = {
        "DepthwiseConv1D": (lambda: L.DepthwiseConv1D(2, depth_multiplier=2, data_format="channels_first"), x1),
        "DepthwiseConv2D": (lambda: L.DepthwiseConv2D(2, data_format="channels_first"), x2),
        "SeparableConv1D": (lambda: L.SeparableConv1D(4, 3, padding="same", data_format="channels_first"), x1),
        "SeparableConv2D": (lambda: L.SeparableConv2D(2, 2, strides=2, data_format="channels_first"), x2),
        "Conv1D": (lambda: L.Conv1D(2, 3, data_format="channels_first"), x1),
        "Conv2D": (lambda: L.Conv2D(2, 2, data_format="channels_first"), x2),
        "Conv1DTranspose": (lambda: L.Conv1DTranspose(2, 3, strides=2, data_format="channels_first"), x1),
        "MaxPooling1D": (lambda: L.MaxPooling1D(2, data_format="channels_first"), x1),
        "AveragePooling2D": (lambda: L.AveragePooling2D(2, data_format="channels_first"), x2),
    }
    out: dict[str, Any] = {}
    for name, (make, x) in makers.items():
        def run(make: Any = make, x: np.ndarray = x) -> Any:
            keras.utils.set_random_seed(93)
            layer = make()
            y = layer(x)
            spec = layer.input_spec
            spec = spec[0] if isinstance(spec, (list, tuple)) else spec
            axes = None if spec is None else plain(dict(spec.axes or {}))
            other = np.concatenate([x, x[:, :1]], axis=1)   # one more channel, the same width
            wider = np.concatenate([x, x[..., :2]], axis=-1)   # the same channels, a wider last axis
            return {"out": _raw(y), "axes": axes, "more channels": _error(lambda: _raw(layer(other))),
                    "wider": _error(lambda: list(layer(wider).shape))}
        out[name] = _error(run)
    return out


_program("kernel-keras-layers-channels-first", _channels_first_layers)


@pytest.mark.clause("keras.ops")
def test_blind93_unary_math_by_bits(backend: Any) -> None:
    """keras.ops' unary functions on signed zeros, infinities, NaNs, subnormals and ordinary values, by their bits."""
    _check(backend, "kernel-keras-ops-unary-math")


@pytest.mark.clause("keras.ops")
def test_blind93_comparisons_with_specials(backend: Any) -> None:
    """keras.ops' comparisons and binaries on NaN, ±0 and ±inf pairs, both orders and with Python numbers."""
    _check(backend, "kernel-keras-ops-comparisons-with-specials")


@pytest.mark.clause("keras.ops.dtype-promotion")
def test_blind93_result_dtypes(backend: Any) -> None:
    """keras.ops' result dtypes for every input dtype, weak Python numbers, mixed joins, long float16 scans."""
    _check(backend, "kernel-keras-ops-result-dtypes")


@pytest.mark.clause("keras.ops")
def test_blind93_axis_arguments(backend: Any) -> None:
    """keras.ops' axis arguments in any order, negative indices per axis, eye's k, sparse hots, channels_first."""
    _check(backend, "kernel-keras-ops-axis-arguments")


@pytest.mark.clause("keras.saving.json-and-serialize")
def test_blind93_config_round_trips(backend: Any) -> None:
    """Layers, losses, metrics and regularizers away from their defaults: configs and re-made objects' outputs."""
    _check(backend, "kernel-keras-config-round-trips")


@pytest.mark.clause("keras.metric.precision-recall")
def test_blind93_threshold_metrics(backend: Any) -> None:
    """Metrics over explicit thresholds: evenly spaced and not, predictions at, below and above the thresholds."""
    _check(backend, "keras-metrics-threshold-boundaries")


@pytest.mark.clause("keras.layer.depthwise-separable")
def test_blind93_channels_first_layers(backend: Any) -> None:
    """The conv family's channels_first layers where channels and width differ: outputs, InputSpec, refusals."""
    _check(backend, "kernel-keras-layers-channels-first")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

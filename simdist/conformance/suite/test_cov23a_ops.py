"""keras.ops functions the suite never called before the twenty-third session (docs/conformance.md,
"Twenty-third session: suite coverage of Keras"): a table of NumPy-style, math, nn and core ops a
custom layer, loss or metric writes, each run on concrete arrays (values and dtype against NumPy)
and on symbolic inputs (`keras.Input` with every dimension known: the KerasTensor's shape and dtype,
from the op's compute_output_spec) (TF 2.21 + Keras 3.15).

Expected values are NumPy's (float64, then compared with float32 tolerance), or Keras 3.15's
formulas (keras/src/ops/numpy.py, math.py, nn.py, core.py; keras/src/activations) written in NumPy
here, never the backend's implementation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=3e-5, atol=3e-6)

_rng = np.random.default_rng(23)
A = _rng.uniform(-2.0, 2.0, (2, 3, 4)).astype(np.float32)
B = _rng.uniform(-2.0, 2.0, (2, 3, 4)).astype(np.float32)
P = _rng.uniform(0.5, 2.0, (2, 3, 4)).astype(np.float32)
U = _rng.uniform(-0.9, 0.9, (2, 3, 4)).astype(np.float32)
M = _rng.uniform(-1.0, 1.0, (2, 3, 3)).astype(np.float32)
I = np.array([[2, 0, 1], [1, 1, 0]], dtype=np.int32)
N = np.array([[[1.0, np.nan, -np.inf, 2.0], [np.inf, 0.0, -1.0, 3.0], [0.5, 1.5, np.nan, -2.0]]] * 2,
             dtype=np.float32)
INPUTS = {"A": A, "B": B, "P": P, "U": U, "M": M, "I": I, "N": N}


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _log_softmax(x, axis=-1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


_SELU_A, _SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946

#: (label, call on ops, NumPy reference, input names, result dtype)
CASES = [
    # -- numpy: elementwise --------------------------------------------------------------------------------
    ("cos", lambda o, a: o.cos(a), np.cos, "A", "float32"),
    ("sin", lambda o, a: o.sin(a), np.sin, "A", "float32"),
    ("tan", lambda o, a: o.tan(a), np.tan, "U", "float32"),
    ("cosh", lambda o, a: o.cosh(a), np.cosh, "A", "float32"),
    ("sinh", lambda o, a: o.sinh(a), np.sinh, "A", "float32"),
    ("arcsin", lambda o, a: o.arcsin(a), np.arcsin, "U", "float32"),
    ("arccos", lambda o, a: o.arccos(a), np.arccos, "U", "float32"),
    ("arctan", lambda o, a: o.arctan(a), np.arctan, "A", "float32"),
    ("arctanh", lambda o, a: o.arctanh(a), np.arctanh, "U", "float32"),
    ("arcsinh", lambda o, a: o.arcsinh(a), np.arcsinh, "A", "float32"),
    ("arctan2", lambda o, a, b: o.arctan2(a, b), np.arctan2, "AB", "float32"),
    ("exp", lambda o, a: o.exp(a), np.exp, "A", "float32"),
    ("exp2", lambda o, a: o.exp2(a), np.exp2, "A", "float32"),
    ("log", lambda o, a: o.log(a), np.log, "P", "float32"),
    ("log2", lambda o, a: o.log2(a), np.log2, "P", "float32"),
    ("log10", lambda o, a: o.log10(a), np.log10, "P", "float32"),
    ("logaddexp", lambda o, a, b: o.logaddexp(a, b), np.logaddexp, "AB", "float32"),
    ("cbrt", lambda o, a: o.cbrt(a), np.cbrt, "A", "float32"),
    ("reciprocal", lambda o, a: o.reciprocal(a), np.reciprocal, "P", "float32"),
    ("negative", lambda o, a: o.negative(a), np.negative, "A", "float32"),
    ("floor", lambda o, a: o.floor(a), np.floor, "A", "float32"),
    ("ceil", lambda o, a: o.ceil(a), np.ceil, "A", "float32"),
    ("trunc", lambda o, a: o.trunc(a), np.trunc, "A", "float32"),
    ("fabs", lambda o, a: o.fabs(a), np.fabs, "A", "float32"),
    ("hypot", lambda o, a, b: o.hypot(a, b), np.hypot, "AB", "float32"),
    ("maximum", lambda o, a, b: o.maximum(a, b), np.maximum, "AB", "float32"),
    ("minimum", lambda o, a, b: o.minimum(a, b), np.minimum, "AB", "float32"),
    ("subtract", lambda o, a, b: o.subtract(a, b), np.subtract, "AB", "float32"),
    ("true_divide", lambda o, a, b: o.true_divide(a, b), np.true_divide, "AP", "float32"),
    ("floor_divide", lambda o, a, b: o.floor_divide(a, b), np.floor_divide, "AP", "float32"),
    ("mod", lambda o, a, b: o.mod(a, b), np.mod, "AP", "float32"),
    ("power", lambda o, a, b: o.power(a, b), np.power, "PA", "float32"),
    ("divide_no_nan", lambda o, a, b: o.divide_no_nan(a, o.maximum(b, 1.0) - 1.0),
     lambda a, b: np.where(np.maximum(b, 1.0) - 1.0 == 0, 0.0, a / np.where(np.maximum(b, 1.0) == 1.0, 1.0,
                                                                         np.maximum(b, 1.0) - 1.0)), "AP", "float32"),
    ("greater", lambda o, a, b: o.greater(a, b), np.greater, "AB", "bool"),
    ("less_equal", lambda o, a, b: o.less_equal(a, b), np.less_equal, "AB", "bool"),
    ("not_equal", lambda o, a, b: o.not_equal(o.round(a), o.round(b)), lambda a, b: np.round(a) != np.round(b),
     "AB", "bool"),
    ("logical_and", lambda o, a, b: o.logical_and(a > 0, b > 0), lambda a, b: (a > 0) & (b > 0), "AB", "bool"),
    ("logical_or", lambda o, a, b: o.logical_or(a > 0, b > 0), lambda a, b: (a > 0) | (b > 0), "AB", "bool"),
    ("logical_not", lambda o, a: o.logical_not(a > 0), lambda a: ~(a > 0), "A", "bool"),
    ("isnan", lambda o, a: o.isnan(a), np.isnan, "N", "bool"),
    ("isinf", lambda o, a: o.isinf(a), np.isinf, "N", "bool"),
    ("isfinite", lambda o, a: o.isfinite(a), np.isfinite, "N", "bool"),
    ("nan_to_num", lambda o, a: o.nan_to_num(a, nan=7.0, posinf=9.0, neginf=-9.0),
     lambda a: np.nan_to_num(a, nan=7.0, posinf=9.0, neginf=-9.0), "N", "float32"),
    ("isclose", lambda o, a, b: o.isclose(a, a + 1e-7), lambda a, b: np.isclose(a, a + 1e-7), "AB", "bool"),
    ("signbit", lambda o, a: o.signbit(a), np.signbit, "A", "bool"),
    # -- numpy: reductions -----------------------------------------------------------------------------------
    ("amax(axis=1)", lambda o, a: o.amax(a, axis=1), lambda a: np.amax(a, axis=1), "A", "float32"),
    ("amin(axis=-1, keepdims)", lambda o, a: o.amin(a, axis=-1, keepdims=True),
     lambda a: np.amin(a, axis=-1, keepdims=True), "A", "float32"),
    ("min(axis=(0, 2))", lambda o, a: o.min(a, axis=(0, 2)), lambda a: np.min(a, axis=(0, 2)), "A", "float32"),
    ("any(axis=2)", lambda o, a: o.any(a > 1.0, axis=2), lambda a: np.any(a > 1.0, axis=2), "A", "bool"),
    ("prod(axis=1)", lambda o, a: o.prod(a, axis=1), lambda a: np.prod(a, axis=1), "A", "float32"),
    ("median(axis=-1)", lambda o, a: o.median(a, axis=-1), lambda a: np.median(a, axis=-1), "A", "float32"),
    ("quantile(0.25, axis=1)", lambda o, a: o.quantile(a, 0.25, axis=1), lambda a: np.quantile(a, 0.25, axis=1),
     "A", "float32"),
    ("percentile(80, axis=2)", lambda o, a: o.percentile(a, 80.0, axis=2),
     lambda a: np.percentile(a, 80.0, axis=2), "A", "float32"),
    ("ptp(axis=1)", lambda o, a: o.ptp(a, axis=1), lambda a: np.ptp(a, axis=1), "A", "float32"),
    ("average(weights, axis=-1)", lambda o, a, p: o.average(a, axis=-1, weights=p[0, 0]),
     lambda a, p: np.average(a, axis=-1, weights=p[0, 0]), "AP", "float32"),
    ("count_nonzero(axis=1)", lambda o, a: o.count_nonzero(o.round(a), axis=1),
     lambda a: np.count_nonzero(np.round(a), axis=1), "A", "int32"),
    ("argmax(axis=1)", lambda o, a: o.argmax(a, axis=1), lambda a: np.argmax(a, axis=1), "A", "int32"),
    ("argmin(axis=-1)", lambda o, a: o.argmin(a, axis=-1), lambda a: np.argmin(a, axis=-1), "A", "int32"),
    ("nanmean(axis=2)", lambda o, a: o.nanmean(o.where(o.isinf(a), 0.0, a), axis=2),
     lambda a: np.nanmean(np.where(np.isinf(a), 0.0, a), axis=2), "N", "float32"),
    ("nansum(axis=1)", lambda o, a: o.nansum(o.where(o.isinf(a), 0.0, a), axis=1),
     lambda a: np.nansum(np.where(np.isinf(a), 0.0, a), axis=1), "N", "float32"),
    ("nanmax(axis=-1)", lambda o, a: o.nanmax(o.where(o.isinf(a), 0.0, a), axis=-1),
     lambda a: np.nanmax(np.where(np.isinf(a), 0.0, a), axis=-1), "N", "float32"),
    ("cumprod(axis=2)", lambda o, a: o.cumprod(a, axis=2), lambda a: np.cumprod(a, axis=2), "A", "float32"),
    ("diff(axis=1)", lambda o, a: o.diff(a, axis=1), lambda a: np.diff(a, axis=1), "A", "float32"),
    ("trace", lambda o, m: o.trace(m, axis1=1, axis2=2), lambda m: np.trace(m, axis1=1, axis2=2), "M", "float32"),
    # -- numpy: shapes and indexing --------------------------------------------------------------------------
    ("flip(axis=1)", lambda o, a: o.flip(a, axis=1), lambda a: np.flip(a, axis=1), "A", "float32"),
    ("roll(2, axis=-1)", lambda o, a: o.roll(a, 2, axis=-1), lambda a: np.roll(a, 2, axis=-1), "A", "float32"),
    ("rot90", lambda o, a: o.rot90(a, k=1, axes=(1, 2)), lambda a: np.rot90(a, k=1, axes=(1, 2)), "A", "float32"),
    ("stack(axis=1)", lambda o, a, b: o.stack([a, b], axis=1), lambda a, b: np.stack([a, b], axis=1), "AB",
     "float32"),
    ("hstack", lambda o, a, b: o.hstack([a, b]), lambda a, b: np.hstack([a, b]), "AB", "float32"),
    ("vstack", lambda o, a, b: o.vstack([a, b]), lambda a, b: np.vstack([a, b]), "AB", "float32"),
    ("dstack", lambda o, a, b: o.dstack([a, b]), lambda a, b: np.dstack([a, b]), "AB", "float32"),
    ("append(axis=2)", lambda o, a, b: o.append(a, b, axis=2), lambda a, b: np.append(a, b, axis=2), "AB",
     "float32"),
    ("tile", lambda o, a: o.tile(a, (1, 2, 1)), lambda a: np.tile(a, (1, 2, 1)), "A", "float32"),
    ("moveaxis", lambda o, a: o.moveaxis(a, 0, -1), lambda a: np.moveaxis(a, 0, -1), "A", "float32"),
    ("swapaxes", lambda o, a: o.swapaxes(a, 0, 2), lambda a: np.swapaxes(a, 0, 2), "A", "float32"),
    ("squeeze(axis=1)", lambda o, a: o.squeeze(a[:, :1], axis=1), lambda a: np.squeeze(a[:, :1], axis=1), "A",
     "float32"),
    ("ravel", lambda o, a: o.ravel(a), np.ravel, "A", "float32"),
    ("broadcast_to", lambda o, a: o.broadcast_to(a[:, :1], (2, 5, 4)), lambda a: np.broadcast_to(a[:, :1], (2, 5, 4)),
     "A", "float32"),
    ("take(axis=1)", lambda o, a, i: o.take(a, i, axis=1), lambda a, i: np.take(a, i, axis=1), "AI", "float32"),
    ("take_along_axis", lambda o, a: o.take_along_axis(a, o.argsort(a, axis=-1), axis=-1),
     lambda a: np.take_along_axis(a, np.argsort(a, axis=-1), axis=-1), "A", "float32"),
    ("sort(axis=1)", lambda o, a: o.sort(a, axis=1), lambda a: np.sort(a, axis=1), "A", "float32"),
    ("triu(k=1)", lambda o, m: o.triu(m, k=1), lambda m: np.triu(m, k=1), "M", "float32"),
    ("diagonal", lambda o, m: o.diagonal(m, axis1=1, axis2=2), lambda m: np.diagonal(m, axis1=1, axis2=2), "M",
     "float32"),
    ("outer", lambda o, a, b: o.outer(a[0, 0], b[0, 1]), lambda a, b: np.outer(a[0, 0], b[0, 1]), "AB", "float32"),
    ("tensordot", lambda o, a, b: o.tensordot(a, b, axes=([1, 2], [1, 2])),
     lambda a, b: np.tensordot(a, b, axes=([1, 2], [1, 2])), "AB", "float32"),
    ("dot", lambda o, m, a: o.dot(m, a), lambda m, a: np.dot(m, a), "MA", "float32"),
    ("inner", lambda o, a, b: o.inner(a, b), lambda a, b: np.inner(a, b), "AB", "float32"),
    ("full_like", lambda o, a: o.full_like(a, 2.5), lambda a: np.full_like(a, 2.5), "A", "float32"),
    ("ones_like", lambda o, a: o.ones_like(a), np.ones_like, "A", "float32"),
    ("zeros_like", lambda o, a: o.zeros_like(a), np.zeros_like, "A", "float32"),
    # -- math ------------------------------------------------------------------------------------------------
    ("math.rsqrt", lambda o, a: o.rsqrt(a), lambda a: 1.0 / np.sqrt(a), "P", "float32"),
    ("math.erf", lambda o, a: o.erf(a), lambda a: np.vectorize(math.erf)(a), "A", "float32"),
    ("math.top_k values", lambda o, a: o.top_k(a, k=2)[0], lambda a: -np.sort(-a, axis=-1)[..., :2], "A", "float32"),
    ("math.top_k indices", lambda o, a: o.top_k(a, k=2)[1], lambda a: np.argsort(-a, axis=-1, kind="stable")[..., :2],
     "A", "int32"),
    ("math.logsumexp(axis=1)", lambda o, a: o.logsumexp(a, axis=1),
     lambda a: np.log(np.exp(a).sum(axis=1)), "A", "float32"),
    # -- nn --------------------------------------------------------------------------------------------------
    ("nn.relu6", lambda o, a: o.relu6(a * 4.0), lambda a: np.clip(a * 4.0, 0.0, 6.0), "A", "float32"),
    ("nn.sigmoid", lambda o, a: o.sigmoid(a), _sigmoid, "A", "float32"),
    ("nn.softsign", lambda o, a: o.softsign(a), lambda a: a / (1.0 + np.abs(a)), "A", "float32"),
    ("nn.leaky_relu", lambda o, a: o.leaky_relu(a), lambda a: np.where(a > 0, a, 0.2 * a), "A", "float32"),
    ("nn.elu", lambda o, a: o.elu(a), lambda a: np.where(a > 0, a, np.expm1(a)), "A", "float32"),
    ("nn.selu", lambda o, a: o.selu(a), lambda a: _SELU_S * np.where(a > 0, a, _SELU_A * np.expm1(a)), "A",
     "float32"),
    ("nn.gelu", lambda o, a: o.gelu(a),
     lambda a: 0.5 * a * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (a + 0.044715 * a ** 3))), "A", "float32"),
    ("nn.gelu(approximate=False)", lambda o, a: o.gelu(a, approximate=False),
     lambda a: 0.5 * a * (1.0 + np.vectorize(math.erf)(a / np.sqrt(2.0))), "A", "float32"),
    ("nn.hard_tanh", lambda o, a: o.hard_tanh(a), lambda a: np.clip(a, -1.0, 1.0), "A", "float32"),
    ("nn.log_softmax(axis=1)", lambda o, a: o.log_softmax(a, axis=1), lambda a: _log_softmax(a, axis=1), "A",
     "float32"),
    ("nn.softmax(axis=1)", lambda o, a: o.softmax(a, axis=1), lambda a: np.exp(_log_softmax(a, axis=1)), "A",
     "float32"),
    ("nn.moments mean", lambda o, a: o.moments(a, axes=[0, 1])[0], lambda a: a.mean(axis=(0, 1)), "A", "float32"),
    ("nn.moments variance", lambda o, a: o.moments(a, axes=[0, 1])[1], lambda a: a.var(axis=(0, 1)), "A",
     "float32"),
    ("nn.one_hot", lambda o, i: o.one_hot(i, 3), lambda i: np.eye(3)[i], "I", "float32"),
    ("nn.multi_hot", lambda o, i: o.multi_hot(i, 4), lambda i: (np.eye(4)[i].sum(axis=1) > 0).astype(float), "I",
     "float32"),
    # -- core ------------------------------------------------------------------------------------------------
    ("core.slice", lambda o, a: o.slice(a, (0, 1, 1), (2, 2, 2)), lambda a: a[:, 1:3, 1:3], "A", "float32"),
    ("core.scatter_update", lambda o, a: o.scatter_update(a, [[0, 0, 0], [1, 2, 3]], o.ones((2,), "float32")),
     lambda a: _set(a, [(0, 0, 0), (1, 2, 3)], 1.0), "A", "float32"),
    ("core.slice_update", lambda o, a: o.slice_update(a, (0, 1, 0), o.zeros((2, 1, 4), "float32")),
     lambda a: _set_slice(a), "A", "float32"),
    ("linalg.norm(axis=-1)", lambda o, a: o.norm(a, axis=-1), lambda a: np.linalg.norm(a, axis=-1), "A", "float32"),
    ("linalg.det", lambda o, m: o.det(m), np.linalg.det, "M", "float32"),
]


def _set(a, idx, v):
    out = a.copy()
    for i in idx:
        out[i] = v
    return out


def _set_slice(a):
    out = a.copy()
    out[:, 1:2, :] = 0.0
    return out


#: Known deviation (open, docs/conformance.md twenty-third session): Keras 3.15's MultiHot.compute_output_spec
#: gives the KerasTensor the input's dtype (int32 here) while the op returns float32; simdist's symbolic
#: spec is the probed result's (float32). The symbolic dtype of these cases is not compared.
SYMBOLIC_DTYPE_UNCHECKED = frozenset({"nn.multi_hot"})


def _namespace(keras, label):
    ops = keras.ops
    for prefix, sub in (("math.", "math"), ("nn.", "nn"), ("core.", "core"), ("linalg.", "linalg")):
        if label.startswith(prefix):
            return getattr(ops, sub, ops)
    return ops


@clause("keras.ops", ref="tf221")
def test_cov23a_ops_values_and_symbolic_specs(keras, budget):
    """Each op of the table on concrete arrays gives NumPy's values (float32 tolerance, exact for
    integer and bool results) and the dtype Keras gives it (argmax/top_k indices/count_nonzero
    int32, comparisons bool, the rest float32); on symbolic inputs of fully known shape it returns a
    KerasTensor of the concrete result's shape and that dtype."""
    for label, fn, ref, names, dtype in budget(CASES):
        ops = _namespace(keras, label)
        arrays = [INPUTS[n] for n in names]
        call = f"keras.ops.{label}"
        got = fn(ops, *arrays)
        want = np.asarray(ref(*[x.astype(np.float64) if x.dtype == np.float32 else x for x in arrays]))
        g = np.asarray(got)
        assert_equal(str(g.dtype) if dtype != "bool" else str(g.dtype), dtype, call=call, what="result dtype")
        assert_equal(g.shape, want.shape, call=call, what="result shape")
        if dtype in ("bool", "int32"):
            assert_equal(g.tolist(), want.astype(g.dtype).tolist(), call=call, what="values")
        else:
            assert_close(g, want, tolerance=TOL, call=call, what="values")
        symbolic = [keras.Input(shape=x.shape[1:], batch_size=x.shape[0], dtype=str(x.dtype)) for x in arrays]
        spec = fn(ops, *symbolic)
        assert_equal(tuple(spec.shape), want.shape, call=call + " on keras.Input", what="KerasTensor shape")
        if label not in SYMBOLIC_DTYPE_UNCHECKED:
            assert_equal(str(spec.dtype), dtype, call=call + " on keras.Input", what="KerasTensor dtype")


@clause("keras.ops", ref="tf221")
def test_cov23a_keras_tensor_operators(keras):
    """Python operators on KerasTensors map to keras.ops as Keras 3.15's KerasTensor does
    (backend/common/keras_tensor.py): comparisons (not ==) to less/.../not_equal (bool), & | ^ ~ to
    logical_and/or/xor/not, abs to absolute, // and % to floor_divide and mod (from either side),
    ** from the left to power, round() to round(decimals); a functional model of them computes
    NumPy's values."""
    x, y = keras.Input((3,)), keras.Input((3,), dtype="int32")
    outs = {"gt": x > 0, "le": x <= 0.5, "lt": 1 < x, "ne": x != y, "ge": y >= 2, "and": (x > 0) & (x < 1),
            "or": (x > 0) | (y > 1), "xor": (x > 0) ^ (y > 1), "inv": ~(x > 0), "abs": abs(x), "fd": x // 2,
            "rfd": 7.0 // x, "mod": y % 3, "rmod": 5.5 % x, "rpow": 2 ** x, "round": round(x), "round1": round(x, 1)}
    xv = np.array([[-1.25, 0.35, 2.0]], np.float32)
    yv = np.array([[1, 2, 3]], np.int32)
    xd, yd = xv.astype(np.float64), yv
    want = {"gt": xd > 0, "le": xd <= 0.5, "lt": 1 < xd, "ne": xd != yd, "ge": yd >= 2, "and": (xd > 0) & (xd < 1),
            "or": (xd > 0) | (yd > 1), "xor": (xd > 0) ^ (yd > 1), "inv": ~(xd > 0), "abs": np.abs(xd),
            "fd": np.floor_divide(xd, 2), "rfd": np.floor_divide(7.0, xd), "mod": yd % 3, "rmod": np.mod(5.5, xd),
            "rpow": 2.0 ** xd, "round": np.round(xd),
            # (Keras rounds x * 10^d in x's dtype: float32 0.35 * 10 is 3.5, which rounds to 4)
            "round1": np.round(xv * np.float32(10.0)).astype(np.float64) / 10.0}
    dtypes = {k: ("bool" if want[k].dtype == bool else "int32" if k == "mod" else "float32") for k in want}
    model = keras.Model([x, y], outs)
    got = model([xv, yv])
    for k, t in outs.items():
        call = f"KerasTensor operator {k!r} in a functional model"
        assert_equal([tuple(t.shape), str(t.dtype)], [(None, 3), dtypes[k]], call=call, what="KerasTensor shape, dtype")
        g = np.asarray(got[k])
        assert_equal(str(g.dtype), dtypes[k], call=call, what="result dtype")
        if dtypes[k] == "float32":
            assert_close(g, want[k], tolerance=TOL, call=call, what="values")
        else:
            assert_equal(g.tolist(), want[k].astype(g.dtype).tolist(), call=call, what="values")

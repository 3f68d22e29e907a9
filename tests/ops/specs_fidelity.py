"""Op specs of issue 29's ops (see op_specs.py): the x-functions, atan2, the inverse
trigonometric and hyperbolic functions, rint, truncated division, saturate_cast, the counting
ops and the matrix diagonals. Edge values (zeros, infinities, NaN, dtype refusals) are
tests/ops/test_op_edges_tf.py's; here: values and gradients on smooth inputs."""

from __future__ import annotations

import numpy as np

from op_specs import OpSpec, _inputs, away_from, rand


def _ints(values):
    return lambda rng, dt: np.asarray(values, dtype=np.int32)


def _with_zero_x(shape):
    def make(rng, dt):
        x = rng.uniform(0.5, 2.0, size=shape).astype(dt)
        x.flat[::4] = 0
        return x
    return make


def _diag_part_ref(x, k=(0, 0)):
    lo, hi = k
    m, n = x.shape[-2:]
    lens = [min(m + min(0, d), n - max(0, d)) for d in range(lo, hi + 1)]
    rows = []
    for d in range(hi, lo - 1, -1):
        diag = np.diagonal(x, offset=d, axis1=-2, axis2=-1)
        ln = diag.shape[-1]
        pad = max(lens) - ln
        rows.append(np.concatenate([np.zeros(diag.shape[:-1] + (pad,), x.dtype), diag], -1) if d > 0 else
                    np.concatenate([diag, np.zeros(diag.shape[:-1] + (pad,), x.dtype)], -1))
    out = np.stack(rows, -2)
    return out[..., 0, :] if lo == hi else out


SPECS: list[OpSpec] = [
    OpSpec("asin", lambda tf, x: tf.math.asin(x), _inputs(rand((2, 3), -0.9, 0.9)), ("Asin",), np.arcsin),
    OpSpec("acos", lambda tf, x: tf.math.acos(x), _inputs(rand((2, 3), -0.9, 0.9)), ("Acos",), np.arccos),
    OpSpec("acosh", lambda tf, x: tf.math.acosh(x), _inputs(rand((2, 3), 1.2, 4.0)), ("Acosh",), np.arccosh),
    OpSpec("atanh", lambda tf, x: tf.math.atanh(x), _inputs(rand((2, 3), -0.9, 0.9)), ("Atanh",), np.arctanh),
    OpSpec("rint (gradient None)", lambda tf, x: tf.math.rint(x), _inputs(rand((2, 3), -3, 3)), ("Rint",), np.rint,
           grad=False),
    OpSpec("xlogy[broadcast]", lambda tf, x, y: tf.math.xlogy(x, y), _inputs(rand((2, 3)), rand((3,), 0.5, 3.0)),
           ("Xlogy",), lambda x, y: x * np.log(y), diff=(0, 1)),
    OpSpec("xlogy[zero x]", lambda tf, x, y: tf.math.xlogy(x, y), _inputs(_with_zero_x((2, 4)), rand((2, 4), 0.5, 3)),
           ("Xlogy",), lambda x, y: np.where(x == 0, 0, x * np.log(y)), diff=(0, 1), fd=False,
           notes="the gradient at x == 0 is TF's (xlogy(0, y) = 0), not the derivative: TF comparison only"),
    OpSpec("xdivy", lambda tf, x, y: tf.math.xdivy(x, y), _inputs(rand((2, 3)), rand((2, 3), 0.5, 3.0)),
           ("Xdivy", "Pow"), lambda x, y: x / y, diff=(0, 1)),
    OpSpec("xlog1py", lambda tf, x, y: tf.math.xlog1py(x, y), _inputs(rand((2, 3)), rand((2, 3), -0.5, 3.0)),
           ("Xlog1py",), lambda x, y: x * np.log1p(y), diff=(0, 1)),
    OpSpec("multiply_no_nan[broadcast]", lambda tf, x, y: tf.math.multiply_no_nan(x, y),
           _inputs(rand((2, 3)), rand((3,))), ("MulNoNan",), np.multiply, diff=(0, 1)),
    OpSpec("atan2", lambda tf, y, x: tf.math.atan2(y, x), _inputs(rand((2, 3)), lambda rng, dt: away_from(
        rand((2, 3))(rng, dt), gap=0.3)), ("Atan2",), np.arctan2, diff=(0, 1)),
    OpSpec("truncatediv (gradient None)", lambda tf, x, y: tf.truncatediv(x, y),
           _inputs(rand((2, 3), -5, 5), lambda rng, dt: away_from(rand((2, 3))(rng, dt), gap=0.3)),
           ("TruncateDiv",), lambda x, y: np.trunc(x / y), diff=(0, 1), grad=False),
    OpSpec("realdiv", lambda tf, x, y: tf.realdiv(x, y), _inputs(rand((2, 3)), lambda rng, dt: away_from(
        rand((2, 3))(rng, dt), gap=0.3)), ("RealDiv",), np.true_divide, diff=(0, 1)),
    OpSpec("saturate_cast[float to float]", lambda tf, x: tf.dtypes.saturate_cast(x, x.dtype),
           _inputs(rand((2, 3))), ("ClipByValue",), lambda x: x, diff=(0,),
           notes="the ClipByValue op between the dtype's limits: values and gradient the identity's"),
    OpSpec("linalg.diag_part", lambda tf, x: tf.linalg.diag_part(x), _inputs(rand((2, 3, 4))),
           ("MatrixDiagPartV3", "MatrixDiagV3"), _diag_part_ref),
    OpSpec("linalg.diag_part[band]", lambda tf, x: tf.linalg.diag_part(x, k=(-1, 1)), _inputs(rand((3, 4))),
           ("MatrixDiagPartV3", "MatrixDiagV3"), lambda x: _diag_part_ref(x, (-1, 1))),
    OpSpec("linalg.diag", lambda tf, v: tf.linalg.diag(v), _inputs(rand((2, 3))), ("MatrixDiagV3", "MatrixDiagPartV3"),
           lambda v: np.stack([np.diag(r) for r in v])),
    OpSpec("linalg.diag[k=1]", lambda tf, v: tf.linalg.diag(v, k=1), _inputs(rand((3,))),
           ("MatrixDiagV3", "MatrixDiagPartV3"), lambda v: np.diag(v, 1)),
    OpSpec("unique (gradient: LookupError)", lambda tf, x: tf.unique(x)[0], _inputs(_ints([3, 1, 3, 2])),
           ("Unique",), lambda x: np.array([3, 1, 2]), diff=(), grad=False),
    OpSpec("unique_with_counts", lambda tf, x: tf.unique_with_counts(x)[2], _inputs(_ints([3, 1, 3, 2])),
           ("UniqueWithCounts",), lambda x: np.array([2, 1, 1]), diff=(), grad=False),
    OpSpec("bincount[weights]", lambda tf, i, w: tf.math.bincount(i, weights=w),
           _inputs(_ints([1, 1, 3, 0]), rand((4,))), ("DenseBincount",),
           lambda i, w: np.bincount(i, weights=w), diff=(), grad=False),
    OpSpec("count_nonzero", lambda tf, x: tf.math.count_nonzero(x, axis=1), _inputs(_ints([[0, 1, 2], [0, 0, 3]])),
           ("NotEqual", "Cast", "Sum"), lambda x: np.count_nonzero(x, axis=1), diff=(), grad=False),
    OpSpec("in_top_k", lambda tf, t, p: tf.math.in_top_k(t, tf.cast(p, tf.float32), 2),
           _inputs(_ints([0, 2]), rand((2, 4))), ("InTopKV2", "Cast"),
           lambda t, p: np.array([np.sum(p[b] > p[b, t[b]]) < 2 for b in range(2)]), diff=(), grad=False),
]

UNTESTED_OPS: dict[str, str] = {
    "ToBool": "a bool output, and TF registers no gradient (LookupError, as simdist): values, dtypes, errors and the "
              "tape's LookupError against TF 2.21 in tests/ops/test_fz29a_edges_tf.py (ops.fuzz-raw)",
    "TruncateMod": "integer and fmod remainders: tests/ops/test_op_edges_tf.py (ops.truncation); TF registers no "
                   "gradient, so a gradient spec would only check LookupError",
}

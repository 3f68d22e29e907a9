"""complex64 and complex128 against real TensorFlow 2.21 (clause ops.complex): the DType's
attributes, conversion of Python and NumPy complex values, casts between complex and real, the
ops TF defines for complex (values, output dtypes, shapes), the error class of every op of the
sweep that TF refuses for complex (or has no CPU kernel for), complex division's bits, sums, means and
products in Eigen's order, and gradients under TF's conjugate convention. Needs the `tf` extra (golden-backed otherwise).

Values are compared bit for bit (real and imaginary parts each; any NaN matches any NaN) except
the cases marked inexact: TF's complex transcendental functions are libstdc++'s std::complex
ones and its solvers Eigen's, simdist's NumPy's and LAPACK's; those agree within 4e-6
(complex64) or 8e-15 (complex128) of the output's largest magnitude (observed worst: 1.2e-6,
lstsq of complex64; 3.3e-15, lstsq of complex128).
"""

from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

CDT = ("complex64", "complex128")
_Z = [[1 + 2j, -3.5 + 0.5j], [0.25 - 1j, 2 + 0j]]


def _x(dt: str) -> Callable[[Any], Any]:
    return lambda tf: tf.constant(_Z, getattr(tf, dt))


def _attr(path: str) -> Callable[[Any], Any]:
    def get(tf: Any) -> Any:
        o = tf
        for part in path.split("."):
            o = getattr(o, part)
        return o
    return get


# --- what each case is: (id, group, program, inexact) -----------------------------------------------------
CASES: list[tuple[str, str, Callable[[Any], Any], bool]] = []


def _add(group: str, name: str, program: Callable[[Any], Any], inexact: bool = False) -> None:
    CASES.append((name, group, program, inexact))


# -- the DType and conversion
for _dt in CDT:
    _add("ops.complex-dtype", f"attrs-{_dt}", lambda tf, dt=_dt: [
        getattr(tf, dt).name, getattr(tf, dt).size, getattr(tf, dt).real_dtype.name, getattr(tf, dt).is_complex,
        getattr(tf, dt).is_floating, getattr(tf, dt).is_integer, tf.as_dtype(dt).name,
        tf.as_dtype(getattr(np, dt)).name, str(getattr(tf, dt).as_numpy_dtype)])
    _add("ops.complex-dtype", f"min-{_dt}", lambda tf, dt=_dt: getattr(tf, dt).min)
    _add("ops.complex-dtype", f"max-{_dt}", lambda tf, dt=_dt: getattr(tf, dt).max)
_add("ops.complex-dtype", "real-dtype-of-float32", lambda tf: [tf.float32.real_dtype.name, tf.float32.is_complex])
_add("ops.complex-dtype", "as-dtype-python-complex", lambda tf: tf.as_dtype(complex))
_add("ops.complex-dtype", "str", lambda tf: str(tf.constant([1 + 2j, 3 - 4.5j], tf.complex64)))
for _name, _value, _dtype in [
    ("list", [1 + 2j], None), ("scalar", 1 + 2j, None), ("int-then-complex", [1, 2j], None),
    ("float-then-complex", [1.0, 2j], None), ("complex-then-float", [2j, 1.0], None), ("bool-then-complex", [True, 2j], None),
    ("numpy-complex64", np.complex64(1 + 2j), None), ("numpy-complex64-then-int", [np.complex64(1 + 2j), 1], None),
    ("numpy-array-complex64", np.array([1 + 2j, 0.5j], np.complex64), None),
    ("list-as-complex64", [1 + 2j], "complex64"), ("float-as-complex64", [1.5], "complex64"),
    ("int-as-complex64", [1], "complex64"), ("bool-as-complex64", [True], "complex64"),
    ("overflow-as-complex64", 1e300 + 0j, "complex64"), ("beyond-float32", 1e40j, None),
    ("complex-as-float32", [1 + 2j], "float32"), ("complex-as-float64", [1 + 2j], "float64"),
    ("complex-as-int32", [1 + 2j], "int32"), ("numpy-complex-as-float32", np.array([1 + 2j]), "float32"),
    ("nested-as-complex128", [[1 + 2j], [3]], "complex128"), ("int-then-complex-as-complex128", [1, 2j], "complex128"),
    ("big-int-as-complex128", [2**70, 2j], "complex128"), ("nan-as-complex128", [float("nan"), 2j], "complex128"),
    ("complex-then-nan", [2j, float("nan")], None)]:
    _add("ops.complex-conversion", f"constant-{_name}",
         lambda tf, v=_value, d=_dtype: tf.constant(v) if d is None else tf.constant(v, getattr(tf, d)))
for _name, _value, _hint in [("complex-hint-float32", 1j, "float32"), ("float-hint-complex64", 1.0, "complex64"),
                             ("int-hint-complex64", 1, "complex64")]:
    _add("ops.complex-conversion", f"convert-{_name}",
         lambda tf, v=_value, h=_hint: tf.convert_to_tensor(v, dtype_hint=getattr(tf, h)))
# inside a tf.function (a graph's make_tensor_proto: NumPy's inference), and the ops' errors there
for _name, _body in [("mixed", lambda tf: tf.constant([1, 2j])), ("mixed-float", lambda tf: tf.constant([1.0, 2j])),
                     ("scalar", lambda tf: tf.constant(1 + 2j)), ("ints-as-complex64", lambda tf: tf.constant([1, 2], tf.complex64)),
                     ("bool-as-complex64", lambda tf: tf.constant([True], tf.complex64)),
                     ("complex-as-float32", lambda tf: tf.constant([1 + 2j], tf.float32)),
                     ("float32-plus-complex", lambda tf: tf.constant(1.5) + 1j),
                     ("less", lambda tf: tf.constant([1 + 2j]) < 1), ("floordiv", lambda tf: tf.constant([1 + 2j]) // 1),
                     ("round", lambda tf: tf.round(tf.constant([1 + 2j]))),
                     ("cast-bool", lambda tf: tf.cast(tf.constant([1 + 2j, 1j]), tf.bool)),
                     ("divide-by-zero", lambda tf: tf.constant([1 + 2j, 1j]) / tf.constant([0j, 0j]))]:
    _add("ops.complex-conversion", f"function-{_name}", lambda tf, b=_body: tf.function(lambda: b(tf))())
_add("ops.complex-conversion", "variable", lambda tf: tf.Variable([1 + 2j]).read_value())
_add("ops.complex-conversion", "fill", lambda tf: tf.fill([2], 1j))
_add("ops.complex-conversion", "range-complex64", lambda tf: tf.range(3, dtype=tf.complex64))
for _name, _prog in [("float32-plus-complex", lambda tf: tf.constant(1.5) + 1j),
                     ("float64-plus-complex-tensor", lambda tf: tf.constant(1.5, tf.float64) + tf.constant(1j)),
                     ("int32-plus-complex", lambda tf: tf.constant([1]) + (1 + 1j)),
                     ("complex128-plus-int", lambda tf: tf.constant(1 + 2j) + 1),
                     ("complex64-plus-numpy-complex128", lambda tf: tf.constant([1 + 2j], tf.complex64) + np.complex128(1)),
                     ("complex-times-complex64", lambda tf: (1 + 1j) * tf.constant([1 + 2j], tf.complex64)),
                     ("complex-less", lambda tf: tf.constant([1 + 2j]) < 1),
                     ("complex-equal", lambda tf: tf.constant([1 + 2j]) == (1 + 2j))]:
    _add("ops.complex-conversion", _name, _prog)

# -- casts between complex and real, saturate_cast
_CAST_SRC = [1e300 + 2j, -1e300 + 1j, float("nan") + 1j, 3e9 - 2j, 1.5 - 0.5j, 0j, 1j, -0.0 + 0j]
for _to in ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int32", "int64", "uint64", "bool",
            "complex64", "complex128"):
    _add("ops.complex-casts", f"cast-complex128-to-{_to}",
         lambda tf, to=_to: tf.cast(tf.constant(_CAST_SRC, tf.complex128), getattr(tf, to)))
for _src, _vals in [("float16", [1.5, np.nan, -np.inf]), ("bfloat16", [1.5, 1e38]), ("float32", [1.5, -0.0, 3e38]),
                    ("float64", [1e300, -2.5]), ("int32", [1, -7]), ("uint8", [255, 0]), ("bool", [True, False])]:
    for _to in CDT:
        _add("ops.complex-casts", f"cast-{_src}-to-{_to}",
             lambda tf, s=_src, v=_vals, to=_to: tf.cast(tf.constant(v, getattr(tf, s)), getattr(tf, to)))
for _to in ("float32", "float16", "int32", "uint8", "complex64", "complex128"):
    _add("ops.complex-casts", f"saturate-cast-complex128-to-{_to}",
         lambda tf, to=_to: tf.saturate_cast(tf.constant([1e300 + 1e300j, -1e300 - 5j, 1.5 + 2j]), getattr(tf, to)))
_add("ops.complex-casts", "saturate-cast-float32-to-complex64",
     lambda tf: tf.saturate_cast(tf.constant([3.0, -1e38]), tf.complex64))
_add("ops.complex-casts", "saturate-cast-int32-to-complex64", lambda tf: tf.saturate_cast(tf.constant([300]), tf.complex64))

# -- the sweep: every elementwise, reduction and scan callable of the second fuzzer's vocabulary, Python
# operators, and the shape, linear-algebra and complex-only functions, on complex operands of both widths
_UNARY = ("math.abs math.negative math.sign math.square abs negative sign square math.floor math.ceil math.round "
          "math.rint floor round sqrt math.sqrt nn.relu6 nn.softsign nn.relu math.is_nan math.is_inf math.is_finite "
          "zeros_like ones_like identity stop_gradient math.logical_not bitwise.invert math.exp exp math.log "
          "math.log1p math.expm1 math.tanh tanh math.sigmoid sigmoid math.sin sin math.cos cos math.tan math.atan "
          "math.asinh math.sinh math.cosh math.erf math.erfc math.lgamma math.digamma math.softplus nn.elu nn.selu "
          "nn.gelu nn.silu nn.swish math.log_sigmoid nn.softmax nn.log_softmax math.rsqrt math.reciprocal math.asin "
          "math.acos math.acosh math.atanh math.l2_normalize math.real math.imag math.conj math.angle "
          "math.reciprocal_no_nan linalg.adjoint linalg.matrix_transpose transpose linalg.trace linalg.det "
          "linalg.inv linalg.eigvals linalg.diag_part linalg.tensor_diag_part norm math.is_non_decreasing").split()
_BINARY = ("math.add add math.subtract subtract math.multiply multiply math.maximum maximum math.minimum minimum "
           "math.floordiv math.floormod truncatediv truncatemod math.mod math.squared_difference math.divide divide "
           "truediv realdiv math.divide_no_nan math.multiply_no_nan math.equal equal math.not_equal not_equal "
           "math.less less math.less_equal less_equal math.greater greater math.greater_equal greater_equal "
           "math.logical_and bitwise.bitwise_and bitwise.left_shift math.pow pow math.atan2 atan2 math.xlogy "
           "math.xdivy math.xlog1py matmul linalg.matmul linalg.solve").split()
_REDUCE = ("reduce_max reduce_min reduce_any reduce_all reduce_sum reduce_prod reduce_mean math.reduce_euclidean_norm "
           "math.reduce_variance math.reduce_std reduce_logsumexp math.count_nonzero").split()
_SCAN = "cumsum math.cumprod math.cumulative_logsumexp".split()
_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
              "//": operator.floordiv, "%": operator.mod, "<": operator.lt, "<=": operator.le, ">": operator.gt,
              ">=": operator.ge, "==": operator.eq, "!=": operator.ne, "&": operator.and_, "|": operator.or_,
              "^": operator.xor, "**": operator.pow, "@": operator.matmul}
# TF's complex functions are libstdc++'s std::complex ones, its solvers Eigen's: not simdist's bits
_INEXACT = set(("math.exp exp math.log math.log1p math.expm1 math.sigmoid sigmoid nn.silu nn.swish math.rsqrt "
                "math.angle math.l2_normalize linalg.det linalg.inv linalg.eigvals linalg.solve norm math.xlogy "
                "math.xdivy math.xlog1py math.divide_no_nan math.pow pow ** reduce_prod math.cumprod "
                "math.reduce_euclidean_norm math.reduce_std math.tanh tanh math.sin sin math.cos cos math.tan "
                "math.sinh math.cosh sqrt math.sqrt").split())


def _sweep(dt: str) -> None:
    x = _x(dt)
    for p in _UNARY:
        _add("ops.complex-sweep", f"{p}-{dt}", lambda tf, g=_attr(p): g(tf)(x(tf)), p in _INEXACT)
    for p in _BINARY:
        _add("ops.complex-sweep", f"{p}-{dt}", lambda tf, g=_attr(p): g(tf)(x(tf), x(tf)[::-1]), p in _INEXACT)
        _add("ops.complex-sweep", f"{p}-{dt}-python", lambda tf, g=_attr(p): g(tf)(x(tf), 1.5), p in _INEXACT)
    for p in _REDUCE:
        _add("ops.complex-sweep", f"{p}-{dt}", lambda tf, g=_attr(p): g(tf)(x(tf)), p in _INEXACT)
        _add("ops.complex-sweep", f"{p}-{dt}-axis", lambda tf, g=_attr(p): g(tf)(x(tf), axis=1), p in _INEXACT)
    for p in _SCAN:
        _add("ops.complex-sweep", f"{p}-{dt}", lambda tf, g=_attr(p): g(tf)(x(tf), axis=1), p in _INEXACT)
    for sym, fn in _OPERATORS.items():
        _add("ops.complex-sweep", f"op{sym}-{dt}", lambda tf, f=fn: f(x(tf), x(tf)), sym in _INEXACT)
        if sym != "@":
            _add("ops.complex-sweep", f"op{sym}-{dt}-python", lambda tf, f=fn: f(x(tf), 2 + 1j), sym in _INEXACT)
    for name, prog in [
        ("neg", lambda tf: -x(tf)), ("invert", lambda tf: ~x(tf)), ("abs()", lambda tf: abs(x(tf))),
        ("argmax", lambda tf: tf.argmax(x(tf))), ("argmin", lambda tf: tf.argmin(x(tf))),
        ("reshape", lambda tf: tf.reshape(x(tf), [4])), ("transpose-conjugate", lambda tf: tf.transpose(x(tf), conjugate=True)),
        ("matrix-transpose-conjugate", lambda tf: tf.linalg.matrix_transpose(x(tf), conjugate=True)),
        ("expand_dims", lambda tf: tf.expand_dims(x(tf), 0)), ("squeeze", lambda tf: tf.squeeze(tf.expand_dims(x(tf), 0))),
        ("concat", lambda tf: tf.concat([x(tf), x(tf)], 0)), ("stack", lambda tf: tf.stack([x(tf), x(tf)])),
        ("tile", lambda tf: tf.tile(x(tf), [2, 1])), ("reverse", lambda tf: tf.reverse(x(tf), [1])),
        ("slice", lambda tf: tf.slice(x(tf), [0, 1], [2, 1])), ("gather", lambda tf: tf.gather(x(tf), [1, 0, 1])),
        ("gather_nd", lambda tf: tf.gather_nd(x(tf), [[1, 0]])),
        ("where", lambda tf: tf.where([[True, False], [False, True]], x(tf), x(tf) * 2)),
        ("where-coordinates", lambda tf: tf.where(x(tf))), ("pad", lambda tf: tf.pad(x(tf), [[1, 0], [0, 1]])),
        ("pad-constant", lambda tf: tf.pad(x(tf), [[1, 0], [0, 1]], constant_values=1 + 1j)),
        ("pad-reflect", lambda tf: tf.pad(x(tf), [[1, 0], [0, 1]], mode="REFLECT")),
        ("split", lambda tf: tf.split(x(tf), 2)), ("unstack", lambda tf: tf.unstack(x(tf))),
        ("broadcast_to", lambda tf: tf.broadcast_to(x(tf), [2, 2, 2])),
        ("boolean_mask", lambda tf: tf.boolean_mask(x(tf), [True, False])),
        ("index", lambda tf: x(tf)[1, ::-1]), ("shape", lambda tf: tf.shape(x(tf))), ("size", lambda tf: tf.size(x(tf))),
        ("strided_slice", lambda tf: tf.strided_slice(x(tf), [0, 0], [2, 2], [1, 2])),
        ("repeat", lambda tf: tf.repeat(x(tf), 2, axis=0)), ("fill", lambda tf: tf.fill([2], x(tf)[0, 0])),
        ("zeros_like-dtype", lambda tf: tf.zeros_like(tf.constant([1.0]), dtype=getattr(tf, dt))),
        ("ones", lambda tf: tf.ones([2], getattr(tf, dt))), ("zeros", lambda tf: tf.zeros([2], getattr(tf, dt))),
        ("eye", lambda tf: tf.eye(2, dtype=getattr(tf, dt))), ("one_hot", lambda tf: tf.one_hot([0, 1], 2, dtype=getattr(tf, dt))),
        ("clip_by_value", lambda tf: tf.clip_by_value(x(tf), 0, 1)), ("sort", lambda tf: tf.sort(x(tf))),
        ("argsort", lambda tf: tf.argsort(x(tf))), ("top_k", lambda tf: tf.math.top_k(x(tf))),
        ("bias_add", lambda tf: tf.nn.bias_add(x(tf), x(tf)[0])), ("add_n", lambda tf: tf.add_n([x(tf), x(tf)])),
        ("matmul-adjoint_a", lambda tf: tf.matmul(x(tf), x(tf), adjoint_a=True)),
        ("matmul-adjoint_b", lambda tf: tf.matmul(x(tf), x(tf), adjoint_b=True)),
        ("matmul-transpose_b", lambda tf: tf.matmul(x(tf), x(tf), transpose_b=True)),
        ("batch-matmul-adjoint", lambda tf: tf.matmul(tf.stack([x(tf), x(tf)]), x(tf), adjoint_a=True)),
        ("tensordot", lambda tf: tf.tensordot(x(tf), x(tf), 1)), ("matvec", lambda tf: tf.linalg.matvec(x(tf), x(tf)[0])),
        ("einsum", lambda tf: tf.einsum("ij,jk->ik", x(tf), x(tf))), ("einsum-sum", lambda tf: tf.einsum("ij->j", x(tf))),
        ("leaky_relu", lambda tf: tf.nn.leaky_relu(x(tf))),
        ("segment_sum", lambda tf: tf.math.segment_sum(x(tf), [0, 0])), ("segment_max", lambda tf: tf.math.segment_max(x(tf), [0, 0])),
        ("segment_mean", lambda tf: tf.math.segment_mean(x(tf), [0, 1])), ("segment_prod", lambda tf: tf.math.segment_prod(x(tf), [0, 0])),
        ("unsorted_segment_sum", lambda tf: tf.math.unsorted_segment_sum(x(tf), [1, 0], 2)),
        ("unsorted_segment_prod", lambda tf: tf.math.unsorted_segment_prod(x(tf), [1, 1], 2)),
        ("unsorted_segment_mean", lambda tf: tf.math.unsorted_segment_mean(x(tf), [1, 1], 2)),
        ("unsorted_segment_sqrt_n", lambda tf: tf.math.unsorted_segment_sqrt_n(x(tf), [1, 1], 2)),
        ("unsorted_segment_max", lambda tf: tf.math.unsorted_segment_max(x(tf), [1, 1], 2)),
        ("sequence_mask", lambda tf: tf.sequence_mask(x(tf))),
        ("complex-of-parts", lambda tf: tf.complex(tf.math.real(x(tf)), tf.math.imag(x(tf)))),
        ("unique", lambda tf: tf.unique(tf.reshape(x(tf), [4]))), ("roll", lambda tf: tf.roll(x(tf), 1, 0)),
        ("scatter_nd", lambda tf: tf.scatter_nd([[0], [1]], x(tf), [3, 2])),
        ("tensor_scatter_nd_add", lambda tf: tf.tensor_scatter_nd_add(x(tf), [[0]], x(tf)[:1])),
        ("dynamic_partition", lambda tf: tf.dynamic_partition(x(tf), [0, 1], 2)),
        ("variable-times-2", lambda tf: tf.Variable(x(tf)) * 2),
        ("variable-assign_add", lambda tf: tf.Variable(x(tf)).assign_add(x(tf)).read_value()),
        ("div-by-zero", lambda tf: x(tf) / tf.zeros_like(x(tf))), ("div-by-large", lambda tf: x(tf) / (x(tf) * 1e200)),
        ("abs-large", lambda tf: tf.abs(x(tf) * 1e200)), ("tanh-large", lambda tf: tf.tanh(x(tf) * 100)),
        ("exp-large", lambda tf: tf.exp(x(tf) * 100)),
        ("slogdet", lambda tf: tf.linalg.slogdet(x(tf))), ("cholesky", lambda tf: tf.linalg.cholesky(_hpd(tf, dt))),
        ("logdet", lambda tf: tf.linalg.logdet(_hpd(tf, dt))),
        ("triangular_solve", lambda tf: tf.linalg.triangular_solve(x(tf), x(tf))),
        ("triangular_solve-adjoint", lambda tf: tf.linalg.triangular_solve(x(tf), x(tf), adjoint=True)),
        ("solve-adjoint", lambda tf: tf.linalg.solve(x(tf), x(tf), adjoint=True)),
        ("inv-adjoint", lambda tf: tf.linalg.inv(x(tf), adjoint=True)),
        ("qr", lambda tf: tf.linalg.qr(x(tf))), ("eigvalsh", lambda tf: tf.linalg.eigvalsh(_hpd(tf, dt))),
        ("svd-values", lambda tf: tf.linalg.svd(x(tf), compute_uv=False)), ("sqrtm", lambda tf: tf.linalg.sqrtm(_hpd(tf, dt))),
        ("lstsq", lambda tf: tf.linalg.lstsq(x(tf), x(tf))), ("expm", lambda tf: tf.linalg.expm(x(tf))),
        ("pinv", lambda tf: tf.linalg.pinv(x(tf))), ("matrix_rank", lambda tf: tf.linalg.matrix_rank(x(tf))),
        ("set_diag", lambda tf: tf.linalg.set_diag(x(tf), x(tf)[0])), ("tensor_diag", lambda tf: tf.linalg.tensor_diag(x(tf)[0])),
        ("normalize", lambda tf: tf.linalg.normalize(x(tf))[0]),
        ("cross", lambda tf: tf.linalg.cross(tf.constant([1 + 1j, 2, 3j], getattr(tf, dt)), tf.constant([1j, 2, 3], getattr(tf, dt)))),
        ("eig", lambda tf: tf.linalg.eig(x(tf))), ("eig-batch", lambda tf: tf.linalg.eig(tf.stack([x(tf), -x(tf)]))),
        ("eigvals-of-real", lambda tf: tf.linalg.eigvals(tf.math.real(x(tf)))),
        ("eig-of-float16", lambda tf: tf.linalg.eig(tf.cast(tf.math.real(x(tf)), tf.float16))),
        ("eig-nan", lambda tf: tf.linalg.eig(x(tf) * float("nan"))),
        ("eig-not-square", lambda tf: tf.linalg.eig(tf.concat([x(tf), x(tf)], 0))),
        ("complex-of-float16", lambda tf: tf.complex(tf.constant([1.0], tf.float16), tf.constant([1.0], tf.float16))),
        ("complex-of-mixed", lambda tf: tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64))),
        ("complex-broadcast", lambda tf: tf.complex(tf.constant([[1.0], [2.0]]), tf.constant([3.0, 4.0]))),
        ("real-of-bool", lambda tf: tf.math.real(tf.constant([True]))),
        ("conj-of-string", lambda tf: tf.math.conj(tf.constant(["a"]))),
        ("angle-of-float", lambda tf: tf.math.angle(tf.constant([-1.0, 2.0, float("nan")]))),
        ("imag-of-int", lambda tf: tf.math.imag(tf.constant([3, -1]))),
    ]:
        inexact = name in ("slogdet", "cholesky", "logdet", "triangular_solve", "triangular_solve-adjoint",
                           "solve-adjoint", "inv-adjoint", "qr", "eigvalsh", "svd-values", "sqrtm", "lstsq", "expm",
                           "eig", "eig-batch", "eigvals-of-real", "tanh-large", "exp-large", "normalize")
        _add("ops.complex-sweep", f"{name}-{dt}", prog, inexact)


def _hpd(tf: Any, dt: str) -> Any:
    """A Hermitian positive definite matrix: x x^H + I."""
    x = tf.constant(_Z, getattr(tf, dt))
    return tf.matmul(x, x, adjoint_b=True) + tf.eye(2, dtype=getattr(tf, dt))


for _dt in CDT:
    _sweep(_dt)

# -- complex division's bits (Eigen's pdiv_complex in packets, the C division in the scalar tail)
def _division(dt: str, n: int) -> Callable[[Any], Any]:
    rng = np.random.default_rng(1000 + n)
    x = (rng.standard_normal(n) * portable_inputs.pow10(rng.integers(-3, 3, n)) + 1j * rng.standard_normal(n)).astype(dt)
    y = (rng.standard_normal(n) * portable_inputs.pow10(rng.integers(-3, 3, n)) + 1j * rng.standard_normal(n)).astype(dt)
    y[::5] = 0
    y[1::7] = 1e-30 + 0j
    return lambda tf: tf.constant(x) / tf.constant(y)


for _dt in CDT:
    for _n in (2, 8, 11, 64, 67):
        # (the scalar tail, the last n % 4 complex64 or n % 2 complex128 quotients, is the compiler's
        # division: within 1 ulp of simdist's)
        _add("ops.complex-division", f"divide-{_dt}-{_n}", _division(_dt, _n),
             _n % (4 if _dt == "complex64" else 2) != 0)

# -- sums and means in Eigen's order (a mean then divides as RealDiv; a full mean's one quotient is the scalar
# division: within 1 ulp)
def _reduced(dt: str, shape: tuple[int, ...], axis: Any, how: str) -> Callable[[Any], Any]:
    rng = np.random.default_rng(2000 + len(shape) * 100 + sum(shape))
    a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return lambda tf: getattr(tf, how)(tf.constant(a), axis=axis)


for _dt in CDT:
    for _shape, _axis in (((64,), None), ((7,), None), ((33,), None), ((64, 64), 0), ((64, 64), 1), ((5, 9), 1),
                          ((3, 4, 5), 1), ((300,), None), ((2, 3), [0, 1])):
        for _how in ("reduce_sum", "reduce_mean", "reduce_prod"):
            _add("ops.complex-reductions", f"{_how}-{_dt}-{'x'.join(map(str, _shape))}-axis-{_axis}",
                 _reduced(_dt, _shape, _axis, _how), _how == "reduce_mean" and _axis in (None, [0, 1]))


# -- gradients under TF's conjugate convention (a real loss of complex Variables)
_GZ = np.array([[1 + 2j, -0.5 + 0.25j], [0.75 - 1j, 2 + 0.5j]])


def _grad(dt: str, f: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(_GZ.astype(dt))
        with tf.GradientTape() as tape:
            loss = f(tf, v)
        return tf.convert_to_tensor(tape.gradient(loss, v))   # (a gather's IndexedSlices as its dense value)
    return run


def _sq(g: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """The real loss sum(|g(z)|^2)."""
    return lambda tf, z: tf.reduce_sum(tf.abs(g(tf, z)) ** 2)


_GRADS: dict[str, Callable[[Any, Any], Any]] = {
    "abs-squared": lambda tf, z: tf.reduce_sum(tf.abs(z) ** 2),
    "real-of-square": lambda tf, z: tf.reduce_sum(tf.math.real(z * z)),
    "imag-of-square": lambda tf, z: tf.reduce_sum(tf.math.imag(z * z)),
    "angle": lambda tf, z: tf.reduce_sum(tf.math.angle(z)),
    "conj": lambda tf, z: tf.reduce_sum(tf.math.real(tf.math.conj(z) * 3j)),
    "mul": _sq(lambda tf, z: z * (1 - 2j)), "div-by": _sq(lambda tf, z: (1 + 1j) / z), "div": _sq(lambda tf, z: z / (2 - 1j)),
    "square": _sq(lambda tf, z: tf.square(z)), "sqrt": _sq(lambda tf, z: tf.sqrt(z)), "exp": _sq(lambda tf, z: tf.exp(z)),
    "log": _sq(lambda tf, z: tf.math.log(z)), "reciprocal": _sq(lambda tf, z: tf.math.reciprocal(z)),
    "rsqrt": _sq(lambda tf, z: tf.math.rsqrt(z)), "cube": _sq(lambda tf, z: z ** 3), "pow-z-z": _sq(lambda tf, z: tf.pow(z, z)),
    "sin": _sq(lambda tf, z: tf.sin(z)), "cos": _sq(lambda tf, z: tf.cos(z)), "tan": _sq(lambda tf, z: tf.math.tan(z)),
    "sinh": _sq(lambda tf, z: tf.sinh(z)), "cosh": _sq(lambda tf, z: tf.cosh(z)), "tanh": _sq(lambda tf, z: tf.tanh(z)),
    "sigmoid": _sq(lambda tf, z: tf.sigmoid(z)), "expm1": _sq(lambda tf, z: tf.math.expm1(z)),
    "log1p": _sq(lambda tf, z: tf.math.log1p(z)), "matmul": _sq(lambda tf, z: tf.matmul(z, z)),
    "matmul-adjoint": _sq(lambda tf, z: tf.matmul(z, z, adjoint_b=True)),
    "einsum": _sq(lambda tf, z: tf.einsum("ij,jk->ik", z, z)), "reduce_sum": _sq(lambda tf, z: tf.reduce_sum(z, 0)),
    "reduce_mean": _sq(lambda tf, z: tf.reduce_mean(z, 1)), "reduce_prod": _sq(lambda tf, z: tf.reduce_prod(z, 0)),
    "transpose-conjugate": _sq(lambda tf, z: tf.transpose(z, conjugate=True) * z),
    "complex-of-parts": lambda tf, z: tf.reduce_sum(tf.abs(tf.complex(tf.math.real(z) * 2, tf.math.imag(z))) ** 2),
    "sign": _sq(lambda tf, z: tf.sign(z)), "neg": _sq(lambda tf, z: -z), "sub": _sq(lambda tf, z: z - tf.reverse(z, [0])),
    "add_n": _sq(lambda tf, z: tf.add_n([z, z * 1j])), "gather": _sq(lambda tf, z: tf.gather(z, [1, 1, 0])),
    "concat": _sq(lambda tf, z: tf.concat([z, z * 2j], 0)),
    "where": _sq(lambda tf, z: tf.where([[True, False], [False, True]], z, z * z)),
    "squared_difference": lambda tf, z: tf.reduce_sum(tf.math.real(tf.math.squared_difference(z, 1 + 1j))),
    "l2_normalize": _sq(lambda tf, z: tf.math.l2_normalize(z, 1)), "norm": lambda tf, z: tf.math.real(tf.norm(z)),
    "eigvals": lambda tf, z: tf.reduce_sum(tf.abs(tf.linalg.eigvals(z))),
    "eig": lambda tf, z: tf.reduce_sum(tf.math.real(tf.linalg.eig(z)[0] ** 2)),
}
for _dt in CDT:
    for _name, _f in _GRADS.items():
        _add("ops.complex-gradients", f"grad-{_name}-{_dt}", _grad(_dt, _f),
             _name not in ("abs-squared", "real-of-square", "imag-of-square", "conj", "neg", "sub", "gather", "concat",
                           "add_n", "reduce_sum", "complex-of-parts", "where", "squared_difference"))
    _add("ops.complex-gradients", f"grad-real-parts-{_dt}", lambda tf, dt=_dt: _parts_grad(tf, dt), True)
    _add("ops.complex-gradients", f"grad-real-eigvals-{_dt}", lambda tf, dt=_dt: _real_eig_grad(tf, dt), True)


def _parts_grad(tf: Any, dt: str) -> Any:
    """Real Variables through tf.complex: the gradients of each part."""
    rdt = tf.float32 if dt == "complex64" else tf.float64
    a, b = tf.Variable([1.5, -2.0], dtype=rdt), tf.Variable([0.5, 3.0], dtype=rdt)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(tf.complex(a, b) ** 2 + tf.complex(b, a)))
    return tape.gradient(loss, [a, b])


def _real_eig_grad(tf: Any, dt: str) -> Any:
    """The eigenvalues of a real matrix (their gradient is real: the cast of the complex one)."""
    v = tf.Variable(np.array([[1.0, -3.5, 0.5], [0.25, 2.0, 1.0], [0.5, 0.0, -1.0]]),
                    dtype=tf.float32 if dt == "complex64" else tf.float64)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(tf.linalg.eigvals(v)))
    return tape.gradient(loss, v)


# --- comparison -------------------------------------------------------------------------------------------
_RTOL = {"complex64": 4e-6, "float32": 4e-6, "complex128": 8e-15, "float64": 8e-15}


def _parts(a: np.ndarray) -> list[np.ndarray]:
    return [a.real.copy(), a.imag.copy()] if a.dtype.kind == "c" else [a]


def _bits(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Bit for bit, real and imaginary parts each (any NaN matches any NaN)."""
    out = np.ones(got.size, bool)
    for g, w in zip(_parts(got.reshape(-1)), _parts(want.reshape(-1))):
        out &= np.asarray(edge_compare.bits_agree(g, w), bool).reshape(-1)
    return out.reshape(got.shape)


def _close(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Within _RTOL of the output's largest finite magnitude (parts each; NaN with NaN, equal infinities)."""
    tol = _RTOL.get(want.dtype.name)
    if tol is None:
        return _bits(got, want)
    out = np.ones(got.shape, bool)
    for g, w in zip(_parts(got), _parts(want)):
        x, y = np.asarray(g, np.float64), np.asarray(w, np.float64)
        finite = np.isfinite(y)
        scale = max(1.0, float(np.max(np.abs(want[np.isfinite(want)]), initial=0.0)))
        with np.errstate(invalid="ignore"):
            out &= (finite & np.isfinite(x) & (np.abs(x - y) <= tol * scale)) | (np.isnan(x) & np.isnan(y)) | \
                (np.isinf(y) & (x == y))
    return out


EDGES = edge_compare.EdgeModule(__file__, [c[:3] for c in CASES],
                                agree=lambda case: _close if _INEXACT_IDS.get(case[0]) else _bits)
_INEXACT_IDS = {c[0]: c[3] for c in CASES}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import logging

    import tensorflow as tf
    logging.getLogger("tensorflow").setLevel(logging.ERROR)   # (casts' warnings about the imaginary part)
    return {k: EDGES.outcome(tf, k) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


_COVERED: list[str] = []
# the default run's slice of the long groups (every case runs under `-m slow`): every 6th case of the
# sweep, every 4th gradient (the module's 872 cases take ~20 s on a loaded machine)
_SLICE = {"ops.complex-sweep": 6, "ops.complex-gradients": 4}


def _cases(group: str) -> Any:
    """The parametrization of a test function over `group`'s cases, those outside the slice slow."""
    ks = [k for k, case in enumerate(CASES) if case[1] == group]
    assert ks, f"no case of group {group}"
    _COVERED.append(group)
    every = _SLICE.get(group, 1)
    return pytest.mark.parametrize("k", [pytest.param(k, id=CASES[k][0], marks=() if j % every == 0 else pytest.mark.slow)
                                         for j, k in enumerate(ks)])


@clause("ops.complex")
@_cases("ops.complex-dtype")
def test_dtype(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@_cases("ops.complex-conversion")
def test_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@_cases("ops.complex-casts")
def test_casts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@_cases("ops.complex-sweep")
def test_sweep(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@_cases("ops.complex-division")
def test_division_bits(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@_cases("ops.complex-reductions")
def test_sums_and_means(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@_cases("ops.complex-gradients")
def test_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = sorted({case[1] for case in CASES} - set(_COVERED))
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_complex_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)

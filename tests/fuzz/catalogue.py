"""The fuzzer's op table: which facade functions a random program may call, how to make their
arguments, and whether their float results are bit-exact across backends.

`exact` ops are correctly rounded IEEE arithmetic, comparisons, selections and data movement:
TF and simdist must agree bit for bit. The others (transcendentals, float reductions and
products, whose summation order is the backend's own) are compared within a tolerance, and
their float results never feed later calls, so a last-bit difference cannot grow into a
false disagreement downstream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

FLOATS = ("float16", "float32", "float64")
INTS = ("int8", "uint8", "int32", "int64")
NUMERIC = FLOATS + INTS
ALL = NUMERIC + ("bool",)
SIGNED = FLOATS + ("int8", "int32", "int64")


@dataclass(frozen=True)
class Op:
    """One callable of the facade: `sig` says how the generator builds its arguments
    ("u" unary, "b" binary, "r" reduction over an axis, "x" custom in programs.py)."""
    name: str
    sig: str
    call: Callable[..., Any]
    dtypes: tuple[str, ...]
    exact: bool = True


def _path(path: str) -> Callable[..., Any]:
    def call(tf: Any, *args: Any, **kw: Any) -> Any:
        f = tf
        for part in path.split("."):
            f = getattr(f, part)
        return f(*args, **kw)
    call.__name__ = path
    return call


def _u(name: str, dtypes: tuple[str, ...], exact: bool = True) -> Op:
    return Op(name, "u", _path(name), dtypes, exact)


def _b(name: str, dtypes: tuple[str, ...], exact: bool = True) -> Op:
    return Op(name, "b", _path(name), dtypes, exact)


def _r(name: str, dtypes: tuple[str, ...], exact: bool = True) -> Op:
    return Op(name, "r", _path(name), dtypes, exact)


def _x(name: str, dtypes: tuple[str, ...], exact: bool = True) -> Op:
    return Op(name, "x", _path(name), dtypes, exact)


_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b, "&": lambda a, b: a & b,
    "|": lambda a, b: a | b, "^": lambda a, b: a ^ b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b,
}


def operator(symbol: str) -> Callable[..., Any]:
    fn = _OPERATORS[symbol]

    def call(tf: Any, a: Any, b: Any) -> Any:
        return fn(a, b)
    call.__name__ = f"operator{symbol}"
    return call


OPS: list[Op] = [
    # unary, exact
    *[_u(n, SIGNED) for n in ("math.negative", "math.abs", "math.sign", "math.square")],
    *[_u(n, FLOATS) for n in ("math.floor", "math.ceil", "math.round", "math.sqrt", "nn.relu6", "nn.softsign")],
    _u("math.reciprocal", FLOATS, exact=False),   # TF's float32 Reciprocal is rcpps + a Newton step: 1/2 is 0.49999997
    _u("nn.relu", NUMERIC), _u("math.logical_not", ("bool",)), _u("bitwise.invert", INTS),
    *[_u(n, FLOATS) for n in ("math.is_nan", "math.is_inf", "math.is_finite")],
    *[_u(n, ALL) for n in ("zeros_like", "ones_like", "identity", "stop_gradient")],
    # unary, transcendental
    *[_u(n, FLOATS, exact=False) for n in (
        "math.exp", "math.log", "math.log1p", "math.expm1", "math.tanh", "math.sigmoid", "math.sin", "math.cos",
        "math.tan", "math.atan", "math.asinh", "math.erf", "math.lgamma", "math.softplus", "nn.elu", "nn.selu",
        "math.log_sigmoid", "nn.softmax", "nn.log_softmax", "math.rsqrt")],
    # binary, exact (add/sub/mul/div are correctly rounded in both)
    *[_b(n, NUMERIC) for n in ("math.add", "math.subtract", "math.multiply", "math.maximum", "math.minimum",
                               "math.floordiv", "math.floormod", "math.less", "math.less_equal", "math.greater",
                               "math.greater_equal", "math.squared_difference")],
    *[_b(n, ALL) for n in ("math.equal", "math.not_equal")],
    _b("math.divide", NUMERIC), _b("math.truediv", NUMERIC), _b("math.divide_no_nan", FLOATS),
    *[_b(n, ("bool",)) for n in ("math.logical_and", "math.logical_or", "math.logical_xor")],
    *[_b(n, INTS) for n in ("bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor")],
    *[Op(f"operator{s}", "b", operator(s), NUMERIC) for s in ("+", "-", "*", "/", "//", "%", "<", ">=")],
    *[Op(f"operator{s}", "b", operator(s), INTS + ("bool",)) for s in ("&", "|", "^")],
    Op("operator**", "b", operator("**"), FLOATS, exact=False), _b("math.pow", FLOATS, exact=False),
    # reductions
    *[_r(n, NUMERIC) for n in ("reduce_max", "reduce_min", "argmax", "argmin")],
    *[_r(n, ("bool",)) for n in ("reduce_any", "reduce_all")],
    *[_r(n, NUMERIC, exact=False) for n in ("reduce_sum", "reduce_prod", "reduce_mean", "cumsum", "math.cumprod")],
    *[_r(n, FLOATS, exact=False) for n in ("math.reduce_euclidean_norm", "math.reduce_variance", "math.reduce_std",
                                           "math.reduce_logsumexp", "math.cumulative_logsumexp")],
    # shape and data movement (custom argument builders in programs.py)
    *[_x(n, ALL) for n in ("reshape", "transpose", "expand_dims", "squeeze", "concat", "stack", "tile",
                           "reverse", "slice", "gather", "where", "pad", "split", "unstack", "broadcast_to",
                           "boolean_mask", "cast")],
    _x("clip_by_value", NUMERIC), _x("one_hot", ("int32", "int64", "uint8")),
    *[_x(n, NUMERIC) for n in ("sort", "argsort", "math.top_k")],
    _x("matmul", ("float32", "float64", "int32", "int64", "float16"), exact=False),
    _x("einsum", ("float32", "float64", "int32"), exact=False),
    _x("nn.leaky_relu", FLOATS), _x("nn.bias_add", NUMERIC), _x("add_n", ALL, exact=False),
    *[_x(n, NUMERIC, exact=n.endswith(("max", "min"))) for n in (
        "math.segment_sum", "math.segment_mean", "math.segment_max", "math.segment_min", "math.segment_prod",
        "math.unsorted_segment_sum", "math.unsorted_segment_max", "math.unsorted_segment_min",
        "math.unsorted_segment_mean", "math.unsorted_segment_prod", "math.unsorted_segment_sqrt_n")],
]

# issue 29's ops (simdist/runtime/ops/xfunctions.py, truncation.py, counting.py, diag.py, special.py)
OPS += [
    *[_u(n, FLOATS, exact=False) for n in ("math.asin", "math.acos", "math.acosh", "math.atanh", "math.erfc")],
    _u("math.rint", ("float32", "float64")),
    *[_b(n, FLOATS, exact=False) for n in ("math.xlogy", "math.xdivy", "math.xlog1py", "math.atan2")],
    _b("math.multiply_no_nan", FLOATS), _b("realdiv", FLOATS), _b("math.mod", NUMERIC),
    _b("truncatediv", NUMERIC), _b("truncatemod", ("int32", "int64", "float32", "float64")),
    _r("math.count_nonzero", ALL),
    *[_x(n, ALL) for n in ("unique", "unique_with_counts", "linalg.diag_part", "linalg.diag")],
    _x("math.bincount", ("int32", "int64")), _x("math.in_top_k", ("float32",)),
    _x("dtypes.saturate_cast", NUMERIC),
]

BY_NAME = {op.name: op for op in OPS}

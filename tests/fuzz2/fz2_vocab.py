"""The second fuzzer's vocabulary: which facade callables an expression tree may use, how their
arguments are drawn (`kind`), which dtypes are preferred (other dtypes are tried on purpose, for
the acceptance tables), and whether a float result is bit-exact across backends.

Kinds: "u" unary elementwise, "b" binary elementwise (with a broadcasting partner, a Python or
NumPy scalar or a nested list), "r" reduction (axis None/int/negative/list/tuple, keepdims),
"s" scan (axis, exclusive, reverse), "o" Python operator, "x" a custom builder in fz2_trees.py.
Independent of tests/fuzz/catalogue.py on purpose (another generator's blind spots), and wider:
every dtype simdist has (int16, uint16, uint32, uint64, bfloat16 too), Variables as operands,
`name=` and `dtype=` keywords, indexing.
"""

from __future__ import annotations

from dataclasses import dataclass

FL = ("float16", "bfloat16", "float32", "float64")
UINT = ("uint8", "uint16", "uint32", "uint64")
SINT = ("int8", "int16", "int32", "int64")
INT = SINT + UINT
REAL = FL + INT
ALLD = REAL + ("bool",)
SIGNED = FL + SINT


@dataclass(frozen=True)
class Fn:
    """A callable: `path` under `tf.` (or an operator symbol for kind "o"), preferred dtypes, and
    `exact`: float results bit for bit ("int" = exact only for integer/bool results)."""
    path: str
    kind: str
    dtypes: tuple[str, ...]
    exact: object = True


def _many(kind: str, paths: str, dtypes: tuple[str, ...], exact: object = True) -> list[Fn]:
    return [Fn(p, kind, dtypes, exact) for p in paths.split()]


VOCAB: list[Fn] = [
    *_many("u", "math.abs math.negative math.sign math.square abs negative sign square", SIGNED),
    *_many("u", "math.floor math.ceil math.round math.rint floor round sqrt math.sqrt nn.relu6 nn.softsign", FL),
    *_many("u", "nn.relu math.is_nan math.is_inf math.is_finite", FL + ("int32", "int64")),
    *_many("u", "zeros_like ones_like identity stop_gradient", ALLD),
    *_many("u", "math.logical_not logical_not", ("bool",)),
    *_many("u", "bitwise.invert", INT),
    *_many("u", "math.exp exp math.log math.log1p math.expm1 math.tanh tanh math.sigmoid sigmoid math.sin sin "
                "math.cos cos math.tan math.atan math.asinh math.sinh math.cosh math.erf math.erfc math.lgamma "
                "math.digamma math.softplus nn.elu nn.selu nn.gelu nn.silu nn.swish math.log_sigmoid nn.softmax "
                "nn.log_softmax math.rsqrt math.reciprocal math.asin math.acos math.acosh math.atanh "
                "math.l2_normalize", FL, exact=False),
    *_many("b", "math.add add math.subtract subtract math.multiply multiply math.maximum maximum math.minimum "
                "minimum math.floordiv math.floormod truncatediv truncatemod math.mod "
                "math.squared_difference math.divide divide truediv realdiv", REAL),
    *_many("b", "math.divide_no_nan math.multiply_no_nan", FL),
    *_many("b", "math.equal equal math.not_equal not_equal", ALLD),
    *_many("b", "math.less less math.less_equal less_equal math.greater greater math.greater_equal greater_equal",
           REAL),
    *_many("b", "math.logical_and logical_and math.logical_or logical_or math.logical_xor", ("bool",)),
    *_many("b", "bitwise.bitwise_and bitwise.bitwise_or bitwise.bitwise_xor bitwise.left_shift bitwise.right_shift",
           INT),
    *_many("b", "math.pow pow math.atan2 atan2 math.xlogy math.xdivy math.xlog1py", FL, exact=False),
    *_many("o", "+ - * / // % < <= > >= == !=", REAL),
    *_many("o", "& | ^", INT + ("bool",)),
    Fn("**", "o", FL, exact=False),
    *_many("o", "neg ~ abs()", REAL),
    *_many("r", "reduce_max reduce_min math.reduce_max", REAL),
    *_many("r", "reduce_any reduce_all math.reduce_any", ("bool",)),
    *_many("r", "reduce_sum reduce_prod reduce_mean math.reduce_sum math.reduce_mean", REAL, exact="int"),
    *_many("r", "math.reduce_euclidean_norm math.reduce_variance math.reduce_std reduce_logsumexp", FL, exact=False),
    *_many("r", "math.count_nonzero", ALLD),
    *_many("s", "cumsum math.cumsum math.cumprod", REAL, exact="int"),
    *_many("s", "math.cumulative_logsumexp", FL, exact=False),
    *_many("x", "argmax argmin math.argmax", REAL),
    *_many("x", "reshape transpose expand_dims squeeze concat stack tile reverse slice gather where pad split "
                "unstack broadcast_to boolean_mask cast index shape size rank gather_nd strided_slice "
                "linalg.matrix_transpose repeat fill zeros_like_dtype", ALLD),
    *_many("x", "clip_by_value saturate_cast sort argsort math.top_k nn.bias_add add_n", REAL),
    *_many("x", "one_hot sequence_mask", ("int32", "int64", "uint8")),
    *_many("x", "matmul linalg.matmul @ tensordot linalg.matvec linalg.trace einsum", REAL, exact="int"),
    *_many("x", "nn.leaky_relu", FL),
    *_many("x", "math.segment_max math.segment_min math.unsorted_segment_max math.unsorted_segment_min", REAL),
    *_many("x", "math.segment_sum math.segment_mean math.segment_prod math.unsorted_segment_sum "
                "math.unsorted_segment_mean math.unsorted_segment_prod math.unsorted_segment_sqrt_n", REAL,
           exact="int"),
]

BY_PATH = {f.path: f for f in VOCAB}

"""Rules behind the classes of issue 29's campaigns that fz37b ran (fresh seeds 1420373001..3 of the
fourteenth generator, 3701 and 3702 of the fourth, 3705 of the second, 3703 of the third), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit for
bit), or raises the same exception class. Eagerly, in a tf.function (`traced`, a one-expression
body) and through an input_signature (`sig`). Needs the `tf` extra.

The pooling cases use float64 and float16 where TF's own kernels run on every x86 host, and float32
where oneDNN runs it: the reference host and this session's Intel host (ops.host-cpu); on a host
without oneDNN a float32 AvgPool takes the float64 row's order.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_AE = "ops.argument-errors"
_T = "function.trace-time-errors"
_S = "function.symbolic-tensors"


def _both(expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) eagerly and traced."""
    return [("", _eager(expr)), (" traced", _traced(expr))]


def _calls(body: str, arg: str, n: int = 2, spec: tuple | None = None, var: str | None = None,
           tape: bool = False) -> Callable[[Any], Any]:
    """`def g(x):` with `body` (lines joined by ';'; a variable `v` made by `var` first) as a
    tf.function (an input_signature of `spec`, get_concrete_function first), called n times with
    `arg`: the list of results (a failed call: its error's class name), then `v`'s value when there
    is one; under a GradientTape if `tape`."""
    def run(tf: Any) -> Any:
        env: dict = {"tf": tf, "np": np}
        if var is not None:
            env["v"] = eval(var, env)  # noqa: S307 - our own text
        exec("def g(x):\n" + "".join(f"    {line.strip()}\n" for line in body.split(";")), env)  # noqa: S102
        sig = None if spec is None else [tf.TensorSpec(spec[0], getattr(tf, spec[1]))]
        f = tf.function(env["g"], input_signature=sig, autograph=False)
        if sig is not None:
            f.get_concrete_function()
        x = eval(arg, env)  # noqa: S307 - our own text
        def call() -> Any:
            try:
                return f(x)
            except Exception as e:  # noqa: BLE001 - each call's outcome: its error's class
                return type(e).__name__
        if tape:
            with tf.GradientTape():
                out = [call() for _ in range(n)]
        else:
            out = [call() for _ in range(n)]
        return out + ([env["v"].read_value()] if var is not None else [])
    return run


def _args4(params: str, body: str, dtype: str = "float32") -> Callable[[Any], Any]:
    """`def g(<params>): return <body>` as a tf.function, called with the four values 1e8, 3, -1e8, 5 of
    `dtype` in six orders (distinct tensors): the results."""
    def run(tf: Any) -> Any:
        env: dict = {"tf": tf, "np": np}
        exec(f"def g({params}):\n    return {body}\n", env)  # noqa: S102 - our own text
        f = tf.function(env["g"], autograph=False)
        vals = [tf.constant(v, getattr(tf, dtype)) for v in (1e8, 3.0, -1e8, 5.0)]
        n = len(params.split(","))
        orders = ((0, 1, 2, 3), (1, 0, 2, 3), (2, 3, 0, 1), (3, 2, 1, 0), (1, 3, 0, 2), (0, 2, 3, 1))
        return [f(*[tf.identity(vals[i]) for i in o[:n]]) for o in orders]
    return run


def _pool(op: str, dtype: str, rank: int, ksize: list, strides: Any = 1) -> str:
    shape = [1, 3, 3, 2] if rank == 4 else [1, 3, 3, 3, 2] if rank == 5 else [3, 3, 2]
    return f"tf.nn.{op}(tf.zeros({shape}, tf.{dtype}), ksize={ksize}, strides={strides}, padding='SAME')"


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- a window entry below 1 (fourteenth generator seed 1420373001 #4: max_pool of ksize [0, 3, 1, 2], strides
    # [3], InvalidArgumentError where simdist raised the batch's UnimplementedError): MaxPoolingOp and oneDNN's
    # pools refuse it in their constructor before the batch, TF's own AvgPoolingOp after it, Pooling3DOp as
    # "non-negative dimensions" where the batch or depth refusal would come
    ("max_pool of seed 1420373001 #4 traced", _AE, _traced(
        "tf.math.erfinv(tf.nn.max_pool(tf.zeros([0, 3, 1, 2], tf.float64), ksize=np.array([0, 3, 1, 2], np.int64), "
        "strides=np.array([3], np.int64), padding='SAME'))")),
    *[(f"{op} {dt} rank {r} ksize {k} strides {s}{sfx}", _AE, run)
      for op, dt, r, k, s in (
          ("max_pool2d", "float64", 4, [2, 0, 1, 1], 1), ("max_pool2d", "float64", 4, [1, 0, 1, 1], [2, 1, 1, 1]),
          ("max_pool2d", "float16", 4, [0, 1, 1, 1], 1), ("max_pool2d", "float32", 4, [2, 1, 1, 0], 1),
          ("max_pool2d", "float64", 3, [2, 0, 1, 1], 1), ("max_pool2d", "float64", 4, [2, 1, 1, 1], [1, 0, 1, 1]),
          ("max_pool2d", "float64", 4, [1, 0, 1, 2], 1),
          ("avg_pool2d", "float32", 4, [2, 0, 1, 1], 1), ("avg_pool2d", "float32", 3, [1, 0, 1, 1], [2, 1, 1, 1]),
          ("avg_pool2d", "float64", 4, [2, 0, 1, 1], 1), ("avg_pool2d", "float64", 4, [1, 0, 1, 1], 1),
          ("avg_pool2d", "float64", 3, [1, 0, 1, 1], 1), ("avg_pool2d", "float16", 4, [1, 1, 1, 0], [1, 1, 1, 2]),
          ("max_pool3d", "float32", 5, [2, 0, 1, 1, 1], 1), ("max_pool3d", "float32", 5, [1, 0, 1, 1, 1], 1),
          ("max_pool3d", "float32", 5, [1, 1, 1, 1, 0], 1), ("max_pool3d", "float32", 5, [1, 0, 1, 1, 1], [2, 1, 1, 1, 1]),
          ("max_pool3d", "float32", 5, [2, 1, 1, 1, 1], 1),
          ("avg_pool3d", "float32", 5, [2, 0, 1, 1, 1], 1), ("avg_pool3d", "float32", 5, [1, 1, 1, 1, 0], 1))
      for sfx, run in _both(_pool(op, dt, r, k, s))],
]

_IGC = "tf.math.igammac(a=np.array([np.nan, -1.5, 1.0, 3e38], np.float16), x=np.array({x}, np.float32))"
CASES += [
    # -- a graph checks an op's dtype and shapes when it builds the node and looks its kernel up when it runs:
    # LRN of float64 is op_def_library's TypeError before the rank (seed 1420373001 #130); Igammac of half (no CPU
    # kernel) meets its broadcast shape function at trace first (seed 1420373001 #247)
    ("sig [3] float64: lrn of seed 1420373001 #130", _T, _sig("tf.nn.lrn(x)", ([3], "float64"),
                                                              "tf.constant([-0.0, 0.25, 2.5], tf.float64)")),
    ("sig [3] bfloat16: lrn", _T, _sig("tf.nn.lrn(x)", ([3], "bfloat16"), "tf.constant([0.0, 0.25, 2.5], tf.bfloat16)")),
    *[(f"igammac(half [4], float32 {x}){sfx}", _T, run) for x in ("[]", "[1.0, 2.0, 3.0]", "[1.0, 2.0, 3.0, 4.0]")
      for sfx, run in (*_both(_IGC.format(x=x)), (" sig", _sig(_IGC.format(x=x), ([], "float32"), "1.0")))],
    ("sig [None]: igammac(x, x + 1) of half", _T, _sig("tf.math.igammac(x, tf.zeros([2], tf.float16))",
                                                       ([None], "float16"), "tf.ones([3], tf.float16)")),
]

_Z3 = "tf.constant(np.zeros((3, 0), np.int32))"
CASES += [
    # -- a symbolic tensor's rank: -1 where the graph does not know it (fourth generator seed 3702 #174)
    ("sig None: x.ndim of seed 3702 #174", _S, _sig("x.ndim", (None, "float32"), "tf.constant([0.5, -2.0, -7.25])")),
    ("sig [None]: x.ndim", _S, _sig("x.ndim", ([None], "float32"), "tf.constant([0.5, -2.0])")),
    ("sig None: (x.ndim, x.shape.rank)", _S, _sig("(x.ndim, x.shape.rank)", (None, "int32"), "tf.constant([[1]])")),
    # -- eagerly _autopacking_helper packs a nested list whose elements are all tensors as it is, an empty one too:
    # Pack of N=0 (third generator seed 3703 #291); a graph's helper returns the empty list
    *[(f"stack({e}){sfx}", "ops.conversion", run) for e in (
        "[tf.constant(np.zeros((3, 0, 3), np.int32)), [[], [], []]]", f"[{_Z3}, []]", f"[[], {_Z3}]",
        "[tf.zeros([1], tf.int32), [[]], [1]]", "[tf.zeros([3]), [1.0, 2.0, 3.0], []]", "[tf.zeros([2]), [[]]]",
        f"[{_Z3}, [[], [], []]], axis=1", f"[{_Z3}, [[1], [2], [3]]]", "[[[], [], []], [[], [], []]]")
      for sfx, run in _both(f"tf.stack({e})")],
    ("tf.constant([tensor, []])", "ops.conversion", _eager("tf.constant([tf.zeros([0]), []])")),
    # -- a Python int beyond int64 as bool: the bool converter gives up and the int64 inference's ValueError comes
    # first (fourteenth generator seed 1420373004 #115: `-(2 ** 63) ** bool_variable`); within int64 TypeError
    *[(f"{e}{sfx}", "ops.conversion", run) for e in (
        "-(2 ** 63) ** tf.Variable([True, False])", "(2 ** 63) - tf.constant([True])", "tf.constant([True]) * 2 ** 64", "tf.constant([True]) + -(2 ** 63) - 1", "2 ** 63 * tf.constant([True])",
        "(-(2 ** 63) - 1) + tf.constant([True])", "(2 ** 63 - 1) + tf.constant([True])", "5 ** tf.constant([True])",
        "tf.constant(2 ** 63, tf.bool)", "tf.convert_to_tensor([1, 2 ** 64], tf.bool)",
        "tf.convert_to_tensor([2 ** 64, 1.5], tf.bool)", "tf.convert_to_tensor([1.5, 2 ** 64], tf.bool)",
        "tf.convert_to_tensor([[1], [2 ** 64]], tf.bool)", "tf.constant(2 ** 63, tf.int32)")
      for sfx, run in _both(e)],
]

_V4 = "tf.Variable([-3.4e38, np.nan, 7.0, 1e300], dtype=tf.float64)"
_U = "np.ones((4, 4, 1, 2), np.float32)"
_NAN_RANGE = "tf.range(np.float32(2), delta=float('nan'))"
_C64 = "tf.constant(np.ones((4, 2, 3, 2), np.complex64))"
CASES += [
    # -- graph-build order: op_def_library's types, then the shape function, the kernel when the graph runs
    *[(name, _T, run) for name, run in (
        ("unsorted_segment_mean of a variable, then svd, of seed 1420373003 #230", _calls(
            "y = tf.math.unsorted_segment_mean(v, [4], num_segments=np.int64(2)); return tf.linalg.svd(y)", "1.0",
            var=_V4)),
        ("unsorted_segment_mean of ids not a prefix", _calls(
            "return tf.math.unsorted_segment_mean(x, [1], num_segments=2)", "tf.constant([1.0, 2.0, 3.0])")),
        ("unsorted_segment_mean of an id out of range", _calls(
            "return tf.math.unsorted_segment_mean(x, [4, 0, 1], num_segments=2)", "tf.constant([1.0, 2.0, 3.0])")),
        ("unused cumprod of a bfloat16 scalar variable, then a sampler, of seed 1420373003 #226", _calls(
            "y = tf.math.cumprod(v); return tf.random.uniform_candidate_sampler(true_classes=0.5, num_true=-1, "
            "num_sampled=1, unique=True, range_max=0, seed=1)", "1", var="tf.Variable(tf.constant(7.0, tf.bfloat16))")),
        ("unused cumsum of a scalar, then x + 1", _calls("y = tf.math.cumsum(x); return x + 1", "tf.constant(2.0)")),
        ("cumsum of a scalar returned", _calls("return tf.math.cumsum(x)", "tf.constant(2.0)")),
        ("cumprod(axis=1) of a vector used", _calls("return tf.math.cumprod(x, axis=1) * 2.0", "tf.constant([2.0])")),
        ("sig None: segment_sum of seed 3701 #45", _calls(
            "return tf.math.segment_sum(x, segment_ids=tf.constant([1, 0, 0]))",
            "tf.constant([[5, 2], [0, -1], [5, 3]], tf.int64)", spec=(None, "int64"))),
        ("sig None: segment_max of a scalar", _calls("return tf.math.segment_max(x, segment_ids=[0])",
                                                      "tf.constant(2.0)", spec=(None, "float32"))),
        ("sig None: segment_sum of a matrix", _calls("return tf.math.segment_sum(x, segment_ids=[0, 0])",
                                                      "tf.constant([[1.0], [2.0]])", spec=(None, "float32"))),
        ("segment_mean of a scalar traced", _calls("return tf.math.segment_mean(x, segment_ids=[0])",
                                                   "tf.constant(2.0)")),
        ("sig None: tensor_scatter_nd_min, then batch_normalization, of seed 1420373003 #223", _calls(
            f"y = tf.tensor_scatter_nd_min(tensor=x, indices=[4], updates={_U}); "
            f"return tf.nn.batch_normalization(y, -0.0, np.uint16(5), offset=0, scale={_U}.tolist(), "
            "variance_epsilon=np.float64(0.1))", "tf.zeros([4, 4, 1, 2], tf.bfloat16)", spec=(None, "bfloat16"))),
        ("sig None: tensor_scatter_nd_update, then a [3, 3] product", _calls(
            "y = tf.tensor_scatter_nd_update(x, [[9]], [1.0]); return y * tf.ones([3, 3])", "tf.zeros([2])",
            spec=(None, "float32"))),
        ("sig []: unused NaN range, then truncated_normal, of seed 1420373003 #172", _calls(
            f"y = {_NAN_RANGE}; return tf.ones([1], tf.float64)", "1.0", spec=([], "float32"))),
        ("unused NaN range", _calls(f"y = {_NAN_RANGE}; return x", "1.0")),
        ("NaN range returned", _calls(f"return {_NAN_RANGE}", "1.0")),
        ("sig []: NaN range returned", _calls(f"return {_NAN_RANGE}", "1.0", spec=([], "float32"))),
        ("NaN range's shape read", _calls(f"y = {_NAN_RANGE}; return len(y.shape)", "1.0")),
        ("tf.size of a NaN range", _calls(f"return tf.size({_NAN_RANGE})", "1.0")),
        ("sig [4, None, None, 2]: conv2d of complex64 of seed 1420373003 #106", _calls(
            f"return tf.nn.conv2d({_C64}, filters=True, strides=np.array([0], np.int64), padding='SAME')",
            "tf.zeros([4, 2, 3, 2], tf.bfloat16)", spec=([4, None, None, 2], "bfloat16"))),
        ("sig [1, 3, None, 3]: unused eig (seed 1420373006 #299), then a product", _calls(
            "y = tf.linalg.eig(x); return tf.ones([2]) * 3.0", "tf.ones([1, 3, 1, 3], tf.complex128)",
            spec=([1, 3, None, 3], "complex128"))),
        ("sig [1, 3, None, 3]: eig's eigenvalues returned", _calls(
            "return tf.linalg.eig(x)[0]", "tf.ones([1, 3, 1, 3], tf.complex128)", spec=([1, 3, None, 3], "complex128"))),
        ("sig [None, None]: unused eigvals, then x * 2", _calls(
            "y = tf.linalg.eigvals(x); return x * 2", "tf.ones([2, 3])", spec=([None, None], "float32"))),
        ("eig of a known non-square shape traced", _calls("y = tf.linalg.eig(x); return 1.0", "tf.ones([2, 3])")),
        ("einsum('ij->j') of a uint32 variable (no kernel; its list input) traced", _calls(
            "return tf.einsum('ij->j', v)", "1", var="tf.Variable(np.array([[9]], np.uint32))")),
        ("sig [None]: igammac of half vectors, kernel missing when it runs", _calls(
            "return tf.math.igammac(x, tf.ones([3], tf.float16))", "tf.ones([3], tf.float16)", spec=([None], "float16"))),
        ("conv2d of complex64 filters a vector traced", _calls(
            f"return tf.nn.conv2d({_C64}, filters=tf.ones([2], tf.complex64), strides=1, padding='SAME')", "1.0")),
    )],
]

CASES += [
    # -- eagerly the inputs' conversions before the NodeDef's attr values (seed 1420373003 #117)
    *[(name, "ops.attr-types", _eager(expr)) for name, expr in (
        ("conv2d_transpose of seed 1420373003 #117", "tf.nn.conv2d_transpose(tf.constant([-1, 3]), 1.0, "
         "output_shape=tf.constant([2], tf.int32), strides=tf.constant([0], tf.int32), padding='same', "
         "dilations=tf.TensorShape([2]))"),
        ("conv2d_transpose(int32, 1.0, padding='same')", "tf.nn.conv2d_transpose(tf.constant([-1, 3]), 1.0, "
         "output_shape=[2], strides=1, padding='same')"),
        ("conv2d_transpose(float32, float32, padding='same')", "tf.nn.conv2d_transpose(tf.zeros([1, 2, 2, 1]), "
         "tf.zeros([1, 1, 1, 1]), output_shape=[1, 2, 2, 1], strides=1, padding='same')"),
        ("conv2d of seed 1420373005 #167: strides a tensor, an int8 variable, a uint64 filter", "tf.nn.conv2d("
         "tf.Variable(np.ones((3, 4, 2, 4), np.int8)), tf.constant(np.ones((4, 2, 4, 4), np.uint64)), "
         "tf.constant([3, 4, 2, 4], tf.int32), 'same', dilations=(3, 4, 2, 4))"),
        ("conv2d: strides an int, an int8 variable, a uint64 filter", "tf.nn.conv2d(tf.Variable(np.ones((3, 4, 2, 4), "
         "np.int8)), tf.constant(np.ones((4, 2, 4, 4), np.uint64)), 1, 'same')"),
        ("conv2d: strides a tensor, float32 input and filter", "tf.nn.conv2d(tf.ones([1, 3, 3, 1]), tf.ones([1, 1, 1, 1]),"
         " tf.constant([1, 1, 1, 1]), 'SAME')"),
        ("dilation2d of seed 1420373005 #59: an int32 variable, an int8 filter", "tf.nn.dilation2d(tf.Variable(np.ones("
         "(1, 1, 3, 3), np.int32)), tf.constant(np.ones((1, 1, 3), np.int8)), tf.TensorShape([2, 3]), 'VALID', "
         "data_format='NHWC', dilations=(1, 1, 3, 3))"),
        ("raw Dilation2D(int32 variable, int8 filter)", "tf.raw_ops.Dilation2D(input=tf.Variable(np.ones((1, 1, 3, 3), "
         "np.int32)), filter=tf.constant(np.ones((1, 1, 3), np.int8)), strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], "
         "padding='VALID')"),
        ("raw AddV2(int32 variable, int8 tensor)", "tf.raw_ops.AddV2(x=tf.Variable([1, 2]), y=tf.constant([1, 2], "
         "tf.int8))"),
        ("raw AddV2(int8 tensor, int32 variable)", "tf.raw_ops.AddV2(x=tf.constant([1, 2], tf.int8), "
         "y=tf.Variable([1, 2]))"),
        ("raw AddV2(int32 variable, [1.5])", "tf.raw_ops.AddV2(x=tf.Variable([1, 2]), y=[1.5, 2.5])"),
        *[(f"reduce {e}", e) for e in (
            "tf.math.reduce_sum([0, 3, 1], axis=1.0, keepdims=False, name='r')", "tf.math.reduce_sum([0, 3, 1], axis=0.5)",
            "tf.math.reduce_sum(tf.constant([0, 3, 1]), axis=1.0)", "tf.math.reduce_max(tf.constant([0, 3, 1]), axis=-1.0)",
            "tf.math.reduce_sum(tf.constant([0, 3, 1]), axis=[0.0])", "tf.math.reduce_prod(tf.constant([2, 3]), axis=[0.0])",
            "tf.math.reduce_sum(tf.constant([0, 3, 1]), axis=np.float32(0.0))",
            "tf.math.reduce_min([[1, 2], [3, 4]], axis=np.float32(1.7))", "tf.math.reduce_mean(tf.ones([2, 3]), axis=1.0)",
            "tf.math.reduce_any(tf.constant([True]), axis=0.0)", "tf.math.reduce_sum(tf.constant([1, 2]), axis=[0, 1.0])")],
        ("fftnd of seed 1420373006 #273", "tf.fftnd(True, np.array([3], dtype=np.int64), axes=0, name='op')"),
        ("fftnd(True, [3], axes=[0]): the fallback", "tf.fftnd(True, [3], axes=[0])"),
        ("fftnd(1.5, ndarray, 0)", "tf.fftnd(1.5, np.array([3], np.int32), axes=0)"),
        ("raw FFT(input=True)", "tf.raw_ops.FFT(input=True)"),
        ("raw FFT(input=1.5)", "tf.raw_ops.FFT(input=1.5)"),
        ("raw Cos(x=True)", "tf.raw_ops.Cos(x=True)"),
        ("raw RFFT(input=True, fft_length=ndarray)", "tf.raw_ops.RFFT(input=True, fft_length=np.array([2], np.int32))"),
        ("conv2d_transpose(float32, int64 ndarray, padding='same')", "tf.nn.conv2d_transpose(tf.zeros([1, 2, 2, 1]),"
         " np.zeros([1, 1, 1, 1], np.int64), output_shape=[1, 2, 2, 1], strides=1, padding='valid')"),
    )],
]

CASES += [(f"traced: {e}", "ops.attr-types", _traced(e)) for e in (
    "tf.math.reduce_sum(tf.constant([0, 3, 1]), axis=[0.0])", "tf.math.reduce_sum([0, 3, 1], axis=1.0)",
    "tf.math.reduce_sum(tf.constant([0, 3, 1]), axis=np.float32(0.0))")]

CASES += [
    # -- the inputs of an AddN Grappler leaves (a user's, or AddOpsRewrite's) sorted by node name: arguments by
    # their placeholders' names (the open class of fz35b/fz36b, function.grappler-rewrites)
    *[(name, "function.grappler-rewrites", _args4(params, body, dt)) for name, params, body, dt in (
        ("((x + y) + z) + w", "x, y, z, w", "((x + y) + z) + w", "float32"),
        ("((b + a) + d) + c", "b, a, d, c", "((b + a) + d) + c", "float32"),
        ("add_n([x, y, z, w])", "x, y, z, w", "tf.add_n([x, y, z, w])", "float32"),
        ("add_n([z, y, x])", "x, y, z", "tf.add_n([z, y, x])", "float32"),
        ("(x + y) + x", "x, y", "(x + y) + x", "float32"),
        ("(x1 + x10) + (x2 + x0) float16", "x1, x10, x2, x0", "(x1 + x10) + (x2 + x0)", "float16"),
        ("(y + x) + z bfloat16", "x, y, z", "(y + x) + z", "bfloat16"),
        ("(x + y) * z, no AddN", "x, y, z", "(x + y) * z", "float32"),
    )],
]

_CX_A = ("tf.constant(np.array([[-0.0 + 0.5j, 1 + 0.25j, 1 + 1j], [1 + 2.5j, 1 + 3e38j, 0 - 1.5j]], np.complex64))")
_CX_B = ("tf.constant(np.array([[3e38 + 3e38j, 1 - 0j], [-1.5 + 0.25j, 1j], [1 + 2.5j, complex(np.nan, np.nan)]], "
         "np.complex64))")


def _cx(shape: tuple, dtype: str, seed: int, inf: bool) -> str:
    """A complex matrix of `shape` as an expression: seeded parts, normal or drawn from infinities, NaN
    and 3e38 (`inf`), each part set apart (no complex product makes them)."""
    rng = np.random.default_rng(seed)
    pool = [0.0, -0.0, 1.0, 2.5, -1.5, np.inf, -np.inf, np.nan, 3e38, 0.5] if inf else None
    def part() -> list:
        if pool is None:
            return np.round(rng.standard_normal(shape), 6).tolist()
        return [[pool[int(i)] for i in row] for row in rng.integers(0, len(pool), shape)]
    return (f"tf.complex(tf.constant({part()}, tf.float{32 if dtype == 'complex64' else 64}), "
            f"tf.constant({part()}, tf.float{32 if dtype == 'complex64' else 64}))").replace("inf", "np.inf") \
        .replace("nan", "np.nan")


CASES += [
    # -- complex products of Eigen's GEBP shapes (m, n, k >= 2): four real sums, then alpha's complex product
    # (the complex-GEMM class of fz36b: fourteenth generator seed 1420363005 #235, third generator fz3_known)
    ("complex64 2x3 @ 3x2 with 3e38, inf and NaN parts", "ops.complex", _eager(f"tf.matmul({_CX_A}, {_CX_B})")),
    ("complex64 2x3 @ 3x2 with 3e38, inf and NaN parts, traced twice", "ops.complex",
     lambda tf: (lambda f: [f(), f()])(tf.function(lambda: tf.matmul(eval(_CX_A, {"tf": tf, "np": np}),
                                                                       eval(_CX_B, {"tf": tf, "np": np}))))),
    *[(f"{dt} {m}x{k} @ {k}x{n} {'non-finite' if inf else 'normal'} #{seed}{sfx}", "ops.complex", run)
      for dt in ("complex64", "complex128") for (m, k, n), inf, seed in (
          ((2, 3, 2), True, 1), ((3, 2, 4), True, 2), ((4, 5, 3), True, 3), ((2, 2, 2), False, 4),
          ((3, 7, 4), False, 5), ((8, 33, 8), False, 6), ((3, 1, 2), True, 7), ((1, 3, 2), True, 8))
      for sfx, run in _both(f"tf.matmul({_cx((m, k), dt, seed, inf)}, {_cx((k, n), dt, seed + 100, inf)})")],
    ("complex128 batch [2] of 2x3 @ 3x2 non-finite", "ops.complex", _eager(
        f"tf.matmul(tf.stack([{_cx((2, 3), 'complex128', 9, True)}, {_cx((2, 3), 'complex128', 10, True)}]), "
        f"{_cx((3, 2), 'complex128', 11, True)})")),
    ("complex64 2x3 @ 3x2 with adjoint_b, non-finite", "ops.complex", _eager(
        f"tf.matmul({_cx((2, 3), 'complex64', 12, True)}, {_cx((2, 3), 'complex64', 13, True)}, adjoint_b=True)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_pool_window_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_graph_build_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.symbolic-tensors")
@EDGES.parametrize("function.symbolic-tensors")
def test_symbolic_ndim(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_autopacked_empty_list(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_add_n_inputs_by_name(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_gebp(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_conversions_before_attr_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz37b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

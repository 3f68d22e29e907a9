"""Rules behind the classes of issue 29's campaigns that fz35b ran (fresh seeds 1420353001..3 of the
fourteenth generator, 3501 and 3502 of the fourth), each against real TensorFlow 2.21: the same call
on both backends gives the same dtype and values (bit for bit), or raises the same exception class.
Eagerly and in a tf.function (`traced`, a one-expression body). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers
from simdist.runtime import host_cpu

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_C = "ops.conversion"
_AT = "ops.attr-types"
_T = "function.trace-time-errors"
_R = "ops.random-arguments"
_H = "ops.host-cpu"

_V = "tf.Variable(np.array([0.0, 0.0, 0.0999755859375], np.float16))"   # (the fourth generator's #96 variable)
_F16 = "tf.constant(2.5, tf.float16)"
_H3 = "tf.constant([1.0, 2.0, 3.0], tf.float16)"


def _both(expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) eagerly and traced."""
    return [("", _eager(expr)), (" traced", _traced(expr))]


def _of_v(expr: str) -> Callable[[Any], Any]:
    """`expr` eagerly, of a float16 variable `v` of 3 made first."""
    def run(tf: Any) -> Any:
        v = eval(_V, {"tf": tf, "np": np})  # noqa: S307 - our own text
        tf.constant(1.0) + 1.0   # (a first op: TF's very first call in a process takes the slow path)
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text
    return run


def _of_v_traced(expr: str) -> Callable[[Any], Any]:
    """`expr` of the variable `v` inside a tf.function (AutoGraph off), called once."""
    def run(tf: Any) -> Any:
        v = eval(_V, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np, "v": v}), autograph=False)()  # noqa: S307
    return run


def _with_var(var: str, expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) of `expr` of a variable `v` made by `var`: eagerly and in a tf.function."""
    def eager(tf: Any) -> Any:
        v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text

    def traced(tf: Any) -> Any:
        v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np, "v": v}), autograph=False)()  # noqa: S307
    return [("", eager), (" traced", traced)]


def _shape_text(expr: str) -> str:
    """`expr`'s static shape, as the graph knows it, in a string tensor."""
    return f"tf.constant(str({expr}.shape))"


def _of_c128(expr: str) -> Callable[[Any], Any]:
    """`expr` eagerly, of a complex128 variable `v` of 3 (the fourteenth generator's #149 variable)."""
    def run(tf: Any) -> Any:
        v = tf.Variable(np.array([5e-324 - 1.5j, -1.5, 0.25j], np.complex128))
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text
    return run


# tf.stack of a list holding a variable: array_ops.stack's whole-list conversion (autopacking), its Python axis
# checks with TF's operators, and Pack's fast path or eager fallback by the axis' type (fourth generator seed 3501 #96)
_STACK_OF_V = [
    ("stack([1, v], axis=tf.constant(0))", "tf.stack([1, v], axis=tf.constant(0))"),
    ("stack([1, v], axis=tf.Variable(0))", "tf.stack([1, v], axis=tf.Variable(0))"),
    ("stack([1, v], axis=tf.constant(1))", "tf.stack([1, v], axis=tf.constant(1))"),
    ("stack([ndarray float32, v], axis=tf.constant(1))", "tf.stack([np.float32([1, 2, 3]), v], axis=tf.constant(1))"),
    ("stack([ndarray float16, v], axis=tf.constant(1))", "tf.stack([np.float16([1, 2, 3]), v], axis=tf.constant(1))"),
    ("stack([v, 2], axis=tf.constant(-1))", "tf.stack([v, 2], axis=tf.constant(-1))"),
    ("stack([1, v], axis=0.7)", "tf.stack([1, v], axis=0.7)"),
    ("stack([v, 1.5], axis=np.float32(0.9))", "tf.stack([v, 1.5], axis=np.float32(0.9))"),
    ("stack([float16 [3], v], axis=tf.constant(1.9))", f"tf.stack([{_H3}, v], axis=tf.constant(1.9))"),
    ("stack([1, v], axis=tf.constant(1.9))", "tf.stack([1, v], axis=tf.constant(1.9))"),
    ("stack([v, 1.5], axis=np.int64(1))", "tf.stack([v, 1.5], axis=np.int64(1))"),
    ("stack([1, v], axis=tf.constant(True))", "tf.stack([1, v], axis=tf.constant(True))"),
    ("stack([1, v], axis=tf.constant([1]))", "tf.stack([1, v], axis=tf.constant([1]))"),
    ("stack([float16 [3], v], axis=tf.constant(1, uint8))", f"tf.stack([{_H3}, v], axis=tf.constant(1, tf.uint8))"),
    ("stack([[1.0, 2.0, 3.0], v])", "tf.stack([[1.0, 2.0, 3.0], v])"),
    ("stack([v, [1.0, 2.0, 3.0]])", "tf.stack([v, [1.0, 2.0, 3.0]])"),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[(name, _C, _of_v(expr)) for name, expr in _STACK_OF_V],
    *[(f"{name} traced", _C, _of_v_traced(expr)) for name, expr in _STACK_OF_V if "tf.constant(True)" not in expr
      and "tf.constant(0)" not in expr and "Variable(0)" not in expr],
    *[(f"{name}{s}", _C, run) for name, expr in (
        ("stack([1, float16])", f"tf.stack([1, {_F16}])"),
        ("stack([[float16], [1]])", f"tf.stack([[{_F16}], [1]])"),
        ("stack([[float16], [1]], axis=1)", f"tf.stack([[{_F16}], [1]], axis=1)"),
        ("stack([[1, float16], [float16, 2]], axis=-1)", f"tf.stack([[1, {_F16}], [{_F16}, 2]], axis=-1)"),
        ("stack([np.int64(3), float16])", f"tf.stack([np.int64(3), {_F16}])"),
        ("stack([1e40, float16])", f"tf.stack([1e40, {_F16}])"),
        ("stack([1e40, float16], axis=-1)", f"tf.stack([1e40, {_F16}], axis=-1)"),
        ("stack([float16, [1, 2]])", f"tf.stack([{_F16}, [1, 2]])"),
        ("stack([float16, 'a'])", f"tf.stack([{_F16}, 'a'])"),
        ("stack([int32, float16])", f"tf.stack([tf.constant(1), {_F16}])"),
        ("convert_to_tensor([1, float16])", f"tf.convert_to_tensor([1, {_F16}])"),
        ("convert_to_tensor([[float16, float16], [1]])", f"tf.convert_to_tensor([[{_F16}, {_F16}], [1]])"),
        # -- range converts each argument alone, then casts to the widest (seed 1420353001 #87)
        ("range(np.float64(0.1), delta=1e-6)", "tf.range(start=np.float64(0.1), delta=1e-6)"),
        ("range(0, np.float64(1.0), 0.1)", "tf.range(0, np.float64(1.0), 0.1)"),
        ("range(np.float16(0.1), 1, 0.3)", "tf.range(np.float16(0.1), 1, 0.3)"),
        ("range(1, 2.5, np.float64(0.1))", "tf.range(1, 2.5, np.float64(0.1))"),
        ("range(np.float64(0.5), 2**31 + 3)", "tf.range(np.float64(2**31 - 0.5), 2**31 + 3)"),
        # -- meshgrid multiplies with the operator, a logical and for bool (seed 1420353001 #97)
        ("meshgrid(True)", "tf.meshgrid(True)"),
        ("meshgrid([True, False], [False])", "tf.meshgrid([True, False], [False])"),
        ("meshgrid([True], [False, True], indexing='ij')", "tf.meshgrid([True], [False, True], indexing='ij')"),
    ) for s, run in _both(expr)],
    # -- the attrs a generated op checks before its inputs' conversion and its kernel (seeds 1420353001 #118, #159,
    # 1420353002 #204)
    *[(f"{name}{s}", _AT, run) for name, expr in (
        ("uint32 scalar @ bfloat16 scalar", "tf.constant(np.uint32(7)) @ tf.constant(0.001, dtype=tf.bfloat16)"),
        ("bfloat16 @ int32", "tf.constant([[0.001]], tf.bfloat16) @ tf.constant([[7]])"),
        ("float64 @ bfloat16", "tf.constant([[7.0]], tf.float64) @ tf.constant([[0.001]], tf.bfloat16)"),
        ("float16 @ bfloat16", "tf.constant([[7.0]], tf.float16) @ tf.constant([[0.001]], tf.bfloat16)"),
        ("int8 @ bfloat16", "tf.constant([[7]], tf.int8) @ tf.constant([[0.001]], tf.bfloat16)"),
        ("float32 @ bfloat16", "tf.constant([[7.0, -0.5]]) @ tf.constant([[0.001], [3.0]], tf.bfloat16)"),
        ("bfloat16 @ float32 (transpose_b)", "tf.linalg.matmul(tf.constant([[0.001, 2.0]], tf.bfloat16), "
                                             "tf.constant([[3.0, 0.25], [1.5, -1.0]]), transpose_b=True)"),
        ("as_string([[-0.0, 1e300]], scientific=1)", "tf.strings.as_string([[-0.0, 1e300]], precision=3, "
                                                     "scientific=1, shortest=1)"),
        ("as_string([1e300], width=2.5)", "tf.strings.as_string([1e300], width=2.5)"),
        ("as_string([1.5], fill=3)", "tf.strings.as_string([1.5], fill=3)"),
        ("space_to_batch_nd(complex64, TensorShape([]), float32 [])",
         "tf.space_to_batch_nd(tf.constant(complex(1e-40, 3e+38), dtype=np.complex64), tf.TensorShape([]), "
         "tf.constant([]))"),
        ("space_to_batch_nd(complex64, [], int32 [])",
         "tf.space_to_batch_nd(tf.constant(complex(1, 2), dtype=np.complex64), [], tf.constant([], tf.int32))"),
        ("space_to_batch_nd(complex64, float32 block, [])",
         "tf.space_to_batch_nd(tf.constant(complex(1, 2), dtype=np.complex64), tf.constant([]), [])"),
        ("batch_to_space(complex64 [4, 1, 1, 1], [2, 2], float32 crops)",
         "tf.batch_to_space(tf.ones([4, 1, 1, 1], tf.complex64), [2, 2], tf.constant([[0.0, 0.0], [0.0, 0.0]]))"),
    ) for s, run in _both(expr)],
    # -- an input's type before the attrs' list lengths; StridedSlice's vectors (seeds 1420353001 #54, 1420353002 #146)
    *[(f"{name}{s}", _T, run) for name, expr in (
        ("extract_volume_patches(complex64, ksizes=[])", "tf.extract_volume_patches(tf.constant(np.complex64(2.5 - "
                                                         "1.5j)), ksizes=[], strides=(), padding='SAME')"),
        ("extract_volume_patches(float32, ksizes=[])", "tf.extract_volume_patches(tf.constant([1.0, 2.0]), ksizes=[], "
                                                       "strides=(), padding='SAME')"),
        ("extract_volume_patches(bool, ksizes=[1] * 5, strides=3)",
         "tf.extract_volume_patches(tf.ones([1, 2, 2, 2, 1], tf.bool), ksizes=[1] * 5, strides=3, padding='SAME')"),
        ("strided_slice(begin=[[0]], end=[0])", "tf.strided_slice([[[0, 1], [0, -1]], [[0, -2147483648], [1, -1]]], "
                                                "begin=[[0]], end=[0])"),
        ("strided_slice(begin=[[1]], end=[[2]])", "tf.strided_slice([1, 2, 3], begin=[[1]], end=[[2]])"),
        ("strided_slice(strides=[[1]])", "tf.strided_slice([1, 2, 3], begin=[1], end=[2], strides=[[1]])"),
        ("strided_slice(begin=tf.constant(1), end=[2])", "tf.strided_slice([1, 2, 3], begin=tf.constant(1), end=[2])"),
        ("strided_slice(begin=[1], end=[2])", "tf.strided_slice([1, 2, 3], begin=[1], end=[2])"),
    ) for s, run in _both(expr)],
    # -- random bounds of any shape broadcast through `rnd * (maxval - minval) + minval` (seed 1420353001 #168)
    *[(f"{name}{s}", _R, run) for name, expr in (
        ("stateless_uniform([], maxval=float16 [1])", "tf.random.stateless_uniform([], minval=False, "
                                                      "maxval=np.array([0.5], dtype=np.float16), seed=[1, 2])"),
        ("stateless_uniform([2], minval=[0.0, 1.0])", "tf.random.stateless_uniform([2], minval=[0.0, 1.0], "
                                                      "maxval=2.0, seed=[3, 4])"),
        ("stateless_random_saturation(upper=float16 [1])",
         "tf.image.stateless_random_saturation(tf.ones([1, 1, 2, 3]), 0.5, upper=np.array([0.9], dtype=np.float16), "
         "seed=[1, 2])"),
        ("stateless_random_saturation(int32 image, upper=float16 [1])",
         "tf.image.stateless_random_saturation(tf.constant([[[[5], [5], [3], [-2147483648]]]]), False, "
         "upper=np.array([0.5], dtype=np.float16), seed=tf.constant([1, 2], tf.int32))"),
    ) for s, run in _both(expr)],
]

CASES += [
    # -- a dry run goes on past kernels' run-time checks; the trace's shape knowledge (seeds 1420353003 #83, #87,
    # #254, #33; third generator --ext8 seed 3503 #169, #212; the fz21 open class of random.fold_in)
    *[(f"{name}{s}", _T, run) for name, expr in (
        ("split(threefry) ** nan", "(lambda y: y ** float('nan'))(tf.random.split([0, 0], alg='threefry'))"),
        ("fold_in(rank-3 data, threefry)", "tf.random.fold_in([1, 2], tf.ones([2, 2, 2], tf.int32), alg='threefry')"),
        ("fold_in(3, threefry)", "tf.random.fold_in([1, 2], 3, alg='threefry')"),
        ("stateless_uniform(seed [[1, 2]], philox)", "tf.random.stateless_uniform([2], [[1, 2]], alg='philox')"),
        ("stateless_uniform(seed [], philox) + 'a'", "tf.random.stateless_uniform([2], tf.zeros([0], tf.int32), "
                                                   "alg='philox') + 'a'"),
        ("matmul(inf, np.bool_(False), adjoint_b=np.bool_(True), output_type=int64)",
         "tf.linalg.matmul(float('inf'), np.bool_(False), adjoint_b=np.bool_(True), output_type=tf.int64)"),
        ("matmul([2, 2], transpose_a=np.bool_(True), output_type=float64)",
         "tf.linalg.matmul(tf.ones([2, 2]), tf.ones([2, 2]), transpose_a=np.bool_(True), output_type=tf.float64)"),
        ("matmul([1, 2, 2], adjoint_a=np.bool_(True), output_type=float64)",
         "tf.linalg.matmul(tf.ones([1, 2, 2]), tf.ones([1, 2, 2]), adjoint_a=np.bool_(True), output_type=tf.float64)"),
        ("searchsorted(complex64 scalar, TensorProto)", "tf.searchsorted(np.complex64(complex(0.5, 1e+300)), "
                                                        "tf.make_tensor_proto(np.array([1, 2], np.complex64)))"),
        ("searchsorted(scalar, [1.0], side='bad')", "tf.searchsorted(1.0, [1.0], side='bad')"),
        ("searchsorted([1.0], scalar, side='bad')", "tf.searchsorted([1.0], 1.0, side='bad')"),
        ("searchsorted([1.0], [1.0], side='bad')", "tf.searchsorted([1.0], [1.0], side='bad')"),
        ("strings.to_number(['1'], out_type=int16)", "tf.strings.to_number(['1'], out_type=tf.int16)"),
        ("strings.to_number(['1'], out_type=bfloat16)", "tf.strings.to_number(['1'], out_type=tf.bfloat16)"),
    ) for s, run in _both(expr)],
    *[(f"{name}{s}", _T, run) for name, var, expr in (
        ("embedding_lookup(bool variable, [2], max_norm=1.0)", "tf.Variable(np.ones([2, 2, 3, 3], bool))",
         "tf.nn.embedding_lookup(v, [2], max_norm=1.0)"),
        ("gather(float32 variable, [5])", "tf.Variable(np.float32([1, 2]))", "tf.gather(v, [5])"),
        ("gather(float32 variable, [5]) + 'a'", "tf.Variable(np.float32([1, 2]))", "tf.gather(v, [5]) + 'a'"),
        # (a graph: the input's type, then the out_type attr, both TypeError; seed 1420353004 #24)
        ("strings.to_number(int16 variable, out_type=int16)", "tf.Variable(np.int16([[2], [0]]))",
         "tf.strings.to_number(v, out_type=tf.int16)"),
        ("strings.to_number(int16 variable, out_type=float32)", "tf.Variable(np.int16([[2], [0]]))",
         "tf.strings.to_number(v, out_type=tf.float32)"),
        ("strings.to_number(string variable, out_type=int16)", "tf.Variable(['1', '2'])",
         "tf.strings.to_number(v, out_type=tf.int16)"),
    ) for s, run in _with_var(var, expr)],
    *[(name, _T, _sig(expr, spec, arg)) for name, expr, spec, arg in (
        ("sig [0, None]: eigh_tridiagonal(reshape(x, [-1]), [])", "tf.linalg.eigh_tridiagonal(tf.reshape(x, [-1]), "
         "tf.constant([], dtype=tf.float32))", ([0, None], "float32"), "tf.zeros([0, 3])"),
        *[(f"sig {spec}: reshape(x, {tgt}).shape", _shape_text(f"tf.reshape(x, {tgt})"), (spec, "float32"),
           f"tf.zeros({[0 if d is None else d for d in spec]})")
          for spec, tgt in (([0, None], [-1]), ([0, None, None], [-1]), ([0, None], [-1, 2]), ([None, 0], [2, -1]),
                            ([None, 0], [0, -1]), ([None, 3], [-1]), ([0, None], [3, -1, 0]))],
        ("sig None: ctc_unique_labels(x)", "tf.nn.ctc_unique_labels(labels=x)", (None, "int64"),
         "tf.ones([1, 3, 4], tf.int64)"),
        ("sig None: map_fn(unique) of a matrix", "tf.map_fn(lambda r: tf.unique(r)[0], x)", (None, "int32"),
         "tf.ones([2, 3, 4], tf.int32)"),
        ("sig None: assert_rank(x, 5), then x + 1", "(tf.debugging.assert_rank(x, 5), x + 1)[1]", (None, "uint32"),
         "tf.constant(np.uint32([[[[0]]]]))"),
        ("sig None: assert_rank(x, 1), then x + 1", "(tf.debugging.assert_rank(x, 1), x + 1)[1]", (None, "uint32"),
         "tf.constant(np.uint32([0, 1]))"),
        ("sig None: assert_rank_at_least(x, 3)", "(tf.debugging.assert_rank_at_least(x, 3), x + 1)[1]",
         (None, "float32"), "tf.ones([2])"),
        ("sig None: assert_rank_in(x, [0, 3])", "(tf.debugging.assert_rank_in(x, [0, 3]), x + 1)[1]",
         (None, "float32"), "tf.ones([2])"),
        ("sig [2]: assert_rank(x, 5)", "(tf.debugging.assert_rank(x, 5), x + 1)[1]", ([2], "float32"), "tf.ones([2])"),
    )],
    # -- Conv3DBackpropInputV2's eager fallback when an input or attr leaves the fast path (seed 1420353003 #149)
    *[(name, _AT, _of_c128(expr)) for name, expr in (
        ("conv3d_transpose(complex128 variable, -(2**63), strides ndarray, NCHW)",
         "tf.nn.conv3d_transpose(v, filters=-(2 ** 63), output_shape=tf.constant([1, 2, 2], tf.int32), "
         "strides=np.array([1, 2, 2], dtype=np.int64), padding='same', data_format='NCHW')"),
        ("conv3d_transpose(complex128 variable, 1, output_shape list)",
         "tf.nn.conv3d_transpose(v, filters=1, output_shape=[1, 2, 2], strides=[1, 2, 2], padding='same', "
         "data_format='NCHW')"),
        ("conv3d_transpose(complex128 variable, -(2**63), output_shape list)",
         "tf.nn.conv3d_transpose(v, filters=-(2 ** 63), output_shape=[1, 2, 2], strides=[1, 2, 2], padding='SAME')"),
        ("conv3d_transpose(complex128 variable, 1, fast path)",
         "tf.nn.conv3d_transpose(v, filters=1, output_shape=tf.constant([1, 2, 2]), strides=[1, 2, 2], "
         "padding='SAME')"),
        ("conv3d_transpose(complex128 [2], 1, output_shape list)",
         "tf.nn.conv3d_transpose(tf.constant(np.complex128([1, 2])), filters=1, output_shape=[1, 2, 2], "
         "strides=[1, 2, 2], padding='SAME')"),
    )],
    # -- the 2-D convolution backprops' batch and depth strides on this host's kernels (oneDNN's
    # MklConvBackpropCommonOp: InvalidArgumentError; TF's own Conv2DBackpropInput: UnimplementedError)
    *[(f"{name} {dt}{s}", _H, run) for name, expr in (
        ("raw Conv2DBackpropInput(strides [1, 1, 2, 2])", "tf.raw_ops.Conv2DBackpropInput(input_sizes=[1, 4, 4, 2], "
         "filter=tf.ones([2, 2, 2, 2], tf.DT), out_backprop=tf.ones([1, 4, 4, 2], tf.DT), strides=[1, 1, 2, 2], "
         "padding='SAME')"),
        ("raw Conv2DBackpropFilter(strides [2, 1, 1, 1])", "tf.raw_ops.Conv2DBackpropFilter(input=tf.ones([1, 4, 4, 2], "
         "tf.DT), filter_sizes=[2, 2, 2, 2], out_backprop=tf.ones([1, 4, 4, 2], tf.DT), strides=[2, 1, 1, 1], "
         "padding='SAME')"),
        ("raw Conv2D(strides [1, 1, 2, 2])", "tf.raw_ops.Conv2D(input=tf.ones([1, 4, 4, 2], tf.DT), "
         "filter=tf.ones([2, 2, 2, 2], tf.DT), strides=[1, 1, 2, 2], padding='SAME')"),
        ("conv1d_transpose(strides [1, 2, 2])", "tf.nn.conv1d_transpose(tf.ones([1, 4, 1], tf.DT), "
         "tf.ones([2, 1, 1], tf.DT), [1, 8, 1], [1, 2, 2])"),
    ) for dt in ("float32", "bfloat16", "float16", "float64") for s, run in _both(expr.replace("tf.DT", f"tf.{dt}"))],
]

def _sums(expr: str, dt: str) -> Callable[[Any], Any]:
    """`expr` of arguments x, y, z, w [3, 2], s [] and r [2] of dtype `dt` (seeded values of mixed
    magnitudes) inside a tf.function: Grappler's AddOpsRewrite regroups the sum by shape."""
    def run(tf: Any) -> Any:
        rng = np.random.RandomState(0)

        def vals(shape: list[int]) -> Any:
            return tf.cast(tf.constant((rng.standard_normal(shape) * np.array([1, 1e-3, 1e3])[
                rng.randint(0, 3, size=shape)]).astype(np.float32)), getattr(tf, dt))
        args = [vals([3, 2]) for _ in range(4)] + [vals([]), vals([2])]
        f = tf.function(lambda x, y, z, w, s, r: eval(expr, {"tf": tf, "x": x, "y": y, "z": z, "w": w, "s": s,  # noqa: S307
                                                          "r": r}), autograph=False)
        return f(*args)
    return run


_G = "function.grappler-rewrites"
CASES += [
    # -- AddOpsRewrite (fourth generator seed 3502 #57: float16 `(x + 2.5) + x` is (x + x) + 2.5 in the graph)
    ("(x + 2.5) + x float16 [3, 2] of seed 3502 #57", _G, _traced("(lambda x: (x + 2.5) + x)(tf.constant(np.array("
     "[[float('inf'), 0.0999755859375], [0.0010004043579101562, 0.0999755859375], [3.0, 2.5]], np.float16)))")),
    *[(f"{expr} {dt}", _G, _sums(expr, dt)) for dt in ("float16", "float32", "bfloat16") for expr in (
        "(x + 2.5) + x", "x + (y + z)", "(x + s) + y", "(s + x) + (y + s)", "tf.add_n([x, y]) + z", "(x + x) + x",
        "((x + x) + x) + x", "(x + 0.1) + y", "(x + y) + 0.1", "(x + y) * 2 + z", "(x + r) + y", "(r + x) + (r + y)",
        "x + (r + 1.0)")],
]

CASES += [
    # -- AdjustContrastv2 of an empty image (fourteenth generator seed 1420353005 #45)
    *[(f"{name}{s}", "ops.image", run) for name, expr in (
        ("adjust_contrast(float64 [3, 3, 0], -1.0)", "tf.image.adjust_contrast(tf.zeros([3, 3, 0], tf.float64), -1.0)"),
        ("adjust_contrast(float32 [0, 3, 2], 2.0)", "tf.image.adjust_contrast(tf.zeros([0, 3, 2]), 2.0)"),
        ("adjust_contrast(float32 [2, 0, 3, 2], 2.0)", "tf.image.adjust_contrast(tf.zeros([2, 0, 3, 2]), 2.0)"),
        ("adjust_contrast(float32 [0, 3, 2], [2.0])", "tf.image.adjust_contrast(tf.zeros([0, 3, 2]), [2.0])"),
    ) for s, run in _both(expr)],
]

_EK = "ops.eigen-kernels"
_A2 = "tf.constant([[1.0, 0.0], [0.0, 2.0]])"
_B2 = "tf.constant([[np.inf, 1.0], [np.nan, 3.0]])"
CASES += [
    # -- SparseMatMul skips the zero entries of its sparse operand (third generator --ext8 seed 3503 #245)
    *[(f"{name}{s}", _EK, run) for name, expr in (
        ("matmul(a, b, a_is_sparse)", f"tf.linalg.matmul({_A2}, {_B2}, a_is_sparse=True)"),
        ("matmul(b, a, b_is_sparse)", f"tf.linalg.matmul({_B2}, {_A2}, b_is_sparse=True)"),
        ("matmul(a, b, both sparse)", f"tf.linalg.matmul({_A2}, {_B2}, a_is_sparse=True, b_is_sparse=True)"),
        ("matmul(a, b, a_is_sparse, transposed)", f"tf.linalg.matmul({_A2}, {_B2}, a_is_sparse=True, "
                                                  "transpose_a=True, transpose_b=True)"),
        ("matmul(bfloat16 a, float32 b, a_is_sparse)", f"tf.linalg.matmul(tf.cast({_A2}, tf.bfloat16), {_B2}, "
                                                       "a_is_sparse=True)"),
        ("matmul(bfloat16 a, bfloat16 b, a_is_sparse)", f"tf.linalg.matmul(tf.cast({_A2}, tf.bfloat16), "
                                                        f"tf.cast({_B2}, tf.bfloat16), a_is_sparse=True)"),
        ("matmul of seed 3503 #245", "tf.linalg.matmul(tf.constant([[0.0, 1e10, -np.inf], [1.0, 0.0, 3.0], "
         "[np.nan, 0.0, 0.5]]), tf.constant([[0.0, -1.0, -7.25], [0.5, float('inf'), -2.0], [float('nan'), -2.0, "
         "-2.0]]), a_is_sparse=True)"),
        ("matmul finite, a_is_sparse", "tf.linalg.matmul(tf.constant([[1.5, 0.0, -2.0]]), "
                                       "tf.constant([[1.0], [5.0], [0.25]]), a_is_sparse=True)"),
    ) for s, run in _both(expr)],
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_stack_range_and_meshgrid_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_attrs_before_inputs_and_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_input_types_and_slice_vectors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-arguments")
@EDGES.parametrize("ops.random-arguments")
def test_random_bounds_of_any_shape(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_backprop_strides_on_this_machine(k: int, tf_results: dict[int, Any]) -> None:
    tf_workers.skip_unless_golden_fits_this_cpu()
    with host_cpu.using("host"):   # (oneDNN's backprop kernels or TF's own: whichever this CPU runs)
        EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_sums_regrouped_by_shape(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.eigen-kernels")
@EDGES.parametrize("ops.eigen-kernels")
def test_sparse_matmul_skips_zeros(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image")
@EDGES.parametrize("ops.image")
def test_empty_images(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz35b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

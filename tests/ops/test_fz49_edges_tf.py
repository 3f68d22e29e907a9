"""Rules behind the disagreement classes fz49 closed (session 49: the fourteenth, twentieth, fourth, second and third
generators' seeds the last session did not reach, and fz14_known's open classes), each against real TensorFlow 2.21:
the same call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same
exception class. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


# --- Eagerly a raw op's string attr outside the op def's list is the NodeDef's InvalidArgumentError when the op runs,
# after every input's conversion: a conversion's TypeError comes first (fz14_known's ('call:nn.dilation2d',
# 'error-class'), fz47 seed 1420473003 #86: `tf.nn.dilation2d(int32 x, 1.0, padding='same', ...)` is TypeError
# "Cannot convert 1.0 to EagerTensor of dtype int32"; simdist raised the padding's InvalidArgumentError at the attr).
def _string_attr_cases() -> list[tuple[str, str, object]]:
    x = "tf.constant(np.ones((1, 3, 3, 1), np.int32))"
    xf = "tf.constant(np.ones((1, 3, 3, 1), np.float32))"
    calls = (
        f"tf.nn.dilation2d({x}, 1.0, strides=[], padding='same', data_format='NHWC', dilations=[2, 3])",
        f"tf.nn.dilation2d({x}, 1.0, strides=[1, 1, 1, 1], padding='same', data_format='NHWC', dilations=[1, 1, 1, 1])",
        f"tf.nn.dilation2d({x}, 'a', strides=[1, 1, 1, 1], padding='same', data_format='NHWC', dilations=[1, 1, 1, 1])",
        f"tf.nn.dilation2d({xf}, 1.0, strides=[1, 1, 1, 1], padding='same', data_format='NHWC', dilations=[1, 1, 1, 1])",
        f"tf.nn.dilation2d({x}, np.ones((1, 1, 1), np.int32), strides=[1, 1, 1, 1], padding='same', data_format='NHWC', "
        "dilations=[1, 1, 1, 1])",
        f"tf.raw_ops.Dilation2D(input={x}, filter=1.0, strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding='same')",
        f"tf.raw_ops.Dilation2D(input={xf}, filter=tf.constant(1.0, tf.float64), strides=[1, 1, 1, 1], "
        "rates=[1, 1, 1, 1], padding='same')",
        f"tf.raw_ops.MaxPool(input={x}, ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='same')",
        f"tf.raw_ops.MaxPool(input='abc', ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='same')",
        f"tf.raw_ops.Conv2D(input={xf}, filter=1, strides=[1, 1, 1, 1], padding='same', data_format='NCHW')",
        f"tf.raw_ops.Conv2D(input={x}, filter=1.5, strides=[1, 1, 1, 1], padding='same')",
        f"tf.raw_ops.AvgPool(value={x}, ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='same', data_format='x')",
    )
    out = [(c, "ops.raw-ops", _eager(c)) for c in calls]
    out += [(f"{c} in a tf.function", "ops.raw-ops", _traced(c)) for c in calls[:2] + calls[5:6] + calls[10:11]]
    return out


# --- StringToHashBucketStrong's key is a list(int) attr: a float in it makes the fast path give up (SetOpAttrList),
# and the fallback converts the input with dtype string, ValueError for a tensor of another dtype, where the fast path
# leaves it to the kernel's InvalidArgumentError (fz14 seed 1420483003 #106; simdist kept the fast path's class).
def _hash_key_cases() -> list[tuple[str, str, object]]:
    x = "tf.constant(np.array([-1.0, 0.001, 0.5], np.float64))"
    calls = (
        f"tf.strings.to_hash_bucket_strong(input={x}, num_buckets=3, key=[0.0, 7.0, 0.25])",
        f"tf.strings.to_hash_bucket_strong(input={x}, num_buckets=3, key=(0.0, 7.0, 0.25))",
        f"tf.strings.to_hash_bucket_strong(input={x}, num_buckets=0, key=[1.5, 7.9])",
        f"tf.strings.to_hash_bucket_strong(input={x}, num_buckets=3, key=[0, 7])",
        "tf.strings.to_hash_bucket_strong(input=tf.constant(['a', 'b']), num_buckets=3, key=[1.5, 7.9])",
        "tf.strings.to_hash_bucket_strong(input=1.5, num_buckets=3, key=[0.0, 7.0])",
        f"tf.raw_ops.StringToHashBucketStrong(input={x}, num_buckets=3, key=[1.5, 7.9])",
    )
    return [(c, "ops.string-hash-bucket", _eager(c)) for c in calls]


# --- tf.norm's matrix 2-norm with two axes naming one dimension (`axis=[-2, 0]` of a matrix): map_fn's
# perm_after gets elements of two shapes, ValueError eagerly (fz3 --ext8 seed 4703 #153); in a graph Svd's dtype,
# its rank and the final Squeeze's axes are checked at trace, the rest fails when the graph runs.
def _norm_cases() -> list[tuple[str, str, object]]:
    m = "tf.constant([[3.0, -0.0], [-0.001, -float('inf')]], dtype=tf.bfloat16)"
    m3 = "tf.ones([2, 3, 4])"
    calls = (
        f"tf.norm(tensor={m}, ord=2, axis=[-2, 0])",
        f"tf.norm(tensor=tf.cast({m}, tf.float32), ord=2, axis=[-2, 0])",
        f"tf.norm(tensor={m3}, ord=2, axis=[-3, 0])",
        f"tf.norm(tensor={m3}, ord=2, axis=[-1, 2])",
        f"tf.norm(tensor={m3}, ord=2, axis=[1, -2], keepdims=True)",
        f"tf.norm(tensor={m3}, ord=1, axis=[1, -2])",
        f"tf.norm(tensor={m3}, ord=2, axis=[-4, 0])",
        "tf.norm(tensor=tf.ones([2, 2], tf.complex64), ord=2, axis=[1, -1])",
        "tf.norm(tensor=tf.ones([3]), ord=2, axis=[0, -1])",
    )
    graph = (
        f"tf.norm(tensor={m3}, ord=2, axis=[1, -2])",
        f"tf.norm(tensor={m}, ord=2, axis=[0, 5])",
        f"tf.norm(tensor={m3}, ord=2, axis=[-4, 0])",
        f"(tf.norm(tensor={m3}, ord=2, axis=[1, -2]), tf.ones([2]))[1]",
        "tf.norm(tensor=tf.ones([3]), ord=2, axis=[0, -1])",
        f"tf.norm(tensor={m3}, ord=2, axis=[1, -2], keepdims=True) + 1",
        f"tf.norm(tensor={m3}, ord=2, axis=[1, 2], keepdims=True) + 1",
    )
    return [(c, "ops.linalg-more", _eager(c)) for c in calls] + \
        [(f"{c} in a tf.function", "ops.linalg-more", _traced(c)) for c in graph]


# --- Complex MatMul/BatchMatMulV2 read subnormal parts as zeros and flush the result's (DAZ/FTZ, as TF's complex
# Mul): fz3 --ext8 seed 4703 #100, a [3, 4, 2] @ [3, 2, 1] complex64 product whose 1e-40 part met -inf.
def _complex_matmul_cases() -> list[tuple[str, str, object]]:
    def c(v: str, dt: str = "np.complex64") -> str:
        return f"tf.constant(np.array({v}, {dt}))"
    a1, b1 = "[[complex(1e-40, -7.25), 3]]", "[[complex(0, -np.inf)], [1e10 + 3j]]"
    a2 = "[[complex(1e-40, -7.25), 3], [1, 1]]"
    b2 = "[[complex(0, -np.inf), 1], [1e10 + 3j, 1]]"
    calls = (
        f"tf.matmul({c(a1)}, {c(b1)})",
        f"tf.matmul({c(a2)}, {c(b1)})",
        f"tf.matmul({c('[' + a2 + '] * 3')}, {c('[' + b1 + '] * 3')})",
        f"tf.matmul({c(a2)}, {c(b2)})",
        f"tf.matmul({c(a1)}, {c(b2)})",
        f"tf.matmul({c('[[complex(1e-40, -7.25)], [1]]')}, {c('[[complex(0, -np.inf), 1]]')})",
        f"tf.matmul({c('[[1e-20 + 1e-20j, 1]]')}, {c('[[1e-20 + 0j], [0]]')})",
        f"tf.matmul({c('[[1e-20 + 1e-20j, 1], [1, 1]]')}, {c('[[1e-20 + 0j, 1], [0, 1]]')})",
        f"tf.matmul({c('[[complex(1e-310, -7.25), 3], [1, 1]]', 'np.complex128')}, "
        f"{c(b1, 'np.complex128')})",
        f"tf.matmul({c(a2)}, {c(b2)}, adjoint_a=True)",
        f"tf.linalg.matvec({c(a2)}, {c('[complex(0, -np.inf), 1e10 + 3j]')})",
    )
    return [(c_, "ops.complex", _eager(c_)) for c_ in calls] + \
        [(f"{c_} in a tf.function", "ops.complex", _traced(c_)) for c_ in calls[:2]]


# --- A reduction keeping dims whose constant indices all name dimensions of size 1 is constant folding's Identity in a
# graph, repeated indices included (fz3 --ext8 seed 4901 #113: l2_normalize(float16 [1, 3], [-2, 0]) in a tf.function;
# fz3_known's ('nn.moments', 'rejects'), seed 53 #193); eagerly, without keepdims, or with a dimension the graph does
# not know to be 1, the kernel's "Axes contains duplicate dimension".
def _repeated_axis_cases() -> list[tuple[str, str, object]]:
    h = "tf.constant([[-1.0, 5.960464477539063e-08, 0.0999755859375]], dtype=tf.float16)"
    z = "tf.constant(np.array([[-0.0, 1.0, 2.0]], np.float32))"
    traced = (
        f"tf.math.l2_normalize({h}, [-2, 0], -1.0)",
        f"tf.reduce_sum({z}, [0, 0], keepdims=True)",
        "tf.nn.moments(tf.constant([[[0.1]]], dtype=tf.bfloat16), (-2, 1))",
        "tf.reduce_mean(tf.constant(np.arange(12.0).reshape(2, 3, 2)), (-2, 1), keepdims=True)",
        f"tf.reduce_sum({z}, [0, 0])",
    )
    sigs = (
        ("tf.reduce_sum(x, [0, -2], keepdims=True)", ([1, 3], "int32"), "tf.constant([[1, 2, 3]])"),
        ("tf.reduce_max(x, [0, 0, 1], keepdims=True)", ([1, 1], "float32"), "tf.ones([1, 1])"),
        ("tf.reduce_prod(x, [0, 0], keepdims=True)", ([1, 3], "float32"), z),
        ("tf.reduce_any(x, [0, 0], keepdims=True)", ([1, 3], "bool"), "tf.constant([[True, False, True]])"),
        ("tf.reduce_sum(x, [0, 0], keepdims=True)", ([1, 3], "complex64"), "tf.ones([1, 3], tf.complex64)"),
        ("tf.reduce_sum(x, [0, 0], keepdims=True)", ([None, 3], "float32"), "tf.ones([1, 3])"),
        ("tf.reduce_sum(x, [0, 0, 1], keepdims=True)", ([1, 3], "float32"), "tf.ones([1, 3])"),
        ("tf.reduce_sum(x, [0, 0])", ([1, 3], "float32"), "tf.ones([1, 3])"),
        ("tf.math.reduce_logsumexp(x, [0, 0], keepdims=True)", ([1, 3], "float32"), "tf.ones([1, 3])"),
    )
    out = [(f"{c} in a tf.function", "function.grappler-rewrites", _traced(c)) for c in traced]
    out += [(f"{c} of {sp}({a})", "function.grappler-rewrites", _sig(c, sp, a)) for c, sp, a in sigs]
    out += [(c, "function.grappler-rewrites", _eager(c)) for c in traced[:2]]
    return out


# --- Conv1D channels-first expands the filter whatever its rank, so a scalar filter is Conv2D's "convolution filter
# must be 4-dimensional: [1]" before the NCHW refusal (fz14 seed 1420493001 #33); inside a tf.function MaxPool's
# input type comes before its padding and data_format strings (op_def_library; #60, #105).
def _conv_pool_cases() -> list[tuple[str, str, object]]:
    x3 = "tf.constant([[[-1.5, 0.5]], [[0.5, 1.0]], [[1e-40, 1e+300]]], dtype=tf.float64)"
    eager = (
        f"tf.nn.convolution({x3}, tf.constant(-1.5, dtype='float64'), data_format='NCHW')",
        "tf.nn.convolution(tf.ones([3, 1, 2]), tf.constant(-1.5), data_format='NCW')",
        "tf.nn.convolution(tf.ones([3, 1, 2]), tf.ones([1, 1]), data_format='NCW')",
        "tf.nn.convolution(tf.ones([3, 1, 2]), tf.ones([1, 1, 1]), data_format='NCHW')",
        "tf.nn.convolution(tf.ones([3, 1, 2]), tf.ones([1, 2, 1]), data_format='NCW')",
        "tf.nn.max_pool1d(tf.constant(np.ones((2, 4, 3), bool)), 3, strides=2, padding='same')",
    )
    traced = (
        "tf.nn.max_pool2d(tf.constant(np.zeros((0, 3, 1, 4), np.uint64)), [2, 1], [1, 1], padding='same', "
        "data_format='NWC')",
        "tf.nn.max_pool1d(tf.constant(np.ones((2, 4, 3), bool)), 3, strides=2, padding='same')",
        "tf.nn.max_pool1d(tf.ones([2, 4, 3]), 3, strides=2, padding='same')",
        "tf.nn.max_pool2d(tf.ones([1, 3, 3, 1]), [2, 1], [1, 1], padding='SAME', data_format='NWC')",
        "tf.nn.max_pool2d(tf.ones([1, 3, 3, 1], tf.uint16), [2, 1], [1, 1], padding='same')",
        f"tf.nn.convolution({x3}, tf.constant(-1.5, dtype='float64'), data_format='NCHW')",
    )
    sigs = (
        ("tf.nn.max_pool1d(x, (3,), strides=np.array([2, 4, 3], dtype=np.int64), padding='same', data_format='NWC')",
         ([2, 4, None], "bool"), "tf.constant(np.ones((2, 4, 3), bool))"),
        ("tf.nn.max_pool2d(x, tf.TensorShape([2, 0]), np.array([0, 3, 1, 4], dtype=np.int64), padding='same', "
         "data_format='NWC')", ([0, 3, None, None], "uint64"), "tf.constant(np.zeros((0, 3, 1, 4), np.uint64))"),
    )
    return [(c, "ops.nn-more", _eager(c)) for c in eager] + \
        [(f"{c} in a tf.function", "ops.nn-more", _traced(c)) for c in traced] + \
        [(f"{c} of {sp}({a})", "ops.nn-more", _sig(c, sp, a)) for c, sp, a in sigs]


# --- kaiser_window tests `tensor_util.constant_value(window_length) == 1`, which in a graph knows Const and a few ops,
# not FloorDiv or AddV2: kaiser_bessel_derived_window's `window_length // 2 + 1` takes the Bessel path there, whose
# bfloat16 BesselI0e has no CPU kernel (fz14_known's ('call:signal.kaiser_bessel_derived_window', 'accepts'), fz47
# seed 1420473002 #229); eagerly the value is known and a window of length 1 is ones.
def _kaiser_cases() -> list[tuple[str, str, object]]:
    calls = (
        "tf.signal.kaiser_bessel_derived_window(1, beta=float('nan'), dtype=tf.bfloat16)",
        "tf.signal.kaiser_bessel_derived_window(1, beta=12.0, dtype=tf.bfloat16)",
        "tf.signal.kaiser_bessel_derived_window(1, beta=12.0, dtype=tf.float32)",
        "tf.signal.kaiser_bessel_derived_window(3, beta=2.0, dtype=tf.float16)",
        "tf.signal.kaiser_window(1, beta=12.0, dtype=tf.bfloat16)",
        "tf.signal.kaiser_window(tf.constant(1), beta=12.0, dtype=tf.bfloat16)",
        "tf.signal.kaiser_window(tf.constant(0) + 1, beta=12.0, dtype=tf.float32)",
        "tf.signal.kaiser_window(tf.constant(0) + 1, beta=12.0, dtype=tf.bfloat16)",
        "tf.signal.kaiser_window(tf.cast(tf.constant(1.0), tf.int32), beta=12.0, dtype=tf.bfloat16)",
    )
    return [(c, "ops.signal-compositions", _eager(c)) for c in calls] + \
        [(f"{c} in a tf.function", "ops.signal-compositions", _traced(c)) for c in calls]


# --- bfloat16 Atan2 is glibc's atan2f on every element's float32 value (bit tests on the unflushed subnormal, then
# arithmetic under DAZ; fz3 --ext seed 4902 #160); UniqueWithCounts' out_idx list before the missing complex kernel
# (fz14 seed 1420493003 #11); DepthwiseConv2dNativeBackpropFilter's input type first in a graph (#24).
def _kernel_order_cases() -> list[tuple[str, str, object]]:
    d = "9.99994610111476e-41"
    ys = f"np.array([{d}, -{d}, {d}, {d}, 0.0, {d}, 1.0, 3.0, {d}, {d}, {d}], np.float32)"
    xs = f"np.array([0.0, 0.0, -0.0, 1.0, {d}, -{d}, {d}, 2.0, 0.0, {d}, 5.0], np.float32)"
    bf = f"tf.constant({ys}, dtype=tf.bfloat16), tf.constant({xs}, dtype=tf.bfloat16)"
    eager = (
        f"tf.math.atan2(*({bf}))",
        f"tf.math.atan2(*[v[:1] for v in ({bf})])",
        f"tf.math.atan2(tf.reshape(tf.constant({ys}, dtype=tf.bfloat16), [11, 1]), tf.constant({xs}, dtype=tf.bfloat16)[:3])",
        "tf.unique_with_counts(tf.constant(complex(-1.0, 2.5), dtype=tf.complex128), out_idx=tf.uint8)",
        "tf.unique_with_counts(tf.constant([complex(-1.0, 2.5)], dtype=tf.complex128), out_idx=tf.int32)",
        "tf.unique(tf.constant([complex(-1.0, 2.5)], dtype=tf.complex128), out_idx=tf.uint8)",
        "tf.nn.depthwise_conv2d_backprop_filter(-(2 ** 63), filter_sizes=-(2 ** 63), out_backprop=np.float32(0.0), "
        "strides=(1, 2, 2), padding='SAME')",
    )
    traced = (
        f"tf.math.atan2(*({bf}))",
        "tf.unique_with_counts(tf.constant([complex(-1.0, 2.5)], dtype=tf.complex128), out_idx=tf.uint8)",
        "tf.nn.depthwise_conv2d_backprop_filter(-(2 ** 63), filter_sizes=-(2 ** 63), out_backprop=np.float32(0.0), "
        "strides=(1, 2, 2), padding='SAME')",
        "tf.nn.depthwise_conv2d_backprop_filter(2 ** 40, filter_sizes=[1, 1, 1, 1], out_backprop=np.float32(0.0), "
        "strides=(1, 2, 2), padding='SAME')",
        "tf.nn.depthwise_conv2d_backprop_filter(1.0, filter_sizes=-(2 ** 63), out_backprop=np.float32(0.0), "
        "strides=(1, 2, 2), padding='SAME')",
    )
    return [(c, "ops.eigen-kernels", _eager(c)) for c in eager] + \
        [(f"{c} in a tf.function", "ops.eigen-kernels", _traced(c)) for c in traced]


CASES: list[tuple] = [
    *_kernel_order_cases(),
    *_kaiser_cases(),
    *_repeated_axis_cases(),
    *_conv_pool_cases(),
    *_string_attr_cases(),
    *_hash_key_cases(),
    *_norm_cases(),
    *_complex_matmul_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_raw_string_attrs_after_inputs(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.string-hash-bucket")
@EDGES.parametrize("ops.string-hash-bucket")
def test_hash_key_floats_take_the_fallback(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_norm_of_one_dimension_twice(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_matmul_subnormal_parts(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_repeated_axes_folded_away(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-more")
@EDGES.parametrize("ops.nn-more")
def test_conv1d_filter_rank_and_pool_input_type(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.signal-compositions")
@EDGES.parametrize("ops.signal-compositions")
def test_kaiser_window_length_known_to_the_graph(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.eigen-kernels")
@EDGES.parametrize("ops.eigen-kernels")
def test_atan2_bfloat16_unique_and_depthwise_orders(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz49_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

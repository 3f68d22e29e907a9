"""Gaps the eleventh mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 11, over 50 training-layer files
seeds 1-10 never sampled; thirty-fourth session), and those of seed 10's mutants its session left unrun or unanalysed:
behaviours the suite executed but no test looked at (docs/conformance.md, "Thirty-fourth session: automatic sweep,
seed 11 (amut34)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause


# -- tf.linalg.expm: an empty square matrix is returned as given, a non-square one refused by the MatMul ---------------
@clause("ops.linalg-expm", ref="tf221")
@pytest.mark.parametrize("shape", [[1, 0], [0, 1], [2, 1, 0]])
def test_amut34_expm_refuses_a_non_square_empty_matrix(tf, shape):
    """linalg_impl.matrix_exponential returns a matrix whose last two dimensions are [0, 0] as it is; any other shape
    goes on to its Padé products, whose first BatchMatMulV2 refuses a non-square one: eagerly InvalidArgumentError
    "Matrix size-incompatible: In[0]: [..], In[1]: [..]" (the operand reshaped to [-1, rows, cols]), traced
    ValueError "Dimensions must be equal, but are C and R" (observed on TF 2.21)."""
    rows, cols = shape[-2:]
    batch = int(np.prod(shape[:-2], dtype=np.int64))
    dims = f"[{batch},{rows},{cols}]"
    with raises(tf.errors.InvalidArgumentError,
                match=re.escape(f"Matrix size-incompatible: In[0]: {dims}, In[1]: {dims}"),
                call=f"tf.linalg.expm(tf.zeros({shape}))"):
        tf.linalg.expm(tf.zeros(shape))
    with raises(ValueError, match=re.escape(f"Dimensions must be equal, but are {cols} and {rows}"),
                call=f"tf.function(tf.linalg.expm)(tf.zeros({shape}))"):
        tf.function(tf.linalg.expm)(tf.zeros(shape))


@clause("ops.linalg-expm", ref="tf221")
@pytest.mark.parametrize("shape", [[0, 0], [3, 0, 0]])
def test_amut34_expm_of_empty_square_matrices(tf, shape):
    """expm of matrices of size 0 x 0 is the input itself, eagerly and traced (observed on TF 2.21)."""
    for mode, fn in (("eagerly", tf.linalg.expm), ("in a tf.function", tf.function(tf.linalg.expm))):
        got = fn(tf.zeros(shape))
        assert_equal(list(got.shape), shape, call=f"tf.linalg.expm(tf.zeros({shape})) {mode}", what="shape")


# -- tf.repeat along an axis other than the first ----------------------------------------------------------------------
@clause("ops.array-more", ref="tf221")
@pytest.mark.parametrize("shape, repeats, axis, want", [
    ((2, 3), [1, 0, 2], 1, [[0, 2, 2], [3, 5, 5]]),
    ((2, 3), [2, 1], 0, [[0, 1, 2], [0, 1, 2], [3, 4, 5]]),
    ((2, 3, 2), [3, 0, 1], 1, [[[0, 1], [0, 1], [0, 1], [4, 5]], [[6, 7], [6, 7], [6, 7], [10, 11]]]),
    ((2, 3, 2), [2, 1], -1, [[[0, 0, 1], [2, 2, 3], [4, 4, 5]], [[6, 6, 7], [8, 8, 9], [10, 10, 11]]]),
    ((2, 3, 2), 2, 1, [[[0, 1], [0, 1], [2, 3], [2, 3], [4, 5], [4, 5]],
                       [[6, 7], [6, 7], [8, 9], [8, 9], [10, 11], [10, 11]]]),
], ids=["2d-axis1", "2d-axis0", "3d-axis1", "3d-axis-1", "3d-axis1-scalar"])
def test_amut34_repeat_along_any_axis(tf, shape, repeats, axis, want):
    """tf.repeat(x, repeats, axis) repeats each slice along `axis` its count of times, a scalar count every slice,
    whatever the axis (repeat_with_axis broadcasts the counts over the leading dimensions; observed on TF 2.21)."""
    x = tf.reshape(tf.range(int(np.prod(shape))), shape)
    got = to_numpy(tf.repeat(x, repeats, axis=axis))
    assert_equal(got.tolist(), want, call=f"tf.repeat(range{shape}, {repeats}, axis={axis})", what="values")


# -- tf.while_loop's maximum_iterations on the loop simdist runs as Python -------------------------------------------
@clause("function.traced-while-loop", ref="tf221")
def test_amut34_while_loop_stops_at_maximum_iterations_under_a_tape(tf):
    """Inside a tf.function, a while_loop under a GradientTape with maximum_iterations=3 and a condition that would
    allow 10 runs runs the body 3 times: (i, y) = (3, 1.5 * 2**3) and dy/dx = 8 (observed on TF 2.21)."""
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            i, y = tf.while_loop(lambda i, y: i < 10, lambda i, y: (i + 1, y * 2.0), (tf.constant(0), x),
                                 maximum_iterations=3)
        return i, y, tape.gradient(y, x)
    got = [float(v) for v in f(tf.constant(1.5))]
    assert_equal(got, [3.0, 12.0, 8.0], call="while_loop(i < 10, (i + 1, y * 2), maximum_iterations=3) under a tape",
                 what="(i, y, dy/dx)")


@clause("function.traced-while-loop", ref="tf221")
def test_amut34_while_loop_stops_at_maximum_iterations_when_shapes_change(tf):
    """A traced while_loop whose loop variable grows (shape invariant [None]) stops at maximum_iterations=3 though
    its condition allows 10 runs: (3, [7, 0, 1, 2]) (observed on TF 2.21)."""
    @tf.function
    def g():
        return tf.while_loop(lambda i, y: i < 10, lambda i, y: (i + 1, tf.concat([y, [i]], 0)),
                             (tf.constant(0), tf.constant([7])),
                             shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])), maximum_iterations=3)
    i, y = g()
    assert_equal([int(i), to_numpy(y).tolist()], [3, [7, 0, 1, 2]],
                 call="while_loop(i < 10, concat([y, [i]]), maximum_iterations=3)", what="(i, y)")


# -- reduce_max/min over the outer and inner axes of a rank-3 tensor: the signed zero TF keeps -----------------------
_NAN = float("nan")


@clause("ops.simd-signed-zeros", ref="tf221")
@pytest.mark.parametrize("dtype, shape, op, values, want", [
    ("float32", (2, 2, 2), "max", [-0.0, 0.0, 1.0, -0.0, -0.0, -1.0, -1.0, 0.0], [False, False]),
    ("float32", (3, 3, 2), "min", [-1.0, -0.0, 0.0, -0.0, 1.0, 0.0, -0.0, -0.0, 0.0, 0.0, -0.0, 1.0, -0.0, 1.0, -0.0,
                                   1.0, 0.0, _NAN], [True, False, False]),
    ("float64", (3, 2, 2), "min", [0.0, 1.0, 0.0, -0.0, -0.0, -0.0, -0.0, _NAN, 0.0, 1.0, _NAN, 1.0], [True, False]),
    ("float64", (3, 2, 2), "min", [1.0, -1.0, 0.0, 0.0, 0.0, -0.0, -0.0, -0.0, -1.0, -0.0, 0.0, 1.0], [True, True]),
], ids=["f32-max", "f32-min-nan", "f64-min-nan", "f64-min"])
def test_amut34_reduce_over_outer_and_inner_axes_keeps_tf_signed_zero(tf, dtype, shape, op, values, want):
    """reduce_max/reduce_min over axes [0, 2] of a rank-3 tensor holding both zeros: Eigen's loops run axis 2 outside
    and axis 0 inside, so the zero kept is the one that order meets last (ops.simd-signed-zeros); the sign bits of the
    results observed on TF 2.21."""
    x = tf.constant(np.array(values, dtype).reshape(shape))
    got = to_numpy((tf.reduce_max if op == "max" else tf.reduce_min)(x, axis=[0, 2]))
    assert_equal(np.signbit(got).tolist(), want, call=f"tf.reduce_{op}({dtype} {shape}, axis=[0, 2])",
                 what="sign bits of the results")


# -- float16 Einsum (Eigen's product): the columns after the last 16-column panel, fewer than 8 ----------------------
def _h(v: np.ndarray) -> np.ndarray:
    return v.astype(np.float16).astype(np.float32)


def _chain(x: np.ndarray, y: np.ndarray, ks: range, fused: bool) -> np.ndarray:
    acc = np.zeros((x.shape[0], x.shape[1], y.shape[2]), np.float32)
    for k in ks:
        p = x[:, :, k, None].astype(np.float32) * y[:, None, k, :].astype(np.float32)
        acc = _h(acc + (p if fused else _h(p)))
    return acc


@clause("ops.einsum", ref="tf221")
def test_amut34_float16_einsum_scalar_tail_columns(tf):
    """On a CPU without oneDNN's float16 (ops.host-cpu), a float16 Einsum of 20 output columns is Eigen's gebp: the
    16 columns of the whole panel acc = h(acc + h(a·b)), the 4 after it (N mod 8 columns: the scalar path, no one-packet
    panel) acc = h(acc + a·b), whatever the rows (simdist/runtime/ops/half_matmul.py; tests/ops/test_f16tr_tf.py)."""
    from simdist.conformance.suite.test_half_einsum import _needs_eigen_float16
    _needs_eigen_float16(tf)
    rng = np.random.default_rng(1203)
    x = (rng.integers(-63, 64, (2, 8, 12)) / 8).astype(np.float16)
    y = (rng.integers(-63, 64, (2, 12, 20)) / 8).astype(np.float16)
    want = np.concatenate([_chain(x, y[:, :, :16], range(12), False), _chain(x, y[:, :, 16:], range(12), True)],
                          axis=2).astype(np.float16)
    # (the one-packet panel's two accumulators, even and odd k, would give other values in these columns)
    even = _chain(x, y[:, :, 16:], range(0, 8, 2), False)
    odd = _chain(x, y[:, :, 16:], range(1, 8, 2), False)
    acc = _h(even + odd)
    for k in range(8, 12):
        acc = _h(acc + _h(x[:, :, k, None].astype(np.float32) * y[:, None, k, 16:].astype(np.float32)))
    assert_true(bool((acc.astype(np.float16) != want[:, :, 16:]).any()),
                "two accumulators should differ from the scalar path on these operands", call="reference")
    got = to_numpy(tf.einsum("bmk,bkn->bmn", tf.constant(x), tf.constant(y)))
    bad = np.argwhere(got != want)
    assert_true(got.dtype == want.dtype and bad.size == 0,
                f"tf.einsum('bmk,bkn->bmn', float16 [2, 8, 12] x [2, 12, 20]) differs at {bad[:3].tolist()}: "
                f"{[float(got[tuple(i)]) for i in bad[:3]]}, but should be {[float(want[tuple(i)]) for i in bad[:3]]} "
                f"({len(bad)} of {want.size})", call="tf.einsum(float16)")


# -- tf.image.resize: a size known at trace with a negative side other than -1 is refused as a Dimension --------------
@clause("ops.image-resize", ref="tf221")
@pytest.mark.parametrize("shape, size, preserve, dim", [
    ((2, 4, 1), [-2, 4], False, -2), ((2, 4, 1), [-1, -3], False, -3), ((2, 4, 1), [-2, -8], True, -4),
    ((1, 4, 1), [-1, 8], True, -4), ((0, 4, 1), [0, 2], True, -2147483648), ((3, 0, 1), [2, 0], True, -2147483648),
    ((1, 0, 0, 1), [2, 2], True, -2147483648),
], ids=["negative-height", "minus-one-then-negative", "preserved-negative", "preserved-minus-one-height",
        "zero-by-zero-height", "zero-by-zero-width", "empty-image"])
@pytest.mark.parametrize("mode", ["eagerly", "traced"])
def test_amut34_resize_refuses_a_negative_known_size(tf, shape, size, preserve, dim, mode):
    """resize_images_v2 reads the size (after preserve_aspect_ratio's scaling, min(size / input size) in float32,
    rounded and cast to int32: 0/0 is NaN, cast to int32's minimum) with tensor_util.constant_value_as_shape, where -1
    is an unknown dimension and any other negative side ValueError "Dimension D must be >= 0" (height first), before
    the kernel runs, eagerly and traced; TF warns of nothing (observed on TF 2.21)."""
    import warnings

    def fn(x):
        return tf.image.resize(x, size, preserve_aspect_ratio=preserve)
    run = tf.function(fn) if mode == "traced" else fn
    call = f"tf.image.resize(zeros{shape}, {size}, preserve_aspect_ratio={preserve}) {mode}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with raises(ValueError, match="^" + re.escape(f"Dimension {dim} must be >= 0") + "$", call=call):
            run(tf.zeros(shape))
    assert_equal([str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)], [], call=call,
                 what="runtime warnings")


@clause("ops.image-resize", ref="tf221")
@pytest.mark.parametrize("shape, size, preserve", [
    ((2, 4, 1), [-1, 4], False), ((2, 4, 1), [4, -1], False), ((2, 2, 1), [-1, -1], True)])
def test_amut34_resize_leaves_a_minus_one_side_to_the_kernel(tf, shape, size, preserve):
    """A side of -1 is an unknown dimension to constant_value_as_shape: the resize kernel refuses it,
    InvalidArgumentError "output dimensions must be positive" (observed on TF 2.21)."""
    with raises(tf.errors.InvalidArgumentError, match="output dimensions must be positive",
                call=f"tf.image.resize(zeros{shape}, {size}, preserve_aspect_ratio={preserve})"):
        tf.image.resize(tf.zeros(shape), size, preserve_aspect_ratio=preserve)


# -- a list attr or a list input given one value: the wrapper's TypeError names the op's Python wrapper ----------------
_X5 = ([1, 2, 2, 2, 1], [1, 1, 1, 1, 1])


@clause("ops.attr-types", ref="tf221")
@pytest.mark.parametrize("op, kwargs, arg, value, wrapper", [
    ("Conv3D", {"strides": 1, "padding": "SAME"}, "strides", "1", "conv3d"),
    ("MaxPool3D", {"ksize": 1, "strides": [1, 1, 1, 1, 1], "padding": "SAME"}, "ksize", "1", "max_pool3d"),
    ("AvgPool3D", {"ksize": [1, 1, 1, 1, 1], "strides": 2, "padding": "SAME"}, "strides", "2", "avg_pool3d"),
])
@pytest.mark.parametrize("mode", ["eagerly", "traced"])
def test_amut34_list_attr_given_a_number_names_the_snake_case_wrapper(tf, op, kwargs, arg, value, wrapper, mode):
    """A list(int) attr given an int is the generated wrapper's TypeError "Expected list for 'ARG' argument to 'WRAPPER'
    Op, not V.", WRAPPER the op's name as GenerateLowerCaseOpName makes it (an underscore before an upper-case letter
    after a lower-case one or before one followed by a lower-case one: Conv3D -> conv3d, MaxPool3D -> max_pool3d),
    eagerly and traced (observed on TF 2.21)."""
    x, f = tf.zeros(_X5[0]), tf.zeros(_X5[1])

    def call():
        extra = {"filter": f} if op == "Conv3D" else {}
        return getattr(tf.raw_ops, op)(input=x, **extra, **kwargs)
    want = f"Expected list for '{arg}' argument to '{wrapper}' Op, not {value}."
    with raises(TypeError, match=re.escape(want), call=f"tf.raw_ops.{op}({arg}={value}) {mode}"):
        (tf.function(call) if mode == "traced" else call)()


@clause("ops.attr-types", ref="tf221")
@pytest.mark.parametrize("mode", ["eagerly", "traced"])
def test_amut34_public_conv3d_strides_given_a_number(tf, mode):
    """tf.nn.conv3d passes strides to gen_nn_ops.conv3d as given: an int is TypeError "Expected list for 'strides'
    argument to 'conv3d' Op, not 1." (the wrapper's name ends in a digit and an upper-case letter), eagerly and traced
    (observed on TF 2.21)."""
    x, f = tf.zeros(_X5[0]), tf.zeros(_X5[1])

    def call():
        return tf.nn.conv3d(x, f, strides=1, padding="SAME")
    with raises(TypeError, match=re.escape("Expected list for 'strides' argument to 'conv3d' Op, not 1."),
                call=f"tf.nn.conv3d(x, f, strides=1, padding='SAME') {mode}"):
        (tf.function(call) if mode == "traced" else call)()


@clause("ops.raw-ops", ref="tf221")
@pytest.mark.parametrize("op, arg, wrapper, extra", [
    ("ShapeN", "input", "shape_n", {}), ("AddN", "inputs", "add_n", {}), ("ConcatV2", "values", "concat_v2", {"axis": 0}),
])
def test_amut34_list_input_given_a_tensor_in_a_function(tf, op, arg, wrapper, extra):
    """Eagerly a raw op's list input may be one tensor (TF's fast path takes its rows); inside a tf.function the
    generated wrapper's graph branch wants a list or tuple: TypeError "Expected list for 'ARG' argument to 'WRAPPER' Op,
    not <tf.Tensor 't:0' shape=(2, 3) dtype=float32>." (observed on TF 2.21)."""
    def call(t):
        return getattr(tf.raw_ops, op)(**{arg: t}, **extra)
    x = tf.reshape(tf.range(6.0), [2, 3])
    eager = call(x)
    assert_true(eager is not None, "the eager call should compute", call=f"tf.raw_ops.{op}({arg}=tensor [2, 3])")
    want = f"Expected list for '{arg}' argument to '{wrapper}' Op, not <tf.Tensor 't:0' shape=(2, 3) dtype=float32>."
    with raises(TypeError, match=re.escape(want), call=f"tf.function(tf.raw_ops.{op}({arg}=t))(tensor [2, 3])"):
        tf.function(call)(x)


# -- the resize kernels with align_corners: (in - 1) / (out - 1) ------------------------------------------------------
_ALIGNED = {
    ((3, 3), (5, 4)): {
        "ResizeBilinear": [[0.0, 0.6666666865348816, 1.3333333730697632, 2.0], [1.5, 2.1666667461395264,
                           2.8333334922790527, 3.5], [3.0, 3.6666667461395264, 4.333333492279053, 5.0],
                           [4.5, 5.166666507720947, 5.833333492279053, 6.5], [6.0, 6.666666507720947, 7.333333492279053,
                                                                               8.0]],
        "ResizeNearestNeighbor": [[0.0, 1.0, 1.0, 2.0], [3.0, 4.0, 4.0, 5.0], [3.0, 4.0, 4.0, 5.0], [6.0, 7.0, 7.0, 8.0],
                                  [6.0, 7.0, 7.0, 8.0]],
        "ResizeBicubic": [[0.0, 0.5744267702102661, 1.4255733489990234, 2.0], [1.21875, 1.7931768894195557,
                          2.6443233489990234, 3.21875], [3.0, 3.5744268894195557, 4.425573348999023, 5.0],
                          [4.78125, 5.355676651000977, 6.206823348999023, 6.78125], [6.0, 6.574426651000977,
                                                                                      7.425573348999023, 8.0]]},
    ((5, 4), (3, 2)): {op: [[0.0, 3.0], [8.0, 11.0], [16.0, 19.0]]
                       for op in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic")},
}


@clause("ops.image-resize", ref="tf221")
@pytest.mark.parametrize("op", ["ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic"])
@pytest.mark.parametrize("hw, size", sorted(_ALIGNED), ids=["up", "down"])
def test_amut34_resize_kernels_with_align_corners(tf, op, hw, size):
    """CalculateResizeScale with align_corners and an output side above 1 is (in - 1) / (out - 1) in float32, so the
    corner pixels map onto each other: the raw kernels' values of range(h * w) observed on TF 2.21."""
    img = tf.reshape(tf.range(float(hw[0] * hw[1])), [1, hw[0], hw[1], 1])
    got = to_numpy(getattr(tf.raw_ops, op)(images=img, size=list(size), align_corners=True))[0, :, :, 0]
    assert_equal(got.tolist(), _ALIGNED[(hw, size)][op], call=f"tf.raw_ops.{op}(range {hw}, {list(size)}, "
                 "align_corners=True)", what="values")


# -- the colour conversions' shape function reads the last dimension of a rank-1 image --------------------------------
@clause("ops.image", ref="tf221")
@pytest.mark.parametrize("fn", ["rgb_to_hsv", "hsv_to_rgb"])
@pytest.mark.parametrize("shape", [[4], [2, 4]])
def test_amut34_colour_conversion_checks_three_channels_at_trace(tf, fn, shape):
    """RGBToHSV/HSVToRGB's shape function wants rank >= 1 and a last dimension of 3: traced, an image [4] or [2, 4] is
    ValueError "Dimension must be 3 but is 4"; eagerly the kernel's FailedPreconditionError "input must have 3 channels
    but input only has 4 channels." (observed on TF 2.21)."""
    f = getattr(tf.image, fn)
    with raises(ValueError, match=re.escape("Dimension must be 3 but is 4"), call=f"tf.function({fn})(zeros{shape})"):
        tf.function(f)(tf.zeros(shape))
    with raises(tf.errors.FailedPreconditionError,
                match=re.escape("input must have 3 channels but input only has 4 channels."), call=f"{fn}(zeros{shape})"):
        f(tf.zeros(shape))


# -- atan2 of a subnormal y beside the smallest normal x ---------------------------------------------------------------
@clause("ops.subnormals", ref="tf221")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_amut34_atan2_of_a_subnormal_beside_the_smallest_normal(tf, dtype):
    """Under DAZ a subnormal y is a zero of its sign, and the smallest normal x (finfo.tiny) is not zero: atan2 is ±0
    for x = tiny and ±pi for x = -tiny, not ±pi/2, in a whole packet and element by element (observed on TF 2.21)."""
    tiny = float(np.finfo(dtype).tiny)
    sub = 1e-310 if dtype == "float64" else 1e-40
    ys, xs = [sub, -sub, sub, -sub], [tiny, tiny, -tiny, -tiny]
    pi = float(np.pi) if dtype == "float64" else float(np.float32(np.pi))
    want = [0.0, -0.0, pi, -pi]
    calls = [(f"tf.math.atan2(±subnormal, ±tiny) {dtype}", ys, xs, want)]
    calls += [(f"tf.math.atan2([{y}], [{x}]) {dtype}", [y], [x], [w]) for y, x, w in zip(ys, xs, want)]
    for call, y, x, w in calls:
        got = to_numpy(tf.math.atan2(tf.constant(y, dtype), tf.constant(x, dtype)))
        assert_equal([float(v) for v in got], w, call=call, what="values")
        assert_equal(np.signbit(got).tolist(), np.signbit(w).tolist(), call=call, what="sign bits")


# -- float64 arithmetic under DAZ/FTZ ---------------------------------------------------------------------------------
@clause("ops.subnormals", ref="tf221")
def test_amut34_float64_arithmetic_flushes_subnormals(tf):
    """TF's CPU kernels run with DAZ and FTZ for float64 as for float32: a product or quotient whose result is a
    float64 subnormal is a zero of its sign, and a subnormal operand reads as a zero of its sign (-1e-310 + 0.0 is
    +0.0) (observed on TF 2.21)."""
    cases = [
        ("multiply", tf.constant([1e-160, -1e-160, 3.0, 1e-200], tf.float64) * tf.constant([1e-160, 1e-160, 2.0, 1e-120],
                                                                                            tf.float64),
         [0.0, -0.0, 6.0, 0.0]),
        ("add", tf.math.add(tf.constant([1e-310, -1e-310], tf.float64), tf.constant([0.0, 0.0], tf.float64)), [0.0, 0.0]),
        ("divide", tf.math.divide(tf.constant([1e-300, -1e-300], tf.float64), tf.constant([1e10, 1e10], tf.float64)),
         [0.0, -0.0]),
    ]
    for name, got, want in cases:
        g = to_numpy(got)
        assert_equal(g.tolist(), want, call=f"tf.math.{name} (float64, subnormal results or operands)", what="values")
        assert_equal(np.signbit(g).tolist(), np.signbit(want).tolist(), call=f"tf.math.{name} (float64)",
                     what="sign bits")


# -- float32 triangular_solve of 17 rows: past Eigen's small-panel width ---------------------------------------------
@clause("ops.eigen-kernels", ref="tf221")
@pytest.mark.parametrize("k, lower, bits", [(3, True, 102569285109), (3, False, 115546462650),
                                            (17, True, 616065981438), (17, False, 601332452292)])
def test_amut34_triangular_solve_of_seventeen_rows(tf, k, lower, bits):
    """Eigen's triangular solve of float32 (the wheel's AVX build) solves up to 16 rows without a GEBP panel
    (SmallPanelWidth) and 17 with one, which orders the sums differently: a seeded 17 x 17 system (diagonal + 4) with k
    right-hand sides is bit for bit TF's; the check is the sum of the result's float32 bit patterns as uint32
    (observed on TF 2.21)."""
    rng = np.random.default_rng(34)
    for n, kk in ((17, 3), (17, 17)):   # (the draws in the order they were observed)
        a = np.tril(rng.standard_normal((n, n))).astype(np.float32) + 4 * np.eye(n, dtype=np.float32)
        b = rng.standard_normal((n, kk)).astype(np.float32)
        if kk == k:
            break
    m = a if lower else a.T.copy()
    got = to_numpy(tf.linalg.triangular_solve(tf.constant(m), tf.constant(b), lower=lower))
    assert_equal(int(got.view(np.uint32).astype(np.int64).sum()), bits,
                 call=f"tf.linalg.triangular_solve(17 x 17 {'lower' if lower else 'upper'}, 17 x {k}) float32",
                 what="sum of the result's bit patterns")

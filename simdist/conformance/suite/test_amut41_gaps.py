"""Gaps among the open survivors of the seventeenth mechanical mutation sweep (benchmarks/auto_mutants.py, seed 17) and
the survivors of the eighteenth (seed 18; forty-first session): behaviours the suite executed but no test looked at
(docs/conformance.md, "Forty-first session: automatic sweep, seed 18 (amut41)"; TF 2.21).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import logging
import math
import re
import sys
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises
from simdist.conformance.suite.log_records import LogRecords

clause = pytest.mark.clause


def _parts(z: complex) -> tuple[float, float, bool, bool]:
    """(re, im, re's sign bit, im's sign bit): signed zeros told apart."""
    return (float(z.real), float(z.imag), bool(math.copysign(1.0, z.real) < 0), bool(math.copysign(1.0, z.imag) < 0))


# -- complex division: C99 Annex G's recovery ------------------------------------------------------------------------
@clause("ops.complex", ref="tf221")
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(("den", "want"), [
    (complex(math.nan, math.inf), [(0.0, -0.0), (-0.0, -0.0), (0.0, 0.0), (0.0, 0.0)]),
    (complex(math.nan, -math.inf), [(-0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (-0.0, -0.0)]),
])
def test_amut41_finite_over_an_infinite_part_beside_a_nan_part_is_a_signed_zero(tf, dtype, den, want):
    """A one-element complex division (the kernel's scalar tail: std::complex's operator/, libgcc's __divsc3/__divdc3)
    of a finite numerator by a denominator with one infinite and one NaN part: Smith's method gives NaN + NaNj and
    Annex G's recovery maps the infinite part to ±1 and the NaN part to a signed 0, so the quotient is
    0 * (a*c' + b*d') + 0 * (b*c' - a*d')j, a signed zero in each part (TF 2.21, observed for (1+1j), (2-3j), 0 and
    (-0.5+0j) over (nan+infj) and (nan-infj), complex64 and complex128 alike). The suite's infinite denominators had
    finite or infinite other parts, where a reading of the NaN part as infinite or its sign as a factor went unseen."""
    nums = [1 + 1j, 2 - 3j, 0j, -0.5 + 0j]
    for num, (re_want, im_want) in zip(nums, want):
        call = f"tf.constant([{num}], {dtype}) / tf.constant([{den}], {dtype})"
        got = (tf.constant(np.array([num], dtype)) / tf.constant(np.array([den], dtype))).numpy()[0]
        assert_equal(_parts(got), _parts(complex(re_want, im_want)), call=call,
                     what="(re, im, re's sign bit, im's sign bit)")


# -- reduce_prod over the first and last of three collapsed dimensions -------------------------------------------------
@clause("ops.packet-paths", ref="tf221")
@pytest.mark.parametrize(("dtype", "big"), [("float64", 1e200), ("float32", 1e30)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_amut41_reduce_prod_over_outer_and_inner_axes_in_the_kernels_order(tf, dtype, big, keepdims):
    """reduce_prod of a [2, 2, 3] tensor over axes [0, 2] (reduced, kept, reduced: ReductionHelper keeps the three
    dimensions) multiplies each output's six factors one at a time, the inner axis outermost and axis 0 innermost
    (x[0,j,0], x[1,j,0], x[0,j,1], ...): two large factors meet first and overflow to inf, then a zero makes NaN
    (TF 2.21, observed: [nan, nan], float64 and float32, with and without keepdims). Any other order (the packet tree
    of a contiguous row, axis 0 outermost) multiplies a large factor by the zero first and gives 0 for one or both."""
    x = np.ones((2, 2, 3), dtype)
    x[0, 0, 0] = big
    x[1, 0, 0] = big
    x[0, 0, 1] = 0
    x[0, 1, 0] = big
    x[0, 1, 1] = big
    x[0, 1, 2] = 0
    call = f"tf.reduce_prod([2, 2, 3] {dtype}, axis=[0, 2], keepdims={keepdims})"
    r = tf.reduce_prod(tf.constant(x), axis=[0, 2], keepdims=keepdims).numpy()
    assert_equal(r.shape, (1, 2, 1) if keepdims else (2,), call=call, what="shape")
    assert_equal(np.isnan(r.ravel()).tolist(), [True, True], call=call, what="which outputs are NaN")


# -- a tf.cond branch not taken: errors TF raises while it builds the graph -------------------------------------------
_UNTAKEN = {
    "softmax-axis": ("lambda x: tf.nn.softmax(tf.reshape(x, [1, 2]), axis=5)[0]",
                     "`dim` must be in the range [-2, 2) where 2 is the number of dimensions in the input. "
                     "Received: dim=5"),
    "static-assert": ("lambda x: x if tf.debugging.assert_equal(1, 2) is None else x",
                      "Condition x == y did not hold element-wise:"),
    "cond-int-predicate": ("lambda x: tf.cond(tf.constant(1), lambda: x, lambda: x * 2)",
                           "Input 'pred' passed int32 expected bool while building NodeDef '"),
    "while-int-predicate": ("lambda x: tf.while_loop(lambda i: tf.constant(1), lambda i: (i,), [x])[0]",
                            "Input 'input' passed int32 expected bool while building NodeDef '"),
    "negative-global-batch": ("lambda x: x * tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=-1)",
                              "global_batch_size must be non-negative.."),
}


@clause("function.traced-branches", ref="tf221")
@pytest.mark.parametrize("case", sorted(_UNTAKEN))
def test_amut41_an_untaken_branch_fails_on_an_error_of_the_graph_build(tf, case):
    """Inside a tf.function a tf.cond builds both branches, so an error TF raises while it builds the branch's graph
    fails the call even when the predicate selects the other branch: softmax's Python check of the axis against the
    static rank, check_ops' static assert of two constants, a nested cond's or while_loop's int32 predicate (the
    Switch's and LoopCond's NodeDef), compute_average_loss's static check of a constant negative global_batch_size;
    each an InvalidArgumentError with the text below (TF 2.21, observed: `f(tf.constant([1., 2.]))` of
    `tf.function(lambda x: tf.cond(x[0] > 0, lambda: x + 1, lambda: <case>(x)))`, whose taken branch would give
    [2., 3.]). A kernel's error there (a gather index out of range) is not raised; the suite's untaken branches held
    shape-function errors and kernel errors only."""
    body, text = _UNTAKEN[case]
    g = eval(body, {"tf": tf})  # noqa: S307 - the case's branch text above
    f = tf.function(lambda x: tf.cond(x[0] > 0, lambda: x + 1, lambda: g(x)))
    with raises(tf.errors.InvalidArgumentError, match=re.escape(text),
                call=f"tf.function(lambda x: tf.cond(x[0] > 0, lambda: x + 1, lambda: ({body})(x)))([1., 2.])"):
        f(tf.constant([1.0, 2.0]))


# -- the dense training kernels' scalar checks -----------------------------------------------------------------------
_TRAINING_OPS = {
    "ResourceApplyAdam": (("var", "m", "v"), ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")),
    "ResourceApplyAdamWithAmsgrad": (("var", "m", "v", "vhat"),
                                     ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")),
    "ResourceApplyAdaMax": (("var", "m", "v"), ("beta1_power", "lr", "beta1", "beta2", "epsilon")),
    "ResourceApplyRMSProp": (("var", "ms", "mom"), ("lr", "rho", "momentum", "epsilon")),
    "ResourceApplyFtrl": (("var", "accum", "linear"), ("lr", "l1", "l2", "lr_power")),
    "ResourceApplyFtrlV2": (("var", "accum", "linear"), ("lr", "l1", "l2", "l2_shrinkage", "lr_power")),
}


def _training_call(tf, op, vector, sign_decay=None):
    """raw `op` on variables [0.5, 0.25], every scalar 0.5 except those in `vector` ([0.5]), grad [1., 1.]."""
    handles, scalars = _TRAINING_OPS[op]
    held = [tf.Variable([0.5, 0.25]) for _ in handles]
    kw = {h: v.handle for h, v in zip(handles, held)}
    kw.update({n: tf.constant([0.5] if n in vector else 0.5) for n in scalars})
    getattr(tf.raw_ops, op)(grad=tf.constant([1.0, 1.0]), **kw)


@clause("ops.training-kernels", ref="tf221")
@pytest.mark.parametrize(("op", "vector", "text"), [
    ("ResourceApplyAdam", ("lr", "beta1"), "lr is not a scalar : [1]"),
    ("ResourceApplyAdam", ("beta1", "beta2"), "beta1 is not a scalar: [1]"),
    ("ResourceApplyAdamWithAmsgrad", ("lr",), "lr is not a scalar : [1]"),
    ("ResourceApplyAdaMax", ("lr", "beta1"), "lr is not a scalar : [1]"),
    ("ResourceApplyRMSProp", ("lr", "rho"), "lr is not a scalar : [1]"),
    ("ResourceApplyFtrl", ("lr_power",), "lr_power is not a scalar[1]"),
    ("ResourceApplyFtrlV2", ("l2_shrinkage", "lr_power"), "lr_power is not a scalar[1]"),
    ("ResourceApplyFtrlV2", ("l2", "l2_shrinkage"), "l2 regularization strength is not a scalar: [1]"),
    ("ResourceApplyFtrlV2", ("lr_power",), "lr_power is not a scalar[1]"),
])
def test_amut41_training_kernels_scalar_checks(tf, op, vector, text):
    """The dense training kernels check their scalar inputs in input order, each in its kernel's own words: Adam's,
    AdamWithAmsgrad's, AdaMax's and RMSProp's "lr is not a scalar : " (a space before the colon), the dense Ftrl's and
    FtrlV2's "lr_power is not a scalar" with the shape right after it (FtrlV2 checks lr_power before l2_shrinkage), the
    others "<name> is not a scalar: " (TF 2.21,
    observed: InvalidArgumentError for each call, with [0.5] for the inputs named and 0.5 for the others). The suite's
    error cases gave one non-scalar input at a time to other ops."""
    call = f"tf.raw_ops.{op}(... {', '.join(vector)} of shape [1] ...)"
    with raises(tf.errors.InvalidArgumentError, match=r"(^|\}\} )" + re.escape(text) + r"($| \[Op:)", call=call):
        _training_call(tf, op, vector)


@clause("ops.training-kernels", ref="tf221")
@pytest.mark.parametrize(("op", "second", "want"), [
    ("ResourceApplyAddSign", "alpha", [0.800000011920929, 1.899999976158142, -2.5999999046325684]),
    ("ResourceApplyPowerSign", "logbase", [0.7882999777793884, 1.952763319015503, -2.5766000747680664]),
])
@pytest.mark.parametrize("sign_decay", [0.5, [0.5], [[0.5]]])
def test_amut41_sign_kernels_take_a_sign_decay_of_one_element(tf, op, second, want, sign_decay):
    """AddSign checks alpha's shape a second time where sign_decay's belongs (PowerSign logbase's), so a sign_decay of
    one element in any shape passes and updates as the scalar (the functor reads its one element): var [1, 2, -3],
    m [0.5, -0.5, 0], lr 0.1, alpha or logbase 1.5, beta 0.9, grad [1, 1, -2] give the values below and m
    [0.55, -0.35, -0.2] for 0.5, [0.5] and [[0.5]] alike (TF 2.21, observed)."""
    var, m = tf.Variable([1.0, 2.0, -3.0]), tf.Variable([0.5, -0.5, 0.0])
    getattr(tf.raw_ops, op)(var=var.handle, m=m.handle, lr=tf.constant(0.1), **{second: tf.constant(1.5)},
                            sign_decay=tf.constant(sign_decay), beta=tf.constant(0.9),
                            grad=tf.constant([1.0, 1.0, -2.0]))
    call = f"tf.raw_ops.{op}(..., sign_decay={sign_decay})"
    assert_equal(var.numpy().tolist(), want, call=call, what="var")
    assert_equal(m.numpy().tolist(), [0.550000011920929, -0.34999996423721313, -0.20000004768371582], call=call,
                 what="m")


# == seed 18 (the sweep's other survivors) ============================================================================
@clause("ops.experimental-numpy", ref="tf221")
@pytest.mark.parametrize(("v", "k", "want"), [
    ([1, 2], 0, [[1, 0], [0, 2]]),
    ([1, 2], 1, [[0, 1, 0], [0, 0, 2], [0, 0, 0]]),
    ([1, 2], -1, [[0, 0, 0], [1, 0, 0], [0, 2, 0]]),
    ([[1, 2], [3, 4]], 0, [1, 4]),
    ([[1, 2], [3, 4]], 1, [2]),
    ([[1, 2, 3], [4, 5, 6]], -1, [4]),
])
def test_amut41_tnp_diag_of_a_vector_and_of_a_matrix(tf, v, k, want):
    """tnp.diag puts a vector on diagonal k of a square matrix of side len(v) + |k| and takes diagonal k of a matrix
    (TF 2.21, observed: int64 results as below). The suite's tnp.diag calls were of empty vectors only."""
    tnp = tf.experimental.numpy
    r = tnp.diag(v, k)
    assert_equal(r.dtype.name, "int64", call=f"tnp.diag({v}, {k})", what="dtype")
    assert_equal(r.numpy().tolist(), want, call=f"tnp.diag({v}, {k})")


@clause("ops.experimental-numpy", ref="tf221")
@pytest.mark.parametrize("v", [5, 0, 3.0])
def test_amut41_tnp_diag_of_a_scalar_is_its_asserts_error(tf, v):
    """Eagerly tnp.diag of a scalar fails its `Assert(rank == 1 or rank == 2, [rank])`: InvalidArgumentError "Expected
    'False' to be true. Summarized data: 0" (TF 2.21, observed for 5, 0 and a float32 constant 3.0)."""
    tnp = tf.experimental.numpy
    with raises(tf.errors.InvalidArgumentError, match=re.escape("Expected 'False' to be true. Summarized data: 0"),
                call=f"tnp.diag(tf.constant({v!r}))"):
        tnp.diag(tf.constant(v))


@clause("ops.experimental-numpy", ref="tf221")
@pytest.mark.parametrize("v", [3.0, 5])
def test_amut41_traced_tnp_diag_of_a_scalar_is_numpys_index_error(tf, v):
    """Inside a tf.function tnp.diag of a scalar goes on past its Assert (a graph runs it later) to _diag_part, whose
    `np_utils.getitem(shape, 0)` of the static shape [] is NumPy's IndexError "index 0 is out of bounds for axis 0 with
    size 0", re-raised by AutoGraph as StagingError (TF 2.21, observed for a float32 and an int32 scalar)."""
    tnp = tf.experimental.numpy
    f = tf.function(lambda x: tnp.diag(x))
    call = f"tf.function(lambda x: tnp.diag(x))(tf.constant({v!r}))"
    with raises(Exception, match=re.escape("IndexError: index 0 is out of bounds for axis 0 with size 0"),
                call=call) as box:
        f(tf.constant(v))
    assert_equal(type(box["value"]).__name__, "StagingError", call=call, what="the error's class")


@clause("keras.model.save-weights", ref="tf221")
@pytest.mark.parametrize("suffix", [".weights.h5", ".weights.json"])
@pytest.mark.parametrize("by_name", [True, False, 0])
def test_amut41_load_weights_refuses_by_name_for_weights_files(keras, tmp_path, suffix, by_name):
    """Model.load_weights of a `.weights.h5` or `.weights.json` path refuses `by_name` given any value but None (False
    and 0 too), before it reads the file: ValueError "`by_name` only supports loading legacy '.h5' or '.hdf5' files.
    Received: <path>" (Keras 3.15's saving_api.load_weights; TF 2.21 + Keras 3, observed for a saved file, a
    .weights.json path and a missing file alike). The suite's by_name calls were of `.keras` files."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    path = str(tmp_path / ("w" + suffix))
    if suffix == ".weights.h5":
        model.save_weights(path)
    want = f"`by_name` only supports loading legacy '.h5' or '.hdf5' files. Received: {path}"
    call = f"model.load_weights('w{suffix}', by_name={by_name})"
    with raises(ValueError, match="^" + re.escape(want) + "$", call=call):
        model.load_weights(path, by_name=by_name)


@clause("mwms.communication-options", ref="tf221")
def test_amut41_collective_hints_deprecation_notice(tf):
    """CollectiveHints is collective_util.Hints, whose `__new__` is @deprecated: its first construction in the process
    logs WARNING on the "tensorflow" logger "From FILE:LINE: Hints.__new__ (from
    tensorflow.python.distribute.collective_util) is deprecated and will be removed in a future version.\nInstructions
    for updating:\nuse distribute.experimental.CommunicationOptions instead", FILE:LINE the constructing line (TF 2.21,
    observed); later ones log nothing. The notice is once per process, so this checks every notice this test's calls
    caused (none when an earlier test of the process made a CollectiveHints first)."""
    handler = LogRecords()
    logger = logging.getLogger("tensorflow")
    logger.addHandler(handler)
    try:
        line = sys._getframe().f_lineno + 1
        tf.distribute.experimental.CollectiveHints(bytes_per_pack=4)
        tf.distribute.experimental.CollectiveHints()
    finally:
        logger.removeHandler(handler)
    mine = [m for m in handler.messages if "Hints.__new__" in m]
    assert len(mine) <= 1, f"CollectiveHints made twice logged {len(mine)} notices, but should log at most one: {mine}"
    if mine:
        want = (f"From {__file__}:{line}: Hints.__new__ (from tensorflow.python.distribute.collective_util) is "
                "deprecated and will be removed in a future version.\nInstructions for updating:\nuse "
                "distribute.experimental.CommunicationOptions instead")
        assert mine[0] == want, f"the notice was {mine[0]!r}, but should be {want!r}"


@clause("ops.dtype-text", ref="tf221")
def test_amut41_dtype_sizes(tf):
    """DType.size, the bytes of one element: bool, int8 and uint8 1; int16, uint16, float16 and bfloat16 2; int32,
    uint32 and float32 4; int64, uint64, float64 and complex64 8; complex128 16; string 0 (TF 2.21, observed). The
    suite read sizes through the partitioners' float32 variables only."""
    names = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "bfloat16",
             "float32", "float64", "complex64", "complex128", "string"]
    got = {n: getattr(tf, n).size for n in names}
    want = dict(zip(names, [1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8, 8, 16, 0]))
    assert_equal(got, want, call="tf.<dtype>.size")


@clause("ops.complex", ref="tf221")
@pytest.mark.parametrize(("dtype", "big"), [("complex64", 1e30), ("complex128", 1e300)])
@pytest.mark.parametrize(("x", "y", "want"), [
    ((1.0, math.nan), (1.0, 0.0), ("inf", "nan")),
    ((math.nan, 1.0), (0.0, 1.0), ("-inf", "nan")),
    ((1.0, 1.0), (1.0, math.nan), ("inf", "inf")),
])
def test_amut41_complex_product_overflowing_beside_a_nan_part(tf, dtype, big, x, y, want):
    """A one-element complex multiply (the kernel's scalar tail: std::complex's operator*, libgcc's __mulsc3/__muldc3)
    whose finite parts' products overflow while a NaN part makes both parts of the plain product NaN: Annex G's third
    recovery (an infinite partial product and no infinite input) sets the NaN parts to 0 and recomputes with inf, so
    (big + nan j) * (big + 0j) is inf + nan j, (nan + big j) * (big j) -inf + nan j, (big + big j) * (big + nan j)
    inf + inf j, big 1e30 in complex64 and 1e300 in complex128 (TF 2.21, observed). The suite's overflowing products
    had no NaN part."""
    xs = complex(x[0] * big if not math.isnan(x[0]) else x[0], x[1] * big if not math.isnan(x[1]) else x[1])
    ys = complex(y[0] * big if not math.isnan(y[0]) else y[0], y[1] * big if not math.isnan(y[1]) else y[1])
    r = (tf.constant(np.array([xs], dtype)) * tf.constant(np.array([ys], dtype))).numpy()[0]
    assert_equal((str(float(r.real)), str(float(r.imag))), want, call=f"tf.constant([{xs}], {dtype}) * [{ys}]")


@clause("ops.experimental-numpy", ref="tf221")
@pytest.mark.parametrize(("kw", "want"), [
    ({}, [[-6, 12, -6], [10, -2, -5]]),
    ({"axisc": 0}, [[-6, 10], [12, -2], [-6, -5]]),
    ({"axisc": -2}, [[-6, 10], [12, -2], [-6, -5]]),
    ({"axisc": 1}, [[-6, 12, -6], [10, -2, -5]]),
])
def test_amut41_tnp_cross_puts_the_vectors_on_axisc(tf, kw, want):
    """tnp.cross of two [2, 3] batches of vectors puts each product vector along `axisc` of the result, 0 or -2 making
    it [3, 2] (TF 2.21, observed: the values below). The suite's tnp.cross calls kept axisc at -1."""
    tnp = tf.experimental.numpy
    r = tnp.cross([[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [1, 0, 2]], **kw)
    assert_equal(r.numpy().tolist(), want, call=f"tnp.cross([[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [1, 0, 2]], {kw})")


@clause("dataset.csv", ref="tf221")
def test_amut41_csv_dataset_overflows_a_float32_field_to_inf_silently(tf, tmp_path):
    """CsvDataset parses a float32 field beyond float32's range as ±inf ("1e300" inf, "-1e39" -inf), with no Python
    warning (TF 2.21, observed: [[inf, 5.0], [-inf, 7.0]], no warning recorded). The suite's CSV floats were in
    range."""
    path = tmp_path / "a.csv"
    path.write_text("1e300,5\n-1e39,7\n")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        rows = [[float(v) for v in r] for r in tf.data.experimental.CsvDataset(str(path), [tf.float32, tf.float32])]
    call = "CsvDataset('1e300,5\\n-1e39,7', [float32, float32])"
    assert_equal(rows, [[math.inf, 5.0], [-math.inf, 7.0]], call=call)
    assert_equal([str(w.message) for w in seen], [], call=call, what="the Python warnings raised")

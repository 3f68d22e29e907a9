"""Gaps among the open survivors of the sixteenth mechanical mutation sweep (benchmarks/auto_mutants.py, seed 16,
parts c and d; fortieth session): behaviours the suite executed but no test looked at (docs/conformance.md, "Fortieth
session: seed 16's open survivors (amut40)"; TF 2.21).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import math
import os
import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


# -- the NodeDef's type attrs ------------------------------------------------------------------------------------------
@clause("ops.attr-types", ref="tf221")
@pytest.mark.parametrize(("call", "text"), [
    ("tf.raw_ops.Atan2(y=tf.constant([1, 2]), x=tf.constant([1.0, 2.0]))",
     "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double"),
    ("tf.raw_ops.MatMul(a=tf.constant([[1]], tf.int8), b=tf.constant([[1.0]]))",
     "Value for attr 'T' of int8 is not in the list of allowed values: bfloat16, half, float, double, int32, int64, "
     "uint8, uint16, uint32, uint64, complex64, complex128"),
    ("tf.raw_ops.AddN(inputs=[tf.constant(['a']), tf.constant([1.0])])",
     "Value for attr 'T' of string is not in the list of allowed values: float, double, int32, uint8"),
    ("tf.raw_ops.AddN(inputs=[tf.constant([True]), tf.constant([1.0])])",
     "Value for attr 'T' of bool is not in the list of allowed values: float, double, int32, uint8"),
    ("tf.raw_ops.AddN(inputs=[tf.constant([1.0]), tf.constant([1.0]), tf.constant([1])])",
     "cannot compute AddN as input #2(zero-based) was expected to be a float tensor but is a int32 tensor"),
])
def test_amut40_a_later_input_of_another_dtype_is_the_attrs_refusal_when_the_first_fixed_a_disallowed_type(
        tf, call, text):
    """An eager raw op whose first input fixes a type attr to a dtype the OpDef does not allow, and whose later input
    has another dtype: the NodeDef's InvalidArgumentError "Value for attr 'T' of <first> is not in the list of allowed
    values: ..." comes before the kernel's "cannot compute ... as input #k" (ValidateNodeDef before
    ValidateInputTypeAndPlacement), also for a list input (AddN's later element); an allowed first dtype gives the
    kernel's text (TF 2.21, observed for each call)."""
    with raises(tf.errors.InvalidArgumentError, match="^" + re.escape(text), call=call):
        eval(call, {"tf": tf})  # noqa: S307 - the parametrized call text above


# -- random --------------------------------------------------------------------------------------------------------
@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize(("make", "want"), [
    ("tf.random.Generator.from_key_counter(key=7, counter=[0, 1], alg='philox')", [5, 4, 4, 5, 2]),
    ("tf.random.Generator.from_state(tf.constant([3, 5, 7], tf.int64), 'philox')", [7, 4, 3, 3, 4]),
    ("tf.random.Generator.from_state(tf.constant([0, 0, 7], tf.int64), 'philox')", [4, 5, 3, 5, 6]),
])
def test_amut40_generator_binomial_reads_the_counters_high_word(tf, make, want):
    """Generator.binomial (StatefulRandomBinomial) starts Philox at the state's 128-bit counter, its second element the
    high 64 bits: a counter [0, 1] draws other values than [0, 0] (TF 2.21, observed: binomial([5], counts=10.,
    probs=0.5) of each generator). The suite's generators all had a zero high word."""
    g = eval(make, {"tf": tf})  # noqa: S307 - the parametrized constructor text above
    r = g.binomial([5], counts=10.0, probs=0.5).numpy()
    assert_equal(r.tolist(), want, call=f"{make}.binomial([5], counts=10., probs=0.5)")


@clause("ops.random-gamma-poisson", ref="tf221")
def test_amut40_poisson_of_a_large_rate_can_draw_zero(tf):
    """tf.random.stateless_poisson with lam=10 (the PTRS branch, rate >= 10) accepts a k of 0 through its slow test
    (u_shifted < 0.07): seed [32, 0] draws 0 at index 283 of 300 (TF 2.21, observed: elements 280..289 are
    [18, 13, 11, 0, 14, 10, 9, 7, 13, 5], float32 and int32 alike). P(0) = exp(-10), so small draws never showed it."""
    for dt in (tf.float32, tf.int32):
        r = tf.random.stateless_poisson([300], seed=[32, 0], lam=10.0, dtype=dt).numpy()
        call = f"tf.random.stateless_poisson([300], seed=[32, 0], lam=10., dtype={dt.name})"
        assert_equal(r[280:290].tolist(), [18, 13, 11, 0, 14, 10, 9, 7, 13, 5], call=call, what="elements 280..289")
        assert_equal(np.nonzero(r == 0)[0].tolist(), [283], call=call, what="the indices of the zeros")


@clause("ops.stateless-random", ref="tf221")
def test_amut40_parameterized_truncated_normal_shards_skip_by_the_max_iterations(tf):
    """StatelessParameterizedTruncatedNormal shards a large output (Shard with its batch cost): each shard's Philox
    skips start * 2 * kMaxIterations (1000) / 4 draws, so the values past the first shard follow kMaxIterations
    (TF 2.21, observed with 2 intra-op threads, the reference machine's: [5000], seed [3, 4], N(0, 1) cut to [-1, 1],
    the first two values, the last three and the float32 sum). The shard blocks follow TF's thread count, so TF on a
    host of another CPU count is not compared."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if not tf.__name__.startswith("simdist") and cpus != 2:
        pytest.skip(f"TF's shard blocks follow its {cpus} CPUs; observed with 2")
    r = tf.random.stateless_parameterized_truncated_normal([5000], seed=[3, 4], means=0.0, stddevs=1.0, minvals=-1.0,
                                                           maxvals=1.0).numpy()
    call = "tf.random.stateless_parameterized_truncated_normal([5000], seed=[3, 4], 0., 1., -1., 1.)"
    assert_equal(r[:2].tolist(), [-0.5134251117706299, -0.06415963172912598], call=call, what="the first two")
    assert_equal(r[-3:].tolist(), [-0.4540386199951172, -0.4548451900482178, 0.24561858177185059], call=call,
                 what="the last three")
    assert_close(float(r.sum()), 23.40983772277832, tolerance=Tolerance(rtol=1e-5, atol=1e-4), call=call, what="sum")


# -- CTC ---------------------------------------------------------------------------------------------------------------
def _ctc_one_label(x: np.ndarray, label: int) -> float:
    """-log p(label | x) of a [2, 1, C] input, blank C - 1: the paths (l, l), (l, blank), (blank, l)."""
    p = np.exp(x[:, 0].astype(np.float64) - x[:, 0].max(axis=1, keepdims=True))
    p = p / p.sum(axis=1, keepdims=True)
    b = x.shape[2] - 1
    return -math.log(p[0, label] * p[1, label] + p[0, label] * p[1, b] + p[0, b] * p[1, label])


@clause("ops.nn-ctc", ref="tf221")
@pytest.mark.parametrize(("classes", "dtype", "observed"), [
    (17, "float32", 5.016263008117676), (16, "float32", 5.41579008102417), (9, "float64", 4.163121012359511),
])
def test_amut40_ctc_loss_over_two_packets_of_classes(tf, classes, dtype, observed):
    """tf.compat.v1.nn.ctc_loss with as many classes as two AVX packets or more (16 float32, 8 float64): the softmax's
    normaliser is Eigen's packet sum over two accumulators; the loss is -log p(label), computed here from its three
    paths (TF 2.21, observed: 5.016263 for 17 float32 classes, 5.41579 for 16, 4.163121012359511 for 9
    float64). The suite's CTC inputs had fewer classes."""
    x = (np.arange(2 * classes).reshape(2, 1, classes) % 7 / 3.0).astype(dtype)
    call = f"tf.compat.v1.nn.ctc_loss(label [1], [2, 1, {classes}] {dtype} logits, sequence_length [2])"
    r = tf.compat.v1.nn.ctc_loss(tf.SparseTensor([[0, 0]], tf.constant([1], tf.int32), [1, 1]), tf.constant(x),
                                 [2]).numpy()
    # (its log-sum-exp calls float's log1pf(expf(.)) for doubles too: 1e-9 from the float64 sum here)
    assert_close(r, np.array([_ctc_one_label(x, 1)]), tolerance=Tolerance(rtol=2e-6, atol=0.0), call=call)
    tol = Tolerance(rtol=2e-6, atol=0.0) if dtype == "float32" else Tolerance(rtol=1e-13, atol=0.0)
    assert_close(r, np.array([observed]), tolerance=tol, call=call, what="TF 2.21's observed loss")


_NINF = -np.inf


@clause("ops.nn-ctc", ref="tf221")
def test_amut40_ctc_beam_search_keeps_no_path_of_zero_probability(tf):
    """tf.nn.ctc_beam_search_decoder's beam takes a candidate only if its log probability is above log(0)
    (is_candidate: prob.total > kLogZero): with a class whose logit is -inf the beam holds 2 paths, and top_paths=3
    is InvalidArgumentError "Less leaves in the beam search than requested." (TF 2.21, observed; top_paths=2 gives
    [0] and [] with log probabilities -0.2876821, -1.3862944)."""
    x = tf.constant(np.array([[[0.0, _NINF, 0.0]], [[0.0, _NINF, 0.0]]], np.float32))
    call = "tf.nn.ctc_beam_search_decoder([2, 1, 3] logits with class 1 at -inf, [2], beam_width=3"
    d, lp = tf.nn.ctc_beam_search_decoder(x, [2], beam_width=3, top_paths=2)
    assert_equal([s.values.numpy().tolist() for s in d], [[0], []], call=call + ", top_paths=2)", what="paths")
    assert_close(lp.numpy(), np.array([[-0.28768208622932434, -1.3862943649291992]]),
                 tolerance=Tolerance(rtol=1e-6, atol=0.0), call=call + ", top_paths=2)", what="log probabilities")
    with raises(tf.errors.InvalidArgumentError, match=re.escape("Less leaves in the beam search than requested."),
                call=call + ", top_paths=3)"):
        tf.nn.ctc_beam_search_decoder(x, [2], beam_width=3, top_paths=3)


# -- linear algebra ----------------------------------------------------------------------------------------------------
@clause("ops.linalg-expm", ref="tf221")
@pytest.mark.parametrize("v", [2.5, 2.8])
def test_amut40_expm_float32_between_the_degree_5_and_7_thresholds(tf, v):
    """tf.linalg.expm of a float32 matrix of 1-norm in [1.88, 3.93) takes the degree-7 Pade approximant (TF's float32
    thresholds 4.258730016922831e-01 and 1.880152677804762): exp(2.8) to float32's rounding (TF 2.21, observed
    16.444647 for [[2.8]] and 12.182495 for [[2.5]]; degree 5 would be off by 1e-5 relative)."""
    r = tf.linalg.expm(tf.constant([[v]], tf.float32)).numpy()
    assert_close(r, np.array([[math.exp(float(np.float32(v)))]]), tolerance=Tolerance(rtol=1e-6, atol=0.0),
                 call=f"tf.linalg.expm([[{v}]] float32)")


@clause("ops.linalg-spectral", ref="tf221")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(("m", "vectors"), [
    ([[1.0, 1e-20], [1e-20, 2.0]], [[1.0, 0.0], [0.0, 1.0]]),
    ([[2.0, 1e-20], [1e-20, 1.0]], [[0.0, 1.0], [1.0, 0.0]]),
])
def test_amut40_eigh_deflates_a_negligible_first_subdiagonal_before_any_step(tf, dtype, m, vectors):
    """tf.linalg.eigh (Eigen's SelfAdjointEigenSolver) sets every negligible subdiagonal entry to zero before its first
    QR step, the first one included (computeFromTridiagonal_impl's loop from start = 0): a 2x2 matrix with a 1e-20
    off-diagonal takes no step, its eigenvectors exactly the unit vectors (TF 2.21, observed bit for bit; a QR step
    would leave 1e-20 entries and flip signs)."""
    e, v = tf.linalg.eigh(tf.constant(m, dtype))
    call = f"tf.linalg.eigh({m} {dtype})"
    assert_equal(e.numpy().tolist(), [1.0, 2.0], call=call, what="eigenvalues")
    assert_equal(v.numpy().tolist(), vectors, call=call, what="eigenvectors (exactly)")


@clause("ops.linalg-more", ref="tf221")
def test_amut40_triangular_solve_broadcasts_a_batch_of_one(tf):
    """tf.linalg.triangular_solve of a [1, 2, 2] matrix and a [3, 2, 1] right-hand side broadcasts the batch (MatMulBCast:
    a dimension of 1 against 3), eagerly and traced; [2, 2, 2] against [3, 2, 1] is the kernel's InvalidArgumentError
    "In[0] and In[1] must have compatible batch dimensions: [2,2,2] vs. [3,2,1]", traced the shape function's
    ValueError "Dimensions must be equal, but are 2 and 3" (TF 2.21, observed; the values are the exact solutions)."""
    a1 = np.array([[[2.0, 0.0], [1.0, 4.0]]], np.float32)
    b3 = np.arange(6, dtype=np.float32).reshape(3, 2, 1)
    want = np.array([[[0.0], [0.25]], [[1.0], [0.5]], [[2.0], [0.75]]])

    @tf.function
    def f(a, b):
        return tf.linalg.triangular_solve(a, b)

    call = "tf.linalg.triangular_solve(a [1, 2, 2], b [3, 2, 1])"
    assert_close(tf.linalg.triangular_solve(a1, b3).numpy(), want, tolerance=Tolerance(rtol=0.0, atol=0.0), call=call)
    assert_close(f(tf.constant(a1), tf.constant(b3)).numpy(), want, tolerance=Tolerance(rtol=0.0, atol=0.0),
                 call="traced " + call)
    a2 = np.repeat(a1, 2, axis=0)
    with raises(tf.errors.InvalidArgumentError, call="tf.linalg.triangular_solve(a [2, 2, 2], b [3, 2, 1])",
                match=re.escape("In[0] and In[1] must have compatible batch dimensions: [2,2,2] vs. [3,2,1]")):
        tf.linalg.triangular_solve(a2, b3)
    with raises(ValueError, match=re.escape("Dimensions must be equal, but are 2 and 3"),
                call="traced tf.linalg.triangular_solve(a [2, 2, 2], b [3, 2, 1])"):
        f(tf.constant(a2), tf.constant(b3))


# -- static shapes in a graph --------------------------------------------------------------------------------------
@clause("function.trace-time-errors", ref="tf221")
@pytest.mark.parametrize(("key", "text", "static", "shape"), [
    ((Ellipsis, 0), "x[..., 0]", [None], [2]),
    ((Ellipsis, slice(None)), "x[..., :]", [None, 3], [2, 3]),
    ((slice(None), None), "x[:, tf.newaxis]", [None, 1, 3], [2, 1, 3]),
    ((None, 0), "x[tf.newaxis, 0]", [1, 3], [1, 3]),
])
def test_amut40_a_slice_with_an_ellipsis_or_a_new_axis_of_an_unknown_dimension(tf, key, text, static, shape):
    """Inside a tf.function traced for a [None, 3] input, a slice with an ellipsis or a new axis keeps the unknown
    dimension unknown in the static shape (StridedSliceShapeFn; a new axis a known 1) and runs (TF 2.21, observed for
    each key: the static shape while tracing, then the result's shape for a [2, 3] input)."""
    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        y = x[key]
        seen["static"] = y.shape.as_list()
        return y

    r = f(tf.zeros([2, 3]))
    call = f"traced {text} of a [None, 3] input"
    assert_equal(seen["static"], static, call=call, what="static shape")
    assert_equal(r.shape.as_list(), shape, call=call + " run on [2, 3]", what="shape")


# -- ClusterCoordinator: a scheduled function reading a variable off the parameter servers -------------------------
@pytest.mark.requires("multi_worker")
@clause("coord.schedule-async", ref="tf221")
def test_amut40_scheduled_function_reads_a_variable_made_outside_the_scope(backend, tf):
    """A variable made outside the ParameterServerStrategy's scope lives on the chief
    (/job:chief/replica:0/task:0/device:CPU:0), not on a parameter server; a scheduled tf.function reads it and adds
    it into a ps variable (TF 2.21, observed: one schedule of `inside.assign_add(outside); return inside + outside`
    with inside 1.0 and outside 3.0 fetches 7.0 and leaves inside at 4.0; a function reading only it fetches 4.0). The
    suite's scheduled functions read ps variables only."""
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    strategy, coordinator = cluster.strategy, cluster.coordinator
    outside = tf.Variable(3.0)
    with strategy.scope():
        inside = tf.Variable(1.0)

    @tf.function
    def step():
        inside.assign_add(outside)
        return inside.read_value() + outside

    @tf.function
    def read():
        return outside + 1.0

    call = "coordinator.schedule of a tf.function reading a variable made outside strategy.scope()"
    assert_equal(outside.device, "/job:chief/replica:0/task:0/device:CPU:0", call=call, what="its device")
    r = coordinator.schedule(step)
    coordinator.join()
    assert_equal(float(r.fetch()), 7.0, call=call, what="the fetched result")
    assert_equal(float(inside.numpy()), 4.0, call=call, what="the ps variable after it")
    r = coordinator.schedule(read)
    coordinator.join()
    assert_equal(float(r.fetch()), 4.0, call=call + " (a read only)", what="the fetched result")


# == seed 17 (amut40's sweep) ===========================================================================================
@clause("ops.debugging-checks", ref="tf221")
@pytest.mark.parametrize(("summarize", "text"), [
    (0, "Condition x == y did not hold."),
    (1, "Condition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\nCorresponding x values:\n[2]\n"
        "Corresponding y values:\n[5]\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[1]"),
])
def test_amut40_eager_assert_equal_with_summarize_0_and_1(tf, summarize, text):
    """An eager tf.debugging.assert_equal that fails with summarize=0 prints the condition alone, with summarize=1 the
    first differing index and element of each (check_ops._make_assert_msg_data: its data only when summarize > 0, the
    elements a negative summarize shows all of; TF 2.21, observed texts). The suite used the default (3) and -1."""
    call = f"tf.debugging.assert_equal([1, 2, 3], [1, 5, 7], summarize={summarize})"
    with raises(tf.errors.InvalidArgumentError, match="^" + re.escape(text) + r"($|\s*\[Op:|\n\t)", call=call):
        tf.debugging.assert_equal(tf.constant([1, 2, 3]), tf.constant([1, 5, 7]), summarize=summarize)


@clause("ops.debugging-checks", ref="tf221")
def test_amut40_eager_assert_positive_with_summarize_0(tf):
    """tf.debugging.assert_positive with summarize=0 prints the tensor's label and "['...']" (no element; TF 2.21,
    observed "\\nCondition x > 0 did not hold element-wise:\\nx (shape=(2,) dtype=int32) = \\n['...']")."""
    text = "\nCondition x > 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['...']"
    with raises(tf.errors.InvalidArgumentError, match="^" + re.escape(text),
                call="tf.debugging.assert_positive([-1, 2], summarize=0)"):
        tf.debugging.assert_positive(tf.constant([-1, 2]), summarize=0)


@clause("dataset.readers", ref="tf221")
def test_amut40_tfrecord_file_bytes_with_masked_crcs(tf, tmp_path):
    """A TFRecord file is, per record, its length (uint64 little-endian), the length's masked CRC-32C, the data and the
    data's masked CRC-32C (crc32c::Mask: the CRC rotated right by 15 bits plus 0xa282ead8): one record b"abc" is the
    bytes 03000000 00000000 b099490e 616263 6e57f121 (TF 2.21, observed), which TF and simdist read back."""
    path = str(tmp_path / "amut40.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        w.write(b"abc")
    with open(path, "rb") as f:
        got = f.read().hex()
    assert_equal(got, "0300000000000000b099490e6162636e57f121", call="tf.io.TFRecordWriter: write(b'abc')",
                 what="the file's bytes (hex)")
    assert_equal([r.numpy() for r in tf.data.TFRecordDataset(path)], [b"abc"], call="TFRecordDataset of it")


@clause("dataset.csv", ref="tf221")
@pytest.mark.parametrize(("record", "want"), [(b"a,\rb", [b"a", b"b"]), (b"a,\nb", [b"a", b"b"]),
                                              (b'"a\r",b', [b"a\r", b"b"])])
def test_amut40_decode_csv_skips_a_cr_or_lf_where_a_field_starts(tf, record, want):
    """tf.io.decode_csv skips '\\r' and '\\n' where a field starts (ExtractFields), keeps them inside quotes, and an
    unquoted field holding one elsewhere is "Unquoted fields cannot have quotes/CRLFs inside" (TF 2.21, observed:
    b"a,\\rb" is [a, b], b"a,b\\r" the error)."""
    call = f"tf.io.decode_csv({record!r}, [[''], ['']])"
    r = tf.io.decode_csv(tf.constant(record), [[""], [""]])
    assert_equal([x.numpy() for x in r], want, call=call)
    with raises(tf.errors.InvalidArgumentError, match=re.escape("Unquoted fields cannot have quotes/CRLFs inside"),
                call="tf.io.decode_csv(b'a,b\\r', [[''], ['']])"):
        tf.io.decode_csv(tf.constant(b"a,b\r"), [[""], [""]])


@clause("ops.variable-slices", ref="tf221")
@pytest.mark.parametrize("value", [[5.0], [[5.0]]])
def test_amut40_slice_assign_drops_leading_ones_of_the_value(tf, value):
    """`v[0].assign(value)` of a vector variable with a [1] or [1, 1] value fills the scalar slice
    (StridedSliceAssignBCast drops the value's extra leading dimensions that are 1; TF 2.21, observed [5, 2])."""
    v = tf.Variable([1.0, 2.0])
    v[0].assign(value)
    assert_equal(v.numpy().tolist(), [5.0, 2.0], call=f"tf.Variable([1., 2.])[0].assign({value})")


@clause("ops.strings-to-number", ref="tf221")
@pytest.mark.parametrize(("text", "dtype", "want"), [
    ("3.4e38", "float32", 3.3999999521443642e+38), ("3.4028234e38", "float32", 3.4028234663852886e+38),
    ("1.7e308", "float64", 1.7e+308), ("1.7e308", "float32", math.inf),
])
def test_amut40_string_to_number_near_the_largest_finite(tf, text, dtype, want):
    """tf.strings.to_number rounds a text just below the format's largest finite value to that float, not to inf
    (only past it: "1.7e308" as float32 is inf; TF 2.21, observed)."""
    r = tf.strings.to_number(text, getattr(tf, dtype)).numpy()
    assert_equal(float(r), want, call=f"tf.strings.to_number({text!r}, tf.{dtype})")


@clause("ops.strings-join", ref="tf221")
def test_amut40_strings_format_of_bytes_that_are_not_utf8(tf):
    """tf.strings.format of a string tensor whose bytes are not UTF-8 passes them through (absl::Utf8SafeCEscape
    leaves bytes >= 0x80 as they are; TF 2.21, observed b'["\\xff\\xfeab" "\\xc3\\xa9"]' and b'x="a\\xffb"')."""
    r = tf.strings.format("{}", tf.constant([b"\xff\xfeab", b"\xc3\xa9"])).numpy()
    assert_equal(r, b'["\xff\xfeab" "\xc3\xa9"]', call="tf.strings.format('{}', [b'\\xff\\xfeab', b'\\xc3\\xa9'])")
    r = tf.strings.format("x={}", tf.constant(b"a\xffb")).numpy()
    assert_equal(r, b'x="a\xffb"', call="tf.strings.format('x={}', b'a\\xffb')")


@clause("ops.strings-regex", ref="tf221")
def test_amut40_traced_regex_replace_names_its_pattern_input(tf):
    """Inside a tf.function, tf.strings.regex_replace with a pattern [1] is op_def_library's TypeError naming the input
    and the op: "Expected string passed to parameter 'pattern' of op 'RegexReplace', got [1] of type 'list' instead.
    Error: Expected string, but got 1 of type 'int'." (TF 2.21, observed; its AutoGraph frame lines come first)."""
    @tf.function
    def f(x):
        return tf.strings.regex_replace(x, [1], "a")

    text = ("Expected string passed to parameter 'pattern' of op 'RegexReplace', got [1] of type 'list' instead. "
            "Error: Expected string, but got 1 of type 'int'.")
    with raises(TypeError, match=re.escape(text), call="traced tf.strings.regex_replace(x, [1], 'a')"):
        f(tf.constant(["abc"]))

"""Gaps the twelfth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 12, over 50 training-layer files
seeds 1-11 never sampled; thirty-fifth session), and those seed 11's unproven timeouts showed when each was re-run
alone: behaviours the suite executed but no test looked at (docs/conformance.md, "Thirty-fifth session: automatic
sweep, seed 12 (amut35)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import os
import re
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


# -- an output shape of more than 2**63 - 1 elements ------------------------------------------------------------------
@clause("ops.argument-errors", ref="tf221")
@pytest.mark.parametrize("shape, dtype", [([2**32, 2**31], "float32"), ([2**32, 2**32 - 1], "float32"),
                                          ([3, 2**62], "float32"), ([2**33, 2**31], "int8")],
                         ids=["2**63", "2**64-2**32", "3*2**62", "2**64-int8"])
def test_amut35_fill_of_more_than_2_63_elements(tf, shape, dtype):
    """Fill (tf.zeros) of a shape whose element count passes 2**63 - 1 is InvalidArgumentError "Shape [a,b] would have
    more than 2**63 - 1 elements" whatever the dtype, however far below 2**64 the count is; a count that fits is the
    allocator's ResourceExhaustedError (below). Eagerly only: TF 2.21's Grappler aborts the process on such a constant
    in a tf.function (observed on TF 2.21)."""
    text = ",".join(str(d) for d in shape)
    with raises(tf.errors.InvalidArgumentError,
                match=re.escape(f"Shape [{text}] would have more than 2**63 - 1 elements"),
                call=f"tf.zeros({shape}, tf.{dtype})"):
        tf.zeros(shape, getattr(tf, dtype))


@clause("ops.argument-errors", ref="tf221")
def test_amut35_fill_that_fits_in_int64_but_not_in_memory(tf):
    """tf.zeros([2**31, 2**31], tf.int8): 2**62 elements fit in an int64 count, so the kernel asks the allocator, whose
    refusal is ResourceExhaustedError "OOM when allocating tensor with shape[2147483648,2147483648] and type int8"
    (observed on TF 2.21)."""
    with raises(tf.errors.ResourceExhaustedError,
                match=re.escape("OOM when allocating tensor with shape[2147483648,2147483648] and type int8"),
                call="tf.zeros([2**31, 2**31], tf.int8)"):
        tf.zeros([2**31, 2**31], tf.int8)


# -- Pow of a subnormal base: glibc's pow under DAZ -----------------------------------------------------------------
@clause("ops.subnormals", ref="tf221")
@pytest.mark.parametrize("dtype, xs, ys", [
    ("float32", [1e-40, -1e-40, 3e-45, 1e-39], [0.5, 3.0, 0.25, -1.0]),
    ("float64", [1e-310, -1e-310, 5e-324], [0.5, 3.0, 0.25]),
], ids=["float32", "float64"])
def test_amut35_pow_of_a_subnormal_base(tf, dtype, xs, ys):
    """float32/float64 Pow outside a whole packet (these few elements) is glibc's pow of the operands as given, under
    DAZ: a subnormal x reads as 2**-150 (float32) or 2**-1075 (float64) whatever its bits, so x**y is 2**(y * -150),
    negative for a negative x and an odd integer y, rounded to the dtype and flushed (1e-40**0.5 is 2**-75, not 1e-20;
    (-1e-40)**3 is -0.0; 1e-39**-1 is inf) (observed on TF 2.21: [2.6469779601696886e-23, -0.0, 5.144878880564141e-12,
    inf] and [1.5717277847026288e-162, -0.0, 1.253685680185679e-81])."""
    e = -150.0 if dtype == "float32" else -1075.0
    np_dt = np.dtype(dtype)
    with np.errstate(over="ignore", under="ignore"):
        want = [float(np_dt.type(np.sign(x) ** (y if y == int(y) else 0) * 2.0 ** (y * e))) for x, y in zip(xs, ys)]
    tiny = float(np.finfo(dtype).tiny)
    want = [w if abs(w) >= tiny or w != w else float(np.copysign(0.0, w)) for w in want]
    got = to_numpy(tf.pow(tf.constant(xs, dtype), tf.constant(ys, dtype)))
    call = f"tf.pow({xs}, {ys}) {dtype}"
    assert_equal([float(v) for v in got], want, call=call, what="values")
    assert_equal(np.signbit(got).tolist(), np.signbit(want).tolist(), call=call, what="sign bits")


# -- tf.numpy_function in a tf.data pipeline: stateful unless told otherwise ------------------------------------------
@clause("dataset.iterator-checkpoint", ref="tf221")
def test_amut35_numpy_function_is_stateful_by_default_in_an_iterator_checkpoint(tf):
    """tf.numpy_function's `stateful` defaults to True: its PyFunc op makes a map's iterator refuse a checkpoint
    (FailedPreconditionError "PyFunc is stateful."), whereas stateful=False builds PyFuncStateless, which saves
    (observed on TF 2.21)."""
    def mapped(**kw):
        return tf.data.Dataset.range(5).map(
            lambda x: tf.reshape(tf.numpy_function(lambda a: a * 2, [x], tf.int64, **kw), []))
    with tempfile.TemporaryDirectory() as d:
        it = iter(mapped())
        assert_equal(int(next(it)), 0, call="range(5).map(numpy_function(a * 2)) first element", what="value")
        with raises(tf.errors.FailedPreconditionError, match="PyFunc is stateful",
                    call="Checkpoint(it=iter(range(5).map(numpy_function(...)))).save"):
            tf.train.Checkpoint(it=it).save(os.path.join(d, "default", "c"))
        it = iter(mapped(stateful=False))
        next(it)
        try:
            tf.train.Checkpoint(it=it).save(os.path.join(d, "stateless", "c"))
        except Exception as e:  # noqa: BLE001 - the report names what was refused
            raise AssertionError(f"Checkpoint(it=iter(range(5).map(numpy_function(..., stateful=False)))).save raised "
                                 f"{type(e).__name__}: {e}, but TF 2.21 saves it (PyFuncStateless)") from None
        assert_equal(int(next(it)), 2, call="the stateless pipeline's next element after the save", what="value")


# -- a convolution whose filter has one element ---------------------------------------------------------------------
@clause("ops.conv-generic", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_amut35_conv2d_with_a_one_element_filter(tf, dtype):
    """Conv2D refuses a filter of zero elements only: a [1, 1, 1, 1] filter scales the image, x * w (observed on
    TF 2.21: 2.5 * [0 .. 8])."""
    dt = getattr(tf, dtype)
    x = tf.reshape(tf.range(9, dtype=dt), [1, 3, 3, 1])
    got = to_numpy(tf.nn.conv2d(x, tf.constant(2.5, dt, [1, 1, 1, 1]), 1, "VALID"))
    assert_equal(got.reshape(-1).tolist(), [2.5 * i for i in range(9)],
                 call=f"tf.nn.conv2d(range(9) as [1, 3, 3, 1], [[[[2.5]]]]) {dtype}", what="values")


# -- tf.math.sobol_sample at its largest dimension -----------------------------------------------------------------
@clause("ops.nn-more", ref="tf221")
def test_amut35_sobol_sample_at_its_largest_dimension(tf):
    """SobolSample takes dim up to 21200 (its direction numbers' count) and refuses 21201 with InvalidArgumentError
    "dim must be at most 21200"; at skip=1 the points' last four coordinates are [0.75, 0.75, 0.25, 0.75] then
    [0.25, 0.25, 0.75, 0.25] (observed on TF 2.21)."""
    got = to_numpy(tf.math.sobol_sample(21200, 2, skip=1))
    assert_equal(list(got.shape), [2, 21200], call="tf.math.sobol_sample(21200, 2, skip=1)", what="shape")
    assert_equal(got[:, -4:].tolist(), [[0.75, 0.75, 0.25, 0.75], [0.25, 0.25, 0.75, 0.25]],
                 call="tf.math.sobol_sample(21200, 2, skip=1)[:, -4:]", what="values")
    with raises(tf.errors.InvalidArgumentError, match="dim must be at most 21200", call="tf.math.sobol_sample(21201, 2)"):
        tf.math.sobol_sample(21201, 2)


# -- tf.strings.to_number at the bounds of the unsigned types -----------------------------------------------------
@clause("ops.strings-to-number", ref="tf221")
@pytest.mark.parametrize("dtype, ok, bad", [
    ("uint32", ["0", "4294967295", "7"], ["-1", "4294967296"]),
    ("uint64", ["0", "18446744073709551615"], ["-1", "18446744073709551616"]),
    ("int32", ["-2147483648", "2147483647", "0"], ["-2147483649", "2147483648"]),
])
def test_amut35_string_to_number_at_the_integer_bounds(tf, dtype, ok, bad):
    """StringToNumber takes every value of its integer out_type, both bounds and 0 included, and refuses one past
    either bound with InvalidArgumentError "StringToNumberOp could not correctly convert string: S" (observed on
    TF 2.21)."""
    got = to_numpy(tf.strings.to_number(ok, getattr(tf, dtype)))
    assert_equal([int(v) for v in got], [int(s) for s in ok], call=f"tf.strings.to_number({ok}, tf.{dtype})",
                 what="values")
    for s in bad:
        with raises(tf.errors.InvalidArgumentError, match=re.escape(f"could not correctly convert string: {s}"),
                    call=f"tf.strings.to_number([{s!r}], tf.{dtype})"):
            tf.strings.to_number([s], getattr(tf, dtype))


# -- tf.strings.format's C escapes ----------------------------------------------------------------------------------
@clause("ops.strings-join", ref="tf221")
def test_amut35_string_format_escapes_control_characters(tf):
    """tf.strings.format summarises a string tensor with absl's Utf8SafeCEscape: \\r, \\n, \\t, quotes and backslash by
    name, other control bytes in octal (observed on TF 2.21)."""
    got = tf.strings.format("{}", tf.constant(["a\rb", "c\nd\t'\"\\", "\x01\x7f\x0b"])).numpy()
    want = b'["a\\rb" "c\\nd\\t\\\'\\"\\\\" "\\001\\177\\013"]'
    assert_equal(got, want, call="tf.strings.format('{}', ['a\\rb', ...])", what="text")


# -- tf.experimental.numpy: integer bounds of random.uniform, scans along axis 0 ------------------------------------
@clause("ops.experimental-numpy", ref="tf221")
def test_amut35_tnp_uniform_with_integer_bounds_is_float64(tf):
    """tnp.random.uniform(1, 3, size=(64,)) converts its bounds to float64: float64 draws in [1, 3) (TF 2.21's
    np_random.uniform; checked as NumPy's rule: any draw below 1 or at/above 3 fails)."""
    tnp = tf.experimental.numpy
    got = tnp.random.uniform(1, 3, size=(64,))
    assert_equal(got.dtype.name, "float64", call="tnp.random.uniform(1, 3, size=(64,))", what="dtype")
    v = to_numpy(got)
    assert_equal(bool(((v >= 1) & (v < 3)).all()), True, call="tnp.random.uniform(1, 3, size=(64,))",
                 what="every draw in [1, 3)")
    assert_equal(bool((v != np.floor(v)).any()), True, call="tnp.random.uniform(1, 3, size=(64,))",
                 what="some draw not an integer")


@clause("ops.experimental-numpy", ref="tf221")
@pytest.mark.parametrize("fn", ["cumsum", "cumprod"])
@pytest.mark.parametrize("axis", [0, 1, -1, -2, None])
def test_amut35_tnp_scans_along_every_axis(tf, fn, axis):
    """tnp.cumsum/cumprod along axis 0, 1, -1, -2 or flattened (None) are NumPy's (int64 for an int64 input)."""
    tnp = tf.experimental.numpy
    a = np.array([[1, 2, 3], [4, 5, 6]], np.int64)
    got = to_numpy(getattr(tnp, fn)(tnp.asarray(a), axis=axis))
    assert_equal(got.tolist(), getattr(np, fn)(a, axis=axis).tolist(), call=f"tnp.{fn}([[1, 2, 3], [4, 5, 6]], "
                 f"axis={axis})", what="values")


# -- tf.strings.to_hash_bucket: Hash64 with TF's seed ---------------------------------------------------------------
@clause("ops.string-hash-bucket", ref="tf221")
@pytest.mark.parametrize("buckets, want", [(1000, [938, 899, 866, 868]),
                                           (2**31 - 1, [279047871, 478987903, 97274992, 2048337276])])
def test_amut35_to_hash_bucket_values(tf, buckets, want):
    """tf.strings.to_hash_bucket (StringToHashBucket, the legacy one) is tsl::Hash64(s, 0xDECAFCAFFE) % buckets
    (observed on TF 2.21)."""
    got = to_numpy(tf.strings.to_hash_bucket(["hello", "", "simdist", "a"], buckets))
    assert_equal([int(v) for v in got], want, call=f"tf.strings.to_hash_bucket(['hello', '', 'simdist', 'a'], "
                 f"{buckets})", what="buckets")


# -- DCT type I -----------------------------------------------------------------------------------------------------
@clause("ops.signal-compositions", ref="tf221")
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_amut35_dct_type_one(tf, n):
    """tf.signal.dct(type=1) is the real part of the rfft of x followed by its interior mirrored: SciPy's DCT-I
    (within float32 rounding; observed on TF 2.21: n=5 gives [8.5, -6.18198, -2, 0.18198, 15.5])."""
    x = np.array([1.0, -2.0, 3.5, 0.25, 4.0, -1.0, 2.0, 0.5][:n])
    k = np.arange(n)[:, None]
    j = np.arange(1, n - 1)[None, :]
    want = x[0] + (-1.0) ** np.arange(n) * x[-1] + 2 * (x[1:-1][None, :] * np.cos(np.pi * k * j / (n - 1))).sum(1)
    got = to_numpy(tf.signal.dct(tf.constant([x], tf.float32), type=1))[0]
    for shape in ([n], [1, 1, n]):   # (the mirror is concatenated along the last axis, whatever the rank)
        other = to_numpy(tf.signal.dct(tf.constant(x.reshape(shape), tf.float32), type=1))
        assert_equal(other.reshape(-1).tolist(), got.tolist(), call=f"tf.signal.dct(x as {shape}, type=1)",
                     what="values (as for [1, n])")
    assert_equal(got.shape, (n,), call=f"tf.signal.dct({x.tolist()}, type=1)", what="shape")
    assert_equal(bool(np.allclose(got, want, rtol=1e-5, atol=1e-5)), True,
                 call=f"tf.signal.dct({x.tolist()}, type=1) = {got.tolist()}, DCT-I {want.tolist()}",
                 what="values within float32 rounding")


# -- raw pools in the channels-first layout where oneDNN runs float32 -----------------------------------------------
@clause("ops.host-cpu", ref="tf221")
@pytest.mark.parametrize("op, kw, want", [
    ("AvgPool", {"value": [1, 1, 4, 4]}, [[[[2.5, 4.5], [10.5, 12.5]]]]),
    ("MaxPool", {"input": [1, 1, 4, 4]}, [[[[5.0, 7.0], [13.0, 15.0]]]]),
    ("AvgPool3D", {"input": [1, 1, 2, 2, 4]}, [[[[[6.5, 8.5]]]]]),
])
def test_amut35_raw_pools_take_channels_first_through_onednn(tf, onednn_float32, op, kw, want):
    """Where oneDNN runs float32 (TF 2.21's IsMklEnabled), its layout pass takes the raw AvgPool/MaxPool/AvgPool3D in
    NCHW/NCDHW with a window of 1 in the batch and channel places: they compute, rather than TF's own kernel refusing
    the layout (observed on TF 2.21 on an AVX-512 host)."""
    (arg, shape), = kw.items()
    rank = len(shape)
    x = tf.reshape(tf.range(16, dtype=tf.float32), shape)
    win = [1, 1] + [2] * (rank - 2)
    fmt = "NCHW" if rank == 4 else "NCDHW"
    got = to_numpy(getattr(tf.raw_ops, op)(**{arg: x}, ksize=win, strides=win, padding="VALID", data_format=fmt))
    assert_equal(got.tolist(), want, call=f"tf.raw_ops.{op}(range(16) as {shape}, ksize={win}, {fmt})", what="values")


# -- tf.raw_ops.StatelessRandomUniformV2 ---------------------------------------------------------------------------
@clause("ops.stateless-random", ref="tf221")
def test_amut35_raw_stateless_random_uniform_v2(tf):
    """The raw StatelessRandomUniformV2 draws Philox's floats from the key and counter it is given (alg 1 and 3, the
    default, the same), float32 and float64, and refuses a shape that is not a vector with InvalidArgumentError "shape
    must be a vector of {int32,int64}, got shape [1,1]" (observed on TF 2.21)."""
    key, ctr = tf.constant([7], tf.uint64), tf.constant([0, 0], tf.uint64)
    for alg in (1, 3):
        got = to_numpy(tf.raw_ops.StatelessRandomUniformV2(shape=[3], key=key, counter=ctr, alg=alg))
        assert_equal(got.tolist(), [0.7537285089492798, 0.07793760299682617, 0.45880913734436035],
                     call=f"tf.raw_ops.StatelessRandomUniformV2(shape=[3], key=[7], counter=[0, 0], alg={alg})",
                     what="values")
    got = to_numpy(tf.raw_ops.StatelessRandomUniformV2(shape=tf.constant([2], tf.int64), key=key,
                                                       counter=tf.constant([1, 0], tf.uint64), alg=1, dtype=tf.float64))
    assert_equal(got.tolist(), [0.9098165467110035, 0.6873588160077957],
                 call="tf.raw_ops.StatelessRandomUniformV2(shape=[2], key=[7], counter=[1, 0], float64)", what="values")
    with raises(tf.errors.InvalidArgumentError, match=re.escape("shape must be a vector of {int32,int64}, got shape "
                                                                "[1,1]"),
                call="tf.raw_ops.StatelessRandomUniformV2(shape=[[3]], ...)"):
        tf.raw_ops.StatelessRandomUniformV2(shape=[[3]], key=key, counter=ctr, alg=1)


# -- Sobol points: as many digits as the last index needs ----------------------------------------------------------
@clause("ops.nn-more", ref="tf221")
@pytest.mark.parametrize("dim, n, skip, want", [
    (1, 1, 0, [[0.5]]),
    (2, 3, 0, [[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]]),
    (3, 7, 0, [[0.5, 0.5, 0.5], [0.75, 0.25, 0.25], [0.25, 0.75, 0.75], [0.375, 0.375, 0.625], [0.875, 0.875, 0.125],
               [0.625, 0.125, 0.875], [0.125, 0.625, 0.375]]),
    (2, 5, 2, [[0.25, 0.75], [0.375, 0.375], [0.875, 0.875], [0.625, 0.125], [0.125, 0.625]]),
])
def test_amut35_sobol_points_where_the_count_reaches_a_power_of_two(tf, dim, n, skip, want):
    """SobolSample's points 1 .. n + skip in Gray-code order, each coordinate a binary fraction of as many digits as
    log2(skip + n + 1) + 1 (here skip + n + 1 is 2, 4 or 8) (observed on TF 2.21)."""
    got = to_numpy(tf.math.sobol_sample(dim, n, skip=skip))
    assert_equal(got.tolist(), want, call=f"tf.math.sobol_sample({dim}, {n}, skip={skip})", what="points")


# -- tf.raw_ops.RandomGamma with op seeds ----------------------------------------------------------------------------
@clause("ops.random-gamma-poisson", ref="tf221")
def test_amut35_raw_random_gamma_with_seeds(tf):
    """The raw RandomGamma with seed/seed2 draws shape + alpha.shape samples, its dtype alpha's (observed on TF 2.21:
    the values below)."""
    got = to_numpy(tf.raw_ops.RandomGamma(shape=[3], alpha=tf.constant([0.5, 2.0]), seed=5, seed2=7))
    want = [[1.038369059562683, 2.386685609817505], [0.0038461429066956043, 1.4226257801055908],
            [0.11995662748813629, 2.032636880874634]]
    assert_equal(got.tolist(), want, call="tf.raw_ops.RandomGamma(shape=[3], alpha=[0.5, 2.0], seed=5, seed2=7)",
                 what="values")
    got = tf.raw_ops.RandomGamma(shape=tf.constant([2], tf.int64), alpha=tf.constant(3.0, tf.float64), seed=1, seed2=2)
    assert_equal(got.dtype.name, "float64", call="tf.raw_ops.RandomGamma(alpha float64)", what="dtype")
    assert_equal(to_numpy(got).tolist(), [0.8462445922369881, 1.8540495813483577],
                 call="tf.raw_ops.RandomGamma(shape=[2], alpha=3.0 float64, seed=1, seed2=2)", what="values")


# -- a lookup table's default is one value ------------------------------------------------------------------------
@clause("ops.lookup", ref="tf221")
@pytest.mark.parametrize("default", [[7, 8], [7]], ids=["two", "one-element-vector"])
def test_amut35_static_hash_table_refuses_a_non_scalar_default(tf, default):
    """StaticHashTable (InitializableLookupTableBase) merges its default's shape with []: a vector default, even of one
    element, is ValueError "Shapes (k,) and () are not compatible" at construction (observed on TF 2.21)."""
    init = tf.lookup.KeyValueTensorInitializer([1, 2], [10, 20])
    with raises(ValueError, match=re.escape(f"Shapes ({len(default)},) and () are not compatible"),
                call=f"tf.lookup.StaticHashTable(..., default_value={default})"):
        tf.lookup.StaticHashTable(init, default_value=tf.constant(default))
    table = tf.lookup.StaticHashTable(init, default_value=tf.constant(-1))
    assert_equal(to_numpy(table.lookup(tf.constant([1, 3]))).tolist(), [10, -1], call="lookup([1, 3])", what="values")


# -- the file ops' inputs by their op_def names ---------------------------------------------------------------------
@clause("io.tensor-codec", ref="tf221")
def test_amut35_file_ops_name_their_inputs_in_a_tf_function(tf):
    """Inside a tf.function, op_def_library names a file op's input by its op_def name: a non-string tensor is TypeError
    "Input 'pattern' of 'MatchingFiles' Op has type int32 that does not match expected type of string." ('filename'
    for ReadFile and WriteFile's first, 'contents' for its second), a Python value that is no text "Expected string
    passed to parameter 'pattern' of op 'MatchingFiles', got [1] ..." (observed on TF 2.21)."""
    d = tempfile.mkdtemp()
    p = os.path.join(d, "f")
    cases = [
        ("matching_files(int32 tensor)", lambda: tf.io.matching_files(tf.constant([1])),
         "Input 'pattern' of 'MatchingFiles' Op has type int32 that does not match expected type of string."),
        ("read_file(int32 tensor)", lambda: tf.io.read_file(tf.constant(1)),
         "Input 'filename' of 'ReadFile' Op has type int32 that does not match expected type of string."),
        ("write_file(int32 tensor, 'x')", lambda: tf.io.write_file(tf.constant(1), "x"),
         "Input 'filename' of 'WriteFile' Op has type int32 that does not match expected type of string."),
        ("write_file(path, int32 tensor)", lambda: tf.io.write_file(p, tf.constant(2)),
         "Input 'contents' of 'WriteFile' Op has type int32 that does not match expected type of string."),
        ("matching_files([1])", lambda: tf.io.matching_files([1]),
         "Expected string passed to parameter 'pattern' of op 'MatchingFiles', got [1] of type 'list' instead."),
    ]
    try:
        for call, fn, text in cases:
            with raises(TypeError, match=re.escape(text), call=f"tf.function(lambda: tf.io.{call})()"):
                tf.function(fn)()
    finally:
        import shutil
        shutil.rmtree(d, ignore_errors=True)


# -- the Operation an output-less op returns in a tf.function ------------------------------------------------------
@clause("function.operation-results", ref="tf221")
def test_amut35_output_less_ops_return_named_operations_in_a_function(tf):
    """Inside a tf.function, tf.debugging.Assert, tf.no_op and tf.group return an Operation with the graph's name and
    op type ('chk/Assert' of type 'Assert', 'nop' and 'grp' of type 'NoOp'), which control_dependencies takes and
    convert_to_tensor refuses: TypeError "can't convert Operation 'nop' to Tensor" (observed on TF 2.21)."""
    seen: dict = {}

    @tf.function
    def f(x):
        a = tf.debugging.Assert(x > 0, [x], name="chk")
        n = tf.no_op(name="nop")
        g = tf.group(x + 1, name="grp")
        seen.update(a=(a.name, a.type), n=(n.name, n.type), g=(g.name, g.type))
        try:
            tf.convert_to_tensor(n)
        except TypeError as e:
            seen["conv"] = str(e)
        with tf.control_dependencies([a, n]):
            return x * 2
    assert_equal(int(f(tf.constant(3))), 6, call="f(3) under control_dependencies([assert, no_op])", what="value")
    assert_equal(seen.get("a"), ("chk/Assert", "Assert"), call="tf.debugging.Assert(..., name='chk')",
                 what="(name, type)")
    assert_equal(seen.get("n"), ("nop", "NoOp"), call="tf.no_op(name='nop')", what="(name, type)")
    assert_equal(seen.get("g"), ("grp", "NoOp"), call="tf.group(x + 1, name='grp')", what="(name, type)")
    assert_equal(seen.get("conv"), "can't convert Operation 'nop' to Tensor", call="tf.convert_to_tensor(no_op)",
                 what="TypeError message")


# -- the random kernels' refusal of a shape that is not a vector ------------------------------------------------------
@clause("ops.random-gamma-poisson", ref="tf221")
@pytest.mark.parametrize("op, shape, shown", [
    ("RandomGamma", [[2]], ": Tensor<type: int32 shape: [1,1] values: [2]>"),
    ("RandomGamma", [[2, 1, 1], [1, 1, 1]], ": Tensor<type: int32 shape: [2,3] values: [2 1 1]...>"),
    ("RandomGamma", 2, ": Tensor<type: int32 shape: [] values: 2>"),
    ("RandomPoissonV2", [[2]], " [1,1]"),
    ("StatelessRandomGammaV3", [[2]], " [1,1]"),
    ("StatelessRandomPoisson", [[2]], " [1,1]"),
])
def test_amut35_random_kernels_show_a_non_vector_shape(tf, op, shape, shown):
    """A shape that is not a vector is InvalidArgumentError "shape must be a vector of {int32,int64}, got shape..."
    eagerly: RandomGamma's kernel shows the tensor's DebugString (its first 3 values), the Poisson and stateless
    kernels its shape only (observed on TF 2.21)."""
    key, ctr = tf.constant([1], tf.uint64), tf.constant([0, 0], tf.uint64)
    calls = {
        "RandomGamma": lambda: tf.raw_ops.RandomGamma(shape=shape, alpha=tf.constant(3.0), seed=1, seed2=2),
        "RandomPoissonV2": lambda: tf.raw_ops.RandomPoissonV2(shape=shape, rate=tf.constant(3.0), seed=1, seed2=2),
        "StatelessRandomGammaV3": lambda: tf.raw_ops.StatelessRandomGammaV3(shape=shape, key=key, counter=ctr, alg=1,
                                                                           alpha=tf.constant(3.0)),
        "StatelessRandomPoisson": lambda: tf.raw_ops.StatelessRandomPoisson(shape=shape, seed=[1, 2],
                                                                           lam=tf.constant(3.0), dtype=tf.float32),
    }
    with raises(tf.errors.InvalidArgumentError,
                match=re.escape(f"shape must be a vector of {{int32,int64}}, got shape{shown} [Op:{op}]"),
                call=f"tf.raw_ops.{op}(shape={shape}, ...)"):
        calls[op]()


# -- a raw op's input of a fixed dtype given a Python value that does not convert, in a tf.function -------------------
@clause("ops.raw-ops", ref="tf221")
@pytest.mark.parametrize("op, arg, want, value, kwargs", [
    ("OneHot", "depth", "int32", 2.5, {"indices": [0, 1], "on_value": 1.0, "off_value": 0.0}),
    ("OneHot", "depth", "int32", "two", {"indices": [0, 1], "on_value": 1.0, "off_value": 0.0}),
    ("MatrixDiagV3", "k", "int32", 0.5, {"diagonal": [1.0, 2.0], "num_rows": -1, "num_cols": -1, "padding_value": 0.0}),
    ("EncodeBase64", "input", "string", 3, {}),
], ids=["onehot-depth-float", "onehot-depth-str", "matrix-diag-k-float", "encode-base64-int"])
def test_amut35_raw_op_fixed_dtype_input_refuses_a_python_value(tf, op, arg, want, value, kwargs):
    """op_def_library converts a Python value for an input of fixed dtype to that dtype: one that does not convert is
    TypeError "Expected int32 passed to parameter 'depth' of op 'OneHot', got 2.5 of type 'float' instead. Error:
    Expected int32, but got 2.5 of type 'float'." while the function is traced (observed on TF 2.21)."""
    shown = f"'{value}'" if isinstance(value, str) else str(value)
    text = (f"Expected {want} passed to parameter '{arg}' of op '{op}', got {shown} of type '{type(value).__name__}' "
            f"instead. Error: Expected {want}, but got {value} of type '{type(value).__name__}'.")
    fn = tf.function(lambda: getattr(tf.raw_ops, op)(**{arg: value}, **kwargs))
    with raises(TypeError, match=re.escape(text), call=f"tf.function(tf.raw_ops.{op}({arg}={value!r}, ...))()"):
        fn()

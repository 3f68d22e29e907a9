"""Gaps the seventh mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 7, over the training-layer files
seeds 1-6 never sampled: Keras's legacy backend, config and saving helpers, data utilities and legacy preprocessing,
image/audio preprocessing layers, the runtime's eager core (conversion, context, execution, tapes), four training op
modules, the gradient registry, the strategies' coordination modules; thirtieth session): behaviours the suite executed
but no test looked at (docs/conformance.md, "Thirtieth session: automatic sweep, seed 7 (amut30)"; TF 2.21 +
Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, relations between two spellings of one computation, or observations of TF 2.21 / Keras 3.15
named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises, to_numpy
from simdist.conformance.suite.test_coordinator import BUSY   # (the busy closure test_coordinator's fault tests run)

clause = pytest.mark.clause


# -- Solarization: its factors accept both ends of [0, 1] ---------------------------------------------------------------
_SOLARIZATION_ERROR = ("The `addition_factor` and `threshold_factor` arguments should be a number (or a list of two "
                       "numbers) in the range [0, 1]. Received: input_number=")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_amut30_solarization_factors_accept_both_ends_of_the_unit_range(keras):
    """Solarization's addition_factor and threshold_factor accept 0 and 1 themselves, as numbers and as the ends of a
    (lower, upper) pair, and refuse a value just outside with Keras's ValueError naming it (observed on TF 2.21:
    Solarization(addition_factor=1.0).addition_factor is (0, 1.0))."""
    L = keras.layers
    layer = L.Solarization(addition_factor=1.0, threshold_factor=1.0)
    assert_equal(tuple(layer.addition_factor), (0, 1.0), call="Solarization(addition_factor=1.0).addition_factor")
    assert_equal(tuple(layer.threshold_factor), (0, 1.0), call="Solarization(threshold_factor=1.0).threshold_factor")
    pair = L.Solarization(addition_factor=(0.0, 1.0), threshold_factor=(1.0, 1.0))
    assert_equal(tuple(pair.addition_factor), (0.0, 1.0), call="Solarization(addition_factor=(0.0, 1.0))")
    assert_equal(tuple(pair.threshold_factor), (1.0, 1.0), call="Solarization(threshold_factor=(1.0, 1.0))")
    for kwargs, bad in (({"addition_factor": 1.01}, "1.01"), ({"threshold_factor": -0.1}, "-0.1"),
                        ({"addition_factor": (0.5, 1.5)}, "1.5")):
        with raises(ValueError, match=re.escape(_SOLARIZATION_ERROR + bad), call=f"Solarization(**{kwargs})"):
            L.Solarization(**kwargs)


# -- the legacy Tokenizer counts every occurrence ----------------------------------------------------------------------
@clause("keras.preprocessing.legacy", ref="tf221")
def test_amut30_tokenizer_counts_every_occurrence_of_a_word(keras):
    """Tokenizer.fit_on_texts counts each occurrence of a word (word_counts), each document holding it once (word_docs),
    and indexes the words by descending count: for ["a a b", "b c a"] the counts are a 3, b 2, c 1, the documents
    a 2, b 2, c 1, the index a 1, b 2, c 3 (the rule; observed on TF 2.21)."""
    tok = keras.preprocessing.text.Tokenizer()
    tok.fit_on_texts(["a a b", "b c a"])
    assert_equal(dict(tok.word_counts), {"a": 3, "b": 2, "c": 1}, call="Tokenizer().fit_on_texts(...).word_counts")
    assert_equal(dict(sorted(dict(tok.word_docs).items())), {"a": 2, "b": 2, "c": 1}, call="word_docs")
    assert_equal(dict(tok.word_index), {"a": 1, "b": 2, "c": 3}, call="word_index")
    assert_equal(tok.texts_to_sequences(["c a a"]), [[3, 1, 1]], call="texts_to_sequences(['c a a'])")


# -- split_dataset names the argument whose type it refuses ------------------------------------------------------------
@clause("keras.utils.data-tools", ref="tf221")
@pytest.mark.parametrize("left, right, message", [
    ("a", None, "Invalid `left_size` Type. Expected: int or float or None, Received: type(left_size)=<class 'str'>."),
    (None, "a", "Invalid `right_size` Type. Expected: int or float or None,Received: type(right_size)=<class 'str'>."),
    (0.5, [1], "Invalid `right_size` Type. Expected: int or float or None,Received: type(right_size)=<class 'list'>."),
    ("a", "b", "Invalid `left_size` and `right_size` Types. Expected: integer or float or None, Received: "
               "type(left_size)=<class 'str'> and type(right_size)=<class 'str'>"),
])
def test_amut30_split_dataset_names_the_size_of_the_wrong_type(keras, left, right, message):
    """keras.utils.split_dataset refuses a left_size or right_size that is not an int, a float or None with a TypeError
    naming that argument alone when the other is valid or None, and both only when both are wrong (Keras 3.15's
    messages, observed on TF 2.21)."""
    with raises(TypeError, match="^" + re.escape(message), call=f"split_dataset(left_size={left!r}, right_size={right!r})"):
        keras.utils.split_dataset(np.arange(10), left_size=left, right_size=right)


# -- Python sequence conversion: the int64 range is checked up to the first float --------------------------------------
@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("value, dtype", [
    ([2**64, 1.5], None), ([2**63, 2.5], None), ([-(2**63) - 1, 2.5], None), ([1, 2**64, 1.5], None),
    ([1.5, 2**64], "float32"), ([2**63 - 1, 2], "int64"), ([-(2**63), 2], "int64"),
])
def test_amut30_sequence_ints_must_fit_int64_until_the_first_float(tf, value, dtype):
    """Converting a Python list with no dtype, TF reads the leaves in order as int64 until the first float: an int
    outside [-2**63, 2**63) before it is ValueError "Can't convert Python sequence with out-of-range integer to
    Tensor.", one after it converts as a float (float32), and the int64 bounds themselves convert (observed on
    TF 2.21)."""
    call = f"tf.constant({value!r})"
    if dtype is None:
        with raises(ValueError, match=re.escape("Can't convert Python sequence with out-of-range integer to Tensor."),
                    call=call):
            tf.constant(value)
        return
    t = tf.constant(value)
    assert_equal(t.dtype.name, dtype, call=call, what="dtype")
    want = np.array([float(v) for v in value], np.float32) if dtype == "float32" else np.array(value, np.int64)
    assert_equal(to_numpy(t).tolist(), want.tolist(), call=call)


# -- MelSpectrogram.linear_to_mel_weight_matrix's defaults ------------------------------------------------------------
@clause("keras.layer.audio", ref="tf221")
def test_amut30_mel_weight_matrix_defaults_are_keras_defaults(keras):
    """MelSpectrogram.linear_to_mel_weight_matrix() with no arguments is the (129, 20) float32 filter bank of Keras's
    defaults num_mel_bins=20, num_spectrogram_bins=129, sampling_rate=8000, lower_edge_hertz=125, upper_edge_hertz=3800
    (the signature of Keras 3.15), equal to the call naming them; each default matters (changing any changes the
    matrix)."""
    layer = keras.layers.MelSpectrogram()
    defaults = dict(num_mel_bins=20, num_spectrogram_bins=129, sampling_rate=8000, lower_edge_hertz=125.0,
                    upper_edge_hertz=3800.0)
    got = to_numpy(layer.linear_to_mel_weight_matrix())
    assert_equal(got.shape, (129, 20), call="linear_to_mel_weight_matrix()", what="shape")
    assert_equal(str(got.dtype), "float32", call="linear_to_mel_weight_matrix()", what="dtype")
    explicit = to_numpy(layer.linear_to_mel_weight_matrix(**defaults))
    assert_true(np.array_equal(got, explicit), "linear_to_mel_weight_matrix() differs from the call naming Keras's "
                f"defaults {defaults}: max |difference| {np.max(np.abs(got - explicit))}",
                call="linear_to_mel_weight_matrix()")
    moved = to_numpy(layer.linear_to_mel_weight_matrix(**{**defaults, "sampling_rate": 8001}))
    assert_true(not np.array_equal(got, moved), "sampling_rate=8001 gave the matrix of 8000; the test cannot tell "
                "the default", call="linear_to_mel_weight_matrix(sampling_rate=8001)")


# -- the image layers' public transformation methods default to training=True -----------------------------------------
_IMAGES = np.linspace(0.0, 255.0, 2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)


@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("name, key", [("RandomContrast", "contrast_factor"), ("RandomBrightness", "rgb_delta")])
def test_amut30_transformation_methods_default_to_training(keras, name, key):
    """A color layer's public get_random_transformation(images) and transform_images(images, transformation) default
    to training=True (Keras 3.15's signatures): the default draw equals the call naming training=True (two layers of
    one seed), and the default transform changes the images exactly as training=True does, while training=False
    returns them unchanged (observed on TF 2.21). RandomContrast's factors lie in [1 - 0.5, 1 + 0.5], one per image,
    and training=False's are zeros."""
    make = getattr(keras.layers, name)
    call = f"{name}(0.5, seed=3)"
    default = to_numpy(make(0.5, seed=3).get_random_transformation(_IMAGES)[key])
    explicit = to_numpy(make(0.5, seed=3).get_random_transformation(_IMAGES, training=True)[key])
    assert_equal(default.tolist(), explicit.tolist(), call=call + ".get_random_transformation(images) vs training=True")
    layer = make(0.5, seed=3)
    t = layer.get_random_transformation(_IMAGES, training=True)
    moved = to_numpy(layer.transform_images(_IMAGES, t))
    assert_equal(moved.tolist(), to_numpy(layer.transform_images(_IMAGES, t, training=True)).tolist(),
                 call=call + ".transform_images(images, t) vs training=True")
    assert_true(not np.array_equal(moved, _IMAGES), "transform_images(images, t) returned the images unchanged, but "
                "its default is training=True", call=call + ".transform_images(images, t)")
    assert_equal(to_numpy(layer.transform_images(_IMAGES, t, training=False)).tolist(), _IMAGES.tolist(),
                 call=call + ".transform_images(images, t, training=False)")
    if name == "RandomContrast":
        assert_equal(default.shape, (2, 1, 1, 1), call=call, what="shape")
        assert_true(bool(np.all((default >= 0.5) & (default <= 1.5))) and default.flat[0] != default.flat[1],
                    f"contrast factors {default.ravel().tolist()} should be two distinct draws in [0.5, 1.5]",
                    call=call)
        off = to_numpy(make(0.5, seed=3).get_random_transformation(_IMAGES, training=False)[key])
        assert_equal(off.ravel().tolist(), [0.0, 0.0], call=call + ".get_random_transformation(images, training=False)")


# -- pickling a model loads its Lambda layers (pickle is never safe mode) ---------------------------------------------
@clause("keras.saving.keras-file", ref="tf221")
def test_amut30_pickled_models_keep_their_lambda_layers(keras):
    """pickle.loads(pickle.dumps(model)) of a model holding a Lambda of a Python lambda gives a model computing the
    same outputs: Keras unpickles with safe_mode=False (keras_saveable.py: "pickle is not safe regardless of what you
    do"), so the lambda's bytecode loads instead of being refused (observed on TF 2.21)."""
    import pickle

    inp = keras.Input((3,))
    out = keras.layers.Lambda(lambda x: x * 2.0 + 1.0)(keras.layers.Dense(2, kernel_initializer="ones")(inp))
    model = keras.Model(inp, out)
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    back = pickle.loads(pickle.dumps(model))
    assert_equal(to_numpy(back(x)).tolist(), [[13.0, 13.0]], call="pickle round trip of Dense(ones) -> Lambda(2x + 1)")
    seq = keras.Sequential([keras.Input((2,)), keras.layers.Lambda(lambda x: x - 1.0)])
    assert_equal(to_numpy(pickle.loads(pickle.dumps(seq))(np.ones((1, 2), np.float32))).tolist(), [[0.0, 0.0]],
                 call="pickle round trip of Sequential([Lambda(x - 1)])")


# -- RandomErasing draws its boxes in the layer's compute dtype --------------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_amut30_random_erasing_draws_its_boxes_in_the_compute_dtype(keras, dtype):
    """RandomErasing's erased boxes are Keras 3.15's draws, in the layer's compute dtype, in this order from its
    SeedGenerator: the (batch, 2) area weights uniform in `scale` (square-rooted), then each image's x start and y
    start uniform in [0, 1) scaled by the room left (length - round-down-free crop length), the box the pixels with
    x0 <= x < x1 and y0 <= y < y1 on an arange grid (random_erasing.py get_random_transformation and
    _compute_crop_bounds, transcribed here with keras.random.uniform of one seed)."""
    images = np.arange(4 * 16 * 12 * 3, dtype=dtype).reshape(4, 16, 12, 3) % 251
    layer = keras.layers.RandomErasing(factor=1.0, scale=(0.1, 0.6), seed=5, dtype=dtype)
    got = to_numpy(layer.get_random_transformation(images)["batch_masks"])
    gen = keras.random.SeedGenerator(5)
    weights = np.sqrt(to_numpy(keras.random.uniform((4, 2), minval=0.1, maxval=0.6, dtype=dtype, seed=gen)))

    def bounds(length, ratio):
        crop = (ratio * length).astype(dtype)
        start = to_numpy(keras.random.uniform([4], minval=0, maxval=1, dtype=dtype, seed=gen)) * (length - crop)
        return start, start + crop

    x0, x1 = bounds(12, weights[:, 0])
    y0, y1 = bounds(16, weights[:, 1])
    gy, gx = np.meshgrid(np.arange(16, dtype=dtype), np.arange(12, dtype=dtype), indexing="ij")
    gx, gy = gx[None, :, :, None], gy[None, :, :, None]
    box = lambda v: v[:, None, None, None]   # noqa: E731
    want = (gx >= box(x0)) & (gx < box(x1)) & (gy >= box(y0)) & (gy < box(y1))
    want = np.repeat(want, 3, axis=-1)
    call = f"RandomErasing(factor=1.0, scale=(0.1, 0.6), seed=5, dtype={dtype!r}).get_random_transformation(images)"
    assert_equal(got.shape, want.shape, call=call, what="batch_masks shape")
    assert_true(np.array_equal(got, want), f"batch_masks differ from the boxes of the {dtype} draws at "
                f"{int(np.sum(got != want))} places (erased per image: got {got.sum(axis=(1, 2, 3)).tolist()}, "
                f"should be {want.sum(axis=(1, 2, 3)).tolist()})", call=call)


# -- keras.ops.unique along an axis, with counts -----------------------------------------------------------------------
_UNIQUE_ROWS = np.array([[3, 1], [0, 2], [3, 1], [0, 2], [5, 5], [3, 1]], np.int32)


@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("axis", [0, 1, -2])
@pytest.mark.parametrize("inverse", [False, True])
def test_amut30_unique_along_an_axis_counts_its_slices(keras, axis, inverse):
    """keras.ops.unique(x, axis=a, return_counts=True) returns the distinct slices along `a`, sorted (lexicographic,
    NumPy's np.unique with axis), with how often each occurs (and, asked for, each slice's index among them): the
    TensorFlow backend's UniqueWithCountsV2 path; np.unique computes the expected values here."""
    call = f"keras.ops.unique(x, axis={axis}, return_counts=True, return_inverse={inverse})"
    got = keras.ops.unique(_UNIQUE_ROWS, axis=axis, return_counts=True, return_inverse=inverse)
    values, idx, counts = np.unique(_UNIQUE_ROWS, axis=axis, return_inverse=True, return_counts=True)
    assert_equal(to_numpy(got[0]).tolist(), values.tolist(), call=call, what="unique slices")
    assert_equal(to_numpy(got[-1]).tolist(), counts.tolist(), call=call, what="counts")
    if inverse:
        assert_equal(to_numpy(got[1]).ravel().tolist(), idx.ravel().tolist(), call=call, what="inverse")


@clause("keras.ops", ref="tf221")
def test_amut30_unsorted_unique_rows_keep_first_seen_order(keras):
    """keras.ops.unique(x, sorted=False, axis=0, return_counts=True) keeps the rows in first-seen order with their
    counts: for rows [3 1], [0 2], [3 1], [0 2], [5 5], [3 1] that is [3 1], [0 2], [5 5] with counts 3, 2, 1 (the
    rule, transcribed here; observed on TF 2.21)."""
    got = keras.ops.unique(_UNIQUE_ROWS, sorted=False, axis=0, return_counts=True)
    seen: dict[tuple, int] = {}
    for row in map(tuple, _UNIQUE_ROWS.tolist()):
        seen[row] = seen.get(row, 0) + 1
    call = "keras.ops.unique(x, sorted=False, axis=0, return_counts=True)"
    assert_equal(to_numpy(got[0]).tolist(), [list(r) for r in seen], call=call, what="unique rows")
    assert_equal(to_numpy(got[1]).tolist(), list(seen.values()), call=call, what="counts")


# -- TimeseriesGenerator's shuffled rows under keras.utils.set_random_seed ---------------------------------------------
@clause("keras.preprocessing.legacy", ref="tf221")
def test_amut30_timeseries_generator_shuffles_rows_up_to_end_index(keras):
    """After keras.utils.set_random_seed(s), a shuffled TimeseriesGenerator's batch is the rows NumPy's global
    generator draws, np.random.randint(start_index, end_index + 1, batch_size) (end_index included; Keras 3.15's
    sequence.py), each sample the `length` steps before its row: transcribed here with np.random.seed(s)."""
    data, targets = np.arange(100), np.arange(100) * 10
    keras.utils.set_random_seed(7)
    gen = keras.preprocessing.sequence.TimeseriesGenerator(data, targets, length=3, shuffle=True, batch_size=40)
    samples, got = gen[0]
    np.random.seed(7)
    rows = np.random.randint(3, 99 + 1, size=40)
    call = "set_random_seed(7); TimeseriesGenerator(arange(100), 10 * arange(100), length=3, shuffle=True, batch_size=40)[0]"
    assert_equal(np.asarray(got).tolist(), targets[rows].tolist(), call=call, what="targets")
    assert_equal(np.asarray(samples).tolist(), [data[r - 3:r].tolist() for r in rows], call=call, what="samples")


@clause("keras.preprocessing.legacy", ref="tf221")
@pytest.mark.parametrize("mode", ["count", "binary", "freq"])
def test_amut30_tokenizer_matrix_drops_indices_from_num_words_on(keras, mode):
    """Tokenizer(num_words=n).sequences_to_matrix gives n columns and skips every index >= n, n itself included
    (Keras's `if j >= num_words: continue`): for [[1, 2, 3, 3, 4, 2]] with n = 3, counts 0, 1, 2 (indices 3 and 4
    dropped), binary 0, 1, 1, freq the counts over the whole sequence's length 6 (the rule, transcribed here)."""
    tok = keras.preprocessing.text.Tokenizer(num_words=3)
    seqs = [[1, 2, 3, 3, 4, 2], [3, 3], []]
    got = np.asarray(tok.sequences_to_matrix(seqs, mode=mode))
    want = np.zeros((3, 3))
    for i, seq in enumerate(seqs):
        for j in seq:
            if j < 3:
                want[i, j] += 1
        if mode == "binary":
            want[i] = want[i] > 0
        elif mode == "freq" and seq:
            want[i] /= len(seq)
    assert_equal(got.tolist(), want.tolist(), call=f"Tokenizer(num_words=3).sequences_to_matrix({seqs}, mode={mode!r})")


# -- a partitioner asking for more shards than rows: a ShardedVariable of one shard ------------------------------------
@pytest.mark.requires("multi_worker")
@clause("pss.partitioner-div", ref="tf221")
def test_amut30_more_partitions_than_rows_of_one_row_make_one_shard(backend, tf):
    """A custom variable_partitioner returning [2, 1] for a (1, 3) variable: ParameterServerStrategy divides the rows
    over min(2, 1) = 1 partition and still builds a ShardedVariable (the no-partition path is taken only for a
    partitioner's own [1, ...]; parameter_server_strategy_v2.py `_create_variable`), of shape (1, 3), one shard
    `w/part_0` holding the value (observed on TF 2.21). FixedShardsPartitioner caps its count at the rows itself,
    so only a custom partitioner reaches this."""
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=lambda shape, dtype: [2, 1])
    with cluster.strategy.scope():
        v = tf.Variable([[1.0, 2.0, 3.0]], name="w")
    call = "partitioner -> [2, 1]; tf.Variable([[1, 2, 3]], name='w') under the PSS scope"
    mro = [c.__name__ for c in type(v).__mro__]
    assert_true("ShardedVariable" in mro, f"got a {type(v).__name__}, but should be a ShardedVariable", call=call)
    assert_equal(len(v.variables), 1, call=call, what="the number of shards")
    assert_equal(v.variables[0].name, "w/part_0:0", call=call, what="the shard's name")
    assert_equal(list(v.shape), [1, 3], call=call, what="shape")
    assert_equal(to_numpy(tf.convert_to_tensor(v)).tolist(), [[1.0, 2.0, 3.0]], call=call, what="value")


# -- a failed parameter server's variables: reads and writes from the coordinator are UnavailableError ---------------
_PS_DOWN = """
from simdist.conformance.protocol import PSFailure
cluster = backend.make_ps_cluster(workers=1, ps=1, faults=[PSFailure(ps=0, during_closure=1)])
""" + BUSY + """
try:
    coordinator.schedule(work)
    coordinator.join()
    error = None
except Exception as e:
    error = e
outcomes = []
for what, f in (("counter.numpy()", lambda: counter.numpy()), ("counter.assign(5)", lambda: counter.assign(5)),
                ("counter.read_value()", lambda: counter.read_value())):
    try:
        f()
        outcomes.append((what, "ok", ""))
    except Exception as e:
        outcomes.append((what, type(e).__name__, str(e)[:200]))
fired = cluster.faults_fired()
"""


@pytest.mark.requires("multi_worker", "fault_injection")
@clause("coord.ps-failure", ref="tf221")
def test_amut30_a_failed_ps_refuses_reads_and_writes_of_its_variables(backend, tf):
    """One worker, the only parameter server fails during the first scheduled function (and stays down): join raises
    UnavailableError, and afterwards the coordinator's read, assign and read_value of a variable on that ps each raise
    UnavailableError (observed on TF 2.21: gRPC's "failed to connect to all addresses"), not a value, not a success
    and not another error class."""
    from simdist.conformance.repro import Program
    ns = Program(backend, _PS_DOWN).run()
    call = "1 worker, ps 0 fails during the first function; join; then counter.numpy(), .assign(5), .read_value()"
    assert_true("fail ps 0" in ns["fired"], f"the ps failure never happened (fired: {ns['fired']})", call=call)
    err = ns["error"]
    assert_true(isinstance(err, tf.errors.UnavailableError),
                f"join raised {type(err).__name__}({str(err)[:200]!r}), but should raise UnavailableError", call=call)
    backend.notice_error(err)
    for what, kind, text in ns["outcomes"]:
        assert_true(kind == "UnavailableError", f"{what} gave {kind}({text!r}), but should raise UnavailableError",
                    call=call)


# -- TimeseriesGenerator's batches in order ---------------------------------------------------------------------------
@clause("keras.preprocessing.legacy", ref="tf221")
def test_amut30_timeseries_generator_batches_follow_each_other(keras):
    """An unshuffled TimeseriesGenerator's batch i holds the rows start + batch_size * stride * i, ... (every `stride`,
    at most batch_size of them, not past end_index), start = start_index + length, each sample the `length` steps
    before its row every sampling_rate, each target the row's; len is the number of such batches (Keras 3.15's
    sequence.py, transcribed here)."""
    data, targets = np.arange(30), np.arange(30) * 10
    length, stride, batch, start_index = 3, 2, 4, 5
    gen = keras.preprocessing.sequence.TimeseriesGenerator(data, targets, length=length, stride=stride,
                                                           batch_size=batch, start_index=start_index)
    start, end = start_index + length, len(data) - 1
    n = (end - start + batch * stride) // (batch * stride)
    call = "TimeseriesGenerator(arange(30), 10 * arange(30), length=3, stride=2, batch_size=4, start_index=5)"
    assert_equal(len(gen), n, call=f"len({call})")
    for i in range(n):
        first = start + batch * stride * i
        rows = np.arange(first, min(first + batch * stride, end + 1), stride)
        samples, got = gen[i]
        assert_equal(np.asarray(got).tolist(), targets[rows].tolist(), call=f"{call}[{i}]", what="targets")
        assert_equal(np.asarray(samples).tolist(), [data[r - length:r].tolist() for r in rows], call=f"{call}[{i}]",
                     what="samples")


# -- assert_none_equal's message with summarize=0 ---------------------------------------------------------------------
@clause("ops.debugging-checks", ref="tf221")
@pytest.mark.parametrize("message", [None, "hey"])
def test_amut30_assert_none_equal_summarize_zero_shows_no_values(tf, message):
    """tf.debugging.assert_none_equal(x, y, summarize=0) fails with the condition alone ("Condition x != y did not
    hold.", after the message when one is given): no indices and no values, for equal shapes and for a broadcast
    scalar (check_ops' eager message, observed on TF 2.21); summarize=1 lists one of each."""
    want = "Condition x != y did not hold." if message is None else "hey\nCondition x != y did not hold."
    for x, y in (([1, 2, 3], [1, 5, 3]), (1, [1, 5])):
        call = f"tf.debugging.assert_none_equal({x}, {y}, summarize=0, message={message!r})"
        with raises(tf.errors.InvalidArgumentError, call=call) as box:
            tf.debugging.assert_none_equal(tf.constant(x), tf.constant(y), summarize=0, message=message)
        got = box["value"].message if hasattr(box["value"], "message") else str(box["value"])
        assert_equal(got, want, call=call, what="message")
    with raises(tf.errors.InvalidArgumentError, match=re.escape("Indices of first 1 different values:"),
                call="assert_none_equal([1, 2, 3], [1, 5, 3], summarize=1)"):
        tf.debugging.assert_none_equal(tf.constant([1, 2, 3]), tf.constant([1, 5, 3]), summarize=1)


# -- check numerics: a float64 beyond float32's range is finite -------------------------------------------------------
@clause("ops.check-numerics-callback", ref="tf221")
def test_amut30_check_numerics_reads_float64_outputs_in_float64(tf):
    """With tf.debugging.enable_check_numerics(), a float64 output beyond float32's range (2e300) is finite and passes
    (the check reads each output in its own dtype), while a float64 overflow to inf is InvalidArgumentError
    (observed on TF 2.21)."""
    tf.debugging.enable_check_numerics()
    try:
        got = to_numpy(tf.constant([1e300, -1e300], tf.float64) * 2.0)
        assert_equal(got.tolist(), [2e300, -2e300], call="enable_check_numerics(); [1e300, -1e300] (float64) * 2")
        with raises(tf.errors.InvalidArgumentError, match=re.escape("Tensor had +Inf values"),
                    call="enable_check_numerics(); [1e300] (float64) * 1e10"):
            tf.constant([1e300], tf.float64) * 1e10
    finally:
        tf.debugging.disable_check_numerics()


# -- ShardedVariable.assign converts the value with its own dtype ------------------------------------------------------
@pytest.mark.requires("multi_worker")
@clause("pss.sharded-update", ref="tf221")
def test_amut30_sharded_assign_keeps_the_values_dtype(backend, tf):
    """A ShardedVariable (FixedShardsPartitioner(2), float32, shape (3, 2)) slices the value it is given for its shards
    as TF's array_ops.slice does, the value converted with its own dtype: Python floats assign, Python ints (int32)
    and a float64 array are each shard's ValueError "Tensor conversion requested dtype float32 for Tensor with dtype
    ...", leaving every shard unchanged, for assign, assign_add and assign_sub alike (observed on TF 2.21; a plain
    tf.Variable converts Python ints to its dtype)."""
    parts = tf.distribute.experimental.partitioners
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=parts.FixedShardsPartitioner(2))
    with cluster.strategy.scope():
        v = tf.Variable(tf.zeros((3, 2)))
    assert_equal(len(v.variables), 2, call="FixedShardsPartitioner(2) on a (3, 2) variable", what="shards")
    v.assign([[1.5, 2.0], [3.0, 4.0], [5.0, 6.0]])
    want = [[1.5, 2.0], [3.0, 4.0], [5.0, 6.0]]
    assert_equal(to_numpy(tf.convert_to_tensor(v)).tolist(), want, call="v.assign(a list of floats)")
    for method in ("assign", "assign_add", "assign_sub"):
        for value, kind in (([[1, 2], [3, 4], [5, 6]], "int32"), (np.ones((3, 2), np.float64), "float64")):
            call = f"v.{method}({kind} value) of a float32 ShardedVariable"
            with raises(ValueError, match="^" + re.escape(f"Tensor conversion requested dtype float32 for Tensor with "
                                                          f"dtype {kind}"), call=call):
                getattr(v, method)(value)
            assert_equal(to_numpy(tf.convert_to_tensor(v)).tolist(), want, call=call, what="the value after")
    v.assign_add(np.ones((3, 2), np.float32))
    assert_equal(to_numpy(tf.convert_to_tensor(v)).tolist(), [[x + 1.0 for x in r] for r in want],
                 call="v.assign_add(float32 ones)")

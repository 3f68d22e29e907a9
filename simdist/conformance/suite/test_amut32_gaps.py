"""Gaps the ninth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 9, over the training-layer files
seeds 1-8 never sampled and the gradient functions of op modules no sweep had run with --grad-files; thirty-second
session): behaviours the suite executed but no test looked at (docs/conformance.md, "Thirty-second session:
automatic sweep, seed 9 (amut32)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 / Keras 3.15 named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


# -- RandAugment / AugMix build each sub-layer from the parent's arguments --------------------------------------------
_SUB_LAYERS = ("random_shear", "random_translation", "random_rotation", "random_brightness",
               "random_color_degeneration", "random_contrast", "random_sharpness", "solarization",
               "random_posterization", "auto_contrast", "equalization")


def _standalone(L, name, factor, value_range, seed):
    """The sub-layer `name` as Keras 3.15's rand_augment.py / aug_mix.py construct it (the rule, transcribed)."""
    colour = {"value_range": value_range, "seed": seed}
    return {
        "random_shear": lambda: L.RandomShear(x_factor=factor, y_factor=factor, seed=seed),
        "random_translation": lambda: L.RandomTranslation(height_factor=factor, width_factor=factor, seed=seed),
        "random_rotation": lambda: L.RandomRotation(factor=factor, seed=seed),
        "random_brightness": lambda: L.RandomBrightness(factor=factor, **colour),
        "random_color_degeneration": lambda: L.RandomColorDegeneration(factor=factor, **colour),
        "random_contrast": lambda: L.RandomContrast(factor=factor, **colour),
        "random_sharpness": lambda: L.RandomSharpness(factor=factor, **colour),
        "solarization": lambda: L.Solarization(addition_factor=factor, threshold_factor=factor, **colour),
        "random_posterization": lambda: L.RandomPosterization(factor=max(1, int(8 * factor[1])), **colour),
        "auto_contrast": lambda: L.AutoContrast(value_range=value_range),
        "equalization": lambda: L.Equalization(value_range=value_range),
    }[name]()


@clause("keras.layer.image-augment-policies", ref="tf221")
@pytest.mark.parametrize("parent", ["RandAugment", "AugMix"])
def test_amut32_augment_sub_layers_are_built_from_the_parent_arguments(keras, parent):
    """RandAugment and AugMix hold one sub-layer per augmentation (attributes `random_shear`, ..., `solarization`,
    `equalization`), each built from the parent's normalised `factor`, `value_range` and `seed` (Keras 3.15's
    rand_augment.py and aug_mix.py: e.g. `Solarization(addition_factor=self.factor, threshold_factor=self.factor,
    value_range=..., seed=...)`, `RandomPosterization(factor=max(1, int(8 * self.factor[1])))`): every sub-layer's
    config is the config of that layer built alone with those arguments (the names aside)."""
    L = keras.layers
    layer = (L.RandAugment(value_range=(10, 250), factor=(0.2, 0.6), seed=7) if parent == "RandAugment"
             else L.AugMix(value_range=(10, 250), factor=0.4, seed=7))
    factor = tuple(layer.factor)
    for name in _SUB_LAYERS:
        got = {k: v for k, v in getattr(layer, name).get_config().items() if k != "name"}
        want = {k: v for k, v in _standalone(L, name, factor, (10, 250), 7).get_config().items() if k != "name"}
        assert_equal(got, want, call=f"{parent}(value_range=(10, 250), factor=..., seed=7).{name}.get_config()",
                     what="config (name aside)")


# -- RandomHeight / RandomWidth: each bound of the factor above -1 ----------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("cls, lesser", [("RandomHeight", "lesser"), ("RandomWidth", "less")])
def test_amut32_random_height_width_check_each_factor_bound(keras, cls, lesser):
    """tf.keras's RandomHeight/RandomWidth (Keras 3.15's legacy layers) read a number f as (-f, f), refuse an upper
    bound below the lower ("cannot have an upper bound lesser than the lower bound" for RandomHeight, "less" for
    RandomWidth) and then a lower *or* upper bound below -1 ("must have values larger than -1"): (-1.5, 0.5) is
    refused for its lower bound alone; -1 itself is accepted (observed on TF 2.21)."""
    make = getattr(keras.layers, cls)
    for factor, msg in [((-1.5, 0.5), "`factor` argument must have values larger than -1. Received: factor=(-1.5, 0.5)"),
                        ((-2.0, -1.5), "`factor` argument must have values larger than -1. Received: factor=(-2.0, -1.5)"),
                        (-1.5, f"`factor` argument cannot have an upper bound {lesser} than the lower bound. Received: "
                               "factor=-1.5"),
                        ((-0.5, -1.2), f"`factor` argument cannot have an upper bound {lesser} than the lower bound. "
                                       "Received: factor=(-0.5, -1.2)")]:
        with raises(ValueError, match="^" + re.escape(msg) + "$", call=f"{cls}(factor={factor})"):
            make(factor=factor)
    assert_equal(make(factor=(-1.0, 0.5)).get_config()["factor"], (-1.0, 0.5), call=f"{cls}(factor=(-1.0, 0.5))",
                 what="config factor")


# -- tf.data.experimental.DatasetInitializer: both key and value must be scalars --------------------------------------
_INIT_BASE = ("Datasets used to initialize lookup tables must produce elements in the form (key, value), where the "
              "keys and values are scalar tensors. However, the given dataset produces ")


@clause("dataset.experimental-extras", ref="tf221")
@pytest.mark.parametrize("keys, values, tail", [
    ([1, 2], [[1, 2], [3, 4]], "non-scalar value Tensors of rank 1."),
    ([[1], [2]], [3, 4], "non-scalar key Tensors of rank 1."),
    ([[1], [2]], [[3], [4]], "non-scalar key Tensors of rank 1."),
])
def test_amut32_dataset_initializer_checks_key_and_value_ranks(tf, keys, values, tail):
    """DatasetInitializer (TF 2.21's experimental/ops/lookup_ops.py `_check_table_initializer_element_spec`) checks
    the key's rank, then the value's, each against (None, 0): a scalar key with vector values is refused for the
    values, a vector key for the key first (observed)."""
    ds = tf.data.Dataset.from_tensor_slices((tf.constant(keys, tf.int64), tf.constant(values, tf.int64)))
    with raises(ValueError, match="^" + re.escape(_INIT_BASE + tail) + "$",
                call=f"DatasetInitializer(from_tensor_slices(({keys}, {values})))"):
        tf.data.experimental.DatasetInitializer(ds)
    table = tf.lookup.StaticHashTable(tf.data.experimental.DatasetInitializer(
        tf.data.Dataset.from_tensor_slices((tf.constant([5, 6], tf.int64), tf.constant([50, 60], tf.int64)))), -1)
    assert_equal(to_numpy(table.lookup(tf.constant([6, 5, 7], tf.int64))).tolist(), [60, 50, -1],
                 call="StaticHashTable(DatasetInitializer(scalar pairs), -1).lookup([6, 5, 7])")


# -- tf.summary: writers sharing a logdir each write their own, well-named file ---------------------------------------
def _scalars(path: str) -> list:
    from tensorboard.backend.event_processing.event_file_loader import RawEventFileLoader
    from tensorboard.compat.proto import event_pb2
    events = [event_pb2.Event.FromString(r) for r in RawEventFileLoader(path).Load()]
    return [(e.step, [v.tag for v in e.summary.value]) for e in events[1:]]


@clause("summary.event-files", ref="tf221")
def test_amut32_writers_in_one_logdir_write_their_own_files(tf, tmp_path):
    """Three file writers created one after another in one logdir each write their own event file, named
    `events.out.tfevents.<10-digit seconds>.<host...>.<counter>.v2`, the counter a non-negative decimal number (TF 2.21's
    summary file writer: hostname, pid and a process-wide count; observed "events.out.tfevents.1796294350.vm.11188.1.v2");
    each file holds the scalar its writer wrote."""
    pytest.importorskip("tensorboard")
    import os
    for i in range(3):
        w = tf.summary.create_file_writer(str(tmp_path))
        with w.as_default():
            tf.summary.scalar(f"s{i}", float(i), step=i)
        w.close()
    names = sorted(os.listdir(tmp_path))
    bad = [n for n in names if not re.fullmatch(r"events\.out\.tfevents\.\d{10}\..+\.\d+\.v2", n)]
    assert_equal((len(names), " ".join(bad)), (3, ""), call="three create_file_writer(logdir) in one logdir",
                 what="(event files, names not of the form events.out.tfevents.<secs>.<host...>.<counter>.v2)")
    got = sorted(repr(_scalars(str(tmp_path / n))) for n in names)
    assert_equal(got, [repr([(i, [f"s{i}"])]) for i in range(3)], call="three writers, one scalar each",
                 what="each file's [(step, tags)]")


# -- tf.math.zero_fraction of every dtype ---------------------------------------------------------------------------
@clause("ops.math-composites", ref="tf221")
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float64", "float16", "bfloat16", "bool", "complex64"])
def test_amut32_zero_fraction_of_every_dtype(tf, dtype):
    """tf.math.zero_fraction (also tf.nn's) compares the value with a zero of its own dtype (TF 2.21's
    nn_impl.py: `zero = constant_op.constant(0, dtype=value.dtype)`), so it takes integer, bool, half and complex
    values alike, eagerly and in a tf.function, and answers float32: 3 zeros of 5 are 0.6 (observed)."""
    v = tf.cast(tf.constant([0.0, 1.0, 2.0, 0.0, 0.0]), dtype)
    got = tf.math.zero_fraction(v)
    traced = tf.function(lambda x: tf.nn.zero_fraction(x))(v)
    assert_equal((got.dtype.name, float(got), float(traced)), ("float32", float(np.float32(0.6)), float(np.float32(0.6))),
                 call=f"zero_fraction(cast([0, 1, 2, 0, 0], {dtype})), eagerly and traced")


# -- MaxNumBoundingBoxes: only a dict with bounding boxes has its shapes changed --------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
def test_amut32_max_num_bounding_boxes_output_shape_of_each_input_form(keras):
    """MaxNumBoundingBoxes(max_number).compute_output_shape (Keras 3.15's max_num_bounding_box.py) sets the box count
    of a dict's "bounding_boxes" to max_number and returns any other input shape as given: a tuple, or a dict of
    images and labels without boxes; called on such a dict it passes the images and labels through (observed)."""
    layer = keras.layers.MaxNumBoundingBoxes(max_number=3, fill_value=-1)
    plain = {"images": (2, 8, 8, 3), "labels": (2, 5)}
    assert_equal(repr(layer.compute_output_shape(dict(plain))), repr(plain),
                 call="MaxNumBoundingBoxes(3).compute_output_shape({'images': ..., 'labels': ...})")
    assert_equal(tuple(layer.compute_output_shape((2, 8, 8, 3))), (2, 8, 8, 3),
                 call="MaxNumBoundingBoxes(3).compute_output_shape((2, 8, 8, 3))")
    boxed = layer.compute_output_shape({"images": (2, 8, 8, 3),
                                        "bounding_boxes": {"boxes": (2, 5, 4), "labels": (2, 5)}})
    assert_equal(repr((list(boxed["bounding_boxes"]["boxes"]), list(boxed["bounding_boxes"]["labels"]))),
                 repr(([2, 3, 4], [2, 3])), call="compute_output_shape of a dict with bounding_boxes of 5 boxes")
    x = np.arange(2 * 4 * 4 * 3, dtype="float32").reshape(2, 4, 4, 3)
    out = layer({"images": x, "labels": np.array([1.0, 2.0], "float32")})
    call = "MaxNumBoundingBoxes(3)({'images': x, 'labels': y})"
    assert_equal(sorted(out), ["images", "labels"], call=call, what="keys")
    assert_equal(to_numpy(out["images"]), x, call=call, what="images")
    assert_equal(to_numpy(out["labels"]), np.array([1.0, 2.0], "float32"), call=call, what="labels")


# -- RandomElasticTransform: each image of a batch transformed with its own probability -------------------------------
@clause("keras.layer.image-geometric-augment", ref="tf221")
@pytest.mark.parametrize("seed, factor, want", [
    (1, 0.5, [1, 1, 0, 1, 0, 0, 0, 0]), (1, (0.2, 0.6), [1, 1, 0, 1, 1, 1, 0, 0]),
    (2, 0.5, [1, 0, 0, 0, 0, 0, 0, 0]), (3, (0.2, 0.6), [0, 0, 1, 0, 0, 1, 0, 0])])
def test_amut32_random_elastic_transform_picks_images_by_probability(keras, seed, factor, want):
    """RandomElasticTransform(factor, scale=1.0, seed) transforms the images of a batch whose threshold, drawn
    uniform in [0, 1), is below their probability, drawn uniform in the factor's range (Keras 3.15's
    random_elastic_transform.py); the rest are left as they were. Which of 8 images change, for these seeds, was
    observed on TF 2.21."""
    x = (np.arange(8 * 12 * 12 * 1) % 97).astype("float32").reshape(8, 12, 12, 1)
    y = to_numpy(keras.layers.RandomElasticTransform(factor=factor, scale=1.0, seed=seed)(x))
    changed = [int(not np.array_equal(y[i], x[i])) for i in range(8)]
    assert_equal(changed, want, call=f"RandomElasticTransform(factor={factor}, scale=1.0, seed={seed})(8 images)",
                 what="which images changed (1) or not (0)")


# -- tf.data.experimental's deprecated forms pass every argument to the method ---------------------------------------
def _values(ds) -> list:
    return [tuple(np.asarray(t).tolist() for t in x) if isinstance(x, tuple) else np.asarray(x).tolist() for x in ds]


@clause("dataset.group-by-window", ref="tf221")
def test_amut32_experimental_forms_pass_every_argument(tf):
    """tf.data.experimental.group_by_window, bucket_by_sequence_length, map_and_batch, shuffle_and_repeat and
    enumerate_dataset (TF 2.21's deprecated forms) hand each of their keyword arguments to the Dataset method they
    name: group_by_window's window_size_func (key k in windows of k + 2), bucket_by_sequence_length's padding_values,
    pad_to_bucket_boundary, padded_shapes and drop_remainder, map_and_batch's drop_remainder, shuffle_and_repeat's
    count and seed, enumerate_dataset's start (values observed on TF 2.21)."""
    tf.random.set_seed(None)   # (op seeds alone: get_seed's (87654321, seed); an earlier test may set one)
    E, R = tf.data.experimental, tf.data.Dataset.range
    assert_equal(repr(_values(R(10).apply(E.group_by_window(lambda x: x % 2, lambda k, w: w.batch(5),
                                                             window_size_func=lambda k: k + 2)))),
                 repr([[0, 2], [1, 3, 5], [4, 6], [8], [7, 9]]),
                 call="range(10).apply(group_by_window(x % 2, batch(5), window_size_func=k + 2))")

    def seqs():
        return tf.data.Dataset.from_generator(lambda: iter([[1], [2, 2], [3, 3, 3], [4, 4, 4, 4], [5]]),
                                              output_signature=tf.TensorSpec((None,), tf.int64))
    length = lambda x: tf.shape(x)[0]   # noqa: E731
    got = _values(seqs().apply(E.bucket_by_sequence_length(length, [3, 5], [2, 2, 2],
                                                           padding_values=tf.constant(-1, tf.int64),
                                                           pad_to_bucket_boundary=True)))
    assert_equal(repr(got), repr([[[1, -1], [2, 2]], [[3, 3, 3, -1], [4, 4, 4, 4]], [[5, -1]]]),
                 call="bucket_by_sequence_length([3, 5], [2, 2, 2], padding_values=-1, pad_to_bucket_boundary=True)")
    got = _values(seqs().apply(E.bucket_by_sequence_length(length, [3, 5], [2, 2, 2], padded_shapes=[6],
                                                           drop_remainder=True)))
    assert_equal(repr(got), repr([[[1, 0, 0, 0, 0, 0], [2, 2, 0, 0, 0, 0]], [[3, 3, 3, 0, 0, 0], [4, 4, 4, 4, 0, 0]]]),
                 call="bucket_by_sequence_length([3, 5], [2, 2, 2], padded_shapes=[6], drop_remainder=True)")
    assert_equal(_values(R(5).apply(E.map_and_batch(lambda x: x * 2, 2, drop_remainder=True))), [[0, 2], [4, 6]],
                 call="range(5).apply(map_and_batch(x * 2, 2, drop_remainder=True))")
    assert_equal(_values(R(3).apply(E.shuffle_and_repeat(3, count=2, seed=5))), [1, 2, 0, 2, 0, 1],
                 call="range(3).apply(shuffle_and_repeat(3, count=2, seed=5))")
    assert_equal(repr(_values(R(3).apply(E.enumerate_dataset(start=2)))), repr([(2, 0), (3, 1), (4, 2)]),
                 call="range(3).apply(enumerate_dataset(start=2))")


# -- DatasetInitializer: keys and values of any pair of dtypes --------------------------------------------------------
@clause("dataset.experimental-extras", ref="tf221")
def test_amut32_dataset_initializer_pairs_of_other_dtypes(tf):
    """A table initialised from a dataset holds its (key, value) pairs whatever the two dtypes: int64 keys to string
    values, string keys to float values, through DatasetInitializer, table_from_dataset (default_value given for
    strings) and index_table_from_dataset of int64 keys (observed on TF 2.21)."""
    D, E = tf.data.Dataset, tf.data.experimental
    t = tf.lookup.StaticHashTable(E.DatasetInitializer(D.zip(D.range(3), D.from_tensor_slices(["a", "b", "c"]))), "?")
    assert_equal(to_numpy(t.lookup(tf.constant([2, 0, 7], tf.int64))).tolist(), [b"c", b"a", b"?"],
                 call="DatasetInitializer(zip(range(3), ['a', 'b', 'c'])): lookup [2, 0, 7]")
    t = tf.lookup.StaticHashTable(E.DatasetInitializer(D.zip(D.from_tensor_slices(["x", "y"]),
                                                             D.from_tensor_slices([1.5, -2.0]))), 0.0)
    assert_equal(to_numpy(t.lookup(tf.constant(["y", "q", "x"]))).tolist(), [-2.0, 0.0, 1.5],
                 call="DatasetInitializer(zip(['x', 'y'], [1.5, -2.0])): lookup ['y', 'q', 'x']")
    t = E.table_from_dataset(D.zip(D.range(2), D.from_tensor_slices(["p", "q"])), default_value="?",
                             key_dtype=tf.int64)
    assert_equal(to_numpy(t.lookup(tf.constant([1, 5], tf.int64))).tolist(), [b"q", b"?"],
                 call="table_from_dataset(zip(range(2), ['p', 'q']), default_value='?'): lookup [1, 5]")
    t = E.index_table_from_dataset(D.range(10, 13), key_dtype=tf.int64)
    assert_equal(to_numpy(t.lookup(tf.constant([12, 10, 3], tf.int64))).tolist(), [2, 0, -1],
                 call="index_table_from_dataset(range(10, 13)): lookup [12, 10, 3]")


# -- banded_triangular_solve's gradient: broadcast along an inner batch axis ------------------------------------------
_BANDED_INNER = {
    "bands_broadcast_along_the_second_batch_axis": ((2, 1, 2, 3), (2, 4, 3, 2)),
    "bands_broadcast_along_the_middle_of_three": ((2, 1, 1, 2, 3), (2, 3, 1, 3, 2)),
    "rhs_broadcast_along_the_second_batch_axis": ((2, 3, 2, 3), (2, 1, 3, 2)),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("case", list(_BANDED_INNER))
def test_amut32_banded_solve_gradient_sums_over_inner_broadcast_axes(tf, case):
    """banded_triangular_solve with bands and rhs whose batch shapes broadcast along an axis other than the first
    (size 1 at batch axis 1 of 2, or of 3 with the last axis 1 in both): each input's gradient has that input's
    shape, summed over exactly the axes it was broadcast along (TF 2.21's _BandedTriangularSolveGrad reduces over
    broadcast_gradient_args); against float64 central differences of the backend's own forward pass."""
    from simdist.conformance.suite.test_automut_gaps import _band
    from simdist.conformance.suite.test_gradient_table import check_order

    sb, sr = _BANDED_INNER[case]
    rng = np.random.default_rng(12)
    xs = [rng.uniform(-1.0, 1.0, size=sb), rng.uniform(-1.0, 1.0, size=sr)]
    check_order(tf, f"banded_triangular_solve[{case}]",
                lambda tf_, b, r: tf_.linalg.banded_triangular_solve(_band(tf_, b), r), xs, rng)


# -- RaggedTensor.from_row_splits(validate=True): the failed check names x and y in order -----------------------------
@clause("ops.ragged", ref="tf221")
@pytest.mark.parametrize("splits", [[1, 2, 3], [2, 2]])
def test_amut32_from_row_splits_reports_a_nonzero_first_split(tf, splits):
    """RaggedTensor.from_row_splits(values, splits, validate=True) checks splits[0] == 0 with
    assert_equal(row_splits[:1], 0) (TF 2.21's row_partition.py): InvalidArgumentError whose message gives the
    first split as x and 0 as y (observed)."""
    want = ("Arguments to from_row_splits do not form a valid RaggedTensor:zero\nCondition x == y did not hold.\n"
            f"First 1 elements of x:\n[{splits[0]}]\nFirst 1 elements of y:\n[0]")
    with raises(tf.errors.InvalidArgumentError, match="^" + re.escape(want) + "$",
                call=f"RaggedTensor.from_row_splits([1, 2, 3], {splits}, validate=True)"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], splits, validate=True)


# -- tridiagonal_matmul's gradient over a batch -------------------------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("fmt", ["compact", "sequence"])
def test_amut32_tridiagonal_matmul_gradient_of_a_batch(tf, fmt):
    """tf.linalg.tridiagonal_matmul of a batch (diagonals [2, 3, 4], rhs [2, 4, 3]): each diagonal's gradient is
    the sum over the rhs' last axis of the shifted rhs times the incoming gradient (TF 2.21's _TridiagonalMatMulGrad
    reduces axis=-1, which is not axis 1 once there is a batch); against float64 central differences of the
    backend's own forward pass."""
    from simdist.conformance.suite.test_gradient_table import check_order

    rng = np.random.default_rng(13)
    if fmt == "compact":
        xs = [rng.uniform(-1.0, 1.0, size=(2, 3, 4)), rng.uniform(-1.0, 1.0, size=(2, 4, 3))]
        fn = lambda tf_, d, r: tf_.linalg.tridiagonal_matmul(d, r, diagonals_format="compact")   # noqa: E731
    else:
        xs = [rng.uniform(-1.0, 1.0, size=(2, 4)) for _ in range(3)] + [rng.uniform(-1.0, 1.0, size=(2, 4, 3))]
        fn = lambda tf_, a, b, c, r: tf_.linalg.tridiagonal_matmul((a, b, c), r,   # noqa: E731
                                                                   diagonals_format="sequence")
    check_order(tf, f"tridiagonal_matmul[{fmt}, batch of 2]", fn, xs, rng)


# -- tf.summary.audio with no clip to write --------------------------------------------------------------------------
@clause("summary.event-files", ref="tf221")
def test_amut32_audio_summary_of_no_clip_writes_an_empty_table(tf, tmp_path):
    """tf.summary.audio writes a [k, 2] string tensor (WAV bytes, label) of the first max_outputs clips; with none to
    write (max_outputs=0, or data of 0 clips) its `tf.cond` takes the `tf.constant([], tf.string)` branch and the
    event holds a [0, 2] tensor (TF 2.21's tensorboard audio summary_v2; observed), and returns True."""
    pytest.importorskip("tensorboard")
    import os
    from tensorboard.backend.event_processing.event_file_loader import RawEventFileLoader
    from tensorboard.compat.proto import event_pb2
    from tensorboard.util import tensor_util
    w = tf.summary.create_file_writer(str(tmp_path))
    x = np.zeros((2, 8, 1), np.float32)
    with w.as_default():
        got = [bool(tf.summary.audio("a0", x, 8000, step=1, max_outputs=0)),
               bool(tf.summary.audio("a1", np.zeros((0, 8, 1), np.float32), 8000, step=2)),
               bool(tf.summary.audio("a2", x, 8000, step=3, max_outputs=1))]
    w.close()
    (name,) = os.listdir(tmp_path)
    events = [event_pb2.Event.FromString(r) for r in RawEventFileLoader(str(tmp_path / name)).Load()][1:]
    shapes = [(e.step, v.tag, list(tensor_util.make_ndarray(v.tensor).shape)) for e in events for v in e.summary.value]
    assert_equal(got, [True, True, True], call="tf.summary.audio(max_outputs=0), of 0 clips, of 1 clip", what="returned")
    assert_equal(repr(shapes), repr([(1, "a0", [0, 2]), (2, "a1", [0, 2]), (3, "a2", [1, 2])]),
                 call="tf.summary.audio(max_outputs=0), of 0 clips, of 1 clip", what="(step, tag, tensor shape)")

"""Gaps the eighteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), or is a default recorded from
TF 2.21 and named as such, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- image augmentation: a seeded draw's range, a value range with a nonzero low end, a non-degenerate draw ----
@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind18_image_layers_draw_over_their_factor_ranges(keras, budget):
    """Solarization draws its threshold in uniform(t_lo, t_hi * 255) and its addition in uniform(a_lo,
    a_hi * 255) (Keras 3.15 scales only the upper bound), one of each per image: read each image's
    threshold back from which of the pixel values 0..255 were inverted, and its addition from a
    black image. Every draw must lie in its range and the draws must spread over it (24 images: a
    range collapsed to one point, or to the upper end, fails)."""
    n = 24
    ramp = np.tile(np.arange(256, dtype=np.float32).reshape(1, 16, 16, 1), (n, 1, 1, 1))
    for lo, hi in budget([(0.5, 0.5), (0.0, 0.4), (0.25, 0.3)]):
        out = _np(keras.layers.Solarization(threshold_factor=(lo, hi), seed=5)(ramp, training=True))
        inverted = out != ramp
        assert_equal(np.where(inverted, 255.0 - ramp, ramp), out, call=f"Solarization(threshold_factor=({lo}, {hi}))"
                     "(ramp)", what="pixels (each either kept or 255 - x)")
        # the threshold t of image i: pixels p >= t are inverted, so t lies in (last kept, first inverted]
        first = np.array([ramp[i][inverted[i]].min() if inverted[i].any() else 256.0 for i in range(n)])
        assert_true(bool(np.all(first >= np.floor(lo)) and np.all(first <= np.ceil(hi * 255))),
                    f"thresholds (first inverted pixel per image) {first.tolist()}, but should lie in "
                    f"[{lo}, {hi * 255}]", call=f"Solarization(threshold_factor=({lo}, {hi}))")
        mid = lo + (hi * 255 - lo) / 2
        assert_true(bool(first.min() < mid),
                    f"thresholds {first.tolist()}: none below the middle {mid} of uniform({lo}, {hi} * 255)",
                    call=f"Solarization(threshold_factor=({lo}, {hi}))")
    for lo, hi in budget([(0.2, 0.2), (0.0, 0.1)]):
        black = np.zeros((n, 1, 1, 1), np.float32)
        # threshold (0, 0): every pixel at or above 0 is inverted, so out = 255 - clip(0 + addition)
        add = 255.0 - _np(keras.layers.Solarization(addition_factor=(lo, hi), seed=5)(black, training=True)).ravel()
        assert_true(bool(np.all(add >= lo - 1e-4) and np.all(add <= hi * 255 + 1e-4)),
                    f"additions {add.round(3).tolist()}, but should lie in [{lo}, {hi * 255}]",
                    call=f"Solarization(addition_factor=({lo}, {hi}))(black)")
        mid = lo + (hi * 255 - lo) / 2
        assert_true(bool(add.min() < mid), f"additions {add.round(3).tolist()}: none below the middle {mid}",
                    call=f"Solarization(addition_factor=({lo}, {hi}))(black)")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind18_image_layers_with_a_value_range_not_starting_at_zero(keras, budget):
    """A value_range (lo, hi) with lo != 0: RandomInvert gives hi - x (Keras 3.15's formula, not lo + hi
    - x), Solarization maps to [0, 255] and back ((x - lo) / (hi - lo) * 255, inverted, mapped back:
    lo + hi - x at a zero threshold), RandomBrightness adds factor * (hi - lo) and clips to [lo, hi]."""
    x = np.array([[[[0.5], [-0.25]], [[1.0], [-1.0]]]], np.float32)
    for lo, hi in budget([(-1.0, 1.0), (0.5, 2.0), (-3.0, -1.0)]):
        xs = (lo + (x.astype(np.float64) + 1.0) / 2.0 * (hi - lo)).astype(np.float32)   # x moved into [lo, hi]
        x64 = xs.astype(np.float64)
        got = _np(keras.layers.RandomInvert((1.0, 1.0), value_range=(lo, hi), seed=2)(xs, training=True))
        assert_close(got, hi - x64, tolerance=TOL32, call=f"RandomInvert((1, 1), value_range=({lo}, {hi}))(x)")
        got = _np(keras.layers.Solarization(threshold_factor=0.0, value_range=(lo, hi), seed=2)(xs, training=True))
        assert_close(got, lo + hi - x64, tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                     call=f"Solarization(threshold_factor=0, value_range=({lo}, {hi}))(x)")
        got = _np(keras.layers.RandomBrightness((0.1, 0.1), value_range=(lo, hi), seed=2)(xs, training=True))
        assert_close(got, np.clip(x64 + 0.1 * (hi - lo), lo, hi), tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                     call=f"RandomBrightness((0.1, 0.1), value_range=({lo}, {hi}))(x)")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind18_mixup_mixes_labels_as_it_mixes_images(keras, budget):
    """MixUp mixes image i with its partner perm(i) by w_i (w_i * x_i + (1 - w_i) * x_perm(i)) and the
    labels with the same w_i and partner: with one-hot labels of 4 images, row i of the mixed labels is
    w_i at i and 1 - w_i at perm(i), so the images follow from the labels. Several seeds, and at least
    one image must have another partner (a seed whose permutation is the identity checks nothing)."""
    x = (np.arange(4 * 3 * 3 * 2, dtype=np.float32).reshape(4, 3, 3, 2) * 7 % 23).astype(np.float32)
    labels = np.eye(4, dtype=np.float32)
    moved = 0
    for seed in budget([1, 6, 7, 2]):
        out = keras.layers.MixUp(alpha=0.5, seed=seed)({"images": x, "labels": labels}, training=True)
        mixed, images = _np(out["labels"]).astype(np.float64), _np(out["images"])
        for i in range(4):
            row = mixed[i].copy()
            w = row[i]
            row[i] = 0.0
            partner = int(np.argmax(row)) if row.max() > 1e-6 else i
            if partner != i:
                moved += 1
            want = w * x[i].astype(np.float64) + (1.0 - w) * x[partner].astype(np.float64) if partner != i else x[i]
            assert_close(images[i], want, tolerance=Tolerance(rtol=1e-5, atol=1e-4),
                         call=f"MixUp(alpha=0.5, seed={seed}): image {i} (label weight {w:.4f} on itself, partner "
                              f"{partner})")
    assert_true(moved > 0, "no image had a partner other than itself: the check saw no mixing",
                call="MixUp(alpha=0.5)")


# -- tf.* initializers at their defaults -----------------------------------------------------------------------
@clause("ops.initializers", ref="tf221")
def test_blind18_tf_initializers_default_arguments(tf):
    """TF's own initializers (init_ops_v2) at their defaults: random_normal_initializer() is mean 0,
    stddev 0.05; random_uniform_initializer() is [-0.05, 0.05); constant_initializer() is 0 (configs
    recorded from TF 2.21), and the draws of the default random ones have those moments."""
    want = {"random_normal_initializer": {"mean": 0.0, "stddev": 0.05, "seed": None},
            "random_uniform_initializer": {"minval": -0.05, "maxval": 0.05, "seed": None},
            "constant_initializer": {"value": 0}}
    for name, config in want.items():
        assert_equal(getattr(tf, name)().get_config(), config, call=f"tf.{name}().get_config()", what="config")
    a = _np(tf.random_normal_initializer(seed=3)([20000])).astype(np.float64)
    assert_true(abs(a.std() - 0.05) < 0.0025 and abs(a.mean()) < 0.002,
                f"tf.random_normal_initializer(seed=3)([20000]): mean {a.mean():.5f}, std {a.std():.5f}, but should "
                "be about 0 and 0.05", call="tf.random_normal_initializer()")
    b = _np(tf.random_uniform_initializer(seed=3)([20000])).astype(np.float64)
    assert_true(b.min() >= -0.05 and b.max() < 0.05 and b.min() < -0.049 and b.max() > 0.049,
                f"tf.random_uniform_initializer(seed=3)([20000]) spans [{b.min():.5f}, {b.max():.5f}], but should "
                "fill [-0.05, 0.05)", call="tf.random_uniform_initializer()")
    assert_equal(_np(tf.constant_initializer()([2, 2])).tolist(), [[0.0, 0.0], [0.0, 0.0]],
                 call="tf.constant_initializer()([2, 2])", what="values")


# -- tf.data readers: a per-file option over several files -------------------------------------------------------
@clause("dataset.csv", ref="tf221")
def test_blind18_csv_readers_apply_per_file_options_to_every_file(tf, tmp_path, budget):
    """CsvDataset(header=True) skips the first line of *every* file (the kernel resets per file), with or
    without select_cols and compression; make_csv_dataset over a pattern of such files reads every
    file's records and none of their headers."""
    import gzip
    files = []
    for i in range(3):
        text = "a,b\n" + "".join(f"{i * 10 + r},{i * 100 + r}.5\n" for r in range(i + 1))
        plain = tmp_path / f"f{i}.csv"
        plain.write_text(text)
        with gzip.open(tmp_path / f"g{i}.csv.gz", "wt") as f:
            f.write(text)
        files.append(i)
    want = [(i * 10 + r, i * 100 + r + 0.5) for i in range(3) for r in range(i + 1)]
    cases = [("plain", [str(tmp_path / f"f{i}.csv") for i in files], {}),
             ("select_cols", [str(tmp_path / f"f{i}.csv") for i in files], {"select_cols": [0, 1]}),
             ("GZIP", [str(tmp_path / f"g{i}.csv.gz") for i in files], {"compression_type": "GZIP"})]
    for what, names, kw in budget(cases):
        ds = tf.data.experimental.CsvDataset(names, [tf.int32, tf.float32], header=True, **kw)
        got = [(int(a), float(b)) for a, b in ds]
        assert_equal(got, want, call=f"CsvDataset(3 files with a header line, header=True, {what})", what="records")
    ds = tf.data.experimental.make_csv_dataset(str(tmp_path / "f*.csv"), 10, shuffle=False, num_epochs=1)
    batch = next(iter(ds))
    got = {k: sorted(_np(v).tolist()) for k, v in batch.items()}
    assert_equal(got, {"a": sorted(a for a, _ in want), "b": sorted(b for _, b in want)},
                 call="make_csv_dataset('f*.csv', 10, shuffle=False, num_epochs=1)", what="columns")


# -- tf.io: parse_example's feature configurations with their options -------------------------------------------
def _example(tf, feats):
    return tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()


def _batch(tf):
    """Five Examples: empty ones first, between and last, and two with int64 r, float s, bytes t."""
    i64 = lambda v: tf.train.Feature(int64_list=tf.train.Int64List(value=v))
    f32 = lambda v: tf.train.Feature(float_list=tf.train.FloatList(value=v))
    byt = lambda v: tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
    full = [{"r": i64([1, 2]), "s": f32([1.0, 2.0]), "t": byt([b"a"])}, {"r": i64([3]), "s": f32([3.0]), "t": byt([b"b", b"c"])}]
    rows = [{}, full[0], {}, full[1], {}]
    return [_example(tf, r) for r in rows], rows


@clause("io.parse-example", ref="tf221")
def test_blind18_parse_example_ragged_features_and_defaults(tf, budget):
    """RaggedFeature: a batch's result is a RaggedTensor with one row per Example (row_splits of
    row_splits_dtype, empty Examples first, between and last included), value_key reads another key;
    one Example's is its values. FixedLenFeature's default_value is used whenever it is not None, a
    falsy one (0, 0.0, "", False, [0, 0]) included. FixedLenSequenceFeature pads a batch with its
    default_value (0 or "" without one)."""
    sers, rows = _batch(tf)
    lengths = [len(r["r"].int64_list.value) if "r" in r else 0 for r in rows]
    want_splits = np.concatenate([[0], np.cumsum(lengths)]).tolist()
    for split_dtype in budget([tf.int32, tf.int64]):
        out = tf.io.parse_example(tf.constant(sers), {"r": tf.io.RaggedFeature(tf.int64, row_splits_dtype=split_dtype)})
        assert_equal(_np(out["r"].row_splits).tolist(), want_splits,
                     call=f"parse_example(5 Examples, RaggedFeature(int64, row_splits_dtype={split_dtype.name}))",
                     what="row_splits")
        assert_equal(out["r"].row_splits.dtype.name, split_dtype.name, call="RaggedFeature row_splits", what="dtype")
        assert_equal(_np(out["r"].values).tolist(), [1, 2, 3], call="RaggedFeature(int64)", what="values")
    out = tf.io.parse_example(tf.constant(sers), {"rv": tf.io.RaggedFeature(tf.float32, value_key="s")})
    assert_equal(_np(out["rv"].row_splits).tolist(), want_splits, call="RaggedFeature(float32, value_key='s')",
                 what="row_splits")
    one = tf.io.parse_single_example(sers[3], {"r": tf.io.RaggedFeature(tf.int64)})
    assert_equal(_np(one["r"]).tolist(), [3], call="parse_single_example(RaggedFeature)", what="values")
    for default, dtype, shape, want in budget([(0, tf.int64, [], 0), (0.0, tf.float32, [], 0.0), ("", tf.string, [], b""),
                                               (False, tf.int64, [], 0), ([0, 0], tf.int64, [2], [0, 0]),
                                               (5, tf.int64, [], 5)]):
        feature = tf.io.FixedLenFeature(shape, dtype, default_value=default)
        got = tf.io.parse_single_example(sers[0], {"n": feature})["n"]
        assert_equal(_np(got).tolist(), want, call=f"parse_single_example(no 'n', FixedLenFeature({shape}, "
                     f"default_value={default!r}))", what="value")
        got = tf.io.parse_example(tf.constant(sers[:2]), {"n": feature})["n"]
        assert_equal(_np(got).tolist(), [want, want], call=f"parse_example(FixedLenFeature(default_value={default!r}))",
                     what="values")
    for key, dtype, default, fill in budget([("s", tf.float32, -1.0, -1.0), ("r", tf.int64, 7, 7),
                                             ("t", tf.string, "pad", b"pad"), ("t", tf.string, None, b""),
                                             ("s", tf.float32, None, 0.0)]):
        values = [list(r[key].ListFields()[0][1].value) if key in r else [] for r in rows]
        longest = max(len(v) for v in values)
        want = [[(x.encode() if isinstance(x, str) else x) for x in v] + [fill] * (longest - len(v)) for v in values]
        feature = tf.io.FixedLenSequenceFeature([], dtype, allow_missing=True, default_value=default)
        got = _np(tf.io.parse_example(tf.constant(sers), {key: feature})[key]).tolist()
        assert_equal(got, want, call=f"parse_example(5 Examples, FixedLenSequenceFeature({dtype.name}, "
                     f"default_value={default!r}))", what="padded values")


# -- tf.raw_ops: Python values beside tensors of one type attr ---------------------------------------------------
@clause("ops.raw-ops", ref="tf221")
def test_blind18_raw_ops_convert_python_values_to_the_tensors_dtype(tf, budget):
    """A raw op's inputs sharing one type attr are converted as args_to_matching_eager does: the first
    Tensor among them sets the dtype and the Python values (scalars, lists, in any position, in a list
    input too) are converted to it."""
    cases = [("AddV2(x=2, y=float32 1.5)", lambda: tf.raw_ops.AddV2(x=2, y=tf.constant(1.5)), "float32", 3.5),
             ("Mul(x=int64 4, y=3)", lambda: tf.raw_ops.Mul(x=tf.constant(4, tf.int64), y=3), "int64", 12),
             ("Maximum(x=[1, 2], y=float64)", lambda: tf.raw_ops.Maximum(x=[1, 2], y=tf.constant([1.5, 0.5],
                                                                                                tf.float64)),
              "float64", [1.5, 2.0]),
             ("ConcatV2(values=[[1, 2], float32 [3]])",
              lambda: tf.raw_ops.ConcatV2(values=[[1, 2], tf.constant([3.0])], axis=0), "float32", [1.0, 2.0, 3.0]),
             ("Pack(values=[1, float32 2.5])", lambda: tf.raw_ops.Pack(values=[1, tf.constant(2.5)]), "float32",
              [1.0, 2.5]),
             ("SelectV2(t=1, e=float64)", lambda: tf.raw_ops.SelectV2(condition=[True, False], t=1,
                                                                       e=tf.constant([2.5, 3.5], tf.float64)),
              "float64", [1.0, 3.5]),
             ("Sub(x=float16, y=0.5)", lambda: tf.raw_ops.Sub(x=tf.constant([1.0], tf.float16), y=0.5), "float16",
              [0.5]),
             ("AddN(inputs=[2, float32 0.25])", lambda: tf.raw_ops.AddN(inputs=[2, tf.constant(0.25)]), "float32",
              2.25)]
    for call, run, dtype, want in budget(cases):
        got = run()
        assert_equal(got.dtype.name, dtype, call=f"tf.raw_ops.{call}", what="dtype")
        assert_equal(_np(got).tolist(), want, call=f"tf.raw_ops.{call}", what="value")


# -- fit's logs: the order of their keys -------------------------------------------------------------------------
@clause("keras.fit.logs", ref="tf221")
def test_blind18_logs_keys_are_sorted_everywhere(keras):
    """Keras sorts the logs' keys (python_utils.pythonify_logs): the logs every callback hook receives,
    History.history and evaluate(return_dict=True) list their names in sorted order, whatever the
    order the metrics were compiled in."""
    seen = []

    class Keys(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 0:
                seen.append(("on_train_batch_end", list(logs)))

        def on_test_end(self, logs=None):
            seen.append(("on_test_end", list(logs)))

        def on_epoch_end(self, epoch, logs=None):
            seen.append(("on_epoch_end", list(logs)))

        def on_train_end(self, logs=None):
            seen.append(("on_train_end", list(logs)))

    metrics = ["mse", "categorical_accuracy", "auc"]
    assert_true(["loss"] + metrics != sorted(["loss"] + metrics), "the compiled order must differ from the sorted",
                call="setup")
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, activation="softmax")])
    model.compile("sgd", "categorical_crossentropy", metrics=metrics)
    x = np.ones((8, 2), np.float32)
    y = np.eye(2, dtype=np.float32)[[0, 1] * 4]
    history = model.fit(x, y, epochs=1, batch_size=4, verbose=0, validation_data=(x, y), callbacks=[Keys()])
    train = sorted(["loss"] + metrics)
    full = train + ["val_" + n for n in train]
    want = {"on_train_batch_end": train, "on_test_end": train, "on_epoch_end": full, "on_train_end": full}
    for hook, keys in seen:
        assert_equal(keys, want[hook], call=f"fit(metrics={metrics}): {hook} logs", what="key order")
    assert_equal(sorted({h for h, _ in seen}), sorted(want), call="fit: the hooks seen", what="hooks")
    assert_equal(list(history.history), full, call="History.history", what="key order")
    assert_equal(list(model.evaluate(x, y, verbose=0, return_dict=True)), train, call="evaluate(return_dict=True)",
                 what="key order")

"""tf.train.Checkpoint and CheckpointManager paths the suite never ran before the fourteenth
session's coverage audit — clauses checkpoint.save-counter, checkpoint.restore-status,
checkpoint.manager and keras.model.save-weights (TF 2.21 + Keras 3.15).

Expectations from TF's checkpoint/checkpoint.py and checkpoint_management.py (quoted beside
them) and checked by running TF 2.21: the save counter (made on first use, saved with every
checkpoint from then on, restored by `restore`, counted by the manager's numbered saves too), the
status objects of restore/read, the errors of a missing file, a shape mismatch and a bad
`max_to_keep`, attribute and nested-structure tracking, `restore_or_initialize` and `init_fn`;
Keras weight files' argument errors, shape mismatches and optimizer variable counts.
File names are not compared (simdist writes one `.npz` per checkpoint, TF `.index`/`.data-*`).
"""

from __future__ import annotations

import os
import tempfile
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _statuses(status) -> list[str]:
    """Which of a restore status's assertions pass ("ok") or raise AssertionError."""
    out = []
    for name in ("assert_consumed", "assert_existing_objects_matched"):
        try:
            getattr(status, name)()
            out.append("ok")
        except AssertionError:
            out.append("AssertionError")
    return out


@clause("checkpoint.save-counter", ref="tf221")
def test_cov13_checkpoint_save_counter_is_saved_and_restored(tf):
    """checkpoint.py: `save` adds 1 to save_counter and writes "<prefix>-<save_counter>"; `write`
    neither counts nor numbers; the counter is a checkpointed variable, so `restore` brings back
    the count of the checkpoint (and later saves continue from it)."""
    d = tempfile.mkdtemp()
    v, w = tf.Variable([1.0, 2.0]), tf.Variable(3)
    ck = tf.train.Checkpoint(v=v, w=w)
    first = ck.save(os.path.join(d, "a"))
    assert_same([os.path.basename(first), int(ck.save_counter)], ["a-1", 1], call="first save(prefix)")
    assert_same([os.path.basename(ck.write(os.path.join(d, "b"))), int(ck.save_counter)], ["b", 1],
                 call="write(prefix) after one save")
    second = ck.save(os.path.join(d, "a"))
    assert_same([os.path.basename(second), os.path.basename(tf.train.latest_checkpoint(d))], ["a-2", "a-2"],
                 call="second save, latest_checkpoint")
    v.assign([5.0, 6.0])
    w.assign(9)
    status = ck.restore(first)
    assert_same([v.numpy().tolist(), int(w.numpy()), int(ck.save_counter), _statuses(status)],
                 [[1.0, 2.0], 3, 1, ["ok", "ok"]], call="restore(a-1) after two saves: values, save_counter, status")
    fresh = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]), w=tf.Variable(0))
    fresh.restore(second)
    after = fresh.save(os.path.join(d, "c"))
    assert_same([int(fresh.save_counter), os.path.basename(after)], [3, "c-3"],
                 call="a new Checkpoint restoring a-2, then save(c)")


@clause("checkpoint.restore-status", ref="tf221")
def test_cov13_checkpoint_restore_statuses_and_errors(tf):
    """restore(None) restores nothing and every assertion fails; a missing path is NotFoundError
    (restore and read); objects of the program absent from the checkpoint fail both assertions
    (and keep their values), objects of the checkpoint absent from the program fail only
    assert_consumed; `read` does not make the save counter, so a checkpoint holding one is not
    consumed; a shape mismatch is ValueError and restores nothing."""
    d = tempfile.mkdtemp()
    ck = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]), w=tf.Variable(3))
    path = ck.write(os.path.join(d, "plain"))          # no save counter made: only v and w
    counted = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]))
    counted.save(os.path.join(d, "counted"))
    none = ck.restore(None)
    got = []
    for name in ("assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match"):
        try:
            getattr(none, name)()
            got.append("ok")
        except AssertionError:
            got.append("AssertionError")
    assert_same(got, ["AssertionError"] * 3, call="restore(None) status assertions")
    with raises(tf.errors.NotFoundError, call="restore(missing path)"):
        ck.restore(os.path.join(d, "nope"))
    with raises(tf.errors.NotFoundError, call="read(missing path)"):
        ck.read(os.path.join(d, "nope"))
    extra = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]), z=tf.Variable(1.0))
    status = extra.read(path)
    assert_same([_statuses(status), extra.v.numpy().tolist(), float(extra.z.numpy())],
                 [["AssertionError", "AssertionError"], [1.0, 2.0], 1.0], call="read(v, w) into (v, z)")
    fewer = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]))
    status = fewer.read(path)
    assert_same([_statuses(status), fewer.v.numpy().tolist()], [["AssertionError", "ok"], [1.0, 2.0]],
                 call="read(v, w) into (v)")
    exact = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]), w=tf.Variable(0))
    assert_same(_statuses(exact.read(path).expect_partial()), ["ok", "ok"], call="read(v, w) into (v, w)")
    unread = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]))
    assert_same(_statuses(unread.read(os.path.join(d, "counted-1"))), ["AssertionError", "ok"],
                 call="read of a saved checkpoint (with its save_counter) into a fresh Checkpoint(v)")
    wrong = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0, 0.0]), w=tf.Variable(0))
    with raises(ValueError, call="restore(v: [2]) into v: [3]"):
        wrong.restore(path)
    assert_same([wrong.v.numpy().tolist(), int(wrong.w.numpy())], [[0.0, 0.0, 0.0], 0],
                 call="values after the refused restore")


@clause("checkpoint.restore-status", ref="tf221")
def test_cov13_checkpoint_tracks_attributes_and_structures(tf):
    """`ckpt.x = variable` tracks x under its name; dicts and lists of variables are saved and
    restored element by element; an unknown attribute is AttributeError."""
    d = tempfile.mkdtemp()
    ck = tf.train.Checkpoint()
    ck.x = tf.Variable(4.0)
    path = ck.write(os.path.join(d, "attr"))
    ck.x.assign(0.0)
    other = tf.train.Checkpoint(x=tf.Variable(1.0))
    status = other.read(path)
    ck.read(path)
    assert_same([float(ck.x.numpy()), float(other.x.numpy()), _statuses(status)], [4.0, 4.0, ["ok", "ok"]],
                 call="ckpt.x = Variable(4.0): write, read back by attribute and by keyword")
    nested = tf.train.Checkpoint(d={"a": tf.Variable(1.0), "b": [tf.Variable(2.0), tf.Variable(3.0)]})
    path = nested.write(os.path.join(d, "nested"))
    back = tf.train.Checkpoint(d={"a": tf.Variable(0.0), "b": [tf.Variable(0.0), tf.Variable(0.0)]})
    status = back.read(path)
    assert_same([float(back.d["a"].numpy()), [float(x.numpy()) for x in back.d["b"]], _statuses(status)],
                 [1.0, [2.0, 3.0], ["ok", "ok"]], call="Checkpoint(d={'a': v, 'b': [v, v]}) round trip")
    with raises(AttributeError, call="Checkpoint().nope"):
        tf.train.Checkpoint().nope


@clause("checkpoint.manager", ref="tf221")
def test_cov13_checkpoint_manager_numbers_and_restore_or_initialize(tf):
    """checkpoint_management.py: max_to_keep <= 0 is ValueError; `save(checkpoint_number=n)`
    writes "<name>-n" and still adds 1 to the checkpoint's save_counter, a later `save()` is
    numbered by that counter; a new manager on the directory lists the kept checkpoints;
    `restore_or_initialize` restores the newest (returning its path) or, with none, calls
    `init_fn` and returns None."""
    d = tempfile.mkdtemp()
    base = tf.train.Checkpoint(v=tf.Variable(1.0))
    for bad in (0, -1):
        with raises(ValueError, match="max_to_keep", call=f"CheckpointManager(max_to_keep={bad})"):
            tf.train.CheckpointManager(base, os.path.join(d, "bad"), max_to_keep=bad)
    md = os.path.join(d, "m")
    ck = tf.train.Checkpoint(v=tf.Variable(1.0))
    m = tf.train.CheckpointManager(ck, md, max_to_keep=2, checkpoint_name="model")
    assert_same([m.latest_checkpoint, m.checkpoints, m.checkpoint is ck, os.path.basename(m.directory)],
                 [None, [], True, "m"], call="a new manager on an empty directory")
    assert_same(m.restore_or_initialize(), None, call="restore_or_initialize() with no checkpoint")
    p10 = m.save(checkpoint_number=10)
    assert_same([os.path.basename(p10), int(ck.save_counter)], ["model-10", 1], call="save(checkpoint_number=10)")
    ck.v.assign(2.0)
    p = m.save()
    assert_same([os.path.basename(p), int(ck.save_counter)], ["model-2", 2], call="save() after it")
    ck.v.assign(3.0)
    m.save(checkpoint_number=3)
    assert_same([os.path.basename(c) for c in m.checkpoints], ["model-2", "model-3"],
                 call="checkpoints after saves 10, 2, 3 with max_to_keep=2")
    ck.v.assign(7.0)
    again = tf.train.CheckpointManager(ck, md, max_to_keep=2, checkpoint_name="model")
    assert_same([os.path.basename(c) for c in again.checkpoints], ["model-2", "model-3"],
                 call="a second manager on the directory: checkpoints")
    restored = again.restore_or_initialize()
    assert_same([os.path.basename(restored), float(ck.v.numpy())], ["model-3", 3.0],
                 call="restore_or_initialize() with checkpoints")
    calls = []
    init = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), os.path.join(d, "i"),
                                      max_to_keep=None, init_fn=lambda: calls.append(1))
    assert_same([init.restore_or_initialize(), calls], [None, [1]], call="restore_or_initialize() calls init_fn")
    keep = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), os.path.join(d, "k"), max_to_keep=None)
    for _ in range(4):
        keep.save()
    assert_same([os.path.basename(c) for c in keep.checkpoints], ["ckpt-1", "ckpt-2", "ckpt-3", "ckpt-4"],
                 call="max_to_keep=None keeps every checkpoint")
    assert_same(tf.train.latest_checkpoint(os.path.join(d, "empty")), None, call="latest_checkpoint(empty dir)")


def _weights_model(keras, units: int = 1):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3), keras.layers.Dense(units)])
    model.compile(optimizer=keras.optimizers.Adam(0.1), loss="mse")
    return model


@clause("keras.model.save-weights", ref="tf221")
def test_cov13_checkpoint_weight_file_errors_and_mismatches(keras):
    """Keras 3.15's save_weights/load_weights (models/model.py, saving/saving_lib.py): a path not
    ending in .weights.h5 is ValueError (load: "File format not supported"), unknown keyword
    arguments and unbuilt models are ValueError, a missing file or directory FileNotFoundError;
    a layer whose shapes differ is ValueError ("A total of 1 objects could not be loaded"), with
    skip_mismatch a warning while the other layers load; an optimizer whose variable count differs
    from the file's (built on one side only) is skipped with a warning, a built one loads its
    iterations and slots."""
    d = tempfile.mkdtemp()
    model = _weights_model(keras)
    path = os.path.join(d, "m.weights.h5")
    model.save_weights(path)
    unbuilt = keras.Sequential([keras.layers.Dense(1)])
    cases = [
        ("save_weights('m.h5')", ValueError, "must end in `.weights.h5`", lambda: model.save_weights(os.path.join(d, "m.h5"))),
        ("unbuilt.save_weights", ValueError, "not yet been built",
         lambda: unbuilt.save_weights(os.path.join(d, "u.weights.h5"))),
        ("save_weights into a missing directory", FileNotFoundError, None,
         lambda: model.save_weights(os.path.join(d, "no", "x.weights.h5"))),
        ("load_weights('m.txt')", ValueError, "File format not supported", lambda: model.load_weights(os.path.join(d, "m.txt"))),
        ("load_weights(path, foo=1)", ValueError, "Invalid keyword arguments", lambda: model.load_weights(path, foo=1)),
        ("unbuilt.load_weights", ValueError, "not yet been built", lambda: unbuilt.load_weights(path)),
        ("load_weights(missing file)", FileNotFoundError, None,
         lambda: model.load_weights(os.path.join(d, "none.weights.h5"))),
        ("load_weights into Dense(2) from Dense(1)", ValueError, "A total of 1 objects could not be loaded",
         lambda: _weights_model(keras, units=2).load_weights(path)),
    ]
    for call, exc, match, run in cases:
        with raises(exc, match=match, call=call):
            run()
    wide = _weights_model(keras, units=2)
    before = wide.get_weights()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wide.load_weights(path, skip_mismatch=True)
    after = wide.get_weights()
    assert_same([[np.array_equal(a, b) for a, b in zip(after[:2], model.get_weights()[:2])],
                  [np.array_equal(a, b) for a, b in zip(after[2:], before[2:])],
                  any("could not be loaded" in str(w.message) for w in caught)],
                 [[True, True], [True, True], True], call="load_weights(skip_mismatch=True) into Dense(3), Dense(2)")
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    trained = _weights_model(keras)
    trained.fit(x, y, verbose=0, epochs=2, batch_size=2)
    tpath = os.path.join(d, "t.weights.h5")
    trained.save_weights(tpath)
    fresh = _weights_model(keras)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fresh.load_weights(tpath)
    assert_same([all(np.array_equal(a, b) for a, b in zip(fresh.get_weights(), trained.get_weights())),
                  bool(fresh.optimizer.built), any("Skipping variable loading for optimizer" in str(w.message)
                                                   for w in caught)],
                 [True, False, True], call="load_weights of a trained model into an unbuilt optimizer")
    built = _weights_model(keras)
    built.optimizer.build(built.trainable_variables)
    built.load_weights(tpath)
    assert_same([int(np.asarray(built.optimizer.iterations)),
                  all(np.array_equal(np.asarray(a), np.asarray(b))
                      for a, b in zip(built.optimizer.variables, trained.optimizer.variables))],
                 [4, True], call="load_weights of a trained model (2 epochs x 2 steps) into a built optimizer")


@clause("keras.saving.keras-file", ref="tf221")
def test_cov13_checkpoint_keras_file_arguments_and_compile_state(keras):
    """Keras 3.15's saving_api/serialization_lib for `.keras` files: a path of another extension
    is ValueError on save ("Invalid filepath extension") and load ("File format not supported"),
    a missing file ValueError ("File not found"), a missing directory FileNotFoundError; save pops
    `include_optimizer` (used by the legacy .h5 writer only) and refuses other unknown keywords;
    load_model restores weights, metrics and the optimizer's iterations, `model.load_weights` reads
    a `.keras` file's weights; an unregistered custom class is TypeError, custom_objects finds it;
    a model whose compile() is overridden loads uncompiled-by-config with a warning, yet
    `compiled` is set (serialization_lib sets it after compile_from_config)."""
    d = tempfile.mkdtemp()
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.1), loss="mse",
                  metrics=["mae", keras.metrics.MeanSquaredError(name="ms")])
    model.fit(x, y, verbose=0, epochs=2, batch_size=2)
    path = os.path.join(d, "m.keras")
    model.save(path, include_optimizer=True)
    cases = [
        ("save('m.txt')", ValueError, "Invalid filepath extension", lambda: model.save(os.path.join(d, "m.txt"))),
        ("save(path, foo=1)", ValueError, "argument\\(s\\) are not supported", lambda: model.save(path, foo=1)),
        ("save into a missing directory", FileNotFoundError, None, lambda: model.save(os.path.join(d, "no", "m.keras"))),
        ("load_model('m.txt')", ValueError, "File format not supported",
         lambda: keras.models.load_model(os.path.join(d, "m.txt"))),
        ("load_model(missing file)", ValueError, "File not found",
         lambda: keras.models.load_model(os.path.join(d, "none.keras"))),
    ]
    for call, exc, match, run in cases:
        with raises(exc, match=match, call=call):
            run()
    loaded = keras.models.load_model(path)
    got = loaded.evaluate(x, y, verbose=0, return_dict=True)
    want = model.evaluate(x, y, verbose=0, return_dict=True)
    assert_same([sorted(got), got == want, int(np.asarray(loaded.optimizer.iterations))],
                 [["loss", "mae", "ms"], True, 4], call="load_model of a model fitted 2 epochs x 2 steps")
    other = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    other.load_weights(path)
    assert_same([np.array_equal(a, b) for a, b in zip(other.get_weights(), model.get_weights())], [True, True],
                 call="load_weights('m.keras')")

    class Custom(keras.Model):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.dense = keras.layers.Dense(1)

        def call(self, inputs):
            return self.dense(inputs)

    class CustomCompile(Custom):
        def compile(self, *args, **kwargs):
            super().compile(*args, **kwargs)

    custom = Custom()
    custom(np.ones((1, 2), np.float32))
    cpath = os.path.join(d, "c.keras")
    custom.save(cpath)
    with raises(TypeError, match="Could not locate class 'Custom'", call="load_model of an unregistered class"):
        keras.models.load_model(cpath)
    back = keras.models.load_model(cpath, custom_objects={"Custom": Custom})
    assert_same([np.array_equal(a, b) for a, b in zip(back.get_weights(), custom.get_weights())], [True, True],
                 call="load_model(custom_objects={'Custom': Custom}) weights")
    cc = CustomCompile()
    cc(np.ones((1, 2), np.float32))
    cc.compile(optimizer="sgd", loss="mse")
    ccpath = os.path.join(d, "cc.keras")
    cc.save(ccpath)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        restored = keras.models.load_model(ccpath, custom_objects={"CustomCompile": CustomCompile})
    assert_same([bool(restored.compiled), any("compile()` was not called" in str(w.message) for w in caught)],
                 [True, True], call="load_model of a model with a custom compile(): compiled, warning")

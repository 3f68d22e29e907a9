"""What tf.train.Checkpoint tracks — clause checkpoint.restore-status (TF 2.21 + Keras 3.15).

TF's Checkpoint takes as `root` or a keyword argument only a trackable object, or a list, tuple or
dict, which it wraps in a trackable data structure (checkpoint.py `_assert_trackable`): any other
value is ValueError, a Keras 3 metric, loss or schedule included (KerasSaveable, not Trackable).
Assigning an attribute takes any value, but only trackables are saved (sticky_attribute_assignment),
and a non-trackable element of a list or dict is skipped. Trackables without state (a dataset, a
tf.function) save nothing; a tf.random.Generator saves its state. Found by the sixteenth session's
automatic mutation sweep (amut15 part B: `checkpoint.py:234` and `:247` survived).
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("checkpoint.restore-status", ref="tf221")
def test_checkpoint_refuses_what_is_not_trackable(tf, keras):
    refused = [
        ("x=3", lambda: tf.train.Checkpoint(x=3)),
        ("x=None", lambda: tf.train.Checkpoint(x=None)),
        ("x='abc'", lambda: tf.train.Checkpoint(x="abc")),
        ("x=np.float32(1)", lambda: tf.train.Checkpoint(x=np.float32(1))),
        ("x=np.ones(2)", lambda: tf.train.Checkpoint(x=np.ones(2))),
        ("x=tf.constant(1.0)", lambda: tf.train.Checkpoint(x=tf.constant(1.0))),
        ("x=lambda: 1", lambda: tf.train.Checkpoint(x=lambda: 1)),
        ("x=keras.metrics.Mean()", lambda: tf.train.Checkpoint(x=keras.metrics.Mean())),
        ("x=keras.losses.MeanSquaredError()", lambda: tf.train.Checkpoint(x=keras.losses.MeanSquaredError())),
        ("x=ExponentialDecay", lambda: tf.train.Checkpoint(
            x=keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9))),
        ("Checkpoint(3)", lambda: tf.train.Checkpoint(3)),
        ("Checkpoint([v])", lambda: tf.train.Checkpoint([tf.Variable(1.0)])),
    ]
    for call, fn in refused:
        name = "root" if call.startswith("Checkpoint(") else "x"
        with raises(ValueError, call=f"tf.train.Checkpoint({call})",
                    match=f"`Checkpoint` was expecting {name} to be a trackable object"):
            fn()


@clause("checkpoint.restore-status", ref="tf221")
def test_checkpoint_takes_trackables_and_containers(tf, keras):
    accepted = [
        ("x=[1, 2]", lambda: [1, 2]),
        ("x=(v,)", lambda: (tf.Variable(1.0),)),
        ("x={'a': 1}", lambda: {"a": 1}),
        ("x=tf.data.Dataset.range(3)", lambda: tf.data.Dataset.range(3)),
        ("x=iter(tf.data.Dataset.range(3))", lambda: iter(tf.data.Dataset.range(3))),
        ("x=tf.function(lambda: 1)", lambda: tf.function(lambda: 1)),
        ("x=tf.Module()", lambda: tf.Module()),
        ("x=tf.train.Checkpoint()", lambda: tf.train.Checkpoint()),
        ("x=keras.layers.Dense(2)", lambda: keras.layers.Dense(2)),
        ("x=keras.optimizers.Adam()", lambda: keras.optimizers.Adam()),
        ("x=tf.random.Generator.from_seed(1)", lambda: tf.random.Generator.from_seed(1)),
        ("root=0 (falsy: no root)", None),
    ]
    for call, make in accepted:
        try:
            tf.train.Checkpoint(0) if make is None else tf.train.Checkpoint(x=make())
        except Exception as e:  # noqa: BLE001 - the report names what was refused
            raise AssertionError(f"tf.train.Checkpoint({call}) raised {type(e).__name__}: {e}, but TF 2.21 "
                                 "accepts it (a trackable object or a container)") from None


@clause("checkpoint.restore-status", ref="tf221")
def test_checkpoint_saves_only_trackables_and_keeps_sticky_dependencies(tf):
    with tempfile.TemporaryDirectory() as d:
        v, w = tf.Variable(1.0), tf.Variable(2.0)
        ckpt = tf.train.Checkpoint(v=v, x=[1, w, "text"], d={"n": 5, "w": tf.Variable(3.0)},
                                   ds=tf.data.Dataset.range(3), f=tf.function(lambda: 1))
        ckpt.x2 = 7                   # a plain attribute: read back, not saved
        ckpt.y = tf.Variable(4.0)
        y = ckpt.y
        ckpt.y = 8                    # the dependency on the variable stays (TF: sticky)
        assert_equal(ckpt.y, 8, call="ckpt.y after `ckpt.y = 8`")
        path = ckpt.save(os.path.join(d, "c"))
        for var in (v, w, ckpt.d["w"], y):
            var.assign(-1.0)
        ckpt.x2 = 9
        status = ckpt.restore(path)
        status.assert_consumed()
        got = [float(v.numpy()), float(w.numpy()), float(ckpt.d["w"].numpy()), float(y.numpy())]
        assert_equal(got, [1.0, 2.0, 3.0, 4.0],
                     call="v, x[1], d['w'] and the variable ckpt.y held, restored (the ints and strings beside them "
                          "are skipped)")
        assert_equal(ckpt.x2, 9, call="a non-trackable attribute after restore (not saved, so not restored)")


@clause("checkpoint.restore-status", ref="tf221")
def test_checkpoint_saves_a_random_generators_state(tf):
    with tempfile.TemporaryDirectory() as d:
        g = tf.random.Generator.from_seed(7)
        ckpt = tf.train.Checkpoint(g=g)
        g.normal([2])
        path = ckpt.save(os.path.join(d, "c"))
        want = g.normal([3]).numpy()
        g.normal([5])
        ckpt.restore(path).assert_consumed()
        got = g.normal([3]).numpy()
        assert_equal(got.tolist(), want.tolist(), call="Generator draws after restoring its checkpointed state")

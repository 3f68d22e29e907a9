"""tf.summary's event files — clause summary.event-files (TF 2.21 + TensorBoard 2.21).

Expected events are stated from TF 2.21's and TensorBoard's rules (python/ops/summary_ops_v2.py,
tensorboard/plugins/*/summary_v2.py) on inputs whose histogram edges are exact, and the PNG/WAV
bytes' SHA-1 as observed with TF 2.21; tests/summary/test_summary22_tf.py compares every event
byte for byte with live TF on many more cases.
"""

from __future__ import annotations

import hashlib
import os
import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


def _events(d: str) -> list:
    """The events of the one event file in d, as (step, tag, plugin, value ndarray) after the version record."""
    from tensorboard.backend.event_processing.event_file_loader import RawEventFileLoader
    from tensorboard.compat.proto import event_pb2
    from tensorboard.util import tensor_util
    files = [f for f in os.listdir(d) if f.startswith("events.out.tfevents.")]
    assert len(files) == 1, f"{d} holds {files}, but should hold one event file"
    events = [event_pb2.Event.FromString(r) for r in RawEventFileLoader(os.path.join(d, files[0])).Load()]
    assert events[0].file_version == "brain.Event:2", f"first record {events[0]}, but should be the version event"
    out = []
    for e in events[1:]:
        v = e.summary.value[0]
        out.append((e.step, v.tag, v.metadata.plugin_data.plugin_name, tensor_util.make_ndarray(v.tensor)))
    return out


@clause("summary.event-files", ref="tf221")
def test_scalar_histogram_and_the_step_rules(tf, tmp_path):
    pytest.importorskip("tensorboard")
    call = "tf.summary with create_file_writer(...).as_default()"
    assert_equal(bool(tf.summary.scalar("nowriter", 1.0, step=1)), False, call="tf.summary.scalar without a writer",
                 what="returned")
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default():
        got = [bool(tf.summary.scalar("loss", 0.25, step=3)),
               bool(tf.summary.histogram("h", [0.0, 1.0, 2.0, 3.0, 4.0, 8.0], step=3, buckets=4))]
        with tf.summary.record_if(False):
            got.append(bool(tf.summary.scalar("off", 1.0)))   # (no step: no error when not recording)
        with raises(ValueError, call="tf.summary.scalar without a step",
                    match=re.escape("No step set. Please specify one either through the `step` argument or through "
                                    "tf.summary.experimental.set_step()")):
            tf.summary.scalar("nostep", 1.0)
        tf.summary.experimental.set_step(5)
        got.append(bool(tf.summary.text("t", "hi")))
        tf.summary.experimental.set_step(None)
    w.close()
    assert_equal(got, [True, True, False, True], call=call, what="returned")
    ev = _events(str(tmp_path))
    assert_equal([s for s, _, _, _ in ev], [3, 3, 5], call=call, what="steps of the events")
    assert_equal([f"{t}:{p}" for _, t, p, _ in ev], ["loss:scalars", "h:histograms", "t:text"], call=call,
                 what="tag:plugin of the events")
    assert_equal([ev[0][3].dtype.name, ev[1][3].dtype.name], ["float32", "float64"], call=call,
                 what="dtypes of the scalar and the histogram")
    assert_equal(ev[0][3].tolist(), 0.25, call=call, what="the scalar")
    # 4 buckets of width 2 over [0, 8]: floor(x / 2) clamped to 3 -> counts 2, 2, 1, 1
    assert_equal(ev[1][3].tolist(), [[0.0, 2.0, 2.0], [2.0, 4.0, 2.0], [4.0, 6.0, 1.0], [6.0, 8.0, 1.0]],
                 call=call, what="the histogram's [left, right, count]")
    assert_equal(ev[2][3].tolist().decode(), "hi", call=call, what="the text")


@clause("summary.event-files", ref="tf221")
def test_image_and_audio_bytes(tf, tmp_path):
    pytest.importorskip("tensorboard")
    w = tf.summary.create_file_writer(str(tmp_path))
    images = (np.arange(2 * 2 * 3 * 3, dtype=np.float32).reshape(2, 2, 3, 3) / 35.0)
    clips = np.linspace(-1.0, 1.0, 2 * 5 * 1, dtype=np.float32).reshape(2, 5, 1)
    with w.as_default(step=1):
        tf.summary.image("im", images, max_outputs=1)
        tf.summary.audio("au", clips, 8000, max_outputs=3)
    w.close()
    (_, _, p1, im), (_, _, p2, au) = _events(str(tmp_path))
    call = "tf.summary.image(max_outputs=1) and tf.summary.audio of two clips"
    assert_equal([p1, p2], ["images", "audio"], call=call, what="plugins")
    assert_equal([list(im.shape), list(au.shape)], [[3], [2, 2]], call=call, what="tensor shapes")
    assert_equal([x.decode() for x in im[:2]] + [x.decode() for x in au[:, 1]], ["3", "2", "", ""], call=call,
                 what="image width and height, audio labels")
    assert_equal([hashlib.sha1(x).hexdigest() for x in [im[2], au[0, 0], au[1, 0]]],
                 ["311d64ca626aa090cfbcfd7e0bab882ac7c4a340", "a7beb0b8312d61e53f421078dff25b3a91d08e0b",
                  "8947e6b42fbf4ca2101793af6e9d2a35a9d95581"], call=call, what="SHA-1 of the PNG and the two WAVs")


@clause("summary.event-files", ref="tf221")
def test_a_function_writes_at_every_call(tf, tmp_path):
    pytest.importorskip("tensorboard")
    w = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def train_step(x):
        with w.as_default(step=step):
            with tf.summary.record_if(lambda: step % 2 == 0):
                ok = tf.summary.scalar("x", x)
        step.assign_add(1)
        return ok

    got = [bool(train_step(tf.constant(float(i)))) for i in range(5)]
    w.close()
    call = "a tf.function writing tf.summary.scalar under record_if(lambda: step % 2 == 0), called 5 times"
    assert_equal(got, [True, False, True, False, True], call=call, what="returned")
    ev = _events(str(tmp_path))
    assert_equal([[s, float(v)] for s, _, _, v in ev], [[0, 0.0], [2, 2.0], [4, 4.0]], call=call,
                 what="[step, value] written")


@clause("summary.event-files", ref="tf221")
def test_only_replica_zero_writes(backend, tf, tmp_path):
    pytest.importorskip("tensorboard")
    strategy = backend.make_strategy("mirrored", 2)
    w = tf.summary.create_file_writer(str(tmp_path))

    def replica_fn(x):
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        return tf.summary.scalar("v", x * tf.cast(rid + 1, tf.float32), step=1)

    with w.as_default():
        out = strategy.run(replica_fn, args=(tf.constant(2.0),))
    w.close()
    call = "tf.summary.scalar in strategy.run of MirroredStrategy(2)"
    assert_equal([bool(t) for t in strategy.experimental_local_results(out)], [True, False], call=call,
                 what="each replica's return")
    ev = _events(str(tmp_path))
    assert_equal([[s, float(v)] for s, _, _, v in ev], [[1, 2.0]], call=call,
                 what="[step, value] of the events written (replica 0's only)")

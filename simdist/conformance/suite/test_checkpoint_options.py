"""tf.train.CheckpointOptions — clause checkpoint.options: the write callbacks run once after each
save or write (a CheckpointManager's too), in order, given the save path when they take a parameter;
a callback of two parameters is refused when the options are made; the async flag's two names are
one setting."""

from __future__ import annotations

import os

import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("checkpoint.options", ref="tf221")
def test_write_callbacks_run_after_each_save(tf, tmp_path):
    seen = []
    options = tf.train.CheckpointOptions(experimental_write_callbacks=[
        lambda path: seen.append(("path", os.path.basename(path))), lambda: seen.append(("no argument",))])
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    saved = ckpt.save(str(tmp_path / "ck"), options=options)
    assert_equal(seen, [("path", os.path.basename(saved)), ("no argument",)], call="Checkpoint.save(options=...)",
                 what="the callbacks' calls")
    seen.clear()
    written = ckpt.write(str(tmp_path / "w"), options=options)
    assert_equal(seen, [("path", "w"), ("no argument",)], call="Checkpoint.write(options=...)",
                 what="the callbacks' calls")
    assert_equal(os.path.basename(written), "w", call="Checkpoint.write(options=...)", what="the path")
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path / "managed"), max_to_keep=2)
    for number in (None, 7):
        seen.clear()
        path = manager.save(checkpoint_number=number, options=options)
        assert_equal(seen, [("path", os.path.basename(path)), ("no argument",)],
                     call=f"CheckpointManager.save(checkpoint_number={number}, options=...)", what="the callbacks' calls")
    seen.clear()
    ckpt.save(str(tmp_path / "plain"))
    assert_equal(seen, [], call="Checkpoint.save() without options", what="the callbacks' calls")


@clause("checkpoint.options", ref="tf221")
def test_options_arguments(tf):
    with raises(AssertionError, call="CheckpointOptions(experimental_write_callbacks=[<2 parameters>])"):
        tf.train.CheckpointOptions(experimental_write_callbacks=[lambda a, b: None])
    for kw in ({"enable_async": True}, {"experimental_enable_async_checkpoint": True}, {}):
        o = tf.train.CheckpointOptions(**kw)
        want = bool(kw)
        assert_equal([o.enable_async, o.experimental_enable_async_checkpoint], [want, want],
                     call=f"CheckpointOptions(**{kw})", what="[enable_async, experimental_enable_async_checkpoint]")
    o = tf.train.CheckpointOptions()
    assert_equal([o.experimental_io_device, o.experimental_write_callbacks, o.experimental_skip_slot_variables],
                 [None, None, False], call="CheckpointOptions()", what="the defaults")

"""benchmarks/suite_options.py (the option-coverage audit of the conformance suite): what counts as
setting an option, that only the suite's own calls count, that the wrapped API behaves as before,
and that the report is sorted."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def so():
    spec = importlib.util.spec_from_file_location("suite_options", ROOT / "benchmarks" / "suite_options.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["suite_options"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("value,default,same", [
    ("VALID", "valid", True), ("same", "valid", False), (1.0, 1, True), (0.5, 0.0, False), (None, None, True),
    (True, 1, False), (False, False, True), ((1, 1), (1, 1), True), ([2, 1], (1, 1), False), (object(), None, False)])
def test_what_counts_as_the_default(so, value, default, same):
    assert so._same(value, default) is same, f"_same({value!r}, {default!r}) should be {same}"


def test_only_calls_from_the_suite_count_and_results_are_unchanged(so):
    rec = so.Recorder()
    rec.strict = False          # the set-only rule (--set-only): no re-runs

    def f(x, axis=-1, keepdims=False, **kwargs):
        return (x, axis, keepdims, kwargs)

    w = rec.wrap_function(f, "tf.math.f")
    assert inspect.signature(w) == inspect.signature(f)
    assert w(1, axis=0) == (1, 0, False, {}), "the wrapper must return what the function returns"
    assert rec.calls.get("tf.math.f", 0) == 0, "a call from outside simdist/conformance must not count"
    suite_file = str(Path(rec._suite) / "suite" / "test_fake.py")
    code = compile("out = w(2, axis=0, keepdims=False, extra=3)", suite_file, "exec")
    ns = {"w": w}
    exec(code, ns)   # noqa: S102 - a call whose frame is a suite file
    assert ns["out"] == (2, 0, False, {"extra": 3})
    assert rec.calls["tf.math.f"] == 1
    assert rec.nondefault["tf.math.f"] == {"axis"}, f"only axis was set to a non-default: {rec.nondefault}"
    assert rec.extra_kwargs["tf.math.f"] == {"extra"}
    r = rec.report(["tf.math"])
    assert r["uncovered"] == ["tf.math.f(keepdims)"], r["uncovered"]
    assert (r["pairs"], r["pairs_covered"]) == (2, 1)


def test_the_report_is_sorted(so):
    rec = so.Recorder()
    sig = inspect.signature(lambda a=1, b=2: None)
    for api in ("keras.layers.Z.__init__", "keras.layers.A.__init__", "tf.nn.m"):
        rec.register(api, sig)
    r = rec.report()
    assert r["never_called"] == sorted(r["never_called"])
    assert r["uncovered"] == sorted(r["uncovered"])
    assert r["uncovered"][0] == "keras.layers.A.__init__(a)"


# -- the stricter rule (session 21): a set option counts only if the output changes ------------------
def _suite_call(rec, w, src):
    """Run `src` as if it were a line of a suite test, inside a test's call phase."""
    code = compile(src, str(Path(rec._suite) / "suite" / "test_fake.py"), "exec")
    ns = {"w": w}
    rec.sandbox.in_call = True
    try:
        exec(code, ns)   # noqa: S102 - a call whose frame is a suite file
    finally:
        rec.sandbox.in_call = False
    return ns.get("out")


def test_an_option_set_without_changing_the_output_is_not_covered(so):
    """Solarization's case: a threshold range (0, 0) is not the default 0.0 by value, but the layer's
    output is the same; a threshold inside the data's range changes it."""
    from simdist import tf
    ramp = np.arange(0, 255, 15, dtype=np.float32).reshape(1, 1, 17, 1)

    def solarize(x, threshold_factor=0.0, value_range=(0, 255)):
        layer = tf.keras.layers.Solarization(threshold_factor=threshold_factor, value_range=value_range, seed=1)
        return layer(x, training=True)

    rec = so.Recorder()
    w = rec.wrap_function(solarize, "keras.layers.solarize")
    _suite_call(rec, w, "out = w(__import__('numpy').arange(0, 255, 15, dtype='float32').reshape(1, 1, 17, 1), "
                "threshold_factor=(0.0, 0.0))")
    assert rec.nondefault["keras.layers.solarize"] == {"threshold_factor"}
    assert rec.effective.get("keras.layers.solarize", set()) == set(), \
        f"threshold (0, 0) is output-neutral, but was counted: {dict(rec.effective)}"
    assert rec.neutral[("keras.layers.solarize", "threshold_factor")] == 1
    assert rec.status("keras.layers.solarize", "threshold_factor").startswith("output-neutral")
    r = rec.report(["keras.layers"])
    assert "keras.layers.solarize(threshold_factor)" in r["uncovered"], r["uncovered"]
    out = _suite_call(rec, w, "out = w(__import__('numpy').arange(0, 255, 15, dtype='float32').reshape(1, 1, 17, 1), "
                      "threshold_factor=(0.5, 0.5))")
    want = np.asarray(solarize(ramp, threshold_factor=(0.5, 0.5)))     # the unwrapped call (seeded layer)
    assert np.array_equal(np.asarray(out), want), f"the wrapped call returned {np.asarray(out).ravel()}, not {want.ravel()}"
    assert rec.effective["keras.layers.solarize"] == {"threshold_factor"}, \
        f"threshold 0.5 * 255 inside the data changes the output, but: {rec.status('keras.layers.solarize', 'threshold_factor')}"


def test_the_re_run_leaves_the_parent_state_alone(so):
    """The re-run happens in a fork: a stateful call (a random draw, a counter) gives the parent
    what it gives without the survey."""
    from simdist import tf
    state = {"n": 0}

    def draw(shape, scale=1.0):
        state["n"] += 1
        return tf.random.uniform(shape, seed=3) * scale

    rec = so.Recorder()
    w = rec.wrap_function(draw, "tf.random.draw")
    tf.random.set_seed(1)
    out = _suite_call(rec, w, "out = w([4], scale=2.0)")
    assert state["n"] == 1, f"the parent ran the call {state['n']} times, but should once"
    tf.random.set_seed(1)
    want = tf.random.uniform([4], seed=3) * 2.0
    assert np.array_equal(np.asarray(out), np.asarray(want)), f"{np.asarray(out)} != {np.asarray(want)}"
    assert rec.effective["tf.random.draw"] == {"scale"}


def test_raw_ops_python_value_beside_a_tensor_is_a_pseudo_option(so):
    """AddV2(x=2, y=float32): the Python 2 is converted to float32 (args_to_matching_eager); its
    default, x converted on its own (int32), raises: the pseudo-option is effective."""
    from simdist import tf
    rec = so.Recorder()
    fn = tf.raw_ops.AddV2
    w = rec.wrap_function(fn, "tf.raw_ops.AddV2")
    assert rec.params["tf.raw_ops.AddV2"] == [so.RAW_PYTHON]
    code = "out = w(x=2, y=__import__('simdist').tf.constant(1.5))"
    out = _suite_call(rec, w, code)
    assert float(np.asarray(out)) == 3.5, f"AddV2(x=2, y=1.5f)={np.asarray(out)}, but should be 3.5"
    assert rec.effective["tf.raw_ops.AddV2"] == {so.RAW_PYTHON}, rec.status("tf.raw_ops.AddV2", so.RAW_PYTHON)


def test_outputs_are_compared_by_dtype_shape_and_value(so):
    import suite_options_rerun as rr
    from simdist import tf
    assert rr.same(rr.plain(tf.constant([1.0, np.nan])), rr.plain(tf.constant([1.0, np.nan])))
    assert not rr.same(rr.plain(tf.constant([1, 2])), rr.plain(tf.constant([1.0, 2.0])))
    assert not rr.same(rr.plain(tf.constant([[1, 2]])), rr.plain(tf.constant([1, 2])))
    ds = tf.data.Dataset.range(5).batch(2)
    assert rr.plain(ds)[0] == "dataset" and len(rr.plain(ds)[1]) == 3
    assert not rr.same(rr.plain(ds), rr.plain(tf.data.Dataset.range(5).batch(2, drop_remainder=True)))
    with pytest.raises(rr.NotPlain):
        rr.plain(tf.keras.layers.Dense(2))


def test_an_array_against_a_structure_differs(so):
    """unpack_x_y_sample_weight's case: an array on one side, a tuple on the other."""
    import suite_options_rerun as rr
    a = np.ones((2, 1), np.float32)
    assert not rr.same(a, ("tuple", [a, np.zeros(2, np.float32)]))
    assert not rr.same(("tuple", [a]), a)

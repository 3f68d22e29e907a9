"""benchmarks/suite_gradients.py (the gradient-coverage audit of the conformance suite): only the
gradient functions a tape walk runs are recorded, with the forms of their calls; the hook leaves
the gradients unchanged and is removed again; the universe splits TF's LookupError ops apart."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from simdist import tf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sg():
    spec = importlib.util.spec_from_file_location("suite_gradients", ROOT / "benchmarks" / "suite_gradients.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["suite_gradients"] = mod
    spec.loader.exec_module(mod)
    return mod


def _grad(f, *xs, upstream=None):
    ts = [tf.constant(x, tf.float64) for x in xs]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        y = f(*ts)
    og = None if upstream is None else tf.constant(upstream, tf.float64)
    return [np.asarray(g.numpy()) for g in tape.gradient(y, ts, output_gradients=og)]


def test_records_the_ops_a_tape_differentiates_with_their_forms(sg):
    from simdist.runtime.ops import registry
    before = registry.gradient_function
    x, y = np.array([[1.0, -2.0, 3.0]]), np.array([[0.5], [2.0]])
    plain = _grad(lambda a, b: a * b, x, y, upstream=np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    rec = sg.Recorder()
    rec.install()
    try:
        hooked = _grad(lambda a, b: a * b, x, y, upstream=np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        _grad(lambda a: tf.matmul(a, a, transpose_b=True), np.array([[1.0, 2.0]]))
        tf.exp(tf.constant([1.0]))                     # no tape: not recorded
    finally:
        rec.restore()
    assert registry.gradient_function is before, "restore() must put the registry's lookup back"
    for p, h in zip(plain, hooked):
        np.testing.assert_array_equal(h, p, err_msg="the hook changed a gradient")
    assert rec.calls == {"Mul": 1, "MatMul": 1}, f"calls={dict(rec.calls)}, but should be Mul 1, MatMul 1"
    assert rec.forms["Mul"] == {"upstream", "negative", "broadcast", "float64"}, rec.forms["Mul"]
    assert rec.forms["MatMul"] == {"float64"}, f"ones upstream, positive inputs: {rec.forms['MatMul']}"
    assert rec.attrs["MatMul"]["transpose_b"] == {"True"}, dict(rec.attrs["MatMul"])
    r = rec.report()
    assert "attr transpose_b never varied (True)" in r["forms_missing"]["MatMul"], r["forms_missing"]["MatMul"]
    assert "Mul" not in r["forms_missing"], r["forms_missing"].get("Mul")
    assert "Exp" in r["missing"] and "Mul" not in r["missing"]


def test_a_lookup_error_gradient_is_reached_not_differentiated(sg):
    diff, lookup = sg.universe()
    assert "TruncateMod" in lookup and "TruncateMod" not in diff
    assert "MatMul" in diff and "NoOp" not in diff + lookup
    assert diff == sorted(diff) and lookup == sorted(lookup)
    rec = sg.Recorder()
    rec.install()
    try:
        with pytest.raises(LookupError):
            _grad(lambda a: tf.truncatemod(a, tf.constant(0.7, tf.float64)), np.array([1.5, 2.0]))
    finally:
        rec.restore()
    r = rec.report()
    assert r["lookup_reached"] == ["TruncateMod"], r["lookup_reached"]
    assert rec.lookup_raised == {"TruncateMod"}


def test_option_attributes_only(sg):
    assert sg._is_option("'SAME'") and sg._is_option("False")
    assert not sg._is_option("(1, 2)") and not sg._is_option("3")
    assert sg._attr_key(np.arange(3)) == "array[0, 1, 2]"

"""benchmarks/suite_options.py (the option-coverage audit of the conformance suite): what counts as
setting an option, that only the suite's own calls count, that the wrapped API behaves as before,
and that the report is sorted."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

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

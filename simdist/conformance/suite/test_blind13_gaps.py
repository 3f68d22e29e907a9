"""Gaps the thirteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


# -- tf.data: cardinalities and element specs of range, enumerate, batch and unbatch ---------------------------
@clause("dataset.batching", ref="tf221")
def test_blind13_range_enumerate_and_unbatch_count_what_they_yield(tf, budget):
    """Dataset.range(start, stop, step) has len(range(start, stop, step)) elements (a step that does
    not divide the span rounds up; a negative step counts down); enumerate(start=k) numbers from k;
    unbatch of batches of a known size has batches * size elements. cardinality() says what
    iterating yields."""
    r = tf.data.Dataset.range
    cases = [("range(0, 10, 3)", lambda: r(0, 10, 3), list(range(0, 10, 3))),
             ("range(1, 8, 2)", lambda: r(1, 8, 2), list(range(1, 8, 2))),
             ("range(10, 0, -3)", lambda: r(10, 0, -3), list(range(10, 0, -3))),
             ("range(5, -4, -2)", lambda: r(5, -4, -2), list(range(5, -4, -2))),
             ("range(7, 2)", lambda: r(7, 2), []),
             ("range(0, 10, 5)", lambda: r(0, 10, 5), [0, 5])]
    for name, make, want in budget(cases):
        ds = make()
        assert_equal([int(v) for v in ds], want, call=name, what="elements")
        assert_equal(int(ds.cardinality()), len(want), call=f"{name}.cardinality()")
    for start in budget([3, 0, -2]):
        ds = r(10, 14).enumerate(start=start)
        got = [(int(i), int(v)) for i, v in ds]
        assert_equal(got, [(start + j, 10 + j) for j in range(4)], call=f"range(10, 14).enumerate(start={start})",
                     what="(index, element) pairs")
    for n, size, drop in budget([(10, 3, True), (12, 4, False), (10, 3, False)]):
        ds = r(n).batch(size, drop_remainder=drop).unbatch()
        name = f"range({n}).batch({size}, drop_remainder={drop}).unbatch()"
        want = list(range(n - n % size)) if drop else list(range(n))
        assert_equal([int(v) for v in ds], want, call=name, what="elements")
        card = int(ds.cardinality())
        # TF knows the count only when the batch dimension is static (drop_remainder=True); else UNKNOWN (-2)
        assert_equal(card, len(want) if drop else -2, call=f"{name}.cardinality()")


@clause("dataset.batching", ref="tf221")
def test_blind13_batch_element_spec_has_a_static_batch_only_with_drop_remainder(tf, budget):
    """Dataset.batch(k).element_spec has a None batch dimension (the last batch may be short);
    with drop_remainder=True it is k. The same for padded_batch; the inner dimensions stay."""
    base = tf.data.Dataset.from_tensor_slices((np.zeros((7, 3), np.float32), np.arange(7, dtype=np.int64)))
    for size, drop in budget([(2, False), (2, True), (7, False), (8, True)]):
        ds = base.batch(size, drop_remainder=drop)
        call = f"from_tensor_slices(((7, 3), (7,))).batch({size}, drop_remainder={drop}).element_spec"
        want = size if drop else None
        assert_equal(ds.element_spec[0].shape.as_list(), [want, 3], call=call, what="[0].shape")
        assert_equal(ds.element_spec[1].shape.as_list(), [want], call=call, what="[1].shape")
        mapped = base.map(lambda a, b: (a * 2.0, b)).batch(size, drop_remainder=drop)
        assert_equal(mapped.element_spec[0].shape.as_list(), [want, 3], call=call.replace(".batch", ".map(f).batch"),
                     what="[0].shape")
        padded = tf.data.Dataset.range(5).map(lambda v: tf.fill([v], v)).padded_batch(size, drop_remainder=drop)
        assert_equal(padded.element_spec.shape.as_list(), [want, None],
                     call=f"range(5).map(fill).padded_batch({size}, drop_remainder={drop}).element_spec.shape")


# -- learning-rate schedules with their options ----------------------------------------------------------------
def _polynomial(step, lr0, decay_steps, end, power, cycle):
    """Keras 3.15's PolynomialDecay, transcribed."""
    if cycle:
        mult = 1.0 if step == 0 else math.ceil(step / decay_steps)
        steps = decay_steps * mult
    else:
        step, steps = min(step, decay_steps), decay_steps
    return (lr0 - end) * (1 - step / steps) ** power + end


def _cosine(step, lr0, decay_steps, alpha, warmup_target=None, warmup_steps=0):
    """Keras 3.15's CosineDecay, transcribed (a linear warmup, then the cosine from warmup_target)."""
    def decay(s, frm):
        return frm * ((1 - alpha) * 0.5 * (1 + math.cos(math.pi * s / decay_steps)) + alpha)
    if warmup_target is None:
        return decay(min(step, decay_steps), lr0)
    step = min(step, decay_steps + warmup_steps)
    if step < warmup_steps:
        return (warmup_target - lr0) * step / warmup_steps + lr0
    return decay(step - warmup_steps, warmup_target)


def _restarts(step, lr0, first, t_mul, m_mul, alpha):
    """Keras 3.15's CosineDecayRestarts, transcribed: period i lasts first * t_mul**i steps."""
    frac = step / first
    if t_mul == 1.0:
        i = math.floor(frac)
        frac -= i
    else:
        i = math.floor(math.log(1 - frac * (1 - t_mul)) / math.log(t_mul))
        done = (1 - t_mul ** i) / (1 - t_mul)
        frac = (frac - done) / t_mul ** i
    return lr0 * ((1 - alpha) * 0.5 * m_mul ** i * (1 + math.cos(math.pi * frac)) + alpha)


@clause("optim.schedules", ref="tf221")
def test_blind13_schedules_apply_cycle_warmup_and_restart_options(keras, budget):
    """PolynomialDecay(cycle=True) stretches decay_steps to the next multiple past the step (no cap);
    CosineDecay with warmup_target rises linearly over warmup_steps, then decays from warmup_target
    over the steps after the warmup; CosineDecayRestarts scales each restart by m_mul ** i and
    lengthens it by t_mul ** i. Checked step by step, and through an optimizer's learning_rate."""
    sched = keras.optimizers.schedules
    cases = [("PolynomialDecay(cycle=True, power=2)", lambda: sched.PolynomialDecay(0.5, 4, 0.1, power=2.0, cycle=True),
              lambda s: _polynomial(s, 0.5, 4, 0.1, 2.0, True)),
             ("PolynomialDecay(power=0.5)", lambda: sched.PolynomialDecay(0.5, 4, 0.1, power=0.5),
              lambda s: _polynomial(s, 0.5, 4, 0.1, 0.5, False)),
             ("CosineDecay(warmup_target=1.0, warmup_steps=3, alpha=0.2)",
              lambda: sched.CosineDecay(0.1, 5, alpha=0.2, warmup_target=1.0, warmup_steps=3),
              lambda s: _cosine(s, 0.1, 5, 0.2, 1.0, 3)),
             ("CosineDecay(alpha=0.1)", lambda: sched.CosineDecay(0.4, 6, alpha=0.1),
              lambda s: _cosine(s, 0.4, 6, 0.1)),
             ("CosineDecayRestarts(t_mul=1, m_mul=0.5)",
              lambda: sched.CosineDecayRestarts(0.8, 3, t_mul=1.0, m_mul=0.5, alpha=0.1),
              lambda s: _restarts(s, 0.8, 3, 1.0, 0.5, 0.1)),
             ("CosineDecayRestarts(t_mul=2, m_mul=0.7)",
              lambda: sched.CosineDecayRestarts(0.8, 2, t_mul=2.0, m_mul=0.7),
              lambda s: _restarts(s, 0.8, 2, 2.0, 0.7, 0.0))]
    for name, make, ref in budget(cases):
        s = make()
        opt = keras.optimizers.SGD(learning_rate=s)
        for step in range(16):
            call = f"{name} at step {step}"
            assert_close(float(s(step)), ref(step), call=call, what="schedule(step)", tolerance=TOL32)
        for step in (0, 7, 13):
            opt.iterations.assign(step)
            assert_close(float(opt.learning_rate), ref(step), call=f"SGD({name}) at iterations={step}",
                         what="learning_rate", tolerance=TOL32)

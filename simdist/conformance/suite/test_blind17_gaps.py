"""Gaps the seventeenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# -- layers: an option with one value per input, and options combined -----------------------------------------
@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_blind17_dot_contracts_and_normalizes_each_input_along_its_own_axis(keras, budget):
    """Dot(axes=(a, b), normalize) contracts axis a of the first input with axis b of the second
    (negative axes counted from each input's own rank); with normalize=True each input is first
    L2-normalized along its own contracted axis (Keras's batch_dot of normalize(x, a) and
    normalize(y, b)), so pairs with a != b tell one input's axis from the other's."""
    cases = [((2, 3, 4), (2, 2, 3), (1, 2)), ((2, 4, 3), (2, 4, 5), (1, 1)), ((2, 3, 5), (2, 5, 4), (2, 1)),
             ((2, 3, 4), (2, 4), (-1, 1)), ((2, 5, 3), (2, 3, 5), (-2, -1))]
    for i, (sx, sy, axes) in enumerate(budget(cases)):
        x, y = _f32(*sx, seed=10 + i), _f32(*sy, seed=20 + i)
        a = axes[0] % len(sx)
        b = axes[1] % len(sy)
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        for normalize in (False, True):
            xs = x64 / np.linalg.norm(x64, axis=a, keepdims=True) if normalize else x64
            ys = y64 / np.linalg.norm(y64, axis=b, keepdims=True) if normalize else y64
            want = np.stack([np.tensordot(xs[k], ys[k], axes=(a - 1, b - 1)) for k in range(sx[0])])
            if want.ndim == 1:
                want = want[:, None]
            call = f"Dot(axes={axes}, normalize={normalize})([x{sx}, y{sy}])"
            got = _np(keras.layers.Dot(axes=axes, normalize=normalize)([x, y]))
            assert_equal(got.shape, want.shape, call=call, what="output shape")
            assert_close(got, want, call=call, tolerance=TOL32)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_blind17_attention_scale_and_concat_weight_act_where_keras_puts_them(keras, tf, budget):
    """Attention's trainable weights at values other than their initial ones, in each score mode:
    "dot" scores q·kᵀ × scale; "concat" scores concat_score_weight · Σ_d tanh(scale · (q + k))
    (the scale inside the tanh); AdditiveAttention Σ_d scale_d · tanh(q + k), and without
    use_scale Σ_d tanh(q + k); softmax over the keys, then · value."""
    q, v, k = _f32(2, 3, 4, seed=1), _f32(2, 5, 4, seed=2), _f32(2, 5, 4, seed=3)
    q64, v64, k64 = (t.astype(np.float64) for t in (q, v, k))
    s = q64[:, :, None, :] + k64[:, None, :, :]                       # (b, q, k, d)
    cases = [("dot", 1.7, None), ("concat", 2.0, 1.5), ("concat", 0.3, -0.8), ("concat", None, 2.5)]
    for mode, scale, weight in budget(cases):
        layer = keras.layers.Attention(use_scale=scale is not None, score_mode=mode)
        layer.build([q.shape, v.shape, k.shape])
        if scale is not None:
            layer.scale.assign(np.float32(scale))
        if weight is not None:
            layer.concat_score_weight.assign(np.float32(weight))
        if mode == "dot":
            scores = scale * np.einsum("bqd,bkd->bqk", q64, k64)
        else:
            inner = s if scale is None else scale * s
            scores = weight * np.tanh(inner).sum(axis=-1)
        call = f"Attention(score_mode={mode!r}, use_scale={scale is not None}) with scale={scale}, " \
               f"concat_score_weight={weight}"
        assert_close(_np(layer([q, v, k])), _softmax(scores) @ v64, call=call, tolerance=TOL32)
    for use_scale in budget([True, False]):
        add = keras.layers.AdditiveAttention(use_scale=use_scale)
        add.build([q.shape, v.shape, k.shape])
        if use_scale:
            add.scale.assign(np.array([0.5, -1.5, 2.0, 0.25], np.float32))
            scores = (np.tanh(s) * np.array([0.5, -1.5, 2.0, 0.25])).sum(axis=-1)
        else:
            scores = np.tanh(s).sum(axis=-1)
        assert_close(_np(add([q, v, k])), _softmax(scores) @ v64,
                     call=f"AdditiveAttention(use_scale={use_scale})([q, v, k])", tolerance=TOL32)


@clause("keras.layer.option-coverage", ref="tf221")
def test_blind17_normalizations_apply_their_own_default_epsilon(keras, tf, budget):
    """Each normalization's default epsilon, on inputs small enough for it to matter:
    UnitNormalization is x · min(rsqrt(Σx²), 1e12) (epsilon 1e-12: a vector of norm 5e-9 still
    comes out of unit norm); keras.utils.normalize of a tensor uses keras.config.epsilon() (1e-7:
    x · min(rsqrt(Σx²), 1e7), so that vector is scaled by 1e7 only); LayerNormalization is
    (x − mean) / sqrt(var + 1e-3) (gamma 1, beta 0)."""
    tiny = np.array([[3e-9, 4e-9, 0.0], [1e-7, -2e-7, 2e-7], [3e-13, 0.0, 4e-13], [0.3, 0.4, 1.2]], np.float32)
    t64 = tiny.astype(np.float64)

    def capped(x, eps):
        return x * np.minimum(1.0 / np.sqrt((x ** 2).sum(axis=-1, keepdims=True)), 1.0 / eps)

    cases = [("UnitNormalization()", lambda: keras.layers.UnitNormalization()(tiny), capped(t64, 1e-12)),
             ("keras.utils.normalize(tensor)", lambda: keras.utils.normalize(tf.constant(tiny)), capped(t64, 1e-7)),
             ("UnitNormalization(axis=0)", lambda: keras.layers.UnitNormalization(axis=0)(tiny[:3].T),
              capped(t64[:3], 1e-12).T)]
    small = _f32(3, 6, seed=4, lo=-0.05, hi=0.05)
    s64 = small.astype(np.float64)
    mean, var = s64.mean(axis=-1, keepdims=True), s64.var(axis=-1, keepdims=True)
    cases.append(("LayerNormalization()", lambda: keras.layers.LayerNormalization()(small),
                  (s64 - mean) / np.sqrt(var + 1e-3)))
    for call, run, want in budget(cases):
        assert_close(_np(run()), want, call=f"{call} on small inputs", tolerance=Tolerance(rtol=1e-4, atol=1e-6))


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_blind17_threshold_activations_at_their_edges(keras, tf, budget):
    """Inputs equal to a threshold or a cap: ThresholdedReLU(theta) is x · (x > theta) (x = theta gives
    0); ReLU(threshold=t, max_value=m, negative_slope=s) is Keras's relu: where(x > t, x, 0) clipped
    to [0, m] (when m is given), minus s · relu(t − x) (x = t gives 0, x = m gives m); the layer and
    keras.activations.relu agree."""
    x = np.array([-1.0, 0.0, 0.5, 1.0, 1.25, 1.5, 2.0, 3.0], np.float32)
    x64 = x.astype(np.float64)
    for theta in budget([1.0, 0.5, 0.0, 2.0]):
        assert_close(_np(keras.layers.ThresholdedReLU(theta=theta)(x)), x64 * (x64 > theta),
                     call=f"ThresholdedReLU(theta={theta})({x.tolist()})", tolerance=TOL32)
    for t, m, s in budget([(1.0, None, 0.0), (1.0, None, 0.5), (0.5, 2.0, 0.1), (0.0, 1.5, 0.0), (1.25, 2.0, 0.0)]):
        want = np.where(x64 > t, x64, 0.0) if t != 0 else np.maximum(x64, 0.0)
        if m is not None:
            want = np.clip(want, 0.0, m)
        want = want - s * np.maximum(t - x64, 0.0)
        call = f"ReLU(threshold={t}, max_value={m}, negative_slope={s})({x.tolist()})"
        assert_close(_np(keras.layers.ReLU(threshold=t, max_value=m, negative_slope=s)(x)), want, call=call,
                     tolerance=TOL32)
        assert_close(_np(keras.activations.relu(tf.constant(x), negative_slope=s, max_value=m, threshold=t)), want,
                     call="keras.activations." + call.replace("ReLU(", "relu(x, "), tolerance=TOL32)


# -- tf.nn: moments from shifted sufficient statistics --------------------------------------------------------
@clause("ops.nn-more", ref="tf221")
def test_blind17_moments_from_shifted_sufficient_statistics(tf, budget):
    """tf.nn.normalize_moments(counts, mean_ss, variance_ss, shift): mean = mean_ss / counts + shift,
    variance = variance_ss / counts − (mean_ss / counts)² (the shifted mean's square: the shift
    cancels); with sufficient_statistics(x, axes, shift) (sums of x − shift and (x − shift)²) it
    gives x's mean and variance over the axes whatever the shift."""
    x = _f32(3, 4, 5, seed=6, lo=1.0, hi=3.0)
    x64 = x.astype(np.float64)
    for axes, shift in budget([([1], 2.0), ([0, 2], -1.5), ([2], 0.0), ([1], None), ([0, 1, 2], 10.0)]):
        sh = None if shift is None else tf.constant(shift)
        c, m_ss, v_ss, _ = tf.nn.sufficient_statistics(tf.constant(x), axes, shift=sh, keepdims=True)
        mean, var = tf.nn.normalize_moments(c, m_ss, v_ss, sh)
        call = f"normalize_moments(*sufficient_statistics(x, {axes}, shift={shift}))"
        assert_close(_np(mean), x64.mean(axis=tuple(axes), keepdims=True), call=call, what="mean",
                     tolerance=Tolerance(rtol=1e-5, atol=1e-5))
        assert_close(_np(var), x64.var(axis=tuple(axes), keepdims=True), call=call, what="variance",
                     tolerance=Tolerance(rtol=1e-4, atol=1e-4))
    counts, m_ss, v_ss = 4.0, np.array([2.0, -1.0, 6.0]), np.array([10.0, 3.0, 9.5])
    for shift in budget([np.array([1.0, 0.5, -2.0]), np.array([0.0, 0.0, 0.0])]):
        mean, var = tf.nn.normalize_moments(tf.constant(counts), tf.constant(m_ss, tf.float32),
                                            tf.constant(v_ss, tf.float32), tf.constant(shift, tf.float32))
        call = f"normalize_moments(4, {m_ss.tolist()}, {v_ss.tolist()}, shift={shift.tolist()})"
        assert_close(_np(mean), m_ss / counts + shift, call=call, what="mean", tolerance=TOL32)
        assert_close(_np(var), v_ss / counts - (m_ss / counts) ** 2, call=call, what="variance", tolerance=TOL32)


# -- around training: the progress bar's running averages ------------------------------------------------------
def _shown(text: str, name: str) -> float:
    values = re.findall(rf" - {name}: ([-+0-9.e]+)", text)
    return float(values[-1]) if values else float("nan")


@clause("keras.fit.progress-bar", ref="tf221")
def test_blind17_progbar_averages_stateless_values_over_units(keras, budget):
    """keras.utils.Progbar(verbose=1) shows, for a value not in `stateful_metrics`, its running mean
    weighted by the units each update covers (update(current, ...) covers current − the previous
    current, at least 1; add(n, ...) covers n); a stateful value shows its last value; a finalizing
    update (current >= target) shows the value it is given."""
    sequences = [[("u", 2, 1.0, 10.0), ("u", 5, 4.0, 20.0), ("u", 6, 2.0, 30.0), ("a", 3, 0.5, 7.0),
                  ("u", 10, 9.0, 1.0)],
                 [("a", 1, 3.0, 1.0), ("a", 1, 5.0, 2.0), ("u", 7, -1.0, 3.0), ("u", 7, 2.0, 4.0)],
                 [("u", 4, 0.25, 5.0), ("a", 2, 0.75, 6.0), ("u", 9, 0.5, 8.0)]]
    for stateful in budget([[], ["b"]]):
        for seq in sequences:
            bar = keras.utils.Progbar(10, verbose=1, interval=0.0, stateful_metrics=stateful or None)
            seen, total, weight = 0, 0.0, 0
            for how, n, a, b in seq:
                buf = io.StringIO()
                with contextlib.redirect_stdout(buf):
                    if how == "u":
                        bar.update(n, [("a", a), ("b", b)])
                    else:
                        bar.add(n, [("a", a), ("b", b)])
                current = n if how == "u" else seen + n
                units = max(current - seen, 1)
                seen = current
                total, weight = total + a * units, weight + units
                final = current >= 10
                want_a = a if final else total / weight
                want_b = b if final or "b" in stateful else None
                text = buf.getvalue()
                call = f"Progbar(10, stateful_metrics={stateful}) after {seq[:seq.index((how, n, a, b)) + 1]}"
                assert_close(_shown(text, "a"), want_a, call=call, what="shown value of 'a'",
                             tolerance=Tolerance(rtol=1e-3, atol=1e-4))
                if want_b is not None:
                    assert_close(_shown(text, "b"), want_b, call=call, what="shown value of 'b'",
                                 tolerance=Tolerance(rtol=1e-3, atol=1e-4))
                if final:
                    break


# -- around training: split_dataset's fractional sizes ----------------------------------------------------------
@clause("keras.utils.data-tools", ref="tf221")
def test_blind17_split_dataset_rounds_fractional_sizes(keras, budget):
    """split_dataset(left_size=f or right_size=f) takes round(f · n) samples (Python's round: halves
    to even), the other side the rest; with both fractions each is rounded on its own, the left part
    the first samples and the right part the last."""
    cases = [(10, 0.55, None), (12, 0.125, None), (10, 0.45, 0.45), (9, 0.5, 0.5), (10, None, 0.35), (7, 0.5, None),
             (10, 0.25, None), (20, None, 0.175)]
    for n, left, right in budget(cases):
        lw = round(left * n) if left is not None else None
        rw = round(right * n) if right is not None else None
        lw = n - rw if lw is None else lw
        rw = n - lw if rw is None else rw
        a, b = keras.utils.split_dataset(np.arange(n), left_size=left, right_size=right)
        call = f"split_dataset(arange({n}), left_size={left}, right_size={right})"
        assert_equal([int(v) for v in a.as_numpy_iterator()], list(range(lw)), call=call, what="left part")
        assert_equal([int(v) for v in b.as_numpy_iterator()], list(range(n - rw, n)), call=call, what="right part")

"""Gaps the thirty-first blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only (Muon's updates of matrices and vectors but not of a conv kernel's rank, keras.optimizers.get's lower-case names
only, Masking's mask as its call attaches it but not compute_mask's own result), so that a wrong implementation of
the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two spellings, never
the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, to_numpy

clause = pytest.mark.clause


def _np(x):
    return np.asarray(to_numpy(x))


# -- Muon: every variable but a matrix takes the AdamW step ------------------------------------------------------------
def _adamw_steps(x0, grads, lr, b1=0.9, b2=0.999, eps=1e-7):
    """Keras 3.15's Muon._adamw_update_step (weight decay 0), in float64: m += (g - m)(1 - b1), v += (g^2 - v)(1 - b2),
    x -= m * lr sqrt(1 - b2^t) / (1 - b1^t) / (sqrt(v) + eps)."""
    x, m, v = np.array(x0, np.float64), np.zeros_like(x0, np.float64), np.zeros_like(x0, np.float64)
    for t, g in enumerate(grads, start=1):
        g = np.asarray(g, np.float64)
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        m += (g - m) * (1 - b1)
        v += (g * g - v) * (1 - b2)
        x -= m * alpha / (np.sqrt(v) + eps)
    return x


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("shape", [(3,), (2, 2, 2), (1, 2, 2, 2)])
def test_blind31_muon_non_matrix_variables_take_the_adamw_step(keras, shape):
    """keras.optimizers.Muon updates a variable whose rank is not 2 (a bias, a conv kernel) with AdamW (Keras 3.15's
    muon.py `_should_use_adamw`: `len(variable.shape) != 2`), at learning_rate * adam_lr_ratio with adam_beta_1/2 and
    epsilon; with both weight decays 0, two steps give the AdamW formula's values."""
    n = int(np.prod(shape))
    x0 = np.linspace(-1.0, 1.0, n, dtype=np.float32).reshape(shape)
    grads = [np.linspace(0.5, 2.0, n, dtype=np.float32).reshape(shape),
             np.linspace(-1.5, 0.25, n, dtype=np.float32).reshape(shape)]
    var = keras.Variable(x0)
    opt = keras.optimizers.Muon(learning_rate=0.1, weight_decay=0.0, adam_weight_decay=0.0)
    for g in grads:
        opt.apply_gradients([(g, var)])
    want = _adamw_steps(x0, grads, 0.1)
    got = _np(var)
    assert_equal(got.shape, want.shape, call=f"Muon: a variable of shape {shape}", what="shape")
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6), (
        f"Muon(learning_rate=0.1, weight decays 0), two steps on a variable of shape {shape}: expected the AdamW "
        f"values {np.round(want.ravel(), 6).tolist()}, got {np.round(got.ravel(), 6).tolist()}")


# -- keras.optimizers.get: a name in any case ----------------------------------------------------------------------------
@clause("keras.saving.json-and-serialize", ref="tf221")
@pytest.mark.parametrize("name, cls", [("adam", "Adam"), ("Adam", "Adam"), ("ADAM", "Adam"), ("sgd", "SGD"),
                                       ("SGD", "SGD"), ("RMSprop", "RMSprop"), ("rmsprop", "RMSprop"),
                                       ("AdamW", "AdamW"), ("Nadam", "Nadam")])
def test_blind31_optimizers_get_takes_a_name_in_any_case(keras, name, cls):
    """keras.optimizers.get(name) builds the optimizer whose class name matches `name` in any case (Keras 3.15's
    optimizers/__init__.py: a string becomes {"class_name": name, "config": {}}, and deserialize lower-cases a
    known class_name); an unknown name is ValueError."""
    assert_equal(type(keras.optimizers.get(name)).__name__, cls, call=f"keras.optimizers.get({name!r})",
                 what="type name")


# -- Masking: a (batch, steps) mask -------------------------------------------------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("mask_value", [0.0, -1.0])
def test_blind31_masking_mask_drops_the_feature_axis(keras, mask_value):
    """keras.layers.Masking(mask_value).compute_mask(x) for x of shape (batch, steps, features) is the boolean
    (batch, steps) `any(x != mask_value, axis=-1)` (Keras 3.15's masking.py: keepdims=False), as is the mask the
    call attaches to its output."""
    x = np.array([[[mask_value, mask_value], [1.0, mask_value], [mask_value, mask_value]],
                  [[2.0, 3.0], [mask_value, mask_value], [0.5, 0.5]]], np.float32)
    want = np.any(x != mask_value, axis=-1)
    layer = keras.layers.Masking(mask_value=mask_value)
    got = _np(layer.compute_mask(x))
    assert_equal(got.shape, want.shape, call=f"Masking({mask_value}).compute_mask(x of shape (2, 3, 2))",
                 what="mask shape")
    assert_equal(got.tolist(), want.tolist(), call=f"Masking({mask_value}).compute_mask(x)", what="mask")
    out = layer(x)
    assert_equal(_np(out._keras_mask).tolist(), want.tolist(), call=f"Masking({mask_value})(x)._keras_mask",
                 what="mask")

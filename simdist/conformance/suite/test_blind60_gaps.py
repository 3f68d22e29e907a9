"""Blind batch 60's classes (fifty-first session, helper blind51a): the behaviour around each mutant of
tests/mutants.py TRAINING_BATCH60, over the modes, options and shapes of its API. Expected values are computed here
by a transcription of Keras 3.15's rule (NumPy, in float64 where the test runs the API in float64, so that the
comparison can be tight: a default epsilon of 1e-7 instead of 1e-8 or a step counted one ahead shows), or are
relations the rule implies, or were observed on TF 2.21 (named so)."""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pytest


def _np(x: Any) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- optimizers: default hyperparameters and trajectories ------------------------------------------------

# Observed on TF 2.21 (Keras 3.15.1): get_config() of each optimizer built with no argument (name left out).
_OPT_DEFAULTS = {
    "SGD": {"learning_rate": 0.009999999776482582, "momentum": 0.0, "nesterov": False},
    "Adam": {"learning_rate": 0.0010000000474974513, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07,
             "amsgrad": False},
    "AdamW": {"learning_rate": 0.0010000000474974513, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07,
              "amsgrad": False, "weight_decay": 0.004},
    "RMSprop": {"learning_rate": 0.0010000000474974513, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-07,
                "centered": False},
    "Adagrad": {"learning_rate": 0.0010000000474974513, "initial_accumulator_value": 0.1, "epsilon": 1e-07},
    "Adadelta": {"learning_rate": 0.0010000000474974513, "rho": 0.95, "epsilon": 1e-07},
    "Adamax": {"learning_rate": 0.0010000000474974513, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "Nadam": {"learning_rate": 0.0010000000474974513, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "ScheduleFreeAdamW": {"learning_rate": 0.0024999999441206455, "beta_1": 0.9, "beta_2": 0.999,
                          "epsilon": 1e-08, "warmup_steps": 0},
}


@pytest.mark.clause("optim.option-coverage")
@pytest.mark.parametrize("name", sorted(_OPT_DEFAULTS))
def test_blind60_optimizer_defaults_are_keras(keras: Any, name: str) -> None:
    """Each optimizer's default hyperparameters (TF 2.21's get_config of an optimizer made with no argument):
    epsilon 1e-7 (ScheduleFreeAdamW's 1e-8), RMSprop's rho 0.9, SGD's learning rate 0.01 ..."""
    config = getattr(keras.optimizers, name)().get_config()
    got = {k: config.get(k) for k in _OPT_DEFAULTS[name]}
    for k, want in _OPT_DEFAULTS[name].items():
        if isinstance(want, float):
            assert got[k] is not None and np.isclose(got[k], want, rtol=1e-12, atol=0), \
                f"{name}(): {k} = {got[k]!r}, Keras's default {want!r}"
        else:
            assert got[k] == want, f"{name}(): {k} = {got[k]!r}, Keras's default {want!r}"


def _grads(step: int) -> np.ndarray:
    """Small gradients (so that epsilon weighs on the update) that change sign and size from step to step."""
    return np.array([1e-4 * (step + 1), -3e-4 + 1e-4 * step, 2e-3 / (step + 1), 0.5 * (-1) ** step], np.float64)


def _f32(x: float) -> float:
    """A float32 optimizer variable's value (the learning rate), read in float64."""
    return float(np.float32(x))


def _ref_adam(steps: int, lr: float, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-7, amsgrad: bool = False,
              wd: float | None = None) -> np.ndarray:
    """Keras 3.15's Adam (and AdamW: `var -= var * wd * lr` first), t = iterations + 1. The bias corrections'
    powers and the weight decay take `ops.cast(python float, float64)`, which converts through float32 (so
    beta_1 = 0.9 is 0.8999999762 there), while the moments' rates `1 - beta` stay Python floats."""
    var = np.array([1.0, -2.0, 0.5, 3.0])
    m = np.zeros(4); v = np.zeros(4); vh = np.zeros(4)
    lr = _f32(lr)
    for t in range(steps):
        g = _grads(t)
        if wd is not None:
            var = var - var * _f32(wd) * lr
        alpha = lr * np.sqrt(1 - _f32(b2) ** (t + 1)) / (1 - _f32(b1) ** (t + 1))
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        if amsgrad:
            vh = np.maximum(vh, v)
        var = var - m * alpha / (np.sqrt(vh if amsgrad else v) + eps)
    return var


def _ref_rmsprop(steps: int, lr: float, rho: float = 0.9, momentum: float = 0.0, eps: float = 1e-7,
                 centered: bool = False) -> np.ndarray:
    """Keras 3.15's RMSprop: v = rho v + (1 - rho) g^2; g lr / sqrt(v (- mean_g^2) + eps), through momentum."""
    var = np.array([1.0, -2.0, 0.5, 3.0])
    v = np.zeros(4); a = np.zeros(4); mom = np.zeros(4)
    lr = _f32(lr)
    for t in range(steps):
        g = _grads(t)
        v = rho * v + (1 - rho) * g * g
        if centered:
            a = rho * a + (1 - rho) * g
            denom = v - a * a + eps
        else:
            denom = v + eps
        inc = lr * g / np.sqrt(denom)
        if momentum > 0:
            mom = momentum * mom + inc
            var = var - mom
        else:
            var = var - inc
    return var


def _ref_sgd(steps: int, lr: float, momentum: float = 0.0, nesterov: bool = False) -> np.ndarray:
    """Keras 3.15's SGD: m = m * momentum - g * lr; var += m (Nesterov: var += m * momentum - g * lr); the
    momentum through `ops.cast` (float32 first)."""
    var = np.array([1.0, -2.0, 0.5, 3.0])
    m = np.zeros(4)
    lr = _f32(lr)
    momentum = _f32(momentum)
    for t in range(steps):
        g = _grads(t)
        if momentum:
            m = m * momentum - g * lr
            var = var + (m * momentum - g * lr if nesterov else m)
        else:
            var = var - g * lr
    return var


_TRAJECTORIES = [
    ("Adam", {}, lambda n: _ref_adam(n, 0.001)),
    ("Adam", {"learning_rate": 0.05}, lambda n: _ref_adam(n, 0.05)),
    ("Adam", {"learning_rate": 0.05, "epsilon": 1e-8}, lambda n: _ref_adam(n, 0.05, eps=1e-8)),
    ("Adam", {"learning_rate": 0.05, "amsgrad": True}, lambda n: _ref_adam(n, 0.05, amsgrad=True)),
    ("Adam", {"learning_rate": 0.05, "beta_1": 0.8, "beta_2": 0.99}, lambda n: _ref_adam(n, 0.05, 0.8, 0.99)),
    ("AdamW", {"learning_rate": 0.05}, lambda n: _ref_adam(n, 0.05, wd=0.004)),
    ("RMSprop", {}, lambda n: _ref_rmsprop(n, 0.001)),
    ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5}, lambda n: _ref_rmsprop(n, 0.01, momentum=0.5)),
    ("RMSprop", {"learning_rate": 0.01, "centered": True}, lambda n: _ref_rmsprop(n, 0.01, centered=True)),
    ("RMSprop", {"learning_rate": 0.01, "rho": 0.8}, lambda n: _ref_rmsprop(n, 0.01, rho=0.8)),
    ("SGD", {}, lambda n: _ref_sgd(n, 0.01)),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9}, lambda n: _ref_sgd(n, 0.1, 0.9)),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}, lambda n: _ref_sgd(n, 0.1, 0.9, True)),
]


@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("steps", [1, 6])
@pytest.mark.parametrize("case", range(len(_TRAJECTORIES)))
def test_blind60_optimizer_trajectory_is_keras_rule(keras: Any, tf: Any, case: int, steps: int) -> None:
    """A float64 variable after `steps` updates (defaults included) against the transcription of Keras's rule, to
    1e-9 relative: an epsilon, a rho or a moment's rate off by a default shows."""
    name, kw, ref = _TRAJECTORIES[case]
    opt = getattr(keras.optimizers, name)(**kw)
    var = tf.Variable(np.array([1.0, -2.0, 0.5, 3.0]), dtype=tf.float64)
    for t in range(steps):
        opt.apply_gradients([(tf.constant(_grads(t)), var)])
    np.testing.assert_allclose(_np(var), ref(steps), rtol=1e-9, atol=1e-13,
                               err_msg=f"{name}({kw}) after {steps} steps")


# -- learning-rate schedules: the value at each step, and the step an optimizer asks for ------------------

def _schedules(keras: Any) -> dict[str, tuple[Any, Any]]:
    S = keras.optimizers.schedules
    return {
        "exponential": (S.ExponentialDecay(0.1, 4, 0.5), lambda s: 0.1 * 0.5 ** (s / 4)),
        "exponential-staircase": (S.ExponentialDecay(0.1, 4, 0.5, staircase=True),
                                  lambda s: 0.1 * 0.5 ** np.floor(s / 4)),
        "inverse-time": (S.InverseTimeDecay(0.1, 4, 0.5), lambda s: 0.1 / (1 + 0.5 * s / 4)),
        "inverse-time-staircase": (S.InverseTimeDecay(0.1, 4, 0.5, staircase=True),
                                   lambda s: 0.1 / (1 + 0.5 * np.floor(s / 4))),
        "polynomial": (S.PolynomialDecay(0.1, 8, 0.01, power=2.0),
                       lambda s: (0.1 - 0.01) * (1 - min(s, 8) / 8) ** 2 + 0.01),
        "cosine": (S.CosineDecay(0.1, 8, alpha=0.1),
                   lambda s: 0.1 * ((1 - 0.1) * 0.5 * (1 + np.cos(np.pi * min(s, 8) / 8)) + 0.1)),
        "piecewise": (S.PiecewiseConstantDecay([2, 5], [0.1, 0.05, 0.01]),
                      lambda s: 0.1 if s <= 2 else 0.05 if s <= 5 else 0.01),
    }


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("which", ["exponential", "exponential-staircase", "inverse-time", "inverse-time-staircase",
                                   "polynomial", "cosine", "piecewise"])
def test_blind60_schedule_values_at_each_step(keras: Any, which: str) -> None:
    """Keras 3.15's formulas at steps 0..11 (step 0 gives the initial rate)."""
    sched, ref = _schedules(keras)[which]
    got = [float(_np(sched(s))) for s in range(12)]
    np.testing.assert_allclose(got, [ref(s) for s in range(12)], rtol=1e-6, err_msg=f"{which} at steps 0..11")


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("which", ["exponential", "inverse-time", "polynomial", "cosine", "piecewise"])
def test_blind60_optimizer_asks_its_schedule_for_the_current_step(keras: Any, tf: Any, which: str) -> None:
    """SGD driven by a schedule: the k-th update (k from 0) uses the rate at step k, so after n unit-gradient
    steps the variable is -sum(lr(k), k < n)."""
    sched, ref = _schedules(keras)[which]
    opt = keras.optimizers.SGD(sched)
    var = tf.Variable(np.zeros(1), dtype=tf.float64)
    for _ in range(9):
        opt.apply_gradients([(tf.constant(np.ones(1)), var)])
    want = -sum(float(np.float32(ref(k))) for k in range(9))
    np.testing.assert_allclose(_np(var), [want], rtol=1e-6, err_msg=f"SGD({which}) after 9 steps")


# -- normalization layers' epsilon and the recurrent layers' defaults ----------------------------------

@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("which", ["LayerNormalization", "BatchNormalization-train", "BatchNormalization-infer",
                                   "GroupNormalization"])
def test_blind60_normalization_default_epsilon_in_the_output(keras: Any, which: str) -> None:
    """A low-variance input (variance 1.25e-4, so that epsilon weighs): (x - mean) / sqrt(var + 1e-3) with Keras's
    default epsilon 1e-3 (BatchNormalization's inference: the initial moving statistics 0 and 1)."""
    x = np.array([[0.0, 0.01, 0.02, 0.03], [0.03, 0.0, 0.01, 0.02]], np.float32)
    eps = 1e-3
    if which == "LayerNormalization":
        layer = keras.layers.LayerNormalization()
        mean = x.mean(-1, keepdims=True); var = x.var(-1, keepdims=True)
        want = (x - mean) / np.sqrt(var + eps)
        got = layer(x)
    elif which == "GroupNormalization":
        layer = keras.layers.GroupNormalization(groups=2)
        g = x.reshape(2, 2, 2)
        want = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)).reshape(2, 4)
        got = layer(x)
    else:
        layer = keras.layers.BatchNormalization()
        if which.endswith("train"):
            want = (x - x.mean(0)) / np.sqrt(x.var(0) + eps)
            got = layer(x, training=True)
        else:
            want = x / np.sqrt(1.0 + eps)
            got = layer(x, training=False)
    assert float(layer.get_config()["epsilon"]) == eps, f"{which}: epsilon {layer.get_config()['epsilon']}"
    np.testing.assert_allclose(_np(got), want, rtol=2e-4, atol=2e-5, err_msg=which)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


@pytest.mark.clause("keras.rnn.config")
@pytest.mark.parametrize("cls", ["LSTM", "GRU", "SimpleRNN", "LSTMCell", "GRUCell", "SimpleRNNCell"])
def test_blind60_recurrent_default_activations_and_gates(keras: Any, cls: str) -> None:
    """With kernels of ones and zero biases (LSTM: the forget gate's bias 1, unit_forget_bias), 3 steps of
    Keras's default cells: tanh and a sigmoid (not hard_sigmoid) recurrent activation; GRU/GRUCell reset_after=True."""
    units, x = 2, np.array([[[0.7, -0.2], [0.4, 0.1], [-0.3, 0.5]]], np.float32)
    kw = {"kernel_initializer": "ones", "recurrent_initializer": "ones", "bias_initializer": "zeros"}
    base = cls.replace("Cell", "")
    layer = (keras.layers.RNN(getattr(keras.layers, cls)(units, **kw)) if cls.endswith("Cell")
             else getattr(keras.layers, cls)(units, **kw))
    got = _np(layer(x))
    h = np.zeros(units); c = np.zeros(units)
    for t in range(3):
        s = x[0, t].sum()
        if base == "SimpleRNN":
            h = np.tanh(s + h.sum())
        elif base == "LSTM":
            z = s + h.sum()
            i, f, o = _sigmoid(z), _sigmoid(z + 1.0), _sigmoid(z)
            c = f * c + i * np.tanh(z)
            h = o * np.tanh(c)
        else:
            zr = _sigmoid(s + h.sum())
            hh = np.tanh(s + zr * h.sum())
            h = zr * h + (1 - zr) * hh
        h = np.full(units, h) if np.ndim(h) == 0 else h
    np.testing.assert_allclose(got, [h], rtol=1e-5, err_msg=f"{cls} with kernels of ones after 3 steps")
    config = (layer.cell if cls.endswith("Cell") else layer).get_config()
    if base != "SimpleRNN":
        assert config["recurrent_activation"] == "sigmoid", f"{cls}: {config['recurrent_activation']}"
    if base == "GRU":
        assert config["reset_after"] is True, f"{cls}: reset_after {config['reset_after']}"


@pytest.mark.clause("keras.rnn.config")
@pytest.mark.parametrize("cls", ["SimpleRNNCell", "LSTMCell", "GRUCell", "SimpleRNN", "LSTM", "GRU"])
def test_blind60_recurrent_kernel_default_is_orthogonal(keras: Any, cls: str) -> None:
    """recurrent_initializer defaults to "orthogonal": each (units, units) block of the recurrent kernel has
    orthonormal columns."""
    layer = getattr(keras.layers, cls)(4)
    if cls.endswith("Cell"):
        layer.build((None, 3))
        cell = layer
    else:
        layer.build((None, 2, 3))
        cell = layer.cell
    k = _np(cell.recurrent_kernel).astype(np.float64)
    assert cell.get_config()["recurrent_initializer"]["class_name"] == "Orthogonal", cls
    gram = k.T @ k if k.shape[0] >= k.shape[1] else k @ k.T
    np.testing.assert_allclose(gram, np.eye(min(k.shape)), atol=1e-5, err_msg=f"{cls}: recurrent kernel not orthogonal")


@pytest.mark.clause("keras.rnn.config")
@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("how", ["go_backwards", "bidirectional"])
def test_blind60_backward_rnn_reads_the_steps_last_to_first(keras: Any, cls: str, how: str) -> None:
    """go_backwards=True equals the forward layer (same weights) on the time-reversed input; Bidirectional's
    output concatenates the forward and the backward layer's last outputs."""
    x = np.array([[[0.7, -0.2], [0.4, 0.1], [-0.3, 0.5], [0.2, 0.2]]], np.float32)
    kw = {"kernel_initializer": "ones", "recurrent_initializer": "ones", "bias_initializer": "zeros"}
    fwd = getattr(keras.layers, cls)(2, **kw)
    want_back = _np(fwd(x[:, ::-1]))
    if how == "go_backwards":
        got = _np(getattr(keras.layers, cls)(2, go_backwards=True, **kw)(x))
        np.testing.assert_allclose(got, want_back, rtol=1e-5, err_msg=f"{cls}(go_backwards=True)")
    else:
        got = _np(keras.layers.Bidirectional(getattr(keras.layers, cls)(2, **kw))(x))
        want = np.concatenate([_np(fwd(x)), want_back], axis=-1)
        np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"Bidirectional({cls})")


# -- default padding, axes and strides -----------------------------------------------------------------

@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("cls,shape,want", [
    ("Conv1D", (1, 6, 2), (1, 4, 3)), ("Conv2D", (1, 6, 5, 2), (1, 4, 3, 3)),
    ("Conv3D", (1, 5, 5, 4, 2), (1, 3, 3, 2, 3)), ("SeparableConv1D", (1, 6, 2), (1, 4, 3)),
    ("SeparableConv2D", (1, 6, 5, 2), (1, 4, 3, 3)), ("Conv1DTranspose", (1, 6, 2), (1, 8, 3)),
    ("Conv2DTranspose", (1, 6, 5, 2), (1, 8, 7, 3)), ("DepthwiseConv1D", (1, 6, 2), (1, 4, 2)),
    ("DepthwiseConv2D", (1, 6, 5, 2), (1, 4, 3, 2))])
def test_blind60_convolutions_pad_valid_by_default(keras: Any, cls: str, shape: tuple, want: tuple) -> None:
    """Keras's convolutions default to padding="valid" (kernel 3, stride 1): each spatial size n gives n - 2
    (transposed: n + 2)."""
    layer = (getattr(keras.layers, cls)(3) if cls.startswith("Depthwise") else getattr(keras.layers, cls)(3, 3))
    assert layer.get_config()["padding"] == "valid", f"{cls}: padding {layer.get_config()['padding']}"
    assert tuple(_np(layer(np.ones(shape, np.float32))).shape) == want, f"{cls} on {shape}"


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("shapes", [[(2, 3), (2, 4)], [(2, 3, 4), (2, 3, 5)], [(2, 3, 4, 2), (2, 3, 4, 1)],
                                    [(2, 2, 3), (2, 2, 3), (2, 2, 1)]])
def test_blind60_concatenate_defaults_to_the_last_axis(keras: Any, shapes: list) -> None:
    """Concatenate() and keras.layers.concatenate join along axis -1."""
    xs = [np.full(s, i, np.float32) for i, s in enumerate(shapes)]
    want = np.concatenate(xs, axis=-1)
    np.testing.assert_array_equal(_np(keras.layers.Concatenate()(xs)), want)
    np.testing.assert_array_equal(_np(keras.layers.concatenate(xs)), want)
    assert keras.layers.Concatenate().get_config()["axis"] == -1


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("shape", [(2, 4), (2, 3, 4), (2, 3, 2)])
def test_blind60_dot_function_defaults_to_the_last_axes(keras: Any, shape: tuple) -> None:
    """keras.layers.dot(inputs) (axes=-1): batch_dot over the last axes (rank 3: (b, n, k)·(b, n, k) -> (b, n, n))."""
    a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 10.0
    b = a[::-1].copy()
    want = np.einsum("b...k,bjk->b...j", a, b) if len(shape) == 3 else np.sum(a * b, axis=-1, keepdims=True)
    np.testing.assert_allclose(_np(keras.layers.dot([a, b])), want, rtol=1e-5, err_msg=f"dot on {shape}")


def _pool_ref(x: np.ndarray, size: int, stride: int, op: Any) -> np.ndarray:
    n = (x.shape[1] - size) // stride + 1
    return np.stack([op(x[:, i * stride:i * stride + size], axis=1) for i in range(n)], axis=1)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("cls", ["AveragePooling1D", "MaxPooling1D", "AveragePooling2D", "MaxPooling2D"])
@pytest.mark.parametrize("size,stride", [(2, 1), (3, 2), (2, None)])
def test_blind60_pooling_strides_as_given(keras: Any, cls: str, size: int, stride: Any) -> None:
    """The pooling layers step by `strides` (pool_size when None), "valid" windows."""
    op = np.mean if cls.startswith("Average") else np.max
    st = size if stride is None else stride
    if cls.endswith("1D"):
        x = (np.arange(14, dtype=np.float32) ** 1.5).reshape(1, 7, 2)
        want = _pool_ref(x, size, st, op)
    else:
        x = (np.arange(49, dtype=np.float32) ** 1.5).reshape(1, 7, 7, 1)
        rows = _pool_ref(x, size, st, op)
        want = np.swapaxes(_pool_ref(np.swapaxes(rows, 1, 2), size, st, op), 1, 2)
    got = _np(getattr(keras.layers, cls)(pool_size=size, strides=stride)(x))
    np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"{cls}(pool_size={size}, strides={stride})")


# -- metrics ------------------------------------------------------------------------------------------

@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("which", ["Mean", "Mean-weighted", "Sum", "MeanSquaredError", "MeanAbsoluteError",
                                   "RootMeanSquaredError", "Accuracy"])
def test_blind60_fresh_metric_counts_from_zero(keras: Any, which: str) -> None:
    """A new metric's state starts empty: the first update_state's result is that batch's (weighted) mean, and
    the result after reset_state and the same update is the same."""
    M = keras.metrics
    yt = np.array([1.0, 2.0, 3.0, 5.0], np.float32); yp = np.array([1.5, 2.0, 2.0, 4.0], np.float32)
    w = np.array([1.0, 2.0, 0.5, 1.0], np.float32)
    if which.startswith("Mean") and which in ("Mean", "Mean-weighted"):
        m = M.Mean()
        args = (yt,) if which == "Mean" else (yt, w)
        want = yt.mean() if which == "Mean" else np.sum(yt * w) / np.sum(w)
    elif which == "Sum":
        m, args, want = M.Sum(), (yt,), yt.sum()
    elif which == "MeanSquaredError":
        m, args, want = M.MeanSquaredError(), (yt[:, None], yp[:, None]), np.mean((yt - yp) ** 2)
    elif which == "MeanAbsoluteError":
        m, args, want = M.MeanAbsoluteError(), (yt[:, None], yp[:, None]), np.mean(np.abs(yt - yp))
    elif which == "RootMeanSquaredError":
        m, args, want = M.RootMeanSquaredError(), (yt, yp), np.sqrt(np.mean((yt - yp) ** 2))
    else:
        m, args, want = M.Accuracy(), (yt, np.array([1.0, 2.0, 2.0, 5.0], np.float32)), 0.75
    m.update_state(*args)
    first = float(_np(m.result()))
    m.reset_state()
    m.update_state(*args)
    again = float(_np(m.result()))
    assert np.isclose(first, want, rtol=1e-6) and np.isclose(again, want, rtol=1e-6), \
        f"{which}: first result {first}, after reset {again}, want {want}"


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("curve", ["ROC", "PR"])
def test_blind60_auc_default_num_thresholds(keras: Any, curve: str) -> None:
    """AUC's num_thresholds defaults to 200: AUC() equals AUC(num_thresholds=200) on scores between thresholds
    (and its config says 200)."""
    rng = np.random.RandomState(3)
    y = rng.randint(0, 2, 64).astype(np.float32)
    p = np.clip(y * 0.3 + rng.rand(64) * 0.7, 0, 1).astype(np.float32)
    results = []
    for kw in ({}, {"num_thresholds": 200}, {"num_thresholds": 100}):
        m = keras.metrics.AUC(curve=curve, **kw)
        m.update_state(y, p)
        results.append(float(_np(m.result())))
    assert keras.metrics.AUC().get_config()["num_thresholds"] == 200
    assert results[0] == results[1], f"AUC({curve}) {results[0]} != AUC(num_thresholds=200) {results[1]}"
    assert results[1] != results[2], "the data must tell 200 thresholds from 100"


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("labels", ["sparse", "sparse-column", "one-hot", "binary"])
@pytest.mark.parametrize("name", ["accuracy", "acc"])
def test_blind60_compiled_accuracy_follows_the_label_shape(keras: Any, labels: str, name: str) -> None:
    """compile(metrics=["accuracy"]): BinaryAccuracy for one output unit, SparseCategoricalAccuracy for integer
    labels (rank below the output's, or a last axis of 1), CategoricalAccuracy for one-hot labels; the value is
    that rule's, transcribed."""
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -1.0]], np.float32)
    units = 1 if labels == "binary" else 3
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(units, kernel_initializer=keras.initializers.
                                                                    Constant(np.arange(2 * units).reshape(2, units)
                                                                             / 4.0 - 0.5))])
    out = x @ (np.arange(2 * units).reshape(2, units) / 4.0 - 0.5)
    if labels == "binary":
        y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
        want = np.mean((out > 0.5).astype(np.float32) == y)
        loss = "binary_crossentropy"
    else:
        cls = np.array([2, 1, 2, 0])
        y = (cls if labels == "sparse" else cls[:, None] if labels == "sparse-column"
             else np.eye(3, dtype=np.float32)[cls])
        want = np.mean(np.argmax(out, -1) == cls)
        loss = "categorical_crossentropy" if labels == "one-hot" else "sparse_categorical_crossentropy"
    model.compile(loss=loss, metrics=[name])
    got = model.evaluate(x, y, verbose=0, return_dict=True)[name]
    assert np.isclose(got, want), f"{labels} labels: {name} = {got}, want {want}"


@pytest.mark.clause("keras.callback.monitor")
@pytest.mark.parametrize("fn", ["mse", "mae", "msle", "logcosh", "huber"])
@pytest.mark.parametrize("prefix", ["", "val_"])
def test_blind60_monitor_auto_mode_for_a_wrapped_loss_function(keras: Any, fn: str, prefix: str) -> None:
    """A MeanMetricWrapper of a Keras loss function is a metric to minimize: EarlyStopping(mode="auto") on it keeps
    training while it falls (Keras 3.15's MonitorCallback takes the metric's direction "down")."""
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mae",
                  metrics=[keras.metrics.MeanMetricWrapper(getattr(keras.losses, fn), name="w")])
    x = np.ones((4, 1), np.float32); y = np.ones((4, 1), np.float32)
    stop = keras.callbacks.EarlyStopping(monitor=prefix + "w", patience=0, mode="auto")
    kw = {"validation_data": (x, y)} if prefix else {}
    history = model.fit(x, y, epochs=4, verbose=0, callbacks=[stop], batch_size=4, **kw)
    assert len(history.history["loss"]) == 4, f"EarlyStopping({prefix}w of {fn}) stopped a falling metric"


# -- callbacks: batch indices ---------------------------------------------------------------------------

@pytest.mark.clause("keras.callback.option-coverage")
def test_blind60_batch_hooks_receive_zero_based_indices(keras: Any) -> None:
    """Every batch hook (train, test, predict; begin and end) sees 0, 1, 2 for three batches, in each epoch."""
    seen: dict[str, list] = {}
    hooks = {f"on_{k}_batch_{e}": (lambda k_, e_: lambda b, logs=None: seen.setdefault(f"{k_}_{e_}", []).append(b))(k, e)
             for k in ("train", "test", "predict") for e in ("begin", "end")}
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((6, 1), np.float32)
    cb = keras.callbacks.LambdaCallback(**hooks)
    model.fit(x, x, batch_size=2, epochs=2, verbose=0, callbacks=[cb])
    model.evaluate(x, x, batch_size=2, verbose=0, callbacks=[cb])
    model.predict(x, batch_size=2, verbose=0, callbacks=[cb])
    assert seen == {"train_begin": [0, 1, 2] * 2, "train_end": [0, 1, 2] * 2, "test_begin": [0, 1, 2],
                    "test_end": [0, 1, 2], "predict_begin": [0, 1, 2], "predict_end": [0, 1, 2]}, seen


# -- saving ---------------------------------------------------------------------------------------------

@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("how", ["sequential", "functional", "sequential-unbuilt-then-fit"])
def test_blind60_load_model_comes_back_compiled(keras: Any, tmp_path: Any, how: str) -> None:
    """A compiled model saved to .keras loads compiled: its optimizer (class, learning rate, state), loss and
    metrics, evaluate giving the same numbers."""
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2); y = x.sum(1, keepdims=True)
    if how == "functional":
        inp = keras.Input((2,)); model = keras.Model(inp, keras.layers.Dense(1)(keras.layers.Dense(3)(inp)))
    else:
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.RMSprop(0.01), loss="mse", metrics=["mae"])
    model.fit(x, y, epochs=2, batch_size=4, verbose=0)
    path = os.path.join(str(tmp_path), "m.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert loaded.compiled, f"{how}: load_model gave an uncompiled model"
    assert type(loaded.optimizer).__name__ == "RMSprop"
    assert np.isclose(float(_np(loaded.optimizer.learning_rate)), 0.01)
    assert int(_np(loaded.optimizer.iterations)) == 4
    want = model.evaluate(x, y, verbose=0, return_dict=True)
    got = loaded.evaluate(x, y, verbose=0, return_dict=True)
    assert set(got) == set(want) and all(np.isclose(got[k], want[k], rtol=1e-6) for k in want), (got, want)


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("ext", [".keras", ".weights.h5"])
@pytest.mark.parametrize("skip", [True, False])
def test_blind60_load_weights_skip_mismatch(keras: Any, tmp_path: Any, ext: str, skip: bool) -> None:
    """load_weights(skip_mismatch=True): a layer whose shapes differ keeps its values (a warning), the others are
    loaded; without it a ValueError. (Which weights have changed after that error is a documented deviation,
    docs/spec.md keras.saving: Keras 3.15 has assigned the objects that fit, simdist none: not checked.)"""
    a = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    b = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    path = os.path.join(str(tmp_path), "a" + ext)
    a.save(path) if ext == ".keras" else a.save_weights(path)
    before = [_np(w).copy() for w in b.weights]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if skip:
            b.load_weights(path, skip_mismatch=True)
        else:
            with pytest.raises(ValueError):
                b.load_weights(path)
    np.testing.assert_array_equal(_np(b.layers[0].kernel), before[0])
    if skip:
        np.testing.assert_array_equal(_np(b.layers[1].kernel), _np(a.layers[1].kernel))


# -- preprocessing statistics ---------------------------------------------------------------------------

@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("source", ["ndarray", "tensor", "dataset", "batches"])
@pytest.mark.parametrize("axis", [None, -1])
def test_blind60_normalization_adapt_population_variance(keras: Any, tf: Any, source: str, axis: Any) -> None:
    """Normalization.adapt learns the mean and the population variance (ddof 0) over the reduced axes, whatever
    the data's form."""
    data = np.array([[1.0, 10.0], [2.0, 20.0], [4.0, 25.0], [7.0, 45.0]], np.float32)
    red = None if axis is None else 0
    want_mean, want_var = data.mean(axis=red), data.var(axis=red)
    src = {"ndarray": lambda: data, "tensor": lambda: tf.constant(data),
           "dataset": lambda: tf.data.Dataset.from_tensor_slices(data).batch(3),
           "batches": lambda: [data[:3], data[3:]]}[source]()
    layer = keras.layers.Normalization(axis=axis)
    layer.adapt(src)
    np.testing.assert_allclose(_np(layer.mean).ravel(), np.ravel(want_mean), rtol=1e-5, err_msg=f"{source} mean")
    np.testing.assert_allclose(_np(layer.variance).ravel(), np.ravel(want_var), rtol=1e-5,
                               err_msg=f"{source} variance")


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("source", ["ndarray", "tensor"])
def test_blind60_normalization_adapt_keeps_float64(keras: Any, tf: Any, source: str) -> None:
    """A float64 Normalization adapted on float64 data computes its statistics in float64 (a variance of 1e-17
    around 1 survives)."""
    data = np.array([1.0, 1.0 + 1e-9, 1.0 + 3e-9, 1.0 + 7e-9], np.float64)
    layer = keras.layers.Normalization(axis=None, dtype="float64")
    layer.adapt(data if source == "ndarray" else tf.constant(data))
    np.testing.assert_allclose(_np(layer.variance).ravel(), [np.var(data)], rtol=1e-6)


# Observed on TF 2.21: Discretization(num_bins, epsilon).adapt(data).bin_boundaries.
_DISCRETIZATION = [(4, 0.1, "arange100", [24.0, 49.0, 74.0]), (3, 0.01, "arange300", [99.0, 199.0]),
                   (5, 0.05, "squares200", [15.21, 62.41, 141.61, 252.81]), (4, 0.2, "reversed40", [9.0, 19.0, 29.0])]


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("num_bins,epsilon,data,want", _DISCRETIZATION)
def test_blind60_discretization_adapt_boundaries(keras: Any, num_bins: int, epsilon: float, data: str,
                                                 want: list) -> None:
    values = {"arange100": np.arange(100, dtype=np.float32), "arange300": np.arange(300, dtype=np.float32),
              "squares200": (np.arange(200, dtype=np.float32) ** 2) / 100.0,
              "reversed40": np.arange(40, dtype=np.float32)[::-1].copy()}[data]
    layer = keras.layers.Discretization(num_bins=num_bins, epsilon=epsilon)
    layer.adapt(values)
    np.testing.assert_allclose(np.asarray(layer.bin_boundaries, np.float64), want, rtol=1e-5,
                               err_msg=f"Discretization({num_bins}, {epsilon}) on {data}")


# -- layers' weight lists, metrics and attention defaults ------------------------------------------------

@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("which", ["Dense", "BatchNormalization", "LSTM", "Sequential"])
def test_blind60_frozen_layer_lists_every_weight_as_non_trainable(keras: Any, which: str) -> None:
    layer = {"Dense": lambda: keras.layers.Dense(2), "BatchNormalization": lambda: keras.layers.BatchNormalization(),
             "LSTM": lambda: keras.layers.LSTM(2),
             "Sequential": lambda: keras.Sequential([keras.layers.Dense(2), keras.layers.BatchNormalization()])}[which]()
    layer.build((None, 3, 3) if which == "LSTM" else (None, 3))
    n = len(layer.weights)
    trainable_before = len(layer.trainable_weights)
    assert len(layer.non_trainable_weights) == n - trainable_before
    layer.trainable = False
    assert (len(layer.trainable_weights), len(layer.non_trainable_weights)) == (0, n), \
        f"frozen {which}: {len(layer.trainable_weights)} trainable, {len(layer.non_trainable_weights)} non-trainable"
    layer.trainable = True
    assert len(layer.trainable_weights) == trainable_before


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("depth", [1, 2])
def test_blind60_layer_metrics_include_sublayers(keras: Any, depth: int) -> None:
    """Layer.metrics lists its own metrics and every sub-layer's, nested."""
    class Leaf(keras.layers.Layer):
        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw)
            self.m = keras.metrics.Mean(name=f"m_{self.name}")

        def call(self, x: Any) -> Any:
            return x

    class Node(keras.layers.Layer):
        def __init__(self, depth: int, **kw: Any) -> None:
            super().__init__(**kw)
            self.own = keras.metrics.Sum()
            self.child = Leaf() if depth == 1 else Node(depth - 1)

        def call(self, x: Any) -> Any:
            return self.child(x)
    assert len(Node(depth).metrics) == depth + 1


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("cls,use_scale,weights", [("AdditiveAttention", True, 1), ("Attention", False, 0)])
def test_blind60_attention_use_scale_defaults(keras: Any, cls: str, use_scale: bool, weights: int) -> None:
    layer = getattr(keras.layers, cls)()
    q = np.ones((1, 2, 3), np.float32)
    layer([q, q])
    assert layer.get_config()["use_scale"] is use_scale and len(layer.weights) == weights, cls


# -- clipping ------------------------------------------------------------------------------------------

@pytest.mark.clause("optim.clipping")
@pytest.mark.parametrize("kind", ["clipnorm", "global_clipnorm", "clipvalue"])
@pytest.mark.parametrize("c", [1.0, 10.0])
def test_blind60_clipping_of_whole_gradients(keras: Any, tf: Any, kind: str, c: float) -> None:
    """clipnorm scales each gradient tensor by c / max(norm, c) (its whole norm), global_clipnorm all of them
    by the global norm, clipvalue clips each entry; SGD(1.0) makes the update the clipped gradient."""
    gs = [np.array([[3.0, 4.0], [4.0, 3.0]]), np.array([0.5, -0.5, 12.0])]
    opt = keras.optimizers.SGD(1.0, **{kind: c})
    vs = [tf.Variable(np.zeros_like(g), dtype=tf.float64) for g in gs]
    opt.apply_gradients([(tf.constant(g), v) for g, v in zip(gs, vs)])
    if kind == "clipnorm":
        want = [g * c / max(np.linalg.norm(g), c) for g in gs]
    elif kind == "global_clipnorm":
        n = np.sqrt(sum(np.sum(g * g) for g in gs))
        want = [g * c / max(n, c) for g in gs]
    else:
        want = [np.clip(g, -c, c) for g in gs]
    for v, w in zip(vs, want):
        np.testing.assert_allclose(-_np(v), w, rtol=1e-7, err_msg=f"SGD({kind}={c})")

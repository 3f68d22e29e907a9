"""Running an OpSpec: forward values and tape gradients on one backend, as plain NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np

from op_specs import OpSpec


def weights(out: np.ndarray, seed: int = 7) -> np.ndarray:
    """Fixed random output weights: the checks differentiate sum(out * w), which exercises
    every output element with a different upstream gradient."""
    return np.random.default_rng(seed).uniform(0.5, 1.5, size=np.shape(out))


def _first(out: Any) -> Any:
    return out[0] if isinstance(out, (list, tuple)) else out


def run(tf: Any, spec: OpSpec, arrays: list[np.ndarray], with_grads: bool = True) -> dict[str, Any]:
    """{"out": array, "dtype": name, "grads": [array or None per differentiated input]}."""
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape(persistent=True) as tape:
        for i in spec.diff:
            tape.watch(xs[i])
        out = _first(spec.fn(tf, *xs))
        res: dict[str, Any] = {"out": np.asarray(out.numpy()), "dtype": out.dtype.name}
        if with_grads and out.dtype.is_floating:
            w = tf.constant(weights(res["out"]).astype(out.dtype.as_numpy_dtype))
            loss = tf.reduce_sum(out * w)
    if with_grads:
        if out.dtype.is_floating:
            gs = tape.gradient(loss, [xs[i] for i in spec.diff])
        else:
            gs = tape.gradient(out, [xs[i] for i in spec.diff])
        res["grads"] = [None if g is None else np.asarray(tf.convert_to_tensor(g).numpy()) for g in gs]
    return res


def finite_differences(tf: Any, spec: OpSpec, arrays: list[np.ndarray], i: int, h: float = 1e-6) -> np.ndarray:
    """d sum(out * w) / d arrays[i], by central differences (float64 inputs)."""
    base = run(tf, spec, arrays, with_grads=False)["out"]
    w = weights(base)
    x = arrays[i]
    g = np.zeros_like(x, dtype=np.float64)
    for idx in np.ndindex(x.shape):
        plus = [a.copy() for a in arrays]
        minus = [a.copy() for a in arrays]
        plus[i][idx] += h
        minus[i][idx] -= h
        fp = np.sum(run(tf, spec, plus, with_grads=False)["out"] * w)
        fm = np.sum(run(tf, spec, minus, with_grads=False)["out"] * w)
        g[idx] = (fp - fm) / (2 * h)
    return g

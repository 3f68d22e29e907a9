"""Random valid calls of every differentiable raw op, and their gradients (issue 29, rgrads): how a case is
run and observed on any backend. The cases themselves (op, inputs, attributes, which inputs are watched, the
upstream gradients) are planned on TF 2.21 by ``rgrads_record`` and stored, concrete, in the recording; nothing here
draws anything or imports TensorFlow.

A case is observed in a mode: ``eager`` (a GradientTape around the raw op) or ``function`` (the same inside one
tf.function, so the graph's gradient path runs). The observation is the error's class, or every output's dtype,
shape and values and every watched input's gradient (None where the backend gives none) under the case's upstream
gradients, which are not uniform and hold zeros (a transposed or permuted rule, or one that ignores its upstream
gradient, changes them)."""

from __future__ import annotations

from typing import Any

import numpy as np

MODES = ("eager", "function")


def array(spec: dict[str, Any]) -> np.ndarray:
    """The NumPy array a stored tensor spec ({"dtype", "shape", "values"}; complex values as [re, im]) holds."""
    dt = np.dtype(spec["dtype"])
    vals = spec["values"]
    if dt.kind == "c":
        vals = [complex(re, im) for re, im in vals]
    return np.array(vals, dtype=dt).reshape(spec["shape"])


def stored(a: np.ndarray) -> dict[str, Any]:
    """A NumPy array as a JSON spec (the inverse of `array`)."""
    a = np.asarray(a)
    flat = a.reshape(-1)
    if a.dtype.kind == "c":
        values: list[Any] = [[float(v.real), float(v.imag)] for v in flat]
    elif a.dtype.kind == "f":
        values = [float(v) for v in flat]
    elif a.dtype.kind == "b":
        values = [bool(v) for v in flat]
    elif a.dtype.kind in "iu":
        values = [int(v) for v in flat]
    else:
        values = [v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in flat]
    return {"dtype": a.dtype.name if a.dtype.kind != "S" else "bytes", "shape": list(a.shape), "values": values}


def _attr(tf: Any, v: Any) -> Any:
    """A stored attribute value as the raw op takes it: {"dtype": name} is a DType, lists element-wise."""
    if isinstance(v, dict) and "dtype" in v:
        return getattr(tf, v["dtype"])
    if isinstance(v, list):
        return [_attr(tf, x) for x in v]
    return v


def _input(tf: Any, spec: Any) -> Any:
    if isinstance(spec, list):
        return [_input(tf, s) for s in spec]
    if spec["dtype"] == "bytes":
        return tf.constant(np.array([s.encode("latin-1") for s in spec["values"]], dtype=object).reshape(spec["shape"]))
    return tf.constant(array(spec))


def _dense(tf: Any, g: Any) -> Any:
    """A gradient as a dense tensor (an IndexedSlices summed), per element of a list input's gradient."""
    if g is None:
        return None
    if isinstance(g, (list, tuple)):
        return [_dense(tf, x) for x in g]
    return tf.convert_to_tensor(g)


def _summary(tf: Any, t: Any) -> Any:
    if t is None:
        return None
    if isinstance(t, list):
        return [_summary(tf, x) for x in t]
    t = tf.convert_to_tensor(t)
    a = np.asarray(t.numpy())
    if a.dtype == object:
        a = a.astype(bytes)
    s = stored(a)
    s["dtype"] = t.dtype.name
    return s


def _leaves(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        return [x for o in out for x in _leaves(o)]
    return [out]


def _floating(t: Any) -> bool:
    return bool(t.dtype.is_floating or t.dtype.is_complex)


def observe(tf: Any, case: dict[str, Any], mode: str) -> dict[str, Any]:
    """Run `case` in `mode` on `tf`: {"error": class name} or {"outputs": [...], "gradients": [...]}."""
    try:
        inputs = {name: _input(tf, spec) for name, spec in case["inputs"].items()}
        attrs = {name: _attr(tf, v) for name, v in case["attrs"].items()}
        upstream = [tf.constant(array(u)) for u in case["upstream"]]
        watched = case["watch"]
        op = getattr(tf.raw_ops, case["op"])

        def run(**kw: Any) -> tuple[list[Any], list[Any]]:
            with tf.GradientTape() as tape:
                for name in watched:
                    tape.watch(kw[name])   # a list input: each of its tensors
                outs = _leaves(op(**kw, **attrs))
            diffable = [o for o in outs if _floating(o)]
            grads = tape.gradient(diffable, [kw[name] for name in watched], output_gradients=upstream)
            return outs, [_dense(tf, g) for g in grads]

        if mode == "function":
            run = tf.function(run)
        outs, grads = run(**inputs)
        return {"outputs": [_summary(tf, o) for o in outs], "gradients": [_summary(tf, g) for g in grads]}
    except Exception as e:  # noqa: BLE001  (the class is the observation)
        return {"error": type(e).__name__}

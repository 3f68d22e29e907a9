"""The programs of ``test_harden20b_trained_*.py``: one case of an option grid (harden20b_tables)
trained for STEPS steps on fixed seeded data, observed after each step as plain JSON values.

- optimizer: a 3x4 kernel and a bias of a linear model, loss mean((x W + b - y)^2) on 8 fixed rows;
  per step the loss, the gradients, both variables after apply_gradients and every optimizer
  variable (iterations, learning rate, slots, accumulators, EMA copies) by name;
- layer: built and its float weights set from a seeded generator, then per step called with
  training (and a mask, a causal mask where the case says) on inputs that are themselves trained,
  loss sum(output * fixed weights) + sum(layer.losses), SGD(0.1) over the layer's trainable weights
  and the inputs: outputs, loss, gradients, every weight after the step (moving statistics, RNN
  states, seed-generator states; the inputs' new values follow from their gradients);
- metric: three update_state calls (with sample_weight where the case says): result and every
  metric variable after each;
- loss: y_pred a variable trained STEPS plain gradient steps (y_pred -= 0.1 grad) on the loss:
  value, gradient and y_pred after each.

A raised error is the observation "error: ClassName". The same functions run on the backend under
test and, by the recorder (``python -m simdist.conformance.suite.harden20b_record``), on real TF 2.21
+ Keras 3.15, whose results are the expected values. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from simdist.conformance.suite import harden19_layers, harden19_training
from simdist.conformance.suite import harden20b_tables as tables

INIT_SEED = 2020
LAYER_LR = 0.1
LOSS_LR = 0.1
METRIC_UPDATES = 3
#: Metrics of the multi-label kind that take one sample weight per row.
ROW_WEIGHTED = ("F1Score", "FBetaScore")


def _rng(*key: Any) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(map(str, key)).encode()))


def _array(t: Any) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def _value(t: Any) -> Any:
    if t is None:
        return None
    if isinstance(t, dict):
        return {str(k): _value(v) for k, v in sorted(t.items())}
    if isinstance(t, (list, tuple)):
        return [_value(v) for v in t]
    a = _array(t)
    return a.tolist() if a.dtype.kind in "iub" else a.astype(np.float64).tolist()


def _error(e: Exception) -> str:
    return f"error: {type(e).__name__}"


def resolve(keras: Any, value: Any) -> Any:
    """A table value as Keras takes it: {"obj", "class", "config"} built, anything else as is."""
    if isinstance(value, dict) and "obj" in value:
        return getattr(getattr(keras, value["obj"]), value["class"])(**value["config"])
    return value


def case_label(case: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in case.items())


def _short(path: Any) -> str:
    return str(path).rsplit("/", 1)[-1]


# -- optimizers ---------------------------------------------------------------------------------------

def optimizer_kwargs(keras: Any, case: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for k, v in case.items():
        if k == "clip":
            kwargs.update(v)
        else:
            kwargs[k] = resolve(keras, v)
    return kwargs


def observe_optimizer(tf: Any, name: str, case: dict[str, Any]) -> dict[str, Any]:
    """STEPS steps of a linear model trained by the optimizer built with the case's options."""
    keras = tf.keras
    keras.backend.clear_session()
    rng = _rng("optimizer", name)
    x = tf.constant(rng.uniform(-1, 1, (8, 3)).astype(np.float32))
    y = tf.constant(rng.uniform(-1, 1, (8, 4)).astype(np.float32))
    kernel = keras.Variable(rng.uniform(-1, 1, (3, 4)).astype(np.float32), name="h20_kernel")
    bias = keras.Variable(rng.uniform(-0.5, 0.5, (4,)).astype(np.float32), name="h20_bias")
    try:
        opt = getattr(keras.optimizers, name)(**optimizer_kwargs(keras, case))
    except Exception as e:  # noqa: BLE001 - a refused combination is the observation
        return {"error": _error(e)}
    steps = []
    for _ in range(tables.STEPS):
        try:
            with tf.GradientTape() as tape:
                pred = tf.matmul(x, kernel) + bias
                loss = tf.reduce_mean(tf.square(pred - y))
            grads = tape.gradient(loss, [kernel, bias])
            opt.apply_gradients(list(zip(grads, [kernel, bias])))
        except Exception as e:  # noqa: BLE001
            steps.append({"error": _error(e)})
            break
        steps.append({"loss": _value(loss), "grads": _value(grads), "kernel": _value(kernel), "bias": _value(bias),
                      "optimizer": [[_short(v.path if hasattr(v, "path") else v.name), _value(v)]
                                    for v in opt.variables]})
    return {"steps": steps}


# -- layers -------------------------------------------------------------------------------------------

_SHAPES = {"vec": [(4, 3)], "seq": [(4, 5, 3)], "seq4": [(4, 5, 4)], "img": [(4, 6, 4)],
           "pair": [(4, 3, 4), (4, 4, 3)], "qv": [(4, 3, 4), (4, 5, 4)], "ids": [(4, 5)]}
#: The mask of "call:mask": rows with 0, 2, 1 and 0 trailing steps off.
MASK = np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]], bool)


def layer_inputs(name: str, spec: str) -> list[np.ndarray]:
    rng = _rng("layer-inputs", name)
    if spec == "ids":
        ids = rng.integers(1, 6, (4, 5))
        ids[1, 3:] = 0
        ids[2, 4] = 0
        ids[3, 1] = 0   # a zero inside a sequence
        return [ids.astype(np.int64)]
    return [rng.uniform(-1, 1, s).astype(np.float32) for s in _SHAPES[spec]]


def _build(keras: Any, name: str, case: dict[str, Any]) -> tuple[Any, dict[str, Any], Any]:
    required, spec, _ = tables.LAYERS[name]
    kwargs = dict(required)
    call: dict[str, Any] = {"training": True}
    pool = None
    for k, v in case.items():
        if k.startswith("call:"):
            call[k[5:]] = v
        elif k == "pool":
            pool = (keras.layers.GlobalAveragePooling1D() if v == "average"
                    else keras.layers.LSTM(2, seed=5))
        else:
            kwargs[k] = resolve(keras, v)
    return getattr(keras.layers, name)(**kwargs), call, pool


def _call(tf: Any, layer: Any, name: str, call: dict[str, Any], xs: list, pool: Any) -> Any:
    spec = tables.LAYERS[name][1]
    kw = {k: v for k, v in call.items() if k != "mask"}
    if call.get("mask"):
        kw["mask"] = tf.constant(MASK)
    if spec == "pair":
        return layer([xs[0], xs[1]])
    if name == "MultiHeadAttention":
        return layer(xs[0], xs[1], **kw)
    if spec == "qv":
        return layer([xs[0], xs[1]], **kw)
    if name in ("Dense", "Conv1D", "LayerNormalization", "GroupNormalization", "PReLU"):
        return layer(xs[0])
    y = layer(xs[0], **kw)
    return pool(y) if pool is not None else y


def _weights(layer: Any) -> list:
    return [[w.path if hasattr(w, "path") else w.name, str(getattr(w.dtype, "name", w.dtype)), _value(w)]
            for w in layer.weights]


def observe_layer(tf: Any, name: str, case: dict[str, Any]) -> dict[str, Any]:
    """STEPS training steps of the layer built with the case's options (see the module's doc)."""
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(INIT_SEED)
    spec = tables.LAYERS[name][1]
    arrays = layer_inputs(name, spec)
    try:
        layer, call, pool = _build(keras, name, case)
        xs = [tf.constant(a) if a.dtype.kind != "f" else keras.Variable(a, name=f"h20_input{i}")
              for i, a in enumerate(arrays)]
        _call(tf, layer, name, {**call, "training": False}, xs, pool)   # builds it
    except Exception as e:  # noqa: BLE001
        return {"error": _error(e)}
    layers = [layer] + ([pool] if pool is not None else [])
    for i, lay in enumerate(layers):
        harden19_layers.seed_weights(lay, zlib.crc32(f"{name}/{case_label(case)}/{i}".encode()))
        if getattr(lay, "stateful", False):
            lay.reset_state()
    out: dict[str, Any] = {"weights": [w for lay in layers for w in _weights(lay)], "steps": []}
    opt = keras.optimizers.SGD(LAYER_LR)
    inputs = [x for x, a in zip(xs, arrays) if a.dtype.kind == "f"]
    for step in range(tables.STEPS):
        try:
            with tf.GradientTape() as tape:
                ys = harden19_layers._flat(_call(tf, layer, name, call, xs, pool))
                total = None
                for i, y in enumerate(ys):
                    w = _rng("layer-loss", name, i).uniform(-1, 1, tuple(y.shape)).astype(np.float32)
                    term = tf.reduce_sum(tf.cast(y, "float32") * tf.constant(w))
                    total = term if total is None else total + term
                losses = [v for lay in layers for v in lay.losses]
                for v in losses:
                    total = total + v
            trainable = [w for lay in layers for w in lay.trainable_weights] + inputs
            grads = tape.gradient(total, trainable)
            opt.apply_gradients([(g, v) for g, v in zip(grads, trainable) if g is not None])
        except Exception as e:  # noqa: BLE001
            out["steps"].append({"error": _error(e)})
            break
        out["steps"].append({"outputs": [_value(y) for y in ys], "loss": _value(total),
                             "losses": [_value(v) for v in losses],
                             "grads": [None if g is None else _value(tf.convert_to_tensor(g)) for g in grads],
                             "weights": [w[2] for lay in layers for w in _weights(lay)]})
    return out


# -- metrics and losses -------------------------------------------------------------------------------

def make_pair(kind: str, seed: Any) -> tuple[np.ndarray, np.ndarray]:
    """(y_true, y_pred) of a kind: harden19_training's at its typical scale, and "multi"/"logit"
    (multi-label 0/1 over 3 columns; scores in (0.05, 0.95), valid as probabilities and as logits,
    a fifth of them exactly 0.3 or 0.7, the grids' thresholds)."""
    if kind in ("multi", "logit"):
        rng = _rng(kind, seed)
        y_true = rng.integers(0, 2, (6, 3)).astype(np.float32)
        y_pred = rng.uniform(0.05, 0.95, (6, 3)).astype(np.float32)
        y_pred.flat[::5] = np.float32(0.3)
        y_pred.flat[2::7] = np.float32(0.7)
        return y_true, y_pred
    return harden19_training.make_pair(kind, "typical", seed)


def sample_weight(kind: str, rows: int, seed: Any, column: bool = True) -> np.ndarray:
    """Seeded weights in [0, 2) with the second row's 0; shape (rows, 1) for the multi-label kind's
    confusion metrics (`column`; F1Score and FBetaScore take one weight per row, (rows,))."""
    w = _rng("sample-weight", seed).uniform(0, 2, (rows,)).astype(np.float32)
    w[1] = 0.0
    return w.reshape(rows, 1) if kind == "multi" and column else w


def observe_metric(keras: Any, name: str, case: dict[str, Any]) -> Any:
    """METRIC_UPDATES update_state calls: the result and every metric variable after each."""
    required, kind, _ = tables.METRICS[name]
    kwargs = dict(required)
    kwargs.update({k: resolve(keras, v) for k, v in case.items() if not k.startswith("call:")})
    try:
        metric = getattr(keras.metrics, name)(**kwargs)
    except Exception as e:  # noqa: BLE001
        return {"error": _error(e)}
    out = []
    for u in range(METRIC_UPDATES):
        y_true, y_pred = make_pair(kind, f"{name}/{u}")
        if kwargs.get("from_sorted_ids"):
            y_pred = np.argsort(-y_pred, axis=-1, kind="stable").astype(np.int64)
        if kwargs.get("sparse_y_true") is True and kind == "cat":
            y_true = np.argmax(y_true, -1).astype(np.int64)
        if kwargs.get("sparse_y_pred") is True and kind == "cat":
            y_pred = np.argmax(y_pred, -1).astype(np.int64)
        extra = {"sample_weight": sample_weight(kind, len(y_true), f"{name}/{u}", name not in ROW_WEIGHTED)} if case.get(
            "call:sample_weight") else {}
        try:
            metric.update_state(y_true, y_pred, **extra)
            out.append({"result": _value(metric.result()),
                        "variables": [[_short(v.path if hasattr(v, "path") else v.name), _value(v)]
                                      for v in metric.variables]})
        except Exception as e:  # noqa: BLE001
            out.append({"error": _error(e)})
            break
    return out


def observe_loss(tf: Any, name: str, case: dict[str, Any]) -> Any:
    """y_pred trained STEPS plain gradient steps on the loss: value, gradient, y_pred after each."""
    keras = tf.keras
    kind, _ = tables.LOSSES[name]
    kwargs = {k: resolve(keras, v) for k, v in case.items() if not k.startswith("call:")}
    y_true, y_pred0 = make_pair(kind, name)
    try:
        loss = getattr(keras.losses, name)(**kwargs)
    except Exception as e:  # noqa: BLE001
        return {"error": _error(e)}
    y_pred = tf.Variable(y_pred0)
    extra = {"sample_weight": tf.constant(sample_weight(kind, len(y_true), name))} if case.get(
        "call:sample_weight") else {}
    out = []
    for _ in range(tables.STEPS):
        try:
            with tf.GradientTape() as tape:
                # Circle expects unit-norm embeddings (Keras's doc); unnormalized ones trained at
                # gamma 80 overflow a float32 product, whose inf/NaN depends on the host's MatMul kernel
                pred = tf.math.l2_normalize(y_pred, axis=-1) if kind == "circle" else y_pred
                value = loss(tf.constant(y_true), pred, **extra)
                total = tf.reduce_sum(value)
            grad = tape.gradient(total, y_pred)
            if grad is not None:
                y_pred.assign_sub(LOSS_LR * grad)
        except Exception as e:  # noqa: BLE001
            out.append({"error": _error(e)})
            break
        out.append({"value": _value(value), "grad": _value(grad), "y_pred": _value(y_pred)})
    return out

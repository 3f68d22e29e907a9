"""Keras's documented option values (issue 29, kenum): every public layer, loss and metric of TF 2.21's tf.keras (Keras
3.15) with each string-valued (or None-defaulted) constructor argument set, one at a time, to each value its own
docstring names for it.

A planted bug in a Keras class often sits in the branch of one documented mode: TextVectorization's
``standardize="strip_punctuation"``, a pooling layer's ``data_format="channels_first"``, F1Score's
``average="weighted"``, a loss's ``reduction="mean_with_sample_weight"``, UpSampling2D's
``interpolation="bicubic"``. kargs (kargs_cases) tries strings only as "bogus" and upper-cased, and the hand-written
grids (harden20b_tables) name the modes of some fifty classes; this family takes the values mechanically from the
reference's docstrings (`documented_values`: the words quoted in the argument's entry of the class docstring's Args
section), and tries every sequence-valued default of two or more distinct elements in reverse order
(`reordered_values`: a colour layer's `value_range=(255, 0)`, BinaryIoU's `target_class_ids=(1, 0)`) and every list
a hand-written grid gives a metric's option (`grid_sequences`: AUC's `thresholds=[0.75, 0.5, 0.25]`), so nothing
about the backend under test chooses what is tried.

- layers: kargs' plan (each layer's required arguments, the input shape and kind its default configuration accepts
  on TF 2.21), observed by kargs_cases.observe; the string layers kargs leaves out (StringLookup,
  TextVectorization) on a fixed vocabulary and fixed strings (`STRING_LAYERS`);
- losses: harden19_training's input kind per class (LOSS_CASES): the value, the value with a sample weight, and the
  gradient of the value's sum with respect to y_pred;
- metrics: harden19_training's required arguments and kind (METRIC_CASES): the result after an update_state and
  after a second one with a sample weight.

Observed: the error class the constructor or the call raises, else the values (shapes, dtypes, values). The TF 2.21
recording is kenum_reference. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import numpy as np

from simdist.conformance.suite import harden19_training as training
from simdist.conformance.suite import kargs_cases

#: A quoted lower-case word in a docstring: "channels_first", `'bicubic'`, ``"sum"``.
_QUOTED = re.compile(r"[`\"']([a-z][a-z0-9_]*)[`\"']")
#: Quoted words that are not values of an argument.
NOT_VALUES = ("none", "true", "false")
#: The string layers kargs leaves out: their constructor arguments and input.
STRING_LAYERS: dict[str, tuple[dict[str, Any], list[Any]]] = {
    "StringLookup": ({"vocabulary": ["a", "b", "c"]}, [["a", "b", "z"], ["c", "a", "b"]]),
    "TextVectorization": ({"vocabulary": ["the", "cat", "sat", "on"]}, ["The cat sat!", "a CAT, on the mat"]),
}
#: Arguments whose documented words are not values to try (labels, file names, endpoints, seeds).
SKIP_ARGS = ("name", "seed", "call_endpoint", "path", "root", "monitor", "filepath")


def arg_entry(doc: str, name: str) -> str:
    """The text of argument `name`'s entry in a Google-style docstring ("" when it has none)."""
    m = re.search(r"^\s*" + re.escape(name) + r"\s*:(.*?)(?=^\s*[A-Za-z_][A-Za-z0-9_]*\s*:|\Z)", doc, re.S | re.M)
    return m.group(1) if m else ""


def documented_values(cls: Any) -> list[tuple[str, list[str]]]:
    """(argument, the other values its docstring entry names) for each string or None-defaulted argument of `cls`'s
    constructor: the quoted words of the entry that are not the default, an argument's name or NOT_VALUES; a
    None-defaulted argument needs two such words (one is usually a reference to another argument)."""
    doc = inspect.getdoc(cls) or ""
    params = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    names = {p.name for p in params}
    out = []
    for p in params:
        if p.name in SKIP_ARGS or not (isinstance(p.default, str) or p.default is None):
            continue
        words = [w for w in dict.fromkeys(_QUOTED.findall(arg_entry(doc, p.name)))
                 if w != p.default and w not in names and w not in NOT_VALUES]
        if words and (isinstance(p.default, str) or len(words) >= 2):
            out.append((p.name, words))
    return out


def reordered_values(cls: Any) -> list[tuple[str, list[Any]]]:
    """(argument, [its default reversed]) for each constructor argument of `cls` whose default is a tuple or list of
    two or more distinct elements (an order a class must keep, or check, as Keras does)."""
    out = []
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        d = p.default
        if isinstance(d, (tuple, list)) and len(d) >= 2 and len({repr(v) for v in d}) > 1:
            out.append((p.name, [list(d)[::-1]]))
    return out


def grid_sequences(kind: str, name: str) -> list[tuple[str, list[Any]]]:
    """(option, [its list value reversed]) for each list of two or more distinct elements that harden20b's grids give
    a metric's or loss's option (AUC's thresholds and label_weights, Precision's thresholds, IoU's
    target_class_ids): an order the class must sort, keep or check as Keras does."""
    from simdist.conformance.suite import harden20b_tables as grids  # noqa: PLC0415

    factors = (grids.METRICS[name][2] if kind == "metric" and name in grids.METRICS else
               grids.LOSSES[name][1] if kind == "loss" and name in grids.LOSSES else [])
    return [(option, [list(v)[::-1]]) for option, values in factors for v in values
            if isinstance(v, (list, tuple)) and len(v) >= 2 and len({repr(e) for e in v}) > 1]


def _value(t: Any) -> Any:
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind in "OSU":
        return {"shape": list(a.shape), "dtype": "string",
                "values": [v.decode() if isinstance(v, bytes) else str(v) for v in a.reshape(-1)]}
    return kargs_cases._value(a)


def observe_string_layer(tf: Any, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A string layer built with its STRING_LAYERS arguments and `kwargs`, called on its fixed strings."""
    base, strings = STRING_LAYERS[name]
    tf.keras.utils.set_random_seed(1234)
    try:
        layer = getattr(tf.keras.layers, name)(**{**base, **kwargs})
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"init": type(e).__name__}
    try:
        y = layer(tf.constant(strings))
    except Exception as e:  # noqa: BLE001
        return {"call": type(e).__name__}
    return {"out": [_value(v) for v in tf.nest.flatten(y)]}


def _weights(rows: int, key: str) -> np.ndarray:
    w = training._rng("kenum-weight", key).uniform(0.0, 2.0, (rows,)).astype(np.float32)
    w[1] = 0.0
    return w


def observe_loss(tf: Any, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The loss built with `kwargs` on its kind's pair: value, value with a sample weight, d sum(value) / d y_pred."""
    y_true, y_pred = training.make_pair(training.LOSS_CASES[name], "typical", name)
    try:
        loss = getattr(tf.keras.losses, name)(**kwargs)
    except Exception as e:  # noqa: BLE001
        return {"init": type(e).__name__}
    try:
        pred = tf.Variable(y_pred)
        with tf.GradientTape() as tape:
            value = loss(tf.constant(y_true), pred)
            total = tf.reduce_sum(value)
        grad = tape.gradient(total, pred)
        weighted = loss(tf.constant(y_true), tf.constant(y_pred),
                        sample_weight=tf.constant(_weights(len(y_true), name)))
    except Exception as e:  # noqa: BLE001
        return {"call": type(e).__name__}
    return {"out": [_value(value), _value(weighted)] + ([] if grad is None else [_value(grad)])}


def observe_metric(tf: Any, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The metric built with its required arguments and `kwargs`: the result after an update_state, and after a
    second one with a sample weight."""
    required, kind = training.METRIC_CASES[name]
    try:
        metric = getattr(tf.keras.metrics, name)(**{**required, **kwargs})
    except Exception as e:  # noqa: BLE001
        return {"init": type(e).__name__}
    out = []
    try:
        for step in range(2):
            y_true, y_pred = training.make_pair(kind, "typical", f"{name}/{step}")
            extra = {"sample_weight": _weights(len(y_true), f"{name}/{step}")} if step else {}
            metric.update_state(y_true, y_pred, **extra)
            out.append(_value(metric.result()))
    except Exception as e:  # noqa: BLE001
        return {"call": type(e).__name__, "before": out}
    return {"out": out}


def observe(tf: Any, variant: dict[str, Any]) -> dict[str, Any]:
    """One planned variant ({"kind": "layer"|"string_layer"|"loss"|"metric", "cls", "kwargs", ...}) observed."""
    kwargs = kargs_cases.as_kwargs(variant["kwargs"])
    if variant["kind"] == "layer":
        return kargs_cases.observe(tf, variant["cls"], kwargs, tuple(variant["shape"]), variant["input"])
    if variant["kind"] == "string_layer":
        return observe_string_layer(tf, variant["cls"], kwargs)
    if variant["kind"] == "loss":
        return observe_loss(tf, variant["cls"], kwargs)
    return observe_metric(tf, variant["cls"], kwargs)

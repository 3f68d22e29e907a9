"""Differential tests of MultiHeadAttention and EinsumDense: simdist vs TF 2.21 + Keras 3.15
(clauses keras.mha.* in docs/spec.md).

"layer" cases build the layer by a first call, set its weights from arrays drawn from the case's
seed, and compare the output (and the attention scores when returned), the gradients of
sum(output * r) with respect to the query, the value and every trainable weight, and the
weights' paths. "config" cases compare get_config (less the name) and the from_config round
trip; "symbolic" cases a functional call's output shapes; "error" cases the error's class and
message. "train" cases train a small attention classifier (MultiHeadAttention, residual Add,
LayerNormalization, GlobalAveragePooling1D, Dense) with a custom loop over a distributed
dataset (default strategy, MirroredStrategy(2), CentralStorageStrategy(2); under
ParameterServerStrategy each step scheduled by a ClusterCoordinator) or with `fit`, from the same
weights, and compare the per-step losses and the weights after (rtol 1e-4); `fit` under
ParameterServerStrategy compares Keras 3's refusal.
TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tf_cases
import tf_workers
from test_layers_conv_norm_tf import _first_line

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

VALUES, MASKS, CONFIG, ERRORS, TRAIN = ("keras.mha.values", "keras.mha.masks", "keras.mha.config",
                                        "keras.mha.arguments", "keras.mha.distributed")


@dataclass(frozen=True)
class Case:
    name: str
    clause: str
    program: str = "layer"          # layer | einsum_dense | config | symbolic | error | train | fit
    kwargs: tuple = ()              # MultiHeadAttention's (or EinsumDense's) arguments
    q: tuple = (2, 5, 8)            # query shape
    v: tuple = ()                   # value shape (() = self-attention on the query)
    k: tuple = ()                   # key shape (() = no key passed)
    call: tuple = ()                # call keyword arguments; ("attention_mask", shape) draws a mask
    strategy: str = "default"
    rtol: float = 1e-5


def _seed(case: Case) -> int:
    return zlib.crc32(case.name.encode())


def _arr(t: Any) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def _weights(model: Any, rng: np.random.Generator, scale: float = 0.5) -> list[np.ndarray]:
    out = []
    for w in model.weights:
        a = rng.standard_normal(tuple(int(d) for d in w.shape)) * scale
        if w.path.endswith("gamma"):
            a = 1.0 + 0.1 * a
        out.append(a.astype("float32"))
    return out


def _call_kwargs(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in case.call:
        if k == "attention_mask":
            m = rng.random(v) > 0.35
            m[..., 0] = True                    # (every query attends somewhere)
            out[k] = tf.constant(m)
        elif k == "attention_mask_int":
            out["attention_mask"] = tf.constant((rng.random(v) > 0.35).astype("int32"))
        else:
            out[k] = v
    return out


def run_layer(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    layer = tf.keras.layers.MultiHeadAttention(**dict(case.kwargs))
    q = tf.constant(rng.standard_normal(case.q).astype("float32"))
    v = tf.constant(rng.standard_normal(case.v).astype("float32")) if case.v else q
    k = tf.constant(rng.standard_normal(case.k).astype("float32")) if case.k else None
    call = _call_kwargs(tf, case, rng)
    extra = {"key": k} if k is not None else {}
    layer(q, v, **extra, **call)
    layer.set_weights(_weights(layer, rng))
    with tf.GradientTape() as tape:
        tape.watch(q)
        if case.v:
            tape.watch(v)
        out = layer(q, v, **extra, **call)
        y, scores = (out if isinstance(out, tuple) else (out, None))
        r = tf.constant(rng.standard_normal(tuple(y.shape)).astype("float32"))
        loss = tf.reduce_sum(tf.cast(y, "float32") * r)
    sources = [q] + ([v] if case.v else []) + list(layer.trainable_weights)
    grads = [None if g is None else _arr(tf.convert_to_tensor(g)) for g in tape.gradient(loss, sources)]
    # The key projection's bias shifts every logit of a query equally, which the softmax removes:
    # its gradient is zero up to rounding noise, compared as "negligible" (below 1e-4 of the
    # largest gradient) rather than value by value.
    paths = [""] * (len(sources) - len(layer.trainable_weights)) + [w.path for w in layer.trainable_weights]
    biggest = max(float(np.max(np.abs(g))) for g in grads if g is not None)
    noise = 1e-4 if layer.compute_dtype == "float32" else 3e-2     # (16-bit gradients: their rounding)
    grads = [bool(np.max(np.abs(g)) <= noise * biggest) if p.endswith("key/bias") else g for g, p in zip(grads, paths)]
    res = {"y": _arr(y), "dtype": y.dtype.name, "names": [w.path for w in layer.weights], "grads": grads,
           "variables": [w.path for w in layer.variables]}
    if scores is not None:
        res["scores"] = _arr(scores)
    return res


def run_einsum_dense(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    layer = tf.keras.layers.EinsumDense(**dict(case.kwargs))
    x = tf.constant(rng.standard_normal(case.q).astype("float32"))
    layer(x)
    layer.set_weights(_weights(layer, rng))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * tf.constant(rng.standard_normal(tuple(y.shape)).astype("float32")))
    grads = tape.gradient(loss, [x] + list(layer.trainable_weights))
    return {"y": _arr(y), "shapes": [tuple(int(d) for d in w.shape) for w in layer.weights],
            "grads": [_arr(g) for g in grads], "out_shape": tuple(layer.compute_output_shape(case.q))}


def run_config(tf: Any, case: Case) -> dict[str, Any]:
    layer = tf.keras.layers.MultiHeadAttention(**dict(case.kwargs))
    config = dict(layer.get_config())
    config.pop("name")
    again = tf.keras.layers.MultiHeadAttention.from_config(layer.get_config()).get_config()
    return {"config": json.dumps(config, sort_keys=True, default=str), "round_trip": again == layer.get_config()}


def run_symbolic(tf: Any, case: Case) -> dict[str, Any]:
    layer = tf.keras.layers.MultiHeadAttention(**dict(case.kwargs))
    q = tf.keras.Input(case.q[1:])
    v = tf.keras.Input(case.v[1:]) if case.v else q
    out = layer(q, v, **dict(case.call))
    outs = out if isinstance(out, tuple) else (out,)
    return {"shapes": [tuple(o.shape) for o in outs], "dtypes": [str(o.dtype) for o in outs],
            "n_weights": len(layer.weights)}


def _classifier(tf: Any, case: Case) -> Any:
    """Embedding-free attention classifier on (steps, features) inputs."""
    layers = tf.keras.layers
    inp = tf.keras.Input(case.q[1:])
    h = layers.Dense(8, name="proj")(inp)
    a = layers.MultiHeadAttention(**dict(case.kwargs), name="mha")(h, h, **dict(case.call))
    h = layers.LayerNormalization(name="ln")(layers.Add(name="res")([h, a]))
    h = layers.GlobalAveragePooling1D(name="pool")(h)
    return tf.keras.Model(inp, layers.Dense(3, name="logits")(h))


def run_train(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """Three SGD steps of a custom loop over a distributed dataset: losses and weights."""
    strategy = tf_cases.strategy(tf, case.strategy)
    gb = case.q[0]
    x = rng.standard_normal((3 * gb,) + case.q[1:]).astype("float32")
    y = rng.integers(0, 3, 3 * gb).astype("int32")
    with strategy.scope():
        model = _classifier(tf, case)
        model.set_weights(_weights(model, rng))
        opt = tf.keras.optimizers.SGD(0.1)

    def step(xb: Any, yb: Any) -> Any:
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=gb)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = tf_cases.train_steps(tf, strategy, step, x, y, gb)
    return {"losses": losses, "weights": [_arr(w) for w in model.get_weights()]}


def run_fit(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    strategy = tf_cases.strategy(tf, case.strategy)
    gb = case.q[0]
    x = rng.standard_normal((2 * gb,) + case.q[1:]).astype("float32")
    y = rng.integers(0, 3, 2 * gb).astype("int32")
    with strategy.scope():
        model = _classifier(tf, case)
        model.set_weights(_weights(model, rng))
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1),   # (Adam would amplify the key bias's noise)
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=gb, epochs=2, shuffle=False, verbose=0)
    return {"loss": np.asarray(history.history["loss"], np.float32),
            "weights": [_arr(w) for w in model.get_weights()],
            "predict": _arr(model.predict(x[:4], verbose=0))}


def run(tf: Any, case: Case) -> Any:
    tf.keras.backend.clear_session()
    rng = np.random.default_rng(_seed(case))
    try:
        if case.program == "layer":
            return run_layer(tf, case, rng)
        if case.program == "einsum_dense":
            return run_einsum_dense(tf, case, rng)
        if case.program == "config":
            return run_config(tf, case)
        if case.program == "symbolic":
            return run_symbolic(tf, case)
        if case.program == "error":
            layer = tf.keras.layers.MultiHeadAttention(**dict(case.kwargs))
            q = tf.constant(rng.standard_normal(case.q).astype("float32"))
            v = tf.constant(rng.standard_normal(case.v).astype("float32")) if case.v else q
            k = tf.constant(rng.standard_normal(case.k).astype("float32")) if case.k else None
            layer(q, v, key=k)
            return {"built": True}
        if case.program == "train":
            return run_train(tf, case, rng)
        return run_fit(tf, case, rng)
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return ("error", type(e).__name__, _first_line(str(e)), "")


def _cases() -> list[Case]:
    mha = (("num_heads", 2), ("key_dim", 4))
    return [
        # values and gradients: both attention paths
        Case("self-attention", VALUES, kwargs=mha),
        Case("cross-attention-key", VALUES, kwargs=mha, q=(2, 5, 6), v=(2, 4, 3), k=(2, 4, 7)),
        Case("value-dim-output-shape", VALUES, kwargs=mha + (("value_dim", 3), ("output_shape", 5)),
             q=(2, 4, 6), v=(2, 3, 6)),
        Case("output-shape-2d", VALUES, kwargs=mha + (("output_shape", (2, 3)),), q=(2, 4, 6)),
        Case("no-bias", VALUES, kwargs=mha + (("use_bias", False),)),
        Case("one-head", VALUES, kwargs=(("num_heads", 1), ("key_dim", 8))),
        Case("return-scores", VALUES, kwargs=mha, v=(2, 3, 8), call=(("return_attention_scores", True),)),
        Case("dropout-inference", VALUES, kwargs=mha + (("dropout", 0.3),), call=(("training", False),)),
        Case("attention-axes-2d", VALUES, kwargs=mha + (("attention_axes", (1, 2)),), q=(2, 3, 4, 5)),
        Case("attention-axes-last-inner", VALUES, kwargs=mha + (("attention_axes", 2),), q=(2, 3, 4, 5)),
        Case("mixed-float16", VALUES, kwargs=mha + (("dtype", "mixed_float16"),), rtol=2e-3),
        Case("mixed-float16-scores", VALUES, kwargs=mha + (("dtype", "mixed_float16"),),
             call=(("return_attention_scores", True),), rtol=2e-3),
        Case("mixed-bfloat16", VALUES, kwargs=mha + (("dtype", "mixed_bfloat16"),), rtol=2e-2),
        # masks
        Case("attention-mask", MASKS, kwargs=mha, v=(2, 4, 8), call=(("attention_mask", (2, 5, 4)),)),
        Case("attention-mask-int", MASKS, kwargs=mha, v=(2, 4, 8), call=(("attention_mask_int", (2, 5, 4)),)),
        Case("attention-mask-broadcast", MASKS, kwargs=mha, call=(("attention_mask", (1, 5, 5)),)),
        Case("causal", MASKS, kwargs=mha, call=(("use_causal_mask", True),)),
        Case("causal-cross-lengths", MASKS, kwargs=mha, v=(2, 7, 8), call=(("use_causal_mask", True),)),
        Case("causal-and-mask", MASKS, kwargs=mha, call=(("use_causal_mask", True), ("attention_mask", (2, 5, 5)))),
        Case("causal-scores", MASKS, kwargs=mha, call=(("use_causal_mask", True), ("return_attention_scores", True))),
        Case("mask-scores", MASKS, kwargs=mha, call=(("attention_mask", (2, 5, 5)),
                                                     ("return_attention_scores", True))),
        Case("mask-mixed-float16", MASKS, kwargs=mha + (("dtype", "mixed_float16"),),
             call=(("attention_mask", (2, 5, 5)),), rtol=2e-3),
        Case("mask-mixed-float16-scores", MASKS, kwargs=mha + (("dtype", "mixed_float16"),),
             call=(("attention_mask", (2, 5, 5)), ("return_attention_scores", True)), rtol=2e-3),
        Case("sliding-window-causal", MASKS, kwargs=mha + (("sliding_window", 2),), q=(2, 6, 8),
             call=(("use_causal_mask", True),)),
        # EinsumDense on its own
        Case("einsum-dense-abc-cde", VALUES, "einsum_dense", (("equation", "abc,cde->abde"), ("output_shape", (None, 2, 3)),
                                                              ("bias_axes", "de")), q=(2, 4, 5)),
        Case("einsum-dense-ellipsis", VALUES, "einsum_dense", (("equation", "...b,bc->...c"), ("output_shape", 4),
                                                               ("bias_axes", "c"), ("activation", "tanh")), q=(2, 3, 5)),
        Case("einsum-dense-general", VALUES, "einsum_dense", (("equation", "abc,cb->ab"), ("output_shape", (4,))),
             q=(2, 4, 5)),
        # config and symbolic calls
        Case("config-default", CONFIG, "config", mha),
        Case("config-full", CONFIG, "config", mha + (("value_dim", 3), ("dropout", 0.1), ("use_bias", False),
                                                     ("output_shape", 6), ("attention_axes", (1,)), ("seed", 3),
                                                     ("kernel_initializer", "he_normal"))),
        Case("symbolic-self", CONFIG, "symbolic", mha, q=(2, 5, 8)),
        Case("symbolic-scores", CONFIG, "symbolic", mha + (("output_shape", 3),), q=(2, 5, 8), v=(2, 5, 6),
             call=(("return_attention_scores", True),)),
        # argument and shape errors
        Case("err-num-heads-0", ERRORS, "error", (("num_heads", 0), ("key_dim", 2))),
        Case("err-key-dim-float", ERRORS, "error", (("num_heads", 2), ("key_dim", 2.5))),
        Case("err-value-dim-0", ERRORS, "error", mha + (("value_dim", -1),)),
        Case("err-attention-axes-str", ERRORS, "error", mha + (("attention_axes", "x"),)),
        Case("err-key-value-mismatch", ERRORS, "error", mha, q=(2, 5, 8), v=(2, 4, 8), k=(2, 3, 8)),
        # training under strategies
        Case("train-default", TRAIN, "train", mha, q=(4, 5, 3)),
        Case("train-mirrored2", TRAIN, "train", mha, q=(4, 5, 3), strategy="mirrored2", rtol=1e-4),
        Case("train-central2", TRAIN, "train", mha, q=(4, 5, 3), strategy="central2", rtol=1e-4),
        Case("train-causal-mirrored2", TRAIN, "train", mha, q=(4, 5, 3), strategy="mirrored2",
             call=(("use_causal_mask", True),), rtol=1e-4),
        Case("fit-default", TRAIN, "fit", mha, q=(4, 5, 3), rtol=1e-4),
        Case("fit-mirrored2", TRAIN, "fit", mha, q=(4, 5, 3), strategy="mirrored2", rtol=1e-4),
        Case("fit-central2", TRAIN, "fit", mha, q=(4, 5, 3), strategy="central2", rtol=1e-4),
        Case("train-pss", TRAIN, "train", mha, q=(4, 5, 3), strategy="pss", rtol=1e-4),
        Case("train-causal-pss", TRAIN, "train", mha, q=(4, 5, 3), strategy="pss", call=(("use_causal_mask", True),),
             rtol=1e-4),
        Case("fit-pss-refused", TRAIN, "fit", mha, q=(4, 5, 3), strategy="pss"),
    ]


CASES = _cases()
assert len({c.name for c in CASES}) == len(CASES), "duplicate case names"


tf_results = tf_cases.results_fixture(__file__, CASES)


def _check(index: int, tf_results: dict[int, Any]) -> None:
    tf_cases.check(CASES, run, index, tf_results)


def _params(clause: str) -> list[Any]:
    return tf_cases.params(CASES, clause)


@pytest.mark.clause("keras.mha.values")
@pytest.mark.parametrize("index", _params(VALUES))
def test_values_and_gradients(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.mha.masks")
@pytest.mark.parametrize("index", _params(MASKS))
def test_masks(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.mha.config")
@pytest.mark.parametrize("index", _params(CONFIG))
def test_config_and_symbolic_calls(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.mha.arguments")
@pytest.mark.parametrize("index", _params(ERRORS))
def test_argument_errors(index: int, tf_results: dict[int, Any]) -> None:
    want = tf_results[index]
    assert isinstance(want, tuple) and want[0] == "error", f"{CASES[index].name}: TF 2.21 raised nothing ({want!r})"
    _check(index, tf_results)


@pytest.mark.clause("keras.mha.distributed")
@pytest.mark.parametrize("index", _params(TRAIN))
def test_training_under_strategies(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


def test_fit_under_pss_is_refused_by_tf_too(tf_results: dict[int, Any]) -> None:
    """The refused-fit case is only meaningful if TF 2.21 + Keras 3 itself refused."""
    want = tf_results[next(i for i, c in enumerate(CASES) if c.name == "fit-pss-refused")]
    assert isinstance(want, tuple) and want[0] == "error" and want[1] == "ValueError", \
        f"TF 2.21 + Keras 3 now gives {str(want)[:300]} for fit under ParameterServerStrategy: update keras.mha.distributed"


def test_every_case_is_checked_under_its_clause() -> None:
    stray = sorted({c.clause for c in CASES} - {VALUES, MASKS, CONFIG, ERRORS, TRAIN})
    assert not stray, f"cases under clauses {stray} have no test function: add one"


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(tf_cases.worker(CASES, run))
    os._exit(0)  # (in-process servers and coordinator threads never shut down cleanly)

"""The training fuzzer's kfuzz54 widening against TF 2.21 (tests/fuzz_train, `_widen14`; clause train.reference-grid):
the patterns people's training programs take that the generator now draws, each checked value by value.

Fixed: an Embedding frozen after fit under MirroredStrategy(2) without compiling again stopped training in simdist under
Adagrad, Adadelta and RMSprop, where TF 2.21's cached train function keeps updating it (kfuzz52's open class
flip-sparse-allreduce-eager; kfuzz53 fixed SGD and Adam): their sparse divide read the divisor in Python, so the step
was never recorded and ran its Python each call, reading the trainable variables anew. The divide is now TF ops
(keras/optimizers/_ops.py, kfuzz53's cond-free attempt), and the recording keeps it: the replicas' all-reduced
indices reached each replica through the recorder's alias of the reduced node, which carried no graph-constant mark,
so shape inference took the varying indices for a constant and read their value (graph/recording.py `alias`,
`computed`).

Agreeing (a test that fails when one drifts): ARCHS14's layers (the dot-product Attention layer scaled over a query, value and key of their own, by
score_mode='concat' over a masked Embedding, with its scores returned and with a causal mask; a MultiHeadAttention
behind Masking over padded sequences; Resizing + CenterCrop; an Identity residual with LeakyReLU) fit one epoch;
SparseCategoricalCrossentropy with ignore_class, a Sequential without an Input built by ``model.build``, and
SwapEMAWeights beside an optimizer with use_ema, fit and evaluated."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _init(model: Any, seed: int) -> None:
    r = np.random.default_rng(seed)
    for v in model.weights:
        v.assign(r.uniform(-0.6, 0.6, tuple(v.shape)).astype(np.float32))


def _flat(model: Any) -> list[float]:
    return np.concatenate([np.ravel(w) for w in model.get_weights()]).astype(np.float64).tolist()


def _flip_embedding(tf: Any) -> list[Any]:
    """An Embedding frozen after fit under MirroredStrategy(2), fit again without compiling: per optimizer whose
    sparse update divides by a dense slot, the frozen table's changed values after the second fit (TF 2.21's
    cached step keeps training it: 18 of 18), the losses and the whole model."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    out: list[Any] = []
    for name, make in (("adagrad", lambda: tf.keras.optimizers.Adagrad(0.1)),
                       ("adadelta", lambda: tf.keras.optimizers.Adadelta(1.0)),
                       ("rmsprop", lambda: tf.keras.optimizers.RMSprop(0.01))):
        r = np.random.default_rng(1)
        x = r.integers(0, 6, (8, 5)).astype(np.int32)
        y = r.uniform(-1, 1, (8, 2)).astype(np.float32)
        with strategy.scope():
            inp = tf.keras.Input((5,), dtype="int32")
            h = tf.keras.layers.Embedding(6, 3)(inp)
            h = tf.keras.layers.GlobalAveragePooling1D()(h)
            model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(h))
            _init(model, 2)
            model.compile(optimizer=make(), loss="mse")
        model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        before = np.asarray(model.layers[1].get_weights()[0]).copy()
        model.layers[1].trainable = False
        h = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        after = np.asarray(model.layers[1].get_weights()[0])
        out += [[f"{name} changed", int(np.sum(before != after))],
                [f"{name} loss", [float(v) for v in h.history["loss"]]], [f"{name} weights", _flat(model)]]
    return out


def _arch_outputs(tf: Any, name: str, inp: Any) -> Any:
    L = tf.keras.layers
    h = inp
    if name == "attention_qvk_scaled":
        q, k = L.Dense(3)(h), L.Dense(3)(h)
        return L.GlobalAveragePooling1D()(L.Attention(use_scale=True)([q, h, k]))
    if name == "attention_concat_masked":
        h = L.Embedding(6, 4, mask_zero=True)(h)
        return L.GlobalAveragePooling1D()(L.Attention(score_mode="concat")([h, h]))
    if name == "attention_scores_query":
        q = L.Dense(3)(h)
        a, s = L.Attention()([q, h], return_attention_scores=True)
        return L.Concatenate()([L.Flatten()(a), L.Flatten()(s)])
    if name == "attention_causal":
        return L.Flatten()(L.Attention()([h, h], use_causal_mask=True))
    if name == "masking_mha":
        h = L.Masking(0.0)(h)
        h = L.MultiHeadAttention(num_heads=2, key_dim=2, use_bias=False)(h, h)
        return L.GlobalAveragePooling1D()(h)
    if name == "resize_center_crop":
        h = L.Conv2D(2, 3)(L.Resizing(8, 8)(h))
        return L.GlobalMaxPooling2D()(L.CenterCrop(4, 4)(h))
    assert name == "identity_residual_leaky"
    a = L.Dense(4)(h)
    return L.LeakyReLU(negative_slope=0.2)(L.Add()([a, L.Identity()(h)]))


_SHAPES = {"attention_qvk_scaled": (4, 3), "attention_concat_masked": (5,), "attention_scores_query": (4, 3),
           "attention_causal": (4, 3), "masking_mha": (5, 3), "resize_center_crop": (5, 5, 1),
           "identity_residual_leaky": (4,)}


def _layers(tf: Any) -> dict[str, Any]:
    """Each ARCHS14 model (no random layers) fit one epoch of two SGD steps: losses, weights, predictions."""
    out: dict[str, Any] = {}
    for name, shape in _SHAPES.items():
        tf.keras.backend.clear_session()
        r = np.random.default_rng(3)
        if name == "attention_concat_masked":
            x = r.integers(0, 6, (8, *shape)).astype(np.int32)
            x[:3, -2:] = 0   # (padded rows: the mask reaches the attention and the pooling)
            inp = tf.keras.Input(shape, dtype="int32")
        else:
            x = r.uniform(-1, 1, (8, *shape)).astype(np.float32)
            if name == "masking_mha":
                x[:3, -2:] = 0.0   # (padded steps: Masking's mask reaches the attention and the pooling)
            inp = tf.keras.Input(shape)
        y = r.uniform(-1, 1, (8, 2)).astype(np.float32)
        model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(_arch_outputs(tf, name, inp)))
        _init(model, 11)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        h = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        out[name] = [[float(v) for v in h.history["loss"]], _flat(model),
                     np.asarray(model.predict(x[:5], batch_size=3, verbose=0), np.float64).ravel().tolist()]
    return out


def _options(tf: Any) -> dict[str, Any]:
    """SparseCategoricalCrossentropy(ignore_class=0) by each reduction with sample weights, a Sequential without an
    Input built by build(), SwapEMAWeights (swap_on_epoch and not) beside Adam(use_ema): histories, weights (the EMA
    swapped in or not), evaluate and predict."""
    L = tf.keras.layers
    r = np.random.default_rng(4)
    x = r.uniform(-1, 1, (10, 4)).astype(np.float32)
    yc = r.integers(0, 3, (10,)).astype(np.int32)
    sw = np.round(r.uniform(0.0, 2.0, 10), 2).astype(np.float32)
    yr = r.uniform(-1, 1, (10, 2)).astype(np.float32)
    out: dict[str, Any] = {}
    for red in ("sum_over_batch_size", "sum", "mean_with_sample_weight"):
        model = tf.keras.Sequential([L.Dense(4, activation="tanh"), L.Dense(3)])
        model.build((None, 4))
        _init(model, 5)
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0, reduction=red)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.2), loss=loss, metrics=["sparse_categorical_accuracy"])
        hist = model.fit(x, yc, batch_size=3, epochs=2, shuffle=False, verbose=0, sample_weight=sw)
        ev = model.evaluate(x, yc, batch_size=4, verbose=0, return_dict=True)
        out[f"ignore {red}"] = {"history": {k: [float(v) for v in hist.history[k]] for k in sorted(hist.history)},
                                "weights": _flat(model), "evaluate": {k: float(v) for k, v in sorted(ev.items())},
                                "loss_none": np.asarray(tf.keras.losses.SparseCategoricalCrossentropy(
                                    from_logits=True, ignore_class=0, reduction="none")(yc, model(x)),
                                    np.float64).tolist()}
    for swap in (True, False):
        inp = tf.keras.Input((4,))
        model = tf.keras.Model(inp, L.Dense(2)(L.Dense(3, activation="relu")(inp)))
        _init(model, 6)
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05, use_ema=True, ema_momentum=0.7), loss="mse")
        cb = tf.keras.callbacks.SwapEMAWeights(swap_on_epoch=swap)
        hist = model.fit(x, yr, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[cb],
                         validation_data=(x[:4], yr[:4]))
        out[f"swap_ema {swap}"] = {"history": {k: [float(v) for v in hist.history[k]] for k in sorted(hist.history)},
                                   "weights": _flat(model),
                                   "predict": np.asarray(model.predict(x[:5], verbose=0), np.float64).ravel().tolist()}
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    return {"layers": _layers, "options": _options, "flip_embedding": _flip_embedding}[case["name"]](tf)


CASES: dict[str, dict] = {"options": {"strategy": "default", "name": "options"},
                          "layers": {"strategy": "default", "name": "layers"},
                          "flip_embedding": {"strategy": "mirrored2", "name": "flip_embedding"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _same(got: Any, want: Any, where: str, rtol: float, atol: float) -> None:
    """Strings and structure exactly, numbers within the tolerance, recursively."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{where}: keys {got}, TF 2.21 {want}"
        for k in want:
            _same(got[k], want[k], f"{where}/{k}", rtol, atol)
    elif isinstance(want, (list, tuple)) and not all(isinstance(v, (int, float)) for v in want):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), f"{where}: simdist {got}, TF 2.21 {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]" if not isinstance(w, str) else where, rtol, atol)
    elif isinstance(want, str):
        assert got == want, f"{where}: simdist {got!r}, TF 2.21 {want!r}"
    else:
        tf_programs.close(got, want, where, rtol=rtol, atol=atol)


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    from simdist.runtime import host_cpu
    name = NAMES[index]
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's kernels follow the CPU: ops.host-cpu)
        got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    _same(got, tf_results[index], name, rtol=1e-5, atol=1e-6)


@pytest.mark.clause("train.reference-grid")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_the_widened_options_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """ignore_class by each reduction, a Sequential built by build(), SwapEMAWeights."""
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("keras.fit.step-replay")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:])
def test_a_frozen_embedding_follows_the_traced_step_of_a_sparse_divide(index: int, tf_results: dict[int, Any],
                                                                       tmp_path: Any) -> None:
    """Frozen under MirroredStrategy(2) without compiling again: Adagrad, Adadelta and RMSprop keep training it."""
    _check(index, tf_results, tmp_path)


@pytest.mark.slow
@pytest.mark.clause("train.reference-grid")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_the_widened_layers_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """ARCHS14's seven deterministic models (slow: several seconds of simdist each on a loaded host)."""
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

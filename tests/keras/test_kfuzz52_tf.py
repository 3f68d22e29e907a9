"""The training fuzzer's kfuzz52 widening against TF 2.21 (tests/fuzz_train, `_widen12`; clauses keras.trainable,
keras.clone-model, data.shuffle-seed, keras.loss-scale-optimizer): the patterns people's training programs take
that the generator now draws, each checked value by value.

Fixed: a train function whose metrics scatter computed indices (BinaryIoU's confusion matrix, `tf.scatter_nd`) ran
eagerly on every call in simdist (scatter_nd read its indices' values to check their shape), so a layer frozen after
the first fit without compiling again stopped training in simdist, where TF 2.21's trace (made once, its trainable
variables read then) kept updating it (training fuzzer seed 5120261301 #20).

Agreeing (a test that fails when one drifts): transfer learning (a Dense and a BatchNormalization frozen, fit
without compiling again: Keras 3.15's train function, traced at the first fit of a compile, keeps the variables
it read then; compiled again: the frozen layers stay, the BatchNormalization in inference mode); clone_model +
set_weights under MirroredStrategy(2), compiled with an optimizer of its own and fit; the tf.data pipelines of the
widening (shuffle by an op seed under set_random_seed, reshuffled each epoch or not, cache, prefetch, noise by a
seeded tf.random.uniform in map), their batches over two epochs and a fit on them (not the reshuffling one:
open, TF 2.21's fit and evaluate take two of its iterations per epoch, simdist's one); a custom loop under
mixed_float16 with a LossScaleOptimizer and scale_loss (the loss scale, the steps' losses and weights)."""

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
        val = r.uniform(-0.6, 0.6, tuple(v.shape))
        if "variance" in v.name:
            val = 0.5 + np.abs(val)
        v.assign(val.astype(np.float32))


def _flat(model: Any) -> list[float]:
    return np.concatenate([np.ravel(w) for w in model.get_weights()]).astype(np.float64).tolist()


def _data(n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    r = np.random.default_rng(5)
    return r.uniform(-1, 1, (n, 4)).astype(np.float32), r.uniform(-1, 1, (n, 2)).astype(np.float32)


def _mlp(tf: Any) -> Any:
    inp = tf.keras.Input((4,))
    h = tf.keras.layers.Dense(3, activation="relu")(inp)
    h = tf.keras.layers.BatchNormalization()(h)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(h))
    _init(model, 7)
    return model


def _transfer(tf: Any, flip: bool, iou: bool = False) -> list[Any]:
    x, y = _data()
    metrics = []
    if iou:   # (its confusion matrix scatters computed indices: the recorded train function must stay recorded)
        y = (y > 0).astype(np.float32)
        metrics = [tf.keras.metrics.BinaryIoU(target_class_ids=[0, 1], threshold=0.4)]
    model = _mlp(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=metrics)
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    out: list[Any] = [["fit", _flat(model)]]
    for layer in model.layers[1:3]:
        layer.trainable = False
    out.append(["counts", [len(model.trainable_weights), len(model.non_trainable_weights)]])
    if not flip:
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    h = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    out += [["frozen loss", [float(v) for v in h.history["loss"]]], ["frozen", _flat(model)]]
    for layer in model.layers[1:3]:
        layer.trainable = True
    model.compile(optimizer=tf.keras.optimizers.SGD(0.01, momentum=0.9), loss="mse")
    h = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    out += [["unfrozen loss", [float(v) for v in h.history["loss"]]], ["unfrozen", _flat(model)]]
    return out


def _clone(tf: Any) -> list[Any]:
    x, y = _data()
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = _mlp(tf)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    with strategy.scope():
        c = tf.keras.models.clone_model(model)
        c.set_weights(model.get_weights())
        c.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.9), loss="mse", metrics=["mae"])
    out: list[Any] = [["classes", [type(layer).__name__ for layer in c.layers]],
                      ["predict", np.asarray(c.predict(x[:4], verbose=0), np.float64).ravel().tolist()]]
    h = c.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    out += [["history", {k: [float(v) for v in h.history[k]] for k in sorted(h.history)}], ["weights", _flat(c)],
            ["original", _flat(model)]]
    return out


def _pipelines(tf: Any) -> list[Any]:
    from ftr_vocab import PIPELINES12
    x, y = _data(10)
    out: list[Any] = []
    for name, src in PIPELINES12.items():
        if name == "shuffle_reshuffle":   # (open: fit takes more of its reshuffled orders on TF, kfuzz52_logs)
            continue
        tf.keras.utils.set_random_seed(3)
        scope = {"tf": tf, "_parts": (x, y), "batch_size": 4}
        exec(src, scope)   # (the generator's source, as the programs run it)
        ds = scope["ds"]
        epochs = [[np.asarray(b[0], np.float64).ravel().tolist() for b in ds] for _ in range(2)]
        out.append([name, epochs])
        model = _mlp(tf)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        model.fit(ds, epochs=2, verbose=0)
        out.append([name + " fit", _flat(model)])
    return out


def _ctl_mixed(tf: Any) -> list[Any]:
    x, y = _data()
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
        with strategy.scope():
            model = _mlp(tf)
            opt = tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.Adam(0.01), initial_scale=256.0,
                                                         dynamic_growth_steps=2)
            opt.build(model.trainable_variables)
        loss_obj = tf.keras.losses.MeanSquaredError(reduction="none")

        @tf.function
        def step(xb: Any, yb: Any) -> Any:
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(loss_obj(yb, model(xb, training=True)), global_batch_size=4)
                scaled = opt.scale_loss(loss)
            grads = tape.gradient(scaled, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss, scaled
        out: list[Any] = []
        for i in range(4):
            loss, scaled = strategy.run(step, args=(x[i % 2 * 4:][:4], y[i % 2 * 4:][:4]))
            out.append([f"step {i}", [float(loss), float(scaled), float(np.asarray(opt.dynamic_scale)),
                                      str(scaled.dtype.name)], _flat(model)])
        return out
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


def program(tf: Any, case: dict, workdir: str) -> Any:
    name = case["name"]
    if name.startswith("transfer"):
        return _transfer(tf, name.startswith("transfer_flip"), iou=name.endswith("_iou"))
    return {"clone": _clone, "pipelines": _pipelines, "ctl_mixed": _ctl_mixed}[name](tf)


CASES: dict[str, dict] = {"transfer_recompile": {"strategy": "default", "name": "transfer_recompile"},
                          "transfer_flip": {"strategy": "default", "name": "transfer_flip"},
                          "transfer_flip_iou": {"strategy": "default", "name": "transfer_flip_iou"},
                          "clone": {"strategy": "mirrored2", "name": "clone"},
                          "pipelines": {"strategy": "default", "name": "pipelines"},
                          "ctl_mixed": {"strategy": "default", "name": "ctl_mixed"}}
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
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz_train"))
    from simdist.runtime import host_cpu
    name = NAMES[index]
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's kernels follow the CPU: ops.host-cpu)
        got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    _same(got, tf_results[index], name, rtol=1e-5, atol=1e-6)


@pytest.mark.clause("keras.fit.step-replay")
@pytest.mark.parametrize("index", [0, 1, 2], ids=NAMES[:3])
def test_a_frozen_layer_follows_the_traced_step(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """Frozen after fit: trained on by the cached train function (flip), not after compiling again."""
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("train.reference-grid")
@pytest.mark.parametrize("index", [3, 4, 5], ids=NAMES[3:])
def test_the_widened_patterns_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz_train"))
    tf_workers.serve(tf_programs.worker(CASES, program))

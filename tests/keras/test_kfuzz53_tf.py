"""The training fuzzer's kfuzz53 widening against TF 2.21 (tests/fuzz_train, `_widen13`; clauses keras.fit.step-replay,
train.reference-grid): the patterns people's training programs take that the generator now draws, each checked value
by value.

Fixed: the all-reduce of the replicas' IndexedSlices gradients (an Embedding's, strategies/base.py `_reduce_slices`)
read their values in Python, so under MirroredStrategy(2) a train step with such a gradient was never recorded and ran
its Python on every call, reading the trainable variables anew: an Embedding frozen after fit without compiling again
stopped training in simdist, where TF 2.21's cached train function (traced at the first fit, its trainable variables
read then) keeps updating it (kfuzz52's open class flip-sparse-allreduce-eager, seed 5120261301 #34; SGD and Adam here,
whose sparse updates are ops; Adagrad, Adadelta and RMSprop still read the divisor's rows in Python, open). A reshuffling
dataset's shuffle took its iteration's seeds at the first element in simdist, at MakeIterator on TF 2.21: Keras 3.15's
EpochIterator makes a fresh iterator at each epoch's end (dropped at the next epoch's start), so fit, evaluate and
predict take two iterations per epoch on TF and took one in simdist (kfuzz52's open class
reshuffle-iterations-per-epoch; runtime/data/shuffle.py `made_at_make`).

Agreeing (a test that fails when one drifts): ARCHS13's layers (causal and masked self-attention, an LSTM's states into
a second LSTM, StackedRNNCells, Bidirectional merge modes 'mul', 'ave' and None, BatchNormalization called with
training=False, EinsumDense, Dot/Subtract + Softmax, UpSampling1D + Cropping1D, Conv3D + MaxPooling3D,
ActivityRegularization) fit two steps; a user Loss subclass, a user Metric subclass with sample weights and a user
layer with a constrained weight and a non-trainable weight assigned in training, fit and evaluated."""

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


def _flip_embedding(tf: Any) -> list[Any]:
    """An Embedding frozen after fit under MirroredStrategy(2), fit again without compiling: per optimizer, the
    frozen table after the second fit (TF 2.21's cached step keeps training it) and the whole model."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    out: list[Any] = []
    for name, make in (("sgd", lambda: tf.keras.optimizers.SGD(0.1)),
                       ("adam", lambda: tf.keras.optimizers.Adam(0.05))):
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
    if name == "mha_causal":
        h = L.MultiHeadAttention(num_heads=2, key_dim=2, use_bias=False)(h, h, use_causal_mask=True)
        return L.GlobalAveragePooling1D()(h)
    if name == "embed_masked_mha":
        h = L.Embedding(6, 4, mask_zero=True)(h)
        h = L.MultiHeadAttention(num_heads=2, key_dim=2, use_bias=False)(h, h)
        return L.GlobalAveragePooling1D()(h)
    if name == "lstm_state_chain":
        s, sh, sc = L.LSTM(3, return_sequences=True, return_state=True)(h)
        return L.LSTM(3)(s, initial_state=[sh, sc])
    if name == "stacked_cells_rnn":
        return L.RNN(L.StackedRNNCells([L.SimpleRNNCell(3), L.GRUCell(2)]))(h)
    if name == "bidirectional_mul":
        return L.Flatten()(L.Bidirectional(L.LSTM(2, return_sequences=True), merge_mode="mul")(h))
    if name == "bidirectional_ave":
        return L.Bidirectional(L.GRU(2), merge_mode="ave")(h)
    if name == "bidirectional_none":
        f, b = L.Bidirectional(L.GRU(2), merge_mode=None)(h)
        return L.Subtract()([f, b])
    if name == "bn_inference":
        return L.Activation("relu")(L.BatchNormalization()(L.Dense(4)(h), training=False))
    if name == "einsum_dense":
        return L.EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c", activation="relu")(h)
    if name == "dot_subtract_softmax":
        a = L.Dense(3)(h)
        b = L.Dense(3, activation="tanh")(h)
        return L.Softmax()(L.Concatenate()([L.Dot(axes=1, normalize=True)([a, b]), L.Subtract()([a, b])]))
    if name == "upsample1d_crop":
        h = L.Conv1D(2, 3)(L.UpSampling1D(2)(L.Reshape((4, 1))(h)))
        return L.Flatten()(L.Cropping1D((1, 1))(h))
    if name == "conv3d_pool":
        return L.Flatten()(L.MaxPooling3D((1, 2, 2))(L.Conv3D(2, 2, padding="same")(h)))
    assert name == "activity_regularization"
    return L.ActivityRegularization(l1=0.01, l2=0.02)(L.Dense(4, activation="relu")(h))


_SHAPES = {"mha_causal": (3, 4), "embed_masked_mha": (5,), "lstm_state_chain": (4, 2), "stacked_cells_rnn": (4, 2),
           "bidirectional_mul": (3, 2), "bidirectional_ave": (3, 2), "bidirectional_none": (3, 2), "bn_inference": (4,),
           "einsum_dense": (4,), "dot_subtract_softmax": (4,), "upsample1d_crop": (4,), "conv3d_pool": (2, 4, 4, 1),
           "activity_regularization": (4,)}


def _layers(tf: Any) -> dict[str, Any]:
    """Each ARCHS13 model (no random layers) fit two steps of SGD: losses, weights, predictions."""
    out: dict[str, Any] = {}
    for name, shape in _SHAPES.items():
        tf.keras.backend.clear_session()
        r = np.random.default_rng(3)
        if name == "embed_masked_mha":
            x = r.integers(0, 6, (8, *shape)).astype(np.int32)
            x[:3, -2:] = 0   # (padded rows: the mask reaches the attention and the pooling)
            inp = tf.keras.Input(shape, dtype="int32")
        else:
            x = r.uniform(-1, 1, (8, *shape)).astype(np.float32)
            inp = tf.keras.Input(shape)
        y = r.uniform(-1, 1, (8, 2)).astype(np.float32)
        model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(_arch_outputs(tf, name, inp)))
        _init(model, 11)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        h = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        out[name] = [[float(v) for v in h.history["loss"]], _flat(model),
                     np.asarray(model.predict(x[:5], batch_size=3, verbose=0), np.float64).ravel().tolist()]
    return out


_USER = '''
class PseudoHuber(tf.keras.losses.Loss):
    def __init__(self, delta=0.5, name="pseudo_huber", **kwargs):
        super().__init__(name=name, **kwargs)
        self.delta = delta
    def call(self, y_true, y_pred):
        d = y_pred - y_true
        return tf.reduce_mean(self.delta ** 2 * (tf.sqrt(1.0 + tf.square(d / self.delta)) - 1.0), axis=-1)
class PredAbsMean(tf.keras.metrics.Metric):
    def __init__(self, name="pred_abs_mean", **kwargs):
        super().__init__(name=name, **kwargs)
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")
    def update_state(self, y_true, y_pred, sample_weight=None):
        v = tf.reduce_mean(tf.abs(tf.cast(y_pred, "float32")), axis=-1)
        w = tf.ones_like(v) if sample_weight is None else tf.reshape(tf.cast(sample_weight, "float32"), tf.shape(v))
        self.total.assign_add(tf.reduce_sum(v * w))
        self.count.assign_add(tf.reduce_sum(w))
    def result(self):
        return tf.math.divide_no_nan(self.total, self.count)
    def reset_state(self):
        self.total.assign(0.0)
        self.count.assign(0.0)
class RunningCenter(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.gain = self.add_weight(shape=(input_shape[-1],), initializer=tf.keras.initializers.Constant(1.5),
                                    regularizer=tf.keras.regularizers.L1(0.01),
                                    constraint=tf.keras.constraints.NonNeg(), name="gain")
        self.center = self.add_weight(shape=(input_shape[-1],), initializer="zeros", trainable=False, name="center")
    def call(self, t, training=None):
        if training:
            self.center.assign(0.9 * self.center + 0.1 * tf.reduce_mean(t, axis=0))
            t = t + 0.05 * tf.sign(t)
        return (t - self.center) * self.gain
'''


def _user_classes(tf: Any) -> dict[str, Any]:
    """A user Loss, Metric and stateful layer: fit 2 epochs with sample weights (by 3s: a partial batch), the
    history, weights (the layer's center included), evaluate's dict and the predictions in inference mode."""
    ns: dict[str, Any] = {"tf": tf}
    exec(_USER, ns)  # noqa: S102 - the test's own classes, written against the backend's tf
    r = np.random.default_rng(4)
    x = r.uniform(-1, 1, (10, 4)).astype(np.float32)
    y = r.uniform(-1, 1, (10, 2)).astype(np.float32)
    sw = np.round(r.uniform(0.0, 2.0, 10), 2).astype(np.float32)
    inp = tf.keras.Input((4,))
    h = ns["RunningCenter"]()(tf.keras.layers.Dense(4)(inp))
    model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(h))
    _init(model, 5)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss=ns["PseudoHuber"](delta=0.5, reduction="sum"),
                  metrics=["mae", ns["PredAbsMean"]()])
    hist = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0, sample_weight=sw)
    ev = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    return {"history": {k: [float(v) for v in hist.history[k]] for k in sorted(hist.history)},
            "weights": _flat(model), "evaluate": {k: float(v) for k, v in sorted(ev.items())},
            "predict": np.asarray(model.predict(x[:5], batch_size=3, verbose=0), np.float64).ravel().tolist()}


def _reshuffle_iterations(tf: Any) -> dict[str, Any]:
    """How many iterations of a reshuffling `shuffle(10, seed=7)` fit (1 and 3 epochs), evaluate and predict take (TF
    2.21: two per epoch, Keras's EpochIterator making a fresh iterator at each epoch's end), found from the order of
    the next iteration after the call, and the weights and losses of the 3-epoch fit."""
    x = np.arange(10, dtype=np.float32)[:, None] * np.ones((1, 4), np.float32) / 10.0
    y = np.linspace(-1, 1, 20, dtype=np.float32).reshape(10, 2)

    def order(ds: Any) -> str:
        return "".join(str(int(round(float(v) * 10))) for b in ds for v in np.asarray(b[0])[:, 0])

    def make() -> Any:
        tf.keras.utils.set_random_seed(3)
        return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10, seed=7).batch(4)

    ds = make()
    seq = [order(ds) for _ in range(9)]
    out: dict[str, Any] = {"orders": seq}
    for call in ("fit1", "fit3", "evaluate", "predict"):
        ds = make()
        inp = tf.keras.Input((4,))
        model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(inp))
        _init(model, 6)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        if call.startswith("fit"):
            h = model.fit(ds, epochs=int(call[3]), verbose=0)
            out[f"{call} loss"] = [float(v) for v in h.history["loss"]]
            out[f"{call} weights"] = _flat(model)
        elif call == "evaluate":
            model.evaluate(ds, verbose=0)
        else:
            model.predict(ds, verbose=0)
        nxt = order(ds)
        out[f"{call} consumed"] = seq.index(nxt) if nxt in seq else -1
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    return {"flip_embedding": _flip_embedding, "layers": _layers, "user_classes": _user_classes,
            "reshuffle_iterations": _reshuffle_iterations}[case["name"]](tf)


CASES: dict[str, dict] = {"flip_embedding": {"strategy": "mirrored2", "name": "flip_embedding"},
                          "layers": {"strategy": "default", "name": "layers"},
                          "user_classes": {"strategy": "default", "name": "user_classes"},
                          "reshuffle_iterations": {"strategy": "default", "name": "reshuffle_iterations"}}
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


@pytest.mark.clause("keras.fit.step-replay")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_a_frozen_embedding_follows_the_traced_step(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """Frozen under MirroredStrategy(2) without compiling again: trained on by the cached train function."""
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("train.reference-grid")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:3])
def test_the_widened_patterns_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("dataset.shuffle")
@pytest.mark.parametrize("index", [3], ids=NAMES[3:])
def test_each_epoch_makes_two_iterations_of_a_reshuffling_dataset(index: int, tf_results: dict[int, Any],
                                                                   tmp_path: Any) -> None:
    """fit, evaluate and predict take two iterations per epoch (the seeds are drawn as an iterator is made)."""
    _check(index, tf_results, tmp_path)


@pytest.mark.slow
@pytest.mark.clause("train.reference-grid")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_the_widened_layers_match_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    """ARCHS13's thirteen models (about 40 s of simdist on a loaded host: slow)."""
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

"""The classes around the sixty-fourth blind batch's mutants (tests/mutants.py TRAINING_BATCH64: Keras layers, losses
and metrics, optimizers and schedules, callbacks, saving), each checked as a class: the optimizers' updates on many
elements (so a reassociated formula's last bit shows somewhere) in float32 and float64, the schedules at each step and
through their configs, the crossentropies at probabilities 0 and 1 (the clipping bounds), the loss configs of
asymmetric options, the layers under a float16 policy, the convolutions' shapes in both data formats and with
dilations, the recurrent layers with one unit (no summation order: the bias's place shows), each weight's constraint
and regularizer, the monitors' auto mode, ModelCheckpoint's file kinds, the epoch indices the callbacks see,
load_weights/load_model options, AUC and the threshold metrics at predictions equal to a threshold, metrics' dtypes,
stateless updates, attention without a key, ConvLSTM and depthwise dilations, EinsumDense's activation, and
BackupAndRestore's fallback to its previous backup.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind64_gaps --record` rewrites blind64_reference.json.gz). Floats
are compared by their bits (the hex of the IEEE value): several of the batch's mutants move a value by one ulp (a
velocity update reassociated, a fraction computed by a reciprocal, a bias added before the recurrent term, a float16
reduction), which any tolerance would hide."""

from __future__ import annotations

import os
import tempfile
import zipfile
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import RecordedPrograms, bits as _bits, error as _error, plain as _plain, rng as _rng

PATH = os.path.join(os.path.dirname(__file__), "blind64_reference.json.gz")
#: programs whose TF 2.21 values depend on the CPU's kernels (clause ops.host-cpu): MultiHeadAttention's self-attention
#: (float32 matmuls and softmax) differs in a printed digit between AVX2 (oneDNN off, where it was recorded) and the
#: AVX-512 reference model the tests run simdist with
HOST_DEPENDENT = ("layer-mha-self",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT)


# -- 1. optimizers: 64 random elements, four steps, float32 and float64 --------------------------------------------
_OPTIMIZERS: dict[str, tuple[str, dict[str, Any]]] = {
    "rmsprop": ("RMSprop", {"learning_rate": 0.01}),
    "rmsprop-momentum": ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5}),
    "rmsprop-centered": ("RMSprop", {"learning_rate": 0.01, "centered": True, "rho": 0.8}),
    "nadam": ("Nadam", {"learning_rate": 0.01}),
    "nadam-beta2": ("Nadam", {"learning_rate": 0.01, "beta_2": 0.9}),
    "adam": ("Adam", {"learning_rate": 0.01}),
    "adamw": ("AdamW", {"learning_rate": 0.01, "weight_decay": 0.1}),
    "adamax": ("Adamax", {"learning_rate": 0.01}),
    "adagrad": ("Adagrad", {"learning_rate": 0.05}),
    "sgd-momentum": ("SGD", {"learning_rate": 0.05, "momentum": 0.7}),
}

for _key, (_cls, _kw) in _OPTIMIZERS.items():
    for _dtype in ("float32", "float64"):
        def _opt_program(tf: Any, mk: Any, cls: str = _cls, kw: dict = _kw, dtype: str = _dtype,
                         name: str = f"opt-{_key}-{_dtype}") -> Any:
            r = _rng(name)
            opt = getattr(tf.keras.optimizers, cls)(**kw)
            var = tf.Variable(r.randn(64).astype(dtype))
            out = []
            for _ in range(4):
                opt.apply_gradients([(tf.constant(r.randn(64).astype(dtype)), var)])
                out.append(_bits(var))
            return out
        REF.add(f"opt-{_key}-{_dtype}", _opt_program)


# -- 2. schedules: each step 0..24, and the schedule rebuilt from its config -----------------------------------------
def _schedule(tf: Any, name: str) -> Any:
    S = tf.keras.optimizers.schedules
    return {
        "cosine-7": lambda: S.CosineDecay(0.1, 7),
        "cosine-13-alpha": lambda: S.CosineDecay(0.1, 13, alpha=0.2),
        "cosine-warmup": lambda: S.CosineDecay(0.0, 11, warmup_target=0.1, warmup_steps=3),
        "exponential-7": lambda: S.ExponentialDecay(0.1, 7, 0.9),
        "exponential-staircase": lambda: S.ExponentialDecay(0.1, 3, 0.5, staircase=True),
        "inverse-time": lambda: S.InverseTimeDecay(0.1, 7, 0.5),
        "inverse-time-staircase": lambda: S.InverseTimeDecay(0.1, 3, 0.5, staircase=True),
        "polynomial": lambda: S.PolynomialDecay(0.1, 7, 0.01, power=0.5),
        "piecewise": lambda: S.PiecewiseConstantDecay([2, 5], [0.1, 0.05, 0.01]),
        "piecewise-4": lambda: S.PiecewiseConstantDecay([1, 3, 4], [1.0, 0.5, 0.25, 0.125]),
        "cosine-restarts": lambda: S.CosineDecayRestarts(0.1, 5, t_mul=1.5, m_mul=0.5, alpha=0.1),
    }[name]()


def _schedule_program(tf: Any, mk: Any, name: str) -> Any:
    s = _schedule(tf, name)
    rebuilt = type(s).from_config(s.get_config())
    opt = tf.keras.optimizers.SGD(learning_rate=s)
    again = tf.keras.optimizers.deserialize(tf.keras.optimizers.serialize(opt))
    return {"values": [_bits(s(i))[0] for i in range(25)], "config": _plain(s.get_config()),
            "rebuilt": [_bits(rebuilt(i))[0] for i in range(25)],
            "through-optimizer": [_bits(again.learning_rate)[0]] + [_bits(again._learning_rate(i))[0] for i in (3, 6)]}


for _name in ("cosine-7", "cosine-13-alpha", "cosine-warmup", "exponential-7", "exponential-staircase", "inverse-time",
              "inverse-time-staircase", "polynomial", "piecewise", "piecewise-4", "cosine-restarts"):
    REF.add(f"schedule-{_name}", lambda tf, mk, n=_name: _schedule_program(tf, mk, n))


# -- 3. losses: probabilities at 0 and 1 (the clip bounds), and configs of asymmetric options ----------------------
def _edge_losses(tf: Any) -> dict[str, Any]:
    L = tf.keras.losses
    y = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]], "float32")
    p = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.7, 0.1]], "float32")
    yb = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]], "float32")
    pb = np.array([[1.0, 0.0], [1.0, 0.0], [0.999, 0.5], [0.0, 1e-9]], "float32")
    labels = np.array([0, 1, 2, 1])
    none = {"reduction": "none"}
    return {
        "cce": lambda: L.CategoricalCrossentropy(**none)(y, p),
        "cce-function": lambda: L.categorical_crossentropy(y, p),
        "cce-smooth": lambda: L.CategoricalCrossentropy(label_smoothing=0.1, **none)(y, p),
        "scce": lambda: L.SparseCategoricalCrossentropy(**none)(labels, p),
        "bce": lambda: L.BinaryCrossentropy(**none)(yb, pb),
        "bce-function": lambda: L.binary_crossentropy(yb, pb),
        "cfce": lambda: L.CategoricalFocalCrossentropy(**none)(y, p),
        "bfce": lambda: L.BinaryFocalCrossentropy(**none)(yb, pb),
        "kld": lambda: L.KLDivergence(**none)(p, y),
        "poisson": lambda: L.Poisson(**none)(yb, pb),
    }


for _name in ("cce", "cce-function", "cce-smooth", "scce", "bce", "bce-function", "cfce", "bfce", "kld", "poisson"):
    REF.add(f"loss-edge-{_name}", lambda tf, mk, n=_name: _error(lambda: _bits(_edge_losses(tf)[n]())))


def _config_losses(tf: Any) -> dict[str, Any]:
    L = tf.keras.losses
    return {
        "tversky": lambda: L.Tversky(alpha=0.3, beta=0.7),
        "tversky-axis": lambda: L.Tversky(alpha=0.9, beta=0.2, axis=-1),
        "dice": lambda: L.Dice(axis=-1),
        "huber": lambda: L.Huber(delta=0.3),
        "bfce": lambda: L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, gamma=1.5, from_logits=True,
                                                  label_smoothing=0.1),
        "cfce": lambda: L.CategoricalFocalCrossentropy(alpha=0.3, gamma=1.5, from_logits=True, label_smoothing=0.1),
        "cosine": lambda: L.CosineSimilarity(axis=0),
        "cce": lambda: L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.2, axis=-1),
        "scce": lambda: L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=2),
        "circle": lambda: L.Circle(gamma=60.0, margin=0.3),
    }


def _config_loss_program(tf: Any, mk: Any, name: str) -> Any:
    r = _rng("loss-config-" + name)
    loss = _config_losses(tf)[name]()
    config = loss.get_config()
    rebuilt = type(loss).from_config(config)
    if name == "scce":
        y, p = r.randint(0, 3, (4,)), r.uniform(-2, 2, (4, 3)).astype("float32")
    elif name == "circle":
        y, p = np.array([0, 1, 0, 1]), r.uniform(-1, 1, (4, 3)).astype("float32")
    else:
        y, p = (r.rand(4, 3) > 0.5).astype("float32"), r.uniform(0.05, 0.95, (4, 3)).astype("float32")
    return {"config": _plain(config), "value": _error(lambda: _bits(loss(y, p))),
            "rebuilt": _error(lambda: _bits(rebuilt(y, p)))}


for _name in ("tversky", "tversky-axis", "dice", "huber", "bfce", "cfce", "cosine", "cce", "scce", "circle"):
    REF.add(f"loss-config-{_name}", lambda tf, mk, n=_name: _config_loss_program(tf, mk, n))


# -- 4. layers under a float16 policy ---------------------------------------------------------------------------------
def _half_layers(tf: Any) -> dict[str, Any]:
    K = tf.keras.layers
    pol = "mixed_float16"
    return {
        "layernorm": (lambda: K.LayerNormalization(dtype=pol), (3, 8), {}),
        "layernorm-axes": (lambda: K.LayerNormalization(axis=[1, 2], dtype=pol), (2, 3, 5), {}),
        "layernorm-float16": (lambda: K.LayerNormalization(dtype="float16"), (3, 8), {}),
        "batchnorm-train": (lambda: K.BatchNormalization(dtype=pol), (6, 5), {"training": True}),
        "global-avg-2d": (lambda: K.GlobalAveragePooling2D(dtype=pol), (2, 5, 7, 3), {}),
        "global-avg-2d-float16": (lambda: K.GlobalAveragePooling2D(dtype="float16"), (2, 5, 7, 3), {}),
        "global-avg-1d": (lambda: K.GlobalAveragePooling1D(dtype=pol), (2, 9, 3), {}),
        "global-avg-3d": (lambda: K.GlobalAveragePooling3D(dtype=pol), (1, 3, 4, 5, 2), {}),
        "avg-pool-2d": (lambda: K.AveragePooling2D(3, dtype=pol), (1, 6, 6, 2), {}),
        "group-norm": (lambda: K.GroupNormalization(groups=2, dtype=pol), (2, 4, 4), {}),
        "unit-norm": (lambda: K.UnitNormalization(dtype=pol), (3, 7), {}),
    }


def _half_program(tf: Any, mk: Any, name: str) -> Any:
    make, shape, kw = _half_layers(tf)[name]
    x = (np.arange(int(np.prod(shape)), dtype="float32").reshape(shape) / 9.7 + 100).astype("float16")
    layer = make()
    out = layer(tf.constant(x), **kw)
    plain = make() if not kw else None
    return {"dtype": out.dtype.name, "bits": _bits(out),
            "float32-input": _bits(plain(tf.constant(x.astype("float32")))) if plain is not None else None}


for _name in ("layernorm", "layernorm-axes", "layernorm-float16", "batchnorm-train", "global-avg-2d",
              "global-avg-2d-float16", "global-avg-1d", "global-avg-3d", "avg-pool-2d", "group-norm", "unit-norm"):
    REF.add(f"half-{_name}", lambda tf, mk, n=_name: _half_program(tf, mk, n))


# -- 5. convolutions' shapes in both data formats, dilations on data, Input's batch size ---------------------------
def _shape_program(tf: Any, mk: Any) -> Any:
    K = tf.keras.layers
    out: dict[str, Any] = {}
    cases = [
        ("conv1d", lambda f: K.Conv1D(2, 3, strides=2, data_format=f), (None, 9, 4), (None, 4, 9)),
        ("conv2d", lambda f: K.Conv2D(4, 3, data_format=f), (None, 10, 12, 3), (None, 3, 10, 12)),
        ("conv2d-dilated", lambda f: K.Conv2D(4, 3, dilation_rate=2, data_format=f), (None, 10, 12, 3),
         (None, 3, 10, 12)),
        ("conv3d", lambda f: K.Conv3D(2, 2, data_format=f), (None, 5, 6, 7, 3), (None, 3, 5, 6, 7)),
        ("conv2d-transpose", lambda f: K.Conv2DTranspose(2, 3, strides=2, data_format=f), (None, 4, 5, 3),
         (None, 3, 4, 5)),
        ("depthwise2d", lambda f: K.DepthwiseConv2D(3, depth_multiplier=2, data_format=f), (None, 8, 9, 3),
         (None, 3, 8, 9)),
        ("separable2d", lambda f: K.SeparableConv2D(4, 3, data_format=f), (None, 8, 9, 3), (None, 3, 8, 9)),
        ("maxpool2d", lambda f: K.MaxPooling2D(2, data_format=f), (None, 8, 9, 3), (None, 3, 8, 9)),
        ("avgpool1d", lambda f: K.AveragePooling1D(2, data_format=f), (None, 8, 3), (None, 3, 8)),
    ]
    for name, make, last, first in cases:
        out[name] = [_error(lambda m=make: list(m("channels_last").compute_output_shape(last))),
                     _error(lambda m=make: list(m("channels_first").compute_output_shape(first)))]
        sym = K.Input(first[1:])
        out[name + "-symbolic"] = _error(lambda m=make, s=sym: list(m("channels_first")(s).shape))
    out["input-batch-size"] = list(tf.keras.Input((3,), batch_size=4).shape)
    out["input-batch-shape"] = list(tf.keras.Input(batch_shape=(2, 5)).shape)
    out["input-layer-batch"] = list(K.InputLayer(shape=(3, 2), batch_size=6).batch_shape)
    model = tf.keras.Sequential([tf.keras.Input((3,), batch_size=4), K.Dense(2)])
    out["model-input-shape"] = list(model.inputs[0].shape)
    return out


REF.add("shape-conv-data-formats-and-inputs", _shape_program)


def _dilated_program(tf: Any, mk: Any, name: str) -> Any:
    K = tf.keras.layers
    x2 = np.arange(1 * 7 * 7 * 2, dtype="float32").reshape(1, 7, 7, 2)
    x1 = np.arange(1 * 9 * 2, dtype="float32").reshape(1, 9, 2)
    make, x = {
        "depthwise2d": (lambda: K.DepthwiseConv2D(2, dilation_rate=2, depthwise_initializer="ones"), x2),
        "depthwise2d-multiplier": (lambda: K.DepthwiseConv2D(3, dilation_rate=(1, 2), depth_multiplier=2,
                                                             depthwise_initializer="ones"), x2),
        "depthwise1d": (lambda: K.DepthwiseConv1D(2, dilation_rate=3, depthwise_initializer="ones"), x1),
        "separable2d": (lambda: K.SeparableConv2D(1, 2, dilation_rate=2, depthwise_initializer="ones",
                                                  pointwise_initializer="ones"), x2),
        "separable1d": (lambda: K.SeparableConv1D(1, 2, dilation_rate=2, depthwise_initializer="ones",
                                                  pointwise_initializer="ones"), x1),
    }[name]
    out = make()(x)
    return {"shape": list(out.shape), "values": _bits(out)}


for _name in ("depthwise2d", "depthwise2d-multiplier", "depthwise1d", "separable2d", "separable1d"):
    REF.add(f"shape-dilated-{_name}", lambda tf, mk, n=_name: _dilated_program(tf, mk, n))


# -- 6. recurrent layers with one unit and one feature (every matmul a single product: the additions' order shows) --
def _rnn_program(tf: Any, mk: Any, name: str) -> Any:
    K = tf.keras.layers
    make = {
        "lstm": lambda: K.LSTM(1, return_sequences=True),
        "lstm-impl1": lambda: K.LSTM(1, return_sequences=True, implementation=1),
        "lstm-no-bias": lambda: K.LSTM(1, return_sequences=True, use_bias=False),
        "gru": lambda: K.GRU(1, return_sequences=True),
        "gru-before": lambda: K.GRU(1, return_sequences=True, reset_after=False),
        "simple-rnn": lambda: K.SimpleRNN(1, return_sequences=True),
    }[name]
    r = _rng("rnn-" + name)
    layer = make()
    x = r.rand(3, 8, 1).astype("float32")
    layer.build((3, 8, 1))
    layer.set_weights([(r.randn(*w.shape) * (3 if i == 2 else 1)).astype("float32")
                       for i, w in enumerate(layer.get_weights())])
    return _bits(layer(x))


for _name in ("lstm", "lstm-impl1", "lstm-no-bias", "gru", "gru-before", "simple-rnn"):
    REF.add(f"rnn-one-unit-{_name}", lambda tf, mk, n=_name: _rnn_program(tf, mk, n))


# -- 7. each weight's constraint and regularizer ------------------------------------------------------------------
def _weights_program(tf: Any, mk: Any, which: str) -> Any:
    K = tf.keras.layers
    reg = tf.keras.regularizers.L2(0.1)
    con = tf.keras.constraints.NonNeg()
    kw = {f"{which}_regularizer": reg, f"{which}_constraint": con, "bias_initializer": "ones"}
    kw["kernel_initializer"] = tf.keras.initializers.Constant(0.5)
    layers = {
        "dense": (lambda: K.Dense(2, **kw), (1, 3)),
        "conv1d": (lambda: K.Conv1D(2, 2, **kw), (1, 4, 3)),
        "conv2d": (lambda: K.Conv2D(2, 2, **kw), (1, 4, 4, 3)),
        "conv2d-transpose": (lambda: K.Conv2DTranspose(2, 2, **kw), (1, 3, 3, 1)),
        "conv1d-transpose": (lambda: K.Conv1DTranspose(2, 2, **kw), (1, 3, 1)),
        "conv3d-transpose": (lambda: K.Conv3DTranspose(2, 2, **kw), (1, 2, 2, 2, 1)),
        "einsum-dense": (lambda: K.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c", **kw), (1, 3)),
    }
    out = {}
    for name, (make, shape) in layers.items():
        layer = make()
        layer(np.ones(shape, "float32"))
        out[name] = {"constraints": [[w.name, type(w.constraint).__name__ if w.constraint is not None else None]
                                     for w in layer.weights],
                     "losses": [_bits(v)[0] for v in layer.losses]}
    return out


for _which in ("kernel", "bias"):
    REF.add(f"weights-{_which}-constraint-and-regularizer", lambda tf, mk, w=_which: _weights_program(tf, mk, w))


# -- 8. callbacks: monitors' auto mode, ModelCheckpoint's files, epoch indices ------------------------------------
def _model(tf: Any) -> tuple[Any, np.ndarray, np.ndarray]:
    tf.keras.utils.set_random_seed(64)
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse",
              metrics=["mae", tf.keras.metrics.BinaryAccuracy(name="acc"), tf.keras.metrics.AUC(name="auc")])
    x = np.arange(24, dtype="float32").reshape(8, 3) / 24
    y = (x.sum(1, keepdims=True) > 1.4).astype("float32")
    return m, x, y


def _op_name(op: Any) -> Any:
    return getattr(op, "__name__", None) if op is not None else None


def _monitor_program(tf: Any, mk: Any) -> Any:
    out = {}
    C = tf.keras.callbacks
    for monitor in ("val_loss", "loss", "val_mae", "mae", "val_acc", "acc", "val_auc", "auc"):
        m, x, y = _model(tf)
        cbs = [C.EarlyStopping(monitor=monitor, patience=10), C.ReduceLROnPlateau(monitor=monitor, patience=10),
               C.ModelCheckpoint(os.path.join(tempfile.mkdtemp(), "m.weights.h5"), monitor=monitor,
                                 save_best_only=True, save_weights_only=True)]
        res = _error(lambda: m.fit(x, y, validation_data=(x, y), epochs=2, verbose=0, callbacks=cbs) and "ok")
        out[monitor] = [res] + [_op_name(cb.monitor_op) for cb in cbs]
    return out


REF.add("callback-monitor-auto-mode", _monitor_program)


def _checkpoint_files_program(tf: Any, mk: Any) -> Any:
    out = {}
    for path, weights_only in (("m.keras", False), ("m.weights.h5", True), ("m-{epoch}.keras", False),
                               ("w-{epoch}.weights.h5", True), ("m.keras", True)):
        d = tempfile.mkdtemp()
        m, x, y = _model(tf)
        res = _error(lambda: m.fit(x, y, epochs=2, verbose=0, callbacks=[
            tf.keras.callbacks.ModelCheckpoint(os.path.join(d, path), save_weights_only=weights_only)]) and "ok")
        files = sorted(os.listdir(d))
        kinds = ["zip" if zipfile.is_zipfile(os.path.join(d, f)) else open(os.path.join(d, f), "rb").read(4).hex()
                 for f in files]
        out[f"{path}-{weights_only}"] = [res, files, kinds]
    return out


REF.add("callback-checkpoint-file-kinds", _checkpoint_files_program)


def _epoch_indices_program(tf: Any, mk: Any) -> Any:
    C = tf.keras.callbacks
    out = {}
    for initial in (0, 2):
        m, x, y = _model(tf)
        seen: list[Any] = []
        log = C.LambdaCallback(on_epoch_begin=lambda e, logs: seen.append(("begin", e)),
                               on_epoch_end=lambda e, logs: seen.append(("end", e)))
        d = tempfile.mkdtemp()
        ck = C.ModelCheckpoint(os.path.join(d, "e{epoch}.weights.h5"), save_weights_only=True)
        es = C.EarlyStopping(monitor="loss", patience=0, min_delta=100.0)
        hist = m.fit(x, y, epochs=initial + 4, initial_epoch=initial, verbose=0, callbacks=[log, ck, es])
        out[str(initial)] = {"seen": seen, "history-epoch": list(hist.epoch), "files": sorted(os.listdir(d)),
                             "stopped": es.stopped_epoch, "best": es.best_epoch, "wait": es.wait}
    m, x, y = _model(tf)
    es = C.EarlyStopping(monitor="val_loss", patience=1, restore_best_weights=True, min_delta=10.0)
    m.fit(x, y, validation_data=(x, y), epochs=5, verbose=0, callbacks=[es])
    out["restore"] = {"stopped": es.stopped_epoch, "best": es.best_epoch, "wait": es.wait}
    return out


REF.add("callback-epoch-indices-and-early-stopping", _epoch_indices_program)


def _backup_program(tf: Any, mk: Any) -> Any:
    C = tf.keras.callbacks
    out = {}
    for damage, double in (("weights", True), ("weights", False), ("none", True)):
        d = os.path.join(tempfile.mkdtemp(), "bk")
        m, x, y = _model(tf)

        class Stop(C.Callback):
            def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
                if epoch == 1:
                    raise RuntimeError("interrupted")
        try:
            m.fit(x, y, epochs=4, verbose=0, callbacks=[C.BackupAndRestore(d, double_checkpoint=double), Stop()])
        except RuntimeError:
            pass
        files = sorted(os.listdir(d))
        if damage == "weights":
            with open(os.path.join(d, "latest.weights.h5"), "wb") as f:
                f.write(b"damaged")
        res = _error(lambda: list(m.fit(x, y, epochs=4, verbose=0,
                                        callbacks=[C.BackupAndRestore(d, double_checkpoint=double)]).epoch))
        out[f"{damage}-{double}"] = [files, res]
    return out


REF.add("callback-backup-and-restore-fallback", _backup_program)


# -- 9. saving: load_weights mismatches, load_model's compile option ------------------------------------------------
def _load_weights_program(tf: Any, mk: Any) -> Any:
    K = tf.keras.layers
    d = tempfile.mkdtemp()

    def seq(*layers: Any) -> Any:
        return tf.keras.Sequential([tf.keras.Input((3,)), *layers])
    src = seq(K.Dense(2, name="a"), K.Dense(2, name="b"))
    src.set_weights([np.full(w.shape, i + 1.0, "float32") for i, w in enumerate(src.get_weights())])
    p = os.path.join(d, "w.weights.h5")
    src.save_weights(p)
    out = {}
    for name, dst in (("same", seq(K.Dense(2, name="a"), K.Dense(2, name="b"))),
                      ("fewer-variables", seq(K.Dense(2, name="a", use_bias=False), K.Dense(2, name="b"))),
                      ("more-variables", seq(K.Dense(2, name="a"), K.Dense(2, name="b"),
                                             K.BatchNormalization(name="c"))),
                      ("other-shape", seq(K.Dense(3, name="a"), K.Dense(2, name="b")))):
        # (which weights a failed load already overwrote is simdist's deliberate deviation, keras.saving.keras-file:
        # it checks every object before assigning any; the error class is the observation)
        dst.set_weights([np.zeros(w.shape, "float32") for w in dst.get_weights()])
        res = _error(lambda: dst.load_weights(p) or "loaded")
        skip = _error(lambda: dst.load_weights(p, skip_mismatch=True) or "loaded")
        out[name] = [res, skip, [_bits(w) for w in dst.get_weights()]]
    return out


REF.add("saving-load-weights-mismatches", _load_weights_program)


def _load_model_program(tf: Any, mk: Any) -> Any:
    m, x, y = _model(tf)
    m.fit(x, y, epochs=1, verbose=0)
    p = os.path.join(tempfile.mkdtemp(), "m.keras")
    m.save(p)
    out = {}
    for compile_ in (True, False):
        m2 = tf.keras.models.load_model(p, compile=compile_)
        out[str(compile_)] = {"optimizer": type(getattr(m2, "optimizer", None)).__name__,
                              "compiled": bool(getattr(m2, "compiled", False)),
                              "loss": _plain(getattr(m2, "loss", None)),
                              "evaluate": _error(lambda m2=m2: [_bits(np.float32(v))[0]
                                                                for v in m2.evaluate(x, y, verbose=0)]),
                              "predict": _bits(m2.predict(x, verbose=0))}
    return out


REF.add("saving-load-model-compile-option", _load_model_program)


# -- 10. metrics: thresholds hit exactly, float16 predictions, dtypes, stateless updates --------------------------
def _metric_program(tf: Any, mk: Any, name: str) -> Any:
    M = tf.keras.metrics
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1], "float32")
    on = np.array([0.25, 0.5, 0.75, 0.5, 1.0, 0.0, 0.25, 0.75], "float32")
    r = _rng("metric-" + name)
    rand = r.rand(8).astype("float32")
    make, yp = {
        "auc-roc-5": (lambda: M.AUC(num_thresholds=5), on),
        "auc-pr-5": (lambda: M.AUC(num_thresholds=5, curve="PR"), on),
        "auc-roc-5-majoring": (lambda: M.AUC(num_thresholds=5, summation_method="majoring"), on),
        "auc-pr-5-minoring": (lambda: M.AUC(num_thresholds=5, curve="PR", summation_method="minoring"), on),
        "auc-roc-201": (lambda: M.AUC(num_thresholds=201), on),
        "auc-roc-random": (lambda: M.AUC(), rand),
        "auc-pr-random": (lambda: M.AUC(curve="PR"), rand),
        "auc-pr-majoring-random": (lambda: M.AUC(curve="PR", summation_method="majoring"), rand),
        "auc-prgain-random": (lambda: M.AUC(curve="PR", summation_method="interpolation", num_thresholds=11), rand),
        "auc-given-thresholds": (lambda: M.AUC(thresholds=[0.25, 0.5, 0.75]), on),
        "true-positives": (lambda: M.TruePositives(thresholds=[0.0, 0.25, 0.5, 0.75, 1.0]), on),
        "false-positives": (lambda: M.FalsePositives(thresholds=[0.25, 0.5, 0.75]), on),
        "precision": (lambda: M.Precision(thresholds=[0.25, 0.5, 0.75]), on),
        "recall": (lambda: M.Recall(thresholds=[0.25, 0.5, 0.75]), on),
    }[name]
    m = make()
    m.update_state(y, yp)
    m.update_state(y[:5], rand[:5], sample_weight=np.array([1.0, 2.0, 0.5, 1.0, 3.0], "float32"))
    state = {v.name.split("/")[-1]: _bits(v) for v in m.variables}
    return {"result": _bits(m.result()), "state": state}


for _name in ("auc-roc-5", "auc-pr-5", "auc-roc-5-majoring", "auc-pr-5-minoring", "auc-roc-201", "auc-roc-random",
              "auc-pr-random", "auc-pr-majoring-random", "auc-prgain-random", "auc-given-thresholds", "true-positives",
              "false-positives", "precision", "recall"):
    REF.add(f"metric-{_name}", lambda tf, mk, n=_name: _metric_program(tf, mk, n))


def _binary_accuracy_program(tf: Any, mk: Any) -> Any:
    out = {}
    y = np.array([1.0, 0.0, 1.0, 0.0, 1.0], "float32")
    for threshold in (0.5, 0.7, 0.3, 0.9):
        for dtype in ("float16", "float32", "float64"):
            p = np.array([0.7002, 0.7, 0.9, 0.3001, 0.29998], dtype)
            m = tf.keras.metrics.BinaryAccuracy(threshold=threshold)
            m.update_state(y, p)
            out[f"{threshold}-{dtype}"] = [_bits(m.result())[0],
                                           _bits(tf.keras.metrics.binary_accuracy(y, p, threshold=threshold))]
    return out


REF.add("metric-binary-accuracy-thresholds-and-dtypes", _binary_accuracy_program)


def _dtype(x: Any) -> str:
    """A tensor's or a Keras variable's dtype name (Keras variables give a string)."""
    return str(getattr(x.dtype, "name", x.dtype))


def _metric_dtypes_program(tf: Any, mk: Any) -> Any:
    M = tf.keras.metrics
    out = {}
    v = np.array([0.1, 0.2, 1e-9, 1 / 3], "float64")
    for dtype in ("float64", "float32", "float16"):
        for cls in ("Sum", "Mean"):
            m = getattr(M, cls)(dtype=dtype)
            m.update_state(v)
            m.update_state(v * 7, sample_weight=np.array([1.0, 0.5, 2.0, 0.25]))
            out[f"{cls}-{dtype}"] = [_dtype(m.result()), _bits(m.result()), [_dtype(x) for x in m.variables]]
    y = np.array([[0.1, 0.25, 0.3, 0.77], [1.5, 0.2, 0.4, 0.9]], "float64")
    p = np.array([[0.3, 0.2, 0.35, 0.71], [1.1, 0.3, 0.5, 0.8]], "float64")
    for cls in ("PearsonCorrelation", "ConcordanceCorrelation"):
        for dtype in ("float64", "float32"):
            for inputs in ("float64", "float16", "int"):
                yi, pi = ((y * 10).astype("int32"), (p * 10).astype("int32")) if inputs == "int" else \
                    (y.astype(inputs), p.astype(inputs))
                m = getattr(M, cls)(dtype=dtype)
                out[f"{cls}-{dtype}-{inputs}"] = _error(lambda m=m, yi=yi, pi=pi: m.update_state(yi, pi) or
                                                        [_dtype(m.result()), _bits(m.result())])
    out["pearson-function"] = _bits(M.pearson_correlation(y, p))
    out["concordance-function"] = _bits(M.concordance_correlation(y, p))
    return out


REF.add("metric-dtypes-sum-mean-correlation", _metric_dtypes_program)


def _stateless_program(tf: Any, mk: Any) -> Any:
    M = tf.keras.metrics
    out = {}
    for name, make, args in (("mean", lambda: M.Mean(), (np.array([1.0, 2.0, 4.0], "float32"),)),
                             ("sum", lambda: M.Sum(), (np.array([1.0, 2.0, 4.5], "float32"),)),
                             ("mse", lambda: M.MeanSquaredError(), (np.array([[1.0], [2.0]], "float32"),
                                                                     np.array([[0.5], [3.0]], "float32"))),
                             ("auc", lambda: M.AUC(num_thresholds=3), (np.array([0.0, 1.0], "float32"),
                                                                        np.array([0.2, 0.9], "float32")))):
        m = make()
        start = [tf.constant(x.numpy()) for x in m.variables]
        new = m.stateless_update_state(start, *args)
        out[name] = {"new": [_bits(x) for x in new], "result": _bits(m.stateless_result(new)),
                     "variables-unchanged": [_bits(x) for x in m.variables]}
    return out


REF.add("metric-stateless-updates", _stateless_program)


# -- 11. attention without a key, ConvLSTM dilations, EinsumDense's activation ---------------------------------------
def _layers_program(tf: Any, mk: Any, name: str) -> Any:
    K = tf.keras.layers
    r = _rng("layer-" + name)
    if name.startswith("mha"):
        layer = K.MultiHeadAttention(2, 2)
        q = r.rand(1, 3, 4).astype("float32")
        v = r.rand(1, 5, 4).astype("float32")
        k = r.rand(1, 5, 4).astype("float32")
        layer(q, v, k)
        layer.set_weights([np.round(r.randn(*w.shape), 1).astype("float32") for w in layer.get_weights()])
        args = {"mha-no-key": (q, v), "mha-key": (q, v, k), "mha-self": (q, q)}[name]
        return [list(layer(*args).shape), np.round(layer(*args).numpy().astype("float64"), 4).tolist()]
    if name.startswith("conv-lstm"):
        dil = {"conv-lstm-dilated": 2, "conv-lstm": 1}[name]
        layer = K.ConvLSTM1D(2, 3, padding="same", dilation_rate=dil, return_sequences=True,
                             kernel_initializer=tf.keras.initializers.Constant(0.1),
                             recurrent_initializer=tf.keras.initializers.Constant(0.2))
        x = np.arange(2 * 3 * 7, dtype="float32").reshape(2, 3, 7, 1) / 10
        return np.round(layer(x).numpy().astype("float64"), 5).tolist()
    layer = {"einsum-relu": lambda: K.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="c", activation="relu",
                                                  bias_initializer=tf.keras.initializers.Constant(0.5)),
             "einsum-sigmoid-3d": lambda: K.EinsumDense("abc,cd->abd", output_shape=(None, 2), bias_axes="d",
                                                        activation="sigmoid",
                                                        bias_initializer=tf.keras.initializers.Constant(-1.0)),
             "dense-relu": lambda: K.Dense(3, activation="relu",
                                           bias_initializer=tf.keras.initializers.Constant(0.5))}[name]()
    x = np.round(r.randn(2, 3) if name != "einsum-sigmoid-3d" else r.randn(2, 2, 3), 1).astype("float32")
    layer(x)
    layer.set_weights([w if w.ndim == 1 else np.round(r.randn(*w.shape), 1).astype("float32")
                       for w in layer.get_weights()])
    return np.round(layer(x).numpy().astype("float64"), 5).tolist()


for _name in ("mha-no-key", "mha-key", "mha-self", "conv-lstm", "conv-lstm-dilated", "einsum-relu",
              "einsum-sigmoid-3d", "dense-relu"):
    REF.add(f"layer-{_name}", lambda tf, mk, n=_name: _layers_program(tf, mk, n))


# -- the tests -----------------------------------------------------------------------------------------------------
def _check(backend: Any, name: str) -> None:
    backend.tf.keras.backend.clear_session()
    REF.check(backend, name)


def _ids(prefix: str) -> list[str]:
    return REF.ids(prefix)


@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("name", _ids("opt-"))
def test_blind64_optimizer_updates_on_many_elements(backend: Any, name: str) -> None:
    """Ten optimizer configurations on a variable of 64 random values, four steps, float32 and float64, bit for bit: a
    formula reassociated (RMSprop's velocity as Adam's form), a bias correction's power one step ahead (Nadam) or a
    Python float taken through float32 before a float64 variable changes a last bit somewhere among 64 values."""
    _check(backend, name)


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("name", _ids("schedule-"))
def test_blind64_schedules_values_and_configs(backend: Any, name: str) -> None:
    """Eleven schedules at steps 0..24 (decay steps 3, 7, 11, 13: fractions that are not dyadic), their configs, the
    schedule rebuilt from its config and through an optimizer's serialize/deserialize, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.epsilon-clipping")
@pytest.mark.parametrize("name", _ids("loss-edge-"))
def test_blind64_crossentropies_at_probabilities_zero_and_one(backend: Any, name: str) -> None:
    """The probability crossentropies (categorical, sparse, binary, focal, KL, Poisson) with predictions exactly 0 and
    1: the clip to [epsilon, 1 - epsilon] on both sides shows (-log(1 - 1e-7) is 2^-23, not 0)."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.functions")
@pytest.mark.parametrize("name", _ids("loss-config-"))
def test_blind64_loss_configs_of_asymmetric_options(backend: Any, name: str) -> None:
    """Losses built with options that differ from each other (Tversky's alpha and beta, focal alpha and gamma, axes,
    ignore_class): the config, the value, and the value of the loss rebuilt from its config."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("name", _ids("half-"))
def test_blind64_layers_under_float16_policies(backend: Any, name: str) -> None:
    """Normalizations and average poolings on float16 inputs under mixed_float16 and float16 policies: the output
    dtype and bits (Keras computes their statistics and means in float32 and casts back)."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("name", _ids("shape-"))
def test_blind64_convolution_shapes_dilations_and_input_batch(backend: Any, name: str) -> None:
    """Convolution and pooling layers' output shapes in channels_last and channels_first (computed and symbolic),
    dilated depthwise and separable convolutions on data, and keras.Input's batch size."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("rnn-"))
def test_blind64_recurrent_layers_with_one_unit_bit_for_bit(backend: Any, name: str) -> None:
    """LSTM (both implementations, with and without bias), GRU (reset after and before) and SimpleRNN with one unit
    and one feature over 8 steps: every matmul is a single product, so the order of the additions (the bias before
    or after the recurrent term) is what the bits show."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("name", _ids("weights-"))
def test_blind64_each_weight_gets_its_own_constraint_and_regularizer(backend: Any, name: str) -> None:
    """Dense, convolutions, transposed convolutions and EinsumDense given only a kernel (or only a bias) constraint
    and regularizer: each weight's constraint and the layer's regularization losses."""
    _check(backend, name)


@pytest.mark.clause("keras.callback.option-coverage")
@pytest.mark.parametrize("name", _ids("callback-"))
def test_blind64_callbacks_monitors_files_and_epochs(backend: Any, name: str) -> None:
    """The monitors' auto mode for val_/train losses and metrics (EarlyStopping, ReduceLROnPlateau, ModelCheckpoint),
    ModelCheckpoint's file kinds for save_weights_only True/False, the epoch indices the callbacks see (with
    initial_epoch), EarlyStopping's stopped/best epoch and wait, BackupAndRestore's fallback to its previous backup."""
    _check(backend, name)


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("name", _ids("saving-"))
def test_blind64_load_weights_mismatches_and_load_model_compile(backend: Any, name: str) -> None:
    """load_weights into models with fewer or more variables or another shape (the error class, what changed,
    skip_mismatch), and load_model with compile True and False."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.auc")
@pytest.mark.parametrize("name", _ids("metric-"))
def test_blind64_metrics_at_thresholds_dtypes_and_stateless(backend: Any, name: str) -> None:
    """AUC (ROC, PR, summation methods, given thresholds) and the threshold metrics with predictions equal to a
    threshold, BinaryAccuracy's threshold against float16/32/64 predictions, Sum/Mean and the correlations in
    float16/32/64, and stateless_update_state's returned values."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.call")
@pytest.mark.parametrize("name", _ids("layer-"))
def test_blind64_attention_conv_lstm_and_einsum_options(backend: Any, name: str) -> None:
    """MultiHeadAttention without a key (the value is the key), ConvLSTM1D with and without dilation, EinsumDense's
    activation after its bias (and Dense's, for comparison)."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

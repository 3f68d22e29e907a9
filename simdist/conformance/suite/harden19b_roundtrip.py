"""What ``test_harden19_roundtrip.py`` observes of a model's state after each round trip, as plain
JSON values: run on the backend under test by the suite and on real TF 2.21 + Keras 3.15 by the
recorder (``python -m simdist.conformance.suite.harden19b_record``).

Each model carries non-default state: frozen layers (and a frozen model), non-default names, a
mixed_float16 layer, compile arguments away from their defaults (a loss and metrics per output,
loss_weights, weighted_metrics, steps_per_execution=3, run_eagerly, jit_compile=False, an
optimizer with non-default hyper-parameters and a learning-rate schedule), trained two steps so
that the optimizer's slots exist. Each round trip (clone_model three ways, .keras save/load, JSON,
config, .weights.h5, get/set_weights, tf.train.Checkpoint with the optimizer) is followed by a
record of every observable attribute and of the next fit step. Weights come from a seeded NumPy
generator. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from simdist.conformance.suite.harden16_configs import normalize
from simdist.conformance.suite.harden19b_callbacks import exact

MODELS = ("seq", "seq_frozen", "func2", "sub")
#: The round trips that build new variables from initializers (the weights are not carried):
#: their weights are set from a seeded generator before the observation.
FRESH_WEIGHTS = ("clone", "clone_function", "clone_input_tensors", "json", "config")
TRIPS = ("none", "clone", "clone_function", "clone_input_tensors", "keras_file", "json", "config", "weights_h5",
         "get_set_weights", "checkpoint")
ROUNDTRIP_CASES: dict[str, tuple[str, str]] = {f"{m}/{t}": (m, t) for m in MODELS for t in TRIPS}


def case_tables_hash() -> str:
    """The SHA-256 of the tables and of this module's model and trip code (a recording made from
    other programs is stale)."""
    import hashlib  # noqa: PLC0415
    import inspect  # noqa: PLC0415
    import sys  # noqa: PLC0415

    src = inspect.getsource(sys.modules[__name__])
    return hashlib.sha256((repr(sorted(ROUNDTRIP_CASES.items())) + src).encode()).hexdigest()


def _sub_class(keras: Any) -> Any:
    """A subclassed model with a config, registered under package "harden19b" (once per backend)."""
    name = "harden19b>H19Sub"
    found = keras.utils.get_registered_object(name)
    if found is not None:
        return found

    @keras.utils.register_keras_serializable(package="harden19b")
    class H19Sub(keras.Model):
        def __init__(self, units: int = 3, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.units = units
            self.d1 = keras.layers.Dense(units, name="d1", trainable=False)
            self.d2 = keras.layers.Dense(1, name="d2")

        def call(self, x: Any) -> Any:
            return self.d2(self.d1(x))

        def get_config(self) -> dict[str, Any]:
            return {**super().get_config(), "units": self.units}
    return H19Sub


def _data(kind: str) -> tuple[np.ndarray, Any]:
    rng = np.random.default_rng(5)
    x = rng.uniform(-1.0, 1.0, (8, 4)).astype(np.float32)
    if kind == "func2":
        return x, {"a": rng.uniform(-1.0, 1.0, (8, 2)).astype(np.float32),
                   "b": (rng.uniform(0.0, 1.0, (8, 1)) > 0.5).astype(np.float32)}
    return x, rng.uniform(-1.0, 1.0, (8, 1)).astype(np.float32)


def _seed_weights(model: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(-0.5, 0.5, np.shape(w)).astype(np.float32) for w in model.get_weights()])


def build(keras: Any, kind: str, compiled: bool = True) -> Any:
    """One model of `kind` with seeded weights, compiled with its non-default arguments."""
    if kind in ("seq", "seq_frozen"):
        model = keras.Sequential([keras.Input((4,), name="seq_in"),
                                  keras.layers.Dense(3, name="frozen_d", trainable=False),
                                  keras.layers.Dense(3, name="half", dtype="mixed_float16", activation="relu"),
                                  keras.layers.Dense(1, name="out")], name=f"{kind}_h19")
        if kind == "seq_frozen":
            model.trainable = False
    elif kind == "func2":
        inp = keras.Input((4,), name="inp")
        h = keras.layers.Dense(3, name="shared", trainable=False, activation="tanh")(inp)
        model = keras.Model(inp, {"a": keras.layers.Dense(2, name="a")(h),
                                  "b": keras.layers.Dense(1, name="b", activation="sigmoid")(h)}, name="two_h19")
    else:
        model = _sub_class(keras)(units=3, name="sub_h19")
        model(np.zeros((1, 4), np.float32))
    _seed_weights(model, 11)
    if not compiled:
        return model
    sch = keras.optimizers.schedules
    if kind == "seq":
        model.compile(optimizer=keras.optimizers.Adam(
            learning_rate=sch.ExponentialDecay(0.05, decay_steps=2, decay_rate=0.5, staircase=True),
            beta_1=0.8, beta_2=0.95, epsilon=1e-4, amsgrad=True),
            loss="mse", metrics=["mae"], weighted_metrics=["mse"], steps_per_execution=3, jit_compile=False)
    elif kind == "seq_frozen":
        model.compile(optimizer=keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True), loss="mae",
                      metrics=["mse"], run_eagerly=True)
    elif kind == "func2":
        model.compile(optimizer=keras.optimizers.RMSprop(
            learning_rate=sch.CosineDecay(0.01, decay_steps=10, alpha=0.1, warmup_target=0.02, warmup_steps=3),
            rho=0.8, momentum=0.3, centered=True),
            loss={"a": "mse", "b": "binary_crossentropy"}, loss_weights={"a": 0.5, "b": 2.0},
            metrics={"a": ["mae"], "b": ["accuracy"]}, steps_per_execution=3, run_eagerly=True, jit_compile=False)
    else:
        model.compile(optimizer=keras.optimizers.SGD(learning_rate=sch.PiecewiseConstantDecay([1, 3], [0.1, 0.05, 0.01]),
                                                     momentum=0.5), loss="mae", metrics=["mse"])
    return model


def _value(v: Any) -> Any:
    return exact(np.asarray(v).astype(np.float64))


def _loss_repr(loss: Any) -> Any:
    if loss is None or isinstance(loss, (str, int, float)):
        return loss
    if isinstance(loss, dict):
        return {str(k): _loss_repr(v) for k, v in sorted(loss.items())}
    if isinstance(loss, (list, tuple)):
        return [_loss_repr(v) for v in loss]
    return f"<{type(loss).__name__}>"


def observe_model(keras: Any, model: Any, kind: str) -> dict[str, Any]:
    """Every observable attribute of a model, its optimizer and its next fit step."""
    x, y = _data(kind)
    out: dict[str, Any] = {
        "class": type(model).__name__, "name": model.name, "trainable": bool(model.trainable),
        "layers": [[layer.name, type(layer).__name__, bool(layer.trainable), layer.dtype_policy.name]
                   for layer in model.layers],
        "n_trainable": len(model.trainable_weights), "n_non_trainable": len(model.non_trainable_weights),
        "weight_paths": [w.path for w in model.weights],
        "weights": [_value(w) for w in model.get_weights()],
        "compiled": bool(getattr(model, "compiled", False)),
    }
    if out["compiled"]:
        out["compile"] = {"loss": _loss_repr(getattr(model, "loss", None)),
                          "loss_weights": normalize(getattr(model, "loss_weights", None)),
                          "steps_per_execution": int(model.steps_per_execution),
                          "run_eagerly": bool(model.run_eagerly), "jit_compile": bool(model.jit_compile)}
    opt = getattr(model, "optimizer", None)
    if opt is not None:
        out["optimizer"] = {"class": type(opt).__name__, "config": normalize(opt.get_config()),
                            "iterations": int(np.asarray(opt.iterations)),
                            "variables": [[v.path, _value(v)] for v in opt.variables]}
    out["predict"] = _value(model.predict(x, batch_size=8, verbose=0)) if kind != "func2" else \
        {k: _value(v) for k, v in sorted(model.predict(x, batch_size=8, verbose=0).items())}
    try:
        hist = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
        out["next_fit"] = {"history": exact(hist.history), "metrics_names": list(model.metrics_names),
                           "iterations": int(np.asarray(model.optimizer.iterations)),
                           "weights": [_value(w) for w in model.get_weights()]}
    except Exception as e:  # noqa: BLE001 - the error's class is the observation
        out["next_fit"] = {"error": type(e).__name__}
    return out


def _rename(keras: Any) -> Any:
    def clone_function(layer: Any) -> Any:
        return layer.__class__.from_config({**layer.get_config(), "name": "c_" + layer.name})
    return clone_function


def round_trip(tf: Any, model: Any, kind: str, trip: str, tmp: str) -> Any:
    """`model` through one round trip: the model that comes back."""
    keras = tf.keras
    if trip == "none":
        return model
    if trip == "clone":
        return keras.models.clone_model(model)
    if trip == "clone_function":
        return keras.models.clone_model(model, clone_function=_rename(keras))
    if trip == "clone_input_tensors":
        return keras.models.clone_model(model, input_tensors=keras.Input((4,), name="new_in"))
    if trip == "keras_file":
        path = os.path.join(tmp, "m.keras")
        model.save(path)
        return keras.models.load_model(path)
    if trip == "json":
        return keras.models.model_from_json(model.to_json())
    if trip == "config":
        return type(model).from_config(model.get_config())
    if trip == "get_set_weights":
        fresh = build(keras, kind)
        fresh.set_weights(model.get_weights())
        return fresh
    if trip == "weights_h5":
        path = os.path.join(tmp, "m.weights.h5")
        model.save_weights(path)
        fresh = build(keras, kind)
        fresh.load_weights(path)
        return fresh
    if trip == "checkpoint":
        saved = tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(os.path.join(tmp, "ckpt"))
        fresh = build(keras, kind)
        fresh.optimizer.build(fresh.trainable_variables)
        tf.train.Checkpoint(model=fresh, optimizer=fresh.optimizer).restore(saved)
        return fresh
    raise ValueError(trip)


def observe_roundtrip(tf: Any, name: str, tmp: str) -> dict[str, Any]:
    """Build, train two steps, round-trip and observe; a trip TF refuses gives the error's class."""
    kind, trip = ROUNDTRIP_CASES[name]
    keras = tf.keras
    model = build(keras, kind)
    x, y = _data(kind)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    try:
        back = round_trip(tf, model, kind, trip, tmp)
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}
    out_built = bool(back.built)
    if trip in FRESH_WEIGHTS:
        if not back.built:   # (a subclassed model from its config: built by its first call)
            back(np.zeros((1, 4), np.float32))
        _seed_weights(back, 13)
    return {**observe_model(keras, back, kind), "built_after_trip": out_built}

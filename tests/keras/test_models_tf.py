"""Differential tests of Keras models: simdist vs TF 2.21 + Keras 3.15.1.

Each program builds a model (Sequential with an Input first or built on its first call,
functional with several inputs/outputs and a shared layer, a dict of inputs, a nested
Sequential, a subclassed model with a list of layers, a model made in a strategy's scope) after
`keras.backend.clear_session()`, sets its weights from seeded arrays, and records: the names,
paths and shapes of `weights` (that is, `get_weights()`'s order), trainable/non-trainable counts,
`summary()`'s text (COLUMNS=80), the outputs of `model(x)` and `model(x, training=...)`, the
gradients of sum(outputs * cotangent) with respect to `trainable_variables`, the HDF5 layout
of `save_weights`, or the error a misuse raises. Weight files cross over: TF 2.21's files load
into simdist's models and simdist's into TF's (a second TF worker reads them).

Tolerance as tests/keras/test_layers_core_tf.py (docs/spec.md, keras.layer.forward-and-gradients).
"""

from __future__ import annotations

import os
import sys
import zlib
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL_SCALE = 1e-5, 1e-6
WEIGHTS_DIR_ENV = "SIMDIST_TEST_WEIGHTS_DIR"


# --- models ------------------------------------------------------------------------------------------
def m_seq_input_first(keras: Any) -> Any:
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                             keras.layers.Dropout(0.1), keras.layers.Dense(2, name="out")])


def m_seq_deferred(keras: Any) -> Any:
    return keras.Sequential([keras.layers.Dense(3, activation="tanh"), keras.layers.Dense(2)])


def m_seq_build(keras: Any) -> Any:
    m = keras.Sequential(name="stack")
    m.add(keras.layers.Dense(4))
    m.add(keras.layers.ReLU())
    m.add(keras.layers.Dense(1))
    m.build((None, 5))
    return m


def m_seq_input_shape_kwarg(keras: Any) -> Any:
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (Keras warns: prefer an Input first)
        return keras.Sequential([keras.layers.Dense(4, input_shape=(3,)), keras.layers.Dense(1, activation="relu")])


def m_functional_multi(keras: Any) -> Any:
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    x = keras.layers.Concatenate()([a, b])
    shared = keras.layers.Dense(2)
    y = shared(x)
    z = keras.layers.Add()([y, shared(keras.layers.Dense(5, activation="relu")(x))])
    return keras.Model([a, b], [y, z])


def m_functional_chain(keras: Any) -> Any:
    x = keras.Input((6,))
    h = keras.layers.Dense(4, activation="relu", name="hidden")(x)
    h = keras.layers.Dropout(0.3)(h)
    return keras.Model(inputs=x, outputs=keras.layers.Dense(3, activation="softmax")(h), name="chain")


def m_functional_dict(keras: Any) -> Any:
    ids = keras.Input((4,), dtype="int32", name="ids")
    num = keras.Input((2,), name="num")
    e = keras.layers.Flatten()(keras.layers.Embedding(12, 3)(ids))
    h = keras.layers.Concatenate()([e, num])
    return keras.Model({"ids": ids, "num": num}, keras.layers.Dense(1)(h))


def m_nested(keras: Any) -> Any:
    inner = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Activation("gelu")],
                             name="inner")
    x = keras.Input((4,))
    return keras.Model(x, keras.layers.Dense(2)(inner(x)))


def m_reshape_net(keras: Any) -> Any:
    x = keras.Input((12,))
    h = keras.layers.Reshape((3, 4))(x)
    h = keras.layers.Dense(2)(h)
    h = keras.layers.Flatten()(h)
    return keras.Model(x, keras.layers.Softmax()(h))


def m_subclassed(keras: Any) -> Any:
    class Net(keras.Model):
        def __init__(self) -> None:
            super().__init__(name="net")
            self.d1 = keras.layers.Dense(4, activation="relu")
            self.blocks = [keras.layers.Dense(3), keras.layers.Dense(2)]
            self.drop = keras.layers.Dropout(0.5, seed=3)

        def call(self, x: Any, training: Any = None) -> Any:
            x = self.drop(self.d1(x), training=training)
            for b in self.blocks:
                x = b(x)
            return x
    return Net()


MODELS: dict[str, tuple[Callable[[Any], Any], tuple]] = {
    "seq_input_first": (m_seq_input_first, ((4, 3),)),
    "seq_deferred": (m_seq_deferred, ((2, 4),)),
    "seq_build": (m_seq_build, ((3, 5),)),
    "seq_input_shape_kwarg": (m_seq_input_shape_kwarg, ((2, 3),)),
    "functional_multi": (m_functional_multi, ((4, 3), (4, 2))),
    "functional_chain": (m_functional_chain, ((5, 6),)),
    "functional_dict": (m_functional_dict, ("dict",)),
    "nested": (m_nested, ((3, 4),)),
    "reshape_net": (m_reshape_net, ((2, 12),)),
    "subclassed": (m_subclassed, ((3, 5),)),
}


def _seed(name: str) -> int:
    return zlib.crc32(name.encode())


def _inputs(name: str, tf: Any) -> Any:
    rng = np.random.default_rng(_seed(name) + 7)
    spec = MODELS[name][1]
    if spec == ("dict",):
        return {"ids": tf.constant(rng.integers(0, 12, (3, 4)).astype("int32")),
                "num": tf.constant(rng.standard_normal((3, 2)).astype("float32"))}
    xs = [tf.constant(rng.standard_normal(s).astype("float32")) for s in spec]
    return xs if len(xs) > 1 else xs[0]


def _summary(model: Any) -> str:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        lines: list[str] = []
        model.summary(print_fn=lambda s, **kw: lines.append(s))
        return "".join(lines)
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def _arrays(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_arrays(v) for v in x]
    return np.asarray(x.numpy())


def _weights_info(model: Any) -> list[tuple]:
    return [(w.name, w.path, tuple(w.shape)) for w in model.weights]


def _h5_tree(path: str) -> list[tuple]:
    import h5py
    out: list[tuple] = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda n, o: out.append((n, {k: str(v) for k, v in o.attrs.items()},
                                              tuple(o.shape) if isinstance(o, h5py.Dataset) else None)))
    return out


def run_model(tf: Any, name: str, tmpdir: str) -> dict[str, Any]:
    """The program for one model, the same on both backends."""
    keras = tf.keras
    keras.backend.clear_session()
    build, _ = MODELS[name]
    model = build(keras)
    out: dict[str, Any] = {"summary_before": _summary(model), "built_before": bool(model.built)}
    x = _inputs(name, tf)
    y0 = model(x)
    rng = np.random.default_rng(_seed(name))
    model.set_weights([(rng.standard_normal(tuple(w.shape)) * 0.5).astype("float32") for w in model.weights])
    out["weights"] = _weights_info(model)
    out["layers"] = [(l.name, type(l).__name__) for l in model.layers]
    out["counts"] = (len(model.trainable_weights), len(model.non_trainable_weights), len(model.variables),
                     model.count_params())
    out["summary"] = _summary(model)
    out["y_shape"] = [tuple(t.shape) for t in (y0 if isinstance(y0, list) else [y0])]
    out["y"] = _arrays(model(x))
    out["y_training_false"] = _arrays(model(x, training=False))
    out["get_weights"] = [np.asarray(w) for w in model.get_weights()]
    cot_rng = np.random.default_rng(_seed(name) + 1)
    with tf.GradientTape() as tape:
        ys = model(x, training=False)
        ys = ys if isinstance(ys, list) else [ys]
        loss = tf.add_n([tf.reduce_sum(t * tf.constant(cot_rng.standard_normal(tuple(t.shape)).astype("float32")))
                         for t in ys])
    grads = tape.gradient(loss, model.trainable_variables)
    out["grads"] = [np.asarray(tf.convert_to_tensor(g).numpy()) for g in grads]
    path = os.path.join(tmpdir, f"{name}.weights.h5")
    model.save_weights(path)
    out["h5"] = _h5_tree(path)
    return out


def load_into(tf: Any, name: str, path: str) -> dict[str, Any]:
    """A fresh model of `name` loads the weights file at `path`; its outputs."""
    keras = tf.keras
    keras.backend.clear_session()
    model = MODELS[name][0](keras)
    x = _inputs(name, tf)
    model(x)
    model.load_weights(path)
    return {"y": _arrays(model(x, training=False)), "get_weights": [np.asarray(w) for w in model.get_weights()]}


# --- misuse ------------------------------------------------------------------------------------------
def e_functional_wrong_shape(tf: Any) -> Any:
    model = m_functional_chain(tf.keras)
    return model(np.ones((2, 5), np.float32))


def e_sequential_non_layer(tf: Any) -> Any:
    return tf.keras.Sequential([tf.keras.layers.Dense(2), "dense"])


def e_sequential_duplicate_names(tf: Any) -> Any:
    keras = tf.keras
    return keras.Sequential([keras.layers.Dense(2, name="d"), keras.layers.Dense(2, name="d")])


def e_set_weights_count(tf: Any) -> Any:
    model = m_seq_input_first(tf.keras)
    model.set_weights([np.ones((3, 4), np.float32)])


def e_set_weights_shape(tf: Any) -> Any:
    model = m_seq_input_first(tf.keras)
    w = model.get_weights()
    w[0] = np.ones((4, 4), np.float32)
    model.set_weights(w)


def e_save_bad_name(tf: Any) -> Any:
    m_seq_input_first(tf.keras).save_weights(os.path.join(os.environ.get(WEIGHTS_DIR_ENV, "."), "w.h5"))


def e_save_unbuilt(tf: Any) -> Any:
    m_seq_deferred(tf.keras).save_weights(os.path.join(os.environ.get(WEIGHTS_DIR_ENV, "."), "u.weights.h5"))


def e_model_non_keras_tensor(tf: Any) -> Any:
    keras = tf.keras
    return keras.Model(keras.Input((2,)), np.ones(3))


def e_get_layer_missing(tf: Any) -> Any:
    return m_seq_input_first(tf.keras).get_layer("nope")


def e_sequential_second_input(tf: Any) -> Any:
    keras = tf.keras
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    m.add(keras.Input((4,)))


def e_sequential_build_other_shape(tf: Any) -> Any:
    m = m_seq_input_first(tf.keras)
    m.build((None, 7))


def e_dense_after_build_in_model(tf: Any) -> Any:
    m = m_seq_input_first(tf.keras)
    return m(np.ones((2, 4), np.float32))


def e_add_weight_after_build(tf: Any) -> Any:
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    layer.add_weight(shape=(2,), name="late")


def e_graph_disconnected(tf: Any) -> Any:
    keras = tf.keras
    a, b = keras.Input((2,)), keras.Input((2,))
    y = keras.layers.Add()([a, b])
    return keras.Model(a, y)


ERRORS: dict[str, Callable[[Any], Any]] = {f.__name__[2:]: f for f in (
    e_functional_wrong_shape, e_sequential_non_layer, e_sequential_duplicate_names, e_set_weights_count,
    e_set_weights_shape, e_save_bad_name, e_save_unbuilt, e_model_non_keras_tensor, e_get_layer_missing,
    e_sequential_second_input, e_sequential_build_other_shape, e_dense_after_build_in_model,
    e_add_weight_after_build, e_graph_disconnected)}


def run_error(tf: Any, name: str) -> dict[str, Any]:
    tf.keras.backend.clear_session()
    try:
        ERRORS[name](tf)
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "message": str(e)}
    return {"error": None}


def run_strategy_capture(tf: Any) -> dict[str, Any]:
    """A model made in MirroredStrategy's scope keeps it; its variables are mirrored."""
    keras = tf.keras
    keras.backend.clear_session()
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = m_seq_input_first(keras)
    outside = m_seq_input_first(keras)
    return {"captured": model.distribute_strategy is strategy,
            "variable_types": sorted({type(w.value).__name__ for w in model.weights}),
            "outside_is_default": outside.distribute_strategy is tf.distribute.get_strategy(),
            "outside_types": sorted({type(w.value).__name__ for w in outside.weights})}


# --- the TF side ---------------------------------------------------------------------------------------
def _jobs() -> list[tuple]:
    return ([("model", n) for n in MODELS] + [("error", n) for n in ERRORS] + [("strategy", "capture")]
            + [("load", n) for n in MODELS])


JOBS = _jobs()
LOADS = [i for i, j in enumerate(JOBS) if j[0] == "load"]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tempfile
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    shared = os.environ.get(WEIGHTS_DIR_ENV) or tempfile.mkdtemp()
    out: dict[int, Any] = {}
    for i in indices:
        kind, name = JOBS[i]
        try:
            if kind == "model":
                tf_dir = os.path.join(shared, "tf")
                os.makedirs(tf_dir, exist_ok=True)
                out[i] = run_model(tf, name, tf_dir)
            elif kind == "error":
                out[i] = run_error(tf, name)
            elif kind == "strategy":
                out[i] = run_strategy_capture(tf)
            else:
                out[i] = load_into(tf, name, os.path.join(shared, "simdist", f"{name}.weights.h5"))
        except Exception as e:  # noqa: BLE001 - reported by the test
            out[i] = {"worker_error": f"{type(e).__name__}: {e}"}
    return out


@pytest.fixture(scope="module")
def shared_dir(tmp_path_factory: Any) -> str:
    return str(tmp_path_factory.mktemp("keras_weights"))


@pytest.fixture(scope="module")
def tf_results(shared_dir: str, sim_results: dict[str, Any]) -> dict[int, Any]:
    """Every TF job in one worker; simdist's weight files are written first (sim_results), so
    the worker also loads them."""
    os.environ[WEIGHTS_DIR_ENV] = shared_dir
    try:
        return tf_workers.spawn(__file__, list(range(len(JOBS))))
    finally:
        os.environ.pop(WEIGHTS_DIR_ENV, None)


def _close(got: np.ndarray, want: np.ndarray, where: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{where}: shape {got.shape} != TF's {want.shape}"
    atol = ATOL_SCALE * float(np.max(np.abs(want))) if want.size else 0.0
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=atol, err_msg=f"{where}: values differ from TF's")


def _close_list(got: list, want: list, where: str) -> None:
    assert len(got) == len(want), f"{where}: {len(got)} arrays vs TF's {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        if isinstance(w, list):
            _close_list(g, w, f"{where}[{k}]")
        else:
            _close(g, w, f"{where}[{k}]")


def _no_worker_error(want: dict, what: str) -> None:
    assert "worker_error" not in want, f"{what}: the TF program failed: {want.get('worker_error')}"


@pytest.fixture(scope="module")
def sim_results(shared_dir: str) -> dict[str, Any]:
    from simdist import tf
    import simdist
    out = {}
    sim_dir = os.path.join(shared_dir, "simdist")
    os.makedirs(sim_dir, exist_ok=True)
    for name in MODELS:
        simdist.reset()
        out[name] = run_model(tf, name, sim_dir)
    return out


@pytest.mark.clause("keras.model.weights-order")
@pytest.mark.parametrize("name", list(MODELS))
def test_model_structure_matches_tf(name: str, tf_results: dict[int, Any], sim_results: dict[str, Any]) -> None:
    want, got = tf_results[JOBS.index(("model", name))], sim_results[name]
    _no_worker_error(want, name)
    for key in ("built_before", "weights", "layers", "counts", "y_shape"):
        assert got[key] == want[key], f"{name}: {key} = {got[key]!r}, TF 2.21 gives {want[key]!r}"


@pytest.mark.clause("keras.model.summary")
@pytest.mark.parametrize("name", list(MODELS))
def test_model_summary_matches_tf(name: str, tf_results: dict[int, Any], sim_results: dict[str, Any]) -> None:
    want, got = tf_results[JOBS.index(("model", name))], sim_results[name]
    _no_worker_error(want, name)
    assert got["summary_before"] == want["summary_before"], \
        f"{name}: summary before the first call:\n{got['summary_before']}\nTF 2.21:\n{want['summary_before']}"
    assert got["summary"] == want["summary"], f"{name}: summary:\n{got['summary']}\nTF 2.21:\n{want['summary']}"


@pytest.mark.clause("keras.model.call")
@pytest.mark.parametrize("name", list(MODELS))
def test_model_outputs_and_gradients_match_tf(name: str, tf_results: dict[int, Any],
                                              sim_results: dict[str, Any]) -> None:
    want, got = tf_results[JOBS.index(("model", name))], sim_results[name]
    _no_worker_error(want, name)
    _close_list(got["get_weights"], want["get_weights"], f"{name} get_weights")
    _close_list(got["y"] if isinstance(got["y"], list) else [got["y"]],
                want["y"] if isinstance(want["y"], list) else [want["y"]], f"{name} model(x)")
    _close_list(got["y_training_false"] if isinstance(got["y_training_false"], list) else [got["y_training_false"]],
                want["y_training_false"] if isinstance(want["y_training_false"], list)
                else [want["y_training_false"]], f"{name} model(x, training=False)")
    _close_list(got["grads"], want["grads"], f"{name} gradients")


@pytest.mark.clause("keras.model.save-weights")
@pytest.mark.parametrize("name", list(MODELS))
def test_weights_file_layout_matches_tf(name: str, tf_results: dict[int, Any], sim_results: dict[str, Any]) -> None:
    want, got = tf_results[JOBS.index(("model", name))], sim_results[name]
    _no_worker_error(want, name)
    assert got["h5"] == want["h5"], f"{name}: the .weights.h5 layout {got['h5']} differs from TF 2.21's {want['h5']}"


@pytest.mark.clause("keras.model.save-weights")
@pytest.mark.parametrize("name", list(MODELS))
def test_tf_weight_files_load_into_simdist(name: str, shared_dir: str, tf_results: dict[int, Any],
                                           sim_results: dict[str, Any]) -> None:
    from simdist import tf
    import simdist
    want = tf_results[JOBS.index(("model", name))]
    _no_worker_error(want, name)
    simdist.reset()
    got = load_into(tf, name, os.path.join(shared_dir, "tf", f"{name}.weights.h5"))
    _close_list(got["get_weights"], want["get_weights"], f"{name}: weights loaded from TF's file")
    _close_list(got["y"] if isinstance(got["y"], list) else [got["y"]],
                want["y_training_false"] if isinstance(want["y_training_false"], list)
                else [want["y_training_false"]], f"{name}: outputs after loading TF's file")


@pytest.mark.clause("keras.model.save-weights")
def test_simdist_weight_files_load_into_tf(tf_results: dict[int, Any], sim_results: dict[str, Any]) -> None:
    loaded = tf_results
    for i in LOADS:
        name = JOBS[i][1]
        _no_worker_error(loaded[i], f"TF loading simdist's {name}")
        _close_list(loaded[i]["get_weights"], sim_results[name]["get_weights"], f"{name}: TF loaded simdist's file")
        y = sim_results[name]["y_training_false"]
        _close_list(loaded[i]["y"] if isinstance(loaded[i]["y"], list) else [loaded[i]["y"]],
                    y if isinstance(y, list) else [y], f"{name}: TF's outputs after loading simdist's file")


@pytest.mark.clause("keras.model.errors")
@pytest.mark.parametrize("name", list(ERRORS))
def test_misuse_raises_as_tf(name: str, shared_dir: str, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    want = tf_results[JOBS.index(("error", name))]
    _no_worker_error(want, name)
    os.environ[WEIGHTS_DIR_ENV] = shared_dir
    try:
        got = run_error(tf, name)
    finally:
        os.environ.pop(WEIGHTS_DIR_ENV, None)
    assert want["error"] is not None, f"{name}: TF 2.21 did not raise"
    assert (got["error"], got.get("message")) == (want["error"], want["message"]), \
        f"{name}: simdist raised {got['error']}: {got.get('message')!r}\nTF 2.21 raised {want['error']}: " \
        f"{want['message']!r}"


@pytest.mark.clause("keras.model.strategy-capture")
def test_model_made_in_scope_keeps_strategy(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    import simdist
    want = tf_results[JOBS.index(("strategy", "capture"))]
    _no_worker_error(want, "strategy capture")
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    got = run_strategy_capture(tf)
    assert got == want, f"simdist: {got}, TF 2.21: {want}"


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)

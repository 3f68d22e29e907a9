"""Differential tests of keras.regularizers, layer/model `losses`, tf.keras.losses.Reduction and
the 1-D global pooling layers: simdist vs TF 2.21 + Keras 3.15.1.

Each case is a small program `prog(tf) -> result` run on both backends (TF in one subprocess for
the module, tf_workers.spawn). A result is a nested structure of arrays, numbers and strings;
an exception inside a program is part of its result as (class name, message). Compared: floats
within rtol 1e-5 (absolute floor 1e-6 of the array's largest magnitude: the same float32 ops,
summed in another order), everything else exactly (dtypes, shapes, names, configs, messages).
Clauses keras.reg.*, keras.loss.reduction-legacy, keras.layer.global-pooling-1d.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import compare_with_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL_SCALE = 1e-5, 1e-6


def _arr(x: Any) -> Any:
    """A tensor / variable / number as a NumPy array (with its dtype), for comparison."""
    if hasattr(x, "numpy"):
        return np.asarray(x.numpy())
    return np.asarray(x)


def _err(fn: Callable[[], Any]) -> Any:
    """fn()'s value, or (exception class name, message) if it raises (a set printed in the message,
    whose order is the process's string hashing, as a sorted list)."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return ("raised", type(e).__name__, _norm_message(str(e)))


def _norm_message(msg: str) -> str:
    """A message less what is not the behaviour: a printed set's order (string hashing), object
    addresses and module paths in reprs, TF's `{{function_node ...}}` prefix and ` name: ...`
    suffix of kernel errors (docs/spec.md records that simdist omits them)."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", msg)
    msg = re.sub(r"\{([^{}]*)\}", lambda m: str(sorted(m.group(1).split(", "))), msg)
    msg = re.sub(r"<[\w.]+\.(\w+) object at 0x[0-9a-f]+>", r"<\1 object>", msg)
    return re.sub(r"(\[Op:\w+\]) name: .*$", r"\1", msg, flags=re.S)


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# -- regularizer objects ---------------------------------------------------------------------------

def prog_values(tf: Any) -> Any:
    """Each regularizer on float32 and float64 tensors and on a Keras variable: value and dtype."""
    R = tf.keras.regularizers
    x32 = (_rng(1).standard_normal((4, 3)) * 2).astype(np.float32)
    out = {}
    regs = {"l1": R.L1(0.3), "l2": R.L2(0.1), "l1l2": R.L1L2(l1=0.01, l2=0.02), "l1l2_l1only": R.L1L2(l1=0.5),
            "l1l2_zero": R.L1L2(), "l1l2_none": R.L1L2(l1=None, l2=0.25), "l1_default": R.L1(), "l2_default": R.L2(),
            "l1_int": R.L1(1), "orth_rows": R.OrthogonalRegularizer(0.2),
            "orth_cols": R.OrthogonalRegularizer(factor=0.5, mode="columns"), "base": R.Regularizer(),
            "alias_l1": R.l1(0.2), "alias_l2": R.l2(0.2), "alias_l1_l2": R.l1_l2(l1=0.1, l2=0.1)}
    for name, r in regs.items():
        for dt in ("float32", "float64"):
            def run(r: Any = r, dt: str = dt) -> Any:
                v = r(tf.constant(x32.astype(dt)))
                return _arr(v), (tf.as_dtype(v.dtype).name if hasattr(v, "dtype") else type(v).__name__)
            out[f"{name}/{dt}"] = _err(run)
    var = tf.keras.Variable(x32, name="w")
    out["l2_on_variable"] = _arr(R.L2(0.05)(var))
    out["l1l2_on_variable"] = _arr(R.L1L2(0.05, 0.01)(var))
    out["orth_rank3"] = _err(lambda: R.OrthogonalRegularizer()(tf.ones((2, 2, 2))))
    return out


def prog_get_serialize(tf: Any) -> Any:
    """regularizers.get / serialize / deserialize / get_config / from_config, and argument checks."""
    R = tf.keras.regularizers
    out = {}
    for ident in ("l1", "l2", "l1l2", "l1_l2", "L1", "L2", "L1L2", "orthogonal_regularizer", "OrthogonalRegularizer",
                  "regularizer"):
        r = _err(lambda: R.get(ident))
        out[f"get {ident}"] = r if isinstance(r, tuple) else (type(r).__name__, _err(r.get_config))
    out["get None"] = R.get(None) is None
    out["get bad"] = _err(lambda: R.get("nope"))
    out["get number"] = _err(lambda: R.get(3))

    def fn(x: Any) -> Any:
        return tf.reduce_sum(x)
    out["get callable is itself"] = R.get(fn) is fn
    out["get class"] = type(R.get(R.L2)).__name__
    for r in (R.L1(0.25), R.L2(0.5), R.L1L2(0.1, 0.2), R.OrthogonalRegularizer(0.1, "columns")):
        s = R.serialize(r)
        back = R.deserialize(s)
        out[f"serialize {type(r).__name__}"] = (s, type(back).__name__, back.get_config(),
                                                type(r).from_config(r.get_config()).get_config())
    out["get dict"] = R.get({"class_name": "L2", "config": {"l2": 0.125}}).get_config()
    out["l1 attribute"] = (type(R.L1(0.5).l1).__name__ != "float", float(R.L1(0.5).l1))
    out["l2 attribute"] = type(R.L2(0.5).l2).__name__
    for bad in (-1.0, float("nan"), float("inf"), "0.1", np.float32(0.1)):
        out[f"L2({bad!r})"] = _err(lambda: R.L2(bad))
        out[f"L1L2(l1={bad!r})"] = _err(lambda: R.L1L2(l1=bad))
    out["orth mode"] = _err(lambda: R.OrthogonalRegularizer(mode="diag"))
    out["base get_config"] = _err(lambda: R.Regularizer().get_config())[:2]
    out["keras.Regularizer"] = tf.keras.Regularizer is R.Regularizer
    return out


# -- layers and models -----------------------------------------------------------------------------

def _set(layer: Any, seed: int) -> None:
    rng = _rng(seed)
    layer.set_weights([(rng.standard_normal(tuple(w.shape)) * 0.5).astype(np.float32) for w in layer.weights])


def _grads(tf: Any, layer: Any, x: Any) -> Any:
    """y, losses, and the gradient of sum(y) + sum(losses) w.r.t. each trainable weight."""
    with tf.GradientTape() as tape:
        y = layer(x)
        losses = layer.losses
        total = tf.reduce_sum(y) + (tf.add_n(losses) if losses else 0.0)
    grads = tape.gradient(total, layer.trainable_weights)
    return {"y": _arr(y), "losses": [_arr(v) for v in losses], "n_losses": len(losses),
            "grads": [None if g is None else _arr(tf.convert_to_tensor(g)) for g in grads]}


def prog_dense(tf: Any) -> Any:
    R = tf.keras.regularizers
    tf.keras.backend.clear_session()
    layer = tf.keras.layers.Dense(3, activation="relu", kernel_regularizer=R.L2(0.1), bias_regularizer="l1",
                                  activity_regularizer=R.L1L2(0.01, 0.02))
    x = tf.constant((_rng(2).standard_normal((5, 4))).astype(np.float32))
    before = len(layer.losses)
    layer.build((None, 4))
    _set(layer, 3)
    out = {"before build": before, "after build": [_arr(v) for v in layer.losses]}
    out["first call"] = _grads(tf, layer, x)
    out["second call"] = _grads(tf, layer, x[:2])     # activity loss replaced, not accumulated
    out["config"] = {k: v for k, v in layer.get_config().items() if "regularizer" in k}
    clone = tf.keras.layers.Dense.from_config(layer.get_config())
    out["clone regularizers"] = [type(clone.kernel_regularizer).__name__, type(clone.bias_regularizer).__name__,
                                 type(clone.activity_regularizer).__name__]
    out["kernel.regularizer"] = type(layer.kernel.regularizer).__name__
    return out


def prog_conv_embedding(tf: Any) -> Any:
    R = tf.keras.regularizers
    tf.keras.backend.clear_session()
    conv = tf.keras.layers.Conv2D(2, 3, kernel_regularizer=R.L1(0.01), bias_regularizer=R.L2(0.5),
                                  activity_regularizer="l2")
    x = tf.constant(_rng(4).standard_normal((2, 5, 5, 1)).astype(np.float32))
    conv.build((None, 5, 5, 1))
    _set(conv, 5)
    emb = tf.keras.layers.Embedding(6, 3, embeddings_regularizer=R.L2(0.3), activity_regularizer=R.L1(0.1))
    emb.build()
    _set(emb, 6)
    ids = tf.constant([[1, 2, 5], [0, 0, 3]])
    return {"conv": _grads(tf, conv, x), "emb": _grads(tf, emb, ids),
            "conv config": {k: v for k, v in conv.get_config().items() if "regularizer" in k},
            "emb config": {k: v for k, v in emb.get_config().items() if "regularizer" in k}}


def prog_sequential(tf: Any) -> Any:
    """model.losses: sub-layers' activity losses of the last call, then every weight penalty."""
    R = tf.keras.regularizers
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([
        tf.keras.Input((4,)),
        tf.keras.layers.Dense(5, activation="tanh", kernel_regularizer=R.L2(1e-2), activity_regularizer=R.L1(1e-3)),
        tf.keras.layers.Dense(2, kernel_regularizer=R.L1L2(1e-3, 1e-2), bias_regularizer=R.L2(0.1)),
    ])
    rng = _rng(7)
    model.set_weights([(rng.standard_normal(w.shape) * 0.5).astype(np.float32) for w in model.get_weights()])
    out = {"before call": [_arr(v) for v in model.losses]}
    x = tf.constant(rng.standard_normal((3, 4)).astype(np.float32))
    out["call"] = _grads(tf, model, x)
    model(x)
    out["after two calls"] = [_arr(v) for v in model.losses]
    out["layer 0 losses"] = [_arr(v) for v in model.layers[0].losses]
    out["paths"] = [w.path for w in model.weights]
    return out


def prog_functional_add_loss(tf: Any) -> Any:
    """A functional model with a layer that adds its own loss: order add_loss, activity, weights."""
    R = tf.keras.regularizers
    tf.keras.backend.clear_session()

    class Penalty(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_mean(tf.square(x)) * 0.5)
            return x * 2.0

    inp = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(4, kernel_regularizer=R.L2(0.05), activity_regularizer=R.L2(0.01))(inp)
    out = tf.keras.layers.Dense(1, bias_regularizer=R.L1(0.2))(Penalty()(h))
    model = tf.keras.Model(inp, out)
    rng = _rng(8)
    model.set_weights([(rng.standard_normal(w.shape) * 0.5).astype(np.float32) for w in model.get_weights()])
    x = tf.constant(rng.standard_normal((4, 3)).astype(np.float32))
    return {"call": _grads(tf, model, x), "n": len(model.losses)}


def prog_mirrored(tf: Any) -> Any:
    """The custom-training tutorial's loss under MirroredStrategy (2 replicas): per-example loss
    with Reduction.NONE, compute_average_loss + scale_regularization_loss(add_n(model.losses))."""
    R = tf.keras.regularizers
    tf.keras.backend.clear_session()
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)),
                                     tf.keras.layers.Dense(3, kernel_regularizer=R.L2(0.1),
                                                           activity_regularizer=R.L1(0.01))])
        rng = _rng(9)
        model.set_weights([(rng.standard_normal(w.shape) * 0.5).astype(np.float32) for w in model.get_weights()])
        loss_obj = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                 reduction=tf.keras.losses.Reduction.NONE)
    x = rng.standard_normal((8, 4)).astype(np.float32)
    y = rng.integers(0, 3, 8)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    dist = strategy.experimental_distribute_dataset(ds)

    def step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_obj(yb, pred))
            loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
        g = tape.gradient(loss, model.trainable_variables)
        return loss, g[0]

    for batch in dist:
        losses, grads = strategy.run(step, args=(batch,))
    return {"losses": [_arr(v) for v in strategy.experimental_local_results(losses)],
            "grads": [_arr(v) for v in strategy.experimental_local_results(grads)]}


# -- Reduction and 1-D global pooling ---------------------------------------------------------------

def prog_reduction(tf: Any) -> Any:
    Red = tf.keras.losses.Reduction
    out = {"names": (Red.AUTO, Red.NONE, Red.SUM, Red.SUM_OVER_BATCH_SIZE), "all": Red.all(),
           "validate ok": _err(lambda: Red.validate("sum")), "validate bad": _err(lambda: Red.validate("mean")),
           "keras has it": hasattr(tf.keras.losses, "Reduction")}
    y, p = np.array([0, 2, 1]), np.array([[2.0, 0.5, 0.1], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0]], np.float32)
    for name in ("NONE", "SUM", "SUM_OVER_BATCH_SIZE"):
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=getattr(Red, name))
        out[name] = _arr(loss(y, p))
    out["AUTO"] = _err(lambda: tf.keras.losses.SparseCategoricalCrossentropy(reduction=Red.AUTO))
    return out


def prog_global_pool_1d(tf: Any) -> Any:
    L = tf.keras.layers
    rng = _rng(10)
    x = tf.constant(rng.standard_normal((2, 5, 3)).astype(np.float32))
    mask = tf.constant([[True, True, False, True, False], [False, True, True, True, True]])
    out = {}
    for name, layer, kw in [("avg", L.GlobalAveragePooling1D(), {}),
                            ("avg keepdims", L.GlobalAveragePooling1D(keepdims=True), {}),
                            ("avg channels_first", L.GlobalAveragePooling1D(data_format="channels_first"), {}),
                            ("avg mask", L.GlobalAveragePooling1D(), {"mask": mask}),
                            ("max", L.GlobalMaxPooling1D(), {}),
                            ("max keepdims channels_first",
                             L.GlobalMaxPooling1D(data_format="channels_first", keepdims=True), {}),
                            ("alias avg", L.GlobalAvgPool1D(), {}), ("alias max", L.GlobalMaxPool1D(), {})]:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x, **kw)
            s = tf.reduce_sum(y * y)
        g = tape.gradient(s, x)
        out[name] = (_arr(y), y.dtype.name, _arr(g), layer.compute_output_shape((2, 5, 3)))
    out["int input"] = (lambda y: (_arr(y), y.dtype.name))(L.GlobalAveragePooling1D()(tf.constant([[[1], [2]]])))
    sym = L.GlobalAveragePooling1D()(tf.keras.Input((7, 4)))
    out["symbolic"] = tuple(sym.shape)
    out["rank 4"] = _err(lambda: L.GlobalAveragePooling1D()(tf.ones((1, 2, 3, 4))))[:2]
    out["config"] = {k: v for k, v in L.GlobalAveragePooling1D(keepdims=True).get_config().items() if k != "name"}
    out["supports_masking"] = (L.GlobalAveragePooling1D().supports_masking, L.GlobalMaxPooling1D().supports_masking)
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "values": prog_values, "get_serialize": prog_get_serialize, "dense": prog_dense,
    "conv_embedding": prog_conv_embedding, "sequential": prog_sequential,
    "functional_add_loss": prog_functional_add_loss, "mirrored": prog_mirrored, "reduction": prog_reduction,
    "global_pool_1d": prog_global_pool_1d,
}
NAMES = list(PROGRAMS)
clause = pytest.mark.clause


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    tf.config.set_logical_device_configuration(tf.config.list_physical_devices("CPU")[0],
                                               [tf.config.LogicalDeviceConfiguration()] * 2)
    out = {}
    for i in indices:
        try:
            out[i] = PROGRAMS[NAMES[i]](tf)
        except Exception as e:  # noqa: BLE001 - reported by the test
            out[i] = {"worker_error": f"{type(e).__name__}: {e}"}
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(NAMES))))


def _compare(got: Any, want: Any, where: str) -> None:
    compare_with_tf(got, want, where, rtol=RTOL, atol_scale=ATOL_SCALE / RTOL)


def test_every_program_is_a_case() -> None:
    (mark,) = [m for m in test_matches_tf.pytestmark if m.name == "parametrize"]
    assert [p.values[0] for p in mark.args[1]] == NAMES


@pytest.mark.parametrize("name", [
    pytest.param("values", marks=clause("keras.reg.penalties")),
    pytest.param("get_serialize", marks=clause("keras.reg.get")),
    pytest.param("dense", marks=clause("keras.reg.layer-losses")),
    pytest.param("conv_embedding", marks=clause("keras.reg.layer-losses")),
    pytest.param("sequential", marks=clause("keras.reg.layer-losses")),
    pytest.param("functional_add_loss", marks=clause("keras.reg.layer-losses")),
    pytest.param("mirrored", marks=clause("keras.reg.layer-losses")),
    pytest.param("reduction", marks=clause("keras.loss.reduction-legacy")),
    pytest.param("global_pool_1d", marks=clause("keras.layer.global-pooling-1d")),
])
def test_matches_tf(name: str, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    import simdist
    want = tf_results[NAMES.index(name)]
    assert not (isinstance(want, dict) and "worker_error" in want), f"{name}: the TF program failed: {want}"
    simdist.reset()
    simdist.configure(cpus=2)
    try:
        got = PROGRAMS[name](tf)
    finally:
        simdist.reset()
    _compare(got, want, name)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)

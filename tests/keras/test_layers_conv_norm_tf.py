"""Differential tests of Conv2D, the pooling layers, LayerNormalization and BatchNormalization:
simdist vs TF 2.21 + Keras 3.15.1 (clauses keras.layer.* in docs/spec.md).

Each case is one program, the same on both backends (`run_case(tf, case)`): it builds a layer,
sets its weights from arrays drawn from the case's seed (`set_weights`), calls it eagerly (or
inside `strategy.run` of a Mirrored / CentralStorage strategy), and records the output, the
gradients of sum(output * r) (r drawn from the seed) with respect to the input and every
trainable weight, and the weights after the call (BatchNormalization's moving statistics), or
the error's class and message (and Keras's call wrapper). Distributed programs train
BatchNormalization (and a small CNN in a Sequential) with a custom loop under Mirrored (2 and 4
replicas), CentralStorage and OneDevice strategies. TF runs in subprocesses for the fixed case
list (tf_workers.spawn): one for the 4-replica cases, one for the rest.

Tolerance (docs/spec.md, "Keras: convolution and normalization layers"): float32 values and
gradients agree to rtol 1e-5 with an absolute floor of 1e-5 times the array's largest
magnitude (the same float32 formulas; sums over windows and batches round differently in NumPy
and Eigen/oneDNN by a few ulps, and a normalization's input gradient is a difference of such
sums).
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL_SCALE = 1e-5, 1e-5


@dataclass(frozen=True)
class Case:
    name: str
    clause: str
    layer: str = ""                      # the keras.layers class name
    kwargs: tuple = ()                   # its constructor arguments
    shape: tuple = (2, 6, 5, 3)          # the input's shape
    call: tuple = ()                     # call keyword arguments (training=...)
    program: str = "layer"               # layer | symbolic | mask | construct | twice | distributed
    strategy: str = ""                   # distributed: mirrored2 | mirrored4 | central2 | one_device1
    steps: int = 3                       # distributed: training steps
    other_shape: tuple = ()              # twice: the second call's input shape; mask: the mask's shape
    seed: int = -1                       # -1: derived from the name
    rtol: float = 1e-5                   # (float16 results: one half-precision ulp is ~1e-3)
    tags: tuple = field(default=(), compare=False)


def _seed(case: Case) -> int:
    return case.seed if case.seed >= 0 else zlib.crc32(case.name.encode())


def _weights_for(layer: Any, rng: np.random.Generator) -> list[np.ndarray]:
    """Arrays for every weight of a built layer, by shape and name (variances positive)."""
    out = []
    for w in layer.weights:
        shape = tuple(int(d) for d in w.shape)
        a = rng.standard_normal(shape)
        if "variance" in w.name or "stddev" in w.name:
            a = np.abs(a) + 0.5
        out.append(a.astype("float32"))
    return out


def _input(case: Case, rng: np.random.Generator) -> np.ndarray:
    """The input: per-channel scale and shift, so normalizations have something to remove."""
    x = rng.standard_normal(case.shape)
    return (x * (1.0 + np.arange(case.shape[-1])) + np.arange(case.shape[-1]) * 0.5).astype("float32")


def _arr(t: Any) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def _forward_backward(tf: Any, layer: Any, x: Any, rng: np.random.Generator, call: dict) -> dict[str, Any]:
    """The output and the gradients of sum(y * r), r drawn for y's shape, w.r.t. x and the
    trainable weights."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, **call)
        r = tf.constant(rng.standard_normal(tuple(y.shape)).astype("float32"))
        loss = tf.reduce_sum(y * tf.cast(r, y.dtype))
    grads = tape.gradient(loss, [x] + list(layer.trainable_weights))
    return {"y": _arr(y), "dtype": y.dtype.name,
            "grads": [None if g is None else _arr(tf.convert_to_tensor(g)) for g in grads]}


def _layer(tf: Any, case: Case) -> Any:
    return getattr(tf.keras.layers, case.layer)(**dict(case.kwargs))


def run_case(tf: Any, case: Case) -> Any:
    """The program, the same on both backends: a dict of results, or ("error", class, message)."""
    tf.keras.backend.clear_session()
    rng = np.random.default_rng(_seed(case))
    try:
        if case.program == "construct":
            _layer(tf, case)
            return {"constructed": True}
        if case.program == "distributed":
            return _distributed(tf, case, rng)
        if case.program == "all_reduce":
            return _all_reduce_gradient(tf, case, rng)
        if case.program == "cnn":
            return _small_cnn(tf, case, rng)
        x = _input(case, rng)
        layer = _layer(tf, case)
        if case.program == "symbolic":
            y = layer(tf.keras.Input(case.shape[1:], batch_size=case.shape[0]))
            return {"shape": tuple(y.shape), "dtype": str(y.dtype)}
        if case.program == "twice":
            layer(tf.constant(x))
            return {"y": _arr(layer(tf.constant(rng.standard_normal(case.other_shape).astype("float32"))))}
        layer(tf.constant(x))                       # (built by a first call, as in use)
        layer.set_weights(_weights_for(layer, rng))
        call = dict(case.call)
        if case.program == "mask":
            call["mask"] = tf.constant(rng.random(case.other_shape or case.shape[:-1]) > 0.3)
        out = _forward_backward(tf, layer, tf.constant(x), rng, call)
        out["weights_after"] = [_arr(w) for w in layer.get_weights()]
        out["names"] = [w.path for w in layer.weights]
        return out
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return ("error", type(e).__name__, _first_line(str(e)), _wrapped(str(e)))


def _wrapped(msg: str) -> str:
    """Keras's wrapper of an error raised in `call`: its first line and the argument lines
    (tensors printed by shape and dtype), or "" for an error raised elsewhere."""
    if not msg.startswith("Exception encountered when calling"):
        return ""
    parts = msg.split("\n\n")
    return parts[0] + " | " + (parts[2] if len(parts) > 2 else "")


def _first_line(msg: str) -> str:
    """The message as compared: Keras's "Exception encountered when calling X.call()." wrapper
    removed (simdist's layers raise the inner error unwrapped), TF's eager-op decoration
    ("{{function_node ...}} ", the NodeDef description, " name: ") removed, its first line."""
    marker = "Exception encountered when calling"
    if msg.startswith(marker):
        parts = msg.split("\n\n", 2)
        msg = parts[1] if len(parts) > 1 else msg
        msg = msg.replace("\x1b[1m", "").replace("\x1b[0m", "")
    msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", msg)
    msg = re.sub(r"\n\t; NodeDef: .*?(?= \[Op:)", "", msg, flags=re.S)
    msg = re.sub(r" name: $", "", msg.split("\n")[0])
    return msg[:400]


_TF_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any, name: str) -> Any:
    """A strategy by name ("mirrored2", "central2", "one_device1"). Real TF's collectives keep
    per-process state (group and instance keys restart with each new MirroredStrategy and then
    collide), so the TF worker makes one strategy per name and reuses it; simdist makes a new
    one per case (each case starts from simdist.reset())."""
    if tf.__name__ == "tensorflow" and name in _TF_STRATEGIES:
        return _TF_STRATEGIES[name]
    kind, n = name[:-1], int(name[-1])
    devices = [f"/cpu:{i}" for i in range(n)]
    if kind == "mirrored":
        strategy = tf.distribute.MirroredStrategy(devices)
    elif kind == "central":
        strategy = tf.distribute.experimental.CentralStorageStrategy(devices)
    else:
        strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    if tf.__name__ == "tensorflow":
        _TF_STRATEGIES[name] = strategy
    return strategy


def _distributed(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """BatchNormalization trained `steps` steps under a strategy (SGD on gamma and beta), per
    replica: outputs and input gradients each step; then the moving statistics of every copy,
    gamma and beta, and inference outputs in replica and cross-replica context."""
    strategy = _strategy(tf, case.strategy)
    n = strategy.num_replicas_in_sync
    global_batch = case.shape[0]
    per = global_batch // n
    with strategy.scope():
        bn = _layer(tf, case)
        bn.build(case.shape)
        bn.set_weights(_weights_for(bn, rng))
        opt = tf.keras.optimizers.SGD(0.1)

    def shard(a: np.ndarray) -> Any:
        return strategy.experimental_distribute_values_from_function(
            lambda ctx: tf.constant(a[ctx.replica_id_in_sync_group * per:(ctx.replica_id_in_sync_group + 1) * per]))

    def step(x: Any, r: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = bn(x, **dict(case.call))
            loss = tf.reduce_sum(y * r) / global_batch
        grads = tape.gradient(loss, [x] + list(bn.trainable_variables))
        opt.apply_gradients(zip(grads[1:], bn.trainable_variables))
        return y, grads[0]

    out: dict[str, Any] = {"steps": []}
    xs = [_input(case, rng) for _ in range(case.steps)]
    for x in xs:
        r = rng.standard_normal(case.shape).astype("float32")
        y, gx = strategy.run(step, args=(shard(x), shard(r)))
        out["steps"].append({"y": [_arr(v) for v in strategy.experimental_local_results(y)],
                             "dx": [_arr(v) for v in strategy.experimental_local_results(gx)]})

    def copies(v: Any) -> list[np.ndarray]:
        inner = v.value
        return [_arr(c) for c in getattr(inner, "values", (inner,))]

    out["moving_mean"] = copies(bn.moving_mean)
    out["moving_variance"] = copies(bn.moving_variance)
    out["weights"] = [_arr(w) for w in bn.get_weights()]
    probe = _input(case, rng)
    out["infer_replica"] = [_arr(v) for v in strategy.experimental_local_results(
        strategy.run(lambda x: bn(x, training=False), args=(shard(probe),)))]
    out["infer_cross_replica"] = _arr(bn(tf.constant(probe), training=False))
    return out


def _small_cnn(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """A small CNN (Conv2D, BatchNormalization, MaxPooling2D, Conv2D, LayerNormalization,
    GlobalAveragePooling2D, Dense) in a Sequential, trained by a custom loop (tape,
    compute_average_loss, SGD) over a distributed dataset: losses per step, the weights after,
    every copy of the moving mean, and an inference prediction."""
    strategy = _strategy(tf, case.strategy)
    layers, gb = tf.keras.layers, case.shape[0]
    x = rng.standard_normal((3 * gb,) + case.shape[1:]).astype("float32")
    y = rng.integers(0, 5, 3 * gb).astype("int32")
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.Input(case.shape[1:]), layers.Conv2D(6, 3, padding="same", activation="relu"),
            layers.BatchNormalization(**dict(case.kwargs)), layers.MaxPooling2D(), layers.Conv2D(4, 2, strides=2),
            layers.LayerNormalization(), layers.GlobalAveragePooling2D(), layers.Dense(5)])
        model.set_weights([a * 0.3 if "variance" not in w.name else a
                           for w, a in zip(model.weights, _weights_for(model, rng))])
        opt = tf.keras.optimizers.SGD(0.05)

    def step(xb: Any, yb: Any) -> Any:
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=gb)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    data = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(gb))
    losses = [_arr(strategy.reduce("SUM", strategy.run(step, args=(xb, yb)), axis=None)) for xb, yb in data]
    bn = model.layers[1]
    inner = bn.moving_mean.value
    return {"losses": losses, "weights": [_arr(w) for w in model.get_weights()],
            "moving_mean_copies": [_arr(c) for c in getattr(inner, "values", (inner,))],
            "predict": _arr(model(tf.constant(x[:4]), training=False))}


def _all_reduce_gradient(tf: Any, case: Case, rng: np.random.Generator) -> dict[str, Any]:
    """Per replica: the gradient, w.r.t. the replica's x, of a loss made of all-reduces (SUM
    and MEAN) of functions of x, weighted per replica."""
    strategy = _strategy(tf, case.strategy)
    n = strategy.num_replicas_in_sync
    x = rng.standard_normal((n,) + case.shape).astype("float32")
    w = rng.standard_normal((n,) + case.shape).astype("float32")

    def fn(xr: Any, wr: Any) -> Any:
        ctx = tf.distribute.get_replica_context()
        with tf.GradientTape() as tape:
            tape.watch(xr)
            s = ctx.all_reduce(tf.distribute.ReduceOp.SUM, xr * xr)
            m, c = ctx.all_reduce("MEAN", [tf.tanh(xr), xr * 3.0])
            loss = tf.reduce_sum(s * wr) + tf.reduce_sum(m * m) + tf.reduce_sum(c * wr)
        return tape.gradient(loss, xr)

    def shard(a: np.ndarray) -> Any:
        return strategy.experimental_distribute_values_from_function(
            lambda ctx: tf.constant(a[ctx.replica_id_in_sync_group]))

    return {"dx": [_arr(v) for v in strategy.experimental_local_results(strategy.run(fn, args=(shard(x),
                                                                                                 shard(w))))]}


# --- the cases ----------------------------------------------------------------------------------------
def _cases() -> list[Case]:
    conv, cf = "keras.layer.conv2d", "keras.layer.conv2d.channels-first"
    pool, gpool = "keras.layer.pooling.window", "keras.layer.pooling.global"
    ln, bn = "keras.layer.layernorm", "keras.layer.batchnorm"
    args = "keras.layer.arguments"
    out = [
        # Conv2D (channels last)
        Case("conv-valid-3x3", conv, "Conv2D", (("filters", 4), ("kernel_size", 3))),
        Case("conv-same-stride2-2x3", conv, "Conv2D", (("filters", 3), ("kernel_size", (2, 3)), ("strides", 2),
                                                       ("padding", "same")), shape=(2, 7, 6, 3)),
        Case("conv-same-even-kernel", conv, "Conv2D", (("filters", 2), ("kernel_size", 4), ("padding", "same")),
             shape=(1, 6, 7, 2)),
        Case("conv-same-dilation2", conv, "Conv2D", (("filters", 3), ("kernel_size", 3), ("padding", "same"),
                                                     ("dilation_rate", 2)), shape=(2, 7, 7, 2)),
        Case("conv-valid-dilation21-nobias", conv, "Conv2D", (("filters", 3), ("kernel_size", (2, 2)),
                                                              ("dilation_rate", (2, 1)), ("use_bias", False))),
        Case("conv-relu-strides12", conv, "Conv2D", (("filters", 5), ("kernel_size", 3), ("strides", (1, 2)),
                                                     ("activation", "relu"))),
        Case("conv-groups2", conv, "Conv2D", (("filters", 4), ("kernel_size", 2), ("groups", 2)), shape=(2, 5, 5, 4)),
        Case("conv-1x1-tanh", conv, "Conv2D", (("filters", 6), ("kernel_size", 1), ("activation", "tanh"))),
        Case("conv-padding-SAME-upper", conv, "Conv2D", (("filters", 2), ("kernel_size", 3), ("padding", "SAME"))),
        Case("conv-strides3-valid", conv, "Conv2D", (("filters", 2), ("kernel_size", 2), ("strides", 3)),
             shape=(2, 8, 7, 3)),
        Case("conv-mixed-float16", conv, "Conv2D", (("filters", 3), ("kernel_size", 3), ("padding", "same"),
                                                    ("dtype", "mixed_float16")), rtol=2e-3),
        # Conv2D channels first
        Case("conv-cf-same-stride2", cf, "Conv2D", (("filters", 4), ("kernel_size", 3), ("strides", 2),
                                                    ("padding", "same"), ("data_format", "channels_first")),
             shape=(2, 3, 7, 6)),
        Case("conv-cf-dilation", cf, "Conv2D", (("filters", 3), ("kernel_size", 2), ("dilation_rate", 2),
                                                ("data_format", "channels_first")), shape=(2, 2, 6, 6)),
        Case("conv-cf-bias-on-last-axis", cf, "Conv2D", (("filters", 4), ("kernel_size", 3),
                                                         ("data_format", "channels_first")), shape=(2, 3, 6, 6),
             tags=("Keras adds the bias along the last axis when the output's width equals filters",)),
        # window pooling
        Case("maxpool-default", pool, "MaxPooling2D", ()),
        Case("err-avgpool-no-default-pool-size", args, "AveragePooling2D", (), program="construct"),
        Case("maxpool-3-stride2-same", pool, "MaxPooling2D", (("pool_size", 3), ("strides", 2), ("padding", "same")),
             shape=(2, 7, 6, 2)),
        Case("maxpool-2x3-stride12", pool, "MaxPooling2D", (("pool_size", (2, 3)), ("strides", (1, 2)))),
        Case("maxpool-cf-same", pool, "MaxPooling2D", (("pool_size", 2), ("padding", "same"),
                                                       ("data_format", "channels_first")), shape=(2, 3, 5, 5)),
        Case("maxpool-padding-VALID-upper", pool, "MaxPooling2D", (("padding", "VALID"),)),
        Case("avgpool-2", pool, "AveragePooling2D", (("pool_size", 2),)),
        Case("avgpool-3-stride1-same", pool, "AveragePooling2D", (("pool_size", 3), ("strides", 1),
                                                                  ("padding", "same"))),
        Case("avgpool-cf-3x2-stride2-same", pool, "AveragePooling2D", (("pool_size", (3, 2)), ("strides", 2),
                                                                       ("padding", "same"),
                                                                       ("data_format", "channels_first")),
             shape=(1, 2, 7, 5)),
        # global pooling
        Case("gap", gpool, "GlobalAveragePooling2D", ()),
        Case("gap-cf-keepdims", gpool, "GlobalAveragePooling2D", (("data_format", "channels_first"),
                                                                  ("keepdims", True))),
        Case("gmp", gpool, "GlobalMaxPooling2D", ()),
        Case("gmp-cf-keepdims", gpool, "GlobalMaxPooling2D", (("data_format", "channels_first"), ("keepdims", True))),
        # LayerNormalization
        Case("ln-last-axis", ln, "LayerNormalization", (), shape=(4, 5)),
        Case("ln-axes-1-2", ln, "LayerNormalization", (("axis", [1, 2]),), shape=(2, 3, 4, 5)),
        Case("ln-axis1-rank3", ln, "LayerNormalization", (("axis", 1),), shape=(3, 4, 2)),
        Case("ln-no-center", ln, "LayerNormalization", (("center", False),), shape=(3, 6)),
        Case("ln-no-scale-eps", ln, "LayerNormalization", (("scale", False), ("epsilon", 0.1)), shape=(3, 6)),
        Case("ln-negative-axes", ln, "LayerNormalization", (("axis", [-2, -1]),), shape=(2, 3, 4)),
        # BatchNormalization on one device
        Case("bn-train-rank2", bn, "BatchNormalization", (("momentum", 0.9),), shape=(8, 4), call=(("training", True),)),
        Case("bn-infer-rank2", bn, "BatchNormalization", (), shape=(8, 4), call=(("training", False),)),
        Case("bn-default-call", bn, "BatchNormalization", (), shape=(8, 4)),
        Case("bn-train-axis1-rank4", bn, "BatchNormalization", (("axis", 1), ("epsilon", 0.01)), shape=(3, 2, 4, 3),
             call=(("training", True),)),
        Case("bn-train-conv-input", bn, "BatchNormalization", (), call=(("training", True),)),
        Case("bn-train-no-center-no-scale", bn, "BatchNormalization", (("center", False), ("scale", False)),
             shape=(6, 3), call=(("training", True),)),
        Case("bn-frozen-trains-as-inference", bn, "BatchNormalization", (("trainable", False),), shape=(6, 3),
             call=(("training", True),)),
        Case("bn-mixed-float16", bn, "BatchNormalization", (("dtype", "mixed_float16"),), shape=(6, 4, 3),
             call=(("training", True),), rtol=2e-3),
        Case("ln-mixed-float16", ln, "LayerNormalization", (("dtype", "mixed_float16"),), shape=(4, 6), rtol=2e-3),
        Case("bn-synchronized-no-strategy", "keras.layer.batchnorm.synchronized", "BatchNormalization",
             (("synchronized", True),), shape=(6, 3), call=(("training", True),)),
        Case("bn-mask", bn, "BatchNormalization", (), shape=(4, 5, 3),
             call=(("training", True),), program="mask"),
        Case("bn-renorm", bn, "BatchNormalization",
             (("renorm", True), ("renorm_clipping", {"rmax": 1.5, "rmin": 0.5, "dmax": 0.5})), shape=(8, 3),
             call=(("training", True),)),
        # BatchNormalization across replicas
        Case("bn-mirrored2-local", "keras.layer.batchnorm.replicas", "BatchNormalization", (("momentum", 0.8),),
             shape=(8, 3), call=(("training", True),), program="distributed", strategy="mirrored2"),
        Case("bn-mirrored4-local", "keras.layer.batchnorm.replicas", "BatchNormalization", (("momentum", 0.8),),
             shape=(8, 2, 3), call=(("training", True),), program="distributed", strategy="mirrored4"),
        Case("bn-mirrored2-synchronized", "keras.layer.batchnorm.synchronized", "BatchNormalization",
             (("momentum", 0.8), ("synchronized", True)), shape=(8, 3), call=(("training", True),),
             program="distributed", strategy="mirrored2"),
        Case("bn-mirrored4-synchronized", "keras.layer.batchnorm.synchronized", "BatchNormalization",
             (("momentum", 0.8), ("synchronized", True)), shape=(8, 2, 3), call=(("training", True),),
             program="distributed", strategy="mirrored4"),
        Case("bn-mirrored2-inference", "keras.layer.batchnorm.replicas", "BatchNormalization", (),
             shape=(8, 3), call=(("training", False),), program="distributed", strategy="mirrored2", steps=1),
        Case("bn-one-device", "keras.layer.batchnorm.replicas", "BatchNormalization", (("momentum", 0.5),),
             shape=(6, 3), call=(("training", True),), program="distributed", strategy="one_device1", steps=2),
        Case("cnn-mirrored2", "keras.layer.batchnorm.replicas", shape=(16, 8, 8, 3), program="cnn",
             strategy="mirrored2"),
        Case("cnn-mirrored4-synchronized", "keras.layer.batchnorm.synchronized", kwargs=(("synchronized", True),),
             shape=(16, 8, 8, 3), program="cnn", strategy="mirrored4"),
        Case("cnn-one-device", "keras.layer.batchnorm.replicas", shape=(16, 8, 8, 3), program="cnn",
             strategy="one_device1"),
        Case("bn-central-storage-training", "keras.layer.batchnorm.central-storage", "BatchNormalization", (),
             shape=(8, 3), call=(("training", True),), program="distributed", strategy="central2", steps=1),
        Case("bn-central-storage-synchronized", "keras.layer.batchnorm.central-storage", "BatchNormalization",
             (("synchronized", True),), shape=(8, 3), call=(("training", True),), program="distributed",
             strategy="central2", steps=1),
        Case("bn-central-storage-inference", "keras.layer.batchnorm.central-storage", "BatchNormalization", (),
             shape=(8, 3), call=(("training", False),), program="distributed", strategy="central2", steps=1),
        # the gradient through ReplicaContext.all_reduce
        Case("all-reduce-gradient-mirrored2", "replica.all-reduce-gradient", shape=(3,), program="all_reduce",
             strategy="mirrored2"),
        Case("all-reduce-gradient-mirrored4", "replica.all-reduce-gradient", shape=(2, 2), program="all_reduce",
             strategy="mirrored4"),
        Case("all-reduce-gradient-central2", "replica.all-reduce-gradient", shape=(3,), program="all_reduce",
             strategy="central2"),
        # symbolic calls (compute_output_shape)
        Case("sym-conv-same-stride2", "keras.layer.symbolic", "Conv2D", (("filters", 4), ("kernel_size", 3),
                                                                         ("strides", 2), ("padding", "same")),
             shape=(2, 7, 6, 3), program="symbolic"),
        Case("sym-conv-cf-dilation", "keras.layer.symbolic", "Conv2D", (("filters", 4), ("kernel_size", 3),
                                                                        ("dilation_rate", 2),
                                                                        ("data_format", "channels_first")),
             shape=(2, 3, 9, 8), program="symbolic"),
        Case("sym-maxpool-same", "keras.layer.symbolic", "MaxPooling2D", (("pool_size", 3), ("strides", 2),
                                                                          ("padding", "same")),
             shape=(2, 7, 6, 3), program="symbolic"),
        Case("sym-maxpool-VALID-refused", "keras.layer.symbolic", "MaxPooling2D", (("padding", "VALID"),),
             program="symbolic"),
        Case("sym-gap-keepdims", "keras.layer.symbolic", "GlobalAveragePooling2D", (("keepdims", True),),
             program="symbolic"),
        Case("sym-bn", "keras.layer.symbolic", "BatchNormalization", (), program="symbolic"),
        Case("sym-ln", "keras.layer.symbolic", "LayerNormalization", (("axis", [1, 2]),), program="symbolic"),
        # argument and shape errors
        Case("err-conv-filters-0", args, "Conv2D", (("filters", 0), ("kernel_size", 3)), program="construct"),
        Case("err-conv-kernel-0", args, "Conv2D", (("filters", 2), ("kernel_size", 0)), program="construct"),
        Case("err-conv-kernel-3-tuple", args, "Conv2D", (("filters", 2), ("kernel_size", (3, 3, 3))),
             program="construct"),
        Case("err-conv-strides-and-dilation", args, "Conv2D", (("filters", 2), ("kernel_size", 3), ("strides", 2),
                                                               ("dilation_rate", 2)), program="construct"),
        Case("err-conv-padding-full", args, "Conv2D", (("filters", 2), ("kernel_size", 3), ("padding", "full")),
             program="construct"),
        Case("err-conv-data-format", args, "Conv2D", (("filters", 2), ("kernel_size", 3), ("data_format", "nchw")),
             program="construct"),
        Case("err-conv-groups-filters", args, "Conv2D", (("filters", 4), ("kernel_size", 3), ("groups", 3)),
             program="construct"),
        Case("err-conv-groups-0", args, "Conv2D", (("filters", 4), ("kernel_size", 3), ("groups", 0)),
             program="construct"),
        Case("err-conv-rank3-input", args, "Conv2D", (("filters", 2), ("kernel_size", 3)), shape=(2, 5, 5)),
        Case("err-conv-kernel-too-big", args, "Conv2D", (("filters", 2), ("kernel_size", 7))),
        Case("err-conv-groups-input", args, "Conv2D", (("filters", 4), ("kernel_size", 3), ("groups", 2))),
        Case("err-conv-channels-change", args, "Conv2D", (("filters", 2), ("kernel_size", 3)), program="twice",
             other_shape=(2, 6, 5, 4)),
        Case("err-pool-size-0", args, "MaxPooling2D", (("pool_size", 0),), program="construct"),
        Case("err-pool-padding-full", args, "MaxPooling2D", (("padding", "full"),)),
        Case("err-pool-rank3-input", args, "AveragePooling2D", (("pool_size", 2),), shape=(2, 5, 5)),
        Case("err-pool-strides-0", args, "MaxPooling2D", (("strides", 0),)),
        Case("err-gmp-empty", args, "GlobalMaxPooling2D", (), shape=(2, 0, 5, 3)),
        Case("err-gap-rank3-input", args, "GlobalAveragePooling2D", (), shape=(2, 5, 5)),
        Case("err-bn-axis-out-of-range", args, "BatchNormalization", (("axis", 4),)),
        Case("err-bn-axis-str", args, "BatchNormalization", (("axis", "a"),), program="construct"),
        Case("err-bn-axis-list", args, "BatchNormalization", (("axis", [1, 2]),), program="construct"),
        Case("err-bn-rank-change", args, "BatchNormalization", (), program="twice", other_shape=(2, 3)),
        Case("err-bn-channels-change", args, "BatchNormalization", (), program="twice", other_shape=(2, 6, 5, 4)),
        Case("err-bn-mask-rank", args, "BatchNormalization", (), shape=(2, 5, 3), call=(("training", True),),
             program="mask", other_shape=(2,)),
        Case("err-bn-renorm-clipping-key", args, "BatchNormalization", (("renorm", True),
                                                                        ("renorm_clipping", {"rmaxx": 1.0})),
             program="construct"),
        Case("err-ln-axis-out-of-range", args, "LayerNormalization", (("axis", 4),)),
        Case("err-ln-axis-str", args, "LayerNormalization", (("axis", "a"),), program="construct"),
        Case("err-ln-channels-change", args, "LayerNormalization", (), program="twice", other_shape=(2, 6, 5, 4)),
    ]
    return out


CASES = _cases()
assert len({c.name for c in CASES}) == len(CASES), "duplicate case names"


# --- comparison -------------------------------------------------------------------------------------------
def _close(got: np.ndarray, want: np.ndarray, rtol: float = RTOL) -> bool:
    g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if g.shape != w.shape:
        return False
    scale = float(np.max(np.abs(w))) if w.size and np.all(np.isfinite(w)) else 1.0
    atol = ATOL_SCALE * rtol / RTOL * max(scale, 1e-30)
    return bool(np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True))


def assert_same(got: Any, want: Any, where: str, rtol: float = RTOL) -> None:
    """got (simdist) against want (TF 2.21), recursively, saying where they differ."""
    if isinstance(want, tuple) and want and want[0] == "error":
        assert isinstance(got, tuple) and got[:2] == want[:2], \
            f"{where}: TF 2.21 raises {want[1]}: {want[2]!r}; simdist gives {_short(got)}"
        assert _sorted_sets(got[2]) == _sorted_sets(want[2]), \
            f"{where}: error message {got[2]!r}, but TF 2.21 says {want[2]!r}"
        assert got[3] == want[3], f"{where}: Keras's call wrapper {got[3]!r}, but TF 2.21 + Keras gives {want[3]!r}"
        return
    assert not (isinstance(got, tuple) and got and got[0] == "error"), \
        f"{where}: simdist raises {got[1]}: {got[2]!r}; TF 2.21 gives {_short(want)}"
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), \
            f"{where}: simdist's result has {sorted(got) if isinstance(got, dict) else got!r}, TF 2.21's {sorted(want)}"
        for k in want:
            assert_same(got[k], want[k], f"{where}.{k}", rtol)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), \
            f"{where}: {len(got) if isinstance(got, list) else got!r} items, TF 2.21 has {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{where}[{i}]", rtol)
    elif isinstance(want, np.ndarray):
        g = np.asarray(got)
        assert g.shape == want.shape, f"{where}: shape {g.shape}, but TF 2.21 gives {want.shape}"
        assert _close(g, want, rtol), f"{where}: {g.ravel()[:8].tolist()}..., TF 2.21 {want.ravel()[:8].tolist()}... " \
                                f"(worst difference {float(np.max(np.abs(g - want))):.3g})"
    else:
        assert got == want, f"{where}: {got!r}, but TF 2.21 gives {want!r}"


def _sorted_sets(msg: str) -> str:
    """Each printed set's items sorted (Keras prints sets, whose order varies by process)."""
    return re.sub(r"\{([^{}]*)\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", msg)


def _short(x: Any) -> str:
    return repr(x)[:200]


# --- TF side -----------------------------------------------------------------------------------------------
def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run_case(tf, CASES[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    # TF's collectives in one process cannot serve MirroredStrategies of 2 and then 4 devices
    # ("joining a group with size4, but that group has size 2"): the 4-replica cases get their own.
    four = [i for i, c in enumerate(CASES) if c.strategy.endswith("4")]
    rest = [i for i in range(len(CASES)) if i not in four]
    return {**tf_workers.spawn(__file__, rest), **tf_workers.spawn(__file__, four)}


def simdist_run(case: Case) -> Any:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return run_case(tf, case)


def _params(*clauses: str) -> list[Any]:
    return [pytest.param(i, id=c.name) for i, c in enumerate(CASES) if c.clause in clauses]


def _check(index: int, tf_results: dict[int, Any]) -> None:
    case = CASES[index]
    assert_same(simdist_run(case), tf_results[index], case.name, case.rtol)


@pytest.mark.clause("keras.layer.conv2d")
@pytest.mark.parametrize("index", _params("keras.layer.conv2d"))
def test_conv2d(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.conv2d.channels-first")
@pytest.mark.parametrize("index", _params("keras.layer.conv2d.channels-first"))
def test_conv2d_channels_first(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.pooling.window")
@pytest.mark.parametrize("index", _params("keras.layer.pooling.window"))
def test_window_pooling(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.pooling.global")
@pytest.mark.parametrize("index", _params("keras.layer.pooling.global"))
def test_global_pooling(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.layernorm")
@pytest.mark.parametrize("index", _params("keras.layer.layernorm"))
def test_layer_normalization(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.batchnorm")
@pytest.mark.parametrize("index", _params("keras.layer.batchnorm"))
def test_batch_normalization(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.batchnorm.replicas")
@pytest.mark.parametrize("index", _params("keras.layer.batchnorm.replicas"))
def test_batch_normalization_per_replica(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.batchnorm.synchronized")
@pytest.mark.parametrize("index", _params("keras.layer.batchnorm.synchronized"))
def test_batch_normalization_synchronized(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.batchnorm.central-storage")
@pytest.mark.parametrize("index", _params("keras.layer.batchnorm.central-storage"))
def test_batch_normalization_central_storage(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("replica.all-reduce-gradient")
@pytest.mark.parametrize("index", _params("replica.all-reduce-gradient"))
def test_all_reduce_gradient(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.symbolic")
@pytest.mark.parametrize("index", _params("keras.layer.symbolic"))
def test_symbolic_output_shapes(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.arguments")
@pytest.mark.parametrize("index", _params("keras.layer.arguments"))
def test_argument_and_shape_errors(index: int, tf_results: dict[int, Any]) -> None:
    want = tf_results[index]
    assert isinstance(want, tuple) and want[0] == "error", f"{CASES[index].name}: TF 2.21 raised nothing ({want!r})"
    _check(index, tf_results)


def test_every_case_is_checked_under_its_clause() -> None:
    tested = {"keras.layer.conv2d", "keras.layer.conv2d.channels-first", "keras.layer.pooling.window",
              "keras.layer.pooling.global", "keras.layer.layernorm", "keras.layer.batchnorm",
              "keras.layer.batchnorm.replicas", "keras.layer.batchnorm.synchronized",
              "keras.layer.batchnorm.central-storage", "replica.all-reduce-gradient", "keras.layer.symbolic",
              "keras.layer.arguments"}
    stray = sorted({c.clause for c in CASES} - tested)
    assert not stray, f"cases under clauses {stray} have no test function: add one"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)

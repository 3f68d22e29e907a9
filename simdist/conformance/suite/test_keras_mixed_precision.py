"""Mixed precision — clauses keras.mixed-precision.policy, .loss-scale and .auto-loss-scale
(TF 2.21 + Keras 3.15).

Expected values come from NumPy references written here (a Dense layer's values rounded to the
compute dtype, LossScaleOptimizer's dynamic-scale rule replayed in Python, one SGD step of a
linear model in float64), never from the backend. Every program sets the global policy back to
float32 when it ends.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], np.float32)              # (2, 3)
KERNEL = np.array([[0.25, -0.5], [0.125, 1.0], [-0.75, 0.5]], np.float32)   # exact in every 16-bit format
BIAS = np.array([0.5, -0.25], np.float32)

_POLICY_PROGRAM = """
try:
    tf.keras.mixed_precision.set_global_policy(name)
    policy = tf.keras.mixed_precision.global_policy()
    got = {"name": policy.name, "compute": policy.compute_dtype, "variable": policy.variable_dtype,
           "config": tf.keras.config.dtype_policy().name, "class": tf.keras.mixed_precision.Policy(name).name}
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    layer.set_weights([kernel, bias])
    y = layer(tf.constant(x))
    got.update(kernel=str(layer.kernel.dtype), out=y.dtype.name, y=np.asarray(tf.cast(y, "float32")))
finally:
    tf.keras.mixed_precision.set_global_policy("float32")
"""

_DTYPES = {"mixed_float16": ("float16", "float32"), "mixed_bfloat16": ("bfloat16", "float32"),
           "float16": ("float16", "float16"), "float32": ("float32", "float32")}


@clause("keras.mixed-precision.policy", ref="tf221")
@pytest.mark.parametrize("name", list(_DTYPES))
def test_mixed_global_policy_sets_layer_dtypes(backend, name):
    compute, variable = _DTYPES[name]
    got = Program(backend, _POLICY_PROGRAM, name=name, x=X, kernel=KERNEL, bias=BIAS).run()["got"]
    call = f"set_global_policy({name!r}); Dense(2)(x)"
    assert_equal([got["name"], got["config"], got["class"]], [name] * 3, call=call,
                 what="global_policy().name, keras.config.dtype_policy().name, Policy(name).name")
    assert_equal([got["compute"], got["variable"], got["kernel"], got["out"]], [compute, variable, variable, compute],
                 call=call, what="compute dtype, variable dtype, the kernel's dtype, the output's dtype")
    # (the products and sums of these values are exact in every format: the output is the
    # float64 result, whatever the compute dtype)
    want = X.astype(np.float64) @ KERNEL + BIAS
    assert_close(got["y"], want, call=call, what="y (autocast: float32 variables read in the compute dtype)")


@clause("keras.mixed-precision.policy", ref="tf221")
def test_mixed_bad_policy_name(backend):
    source = "tf.keras.mixed_precision.set_global_policy('mixed_int8')"
    with raises(ValueError, match="Cannot convert 'mixed_int8' to a mixed precision DTypePolicy", call=source):
        Program(backend, source).run()


_LSO_PROGRAM = """
var = tf.Variable([1.0, 2.0])
opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(lr), initial_scale=scale,
                                                  dynamic_growth_steps=growth)
scaled = float(opt.scale_loss(tf.constant(3.0)))
log = []
for g in grads:
    opt.apply_gradients([(tf.constant(np.asarray(g, "float32")), var)])
    log.append([float(opt.dynamic_scale), int(opt.step_counter), int(opt.iterations)] + [float(v) for v in var.numpy()])
"""


def _lso_ref(grads: list[list[float]], lr: float, scale: float, growth: int) -> list[list[float]]:
    """The dynamic loss-scale rule: skip a non-finite step halving the scale, else apply g/scale
    and double the scale after `growth` finite steps in a row."""
    var, counter, iterations, out = np.array([1.0, 2.0]), 0, 0, []
    for g in grads:
        g = np.asarray(g, np.float64)
        if not np.all(np.isfinite(g)):
            scale, counter = scale / 2, 0
        else:
            var = var - lr * g / scale
            iterations += 1
            scale, counter = (scale * 2, 0) if counter == growth - 1 else (scale, counter + 1)
        out.append([scale, counter, iterations] + var.tolist())
    return out


@clause("keras.mixed-precision.loss-scale", ref="tf221")
def test_mixed_loss_scale_skips_halves_and_grows(backend):
    inf, nan = float("inf"), float("nan")
    grads = [[1.0, 2.0], [inf, 0.0], [2.0, 4.0], [nan, 1.0], [4.0, -4.0], [8.0, 8.0], [1.0, 1.0], [2.0, 2.0]]
    ns = Program(backend, _LSO_PROGRAM, lr=0.5, scale=4.0, growth=2, grads=grads).run()
    call = "LossScaleOptimizer(SGD(0.5), initial_scale=4.0, dynamic_growth_steps=2).apply_gradients"
    assert_close(ns["scaled"], 12.0, call=call.replace("apply_gradients", "scale_loss(3.0)"), what="scaled loss")
    for i, (got, want) in enumerate(zip(ns["log"], _lso_ref(grads, 0.5, 4.0, 2))):
        assert_close(np.array(got), np.array(want), call=f"{call} step {i} (gradient {grads[i]})",
                     what="[dynamic_scale, step_counter, iterations, var...]")


_LSO_MIRRORED = """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    var = tf.Variable([1.0, 2.0])
    opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.5), initial_scale=4.0)
grads = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(per_replica[ctx.replica_id_in_sync_group], "float32"))
strategy.run(lambda g: opt.apply_gradients([(g, var)]), args=(grads,))
got = [float(opt.dynamic_scale.numpy()), int(opt.iterations.numpy())] + [float(v) for v in var.numpy()]
"""


@clause("keras.mixed-precision.loss-scale", ref="tf221")
@pytest.mark.parametrize("per_replica", [[[1.0, 2.0], [3.0, -2.0]], [[float("inf"), 1.0], [1.0, 1.0]]],
                         ids=["finite", "first-replica-inf"])
def test_mixed_loss_scale_under_mirrored(backend, per_replica):
    """The all-reduced (summed) gradients are applied; a non-finite gradient of the first replica
    skips the step everywhere."""
    got = Program(backend, _LSO_MIRRORED, per_replica=per_replica).run()["got"]
    summed = np.sum(per_replica, axis=0)
    want = ([2.0, 0, 1.0, 2.0] if not np.all(np.isfinite(per_replica[0]))
            else [4.0, 1] + (np.array([1.0, 2.0]) - 0.5 * summed / 4.0).tolist())
    assert_close(np.array(got), np.array(want), call=f"MirroredStrategy(2).run(apply_gradients) with {per_replica}",
                 what="[dynamic_scale, iterations, var...]")


@clause("keras.mixed-precision.loss-scale", ref="tf221")
@pytest.mark.parametrize("kwargs,match", [
    ("dynamic=False", "LossScaleOptimizer no longer supports `dynamic=False`"),
    ("clipnorm=1.0", "LossScaleOptimizer does not support `clipnorm`"),
])
def test_mixed_loss_scale_argument_errors(backend, kwargs, match):
    source = f"tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1), {kwargs})"
    with raises(ValueError, match=match, call=source):
        Program(backend, source).run()


_FIT_PROGRAM = """
try:
    tf.keras.mixed_precision.set_global_policy(name)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    model.set_weights([kernel, bias])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.125, name="sgd"), loss="mse", **kwargs)
    history = model.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0).history["loss"]
    opt = model.optimizer
    wrapped = [type(opt).__name__, opt.name]
    inner = getattr(opt, "inner_optimizer", opt)
    after = [np.asarray(w) for w in model.get_weights()]
    iterations = int(inner.iterations)
    pred_dtype = str(model.predict(x, verbose=0).dtype)
finally:
    tf.keras.mixed_precision.set_global_policy("float32")
"""


@clause("keras.mixed-precision.auto-loss-scale", ref="tf221")
@pytest.mark.parametrize("name,kwargs", [("mixed_float16", {}), ("mixed_bfloat16", {}),
                                         ("mixed_float16", {"auto_scale_loss": False}), ("float32", {})],
                         ids=["mixed_float16", "mixed_bfloat16", "mixed_float16-no-auto-scale", "float32"])
def test_mixed_compile_wraps_the_optimizer_under_mixed_float16(backend, name, kwargs):
    # targets a little off the initial predictions: the scaled (2**15) float16 gradients stay
    # finite, and every value is exact in 16 bits
    pred = X.astype(np.float64) @ KERNEL + BIAS
    y = (pred - np.array([[0.25, -0.125], [0.125, 0.25]])).astype(np.float32)
    ns = Program(backend, _FIT_PROGRAM, name=name, kwargs=kwargs, x=X, y=y, kernel=KERNEL, bias=BIAS).run()
    call = f"set_global_policy({name!r}); compile(SGD(0.125), 'mse'{', auto_scale_loss=False' if kwargs else ''}).fit"
    scaled = name == "mixed_float16" and kwargs.get("auto_scale_loss", True)
    assert_equal(ns["wrapped"], ["LossScaleOptimizer", "loss_scale_optimizer"] if scaled else ["SGD", "sgd"],
                 call=call, what="[type(model.optimizer), its name]")
    # one SGD step of mean((x @ W + b - y)**2) over both outputs, in float64
    err = pred - y
    assert_close(ns["history"], [np.mean(err ** 2)], call=call, what="History loss (the loss before the step)")
    d = 2.0 * err / err.size
    assert_close(ns["after"][0], KERNEL - 0.125 * X.T.astype(np.float64) @ d, call=call, what="kernel after the step")
    assert_close(ns["after"][1], BIAS - 0.125 * d.sum(axis=0), call=call, what="bias after the step")
    assert_equal(ns["iterations"], 1, call=call, what="the inner optimizer's iterations")
    assert_equal(ns["pred_dtype"], {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}.get(name, "float32"),
                 call=call, what="predict's dtype (the last Dense outputs the compute dtype)")


@pytest.mark.clause("keras.ops.dtype-promotion", ref="tf221")
def test_keras_result_type_promotes_on_its_lattice(backend, tf):
    """keras.backend.result_type: the least upper bound on Keras 3's type lattice (not NumPy's or TF's
    rule): uint8 + int8 is int16, int32 + uint32 int64, float16 + bfloat16 float32, int64 + float16
    float16, a Python float beside int8 floatx."""
    rt = tf.keras.backend.result_type
    cases = [(("uint8", "int8"), "int16"), (("int32", "uint32"), "int64"), (("float16", "bfloat16"), "float32"),
             (("int64", "float16"), "float16"), (("int8", float), "float32"), (("bool", "uint16"), "uint16")]
    for args, want in cases:
        assert_equal(str(rt(*args)), want, what="result_type", call=f"keras.backend.result_type{args}")


@pytest.mark.clause("keras.ops.dtype-promotion", ref="tf221")
def test_nested_dense_without_autocast_promotes_under_mixed_float16(backend, tf):
    """Under mixed_float16 a Dense(autocast=False) inside another layer gets a float16 input and its
    float32 kernel: Keras's matmul promotes both to float32 and the result is float32."""
    ns = Program(backend, """
class Outer(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = tf.keras.layers.Dense(3, autocast=False, kernel_initializer="ones")
    def call(self, x):
        return self.inner(x)
tf.keras.mixed_precision.set_global_policy("mixed_float16")
try:
    out = Outer()(np.ones((2, 4), np.float32))
finally:
    tf.keras.mixed_precision.set_global_policy("float32")
dtype = out.dtype.name
value = out.numpy().tolist()
""").run()
    assert_equal(ns["dtype"], "float32", what="the nested Dense's output dtype", call="Dense(autocast=False) in a layer under mixed_float16")
    assert_close(np.array(ns["value"]), np.full((2, 3), 4.0), call="Dense(autocast=False) in a layer under mixed_float16")

"""`keras.optimizers.MultiOptimizer` and `OptimizerMap` (Keras 3.15; clause optim.multi-optimizer):
one optimizer per variable, chosen by the variable's path.

The training test compares a MultiOptimizer's fit with the same steps taken by two plain optimizers
on their own variables, on the backend under test (so it holds bit for bit on any host); the
expected names, counts and errors are Keras 3.15's (keras/src/optimizers/multi_optimizer.py),
observed on TF 2.21.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises

clause = pytest.mark.clause


def _data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(12, 4)).astype("float32"), rng.normal(size=(12, 2)).astype("float32")


def _model(keras):
    keras.utils.set_random_seed(1)
    inp = keras.Input((4,))
    h = keras.layers.Dense(3, activation="relu", name="enc")(inp)
    return keras.Model(inp, keras.layers.Dense(2, name="dec")(h))


@clause("optim.multi-optimizer", ref="tf221")
def test_multi_optimizer_trains_each_variable_with_its_optimizer(keras, tf):
    """fit with MultiOptimizer(OptimizerMap(SGD, {"enc/.*": Adam})) gives the weights of Adam steps on
    the enc layer's variables and SGD steps on the others, in a custom loop with the same batches;
    its own iterations and each inner optimizer's count every step; `variables` lists its own
    iteration and learning_rate (0.0), then Adam's, then SGD's; `learning_rate` is refused."""
    x, y = _data()
    m = _model(keras)
    opt = keras.optimizers.MultiOptimizer(
        keras.optimizers.OptimizerMap(keras.optimizers.SGD(0.1), {"enc/.*": keras.optimizers.Adam(0.01)}))
    m.compile(optimizer=opt, loss="mse")
    m.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)

    ref = _model(keras)
    adam, sgd = keras.optimizers.Adam(0.01), keras.optimizers.SGD(0.1)
    enc = [v for v in ref.trainable_variables if v.path.startswith("enc/")]
    rest = [v for v in ref.trainable_variables if not v.path.startswith("enc/")]
    loss_fn = keras.losses.MeanSquaredError()
    for _ in range(2):
        for i in range(3):
            with tf.GradientTape() as tape:
                loss = loss_fn(y[4 * i:4 * i + 4], ref(x[4 * i:4 * i + 4], training=True))
            grads = tape.gradient(loss, ref.trainable_variables)
            g = dict(zip([v.path for v in ref.trainable_variables], grads))
            adam.apply([g[v.path] for v in enc], enc)
            sgd.apply([g[v.path] for v in rest], rest)
    call = "fit(MultiOptimizer(OptimizerMap(SGD(0.1), {'enc/.*': Adam(0.01)})), 2 epochs of 3 batches)"
    for got, want, v in zip(m.get_weights(), ref.get_weights(), ref.trainable_variables):
        assert_true(np.array_equal(np.asarray(got), np.asarray(want)),
                    f"{v.path}={np.asarray(got).ravel()[:4]}..., but should be {np.asarray(want).ravel()[:4]}... "
                    "(Adam on enc/*, SGD on the rest, step by step)", call=call)
    assert_equal([int(opt.iterations)] + [int(o.iterations) for o in opt.optimizers], [6, 6, 6], call=call,
                 what="iterations (own, adam, sgd)")
    assert_equal([o.name for o in opt.optimizers], ["adam", "sgd"], call=call, what="inner optimizers' order")
    assert_equal([v.path for v in opt.variables],
                 ["multi_optimizer/iteration", "multi_optimizer/learning_rate", "adam/iteration",
                  "adam/learning_rate", "adam/enc_kernel_momentum", "adam/enc_kernel_velocity",
                  "adam/enc_bias_momentum", "adam/enc_bias_velocity", "sgd/iteration", "sgd/learning_rate"],
                 call=call, what="variables")
    with raises(AttributeError, call="MultiOptimizer.learning_rate", match="cannot be accessed"):
        opt.learning_rate


@clause("optim.multi-optimizer", ref="tf221")
def test_optimizer_map_lookup_config_and_errors(keras):
    """OptimizerMap: an exact key first, else the one key that matches the whole path as a regular
    expression (several: ValueError), else the default; keys are unique strings, values plain
    optimizers; get_config/from_config round-trips a MultiOptimizer with its map."""
    opts = keras.optimizers
    adam, sgd, rms = opts.Adam(), opts.SGD(), opts.RMSprop()
    om = opts.OptimizerMap(rms)
    om["encoder/layer_0/dense"] = adam
    om["encoder/.*"] = sgd
    om["decoder"] = adam
    for key, want in (("decoder", adam), ("encoder/layer_0/dense", adam),
                      ("encoder/layer_0/attention/query", sgd), ("decoder/layer_0/dense", rms),
                      ("encoder", rms)):
        assert_true(om[key] is want, f"OptimizerMap[{key!r}] is {type(om[key]).__name__}, but should be "
                    f"the {type(want).__name__} mapped to it", call=f"OptimizerMap[{key!r}]")
    assert_equal(len(om), 3, call="OptimizerMap with three keys", what="len")
    assert_equal(list(om), ["encoder/layer_0/dense", "encoder/.*", "decoder"], call="OptimizerMap with three keys",
                 what="keys")
    with raises(ValueError, call="om['decoder'] = SGD() a second time", match="already exists"):
        om["decoder"] = opts.SGD()
    with raises(ValueError, call="om['x'] = 3", match="must be a Keras Optimizer"):
        om["x"] = 3
    with raises(ValueError, call="om['y'] = LossScaleOptimizer(...)", match="cannot be LossScaleOptimizer"):
        om["y"] = keras.mixed_precision.LossScaleOptimizer(opts.SGD())
    two = opts.OptimizerMap(opts.SGD(), {"a.*": opts.SGD(), "ab.*": opts.Adam()})
    with raises(ValueError, call="OptimizerMap(..., {'a.*', 'ab.*'})['abc']", match="Multiple optimizers"):
        two["abc"]
    with raises(TypeError, call="OptimizerMap('sgd')", match="default_optimizer must be"):
        opts.OptimizerMap("sgd")

    multi = opts.MultiOptimizer(opts.OptimizerMap(opts.SGD(0.1), {"enc/.*": opts.Adam(0.01)}), name="mo")
    cfg = multi.get_config()
    assert_equal(sorted(cfg), ["loss_scale_factor", "name", "optimizer_map"], call="MultiOptimizer.get_config()",
                 what="keys")
    inner = cfg["optimizer_map"]
    assert_equal((inner["class_name"], inner["config"]["default_optimizer"]["class_name"],
                  inner["config"]["optimizer_map"]["enc/.*"]["class_name"]), ("OptimizerMap", "SGD", "Adam"),
                 call="MultiOptimizer.get_config()['optimizer_map']", what="class names")
    back = opts.MultiOptimizer.from_config(cfg)
    assert_equal([type(o).__name__ for o in back.optimizers], ["Adam", "SGD"],
                 call="MultiOptimizer.from_config(get_config())", what="inner optimizers")
    assert_equal(back.name, "mo", call="MultiOptimizer.from_config(get_config())", what="name")
    assert_true(abs(float(back.optimizers[0].learning_rate) - 0.01) < 1e-9,
                f"inner Adam's learning_rate={float(back.optimizers[0].learning_rate)}, but should be 0.01",
                call="MultiOptimizer.from_config(get_config())")

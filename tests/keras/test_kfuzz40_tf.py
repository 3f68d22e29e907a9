"""Optimizer variables an optimizer's build keeps in attributes, against Keras 3.15 on TF 2.21 (clause
optim.option-coverage; found by the training fuzzer, tests/fuzz_train, seed 4020261205 #59: Adafactor under
mixed_float16 with an optimizer_var list four longer than TF's).

Keras's Nadam (u_product) and Adafactor (the scalar placeholders of r and c for variables of rank < 2) make
these with `backend.Variable` in build and keep them in attributes; the optimizer's attribute tracker adds them
to `variables` only while tracking is on. LossScaleOptimizer.build is @no_automatic_dependency_tracking, so
under it (explicit, or mixed_float16's compile) they are none of `variables`; and LossScaleOptimizer.apply
builds under its own name scope, so the inner optimizer's slots are "lso/opt/..." paths."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _fit(opt_name: str, wrap: bool, mixed: bool, built_by: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        if mixed:
            keras.mixed_precision.set_global_policy("mixed_float16")
        try:
            inp = keras.Input((3,))
            out = keras.layers.Dense(2, name="d1")(keras.layers.Dense(4, name="d0")(inp))
            m = keras.Model(inp, out)
            for i, v in enumerate(m.weights):
                n = int(np.prod(v.shape))
                v.assign((np.linspace(-0.5, 0.5, n).reshape(tuple(v.shape)) * (i + 1)).astype(np.float32))
            opt = getattr(keras.optimizers, opt_name)(0.05, name="opt")
            if wrap:
                opt = keras.optimizers.LossScaleOptimizer(opt, initial_scale=64.0, name="lso")
            x = np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)
            y = np.linspace(1, -1, 8).reshape(4, 2).astype(np.float32)
            if built_by == "build":
                opt.build(m.trainable_variables)
            m.compile(optimizer=opt, loss="mse")
            m.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False)
            o = m.optimizer
            shapes = [list(v.shape) for v in o.variables]
            if mixed:   # values: TF's fit step fuses float16 MatMul + BiasAdd (grid/reference.py MIXED), not compared
                return [type(o).__name__, len(o.variables), [v.path for v in o.variables], shapes]
            return [type(o).__name__, len(o.variables), [v.path for v in o.variables], shapes,
                    [np.asarray(v.numpy(), dtype=np.float64) for v in o.variables],
                    [np.asarray(w, dtype=np.float64) for w in m.get_weights()]]
        finally:
            keras.mixed_precision.set_global_policy("float32")
    return case


def _global_max(layer: str, shape: tuple, traced: bool, dtype: str = "float32") -> Callable[[Any], Any]:
    """GlobalMaxPooling of an empty batch: Keras's ops.max asserts a non-empty input only when executing eagerly
    (keras/src/backend/tensorflow/numpy.py `max`); in a tf.function (fit's or predict's step on MirroredStrategy(3)'s
    empty replica batch, training fuzzer seed 4020261205 #101) the reduction of nothing gives an empty result."""
    def case(tf: Any) -> Any:
        pool = getattr(tf.keras.layers, layer)()
        x = np.zeros(shape, dtype=dtype)
        if traced:
            return tf.function(lambda t: pool(t))(tf.constant(x))
        return pool(tf.constant(x))
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for layer, shape in (("GlobalMaxPooling1D", (0, 3, 2)), ("GlobalMaxPooling2D", (0, 2, 2, 3))):
        out[f"pool/{layer} of an empty batch, eagerly"] = _global_max(layer, shape, False)
        out[f"pool/{layer} of an empty batch, in a tf.function"] = _global_max(layer, shape, True)
        out[f"pool/{layer} of a batch, in a tf.function"] = _global_max(layer, (2,) + shape[1:], True)
    out["pool/GlobalMaxPooling1D of an empty bool batch, in a tf.function"] = _global_max(
        "GlobalMaxPooling1D", (0, 3, 2), True, "bool")
    for opt in ("Adafactor", "Nadam"):
        out[f"plain/{opt}"] = _fit(opt, False, False, "fit")
        out[f"lso/{opt} in LossScaleOptimizer"] = _fit(opt, True, False, "fit")
        out[f"lso/{opt} in LossScaleOptimizer built by build()"] = _fit(opt, True, False, "build")
        out[f"mixed/{opt} under mixed_float16"] = _fit(opt, False, True, "fit")
    return out


# auto-names count the objects made earlier in the process (an unnamed backend.Variable is "variable_3")
_AUTO_NAME = re.compile(r"(loss_scale_optimizer_|functional_|input_layer_|variable)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    """The cases make auto-named layers and optimizers in this process without clearing the Keras session; a
    later module in the same worker that compares auto-names with a fresh TF process (test_klayer3_tf's
    serialized models) would count from them, so the session is cleared when this module ends."""
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


@pytest.mark.clause("optim.option-coverage")
@pytest.mark.parametrize("prefix", ["plain/", "lso/", "mixed/"])
def test_attribute_variables_of_an_optimizer_built_untracked(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


@pytest.mark.clause("keras.layer.pooling.global")
def test_global_max_pooling_of_an_empty_batch_asserts_eagerly_only(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("pool/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

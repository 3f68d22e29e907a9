"""Differential tests of mixed precision: simdist vs TF 2.21 + Keras 3.15 (clauses
keras.mixed-precision.* in docs/spec.md).

- "policy" cases set a global policy and report what Keras reports: the policy's name, compute
  and variable dtypes, a layer made afterwards (its dtypes, its kernel's dtype, its output's),
  `keras.config.dtype_policy()`; or the error of a bad policy name.
- "lso" cases train a mixed_float16 MLP with an explicit LossScaleOptimizer in a custom loop
  (scale_loss inside the tape, apply_gradients), under the default strategy, Mirrored(2) and
  CentralStorage(2), some batches large enough that float16 gradients overflow: per step the
  scaled loss, the dynamic scale, the step counter, the inner optimizer's iterations; the weights
  after (rtol 1e-4 on float32 weights updated from float16 gradients). Under CentralStorage TF
  2.21 + Keras 3.15 raise ValueError at the first finite step (the step counter is an
  AggregatingVariable updated in a replica context), in a custom loop and in `fit`: simdist
  raises the same error. Under ParameterServerStrategy (2 workers, 1 ps; each step a tf.function
  scheduled by a ClusterCoordinator and joined) dynamic loss scaling works as under the default
  strategy (the scale and counter are variables on the ps), and `fit` is refused as for every
  model. TF's tf.function rounds float16 differently from its eager ops (Grappler's remapper
  fuses them: with `remapping` off its values are the eager ones, which simdist computes), so
  those losses and weights agree to two float16 ulps.
- "fit" cases: `compile` + `fit` under a global mixed policy (mixed_float16 wraps the optimizer
  in a LossScaleOptimizer; mixed_bfloat16 does not): the optimizer's class and variables, the
  History losses, the weights, predict's dtype and values.
- "lso-config"/"lso-error" cases: get_config, from_config round trip, argument errors.
TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tf_cases
import tf_workers
from test_layers_conv_norm_tf import _first_line, assert_same

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

POLICY, LSO, FIT = "keras.mixed-precision.policy", "keras.mixed-precision.loss-scale", \
    "keras.mixed-precision.auto-loss-scale"


@dataclass(frozen=True)
class Case:
    name: str
    clause: str
    program: str
    policy: str = "mixed_float16"
    strategy: str = "default"
    kwargs: tuple = ()
    overflow: bool = True            # whether the second batch is scaled up to overflow float16 gradients
    rtol: float = 1e-4


def _arr(t: Any) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def _mlp(tf: Any, rng: np.random.Generator) -> Any:
    keras = tf.keras
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, activation="relu"), keras.layers.Dense(3)])
    model.set_weights([rng.standard_normal(tuple(w.shape)).astype("float32") for w in model.weights])
    return model


def _data(rng: np.random.Generator, n: int, overflow: bool = True) -> tuple[np.ndarray, np.ndarray]:
    x = rng.standard_normal((n, 4)).astype("float32")
    if overflow:
        x[8:16] *= 3000.0   # the second batch of 8: float16 gradients overflow at the initial scale
    return x, rng.integers(0, 3, n).astype("int32")


def run_policy(tf: Any, case: Case) -> Any:
    keras = tf.keras
    keras.mixed_precision.set_global_policy(case.policy)
    policy = keras.mixed_precision.global_policy()
    layer = keras.layers.Dense(2)
    y = layer(np.ones((1, 3), "float32"))
    return {"name": policy.name, "compute": policy.compute_dtype, "variable": policy.variable_dtype,
            "config_policy": keras.config.dtype_policy().name, "layer": [layer.compute_dtype, layer.variable_dtype],
            "kernel": layer.kernel.dtype, "y": y.dtype.name,
            "policy_class": keras.mixed_precision.Policy(case.policy).name}


def run_lso(tf: Any, case: Case, rng: np.random.Generator) -> Any:
    keras = tf.keras
    keras.mixed_precision.set_global_policy(case.policy)
    strategy = tf_cases.strategy(tf, case.strategy)
    x, y = _data(rng, 40)
    with strategy.scope():
        model = _mlp(tf, rng)
        opt = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD(0.05), **dict(case.kwargs))

    def step(xb: Any, yb: Any) -> Any:
        with tf.GradientTape() as tape:
            logits = tf.cast(model(xb, training=True), "float32")
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=8)
            scaled = opt.scale_loss(loss)
        grads = tape.gradient(scaled, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return scaled

    def observe() -> dict[str, Any]:
        return {"scale": float(_arr(opt.dynamic_scale)), "counter": int(_arr(opt.step_counter)),
                "iterations": int(_arr(opt.iterations))}
    steps = [{"scaled_loss": scaled, **seen} for scaled, seen in tf_cases.train_steps(tf, strategy, step, x, y, 8,
                                                                                         after=observe)]
    return {"steps": steps, "weights": [_arr(w) for w in model.get_weights()],
            "variables": [(v.path, str(v.dtype)) for v in opt.variables]}


def run_fit(tf: Any, case: Case, rng: np.random.Generator) -> Any:
    keras = tf.keras
    keras.mixed_precision.set_global_policy(case.policy)
    strategy = tf_cases.strategy(tf, case.strategy)
    x, y = _data(rng, 32, case.overflow)
    with strategy.scope():
        model = _mlp(tf, rng)
        model.compile(optimizer=keras.optimizers.SGD(0.05), **dict(case.kwargs),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    pred = model.predict(x[:5], verbose=0)
    return {"optimizer": [type(model.optimizer).__name__, model.optimizer.name],
            "variables": [(v.path, str(v.dtype), _arr(v)) for v in model.optimizer.variables],
            "loss": np.asarray(history.history["loss"], np.float32), "weights": [_arr(w) for w in model.get_weights()],
            "predict_dtype": str(pred.dtype), "predict": np.asarray(pred, np.float32)}


def run_lso_config(tf: Any, case: Case) -> Any:
    keras = tf.keras
    opt = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.Adam(0.01), initial_scale=8.0,
                                                   dynamic_growth_steps=10, name="lso")
    config = opt.get_config()
    again = keras.mixed_precision.LossScaleOptimizer.from_config(dict(config)).get_config()
    return {"config": json.dumps(config, sort_keys=True, default=str), "round_trip": again == config,
            "lr": float(_arr(opt.learning_rate)), "scaled": float(_arr(opt.scale_loss(tf.constant(2.0))))}


def run(tf: Any, case: Case) -> Any:
    tf.keras.backend.clear_session()
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    try:
        if case.program == "policy":
            return run_policy(tf, case)
        if case.program == "lso":
            return run_lso(tf, case, rng)
        if case.program == "fit":
            return run_fit(tf, case, rng)
        if case.program == "lso-config":
            return run_lso_config(tf, case)
        if case.program == "lso-error":
            tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1), **dict(case.kwargs))
            return {"made": True}
        raise AssertionError(f"unknown program {case.program!r}")
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return ("error", type(e).__name__, _first_line(str(e)), "")
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


CASES = [
    Case("policy-mixed-float16", POLICY, "policy", "mixed_float16"),
    Case("policy-mixed-bfloat16", POLICY, "policy", "mixed_bfloat16"),
    Case("policy-float32", POLICY, "policy", "float32"),
    Case("policy-float16", POLICY, "policy", "float16"),
    Case("policy-bad-name", POLICY, "policy", "mixed_int8"),
    Case("lso-default", LSO, "lso"),
    Case("lso-growth2-default", LSO, "lso", kwargs=(("dynamic_growth_steps", 2), ("initial_scale", 4.0))),
    Case("lso-mirrored2", LSO, "lso", strategy="mirrored2"),
    Case("lso-central2", LSO, "lso", strategy="central2"),
    # (under PSS each step is a tf.function, where TF's Grappler remapper fuses the float16 ops and
    # rounds differently from its eager ops, which simdist computes: losses and weights within two
    # float16 ulps, rtol 2e-3; the scale, the counter and the iterations exactly)
    Case("lso-pss", LSO, "lso", strategy="pss", rtol=2e-3),
    Case("lso-growth2-pss", LSO, "lso", strategy="pss", kwargs=(("dynamic_growth_steps", 2), ("initial_scale", 4.0)),
         rtol=2e-3),
    Case("lso-config", LSO, "lso-config"),
    Case("lso-error-clipnorm", LSO, "lso-error", kwargs=(("clipnorm", 1.0),)),
    Case("lso-error-static", LSO, "lso-error", kwargs=(("dynamic", False),)),
    Case("lso-error-unknown", LSO, "lso-error", kwargs=(("momentum", 0.9),)),
    Case("fit-float16-default", FIT, "fit"),
    Case("fit-float16-mirrored2", FIT, "fit", strategy="mirrored2"),
    Case("fit-float16-central2", FIT, "fit", strategy="central2"),
    Case("fit-float16-pss-refused", FIT, "fit", strategy="pss"),
    # (unscaled float16 gradients are small, near float16's subnormals: rtol 1e-3, not 1e-4)
    Case("fit-float16-no-auto-scale", FIT, "fit", kwargs=(("auto_scale_loss", False),), overflow=False, rtol=1e-3),
    Case("fit-bfloat16-default", FIT, "fit", policy="mixed_bfloat16", overflow=False, rtol=1e-3),
]
assert len({c.name for c in CASES}) == len(CASES), "duplicate case names"


tf_results = tf_cases.results_fixture(__file__, CASES)


def _check(index: int, tf_results: dict[int, Any]) -> None:
    case = CASES[index]
    got = tf_cases.on_simdist(run, case)
    want = dict(tf_results[index]) if isinstance(tf_results[index], dict) else tf_results[index]
    if isinstance(want, dict) and "predict" in want and isinstance(got, dict):
        # predictions are in the compute dtype: within two of its ulps of TF's (the float32
        # weights they come from agree within rtol 1e-4, not bit for bit)
        ulp = 2.0 ** -10 if want["predict_dtype"] == "float16" else 2.0 ** -7
        assert_same(got.pop("predict"), want.pop("predict"), f"{case.name}.predict", 2 * ulp)
    assert_same(got, want, case.name, case.rtol)


def _params(clause: str) -> list[Any]:
    return tf_cases.params(CASES, clause)


@pytest.mark.clause("keras.mixed-precision.policy")
@pytest.mark.parametrize("index", _params(POLICY))
def test_policies(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.mixed-precision.loss-scale")
@pytest.mark.parametrize("index", _params(LSO))
def test_loss_scale_optimizer(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.mixed-precision.auto-loss-scale")
@pytest.mark.parametrize("index", _params(FIT))
def test_fit_under_mixed_policies(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


def test_central_storage_refuses_loss_scaling_on_tf_too(tf_results: dict[int, Any]) -> None:
    """TF 2.21 + Keras 3.15 itself raises under CentralStorageStrategy at the first finite step
    (LossScaleOptimizer's step counter is an AggregatingVariable updated in a replica context):
    the central2 cases compare that error, which they can only do if TF raised it."""
    for name in ("lso-central2", "fit-float16-central2"):
        want = tf_results[next(i for i, c in enumerate(CASES) if c.name == name)]
        assert isinstance(want, tuple) and want[0] == "error" and "AggregatingVariable" in want[2], \
            f"{name}: TF 2.21 now gives {str(want)[:200]}: update docs/spec.md (keras.mixed-precision.loss-scale)"


def test_overflow_cases_do_skip_steps(tf_results: dict[int, Any]) -> None:
    """The "lso" programs are only meaningful if TF 2.21 itself skipped a step (scale halved)."""
    for name in ("lso-default", "lso-pss"):
        i = next(i for i, c in enumerate(CASES) if c.name == name)
        scales = [s["scale"] for s in tf_results[i]["steps"]]
        assert min(scales) < 2.0 ** 15, f"{name}: TF 2.21's dynamic scales {scales}: no step overflowed, the case " \
                                        "tests nothing"


def test_fit_under_pss_is_refused_by_tf_too(tf_results: dict[int, Any]) -> None:
    """The refused-fit case is only meaningful if TF 2.21 + Keras 3 itself refused."""
    want = tf_results[next(i for i, c in enumerate(CASES) if c.name == "fit-float16-pss-refused")]
    assert isinstance(want, tuple) and want[0] == "error" and want[1] == "ValueError", \
        f"TF 2.21 + Keras 3 now gives {str(want)[:300]} for fit under ParameterServerStrategy: update docs/spec.md"


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(tf_cases.worker(CASES, run))
    os._exit(0)  # (in-process servers and coordinator threads never shut down cleanly)

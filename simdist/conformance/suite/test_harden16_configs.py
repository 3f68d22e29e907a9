"""harden16 (issue 29): config round trips of every Keras class simdist ships, by enumeration.

Every class of simdist's tf.keras layers, losses, metrics, optimizers, schedules, initializers,
regularizers and constraints (aliases once; abstract bases and wrappers of functions are listed in
harden16_configs.SKIP) is built with a distinct non-default value for each constructor argument
TF 2.21's Keras accepts and shows in its config, so that a field written from another argument,
left out or not serialized shows. The expected config is TF 2.21's own ``get_config()`` of the same
construction, recorded by ``python -m simdist.conformance.suite.harden16_record``
(harden16_reference.json.gz); on the tensorflow backend the test checks that the recording is
reproducible. Then ``from_config(config)`` must give back the same config.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden16_configs as configs
from simdist.conformance.suite import harden16_reference as reference
from simdist.conformance.suite.harden16_observe import differences

clause = pytest.mark.clause

#: namespace -> the clause its round trips belong to.
CLAUSE_OF = {"layers": "keras.model.config", "initializers": "keras.model.config",
             "regularizers": "keras.model.config", "constraints": "keras.model.config",
             "losses": "keras.saving.json-and-serialize", "metrics": "keras.saving.json-and-serialize",
             "optimizers": "optim.config-round-trip", "optimizers.schedules": "optim.config-round-trip"}


def _copied(value):
    """Dicts and lists copied all the way down, other values shared (a config may hold a module
    object, which deepcopy refuses)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def _cases(namespace):
    return [c for c in reference.load()["configs"] if c["namespace"] == namespace]


def _check_namespace(keras, namespace, budget):
    cases = _cases(namespace)
    assert_true(len(cases) > 0, f"no recorded config cases of tf.keras.{namespace}", call="harden16_reference")
    problems = []
    for case in budget(cases):
        call = f"tf.keras.{namespace}.{case['class']}(**{case['kwargs']})"
        try:
            obj = configs.build(keras, case)
            config = obj.get_config()
        except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
            problems.append(f"{call}: raised {type(e).__name__}: {str(e)[:200]}")
            continue
        config_json = configs.normalize(config)
        for d in differences(config_json, case["config"], rtol=0.0, atol=0.0)[:4]:
            problems.append(f"{call}.get_config(){d}")
        try:   # (a copy: Keras's wrappers' from_config pops the wrapped layer's entry from the dict it gets)
            again = configs.normalize(type(obj).from_config(_copied(config)).get_config())
        except Exception as e:  # noqa: BLE001
            problems.append(f"{case['class']}.from_config(config): raised {type(e).__name__}: {str(e)[:200]}")
            continue
        for d in differences(again, config_json, rtol=0.0, atol=0.0)[:4]:
            problems.append(f"{case['class']}.from_config({call}.get_config()).get_config(){d}")
    assert_true(not problems, f"{len(problems)} config mismatches with TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call=f"get_config/from_config of tf.keras.{namespace}")


@clause("keras.model.config", ref="tf221")
def test_harden16_layer_configs_round_trip_every_argument(keras, budget):
    """Every layer class: each argument's value in get_config is TF's, from_config gives it back."""
    _check_namespace(keras, "layers", budget)


@clause("keras.model.config", ref="tf221")
def test_harden16_initializer_regularizer_constraint_configs_round_trip(keras, budget):
    """Initializers, regularizers and constraints: get_config is TF's (float32-rounded factors
    included), from_config gives it back."""
    for namespace in ("initializers", "regularizers", "constraints"):
        _check_namespace(keras, namespace, budget)


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_harden16_loss_configs_round_trip_every_argument(keras, budget):
    """Every loss class: reduction, name, from_logits, smoothing and each own option as TF writes them."""
    _check_namespace(keras, "losses", budget)


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_harden16_metric_configs_round_trip_every_argument(keras, budget):
    """Every metric class: thresholds, class ids, top_k, averages and each own option as TF writes them."""
    _check_namespace(keras, "metrics", budget)


@clause("optim.config-round-trip", ref="tf221")
def test_harden16_optimizer_configs_round_trip_every_argument(keras, budget):
    """Every optimizer class, with every base option (clipping either way, EMA, weight decay) and its own."""
    _check_namespace(keras, "optimizers", budget)


@clause("optim.config-round-trip", ref="tf221")
def test_harden16_schedule_configs_round_trip_every_argument(keras, budget):
    """Every learning-rate schedule with every option set."""
    _check_namespace(keras, "optimizers.schedules", budget)

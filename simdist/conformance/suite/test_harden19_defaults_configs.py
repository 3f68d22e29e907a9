"""harden19a (issue 29): every Keras class at its DEFAULTS — get_config equal to TF 2.21's, by enumeration.

harden16 set every argument to a non-default value, so a wrong default (RMSNormalization's epsilon
1e-7 for 1e-6, an initializer's mode, an optimizer's epsilon, a loss's default name) never showed.
Here every class harden16 enumerates (its recording's 229 classes) is built with only its required
arguments (harden16's values for them), right after ``keras.backend.clear_session()`` so that the
automatic name is the first one, and its ``get_config()`` must equal TF 2.21 + Keras 3.15's of the
same construction exactly (floats bit for bit), then ``from_config`` must give the config back.
Expected values: harden19_reference.json.gz (``python -m simdist.conformance.suite.harden19_record``);
on the tensorflow backend the test checks the recording is reproducible.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden16_configs, harden19_configs
from simdist.conformance.suite import harden19_reference as reference
from simdist.conformance.suite.test_harden16_configs import _copied

clause = pytest.mark.clause


@clause("keras.model.config", ref="tf221")
def test_harden19_defaults_recording_is_current():
    """The recording was made from this checkout's case tables (else re-record)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"harden19 reference data is stale (recorded from tables {meta['tables'][:12]}, these are "
                f"{reference.tables_hash()[:12]}): re-run `{reference.RECORD_COMMAND}`")


def _check_namespace(keras, namespaces, budget):
    cases = [c for c in reference.load()["configs"] if c["namespace"] in namespaces]
    assert_true(len(cases) > 0, f"no recorded default-config cases of tf.keras.{namespaces}",
                call="harden19_reference")
    problems = []
    for case in budget(cases):
        call = f"tf.keras.{case['namespace']}.{case['class']}(**{case['kwargs']})"
        try:
            obj, config_json = harden19_configs.config_at_defaults(keras, case)
            config = obj.get_config()
        except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
            problems.append(f"{call}: raised {type(e).__name__}: {str(e)[:200]}")
            continue
        problems += [f"{call}.get_config(){d}" for d in harden19_configs.random_field_problems(case, config_json)]
        for d in reference.differences(config_json, case["config"], rtol=0.0, atol_frac=0.0)[:4]:
            problems.append(f"{call}.get_config(){d}")
        try:
            again = harden16_configs.normalize(type(obj).from_config(_copied(config)).get_config())
        except Exception as e:  # noqa: BLE001
            problems.append(f"{case['class']}.from_config(config): raised {type(e).__name__}: {str(e)[:200]}")
            continue
        harden19_configs.random_field_problems(case, again)
        for d in reference.differences(again, config_json, rtol=0.0, atol_frac=0.0)[:4]:
            problems.append(f"{case['class']}.from_config({call}.get_config()).get_config(){d}")
    assert_true(not problems, f"{len(problems)} default-config mismatches with TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call=f"get_config/from_config at the defaults of tf.keras.{namespaces}")


@clause("keras.model.config", ref="tf221")
def test_harden19_defaults_layer_configs(keras, budget):
    """Every layer class at its defaults: each default in get_config is TF's (name, epsilons, slopes,
    initializers, axes), and from_config gives it back."""
    _check_namespace(keras, ("layers",), budget)


@clause("keras.model.config", ref="tf221")
def test_harden19_defaults_initializer_regularizer_constraint_configs(keras, budget):
    """Initializers (scale, mode, distribution, mean/stddev/min/max), regularizers and constraints
    at their defaults."""
    _check_namespace(keras, ("initializers", "regularizers", "constraints"), budget)


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_harden19_defaults_loss_and_metric_configs(keras, budget):
    """Every loss and metric class at its defaults: name, reduction, from_logits, thresholds,
    epsilons, k, averages as TF writes them."""
    _check_namespace(keras, ("losses", "metrics"), budget)


@clause("optim.config-round-trip", ref="tf221")
def test_harden19_defaults_optimizer_and_schedule_configs(keras, budget):
    """Every optimizer at its defaults (learning rate, betas, epsilon, rho, momentum, name) and every
    schedule with only its required arguments."""
    _check_namespace(keras, ("optimizers", "optimizers.schedules"), budget)

"""harden19b (issue 29): a model's whole state through every round trip, by enumeration.

Four models with non-default state -- a Sequential with a frozen layer and a mixed_float16 layer,
the same Sequential frozen as a whole, a functional model with two dict outputs (a frozen shared
layer), a registered subclassed model (a frozen sublayer) -- compiled away from every default (a
loss, loss weight and metrics per output, weighted_metrics, steps_per_execution=3, run_eagerly,
jit_compile=False, Adam/RMSprop/SGD with non-default hyper-parameters and a learning-rate
schedule: ExponentialDecay, CosineDecay with warmup, PiecewiseConstantDecay) and trained two steps
so that the optimizer's slots exist, go through clone_model (plain, with a renaming
clone_function, with input_tensors), .keras save/load_model, to_json/model_from_json,
get_config/from_config, save_weights/load_weights (.weights.h5), get_weights/set_weights and
tf.train.Checkpoint save/restore with the optimizer. After each: the class, names, built and
trainable flags, per-layer dtype policies, trainable/non-trainable weight counts, variable paths,
weights, the compile state (loss, steps_per_execution, run_eagerly, jit_compile), the optimizer's
class, config, iterations and every variable (slots), predict, and the next fit step (History,
metrics_names, iterations, weights) -- or the error's class -- as TF 2.21 + Keras 3.15 did
(harden19b_reference.json.gz, ``python -m simdist.conformance.suite.harden19b_record``). Trips
that make new variables (clones, JSON, config) have their weights set from a seeded generator.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19b_reference as reference
from simdist.conformance.suite import harden19b_roundtrip as roundtrip
from simdist.conformance.suite.harden16_observe import differences
from simdist.conformance.suite.host_model import runs_onednn

clause = pytest.mark.clause


#: the models holding a mixed_float16 layer, whose values follow the CPU's float16 path (clause ops.host-cpu)
_FLOAT16_MODELS = ("seq", "seq_frozen")


def _comparable(tf, kinds):
    """The models whose recorded values the backend's CPU can give: a CPU that runs float16 through oneDNN,
    unlike the recording's host, computes the mixed_float16 models otherwise (TF 2.21 does; simdist models it)."""
    if runs_onednn(tf, "float16") == reference.RECORDED_ONEDNN_FLOAT16:
        return kinds
    return [k for k in kinds if k not in _FLOAT16_MODELS]


def _check_trip(tf, trip, budget, tmp_path):
    want = reference.load()["roundtrip"]
    problems = []
    for kind in _comparable(tf, budget(list(roundtrip.MODELS))):
        name = f"{kind}/{trip}"
        tf.keras.backend.clear_session()
        d = tmp_path / kind.replace("/", "_")
        d.mkdir()
        got = roundtrip.observe_roundtrip(tf, name, str(d))
        problems += [f"[{name}] {p}" for p in differences(got, want[name])[:6]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 after {trip} (got, but should be):\n  "
                + "\n  ".join(problems[:24]), call=f"harden19b round trip {trip!r}")


@clause("keras.models.clone", ref="tf221")
def test_harden19_roundtrip_before_any_trip(tf, budget, tmp_path):
    """The models as built and trained (the baseline every trip is read against) are TF's."""
    _check_trip(tf, "none", budget, tmp_path)


@clause("keras.models.clone", ref="tf221")
def test_harden19_roundtrip_clone_model(tf, budget, tmp_path):
    """clone_model: frozen flags (a frozen Sequential stays frozen), names, dtype policies and the
    compile state carried, a new optimizer of the same config; a subclassed model's clone too."""
    _check_trip(tf, "clone", budget, tmp_path)


@clause("keras.models.clone", ref="tf221")
def test_harden19_roundtrip_clone_model_with_clone_function(tf, budget, tmp_path):
    """clone_model with a clone_function renaming every layer; ValueError for a subclassed model."""
    _check_trip(tf, "clone_function", budget, tmp_path)


@clause("keras.models.clone", ref="tf221")
def test_harden19_roundtrip_clone_model_with_input_tensors(tf, budget, tmp_path):
    """clone_model on new input_tensors; ValueError for a subclassed model."""
    _check_trip(tf, "clone_input_tensors", budget, tmp_path)


@clause("keras.saving.keras-file", ref="tf221")
def test_harden19_roundtrip_keras_file(tf, budget, tmp_path):
    """model.save(.keras) then load_model: weights, optimizer iterations and slots, schedule
    config, steps_per_execution, run_eagerly and the next step as TF; a subclassed model's
    sublayer variables are "d1/kernel" (built by running call outside the model's name scope)."""
    _check_trip(tf, "keras_file", budget, tmp_path)


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_harden19_roundtrip_json(tf, budget, tmp_path):
    """to_json then model_from_json: the architecture, frozen flags, dtype policies and the
    compile config (compiled again) as TF."""
    _check_trip(tf, "json", budget, tmp_path)


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_harden19_roundtrip_config(tf, budget, tmp_path):
    """get_config then from_config: an uncompiled model of the same architecture as TF."""
    _check_trip(tf, "config", budget, tmp_path)


@clause("keras.model.save-weights", ref="tf221")
def test_harden19_roundtrip_weights_file(tf, budget, tmp_path):
    """save_weights(.weights.h5) then load_weights into a fresh compiled model: weights as TF, and
    the optimizer's variables skipped as TF skips them (the fresh optimizer is not built)."""
    _check_trip(tf, "weights_h5", budget, tmp_path)


@clause("keras.model.save-weights", ref="tf221")
def test_harden19_roundtrip_get_and_set_weights(tf, budget, tmp_path):
    """get_weights then set_weights into a fresh compiled model (frozen weights included)."""
    _check_trip(tf, "get_set_weights", budget, tmp_path)


@clause("optim.state-round-trip", ref="tf221")
def test_harden19_roundtrip_checkpoint_with_optimizer(tf, budget, tmp_path):
    """tf.train.Checkpoint(model, optimizer) save then restore into a fresh model whose optimizer
    is built: weights, iterations and every slot restored, the next step as TF."""
    _check_trip(tf, "checkpoint", budget, tmp_path)

"""The optimizer sweep (fifty-seventh session, osweep57): every tf.keras optimizer and learning-rate schedule
crossed with its options by rule, every observation compared with TF 2.21's recorded one.

Each optimizer (SGD, Adam, AdamW, Adamax, Adagrad, Adadelta, Adafactor, Ftrl, Lamb, Lion, Nadam, RMSprop,
LossScaleOptimizer, Muon, ScheduleFreeAdamW) with its defaults (every argument omitted) and with each option off its
default (learning_rate as a float, a schedule and a callable; momentum, nesterov, amsgrad, centered, rho, epsilon,
the betas, weight_decay and exclude_from_weight_decay, clipnorm / clipvalue / global_clipnorm at 0, tiny and
ordinary, use_ema with ema_momentum and ema_overwrite_frequency, gradient_accumulation_steps, loss_scale_factor,
Ftrl's l1 / l2 / shrinkage / initial accumulator / beta / learning_rate_power, Adafactor's decay, epsilons,
clip_threshold and relative_step): 1, 2 and 5 steps of apply_gradients on float32 variables (float64 and float16 for
a dozen of them) whose gradients hold zeros, negative tiny and large values: the variables', every slot's and the
iterations' bits, the learning rate read back, get_config / from_config. Sparse gradients (tf.IndexedSlices with
duplicate indices). Every schedule with each option at steps 0, 1, its boundaries and their neighbours and large
steps, as Python ints, int32 / int64 / float32 / float64 tensors, round-tripped through its config and inside an
optimizer. One replica-aggregated apply per optimizer family under MirroredStrategy (two CPUs). Expected results are
TF 2.21's (`python -m simdist.conformance.suite.test_osweep57 --record` rewrites osweep57_reference.json.gz),
recorded on an Intel Xeon with AVX-512 and oneDNN on."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.osweep57_cases import DIST, DIST_NONE, REF, SCHEDULES, SPARSE

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("optim.option-coverage")
@pytest.mark.parametrize("name", _ids("os-opt-"))
def test_osweep57_optimizer_options(backend: Any, name: str) -> None:
    """An optimizer with one option off its default (or all at their defaults) after 1, 2 and 5 steps: variables,
    slots, iterations, the learning rate read back and the config round trip, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("name", _ids("os-sched-"))
def test_osweep57_schedules(backend: Any, name: str) -> None:
    """A learning-rate schedule at its boundaries, their neighbours and large steps of every step dtype, from its
    config and inside an optimizer, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("optim.sparse-updates")
@pytest.mark.parametrize("name", _ids("os-sparse-"))
def test_osweep57_sparse_gradients(backend: Any, name: str) -> None:
    """tf.IndexedSlices gradients with a duplicate index applied by each optimizer family, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("optim.mirrored-sum")
@pytest.mark.parametrize("name", _ids("os-dist-"))
def test_osweep57_mirrored_apply(backend: Any, name: str) -> None:
    """apply_gradients in replica context under MirroredStrategy (two CPUs): the replicas' gradients summed, every
    replica's variables and slots, TF 2.21's bits."""
    _check(backend, name)


assert len(_ids("os-sched-")) == len(SCHEDULES) and len(_ids("os-sparse-")) == len(SPARSE)
assert len(_ids("os-dist-")) == len(DIST) + len(DIST_NONE)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

"""TF 2.21 + Keras 3.15's failure of fit with steps_per_execution > 1 under MirroredStrategy.

Keras's TF trainer runs `steps_per_execution` steps in one traced `multi_step_on_iterator`: a
tf.while_loop whose body holds a tf.cond around `strategy.run(train_step)`. Under a
MirroredStrategy with two or more replicas, TF 2.21 builds a graph in which that cond reads an
int32 placeholder nothing feeds, and the first execution fails with InvalidArgumentError "You
must feed a value for placeholder tensor 'while/cond/Placeholder' with dtype int32"
(measured: 2 and 3 replicas, steps_per_execution 2, 3, 4, float32 and mixed_float16, 1 to 6
steps per epoch, with or without validation data). It trains with run_eagerly=True, with one
replica, under OneDeviceStrategy, CentralStorageStrategy and the default strategy; evaluate and
predict are not affected. A step whose trace fails (an optimizer cond that merge_calls) raises
that trace's error instead. simdist follows TF 2.21 by default (clause keras.fit.spe-mirrored).
"""

from __future__ import annotations

from typing import Any

from simdist import tf

__all__ = ["check_train_execution"]


def _trace_fails_first(model: Any) -> bool:
    """TF traces the step before it runs it: an optimizer whose `ops.cond` merge_calls (gradient
    accumulation, EMA overwrite; clause optim.option-coverage) fails that trace with RuntimeError,
    which the step itself raises (simdist/keras/optimizers/_distribute.py)."""
    opt = getattr(model, "optimizer", None)
    opt = getattr(opt, "inner_optimizer", opt)
    return bool(getattr(opt, "gradient_accumulation_steps", None)
                or (getattr(opt, "use_ema", False) and getattr(opt, "ema_overwrite_frequency", None)))


def _fails_like_tf(model: Any) -> bool:
    strategy = model.distribute_strategy
    return (model.steps_per_execution > 1 and model._step_traced() and not _trace_fails_first(model)
            and isinstance(strategy, tf.distribute.MirroredStrategy)
            and not isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy)   # (unmeasured: trains)
            and strategy.num_replicas_in_sync > 1)


def check_train_execution(model: Any) -> None:
    """Raise TF 2.21's error where its first multi-step train execution fails (see module doc)."""
    if _fails_like_tf(model):
        raise tf.errors.InvalidArgumentError(
            None, None,
            "Graph execution error:\n\nYou must feed a value for placeholder tensor 'while/cond/Placeholder' with dtype "
            "int32\n\t [[{{node while/cond/Placeholder}}]] [Op:__inference_multi_step_on_iterator] (TF 2.21 + Keras 3 "
            f"fail fit with steps_per_execution={model.steps_per_execution} under MirroredStrategy with "
            f"{model.distribute_strategy.num_replicas_in_sync} replicas unless run_eagerly=True; simdist follows "
            "them: clause keras.fit.spe-mirrored)")


def check_jit_execution(model: Any, iterator: Any) -> None:
    """TF 2.21 + Keras 3.15 with `jit_compile` true under a MirroredStrategy of two or more replicas: Keras compiles
    its train and test `one_step_on_data`, which holds `strategy.run` over every replica, as one XLA cluster on the
    first replica's device, and its first execution fails reading another replica's variable: InvalidArgumentError
    "Trying to access resource .../replica_1/... located in device <second> from device <first>" (measured on 2
    logical CPUs: fit, evaluate and train_on_batch; predict, whose jit function is per replica, and one replica
    run). fit and evaluate call it from their traced multi_step_on_iterator ("Graph execution error:" first);
    train_on_batch calls it eagerly. simdist's message names the variable without TF's uid suffix (clause
    keras.fit.arguments)."""
    strategy = model.distribute_strategy
    if not (model.jit_compile and not model.run_eagerly and isinstance(strategy, tf.distribute.MirroredStrategy)
            and not isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy)   # (unmeasured)
            and strategy.num_replicas_in_sync > 1):
        return
    devices = list(strategy.extended.worker_devices)
    variables = [v for v in model.trainable_variables] or [v for v in model.variables]
    name = variables[0].path if variables and hasattr(variables[0], "path") else "variable"
    text = (f"Trying to access resource {name}/replica_1 located in device {devices[1]} from device {devices[0]}\n"
            " Cf. https://www.tensorflow.org/xla/known_issues#tfvariable_on_a_different_device")
    if hasattr(iterator, "get_next_as_optional"):
        text = "Graph execution error:\n\n" + text
    raise tf.errors.InvalidArgumentError(None, None, text)

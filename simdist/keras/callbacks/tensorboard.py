"""`keras.callbacks.TensorBoard` (Keras 3.15, keras/src/callbacks/tensorboard.py): event files
under `log_dir`/train and `log_dir`/validation that TensorBoard opens.

What is written, as Keras: at `set_model` with `write_graph`, the model's config as the
"graph_keras_model" tensor "keras" at step 0 (Sequential/Functional models); at each epoch's end
`epoch_<name>` scalars of the train logs plus `epoch_learning_rate` (train/) and of the `val_`
logs with the prefix dropped (validation/), step = epoch; at the end of each evaluation
`evaluation_<name>_vs_iterations` (validation/) at step = optimizer.iterations; with
`update_freq=N`, `batch_<name>` scalars (train/) at the global train batches (counted from 1,
across epochs) that are multiples of N; with `histogram_freq=k`, `<weight path>/histogram`
(train/) every k-th epoch. Keras writes under `tf.summary.record_if(step % N == 0)` with the
step of the last batch begun, which also gates the epoch and evaluation scalars when N is an
int. As Keras, everything is written through `tf.summary` (simdist/tf/summary, clause
summary.event-files): the same writers, `as_default`/`record_if` contexts, queues and flushes,
and the histograms' buckets computed by tf.summary.histogram's ops.

Differences (docs/keras.md): steps are simulated training steps and `wall_time` is simulated
time, never the wall clock; no TF op graph is written (nor does Keras 3.15 on TF 2.21: its
train_function has no `function_spec`); the model config is simdist's `get_config`; `write_images`, `profile_batch` and `embeddings_freq`
raise NotImplementedError; `write_steps_per_second` uses simulated seconds.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

from simdist import now as simulated_now
from simdist import tf
from simdist.keras.callbacks.callback import Callback
from simdist.keras.serialization import serialize_keras_object

EXTRA_HINT = "pip install 'simdist[tensorboard]' (or pip install tensorboard)"


def _check_tensorboard() -> None:
    """A clear ImportError naming the extra, at construction rather than mid-fit."""
    try:
        from tensorboard.compat.proto import summary_pb2  # noqa: F401
        from tensorboard.plugins.scalar import metadata  # noqa: F401
    except ImportError as e:
        raise ImportError(f"keras.callbacks.TensorBoard needs the `tensorboard` package, which is not installed "
                          f"({e}): {EXTRA_HINT}") from None


class TensorBoard(Callback):
    """Logs fit's scalars (and weight histograms) for TensorBoard."""

    def __init__(self, log_dir: Any = "logs", histogram_freq: int = 0, write_graph: bool = True,
                 write_images: bool = False, write_steps_per_second: bool = False, update_freq: Any = "epoch",
                 profile_batch: Any = 0, embeddings_freq: int = 0, embeddings_metadata: Any = None) -> None:
        super().__init__()
        for arg, value in (("write_images", write_images), ("profile_batch", profile_batch),
                           ("embeddings_freq", embeddings_freq), ("embeddings_metadata", embeddings_metadata)):
            if value:
                raise NotImplementedError(f"keras.callbacks.TensorBoard({arg}={value!r}): simdist writes scalars, "
                                          f"histograms and the model config only; pass {arg}=0/None/False")
        if update_freq != "epoch" and update_freq != "batch" and not (
                isinstance(update_freq, int) and not isinstance(update_freq, bool) and update_freq > 0):
            raise ValueError(f"keras.callbacks.TensorBoard(update_freq={update_freq!r}): must be 'epoch', "
                             f"'batch' or a positive int")
        _check_tensorboard()
        self.log_dir = str(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq: Any = 1 if update_freq == "batch" else update_freq
        self.embeddings_freq = embeddings_freq
        self._global_train_batch = 0
        self._global_test_batch = 0
        self._writers: dict[str, Any] = {}
        self._prev_summary_state: list[tuple[Any, Any]] = []   # Keras's (as_default, record_if) contexts
        self._batch_start_time = 0.0
        self._epoch_start_time = 0.0
        self._previous_epoch_iterations = 0.0

    # --- writers ---------------------------------------------------------------------------------
    def set_model(self, model: Any) -> None:
        self._model = model
        self._train_dir = os.path.join(self.log_dir, "train")
        self._val_dir = os.path.join(self.log_dir, "validation")
        self._writers = {}
        if self.write_graph:
            self._write_keras_model_summary()

    def _writer(self, which: str) -> Any:
        if which not in self._writers:
            self._writers[which] = tf.summary.create_file_writer(self._train_dir if which == "train" else self._val_dir)
        return self._writers[which]

    def _push_writer(self, which: str, step: int) -> None:
        """Keras's _push_writer: the writer the default with `step`, under record_if(step % update_freq == 0)."""
        if self.update_freq == "epoch":
            return
        freq = self.update_freq
        context = (self._writer(which).as_default(step), tf.summary.record_if(lambda: step % freq == 0))
        self._prev_summary_state.append(context)
        context[0].__enter__()
        context[1].__enter__()

    def _pop_writer(self) -> None:
        if self.update_freq == "epoch":
            return
        context = self._prev_summary_state.pop()
        context[1].__exit__(*sys.exc_info())
        context[0].__exit__(*sys.exc_info())

    def _close_writers(self) -> None:
        for writer in self._writers.values():
            writer.close()

    def _write_keras_model_summary(self) -> None:
        """Keras's keras_model_summary("keras", model, step=0): the model's JSON, plugin "graph_keras_model"."""
        with self._writer("train").as_default():
            if type(self.model).__name__ in ("Functional", "Sequential"):
                from tensorboard.compat.proto import summary_pb2
                metadata = summary_pb2.SummaryMetadata()
                metadata.plugin_data.plugin_name = "graph_keras_model"
                metadata.plugin_data.content = b"1"
                text = json.dumps(serialize_keras_object(self.model, "keras"), default=_json_default)
                with tf.summary.experimental.summary_scope("keras", "graph_keras_model", [self.model, 0]) as (tag, _):
                    tf.summary.write(tag=tag, tensor=tf.constant(text), step=0, metadata=metadata)

    # --- hooks -----------------------------------------------------------------------------------
    def on_train_begin(self, logs: Any = None) -> None:
        self._global_train_batch = 0
        self._previous_epoch_iterations = 0.0
        self._push_writer("train", self._global_train_batch)

    def on_train_end(self, logs: Any = None) -> None:
        self._pop_writer()
        self._close_writers()

    def on_test_begin(self, logs: Any = None) -> None:
        self._push_writer("val", self._global_test_batch)

    def on_test_end(self, logs: Any = None) -> None:
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and hasattr(optimizer, "iterations"):
            step = int(np.asarray(optimizer.iterations))
            with self._writer("val").as_default():
                for name, value in (logs or {}).items():
                    tf.summary.scalar(f"evaluation_{name}_vs_iterations", value, step=step)
        self._pop_writer()

    def on_train_batch_begin(self, batch: int, logs: Any = None) -> None:
        self._global_train_batch += 1
        if self.update_freq != "epoch":
            self._pop_writer()
            self._push_writer("train", self._global_train_batch)
        if self.write_steps_per_second:
            self._batch_start_time = simulated_now()

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        if self.write_steps_per_second:
            run_time = simulated_now() - self._batch_start_time
            tf.summary.scalar("batch_steps_per_second", 1.0 / run_time if run_time > 0 else np.inf,
                              step=self._global_train_batch)
        if isinstance(logs, dict):
            for name, value in logs.items():
                tf.summary.scalar(f"batch_{name}", value, step=self._global_train_batch)

    def on_test_batch_begin(self, batch: int, logs: Any = None) -> None:
        self._global_test_batch += 1
        if self.update_freq != "epoch":
            self._pop_writer()
            self._push_writer("val", self._global_test_batch)

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        if self.write_steps_per_second:
            self._previous_epoch_iterations = float(np.asarray(self.model.optimizer.iterations))
            self._epoch_start_time = simulated_now()

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        self._log_epoch_metrics(epoch, logs)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    # --- what an epoch writes --------------------------------------------------------------------
    def _collect_learning_rate(self, logs: dict[str, Any]) -> dict[str, Any]:
        optimizer = getattr(self.model, "optimizer", None)
        if hasattr(optimizer, "inner_optimizer"):
            optimizer = optimizer.inner_optimizer
        if optimizer is not None and hasattr(optimizer, "learning_rate"):
            logs["learning_rate"] = float(np.asarray(optimizer.learning_rate))
        return logs

    def _log_epoch_metrics(self, epoch: int, logs: Any) -> None:
        if not logs:
            return
        train_logs = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val_logs = {k: v for k, v in logs.items() if k.startswith("val_")}
        train_logs = self._collect_learning_rate(train_logs)
        if self.write_steps_per_second:
            elapsed = simulated_now() - self._epoch_start_time
            done = float(np.asarray(self.model.optimizer.iterations)) - self._previous_epoch_iterations
            train_logs["steps_per_second"] = done / elapsed if elapsed > 0 else np.inf
        if train_logs:
            with self._writer("train").as_default():
                for name, value in train_logs.items():
                    tf.summary.scalar(f"epoch_{name}", value, step=epoch)
        if val_logs:
            with self._writer("val").as_default():
                for name, value in val_logs.items():
                    tf.summary.scalar(f"epoch_{name[4:]}", value, step=epoch)

    def _log_weights(self, epoch: int) -> None:
        writer = self._writer("train")
        with writer.as_default():
            for layer in self.model.layers:
                for weight in layer.weights:
                    tf.summary.histogram(f"{weight.path.replace(':', '_')}/histogram", np.asarray(weight), step=epoch)
            writer.flush()


def _json_default(obj: Any) -> Any:
    """NumPy scalars/arrays and tuples in a config, as Keras's json_utils.get_json_type."""
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if hasattr(obj, "as_list"):
        return obj.as_list()
    if hasattr(obj, "name") and hasattr(obj, "is_floating"):
        return obj.name
    raise TypeError(f"keras.callbacks.TensorBoard: cannot write {type(obj).__name__} {obj!r} in the model config")

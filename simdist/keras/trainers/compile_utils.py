"""The compiled loss and metrics (keras/src/trainers/compile_utils.py, Keras 3.15).

`CompileMetrics` resolves `metrics` / `weighted_metrics` per model output when it first sees
`y_true` and `y_pred` (the string "accuracy"/"acc" becomes BinaryAccuracy, SparseCategoricalAccuracy
or CategoricalAccuracy from the shapes, as Keras decides), and names results as Keras does
(`<output>_<metric>`, `weighted_<metric>` on clashes). `CompileLoss` resolves `loss` (and
`loss_weights`) per output likewise ("crossentropy"/"ce" by shape) and sums the weighted losses;
with several outputs it tracks each unweighted loss in a `Mean` named `<output>_loss`.

Metrics and losses come from `simdist.keras.metrics` and `simdist.keras.losses`. The objects
here are duck-typed (name, update_state, result, reset_state, variables) rather than subclasses of
Keras's Metric/Loss, which the trainer does not need.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from typing import Any

from simdist import tf
from simdist.keras import traced, tree
from simdist.keras.naming import to_snake_case
from simdist.keras.losses.loss import unscale_loss_for_distribution
from simdist.keras.ops import tf_numpy


def _metrics_module() -> Any:
    from simdist.keras import metrics
    return metrics


def _losses_module() -> Any:
    from simdist.keras import losses
    return losses


def make_mean_metric(name: str) -> Any:
    """The trainer's loss tracker: `keras.metrics.Mean(name=name)`."""
    return _metrics_module().Mean(name=name)


# --- structure helpers (Keras's tree on dict/list/tuple) ----------------------------------------
def _is_nested(x: Any) -> bool:
    return isinstance(x, (list, tuple, dict))


def _flatten(x: Any) -> list[Any]:
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in _flatten(x[k])]
    if isinstance(x, (list, tuple)):
        return [leaf for v in x for leaf in _flatten(v)]
    return [x]


def _shape(x: Any) -> tuple:
    shape = getattr(x, "shape", None)
    if shape is None:
        return ()
    return tuple(shape.as_list() if hasattr(shape, "as_list") else shape)


def is_binary_or_sparse_categorical(y_true: Any, y_pred: Any) -> tuple[bool, bool]:
    """Keras: binary if y_pred's last dim is 1; sparse if y_true has lower rank (or last dim 1)."""
    ts, ps = _shape(y_true), _shape(y_pred)
    y_t_last = ts[-1] if ts else None
    y_p_last = ps[-1] if ps else None
    is_binary = y_p_last == 1
    is_sparse = len(ts) < len(ps) or (y_t_last == 1 and y_p_last is not None and y_p_last > 1)
    return is_binary, is_sparse


def _object_name(obj: Any) -> str:
    """keras/src/utils/naming.py get_object_name: a Keras object's `name`, else the snake case of a
    function's `__name__` ("myAbsErr" -> "my_abs_err"), else of its class's name."""
    name = getattr(obj, "name", None)
    if isinstance(name, str):
        return name
    fn = getattr(obj, "__name__", None)
    if fn:
        return to_snake_case(fn)
    return to_snake_case(type(obj).__name__)


def get_metric(identifier: Any, y_true: Any, y_pred: Any) -> Any:
    """A metric object for one compile() entry, "accuracy"/"acc" resolved by the shapes."""
    metrics = _metrics_module()
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() not in ("accuracy", "acc"):
        metric_obj = metrics.get(identifier)
    else:
        metric_obj = metrics.accuracy_variant(y_true, y_pred)(name=str(identifier))
    metric_name = identifier if isinstance(identifier, str) else _object_name(metric_obj)
    if not isinstance(metric_obj, metrics.Metric):
        metric_obj = metrics.MeanMetricWrapper(metric_obj)
    metric_obj.name = metric_name
    return metric_obj


class MetricsList:
    """The metrics of one output."""

    def __init__(self, metrics: list[Any], name: str = "metrics_list", output_name: str | None = None) -> None:
        self.name = name
        self.metrics = metrics
        self.output_name = output_name

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        for m in self.metrics:
            m.update_state(y_true, y_pred, sample_weight=sample_weight)

    def reset_state(self) -> None:
        for m in self.metrics:
            m.reset_state()

    @property
    def variables(self) -> list[Any]:
        return [v for m in self.metrics for v in m.variables]


def get_metrics_list(metrics: Any, y_true: Any, y_pred: Any, output_name: str | None = None) -> Any:
    if metrics is None:
        return None
    if isinstance(metrics, (list, tuple)):
        return MetricsList([get_metric(m, y_true, y_pred) for m in metrics], output_name=output_name)
    return MetricsList([get_metric(metrics, y_true, y_pred)], output_name=output_name)


def get_loss(identifier: Any, y_true: Any, y_pred: Any) -> Any:
    """A loss object for one output, "crossentropy"/"ce" resolved by the shapes."""
    losses = _losses_module()
    if identifier is None:
        return None
    if str(identifier).lower() not in ("crossentropy", "ce"):
        loss_obj = losses.get(identifier)
    else:
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
        if is_binary:
            loss_obj = losses.binary_crossentropy
        elif is_sparse:
            loss_obj = losses.sparse_categorical_crossentropy
        else:
            loss_obj = losses.categorical_crossentropy
    if not isinstance(loss_obj, losses.Loss):
        loss_name = identifier if isinstance(identifier, str) else _object_name(loss_obj)
        loss_obj = losses.LossFunctionWrapper(loss_obj, name=loss_name)
    return loss_obj


class CompileMetrics:
    """compile()'s `metrics` and `weighted_metrics`, resolved per output on first use."""

    def __init__(self, metrics: Any, weighted_metrics: Any, name: str = "compile_metric",
                 output_names: list[str] | None = None) -> None:
        if metrics and not isinstance(metrics, (list, tuple, dict)):
            raise ValueError("Expected `metrics` argument to be a list, tuple, or dict. "
                             f"Received instead: metrics={metrics} of type {type(metrics)}")
        if weighted_metrics and not isinstance(weighted_metrics, (list, tuple, dict)):
            raise ValueError("Expected `weighted_metrics` argument to be a list, tuple, or dict. Received instead: "
                             f"weighted_metrics={weighted_metrics} of type {type(weighted_metrics)}")
        self._user_metrics = metrics
        self._user_weighted_metrics = weighted_metrics
        self.built = False
        self.name = "compile_metrics"
        self.output_names = output_names
        self._flat_metrics: list[Any] = []
        self._flat_weighted_metrics: list[Any] = []
        self._resolved_output_names: Any = None

    @property
    def metrics(self) -> list[Any]:
        if not self.built:
            return []
        out: list[Any] = []
        for m in self._flat_metrics + self._flat_weighted_metrics:
            if isinstance(m, MetricsList):
                out.extend(m.metrics)
            elif m is not None:
                out.append(m)
        return out

    @property
    def variables(self) -> list[Any]:
        return [v for m in self.metrics for v in m.variables] if self.built else []

    def build(self, y_true: Any, y_pred: Any) -> None:
        num_outputs = len(_flatten(y_pred))
        y_pred_is_flat = _is_nested(y_pred) and len(y_pred) == num_outputs
        if y_pred_is_flat and isinstance(y_pred, dict):
            if self.output_names and set(y_pred.keys()) == set(self.output_names):
                output_names = self.output_names
            elif isinstance(y_pred, OrderedDict):
                output_names = list(y_pred.keys())
            else:
                output_names = sorted(y_pred.keys())
        else:
            output_names = self.output_names
        self._resolved_output_names = output_names if (num_outputs > 1 and y_pred_is_flat) else None
        self._flat_metrics = self._build_metrics_set(self._user_metrics, num_outputs, output_names, y_true, y_pred,
                                                     y_pred_is_flat, "metrics")
        self._flat_weighted_metrics = self._build_metrics_set(self._user_weighted_metrics, num_outputs, output_names,
                                                              y_true, y_pred, y_pred_is_flat, "weighted_metrics")
        self.built = True

    def _build_metrics_set(self, metrics: Any, num_outputs: int, output_names: Any, y_true: Any, y_pred: Any,
                           y_pred_is_flat: bool, argument_name: str) -> list[Any]:
        if not metrics:
            return [None] * num_outputs
        if num_outputs == 1:
            return [get_metrics_list(_flatten(metrics), _flatten(y_true)[0], _flatten(y_pred)[0], None)]
        flat_metrics = None
        if y_pred_is_flat:
            if isinstance(metrics, (list, tuple)) and len(metrics) == num_outputs:
                flat_metrics = list(metrics)
            elif output_names and isinstance(metrics, dict) and len(metrics) <= num_outputs \
                    and set(metrics.keys()) <= set(output_names):
                flat_metrics = [metrics.get(name) for name in output_names]
        if flat_metrics is None:
            raise ValueError(f"Invalid `{argument_name}`. `{argument_name}` should contain metrics objects and "
                             "either be a dict or a list matching the output names of the functional model "
                             f"{self.output_names} or match the output structure of the model. "
                             f"Received: {argument_name}={metrics}")
        names = output_names if output_names else [None] * num_outputs
        return [get_metrics_list(m, yt, yp, n)
                for m, yt, yp, n in zip(flat_metrics, self._flatten_y(y_true), self._flatten_y(y_pred), names)]

    def _flatten_y(self, y: Any) -> list[Any]:
        if isinstance(y, dict) and self._resolved_output_names is not None:
            return [y[name] for name in self._resolved_output_names]
        return _flatten(y)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        if not self.built:
            self.build(y_true, y_pred)
        y_true = self._flatten_y(y_true)
        y_pred = self._flatten_y(y_pred)
        for m, y_t, y_p in zip(self._flat_metrics, y_true, y_pred):
            if m:
                m.update_state(y_t, y_p)
        if sample_weight is not None:
            sample_weight = self._flatten_y(sample_weight)
            if len(sample_weight) < len(y_true):
                sample_weight = [sample_weight[0] for _ in range(len(y_true))]
        else:
            sample_weight = [None for _ in range(len(y_true))]
        for m, y_t, y_p, s_w in zip(self._flat_weighted_metrics, y_true, y_pred, sample_weight):
            if m:
                m.update_state(y_t, y_p, s_w)

    def reset_state(self) -> None:
        if not self.built:
            return
        for m in self._flat_metrics + self._flat_weighted_metrics:
            if m:
                m.reset_state()

    def result(self) -> dict[str, Any]:
        if not self.built:
            raise ValueError("Cannot get result() since the metric has not yet been built.")
        results: dict[str, Any] = {}
        counters: dict[str, int] = {}
        for mls in self._flat_metrics:
            if not mls:
                continue
            for m in mls.metrics:
                name = f"{mls.output_name}_{m.name}" if mls.output_name else m.name
                if name not in counters:
                    results[name] = m.result()
                    counters[name] = 1
                else:
                    index = counters[name]
                    counters[name] += 1
                    results[f"{name}_{index}"] = m.result()
        for mls in self._flat_weighted_metrics:
            if not mls:
                continue
            for m in mls.metrics:
                name = f"{mls.output_name}_{m.name}" if mls.output_name else m.name
                if name not in counters:
                    results[name] = m.result()
                    counters[name] = 1
                else:
                    name = f"weighted_{m.name}"
                    if mls.output_name:
                        name = f"{mls.output_name}_{name}"
                    if name not in counters:
                        counters[name] = 1
                    else:
                        index = counters[name]
                        counters[name] += 1
                        name = f"{name}_{index}"
                    results[name] = m.result()
        return results


class _WeightedLoss:
    """Keras 3.15's CompileLoss.build pytree leaf: a loss and its weight (None for a None loss)."""

    def __new__(cls, loss: Any, weight: Any) -> Any:
        if loss is None:
            return None
        return object.__new__(cls)

    def __init__(self, loss: Any, weight: Any) -> None:
        self.loss = loss
        self.weight = weight


_LossEntry = namedtuple("Loss", ["path", "loss", "loss_weights", "name"])


def _resolve_path(path: tuple, obj: Any) -> Any:
    """Keras's resolve_path: `obj[k]` for each key or index of the loss's path (so dict sample weights against
    a list of outputs are KeyError: 0, as in TF 2.21; kfuzz43)."""
    for key in path:
        obj = obj[key]
    return obj


class CompileLoss:
    """compile()'s `loss` and `loss_weights`: the weighted sum of each output's loss."""

    def __init__(self, loss: Any, loss_weights: Any = None, reduction: str = "sum_over_batch_size",
                 output_names: list[str] | None = None) -> None:
        if loss_weights and not isinstance(loss_weights, (list, tuple, dict, float)):
            raise ValueError("Expected `loss_weights` argument to be a float (single output case) or a list, tuple, "
                             "or dict (multiple output case). "
                             f"Received instead: loss_weights={loss_weights} of type {type(loss_weights)}")
        self._user_loss = loss
        self._user_loss_weights = loss_weights
        self.built = False
        self.output_names = output_names
        self.name = "compile_loss"
        self.reduction = reduction
        self.dtype = "float32"
        self._metrics: list[Any] = []
        self._flat_losses: list[Any] = []
        self._y_pred_build_structure: Any = None
        self._y_true_build_structure: Any = None

    @property
    def metrics(self) -> list[Any]:
        return self._metrics

    @property
    def variables(self) -> list[Any]:
        return [v for m in self._metrics for v in m.variables]

    def _build_nested(self, y_true: Any, y_pred: Any, loss: Any, output_names: Any, current_path: tuple) -> None:
        """Keras 3.15's CompileLoss._build_nested: walk the (weighted) loss structure beside the predictions and
        labels, one `_LossEntry` per non-None leaf loss, keyed by its path into y_pred/y_true. A flat list or tuple
        of as many losses as outputs is packed as y_pred; another list/tuple against predictions of a different
        container type applies each of its losses at the current path (so ["mse", "mae"] for one output gives two
        losses, the second never added to the total by call's fast path); a path missing from y_true or y_pred
        is Keras's KeyError (clause keras.compile.loss-structure)."""
        flat_y_pred = tree.flatten(y_pred)
        if not tree.is_nested(loss):
            _loss = loss.loss
            if _loss is None:
                return
            resolved_loss = get_loss(_loss, y_true, y_pred)
            name_path = current_path
            if not tree.is_nested(output_names):
                output_name = output_names if output_names is not None else resolved_loss.name
                if len(name_path) == 0:
                    name_path = (output_name,)
                elif isinstance(name_path[-1], int):
                    name_path = name_path[:-1] + (output_name,)
            name = "/".join([str(path) for path in name_path])
            if name == "":
                flat_output_names = list(output_names.keys()) if isinstance(output_names, dict) \
                    else tree.flatten(output_names)
                name = "_".join(flat_output_names)
            self._flat_losses.append(_LossEntry(current_path, resolved_loss, loss.weight, name))
            return
        elif issubclass(type(loss), (list, tuple)) and all(not tree.is_nested(_l) for _l in loss) \
                and len(loss) == len(flat_y_pred):
            loss = tree.pack_sequence_as(y_pred, loss)
        elif issubclass(type(loss), (list, tuple)) and not isinstance(y_pred, type(loss)):
            for _loss in loss:
                self._build_nested(y_true, y_pred, _loss, output_names, current_path)
            return
        if not tree.is_nested(loss):
            return self._build_nested(y_true, y_pred, loss, output_names, current_path)
        if not isinstance(loss, type(y_pred)):
            raise KeyError(f"The path: {current_path} in the `loss` argument, can't be found in the model's output "
                           "(`y_pred`).")
        if isinstance(loss, dict):
            iterator: Any = loss.items()

            def key_check_fn(key: Any, objs: tuple) -> bool:
                return all(isinstance(obj, dict) and key in obj for obj in objs)
        elif issubclass(type(loss), (list, tuple)):
            iterator = enumerate(loss)

            def key_check_fn(key: Any, objs: tuple) -> bool:
                return all(issubclass(type(obj), (list, tuple)) and key < len(obj) for obj in objs)
        else:
            raise TypeError(f"Unsupported type {type(loss)} in the `loss` configuration.")
        for key, _loss in iterator:
            if _loss is None:
                continue
            if not key_check_fn(key, (y_true, y_pred)):
                raise KeyError(f"The path: {current_path + (key,)} in the `loss` argument, can't be found in either "
                               "the model's output (`y_pred`) or in the labels (`y_true`).")
            self._build_nested(y_true[key], y_pred[key], _loss, output_names[key], current_path + (key,))

    def build(self, y_true: Any, y_pred: Any) -> None:
        """Keras 3.15's CompileLoss.build: a dict loss for list outputs taken by output name; the losses paired
        with `loss_weights` (weights of the loss's structure pair with it, others are flattened — a dict by
        sorted key — and packed as the loss, their count that of the loss's leaves, None losses included; else
        ValueError, or TypeError for a scalar as Keras's message takes len() of it); a single loss applied to
        every output; then `_build_nested` over y_true/y_pred."""
        loss = self._user_loss
        loss_weights = self._user_loss_weights
        flat_output_names = self.output_names
        names = self.output_names
        if names and isinstance(loss, dict) and not isinstance(y_pred, dict):
            if set(names) != set(loss.keys()):
                raise ValueError(f"Expected keys {names} in loss dict, but found loss.keys()={list(loss.keys())}")
            loss = [loss[n] for n in names]
            if isinstance(loss_weights, dict):
                loss_weights = [loss_weights[n] for n in names]
        if loss_weights is not None:
            try:
                tree.assert_same_structure(loss, loss_weights)
            except ValueError:
                flat_loss_weights = tree.flatten(loss_weights)
                if len(tree.flatten(loss)) != len(flat_loss_weights):
                    raise ValueError(f"`loss_weights` must match the number of losses, got {len(tree.flatten(loss))} "
                                     f"losses and {len(loss_weights)} weights.") from None
                loss_weights = tree.pack_sequence_as(loss, flat_loss_weights)
            loss = tree.map_structure(lambda _loss, _weight: _WeightedLoss(_loss, _weight), loss, loss_weights)
        else:
            loss = tree.map_structure(lambda _loss: _WeightedLoss(_loss, None), loss)
        self._flat_losses = []
        if isinstance(loss, dict) and issubclass(type(y_pred), (list, tuple)) \
                and set(loss.keys()) == set(flat_output_names) and len(y_pred) == len(flat_output_names):
            y_pred = {name: y_p for name, y_p in zip(flat_output_names, y_pred)}
            y_true = {name: y_t for name, y_t in zip(flat_output_names, y_true)}
        elif isinstance(loss, dict) and not tree.is_nested(y_pred) and set(loss.keys()) == set(flat_output_names) \
                and len(flat_output_names) == 1:
            y_pred = {name: y_p for name, y_p in zip(flat_output_names, [y_pred])}
            y_true = {name: y_t for name, y_t in zip(flat_output_names, [y_true])}
        try:
            output_names = tree.pack_sequence_as(y_pred, flat_output_names)
        except Exception:   # (Keras: a bare except)
            output_names = tree.pack_sequence_as(y_pred, self._get_y_pred_output_names(y_pred))
        if not tree.is_nested(loss):
            single = loss
            loss = tree.map_structure(lambda x: single, y_pred)
        self._build_nested(y_true, y_pred, loss, output_names, ())
        if len(self._flat_losses) > 1:
            self._metrics = [_metrics_module().Mean(name=f"{entry.name}_loss") for entry in self._flat_losses]
        self._y_pred_build_structure = tree.map_structure(lambda x: None, y_pred)
        self._y_true_build_structure = tree.map_structure(lambda x: None, y_true)
        self.built = True

    def build_as_called(self, y_true: Any, y_pred: Any) -> None:
        """`build` as `call` reaches it: y_true reconciled with y_pred first (a dict of targets for a list of outputs
        taken by output name). Keras 3.15's `_symbolic_build` builds the loss through
        `compute_output_spec(self._compute_loss, ...)`, so through `call` (kfuzz48: dict losses and targets for a list
        of outputs under a captured strategy were KeyError "The path: (0,) ..." in simdist, TF trains)."""
        if tree.is_nested(y_true) or tree.is_nested(y_pred):
            y_true = self._reconcile_y_true(y_true, y_pred)
        self.build(y_true, y_pred)

    @staticmethod
    def _get_y_pred_output_names(y_pred: Any) -> list[Any]:
        from simdist.keras.keras_tensor import KerasTensor
        flat_y_pred = tree.flatten(y_pred)
        if all(isinstance(x, KerasTensor) for x in flat_y_pred):
            return [t._keras_history.operation.name if hasattr(t, "_keras_history") else t.name
                    for t in flat_y_pred]
        return [None] * len(flat_y_pred)

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        return self.call(y_true, y_pred, sample_weight)

    def _reconcile_y_true(self, y_true: Any, y_pred: Any) -> Any:
        """Keras 3.15's CompileLoss.call: labels of another structure than the predictions are fitted to them — a
        leaf for a one-output list, a dict by output name for list outputs, packed as y_pred when the leaf count
        agrees, by paths when only container types differ, or spread over the non-None losses of a partially
        defined loss — else ValueError "y_true and y_pred have different structures" (never a silent
        truncation)."""
        try:
            tree.assert_same_structure(y_pred, y_true)
            return y_true
        except ValueError:
            pass
        if not tree.is_nested(y_true) and hasattr(y_pred, "__len__") and len(y_pred) == 1:
            y_true = [y_true]
        elif isinstance(y_pred, (list, tuple)) and isinstance(y_true, dict):
            if set(self.output_names) == set(y_true.keys()):
                y_true = [y_true[name] for name in self.output_names]
        try:
            return tree.pack_sequence_as(y_pred, y_true)
        except Exception:
            pass
        try:
            tree.assert_same_paths(y_true, y_pred)
            return tree.pack_sequence_as(y_pred, tree.flatten(y_true))
        except Exception:
            pass
        try:
            flat_y_true = tree.flatten(y_true)
            flat_loss = tree.flatten(self._user_loss)
            flat_loss_non_nones = [(i, lo) for i, lo in enumerate(flat_loss) if lo is not None]
            if len(flat_y_true) != len(flat_loss_non_nones):
                raise ValueError(f"Internal error: the number of values in `y_true` ({len(flat_y_true)}) must match "
                                 f"the number of non-None values in `loss` ({len(flat_loss_non_nones)}).")
            spread: list[Any] = [None] * len(flat_loss)
            for y_t, (i, _) in zip(flat_y_true, flat_loss_non_nones):
                spread[i] = y_t
            return tree.pack_sequence_as(self._user_loss, spread)
        except Exception:
            y_true_struct = tree.map_structure(lambda _: "*", y_true)
            y_pred_struct = tree.map_structure(lambda _: "*", y_pred)
            raise ValueError("y_true and y_pred have different structures.\n"
                             f"y_true: {y_true_struct}\ny_pred: {y_pred_struct}\n") from None

    def call(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        fast = not tree.is_nested(y_true) and not tree.is_nested(y_pred)
        if not fast:
            y_true = self._reconcile_y_true(y_true, y_pred)
        if not self.built:
            self.build(y_true, y_pred)
        if fast:
            # Keras's fast path (single output): every loss is computed, the first returned, no tracker updated.
            values = []
            for path, loss_fn, weight, _ in self._flat_losses:
                sw = _resolve_path(path, sample_weight) if sample_weight is not None and tree.is_nested(sample_weight) \
                    else sample_weight
                value = tf.cast(loss_fn(_resolve_path(path, y_true), _resolve_path(path, y_pred), sw), self.dtype)
                if weight is not None:
                    value = tf_numpy.multiply(value, weight)
                values.append(value)
            return values[0]
        try:
            tree.assert_same_structure(self._y_pred_build_structure, y_pred)
        except ValueError:
            y_pred = tree.pack_sequence_as(self._y_pred_build_structure, tree.flatten(y_pred))
        try:
            tree.assert_same_structure(self._y_true_build_structure, y_true)
        except ValueError:
            y_true = tree.pack_sequence_as(self._y_true_build_structure, tree.flatten(y_true))
        metrics = self._metrics if self._metrics else [None]
        values = []
        nested_sw = sample_weight is not None and tree.is_nested(sample_weight)
        for (path, loss_fn, weight, _), metric in zip(self._flat_losses, metrics):
            y_t, y_p = _resolve_path(path, y_true), _resolve_path(path, y_pred)
            sw = _resolve_path(path, sample_weight) if nested_sw else sample_weight
            value = tf.cast(loss_fn(y_t, y_p, sw), self.dtype)
            if metric is not None:
                # Keras 3.15 weighs each output's loss tracker by the prediction's *static* batch size
                # (`tree.flatten(y_p)[0].shape[0]`): None inside fit's and evaluate's traced steps, so
                # there every batch counts once (a partial last batch as much as a full one); its row
                # count when run eagerly (clause keras.fit.logs)
                rows = None if traced.batch_dim_unknown() else tf.shape(tree.flatten(y_p)[0])[0]
                metric.update_state(unscale_loss_for_distribution(value), sample_weight=rows)
            if weight is not None:
                value = tf_numpy.multiply(value, weight)
            values.append(value)
        # (Keras's ops.multiply(value, loss_weight) above: a Python float is weak, keeping the loss's dtype, a
        # NumPy scalar brings its dtype, so np.float64 loss_weights make the loss float64; kfuzz42)
        if not values:
            return None
        total = values[0]
        for v in values[1:]:
            total = total + v   # (Keras: `sum(loss_values)`; float32 + float64 fails as TF's AddV2 does)
        return total

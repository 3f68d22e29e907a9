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

from collections import OrderedDict
from typing import Any

from simdist import tf
from simdist.keras import traced
from simdist.keras.naming import to_snake_case
from simdist.keras.losses.loss import unscale_loss_for_distribution
from simdist.keras.trainers.data_adapter import same_structure
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


def _resolve_sample_weight(sample_weight: Any, y_pred: Any, i: int, flat_sw: list[Any]) -> Any:
    """Output `i`'s sample weights of nested `sample_weight`, as Keras 3.15's CompileLoss.call reads them:
    `resolve_path(path, sample_weight)` with the loss's path in the predictions' structure, an index for a list
    of outputs, a name for a dict. So the weights of a dict `y` (fit's single array replicated over y's
    structure by the data adapter, or a dict given) against a list of outputs raise KeyError: 0, as in TF 2.21
    (kfuzz43: seed 4320261203 #8; CompileLoss maps a dict y to the output list, but not the weights)."""
    if isinstance(y_pred, (list, tuple)) and not any(_is_nested(p) for p in y_pred):
        return sample_weight[i]
    if isinstance(y_pred, dict) and not any(_is_nested(p) for p in y_pred.values()):
        return sample_weight[sorted(y_pred)[i]]
    return flat_sw[i]


def _pack_as(structure: Any, flat: list[Any]) -> Any:
    it = iter(flat)

    def pack(s: Any) -> Any:
        if isinstance(s, dict):
            return {k: pack(s[k]) for k in sorted(s)} if not isinstance(s, OrderedDict) else \
                OrderedDict((k, pack(v)) for k, v in s.items())
        if isinstance(s, (list, tuple)):
            return type(s)(pack(v) for v in s)
        return next(it)

    out = pack(structure)
    return out


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
        self._flat_losses: list[tuple[Any, Any, Any, str]] = []

    @property
    def metrics(self) -> list[Any]:
        return self._metrics

    @property
    def variables(self) -> list[Any]:
        return [v for m in self._metrics for v in m.variables]

    def build(self, y_true: Any, y_pred: Any) -> None:
        loss, loss_weights = self._user_loss, self._user_loss_weights
        names = self.output_names
        if names and isinstance(loss, dict) and not isinstance(y_pred, dict):
            if set(names) != set(loss.keys()):
                raise ValueError(f"Expected keys {names} in loss dict, but found loss.keys()={list(loss.keys())}")
            loss = [loss[n] for n in names]
            if isinstance(loss_weights, dict):
                loss_weights = [loss_weights[n] for n in names]
        flat_pred = _flatten(y_pred)
        flat_true = _flatten(y_true)
        if isinstance(y_pred, dict):
            keys = sorted(y_pred)
            out_names = keys
        else:
            out_names = list(names) if names and len(names) == len(flat_pred) else [None] * len(flat_pred)
        # One (loss, weight) per output.
        if not _is_nested(loss):
            per_output = [loss] * len(flat_pred)
        elif isinstance(loss, dict):
            if not isinstance(y_pred, dict):
                raise ValueError(f"Expected keys {names} in loss dict, but found loss.keys()={list(loss.keys())}")
            per_output = [loss.get(k) for k in sorted(y_pred)]
        else:
            if len(loss) != len(flat_pred):
                raise ValueError(f"`loss` should have {len(flat_pred)} entries, one per model output. "
                                 f"Received: loss={loss}")
            per_output = list(loss)
        weights = self._weights_per_output(loss, loss_weights, y_pred, len(per_output))
        self._flat_losses = []
        for i, (lo, w) in enumerate(zip(per_output, weights)):
            if lo is None:
                continue
            resolved = get_loss(lo, flat_true[i] if i < len(flat_true) else None, flat_pred[i])
            name = out_names[i] if out_names[i] is not None else resolved.name
            self._flat_losses.append((i, resolved, w, str(name)))
        if len(self._flat_losses) > 1:
            self._metrics = [_metrics_module().Mean(name=f"{name}_loss") for _, _, _, name in self._flat_losses]
        self.built = True

    @staticmethod
    def _weights_per_output(loss: Any, loss_weights: Any, y_pred: Any, num_outputs: int) -> list[Any]:
        """Keras 3.15's pairing of `loss_weights` with `loss` (CompileLoss.build): weights of the loss's
        structure pair with it; others are flattened (a dict by SORTED key, whatever the output names) and
        packed as the loss, their count that of the loss's leaves (None losses included; else ValueError, or
        TypeError for a scalar, as Keras's message takes len() of it). A loss that is one leaf gives its one
        weight to every output; a dict loss (dict outputs) takes each output's weight by key."""
        if loss_weights is None:
            return [None] * num_outputs
        if not same_structure(loss, loss_weights):
            flat_weights = _flatten(loss_weights)
            if len(_flatten(loss)) != len(flat_weights):
                raise ValueError(f"`loss_weights` must match the number of losses, got {len(_flatten(loss))} losses "
                                 f"and {len(loss_weights)} weights.")
            loss_weights = _pack_as(loss, flat_weights)
        if not _is_nested(loss):
            return [loss_weights] * num_outputs
        if isinstance(loss, dict):
            return [loss_weights.get(k) for k in sorted(y_pred)]
        return _flatten(loss_weights)

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        return self.call(y_true, y_pred, sample_weight)

    def call(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        if not self.built:
            self.build(y_true, y_pred)
        flat_pred = _flatten(y_pred)
        if isinstance(y_true, dict) and isinstance(y_pred, (list, tuple)) and self.output_names:
            y_true = [y_true[n] for n in self.output_names]
        flat_true = _flatten(y_true) if _is_nested(y_true) else [y_true]
        if len(flat_true) == 1 and len(flat_pred) > 1 and len(self._flat_losses) == 1:
            flat_true = [flat_true[0] if i == self._flat_losses[0][0] else None for i in range(len(flat_pred))]
        nested_sw = _is_nested(sample_weight)
        flat_sw = _flatten(sample_weight) if nested_sw else None
        metrics = self._metrics if self._metrics else [None] * len(self._flat_losses)
        values = []
        for (i, loss_fn, weight, _), metric in zip(self._flat_losses, metrics):
            sw = _resolve_sample_weight(sample_weight, y_pred, i, flat_sw) if nested_sw else sample_weight
            value = tf.cast(loss_fn(flat_true[i], flat_pred[i], sw), self.dtype)
            if metric is not None:
                # Keras 3.15 weighs each output's loss tracker by the prediction's *static* batch size
                # (`tree.flatten(y_p)[0].shape[0]`): None inside fit's and evaluate's traced steps, so
                # there every batch counts once (a partial last batch as much as a full one); its row
                # count when run eagerly (clause keras.fit.logs)
                rows = None if traced.batch_dim_unknown() else tf.shape(flat_pred[i])[0]
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

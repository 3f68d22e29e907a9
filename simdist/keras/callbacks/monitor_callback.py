"""The base of callbacks watching one logged quantity (Keras 3.15's MonitorCallback): which way
is better ("min", "max", or "auto": min for losses, the metric's direction otherwise)."""

from __future__ import annotations

import warnings
from typing import Any

from simdist.keras import ops
from simdist.keras.callbacks.callback import Callback


class MonitorCallback(Callback):
    """`monitor`, `mode`, `baseline`/`best` and `min_delta` handling shared by EarlyStopping and
    ModelCheckpoint."""

    def __init__(self, monitor: str = "val_loss", mode: str = "auto", baseline: Any = None,
                 min_delta: float = 0) -> None:
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{self.__class__.__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        self.monitor = monitor
        self.mode = mode
        self.best = baseline
        self.min_delta = abs(min_delta)
        self.monitor_op: Any = None

    def _set_monitor_op(self) -> None:
        """Keras 3.15: `keras.ops.less` or `keras.ops.greater` (a tensor of the comparison), by mode or by the
        monitored metric's direction."""
        from simdist.keras.trainers.compile_utils import CompileMetrics, MetricsList

        if self.mode == "min":
            self.monitor_op = ops.less
        elif self.mode == "max":
            self.monitor_op = ops.greater
        else:
            metric_name = self.monitor.removeprefix("val_")
            if metric_name == "loss":
                self.monitor_op = ops.less
            all_metrics = []
            for m in getattr(self.model, "metrics", None) or []:
                if isinstance(m, (CompileMetrics, MetricsList)):
                    all_metrics.extend(m.metrics)
            for m in all_metrics:
                if m.name == metric_name and hasattr(m, "_direction"):
                    self.monitor_op = ops.greater if m._direction == "up" else ops.less
            if self.monitor_op is None:
                raise ValueError(f"{self.__class__.__name__} callback received monitor={self.monitor}, but Keras isn't "
                                 "able to automatically determine whether that metric should be maximized or "
                                 "minimized. Pass `mode='max'` in order to monitor based on the highest metric "
                                 "value, or pass `mode='min'` in order to use the lowest value.")
        if self.monitor_op is ops.less:
            self.min_delta *= -1

    def _is_improvement(self, monitor_value: Any, reference_value: Any) -> bool:
        if reference_value is None:
            return True
        return bool(self.monitor_op(monitor_value - self.min_delta, reference_value))

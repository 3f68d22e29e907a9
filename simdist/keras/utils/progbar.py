"""`keras.utils.Progbar` (Keras 3.15's utils/progbar.py): the progress bar of fit/evaluate/predict.

The text is Keras's: `Epoch 1/3`, then `12/12 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - accuracy: 0.5000 -
loss: 0.6931` (bold and colour escapes, redrawn in place with backspaces and carriage returns
where Keras does so, on POSIX always; a new line per update elsewhere; verbose=2 prints only the
final line). Times are *simulated* seconds
(`simdist.now()`), never the wall clock, so the output is the same on every run; an update is
printed when at least `interval` simulated seconds passed since the last one (Keras: wall
seconds), and always on the final one. Clause keras.fit.progress-bar.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any, Callable

import numpy as np

from simdist import now as simulated_now
from simdist.keras.io_utils import print_msg


class Progbar:
    """A progress bar over `target` units (None if unknown)."""

    def __init__(self, target: int | None, width: int = 20, verbose: int = 1, interval: float = 0.05,
                 stateful_metrics: Any = None, stateless_metrics: Any = None, unit_name: str = "step",
                 clock: Callable[[], float] | None = None) -> None:
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError("Only one of `stateful_metrics` or `stateless_metrics` can be provided. "
                             "`stateful_metrics` is used to make metrics stateless by default (with an exclusion "
                             "list), while `stateless_metrics` is used to make metrics stateful by default (with "
                             "an exclusion list).")
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        if stateful_metrics is not None:
            self.stateful_metrics: set | None = set(stateful_metrics)
            self.stateless_metrics: set | None = None
        elif stateless_metrics is not None:
            self.stateful_metrics = None
            self.stateless_metrics = set(stateless_metrics)
        else:
            self.stateful_metrics = set()
            self.stateless_metrics = None
        self._dynamic_display = (hasattr(sys.stdout, "isatty") and sys.stdout.isatty()) \
            or "ipykernel" in sys.modules or "posix" in sys.modules or "PYCHARM_HOSTED" in os.environ
        self._clock = clock or simulated_now
        self._seen_so_far = 0
        self._values: dict[str, Any] = {}
        self._values_order: list[str] = []
        self._start = self._clock()
        self._last_update = -float("inf")   # (Keras: 0 wall-clock seconds, long ago: the first update shows)
        self._time_at_epoch_start = self._start
        self._time_after_first_step: float | None = None
        self._prev_total_width = 0

    def update(self, current: int, values: Any = None, finalize: bool | None = None) -> None:
        """Show `current` units done, with the metric values given as (name, value) pairs."""
        if finalize is None:
            finalize = False if self.target is None else current >= self.target
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            stateless = (k not in self.stateful_metrics) if self.stateful_metrics is not None \
                else (k in self.stateless_metrics)
            if stateless:
                if finalize:
                    self._values[k] = [v, 1]
                else:
                    base = max(current - self._seen_so_far, 1)
                    if k not in self._values:
                        self._values[k] = [v * base, base]
                    else:
                        self._values[k][0] += v * base
                        self._values[k][1] += base
            else:
                self._values[k] = [v, 1]
        self._seen_so_far = current
        now = self._clock()
        time_per_unit = self._estimate_step_duration(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            message = ""
            special_char_len = 0
            if self._dynamic_display:
                message += "\b" * self._prev_total_width + "\r"
            else:
                message += "\n"
            if self.target is not None and self.target > 0:
                numdigits = int(math.log10(self.target)) + 1
                bar = f"%{numdigits}d/%d" % (current, self.target)
                bar = f"\x1b[1m{bar}\x1b[0m "
                special_char_len += 8
                prog_width = int(self.width * (float(current) / self.target))
                if prog_width > 0:
                    bar += f"\x1b[32m{'━' * prog_width}\x1b[0m"
                    special_char_len += 9
                bar += f"\x1b[37m{'━' * (self.width - prog_width)}\x1b[0m"
                special_char_len += 9
            else:
                bar = "%7d/Unknown" % current
            message += bar
            if self.target is not None and self.target > 0 and not finalize:
                eta = time_per_unit * (self.target - current)
                if eta > 3600:
                    eta_format = "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
                elif eta > 60:
                    eta_format = "%d:%02d" % (eta // 60, eta % 60)
                else:
                    eta_format = "%ds" % eta
                info = f" \x1b[1m{eta_format}\x1b[0m"
            else:
                info = f" \x1b[1m{now - self._start:.0f}s\x1b[0m"
            special_char_len += 8
            info += self._format_time(time_per_unit, self.unit_name)
            for k in self._values_order:
                info += f" - {k}:"
                if isinstance(self._values[k], list):
                    vals, count = self._values[k]
                    if not isinstance(vals, float):
                        vals = np.mean(vals)
                    avg = vals / max(1, count)
                    info += f" {avg:.4f}" if abs(avg) > 1e-3 else f" {avg:.4e}"
                else:
                    info += f" {self._values[k]}"
            message += info
            total_width = len(bar) + len(info) - special_char_len
            if self._prev_total_width > total_width:
                message += " " * (self._prev_total_width - total_width)
            if finalize:
                message += "\n"
            print_msg(message, line_break=False)
            self._prev_total_width = total_width
        elif self.verbose == 2:
            if finalize and self.target is not None and self.target > 0:
                numdigits = int(math.log10(self.target)) + 1
                count = f"%{numdigits}d/%d" % (current, self.target)
                info = f"{count} - {now - self._start:.0f}s"
                info += f" -{self._format_time(time_per_unit, self.unit_name)}"
                for k in self._values_order:
                    info += f" - {k}:"
                    vals, n = self._values[k]
                    if not isinstance(vals, float):
                        vals = np.mean(vals)
                    avg = vals / max(1, n)
                    info += f" {avg:.4f}" if avg > 1e-3 else f" {avg:.4e}"
                print_msg(info + "\n", line_break=False)
        self._last_update = now

    def add(self, n: int, values: Any = None) -> None:
        self.update(self._seen_so_far + n, values)

    @staticmethod
    def _format_time(time_per_unit: float, unit_name: str) -> str:
        if time_per_unit >= 1 or time_per_unit == 0:
            return f" {time_per_unit:.0f}s/{unit_name}"
        if time_per_unit >= 1e-3:
            return f" {time_per_unit * 1e3:.0f}ms/{unit_name}"
        return f" {time_per_unit * 1e6:.0f}us/{unit_name}"

    def _estimate_step_duration(self, current: int, now: float) -> float:
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            time_per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            time_per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return time_per_unit

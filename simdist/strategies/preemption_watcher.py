"""`tf.distribute.experimental.PreemptionWatcher` (TF's failure_handling/preemption_watcher.py, clause
pch.watcher). TF 2.21 watches the coordination service for a preemption notice only on
Borg TPU jobs (PlatformDevice.INTERNAL_TPU); on any other platform, which is every one simdist
simulates, it logs a warning, `preemption_message` stays None and `block_until_worker_exit` returns
at once. simdist's preemptions reach a program through PreemptionCheckpointHandler and the
coordinator's fault handling (docs/faults.md), as on TF's CPU and GPU platforms."""

from __future__ import annotations

import logging
from typing import Any

_PLATFORM = "PlatformDevice.INTERNAL_CPU"   # (TF's detect_platform() off TPUs and GPUs; simdist's hosts are CPUs)


class PreemptionWatcher:
    """Watch for a preemption notice (never one outside a Borg TPU job)."""

    def __init__(self) -> None:
        self._preemption_message: Any = None
        self._platform = _PLATFORM
        # (TF logs it with absl.logging: the "absl" logger)
        logging.getLogger("absl").warning("Preemption watcher does not support environment: %s", self._platform)

    @property
    def preemption_message(self) -> Any:
        """The preemption message; None: no preemption was noticed."""
        return self._preemption_message

    def block_until_worker_exit(self) -> None:
        """A no-op off TPU platforms (TF: it returns at once)."""
        return None

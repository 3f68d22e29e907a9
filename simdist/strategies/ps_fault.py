"""The state of a failed parameter-server task, attached to each of its variables (see
simdist.faults.PSFailure): reads and writes of those variables raise what TF 2.21 raises."""

from __future__ import annotations

from typing import Any

from simdist.runtime import errors


class _PSFault:
    """Attached to every variable of a failed ps task (see simdist.faults.PSFailure)."""

    def __init__(self, task: int, at: float) -> None:
        self.task = task
        self.at = at
        self.down = True

    def _where(self) -> str:
        return f"/job:ps/replica:0/task:{self.task}"

    def check_read(self, var: Any) -> None:
        if self.down:
            raise errors.UnavailableError(
                None, None, f"{self._where()} is unavailable (the parameter server failed at t={self.at:.6g}s); "
                f"cannot read {var.name}. Recover by restoring a checkpoint once it is back.")
        raise errors.FailedPreconditionError(
            None, None, f"Could not read {var.name}: its parameter server {self._where()} restarted and lost the "
            "value. Restore a checkpoint (tf.train.Checkpoint.restore) or assign the variable first.")

    def check_write(self, var: Any, kind: str) -> None:
        if self.down:
            raise errors.UnavailableError(
                None, None, f"{self._where()} is unavailable (the parameter server failed at t={self.at:.6g}s); "
                f"cannot update {var.name}.")
        if kind != "assign":
            self.check_read(var)
        var._fault = None

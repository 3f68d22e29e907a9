"""One published measurement of a real system, and the simdist workload that expresses it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

__all__ = ["Citation", "Measurement"]


@dataclass(frozen=True)
class Citation:
    """Where a published figure comes from: enough for anyone to find the same number again."""

    source: str    # repository/paper/page, e.g. "NVIDIA DeepLearningExamples, TensorFlow2 ResNet-50 README"
    where: str     # which table/figure/line holds the number
    date: str      # when it was published or last updated (ISO date or "YYYY-MM")
    url: str = ""  # address of the page, where it has one


@dataclass(frozen=True)
class Measurement:
    """A published figure (`published`, in `unit`) and `simulate`, which runs the simdist workload
    that expresses the same experiment and returns simdist's figure in the same unit.

    `split` says whether the row may be used to fit the global efficiency factors ("fit") or is
    only reported ("holdout"); no factor is ever tuned per row.
    """

    id: str                      # stable, e.g. "nccl-allreduce-a100-8gpu-1GiB"
    kind: Literal["collective", "compute", "training"]
    description: str             # what was measured, in words
    published: float
    unit: str                    # e.g. "GB/s busbw", "images/s", "us", "sequences/s"
    citation: Citation
    simulate: Callable[[], float]
    split: Literal["fit", "holdout"]
    derivation: str = ""         # how the workload's FLOPs/bytes were derived (shown in the table)

    def error(self, simulated: float) -> float:
        """Relative error of a simulated figure against the published one: (sim - pub) / pub."""
        return (simulated - self.published) / self.published

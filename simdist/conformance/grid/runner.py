"""Run one grid program on a backend and collect its observables as NumPy arrays."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.conformance.grid.programs import Case
from simdist.conformance.repro import Program


def run_case(backend: Any, case: Case) -> dict[str, np.ndarray]:
    """Execute ``case`` against ``backend.tf``; its ``obs`` as arrays (the program is the
    test's reproduction, see :mod:`simdist.conformance.repro`)."""
    ns = Program(backend, case.source, **case.params).run()
    return {k: np.asarray(backend.to_numpy(v)) for k, v in ns["obs"].items()}

"""A bounded slice of the fourth generator fz62 (tests/fuzz62/fz62_gen.py: the public functions no other generator
calls, every dtype given to common ops, arguments at and past their validity boundaries, Python and NumPy operands on
either side of operators and as op arguments; eager and in a tf.function), behind the slow marker (`python -m pytest
-m slow tests/fuzz62`): programs of two seeds whose every outcome agrees with TF 2.21, compared with TF's answers
(kept in tests/goldens/, recorded by running this module with TensorFlow installed). Left out: the programs of the
classes left open (/work/wt/fz62_logs/OPEN.md) and one that aborts TF's process. The whole campaign, TF and simdist
each in their own process:

    python tests/fuzz62/fz62_gen.py SEED N     (seeds 62401.., disagreements printed)
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import fz62_gen as F
import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.slow, tf_workers.tf_or_golden(__file__)]

_OPEN: dict = {62402: (2,)}   # (programs left out: 62402 #2 aborts TF's process, a conv backprop's CHECK failure)
PROGRAMS = [(s, k) for s in (62402, 62407) for k in range(8) if k not in _OPEN.get(s, ())]


def _case(seed: int, k: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return F.run_program(tf, np, F.program(seed, k), None)
    return run


TABLE = case_results.Table(__file__, {f"{s}/{k}": _case(s, k) for s, k in PROGRAMS},
                           re.compile(r"(fz62_slice_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


def test_fz62_slice_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

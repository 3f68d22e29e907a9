"""tf.random.Generator (Philox) draws whose counter's upper 64 bits wrap against TF 2.21 (clause ops.philox-counter-wrap):
FillPhiloxRandom skips each group's generator by its index, and the carry out of the counter's low 64 bits increments
the upper 64 bits modulo 2^64 (counter words 2 and 3 as uint32s), so from the state [2^64 - 2, 2^64 - 1, key] the
third group's counter is 0. simdist's vectorised blocks carried into word 3 without wrapping it (found by the
seventy-third blind batch's gaps module, docs/conformance.md, fifty-seventh session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _draws(lo: int, hi: int, kind: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        g = tf.random.Generator.from_state(np.array([lo, hi, 987654321], np.int64), alg="philox")
        if kind == "uniform":
            v = g.uniform([41])
        elif kind == "normal":
            v = g.normal([23], dtype=tf.float64)
        elif kind == "ints":
            v = g.uniform([30], minval=-7, maxval=100000, dtype=tf.int64)
        else:
            v = g.uniform_full_int([17], dtype=tf.uint32)
        return [v, g.state]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{lo},{hi}/{kind}": _draws(lo, hi, kind)
            for lo, hi in ((-2, -1), (-1, -1), (-5, -1), (-3, 2 ** 32 - 1), (-3, -2 ** 32), (-3, 0))
            for kind in ("uniform", "normal", "ints", "full")}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(?!)"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.philox-counter-wrap")
def test_generator_draws_across_the_counters_wrap(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

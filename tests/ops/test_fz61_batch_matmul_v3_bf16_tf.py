"""tf.raw_ops.BatchMatMulV3 of bfloat16 operands into bfloat16 (clause ops.packet-paths, fz61: onednn59's measured,
unimplemented class 4, listed by fz60 as not reached). TF 2.21's kernel sums each element's products over k in order in
float32 with fused multiply-adds from +0 and truncates the sum to bfloat16 (/work/wt/onednn59_logs/fit_v3bf.py,
fit_v3bf2.py; /work/wt/fz61_logs/q_v3.py), where simdist gave BatchMatMulV2's oneDNN product, rounded. `tf.matmul`
with output_type equal to the operands' type is BatchMatMulV2 in TF (unchanged, compared too). Eager, in a
tf.function, and the tape's gradients; compared as bit patterns. Its golden (tests/goldens/) is stamped with this
file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_SPECS = [(1, 1, 7, 5, False, False), (2, 5, 300, 3, False, True), (1, 3, 200, 4, True, False),
          (3, 16, 100, 17, False, False), (2, 8, 129, 9, True, True), (1, 9, 500, 2, False, False),
          (4, 2, 1025, 1, False, False), (2, 3, 4, 5, False, False)]


def _bits(tf: Any, t: Any) -> list:
    return np.asarray(tf.cast(t, tf.float32).numpy()).reshape(-1).view(np.uint32).tolist()


def _case(spec: tuple, how: str) -> Callable[[Any], Any]:
    b, m, k, n, adjx, adjy = spec

    def run(tf: Any) -> Any:
        r = np.random.RandomState(b * 1000 + k)
        xs = (b, k, m) if adjx else (b, m, k)
        ys = (b, n, k) if adjy else (b, k, n)
        x = tf.cast(tf.constant((r.randn(*xs) * r.choice([0.0625, 0.25, 1.0, 4.0, 16.0], size=xs)).astype(np.float32)),
                    tf.bfloat16)
        y = tf.cast(tf.constant((r.randn(*ys) * r.choice([0.0625, 0.25, 1.0, 4.0, 16.0], size=ys)).astype(np.float32)),
                    tf.bfloat16)

        def v3(p: Any, q: Any) -> Any:
            return tf.raw_ops.BatchMatMulV3(x=p, y=q, Tout=tf.bfloat16, adj_x=adjx, adj_y=adjy)
        if how == "eager":
            return _bits(tf, v3(x, y))
        if how == "function":
            return _bits(tf, tf.function(v3)(x, y))
        if how == "matmul_output_type":
            return _bits(tf, tf.matmul(x, y, adjoint_a=adjx, adjoint_b=adjy, output_type=tf.bfloat16))
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = v3(x, y)
        return [_bits(tf, g) for g in tape.gradient(z, [x, y])]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{spec}/{how}": _case(spec, how) for spec in _SPECS
            for how in ("eager", "function", "matmul_output_type", "gradients")}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz61_v3_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_batch_matmul_v3_bfloat16_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

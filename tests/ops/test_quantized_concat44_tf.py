"""tf.quantization.quantized_concat against TF 2.21 (the forty-fourth session, helper names44, clause
ops.quantize-dequantize; simdist/runtime/ops/quantize_ops.py `quantized_concat`).

The output range (min(0, mins) to the largest max; symmetric for qint32), each input requantized into it (copied
when its range is the output's), quint8 and qint32 kernels only, and the kernel's checks in order. One program,
the same on both backends; a message is compared without TF's "{{function_node ...}}" prefix and from " [Op:" or
"; NodeDef" on. TF runs it in a worker process (live or from the golden).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _text(e: Exception) -> str:
    s = re.sub(r"\{\{function_node [^}]*\}\} ", "", str(e).split("\n")[0])
    return s.split(" [Op:")[0].split("; NodeD")[0]


def quantized_concat(tf: Any) -> Any:

    Q=tf.quantization
    def at(f):
        try:
            r=f()
            if isinstance(r, tuple): return ["ok", type(r).__name__, [ (x.dtype.name, x.numpy().tolist()) for x in r]]
            return ["ok", repr(r)]
        except Exception as e: return ["error", type(e).__name__, _text(e)]
    a=Q.quantize(tf.constant([0.0, 1.0, 2.5, 6.0]), 0.0, 6.0, tf.quint8)
    b=Q.quantize(tf.constant([-1.0, 0.5, 3.0, 10.0]), -1.0, 10.0, tf.quint8)
    c=Q.quantize(tf.constant([[0.0, 1.0],[2.0,3.0]]), 0.0, 3.0, tf.quint8)
    i=Q.quantize(tf.constant([0.0, -1000.0, 2.5, 6.0]), -1000.0, 6.0, tf.qint32, mode="MIN_FIRST")
    j=Q.quantize(tf.constant([0.0, 1.0, 2.0, 3.0]), 0.0, 3.0, tf.qint32, mode="MIN_FIRST")
    k=Q.quantize(tf.constant([0.0, 1.0]), -1.0, 1.0, tf.qint8)
    out={}
    out['same']=at(lambda: Q.quantized_concat(0, [a.output, a.output], [a.output_min, a.output_min], [a.output_max, a.output_max]))
    out['diff']=at(lambda: Q.quantized_concat(0, [a.output, b.output], [a.output_min, b.output_min], [a.output_max, b.output_max]))
    out['py ranges']=at(lambda: Q.quantized_concat(0, [a.output, b.output], [0.0, -1.0], [6.0, 10.0]))
    out['qint32']=at(lambda: Q.quantized_concat(0, [i.output, j.output], [i.output_min, j.output_min], [i.output_max, j.output_max]))
    out['2d axis1']=at(lambda: Q.quantized_concat(1, [c.output, c.output], [0.0, 1.0], [3.0, 4.0]))
    out['2d axis0']=at(lambda: Q.quantized_concat(0, [c.output, c.output], [0.0, 0.0], [3.0, 5.0]))
    out['qint8']=at(lambda: Q.quantized_concat(0, [k.output, k.output], [-1.0, -1.0], [1.0, 1.0]))
    out['rank mismatch']=at(lambda: Q.quantized_concat(0, [a.output, c.output], [0.0, 0.0], [3.0, 5.0]))
    out['dim mismatch']=at(lambda: Q.quantized_concat(1, [c.output, Q.quantize(tf.constant([[1.0,2.0,3.0]]),0.0,3.0,tf.quint8).output], [0.0, 0.0], [3.0, 5.0]))
    out['bad axis']=at(lambda: Q.quantized_concat(2, [c.output, c.output], [0.0, 0.0], [3.0, 5.0]))
    out['neg axis']=at(lambda: Q.quantized_concat(-1, [c.output, c.output], [0.0, 0.0], [3.0, 5.0]))
    out['mins length']=at(lambda: Q.quantized_concat(0, [a.output, a.output], [0.0], [3.0, 5.0]))
    out['one value']=at(lambda: Q.quantized_concat(0, [a.output], [0.0], [3.0]))
    out['float values']=at(lambda: Q.quantized_concat(0, [tf.constant([1.0]), tf.constant([2.0])], [0.0, 0.0], [3.0, 5.0]))
    out['mixed types']=at(lambda: Q.quantized_concat(0, [a.output, i.output], [0.0, 0.0], [3.0, 5.0]))
    out['equal range']=at(lambda: Q.quantized_concat(0, [a.output, b.output], [1.0, 1.0], [1.0, 1.0]))
    out['axis tensor']=at(lambda: Q.quantized_concat(tf.constant([0]), [a.output, a.output], [0.0, 0.0], [3.0, 5.0]))
    out['function']=at(lambda: tf.function(lambda: Q.quantized_concat(0, [a.output, b.output], [0.0, -1.0], [6.0, 10.0]))())
    rng = np.random.default_rng(44)
    for k, (lo1, hi1, lo2, hi2) in enumerate([(0.0, 1.0, 0.0, 2.0), (-3.0, 3.0, 0.5, 7.25), (2.0, 5.0, 1.0, 4.0),
                                              (-0.1, 0.2, -8.0, 0.0), (0.0, 255.0, 0.0, 1.0)]):
        x1 = tf.constant(rng.integers(0, 256, size=[3, 5]).astype(np.uint8))
        x2 = tf.constant(rng.integers(0, 256, size=[3, 4]).astype(np.uint8))
        q1, q2 = tf.bitcast(x1, tf.quint8), tf.bitcast(x2, tf.quint8)
        out[f"quint8 ranges {k}"] = at(lambda: Q.quantized_concat(1, [q1, q2, q1], [lo1, lo2, lo1], [hi1, hi2, hi1]))
        y1 = tf.bitcast(tf.constant(rng.integers(-2**31, 2**31, size=[4], dtype=np.int64).astype(np.int32)), tf.qint32)
        y2 = tf.bitcast(tf.constant(rng.integers(-2**20, 2**20, size=[3], dtype=np.int64).astype(np.int32)), tf.qint32)
        out[f"qint32 ranges {k}"] = at(lambda: Q.quantized_concat(0, [y1, y2], [lo1, lo2], [hi1, hi2]))
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    return quantized_concat(tf)


CASES: dict[str, dict] = {"quantized-concat": {"strategy": "default"}}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.quantize-dequantize")
@pytest.mark.parametrize("index", [0], ids=list(CASES))
def test_quantized_concat_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["quantized-concat"], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, "; ".join(f"{k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

"""BiasAddGrad of one value a channel (kopen57; clause ops.sum-order).

TF 2.21's BiasAddGrad returns its input as it is when every channel has one value to sum (a one-row batch: [1, C]
NHWC, [1, 1, 1, C], [1, C, 1, 1] NCHW), so a -0.0 stays -0.0, where two or more values sum from +0: a Dense layer's
bias gradient on a one-row batch whose ReLU gradient is -0.0 (fsweep57's dict model, its partial batch of one row).
Each case returns its results' bits (int views, compared exactly) or [error class, first line].
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

def _vals(n: int, salt: int) -> np.ndarray:
    """Exact float32 inputs in [0.5, 2): distinct ratios k / 997, correctly rounded."""
    k = (np.arange(n) * (37 + 2 * salt) + 11 * salt) % 1497 + 499
    return (k.astype(np.float64) / 997.0).astype(np.float32)


def _bits(a: Any) -> Any:
    a = np.asarray(a)
    return [str(a.dtype), list(a.shape), a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]).tolist()]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _bits(np.asarray(fn()))])
    except Exception as e:  # noqa: BLE001 - the class and first line are what is compared
        text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(e).split("\n")[0])
        out.append([label, [type(e).__name__, text[:120]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    v = _vals(12, 1) - 1.25
    rows = {"one row": [((1, 3), "NHWC"), ((1, 1, 1, 3), "NHWC"), ((1, 3, 1, 1), "NCHW"), ((1, 1), "NHWC")],
            "more rows": [((1, 2, 3), "NHWC"), ((2, 3), "NHWC"), ((1, 3, 2), "NCHW"), ((3, 1), "NHWC")]}[case["name"]]
    for shape, fmt in rows:
        size = int(np.prod(shape))
        for dt in ("float32", "float64", "float16"):
            z = -np.zeros(shape, np.float32)
            mixed = np.where(np.arange(size).reshape(shape) % 2 == 0, z, v[:size].reshape(shape))
            for label, x in (("-0.0", z), ("mixed", mixed)):
                t = tf.constant(x.astype(dt))
                _try(out, f"{shape} {fmt} {dt} {label}",
                     lambda: tf.raw_ops.BiasAddGrad(out_backprop=t, data_format=fmt))
                _try(out, f"{shape} {fmt} {dt} {label} traced",
                     lambda: tf.function(lambda u: tf.raw_ops.BiasAddGrad(out_backprop=u, data_format=fmt))(t))
    return out


NAMES = ["one row", "more rows"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.sum-order")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_bias_add_grad_one_row_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {_summary(g[1])}, TF 2.21 gives {_summary(w[1])}"
           for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: " + "; ".join(bad)


def _summary(v: Any) -> str:
    """A result for a failure message: an error as it is, an array by its dtype, shape and first differing values."""
    if isinstance(v, list) and len(v) == 3 and isinstance(v[2], list):
        return f"{v[0]}{v[1]} first {v[2][:3]}"
    return repr(v)[:200]


if __name__ == "__main__":
    tf_workers.serve(tf_programs.worker(CASES, program))

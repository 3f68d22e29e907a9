"""tf.experimental.dlpack against TF 2.21 (the forty-sixth session, helper open46; clause api.namespaces;
simdist/tf/_dlpack.py, Tensor.__dlpack__ in simdist/runtime/tensor.py).

TF 2.21's to_dlpack gives a PyCapsule named "dltensor"; from_dlpack takes one (TF's or NumPy's `__dlpack__()`),
makes a tensor of its dtype and shape on CPU:0 and consumes it (a second call: InvalidArgumentError); a NumPy
array or a number is pybind11's TypeError; `np.from_dlpack(tensor)` reads a tensor. Each call: its value, dtype
and device, or the error's class.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _attempt(f: Any) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class is the observable
        return ["error", type(e).__name__]


def _desc(t: Any) -> Any:
    return [t.numpy().tolist(), t.dtype.name, t.device.split("/")[-1]]


def program(tf: Any, case: dict, workdir: str) -> Any:
    dl = tf.experimental.dlpack
    out: dict[str, Any] = {"names": sorted(n for n in dir(dl) if not n.startswith("_"))}
    for dt in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "bool"):
        x = tf.cast(tf.constant([[1, 0], [3, 4]]), getattr(tf, dt))
        out[f"round trip {dt}"] = _attempt(lambda: _desc(dl.from_dlpack(dl.to_dlpack(x))))
        out[f"np.from_dlpack {dt}"] = _attempt(lambda: [np.from_dlpack(x).tolist(), str(np.from_dlpack(x).dtype)])
    c = dl.to_dlpack(tf.constant([1.0, 2.0]))
    out["capsule kind"] = type(c).__name__
    out["first use"] = _attempt(lambda: _desc(dl.from_dlpack(c)))
    out["second use"] = _attempt(lambda: _desc(dl.from_dlpack(c)))
    out["a NumPy array"] = _attempt(lambda: _desc(dl.from_dlpack(np.arange(3))))
    out["a number"] = _attempt(lambda: _desc(dl.from_dlpack(3)))
    out["a NumPy capsule"] = _attempt(lambda: _desc(dl.from_dlpack(np.arange(6, dtype=np.int16).reshape(2, 3).__dlpack__())))
    out["a scalar"] = _attempt(lambda: _desc(dl.from_dlpack(dl.to_dlpack(tf.constant(7, tf.uint8)))))
    out["np.from_dlpack of a scalar"] = _attempt(lambda: np.from_dlpack(tf.constant(2.5)).tolist())
    with tf.device("/cpu:1"):
        out["under another device"] = _attempt(lambda: _desc(dl.from_dlpack(dl.to_dlpack(tf.constant([5])))))
    return out


NAMES = ["dlpack"]
CASES: dict[str, dict] = {n: {"strategy": "default"} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_dlpack_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's calls {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, f"{name}: " + "; ".join(f"{k}: simdist gives {got[k]}, TF 2.21 gives {want[k]}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

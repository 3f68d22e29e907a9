"""Each op against real TensorFlow 2.21: forward value and dtype, and the gradients of
sum(out * w), on seeded float32 inputs (two cases per spec). Needs the `tf` extra."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers
from op_check import run
from op_specs import all_specs

SPECS = all_specs()

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CASES = [(spec, seed) for spec in SPECS for seed in (1, 2)]


def _case(k: int) -> tuple[Any, list[np.ndarray]]:
    spec, seed = CASES[k]
    return spec, spec.make(np.random.default_rng(1000 + seed), np.float32)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out = {}
    for k in indices:
        spec, arrays = _case(k)
        try:
            out[k] = run(tf, spec, arrays)
        except Exception as e:  # noqa: BLE001 - the error class is part of the result
            out[k] = {"error": type(e).__name__}
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{s.name}-{seed}" for s, seed in CASES])
def test_same_as_tensorflow(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    spec, arrays = _case(k)
    want = tf_results[k]
    assert "error" not in want, f"TF 2.21 raised {want['error']} [{spec.name}]"
    got = run(tf, spec, arrays)
    assert got["dtype"] == want["dtype"], f"out.dtype={got['dtype']}, but TF 2.21 gives {want['dtype']} [{spec.name}]"
    assert got["out"].shape == want["out"].shape, \
        f"out.shape={got['out'].shape}, but TF 2.21 gives {want['out'].shape} [{spec.name}]"
    assert np.allclose(got["out"], want["out"], rtol=spec.rtol, atol=1e-6), \
        f"out={got['out'].ravel()[:6]}..., but TF 2.21 gives {want['out'].ravel()[:6]}... [{spec.name}]"
    for j, (g, w) in enumerate(zip(got["grads"], want["grads"])):
        assert (g is None) == (w is None), f"grad[{j}]={g!r}, but TF 2.21 gives {w!r} [{spec.name}]"
        if w is not None:
            assert g.shape == w.shape, f"grad[{j}].shape={g.shape}, but TF 2.21 gives {w.shape} [{spec.name}]"
            assert np.allclose(g, w, rtol=spec.grad_rtol, atol=1e-5), \
                f"grad[{j}]={g.ravel()[:6]}..., but TF 2.21 gives {w.ravel()[:6]}... [{spec.name}]"


if __name__ == "__main__":  # TF worker: python test_op_differential_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)

"""Eigen's softmax-family kernels (simdist/runtime/ops/softmax_eigen.py) on stacked replica lanes:
their exp/log steps over a whole tensor put packet boundaries by the tensor's size, so R lanes
stacked must be computed as R tensors (`lanes=R`), and a fused replay must pass R (clause
nn.softmax-eigen; the replay's bit-equality with replica-by-replica runs: test_replica_fusion.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from simdist.runtime.ops import softmax_eigen

clause = pytest.mark.clause

_RNG = np.random.default_rng(20261201)
_CASES = [(dt, rows, c, R) for dt in ("float32", "float64") for rows, c, R in ((4, 3, 4), (3, 5, 3), (5, 7, 2))]


def _kernels(x: np.ndarray, lab: np.ndarray, soft: np.ndarray, lanes: int) -> list[np.ndarray]:
    out = [softmax_eigen.log_softmax(x, lanes), softmax_eigen.softmax(x, lanes)]
    out += list(softmax_eigen.sparse_xent(x, lab, lanes)) + list(softmax_eigen.xent(x, soft, lanes))
    return out


@clause("nn.softmax-eigen")
@pytest.mark.parametrize("dtype,rows,classes,replicas", _CASES)
def test_stacked_lanes_give_each_lanes_own_bits(dtype: str, rows: int, classes: int, replicas: int) -> None:
    names = ["log_softmax", "softmax", "sparse loss", "sparse backprop", "loss", "backprop"]
    differs_unsplit = False
    for trial in range(20):
        x = (_RNG.standard_normal((replicas * rows, classes)) * 3).astype(dtype)
        lab = _RNG.integers(0, classes, replicas * rows)
        soft = _RNG.random((replicas * rows, classes)).astype(dtype)
        per_lane = [_kernels(x[r * rows:(r + 1) * rows], lab[r * rows:(r + 1) * rows],
                             soft[r * rows:(r + 1) * rows], 1) for r in range(replicas)]
        want = [np.concatenate([p[k] for p in per_lane]) for k in range(len(names))]
        got = _kernels(x, lab, soft, replicas)
        for name, g, w in zip(names, got, want):
            bad = np.flatnonzero(g.ravel() != w.ravel())
            assert bad.size == 0, (f"{name}(lanes={replicas}) entries {bad[:4].tolist()} = {g.ravel()[bad[:4]]}, "
                                   f"but each lane alone gives {w.ravel()[bad[:4]]} [{dtype} {replicas}x{rows}x{classes}]")
        unsplit = _kernels(x, lab, soft, 1)
        differs_unsplit |= any(not np.array_equal(u, w) for u, w in zip(unsplit, want))
    p = 8 if dtype == "float32" else 4
    if (rows * classes) % p or rows % p:   # a lane's flat tail exists: computed whole, the stacked tensor moves it
        assert differs_unsplit, (f"the stacked tensor computed whole never differs from its lanes "
                                 f"[{dtype} {replicas}x{rows}x{classes}]: this case does not test the split")


@clause("nn.softmax-eigen")
def test_a_fused_replay_passes_its_replica_count(monkeypatch: pytest.MonkeyPatch) -> None:
    import test_replica_fusion as fusion
    seen: list[tuple[str, int]] = []
    for name in ("log_softmax", "sparse_xent", "xent"):
        real = getattr(softmax_eigen, name)

        def spy(*a: Any, _real: Any = real, _name: str = name, **k: Any) -> Any:
            seen.append((_name, a[0].shape[0], k.get("lanes", a[-1] if _name != "log_softmax" and len(a) > 2 or
                                                       _name == "log_softmax" and len(a) > 1 else 1)))
            return _real(*a, **k)
        monkeypatch.setattr(softmax_eigen, name, spy)
    fused = fusion._run(fusion._dense, True)
    assert "with its replicas fused" in fused["explain"], fused["explain"]
    stacked = sorted({(name, n, lanes) for name, n, lanes in seen if n == 4 * fusion.N})
    assert stacked and all(lanes == 4 for _, _, lanes in stacked), (
        f"stacked calls (op, rows, lanes) {stacked}, but every call on 4 replicas' rows should say lanes=4")

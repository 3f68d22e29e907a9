"""reduce.ring_sum_parts (a traced nest's all-reduce over a pack of leaves, strategies/base.py `_ring_packs`) gives
the bits of reduce.ring_sum over each member's parts concatenated, which it saves the copies of: seeded packs of 1 to
6 leaves of 0 to 300 elements (chunk boundaries inside leaves, on their edges, empty chunks), 1 to 5 members,
float16/float32/float64, values with ±inf, NaN, -0.0 and subnormals, with and without denormals-are-zero."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.semantics.reduce import ring_sum, ring_sum_parts

pytestmark = pytest.mark.clause("reduce.ring-order")

_SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -3e-39, 1e-310, 6e4, 3e38]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("daz", [False, True])
def test_parts_sum_as_their_concatenation(dtype: str, daz: bool) -> None:
    r = np.random.RandomState(5630 + 2 * ["float16", "float32", "float64"].index(dtype) + daz)
    for case in range(60):
        members = int(r.randint(1, 6))
        sizes = [int(r.choice([0, 1, 2, 3, 15, 16, 17, 64, 100, 300])) for _ in range(int(r.randint(1, 7)))]
        parts = []
        for _ in range(members):
            leaves = []
            for size in sizes:
                a = (r.standard_normal(size) * r.choice([1e-3, 1.0, 1e3])).astype(dtype)
                if size and case % 3 == 0:
                    idx = r.randint(0, size, size // 4 + 1)
                    with np.errstate(over="ignore"):
                        a[idx] = np.asarray(r.choice(_SPECIALS, idx.size)).astype(dtype)
                leaves.append(a.reshape((1, size)) if case % 2 else a)
            parts.append(leaves)
        want = ring_sum([np.concatenate([a.reshape(-1) for a in leaves]) for leaves in parts], daz)
        got = ring_sum_parts(parts, daz)
        wb, gb = want.view(f"u{want.itemsize}"), got.view(f"u{got.itemsize}")
        assert got.shape == want.shape and got.dtype == want.dtype, (case, got.shape, want.shape)
        bad = np.flatnonzero(wb != gb)
        assert not bad.size, (f"case {case} ({members} members, leaf sizes {sizes}): {bad.size} elements differ; "
                              f"element {int(bad[0])}: expected {want[bad[0]]!r} ({int(wb[bad[0]]):#x}), "
                              f"got {got[bad[0]]!r} ({int(gb[bad[0]]):#x})")

"""Each op's forward against its NumPy reference, on hypothesis-drawn inputs, in each float dtype."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from simdist import tf
from op_check import run
from op_specs import OpSpec, all_specs

SPECS = all_specs()


@pytest.mark.parametrize("spec", [s for s in SPECS if s.ref is not None], ids=lambda s: s.name)
@given(seed=st.integers(0, 2**31 - 1), dt=st.sampled_from([np.float32, np.float64]))
def test_forward_matches_numpy(spec: OpSpec, seed: int, dt: type) -> None:
    if dt not in spec.dtypes:
        return
    arrays = spec.make(np.random.default_rng(seed), dt)
    got = run(tf, spec, arrays, with_grads=False)
    want = np.asarray(spec.ref(*arrays))
    assert got["out"].shape == want.shape, f"out.shape={got['out'].shape}, but should be {want.shape} [{spec.name}]"
    if want.dtype.kind == "f":
        assert got["out"].dtype == np.dtype(dt), f"out.dtype={got['out'].dtype}, but should be {np.dtype(dt)} [{spec.name}]"
    tol = spec.rtol if dt == np.float32 else 1e-12
    assert np.allclose(got["out"], want, rtol=tol, atol=tol), \
        f"out={got['out'].ravel()[:6]}..., but should be {want.ravel()[:6]}... [{spec.name}, {np.dtype(dt).name}]"

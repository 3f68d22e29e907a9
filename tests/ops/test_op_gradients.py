"""Every op's gradient (GradientTape) against central finite differences in float64, and the
coverage of the registry: every registered op type is exercised by a spec or says why not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simdist import tf
from simdist.runtime.ops import registry
from op_check import finite_differences, run
from op_specs import OpSpec, all_specs, all_untested
import specs_complex
import specs_gap6
import specs_ops8
import specs_print
import specs_resize
import specs_io19
import specs_codecs21
import specs_str15
import specs_summary22
import specs_quantize24
import specs_fused_batch_norm
import specs_rawops35
import specs_rawops36
import specs_rawops37
import specs_rawops38
import specs_rawops39
import specs_distribute40
import specs_fz56
import specs_onednn57
import specs_pool58
import specs_conv60
import specs_fz61

SPECS = all_specs()
UNTESTED_OPS = {**all_untested(), **specs_complex.UNTESTED_OPS, **specs_gap6.UNTESTED_OPS, **specs_ops8.UNTESTED_OPS,
                **specs_resize.UNTESTED_OPS, **specs_print.UNTESTED_OPS, **specs_str15.UNTESTED_OPS,
                **specs_io19.UNTESTED_OPS, **specs_codecs21.UNTESTED_OPS, **specs_summary22.UNTESTED_OPS,
                **specs_quantize24.UNTESTED_OPS, **specs_fused_batch_norm.UNTESTED_OPS,
                **specs_rawops35.UNTESTED_OPS, **specs_rawops36.UNTESTED_OPS,
                **specs_rawops37.UNTESTED_OPS, **specs_rawops38.UNTESTED_OPS,
                **specs_rawops39.UNTESTED_OPS, **specs_distribute40.UNTESTED_OPS,
                **specs_fz56.UNTESTED_OPS, **specs_onednn57.UNTESTED_OPS,
                **specs_pool58.UNTESTED_OPS, **specs_conv60.UNTESTED_OPS,
                **specs_fz61.UNTESTED_OPS}


@pytest.mark.parametrize("spec", [s for s in SPECS if s.fd], ids=lambda s: s.name)
@settings(max_examples=5)   # (10 until 2026-12-02: 86 s of the default run, which reached 918 s)
@given(seed=st.integers(0, 2**31 - 1))
def test_gradient_matches_finite_differences(spec: OpSpec, seed: int) -> None:
    arrays = spec.make(np.random.default_rng(seed), np.float64)
    got = run(tf, spec, arrays)
    for k, i in enumerate(spec.diff):
        g = got["grads"][k]
        if not spec.grad:
            assert g is None, f"d/d input {i} = {g!r}, but should be None (not differentiable) [{spec.name}]"
            continue
        assert g is not None, f"d/d input {i} is None, but should be a gradient [{spec.name}]"
        fd = finite_differences(tf, spec, arrays, i)
        assert g.shape == fd.shape, f"grad.shape={g.shape}, but should be {fd.shape} [{spec.name}, input {i}]"
        assert np.allclose(g, fd, rtol=spec.fd_rtol, atol=1e-6), \
            f"grad={g.ravel()[:6]}..., but finite differences give {fd.ravel()[:6]}... [{spec.name}, input {i}]"


def test_every_registered_op_is_in_the_table() -> None:
    covered = {op for s in SPECS for op in s.ops} | set(UNTESTED_OPS)
    missing = [op.name for op in registry.registered_ops() if op.name not in covered]
    assert not missing, (f"registered op types {missing} have no OpSpec in tests/ops/op_specs.py: add a spec (or "
                         "an UNTESTED_OPS entry saying why)")
    stale = sorted(set(UNTESTED_OPS) - {op.name for op in registry.registered_ops()})
    assert not stale, f"UNTESTED_OPS names {stale}, which are not registered op types"


def test_every_differentiable_op_has_a_gradient() -> None:
    """An op type with no gradient registered must be declared not differentiable, as TF
    requires: else GradientTape would raise LookupError on it."""
    missing = [op.name for op in registry.registered_ops() if op.grad is None]
    assert not missing, f"op types {missing} have neither a gradient nor NotDifferentiable"

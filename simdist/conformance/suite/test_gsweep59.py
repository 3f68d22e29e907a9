"""The Grappler sweep (fifty-ninth session, gsweep59; gsweep59_cases.py): each of Grappler's value-, shape- or
error-changing rewrites crossed by rule (precondition met and just not met) x dtype x value class, the traced result
beside the eager one and the traced gradient. Expected results are TF 2.21's, recorded on an AVX-512 Xeon with oneDNN
on (`python -m simdist.conformance.suite.test_gsweep59 --record` rewrites gsweep59_reference.json.gz); the g-bias-*
programs of float32/float16/bfloat16 are host-dependent (oneDNN's products)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.gsweep59_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("g-pow-"))
def test_gsweep59_convert_pow(backend: Any, name: str) -> None:
    """x ** c for c in 2, 3, 0.5, -0.5, 1, 0, -1, 2.0000001 as a Python number, a Const, a Const vector, a widening
    vector and a captured variable, of every float and complex dtype: eager, traced and the traced gradient."""
    _check(backend, name)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("g-div-") + _ids("g-arith-") + _ids("g-logexp-") + _ids("g-chain-"))
def test_gsweep59_divisions_involutions_log1p_and_chains(backend: Any, name: str) -> None:
    """SqrtDivToRsqrtMul, ReduceDivToReciprocalMul, Xdivy, RemoveInvolution/Negation, Log1p/Expm1, FuseSquaredDiff,
    Transpose/Reshape/Cast chains, each met and just missed: TF 2.21's bits eagerly, traced and differentiated."""
    _check(backend, name)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("g-mono-"))
def test_gsweep59_max_min_of_monotonic(backend: Any, name: str) -> None:
    """Max/Min/ArgMax/ArgMin of non-decreasing, non-increasing and non-monotonic functions over ties, NaN, +-inf and
    -0.0 (f(x) read once and twice): TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("g-agg-") + _ids("g-ones-") + _ids("g-lnot") + _ids("g-shape") + _ids("g-minbc-")
                         + _ids("g-stateful"))
def test_gsweep59_aggregation_simplification_and_folding(backend: Any, name: str) -> None:
    """AddN/Add of identical inputs and of constants, hoisted common factors, ConstantPushDown, MinimizeBroadcasts,
    ones/zeros materialized every way, RemoveLogicalNot over NaN, Shape/Size/Rank of partial shapes, a regrouped product
    read twice, stateful draws never folded across calls: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.onednn-fused-contraction")
@pytest.mark.parametrize("name", _ids("g-bias-"))
def test_gsweep59_contraction_bias_activation_fusions(backend: Any, name: str) -> None:
    """MatMul/Conv2D + BiasAdd (+ Relu, Relu6, Elu, LeakyRelu) and their near misses in every float dtype: TF 2.21's
    (host-dependent below float64)."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

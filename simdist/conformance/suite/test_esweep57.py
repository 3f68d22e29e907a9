"""The kernel sweep (fifty-seventh session, esweep57; esweep57_cases.py): the kernel area's op families crossed by
rule — every binary elementwise op of tf.math over nine broadcast layouts (scalar tensor and Python scalar on either
side, [n] vs [1], [m, 1] vs [1, n], rank 3 vs rank 1, zero-size, same shape) at sizes around the packets, every dtype
it takes and edge values, eager and traced; comparisons, logical and bitwise ops; unary ops kpaths54 leaves out;
matmul's options, einsum and tensordot; conv1d/2d/3d, depthwise, separable, conv2d_transpose and the raw backprop
ops; 1-D/2-D/3-D pooling with ties and NaN windows; every random op (stateful, stateless in each algorithm,
Generator, dropout, keras.random) — values and gradients compared bit for bit with TF 2.21's recorded results
(`python -m simdist.conformance.suite.test_esweep57 --record` rewrites esweep57_reference.json.gz; recorded on an
AVX-512 Xeon with oneDNN on, every program host-dependent: simdist runs them under its reference model)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.esweep57_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("e-bin-") + _ids("e-unary-") + _ids("e-addn"))
def test_esweep57_elementwise_layouts_dtypes_edges(backend: Any, name: str) -> None:
    """A binary op over the nine broadcast layouts at sizes around the packets in one dtype, edge values, each
    operand's gradient, traced twice; or the unary ops at the packet sizes: TF 2.21's bits, dtypes and shapes."""
    _check(backend, name)


@pytest.mark.clause("ops.bitwise")
@pytest.mark.parametrize("name", _ids("e-cmp-") + _ids("e-logical") + _ids("e-bitwise-"))
def test_esweep57_comparisons_logical_bitwise(backend: Any, name: str) -> None:
    """Comparisons (NaN, -0 against 0, ties), logical and bitwise ops (shifts past the width) over the layouts:
    TF 2.21's results."""
    _check(backend, name)


@pytest.mark.clause("ops.einsum")
@pytest.mark.parametrize("name", _ids("e-matmul-") + _ids("e-einsum-"))
def test_esweep57_contractions(backend: Any, name: str) -> None:
    """matmul with transposes, adjoints, broadcast batch dimensions, k = 1..9, 16, 17, one-row and one-column
    operands; einsum's equations and tensordot's axes; their gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("nn.conv-dilation")
@pytest.mark.parametrize("name", _ids("e-conv-"))
def test_esweep57_convolutions(backend: Any, name: str) -> None:
    """conv1d/2d/3d, depthwise, separable and transposed convolutions (batches 1..7, differing channels, 1x1 and
    3x3, VALID/SAME/explicit, strides, dilations) and the raw backprop ops, with gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("nn.max-pool-nan")
@pytest.mark.parametrize("name", _ids("e-pool-"))
def test_esweep57_pooling(backend: Any, name: str) -> None:
    """avg/max pool 1-D, 2-D and 3-D (windows, strides, padding, ties, NaN windows) with gradients: TF 2.21's
    bits."""
    _check(backend, name)


@pytest.mark.clause("ops.stateless-random")
@pytest.mark.parametrize("name", _ids("e-rand-"))
def test_esweep57_random_ops(backend: Any, name: str) -> None:
    """Every random op: stateful under seeds across calls and traced, stateless in each dtype and algorithm, the
    Generator's methods, split and skip, dropout's rates and noise shapes per dtype, keras.random: TF 2.21's draws."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

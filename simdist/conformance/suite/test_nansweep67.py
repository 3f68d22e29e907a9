"""NaN operands by rule: which NaN comes out where several operands are NaN of distinct payloads and signs, across
every op that combines floats (sixty-seventh session, nansweep67; the programs and their inputs are in
nansweep67_cases.py, the cases left OPEN in nansweep67_open.py). Recorded on TF 2.21 on an AVX-512 Xeon with oneDNN
(`python -m simdist.conformance.suite.test_nansweep67 --record` rewrites nansweep67_reference.json.gz); compared by raw
bits, refusals by error class."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.nansweep67_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("nan-binary-"))
def test_nansweep67_binary_ops_pick_tfs_nan(backend: Any, name: str) -> None:
    """Every binary float op of tf.math × lengths 1, 3, 19, 37 × full, scalar-left, scalar-right and row operands,
    both operands NaN-tagged (eager, and traced at 19): TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.complex")
def test_nansweep67_complex_ops_pick_tfs_nan(backend: Any) -> None:
    """complex64/128 arithmetic, add_n, sums and tf.complex of NaN-tagged parts: TF 2.21's bits."""
    _check(backend, "nan-complex")


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", ["nan-operators", "nan-nary", "nan-reduce"])
def test_nansweep67_operators_nary_and_reductions(backend: Any, name: str) -> None:
    """The Python operators on tensors, Variables, NumPy and Python NaNs; add_n of 2..6 tagged inputs, products,
    bias_add, where and clip; reductions, scans and segment ops over several tagged NaNs: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
def test_nansweep67_keras_ops_pick_tfs_nan(backend: Any) -> None:
    """keras.ops' binary, product and reducing ops on NaN-tagged operands (minimum, outer and their kin in both
    operand roles): TF 2.21's bits."""
    _check(backend, "nan-keras")


@pytest.mark.clause("autodiff.op-gradients")
def test_nansweep67_gradients_pass_tfs_nan(backend: Any) -> None:
    """Gradients of the binary ops at NaN operands and ties, with ones and NaN-tagged upstream gradients, of add_n
    and of a reduction: TF 2.21's bits."""
    _check(backend, "nan-grad")


@pytest.mark.clause("reduce.ring-order")
def test_nansweep67_mirrored_replicas_pick_tfs_nan(backend: Any) -> None:
    """Binary ops, add_n and all_reduce inside a MirroredStrategy replica, and strategy.reduce of per-replica tagged
    NaNs: TF 2.21's bits."""
    _check(backend, "nan-mirrored")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

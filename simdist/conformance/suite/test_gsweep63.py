"""Ops at their rank and index-depth limits by rule (sixty-third session, gsweep63; gsweep63_cases.py): gather with
batch_dims at params ranks 2-8, gather_nd with batch_dims 0-3 and every index depth to one past the rank, the tensor
scatters and scatter_nd at depths 5-9 in eight dtypes and their gradients at depths 3-8, a variable's and
tf.compat.v1's scatter_nd writes at depths 1-9, softmax/log_softmax and softmax cross entropy of ranks 1-8 at every
axis, reductions/argmax/cumsum of ranks 6-9, transpose/tile/pad/reverse/slice/strided_slice/broadcast_to and
broadcasting binary ops and where at ranks 5-10 (past the kernels' rank templates), traced and eager dropout with
noise shapes of every rank and None entries. Values and gradients bit for bit, eager and traced, refusals by class,
against TF 2.21's recorded results (`python -m simdist.conformance.suite.test_gsweep63 --record` rewrites
gsweep63_reference.json.gz). The gk- programs (softmax's float32 kernels are oneDNN's on the recording host) run on
simdist under its reference model on any CPU."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.gsweep63_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.gather-batch-dims", "ops.index-errors")
@pytest.mark.parametrize("name", _ids("g-gather"))
def test_gsweep63_gather_batch_dims_at_every_depth(backend: Any, name: str) -> None:
    """gather's batch_dims 0..rank-1 of params ranks 2-8 (indices of rank b..b+2, axis b and rank-1) and gather_nd's
    batch_dims 0-3 at every index depth to one past the params' rank: values, the params gradient, traced, or the
    refusal's class (GatherNd's innermost-depth check reached through batch_gather_nd)."""
    _check(backend, name)


@pytest.mark.clause("ops.index-errors", "ops.compat-v1")
@pytest.mark.parametrize("name", _ids("g-scatter"))
def test_gsweep63_scatters_at_their_depth_limit(backend: Any, name: str) -> None:
    """tensor_scatter_nd_update/add/sub/min/max and scatter_nd at depths 5-9 in int32, int64, float64, float16,
    bfloat16, uint8, complex64 and bool (repeated indices, one out of range), their float32 gradients at depths 3-8,
    a variable's scatter_nd_* and tf.compat.v1.scatter_nd_* at depths 1-9, eager and in a tf.function."""
    _check(backend, name)


@pytest.mark.clause("nn.softmax-eigen", "nn.xent-labels-range")
@pytest.mark.parametrize("name", _ids("gk-"))
def test_gsweep63_softmax_and_cross_entropy_at_every_rank_and_axis(backend: Any, name: str) -> None:
    """softmax, log_softmax and softmax_cross_entropy_with_logits of ranks 1-8 at every axis and one past it,
    float32 and float64: values, gradients, traced."""
    _check(backend, name)


@pytest.mark.clause("ops.shape-errors")
@pytest.mark.parametrize("name", _ids("g-reduce") + _ids("g-shape-ops-"))
def test_gsweep63_reductions_and_shape_ops_past_the_rank_templates(backend: Any, name: str) -> None:
    """reduce_*/argmax/argmin/cumsum/cumprod of ranks 6-9 (ArgMax's 7-rank limit), and transpose, tile, pad (each
    mode), reverse, slice, strided_slice (masks), broadcast_to and broadcasting binary ops and where of ranks 5-10:
    values, gradients, or the kernels' rank-template refusals (Pad 6/8, MirrorPad 5, ReverseV2/Slice/StridedSlice/
    SelectV2 8, BroadcastTo's 5 groups)."""
    _check(backend, name)


@pytest.mark.clause("nn.dropout-seeding")
def test_gsweep63_dropout_noise_shapes_against_x_rank(backend: Any) -> None:
    """dropout of x ranks 2-6 with noise shapes of lower, equal and higher rank, None entries, eager, traced, with
    unknown dimensions and an unknown rank: shapes, kept values, the mask's broadcast pattern, the gradient's
    agreement, or the refusal's class."""
    _check(backend, "g-dropout-noise")


assert sorted(_ids("g-gather") + _ids("g-scatter") + _ids("gk-") + _ids("g-reduce") + _ids("g-shape-ops-")
              + ["g-dropout-noise"]) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

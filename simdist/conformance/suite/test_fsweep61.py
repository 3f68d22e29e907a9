"""tf.nn's data formats and window arguments by rule (sixty-first session, fsweep61; fsweep61_cases.py): bias_add of
ranks 2-5 under every data_format spelling with bias length mismatches; conv1d/2d/3d, convolution, the transposed,
depthwise, separable and atrous convolutions under channels-last and channels-first formats with strides/dilations
as an int, a length-1 list, spatial and full lists (and wrong lengths, batch/channel entries other than 1), padding
SAME/VALID/explicit and grouped depths; avg/max pools of every rank, tf.nn.pool and max_pool_with_argmax with
ksize/strides in every form under each format; depth_to_space/space_to_depth NHWC/NCHW; local_response_normalization's
arguments; in_top_k/top_k's k; reverse/cumsum/cumprod with tensor axes of every rank. Values and the gradients of the
differentiable ones, eager and traced, float32 (oneDNN's on the recording host) and float64, compared bit for bit with
TF 2.21's recorded results (a refusal by its exception class; `python -m simdist.conformance.suite.test_fsweep61
--record` rewrites fsweep61_reference.json.gz). Recorded on this session's AVX-512 Xeon with oneDNN on: simdist runs
the programs under its reference model on any CPU. OPEN (fsweep61_cases.py) lists the cases left out, with the
evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.fsweep61_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.nn-wrapper-order")
@pytest.mark.parametrize("name", _ids("f-bias-"))
def test_fsweep61_bias_add_formats_and_lengths(backend: Any, name: str) -> None:
    """bias_add of ranks 2-5 under None, NHWC, NCHW, 'N...C', 'NC...', NWC, NCW, NDHWC, NCDHW, NC and strings of
    neither form, bias lengths right, long, short and of rank 2: values, both gradients, eager and traced."""
    _check(backend, name)


@pytest.mark.clause("nn.conv-dilation", "ops.nn-3d", "ops.nn-wrapper-order")
@pytest.mark.parametrize("name", _ids("f-conv") + _ids("f-transpose-") + _ids("f-depthwise-"))
def test_fsweep61_convolutions_by_format_and_window_form(backend: Any, name: str) -> None:
    """conv1d/2d/3d, convolution, conv1d/2d/3d_transpose, depthwise, separable and atrous convolutions under each
    data_format, strides/dilations in every sequence form, SAME/VALID/explicit padding, grouped depths: values,
    gradients or refusal classes, eager and traced."""
    _check(backend, name)


@pytest.mark.clause("nn.max-pool-nan", "ops.nn-wrapper-order")
@pytest.mark.parametrize("name", _ids("f-pool"))
def test_fsweep61_pools_by_format_and_window_form(backend: Any, name: str) -> None:
    """avg/max pools of ranks 1-3 (their own functions, avg_pool/max_pool, tf.nn.pool) and max_pool_with_argmax,
    ksize/strides as int, length 1, spatial, full (batch/channel entries 1 and not) and wrong lengths, each format:
    values, gradients or refusal classes, eager and traced."""
    _check(backend, name)


@pytest.mark.clause("ops.argument-errors")
@pytest.mark.parametrize("name", _ids("f-depth-space-") + ["f-lrn", "f-topk-axes"])
def test_fsweep61_depth_space_lrn_topk_and_axes(backend: Any, name: str) -> None:
    """depth_to_space/space_to_depth NHWC/NCHW and block sizes 1-3, local_response_normalization's arguments,
    in_top_k/top_k's k, reverse/cumsum/cumprod with tensor axes of rank 0, 1 and 2: values, gradients or refusal
    classes."""
    _check(backend, name)


assert sorted(_ids("f-bias-") + _ids("f-conv") + _ids("f-transpose-") + _ids("f-depthwise-") + _ids("f-pool")
              + _ids("f-depth-space-") + ["f-lrn", "f-topk-axes"]) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

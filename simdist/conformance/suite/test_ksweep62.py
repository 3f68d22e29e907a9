"""simdist's kernel order classes by size threshold (sixty-second session, ksweep62; ksweep62_cases.py): oneDNN's
fused convolution bias gradient over batches of 1 to 9, 16 and 17 images (Keras Conv1D/2D/3D in a tf.function step;
eager BiasAddGrad beside it), conv2d's input and filter gradients at every top/left padding of SAME, VALID and
explicit paddings (kernels 1 to 5, strides 1 to 3, 3 and 16 input channels), the matrix-vector products (one row,
one column, transposed, tf.linalg.matvec, a Dense layer of batch 1) at k and n around each split, the NaN a binary op
returns from tagged quiet NaNs and -NaNs in a packet's head, body and tail (scalar left and right, row and column
broadcasts, 10 ops), and the reductions of complex64/128, float16 and bfloat16 over the packet sizes, axes inner,
outer and all, with ±0, ±inf and NaN — values and gradients (a non-uniform upstream) compared bit for bit with TF
2.21's recorded results (a refusal by its class; `python -m simdist.conformance.suite.test_ksweep62 --record`
rewrites ksweep62_reference.json.gz). Recorded on this session's AVX-512 Xeon with oneDNN on: simdist runs the
programs under its reference model on any CPU. OPEN (ksweep62_cases.py) lists the cases left out, with the
evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ksweep62_cases import GEMV_DTYPES, NAN_DTYPES, REDUCE_DTYPES, REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("function.onednn-fused-contraction", "ops.packet-paths")
@pytest.mark.parametrize("name", _ids("k62-conv-bias-"))
def test_ksweep62_conv_bias_gradient_per_image_group(backend: Any, name: str) -> None:
    """A Keras ConvND's kernel and bias gradients in a tf.function step (oneDNN's fused bias reducer: 16-channel
    blocks against the threads, images split per thread) over batches 1-9, 16 and 17 and 4-33 filters, and eager
    conv2d + bias_add's gradients over the same batches: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths", "ops.host-cpu")
@pytest.mark.parametrize("name", _ids("k62-conv-pad-") + ["k62-conv-dilated"])
def test_ksweep62_conv_gradients_by_padding_kernel_and_stride(backend: Any, name: str) -> None:
    """conv2d's value, input and filter gradients with 3 and 16 input channels, kernels 1x1-5x5, 3x1 and 2x5,
    strides 1-3, SAME/VALID on 7- and 8-wide inputs and explicit paddings at each top pad 0..kh: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths", "ops.host-cpu")
@pytest.mark.parametrize("name", _ids("k62-gemv-"))
def test_ksweep62_matrix_vector_products_around_each_split(backend: Any, name: str) -> None:
    """matmul with one row or one column (either side transposed), matvec (plain, transpose_a), an outer product and
    a Dense layer of batch 1 at k and n of 7-1,025 around each kernel threshold (float32: long k to 16,385), values
    and gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.nan-folds", "ops.host-cpu")
@pytest.mark.parametrize("name", _ids("k62-nan-"))
def test_ksweep62_binary_nan_choice_in_head_body_and_tail(backend: Any, name: str) -> None:
    """add/sub/mul/div/maximum/minimum/pow/squared_difference/floordiv/floormod of tensors with tagged NaNs and -NaNs
    at the head, the body and the tail of the packets, beside NaN and numeric scalars on either side, tensors and
    row/column broadcasts, sizes 1 to 2·packet + 1: the results' raw bits, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("ops.complex", "ops.packet-paths")
@pytest.mark.parametrize("name", _ids("k62-reduce-"))
def test_ksweep62_complex_and_half_reductions_by_packet_size(backend: Any, name: str) -> None:
    """sum/prod/mean/max/min/logsumexp/euclidean_norm of complex64/128, float16 and bfloat16 over sizes 0, 1, 2,
    packet - 1 .. packet + 1 and 2·packet + 1, axes inner, outer and all, with ±0, ±inf and NaN: the value (or the
    refusal's class) and its gradient, TF 2.21's bits."""
    _check(backend, name)


assert len(_ids("k62-gemv-")) == len(GEMV_DTYPES) and len(_ids("k62-nan-")) == len(NAN_DTYPES)
assert len(_ids("k62-reduce-")) == len(REDUCE_DTYPES) and len(REF.programs) == 7 + len(GEMV_DTYPES) + len(
    NAN_DTYPES) + len(REDUCE_DTYPES)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

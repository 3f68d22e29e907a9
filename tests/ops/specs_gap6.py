"""Op types of issue 29's ninth-session batch that the op table (op_specs.py: real-valued
matrices, finite differences) does not exercise; each is compared with TF 2.21 in its own
golden-backed module. Kept out of op_specs.AREAS (that table's golden is stamped with every area
module)."""

from __future__ import annotations

_SIGNAL = ("a spectral op type (complex or real<->complex): forward, dtypes, errors and gradients against TF 2.21 "
           "in tests/ops/test_signal_tf.py; the op table's matrices are real-valued")
_CHECK = ("an identity that raises on NaN/Inf: values, errors, dtypes and its gradient against TF 2.21 in "
          "tests/ops/test_debugging_tf.py")

_BOXES = ("a box op (greedy selection, crops or drawing, and their kernels' gradients): values, errors and "
          "gradients against TF 2.21 in tests/ops/test_image_boxes_tf.py; finite differences do not apply to index "
          "outputs and bilinear kinks")

UNTESTED_OPS: dict[str, str] = {
    **{op: _SIGNAL for op in ("FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D", "RFFT", "IRFFT", "RFFT2D",
                              "IRFFT2D", "RFFT3D", "IRFFT3D")},
    "CheckNumerics": _CHECK,
    "CheckNumericsV2": _CHECK + " and, at NaN/Inf inputs and upstream gradients, the suite's grad_edges recording "
                       "(simdist/conformance/suite/test_grad_edges.py)",
    **{op: (f"{op[:-4]}'s gradient kernel (packets and tail, sqrt_grads.py): values and its gradient at edge values, "
            "complex included, against TF 2.21's recording in simdist/conformance/suite/test_grad_edges.py; the raw "
            "op's shapes and second derivatives in tests/ops/test_fz29a_edges_tf.py")
       for op in ("SqrtGrad", "RsqrtGrad")},
    "ReciprocalGrad": ("Reciprocal's gradient kernel, one op as TF's -(y*y)*dy (sqrt_grads.RECIPROCAL_GRAD, gsweep67): "
                       "its values bit for bit in four dtypes, eager and traced, against TF 2.21's recording in "
                       "simdist/conformance/suite/test_gsweep67.py (g-unary); Reciprocal's spec runs it as the first "
                       "derivative"),
    "SoftplusGrad": ("Softplus's gradient kernel: its values and its own gradient (nn_grad._SoftplusGradGrad) at "
                     "edge values against TF 2.21's recording in simdist/conformance/suite/test_grad_edges.py; "
                     "Softplus's spec runs it as the first derivative"),
    **{op: _BOXES for op in ("NonMaxSuppressionV3", "NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps",
                             "CombinedNonMaxSuppression",
                             "CropAndResize", "CropAndResizeGradImage", "CropAndResizeGradBoxes",
                             "DrawBoundingBoxesV2")},
    **{op: ("fake quantization (float32 only; piecewise constant, its straight-through gradient is not its "
            "derivative): values, gradients and errors bit for bit against TF 2.21 in tests/ops/test_fake_quant_tf.py")
       for op in ("FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient", "FakeQuantWithMinMaxVars",
                  "FakeQuantWithMinMaxVarsGradient", "FakeQuantWithMinMaxVarsPerChannel",
                  "FakeQuantWithMinMaxVarsPerChannelGradient")},
    "SobolSample": "a generator of Sobol points from scalar arguments (no float input, not differentiable): values "
                   "and errors against TF 2.21 in tests/ops/test_sobol_tf.py",
}

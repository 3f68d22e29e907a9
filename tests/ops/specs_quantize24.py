"""The op table's entries for simulated quantization (clause ops.quantize-dequantize): their values,
kernel checks and gradients are compared with TF 2.21's case by case in
tests/ops/test_quantize_dequantize_tf.py (a rounding step's gradient is not the finite differences'
business: it is a straight-through or clipped pass of the upstream gradient by definition)."""

import simdist.tf.quantization  # noqa: F401 - registers the ops below

_WHERE = "tests/ops/test_quantize_dequantize_tf.py (ops.quantize-dequantize)"
UNTESTED_OPS: dict[str, str] = {
    "QuantizeAndDequantizeV2": f"round(x * scale) * inverse_scale, a straight-through gradient: {_WHERE}",
    "QuantizeAndDequantizeV3": f"V2's kernel with num_bits a tensor, a straight-through gradient: {_WHERE}",
    "QuantizeAndDequantizeV4": f"V2's kernel, its gradient V4Grad's clipped pass: {_WHERE}",
    "QuantizeAndDequantizeV4Grad": f"the upstream gradient where min <= x <= max (second order: TF's TypeError): "
                                   f"{_WHERE}",
}

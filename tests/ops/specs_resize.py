"""Op types of tf.image.resize's other methods (issue 29's fz7, clause ops.image-resize) that the op
table (op_specs.py: finite differences on real-valued inputs) does not exercise: each kernel and
gradient is compared bit for bit with TF 2.21 in tests/ops/test_fuzz7_resize_tf.py (golden-backed).
Kept out of op_specs.AREAS (that table's golden is stamped with every area module)."""

from __future__ import annotations

_RESIZE = ("a tf.image.resize kernel transcribed from TF's C++ (float32 out, window weights per method): values, "
           "dtypes, errors and gradients against TF 2.21 in tests/ops/test_fuzz7_resize_tf.py")

UNTESTED_OPS: dict[str, str] = {
    **{op: _RESIZE for op in ("ResizeNearestNeighbor", "ResizeNearestNeighborGrad", "ResizeBicubic",
                              "ResizeBicubicGrad", "ScaleAndTranslate", "ScaleAndTranslateGrad")},
    "ResizeArea": "tf.image.resize(method='area')'s kernel; TF registers no gradient for it (LookupError on a tape, "
                  "as simdist): values, dtypes and errors against TF 2.21 in tests/ops/test_fuzz7_resize_tf.py",
}

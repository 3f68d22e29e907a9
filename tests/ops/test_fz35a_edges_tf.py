"""Rules behind the twentieth fuzzer's classes that fz35a closed (fresh campaigns of session 35: seeds
3520261201- in every mode), each against real TensorFlow 2.21: the same call on both backends gives the same
dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class. Needs the `tf` extra.

The oneDNN convolution cases run float32 and bfloat16, which oneDNN takes on every AVX-512 host (the goldens'
reference host and session 35's Intel Xeon alike: host_cpu.onednn_supports); none gives an output of no
elements, whose shape differs between those hosts (host_cpu.CPUModel.conv_empty_input_shaped). Their inputs
are small multiples of 1/4, so every sum is exact in either order.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"

_X = {"NHWC": "tf.constant(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 4)",
      "NCHW": "tf.constant(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) / 4)"}
_F = {"Conv2D": "tf.constant(np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3) / 4 - 2)",
      "DepthwiseConv2dNative": "tf.constant(np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1) / 4 - 1)"}

# (padding, explicit_paddings, data_format): what oneDNN's eager forward reads (onednn_padding.py)
_PADDINGS = [
    ("EXPLICIT", [], "NHWC"),                          # no list: zero pads
    ("EXPLICIT", [0, 0, 0, 0, 0, 0], "NHWC"),          # zeros of any length
    ("EXPLICIT", [1, 1, 0, 0, 0, 0, 1, 1], "NHWC"),    # batch and depth places unread
    ("EXPLICIT", [0, 0, 1, 2, 0, 1, 5, 5], "NHWC"),
    ("EXPLICIT", [0, 0, 1, 0, 1, 0], "NHWC"),          # six values: the NHWC places 2-5
    ("EXPLICIT", [0, 0, 1, 0, 1, 0, 0, 0, 0, 0], "NHWC"),
    ("VALID", [0, 0, 1, 1, 1, 1, 0, 0], "NHWC"),       # a nonzero list pads whatever the padding attr
    ("SAME", [0, 0, 1, 1, 1, 1, 0, 0], "NHWC"),
    ("VALID", [0, 0, 0, 0, 0, 0, 0, 0], "NHWC"),
    ("EXPLICIT", [0, 0, 0, 0, 0, -1], "NHWC"),         # a negative pad: the primitive's AbortedError
    ("EXPLICIT", [0, 0, -1, 0, 0, 0, 0, 0], "NHWC"),
    ("EXPLICIT", [0, 0, -3, -3, 0, 0, 0, 0], "NHWC"),  # ... or the window sizes' error first
    ("EXPLICIT", [], "NCHW"),
    ("EXPLICIT", [0, 0, 0, 0, 1, 1, 1, 1], "NCHW"),
    ("EXPLICIT", [1, 0, 0, 0, 1, 2, 0, 1], "NCHW"),
]


def _conv(op: str, dt: str, padding: str, ex: list[int], fmt: str) -> str:
    return (f"tf.raw_ops.{op}(input=tf.cast({_X[fmt]}, tf.{dt}), filter=tf.cast({_F[op]}, tf.{dt}), "
            f"strides=[1, 1, 1, 1], padding='{padding}', explicit_paddings={ex}, data_format='{fmt}')")


def _conv_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for op in ("Conv2D", "DepthwiseConv2dNative"):
        for dt in ("float32", "bfloat16"):
            for padding, ex, fmt in _PADDINGS:
                out.append((f"{op} {dt} {fmt} {padding} explicit_paddings={ex}", _K, _eager(_conv(op, dt, padding, ex,
                                                                                                   fmt))))
        # in a graph the shape function's CheckValidPadding refuses such lists at trace (ValueError)
        for padding, ex in (("EXPLICIT", []), ("VALID", [0, 0, 1, 1, 1, 1, 0, 0])):
            out.append((f"{op} float32 {padding} explicit_paddings={ex} in a tf.function", _K,
                        _traced(_conv(op, "float32", padding, ex, "NHWC"))))
    return out


_CAST_VALUES = ("[-1.5, 0.75, 0.0, -3.0, 2.5, -0.0, 1.1, 3.3, 1e300, 5e-324, 2.2250738585072014e-308, float('inf'), "
                "float('nan')]")


def _cast_cases() -> list[tuple[str, str, Any]]:
    """Cast with Truncate=True to a complex output (LSBZeroSetter's mantissa widths)."""
    out: list[tuple[str, str, Any]] = []
    for src, dst in (("float64", "complex64"), ("float64", "complex128"), ("float32", "complex64"),
                     ("float16", "complex64"), ("complex128", "complex64")):
        expr = f"tf.raw_ops.Cast(x=tf.cast(tf.constant({_CAST_VALUES}, tf.float64), tf.{src}), Truncate=True, DstT=tf.{dst})"
        out.append((f"Cast {src} to {dst} Truncate", _K, _eager(expr)))
        out.append((f"Cast {src} to {dst} Truncate in a tf.function", _K, _traced(expr)))
    return out


CASES: list[tuple[str, str, Any]] = [
    *_conv_cases(),
    *_cast_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz35a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

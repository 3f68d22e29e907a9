"""tf.quantization.quantize_and_dequantize(_v2) and the raw ops QuantizeAndDequantizeV2/V3/V4/V4Grad
against real TensorFlow 2.21 (clause ops.quantize-dequantize): the same call on both backends gives the
same dtype and bits, or raises the same exception class. Values over every option that changes the
rule (signed or not, narrow range, bits, rounding mode, a given or computed range, per-channel axes,
inverted ranges, inf and empty inputs); the kernels' checks in TF 2.21's order; gradients (V4's zero
outside the op's input_min/input_max, also when the range is computed; V2's straight through; V4Grad's
second order, TF's TypeError); the shape functions inside a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_V = "values"
_E = "errors"
_G = "gradients"
_T = "traced"

_X = "tf.constant([-1.0, -0.5, 0.0, 0.3, 0.8, 0.55, 0.6, 2.5, -3.3])"
_X64 = "tf.constant([0.1, -0.7, 0.33, 1.0 / 3.0, 2.5 / 127.0], tf.float64)"
_M = "tf.constant([[0.1, -0.7, 0.33], [2.0, -4.0, 1.0]])"
_QDQ = "tf.quantization.quantize_and_dequantize_v2("
_QDQ1 = "tf.quantization.quantize_and_dequantize("
_V3 = "tf.raw_ops.QuantizeAndDequantizeV3("
_V4G = "tf.raw_ops.QuantizeAndDequantizeV4Grad("


def _second_order(expr: str, source: str) -> Callable[[Any], Any]:
    """The gradient of the gradient of `expr` in a watched `x` (nested tapes)."""
    def run(tf: Any) -> Any:
        import numpy as np
        x = eval(source, {"tf": tf, "np": np})  # noqa: S307 - our own text
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307 - our own text
            g = inner.gradient(y, x)
        return [g, outer.gradient(g, x)]
    return run


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # values: the computed range (min and max of the input), one scale
    ("v2 computed range", _V, _eager(_QDQ + _X + ", 0.0, 0.0)")),
    ("v2 computed range, unsigned", _V, _eager(_QDQ + _X + ", 0.0, 0.0, signed_input=False)")),
    ("v2 computed range, positive input", _V, _eager(_QDQ + "tf.constant([0.5, 1.0, 3.0]), 0.0, 0.0)")),
    ("v2 computed range, negative input unsigned", _V, _eager(
        _QDQ + "tf.constant([-0.3, -0.2, -0.7]), 0.0, 0.0, signed_input=False)")),
    ("v2 computed range, float64", _V, _eager(_QDQ + _X64 + ", 0.0, 0.0)")),
    ("v2 computed range, 40 bits float64", _V, _eager(_QDQ + _X64 + ", 0.0, 0.0, num_bits=40)")),
    ("v2 computed range, 25 bits float32", _V, _eager(_QDQ + _X + ", 0.0, 0.0, num_bits=25)")),
    ("v2 computed range, 62 bits unsigned", _V, _eager(_QDQ + _X + ", 0.0, 0.0, num_bits=62, signed_input=False)")),
    ("v2 all zeros", _V, _eager(_QDQ + "tf.zeros([3]), 0.0, 0.0)")),
    ("v2 inf input", _V, _eager(_QDQ + "tf.constant([np.inf, 1.0, -2.0]), 0.0, 0.0)")),
    ("v2 empty input", _V, _eager(_QDQ + "tf.zeros([0]), 0.0, 0.0)")),
    ("v2 python list input", _V, _eager(_QDQ + "[0.1, 0.5], 0.0, 0.0)")),
    ("v2 num_bits as a float", _V, _eager(_QDQ + _X + ", 0.0, 0.0, num_bits=2.5)")),
    # values: a given range (clamped, the range's other end moved onto the grid)
    ("v2 given range", _V, _eager(_QDQ + _X + ", -1.0, 1.0, range_given=True)")),
    ("v2 given range, unsigned", _V, _eager(_QDQ + _X + ", -1.0, 1.0, signed_input=False, range_given=True)")),
    ("v2 given range, narrow", _V, _eager(_QDQ + _X + ", -1.0, 1.0, range_given=True, narrow_range=True)")),
    ("v2 given range, narrow unsigned", _V, _eager(
        _QDQ + _X + ", -1.0, 1.0, range_given=True, narrow_range=True, signed_input=False)")),
    ("v2 given range, 3 bits half up", _V, _eager(
        _QDQ + _X + ", -1.0, 1.0, num_bits=3, range_given=True, round_mode='HALF_UP')")),
    ("v2 given range, 3 bits half to even", _V, _eager(_QDQ + _X + ", -1.0, 1.0, num_bits=3, range_given=True)")),
    ("v2 given range, ties to even", _V, _eager(
        _QDQ + "tf.constant([0.5 / 127, 1.5 / 127, 2.5 / 127, -2.5 / 127, 1.0]), -1.0, 1.0, range_given=True)")),
    ("v2 given range 0 and 0", _V, _eager(_QDQ + "tf.constant([0.3, -0.2, 0.7]), 0.0, 0.0, range_given=True)")),
    ("v2 given range -1 and 0", _V, _eager(_QDQ + "tf.constant([0.3, -0.2, 0.7]), -1.0, 0.0, range_given=True)")),
    ("v2 given range -1 and 0, unsigned", _V, _eager(
        _QDQ + "tf.constant([0.3, -0.2, 0.7]), -1.0, 0.0, range_given=True, signed_input=False)")),
    ("v2 given range, 1 bit unsigned", _V, _eager(
        _QDQ + "tf.constant([0.3, -0.2, 0.7]), -1.0, 1.0, range_given=True, num_bits=1, signed_input=False)")),
    ("v2 given range, inf input", _V, _eager(_QDQ + "tf.constant([np.inf, -np.inf, 0.5]), -1.0, 1.0, range_given=True)")),
    ("v1 computed range", _V, _eager(_QDQ1 + _X + ", 0.0, 0.0)")),
    ("v1 given range", _V, _eager(_QDQ1 + _X + ", -2.0, 2.0, range_given=True)")),
    # values: per channel (the range computed per index of the axis; min and max then ignored)
    ("v2 axis 0", _V, _eager(_QDQ + _M + ", [0.0, 0.0], [0.0, 0.0], axis=0)")),
    ("v2 axis 1, scalar min and max", _V, _eager(_QDQ + _M + ", -1.0, 1.0, axis=1)")),
    ("v2 axis -1 counts from the rank", _V, _eager(_QDQ + _M + ", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], axis=-1)")),
    ("v2 axis -2 counts from the rank", _V, _eager(_QDQ + _M + ", [0.0, 0.0], [0.0, 0.0], axis=-2)")),
    ("v1 axis 0", _V, _eager(_QDQ1 + _M + ", [0.0, 0.0], [0.0, 0.0], axis=0)")),
    ("raw V4 axis 0, min of 5 elements", _V, _eager(
        "tf.raw_ops.QuantizeAndDequantizeV4(input=" + _M + ", input_min=[0.0] * 5, input_max=[0.0] * 5, axis=0)")),
    ("raw V4 vector min, axis -1, computed", _V, _eager(
        "tf.raw_ops.QuantizeAndDequantizeV4(input=" + _M + ", input_min=[[1.0]], input_max=[[1.0]])")),
    ("raw V2 computed range", _V, _eager(
        "tf.raw_ops.QuantizeAndDequantizeV2(input=" + _X + ", input_min=-1.0, input_max=1.0)")),
    ("raw V3 given range, 4 bits", _V, _eager(_V3 + "input=" + _X + ", input_min=-1.0, input_max=1.0, num_bits=4)")),
    ("raw V3 computed range", _V, _eager(
        _V3 + "input=" + _X + ", input_min=-1.0, input_max=1.0, num_bits=4, range_given=False)")),
    ("raw V3 given per-channel range", _V, _eager(
        _V3 + "input=" + _M + ", input_min=[-1.0, -1.0, -1.0], input_max=[1.0, 1.0, 1.0], num_bits=8, axis=1)")),
    ("raw V3 inverted per-channel range", _V, _eager(
        _V3 + "input=" + _M + ", input_min=[1.0, -1.0, -1.0], input_max=[-1.0, 1.0, 1.0], num_bits=8, axis=1)")),
    ("raw V3 given range of one element", _V, _eager(
        _V3 + "input=" + _M + ", input_min=[-1.0], input_max=[1.0], num_bits=8)")),
    ("raw V3 narrow", _V, _eager(_V3 + "input=tf.constant([-1.0, 0.3]), input_min=-1.0, input_max=1.0, num_bits=8, "
                                 "narrow_range=True)")),
    ("raw V3 float64 ties", _V, _eager(
        _V3 + "input=tf.constant([0.5 / 127, 1.5 / 127, 2.5 / 127], tf.float64), input_min=-1.0, input_max=1.0, "
        "num_bits=8)")),
    ("raw V4Grad per channel", _V, _eager(
        _V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=[-1.0, 0.0, -1.0], input_max=[1.0, 1.0, 0.5], "
        "axis=1)")),
    ("raw V4Grad NaN input", _V, _eager(
        _V4G + "gradients=tf.ones([3]), input=[1.0, np.nan, -1.0], input_min=-1.0, input_max=1.0)")),
    ("raw V4Grad inverted range", _V, _eager(
        _V4G + "gradients=tf.ones([3]), input=[0.5, 1.0, -1.0], input_min=1.0, input_max=-1.0)")),
    ("raw V4Grad NaN gradient outside", _V, _eager(
        _V4G + "gradients=tf.constant([np.nan, np.inf, 2.0]), input=[5.0, 5.0, 0.0], input_min=-1.0, input_max=1.0)")),
    # the kernels' checks, in TF 2.21's order
    ("v2 inverted given range", _E, _eager(_QDQ + _X + ", 1.0, -1.0, range_given=True)")),
    ("v2 inverted computed range is fine", _E, _eager(_QDQ + _X + ", 1.0, -1.0)")),
    ("v2 0 bits", _E, _eager(_QDQ + _X + ", 0.0, 0.0, num_bits=0)")),
    ("v2 62 bits signed", _E, _eager(_QDQ + _X + ", 0.0, 0.0, num_bits=62)")),
    ("v2 63 bits unsigned", _E, _eager(_QDQ + _X + ", 0.0, 0.0, num_bits=63, signed_input=False)")),
    ("v2 unknown round mode", _E, _eager(_QDQ + _X + ", 0.0, 0.0, round_mode='UP')")),
    ("v2 float16 (no CPU kernel)", _E, _eager(_QDQ + "tf.constant([0.1, -0.7], tf.float16), 0.0, 0.0)")),
    ("v2 bfloat16 (no CPU kernel)", _E, _eager(_QDQ + "tf.constant([0.1, -0.7], tf.bfloat16), 0.0, 0.0)")),
    ("v2 int32 input", _E, _eager(_QDQ + "tf.constant([1, 2]), 0, 0)")),
    ("v2 float64 min beside float32 input", _E, _eager(_QDQ + _X + ", tf.constant(0.0, tf.float64), 0.0)")),
    ("v2 signed_input a string", _E, _eager(_QDQ + _X + ", 0.0, 0.0, signed_input='yes')")),
    ("v2 axis 2 of a matrix", _E, _eager(_QDQ + _M + ", [0.0], [0.0], axis=2)")),
    ("v2 axis -3 of a matrix", _E, _eager(_QDQ + _M + ", [0.0], [0.0], axis=-3)")),
    ("v2 negative axis of a scalar", _E, _eager(_QDQ + "tf.constant(3.7), 0.0, 0.0, axis=-1)")),
    ("v2 negative axis of a list", _E, _eager(_QDQ + "[0.1, 0.2], 0.0, 0.0, axis=-1)")),
    ("v2 per-channel given range", _E, _eager(_QDQ + _M + ", [-1.0, -1.0, -1.0], [1.0, 1.0, 1.0], axis=1, "
                                                            "range_given=True)")),
    ("raw V4 given scalar range with an axis", _E, _eager(
        "tf.raw_ops.QuantizeAndDequantizeV4(input=" + _M + ", input_min=-1.0, input_max=1.0, axis=1, range_given=True)")),
    ("raw V4 given vector max", _E, _eager(
        "tf.raw_ops.QuantizeAndDequantizeV4(input=" + _M + ", input_min=-1.0, input_max=[1.0], range_given=True)")),
    ("raw V4 axis -2", _E, _eager("tf.raw_ops.QuantizeAndDequantizeV4(input=" + _M + ", input_min=-1.0, "
                                  "input_max=1.0, axis=-2)")),
    ("raw V4 bits before the axis", _E, _eager(
        "tf.raw_ops.QuantizeAndDequantizeV4(input=" + _M + ", input_min=1.0, input_max=-1.0, axis=5, num_bits=0)")),
    ("raw V4 axis before the range", _E, _eager(
        "tf.raw_ops.QuantizeAndDequantizeV4(input=" + _M + ", input_min=[1.0], input_max=-1.0, axis=5, "
        "range_given=True)")),
    ("raw V3 axis before num_bits", _E, _eager(_V3 + "input=" + _M + ", input_min=-1.0, input_max=1.0, num_bits=0, "
                                               "axis=7)")),
    ("raw V3 vector num_bits", _E, _eager(_V3 + "input=" + _M + ", input_min=1.0, input_max=-1.0, num_bits=[8])")),
    ("raw V3 0 bits", _E, _eager(_V3 + "input=" + _M + ", input_min=-1.0, input_max=1.0, num_bits=0)")),
    ("raw V3 inverted range of one element", _E, _eager(
        _V3 + "input=" + _M + ", input_min=[1.0], input_max=[-1.0], num_bits=8)")),
    ("raw V3 scalar max with an axis", _E, _eager(
        _V3 + "input=" + _M + ", input_min=[-1.0, -1.0, -1.0], input_max=1.0, num_bits=8, axis=1)")),
    ("raw V3 min of the wrong size", _E, _eager(
        _V3 + "input=" + _M + ", input_min=[-1.0, -1.0], input_max=[1.0, 1.0], num_bits=8, axis=1)")),
    ("raw V3 max of the wrong size", _E, _eager(
        _V3 + "input=" + _M + ", input_min=[-1.0, -1.0, -1.0], input_max=[1.0, 1.0], num_bits=8, axis=1)")),
    ("raw V4Grad scalar min with an axis", _E, _eager(
        _V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=-1.0, input_max=1.0, axis=1)")),
    ("raw V4Grad vector min without an axis", _E, _eager(
        _V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=[-1.0], input_max=[1.0])")),
    ("raw V4Grad matrix min", _E, _eager(
        _V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=[[-1.0]], input_max=[[1.0]])")),
    ("raw V4Grad gradient of another shape", _E, _eager(
        _V4G + "gradients=tf.ones([3]), input=" + _M + ", input_min=-1.0, input_max=1.0)")),
    ("raw V4Grad axis 2", _E, _eager(_V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=-1.0, "
                                     "input_max=1.0, axis=2)")),
    ("raw V4Grad axis -2", _E, _eager(_V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=-1.0, "
                                      "input_max=1.0, axis=-2)")),
    ("raw V4Grad min of the wrong size", _E, _eager(
        _V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=[-1.0, 0.0], input_max=[1.0, 1.0, 0.5], "
        "axis=1)")),
    ("raw V4Grad max of the wrong size", _E, _eager(
        _V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=[-1.0, 0.0, 0.0], input_max=[1.0, 1.0], "
        "axis=1)")),
    ("raw V4Grad float16 (no CPU kernel)", _E, _eager(
        _V4G + "gradients=tf.ones([2], tf.float16), input=tf.ones([2], tf.float16), "
        "input_min=tf.constant(0.0, tf.float16), input_max=tf.constant(1.0, tf.float16))")),
    # gradients
    ("v2 gradient, given range", _G, _tape(
        "tf.reduce_sum(" + _QDQ + "x, -1.0, 1.0, range_given=True) * tf.range(1.0, 10.0))", _X)),
    ("v2 gradient, computed range reads the op's min and max", _G, _tape(
        "tf.reduce_sum(" + _QDQ + "x, -1.0, 1.0) * tf.range(1.0, 10.0))", _X)),
    ("v2 gradient, min and max 0", _G, _tape("tf.reduce_sum(" + _QDQ + "x, 0.0, 0.0) * tf.range(1.0, 10.0))", _X)),
    ("v2 gradient, per channel", _G, _tape(
        _QDQ + "x, [0.0, -5.0, -1.0], [0.5, 5.0, 0.0], axis=1)", _M)),
    ("v1 gradient passes straight through", _G, _tape(
        "tf.reduce_sum(" + _QDQ1 + "x, -1.0, 1.0, range_given=True) * tf.range(1.0, 10.0))", _X)),
    ("v2 gradient, float64", _G, _tape(_QDQ + "x, -0.5, 0.5, range_given=True)", _X64)),
    ("v2 second order (TF's TypeError)", _G, _second_order(_QDQ + "x, -1.0, 1.0, range_given=True)", _X)),
    ("v1 second order", _G, _second_order(_QDQ1 + "x, -1.0, 1.0, range_given=True)", _X)),
    # the shape functions, inside a tf.function
    ("traced computed range", _T, _traced(_QDQ + _M + ", 0.0, 0.0)")),
    ("traced vector min", _T, _traced(_QDQ + _M + ", [0.0], [0.0])")),
    ("traced vector max", _T, _traced(_QDQ + _M + ", 0.0, [0.0, 1.0])")),
    ("traced per-channel size mismatch", _T, _traced(_QDQ + _M + ", [0.0, 0.0], [0.0, 0.0], axis=1)")),
    ("traced axis 2 with scalar min", _T, _traced(_QDQ + _M + ", 0.0, 0.0, axis=2)")),
    ("traced axis 2 with vector min", _T, _traced(_QDQ + _M + ", [0.0], [0.0], axis=2)")),
    ("traced per channel", _T, _traced(_QDQ + _M + ", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], axis=1)")),
    ("traced V3 vector num_bits", _T, _traced(_V3 + "input=" + _M + ", input_min=-1.0, input_max=1.0, "
                                              "num_bits=[8])")),
    ("traced V4Grad shapes differ", _T, _traced(_V4G + "gradients=tf.ones([3]), input=" + _M + ", input_min=-1.0, "
                                                "input_max=1.0)")),
    ("traced V4Grad per channel", _T, _traced(
        _V4G + "gradients=tf.ones((2, 3)), input=" + _M + ", input_min=[-1.0, 0.0, -1.0], input_max=[1.0, 1.0, 0.5], "
        "axis=1)")),
]


EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.quantize-dequantize")
@EDGES.parametrize(_V)
def test_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.quantize-dequantize")
@EDGES.parametrize(_E)
def test_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.quantize-dequantize")
@EDGES.parametrize(_G)
def test_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.quantize-dequantize")
@clause("function.trace-time-errors")
@EDGES.parametrize(_T)
def test_shape_functions_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_quantize_dequantize_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

"""Gaps among the open survivors of the seventeenth mechanical mutation sweep (benchmarks/auto_mutants.py, seed 17) and
the survivors of the eighteenth (seed 18; forty-first session): behaviours the suite executed but no test looked at
(docs/conformance.md, "Forty-first session: automatic sweep, seed 18 (amut41)"; TF 2.21).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


def _parts(z: complex) -> tuple[float, float, bool, bool]:
    """(re, im, re's sign bit, im's sign bit): signed zeros told apart."""
    return (float(z.real), float(z.imag), bool(math.copysign(1.0, z.real) < 0), bool(math.copysign(1.0, z.imag) < 0))


# -- complex division: C99 Annex G's recovery ------------------------------------------------------------------------
@clause("ops.complex", ref="tf221")
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(("den", "want"), [
    (complex(math.nan, math.inf), [(0.0, -0.0), (-0.0, -0.0), (0.0, 0.0), (0.0, 0.0)]),
    (complex(math.nan, -math.inf), [(-0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (-0.0, -0.0)]),
])
def test_amut41_finite_over_an_infinite_part_beside_a_nan_part_is_a_signed_zero(tf, dtype, den, want):
    """A one-element complex division (the kernel's scalar tail: std::complex's operator/, libgcc's __divsc3/__divdc3)
    of a finite numerator by a denominator with one infinite and one NaN part: Smith's method gives NaN + NaNj and
    Annex G's recovery maps the infinite part to ±1 and the NaN part to a signed 0, so the quotient is
    0 * (a*c' + b*d') + 0 * (b*c' - a*d')j, a signed zero in each part (TF 2.21, observed for (1+1j), (2-3j), 0 and
    (-0.5+0j) over (nan+infj) and (nan-infj), complex64 and complex128 alike). The suite's infinite denominators had
    finite or infinite other parts, where a reading of the NaN part as infinite or its sign as a factor went unseen."""
    nums = [1 + 1j, 2 - 3j, 0j, -0.5 + 0j]
    for num, (re_want, im_want) in zip(nums, want):
        call = f"tf.constant([{num}], {dtype}) / tf.constant([{den}], {dtype})"
        got = (tf.constant(np.array([num], dtype)) / tf.constant(np.array([den], dtype))).numpy()[0]
        assert_equal(_parts(got), _parts(complex(re_want, im_want)), call=call,
                     what="(re, im, re's sign bit, im's sign bit)")


# -- reduce_prod over the first and last of three collapsed dimensions -------------------------------------------------
@clause("ops.packet-paths", ref="tf221")
@pytest.mark.parametrize(("dtype", "big"), [("float64", 1e200), ("float32", 1e30)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_amut41_reduce_prod_over_outer_and_inner_axes_in_the_kernels_order(tf, dtype, big, keepdims):
    """reduce_prod of a [2, 2, 3] tensor over axes [0, 2] (reduced, kept, reduced: ReductionHelper keeps the three
    dimensions) multiplies each output's six factors one at a time, the inner axis outermost and axis 0 innermost
    (x[0,j,0], x[1,j,0], x[0,j,1], ...): two large factors meet first and overflow to inf, then a zero makes NaN
    (TF 2.21, observed: [nan, nan], float64 and float32, with and without keepdims). Any other order (the packet tree
    of a contiguous row, axis 0 outermost) multiplies a large factor by the zero first and gives 0 for one or both."""
    x = np.ones((2, 2, 3), dtype)
    x[0, 0, 0] = big
    x[1, 0, 0] = big
    x[0, 0, 1] = 0
    x[0, 1, 0] = big
    x[0, 1, 1] = big
    x[0, 1, 2] = 0
    call = f"tf.reduce_prod([2, 2, 3] {dtype}, axis=[0, 2], keepdims={keepdims})"
    r = tf.reduce_prod(tf.constant(x), axis=[0, 2], keepdims=keepdims).numpy()
    assert_equal(r.shape, (1, 2, 1) if keepdims else (2,), call=call, what="shape")
    assert_equal(np.isnan(r.ravel()).tolist(), [True, True], call=call, what="which outputs are NaN")


# -- a tf.cond branch not taken: errors TF raises while it builds the graph -------------------------------------------
_UNTAKEN = {
    "softmax-axis": ("lambda x: tf.nn.softmax(tf.reshape(x, [1, 2]), axis=5)[0]",
                     "`dim` must be in the range [-2, 2) where 2 is the number of dimensions in the input. "
                     "Received: dim=5"),
    "static-assert": ("lambda x: x if tf.debugging.assert_equal(1, 2) is None else x",
                      "Condition x == y did not hold element-wise:"),
    "cond-int-predicate": ("lambda x: tf.cond(tf.constant(1), lambda: x, lambda: x * 2)",
                           "Input 'pred' passed int32 expected bool while building NodeDef '"),
    "while-int-predicate": ("lambda x: tf.while_loop(lambda i: tf.constant(1), lambda i: (i,), [x])[0]",
                            "Input 'input' passed int32 expected bool while building NodeDef '"),
    "negative-global-batch": ("lambda x: x * tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=-1)",
                              "global_batch_size must be non-negative.."),
}


@clause("function.traced-branches", ref="tf221")
@pytest.mark.parametrize("case", sorted(_UNTAKEN))
def test_amut41_an_untaken_branch_fails_on_an_error_of_the_graph_build(tf, case):
    """Inside a tf.function a tf.cond builds both branches, so an error TF raises while it builds the branch's graph
    fails the call even when the predicate selects the other branch: softmax's Python check of the axis against the
    static rank, check_ops' static assert of two constants, a nested cond's or while_loop's int32 predicate (the
    Switch's and LoopCond's NodeDef), compute_average_loss's static check of a constant negative global_batch_size;
    each an InvalidArgumentError with the text below (TF 2.21, observed: `f(tf.constant([1., 2.]))` of
    `tf.function(lambda x: tf.cond(x[0] > 0, lambda: x + 1, lambda: <case>(x)))`, whose taken branch would give
    [2., 3.]). A kernel's error there (a gather index out of range) is not raised; the suite's untaken branches held
    shape-function errors and kernel errors only."""
    body, text = _UNTAKEN[case]
    g = eval(body, {"tf": tf})  # noqa: S307 - the case's branch text above
    f = tf.function(lambda x: tf.cond(x[0] > 0, lambda: x + 1, lambda: g(x)))
    with raises(tf.errors.InvalidArgumentError, match=re.escape(text),
                call=f"tf.function(lambda x: tf.cond(x[0] > 0, lambda: x + 1, lambda: ({body})(x)))([1., 2.])"):
        f(tf.constant([1.0, 2.0]))

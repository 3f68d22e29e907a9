"""Disagreement classes of the third fuzzer still open, keyed by (callable, kind) as
fz3_campaign.py counts them, or by kind alone for a class of every callable: such a
disagreement is counted by the profiles, not failed. Each entry says what TF does and what
simdist does.

Closed by issue 29's fz4 (graph constants, docs/spec.md function.trace-time-errors): bincount
with a negative maxlength/minlength of a constant arr inside a tf.function (DenseBincount's
shape function's ValueError at trace time) and confusion_matrix's static asserts on constant
labels/predictions (InvalidArgumentError from get_concrete_function): simdist now tracks which
traced tensors are constants (simdist/runtime/ops/graph_constants.py); MatrixInverse's acceptance of
matrices holding inf/NaN (Eigen's pivot check, docs/spec.md ops.linalg-more)."""

from __future__ import annotations

KNOWN_OPEN: dict[object, str] = {
    ("math.igamma", "value"): "float32 igamma(a, x) with a large a and x <= a: Eigen's float series stops after 2000 "
                              "terms in float32 arithmetic with its own lgamma (TF 2.21: igamma(1e6, 1e6) is 1.312), "
                              "simdist's SciPy kernel converges; float64 is Eigen's truncated series since issue 29's "
                              "fz4 (seed 51 #259: igamma(1e10, 1e10) is 0.00798); igammac's continued fraction at x = a "
                              "large (igammac(1e10, 1e10) is 0.934 in TF, 0.49999867 in simdist) is not modelled",
    ("linalg.inv", "value"): "MatrixInverse of matrices holding inf/NaN that TF accepts (simdist decides acceptance as "
                             "Eigen's PartialPivLU since issue 29's fz4): Eigen's solve order gives other "
                             "NaN/inf/zero patterns than NumPy's LAPACK inverse (NaN where LAPACK refuses); seed 52 #232",
    ("linalg.det", "value"): "MatrixDeterminant of matrices holding inf/NaN and float32 subnormals: TF's LU (DAZ reads "
                             "the subnormal as 0, a zero pivot after an infinite one gives NaN), simdist's NumPy det "
                             "gives 0; seed 52 #125",
    ("math.bessel_i1e", "gradient"): "float16 bessel_i1e of the smallest subnormal (5.96e-8): Eigen's float32 Chebyshev "
                                     "kernel returns slightly more than x/2, which rounds up to 5.96e-8 in float16 (its "
                                     "gradient's y * (1/x) is then -inf); SciPy's value is x/2, a tie rounded to 0 "
                                     "(gradient NaN); seed 51 #293",
    ("math.truediv", "value"): "a tf.function call simdist runs eagerly (its arguments hold subnormals, which a replay "
                               "would not flush) does not apply Grappler's rewrites (x / 2.5 as x * 0.4, "
                               "function.grappler-rewrites): they need the recorder's graph; TF always applies them; "
                               "seed 53 #131",
    ("nn.relu6", "value"): "float64 Relu6 of a subnormal in the scalar tail keeps its bits in TF 2.21 (relu6([5e-324, "
                           "0]) is [5e-324, 0]), simdist flushes it (Relu's lane rule is listed not found in "
                           "ops.subnormals); seed 53 #57",
    ("math.atan2", "value"): "float64 atan2 of subnormals: glibc's atan2 under DAZ (atan2(5e-324, 5e-324) is pi/4, "
                             "atan2(5e-324, -0.0) is 3pi/4 in TF 2.21), simdist flushes the inputs (0 and pi); seed 53 "
                             "#210",
    ("nn.moments", "rejects"): "inside a tf.function, moments of a constant bfloat16 tensor over a repeated axis ((-2, 1) "
                               "of a rank-3 tensor) computes in TF 2.21 (Grappler folds the constant subgraph before "
                               "Mean's kernel checks its axes), simdist raises Mean's InvalidArgumentError; seed 53 #193",
    ("math.digamma", "gradient"): "float32 digamma's gradient is polygamma(1, x), which Eigen computes in float32 through "
                                  "zeta (TF 2.21: 19.550385 where SciPy's value rounds to 19.610355 for an x near 0.2); "
                                  "seed 54 #239",
    ("size", "accepts"): "inside a tf.function, tf.size(x, out_type='int64') (a string out_type) of a fully known "
                         "shape is ValueError in TF 2.21, simdist folds it to an int64 constant (not analysed); seed 53 "
                         "#273",
}

"""Disagreement classes of the third fuzzer still open, keyed by (callable, kind) as
fz3_campaign.py counts them, or by kind alone for a class of every callable: such a
disagreement is counted by the profiles, not failed. Each entry says what TF does and what
simdist does.

Closed by issue 29's fz4 (graph constants, docs/spec.md function.trace-time-errors): bincount
with a negative maxlength/minlength of a constant arr inside a tf.function (DenseBincount's
shape function's ValueError at trace time) and confusion_matrix's static asserts on constant
labels/predictions (InvalidArgumentError from get_concrete_function): simdist now tracks which
traced tensors are constants (simdist/runtime/ops/graph_constants.py); MatrixInverse's acceptance of
matrices holding inf/NaN (Eigen's pivot check, docs/spec.md ops.linalg-more).

Closed by issue 29's fz5 (tests/ops/test_fuzz5_edges_tf.py): float32/float64 atan2 of subnormals
and in packets (Eigen's patan2 and glibc's atan2 under DAZ, ops.eigen-kernels); Range's delta 0,
MatrixDiagV3 of a scalar and searchsorted of a scalar at trace time; huge outputs of Fill and
ScatterNd (confusion_matrix) and DenseBincount; tf.math.complex (TF 2.21 has none); Relu6's
scalar tail (the float64 subnormal class listed from seed 53, bfloat16 -0.0); NextAfter's float32
conversion; float32 Xlogy of a subnormal y; confusion_matrix's squeeze; stack/cross with unknown
shapes and softmax_cross_entropy's axis errors at trace; Grappler's RemoveLogicalNotStage; complex
Sign, complex Mul and SquaredDifference (packets and Annex G tail), ComplexAbs under DAZ,
Real/Imag of scalars, Bitcast of complex types, the categorical samplers' dtype checks.

Closed by issue 29's fz6 (tests/ops/test_fuzz6_complex_tf.py, docs/spec.md ops.complex): complex division
(Eigen's pdiv_complex in packets, libgcc's Smith's method with Annex G in the tail: truediv,
divide_no_nan, reciprocal, reduce_mean's division), the elementwise complex functions (Eigen's
complex_sqrt/rsqrt/log and their packets, glibc's cexp/csin/... under DAZ, Eigen's complex
expm1/log1p/logistic: cos, cosh, sin, expm1, log, log1p, sigmoid, rsqrt), complex Add/Sub under
DAZ/FTZ, complex Pow (glibc's cpow) and Xlogy/Xdivy/Xlog1py, strategy.reduce MEAN's complex division, the conj in the inverse functions' gradients, complex Prod's scalar steps (Annex G) and reductions of one element per output (a copy).
Closed by issue 29's fz7 (tests/ops/test_fuzz7_resize_tf.py, docs/spec.md ops.image-resize): tf.image.resize
for every method, antialias and preserve_aspect_ratio (ResizeNearestNeighbor, ResizeBicubic, ResizeArea,
ScaleAndTranslate and their gradients; ResizeBilinear's same-size copy and gradient order), traced psnr (20 takes
log's dtype), Pad/MirrorPad's rank check at trace (sobel_edges of a rank-3 image); stateless_gamma's dtype attr
before np.finfo, the categorical samplers' logits dtype and negative num_samples at trace, the seed's shape at
trace (tests/ops/test_fuzz7_edges_tf.py).
Closed by issue 29's fz13 (tests/ops/test_fz13_edges_tf.py): float32/float64 Pow of subnormal operands (Eigen's
packets read them as zeros, glibc's tail by their bits: pow(0, 1e-40) is 0; ops.subnormals) and complex Sign's
gradient (tf.math.sign of a complex tensor is DivNoNan(x, Cast(ComplexAbs(x))); ops.complex); atan2(y, -0.0) in
a replica after an earlier call raised (TF stops at the first replica that raises, so the later ones do not convert
and cache 0.0: run.per-replica; fz12 ext seed 94 #141).
Closed by issue 29's fresh16 (tests/ops/test_fresh16_edges_tf.py, docs/spec.md ops.subnormals): log1p of a
bfloat16 subnormal (seed 91 #23: glibc's log1pf returns a tiny x with its bits; the other tiny-x functions too) and
bfloat16 xlogy of a subnormal x (seed 91 #107: the x == 0 test reads the bits, the product reads x as zero); float32
Softmax of a row with NaN on an AVX2-only host (seed 81 #15: oneDNN is off there, ops.host-cpu); confusion_matrix of
[None, None] labels in sig mode (seed 81 #61: Squeeze keeps the unknown dimensions, function.trace-time-errors);
float64 erfinv as ndtri((x + 1) / 2) * sqrt(1/2) (seed 97 #114, #170 and fz12's seed 96 #94, ops.special-more);
one_hot of Python/NumPy bool indices, converted with TI's default int64 (seed 97 #69, ops.one-hot).
Agree with TF 2.21 today, removed by fz48 (each original program re-run alone, `fz3_campaign.py SEED INDEX 1 [--ext]
--show 0`, 0 disagreements on this AMD host): bessel_i1e's float16 gradient (seed 51 #293: Eigen's Chebyshev kernels
since fz45), size's string out_type traced (53 #273), complex(0.0, 0.0)'s gradient (ext 81 #211), squared_difference of
a complex MirroredVariable and True (ext 61 #162), logical_not of a float64 MirroredVariable (92 #216), nextafter of
NumPy bools in a replica (94 #14), argsort of a bool list traced (ext 94 #271), compute_average_loss of bools (ext 95
#25), saturate_cast of subnormal-range float64 (ext 95 #269), one_hot of complex64 indices (ext 96 #37: TF 2.21 refuses
TI complex64 too), tf.complex of mismatched shapes (ext 96 #162); and closed by fz48, MatrixInverse's pivot check of complex matrices
holding NaN (ext 61 #147, docs/spec.md ops.linalg-more).
Host-dependent (issue 29's fz6, run on an AMD EPYC host): float16 Softmax with NaN and the
float32 packets built on vrcpps/vrsqrtps (Reciprocal, Rsqrt, Atan) follow the host's oneDNN ISA
path and estimate tables, which simdist models for the reference Intel host (docs/spec.md ops.fuzz).

Open classes fz5 found are
listed below with their seeds (the extended catalogue's, `fz3_campaign.py SEED 0 300 --ext`,
marked "ext")."""

from __future__ import annotations

# Shared descriptions of the extended catalogue's open complex classes (issue 29's fz5)
_CX_VALUE = ("complex operands with infinite, NaN, subnormal or huge parts (ext seeds 61-63, `--ext`): TF 2.21's "
             "Eigen/std::complex kernels (packets, C99 Annex G tails, DAZ/FTZ on the parts) differ from NumPy's "
             "complex functions in simdist; not analysed one by one (complex Sign, Mul, SquaredDifference and Abs are "
             "modelled, docs/spec.md ops.complex)")
_CX_GRAD = ("gradients through complex ops (products and divisions of complex parts with infinities/NaN): they follow "
            "from the complex value classes; ext seeds 61-63")

KNOWN_OPEN: dict[object, str] = {
    ("math.atan2", "value"): "atan2 of bfloat16 constants with a subnormal y (9.99995e-41) against x = 0 inside a "
                             "tf.function (fz32b: ext8 seed 3202 #233, sig): Grappler's constant folding evaluates it "
                             "and TF 2.21 gives pi/2 (the subnormal read as a non-zero y), where eagerly and in simdist "
                             "the kernel's DAZ reads it as 0 and gives 0: the open class of folded bfloat16 subnormals "
                             "('math.pow' below; docs/spec.md ops.subnormals), not modelled. fz42 (ext8 seed 4103 "
                             "#128, sig): atan2(y=x, x=x) of a bfloat16 matrix holding 9.99995e-41 is NaN there in "
                             "TF 2.21, 0 in simdist; not analysed",
    ("math.reduce_max", "value"): "reduce_max of a bfloat16 tensor holding a subnormal (fz34b: ext8 seed 3402 #268, "
                                  "[[1, 0], [3, 9.2e-41]] over axis -2): TF 2.21 keeps 9.18355e-41 in one column and "
                                  "flushes it in others by position (eagerly `reduce_max([[1e-40, 2e-40], [0, 1e-40]], "
                                  "0)` is [0, 0], `[[1, 0], [3, 1e-40]]` over axis 0 keeps it; in a tf.function "
                                  "Grappler's folding of constants keeps more, reduce_min alike), where simdist flushes "
                                  "every bfloat16 result; Eigen's float32 reductions of bfloat16 under DAZ/FTZ select "
                                  "their operands in an order not modelled (the position-dependent class of nn.relu "
                                  "below)",
    ("nn.relu", "gradient"): "tf.nn.relu of a float32 Variable holding one subnormal under a tape (fz30b: ext8 seed "
                             "3002 #32, relu([1e-40])): TF 2.21 keeps 1e-40, simdist flushes it; the position-"
                             "dependent flushing of TF's Relu kernel (a 1-element input keeps it, other lengths flush "
                             "some or all: tests/fuzz14/fz14_known.py's call:nn.relu classes), not modelled",
    ("math.atanh", "value"): "complex64 atanh of -1 + 1e-40j (fz31b: ext8 seed 3103 #181, dist): TF 2.21 gives -52.33261 "
                             "+ 0j, reading the subnormal imaginary part in its complex atanh (std::atanh of "
                             "std::complex<float>), where simdist flushes it (DAZ) and gives atanh(-1) = -inf; which "
                             "complex functions keep a subnormal part is not analysed beyond ops.complex's list",
    ("image.sobel_edges", "value"): "float16 sobel_edges of an image holding ±65504 and NaN (fz31b: ext8 seed 3103 #15, "
                                    "eager): TF 2.21's float16 DepthwiseConv2dNative rounds its products and partial "
                                    "sums in another order, so the first row's vertical difference of reflected rows "
                                    "is 0.0003662, -0.002953, -inf where simdist's is exactly 0; the half kernel's "
                                    "accumulation order is not modelled (fz35b: ext8 seed 3503 #45, a bfloat16 image "
                                    "holding inf, NaN, 1e30 and a subnormal on this oneDNN host: 10 of 144 outputs NaN "
                                    "in TF where simdist's are finite; a single inf gives NaN on both, not analysed)",
    ("linalg.inv", "value"): "MatrixInverse's last bits where sums cancel (finite matrices with entries of very "
                             "different sizes: 1e30 beside O(1)): TF 2.21's Eigen blocked triangular solves add in "
                             "another order than simdist's row-by-row solve (eigen_lu.lu_solve); real matrices holding "
                             "inf/NaN (seed 52 #232, fz21's ext8 seed 2102 #24) take that LU and solve since fz21 and "
                             "agree (docs/spec.md ops.linalg-more); complex128 matrices holding inf do not (fz26b: "
                             "ext8 seed 2602 #260, tape: TF 2.21 gives 0 rows where simdist gives NaN; not analysed)",
    ("linalg.logm", "value"): "logm of complex128 matrices holding 1e30 or subnormal parts (fz25b: ext8 seed 2502 #62; "
                              "fz26b: ext8 seed 2602 #42, parts 35.529 against 35.427): Eigen's MatrixLogarithm "
                              "(Schur decomposition, square roots, Pade) rounds otherwise than simdist's; not analysed",
    ("math.truediv", "value"): "a tf.function call simdist runs eagerly (its arguments hold subnormals, which a replay "
                               "would not flush) does not apply Grappler's rewrites (x / 2.5 as x * 0.4, "
                               "function.grappler-rewrites): they need the recorder's graph; TF always applies them; "
                               "seed 53 #131",
    ("math.digamma", "gradient"): "float32 digamma's gradient is polygamma(1, x), which Eigen computes in float32 through "
                                  "zeta (TF 2.21: 19.550385 where SciPy's value rounds to 19.610355 for an x near 0.2); "
                                  "seed 54 #239",
    ("math.l2_normalize", "gradient"): "second-order gradient of l2_normalize of a float32 Variable holding NaN, inf and "
                                       "subnormals: TF 2.21's second gradient has zeros where simdist's is NaN (the "
                                       "first gradients agree, all NaN); not analysed; seed 61 #173",
    ("clip_by_norm", "gradient"): "second-order gradient of clip_by_norm(float16 Variable holding 65504, "
                                  "clip_norm=-1.0): TF 2.21's second gradient is NaN, simdist's 0; not analysed; seed "
                                  "63 #104",
    ("math.angle", "value"): _CX_VALUE,
    ("math.accumulate_n", "value"): _CX_VALUE,
    ("linalg.matmul", "value"): _CX_VALUE + ". fz13, measured on 768 seeded complex products (sizes 1x1x1 to 4x5x3, "
                                "parts from 0, -0, inf, NaN, 3e38, 1e-40, ...): 27 differ in bits, 11 beyond rtol 1e-5. "
                                "TF's Eigen kernel multiplies part by part and adds the real and imaginary products "
                                "apart ([1, 2] @ [inf; 1] is inf + NaNj in TF, NaN + NaNj from simdist's NumPy/BLAS), "
                                "under DAZ/FTZ ((1e-20 + 1e-20j) * 1e-20 in complex64 is 0 in TF, 1e-40 + 1e-40j in "
                                "simdist); a 1 x k @ k x 1 product takes Eigen's matrix-vector path. fz37b modelled "
                                "the GEBP products (m, n, k >= 2: four real sums, then alpha's complex product; "
                                "contraction_order.complex_gebp); the other paths and DAZ/FTZ are not modelled yet. "
                                "(fz35b: ext8 seed 3503 #245, float32 `matmul(x, b, a_is_sparse=True)`: TF 2.21's "
                                "SparseMatMul skips the zero entries of the sparse operand, so 0 * inf there is no NaN "
                                "(matmul([[1, 0], [0, 2]], [[inf, 1], [nan, 3]], a_is_sparse=True) is [[inf, 1], "
                                "[nan, 6]], measured): modelled since, linalg.py `_sparse_products`)",
    ("cast", "value"): _CX_VALUE,
    ("math.add", "gradient"): _CX_GRAD,
    ("math.subtract", "gradient"): _CX_GRAD,
    ("nn.embedding_lookup", "gradient"): _CX_GRAD,
    ("image.sobel_edges", "accepts"): "traced sobel_edges of a one-pixel-wide integer image: TF 2.21 builds the whole "
                                      "graph and refuses DepthwiseConv2dNative's int32 at trace (TypeError); simdist "
                                      "records eagerly, and MirrorPad's run-time check (paddings not below the "
                                      "dimension) fails first, so it traces and raises InvalidArgumentError when "
                                      "called (it cannot build past an op whose values it cannot compute); ext seed 82 "
                                      "#234",
    ("nn.softsign", "gradient"): "second-order gradients through softsign: TF 2.21 registers no gradient for "
                                 "SoftsignGrad (LookupError), simdist differentiates it, a departure docs/architecture.md "
                                 "documents (fz10: ext seeds 81 #175, 91 #97, #186, 92 #211); left for the lead to decide",
    ("image.yuv_to_rgb", "accepts"): "yuv_to_rgb of an integer image: TF 2.21 refuses, simdist computes; not "
                                     "analysed; ext seeds 62-63",
    ("image.adjust_gamma", "value"): "adjust_gamma values differ on edge-valued images; not analysed; ext seeds "
                                     "62-63",
    ("linalg.matmul", "error-class"): "matmul of complex operands with adjoint flags: the error classes differ; not "
                                      "analysed; ext seeds 62-63",
    ("shape", "accepts"): "traced tf.shape(..., out_type=...) of a complex argument: not analysed; ext seeds 62-63",
    ("math.pow", "value"): "pow with subnormal operands: bfloat16 constants folded in a graph (TF pow(1e-40, 6e-8) is 1, "
                           "simdist 0); fz10 ext seed 91 #78 (float32/float64 pow(0, 1e-40), seed 92 #259, fixed by "
                           "fz13: docs/spec.md ops.subnormals)",
    # fz12 (seeds 94-96, with and without --ext), found and not analysed in the session:
    ("linalg.normalize", "gradient"): "second-order gradient of normalize(x, axis=1) of a float64 [2, 1] input: TF 2.21's "
                                      "and simdist's second gradients differ; not analysed; fz12 seed 94 #10",
    ("linalg.eigh_tridiagonal", "value"): "eigh_tridiagonal(alpha with entries near 1e30, beta with 1e10 and subnormals, "
                                          "eigvals_only=False) in float32: the eigenvalues agree, the eigenvectors of the "
                                          "two 1e30 eigenvalues hold -5.96e-08 in TF 2.21 where simdist has 0 (the other "
                                          "columns NaN on both): the rounding of the inverse iteration's tiny entries beside "
                                          "huge ones, not analysed further (fz22: third generator --ext8 seed 2202 #283, dist)",
    ("math.not_equal", "value"): "traced not_equal of complex64 constants holding NaN/subnormal parts broadcast [1,4,2] "
                                 "vs [1,4,1]: values differ; not analysed; fz12 ext seed 96 #297",
    ("program", "value"): "a whole ext program (inputs with complex parts) whose harness outcome differs; ext seeds "
                          "62-63",
}

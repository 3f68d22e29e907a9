"""Disagreement classes of the twentieth fuzzer still open: counted by the campaign and the tests,
not failed. A key is (snippet label, kind, TF's sign) as in tests/fuzz14/fz14_known.py (whose
matching this module uses): the label is "raw:<Op>" (a key ending in ":" matches every label it
begins), the kind fz4_run.kind_of's (error-class, accepts, rejects, trace-time, value, gradient)
and the sign a text TF's outcome contains. KNOWN_OPEN's entries say what TF 2.21 does, what simdist
does and why the class is left open; fz20_seen.py holds the classes the campaigns found that nobody has
analysed one by one yet (generated from campaign logs by fz20_seen_refresh.py), so that a new class
still fails the tests."""

from __future__ import annotations

from typing import Any

from fz20_seen import SEEN

KNOWN_OPEN: dict[tuple[str, str, str], str] = {
    ("raw:ArgMax", "accepts", "'err', 'ValueError'"):
        "ArgMax/ArgMin with an int16 dimension (the OpDef allows Tidx int16): TF 2.21's kernel reads the "
        "2-byte scalar as int32 (argmax_op.cc, dimension.scalar<int32_t>()) and ArgOpShape as int64, so the "
        "high bytes are whatever follows it in memory: observed eagerly 'Expected dimension in the range [-2, 2), "
        "but got -1977679872' for 0, and for the same call both a result and a trace-time ValueError in a "
        "graph (seed 2020261202 #218 and tf.math.argmax(x, tf.constant(1, tf.int16)) computing in another "
        "process). simdist reads the value given; nondeterministic in TF, so not modelled (rawfz21).",
    ("raw:ArgMax", "error-class", "'err', 'ValueError'"):
        "as the accepts entry: the int16 dimension's high bytes are whatever follows it in memory, so TF 2.21's "
        "shape function in a tf.function refuses a dimension it never got (observed for -2, 0 and 1 of a [2, 0, 1] "
        "input, in three processes: \"Dimension (65534)\", \"Dimension (93988163354622)\", \"Dimension "
        "(140358583320574) must be in the range [-3, 3)\", 0 computing in one and refused in another; function seed "
        "3420261205 #146). simdist reads the value given (fz34a, open: undefined behaviour).",
    ("raw:ArgMin", "accepts", "'err', 'ValueError'"):
        "as raw:ArgMax: TF 2.21 reads an int16 dimension as int32/int64 (its high bytes whatever follows in memory) "
        "and its shape function refuses or computes at random; simdist reads the value given (fz34a, open)",
    ("raw:ArgMin", "error-class", "'err', 'ValueError'"):
        "as raw:ArgMax: TF 2.21 reads an int16 dimension as int32/int64 (its high bytes whatever follows in memory) "
        "and its shape function refuses or computes at random; simdist reads the value given (fz34a, open)",
    ("raw:SparseMatMul", "value", "'ok'"):
        "SparseMatMul with a_is_sparse of operands holding inf: TF 2.21's sparse kernel (sparse_matmul_op.cc) skips the "
        "sparse operand's zero entries (-0.0 too), so the 0 * inf that the dense product makes NaN never happens (a row "
        "[inf, -1, 0, -0] times a column [-1, -1.4e-45, inf, 3e38]: -inf on TF, NaN in simdist, which multiplies "
        "densely as MatMul; seed 3420261222 #27, found at the session's end). Skipping the zeros is simple, but the "
        "sparse kernel's blocked accumulation order, which decides the finite sums' last bits, was not modelled (fz34a, "
        "open).",
    ("raw:Conv2DBackpropFilter", "error-class", "'err', 'AbortedError'"):
        "float32 Conv2DBackpropFilter whose filter_sizes' in-channels (1) differ from the input's (2): TF 2.21's "
        "oneDNN kernel fails to create its primitive before TF's own checks, AbortedError \"Operation received an "
        "exception:Status: 2, message: could not create a primitive descriptor for the convolution forward "
        "propagation primitive...\" eagerly and in a tf.function, even with explicit_paddings given beside SAME "
        "padding (seed 3020261207 #3); simdist raises the kernel's InvalidArgumentError. When oneDNN refuses a "
        "primitive was not mapped in this session (fz30a, open).",
    ("raw:InplaceAdd", "value", "'ok'"):
        "InplaceAdd/InplaceSub/InplaceUpdate alias their input (inplace_ops.cc: `Tensor y = x; // This creates an "
        "alias intentionally.`): TF 2.21 writes the rows into x's own buffer, so eagerly `x` itself changes "
        "(`x = tf.constant([5., 7.]); tf.raw_ops.InplaceAdd(x=x, i=[0], v=[1.])` leaves x == [6., 7.]) and a concrete "
        "function's argument changes between calls (sig seed 2920261205 #108: the second call adds to the first "
        "call's result), where a graph constant is copied first. simdist returns a new tensor and leaves x; "
        "modelling the alias needs buffers shared between simdist tensors (fz30a, open).",
    ("raw:InplaceSub", "value", "'ok'"): "as raw:InplaceAdd: TF 2.21 writes the rows into the input's own buffer, simdist "
                                   "returns a new tensor and leaves the input (fz30a, open)",
    ("raw:InplaceUpdate", "value", "'ok'"): "as raw:InplaceAdd: TF 2.21 writes the rows into the input's own buffer, simdist "
                                   "returns a new tensor and leaves the input (fz30a, open)",
    ("raw:MatrixLogarithm", "value", "complex"):
        "complex MatrixLogarithm of 4x4 matrices: the last bits of Eigen's complex Schur-Pade (complex64: relative "
        "differences up to 4e-6 in 190 of 192 entries, seed 3020261201 #104; complex128, sig seed 3020261205 #130), "
        "as fz29b's complex128 logm: TF 2.21's values differ from simdist's in the last bits; not analysed (fz30a, "
        "open).",
    ("raw:MatrixSolve", "value", "complex128"):
        "complex128 MatrixSolve of a batch of 4x4 systems: one ulp in 15 of 32 entries (seed 3020261201 #286), "
        "the order of Eigen's complex PartialPivLU updates: TF 2.21's values and simdist's differ by that ulp; not "
        "analysed (fz30a, open).",
    ("raw:MatrixSolve", "value", "complex64"):
        "complex64 MatrixSolve of batches of 3x3 and 4x4 systems: TF 2.21's values and simdist's differ by relative "
        "amounts up to 1e-6 in the entries of some matrices (function seed 3620261210 #53, sig seed 3620261215 #61), the "
        "complex128 entry's cause in float32: "
        "eigen_lu.lu_solve models Eigen's PartialPivLU bit for bit for real dtypes and complex of order 1 only (the "
        "packet products of the complex rank-1 updates are not modelled) (fz36a, open).",
    ("raw:IFFT2D", "value", "'ok'"):
        "IFFT2D/IFFT3D of complex64 values near the float32 maximum whose 1/N scale decides overflow: TF 2.21 (DUCC) "
        "scales before the length-2 pass for an input of shape [2, 1] or [2, 1, 1] (3.2e38j where (a - b)/2 overflows "
        "unscaled) but after it for [1, 2], [2] and [1, 2, 1] (inf j); simdist applies the scale after the first axis "
        "longer than 1 (fft.py `_c2c`), matching the latter. Which of DUCC's axis loops applies the scale where was not "
        "mapped (sig seed 3620261225 #79; fz36a, open).",
    ("raw:AvgPoolGrad", "error-class", "'err', 'InvalidArgumentError'"):
        "oneDNN's AvgPoolGrad (float32, bfloat16 here) of an orig_input_shape that does not fit grad (eager seed "
        "3720261217 #2: NCHW, [2, 2, 0, 2] beside a [4, 4, 1, 4] grad, ksize [1, 2, 3, 1]): TF 2.21 raises the "
        "primitive's InvalidArgumentError (\"index * stride must be less than or equal to input size\", \"Output only "
        "has 0 elements but computation requested would use element with index=15\"), NHWC alike, where simdist "
        "raises its NCHW window refusal (UnimplementedError) or computes; which shapes oneDNN's reorder refuses was "
        "not mapped (fz36a's AvgPoolGrad note; fz37a, open).",
    ("raw:MatrixInverse", "gradient", "complex128"):
        "the gradient of a complex128 MatrixInverse of a [1, 1, 3, 3] batch (tape seed 3720261217 #110): TF 2.21's "
        "and simdist's inverses agree, their gradients (-A^-H g A^-H, two complex MatMuls) differ in the last bits; "
        "the order of Eigen's complex GEMM products behind it was not analysed, as the forward complex linear-algebra "
        "entries above (fz37a, open).",
    ("raw:AccumulateNV2", "error-class", "AlreadyExistsError"):
        "AccumulateNV2 in a tf.function after a failed one in the same process: TF 2.21's AccumulateNV2RemovePass "
        "names its temporary variable after the node, and the variable a failed run leaks makes every later run of "
        "that name AlreadyExistsError (function seed 3120261205 #137: the second and third calls, and a later "
        "function's AccumulateNV2); simdist keeps no such process state (fz30a's note; fz31a, open).",
    ("raw:AccumulateNV2", "accepts", "AlreadyExistsError"):
        "as the error-class entry: TF 2.21 refuses a later AccumulateNV2 for the temporary variable an earlier failed "
        "one leaked, where simdist computes it (fz31a, open).",
    ("raw:AccumulateNV2", "error-class", "NotFoundError"):
        "AccumulateNV2 called eagerly with a shape attr of -2: TF 2.21's fast path sets the shape attr without "
        "validating it and fails at the kernel lookup (NotFoundError), where simdist converts the attr to a "
        "TensorShape first and raises its ValueError \"Dimension -2 must be >= 0\" (seed 3120261212 #5; in a "
        "tf.function both raise that ValueError); when the eager path validates a shape attr was not mapped (fz31a, "
        "open).",
    ("raw:Eig", "rejects", "'ok'"):
        "Eig with compute_v False of a finite input: TF 2.21 returns the eigenvalues and, for v, a scalar of "
        "uninitialised memory (observed: 6.9e-310+4.7e-310j, another value each run), where simdist raises "
        "UnimplementedError rather than invent v (sig seed 3120261207 #159; its checks and a non-finite input's "
        "error come first: fz31a, open).",
    ("raw:RandomIndexShuffle", "rejects", "'ok'"):
        "RandomIndexShuffle with rounds other than an even number >= 4 eagerly: TF 2.21's kernel reads the attr "
        "unchecked (only the shape function refuses it, at trace) and its Simon cipher then reads round keys past "
        "the schedule it made (rounds=1: k[1] of one key; rounds=0 is no round at all), undefined behaviour: "
        "rounds=1, max_index=2, index=1 returns 1, max_index=1 never returns (observed; tape seed 3220261206 #0). "
        "simdist keeps the refusal \"rounds must be an even integer >= 4\" rather than invent those values (fz32a, "
        "open).",
    ("raw:StatelessRandomGammaV3", "rejects", "'ok'"):
        "StatelessRandomGammaV3 with a counter of one word and alg 1 (Philox) or 3: TF 2.21's kernel checks the "
        "counter's size only for ThreeFry (alg 2: \"counter must be a vector with at least 2 elements\") and Philox "
        "reads its second word past the tensor's end (observed 5.9665 for key [7], counter [1], alpha 4; eager "
        "seed 3220261208 #193); simdist refuses with UnimplementedError rather than read memory it does not have "
        "(fz32a, open).",
    ("raw:MatrixSolveLs", "gradient", "float64"):
        "float64 MatrixSolveLs of a 4x4 system with an l2_regularizer under a tape (seed 3220261209 #63): the "
        "gradients agree to 8 digits and differ in the last bits (the Cholesky solve's order in TF's gradient "
        "composition against simdist's); not analysed (fz32a, open). fz40: the forward fast=True values of seeded 4x4 "
        "systems already differ in the last bits (lstsq.py `_solve_ls` forms the normal equations with BLAS and "
        "LAPACK's Cholesky, TF with Eigen's GEMM into the Gramian's lower triangle and LLT::solveInPlace); open.",
    ("raw:SelfAdjointEigV2", "value", "(), array("):
        "SelfAdjointEigV2 with compute_v False (and Svd without compute_uv, fz20_seen's raw:Svd): LinearAlgebraOp::"
        "PrepareOutputs allocates the output the kernel does not compute as a scalar and never writes it, so TF "
        "2.21's v is uninitialised memory (observed 6.92560356e-310+4.64727745e-310j, another value each run; tape seed "
        "3320261203 #135). simdist gives the scalar's shape and dtype with 0 (fz33a: it gave shape [0]); the value "
        "cannot be modelled (fz33a, open).",
    ("raw:SelfAdjointEigV2", "gradient", "(), array("):
        "The same uninitialised v of SelfAdjointEigV2 with compute_v False under a tape (tape seed 4220261205 #166: TF "
        "2.21's float64 v 2.29983126686e-312, simdist 0; the first-order gradients agree bit for bit); the same "
        "program's second-order gradient of a compute_v True decomposition differs in the last bits where it is "
        "rounding noise (TF 5.55e-17, simdist 0: the order of the adjoint's sums), not analysed (fz42, open).",
    ("raw:MatrixDeterminant", "value", "complex"):
        "complex MatrixDeterminant (and LogMatrixDeterminant's sign) of 2x2 to 8x8 matrices: the last bits of the sign "
        "(diag / |diag|).prod() of Eigen's complex PartialPivLU (complex128 4x4, seed 3320261201 #252: 117.22873449949907"
        "+115.68962312775008j on TF 2.21, ...904+...007j in simdist). fz33a made |pivot| glibc's hypot (log|det| of "
        "300 random 2x2 complex128 matrices: 239 -> 297 agree) but no order of the complex products and quotients tried "
        "(FMA or not, parts or reciprocal, Smith or pdiv_complex) gave TF's sign in more than 151 of those 300; the "
        "packet paths of Eigen's complex LU are not modelled (eigen_lu.py; fz33a, open).",
    ("raw:MatrixDeterminant", "gradient", "complex"):
        "as the value entry: the forward's complex determinant under a tape differs between TF 2.21 and simdist in the "
        "last bits (complex64 80.056114+531.1162j on TF, 80.0561+531.1163j in simdist; tape seed 3520261203 #140), Eigen's "
        "complex LU packet paths (fz35a, open).",
    ("raw:MatrixLogarithm", "gradient", "complex"):
        "as the value entry: the forward's complex Schur-Pade logarithm under a tape differs between TF 2.21 and simdist "
        "in the last bits (complex128 2x2, tape seed 3520261203 #173; fz35a, open).",
    ("raw:DepthwiseConv2dNative", "value", "'ok'"):
        "oneDNN's eager depthwise convolution (float32, bfloat16, float16 on an AVX-512 host) whose output has no elements: "
        "TF 2.21's mkl_conv_ops.cc allocates it with the input's shape and writes nothing, so its values are uninitialised "
        "memory (622592, 7.2e14, ... for a [4, 2, 1, 2] bfloat16 input under a 4-row filter at stride 3, seed 3520261201 #23, "
        "another value each run); simdist returns that shape of zeros (conv.py, host_cpu.CPUModel.conv_empty_input_shaped), "
        "so only the values differ; they cannot be compared (fz35a, open; Conv2D's oneDNN kernel does the same).",
    ("raw:Conv2DBackpropFilter", "rejects", "'ok'"):
        "oneDNN's Conv2D backprops (float32, bfloat16, float16 on an AVX-512 host; SAME or VALID padding, EXPLICIT goes to "
        "TF's own kernel) run no CheckValidPadding, as oneDNN's forward (onednn_padding.py): TF 2.21 takes a nonzero "
        "explicit_paddings beside SAME (an empty input then gives zeros of filter_sizes, seed 3520261219 #31), where simdist "
        "raises CheckValidPadding's InvalidArgumentError. Observed at the session's end, not modelled (fz35a, open; since "
        "fz36a an out_backprop of another size is the primitive's AbortedError and an empty operand zeros of filter_sizes "
        "in simdist too).",
    ("raw:Conv2DBackpropInput", "rejects", "'ok'"):
        "as raw:Conv2DBackpropFilter's rejects entry: oneDNN's backprop input takes a nonzero explicit_paddings beside SAME or "
        "VALID on TF 2.21, where simdist raises CheckValidPadding's InvalidArgumentError (fz35a, open).",
    ("raw:SelfAdjointEigV2", "value", "complex"):
        "complex SelfAdjointEigV2 of 2x2 matrices whose diagonal has imaginary parts (sig seed 3520261211 #157): after "
        "fz35a's fix (the diagonal's real part in the tridiagonalization's product) the eigenvalues differ between TF 2.21 "
        "and simdist in the last bit (-2.7913812651491092 on TF, -2.791381265149109 in simdist) and an eigenvector's sign "
        "with them ([0.707, -0.116+0.697j] on TF, its negation in simdist): the complex Householder and QR steps' rounding "
        "is not matched (fz35a, open).",
    ("raw:BatchMatMul", "value", "complex"):
        "complex BatchMatMul/BatchMatMulV3/MatMul with adj_y or transpose_b and an inner dimension of 1 (outer products) "
        "of NaN and infinite parts (tape seed 4020261201 #50: a [1, 3, 1] x with nan+infj beside a [1, 3, 1] y): TF 2.21 "
        "multiplies such products as std::complex's operator* (libgcc's __muldc3/__mulsc3 with C99 Annex G's recovery: "
        "(nan+infj) * conj(1e-40-0.5j) is -inf+infj, and in complex64 1e-40 is flushed first: -inf+nanj), observed; the "
        "same product without the transposed or adjoint rhs is NaN+NaNj (packets). simdist multiplies every k = 1 product "
        "as NumPy does (NaN+NaNj); which of Eigen's paths (k = 1, the transposed rhs) take the scalar operator was not "
        "mapped: fz3_known's ('linalg.matmul', 'value') class, the non-GEBP paths (fz40, open).",
    ("raw:BatchMatMul", "gradient", "complex"):
        "as raw:BatchMatMul's value entry, in the gradient: complex64 BatchMatMul of [2, 1, 1] operands, x holding "
        "nan+infj, under a tape (seed 4320261201 #64): y's gradient matmul(x, grad, adjoint_a=True) is nan-infj on TF 2.21, "
        "NaN+NaNj in simdist. fz43 observed (tf.linalg.matmul, complex64 and complex128): every adjoint_a product of m, k, "
        "n in {1, 2} and (3, 1, 3), (1, 5, 1), (1, 9, 1), (4, 1, 1), (1, 1, 5) takes the scalar operator* with Annex G's "
        "recovery (conj(x) * y: (nan+infj) * (0+1j) is -inf+nanj), where the same products without adjoint are NumPy's "
        "(NaN+NaNj); of 128 random [b, m, k] x [b, k, n] products (m, k, n up to 17, adjoint_a, adjoint_b, both, "
        "transpose_a; batch 1 and 3) holding nan+infj, inf and 0+infj, 85 differ, batch 3 more than batch 1 (Eigen's "
        "SequentialMatMulKernel's lazy products against the parallel contraction); not mapped (fz43, open).",
    ("raw:BatchMatMulV2", "value", "complex"):
        "as raw:BatchMatMul's value entry: complex64 BatchMatMulV2(adj_x=True) of [4, 4, k] operands holding inf, NaN "
        "and 3e38 parts under a tape (tape seed 4020261209 #24, found on the session's final code): TF 2.21 gives "
        "inf-2.25e38j and -inf+infj where simdist's products give NaN+NaNj; which of Eigen's complex kernels multiply "
        "those entries as std::complex's operator* (Annex G) was not mapped (fz40, open).",
    ("raw:Expint", "value", "'ok'"):
        "float32 Expint of values near 6 (seed 4020261209 #116, eager): TF 2.21's Eigen expint gives 191.50476 "
        "where simdist's gives 191.50475, one ulp; the float32 series' evaluation order was not compared (fz40, open: "
        "last bits).",
    ("raw:AvgPoolGrad", "rejects", "'ok'"):
        "oneDNN's AvgPoolGrad (float32, bfloat16) of an empty grad in NCHW with a window over the channels (sig seed "
        "4020261202 #101: grad [3, 0, 1, 3], orig_input_shape [1, 2, 2, 3], ksize [1, 2, 1, 1]): TF 2.21 returns zeros of "
        "orig_input_shape, where simdist refuses the channel window (UnimplementedError); oneDNN's handling of empty "
        "operands and NCHW windows was not mapped (as the error-class entry above; fz40, open).",
    ("raw:AvgPoolGrad", "accepts", "'err', 'InvalidArgumentError'"):
        "oneDNN's AvgPoolGrad (float32) of a grad taller than the window gives: TF 2.21 raises \"index * stride must be "
        "less than or equal to input size\" as TF's own kernel does, where simdist's oneDNN model reads the grad's "
        "leading elements and computes (observed beside eager seed 4020261204 #82, whose float16 program fz40 closed: "
        "float16 runs TF's own kernel); which shapes oneDNN refuses was not mapped (fz40, open).",
}


def known_key(prog: Any, t: int, got: Any, want: Any) -> tuple[str, str, str] | None:
    """The open class a disagreement of snippet t belongs to, or None."""
    if t < 0:   # (the whole program: a harness crash on one side)
        return next((key for key in KNOWN_OPEN if key[0] == "program" and key[2] in repr(want)), None)
    from fz14_known import _matches
    from fz14_run import kind_of
    label, kind = prog.labels[t], kind_of(got, want)
    return next((key for key in list(KNOWN_OPEN) + list(SEEN) if _matches(key, label, kind, got, want)), None)

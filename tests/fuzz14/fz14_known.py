"""Disagreement classes of the fourteenth fuzzer still open: counted by the campaign and the
tests, not failed. A key is (snippet label, kind, TF's sign) as in tests/fuzz4/fz4_known.py: the
label (`fz14_progs`: "call:<op>", "operator:<op>", "call:<a>>call:<b>" for a chain, ...; a key
ending in ":" matches every label it begins), the kind (fz4_run.kind_of; "missing": simdist has
no such function, AttributeError, whatever TF does, in every mode: `_missing`) and a text TF's
outcome contains.

KNOWN_OPEN holds the classes analysed, each saying what TF 2.21 does and what simdist does;
fz14_seen.py holds the classes the first campaigns found and nobody has analysed yet (one line
each: seed, program, mode, both outcomes), so that a new class still fails the tests."""

from __future__ import annotations

from typing import Any

from fz14_seen import SEEN

# functions of TF 2.21's public API the facade lacks (the last, tf.strings.unicode_script, was added
# by fz17: simdist/runtime/ops/unicode_script.py)
_MISSING: tuple[str, ...] = ()

KNOWN_OPEN: dict[tuple[str, str, str], str] = {
    ("call:math.reduce_sum>call:random_index_shuffle", "error-class", "TypeError"):
        "tf.random_index_shuffle(2, seed=tf.constant([5, 6]), max_index=2, rounds=tf.constant(2)) in a tf.function "
        "(fz41: fourteenth generator seed 1420413004 #3): TF 2.21's op_def_library make_int refuses a tensor rounds "
        "(TypeError \"Expected int for argument 'rounds' not <tf.Tensor ...>\") before the shape function's seed "
        "check; simdist raises the seed shape ValueError. Also noticed, not mapped: with a valid seed TF returns 0 for "
        "rounds=2 in a tf.function, where simdist raises \"rounds must be an even integer >= 4\", and an eager TF "
        "call with rounds=2 did not return within minutes",
    **{(f"call:{op}", "missing", ""): f"tf.{op} exists in TF 2.21, not in simdist's facade (simdist: AttributeError)"
       for op in _MISSING},
    ("random:", "value", "calls"):
        "tf.random.set_seed(n) inside a tf.function, then stateful random ops with and without an op seed: TF 2.21 "
        "derives the graph's op seeds from the FuncGraph's seed and its op count at trace time (random_seed.get_seed "
        "with graph._last_id), simdist from its own counter: other numbers in function/sig modes (eager agrees); "
        "seed 14 #11, #50, #119, #126, #139, #221",
    **{(f"random:Generator.{draw}", "accepts", "ValueError"):
       "tf.random.Generator.from_seed inside a tf.function creates variables on every call: TF 2.21 raises "
       "ValueError on the first call (the fourth fuzzer's open class `convert:tf.Variable`, fz4_known.py), "
       "simdist's first call returns and later calls raise; seed 14 #192, #220, #563, 14202612012 #0 (one key per "
       "draw: a key matches its label exactly, so fz15's 'random:Generator.' matched none)"
       for draw in ("normal", "truncated_normal", "uniform")},
    **{(f"call:{label}", "value", "calls"): f"{label} after tf.random.set_seed(n) inside a tf.function (fz14_progs "
       "puts set_seed before every stateful tf.random call): the `random:` class above, TF 2.21's graph-level seeds "
       "against simdist's (simdist's draws differ from TF's on some calls; seed 14 #535 random.shuffle(seed=42): "
       "simdist's first call differs, its third, after a retrace, is TF's first; seed 1420261202 #253, #920, #239; "
       "fz22: seed 1420262201 #147, random.truncated_normal: TF's first and third calls agree, simdist's third is TF's "
       "first; fz24b: seed 1420262403 #18, random.poisson with seed=1: TF's second call differs; fz28b: seed 1420282802 "
       "#43, #180, random.gamma, and #57, random.categorical: simdist's third call is TF's first)"
       for label in ("random.normal", "random.shuffle", "random.uniform", "random.uniform>call:divide",
                     "random.truncated_normal", "random.poisson", "random.gamma", "random.categorical>operator:|")},
    **{(f"call:image.{op}", "value", "'ok'"): f"tf.image.{op} without a seed (fz14_progs sets no global seed before "
       "tf.image's random ops): TF 2.21 seeds the kernel nondeterministically (no global seed, no op seed: another "
       "draw in every process), simdist deterministically, so the values cannot agree even within the inexact "
       "tolerance (seed 1420261202 #78: TF adds 0.0021, simdist -0.0905; #921 flips where TF does not; the seeded "
       "#787 was Grappler's ConstantPushDown, fixed in fz15d: function.grappler-rewrites; fz29b: seed 1420292902 #6, "
       "random_brightness of a bfloat16 image compared with `<`, the first call's draw; fz48: seed 1420483001 #0, "
       "random_contrast(x0, 1, 2) of a float32 argument in a tf.function, the draw of its contrast factor)"
       for op in ("random_brightness", "random_flip_up_down", "random_brightness>operator:<",
                  "random_brightness>operator:>", "random_brightness>operator:+", "random_contrast")},
    # (fz31b: fresh seed 1420313006 #190, `> int64 array`; fz39b: seed 1420393003 #50, `0 + y` of a float16 image
    # in MirroredStrategy.run, max_delta=np.float32(2) and no seed)
    ("call:expand_dims>call:image.random_brightness", "value", "'ok'"):
        "tf.image.random_brightness(expand_dims(x), max_delta=tf.constant(0.5)) without a seed under a tape (fz31b: "
        "fresh seed 1420313008 #73): the unseeded tf.image random ops' class above (TF 2.21 adds 0.0880, simdist "
        "-0.0003: a nondeterministic draw in TF)",
    ("call:nn.dropout", "value", "'grad'"):
        "tf.nn.dropout(x, 0.1) without a seed as a program's first random op, under a tape (fz26b: seed 1420262602 "
        "#92): with no global and no op seed TF 2.21 seeds the kernel nondeterministically (another mask in every "
        "process), simdist deterministically; the values cannot be compared. (Until fz26b the TF worker kept an "
        "earlier program's tf.random.set_seed in force, which hid the class; seeded dropout agrees: seed 1420262601 #43)",
    ("call:nn.dropout", "value", "'ok'"):
        "tf.nn.dropout(x=-2.5, rate=0.5) without a seed eagerly (fz27b: seed 1420272701 #285): TF 2.21 seeds the "
        "kernel nondeterministically with no global and no op seed (measured: six processes of four "
        "calls each gave 0.0 and -5.0 in different orders), simdist deterministically; the class of the `'grad'` key "
        "above",
    ("call:nn.learned_unigram_candidate_sampler", "value", "'dist'"):
        "tf.nn.learned_unigram_candidate_sampler without a seed in MirroredStrategy.run (fz24b: seed 1420262403 #33): "
        "with no global and no op seed TF 2.21 seeds the sampler's kernel nondeterministically (its candidates change "
        "from process to process), simdist deterministically; the values cannot be compared (as tf.image's unseeded "
        "random ops below)",
    ("operator:@", "value", "'grad'"):
        "`complex list @ complex64 x` of entries holding ±inf, 3.4e38 and subnormals under a tape (fz31b: fresh seed "
        "1420313005 #170): the value and its gradient hold NaN parts where simdist's have inf (TF's Eigen kernel adds "
        "the real and imaginary products apart, under DAZ/FTZ; simdist's NumPy/BLAS product): the third generator's "
        "open class ('linalg.matmul', 'value') in tests/fuzz3/fz3_known.py: its GEBP products are modelled since fz37b "
        "(contraction_order.complex_gebp; seed 1420363005 #235 agrees since), this one (a one-column product, the "
        "gradient's adjoint products, subnormal parts under DAZ) still differs",
    ("call:image.random_brightness>augmented:/=", "value", "'dist'"):
        "`y = tf.image.random_brightness(int32 x0, max_delta=tf.constant(0.5)); y /= 0` without a seed in "
        "MirroredStrategy.run (fz45: fresh seed 1420453004 #116): the sign of the brightened int32 image, so of y / 0 "
        "(inf in TF 2.21, -inf in simdist), is the sign of an unseeded draw, which TF seeds nondeterministically: the "
        "class of the unseeded tf.image random ops above",
    ("call:image.transpose>operator:==", "accepts", "'calls'"):
        "`tf.image.transpose(x) == -1` of an unknown-rank float32 spec called with a rank-4 image (fz45: fresh seed "
        "1420453001 #133, sig mode): image_ops.transpose builds tf.cond(equal(rank(image), 3), f_rank3, f_rank4), and "
        "TF 2.21 raises Transpose's kernel error \"transpose expects a vector of size 4. But input(1) is a vector of "
        "size 3\" from the branch not taken (cond_true) at every call, where simdist returns the rank-4 transpose. "
        "Observed: only with Grappler's constant folding on (off, or the meta optimizer off: the call returns); a "
        "predicate built on Rank(x) (equal or not_equal, either branch holding the bad Transpose) fails, one on a bool "
        "argument or on shape(x)[0] does not, and a dead branch's Reshape or slice of x does not fail; flip_left_right, "
        "flip_up_down and rot90 of the same input return TF's eager values. The mechanism (which Grappler pass runs "
        "the dead branch's Transpose) is not found: open. (open49, forty-ninth session: only the cond's true branch "
        "runs when dead — equal(rank, 4) or not_equal(rank, 3) with the rank-4 Transpose there fails a rank-3 input, "
        "and a rank-4 one passes —; only a Transpose reading the branch's input directly (transpose(t * 2, perm) and "
        "transpose(t, perm) * 2 differ: the first passes); a predicate on size(shape(x)) passes; "
        "tf.config.optimizer.set_experimental_options({'disable_meta_optimizer': True}) removes it. Reproducers: "
        "the open49 logs' p_tr2.py and p_tr3.py.)",
    ("call:image.non_max_suppression_padded", "accepts", "TypeError"):
        "`tf.image.non_max_suppression_padded(int64 boxes [[5, -4, 1, 0]], scores [[-4, 1, -4, 1]], 0)` through an "
        "input_signature (fz36b: fresh seed 1420363006 #57): TF 2.21 raises op_def_library's TypeError \"Input 'y' of "
        "'Greater' Op has type float32 that does not match type int32 of argument 'x'\" at trace (and eagerly, from "
        "the tf.function inside its implementation), simdist traces and raises GatherV2's InvalidArgumentError at "
        "the calls (which comparison of image_ops' padded NMS meets int32 beside float32 is not analysed)",
    ("call:nn.ctc_loss>call:clip_by_global_norm", "error-class", "'calls', (('err', 'ValueError'"):
        "`y = tf.nn.ctc_loss(<float list labels>, tf.constant(float32 [3, 2, 4, 3]), ..., <complex64 ndarray>)` "
        "then clip_by_global_norm in a tf.function (fz36b: fresh seed 1420363006 #201): TF 2.21 ValueError at every "
        "call, simdist TypeError (which of ctc_loss's conversions a graph meets first is not analysed)",
    ('call:random.gamma', 'error-class', "'err', 'TypeError'"):
        "tf.random.gamma(..., dtype='bfloat16') in a tf.function with an input_signature (fz30b: seed 1420303002 "
        "#118): random_ops.random_gamma computes np.finfo(alpha.dtype.as_numpy_dtype) before RandomGamma's attr "
        "check; with NumPy 2.4.6 and ml_dtypes 0.7.0 (this host) np.finfo takes ml_dtypes' bfloat16, so TF 2.21 "
        "reaches the op (TypeError traced, InvalidArgumentError eagerly), where the goldens' reference host answered "
        "NumPy's ValueError \"data type <class 'ml_dtypes.bfloat16'> not inexact\" (tests/ops/test_fuzz7_edges_tf.py "
        "stateful-bfloat16-finfo, test_random_gamma_tf.py gamma-bfloat16), which simdist keeps: host-dependent",
    ('call:batch_to_space>operator:/', 'error-class', "'err', 'NotImplementedError'"):
        "`y = tf.batch_to_space(bool variable [2, 2, 2, 1], [1], np.array([[0, 0]]))`, then `y / np.bool_(False)` in "
        "a tf.function (fz30b: seed 1420303008 #121): TF 2.21 builds BatchToSpaceND of bool (its missing kernel is "
        "looked up only when the graph runs) and the division then asks NumPy for the symbolic tensor's value, "
        "NotImplementedError \"Cannot convert a symbolic tf.Tensor (BatchToSpaceND:0) to a numpy array\" (which path "
        "of truediv does so with a NumPy bool is not analysed); simdist raises the missing bool kernel "
        "(InvalidArgumentError \"No OpKernel was registered to support Op 'BatchToSpaceND'\") while tracing",
    ("call:linalg.qr", "value", "'Qr'"):
        "tf.linalg.qr of a float32 list [[0.25, -inf, -3], [0.001, 2.5, 0.5], [0.25, -3, 0.25], [5e-324, -1.5, 0.001]] "
        "eagerly (fz34b: seed 1420333003 #284): TF 2.21's Qr kernel is Eigen's HouseholderQR (makeHouseholder and "
        "applyHouseholderOnTheLeft column by column, Q formed by householderQ()), whose infinite column makes every entry "
        "of Q NaN and R[1, 1] NaN; simdist's is LAPACK's geqrf through np.linalg.qr (Q's first column finite, R[1, 1] "
        "-inf), and finite results differ in last bits too (qr([[0.25, 1], [0.5, -inf]]) Q[0, 0] -0.44721353 in TF, "
        "-0.4472136 in simdist): Eigen's Householder QR in its own order is not modelled",
    ("call:image.random_crop", "value", "'calls'"):
        "tf.image.random_crop(bool [1, 3, 4], size=(1, 2, 2), seed=None) in a tf.function called three times (fz37b: "
        "fresh seed 1420373006 #167): with no global and no op seed TF 2.21 seeds the offsets' kernel "
        "nondeterministically (another crop in every process), simdist deterministically; the values cannot be "
        "compared (the class of the unseeded tf.image random ops above)",
    ("call:linalg.qr", "value", "'grad'"):
        "tf.linalg.qr of a float16 Variable [[4, 0.25], [0, -0], [1, -0]] under a tape (fz37b: fresh seed 1420373003 "
        "#278): TF 2.21's Q is [[-0.9697, -0.2423], [0, 0], [-0.2423, 0.97]] and R[1, 1] -0.06058, simdist's Q "
        "[[-0.97, 0.2426], [-0, 0], [-0.2426, -0.97]] and R[1, 1] 0.06064: Eigen's HouseholderQR in half precision "
        "(its own signs and rounding) against simdist's LAPACK geqrf, the class of ('call:linalg.qr', 'value', "
        "\"'Qr'\") above, not modelled",
    ('call:image.non_max_suppression_with_scores>operator:&', 'error-class', "'err', 'InvalidArgumentError'"):
        "`tf.image.non_max_suppression_with_scores(boxes=uint16 ndarray, scores=uint16 Variable, max_output_size=0)` "
        "eagerly (fz34b: fresh seed 1420343003 #28): TF 2.21's fast path fixes NonMaxSuppressionV5's T at uint16 from "
        "the boxes and the NodeDef's T check refuses it (InvalidArgumentError \"Value for attr 'T' of uint16 is not in "
        "the list of allowed values: half, float\"), where simdist's model of the eager fallback converts the variable "
        "to the float32 of the thresholds first (ValueError); how the fast path takes a variable beside NumPy inputs "
        "of a T shared with converted thresholds is not modelled (the class of call:image.non_max_suppression_with_scores "
        "above)",
    ("call:linalg.eigh", "value", "'grad'"):
        "tf.linalg.eigh of a complex64 Variable [4, 4] under a tape (fz32b: fresh seed 1420323003 #60): TF 2.21's "
        "eigenvalues are -7.918, -2.681, 6.349, 17.75, simdist's -12.62, -2.680, 11.05, 17.89 (different matrices, "
        "not rounding: which triangle or which value each side reads of an input that is not Hermitian is not "
        "analysed)",
    ("call:eigvals", "gradient", "'grad'"):
        "tf.eigvals of a complex64 Variable [1, 1, 4, 4] under a tape (fz44: fresh seed 1420443004 #263): TF 2.21's "
        "float32 eigenvalues (Eigen's ComplexEigenSolver: complex Schur form by shifted QR in complex64) differ from "
        "simdist's in the last bits (-0.52206856+0.4381328j against -0.5220688+0.43813252j, about 4 ulp), and the "
        "gradient, which solves with the eigenvectors, by more (an entry 1e-7 where TF's is 0); Eigen's float32 "
        "iteration order is not modelled (open)",
    ("call:linalg.eigvals", "gradient", "'grad'"):
        "tf.linalg.eigvals of a float32 [1, 2, 3, 3] constant under a tape, watched (fz47: fresh seed 1420473001 #241): "
        "the eigenvalues agree bit for bit, the gradient (with respect to the real input, through the complex64 "
        "eigenvectors) differs from TF 2.21's (an entry 1.6577671e... in TF where simdist's is 0): the class of "
        "('call:eigvals', 'gradient') below, Eigen's float32 ComplexEigenSolver not modelled (open)",
    ("call:image.non_max_suppression_with_scores", "error-class", "'err', 'InvalidArgumentError'"):
        "non_max_suppression_with_scores(uint64 Variable boxes [3, 2, 2], scores=3, max_output_size=tf.constant(2), "
        "iou_threshold=np.float32(2)) eagerly (fz32b: fresh seed 1420323003 #89): TF 2.21 InvalidArgumentError, "
        "simdist ValueError (which of the boxes' rank, the scores' rank or the uint64 dtype TF checks first is not "
        "analysed)",
    ("call:image.resize_with_crop_or_pad>call:math.squared_difference", "error-class", "'calls', (('err', 'TypeError'"):
        "`y = resize_with_crop_or_pad(x, 5, np.int64(2))` of an unknown-rank uint32 spec, then "
        "`squared_difference(y, 2.5)` (fz32b: fresh seed 1420323003 #149): TF 2.21 TypeError at trace, simdist "
        "ValueError (the wrapper's checks of an unknown rank against the later op's dtype refusal: not analysed)",
    ("call:linalg.cholesky", "value", "'ok'"):
        "tf.linalg.cholesky of float32 matrices that are not positive definite (inf, -3.4e38 entries) eagerly (fz32b: "
        "fresh seed 1420323004 #173): TF 2.21's output holds what its buffer held above the diagonal (4.48e-44, "
        "7.78e31: uninitialised memory, another value in every process), simdist writes 0 there (the lower triangle "
        "NaN on both); cannot be compared",
    ('call:unique_with_counts>operator:-', 'error-class', "'err', 'TypeError'"):
        "`y = tf.unique_with_counts(x)` of a scalar tf.function argument, then `bool tensor - y` (fz23b: seed "
        "1420262301 #284): TF 2.21's UniqueWithCounts shape function does not check the rank, so the trace goes on to "
        "Sub's TypeError for a bool x (and traces again each call); simdist's trace runs Unique's kernel, whose rank "
        "error (\"unique expects a 1D vector\") is a run-time one and stops it. fz27b: the dry runs go on past it on "
        "UniqueWithCounts' stand-in (y [n], idx the input's shape, count [n]), and then autopack the tuple for the Sub, "
        "whose Pack of a scalar idx beside the vectors is a shape ValueError; TF converts the bool x first (op_def_"
        "library's TypeError) and never packs y: still open (the order of a binary operator's conversions)",
    ("call:nn.relu", "value", "'dist'"):
        "tf.nn.relu of float32/float64 subnormals (fz23b: seed 1420262301 #298, `relu(features=1e-40)` under "
        "MirroredStrategy.run): TF 2.21's Relu kernel keeps some subnormals and flushes others by position "
        "(measured on this AVX2 host: a 1-element input keeps 1e-40 and relu(-1e-40) is -1e-40, n = 3, 5, 7 keep the "
        "first element only, n = 9, 17, 33 the last; a 2-, 4-, 8- or 16-element input flushes all), which is neither "
        "the scalar tail nor the packets simdist models for bfloat16 (subnormals._relu_fix) and may differ on the "
        "reference AVX-512 host; simdist flushes every float32/float64 subnormal (not modelled)",
    ("call:nn.relu", "value", "'ok'"):
        "tf.nn.relu of float32 subnormals eagerly (fz26b: fresh seed 1420262603 #57, `relu(np.array([[1e-40], "
        "[0.001], [-1.0]], np.float32))`: TF 2.21 keeps the first element's 1e-40, simdist flushes it to 0): "
        "the position-dependent flushing of the call:nn.relu dist class above, not modelled",
    ('call:image.crop_and_resize>call:bitwise.left_shift', 'error-class', "'err', 'TypeError'"):
        'crop_and_resize(boxes=-1, box_indices=complex128 tensor): TF 2.21 TypeError (not analysed), simdist '
        "InvalidArgumentError (box_indices' dtype); seed 1420261202 #6",
    ("call:nn.ctc_greedy_decoder", "error-class", "'err', 'InvalidArgumentError'"):
        "ctc_greedy_decoder(inputs=[an empty float64 ndarray of shape (3, 2, 0, 2), a NumPy scalar, a Python int], "
        "[0]) eagerly (fz16a): TF 2.21's conversion of that ragged list yields some tensor and the kernel says "
        "\"inputs is not a 3-Tensor\" (InvalidArgumentError); simdist's conversion refuses the list (NumPy's "
        "ValueError \"inhomogeneous shape\"); how TF packs an empty array beside scalars is not analysed; "
        "seed 14 #117",
    ("call:image.random_flip_left_right", "value", "'ok'"):
        "tf.image.random_flip_left_right(int list image, seed=1) in MirroredStrategy.run (dist mode, seed 1420261218 "
        "#249): with an op seed and no global seed TF 2.21's eager stateful kernel is cached per process with its "
        "Philox state, so a second call with the same seed draws on: whether TF flips depends on which earlier "
        "programs of its long-lived worker drew from the same op and seed (TF did not flip, simdist flipped); asked "
        "alone TF agrees with simdist (fz19), so the class is the worker's history, not the op",
    ("call:image.pad_to_bounding_box>call:nn.softmax", "accepts", "'err', 'TypeError'"):
        "pad_to_bounding_box of an unknown-rank image (a rank-1 value) then tf.nn.softmax(True) in a tf.function with "
        "an input_signature: TF 2.21's pad checks the rank and the target with assert ops that fail only when the "
        "graph runs, so the trace reaches Softmax's bool TypeError (every call); simdist (fz17: the same run-time "
        "checks, ops.conversion/function.trace-time-errors) raises the pad's InvalidArgumentError while it runs the "
        "traced Python, on the placeholder values of every dry run too, and never reaches softmax. Open (fz28b): the "
        "pad's assert-op checks are made in Python, and no dry-run placeholder of unknown rank passes them (rank 3 "
        "is wider than the target, other ranks are refused); seed 1420261217 #66",
    # (fz32b) closed and taken off, each recorded program re-run against TF 2.21 agreeing: fractional_avg_pool's
    # 0-d NumPy pooling_ratio (seed 14 #401: the fast path's SetOpAttrList sizes it -1, MemoryError, now modelled
    # for a scalar tensor and a variable too; attr_rules.sized_list, fractional_pool._ratio_attr); fftshift of an
    # unknown-rank spec (1420261202 #581: range(None)'s TypeError; signal_ops._shift); irfftnd of a spec with an
    # unknown dimension (14 #45: _infer_fft_length_for_irfftn's Python on the static shape; fft._nd);
    # band_part>unary:+ (1420261202 #494: MatrixBandPart's rank and bound checks are its kernel's, a dry run goes
    # on past them on a stand-in to `+`'s TypeError; linalg_more.band_part); stateless_binomial>approx_max_k (14 #119:
    # the missing int64 kernel is looked up when the graph runs, a dry run goes on to ApproxTopK's TypeError;
    # binomial.stateless_binomial)
    # (fz31b) closed and taken off, each recorded program re-run against TF 2.21 agreeing: ctc_greedy_decoder's
    # list inputs (seeds 1420303007 #82, 1420272703 #56: args_to_matching_eager's own dtype first, a graph's
    # preferred float32 autopacking; ctc_decode.py), tensor_scatter_nd_update>safe_embedding_lookup_sparse
    # (1420262601 #33: a call after a failed trace raises the dry runs' AttributeError, _concrete.build_error),
    # conv3d_transpose>not (1420261202 #702: the NumPy out_backprop cast to the filter's T, then the shape
    # function's rank-5 input_sizes at trace; conv3d.py); and agreeing on this code without a change of
    # fz31b's: the two l2_normalize second-order gradients (1420262201 #119, 1420262302 #26) and
    # unique_with_counts>extract_volume_patches (1420261202 #951)
    # (fz30b) closed and taken off, each recorded program re-run against TF 2.21 agreeing (its labels unchanged):
    # conv3d in sig mode (seed 14 #185), shape_n's out_type (1420261202 #472), signal.fft(False) (1420261202 #925),
    # fftshift of a NumPy int64 (14 #502), crop_and_resize (1420261202 #752), depthwise_conv2d_backprop_input
    # (14 #472), batch_norm_with_global_normalization (1420261202 #312), banded_triangular_solve's SystemError
    # (1420261202 #462), fft3d of 1e300 (14 #347), draw_bounding_boxes in sig mode (1420261202 #935),
    # conv3d_transpose's NHWC (14 #292), sparse_softmax_cross_entropy_with_logits at trace (14 #412),
    # batch_to_space>clip_by_global_norm (1420261202 #957), combined_non_max_suppression's three (1420261202 #538,
    # #962, 1420261204 #12), lstsq of an inf matrix (14 #771), x / constant of subnormals in sig mode (1420261202
    # #192); to_hash_bucket_fast of a non-string spec in sig mode (1420261202 #832) fixed by fz30b (string_hash.py)
    # (fz28b) closed and taken off: argmax>linalg.trace (seed 14 #14), normalize_moments (seeds 1420261203 #16,
    # 1420261218 #178), tensor_scatter_nd_min>stateless_random_crop (1420261218 #312): a dry run now goes on past
    # a missing CPU kernel (dispatch.deferred_kernel) and past ArgMax's and TensorScatter*'s kernel checks on
    # stand-ins; strings.unsorted_segment_join (1420261202 #514) and pow>linalg.inv (1420262201 #42) agree too
    # (fz20) the MirroredStrategy programs whose every snippet TF's worker answered NotImplementedError ("Caching
    # devices is not yet supported ...": seed 14 #639, #645, #678, seed 1420261202 #678, #953, seed 1420261218
    # #28, seed 1420261219 #335, #426) were a leaked variable scope of TF's worker process (a map_fn that raised
    # while tracing); the worker now starts every program on a fresh scope (tests/fuzz/differ.py
    # _fresh_variable_scope, spec ops.fuzz4), and those entries are gone
}


def _missing(got: Any) -> bool:
    """simdist's outcome is the AttributeError of a function its facade lacks: the one error of an
    eager, tape or dist snippet, or every error of a function or sig snippet's calls (a sig
    snippet's calls all raise it; a function snippet's end with the trace count)."""
    if got == ("err", "AttributeError"):
        return True
    if got[:1] != ("calls",):
        return False
    errs = [c for c in got[1] if c[:1] == ("err",)]
    return bool(errs) and all(c == ("err", "AttributeError") for c in errs) and \
        all(c[:1] == ("err",) or c[1][:2] == ("py", "int") for c in got[1])


def _matches(key: tuple[str, str, str], label: str, kind: str, got: Any, want: Any) -> bool:
    name, k, sign = key
    if k == "missing":
        return _missing(got) and any(part == name for part in label.split(">"))
    return k == kind and (label == name or (name.endswith(":") and label.startswith(name))) and sign in repr(want)


def known_key(prog: Any, t: int, got: Any, want: Any) -> tuple[str, str, str] | None:
    """The open class (analysed, or seen and not analysed) a disagreement of snippet t belongs to, or None."""
    if t < 0:   # (the whole program: a harness crash on one side)
        return next((key for key in KNOWN_OPEN if key[0] == "program" and key[2] in repr(want)), None)
    from fz14_run import kind_of
    label, kind = prog.labels[t], kind_of(got, want)
    for key in list(KNOWN_OPEN) + list(SEEN):
        if _matches(key, label, kind, got, want):
            return key
    return None

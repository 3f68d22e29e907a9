"""Run a blind batch's first-contact survivors against a slice of the suite (by default the modules
written in the same session without seeing the batch), one mutant at a time in a private copy of the
committed package (suite_kills.py's plant-and-run):

    python benchmarks/blind_kills.py BATCH ["-k EXPRESSION"]

BATCH is 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92 or 93. Prints the baseline (the unmutated copy must pass) and one line per mutant: killed
(with the failing test) or survived. docs/conformance.md has the figures: batch 19, 1 of 14 with its
default slice ("Twenty-first session ... a nineteenth blind batch"); batch 20 in "Twenty-second session
... a twentieth blind batch"; batch 21 in "Twenty-third session: ... against the twenty-first blind
batch"; batch 22 in "Twenty-fourth session, 2026-12-02: a twenty-second blind batch (the core, 2)"; batch 23 in
"Twenty-fifth session, 2026-12-02: a twenty-third blind batch"; batch 24 in "Twenty-sixth session, 2026-12-02: a
twenty-fourth blind batch"; batch 25 in "Twenty-seventh session, 2026-12-02: a twenty-fifth blind batch"; batch 26 in
"Twenty-eighth session, 2026-12-02: a twenty-sixth blind batch"; batch 27 in "Twenty-ninth session, 2026-12-02: a
twenty-seventh blind batch"; batch 28 in "Thirtieth session, 2026-12-03: a twenty-eighth blind batch"; batch 29 in
"Thirty-first session, 2026-12-03: a twenty-ninth blind batch"; batch 30 in "Thirty-second session, 2026-12-03: a
thirtieth blind batch"; batch 31 in "Thirty-third session, 2026-12-03: a thirty-first blind batch"; batch 32 in "Thirty-fourth session,
2026-12-03: a thirty-second blind batch"; batch 33 in "Thirty-fifth session, 2026-12-03: a thirty-third blind batch"; batch 34 in "Thirty-sixth session,
2026-12-03: a thirty-fourth blind batch"; batch 35 in "Thirty-seventh session, 2026-12-04: a thirty-fifth blind batch";
batch 36 in "Thirty-eighth session, 2026-12-04: a thirty-sixth blind batch"; batch 37 in "Thirty-ninth session,
2026-12-04: a thirty-seventh blind batch"; batch 38 in "Fortieth session, 2026-12-04: a thirty-eighth blind batch"; batch 39 in "Fortieth session, 2026-12-04: a thirty-ninth blind batch"; batch 40 in "Forty-first session, 2026-12-04: a fortieth blind batch"; batch 41 in "Forty-first session, 2026-12-04: a forty-first blind batch"; batch 42 in "Forty-second session,
2026-12-04: a forty-second blind batch"; batch 43 in "Forty-second session, 2026-12-04: a forty-third blind batch"; batch 44 in "Forty-third session,
2026-12-05: a forty-fourth blind batch"; batch 45 in "Forty-third session, 2026-12-05: a forty-fifth blind batch"; batch 46 in
"Forty-fourth session, 2026-12-05: a forty-sixth blind batch"; batch 47 in "Forty-fourth session, 2026-12-05: a
forty-seventh blind batch"; batch 48 in "Forty-fifth session, 2026-12-05: a forty-eighth blind batch"; batch 49 in
"Forty-fifth session, 2026-12-05: a forty-ninth blind batch"; batch 50 in "Forty-sixth session, 2026-12-05: a fiftieth
blind batch"; batch 51 in "Forty-sixth session, 2026-12-05: a fifty-first blind batch"; batch 52 in "Forty-seventh session, 2026-12-05: a
fifty-second blind batch"; batch 53 in "Forty-seventh session, 2026-12-05: a
fifty-third blind batch"; batch 54 in "Forty-eighth session, 2026-12-05: a fifty-fourth blind batch"; batch 55 in
"Forty-eighth session, 2026-12-05: a fifty-fifth blind batch"; batch 56 in "Forty-ninth session, 2026-12-05: a
fifty-sixth blind batch" (its list holds the 28 mutants not confirmed killed on first contact: the per-mutant
confirmation ran out of time after two); batch 57 in "Forty-ninth session, 2026-12-05: a
fifty-seventh blind batch" (all 30: its first contact was not attributed per mutant); batch 58 in "Fiftieth
session, 2026-12-05: a fifty-eighth blind batch" (the mutants not confirmed killed on first contact); batch 59 in "Fiftieth session,
2026-12-05: a fifty-ninth blind batch" (all 30: its first contact was not attributed per mutant before the deadline);
batch 60 in "Fifty-first session, 2026-12-06: a sixtieth blind batch" (the 3 mutants not killed on first contact);
batch 61 in "Fifty-first session, 2026-12-06: a sixty-first blind batch" (the mutants not confirmed killed on first
contact); batch 62 in "Fifty-second session, 2026-12-06: a sixty-second blind batch" (the mutants not confirmed killed
on first contact); batch 63 in "Fifty-second session, 2026-12-06: a sixty-third blind batch" (the mutants not
confirmed killed on first contact); batch 64 in "Fifty-third session, 2026-12-06: a sixty-fourth blind batch" (the
mutants not confirmed killed on first contact); batch 67 in "Fifty-fourth session, 2026-12-06: a sixty-seventh blind
batch" (the 5 mutants not killed on first contact over its areas' modules); batch 66 in "Fifty-fourth session, 2026-12-06: a sixty-sixth blind
batch" (the survivors and the mutants not attributed); batch 68 in "Fifty-fifth session, 2026-12-06: a sixty-eighth
blind batch" (the 11 mutants not killed on first contact over the suite modules naming Keras); batch 69 in "Fifty-fifth
session, 2026-12-06: a sixty-ninth blind batch" (the 10 mutants not killed on first contact over the 81 suite modules of
its areas); batch 70 in "Fifty-sixth session, 2026-12-06: a seventieth blind batch" (the 7 mutants not killed on first
contact over the 100 suite modules of its areas); batch 71 in "Fifty-sixth session, 2026-12-06: a seventy-first blind
batch" (the 9 mutants not killed on first contact over the 97 suite modules of its areas); batch 72 in "Fifty-seventh
session, 2026-12-06: a seventy-second blind batch" (the mutant not killed on first contact over the 136 suite modules of
its areas, this session's sweeps merged); batch 73 in "Fifty-seventh
session, 2026-12-06: a seventy-third blind batch" (the 9 mutants not killed on first contact over the 116 suite modules
of its areas); batch 74 in "Fifty-eighth session, 2026-12-06: a seventy-fourth blind batch" (the 3 mutants not killed
on first contact over the 153 suite modules of its areas, the six 58 sweeps merged); batch 75 in "Fifty-eighth session, 2026-12-06: a seventy-fifth blind batch" (the 5 mutants not
killed on first contact over the 120 suite modules of its areas, the six 58 sweeps merged); batch 76 in "Fifty-ninth
session, 2026-12-07: a seventy-sixth blind batch" (no survivor: all 30 killed on first contact over the 166 suite modules
of its areas, the five 59 sweeps merged; its slice is this session's sweeps); batch 77 in "Fifty-ninth
session, 2026-12-07: a seventy-seventh blind batch" (the 11 mutants not killed on first contact over the 126 suite
modules of its areas, the five 59 sweeps merged); batch 78 in "Sixtieth session, 2026-12-07: a seventy-eighth blind
batch" (the 11 mutants not killed on first contact over the 167 suite modules of its areas and the five 60 sweeps);
batch 79 in "Sixtieth session, 2026-12-07: a seventy-ninth blind batch" (the 12 mutants not killed on first contact over
the 138 suite modules of its areas, the five 60 sweeps merged); batch 81 in "Sixty-first session, 2026-12-07: an
eighty-first blind batch" (the 14 mutants not killed on first contact over the 147 suite modules of its areas, the five
61 sweeps merged); batch 82 in "Sixty-second session, 2026-12-07: an eighty-second blind batch" (the 5 mutants not
killed on first contact over the 196 suite modules of its areas and the five 62 sweeps); batch 83 in "Sixty-second session, 2026-12-07: an eighty-third blind batch" (the 13 mutants not killed
on first contact over the 156 suite modules of its areas, the five 62 sweeps merged); batch 84 in "Sixty-third session,
2026-12-07: an eighty-fourth blind batch" (the 8 mutants not killed on first contact over the 253 suite modules of its
areas and the five 63 sweeps); batch 86 in "Sixty-fourth session, 2026-12-07: an eighty-sixth blind batch" (the 7
mutants not killed on first contact over the 265 suite modules of its areas and the six 64 modules); batch 87 in
"Sixty-fourth session, 2026-12-07: an eighty-seventh blind batch" (the 3 mutants not killed on first contact over the
183 suite modules of its areas and the six 64 modules); batch 88 in "Sixty-fifth session, 2026-12-07: an eighty-eighth
blind batch" (the mutant not killed on first contact over the 264 suite modules of its areas and the 65 modules);
batch 89 in "Sixty-fifth session, 2026-12-07: an eighty-ninth blind batch" (the 5 mutants not killed on first contact
over the 251 suite modules of its areas); batch 90 in "Sixty-sixth session, 2026-12-07: a ninetieth blind batch" (the 6
mutants not killed on first contact over the 285 suite modules of its areas and the four 66 modules); batch 91 in
"Sixty-sixth session, 2026-12-07: a ninety-first blind batch" (the 9 mutants not killed on first contact over the
310 suite modules of its areas and the 66 modules); batch 92 in "Sixty-seventh session, 2026-12-08: a ninety-second
blind batch" (the 7 mutants not killed on first contact over the 197 suite modules of its areas and the 67 modules); batch 93 in
"Sixty-seventh session, 2026-12-08: a ninety-third blind batch" (the 5 mutants not killed on first contact over the 312 suite modules of its areas and the five 67
modules).
"""

from __future__ import annotations

import sys

from suite_kills import find, run

#: batch -> (its first-contact survivors, the default -k slice: that session's modules written blind).
BATCHES: dict[str, tuple[list[str], str]] = {
    "19": (["cutmix-box-y-drawn-before-x", "random-hue-shift-not-halved", "random-zoom-offsets-height-width-swapped",
            "random-crop-equal-side-takes-random-offset", "random-saturation-factor-without-epsilon",
            "resizing-int-images-truncated", "adaptive-pool-channels-first-shape-last-axis",
            "hashed-crossing-one-hot-shape-keeps-unit-axis", "input-spec-max-ndim-inclusive",
            "set-image-data-format-case-sensitive", "sets-difference-flip-ignored", "ifftshift-same-as-fftshift",
            "window-periodic-odd-length-extended", "text-file-initializer-line-offset-ignored"],
           "survey21 or klayers21 or codecs21"),
    "20": (["dice-without-epsilon", "equalization-single-value-channel-equalized", "random-erasing-side-ratios-swapped",
            "posterization-upper-bits-inclusive", "swap-ema-finalize-epoch-off-by-one", "isotonic-equal-blocks-pooled",
            "ms-ssim-odd-size-padded-at-start", "draw-boxes-edge-scaled-by-size", "dct4-ortho-missing-sqrt-half",
            "nms-padded-score-threshold-inclusive", "index-directory-hidden-subdir-is-class",
            "text-dataset-shuffle-buffer-not-times-8"],
           "degen22a or degen22b or degen22c or textvec22 or summary22"),
    "21": (["jacobian-rows-stacked-on-last-axis", "sqrt-grad-nan-under-zero-upstream", "moments-float16-not-promoted",
            "compute-average-loss-weights-not-expanded", "generator-skip-by-leading-dim"],
           "cov23a or cov23b or kops23 or keras_config or keras_tree or preprocessing_legacy"),
    "22": (["persistent-tape-stops-recording-at-gradient", "nn-dropout-noise-shape-none-as-one",
            "class-weight-labels-truncated-not-rounded", "top-k-accuracy-matches-not-reshaped",
            "random-trace-kernels-share-one-instance", "random-kernel-stream-shared-across-dtypes"],
           "sweep24a or sweep24b"),
    "23": (["segment-prod-grad-single-zero-zeroed", "embedding-lookup-max-norm-last-axis-only",
            "accuracy-ranks-not-matched", "epoch-iterator-restarts-one-step-late",
            "scce-sequence-labels-not-squeezed", "tracing-count-defaults-not-applied",
            "generator-split-key-in-counter"],
           "spell25a or spell25b"),
    "24": (["custom-gradient-watcher-keeps-non-trainable", "embedding-mask-zero-masks-negative-ids",
            "tape-rewatch-cuts-history", "auc-interpolated-pr-multi-label-summed",
            "create-rng-state-vector-padded-right", "global-clipnorm-non-finite-not-nan",
            "function-numpy-defaults-not-tensors"],
           "amut26"),
    "25": (["tf-ema-num-updates-decay-not-capped", "model-checkpoint-batch-gap-counted-once",
            "custom-gradient-argument-variable-in-variables", "max-pool-grad-grad-ties-to-last",
            "attention-causal-mask-drops-value-mask", "generator-from-key-counter-key-first",
            "function-method-copy-bound-to-original", "keras-seed-cast-modulus-off-by-one",
            "manager-same-step-saved-again"],
           "amut27"),
    "26": (["lamb-first-moment-bias-fixed-beta", "time-distributed-training-not-passed",
            "spectral-norm-zero-kernel-normalized", "sparse-to-dense-default-grad-whole-sum",
            "fractional-avg-pool-grad-overlap-dropped", "rgb-to-hsv-grad-zero-channel-positive",
            "batch-jacobian-keeps-non-persistent-tape", "stateless-gamma-grad-sample-dims-with-alpha",
            "function-signature-keyword-not-bound", "fit-validation-split-overrides-data",
            "function-dict-output-not-converted"],
           "amut28"),
    "27": (["forward-gathered-jvp-whole-tangent", "forward-accumulator-reentered-accepted",
            "leaky-relu-alpha-spelling-ignored", "monitor-negative-min-delta-kept", "xdivy-grad-x-partial-unmasked",
            "auc-optimized-predictions-not-clipped", "check-numerics-grad-unchecked", "complex-abs-grad-zero-divides",
            "train-on-batch-class-and-sample-weight-accepted", "keras-random-shuffle-length-from-axis-zero",
            "keras-random-dropout-rate-one-not-zeros", "module-dict-variables-insertion-order",
            "tracing-count-variables-by-identity", "safe-embedding-empty-rows-not-zeroed"],
           "amut29"),
    "28": (["resize-bicubic-grad-align-corners-dropped", "eig-grad-f-not-conjugated", "cropping-whole-dimension-accepted",
            "unit-normalization-output-shape-axis-bound", "category-encoding-count-weights-mode-unchecked",
            "discretization-adapt-steps-off-by-one", "einsum-dense-bias-trailing-ones-dropped",
            "ctc-loss-float64-not-cast-back", "metric-super-init-unchecked",
            "py-dataset-class-and-sample-weight-accepted", "fit-dataset-with-y-accepted",
            "clone-model-shared-layer-cloned-twice", "random-hue-max-delta-half-refused", "tnp-randint-high-inclusive"],
           "blind28"),
    "29": (["keras-ops-stft-window-pad-swapped", "legacy-moving-average-update-momentum",
            "legacy-categorical-crossentropy-normalised-last-axis", "timeseries-generator-last-row-dropped",
            "make-sampling-table-sqrt-dropped", "spe-mirrored-single-replica-fails",
            "projective-transform-grad-interpolation-nearest", "ctc-loss-v1-grad-upstream-ignored",
            "v1-while-loop-maximum-iterations-dropped", "ctc-greedy-blank-does-not-reset-repeat",
            "distorted-box-coverage-strict", "index-shuffle-table-walk-off-by-one",
            "binomial-high-p-btrs-threshold-uses-p"],
           "blind29"),
    "30": (["max-num-boxes-labels-padded-with-zero", "gaussian-blur-layer-kernel-pair-second-unchecked",
            "stft-spectrogram-psd-doubles-nyquist", "stft-spectrogram-default-fft-length-is-frame-length",
            "legacy-reduction-all-drops-auto", "optimizers-deserialize-lowercase-class-name",
            "dynamic-partition-grad-positions-flat", "keras-ops-conv-transpose-same-shape",
            "keras-ops-svd-spec-reduced-v-transposed", "keras-ops-crop-images-spec-left-twice",
            "image-dataset-crop-to-aspect-ratio-top-aligned", "audio-dataset-sampling-rate-zero-accepted"],
           "blind30"),
    "31": (["muon-higher-rank-variables-not-adamw", "optimizers-get-name-case-sensitive",
            "masking-compute-mask-keeps-last-axis"],
           "blind31"),
    "32": (["elastic-transform-alpha-sigma-sides-swapped", "random-size-number-factor-only-enlarges",
            "pipeline-training-default-none", "tracked-list-pop-keeps-tracking",
            "rnn-compute-mask-kept-without-sequences", "add-mixed-dtypes-not-promoted",
            "sequential-duplicate-layer-names-accepted", "lr-scheduler-multi-optimizer-first-only",
            "loss-weights-dict-insertion-order", "pad-to-cardinality-equal-refused", "dataset-fn-namedtuple-unpacked",
            "checkpoint-stale-plain-attribute-shadows"],
           "blind32"),
    "33": (["text-vectorization-strip-punctuation-lowercases", "gqa-key-mask-dropped-beside-value-mask",
            "auc-given-thresholds-not-sorted", "reduce-lr-reset-keeps-best", "loss-scale-inner-factor-kept",
            "sample-from-datasets-all-zero-weights-not-empty", "latest-checkpoint-missing-files-returned",
            "mirrored-batch-reduce-variable-not-summed"],
           "blind33"),
    "35": (["gqa-causal-mask-query-length-only", "resizing-masks-own-interpolation",
            "metric-call-resets-state", "predict-on-batch-inputs-not-wrapped", "compile-crossentropy-sparse-before-binary",
            "compute-loss-training-always-true", "fused-bn-inference-grad-nchw-perm-not-inverted",
            "padded-batch-equal-padded-shape-refused", "weights-file-children-plain-sorted", "unique-ignores-shape"],
           "blind35"),
    "36": (["mha-mask-expanded-at-fixed-axis", "mha-output-shape-key-last-dim-checked",
            "reshape-indivisible-size-accepted", "metric-stateless-reset-returns-current",
            "metric-stateless-state-length-unchecked", "predict-tuple-outputs-as-list", "cholesky-grad-upper-upstream-kept",
            "sample-from-datasets-spec-of-first", "keras-json-numpy-scalar-kept"],
           "blind36"),
    "37": (["dropout-noise-shape-zero-accepted", "compile-metrics-weighted-not-listed",
            "predict-ragged-inner-dims-unreversed", "generator-dict-key-order-checked",
            "load-keras-file-unbuilt-accepted"],
           "blind37"),
    "38": (["standardize-tuple-short-accepted", "data-format-case-sensitive", "merge-masks-length-unchecked",
            "zero-padding1d-channels-first-axis", "hashed-crossing-shapes-rank-only", "discretization-depth-off-by-one",
            "flatten-shape-any-none-all", "argmax-negative-zero-sign-flipped", "reduction-case-insensitive",
            "nn-same-shape-broadcast-dims", "optimizer-set-weights-rank-only", "piecewise-extra-values-accepted",
            "ftrl-lr-power-zero-refused", "lion-beta1-one-refused", "early-stopping-missing-metric-list-sep",
            "backup-save-freq-bool-refused"],
           "blind38"),
    "39": (["metrics-list-tuple-not-listed", "pydataset-empty-unchecked", "sequential-input-dtype-policy", "to-json-kwargs-dropped", "take-while-vector-predicate-accepted",
            "rebatch-smaller-component-accepted", "list-files-default-unshuffled", "save-model-extension-anywhere",
            "central-storage-mean-one-component-undivided"],
           "blind39"),
    "40": (["cropping1d-whole-length-shape-accepted", "conv-strides-dilation-first-axis-only",
            "conv-groups-kernel-full-channels", "layer-norm-shape-axis-bound-off-by-one",
            "batch-norm-renorm-dmax-zero-refused", "relu-max-value-zero-refused", "noise-amount-one-refused",
            "bidirectional-return-state-mismatch-accepted", "bidirectional-state-shapes-once",
            "attention-single-mask-accepted", "subtract-three-inputs-built", "sgd-int-momentum-accepted",
            "nadam-u-product-floatx", "csv-logger-list-values-comma-only"],
           "blind40"),
    "41": (["epoch-unknown-count-off-by-one", "floatx-cast-compares-float32", "signature-shape-rank-only",
            "save-format-keras-refused", "cross-device-reduce-one-value-destination-ignored",
            "all-reduce-batch-destinations-unchecked", "broadcast-to-tuple-destinations-accepted",
            "bias-add-grad-format-dropped", "take-negative-count-not-all"],
           "blind41"),
    "34": (["normalization-given-mean-aligned-left", "mel-spectrogram-mag-exp-ignored",
            "multi-optimizer-map-loss-scale-factor-not-set", "load-weights-keras-file-skip-mismatch-dropped",
            "predict-concat-scalars-not-stacked", "set-diag-grad-diagonal-align-dropped",
            "shuffle-reshuffle-generator-not-advanced"],
           "blind34"),
    "42": (["conv-transpose-output-padding-equal-strides", "dot-one-axis-accepted", "hashing-int-salt-half",
            "mha-negative-attention-axes", "wrapper-non-layer-type-error", "generalized-ce-q-one-accepted",
            "auc-curve-lowercase-prgain-refused", "regression-pair-ranks-not-matched",
            "callback-list-tuple-not-flattened"],
           "blind42"),
    "43": (["jvp-unconnected-zero-enum-ignored", "forward-accumulator-duplicate-primal-accepted",
            "slice-batches-drop-full-last", "compile-config-optimizer-unserialized", "categorical-zero-classes-accepted",
            "assert-compile-called-runtime-error", "py-dataset-iter-last-batch-dropped", "train-function-force-ignored",
            "function-copy-traces-not-shared", "concrete-function-creation-trace-uncounted",
            "mirrored-duplicate-devices-raw-check", "reduce-sparse-axis-none-type-error",
            "seed-generator-float-seed-accepted"],
           "blind43"),
    "44": (["category-encoding-one-hot-rank1-shape", "bidirectional-backward-name-strip",
            "gqa-zero-sliding-window-accepted", "categorical-accuracy-matches-not-reshaped",
            "recall-at-precision-range-unchecked"],
           "blind44"),
    "45": (["floatx-tensor-float64-kept", "py-dataset-no-super-queue-size", "tape-reenter-accepted",
            "hessians-flat-shape", "forward-tangent-not-cast", "function-numpy-in-dict-kept", "skip-counts-errors",
            "checkpoint-save-counter-int32", "shuffle-two-rows-kept", "generator-state-shape-rank-only"],
           "blind45"),
    "46": (["random-crop-shape-swapped", "cropping-zero-int-refused", "merge-batch-from-first-input",
            "gqa-mask-expand-axis", "optimizer-add-variable-float32", "progbar-auto-verbose-two"],
           "blind46"),
    "47": (["traced-batch-retrace-stays-static", "py-dataset-num-batches-none-without-len",
            "compile-metrics-dict-insertion-order", "tf-dataset-empty-class-weight-ignored",
            "jvp-transpose-unconnected-zero", "while-grad-max-iterations-off-by-one", "concrete-literal-nan-mismatch",
            "checkpoint-model-optimizer-dropped", "keras-file-own-build-not-called", "batch-reduce-shortcut-multi-value",
            "generator-binomial-threefry-accepted"],
           "blind47"),
    "48": (["convlstm-return-state-shape-with-steps", "random-flip-inference-not-cast",
            "lookup-output-shape-pad-to-max-ignored", "attention-output-shape-query-dim",
            "gqa-output-shape-dims-unchecked", "reshape-target-shape-unchecked", "r2-score-rank-check-and",
            "layer-norm-rms-scaling-dropped", "progbar-seen-off-by-one"],
           "blind48"),
    "49": (["sample-weight-dict-outputs-insertion-order", "loss-weights-list-packed-insertion-order",
            "tape-slices-not-densified", "tape-records-stop-gradient", "pop-tape-unrecorded-accepted",
            "returned-constant-error-class", "load-variable-colon-zero-kept", "reader-scalar-as-array",
            "checkpoint-state-all-paths-relative", "generator-alg-name-case-sensitive",
            "random-shape-scalar-tensor-accepted"],
           "blind49"),
    "50": (["hashing-one-hot-squeeze-batch-axis", "rnn-cell-initial-state-variable-dtype",
            "convlstm-strides-dilation-check-min", "fbeta-reset-skips-last-variable"],
           "blind50"),
    "51": (["function-variable-every-call-accepted", "generator-shapes-dict-insertion-order",
            "load-checkpoint-missing-unchecked", "reader-key-non-string-accepted", "checkpoint-keys-depth-first"],
           "blind51"),
    "52": (["merge-batch-sizes-none-counted", "time-distributed-shape-drops-last", "gaussian-noise-variable-dtype",
            "rnn-initial-state-fallback-float32", "softmax-layer-mask-not-propagated"],
           "blind52"),
    "53": (["compiled-loss-sample-weight-dropped", "compiled-metrics-mean-given-y",
            "predict-function-no-reduce-retracing", "placeholder-nest-dict-sorted",
            "rebatch-static-dim-multiple-unchecked", "binomial-counts-hint-float32",
            "mirrored-non-slot-args-first-replica", "tnp-uniform-shape-of-low", "mirror-leaves-dict-kept-per-replica"],
           "blind53"),
    "54": (["rnn-state-variables-compute-dtype", "mel-spectrogram-shape-frames-ceil", "upsampling-shape-zero-dim-unknown",
            "reshape-shape-batch-forgotten", "stft-shape-channels-first-axes-swapped",
            "normalization-adapt-xy-batch-not-unpacked", "lookup-known-vocab-pad-ignored",
            "schedules-deserialize-custom-objects-ignored", "metric-add-weight-dtype-dropped",
            "optimizer-variables-list-aliased", "csv-logger-file-left-open"],
           "blind54"),
    "55": (["unbatch-composite-sizes-one-way", "checkpoints-iterator-repeats-last", "non-slot-run-group-ignored",
            "while-grad-zeros-for-untrainable", "padded-batch-slices-drop-ignored", "replica-update-group-dropped",
            "checkpoint-tuple-untracked", "generator-variable-state-unchecked", "as-per-replica-densifies-slices"],
           "blind55"),
    "56": (["repeat-vector-repeats-last-axis", "rescaling-drops-masking", "cropping3d-default-zero",
            "adaptive-average-pools-max", "depthwise-input-channel-always-last", "depthwise-shape-dilation-dropped",
            "einsum-transposed-kernel-not-transposed", "spectral-norm-vector-u-trainable", "discretization-reset-inverted",
            "dense-input-spec-axis-dropped", "text-vectorization-idf-weights-dropped", "pooling-shape-pool-strides-swapped",
            "one-hot-iou-sparse-true", "top-k-accuracy-config-drops-k", "kl-divergence-metric-default-name",
            "unscale-loss-divides", "precision-recall-other-name-inverted", "adagrad-initial-accumulator-default",
            "adadelta-rho-default", "cosine-restarts-config-muls-swapped", "optimizer-from-config-schedule-raw",
            "swap-ema-predict-flag-not-set", "terminate-on-nan-raises-by-default", "callback-list-predict-batch-begin-calls-end",
            "load-model-compile-default-false", "compile-arg-tuple-refused", "model-class-unknown-error-class",
            "compile-config-loss-custom-objects-dropped"],
           "blind56"),
    "57": (["model-distribute-strategy-ignores-captured", "reset-metrics-skips-loss-tracker",
            "epoch-iterator-steps-per-execution-dropped", "append-outputs-nested-tuple-whole",
            "relu6-grad-grad-reads-upstream", "erfc-grad-sign-flipped",
            "dawsn-grad-factor-two-dropped", "bessel-y1-grad-plus",
            "fresnel-cos-grad-sin", "acosh-grad-cosh",
            "sum-grad-keepdims-assumed", "tape-indexed-slices-handed-through",
            "concrete-outputs-flatten-dict-unsorted", "concrete-map-namedtuple-generator",
            "take-while-card-of-input", "csv-select-cols-bound-off-by-one",
            "csv-na-value-ignored", "directed-interleave-card-counts-selector",
            "csv-int32-upper-bound-inclusive", "from-generator-shape-unchecked",
            "reader-has-tensor-bytes-unkeyed", "reader-debug-string-dims-spaced",
            "init-only-status-existing-matched-passes", "replica-context-device-first",
            "read-var-returns-variable", "non-slot-devices-first-given",
            "variable-created-in-any-scope", "stateless-truncated-normal-normal-op",
            "normal-scale-shift-swapped", "generator-from-seed-default-threefry"],
           "blind57"),
    "58": (["set-weights-fewer-accepted", "rnn-own-cell-ignores-trainable", "read-archive-missing-weights-unchecked",
            "group-norm-output-shape-unchecked"],
           "blind58"),
    "59": (["mul-grad-same-shape-factors-swapped", "sum-grad-to-reshape-inverted",
            "variable-key-mirrored-container-kept", "ones-for-seed-default-float32",
            "shuffle-words-next-word",
            "trainer-init-captures-default-strategy", "reduce-replay-mean-as-sum",
            "draw-op-seed-randint-bound",
            "rebatch-workers-replicas-swapped",
            "run-output-tuple-as-list", "matmul-grad-skip-a-transposes-swapped",
            "concatenate-stops-after-first", "checkpoint-key-list-read-as-variable",
            "generator-normal-moments-swapped", "stateless-normal-moments-swapped",
            "random-shuffle-op-seed-dropped", "generator-replica-id-zero",
            "dataset-reduce-state-element-swapped", "reduce-slices-always-sum",
            "optional-has-value-false", "dist-optional-one-batch-empty",
            "zip-list-accepted", "update-non-slot-kwargs-dropped", "metrics-list-reset-first-only",
            "compiled-metrics-sample-weight-dropped", "categorical-op-seed-dropped"],
           "blind59"),
    "60": (["normalization-var-float32-always", "layer-metrics-skip-sublayers", "dot-function-default-axes-one"],
           "blind60"),
    "61": (["sparse-xent-backprop-row-exps", "log-packet-quotient-by-reciprocal", "logistic-packet-single-ln2",
            "checkpoint-restore-through-float32", "softmax-row-sums-divided-exactly", "max-pool-grad-pads-with-zero",
            "max-pool-floor-dropped", "clip-by-value-max-first", "clip-bound-broadcast-accepted",
            "argmax-nan-taken", "global-norm-sqrt-two-split"],
           "blind61"),
    "62": (["reduce-lr-min-delta-default-zero", "early-stopping-patience-default-one",
            "categorical-accuracy-direction-down", "metric-dtype-from-variable-dtype",
            "weights-load-skips-dict-containers", "add-weight-default-initializer-zeros", "sum-metric-result-float32"],
           "blind62"),
    "64": (["cce-clip-upper-bound-dropped", "lstm-bias-before-recurrent-term",
            "global-avg-pool-float16-reduced-in-float16", "load-weights-extra-variables-accepted",
            "auc-recall-with-epsilon", "binary-accuracy-float16-compares-in-float16",
            "auc-bucket-floor-not-ceil-minus-one"],
           "blind64"),
    "63": (["log-grad-exact-division", "tan-grad-reciprocal-of-square", "l2-loss-pairwise-sum",
            "sum-bfloat16-accumulated-in-bfloat16", "xent-grad-broadcast-row-vector", "leaky-relu-grad-default-alpha",
            "reciprocal-packet-width-four", "packets-no-scalar-tail", "addn-groups-no-nine-chain",
            "conv-input-grad-strides-dilations-swapped", "checkpoint-manager-checkpoints-sorted",
            "adagrad-v2-epsilon-inside-sqrt", "amsgrad-vhat-from-old-v", "sinh-grad-sinh", "sparse-xent-half-in-half",
            "digamma-grad-order-zero", "sparse-xent-label-upper-bound-inclusive", "call-model-training-dropped"],
           "blind63"),
    # (batch 65: the first contact was stopped unattributed at 77% of the suite, so every mutant is listed; the
    # gaps slice "blind65" kills them: docs/conformance.md, "a sixty-fifth blind batch")
    "65": (["xent-backprop-row-exps", "softmax-shift-global-max", "flat-tail-boundary-exclusive",
            "lane-tree-8-natural-order", "log1p-packet-reassociated", "avg-pool-grad-loop-divides",
            "raw-adagrad-lr-rsqrt-grouped", "selu-grad-from-inputs", "softsign-grad-from-outputs",
            "split-grad-concat-last-axis", "flat-log-numpy-log", "sin-grad-complex-no-conj", "realdiv-by-reciprocal",
            "same-shapes-rank-only", "tape-record-first-output-only", "trainable-complex-dropped",
            "array-adapter-drops-partial-batch", "array-adapter-num-batches-floor", "predict-vector-outputs-stacked",
            "fit-trains-all-weights", "relaxed-arguments-defaults-unbound", "relaxed-known-shape-kept",
            "range-dataset-stop-inclusive", "range-card-start-stop-swapped", "save-leaf-float32",
            "checkpoint-saves-seed-generator", "run-kwargs-replica-zero", "update-one-variable-kwargs-whole",
            "mirrored-primary-last-copy", "stateless-seed-pair-swapped"],
           "blind65"),
    # (batch 67: the survivors of first contact over the 64 suite modules of its areas: docs/conformance.md, "a
    # sixty-seventh blind batch")
    "67": (["preserver-unroll-boundary-inclusive", "dist-iterator-traced-end-stop-iteration", "update-result-first-copy",
            "philox-skip-low-carry-dropped", "default-seed-pair-swapped"],
           "blind67"),
    # (batch 68: the survivors of first contact over the 221 suite modules naming Keras; the gaps slice "blind68",
    # suite/test_blind68_gaps.py: docs/conformance.md, "a sixty-eighth blind batch")
    "68": (["progbar-negative-value-scientific", "keras-archive-config-before-metadata", "l2-penalty-factor-inside-sum",
            "progbar-step-digits-ceil-log10", "set-weights-shape-checked-by-size", "log-sigmoid-as-log-of-sigmoid",
            "hard-silu-reassociated", "lora-scale-after-product", "unit-norm-by-reciprocal",
            "orthogonal-regularizer-rsqrt-as-reciprocal-sqrt", "l1-penalty-factor-inside-sum"],
           "blind68"),
    # (batch 66: the survivors and the mutants not attributed when the session ended; the gaps slice "blind66",
    # suite/test_blind66_gaps.py, kills all ten: docs/conformance.md, "a sixty-sixth blind batch")
    "66": (["auc-riemann-sum-reversed", "auc-thresholds-by-reciprocal", "dense-one-unit-bias-takes-bias-add",
            "global-clipnorm-scale-as-quotient", "loss-replica-scale-divides",
            "normalization-adapt-mean-in-float32", "mha-projections-drop-dtype-policy",
            "losses-ops-sum-float16-through-float32", "f1-score-config-keeps-beta",
            "schedule-free-adamw-momentum-not-copied"],
           "blind66"),
    # (batch 69: the survivors of first contact over the 81 suite modules of its areas: docs/conformance.md, "a
    # sixty-ninth blind batch"; the gaps slice "blind69", suite/test_blind69_gaps.py, kills all ten)
    "69": (["onednn-softmax-unrolled-sums-in-sequence", "onednn-softmax-lane-tree-reversed",
            "onednn-softmax-divides-by-row-sum", "cast-float64-to-float32-no-flush", "add-n-shape-check-size-only",
            "map-list-output-not-a-tuple", "strategy-reduce-ignores-device-scope",
            "merged-update-every-replica-first-copy", "distributed-dataset-fetch-to-device-ignored",
            "checkpoint-reader-graph-key-hidden"],
           "blind69"),
    # (batch 70: the survivors of first contact over the 100 suite modules of its areas, csweep56 and cksweep56
    # included: docs/conformance.md, "a seventieth blind batch"; the gaps slice "blind70", suite/test_blind70_gaps.py,
    # kills all seven)
    "70": (["attention-mask-penalty-small", "mha-logits-scaled-before-cast", "r2-total-by-mean-square",
            "auc-soft-labels-not-binarized", "top-k-target-bound-inclusive", "f-score-threshold-none-abs-dropped",
            "clipnorm-zero-counts"],
           "blind70"),
    # (batch 71: the survivors of first contact over the 97 suite modules of its areas, this session's sweeps merged:
    # docs/conformance.md, "a seventy-first blind batch"; the gaps slice "blind71", suite/test_blind71_gaps.py, kills
    # all nine)
    "71": (["sum-tree-split-at-leaf-size", "onednn-filter-sums-first-thread-floor",
            "div-no-nan-zero-scalar-denominator-shape", "stateless-dropout-draw-dtype-dropped", "argmax-default-axis-last",
            "half-sum-negative-zero-kept", "conv-backprop-input-depth-from-out-channels", "onednn-in-order-one-column",
            "all-reduce-sync-on-read-aggregate"],
           "blind71"),
    # (batch 72: the survivor of first contact over the 136 suite modules of its areas, the six 57 sweeps merged:
    # docs/conformance.md, "a seventy-second blind batch"; the gaps slice "blind72", suite/test_blind72_gaps.py, kills it)
    "72": (["monitor-max-mode-ties-improve"],
           "blind72"),
    # (batch 73: the survivors of first contact over the 116 suite modules of its areas, this session's sweeps
    # rsweep57, esweep57 and fsweep57 merged: docs/conformance.md, "a seventy-third blind batch"; the gaps slice
    # "blind73", suite/test_blind73_gaps.py, kills all nine)
    "73": (["range-float-numpy-arange", "lazy-transposed-threshold-inclusive", "rcp-estimate-top-binade-kept",
            "rsqrt-estimate-inf-not-zero", "max-pool-explicit-paddings-dropped", "cast-truncate-dropped",
            "philox-blocks-carry-dropped", "relaxed-key-against-first-trace-only",
            "mean-aggregation-refuses-integers-only"],
           "blind73"),
    # (batch 74: the survivors of first contact over the 153 suite modules of its areas, this session's six sweeps
    # merged: docs/conformance.md, "a seventy-fourth blind batch"; the gaps slice "blind74", suite/test_blind74_gaps.py,
    # kills all three)
    "74": (["discretization-summary-step-by-epsilon", "cosine-warmup-boundary-inclusive",
            "normalize-tensor-divides-by-clipped-norm"],
           "blind74"),
    # (batch 75: the survivors of first contact over the 120 suite modules of its areas, the six 58 sweeps merged:
    # docs/conformance.md, "a seventy-fifth blind batch"; the gaps slice "blind75", suite/test_blind75_gaps.py, kills
    # four; gemv-in-order-k3-excluded is not observable on the merged code)
    "75": (["gemv-in-order-k3-excluded", "pow-rsqrt-not-rewritten", "monotonic-decreasing-not-flipped",
            "all-reduce-not-recorded-on-tape", "deferred-restore-not-consumed"],
           "blind75"),
    # (batch 76: no survivor of first contact over the 166 suite modules of its areas, the five 59 sweeps merged:
    # docs/conformance.md, "a seventy-sixth blind batch"; no gaps module, so its slice is this session's sweeps)
    "76": ([], "sweep59"),
    # (batch 77: the survivors of first contact over the 126 suite modules of its areas, the five 59 sweeps merged:
    # docs/conformance.md, "a seventy-seventh blind batch"; the gaps slice "blind77", suite/test_blind77_gaps.py, kills
    # all eleven)
    "77": (["fused-bn-running-variance-grouping", "fused-bn-variance-not-bessel-corrected",
            "python-zero-operand-not-cached", "subnormal-literal-not-flushed", "fma-nan-operand-order-dropped",
            "squeeze-repeated-axis-not-normalized", "onednn-matmul-half-split-floor", "generator-state-int64-boundary",
            "crc32c-polynomial-crc32", "colocate-vars-with-ignored", "global-batch-size-zero-refused"],
           "blind77"),
    # (batch 79: the survivors of first contact over the 138 suite modules of its areas, the five 60 sweeps merged:
    # docs/conformance.md, "a seventy-ninth blind batch"; the gaps slice "blind79", suite/test_blind79_gaps.py, kills
    # all twelve)
    "79": (["bias-add-nc-formats-refused", "categorical-shard-skip-rounding", "ring-sum-reverse-direction",
            "ring-chunk-aligned-no-extra-unit", "scan-axis-vector-accepted", "function-autograph-false-converted",
            "spatial-sequence-long-list-accepted", "random-int64-shape-kernel-shared",
            "iterator-end-in-function-stop-iteration", "colocate-other-strategy-variable-accepted",
            "int32-split-first-leaf-ignored", "conv-groups-output-depth-unchecked"],
           "blind79"),
    # (batch 81: the survivors of first contact over the 147 suite modules of its areas, the five 61 sweeps merged:
    # docs/conformance.md, "an eighty-first blind batch"; the gaps slice "blind81", suite/test_blind81_gaps.py, kills
    # all fourteen)
    "81": (["conv-bias-grad-per-image-first", "gather-int16-indices-refused", "backprop-filter-top-pad-strict",
            "gemv-split-longer-parts-last", "nan-choice-scalar-tail-too", "int-div-zero-empty-refused",
            "tensor-scatter-inner-rank-below-accepted", "softmax-axis-equal-rank-wraps", "pool-batch-stride-unchecked",
            "prod-complex-one-element-multiplied", "cast-same-dtype-variable-read",
            "function-traces-share-random-kernels", "probe-unknown-rank-as-scalar", "rng-philox-alg-as-auto-select"],
           "blind81"),
    # (batch 85: the survivors of first contact over the 176 suite modules of its areas (pre-merge attribution; the
    # four 63 sweeps merged: log-nan-input-payload-kept killed by esweep63): docs/conformance.md, "an eighty-fifth blind
    # batch"; the gaps slice "blind85", suite/test_blind85_gaps.py, kills the first four and the log mutant)
    "85": (["multiply-bool-accepted", "matmul-static-shape-transposes-ignored", "xent-static-class-dim-from-logits",
            "xent-half-class-sums-numpy", "segment-mean-complex-tail-as-packet", "concat-single-tensor-unstacked",
            "checkpoint-compiled-optimizer-not-deferred", "collective-abort-not-sticky"],
           "blind85"),
    # (batch 83: the survivors of first contact over the 156 suite modules of its areas, the five 62 sweeps merged:
    # docs/conformance.md, "an eighty-third blind batch"; the gaps slice "blind83", suite/test_blind83_gaps.py, kills
    # all thirteen)
    "83": (["scatter-nd-depth-above-five-refused", "softmax-onednn-rank-six-accepted", "sparse-xent-int16-labels-accepted",
            "copy-based-sgemm-hundred-columns", "plain-matmul-nans-unordered", "blocked-nan-sum-operands-swapped",
            "transposed-b-nans-compiled", "chain-nan-y-first", "dropout-set-shape-rank-one-way",
            "jacobian-watched-variables-in-watch-order", "square-rule-shared-sub", "mul-tile-float64-ones",
            "reduce-attribute-check-first-only"],
           "blind83"),

    # (batch 78: the survivors of first contact over the 167 suite modules of its areas and the five 60 sweeps:
    # docs/conformance.md, "a seventy-eighth blind batch"; the gaps slice "blind78", suite/test_blind78_gaps.py;
    # kills nine; dtype-policy-global-not-cached needs a fresh interpreter, flatten-layers-breadth-first is not seen there)
    "78": (["summary-shape-from-first-call", "sequential-input-takes-variable-dtype",
            "populate-masks-overrides-explicit-mask", "constant-initializer-value-exact",
            "dtype-policy-global-not-cached", "image-value-range-by-reciprocal", "psnr-as-log-of-ratio",
            "flatten-layers-breadth-first", "celu-expm1-as-exp-minus-one", "moments-one-pass-variance",
            "logaddexp-log-one-plus"],
           "blind78"),
    # (batch 80: the survivors of first contact over the 175 suite modules of its areas, the five 61 sweeps merged:
    # docs/conformance.md, "an eightieth blind batch"; the gaps slice "blind80", suite/test_blind80_gaps.py, kills
    # all eight)
    "80": (["mixup-lerp-form", "equalization-scale-shifted-first", "stft-kernel-phase-reassociated",
            "mel-slopes-times-reciprocal", "attention-scale-in-compute-dtype",
            "summary-params-without-thousands-separator", "promote-python-number-through-float32",
            "keras-convert-float-to-int-refused"],
           "blind80"),
    # (batch 82: the survivors of first contact over the 196 suite modules of its areas and the five 62 sweeps:
    # docs/conformance.md, "an eighty-second blind batch"; the gaps slice "blind82", suite/test_blind82_gaps.py, kills
    # all five)
    "82": (["ops-logaddexp2-by-pow2", "ops-cdist-by-gram-expansion", "ops-deg2rad-regrouped",
            "ops-corrcoef-std-outer-of-variances", "data-adapter-flatten-dict-insertion-order"],
           "blind82"),
    # (batch 84: the survivors of first contact over the 253 suite modules of its areas and the five 63 sweeps:
    # docs/conformance.md, "an eighty-fourth blind batch"; the gaps slice "blind84", suite/test_blind84_gaps.py)
    "84": (["squareplus-b-through-float32", "merge-add-operands-swapped", "loss-ops-maximum-by-where",
            "schedule-name-unchecked", "index-lookup-1d-adapt-token-per-document", "threshold-compared-in-float32",
            "variable-assign-python-float-through-float32", "soft-shrink-threshold-through-float32"],
           "blind84"),
    # (batch 86: the survivors of first contact over the 265 suite modules of its areas and the six test_*64*.py
    # modules: docs/conformance.md, "an eighty-sixth blind batch"; the gaps slice "test_blind86_gaps",
    # suite/test_blind86_gaps.py)
    "86": (["validate-string-arg-none-always-allowed", "layer-add-variable-trainable-dropped",
            "summary-ratio-distribute-floor", "keras-add-bias-rule-first-axis-first",
            "functional-input-spec-keeps-batch", "keras-ops-softmax-axes-forward-perm", "keras-cbrt-sign-after-pow"],
           "test_blind86_gaps"),
    # (batch 87: the survivors of first contact over the 183 suite modules of its areas and the six 64 modules (the
    # sixty-fourth session's sweeps merged): docs/conformance.md, "an eighty-seventh blind batch"; the gaps slice
    # "blind87", suite/test_blind87_gaps.py, kills all three)
    "87": (["complex-sign-divide-by-zero", "map-parallel-calls-zero-sequential",
            "checkpoint-nontrivial-match-without-objects"],
           "blind87"),
    # (batch 88: the survivor of first contact over the 264 suite modules naming Keras and the sixty-fifth session's
    # modules: docs/conformance.md, "an eighty-eighth blind batch"; suite/test_blind88_gaps.py kills it)
    "88": (["keras-prod-int16-not-widened"],
           "test_blind88_gaps"),
    # (batch 89: the survivors of first contact over the 251 suite modules that name its areas' APIs:
    # docs/conformance.md, "an eighty-ninth blind batch"; the gaps slice "test_blind89_gaps",
    # suite/test_blind89_gaps.py, kills all five)
    "89": (["norm-squeeze-all-unit-dims", "resize-aspect-ratio-round-half-up", "read-value-integer-identity-skipped",
            "variable-initial-tensor-cast", "concrete-input-names-case-sensitive"],
           "test_blind89_gaps"),
    # (batch 90: the survivors of first contact over the 285 suite modules that name its areas' APIs and the four
    # 66 modules (the sixty-sixth session's sweeps merged): docs/conformance.md, "a ninetieth blind batch"; the gaps
    # slice "test_blind90_gaps", suite/test_blind90_gaps.py, kills all six, and the five the 66 sweeps killed too)
    "90": (["aggregation-v2-equality-without-v1", "sparse-read-negative-index-wraps",
            "variable-scatter-scalar-updates-refused", "concrete-numpy-spec-float32",
            "central-crop-offset-by-remaining-fraction", "add-n-nan-from-last-input"],
           "test_blind90_gaps"),
    # (batch 91: the survivors of first contact over the 310 suite modules that name Keras or the strategies' reduce
    # paths and the three test_*66*.py modules: docs/conformance.md, "a ninety-first blind batch"; the gaps slice
    # "test_blind91_gaps", suite/test_blind91_gaps.py, kills all nine)
    "91": (["keras-max-empty-not-refused", "keras-minimum-operands-swapped", "keras-outer-operands-swapped",
            "keras-tile-repeats-padded-right", "keras-arange-stop-dtype-ignored",
            "keras-multi-hot-reduces-last-index-axis", "rescaling-config-float64-scale-as-item",
            "add-loss-replaces-earlier", "reduce-mean-grad-times-reciprocal"],
           "test_blind91_gaps"),
    # (batch 92: the survivors of first contact over the 197 suite modules that name its areas' APIs and the test_*67*.py
    # modules: docs/conformance.md, "a ninety-second blind batch"; the gaps slice "test_blind92_gaps",
    # suite/test_blind92_gaps.py, kills all seven, and `complex-mul-scalar-left-as-tensor`, which test_nansweep67 killed)
    "92": (["sort-int-ascending-plain-negation", "matrix-inverse-adjoint-not-conjugated", "sigmoid-xent-shape-rank-only",
            "where-complex-subnormal-true", "while-invariant-rank-unchecked", "recompute-grad-unconnected-none",
            "ragged-unbatch-inner-splits-not-rebased"],
           "test_blind92_gaps"),
    # (batch 93: the survivors of first contact over the 312 suite modules that name Keras or the strategies' reduce
    # paths and the five test_*67*.py modules (the sixty-seventh session's sweeps merged): docs/conformance.md, "a
    # ninety-third blind batch"; the gaps slice "test_blind93_gaps", suite/test_blind93_gaps.py, kills all five)
    "93": (["initializer-tensor-shape-unchecked", "keras-argsort-scalar-unwrapped", "keras-less-equal-as-not-greater",
            "keras-pad-zero-constant-values-unchecked", "thresholds-evenly-from-four"],
           "test_blind93_gaps"),
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in BATCHES:
        print(f"usage: blind_kills.py BATCH [-k EXPRESSION]; BATCH one of {sorted(BATCHES)}, got {argv[:1]}",
              file=sys.stderr)
        return 2
    survivors, k = BATCHES[argv[0]]
    if len(argv) > 2 and argv[1] == "-k":
        k = argv[2]
    print("baseline", run(None, k), flush=True)
    for mid in survivors:
        print(mid, run(find(mid, {}), k), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/bin/sh
# seed-13 sweep (automut36): every training-layer file seeds 1-12 never sampled whose sites the suite reaches (counted
# from every docs/automut/*seed*.json verdict: 95 of the 685 non-__init__ files of keras, runtime, semantics, strategies
# and tf had none; the keras ones left (_api, legacy_names, losses/reduction, mixed_precision, preprocessing/image),
# runtime/data/pipeline.py, number_text, raw_args, rcp_amd and 9 tf/ namespace modules have no mutable site; on this
# session's map no suite test reaches any site of 31 more (tf/ namespace modules, tf/io, tf/distribute,
# strategies/coordination and server, malloc, threads, ragged_shape, attr_types, raw_ragged, sparse_count, cholesky_grad,
# reduce_packets, to_bool, tnp_complex, image_nms_combined, shape_fns_sparse/ragged, function_type, assert_summary):
# 46 files, not 50, are left. Training kernels and the layers' ops first: oneDNN softmax and padding, the GC phase,
# guarantee_const, tf.io's parsing and sparse raw forms, the string ops under TextVectorization, Hashing and
# StringLookup (case, regex, join, split, substr, format, hashing, fingerprint), the image ops under the preprocessing
# layers, tf.experimental.numpy's arrays, creation, indexing, shape, linalg and dtypes, the shape functions, then the
# codecs (PNG, JPEG, audio, raw), unicode, RE2's syntax, ragged functions, the eigensolvers.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df, built by
# automut_coverage.build's command on this source (5,082 tests, the unmutated suite passed, 822 s under a load of 6-10,
# Intel AVX-512 host).
# Two processes (the machine is shared by five agents), same seed and sampling (a file's mutants do not depend on the
# other files): files 1-23 (A) and 24-46 (B):
# Run: sh docs/automut/sweep-seed13.sh --part a --map .cache/automut/coverage-417982cbc4e3de50-bcc0e2df.json \
#        --skip-new-modules --budget 2400 --json docs/automut/sweep-seed13.json --markdown docs/automut/sweep-seed13.md
#      sh docs/automut/sweep-seed13.sh --part b (the same) --json docs/automut/sweep-seed13b.json --markdown docs/automut/sweep-seed13b.md
# (without --part: all 46 files in one process)
R=simdist/runtime; O=simdist/runtime/ops
A="--files $O/onednn_softmax.py --files $O/onednn_padding.py --files $R/gc_phase.py --files $O/guarantee_const.py
   --files $O/raw_forms_parsing.py --files $O/raw_forms_sparse.py --files $O/raw_forms_strings.py
   --files $O/string_case.py --files $O/string_regex.py --files $O/string_join.py --files $O/string_ragged.py
   --files $O/string_substr.py --files $O/string_format.py --files $O/string_args.py --files $O/string_hash.py
   --files $O/fingerprint.py --files $O/as_string.py --files $O/image_draw_boxes.py --files $O/image_glimpse.py
   --files $O/image_msssim.py --files $O/image_box_proposals.py --files $O/tnp_arrays.py --files $O/tnp_creation.py"
B="--files $O/tnp_indexing.py --files $O/tnp_shape.py --files $O/tnp_linalg.py --files $O/tnp_dtypes.py
   --files $O/array_shape_fns.py --files $O/shape_fns_linalg.py --files $O/shape_fns_raw28.py
   --files $O/shape_fns_raw30.py --files $O/shape_fns_raw31.py --files $O/dtensor_layout.py --files $O/png_codec.py
   --files $O/jpeg_codec.py --files $O/image_codecs.py --files $O/audio_codecs.py --files $O/raw_codecs.py
   --files $O/unicode_codec.py --files $O/unicode_ops.py --files $O/unicode_script.py --files $O/re2_syntax.py
   --files $O/ragged_functions.py --files $O/eigh_tridiagonal.py --files $O/complex_eigen.py --files $O/real_eigen.py"
case "$1" in
  --part) if [ "$2" = a ]; then FILES=$A; else FILES=$B; fi; shift 2 ;;
  *) FILES="$A $B" ;;
esac
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py $FILES --per-file 2 --seed 13 --timeout 120 "$@"

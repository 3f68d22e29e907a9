#!/bin/sh
# seed-12 sweep (automut35): 50 training-layer files seeds 1-11 never sampled (counted from every docs/automut/*seed*.json
# verdict: 140 of the 680 non-__init__ files of keras, runtime, semantics, strategies and tf had none; the keras ones left,
# _api, legacy_names, losses/reduction, mixed_precision, preprocessing/image, and runtime/data/pipeline.py have no
# mutable site, and tf/ namespace modules none the suite reaches) whose sites the suite reaches (counted on the map
# first), training kernels first: fused batch norm, Eigen's convolutions (conv2d_eigen, conv_generic), ArgMax/ArgMin's
# visitors, top-k, stateless random (raw_stateless, raw_forms_random), the cost model, the scalar cache, graph ops and
# custom ops, op outputs, linalg inputs, lookup tables, checkpoint/saving I/O (file_io, tensor_codec, tensor_proto_wire),
# tf.data's parsing config and py_func, printing and summarize, then complex division and unary functions, bitwise,
# the special functions (dawson, bessel, betainc, zeta, spence), the factorizations (householder, LU, self-adjoint
# eigen, Jacobi SVD), the raw-op forms and layouts, ragged arrays/rows/dispatch, tf.experimental.numpy's math,
# reductions and random, string_to_number, Sobol, DCT and the misc shape functions.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df, built by
# automut_coverage.build's command on this source (4,960 tests, the unmutated suite passed, 370 s, Intel AVX-512 host).
# Two processes (the machine is shared by five agents), same seed and sampling (a file's mutants do not depend on the
# other files): the first runs the runtime modules and ops files bessel_float .. parsing_config (A), the second the
# ops files printing .. tsl_hash (B):
#   sh docs/automut/sweep-seed12.sh --part a ...   (files 1-25)     sh docs/automut/sweep-seed12.sh --part b ...
# Run: sh docs/automut/sweep-seed12.sh --part a --map .cache/automut/coverage-b522b3f4ea661ecc-bcc0e2df.json \
#        --skip-new-modules --budget 2100 --json docs/automut/sweep-seed12.json --markdown docs/automut/sweep-seed12.md
#      sh docs/automut/sweep-seed12.sh --part b (the same) --json docs/automut/sweep-seed12b.json --markdown docs/automut/sweep-seed12b.md
# (without --part: all 50 files in one process)
R=simdist/runtime; O=simdist/runtime/ops
A="--files $R/cost.py --files $R/graph_op.py --files $R/scalar_cache.py --files $R/tensor_proto_wire.py
   --files $O/bessel_float.py --files $O/betainc_eigen.py --files $O/bitwise.py --files $O/complex_div.py
   --files $O/complex_unary.py --files $O/conv2d_eigen.py --files $O/conv_generic.py --files $O/custom.py
   --files $O/dawson.py --files $O/eigen_lu.py --files $O/eigen_visitors.py --files $O/eigen_zeta.py
   --files $O/file_io.py --files $O/fused_batch_norm.py --files $O/gtl_top_n.py --files $O/householder.py
   --files $O/jacobi_svd.py --files $O/linalg_inputs.py --files $O/lookup_find.py --files $O/op_outputs.py
   --files $O/parsing_config.py"
B="--files $O/printing.py --files $O/py_func.py --files $O/ragged_array.py --files $O/ragged_dispatch.py
   --files $O/ragged_rows.py --files $O/raw_forms.py --files $O/raw_forms_more.py --files $O/raw_forms_random.py
   --files $O/raw_layout.py --files $O/raw_legacy.py --files $O/raw_ops.py --files $O/raw_stateless.py
   --files $O/reflected.py --files $O/selfadjoint_eigen.py --files $O/shape_fns_misc.py --files $O/signal_dct.py
   --files $O/sobol.py --files $O/spence_eigen.py --files $O/string_to_number.py --files $O/summarize_value.py
   --files $O/tensor_codec.py --files $O/tnp_math.py --files $O/tnp_random.py --files $O/tnp_reductions.py
   --files $O/tsl_hash.py"
case "$1" in
  --part) if [ "$2" = a ]; then FILES=$A; else FILES=$B; fi; shift 2 ;;
  *) FILES="$A $B" ;;
esac
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py $FILES --per-file 2 --seed 12 --timeout 120 "$@"

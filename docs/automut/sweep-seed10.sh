#!/bin/sh
# seed-10 sweep (automut33): 50 training-layer files seeds 1-9 never sampled (counted from the sweep-seed*.json
# verdicts; 237 of the 677 non-__init__ files of keras, runtime, semantics, strategies and tf had none) whose sites
# the suite reaches (counted on the map first): Keras's image value_range and audio_dataset_from_directory; the
# tf.data internals of copy_to_device, parse_example_dataset, resumable iterators and get_single_element; the
# deprecation notices, TensorProto conversion, the uniform-draw helpers, the runtime configuration;
# tf.autograph's errors, tf.quantization, tf.data's namespace; and the kernels of 37 runtime/ops modules: the NMS
# forms, image random ops, sample_distorted_bounding_box, index_shuffle, LU, list_diff, logm/expm, loops,
# min/max zeros, misc_more, nn rules, gamma/Poisson, binomial, Generators, candidate sampling, CTC decoders,
# decode_csv, Example and SequenceExample parsing, signal, repeat, area and image resizing, stateless seeds, RNG
# algorithms, Philox distributions, the parameterized truncated normal kernel, top-k, sum/prod/contraction order,
# half-precision matmul, the control-flow branches, tf.sets and sparse_cross.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df. The map of this
# source hash was built by automut_coverage.build with that include; the unmutated suite failed 3 tests on this host
# (grad_edges Softmax float32/bfloat16 on an AMD EPYC whose Softmax differs from the recording host's, and
# one more), so the map used drops the two Softmax tests (`-nosoftmax`), which would kill every mutant they reach.
# Run: sh docs/automut/sweep-seed10.sh --map .cache/automut/coverage-fe0a62c9bf2655f5-bcc0e2df-nosoftmax.json \
#        --budget 2100 --json docs/automut/sweep-seed10.json --markdown docs/automut/sweep-seed10.md
K=simdist/keras; R=simdist/runtime; D=simdist/runtime/data; O=simdist/runtime/ops; T=simdist/tf
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$K/layers/preprocessing/image/value_range.py" --files "$K/utils/audio_dataset.py" \
  --files "$D/copy_to_device.py" --files "$D/parse_example_dataset.py" --files "$D/resumable.py" \
  --files "$D/single_element.py" \
  --files "$R/deprecation.py" --files "$R/tensor_proto.py" --files "$R/uniform.py" --files "$R/runtime_config.py" \
  --files "$T/_autograph_errors.py" --files "$T/quantization.py" --files "$T/data.py" \
  --files "$O/image_nms.py" --files "$O/image_nms_padded.py" --files "$O/image_random.py" \
  --files "$O/image_distorted_box.py" --files "$O/index_shuffle.py" --files "$O/linalg_lu.py" \
  --files "$O/list_diff.py" --files "$O/logm.py" --files "$O/expm.py" --files "$O/loops.py" \
  --files "$O/minmax_zeros.py" --files "$O/misc_more.py" --files "$O/nn_rules.py" --files "$O/gamma_poisson.py" \
  --files "$O/binomial.py" --files "$O/generators.py" --files "$O/candidate_sampling.py" --files "$O/ctc_decode.py" \
  --files "$O/decode_csv.py" --files "$O/example_parsing.py" --files "$O/sequence_parsing.py" \
  --files "$O/signal_ops.py" --files "$O/repeat.py" --files "$O/resize_area.py" --files "$O/resize_images.py" \
  --files "$O/stateless_seeds.py" --files "$O/rng_alg.py" --files "$O/philox_dists.py" \
  --files "$O/param_truncated_kernel.py" --files "$O/topk_kernel.py" --files "$O/sum_order.py" \
  --files "$O/half_matmul.py" --files "$O/branches.py" --files "$O/contraction_order.py" --files "$O/prod_order.py" \
  --files "$O/sets.py" --files "$O/sparse_cross.py" \
  --per-file 2 --seed 10 --timeout 120 "$@"

#!/bin/sh
# seed-8 sweep (automut31): training-layer files seeds 1-7 never sampled (or sampled once; counted from the
# sweep-seed*.json verdicts, and only files with suite-covered sites): thirteen image preprocessing layers never
# sampled (AugMix, AutoContrast, Equalization, RandAugment, the color/blur/hue/invert/perspective/posterization/
# saturation/shear/sharpness layers), Keras's directory datasets (image, text), image utilities and Config; the
# tf.data transformations (interleave, window, scan, group_by_window, group_by_reducer, sampling, rejection_resample,
# ragged_batch, sparse_batch, assert_cardinality, take_while, from_list, snapshot); the runtime's dimension, devices,
# dtypes, errors, name scopes, lookup tables, SparseTensor, type specs and symbolic tensors; the forward semantics
# of softmax, conv backprops, control flow and TensorArray; the gradient functions (--grad-files) of sqrt/rsqrt,
# the raw-op compositions and igamma; tf.summary's writers, write and recording state.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df.
# Run: sh docs/automut/sweep-seed8.sh --budget 2700 --json docs/automut/sweep-seed8.json --markdown docs/automut/sweep-seed8.md
K=simdist/keras; I=simdist/keras/layers/preprocessing/image; R=simdist/runtime; D=simdist/runtime/data; O=simdist/runtime/ops
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$I/aug_mix.py" --files "$I/auto_contrast.py" --files "$I/equalization.py" --files "$I/rand_augment.py" \
  --files "$I/random_color_degeneration.py" --files "$I/random_gaussian_blur.py" --files "$I/random_hue.py" \
  --files "$I/random_invert.py" --files "$I/random_perspective.py" --files "$I/random_posterization.py" \
  --files "$I/random_saturation.py" --files "$I/random_shear.py" --files "$I/random_sharpness.py" \
  --files "$K/utils/image_dataset.py" --files "$K/utils/text_dataset.py" --files "$K/utils/image_utils.py" \
  --files "$K/utils/config.py" \
  --files "$D/interleave.py" --files "$D/window.py" --files "$D/scan.py" --files "$D/group_by_window.py" \
  --files "$D/group_by_reducer.py" --files "$D/sampling.py" --files "$D/rejection_resample.py" \
  --files "$D/ragged_batch.py" --files "$D/sparse_batch.py" --files "$D/assert_cardinality.py" \
  --files "$D/take_while.py" --files "$D/from_list.py" --files "$D/snapshot.py" \
  --files "$R/dimension.py" --files "$R/devices.py" --files "$R/dtypes.py" --files "$R/errors.py" \
  --files "$R/name_scopes.py" --files "$R/lookup_tables.py" --files "$R/vocabulary_table.py" \
  --files "$R/sparse_tensor.py" --files "$R/spec.py" --files "$R/symbolic.py" \
  --files "$O/softmax_eigen.py" --files "$O/conv_v2_backprops.py" --files "$O/control_flow.py" --files "$O/tensor_array.py" \
  --grad-files "$O/sqrt_grads.py" --grad-files "$O/raw_compositions.py" --grad-files "$O/igamma_eigen.py" \
  --files "simdist/tf/summary/_writer.py" --files "simdist/tf/summary/_write.py" --files "simdist/tf/summary/_state.py" \
  --per-file 2 --seed 8 --timeout 120 "$@"

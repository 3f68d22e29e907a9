#!/bin/sh
# seed-6 sweep (automut29): training-layer files seeds 1-5 never sampled (or sampled once): Keras's
# preprocessing and lookup layers (category encoding, discretization, hashing, the lookups, text
# vectorization, normalization's adapt, a sample of the image/audio preprocessing layers), the layer modules
# sampled once (argument validation, 1-D global pooling, InputSpec, masking, op layers, upsampling/padding),
# Keras's never-sampled ops modules (image, einops, tf_image, tf_linalg, op_utils, backend_utils), the
# trainers' adapters and tensor specs, dtype promotion and KerasTensor, forward-mode autodiff
# (runtime/autodiff/forwardprop.py), the gradient functions of op modules no seed sampled (raw_legacy,
# raw_compositions, control_more, custom, fake quantization, quantize/dequantize, bicubic and nearest resize,
# scale-and-translate, projective transforms, parameterized truncated normal), and the strategies'
# multi-worker / collective modules (cluster, cluster resolver, workers, clients, collective timeouts,
# preemption handling, timing).
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df.
# Run: sh docs/automut/sweep-seed6.sh --budget 2400 --json docs/automut/sweep-seed6.json --markdown docs/automut/sweep-seed6.md
K=simdist/keras; L=simdist/keras/layers; P=simdist/keras/layers/preprocessing; S=simdist/strategies; O=simdist/runtime/ops
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$L/category_encoding.py" --files "$L/discretization.py" --files "$L/hashed_crossing.py" \
  --files "$L/hashing.py" --files "$L/index_lookup.py" --files "$L/integer_lookup.py" --files "$L/string_lookup.py" \
  --files "$L/text_vectorization.py" --files "$L/normalization_adapt.py" --files "$L/cropping1d.py" \
  --files "$L/layer_serialization.py" --files "$L/argument_validation.py" --files "$L/global_pooling1d.py" \
  --files "$L/input_spec.py" --files "$L/masking.py" --files "$L/op_layer.py" --files "$L/upsampling_padding.py" \
  --files "$P/image/base.py" --files "$P/image/random_flip.py" --files "$P/image/random_rotation.py" \
  --files "$P/image/random_zoom.py" --files "$P/image/resizing.py" --files "$P/image/center_crop.py" \
  --files "$P/image/random_crop.py" --files "$P/audio/stft_spectrogram.py" \
  --files "$K/ops/op_image.py" --files "$K/ops/op_einops.py" --files "$K/ops/tf_image.py" --files "$K/ops/tf_linalg.py" \
  --files "$K/ops/op_utils.py" --files "$K/ops/backend_utils.py" \
  --files "$K/trainers/generator_adapter.py" --files "$K/trainers/py_dataset.py" --files "$K/trainers/tensor_spec.py" \
  --files "$K/dtype_promotion.py" --files "$K/keras_tensor.py" \
  --files "simdist/runtime/autodiff/forwardprop.py" \
  --grad-files "$O/raw_legacy.py" --grad-files "$O/raw_compositions.py" --grad-files "$O/control_more.py" \
  --grad-files "$O/custom.py" --grad-files "$O/fake_quant.py" --grad-files "$O/quantize_dequantize.py" \
  --grad-files "$O/resize_bicubic.py" --grad-files "$O/resize_nearest.py" --grad-files "$O/scale_translate.py" \
  --grad-files "$O/image_projective.py" --grad-files "$O/param_truncated_normal.py" \
  --files "$S/cluster.py" --files "$S/cluster_resolver.py" --files "$S/worker.py" --files "$S/clients.py" \
  --files "$S/collective_timeout.py" --files "$S/preemption_handler.py" --files "$S/timing.py" \
  --per-file 2 --seed 6 --timeout 120 "$@"

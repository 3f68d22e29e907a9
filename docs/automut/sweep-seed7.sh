#!/bin/sh
# seed-7 sweep (automut30): training-layer files seeds 1-6 never sampled (or sampled once; counted from the
# sweep-seed*.json verdicts): Keras's legacy backend (K.*), config and mixed-precision policy modules, the losses'
# reduction names, saving helpers (KerasSaveable, object serialization, safe mode), the data utilities
# (feature space, dataset splitting, timeseries, dataset utils, pad_sequences, the legacy text and sequence
# preprocessing), keras.ops' shims, the preprocessing pipeline and data layer and nine image/audio preprocessing
# layers never sampled; the runtime's eager core (Tensor, conversion, context, execution, function tapes,
# trackables, nest, numerics callbacks, sharded variables, tf.function recording and branches), the forward
# semantics of four training op modules (clip_by_global_norm and friends, batch normalization, sampled losses,
# sparse embeddings), the gradient registry and the gradient-op shape functions (--grad-files), the strategies'
# coordination, server and parameter-server fault modules, broadcast semantics, and the tf.debugging,
# tf.train and tf.distribute facades.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df.
# Run: sh docs/automut/sweep-seed7.sh --budget 2700 --json docs/automut/sweep-seed7.json --markdown docs/automut/sweep-seed7.md
K=simdist/keras; I=simdist/keras/layers/preprocessing/image; R=simdist/runtime; S=simdist/strategies; O=simdist/runtime/ops
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$K/legacy_backend.py" --files "$K/config.py" --files "$K/mixed_precision.py" --files "$K/losses/reduction.py" \
  --files "$K/keras_saveable.py" --files "$K/utils/keras_object_serialization.py" --files "$K/safe_mode.py" \
  --files "$K/utils/feature_space.py" --files "$K/utils/split_dataset.py" --files "$K/utils/timeseries.py" \
  --files "$K/utils/dataset_utils.py" --files "$K/utils/sequence_utils.py" --files "$K/preprocessing/sequence.py" \
  --files "$K/preprocessing/text.py" --files "$K/ops/shim.py" --files "$K/ops/ops_shim.py" \
  --files "$K/layers/preprocessing/pipeline.py" --files "$K/layers/preprocessing/data_layer.py" \
  --files "$I/mix_up.py" --files "$I/cut_mix.py" --files "$I/random_translation.py" --files "$I/random_contrast.py" \
  --files "$I/random_brightness.py" --files "$I/solarization.py" --files "$I/random_erasing.py" \
  --files "$I/random_grayscale.py" --files "$K/layers/preprocessing/audio/mel_spectrogram.py" \
  --files "$R/function_tapes.py" --files "$R/tensor.py" --files "$R/convert.py" --files "$R/context.py" \
  --files "$R/execution.py" --files "$R/trackable.py" --files "$R/nest.py" --files "$R/numerics_callback.py" \
  --files "$R/sharded.py" --files "$R/graph/recording.py" --files "$R/graph/branches.py" \
  --files "$O/clip.py" --files "$O/normalization.py" --files "$O/sampled_losses.py" --files "$O/embedding_sparse.py" \
  --grad-files "$O/registry.py" --grad-files "$O/shape_fns_nn.py" --grad-files "$O/image_basic.py" \
  --files "$S/coordination.py" --files "$S/server.py" --files "$S/ps_fault.py" --files "simdist/semantics/broadcast.py" \
  --files "simdist/tf/debugging.py" --files "simdist/tf/train.py" --files "simdist/tf/distribute.py" \
  --per-file 2 --seed 7 --timeout 120 "$@"

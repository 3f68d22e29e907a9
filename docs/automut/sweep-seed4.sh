#!/bin/sh
# seed-4 sweep (automut27): training-layer files seeds 1-3 did not sample, plus a new sample of
# Keras models/trainers/optimizers, runtime/autodiff and the strategies' value paths.
# The map measures keras/, runtime/ (all of it: variables*, values), tf/, strategies/, semantics/.
# Run: sh docs/automut/sweep-seed4.sh --budget 2700 --json out/sweep-seed4.json --markdown out/sweep-seed4.md
# Follow-up (the mutants the budget left in tf/, strategies/, semantics/): the same with
#   --map .cache/automut/coverage-8139fa68419294ad-bcc0e2df.json --skip-new-modules --only <ids> --budget 1200
K=simdist/keras; L=simdist/keras/layers; S=simdist/strategies; T=simdist/tf; R=simdist/runtime
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$T/_function.py" --files "$T/_concrete.py" --files "$T/_signature.py" --files "$T/_tracing_count.py" \
  --files "$T/_initializers.py" --files "$T/_moving_averages.py" --files "$T/_module.py" --files "$T/__init__.py" \
  --files "$T/math.py" --files "$T/nn.py" --files "$T/linalg.py" --files "$T/_compat_v1_ops.py" --files "$T/distribute.py" \
  --files "$K/ops/op_core.py" --files "$K/ops/op_math.py" --files "$K/ops/op_nn.py" --files "$K/ops/op_numpy.py" \
  --files "$K/ops/op_linalg.py" --files "$K/ops/tf_core.py" --files "$K/ops/tf_math.py" --files "$K/ops/tf_nn.py" \
  --files "$K/ops/tf_numpy.py" --files "$K/ops/dispatch.py" \
  --files "$K/constraints.py" --files "$K/tree.py" --files "$K/random.py" --files "$K/variables.py" \
  --files "$K/regularizers.py" --files "$K/initializers.py" \
  --files "$K/models/*.py" --files "$K/trainers/trainer.py" --files "$K/trainers/compile_utils.py" \
  --files "$K/trainers/data_adapter.py" --files "$K/trainers/epoch_iterator.py" \
  --files "$K/optimizers/*.py" \
  --files "$L/prelu.py" --files "$L/rms_normalization.py" --files "$L/unit_normalization.py" \
  --files "$L/spectral_normalization.py" --files "$L/permute.py" --files "$L/repeat_vector.py" --files "$L/rescaling.py" \
  --files "$L/dot.py" --files "$L/cropping.py" --files "$L/pooling1d.py" --files "$L/pooling3d.py" --files "$L/conv3d.py" \
  --files "$L/conv_lstm.py" --files "$L/grouped_query_attention.py" --files "$L/spatial_dropout.py" \
  --files "$L/stacked_rnn_cells.py" --files "$L/activity_regularization.py" --files "$L/adaptive_pooling.py" \
  --files "$L/depthwise_conv1d.py" --files "$L/reversible_embedding.py" --files "$L/lambda_layer.py" \
  --files "$L/wrapper.py" --files "$L/upsampling3d.py" --files "$L/zero_padding3d.py" \
  --files "$R/variables.py" --files "$R/variable_creation.py" --files "$R/variable_inplace.py" --files "$R/values.py" \
  --files "$R/indexed_slices.py" --files "$R/autodiff/*.py" \
  --files "$S/sync_on_read.py" --files "$S/coordinator.py" --files "$S/closure.py" --files "$S/remote_value.py" \
  --files "$S/per_worker.py" --files "$S/partitioners.py" --files "$S/dist_variables.py" --files "$S/replica_run.py" \
  --files "$S/mirrored.py" --files "$S/shared_variables.py" \
  --files 'simdist/semantics/*.py' \
  --per-file 2 --seed 4 --timeout 120 "$@"

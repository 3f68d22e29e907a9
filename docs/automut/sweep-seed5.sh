#!/bin/sh
# seed-5 sweep (automut28): the training-layer files seeds 1-4 sampled least: Keras losses (each loss module
# sampled once, reduction never), the metrics sampled once or with the most logic, the schedules and the EMA
# callback, the tape and autodiff, function tapes, the coordinator, its closure queue, checkpoints and
# dataset save/load, Keras saving, mixed precision, random ops (runtime/ops/random*), and the gradient
# functions of op modules seeds 1-3 sampled once.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf), so the same map serves both.
# Run: sh docs/automut/sweep-seed5.sh --budget 1500 --json docs/automut/sweep-seed5.json --markdown docs/automut/sweep-seed5.md
K=simdist/keras; S=simdist/strategies; R=simdist/runtime; O=simdist/runtime/ops
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$K/losses/hinge_losses.py" --files "$K/losses/overlap_losses.py" --files "$K/losses/probabilistic_losses.py" \
  --files "$K/losses/regression_losses.py" --files "$K/losses/sequence_losses.py" --files "$K/losses/similarity_losses.py" \
  --files "$K/losses/reduction.py" \
  --files "$K/metrics/r2_score.py" --files "$K/metrics/confusion_metrics.py" --files "$K/metrics/iou_metrics.py" \
  --files "$K/metrics/sensitivity_specificity.py" --files "$K/metrics/metrics_utils.py" \
  --files "$K/optimizers/schedules.py" --files "$K/callbacks/swap_ema_weights.py" \
  --files "$K/models/saving.py" --files "$K/mixed_precision.py" --files "$K/dtype_policies.py" \
  --files "$R/autodiff/tape.py" --files "$R/autodiff/backprop.py" --files "$R/autodiff/graph_gradients.py" \
  --files "$R/autodiff/gradient_args.py" --files "$R/function_tapes.py" \
  --files "$S/coordinator.py" --files "$S/closure_queue.py" --files "$S/checkpoint.py" \
  --files "$R/data/save_load.py" --files "$R/data/checkpoint_state.py" \
  --files "$O/random.py" --files "$O/random_generator.py" --files "$O/random_gamma.py" \
  --grad-files "$O/complex_math.py" --grad-files "$O/linalg_more.py" --grad-files "$O/fft.py" \
  --grad-files "$O/special_funcs.py" --grad-files "$O/pooling3d.py" --grad-files "$O/image_crop_resize.py" \
  --per-file 2 --seed 5 --timeout 120 "$@"

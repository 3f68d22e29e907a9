#!/bin/sh
# seed-14 sweep (automut37): counted from every docs/automut/*seed*.json verdict, 62 of the 698 training-layer files
# (keras, runtime, semantics, strategies, tf; not __init__.py) have no mutant; 18 have no mutable site (as for seed
# 13) and on this session's map no suite test reaches any site of 37 more (the 31 of seed 13, and of the 13 files added
# since, fact, raw_parsing_v1, shape_fns_audio/parsing/rnn, sharded_names and sparse_bincount). So only 7 files never
# sampled are left: Keras's predict_concat (Model.predict's joining of batches), the audio features, the GRU/LSTM
# block kernels, the pruning, shape_fns_raw36, sparse_count.
# The other 43 of the 50 are the training layer's least-sampled files (2-10 earlier mutants of 46-409 sites each):
# Keras trainers, optimizers, losses, metrics, callbacks, models and saving, layers; tf.data; the checkpoint. Seed 14
# samples 2 new sites of each (one, checkpoint_state.py:59:swap, repeats an earlier seed's site).
# Map: coverage-e5674392f2825e3a-bcc0e2df (seed 4's include set, 5,536 tests), built by automut_coverage.build's command
# on this source: the unmutated suite passed, 583 s, Intel AVX-512 host.
# Two processes (the machine is shared by five agents), same seed and sampling (a file's mutants do not depend on the
# other files): files 1-25 (A) and 26-50 (B):
# Run: sh docs/automut/sweep-seed14.sh --part a --map .cache/automut/coverage-e5674392f2825e3a-bcc0e2df.json \
#        --skip-new-modules --budget 2700 --json docs/automut/sweep-seed14.json --markdown docs/automut/sweep-seed14.md
#      sh docs/automut/sweep-seed14.sh --part b (the same) --json docs/automut/sweep-seed14b.json --markdown docs/automut/sweep-seed14b.md
# (without --part: all 50 files in one process)
K=simdist/keras; O=simdist/runtime/ops; D=simdist/runtime/data
A="--files $K/trainers/predict_concat.py --files $O/audio_features.py --files $O/gru_block.py --files $O/lstm_block.py
   --files $O/pruning.py --files $O/shape_fns_raw36.py --files $O/sparse_count.py
   --files $K/trainers/trainer.py --files $K/trainers/compile_utils.py --files $K/trainers/data_adapter.py
   --files $K/trainers/epoch_iterator.py --files $K/optimizers/base_optimizer.py --files $K/optimizers/_ops.py
   --files $K/optimizers/schedules.py --files $K/optimizers/adafactor.py --files $K/optimizers/nadam.py
   --files $K/losses/losses.py --files $K/losses/loss.py --files $K/losses/_ops.py
   --files $K/losses/probabilistic_losses.py --files $K/losses/regression_losses.py --files $K/losses/_nn.py
   --files $K/metrics/metrics_utils.py --files $K/metrics/accuracy_metrics.py --files $K/metrics/confusion_metrics.py"
B="--files $K/metrics/reduction_metrics.py --files $K/metrics/iou_metrics.py --files $K/callbacks/model_checkpoint.py
   --files $K/callbacks/backup_and_restore.py --files $K/callbacks/callback_list.py
   --files $K/callbacks/reduce_lr_on_plateau.py --files $K/callbacks/early_stopping.py --files $K/models/functional.py
   --files $K/models/saving.py --files $K/models/keras_file.py --files $K/models/sequential.py
   --files $K/layers/layer.py --files $K/layers/core.py --files $K/layers/normalization.py --files $K/layers/rnn.py
   --files $K/layers/attention.py --files $K/layers/rnn_cells.py --files $K/layers/convolutional.py
   --files $K/layers/einsum_dense.py --files $D/dataset.py --files $D/batching.py --files $D/map_filter.py
   --files $D/save_load.py --files $D/checkpoint_state.py --files simdist/strategies/checkpoint.py"
# Part c (added after a and b had run, 02:55 UTC): 12 more of the least-sampled Keras files, the same
# seed and sampling: sh docs/automut/sweep-seed14.sh --part c (the same map and flags) --budget 1500
#   --json docs/automut/sweep-seed14c.json --markdown docs/automut/sweep-seed14c.md (not part of "all 50")
C="--files $K/optimizers/muon.py --files $K/losses/similarity_losses.py --files $K/metrics/r2_score.py
   --files $K/metrics/f_score_metrics.py --files $K/callbacks/swap_ema_weights.py --files $K/layers/text_vectorization.py
   --files $K/layers/dot_attention.py --files $K/layers/grouped_query_attention.py --files $K/layers/conv_transpose.py
   --files $K/layers/depthwise_separable.py --files $K/layers/discretization.py --files $K/layers/category_encoding.py"
# Part d (03:00 UTC): 16 more least-sampled Keras layers and utilities and tf.data files, likewise:
#   sh docs/automut/sweep-seed14.sh --part d (the same) --budget 1200 --json docs/automut/sweep-seed14d.json
#   --markdown docs/automut/sweep-seed14d.md (one site, rebatch.py:27:arith, repeats an earlier seed's)
L=simdist/keras/layers
DD="--files $L/index_lookup.py --files $L/conv_lstm.py --files $L/dot.py --files $L/normalization_adapt.py
   --files $K/activations.py --files $K/initializers.py --files $L/noise.py --files $L/group_normalization.py
   --files $L/hashed_crossing.py --files $K/utils/feature_space.py --files $K/preprocessing/sequence.py
   --files $K/utils/split_dataset.py --files $D/components.py --files $D/group_by_window.py --files $D/sampling.py
   --files $D/rebatch.py"
case "$1" in
  --part) if [ "$2" = a ]; then FILES=$A; elif [ "$2" = c ]; then FILES=$C; elif [ "$2" = d ]; then FILES=$DD; else FILES=$B; fi
          shift 2 ;;
  *) FILES="$A $B" ;;
esac
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py $FILES --per-file 2 --seed 14 --timeout 240 "$@"

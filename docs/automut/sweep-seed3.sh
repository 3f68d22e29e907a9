#!/bin/sh
# seed-3 sweep (automut26). MAP is the map built for the include globs keras/autodiff/ops/strategies/tf.
L=simdist/keras/layers; S=simdist/strategies; O=simdist/runtime/ops
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files 'simdist/runtime/autodiff/*' \
  --files "$O/nn.py" --files "$O/nn_more.py" --files "$O/nn_composites.py" --files "$O/activations.py" \
  --grad-files "$O/array.py" --grad-files "$O/array_more.py" --grad-files "$O/math.py" --grad-files "$O/reductions.py" \
  --grad-files "$O/slicing.py" --grad-files "$O/conv.py" --grad-files "$O/pooling.py" --grad-files "$O/losses.py" \
  --grad-files "$O/segments.py" --grad-files "$O/scatter.py" --grad-files "$O/einsum.py" --grad-files "$O/unary.py" \
  --grad-files "$O/linalg.py" --grad-files "$O/special.py" --grad-files "$O/sorting.py" --grad-files "$O/collective.py" \
  --grad-files "$O/sparse_math.py" \
  --files "$L/core.py" --files "$L/convolutional.py" --files "$L/normalization.py" --files "$L/rnn.py" \
  --files "$L/rnn_cells.py" --files "$L/rnn_loop.py" --files "$L/attention.py" --files "$L/dot_attention.py" \
  --files "$L/merging.py" --files "$L/pooling.py" --files "$L/layer.py" --files "$L/einsum_dense.py" \
  --files "$L/reshaping.py" --files "$L/activation_layers.py" --files "$L/noise.py" --files "$L/group_normalization.py" \
  --files "$L/conv_transpose.py" --files "$L/depthwise_separable.py" --files "$L/bidirectional.py" \
  --files "$L/time_distributed.py" \
  --files "$S/base.py" --files "$S/mirrored.py" --files "$S/replica_run.py" --files "$S/dist_variables.py" \
  --files "$S/multi_worker.py" --files "$S/one_device.py" --files "$S/input.py" --files "$S/central_storage.py" \
  --files "$S/shared_variables.py" --files "$S/parameter_server.py" \
  --per-file 2 --seed 3 --timeout 120 "$@"

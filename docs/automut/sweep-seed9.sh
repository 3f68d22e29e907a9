#!/bin/sh
# seed-9 sweep (automut32): training-layer files seeds 1-8 never sampled (counted from the sweep-seed*.json verdicts,
# and only files with suite-covered sites), and the gradient functions (--grad-files) of op modules no sweep ever ran
# with --grad-files (their few earlier verdicts fell outside the gradient functions): seven image preprocessing
# modules never sampled (CLAHE, RandomElasticTransform, RandomSize, RandomColorJitter, the augment ops, factor
# parsing, MaxNumBoundingBoxes), Keras's graph and io utilities; the tf.data internals (element components, file
# readers, CSV reader and make_csv_dataset, experimental forms, ignore_errors, lookup initializers, random access,
# unique, the snapshot format); RaggedTensor and its partitions, tf.train.Example protos, TensorProto messages; the
# forward semantics of conv transpose, conv3d, tf.sparse, candidate samplers and math_more; tf.summary's plugins and
# event files, tf.config; the gradient functions of nn (BiasAdd), nn_more, activations, CTC loss, morphology,
# fractional pooling, lstsq, the linalg decompositions, sparse core, image patches, space/batch, diag, xlogy-style
# functions, tridiagonal, isotonic regression, banded solve, data_flow, random_gamma and the image color ops.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df.
# Run: sh docs/automut/sweep-seed9.sh --budget 2700 --json docs/automut/sweep-seed9.json --markdown docs/automut/sweep-seed9.md
K=simdist/keras; I=simdist/keras/layers/preprocessing/image; R=simdist/runtime; D=simdist/runtime/data; O=simdist/runtime/ops
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$I/clahe.py" --files "$I/random_elastic_transform.py" --files "$I/random_size.py" \
  --files "$I/random_color_jitter.py" --files "$I/augment_ops.py" --files "$I/factors.py" \
  --files "$I/max_num_bounding_boxes.py" --files "$K/utils/graph_utils.py" --files "$K/io_utils.py" \
  --files "$D/components.py" --files "$D/readers.py" --files "$D/csv_reader.py" --files "$D/make_csv.py" \
  --files "$D/experimental_forms.py" --files "$D/ignore_errors.py" --files "$D/lookup_init.py" \
  --files "$D/random_access.py" --files "$D/unique.py" --files "$D/snapshot_format.py" \
  --files "$R/ragged_tensor.py" --files "$R/ragged_partition.py" --files "$R/example_proto.py" \
  --files "$R/tensor_proto_message.py" \
  --files "$O/conv_transpose.py" --files "$O/conv3d.py" --files "$O/sparse_api.py" --files "$O/candidate_samplers.py" \
  --files "$O/math_more.py" \
  --files "simdist/tf/summary/_plugins.py" --files "simdist/tf/summary/_event_file.py" --files "simdist/tf/config.py" \
  --grad-files "$O/nn.py" --grad-files "$O/nn_more.py" --grad-files "$O/activations.py" --grad-files "$O/ctc.py" \
  --grad-files "$O/morphology.py" --grad-files "$O/fractional_pool.py" --grad-files "$O/lstsq.py" \
  --grad-files "$O/linalg_decomp.py" --grad-files "$O/sparse_core.py" --grad-files "$O/image_patches.py" \
  --grad-files "$O/space_batch.py" --grad-files "$O/diag.py" --grad-files "$O/xfunctions.py" \
  --grad-files "$O/tridiagonal.py" --grad-files "$O/isotonic.py" --grad-files "$O/banded_solve.py" \
  --grad-files "$O/data_flow.py" --grad-files "$O/random_gamma.py" --grad-files "$O/image_color.py" \
  --per-file 2 --seed 9 --timeout 120 "$@"

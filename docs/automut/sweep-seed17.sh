#!/bin/sh
# seed-17 sweep (amut40): counted from every docs/automut/*seed*.json verdict (distinct mutant ids per file, not-run ones
# included, as amut38/amut39 counted, amut40's re-runs included), on the map below (seed 16's include set), the reached
# training-layer files (keras, runtime, semantics, strategies, tf; not __init__.py) with a reached site not yet sampled:
# 3 were never sampled (graph_names, assert_messages, slice_assign_bcast: all three split out or added since seed 16);
# the least sampled after them have two earlier mutants (314 files): the 22 of them with the most reached sites
# (161-124; ties broken by path). Seed 17 samples 2 sites of each of these 25 (50 mutants), in one process (the
# machine is shared by six agents), with a budget ending by 16:00 UTC.
# Map: coverage-310c90172fa0fca0-018efd04 (seed 16's include set, 5,904 tests), built by automut_coverage.build's
# command on amut40's starting source: the unmutated suite passed.
# Run: sh docs/automut/sweep-seed17.sh --map .cache/automut/coverage-310c90172fa0fca0-018efd04.json \
#        --skip-new-modules --budget 2100 --json docs/automut/sweep-seed17.json --markdown docs/automut/sweep-seed17.md
K=simdist/keras; O=simdist/runtime/ops; R=simdist/runtime; T=simdist/tf
FILES="--files $R/graph_names.py --files $R/assert_messages.py --files $O/slice_assign_bcast.py
   --files $O/tnp_shape.py --files $O/summarize_value.py --files $K/ops/op_utils.py --files $O/trace_errors.py
   --files $O/prod_order.py --files $O/sequence_parsing.py --files $O/string_regex.py --files $O/complex_div.py
   --files $K/ops/tf_math.py --files $O/re2_syntax.py --files $O/string_to_number.py --files $O/audio_codecs.py
   --files $K/ops/op_linalg.py --files $R/graph/branches.py --files $K/layers/preprocessing/audio/stft_spectrogram.py
   --files $R/data/readers.py --files $O/decode_csv.py --files $O/rcp.py --files $O/signal_dct.py
   --files $K/utils/image_dataset.py --files $O/image_draw_boxes.py --files $O/image_glimpse.py"
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py $FILES --per-file 2 --seed 17 --timeout 240 "$@"

#!/bin/sh
# seed-18 sweep (amut41): counted from every docs/automut/*seed*.json verdict (distinct mutant ids per file, not-run ones
# included, as amut39/amut40 counted), on the map below, the reached training-layer files (keras, runtime, strategies,
# tf; not __init__.py) with a reached site not yet sampled: 8 were never sampled, all added on 2026-12-04 after seed 17's
# map (training_kernels, cross_device_ops, coordinator_context, collective_options, run_options, load_kwargs: 2 sites
# each; raw_resource_ops and preemption_watcher have one reached site each: 1 each); then 280 files with two earlier
# mutants: the 18 of them with the most reached sites (132-98; ties broken by path). 50 mutants.
# Map: the suite's first 3,660 tests (of 6,339; modules in name order up to test_io_parsing.py) of a map with seed 16's
# include set (key e1fa15def9a4f301-018efd04) being built on amut41's starting source (74578ce8): the build ran at a
# load of 11-13 and would not have ended before the sweep's budget (it was stopped at 4,767 tests, 18:03 UTC). A mutant
# that survives on this partial map is run again on a merged map (those 4,767 tests plus the suite's modules from
# test_kproto.py on, run under coverage for these files: /work/wt/amut41_logs/restmap.py) before its verdict: see
# docs/automut/rerun-seed18.md and docs/conformance.md.
# Two parts (files 1-13, 14-26): part a 17:47-18:11 UTC, part b 18:03-18:30 UTC (the map's build stopped; at most two
# processes).
# Run: sh docs/automut/sweep-seed18.sh --part a --map /work/wt/amut41_logs/partial.json \
#        --skip-new-modules --budget 1800 --json docs/automut/sweep-seed18.json --markdown docs/automut/sweep-seed18.md
#      sh docs/automut/sweep-seed18.sh --part b (the same, --budget 1500) --json docs/automut/sweep-seed18b.json \
#        --markdown docs/automut/sweep-seed18b.md
K=simdist/keras; O=simdist/runtime/ops; R=simdist/runtime; S=simdist/strategies; T=simdist/tf
A="--files $O/training_kernels.py --files $S/cross_device_ops.py --files $S/coordinator_context.py
   --files $S/collective_options.py --files $S/run_options.py --files $K/models/load_kwargs.py
   --files $O/raw_resource_ops.py --files $S/preemption_watcher.py --files $R/dtypes.py
   --files $O/tnp_reductions.py --files $O/sqrt_grads.py --files $O/tnp_creation.py --files $O/packet_asin.py"
B="--files $O/minmax_zeros.py --files $O/embedding_sparse.py --files $R/data/csv_reader.py
   --files $K/layers/preprocessing/image/base.py --files $O/sparse_cross.py --files $O/resize_area.py
   --files $O/eigen_zeta.py --files $O/args.py --files $O/tnp_linalg.py --files $K/ops/shim.py
   --files $K/layers/preprocessing/image/random_erasing.py --files $O/complex_mul.py --files $O/packet_tanh.py"
case "$1" in
  --part) shift; case "$1" in a) FILES=$A;; b) FILES=$B;; *) echo "--part a|b" >&2; exit 2;; esac; shift;;
  *) FILES="$A $B";;
esac
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py $FILES --per-file 2 --seed 18 --timeout 240 "$@"

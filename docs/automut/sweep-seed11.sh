#!/bin/sh
# seed-11 sweep (automut34): 50 training-layer files seeds 1-10 never sampled (counted from the sweep-seed*.json and
# rerun-seed*.json verdicts: 188 of the 678 non-__init__ files of keras, runtime, semantics, strategies and tf had
# none) whose sites the suite reaches (counted on the map first): tf.function's graph layer (the recorded graph's
# IR, dataflow, optimizer, code generation and replay, the interpreter), the replica-lane fusion of distributed
# steps (forms, fuse, mirrors, guard), subnormal flushing and the CPU model; and the kernels of 38 runtime/ops
# modules: argument conversion and attribute rules, dispatch, graph constants and inputs, Grappler, shape inference
# (infer_ctx, static shapes, raw shapes, the nn/array shape functions, shape checks), the C library and Eigen's
# packet math (exp, tanh, erf, trig, asin, atan2, pow and its subnormals, the generic packet ops, SIMD lanes,
# reciprocal estimates), Philox and its simple form, random ops in graphs, raw-op gradients, list inputs, sum
# chains, trace errors, allocation, raw rules, flush mode, resize state, CPU kernels, complex products and
# triangular solves.
# Uses the seed-4 include set (keras, runtime, semantics, strategies, tf): map key suffix bcc0e2df, built by
# automut_coverage.build's command on this source (4,762 tests passed, 0 failed on the AMD EPYC host).
# The machine was loaded (load average 10-12 from other helpers' full-suite runs): most mutants reaching 50+ tests
# timed out at 120 s, so a second process ran the 25 files last in the run order (ops/packet_asin.py .. subnormals.py)
# beside the first, same seed and sampling (a file's mutants do not depend on the other files):
#   nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py --files <those 25> --per-file 2 --seed 11 --timeout 120 \
#     --map <the map> --skip-new-modules --budget 2100 --json docs/automut/sweep-seed11b.json --markdown docs/automut/sweep-seed11b.md
# Run: sh docs/automut/sweep-seed11.sh --map .cache/automut/coverage-5b99701b44913c0b-bcc0e2df.json --skip-new-modules \
#        --budget 3180 --json docs/automut/sweep-seed11.json --markdown docs/automut/sweep-seed11.md
R=simdist/runtime; G=simdist/runtime/graph; L=simdist/runtime/lanes; O=simdist/runtime/ops
exec nice -n 10 env PYTHONPATH=. python benchmarks/auto_mutants.py \
  --files "$G/ir.py" --files "$G/dataflow.py" --files "$G/optimize.py" --files "$G/codegen.py" --files "$G/replay.py" \
  --files "$R/interpret.py" --files "$L/forms.py" --files "$L/fuse.py" --files "$L/mirrors.py" --files "$L/guard.py" \
  --files "$R/subnormals.py" --files "$R/host_cpu.py" \
  --files "$O/args.py" --files "$O/attr_rules.py" --files "$O/dispatch.py" --files "$O/graph_constants.py" \
  --files "$O/graph_inputs.py" --files "$O/grappler.py" --files "$O/infer_ctx.py" --files "$O/static_shapes.py" \
  --files "$O/raw_shapes.py" --files "$O/shape_fns_nn.py" --files "$O/shape_fns_array.py" --files "$O/shape_checks.py" \
  --files "$O/libm.py" --files "$O/packet_exp.py" --files "$O/packet_tanh.py" --files "$O/packet_erf.py" \
  --files "$O/packet_trig.py" --files "$O/packet_asin.py" --files "$O/packet_atan2.py" --files "$O/packet_pow.py" \
  --files "$O/pow_subnormals.py" --files "$O/packet_math.py" --files "$O/simd.py" --files "$O/rcp.py" \
  --files "$O/philox.py" --files "$O/simple_philox.py" --files "$O/random_graphs.py" --files "$O/raw_gradients.py" \
  --files "$O/list_inputs.py" --files "$O/sum_chain.py" --files "$O/trace_errors.py" --files "$O/alloc.py" \
  --files "$O/raw_rules.py" --files "$O/flush_mode.py" --files "$O/resize_state.py" --files "$O/cpu_kernels.py" \
  --files "$O/complex_mul.py" --files "$O/eigen_trsm.py" \
  --per-file 2 --seed 11 --timeout 120 "$@"

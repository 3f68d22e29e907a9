"""Does the suite kill bugs planted in a *second spelling* of a rule it tests (issue 29, session 25)? Each bug
below sits on a path that only one spelling of a call reaches: tf.nn.dropout's rate as a 0-d tensor (not a
Python float), tf.random.uniform's bounds inside a tf.function (not eagerly), stateless draws with tensor
bounds, tf.nn.softmax on an axis that is not one of the last two, batch_jacobian of a rank-3 target,
tf.nn.embedding_lookup's max_norm with 2-D ids, tf.nn.batch_normalization with offset=None, tf.nn.pool with
strides=None, Strategy.reduce(axis=...) of a non-distributed value, ... Plant each in a private copy of the
committed package and run a slice of the conformance suite against it (simdist backend; suite_kills.py's
plant-and-run).

    python benchmarks/spell25a_kills.py [--targeted|--new] ID [ID ...]
    # ID: own:NAME, own (SPELL25A_OWN), screened, all, baseline

`--targeted` (the default) runs the suite modules, other than the spell25a modules, that name one of the
mutant's API strings (API below, found by grep when the script runs): the "before" figure; `--new` only the
spell25a modules, the "after" figure (every failing test named). Both run on 2 xdist workers.

Honest order: every bug here was written (2026-12-02, session 25) and screened with `--targeted` before any
spell25a test existed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_O = "simdist/runtime/ops/"
_SUITE = Path(__file__).resolve().parents[1] / "simdist" / "conformance" / "suite"


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, kind, path, old, new, why, layer="training")


#: Every bug written (its `why` names the spelling that reaches it and the spellings that do not).
_ALL = {m.id: m for m in [
    _m("dropout-tensor-rate-multiplies-keep", "formula", _O + "nn.py",
       "ret = math.truediv(x, math.subtract(array.constant(1, dtype=x.dtype), rate))",
       "ret = math.multiply(x, math.subtract(array.constant(1, dtype=x.dtype), rate))",
       "tf.nn.dropout with the rate as a tensor multiplies the kept values by 1 - rate instead of dividing "
       "(a Python float rate, and keras Dropout, take the other branch)"),
    _m("embedding-max-norm-over-ids-dims", "axis", _O + "nn.py",
       "    axes = list(range(ids_rank, values.ndim))\n",
       "    axes = list(range(1, values.ndim))\n",
       "tf.nn.embedding_lookup's max_norm takes each norm over every axis after the first, so with 2-D ids it "
       "clips whole rows of embeddings together (1-D ids give the same axes)"),
    _m("batch-norm-no-offset-forgets-inv", "formula", _O + "normalization.py",
       "if offset is not None else -mean * inv, raw_attribute(x, \"dtype\"))",
       "if offset is not None else -mean, raw_attribute(x, \"dtype\"))",
       "tf.nn.batch_normalization with offset=None shifts by -mean, not -mean * inv (an explicit zero offset "
       "takes the other branch)"),
    _m("softmax-axis-moved-not-swapped", "axis", _O + "activations.py",
       "    perm[axis], perm[-1] = perm[-1], perm[axis]\n",
       "    perm.append(perm.pop(axis))\n",
       "softmax/log_softmax on an inner axis move it last (a roll) instead of swapping it with the last, and "
       "transpose back with the same permutation: wrong for rank >= 3 with the axis before the last two "
       "(axis -1, and any axis of a rank-2 input, are right)"),
    _m("uniform-traced-scale-ignores-minval", "formula", _O + "random.py",
       "dispatch.execute(math.MUL, (r, dispatch.execute(math.SUB, (hi_t, lo_t))))",
       "dispatch.execute(math.MUL, (r, hi_t))",
       "tf.random.uniform's float bounds inside a tf.function scale by maxval, not maxval - minval (eager "
       "draws fold the bounds into the op)"),
    _m("stateless-uniform-tensor-bounds-scale-by-max", "formula", _O + "random.py",
       "return math.add(math.multiply(r, math.subtract(hi_t, lo_t)), lo_t)",
       "return math.add(math.multiply(r, hi_t), lo_t)",
       "tf.random.stateless_uniform with tensor bounds scales by maxval, not maxval - minval (Python bounds "
       "fold into the op)"),
    _m("stateless-normal-tensor-moments-swapped", "order", _O + "random.py",
       "return math.add(math.multiply(r, convert_to_tensor(b, dtype=dt)), convert_to_tensor(a, dtype=dt))",
       "return math.add(math.multiply(r, convert_to_tensor(a, dtype=dt)), convert_to_tensor(b, dtype=dt))",
       "tf.random.stateless_normal with a tensor mean or stddev swaps them (Python numbers fold into the op)"),
    _m("normal-array-moments-swapped", "order", _O + "random.py",
       "    return math.add(math.multiply(r, sd), m)\n",
       "    return math.add(math.multiply(r, m), sd)\n",
       "tf.random.normal (and, since spell25a's fix, truncated_normal) with a tensor or array mean/stddev swaps "
       "them (Python numbers fold into the op; screened before the fix, when the line was normal's alone)"),
    _m("reduce-axis-plain-value-counted-once", "count", "simdist/strategies/base.py",
       "            return list(value.values)\n        return [value] * self.num_replicas_in_sync\n",
       "            return list(value.values)\n        return [value]\n",
       "Strategy.reduce(SUM, value, axis=...) of a plain (non-distributed) tensor counts it once, not once per "
       "replica (a PerReplica value, and one replica, are right)"),
    _m("batch-jacobian-row-from-second-dim", "shape", "simdist/runtime/autodiff/tape.py",
       "        row = int(target.shape.num_elements()) // b\n",
       "        row = t_shape[1]\n",
       "GradientTape.batch_jacobian takes a row's size from the target's second dimension, so a rank-3 target "
       "fails to reshape (rank-2 targets are right)"),
    _m("pool-strides-default-to-window", "default", _O + "nn_composites.py",
       "st = np.array([1] * nsp if strides is None else list(strides), np.int32)",
       "st = np.array(window if strides is None else list(strides), np.int32)",
       "tf.nn.pool's strides=None means the window (keras pooling layers' default), not 1 (explicit strides, "
       "tf.nn.max_pool/avg_pool and the keras layers are right)"),
    _m("resource-gather-grad-indices-not-flattened", "shape", "simdist/runtime/autodiff/tape.py",
       "            return [IndexedSlices(array.reshape(g, [n] + shape[1:]), array.reshape(indices, [n]),",
       "            return [IndexedSlices(array.reshape(g, [n] + shape[1:]), indices,",
       "the gradient of tf.gather on a variable (ResourceGather) keeps 2-D indices unflattened in its "
       "IndexedSlices (a gather of a tensor, and 1-D indices, are right)"),
    _m("watch-nested-dict-ignored", "structure", "simdist/runtime/autodiff/tape.py",
       "        for t in nest.flatten(tensor):\n            if not isinstance(t, Tensor) and (not _is_variable(t)",
       "        for t in (tensor if isinstance(tensor, (list, tuple)) else [tensor]):\n"
       "            if isinstance(t, dict):\n                continue\n"
       "            if not isinstance(t, Tensor) and (not _is_variable(t)",
       "GradientTape.watch of a dict (or a list holding one) watches nothing inside it (a tensor, a list or "
       "tuple of tensors are right)"),
    _m("values-from-function-replica-id-local", "index", "simdist/strategies/base.py",
       "                outs.append(value_fn(ValueContext(i, n)))",
       "                outs.append(value_fn(ValueContext(i, len(devices) if devices else 1)))",
       "experimental_distribute_values_from_function's ValueContext counts the replicas as the devices given "
       "(1 when the strategy lists none)"),
    _m("log-softmax-float16-not-promoted", "dtype", _O + "activations.py",
       "    return _along_axis(LOG_SOFTMAX, logits, axis)\n",
       "    x = _t(logits)\n    if x.dtype == dtypes.float16 and axis not in (None, -1):\n"
       "        from simdist.runtime.ops import unary\n"
       "        return x - unary.log(math.reduce_sum(unary.exp(x), axis, keepdims=True))\n"
       "    return _along_axis(LOG_SOFTMAX, logits, axis)\n",
       "tf.nn.log_softmax of float16 on an axis other than -1 is computed as x - log(sum(exp(x))) without the "
       "max shift (overflows for logits > 11; axis -1 runs the kernel)"),
    _m("aggregate-mixed-slices-dropped", "structure", "simdist/runtime/autodiff/backprop.py",
       "        return math.add_n([g if isinstance(g, Tensor) else g._as_tensor() for g in grads])",
       "        return math.add_n([g for g in grads if isinstance(g, Tensor)])",
       "a tensor reached both by a gather (IndexedSlices) and by a dense op sums the dense gradients only (a "
       "tensor used by gathers only, or by dense ops only, is right)"),
    _m("pool-generic-1d-strides-are-ksize", "argument", _O + "pooling.py",
       "        return array.squeeze(fn(array.expand_dims(x, 1), [1, k], [1, s], padding), [1])",
       "        return array.squeeze(fn(array.expand_dims(x, 1), [1, k], [1, k], padding), [1])",
       "tf.nn.max_pool/avg_pool of a rank-3 input (1-D pooling by rank) stride by the window, not by strides "
       "(tf.nn.max_pool1d/avg_pool1d and strides equal to the window are right)"),
    _m("generator-replica-zero-key-unmixed", "boundary", _O + "random_generator.py",
       "        if rid is None:\n            return old\n",
       "        if not rid:\n            return old\n",
       "a tf.random.Generator made under a strategy draws in replica 0 without mixing the replica id into the key "
       "(a falsy-zero test; replicas 1.. and cross-replica draws are right)"),
    _m("function-dict-args-keyed-in-insertion-order", "order", "simdist/runtime/graph/recording.py",
       "        return (t, tuple((k, _sig(x[k], leaves)) for k in sorted(x)))",
       "        return (t, tuple((k, _sig(x[k], leaves)) for k in x))",
       "a tf.function's dict argument lists its tensors in insertion order while the traced call substitutes "
       "them in sorted-key order, so a dict whose keys were not inserted sorted swaps its values (sorted "
       "dicts, lists and tuples are right)"),
    _m("function-dict-args-rebuilt-sorted", "order", "simdist/runtime/graph/recording.py",
       "        done = {k: _substitute(x[k], twins) for k in sorted(x)}\n        return {k: done[k] for k in x}",
       "        return {k: _substitute(x[k], twins) for k in sorted(x)}",
       "a tf.function sees a dict argument rebuilt in sorted-key order, not the caller's order (visible to "
       "code that iterates it: list(d.values()); eager calls and sorted dicts are right)"),
    _m("function-python-scalar-keyed-by-type", "key", "simdist/runtime/graph/recording.py",
       "    if t in _SCALARS:\n        return x\n",
       "    if t in _SCALARS:\n        return t\n",
       "a tf.function keys a Python number argument by its type, not its value, so a second call with another "
       "value replays the first trace (tensor arguments are right)"),
]}

#: The own bugs that survived the suite's modules that call their API (`--targeted`), before spell25a.
SPELL25A_OWN = {k: _ALL[k] for k in [
    "batch-norm-no-offset-forgets-inv", "uniform-traced-scale-ignores-minval",
    "stateless-uniform-tensor-bounds-scale-by-max", "stateless-normal-tensor-moments-swapped",
    "normal-array-moments-swapped", "batch-jacobian-row-from-second-dim", "resource-gather-grad-indices-not-flattened",
    "watch-nested-dict-ignored", "log-softmax-float16-not-promoted", "generator-replica-zero-key-unmixed",
    "function-python-scalar-keyed-by-type", "function-dict-args-keyed-in-insertion-order",
    "function-dict-args-rebuilt-sorted"]}
OWN = SPELL25A_OWN

#: Bugs written the same way that the suite already killed, with the first killing test (`--targeted`).
SCREENED = {
    "dropout-tensor-rate-multiplies-keep":
        "test_sweep24a_nn.py::test_sweep24a_dropout_gradient_is_the_kept_mask_over_one_minus_rate",
    "embedding-max-norm-over-ids-dims":
        "test_blind5_gaps.py::test_blind5_embedding_lookup_max_norm_clips_each_rows_l2_norm",
    "softmax-axis-moved-not-swapped": "test_options_training.py::test_options_nn_and_math_axes_keepdims_and_scans",
    "reduce-axis-plain-value-counted-once": "test_reduce.py::test_plain_tensor_multi_replica",
    "pool-strides-default-to-window": "test_op_gap3_rules.py::test_space_to_batch_compositions",
    "aggregate-mixed-slices-dropped":
        "test_cov14_autodiff.py::test_cov14a_tape_adds_up_indexed_slices_and_dense_gradients",
    "pool-generic-1d-strides-are-ksize": "test_keras_layers_more.py::test_layers_more_pooling_1d_matches_numpy",
}

#: Written, but no program can tell it from the rule: every strategy whose values_from_function is base.py's
#: lists one device per replica in sync, so len(devices) is num_replicas_in_sync (survives every module).
EQUIVALENT = ["values-from-function-replica-id-local"]

#: Per mutant, the public calls whose suite modules exercise its line (grep strings).
API = {
    "dropout-tensor-rate-multiplies-keep": ["nn.dropout"],
    "embedding-max-norm-over-ids-dims": ["embedding_lookup"],
    "batch-norm-no-offset-forgets-inv": ["nn.batch_normalization"],
    "softmax-axis-moved-not-swapped": ["nn.softmax", "nn.log_softmax", "math.softmax", "math.log_softmax"],
    "uniform-traced-scale-ignores-minval": ["random.uniform"],
    "stateless-uniform-tensor-bounds-scale-by-max": ["stateless_uniform"],
    "stateless-normal-tensor-moments-swapped": ["stateless_normal", "stateless_truncated_normal"],
    "normal-array-moments-swapped": ["random.normal"],
    "reduce-axis-plain-value-counted-once": [".reduce("],
    "batch-jacobian-row-from-second-dim": ["batch_jacobian"],
    "pool-strides-default-to-window": ["nn.pool("],
    "resource-gather-grad-indices-not-flattened": ["gather(", "embedding_lookup", "Embedding("],
    "watch-nested-dict-ignored": [".watch("],
    "values-from-function-replica-id-local": ["distribute_values_from_function"],
    "log-softmax-float16-not-promoted": ["log_softmax"],
    "aggregate-mixed-slices-dropped": ["gather(", "embedding_lookup", "Embedding("],
    "pool-generic-1d-strides-are-ksize": ["nn.max_pool(", "nn.avg_pool(", "MaxPooling1D", "AveragePooling1D",
                                          "MaxPool1D", "AvgPool1D", "max_pool", "avg_pool"],
    "generator-replica-zero-key-unmixed": ["Generator"],
    "function-dict-args-keyed-in-insertion-order": ["tf.function"],
    "function-dict-args-rebuilt-sorted": ["tf.function"],
    "function-python-scalar-keyed-by-type": ["tf.function"],
}


def _modules(strings: list[str]) -> list[str]:
    """The suite modules (not spell25a's) naming one of `strings`."""
    out = []
    for p in sorted(_SUITE.glob("test_*.py")):
        if "spell25a" in p.name:
            continue
        text = p.read_text(encoding="utf-8")
        if any(s in text for s in strings):
            out.append(p.stem)
    return out


def targets(mid: str) -> str:
    return " or ".join(_modules(API[mid]))


def find(mid: str) -> mutants.Mutant:
    return _find(mid, _ALL)


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how` names:
    --new the spell25a modules, --targeted (the default) the other modules that call `m`'s API."""
    if how == "--new":
        k = "spell25a"
    elif m is None:
        k = " or ".join(sorted({t for mid in _ALL for t in _modules(API[mid])}))
    else:
        k = targets(m.id)
    return _run(m, k, every_failure=how == "--new", workers=2)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in OWN], "screened": [f"own:{k}" for k in SCREENED],
                         "all": [f"own:{k}" for k in _ALL]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)

"""Does the suite kill bugs planted in the gradients, the tape and tf.nn where the suite's inputs hide
the rule? Plant each (one of OWN below, not in the catalogue; or a catalogue id) in a private copy of
the committed package and run a slice of the conformance suite against it (simdist backend), every
failing test listed (suite_kills.py's plant-and-run).

    python benchmarks/sweep24a_kills.py [--targeted|--new] ID [ID ...]   # own:NAME, own (SWEEP24A_OWN), screened, baseline

`--targeted` (the default) runs the suite modules that call the mutant's API other than the sweep24a
modules (TARGETS below: the modules naming one of its API strings, found by grep when the script
runs), the "before" figure; `--new` only the sweep24a modules, the "after" figure.

Each bug sits on a line the suite already runs, where the rule and the wrong one agree on the inputs the
suite used (no input exactly at 0 for selu's and elu's second derivatives, no zero denominator, no all-zero
slice, no norm equal to clip_norm or sum of squares equal to epsilon, no negative segment id, index tuples only
of rank 2 or [N, 1], logits never exactly 0, no zero in a cumprod), and each is observable on TF 2.21 (the
sweep24a test that kills it passes there). Of 24 written, 13 were already killed by the suite (SCREENED) and 1
is equivalent (EQUIVALENT); the 10 survivors are SWEEP24A_OWN. Honest order: the first 12 were written
(2026-12-02, session 24) before any sweep24a test (one of them, div_no_nan's, is in SWEEP24A_OWN); clip_by_norm's,
unsorted_segment_sum's and gather_nd's before the sweep24a test that kills them; l2_normalize's, elu's and selu's
second derivatives, the euclidean norm's, weighted cross-entropy's and cumprod's division after or together with
the test that kills them (found while writing the tables), so for those six "after" is not a blind figure.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_O = "simdist/runtime/ops/"
_SUITE = Path(__file__).resolve().parents[1] / "simdist" / "conformance" / "suite"


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, kind, path, old, new, why, layer="training")


#: Every bug written (named last in `why`: the inputs that hide it); SWEEP24A_OWN below are the ten the suite's
#: modules that call their API did not kill, SCREENED the others (the first test that killed each, before any
#: sweep24a module existed).
_ALL = {m.id: m for m in [
    _m("relu6-grad-passes-at-six", "boundary", _O + "activations.py",
       "g * ((y > 0) & (y < 6))", "g * ((y > 0) & (y <= 6))",
       "relu6's gradient passes where the output is 6, i.e. for every x >= 6 (invisible on inputs below 6)"),
    _m("selu-grad-zero-takes-negative-branch", "boundary", _O + "activations.py",
       "np.where(y < 0, g * (y + y.dtype.type(SELU_SCALE_ALPHA))",
       "np.where(y <= 0, g * (y + y.dtype.type(SELU_SCALE_ALPHA))",
       "selu's gradient at x == 0 is scale * alpha, not scale (invisible unless an input is exactly 0)"),
    _m("pow-grad-log-mask-nonzero", "domain", _O + "math.py",
       'mask = not_equal(x, 0) if x.dtype.kind == "c" else greater(x, 0)',
       "mask = not_equal(x, 0)",
       "pow's exponent gradient takes log(x) for negative real x too (NaN where TF gives 0; invisible on "
       "positive bases)"),
    _m("cumprod-grad-inclusive-sum", "option", _O + "reductions.py",
       "out = cumsum(math.multiply(prod, grad), axis, exclusive=exclusive, reverse=not reverse)",
       "out = cumsum(math.multiply(prod, grad), axis, exclusive=False, reverse=not reverse)",
       "cumprod's gradient sums the upstream inclusively even for exclusive=True (invisible for the "
       "default exclusive=False)"),
    _m("roll-grad-rolls-forward", "sign", _O + "array_more.py",
       'tuple(-s for s in op.get_attr("shift"))',
       'tuple(s for s in op.get_attr("shift"))',
       "roll's gradient rolls the upstream by +shift, not -shift (invisible when 2 * shift is a multiple "
       "of the size, and for a uniform upstream)"),
    _m("max-pool-grad-ties-to-last", "order", _O + "pooling.py",
       "    if not nan.any():\n        return np.argmax(flat, axis=3)\n",
       "    if not nan.any():\n        return flat.shape[3] - 1 - np.argmax(flat[:, :, :, ::-1], axis=3)\n",
       "max pooling routes a window's gradient to its last maximum, not its first (invisible without ties)"),
    _m("gather-grad-inner-axis-one-index-dim", "axis", _O + "array.py",
       "gm = np.moveaxis(g, list(range(axis, axis + idx.ndim)), list(range(idx.ndim)))",
       "gm = np.moveaxis(g, axis, 0)",
       "gather's dense gradient (axis > 0) moves one index dimension only (invisible for indices of rank 1)"),
    _m("batch-matmul-grad-no-unbroadcast", "shape", _O + "linalg.py",
       "return [unbroadcast(ga, op.inputs[0].shape.as_list()), unbroadcast(gb, op.inputs[1].shape.as_list())]",
       "return [unbroadcast(ga, op.inputs[0].shape.as_list()), gb]",
       "batched matmul's gradient of the second operand is not summed over the batch dimensions it was "
       "broadcast along (invisible when both operands have the same batch dimensions)"),
    _m("bias-add-grad-float16-accumulates-in-half", "dtype", _O + "nn.py",
       "    if g.dtype == np.float16:\n        return np.add.reduce(g.astype(np.float32), axis=axes)",
       "    if g.dtype == np.float16 and g.ndim > 4:\n        return np.add.reduce(g.astype(np.float32), axis=axes)",
       "bias_add's bias gradient sums float16 in float16 (invisible unless the float16 sum overflows or "
       "rounds)"),
    _m("moments-float16-no-promotion", "dtype", _O + "normalization.py",
       "y = math.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x",
       "y = x",
       "tf.nn.moments averages float16 in float16 (invisible unless the float16 sum overflows)"),
    _m("tape-output-gradients-first-for-all", "index", "simdist/runtime/autodiff/backprop.py",
       "n >= len(output_gradients) else output_gradients[n]",
       "n >= len(output_gradients) else output_gradients[0]",
       "tape.gradient uses the first output gradient for every target (invisible with one target)"),
    _m("div-no-nan-grad-x-divides", "domain", _O + "math.py",
       "    gx = divide_no_nan(grad, y)\n",
       "    gx = binary(REALDIV, grad, y)\n",
       "div_no_nan's gradient in x divides by y plainly (inf/NaN where TF gives 0; invisible unless a "
       "denominator is exactly 0)"),
    _m("clip-by-norm-tie-to-clip-norm", "order", _O + "clip.py",
       "math.truediv(intermediate, math.maximum(l2norm, clip_norm))",
       "math.truediv(intermediate, math.maximum(clip_norm, l2norm))",
       "clip_by_norm's maximum takes its operands the other way round, so at a norm equal to clip_norm the "
       "gradient goes to the constant and t's gradient is R, not the projection (invisible off the tie)"),
    _m("l2-normalize-tie-to-epsilon", "order", _O + "normalization.py",
       "    x_inv_norm = unary.rsqrt(math.maximum(square_sum, epsilon))\n    return",
       "    x_inv_norm = unary.rsqrt(math.maximum(epsilon, square_sum))\n    return",
       "l2_normalize's maximum takes epsilon first, so a slice whose sum of squares equals epsilon gets the "
       "gradient R * rsqrt(epsilon), not the normalized one (invisible off the tie)"),
    _m("unsorted-segment-sum-grad-keeps-negative-ids", "domain", _O + "array.py",
       "    return [math.where(keep, gathered, zeros_like(gathered)), None]",
       "    return [gathered, None]",
       "unsorted_segment_sum's gradient gives an element with a negative segment id the upstream row of "
       "segment 0, not 0 (invisible without negative ids)"),
    _m("split-grad-unused-output-dropped", "shape", _O + "array.py",
       "def _split_grad(op: Any, *grads: Any) -> list:\n"
       "    gs = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]",
       "def _split_grad(op: Any, *grads: Any) -> list:\n"
       "    gs = [g for g in grads if g is not None]",
       "split's gradient drops the outputs nobody differentiated instead of filling them with zeros, so the "
       "concatenation is short (invisible when every output is used)"),
    _m("pack-grad-unstacks-axis-0", "axis", _O + "array.py",
       'return unstack(grad, axis=op.get_attr("axis"))',
       "return unstack(grad, num=len(op.inputs))",
       "stack's gradient unstacks the upstream along axis 0, not the stacking axis (invisible for stack(axis=0))"),
    _m("select-grad-else-not-unbroadcast", "shape", _O + "math.py",
       "            unbroadcast(where(c, zeros, grad), y.shape.as_list())]",
       "            where(c, zeros, grad)]",
       "where's gradient of the else-operand is not summed over the axes it was broadcast along (invisible "
       "when both branches have the condition's shape)"),
    _m("gather-nd-grad-slices-for-any-rank", "shape", _O + "scatter.py",
       "if indices.ndim == 2 and indices.shape.as_list()[-1] == 1:",
       "if indices.shape.as_list()[-1] == 1:",
       "gather_nd's gradient is IndexedSlices for index tuples of length 1 whatever the indices' rank, so "
       "indices of shape (2, 2, 1) give slices of 2-D indices (invisible for indices of rank 2)"),
    _m("elu-second-derivative-at-zero", "boundary", _O + "activations.py",
       "math.where(elu_x < 0, grad * op.inputs[0], array.zeros_like(elu_x))]",
       "math.where(elu_x <= 0, grad * op.inputs[0], array.zeros_like(elu_x))]",
       "EluGrad's gradient in elu's output takes the negative branch at 0 too, so elu's second derivative at "
       "x == 0 is R * S, not 0 (invisible unless a second derivative is taken at exactly 0)"),
    _m("euclidean-norm-grad-zero-slice-no-nan", "domain", _O + "reductions.py",
       "return [math.truediv(x, out / grad)]",
       "return [math.divide_no_nan(x * grad, out)]",
       "reduce_euclidean_norm's gradient divides safely, 0 at a slice of zeros where TF's x / (norm / grad) is "
       "NaN (invisible without an all-zero slice)"),
    _m("weighted-xent-softplus-shortcut", "formula", _O + "losses.py",
       "log_weight * (activations.softplus(-unary.abs_(logits_t)) + activations.relu(-logits_t))",
       "log_weight * activations.softplus(-logits_t)",
       "weighted_cross_entropy_with_logits writes log1p(exp(-|x|)) + max(-x, 0) as the equal softplus(-x), "
       "whose gradient at logits exactly 0 is the derivative, not TF's kink value 1 - z (invisible off 0)"),
    _m("selu-second-derivative-at-zero", "boundary", _O + "activations.py",
       "math.where(selu_x < 0.0, grad * op.inputs[0], array.zeros_like(selu_x))]",
       "math.where(selu_x <= 0.0, grad * op.inputs[0], array.zeros_like(selu_x))]",
       "SeluGrad's gradient in selu's output takes the negative branch at 0 too, so selu's second derivative "
       "at x == 0 is not 0 (invisible unless a second derivative is taken at exactly 0)"),
    _m("cumprod-grad-plain-division", "domain", _O + "reductions.py",
       "return [math.divide_no_nan(out, x)]",
       "return [math.truediv(out, x)]",
       "cumprod's gradient divides by x plainly: inf/NaN at a zero of x, where TF's div_no_nan gives 0 "
       "(invisible without zeros in the scanned input)"),
]}

#: The ten own bugs: each survived the suite's modules that call its API (`--targeted`) before the sweep24a modules.
SWEEP24A_OWN = {k: _ALL[k] for k in [
    "elu-second-derivative-at-zero", "selu-second-derivative-at-zero", "div-no-nan-grad-x-divides",
    "euclidean-norm-grad-zero-slice-no-nan", "clip-by-norm-tie-to-clip-norm", "l2-normalize-tie-to-epsilon",
    "unsorted-segment-sum-grad-keeps-negative-ids", "gather-nd-grad-slices-for-any-rank",
    "weighted-xent-softplus-shortcut", "cumprod-grad-plain-division"]}
OWN = SWEEP24A_OWN

#: Bugs written the same way that the suite already killed (so not hidden by its inputs), with the killing test.
SCREENED = {
    "relu6-grad-passes-at-six": "test_gradient_table.py::test_gradient_table_first_order[special]",
    "cumprod-grad-inclusive-sum": "test_options_training.py::test_options_nn_and_math_axes_keepdims_and_scans",
    "roll-grad-rolls-forward": "test_blind6_gaps.py::test_blind6_more_gradients_match_central_differences[roll_two_axes]",
    "tape-output-gradients-first-for-all": "test_cov14_autodiff.py::test_cov14a_graph_gradients_through_cond_loop_and_variables",
    "moments-float16-no-promotion": "test_blind21_gaps.py::test_blind21_moments_of_float16_are_computed_in_float32",
    "gather-grad-inner-axis-one-index-dim":
        "test_cov14_gradients.py::test_cov14a_gather_along_an_inner_axis_has_a_dense_gradient[repeated]",
    "max-pool-grad-ties-to-last":
        "test_blind11_gaps.py::test_blind11_max_pool_gradients_pick_the_tied_maximum_by_the_kernels_rule",
    "select-grad-else-not-unbroadcast":
        "test_blind12_gaps.py::test_blind12_where_gives_each_branch_the_gradient_where_it_was_chosen",
    "pack-grad-unstacks-axis-0": "test_gradient_table.py::test_gradient_table_first_order[array_window]",
    "pow-grad-log-mask-nonzero": "test_blind13_gaps.py::test_blind13_pow_and_minimum_maximum_gradients_at_their_edges",
    "bias-add-grad-float16-accumulates-in-half":
        "test_train_grid.py::test_grid_program_matches_tf[010-fit-gru-mse_sum-sgd_momentum-none-default]",
    "batch-matmul-grad-no-unbroadcast": "test_gradients.py::test_gradient_matches_central_differences[batch_matmul_broadcast]",
    "selu-grad-zero-takes-negative-branch":
        "test_harden20_edges_elementwise.py::test_harden20_edges_elementwise_thresholds_and_epsilons",
}

#: Written, but no program can tell it from the rule: the tape hands SplitV zeros (not None) for the outputs
#: nobody differentiated, so dropping the None entries drops nothing (survives every module, sweep24a's too).
EQUIVALENT = ["split-grad-unused-output-dropped"]

#: Per mutant, the public calls whose suite modules exercise its line (grep strings).
API = {
    "relu6-grad-passes-at-six": ["relu6"],
    "selu-grad-zero-takes-negative-branch": ["selu"],
    "pow-grad-log-mask-nonzero": ["tf.pow", "math.pow", "**"],
    "cumprod-grad-inclusive-sum": ["cumprod"],
    "roll-grad-rolls-forward": ["roll("],
    "max-pool-grad-ties-to-last": ["max_pool", "MaxPool"],
    "gather-grad-inner-axis-one-index-dim": ["gather("],
    "batch-matmul-grad-no-unbroadcast": ["matmul", "@"],
    "bias-add-grad-float16-accumulates-in-half": ["bias_add", "Dense(", "Conv"],
    "moments-float16-no-promotion": ["moments"],
    "tape-output-gradients-first-for-all": ["output_gradients"],
    "div-no-nan-grad-x-divides": ["div_no_nan"],
    "clip-by-norm-tie-to-clip-norm": ["clip_by_norm", "clipnorm"],
    "l2-normalize-tie-to-epsilon": ["l2_normalize", "normalize("],
    "unsorted-segment-sum-grad-keeps-negative-ids": ["unsorted_segment_sum", "segment_sum"],
    "split-grad-unused-output-dropped": ["split("],
    "pack-grad-unstacks-axis-0": ["stack("],
    "select-grad-else-not-unbroadcast": ["where("],
    "gather-nd-grad-slices-for-any-rank": ["gather_nd"],
    "elu-second-derivative-at-zero": ["elu"],
    "euclidean-norm-grad-zero-slice-no-nan": ["euclidean_norm"],
    "weighted-xent-softplus-shortcut": ["weighted_cross_entropy", "WeightedCrossEntropy"],
    "selu-second-derivative-at-zero": ["selu"],
    "cumprod-grad-plain-division": ["cumprod"],
}


def _gradient_modules(strings: list[str]) -> list[str]:
    """The suite modules (not sweep24a's) that take a gradient and name one of `strings`, themselves or (an
    identifier, as a word) through a case table they import (harden20_cases.py, kops23_cases.py, ...)."""
    words = [re.compile(rf"\b{re.escape(s)}\b") for s in strings if s.isidentifier()]
    tables = [p.stem for p in sorted(_SUITE.glob("*.py")) if not p.name.startswith(("test_", "__"))
              and any(w.search(p.read_text(encoding="utf-8")) for w in words)]
    out = []
    for p in sorted(_SUITE.glob("test_*.py")):
        if "sweep24a" in p.name:
            continue
        text = p.read_text(encoding="utf-8")
        names = any(s in text for s in strings) or any(re.search(rf"\b{t}\b", text) for t in tables)
        if names and ("gradient" in text or ".fit(" in text or "apply_gradients" in text):
            out.append(p.stem)
    return out


def targets(mid: str) -> str:
    return " or ".join(_gradient_modules(API[mid]))


def find(mid: str) -> mutants.Mutant:
    return _find(mid, _ALL)


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how` names:
    --new the sweep24a modules, --targeted (the default) the other modules that call `m`'s API."""
    if how == "--new":
        k = "sweep24a"
    elif m is None:
        k = " or ".join(sorted({t for mid in OWN for t in _gradient_modules(API[mid])}))
    else:
        k = targets(m.id)
    return _run(m, k, every_failure=how == "--new")


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in OWN], "screened": [f"own:{k}" for k in SCREENED]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)

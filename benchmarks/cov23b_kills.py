"""Does the suite kill bugs planted on lines the whole conformance suite never ran (session 23's
coverage of autodiff, gradients, tf.function; /work/wt/cov23_report.txt at main 670eaa67)? Plant
each (one of COV23B_OWN below, not in the catalogue; or a catalogue id) in a private copy of the
committed package and run a slice of the conformance suite against it (simdist backend), every
failing test listed (suite_kills.py's plant-and-run).

    python benchmarks/cov23b_kills.py [--targeted|--new] ID [ID ...]   # own:NAME, own (all), spot, baseline

`--targeted` (the default) runs the suite modules that call the mutant's API (TARGETS below: the
modules taking second derivatives, calling get_concrete_function or the fake-quant ops); `--new`
only the cov23b modules.

COV23B_OWN was written (2026-12-02, session 23) before any cov23b test, each on a line or branch the
lead's branch-coverage run of the whole suite (2,942 passed) never executed: the second-order
gradients (the gradient of a gradient op: ReluGrad, Relu6Grad, LeakyReluGrad, GatherV2Grad,
BiasAddGrad, MaxPoolGrad, Conv2DBackpropFilter), ConcreteFunction's dtype error and the fake-quant
gradients (FakeQuantWithMinMaxArgs, ...PerChannel); each observable through the public API (a
gradient penalty, a Hessian-vector product, a quantization-aware training step, a concrete
function's call) and checked on TF 2.21 before the runs.
"""

from __future__ import annotations

import sys

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_O = "simdist/runtime/ops/"


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, kind, path, old, new, why, layer="training")


#: Ten bugs on never-executed lines (/work/wt/cov23_report.txt, benchmarks/gradient_coverage.py's list).
COV23B_OWN = {m.id: m for m in [
    _m("relu-gradgrad-masks-by-incoming-gradient", "argument", _O + "activations.py",
       "def _relu_grad_grad(op: Any, grad: Any) -> list:\n    x = op.inputs[1]",
       "def _relu_grad_grad(op: Any, grad: Any) -> list:\n    x = op.inputs[0]",
       "ReluGrad's gradient masks by the sign of the incoming gradient (input 0) instead of the "
       "features (input 1): a gradient penalty through relu gets the wrong mask"),
    _m("relu6-gradgrad-forgets-the-cap", "formula", _O + "activations.py",
       "    return [dispatch.execute(RELU6_GRAD, (grad, x)), array.zeros_like(x)]",
       "    return [relu_grad(grad, x), array.zeros_like(x)]",
       "Relu6Grad's gradient passes the gradient above 6 (ReluGrad's mask, not Relu6Grad's)"),
    _m("leaky-relu-gradgrad-default-alpha", "default", _O + "activations.py",
       '    return [dispatch.execute(LEAKY_RELU_GRAD, (grad, x), {"alpha": op.get_attr("alpha")}), '
       'array.zeros_like(x)]',
       '    return [dispatch.execute(LEAKY_RELU_GRAD, (grad, x), {"alpha": 0.2}), array.zeros_like(x)]',
       "LeakyReluGrad's gradient uses tf.nn.leaky_relu's default slope 0.2, not the op's alpha (Keras's "
       "LeakyReLU default is 0.3)"),
    _m("gather-gradgrad-ignores-axis", "axis", _O + "array.py",
       '    return [gather(grad, op.inputs[1], axis=op.get_attr("axis")), None]',
       '    return [gather(grad, op.inputs[1]), None]',
       "GatherV2Grad's gradient gathers along axis 0 whatever the gather's axis"),
    _m("bias-add-gradgrad-ignores-data-format", "axis", _O + "nn.py",
       '    ax = _channel_axis(len(shape), op.get_attr("data_format"))\n    expanded',
       '    ax = _channel_axis(len(shape), "NHWC")\n    expanded',
       "BiasAddGrad's gradient tiles the bias gradient along the last axis even for NCHW"),
    _m("max-pool-gradgrad-takes-window-max", "formula", _O + "pooling.py",
       "    return np.take_along_axis(gflat, idx, axis=3)[:, :, :, 0, :]",
       "    return gflat.max(axis=3)",
       "MaxPoolGradGrad picks the largest gradient in each window, not the one at the input's argmax"),
    _m("conv-backfilter-gradgrad-outputs-swapped", "order", _O + "conv.py",
       "        return [dispatch.execute(back_input, (grad, dy), dict(a, input_sizes=_shape(x))),\n"
       "                dispatch.execute(fwd, (x, grad), a)]",
       "        return [dispatch.execute(fwd, (x, grad), a),\n"
       "                dispatch.execute(back_input, (grad, dy), dict(a, input_sizes=_shape(x)))]",
       "Conv2DBackpropFilter's gradient returns its two input gradients in the wrong order"),
    _m("concrete-dtype-error-names-float64", "table", "simdist/tf/_concrete.py",
       'return {"float16": "half", "float32": "float", "float64": "double"}.get(dtype.name, dtype.name)',
       'return {"float16": "half", "float32": "float"}.get(dtype.name, dtype.name)',
       "a ConcreteFunction's dtype error names a float64 tensor 'float64', not C's 'double'"),
    _m("fake-quant-args-grad-drops-narrow-range", "argument", _O + "fake_quant.py",
       '{k: op.get_attr(k) for k in ("min", "max", "num_bits", "narrow_range")})]',
       '{k: op.get_attr(k) for k in ("min", "max", "num_bits")})]',
       "FakeQuantWithMinMaxArgs's gradient forgets narrow_range (the nudged range of the full grid)"),
    _m("fake-quant-per-channel-grad-uses-first-max", "index", _O + "fake_quant.py",
       "_grads(gradients[..., i], inputs[..., i], float(min[i]), float(max[i]), q)",
       "_grads(gradients[..., i], inputs[..., i], float(min[i]), float(max[0]), q)",
       "the per-channel fake-quant gradient reads every channel's max from channel 0"),
]}

#: Spot checks written after the tests (not part of the before -> after figure): one plausible wrong rule
#: for each cov23b test no COV23B_OWN bug reaches (`python benchmarks/cov23b_kills.py --new spot`).
SPOT = {m.id: m for m in [
    _m("mirror-pad-gradgrad-default-mode", "default", _O + "slicing.py",
       'return [dispatch.execute(MIRROR_PAD, (grad,), {"paddings": op.get_attr("paddings"), "mode": op.get_attr("mode")})]',
       'return [dispatch.execute(MIRROR_PAD, (grad,), {"paddings": op.get_attr("paddings"), "mode": "REFLECT"})]',
       "MirrorPadGrad's gradient pads REFLECT whatever the mode"),
    _m("max-pool3d-gradgrad-first-element", "formula", _O + "pooling3d.py",
       "    idx = np.argmax(mask, axis=4)[:, :, :, :, None, :]",
       "    idx = np.zeros_like(np.argmax(mask, axis=4))[:, :, :, :, None, :]",
       "MaxPool3DGradGrad reads each window's first element, not its argmax"),
    _m("avg-pool-gradgrad-as-max-pool", "formula", _O + "pooling.py",
       "    return [dispatch.execute(AVG_POOL, (grad,), attrs)]",
       "    return [dispatch.execute(MAX_POOL, (grad,), attrs)]",
       "AvgPoolGrad's gradient max-pools the incoming gradient"),
    _m("function-copy-records-afresh", "state", "simdist/tf/_function.py",
       "        new.__dict__.update(self.__dict__)\n        return new",
       "        new.__dict__.update(self.__getstate__())\n        return new",
       "copy.copy of a tf.function starts with no traces (simdist's behaviour before session 23)"),
    _m("assert-near-less-equal", "boundary", "simdist/tf/debugging.py",
       "condition = _red.reduce_all(_math.less(_un.abs_(xt - yt), tol))",
       "condition = _red.reduce_all(_math.less_equal(_un.abs_(xt - yt), tol))",
       "assert_near accepts a difference equal to the tolerance (<= for TF's <)"),
    _m("assert-summary-shows-everything", "default", "simdist/runtime/ops/control_flow.py",
       "    n = 3 if summarize is None else (a.size if summarize < 0 else int(summarize))",
       "    n = a.size if summarize is None or summarize < 0 else int(summarize)",
       "tf.Assert's eager message lists every element when summarize is None (TF: the first 3)"),
    _m("fused-batch-checks-shapes", "branch", "simdist/runtime/data/batching.py",
       "            if r[i].shape != first and not fused:",
       "            if r[i].shape != first:",
       "a batch fused with its map refuses elements of another shape (CopyBatch's rule; simdist before session 23)"),
]}

_GRAD = "test_autodiff or test_gradients or test_gradient_table or test_cov14_gradients or test_cov14_autodiff"
#: The targeted files per mutant (the first-contact method of the blind batches): the suite modules that
#: call the mutant's API (grep of the suite: the autodiff and gradient modules, get_concrete_function,
#: fake_quant). The whole suite never executes any mutant's line (the lead's coverage run), so it
#: survives the whole suite too.
TARGETS = {mid: _GRAD for mid in COV23B_OWN}
TARGETS["concrete-dtype-error-names-float64"] = "test_fz15b_rules or test_xent_static_shapes_rules or test_function"
TARGETS["fake-quant-args-grad-drops-narrow-range"] = "test_quantization_and_namespaces or test_survey21_raw_ops"
TARGETS["fake-quant-per-channel-grad-uses-first-max"] = "test_quantization_and_namespaces or test_survey21_raw_ops"


def find(mid: str) -> mutants.Mutant:
    return _find(mid, {**COV23B_OWN, **SPOT})


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how` names:
    --new the cov23b modules, --targeted (the default) the modules that call `m`'s API (the baseline:
    all targeted modules together)."""
    if how == "--new":
        k = "cov23b"
    else:
        k = TARGETS.get(m.id, "test_function") if m is not None else " or ".join(sorted(set(" or ".join(TARGETS.values()).split(" or "))))
    return _run(m, k, every_failure=True)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in COV23B_OWN], "spot": [f"own:{k}" for k in SPOT]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)

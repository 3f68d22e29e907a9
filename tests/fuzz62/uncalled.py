"""The public functions of tf, tf.math, tf.nn, tf.linalg, tf.signal, tf.image, tf.strings, tf.sparse and tf.ragged
(tests/tf_namespace_names.json, TF 2.21's names) that none of the other four generators calls: fz54b
(tests/fuzz54b), fz55b (tests/fuzz55b), fz61 (tests/fuzz61) and the campaign's catalogue (tests/fuzz). A name counts as
called when its dotted text (`tf.math.sin`, or the catalogue's `math.sin`) appears in those sources, or the same
function under another namespace does (`tf.sin` and `tf.math.sin`). Modules, dtypes and classes are left out, and so
are functions that need a callable, a file, a graph or a context (`_SKIP`). Writes fz62_uncalled.json, sorted: each
name with its parameters as TF 2.21's Python declares them (inspect.signature, read in TF's process: a build step,
not the generator's), [name, kind, has_default, default's repr]:

    python tests/fuzz62/uncalled.py
"""

from __future__ import annotations

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
NAMESPACES = ("tf", "tf.math", "tf.nn", "tf.linalg", "tf.signal", "tf.image", "tf.strings", "tf.sparse", "tf.ragged")
SOURCES = ("fuzz54b/fz54b_gen.py", "fuzz54b/fz54b_ops.json", "fuzz54b/fz54b_table.py", "fuzz55b/fz55b_gen.py",
           "fuzz55b/fz55b_sigs.py", "fuzz61/fz61_gen.py", "fuzz/catalogue.py", "fuzz/programs.py", "fuzz/fuzz.py")


def called_names() -> set[str]:
    """Every dotted name the other generators' sources hold, with and without the `tf.` prefix."""
    text = ""
    for rel in SOURCES:
        p = os.path.join(TESTS, rel)
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                text += f.read() + "\n"
    found = set(re.findall(r"\btf\.(?:[a-z_0-9]+\.)*[A-Za-z_0-9]+", text))
    found |= {"tf." + m for m in re.findall(r"[\"'((]((?:math|nn|linalg|signal|image|strings|sparse|ragged)\.[A-Za-z_0-9]+)",
                                          text)}
    return found


def public_functions() -> list[str]:
    with open(os.path.join(TESTS, "tf_namespace_names.json"), encoding="utf-8") as f:
        ns = json.load(f)["namespaces"]
    out = []
    for space in NAMESPACES:
        for name in ns.get(space, []):
            if name[:1].islower() and not name.startswith("_"):
                out.append(f"{space}.{name}")
    return sorted(out)


def uncalled() -> list[str]:
    called = called_names()
    out = []
    for full in public_functions():
        if full in called:
            continue
        leaf = full.rsplit(".", 1)[1]
        space = full.rsplit(".", 1)[0]
        # (an alias: tf.sin is tf.math.sin; a leaf called under tf or tf.math counts for both)
        if space in ("tf", "tf.math") and any(f"{s}.{leaf}" in called for s in ("tf", "tf.math")):
            continue
        if space in ("tf", "tf.linalg") and any(f"{s}.{leaf}" in called for s in ("tf", "tf.linalg")):
            continue
        if space in ("tf", "tf.nn") and any(f"{s}.{leaf}" in called for s in ("tf", "tf.nn")):
            continue
        out.append(full)
    return out


# (a callable, a file, a graph, a context, a process-wide setting, stateful random draws, printing or timing)
_SKIP = re.compile(r"\.(case|cond|switch_case|while_loop|map_fn|vectorized_map|scan|foldl|foldr|custom_gradient|"
                   r"recompute_grad|grad_pass_through|py_function|numpy_function|gradients|hessians|import_graph_def|"
                   r"load_library|load_op_library|register_tensor_conversion_function|variable_creator_scope|"
                   r"control_dependencies|device|name_scope|init_scope|get_logger|print|timestamp|no_gradient|"
                   r"nondifferentiable_batch_function|make_tensor_proto|make_ndarray|group|tuple|check_pinned|"
                   r"executing_eagerly|inside_function|get_current_name_scope|is_symbolic_tensor|type_spec_from_value|"
                   r"random_[a-z_]+|[a-z_]*candidate_sampler|compute_accidental_hits|nce_loss|sampled_softmax_loss|"
                   r"decode_[a-z_]+|encode_[a-z_]+|is_jpeg|extract_jpeg_shape|adjust_jpeg_quality|"
                   r"sample_distorted_bounding_box|no_op|ragged_fill_empty_rows_grad|[a-z_]*_initializer)$")


def signatures(names: list[str]) -> dict:
    """Each callable name's parameters in TF 2.21 ([name, kind, has_default, default's repr]); modules, dtypes,
    classes and `_SKIP` names are dropped."""
    import inspect

    import tensorflow as tf
    out = {}
    for full in names:
        if _SKIP.search(full):
            continue
        obj = tf
        try:
            for part in full.split(".")[1:]:
                obj = getattr(obj, part)
        except AttributeError:
            continue
        if inspect.ismodule(obj) or inspect.isclass(obj) or not callable(obj) or isinstance(obj, tf.dtypes.DType):
            continue
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            continue
        out[full] = [[p.name, p.kind.name, p.default is not inspect.Parameter.empty,
                      repr(p.default) if p.default is not inspect.Parameter.empty else ""]
                     for p in sig.parameters.values()]
    return out


if __name__ == "__main__":
    names = uncalled()
    sigs = signatures(names)
    with open(os.path.join(HERE, "fz62_uncalled.json"), "w", encoding="utf-8") as f:
        json.dump(sigs, f, indent=0, sort_keys=True)
        f.write("\n")
    print(len(public_functions()), "public functions;", len(names), "uncalled;", len(sigs), "callable kept")

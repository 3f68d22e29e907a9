"""Builds fz54b_ops.json, the op table of the fz54b generator, from TF 2.21 itself (run once on TF; the JSON is
committed so that both backends' workers draw the same programs without importing TF):

- the functions: the public callables of tf.math, tf.nn and tf.linalg whose signature the generator can drive
  (classified by their parameter names: unary `x`/`features`, binary `x, y`, reductions `input_tensor, axis,
  keepdims`, scans, segment ops ...), plus the shape, sort, gather and clip functions of the top-level namespace;
- each function's signature (`inspect.signature`: every parameter, its default's repr);
- the raw ops it builds (traced in a tf.function) and each op's OpDef allowed dtypes of its first input
  (`op_def_registry.get(op).input_arg[0].type_attr` -> the attr's allowed_values);
- the dtypes TF accepts for its first operand, found by calling it eagerly on each of fifteen dtypes.

    python tests/fuzz54b/fz54b_table.py      # (with TF 2.21 installed) rewrites tests/fuzz54b/fz54b_ops.json
"""
from __future__ import annotations

import inspect
import json
import os

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import op_def_registry

DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "bool", "complex64", "complex128"]
SKIP = {"tf.math.sobol_sample", "tf.math.approx_max_k", "tf.math.approx_min_k", "tf.nn.approx_max_k",
        "tf.nn.approx_min_k", "tf.nn.dropout", "tf.math.accumulate_n", "tf.math.confusion_matrix"}


def t(dt: str, shape: tuple = (2, 3)) -> tf.Tensor:
    n = int(np.prod(shape))
    return tf.cast(tf.constant((np.arange(n) % 3 + 1).reshape(shape), tf.float64), dt)


def kind_of(name: str, sig: inspect.Signature) -> str | None:
    """The generator's way of calling a function, from its required parameters' names."""
    req = [p.name for p in sig.parameters.values() if p.default is inspect.Parameter.empty
           and p.kind in (p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY)]
    opt = [p.name for p in sig.parameters.values() if p.default is not inspect.Parameter.empty]
    if name in SPECIAL:
        return "special"
    if req in (["x"], ["features"], ["t"], ["input"], ["value"], ["matrix"], ["a"], ["tensor"]) and \
            not ({"axis", "axes"} & set(opt)):
        return "unary"
    if req in (["logits"], ["x"], ["tensor"]) and "axis" in opt and "exclusive" not in opt:
        return "unary_axis"
    if req == ["x"] and "exclusive" in opt:
        return "scan"
    if req in (["x", "y"], ["y", "x"], ["x1", "x2"], ["a", "x"], ["x", "q"], ["a", "b"]):
        return "binary"
    if req == ["a", "b", "x"]:
        return "ternary"
    if req == ["input_tensor"]:
        return "reduce"
    if req == ["data", "segment_ids"]:
        return "segment"
    if req == ["data", "segment_ids", "num_segments"]:
        return "unsorted_segment"
    return None


# name -> a probe call on dtype dt (the generator has a builder of its own for each)
SPECIAL = {
    "tf.math.argmax": lambda f, dt: f(t(dt), axis=1), "tf.math.argmin": lambda f, dt: f(t(dt), axis=1),
    "tf.math.count_nonzero": lambda f, dt: f(t(dt), axis=1),
    "tf.math.top_k": lambda f, dt: f(t(dt), k=2), "tf.nn.top_k": lambda f, dt: f(t(dt), k=2),
    "tf.math.in_top_k": lambda f, dt: f(tf.cast([0, 1], dt), t("float32"), 1),
    "tf.nn.in_top_k": lambda f, dt: f(tf.cast([0, 1], dt), t("float32"), 1),
    "tf.math.add_n": lambda f, dt: f([t(dt), t(dt)]),
    "tf.math.polyval": lambda f, dt: f([t(dt), t(dt)], t(dt)),
    "tf.math.scalar_mul": lambda f, dt: f(tf.cast(2, dt), t(dt)),
    "tf.math.bincount": lambda f, dt: f(tf.cast([0, 2, 1], dt)),
    "tf.math.invert_permutation": lambda f, dt: f(tf.cast([2, 0, 1], dt)),
    "tf.math.l2_normalize": lambda f, dt: f(t(dt), axis=1), "tf.nn.l2_normalize": lambda f, dt: f(t(dt), axis=1),
    "tf.linalg.l2_normalize": lambda f, dt: f(t(dt), axis=1),
    "tf.nn.leaky_relu": lambda f, dt: f(t(dt)), "tf.nn.gelu": lambda f, dt: f(t(dt)),
    "tf.nn.silu": lambda f, dt: f(t(dt)), "tf.nn.swish": lambda f, dt: f(t(dt)),
    "tf.nn.crelu": lambda f, dt: f(t(dt)),
    "tf.nn.bias_add": lambda f, dt: f(t(dt), t(dt, (3,))),
    "tf.nn.moments": lambda f, dt: f(t(dt), axes=[1]),
    "tf.nn.softmax_cross_entropy_with_logits": lambda f, dt: f(t(dt), t(dt)),
    "tf.nn.sparse_softmax_cross_entropy_with_logits": lambda f, dt: f(tf.constant([0, 2]), t(dt)),
    "tf.nn.sigmoid_cross_entropy_with_logits": lambda f, dt: f(labels=t(dt), logits=t(dt)),
    "tf.nn.weighted_cross_entropy_with_logits": lambda f, dt: f(t(dt), t(dt), 2.0),
    "tf.nn.log_poisson_loss": lambda f, dt: f(t(dt), t(dt)),
    "tf.nn.compute_average_loss": lambda f, dt: f(t(dt, (3,))),
    "tf.nn.scale_regularization_loss": lambda f, dt: f(t(dt, ())),
    "tf.nn.embedding_lookup": lambda f, dt: f(t(dt), tf.constant([1, 0])),
    "tf.nn.batch_normalization": lambda f, dt: f(t(dt), t(dt, (3,)), t(dt, (3,)), None, None, 1e-3),
    "tf.nn.isotonic_regression": lambda f, dt: f(t(dt)),
    "tf.linalg.matmul": lambda f, dt: f(t(dt), t(dt, (3, 2))),
    "tf.linalg.matvec": lambda f, dt: f(t(dt), t(dt, (3,))),
    "tf.linalg.tensordot": lambda f, dt: f(t(dt), t(dt, (3, 2)), 1),
    "tf.linalg.einsum": lambda f, dt: f("ij,jk->ik", t(dt), t(dt, (3, 2))),
    "tf.linalg.trace": lambda f, dt: f(t(dt)), "tf.linalg.adjoint": lambda f, dt: f(t(dt)),
    "tf.linalg.matrix_transpose": lambda f, dt: f(t(dt)),
    "tf.linalg.diag_part": lambda f, dt: f(t(dt)), "tf.linalg.diag": lambda f, dt: f(t(dt)),
    "tf.linalg.band_part": lambda f, dt: f(t(dt), 0, -1),
    "tf.linalg.norm": lambda f, dt: f(t(dt)), "tf.linalg.normalize": lambda f, dt: f(t(dt)),
    "tf.linalg.global_norm": lambda f, dt: f([t(dt)]),
    "tf.linalg.tensor_diag_part": lambda f, dt: f(t(dt, (2, 2))),
    "tf.linalg.cross": lambda f, dt: f(t(dt), t(dt)),
    "tf.reshape": lambda f, dt: f(t(dt), [3, 2]), "tf.transpose": lambda f, dt: f(t(dt)),
    "tf.tile": lambda f, dt: f(t(dt), [1, 2]), "tf.pad": lambda f, dt: f(t(dt), [[0, 1], [1, 0]]),
    "tf.concat": lambda f, dt: f([t(dt), t(dt)], 0), "tf.stack": lambda f, dt: f([t(dt), t(dt)]),
    "tf.split": lambda f, dt: f(t(dt), 3, axis=1), "tf.unstack": lambda f, dt: f(t(dt)),
    "tf.gather": lambda f, dt: f(t(dt), [1, 0]), "tf.gather_nd": lambda f, dt: f(t(dt), [[1, 0]]),
    "tf.slice": lambda f, dt: f(t(dt), [0, 1], [1, 2]),
    "tf.strided_slice": lambda f, dt: f(t(dt), [0, 0], [2, 3], [1, 2]),
    "tf.squeeze": lambda f, dt: f(t(dt, (1, 3))), "tf.expand_dims": lambda f, dt: f(t(dt), 0),
    "tf.broadcast_to": lambda f, dt: f(t(dt, (1, 3)), [2, 3]), "tf.reverse": lambda f, dt: f(t(dt), [1]),
    "tf.roll": lambda f, dt: f(t(dt), 1, 1), "tf.where": lambda f, dt: f(t("bool"), t(dt), t(dt)),
    "tf.boolean_mask": lambda f, dt: f(t(dt), [True, False]),
    "tf.sort": lambda f, dt: f(t(dt)), "tf.argsort": lambda f, dt: f(t(dt)),
    "tf.unique": lambda f, dt: f(t(dt, (4,))), "tf.unique_with_counts": lambda f, dt: f(t(dt, (4,))),
    "tf.one_hot": lambda f, dt: f(tf.cast([0, 2], dt), 3),
    "tf.clip_by_value": lambda f, dt: f(t(dt), tf.cast(1, dt), tf.cast(2, dt)),
    "tf.clip_by_norm": lambda f, dt: f(t(dt), 1.0),
    "tf.clip_by_global_norm": lambda f, dt: f([t(dt)], 1.0),
    "tf.cast": lambda f, dt: f(t(dt), tf.float32), "tf.identity": lambda f, dt: f(t(dt)),
    "tf.size": lambda f, dt: f(t(dt)), "tf.shape": lambda f, dt: f(t(dt)), "tf.rank": lambda f, dt: f(t(dt)),
    "tf.zeros_like": lambda f, dt: f(t(dt)), "tf.ones_like": lambda f, dt: f(t(dt)),
    "tf.fill": lambda f, dt: f([2], tf.cast(1, dt)),
    "tf.math.cumsum": lambda f, dt: f(t(dt), axis=1), "tf.math.cumprod": lambda f, dt: f(t(dt), axis=1),
    "tf.math.cumulative_logsumexp": lambda f, dt: f(t(dt), axis=1),
    "tf.searchsorted": lambda f, dt: f(t(dt), t(dt)),
    "tf.math.segment_sum": None,   # (the generic segment probe)
}
SPECIAL = {k: v for k, v in SPECIAL.items() if v is not None}
TOP = [k for k in SPECIAL if k.count(".") == 1]


def probe(kind: str, name: str, f, dt: str):  # noqa: ANN001, ANN201
    if kind == "special":
        return SPECIAL[name](f, dt)
    if kind in ("unary", "unary_axis"):
        return f(t(dt))
    if kind == "scan":
        return f(t(dt), axis=1)
    if kind == "binary":
        return f(t(dt), t(dt))
    if kind == "ternary":
        return f(t(dt), t(dt), t(dt))
    if kind == "reduce":
        return f(t(dt), axis=1)
    if kind == "segment":
        return f(t(dt, (3, 2)), tf.constant([0, 0, 1]))
    return f(t(dt, (3, 2)), tf.constant([0, 2, 1]), 3)


def opdefs(kind: str, name: str, f, dt: str) -> dict:  # noqa: ANN001
    """The raw ops the call builds in a graph, each with its first input's OpDef allowed dtypes."""
    g = tf.Graph()
    with g.as_default():
        try:
            probe(kind, name, f, dt)
        except Exception:  # noqa: BLE001
            return {}
    out = {}
    for op in g.get_operations():
        if op.type in ("Const", "Placeholder", "Identity", "NoOp") or op.type in out:
            continue
        d = op_def_registry.get(op.type)
        allowed: list = []
        if d is not None and d.input_arg:
            a = d.input_arg[0]
            if a.type_attr:
                for at in d.attr:
                    if at.name == a.type_attr:
                        allowed = sorted(tf.dtypes.as_dtype(x).name for x in at.allowed_values.list.type)
            elif a.type:
                allowed = [tf.dtypes.as_dtype(a.type).name]
        out[op.type] = allowed
    return out


def main() -> None:
    table = {}
    names = []
    for mod in ("math", "nn", "linalg"):
        m = getattr(tf, mod)
        for n in sorted(dir(m)):
            f = getattr(m, n)
            if n.startswith("_") or not callable(f) or inspect.isclass(f) or inspect.ismodule(f):
                continue
            names.append((f"tf.{mod}.{n}", f))
    names += [(k, eval(k)) for k in TOP]  # noqa: S307 - our own names
    for full, f in names:
        if full in SKIP:
            continue
        try:
            sig = inspect.signature(f)
        except (TypeError, ValueError):
            continue
        kind = kind_of(full, sig)
        if kind is None:
            continue
        acc = []
        for dt in DTYPES:
            try:
                r = probe(kind, full, f, dt)
                tf.nest.map_structure(lambda x: x.numpy() if hasattr(x, "numpy") else x, r)
                acc.append(dt)
            except Exception:  # noqa: BLE001 - rejection is the answer
                pass
        if not acc:
            continue
        params = [[p.name, "REQ" if p.default is inspect.Parameter.empty else repr(p.default), str(p.kind)]
                  for p in sig.parameters.values()]
        table[full] = {"kind": kind, "params": params, "accepted": acc,
                       "opdef": opdefs(kind, full, f, "float32" if "float32" in acc else acc[0])}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fz54b_ops.json")
    with open(path, "w") as fh:
        json.dump(table, fh, indent=0, sort_keys=True)
    kinds: dict = {}
    for v in table.values():
        kinds[v["kind"]] = kinds.get(v["kind"], 0) + 1
    print(len(table), "functions", kinds)


if __name__ == "__main__":
    main()

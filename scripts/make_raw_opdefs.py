"""Record TF 2.21's raw-op signatures into simdist/runtime/ops/raw_opdefs.json (clause ops.raw-ops).

For every op type simdist registers that is a TF raw op, and every raw op simdist computes as a
composition (runtime/ops/raw_compositions.py NAMES) or by its successor (raw_legacy.py NAMES): the Python signature of `tf.raw_ops.X`
(its parameter names, order and defaults, and the function's own name, which TF's argument errors
quote), each parameter's OpDef argument (an input, or an attr with its type and allowed values),
which type attrs TF infers from the inputs, and the output names. Also the names of all raw ops,
so that simdist's namespace can tell "not implemented by simdist" from "not a raw op".

Run with real TensorFlow installed: `python scripts/make_raw_opdefs.py` (`--check`: exit 1 when the
file is stale; tests/ops/test_raw_opdefs.py runs that).
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "simdist" / "runtime" / "ops" / "raw_opdefs.json"


def _default(v: Any) -> Any:
    """A parameter default as JSON: {"default": value}, a DType as {"default_dtype": name}."""
    import tensorflow as tf
    if v is inspect.Parameter.empty:
        return {"required": True}
    if isinstance(v, tf.DType):
        return {"default_dtype": v.name}
    if isinstance(v, (list, tuple)):
        return {"default": [x.name if isinstance(x, tf.DType) else x for x in v]}
    if isinstance(v, bytes):
        return {"default": v.decode()}
    from tensorflow.core.framework import tensor_pb2
    if isinstance(v, tensor_pb2.TensorProto):   # (a tensor attr's default: its text format, which make_tensor parses)
        from google.protobuf import text_format
        return {"default": text_format.MessageToString(v, as_one_line=True)}
    return {"default": v}


def _attr(a: Any) -> dict[str, Any]:
    from tensorflow.python.framework import dtypes
    out: dict[str, Any] = {"type": a.type}
    if a.HasField("allowed_values"):
        lv = a.allowed_values.list
        if lv.type:
            out["allowed"] = [dtypes.as_dtype(t).name for t in lv.type]
        elif lv.s:
            out["allowed"] = [s.decode() for s in lv.s]
    if a.has_minimum:
        out["minimum"] = a.minimum
    return out


def _op_names(fn: Any) -> dict[str, str]:
    """Python parameter name -> OpDef argument name, from the generated wrapper's call
    `_apply_op_helper("Op", input=input, squeeze_dims=axis, ...)` (TF's Python API renames a few)."""
    import ast
    import textwrap
    import tensorflow as tf
    target = inspect.unwrap(fn)
    tree = ast.parse(textwrap.dedent(inspect.getsource(target)))
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "_apply_op_helper":
            for k in node.keywords:
                if k.arg and isinstance(k.value, ast.Name):
                    names[k.value.id] = k.arg
    del tf
    return names


def record(names: list[str]) -> dict[str, Any]:
    """The signatures of the raw ops `names` (those TF has), and every raw op's name."""
    import tensorflow as tf
    from tensorflow.python.framework import dtypes, op_def_registry
    every = sorted(n for n in dir(tf.raw_ops) if not n.startswith("_"))
    ops: dict[str, Any] = {}
    for name in names:
        if name not in every:
            continue
        od = op_def_registry.get(name)
        fn = getattr(tf.raw_ops, name)
        params = [p for p in inspect.signature(fn).parameters.values() if p.name != "name"]
        inputs = list(od.input_arg)
        attrs = {a.name: a for a in od.attr}
        inferred = set()
        for arg in inputs:
            for ref in (arg.type_attr, arg.number_attr, arg.type_list_attr):
                if ref:
                    inferred.add(ref)
        renamed = _op_names(fn)
        args: list[dict[str, Any]] = []
        by_name = {a.name: a for a in inputs}
        for p in params:
            entry: dict[str, Any] = {"py": p.name, **_default(p.default)}
            opname = renamed.get(p.name, p.name)
            if opname in by_name:
                arg = by_name[opname]
                entry["input"] = arg.name
                if arg.type:
                    entry["dtype"] = dtypes.as_dtype(arg.type).name
                for key in ("type_attr", "number_attr", "type_list_attr"):
                    if getattr(arg, key):
                        entry[key] = getattr(arg, key)
            else:
                entry["attr"] = opname
                if opname not in attrs:
                    raise SystemExit(f"{name}: parameter {p.name!r} is not an attr of the OpDef")
                entry.update(_attr(attrs[opname]))
            args.append(entry)
        if sorted(e.get("input", "") for e in args if "input" in e) != sorted(by_name):
            raise SystemExit(f"{name}: the signature's inputs are not the OpDef's")
        type_attrs = {a.name: _attr(a) | ({"default": dtypes.as_dtype(a.default_value.type).name}
                                          if a.HasField("default_value") and a.type == "type" else {})
                      for a in od.attr if a.name in inferred}
        ops[name] = {"function": fn.__name__, "args": args, "inferred": type_attrs,
                     "outputs": [{"name": o.name, **({"number_attr": o.number_attr} if o.number_attr else {}),
                                  **({"type_list_attr": o.type_list_attr} if o.type_list_attr else {})}
                                 for o in od.output_arg],
                     "stateful": od.is_stateful}
    return {"tensorflow": tf.__version__, "count": len(every), "names": every, "ops": ops}


def main() -> None:
    from simdist.runtime.ops import registry
    import simdist.tf  # noqa: F401 - registers every op
    from simdist.runtime.ops import raw_compositions, raw_functional, raw_legacy, raw_resource_ops
    data = record(sorted({op.name for op in registry.registered_ops()} | set(raw_compositions.NAMES)
                         | set(raw_legacy.NAMES) | set(raw_functional.NAMES) | set(raw_resource_ops.NAMES)))
    text = json.dumps(data, indent=0, sort_keys=True) + "\n"
    if "--check" in sys.argv:   # (tests/ops/test_raw_opdefs.py: exit 1 when the file is stale)
        if OUT.read_text() != text:
            print(f"{OUT} is stale: run python scripts/make_raw_opdefs.py", file=sys.stderr)
            raise SystemExit(1)
        return
    OUT.write_text(text)
    print(f"{OUT}: {len(data['ops'])} of {data['count']} raw ops", file=sys.stderr)


if __name__ == "__main__":
    main()

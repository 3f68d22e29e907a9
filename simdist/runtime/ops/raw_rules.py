"""TF's OpDef-level checks of a raw-op call, and the error class of a kernel's failure (clause ops.fuzz-raw).

A `tf.raw_ops` call reaches TF's C++ op directly: no Python wrapper checks its arguments first.
Two things decide its errors before and while the kernel runs, and they are the same for every op,
so they live here once rather than on each op:

- the OpDef's attr constraints (`check_attrs`): a type attr's value outside its allowed_values
  (an inferred one, from the inputs' dtype, or one the caller gives) and an int attr below its
  minimum, or a list attr shorter than its minimum. Eagerly TF's attr validation
  (ValidateNodeDef / AttrValueHasType) raises InvalidArgumentError ("Value for attr 'T' of bool is
  not in the list of allowed values: ...", "Value for attr 'num_split' of 0 must be at least
  minimum 1", "Length for attr 'ksize' of 2 must be at least minimum 4"); a graph build raises
  op_def_library's TypeError or ValueError instead (trace_errors marks them).
- the CPU kernels TF registers (`check_kernel`, raw_kernels.json, recorded from TF 2.21's kernel
  registry by scripts/make_raw_kernels.py): an OpDef allows dtypes and attr values no CPU kernel
  takes (MatrixSetDiagV3 of strings, GatherNd with bad_indices_policy "x"). Eagerly TF's kernel
  lookup raises NotFoundError ("Could not find device for node"); in a tf.function the graph is
  built and its run raises InvalidArgumentError ("No OpKernel was registered to support Op").
- a kernel's failure (`kernel_error`): TF's kernels fail through OpKernelContext with a Status, so
  eagerly a raw op raises an OpError, never a Python ValueError or IndexError. simdist's NumPy
  kernels assume the checks of the public function that calls them; on arguments only a raw call
  can pass, NumPy's own ValueError/IndexError/... surfaces instead. Eagerly it is TF's class,
  InvalidArgumentError (the kernel's OP_REQUIRES on its inputs), with NumPy's text. Inside a
  tf.function a ValueError stays: TF's shape function raises the trace-time ValueError for a
  shape mismatch the graph knows (DiagPart of [2,3], AddN of [2] and [3]); other classes are the
  kernel's InvalidArgumentError when the graph runs. NumPy's IndexError for more indices than a
  rank, and Python's TypeError for an array where the kernel reads a scalar (SobolSample's dim
  given [-3]), are shape errors too: ValueError inside a tf.function (a shape function's
  "Shape must be rank 0").
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import trace_errors

__all__ = ["check_attrs", "check_kernel", "kernel_error"]

_C_NAMES = {"float32": "float", "float64": "double", "float16": "half"}
_KERNEL_ERRORS = (ValueError, IndexError, KeyError, ZeroDivisionError, OverflowError, TypeError)


def _type_param(spec: dict[str, Any], attr: str) -> str:
    """The parameter op_def_library names for type attr `attr`: its first input's OpDef name (the
    attr's own name when no input carries it)."""
    return next((a["input"] for a in spec["args"] if "input" in a and a.get("type_attr") == attr), attr)


def _allowed_type(name: str, spec: dict[str, Any], attr: str, got: Any, allowed: list[str]) -> None:
    if not isinstance(got, dtypes.DType) or got.name in allowed:
        return
    c_list = ", ".join(_C_NAMES.get(n, n) for n in allowed)
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {_C_NAMES.get(got.name, got.name)} is "
                                                  f"not in the list of allowed values: {c_list} [Op:{name}]")
    raise trace_errors.static(err, TypeError, f"Value passed to parameter '{_type_param(spec, attr)}' has DataType "
                                              f"{got.name} not in list of allowed values: {', '.join(allowed)}")


def check_attrs(name: str, spec: dict[str, Any], vals: dict[str, Any]) -> None:
    """Raise TF's error for an attr value outside the OpDef's constraints (the module's docstring),
    in the OpDef's order: the given attrs, then the attrs inferred from the inputs."""
    for a in spec["args"]:
        at = a.get("attr")
        if at is None or at not in vals:
            continue
        v = vals[at]
        if a["type"] == "type" and a.get("allowed"):
            _allowed_type(name, spec, at, v, a["allowed"])
        elif a["type"] == "int" and "minimum" in a and isinstance(v, int) and v < a["minimum"]:
            raise trace_errors.attr_minimum(name, at, v, a["minimum"])
        elif a["type"].startswith("list(") and "minimum" in a and isinstance(v, (list, tuple)) and \
                len(v) < a["minimum"]:
            raise trace_errors.list_minimum(name, at, len(v), a["minimum"])
    for at, info in spec["inferred"].items():
        if info.get("type") == "type" and info.get("allowed") and at in vals:
            _allowed_type(name, spec, at, vals[at], info["allowed"])


@lru_cache(maxsize=1)
def _kernels() -> dict[str, list[dict[str, list[str]]]]:
    with open(Path(__file__).with_name("raw_kernels.json"), encoding="utf-8") as f:
        return json.load(f)["kernels"]


def _value_name(v: Any) -> Any:
    if isinstance(v, dtypes.DType):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_value_name(x) for x in v]
    return v


def _satisfies(kernel: dict[str, list[str]], vals: dict[str, Any]) -> bool:
    for attr, allowed in kernel.items():
        v = _value_name(vals.get(attr))
        if v is None:
            continue
        if not all(x in allowed for x in (v if isinstance(v, list) else [v])):
            return False
    return True


def check_kernel(name: str, vals: dict[str, Any]) -> None:
    """Raise TF's error when no CPU kernel of `name` takes the call's attrs (the module's
    docstring); an op the record does not hold passes."""
    ks = _kernels().get(name)
    if ks is None or any(_satisfies(k, vals) for k in ks):
        return
    shown = ", ".join(f"{k}={_value_name(v)}" for k, v in sorted(vals.items()) if not isinstance(v, (list, tuple)))
    if context.in_function():
        raise errors.InvalidArgumentError(None, None, f"No OpKernel was registered to support Op '{name}' used by "
                                                      f"{{{{node {name}}}}} with these attrs: [{shown}]")
    raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = {name}[{shown}]\n"
                                           f"All kernels registered for op {name}: ... [Op:{name}]")


def kernel_error(name: str, e: BaseException) -> BaseException | None:
    """The error TF's kernel raises where simdist's raised `e` (the module's docstring), or None
    when `e` stands (a TF error already, or a trace-time ValueError inside a tf.function)."""
    if isinstance(e, errors.OpError) or not isinstance(e, _KERNEL_ERRORS) or getattr(e, trace_errors.MARK, None):
        return None
    if context.in_function() and _shape_error(e):
        return None if isinstance(e, ValueError) else ValueError(str(e))
    return errors.InvalidArgumentError(None, None, f"{e} [Op:{name}]")


def _shape_error(e: BaseException) -> bool:
    """Whether NumPy's error is about the inputs' shapes (what a shape function checks): a
    ValueError (broadcasting, reshape, matmul dimensions), or indexing with more indices than
    the array's rank."""
    return isinstance(e, (ValueError, TypeError)) or \
        (isinstance(e, IndexError) and str(e).startswith("too many indices"))

"""TF 2.21's narrow dtypes on the CPU (names44, clause api.namespaces): what converts to them, Cast between them and
the other dtypes, and which ops have a CPU kernel for them.

Observed on TF 2.21 (tensorflow-cpu) and read from its kernel registry (`kernels.get_all_registered_kernels()`):
- Cast (cast_op.cc's CastFunctor table): float8_e4m3fn and float8_e5m2 from and to float16, bfloat16, float32,
  float64 and each other, and to every integer, bool, complex64 and complex128; int4 and uint4 from and to every
  standard integer and each other; each narrow dtype to itself; every other pair UnimplementedError "Cast <src> to
  <dst> is not supported" (the fnuz float8s, float4_e2m1fn, int2, uint2 cast to nothing else).
- Values: ml_dtypes' conversions (round to nearest even; an overflow is NaN for e4m3fn, inf for e5m2; integers
  wrap to 4 bits), but a float8 cast to an integer goes through int32 (int64 for a 64-bit target) the x86 way (NaN,
  inf and values out of range are INT_MIN) and then wraps: e4m3fn 448 -> int8 -64, e5m2 NaN -> uint32 2**31.
- Conversion of Python values (py_seq_tensor has no converter for them): a bool anywhere, or a float for int4 /
  uint4 / int2 / uint2, is TypeError "Cannot convert <value> to EagerTensor of dtype <name>"; otherwise the
  values are converted as int64 (all integers) or double, then Cast, whose refusal is TypeError "Error while
  casting from dtype <src> to <dst>. {{function_node ...}} Cast <src> to <dst> is not supported" (so
  `tf.constant(0, float8_e4m3fn)`, `tf.zeros([2], float8_e4m3fn)` and `tf.ones` fail, int4 zeros work). A NumPy
  array converts with NumPy's astype, to every narrow dtype.
- Ops: a CPU kernel exists for the type-polymorphic ops without a type constraint (Identity, Reshape, ExpandDims,
  Squeeze, Shape, Size, Rank, StopGradient, ...), for float8_e4m3fn and float8_e5m2 the data movement ops of
  KERNELS, for int4 and uint4 Fill, Split and SplitV, and AssignVariableOp for all but the three fnuz float8s;
  Tile has a kernel that refuses them (UnimplementedError "TileOp : The input data type is not supported").
  Another op refuses them with its OpDef's InvalidArgumentError when its attr T does not list them (AddV2, Abs,
  Sum, ...), else NotFoundError "Could not find device for node" (Equal, SelectV2, ZerosLike, Pad, Unique).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes

_FLOAT8 = ("float8_e4m3fn", "float8_e5m2")
_INT4 = ("int4", "uint4")
_WIDE_FLOATS = ("float16", "bfloat16", "float32", "float64")
_INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
# Cast's supported (source, destination) pairs with a narrow dtype on either side (observed on TF 2.21, every pair
# of the 10 narrow and 16 standard dtypes tried)
CAST_PAIRS = frozenset(
    {(d.name, d.name) for d in dtypes.NARROW}
    | {(a, b) for a in _FLOAT8 for b in _FLOAT8 + _WIDE_FLOATS + _INTEGERS + ("bool", "complex64", "complex128")}
    | {(a, b) for a in _WIDE_FLOATS for b in _FLOAT8}
    | {(a, b) for a in _INT4 for b in _INT4 + _INTEGERS}
    | {(a, b) for a in _INTEGERS for b in _INT4})

# ops whose CPU kernel takes any type (no constraint on their type attr in TF 2.21's registry; the ones simdist has)
ANY = frozenset({"Cast", "Const", "Identity", "IdentityN", "Reshape", "ExpandDims", "Squeeze", "Shape", "ShapeN",
                 "Size", "Rank", "StopGradient", "PreventGradient", "EnsureShape", "DeepCopy", "Print", "Fingerprint",
                 "ReadVariableOp", "VarHandleOp", "Placeholder", "PlaceholderWithDefault", "GuaranteeConst",
                 "DebugIdentityV2", "DestroyTemporaryVariable", "TemporaryVariable", "Tile", "TileGrad"})
# the kernels registered for some narrow dtypes (TF 2.21's registry, CPU)
_MOVEMENT = ("AssignVariableOp", "BroadcastTo", "Concat", "ConcatV2", "ConjugateTranspose", "Gather", "GatherNd",
             "GatherV2", "Pack", "ResourceStridedSliceAssign", "Slice", "Split", "SplitV", "StridedSlice",
             "StridedSliceAssign", "StridedSliceGrad", "TensorStridedSliceUpdate", "Transpose", "Unpack")
KERNELS: dict[str, frozenset] = {}
for _op in _MOVEMENT:
    KERNELS[_op] = frozenset(_FLOAT8)
for _op in ("Fill", "Split", "SplitV"):
    KERNELS[_op] = KERNELS.get(_op, frozenset()) | frozenset(_INT4)
KERNELS["AssignVariableOp"] = KERNELS["AssignVariableOp"] | {"float4_e2m1fn", "int4", "uint4", "int2", "uint2"}

_CAST_PREFIX = "{{function_node __wrapped__Cast_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def c_name(d: dtypes.DType) -> str:
    """The dtype as TF's C++ DataTypeString spells it (float, double, half, ...)."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(d.name, d.name)


def cast_supported(src: dtypes.DType, dst: dtypes.DType) -> bool:
    return (src.name, dst.name) in CAST_PAIRS


def cast_array(a: np.ndarray, dt: dtypes.DType) -> np.ndarray:
    """Cast's values for a pair with a narrow dtype on a side (CAST_PAIRS): ml_dtypes' conversion, but a float8
    to an integer through int32 (int64 for a 64-bit target) as x86 converts (NaN, infinities and values outside:
    INT_MIN), wrapped to the target."""
    if a.dtype.name in _FLOAT8 and dt.name in _INTEGERS:
        wide = np.int64 if dt.np.itemsize == 8 else np.int32
        x = a.astype(np.float64)
        lim = float(np.iinfo(wide).max) + 1.0
        with np.errstate(invalid="ignore"):
            ok = np.isfinite(x) & (x >= -lim) & (x < lim)
            out = np.where(ok, np.trunc(np.where(ok, x, 0.0)), -lim).astype(wide)
        return out.astype(dt.np)
    with np.errstate(all="ignore"):
        return np.asarray(a).astype(dt.np)


def _leaves(value: Any) -> list:
    out: list = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        else:
            out.append(v)
    return out


def python_to(value: Any, dt: dtypes.DType, convert: Any) -> np.ndarray:
    """A Python value (not NumPy) converted to narrow dtype `dt` as TF 2.21's eager conversion does (see the module
    docstring); `convert(value, dtype)` is the ordinary conversion to int64 or float64."""
    leaves = _leaves(value)
    if any(isinstance(v, (bool, np.bool_)) for v in leaves) or (
            not dt.is_floating and any(isinstance(v, (float, np.floating)) for v in leaves)):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dt.name}")
    src = dtypes.float64 if any(isinstance(v, (float, np.floating)) for v in leaves) else dtypes.int64
    arr = convert(value, src)
    if not cast_supported(src, dt):
        raise TypeError(f"Error while casting from dtype {c_name(src)} to {dt.name}. {_CAST_PREFIX}Cast "
                        f"{c_name(src)} to {dt.name} is not supported")
    return cast_array(np.asarray(arr), dt)


def cast_refused(src: dtypes.DType, dst: dtypes.DType) -> Exception:
    from simdist.runtime import errors
    return errors.UnimplementedError(None, None, f"{_CAST_PREFIX}Cast {c_name(src)} to {c_name(dst)} is not "
                                     "supported [Op:Cast] name: ")


def op_refusal(op_name: str, d: dtypes.DType, dts: Any, attrs: Any, dtype_rule: Any) -> Exception | None:
    """The error of op `op_name` given a tensor of narrow dtype `d` (TF 2.21 CPU), or None when a kernel computes:
    a kernel registered for it (ANY, KERNELS) computes; Tile's refuses; an OpDef whose attr T does not list it
    refuses with its InvalidArgumentError (the op's own dtype rule or raw_opdefs.json's list); otherwise no kernel
    is registered: NotFoundError."""
    from simdist.runtime import errors
    if op_name == "Tile" or op_name == "TileGrad":
        return None   # (the op's own check: tile_refused)
    if op_name in ANY or d.name in KERNELS.get(op_name, ()):
        return None
    from simdist.runtime.ops import args
    refused = args.quantized_refused(op_name, d)
    if refused is not None:
        return refused
    try:
        dtype_rule(dts, attrs)
    except Exception as e:  # noqa: BLE001 - the op's own refusal of the dtype is TF's
        return e
    return errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op_name}}}}} = {op_name}"
                                f"[T=DT_{d.name.upper()}] [Op:{op_name}]")


def tile_refused(d: dtypes.DType, rank: int) -> Exception:
    from simdist.runtime import errors
    return errors.UnimplementedError(None, None, "{{function_node __wrapped__Tile_device_/job:localhost/replica:0/"
                                     "task:0/device:CPU:0}} TileOp : The input data type is not supported, DataType : "
                                     f"{d.name}, Dimension : {rank} [Op:Tile]")


def check_assign(d: dtypes.DType) -> None:
    """A variable of narrow dtype `d` is made and written by AssignVariableOp, whose CPU kernel TF 2.21 registers
    for all but the fnuz float8s: for those, its InvalidArgumentError (eagerly too: the op is pinned to the handle's
    device; TF lists the two attrs in either order from run to run)."""
    if d.name not in KERNELS["AssignVariableOp"]:
        from simdist.runtime import errors
        raise errors.InvalidArgumentError(None, None, "No OpKernel was registered to support Op 'AssignVariableOp' "
                                          "used by {{node AssignVariableOp}} with these attrs: [dtype=DT_"
                                          f"{d.name.upper()}, validate_shape=false]\nRegistered devices: [CPU]\n"
                                          "\t [[AssignVariableOp]] [Op:AssignVariableOp] name: ")

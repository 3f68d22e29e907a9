"""TF's tfdbg kernels that publish nothing (raw ops only; tensorflow/core/kernels/debug_ops.h, clause ops.raw-ops):
DebugIdentity, DebugNanCount, DebugGradientIdentity, DebugNumericSummary and DebugNumericSummaryV2, as TF 2.21
computes them (observed).

DebugIdentity, DebugNanCount and DebugNumericSummary (BaseDebugOp) parse `tensor_name` first: split at ':' it must give one or two
items ("Failed to parse tensor name: \"\"" for the default empty name, or "n:0:1"), a second item an int32
("Invalid string value for output_slot: \"x\""). With gated_grpc the gate of a node without gRPC URLs is closed:
the output is an empty vector of the output's dtype. Otherwise DebugIdentity is its input and DebugNanCount the
count of NaN elements as an int64 [1] (integer types: 0; no kernel for bool, complex or string: NotFoundError).
Non-empty debug_urls would publish the tensor (files, gRPC): simdist refuses them (UnimplementedError).
DebugGradientIdentity is its input. DebugNumericSummary (real or bool inputs; float16 and bfloat16 have no kernel)
is a float64 vector: [1, size, then the counts of NaN, -inf or at most lower_bound, negative, zero, positive, +inf
or at least upper_bound (in that order of tests), then min, max, mean and variance (two passes, in double) of the
values that are neither NaN nor infinite (none: inf, -inf, NaN, NaN), the dtype's enum, the rank, the dims].

DebugNumericSummaryV2 (any real or bool T; output_dtype float32 or float64): tensor_id at most 2**24 for float32
("DebugNumericSummaryV2Op requires tensor_id to be less than or equal to (2^24). Given tensor_id:16777217");
modes 2 (CURT_HEALTH: [id, any ±inf or NaN]), 3 (CONCISE_HEALTH: [id, size, -inf count, +inf count, NaN
count]), 4 (FULL_HEALTH: [id, -1, dtype enum, rank, size, -inf, +inf, NaN, negative, zero, positive counts]),
5 (SHAPE: [id, dtype enum, rank, size, the last six dims left-aligned, zero-padded]) and 8
(REDUCE_INF_NAN_THREE_SLOTS: [-inf if any, +inf if any, NaN if any], else 0); other modes "Unimplemented tensor
debug mode: 1" (UnimplementedError). TF registers no gradient for DebugIdentity, DebugNanCount or
DebugNumericSummaryV2 (LookupError under a tape); DebugGradientIdentity's (debug_gradients.py) needs a
GradientsDebugger's op name, so a tape through it is AttributeError."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, lanes, register

__all__ = ["DEBUG_IDENTITY", "DEBUG_NAN_COUNT", "DEBUG_GRADIENT_IDENTITY", "DEBUG_NUMERIC_SUMMARY",
           "DEBUG_NUMERIC_SUMMARY_V2"]

_INT32_MAX = 2**31 - 1


def _bad(op: str, text: str, cls: type = errors.InvalidArgumentError) -> Exception:
    return cls(None, None, f"{{{{function_node __wrapped__{op}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}}"
                           f" {text} [Op:{op}]")


def _parse_tensor_name(op: str, name: str) -> None:
    """BaseDebugOp's constructor: str_util::Split(name, ':') of one or two items, the second a safe_strto32."""
    items = name.split(":") if name else []
    if len(items) not in (1, 2):
        raise _bad(op, f'Failed to parse tensor name: "{name}"')
    if len(items) == 2:
        slot = items[1].strip()
        ok = bool(slot) and (slot.lstrip("+-").isdigit() and slot.lstrip("+-") == slot.lstrip("+-").strip())
        if not ok or not -2**31 <= int(slot) <= _INT32_MAX:
            raise _bad(op, f'Invalid string value for output_slot: "{items[1]}"')


def _debug_common(op: str, tensor_name: str, debug_urls: Any) -> None:
    _parse_tensor_name(op, tensor_name)
    if debug_urls:
        raise _bad(op, f"simdist does not publish debug tensors (debug_urls {list(debug_urls)!r})",
                   errors.UnimplementedError)


def _debug_identity(input: np.ndarray, device_name: str = "", tensor_name: str = "",  # noqa: A002
                    debug_urls: Any = (), gated_grpc: bool = False) -> np.ndarray:
    _debug_common("DebugIdentity", tensor_name, debug_urls)
    if gated_grpc:
        return np.zeros((0,), dtype=input.dtype)
    return input


def _debug_nan_count(input: np.ndarray, device_name: str = "", tensor_name: str = "",  # noqa: A002
                     debug_urls: Any = (), gated_grpc: bool = False) -> np.ndarray:
    _debug_common("DebugNanCount", tensor_name, debug_urls)
    if gated_grpc:
        return np.zeros((0,), dtype=np.int64)
    count = int(np.isnan(input.astype(np.float64)).sum()) if input.dtype.kind == "f" or input.dtype.name == \
        "bfloat16" else 0
    return np.array([count], np.int64)


def _debug_gradient_identity(input: np.ndarray) -> np.ndarray:  # noqa: A002
    return input


def _debug_numeric_summary(input: np.ndarray, device_name: str = "", tensor_name: str = "",  # noqa: A002
                           debug_urls: Any = (), lower_bound: float = float("-inf"), upper_bound: float = float("inf"),
                           mute_if_healthy: bool = False, gated_grpc: bool = False) -> np.ndarray:
    """DebugNumericSummaryOp::Compute (V1): [1 (initialized), size, NaN, -inf (or <= lower_bound), negative, zero,
    positive, +inf (or >= upper_bound) counts, min, max, mean, variance of the finite values (strict comparisons
    in order: -0.0 first stays), the dtype's enum, rank, dims]; mute_if_healthy only mutes publishing."""
    _debug_common("DebugNumericSummary", tensor_name, debug_urls)
    if gated_grpc:
        return np.zeros((0,), np.float64)
    x = [float(v) for v in input.reshape(-1).astype(np.float64)]
    nan = neg_inf = neg = zero = pos = pos_inf = 0
    lo, hi, total, finite = float("inf"), float("-inf"), 0.0, []
    for v in x:
        if v != v:
            nan += 1
            continue
        if v == float("-inf") or v <= lower_bound:
            neg_inf += 1
        elif v == float("inf") or v >= upper_bound:
            pos_inf += 1
        elif v < 0:
            neg += 1
        elif v > 0:
            pos += 1
        else:
            zero += 1
        if v in (float("inf"), float("-inf")):
            continue
        if v < lo:
            lo = v
        if v > hi:
            hi = v
        total += v
        finite.append(v)
    mean = variance = float("nan")
    if finite:
        mean = total / len(finite)
        variance = 0.0
        for v in finite:
            variance += (v - mean) * (v - mean)
        variance /= len(finite)
    enum = dtypes.as_dtype(input.dtype).as_datatype_enum
    return np.array([1.0, len(x), nan, neg_inf, neg, zero, pos, pos_inf, lo, hi, mean, variance, enum, input.ndim]
                    + list(input.shape), np.float64)


_MODES = {2: "CURT_HEALTH", 3: "CONCISE_HEALTH", 4: "FULL_HEALTH", 5: "SHAPE", 8: "REDUCE_INF_NAN_THREE_SLOTS"}


def _summary_v2(input: np.ndarray, output_dtype: str = "float32", tensor_debug_mode: int = -1,  # noqa: A002
                tensor_id: int = -1) -> np.ndarray:
    """DebugNumericSummaryV2Op::Compute."""
    op = "DebugNumericSummaryV2"
    out_dt = np.dtype(dtypes.as_dtype(output_dtype).np)
    if out_dt == np.float32 and tensor_id > 2**24:
        raise _bad(op, "DebugNumericSummaryV2Op requires tensor_id to be less than or equal to (2^24). Given "
                       f"tensor_id:{tensor_id}")
    if tensor_debug_mode not in _MODES:
        raise _bad(op, f"Unimplemented tensor debug mode: {tensor_debug_mode}", errors.UnimplementedError)
    x = input.astype(np.float64).reshape(-1) if input.dtype != np.bool_ else input.astype(np.float64).reshape(-1)
    neg_inf, pos_inf = int(np.isneginf(x).sum()), int(np.isposinf(x).sum())
    nan = int(np.isnan(x).sum())
    enum = dtypes.as_dtype(input.dtype).as_datatype_enum
    tid = float(tensor_id)
    if tensor_debug_mode == 2:
        vals = [tid, 1.0 if neg_inf + pos_inf + nan else 0.0]
    elif tensor_debug_mode == 3:
        vals = [tid, float(x.size), neg_inf, pos_inf, nan]
    elif tensor_debug_mode == 4:
        finite = x[np.isfinite(x)]
        vals = [tid, -1.0, enum, input.ndim, x.size, neg_inf, pos_inf, nan, int((finite < 0).sum()),
                int((finite == 0).sum()), int((finite > 0).sum())]
    elif tensor_debug_mode == 5:
        dims = list(input.shape[-6:]) if input.ndim else []
        vals = [tid, enum, input.ndim, x.size] + dims + [0] * (6 - len(dims))
    else:
        vals = [-np.inf if neg_inf else 0.0, np.inf if pos_inf else 0.0, np.nan if nan else 0.0]
    return np.array(vals, dtype=np.float64).astype(out_dt)


def _same(op: str, allowed: tuple) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        from simdist.runtime.ops.args import no_kernel
        if allowed and dts[0] not in allowed:
            raise no_kernel(op, dts[0])
        return dts[0]
    return rule


_REAL = (dtypes.float64, dtypes.float32, dtypes.bfloat16, dtypes.float16, dtypes.int32, dtypes.int8, dtypes.uint8,
         dtypes.int16, dtypes.uint16, dtypes.uint32, dtypes.int64, dtypes.uint64)


def _nan_count_rule(dts: Any, attrs: Any) -> dtypes.DType:
    _same("DebugNanCount", _REAL)(dts, attrs)
    return dtypes.int64


def _summary_v1_rule(dts: Any, attrs: Any) -> dtypes.DType:
    from simdist.runtime.ops.args import no_kernel
    if dts[0] not in (dtypes.float64, dtypes.float32, dtypes.int32, dtypes.int8, dtypes.uint8, dtypes.int16,
                      dtypes.uint16, dtypes.uint32, dtypes.int64, dtypes.uint64, dtypes.bool_):
        raise no_kernel("DebugNumericSummary", dts[0])
    return dtypes.float64


def _summary_rule(dts: Any, attrs: Any) -> dtypes.DType:
    from simdist.runtime.ops.args import no_kernel
    from simdist.runtime.ops.nn_rules import attr_error
    out = dtypes.as_dtype(attrs.get("output_dtype", "float32"))
    if out not in (dtypes.float32, dtypes.float64):
        raise attr_error("DebugNumericSummaryV2", out, "float, double", attr="output_dtype")
    if dts[0] not in _REAL + (dtypes.bool_,):
        raise no_kernel("DebugNumericSummaryV2", dts[0])
    return out


_WHY = lanes("a debugging kernel of one tensor: no stacked form written")
DEBUG_IDENTITY = register("DebugIdentity", _debug_identity, _same("DebugIdentity", ()), lambda a, o, at: 0.0,
                          kind="shape", fusion=_WHY)
DEBUG_NAN_COUNT = register("DebugNanCount", _debug_nan_count, _nan_count_rule, lambda a, o, at: float(a[0].size),
                           kind="reduction", fusion=_WHY)
DEBUG_GRADIENT_IDENTITY = register("DebugGradientIdentity", _debug_gradient_identity, _same("DebugGradientIdentity", ()),
                                   lambda a, o, at: 0.0, kind="shape", fusion=_WHY)
DEBUG_NUMERIC_SUMMARY = register("DebugNumericSummary", _debug_numeric_summary, _summary_v1_rule,
                                 lambda a, o, at: float(a[0].size), kind="reduction", fusion=_WHY)
DEBUG_NUMERIC_SUMMARY_V2 = register("DebugNumericSummaryV2", _summary_v2, _summary_rule,
                                    lambda a, o, at: float(a[0].size), kind="reduction", fusion=_WHY)
for _op in ("DebugIdentity", "DebugNanCount", "DebugNumericSummary", "DebugNumericSummaryV2"):
    no_tf_gradient(_op)


@RegisterGradient("DebugGradientIdentity")
def _debug_gradient_identity_grad(op: Any, *grads: Any) -> Any:
    """debug_gradients' _identify_gradient_grad reads the op's name to find its GradientsDebugger, which a tape's
    op (TF's _MockOp) has not: AttributeError (observed on TF 2.21; in a tf.function TF's name check is an
    AssertionError instead, not modelled)."""
    raise AttributeError("'_MockOp' object has no attribute 'name'")


def _declare() -> None:
    from simdist.runtime.ops import registry
    from simdist.runtime.ops.raw_args import RawArgs
    registry.set_raw_args("DebugNumericSummaryV2", RawArgs(attrs={
        "output_dtype": lambda a: dtypes.as_dtype(a["output_dtype"]).name,
        "tensor_debug_mode": "tensor_debug_mode", "tensor_id": "tensor_id"}))


_declare()

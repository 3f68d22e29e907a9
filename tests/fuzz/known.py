"""Disagreement classes the fuzzer has found and that are still open, keyed by
(where, op, kind): kind is "error-class" (both raise, different classes), "accepts" (simdist
returns, TF raises), "rejects" (simdist raises, TF returns) or "value" (dtype, shape or values).
A disagreement of a class listed here is counted, not failed; any other fails the fuzz tests.
Each entry says what TF does and what simdist does, from the fuzzer's minimized programs.
"""

from __future__ import annotations

from typing import Any


_LITERAL_TO_BOOL = ("a Python int or float converted for a bool operand: TF raises TypeError (\"Cannot convert 2 "
                    "to EagerTensor of dtype bool\"); simdist converts it to int32/float32 and the op raises "
                    "InvalidArgumentError; `bool_tensor | 1e30` is AttributeError in TF, TypeError in simdist")
_BOOL_TO_NUMBER = ("a Python bool converted for a numeric operand (x / True, x % True, x ^ True, bitwise_xor(x, True)): "
                   "TF raises TypeError; simdist converts True to 1 and computes")
KNOWN_OPEN: dict[tuple[str, str], str] = {
    **{(op, "error-class"): _LITERAL_TO_BOOL for op in (
        "math.logical_and", "math.logical_or", "math.logical_xor", "operator&", "operator|", "operator^")},
    **{(op, "accepts"): _BOOL_TO_NUMBER for op in (
        "operator&", "operator|", "operator^", "operator*", "operator+", "operator-", "operator/", "operator//",
        "operator%", "operator<", "operator>=", "bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor",
        "math.truediv", "math.divide", "math.floormod", "math.floordiv", "math.add", "math.subtract",
        "math.multiply", "math.maximum", "math.minimum", "math.less", "math.less_equal", "math.greater",
        "math.greater_equal", "math.squared_difference", "math.equal", "math.not_equal", "where")},
    ("operator*", "rejects"): "bool_tensor * 2: TF converts 2 to a bool and multiplies; simdist raises TypeError",
    ("operator**", "accepts"): "uint8 ** uint8 (Pow has no uint8 kernel): TF raises InvalidArgumentError; simdist computes",
    ("nn.softmax", "value"): "rows holding NaN or inf: oneDNN's softmax (documented deviation, docs/spec.md)",
    ("nn.log_softmax", "value"): "rows holding NaN or inf: oneDNN's softmax (documented deviation, docs/spec.md)",
    ("nn.relu", "value"): "relu(-0.0): TF keeps -0.0 (Eigen max(x, 0) returns its first operand on ties); simdist 0.0",
    ("reduce_max", "value"): "seed=5 index=82: float16 reduce_max over a column holding -0.0 and 0.0: TF 0.0, "
                             "simdist -0.0 (which signed zero a vectorized max keeps)",
    ("reduce_min", "value"): "as reduce_max, for signed zeros",
    ("math.unsorted_segment_sqrt_n", "error-class"): "seed=5 index=100: TF InvalidArgumentError, simdist TypeError "
                                                     "(not minimized)",
    ("math.unsorted_segment_max", "value"): "seed=5 index=128: float16 segment holding -inf: TF -inf, simdist the "
                                            "lowest finite value -65504 (the fold's start for unsorted segments)",
    ("nn.relu6", "value"): "relu6(-0.0): TF keeps -0.0 (Eigen max(x, 0) returns its first operand on ties); simdist 0.0",
    ("sort", "value"): "int64 rows holding INT64_MIN or INT64_MAX: TF orders them right ([7, MAX, MAX] ascending, "
                       "MIN last descending); simdist's key for the int64 extremes wraps (seed=5 index=16, seed=3 index=216)",
    ("argsort", "value"): "int64 argsort with INT64_MIN (as sort)",
    ("reverse", "rejects"): "reverse(x, []): TF converts [] with ReverseV2's default Tidx int32 and returns x; "
                            "simdist converts [] to float32 and raises InvalidArgumentError",
    ("slice", "accepts"): "slice(scalar, [], []): TF converts [] to float32 and refuses (attr Index); simdist returns x",
    ("reshape", "rejects"): "reshape of a 0-element tensor to [0, 1, -1]: TF infers -1 as 1; simdist raises",
    ("strategy.sum", "accepts"): "strategy.reduce('SUM', bool per-replica value, axis=None): TF raises "
                                 "InvalidArgumentError; simdist returns a bool tensor",
    ("strategy.mean", "accepts"): "strategy.reduce('MEAN', bool per-replica value): as strategy.sum",
    ("math.erf", "value"): "seed=20261129 index=8 (dist): TF gives NaN for one element of erf inside "
                           "MirroredStrategy.run where simdist gives 1.0; not reproduced eagerly; not yet explained",
}


def kind_of(got: Any, want: Any) -> str:
    g_err = isinstance(got, tuple) and got[:1] == ("err",)
    w_err = isinstance(want, tuple) and want[:1] == ("err",)
    if g_err and w_err:
        return "error-class"
    if w_err:
        return "accepts"
    if g_err:
        return "rejects"
    return "value"


def key_of(prog: Any, where: tuple[str, Any, Any]) -> tuple[str, str]:
    loc, got, want = where
    if loc.startswith("step ") or ", step " in loc:
        return (prog.steps[int(loc.rsplit(" ", 1)[1])][0], kind_of(got, want))
    return (loc.split(" of ")[0].split(",")[0], kind_of(got, want))


def _literals(prog: Any, where: tuple[str, Any, Any]) -> list[Any]:
    loc = where[0]
    if not (loc.startswith("step ") or ", step " in loc):
        return []
    step = prog.steps[int(loc.rsplit(" ", 1)[1])]
    return [a[1] for a in list(step[1]) + list(step[2].values()) if a[0] == "l"]


# classes that hold only when the disagreeing call has such a literal argument
_NEEDS = {_LITERAL_TO_BOOL: lambda lits: any(not isinstance(v, bool) and isinstance(v, (int, float)) for v in lits),
          _BOOL_TO_NUMBER: lambda lits: any(isinstance(v, bool) for v in lits)}


def open_class(prog: Any, where: tuple[str, Any, Any]) -> tuple[str, str] | None:
    """The key of the open class this disagreement belongs to, or None (a new disagreement)."""
    key = key_of(prog, where)
    if key not in KNOWN_OPEN:
        return None
    need = _NEEDS.get(KNOWN_OPEN[key])
    return key if need is None or need(_literals(prog, where)) else None

"""`tf.strings.to_hash_bucket_fast`, `to_hash_bucket` and `to_hash_bucket_strong` (TF's
StringToHashBucketFast, StringToHashBucket and StringToHashBucketStrong ops,
string_to_hash_bucket_op.cc): each string's hash modulo `num_buckets`, int64, the input's shape.
The hash: FarmHash's Fingerprint64 (fingerprint.py) for _fast, tsl::Hash64 (tsl_hash.py; the
deprecated op TF 2.21 still exports as tf.strings.to_hash_bucket) for the plain one, SipHash-2-4
keyed by `key` (a list of two ints; another length is InvalidArgumentError "Key must have 2
elements", not a list TypeError) for _strong. `num_buckets` is made an int as TF's wrappers make
an int attr (1.5 is 1; a str TypeError; beyond int64 it reaches the attr check as -1); below 1
is TF's attr check (InvalidArgumentError "Value for attr 'num_buckets' of 0 must be at least
minimum 1"); a non-string input is converted to a string tensor first (a list of numbers:
TypeError "Cannot convert ... to EagerTensor of dtype string"). Not differentiable (clause
ops.string-hash-bucket)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops import args, attr_rules, dispatch
from simdist.runtime.ops.fingerprint import farmhash64
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.ops.tsl_hash import hash64, siphash24
from simdist.runtime.tensor import Tensor

__all__ = ["to_hash_bucket_fast", "to_hash_bucket", "to_hash_bucket_strong"]


def _buckets(x: np.ndarray, hash_fn: Any, num_buckets: int) -> np.ndarray:
    flat = x.reshape(-1)
    out = np.empty(flat.shape, np.int64)
    for i, v in enumerate(flat):
        out[i] = hash_fn(as_bytes(v)) % num_buckets
    return out.reshape(x.shape)


def _int64_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        want_string(op, dts, 0, "string_tensor" if op == "StringToHashBucket" else "input")
        return dtypes.int64
    return rule


_PER_STRING = lanes("hashes each string in Python: no stacked form written")
HASH_BUCKET_FAST = register("StringToHashBucketFast", lambda x, num_buckets=1: _buckets(x, farmhash64, num_buckets),
                            _int64_rule("StringToHashBucketFast"), kind="elementwise", fusion=_PER_STRING,
                            **STRING_COST)
HASH_BUCKET = register("StringToHashBucket", lambda x, num_buckets=1: _buckets(x, hash64, num_buckets),
                       _int64_rule("StringToHashBucket"), kind="elementwise", fusion=_PER_STRING, **STRING_COST)
def _strong(x: np.ndarray, num_buckets: int = 1, key: Any = (0, 0)) -> np.ndarray:
    """StringToHashBucketStrongOp: its constructor refuses a key of other than two elements ("Key must have 2
    elements"; a raw call read past a shorter key or ignored the rest: fz35a, function seed 3520261210 #35),
    then SipHash-2-4 under the key, modulo num_buckets."""
    if len(key) != 2:
        raise errors.InvalidArgumentError(None, None, "Key must have 2 elements [Op:StringToHashBucketStrong]")
    return _buckets(x, lambda s: siphash24(key[0], key[1], s), num_buckets)


HASH_BUCKET_STRONG = register(
    "StringToHashBucketStrong", _strong,
    _int64_rule("StringToHashBucketStrong"), kind="elementwise", fusion=_PER_STRING, **STRING_COST)
NotDifferentiable("StringToHashBucketFast")
NotDifferentiable("StringToHashBucket")
NotDifferentiable("StringToHashBucketStrong")


def _num_buckets(op: str, num_buckets: Any, x: Tensor | None = None, arg: str = "input") -> int:
    """num_buckets through make_int and the op def's minimum 1. Inside a tf.function op_def_library
    checks the input `x` (`arg`) is a string tensor first, TypeError, then the minimum, ValueError
    "Attr 'num_buckets' of 'StringToHashBucketFast' Op passed 0 less than minimum 1." at trace
    (fz30b, fz14 seed 1420261202 #832), and a value outside int64 is ValueError "Value out of range: <n>" there;
    eagerly the kernel's InvalidArgumentError."""
    n = given = attr_rules.make_int(num_buckets, "num_buckets")
    if not -2 ** 63 <= n < 2 ** 63:
        n = -1          # (the C attr conversion's failure value)
    if context.in_function() and x is not None:
        want_string(op, (x.dtype,), 0, arg)
        if n != given:   # (op_def_library's AttrValue.i = value: protobuf's refusal, before the minimum)
            raise ValueError(f"Value out of range: {given}")
        if n < 1:
            raise ValueError(f"Attr 'num_buckets' of '{op}' Op passed {n} less than minimum 1.")
    if n < 1:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'num_buckets' of {n} must be at least minimum 1"
                                          f"\n\t; NodeDef: {{{{node {op}}}}}; [Op:{op}]")
    return n


def _fallback_input(x: Any, num_buckets: Any, refused: bool = False) -> None:
    """Eagerly a num_buckets that is no Python int (a tensor, a NumPy integer), or another attr the fast path
    refuses (`refused`: a float in StringToHashBucketStrong's list(int) key, fz49, fz14 seed 1420483003 #106), sends
    the call to the op's eager fallback, whose convert_to_tensor(input, string) refuses a tensor of another dtype
    (ValueError), where the fast path leaves it to the kernel (InvalidArgumentError); fz14 seed
    1420261219 #111 (attr_rules.fallback_conversion), a Variable too (its conversion's ValueError;
    fz26b, fz14 seed 1420262601 #34)."""
    from simdist.runtime import context
    refused = refused or not isinstance(num_buckets, int)
    if not context.in_function() and not isinstance(num_buckets, int):
        # (the fallback's make_int of num_buckets comes before its conversion of the input: an int16 array
        # num_buckets is TypeError "Expected int for argument 'num_buckets' not array([1, 2], dtype=int16)." beside
        # a float tensor input; fz43's own generator, seed 43001, observed on TF 2.21)
        attr_rules.make_int(num_buckets, "num_buckets")
    if not context.in_function() and (isinstance(x, Tensor) or hasattr(x, "_as_tensor")) and refused:
        attr_rules.fallback_conversion(x, dtypes.string)


def to_hash_bucket_fast(input: Any, num_buckets: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.to_hash_bucket_fast(input, num_buckets)`: Fingerprint64(s) % num_buckets, int64."""
    _fallback_input(input, num_buckets)
    x = string_tensor(input, "StringToHashBucketFast")   # (the input's conversion before the attr's minimum; fz14 seed 1420261218 #279)
    n = _num_buckets("StringToHashBucketFast", num_buckets, x)
    return dispatch.execute(HASH_BUCKET_FAST, (x,), {"num_buckets": n})


def to_hash_bucket(input: Any, num_buckets: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.to_hash_bucket(input, num_buckets)`: tsl::Hash64(s) % num_buckets, int64."""
    _fallback_input(input, num_buckets)
    x = string_tensor(input, "StringToHashBucket", "string_tensor")   # (the input's conversion before the attr's minimum; fz14 seed 1420261218 #279)
    n = _num_buckets("StringToHashBucket", num_buckets, x, "string_tensor")
    return dispatch.execute(HASH_BUCKET, (x,), {"num_buckets": n})


def to_hash_bucket_strong(input: Any, num_buckets: Any, key: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.to_hash_bucket_strong(input, num_buckets, key)`: SipHash-2-4 under `key` % num_buckets."""
    if attr_rules.check_one_input(input) and isinstance(num_buckets, int) and not context.in_function():
        attr_rules.sized_list(key)   # (the fast path's reading of a 0-d ndarray key: MemoryError)
    if not isinstance(key, (list, tuple)):
        raise TypeError(f"Expected list for 'key' argument to 'string_to_hash_bucket_strong' Op, not {key!r}.")
    words = [attr_rules.make_int(k, "key") for k in key]
    if any(not -2 ** 63 <= k < 2 ** 63 for k in words):
        raise OverflowError("int too big to convert")
    # (a float in the key: the fast path's SetOpAttrList refuses it, the fallback's make_int truncates it)
    _fallback_input(input, num_buckets, any(isinstance(k, numbers.Real) and not isinstance(k, numbers.Integral)
                                            for k in key))
    # (the input's conversion before the attr's minimum and the kernel's key check, as the other two;
    # a NumPy bool array is ValueError "Failed to convert a NumPy array"; fz23b, fz14 seed 1420262302 #85)
    x = string_tensor(input, "StringToHashBucketStrong")
    n = _num_buckets("StringToHashBucketStrong", num_buckets, x)
    if len(words) != 2:
        raise errors.InvalidArgumentError(None, None, "Key must have 2 elements [Op:StringToHashBucketStrong]")
    return dispatch.execute(HASH_BUCKET_STRONG, (x,), {"num_buckets": n, "key": tuple(words)})

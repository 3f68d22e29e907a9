"""TF's SparseCrossHashed (a raw op only; tensorflow/core/kernels/sparse_cross_op.cc SparseCrossHashedOp, clause
ops.raw-ops): the crosses of SparseCrossV2 (sparse_cross.py: ValidateInput without type checks, the features per
batch row, every combination with the last input varying fastest), each hashed by HashCrosserV2 over keyed columns.

A feature's hash (KeyedSparseTensorColumn / KeyedDenseTensorColumn): with strong_hash, SipHash-2-4 keyed by `salt`
(two int64s: "Input \"salt\" must have length 2 but has length 3") of a string's bytes, or of an int64's first four
bytes (the kernel hashes sizeof(DataType) bytes of it); without, a string's Fingerprint64, a sparse int64's
Fingerprint64 of its first four bytes, a dense int64 itself. The cross's hash starts from the first feature's (no
hash key) and takes each next one in by FingerprintCat64; then modulo num_buckets when positive, else modulo
int64's max. num_buckets and strong_hash are scalars (another shape: TF 2.21 aborts in a CHECK; simdist raises
InvalidArgumentError). Output: indices [n, 2], int64 values, dense shape [batch, largest count]. TF registers no
gradient (int64 outputs)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.sparse_core import invalid
from simdist.runtime.ops.tsl_hash import siphash24

__all__ = ["SPARSE_CROSS_HASHED_V2"]

_OP = "SparseCrossHashed"
_M64 = (1 << 64) - 1


def _feature_hash(v: Any, dense: bool, strong: bool, key: tuple[int, int]) -> int:
    """KeyedSparseTensorColumn / KeyedDenseTensorColumn<int64>::Feature, as an unsigned 64-bit int."""
    from simdist.runtime.ops.fingerprint import farmhash64
    if isinstance(v, (bytes, str)):
        raw = v if isinstance(v, bytes) else v.encode()
        return siphash24(key[0], key[1], raw) if strong else farmhash64(raw)
    low4 = (int(v) & _M64).to_bytes(8, "little")[:4]
    if strong:
        return siphash24(key[0], key[1], low4)
    return int(v) & _M64 if dense else farmhash64(low4)


def _scalar(a: np.ndarray, what: str) -> Any:
    if a.size != 1:   # (TF 2.21 reads a one-element tensor of any rank; another size aborts it in a CHECK)
        raise invalid(f"{what} must be a scalar, got shape [{','.join(str(d) for d in a.shape)}]", _OP)
    return a.reshape(-1)[0].item()


def _cross_hashed(*arrays: np.ndarray, n_sparse: int, n_dense: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SparseCrossHashedOp::Compute."""
    from simdist.runtime.ops import sparse_cross as sc
    n_in = 3 * n_sparse + n_dense
    feats = sc.features(arrays[:n_in], n_sparse, n_dense, _OP, lambda v: v)
    num_buckets = int(_scalar(arrays[n_in], "num_buckets"))
    strong = bool(_scalar(arrays[n_in + 1], "strong_hash"))
    salt = arrays[n_in + 2].reshape(-1)
    if salt.size != 2:
        raise invalid(f'Input "salt" must have length 2 but has length {salt.size}', _OP)
    key = (int(salt[0]) & _M64, int(salt[1]) & _M64)
    if strong and any(a.dtype == np.int64 for a in arrays[3 * n_sparse:n_in]) and all(
            len(r) for col in feats for r in col[:1]):
        # (TF 2.21's process dies of a segmentation fault hashing a dense int64 input strongly, eagerly and in a
        # tf.function alike (observed); simdist refuses the call)
        raise invalid("strong_hash of a dense int64 input crashes TF 2.21 (segmentation fault): not computed", _OP)
    hashed = [[[_feature_hash(v, c >= n_sparse, strong, key) for v in row] for row in col]
              for c, col in enumerate(feats)]

    def combine(combo: tuple) -> int:
        h = combo[0]
        for f in combo[1:]:
            h = sc.fingerprint_cat64(h, f)
        return h % num_buckets if num_buckets > 0 else h % ((1 << 63) - 1)
    return sc.combine(hashed, combine, np.int64)


def _rule(dts: Any, attrs: Any) -> tuple:
    from simdist.runtime.ops.args import dtype_error
    n, d = attrs["n_sparse"], attrs["n_dense"]
    for i, dt in enumerate(list(dts[:n]) + list(dts[2 * n:3 * n])):
        if dt != dtypes.int64:
            raise dtype_error(_OP, i if i < n else i + n, dtypes.int64, dt)
    for what, dt in [("sparse_types", t) for t in dts[n:2 * n]] + [("dense_types", t) for t in dts[3 * n:3 * n + d]]:
        if dt not in (dtypes.string, dtypes.int64):
            raise invalid(f"Value for attr '{what}' of {dt.name} is not in the list of allowed values: int64, string",
                          _OP)
    base = 3 * n + d
    for k, want in enumerate((dtypes.int64, dtypes.bool_, dtypes.int64)):
        if dts[base + k] != want:
            raise dtype_error(_OP, base + k, want, dts[base + k])
    return (dtypes.int64, dtypes.int64, dtypes.int64)


SPARSE_CROSS_HASHED_V2 = register(_OP, _cross_hashed, _rule, lambda a, out, at: 0.0, num_outputs=3,
                                  kind="gather/scatter", fusion=lanes("its output's length depends on the values"))
no_tf_gradient(_OP)

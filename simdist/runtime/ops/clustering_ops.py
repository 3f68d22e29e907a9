"""TF's k-means helper kernels (raw ops only; tensorflow/core/kernels/clustering_ops.cc; clause ops.raw-ops):
KMC2ChainInitialization, KmeansPlusPlusInitialization and NearestNeighbors, float32 throughout as the kernels
compute.

KMC2ChainInitialization(distances, seed): distances a vector ("Input distances should be a vector."), seed a scalar
("Input seed should be a scalar."), at least one distance ("Expected distances_tensor.size() > 0."); a Markov chain
from index 0 over PhiloxRandom(seed)'s SimplePhilox: candidate i replaces the selected one when distances[i] >
RandFloat() * selected (float32); the last state, an int64 scalar.

KmeansPlusPlusInitialization(points, num_to_sample, seed, num_retries_per_sample): points a matrix, the others
scalars ("Input points should be a matrix.", "Input num_to_sample should be a scalar.", ...), then "Expected
points.rows() > 0.", "Expected num_to_sample > 0.", "Expected num_to_sample <= points.rows(). 5 vs 4."; retries
(negative: 2 + int64(log(num_to_sample))). The first point Uniform64(rows); each next one drawn from the running
half squared distances' cumulative sum (std::partial_sum, float) by upper_bound(RandFloat() * total), drawing again
while the index was taken (a total not above 0: Uniform64 instead), among 1 + retries candidates the one whose
distances' sum (Eigen's redux) is least (the first on ties). Half squared distances are (|x|^2/2 - <x, y>) + |y|^2/2
in float (Eigen's GEMV and squaredNorm: sequential sums for rows of fewer than eight coordinates; longer rows'
8-lane packet order is not modelled). The potential of the candidates is Eigen's redux (eigen_redux.redux_sum).

NearestNeighbors(points, centers, k): points and centers matrices, k a scalar ("Input points should be a matrix.",
"Input centers should be a matrix.", "Input k should be a scalar."), "Expected points.rows() > 0.", "Expected
point_dimensions == center_dimensions: 2 vs 3.", "Expected k >= 0."; k = min(k, centers): per point the k centers of
least (|c|^2/2 - <x, c>) (gtl::TopN over (value, index) pairs; k = 1: Eigen's minCoeff, the first least) and their
distances 2 * (|x|^2/2 + that), float; blocks of 1,024 centers merged as the kernel merges them. The inner products
are sequential sums: TF's equal them for points of at most three coordinates (observed); from four on, the GEBP
path a thread's shard of points takes (its row count depends on the host's threads) sums some of them in another
order, not modelled (the last bit of some distances differs). TF 2.21's kernel has no "k >= 0" check: a negative k
aborts its process (a CHECK in TensorShape); simdist raises InvalidArgumentError "Expected k >= 0.".

TF registers no gradient for any of them (LookupError)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.args import dtype_error
from simdist.runtime.ops.eigen_redux import redux_sum
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.gtl_top_n import TopN
from simdist.runtime.ops.philox import Philox
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.simple_philox import SimplePhilox

__all__ = ["KMC2_CHAIN_INITIALIZATION", "KMEANS_PLUS_PLUS_INITIALIZATION", "NEAREST_NEIGHBORS"]

_F = np.float32
_BLOCK = 1024   # kNearestNeighborsCentersMaxBlockSize


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__{op}_device_/job:localhost/replica:0/"
                                                   f"task:0/device:CPU:0}}}} {text} [Op:{op}]")


def _rng(seed: np.ndarray) -> SimplePhilox:
    """PhiloxRandom(uint64 seed): key the seed's two words, counter 0."""
    s = int(seed) & ((1 << 64) - 1)
    return SimplePhilox(Philox((s & 0xFFFFFFFF, s >> 32), 0))


def _seq_sum(terms: np.ndarray) -> np.ndarray:
    """Row sums of float32 `terms` [n, d] added left to right (Eigen's scalar path)."""
    acc = terms[:, 0].copy() if terms.shape[1] else np.zeros(terms.shape[0], _F)
    for j in range(1, terms.shape[1]):
        acc = acc + terms[:, j]
    return acc


def _half_norms(x: np.ndarray) -> np.ndarray:
    """0.5 * rowwise().squaredNorm()."""
    return (_seq_sum(x * x) * _F(0.5)).astype(_F)


# --- KMC2ChainInitialization ---------------------------------------------------------------------------------------

def _kmc2(distances: np.ndarray, seed: np.ndarray) -> np.ndarray:
    op = "KMC2ChainInitialization"
    if distances.ndim != 1:
        raise _bad(op, "Input distances should be a vector.")
    if seed.ndim != 0:
        raise _bad(op, "Input seed should be a scalar.")
    if distances.shape[0] == 0:
        raise _bad(op, "Expected distances_tensor.size() > 0.")
    rng = _rng(seed)
    d = distances.astype(_F)
    selected, sel_d = 0, d[0]
    for i in range(1, d.shape[0]):
        if d[i] > _F(rng.rand_float() * sel_d):
            selected, sel_d = i, d[i]
    return np.array(selected, np.int64)


# --- KmeansPlusPlusInitialization ----------------------------------------------------------------------------------

def _kmeanspp(points: np.ndarray, num_to_sample: np.ndarray, seed: np.ndarray,
              num_retries_per_sample: np.ndarray) -> np.ndarray:
    op = "KmeansPlusPlusInitialization"
    for arr, text in ((points.ndim != 2, "Input points should be a matrix."),
                      (num_to_sample.ndim != 0, "Input num_to_sample should be a scalar."),
                      (seed.ndim != 0, "Input seed should be a scalar."),
                      (num_retries_per_sample.ndim != 0, "Input num_retries_per_sample should be a scalar.")):
        if arr:
            raise _bad(op, text)
    n = points.shape[0]
    m = int(num_to_sample)
    r = int(num_retries_per_sample)
    retries = r if r >= 0 else (2 + int(math.log(m)) if m > 0 else 0)
    if n <= 0:
        raise _bad(op, "Expected points.rows() > 0.")
    if m <= 0:
        raise _bad(op, "Expected num_to_sample > 0.")
    if m > n:
        raise _bad(op, f"Expected num_to_sample <= points.rows(). {m} vs {n}.")
    x = points.astype(_F)
    half = _half_norms(x)
    rng = _rng(seed)
    taken: set[int] = set()
    out = np.empty((m, x.shape[1]), _F)
    min_d = np.full(n, np.inf, _F)
    cumsum = np.zeros(n, _F)

    def draw() -> int:
        if not taken:
            return rng.uniform(n, bits=64)
        while True:
            total = cumsum[n - 1]
            if not total > 0:
                index = rng.uniform(n, bits=64)
            else:
                index = min(int(np.searchsorted(cumsum, _F(rng.rand_float() * total), side="right")), n - 1)
            if index not in taken:
                return index

    def distances_to(i: int) -> np.ndarray:
        dots = _seq_sum(x * x[i])
        return ((half - dots).astype(_F) + half[i]).astype(_F)

    for i in range(m):
        if i > 0:
            cumsum = np.cumsum(min_d, dtype=_F)   # (std::partial_sum: sequential float sums)
        if retries == 0:
            nxt = draw()
            min_d = np.minimum(min_d, distances_to(nxt))
        else:
            best, best_d, best_pot = 0, None, _F(np.inf)
            for _ in range(1 + retries):
                cand = draw()
                new = np.minimum(min_d, distances_to(cand))
                pot = np.float32(redux_sum(new))
                if pot < best_pot:
                    best, best_d, best_pot = cand, new, pot
            nxt = best
            min_d = best_d if best_d is not None else np.empty(n, _F)
        nxt = min(nxt, n - 1)
        out[i] = x[nxt]
        taken.add(nxt)
    return out


# --- NearestNeighbors ----------------------------------------------------------------------------------------------

def _pair_less(vals: np.ndarray) -> Any:
    """std::less on pair<float, int64> (value, index): C's float comparisons, NaN never less."""
    def less(a: int, b: int) -> bool:
        va, vb = vals[a], vals[b]
        return bool(va < vb) or (not bool(vb < va) and a < b)
    return less


def _one_block(k: int, x: np.ndarray, xhalf: np.ndarray, c: np.ndarray, chalf: np.ndarray) -> tuple:
    """FindKNearestCentersOneBlock: indices [n, k] within the block and distances [n, k]."""
    n = x.shape[0]
    idx = np.zeros((n, k), np.int64)
    dist = np.zeros((n, k), _F)
    inner = np.stack([_seq_sum(x * c[j]) for j in range(c.shape[0])], axis=1) if c.shape[0] else np.zeros((n, 0), _F)
    for i in range(n):
        partial = (chalf - inner[i]).astype(_F)
        if k == 1:
            j = 0
            for t in range(1, partial.shape[0]):   # (minCoeff: the first least; a NaN first stays)
                if partial[t] < partial[j]:
                    j = t
            idx[i, 0], dist[i, 0] = j, _F(2.0) * _F(xhalf[i] + partial[j])
        else:
            top = TopN(k, _pair_less(partial))
            for j in range(partial.shape[0]):
                top.push(j)
            for col, j in enumerate(top.extract()[:k]):
                idx[i, col], dist[i, col] = j, _F(2.0) * _F(xhalf[i] + partial[j])
    return idx, dist


def _nearest(points: np.ndarray, centers: np.ndarray, k: np.ndarray) -> tuple:
    op = "NearestNeighbors"
    if points.ndim != 2:
        raise _bad(op, "Input points should be a matrix.")
    if centers.ndim != 2:
        raise _bad(op, "Input centers should be a matrix.")
    if k.ndim != 0:
        raise _bad(op, "Input k should be a scalar.")
    n, d = points.shape
    nc, cd = centers.shape
    if n <= 0:
        raise _bad(op, "Expected points.rows() > 0.")
    if d != cd:
        raise _bad(op, f"Expected point_dimensions == center_dimensions: {d} vs {cd}.")
    if int(k) < 0:
        raise _bad(op, "Expected k >= 0.")
    kk = min(nc, int(k))
    if kk == 0:
        return np.zeros((n, 0), np.int64), np.zeros((n, 0), _F)
    x, c = points.astype(_F), centers.astype(_F)
    xhalf, chalf = _half_norms(x), _half_norms(c)
    if nc <= _BLOCK:
        return _one_block(kk, x, xhalf, c, chalf)
    out_k = min(kk, _BLOCK)
    idx, dist = _one_block(out_k, x, xhalf, c[:_BLOCK], chalf[:_BLOCK])
    if out_k < kk:
        idx = np.concatenate([idx, np.zeros((n, kk - out_k), np.int64)], axis=1)
        dist = np.concatenate([dist, np.zeros((n, kk - out_k), _F)], axis=1)
    for start in range(_BLOCK, nc, _BLOCK):
        size = min(_BLOCK, nc - start)
        block_k = min(kk, size)
        bidx, bdist = _one_block(block_k, x, xhalf, c[start:start + size], chalf[start:start + size])
        if kk == 1:
            better = bdist[:, 0] < dist[:, 0]
            idx[better, 0] = bidx[better, 0] + start
            dist[better, 0] = bdist[better, 0]
            continue
        for i in range(n):   # (the kernel's merge; out_k grows inside the row loop, as written)
            mi, md = np.zeros(kk, np.int64), np.zeros(kk, _F)
            jo = jb = jm = 0
            while (jo < out_k or jb < block_k) and jm < kk:
                do = dist[i, jo] if jo < out_k else _F(np.inf)
                db = bdist[i, jb] if jb < block_k else _F(np.inf)
                if do <= db:
                    mi[jm], md[jm] = idx[i, jo], do
                    jo += 1
                else:
                    mi[jm], md[jm] = bidx[i, jb] + start, db
                    jb += 1
                jm += 1
            idx[i], dist[i] = mi, md
            out_k = min(kk, out_k + block_k)
    return idx, dist


# --- registration --------------------------------------------------------------------------------------------------

def _fixed(op: str, ins: tuple, out: Any) -> Any:
    def rule(dts: Any, attrs: Any) -> Any:
        for i, want in enumerate(ins):
            if dts[i] != want:
                raise dtype_error(op, i, want, dts[i])
        return out
    return rule


_WHY = lanes("a sequential sampling or selection kernel in Python: no stacked form")
KMC2_CHAIN_INITIALIZATION = register("KMC2ChainInitialization", _kmc2, _fixed(
    "KMC2ChainInitialization", (dtypes.float32, dtypes.int64), dtypes.int64), kind="io", fusion=_WHY)
KMEANS_PLUS_PLUS_INITIALIZATION = register("KmeansPlusPlusInitialization", _kmeanspp, _fixed(
    "KmeansPlusPlusInitialization", (dtypes.float32, dtypes.int64, dtypes.int64, dtypes.int64), dtypes.float32),
    kind="io", fusion=_WHY)
NEAREST_NEIGHBORS = register("NearestNeighbors", _nearest, _fixed(
    "NearestNeighbors", (dtypes.float32, dtypes.float32, dtypes.int64), (dtypes.int64, dtypes.float32)),
    num_outputs=2, kind="io", fusion=_WHY)
for _op in ("KMC2ChainInitialization", "KmeansPlusPlusInitialization", "NearestNeighbors"):
    no_tf_gradient(_op)

"""Eigen's sum of a dense, aligned vector (DenseBase::sum, LinearVectorizedTraversal under AVX): two packet
accumulators over pairs of packets, merged, one more whole packet, the packet's lanes reduced by predux (halves
added until two lanes are left: ((l0+l4)+(l2+l6))+((l1+l5)+(l3+l7)) for 8 lanes), then the tail in order; a vector
shorter than a packet is summed in order. Kernels whose rounding shows this order (the CTC loss's softmax
normaliser, k-means++'s potential) call `redux_sum`."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["PACKET", "predux", "redux_sum"]

PACKET = {"float32": 8, "float64": 4}   # AVX lanes of each type


def predux(p: np.ndarray) -> Any:
    """Eigen's predux of a packet: its halves added until two lanes remain, then those two."""
    h = p.size // 2
    q = p[:h] + p[h:]
    while q.size > 2:
        h = q.size // 2
        q = q[:h] + q[h:]
    return q[0] + q[1] if q.size == 2 else q[0]


def redux_sum(v: np.ndarray) -> Any:
    """DenseBase::sum of a 1-D float32 or float64 array, in Eigen's order (zero of its dtype when empty)."""
    n, p = v.size, PACKET[v.dtype.name]
    if n == 0:
        return v.dtype.type(0)
    aligned, aligned2 = (n // p) * p, (n // (2 * p)) * (2 * p)
    if not aligned:
        res = v[0]
        for i in range(1, n):
            res = res + v[i]
        return res
    r0 = v[:p].copy()
    if aligned > p:
        r1 = v[p:2 * p].copy()
        for i in range(2 * p, aligned2, 2 * p):
            r0 = r0 + v[i:i + p]
            r1 = r1 + v[i + p:i + 2 * p]
        r0 = r0 + r1
        if aligned > aligned2:
            r0 = r0 + v[aligned2:aligned2 + p]
    res = predux(r0)
    for i in range(aligned, n):
        res = res + v[i]
    return res

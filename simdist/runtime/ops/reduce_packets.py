"""Which input elements of a TF 2.21 CPU reduction Eigen reads as SIMD packets (an elementwise
expression under the reduction, such as EuclideanNorm's x * conj(x), is computed packet by packet
there and as scalars elsewhere). After ReductionHelper's collapsed shape (minmax_zeros.py
`_collapse`; P lanes a packet), as reduction_ops_common.h dispatches:

- nothing reduced (a reducer without a scalar identity: the input as a [1, n] matrix reduced over
  its rows): the outputs of whole packets in flat order, as a kept inner dimension below;
- a full reduction and the rows of [A, B] over B, or of TF's transpose to [kept, reduced] rows
  (four or more runs): InnerMostDimReducer's whole packets from each row's start, the tail of
  n % P elements scalar;
- [A, C] over A and [K, A, C] over A: the outputs of whole packets (flat order, not crossing a row
  of C) read their inputs as packets (InnerMostDimPreserver), every other output as scalars;
- [A, B, C] over A and C: GenericDimReducer, all scalar.

Full reductions TF's cost model splits over threads (sum_order.py `full_limit`) are modelled as one
block."""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.minmax_zeros import _collapse, _packet_outputs

__all__ = ["packet_inputs"]


def _row_packets(rows: int, n: int, lanes: int) -> np.ndarray:
    return np.broadcast_to(np.arange(n) < (n // lanes) * lanes, (rows, n))


def packet_inputs(shape: tuple[int, ...], axes: tuple[int, ...], lanes: int) -> np.ndarray:
    """A bool array of `shape`: True where the reduction over `axes` reads the element in a packet."""
    sizes, flags = _collapse(shape, axes)
    size = int(np.prod(shape, dtype=np.int64))
    if not any(flags):   # nothing reduced: [1, n] over its rows
        return _packet_outputs(size, size, lanes).reshape(shape)
    if flags == [True]:
        return (np.arange(size) < (size // lanes) * lanes).reshape(shape)
    if flags == [True, False, True]:
        return np.zeros(shape, bool)
    kept = [i for i, f in enumerate(flags) if not f]
    red = [i for i, f in enumerate(flags) if f]
    if len(sizes) > 3 or flags[-1]:   # rows of [kept, reduced], transposed back to the input's order
        rows = int(np.prod([sizes[i] for i in kept], dtype=np.int64))
        t = _row_packets(rows, size // rows, lanes).reshape([sizes[i] for i in kept + red])
        return np.ascontiguousarray(t.transpose(np.argsort(kept + red))).reshape(shape)
    c = sizes[-1]   # [A, C] over A or [K, A, C] over A: the kept outputs [K, C]
    k = size // (sizes[-2] * c)
    out = _packet_outputs(k * c, c, lanes).reshape(k, 1, c)
    return np.broadcast_to(out, (k, sizes[-2], c)).reshape(shape)

"""TF's CPU TopKV2 kernel, step for step, for the rows NumPy cannot order as TF does (clause ops.sort).

tensorflow/core/kernels/topk_op.cc orders a row with C++ comparisons that are false for NaN:
- k == 1: Eigen's max reduction (packets of SIMD lanes, then scalars: see `_eigen_max`),
  then the first index whose value equals it (none for NaN: index 0);
- k == n: `std::sort` of the indices with `comp(a, b) = x[b] < x[a]`, then runs of equal values
  put in index order;
- otherwise: a `gtl::TopN` heap of k with `stable_comp` (greater value first, then lower index),
  extracted sorted (`std::sort_heap`) or in heap order (`sorted=False`).
With NaN those comparators are not orders, so the result depends on the algorithm: this module
runs libstdc++'s introsort, insertion sort and heap operations as written, on Python lists.
Rows without NaN never come here (a stable argsort gives the same order, much faster), except
`sorted=False`, whose heap order this reproduces. k == 1 follows the AVX build's reduction (8
float32, float16 or bfloat16 lanes, 4 float64).
"""

from __future__ import annotations

from typing import Callable

__all__ = ["row_top_k"]

Comp = Callable[[int, int], bool]
_THRESHOLD = 16   # libstdc++'s _S_threshold


# --- libstdc++ heap operations (bits/stl_heap.h), on a list `a` of indices --------------------------
def _push_heap(a: list[int], first: int, hole: int, top: int, value: int, comp: Comp) -> None:
    parent = (hole - 1) // 2
    while hole > top and comp(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a: list[int], first: int, hole: int, length: int, value: int, comp: Comp) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if comp(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, comp)


def _make_heap(a: list[int], first: int, last: int, comp: Comp) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], comp)
        if parent == 0:
            return
        parent -= 1


def _pop_heap_to(a: list[int], first: int, last: int, result: int, comp: Comp) -> None:
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, comp)


def _pop_heap(a: list[int], first: int, last: int, comp: Comp) -> None:
    if last - first > 1:
        _pop_heap_to(a, first, last - 1, last - 1, comp)


def _sort_heap(a: list[int], first: int, last: int, comp: Comp) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap_to(a, first, last, last, comp)


# --- libstdc++ std::sort (bits/stl_algo.h: introsort, then insertion sort) ---------------------------
def _unguarded_linear_insert(a: list[int], last: int, comp: Comp, first: int) -> None:
    val = a[last]
    nxt = last - 1
    while nxt >= first and comp(val, a[nxt]):   # C++ relies on a sentinel; the bound keeps us in the row
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = val


def _insertion_sort(a: list[int], first: int, last: int, comp: Comp) -> None:
    for i in range(first + 1, last):
        if comp(a[i], a[first]):
            val = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _unguarded_linear_insert(a, i, comp, first)


def _move_median_to_first(a: list[int], result: int, x: int, y: int, z: int, comp: Comp) -> None:
    if comp(a[x], a[y]):
        if comp(a[y], a[z]):
            pick = y
        elif comp(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif comp(a[x], a[z]):
        pick = x
    elif comp(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a: list[int], first: int, last: int, pivot: int, comp: Comp) -> int:
    while True:
        while first < last and comp(a[first], a[pivot]):
            first += 1
        last -= 1
        while last > pivot and comp(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _introsort_loop(a: list[int], first: int, last: int, depth: int, comp: Comp) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _make_heap(a, first, last, comp)      # __partial_sort(first, last, last): heap select + sort
            _sort_heap(a, first, last, comp)
            return
        depth -= 1
        mid = first + (last - first) // 2
        _move_median_to_first(a, first, first + 1, mid, last - 1, comp)
        cut = _unguarded_partition(a, first + 1, last, first, comp)
        _introsort_loop(a, cut, last, depth, comp)
        last = cut


def _std_sort(a: list[int], comp: Comp) -> None:
    n = len(a)
    if n < 2:
        return
    _introsort_loop(a, 0, n, 2 * (n.bit_length() - 1), comp)
    if n > _THRESHOLD:
        _insertion_sort(a, 0, _THRESHOLD, comp)
        for i in range(_THRESHOLD, n):
            _unguarded_linear_insert(a, i, comp, 0)
    else:
        _insertion_sort(a, 0, n, comp)


# --- the kernel ----------------------------------------------------------------------------------------
def _mm_max(x: float, y: float) -> float:
    """x86's maxps: y when either is NaN."""
    return x if x > y else y


def _eigen_max(row: list[float], packet: int) -> float:
    """Eigen's max reduction of a row as TF's CPU build runs it: whole packets of `packet` lanes
    (8 float32 lanes: AVX) folded lane by lane with pmax (the accumulator kept when a NaN is
    involved), the rest folded as scalars (the element kept unless it is smaller), then the
    packet reduced across lanes (permute, shuffle, shuffle: predux_max) and combined. Checked
    bit for bit against TF 2.21 on 58 rows with NaN; float64 (4 lanes) and float16 (8 lanes)
    the same way (seeded rows of every length to 40, fuzzer seed 20261130 #2691)."""
    low = -3.4028234663852886e38 if packet != 4 else -1.7976931348623157e308
    n = len(row)
    whole = (n // packet) * packet if packet else 0
    lanes = [low] * packet
    for j in range(0, whole, packet or 1):   # packet=0: no whole packets (range() refuses a 0 step)
        lanes = [_mm_max(row[j + i], lanes[i]) for i in range(packet)]
    acc = low
    for j in range(whole, n):
        x = row[j]
        acc = acc if x < acc else x
    if not whole:
        return acc
    v = max(lanes)   # no lane holds a NaN (pmax keeps the accumulator): any order gives this value
    return v if acc < v else acc


def row_top_k(row: list[float], k: int, sorted_: bool, packet: int = 0) -> list[int]:
    """The indices TF's TopKV2 returns for one row (values: row[i] for each); `packet` is the
    number of SIMD lanes of the row's dtype in TF's max reduction (8 float32/float16, 4 float64)."""
    n = len(row)
    if k == 0:
        return []
    if k == 1:
        acc = _eigen_max(row, packet)
        return [next((c for c, x in enumerate(row) if x == acc), 0)]
    if k == n:
        order = list(range(n))
        _std_sort(order, lambda i, j: row[j] < row[i])
        start = 0
        while start < n - 1:                 # runs of equal values, in index order
            end = start + 1
            while end < n and row[order[start]] == row[order[end]]:
                end += 1
            if end - start > 1:
                order[start:end] = sorted(order[start:end])
            start = end
        return order

    def stable(i: int, j: int) -> bool:
        if row[j] < row[i]:
            return True
        if row[j] > row[i]:
            return False
        return i < j

    # gtl::TopN(k, stable) as TF 2.21 runs it: unordered until k + 1 elements, then make_heap and
    # pop_heap of those (the least drops out); after that an element greater than the least makes
    # pop_heap over the k, takes the freed last slot, and push_heap. (This sequence reproduces TF
    # 2.21's orders exactly on 75 rows with NaN, ties and infinities; the variant in older TF
    # sources, which pushes into a spare slot first, does not.)
    elems: list[int] = []
    heap = False
    for c in range(n):
        if not heap:
            elems.append(c)
            if len(elems) == k + 1:
                _make_heap(elems, 0, k + 1, stable)
                _pop_heap(elems, 0, k + 1, stable)
                del elems[k]
                heap = True
        elif stable(c, elems[0]):
            _pop_heap(elems, 0, k, stable)
            elems[k - 1] = c
            _push_heap(elems, 0, k - 1, 0, c, stable)
    if sorted_:
        _sort_heap(elems, 0, k, stable)
    return elems

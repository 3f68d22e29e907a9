"""TF's gtl::TopN (tensorflow/core/lib/gtl/top_n.h) as TF 2.21 runs it, over integer ids compared
by a caller's "greater" function: the order its users (the CTC beam search) see, ties included.

Unordered until limit + 1 pushes (peek_bottom moves the least to the front: BOTTOM_KNOWN, kept
by later pushes); then make_heap and pop_heap, the least dropped; after that a push greater than
the least pops it and pushes the newcomer. Extract sorts with libstdc++'s std::sort (unordered)
or sort_heap (heap), greatest first. The heap and sort steps are libstdc++'s, as topk_kernel.py
writes them (the TopKV2 kernel's TopN, checked against TF 2.21's orders with ties).
"""

from __future__ import annotations

from typing import Callable

from simdist.runtime.ops.topk_kernel import _make_heap, _pop_heap, _push_heap, _sort_heap, _std_sort

__all__ = ["TopN"]


class TopN:
    """gtl::TopN<int, cmp> with limit `limit`; cmp(a, b) is True when a ranks above b."""

    def __init__(self, limit: int, cmp: Callable[[int, int], bool]) -> None:
        self.limit, self.cmp = limit, cmp
        self.elems: list[int] = []
        self.state = "unordered"

    def size(self) -> int:
        return min(len(self.elems), self.limit)

    def push(self, v: int) -> None:
        k, cmp, e = self.limit, self.cmp, self.elems
        if k == 0:
            return
        if self.state != "heap":
            e.append(v)
            if self.state != "unordered" and not cmp(e[-1], e[0]):
                e[0], e[-1] = e[-1], e[0]        # BOTTOM_KNOWN: the least stays in front
            if len(e) == k + 1:
                _make_heap(e, 0, k + 1, cmp)
                _pop_heap(e, 0, k + 1, cmp)
                del e[k]
                self.state = "heap"
        elif cmp(v, e[0]):
            _pop_heap(e, 0, k, cmp)
            e[k - 1] = v
            _push_heap(e, 0, k - 1, 0, v, cmp)

    def peek_bottom(self) -> int:
        e = self.elems
        if self.state == "unordered":
            m = 0
            for i in range(1, len(e)):
                if self.cmp(e[m], e[i]):
                    m = i
            if m != 0:
                e[0], e[m] = e[m], e[0]
            self.state = "bottom"
        return e[0]

    def unsorted(self) -> list[int]:
        return self.elems[:self.size()]

    def extract(self) -> list[int]:
        """The elements, greatest first (destructive: reset() after)."""
        out, self.elems = self.elems, []
        if self.state != "heap":
            _std_sort(out, self.cmp)
        else:
            _sort_heap(out, 0, len(out), self.cmp)
        self.state = "unordered"
        return out

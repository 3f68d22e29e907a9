"""The max-min fair sharing solver: progressive filling, the reference for every rate the
network gives (see `network`, which drives it incrementally).

Rounds take the channel with the smallest fair share ``remaining capacity / unfrozen flows``
(ties: the lower channel number), freeze its unfrozen flows at that share, and subtract the
share from the other channels they cross. Small components scan for that channel; large ones
keep a heap of (share, channel). Both pick the same channel and do the same arithmetic in the
same order, so their rates are identical (tests/sim/test_compaction.py). Each flow gets its rate
in ``flow.new`` and the channel it was frozen at (its bottleneck) in ``flow.bn``.
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .flows import Flow

__all__ = ["fill", "SCAN_MAX"]

SCAN_MAX = 8  # components with at most this many busy channels are filled by scanning, not a heap


def fill(chans: list[int], on: list[dict[int, Flow]], cap: list[float], rem: list[float], cnt: list[int],
         rnd: int) -> None:
    """Progressive filling over the channels ``chans`` (a whole component: every flow on them
    has all its channels among them). ``on[c]`` holds the flows on channel c, ``cap[c]`` its
    capacity; ``rem``/``cnt`` are scratch lists as long as ``cap``; ``rnd`` is a mark no flow
    carries yet (flows get ``flow.mark = rnd`` when frozen)."""
    live: list[int] = []
    for c in chans:
        n = len(on[c])
        cnt[c] = n
        if n:
            rem[c] = cap[c]
            live.append(c)
    if len(live) <= SCAN_MAX:
        live.sort()   # ascending, so the first smallest share is the lowest channel
        while live:
            best = -1
            bshare = 0.0
            for c in live:
                sh = rem[c] / cnt[c]
                if best < 0 or sh < bshare:
                    best = c
                    bshare = sh
            for f in on[best].values():
                if f.mark != rnd:
                    f.mark = rnd
                    f.new = bshare
                    f.bn = best
                    for c2 in f.chans:
                        r = rem[c2] - bshare
                        cnt[c2] -= 1
                        floor = cap[c2] * 1e-12
                        rem[c2] = r if r > floor else floor
            cnt[best] = 0
            live = [c for c in live if cnt[c]]
        return
    heap = [(cap[c] / cnt[c], c) for c in live]
    heapify(heap)
    while heap:
        share, c = heappop(heap)
        n = cnt[c]
        if n == 0 or share != rem[c] / n:
            continue  # stale entry
        for f in on[c].values():
            if f.mark == rnd:
                continue
            f.mark = rnd
            f.new = share
            f.bn = c
            for c2 in f.chans:
                r = rem[c2] - share
                n = cnt[c2] - 1
                cnt[c2] = n
                floor = cap[c2] * 1e-12
                rem[c2] = r if r > floor else floor
                if n > 0 and c2 != c:
                    heappush(heap, (rem[c2] / n, c2))
        cnt[c] = 0

"""An edge module whose cases may return one string (an error's or a repr's text): that text is
compared as a string, in full (expected vs got), where edge_compare's outcome compares arrays.
Kept out of edge_compare.py so its 130-odd importers' goldens keep their stamps."""

from __future__ import annotations

from typing import Any

import edge_compare


class TextEdgeModule(edge_compare.EdgeModule):
    """EdgeModule whose `check` compares a case returning a single string as text."""

    def check(self, k: int, tf_results: dict[int, edge_compare.Outcome]) -> None:
        from simdist import tf
        want, got = tf_results[k], self.outcome(tf, k)
        if want[0] == got[0] == "ok" and [d for d, _ in want[1]] == [d for d, _ in got[1]] == ["str"]:
            w, g = str(want[1][0][1]), str(got[1][0][1])
            assert g == w, f"simdist: {g!r}, but TF 2.21: {w!r} [{self.cases[k][0]}]"
            return
        super().check(k, tf_results)

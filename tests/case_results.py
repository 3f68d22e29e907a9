"""Results of TF-shaped programs as plain data, and their comparison: the shared steps of the
differential modules that run a table of labelled cases on TF 2.21 and on simdist and compare
values, dtypes, shapes and error classes and messages (tests/keras/test_klayer3_tf.py,
tests/keras/test_textvec22_tf.py), and `Table`, the whole harness of such a module (its labels, the TF
worker, the comparison of a group of cases). Nothing here imports TensorFlow at import time."""

from __future__ import annotations

import re
import warnings
from typing import Any, Callable

import numpy as np


def encode(v: Any, auto_name: re.Pattern) -> Any:
    """A result as plain data: ("t", dtype, shape, values) for a tensor, ("rt", dtype, rows) for a
    RaggedTensor, IndexedSlices as a sequence of its parts, nested for sequences, ("py", repr) for
    other values (layer auto-names matched by `auto_name` lose their _N suffix)."""
    if isinstance(v, (list, tuple)):
        return ("seq", [encode(x, auto_name) for x in v])
    if type(v).__name__ == "IndexedSlices":
        return ("seq", [("py", "IndexedSlices"), encode(v.indices, auto_name), encode(v.values, auto_name),
                        encode(v.dense_shape, auto_name)])
    if type(v).__name__ == "RaggedTensor":
        return ("rt", v.dtype.name, repr(v.to_list()))
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return ("t", v.dtype.name, tuple(v.shape), np.asarray(v.numpy()))
    if isinstance(v, np.ndarray):
        return ("t", str(v.dtype), v.shape, v)
    if isinstance(v, np.generic):
        v = v.item()
    return ("py", auto_name.sub(r"\1", repr(v)))


def run(tf: Any, case: Callable[[Any], Any], auto_name: re.Pattern) -> Any:
    """`case(tf)` encoded, or ("err", class name, message) with the message's terminal colours,
    function-node prefixes and empty `name:` tails removed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return encode(case(tf), auto_name)
    except Exception as e:  # noqa: BLE001 - the error class and message are the result compared
        msg = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
        msg = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", msg)
        msg = re.sub(r" name: ?(?=\n|$)", "", msg.strip())
        return ("err", type(e).__name__, auto_name.sub(r"\1", msg))


def diff(got: Any, want: Any, where: str, tol: Callable[[str], float] = lambda where: 1e-6) -> str | None:
    """None when simdist's encoded result matches TF's, else what differs (floats within `tol(where)`,
    relative and absolute; everything else exactly)."""
    if got[0] != want[0]:
        return f"{where}: simdist gave {got[0]} {got[1:3]!r:.200}, but should be {want[0]} {want[1:3]!r:.200}"
    if want[0] == "err":
        if got[1] != want[1]:
            return f"{where}: simdist raised {got[1]} ({got[2][:160]}), but should raise {want[1]} ({want[2][:160]})"
        return None if got[2] == want[2] else f"{where}: message {got[2]!r:.300}, but should be {want[2]!r:.300}"
    if want[0] == "seq":
        if len(got[1]) != len(want[1]):
            return f"{where}: {len(got[1])} results, but should be {len(want[1])}"
        for k, (g, w) in enumerate(zip(got[1], want[1])):
            d = diff(g, w, f"{where}[{k}]", tol)
            if d:
                return d
        return None
    if want[0] == "t":
        if got[1] != want[1]:
            return f"{where}: dtype={got[1]}, but should be {want[1]}"
        if tuple(got[2]) != tuple(want[2]):
            return f"{where}: shape={tuple(got[2])}, but should be {tuple(want[2])}"
        g, w = np.asarray(got[3]), np.asarray(want[3])
        t = tol(where)
        ok = np.allclose(g, w, rtol=t, atol=t) if w.dtype.kind in "fc" else np.array_equal(g, w)
        return None if ok else f"{where}: out={g.ravel()[:8]}, but should be {w.ravel()[:8]}"
    if want[0] == "rt":
        return None if got == want else f"{where}: ragged {got[1:]!r:.300}, but should be {want[1:]!r:.300}"
    return None if got == want else f"{where}: {got[1]:.300}, but should be {want[1]:.300}"


class Table:
    """A differential module's labelled cases: `case(tf)` callables run on simdist here and on TF in the
    module's worker process (tf_workers.spawn / serve), compared group by group."""

    def __init__(self, module_file: str, cases: dict[str, Callable[[Any], Any]], auto_name: re.Pattern) -> None:
        self.module_file = module_file
        self.cases = cases
        self.labels = sorted(cases)
        self.auto_name = auto_name

    def run(self, tf: Any, label: str) -> Any:
        return run(tf, self.cases[label], self.auto_name)

    def tf_worker(self, indices: list[int]) -> dict[int, Any]:
        """The worker's answers (`python module.py i,j,...`): the cases run on real TensorFlow."""
        import tensorflow as tf
        return {i: self.run(tf, self.labels[i]) for i in indices}

    def tf_results(self) -> dict[int, Any]:
        """TF's answers to every case (live, or the module's golden; tests/tf_workers.py)."""
        import tf_workers
        return tf_workers.spawn(self.module_file, list(range(len(self.labels))))

    def check(self, tf_results: dict[int, Any], selected: Callable[[str], bool]) -> None:
        """Assert simdist answers every selected case as TF did, listing each difference."""
        from simdist import tf
        labels = [(i, lab) for i, lab in enumerate(self.labels) if selected(lab)]
        assert labels, "no case selected"
        bad = [d for i, lab in labels if (d := diff(self.run(tf, lab), tf_results[i], lab))]
        assert not bad, f"{len(bad)} of {len(labels)} cases differ from TF 2.21:\n" + "\n".join(bad)


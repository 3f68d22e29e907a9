"""Running the second fuzzer's programs on both backends and comparing them. Reuses the first
fuzzer's machinery by import (tests/fuzz/differ.py: the TF worker process and its pipe protocol,
the value comparison `diff` with its per-dtype tolerances; programs.py: `normalise`); only the
interpreter (a tree is a line of Python, evaluated in each mode) and the worker's entry point are
this module's own.

Comparison per tree: both raise -> the same error class; one raises -> a disagreement
(acceptance); both return -> dtypes, shapes and structure exactly, values bit for bit when the tree
is exact (any NaN matches any NaN, -0.0 differs from 0.0), else within differ.RTOL; gradients and
cross-replica values within differ.RTOL. IndexedSlices gradients compare as their dense value and
their class.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
for _p in (os.path.join(os.path.dirname(HERE), "fuzz"), HERE):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import differ  # noqa: E402
from fz2_trees import Prog, make_input  # noqa: E402
from programs import normalise as _normalise  # noqa: E402


def normalise(tf: Any, x: Any) -> Any:
    if type(x).__name__ == "IndexedSlices":
        return ("IndexedSlices", _normalise(tf.convert_to_tensor(x)))
    if isinstance(x, (list, tuple)):
        return ("list", tuple(normalise(tf, v) for v in x))
    if type(x).__name__ == "SparseTensor":
        return ("SparseTensor", tuple(normalise(tf, v) for v in (x.indices, x.values, x.dense_shape)))
    if type(x).__name__ in ("TopKV2", "TopK", "UniqueWithCounts", "Unique"):
        return ("list", tuple(normalise(tf, v) for v in x))
    return _normalise(x)


def _err(e: BaseException) -> tuple[str, str]:
    return ("err", type(e).__name__)


def _lambda(prog: Prog, expr: str, ns: dict[str, Any]) -> Any:
    return eval(f"lambda {', '.join(prog.names())}: {expr}", ns)  # noqa: S307 - our own generated text


def _one(tf: Any, prog: Prog, expr: str, xs: list[Any], strategy: Any) -> Any:
    ns = {"tf": tf, "np": np}
    fn = _lambda(prog, expr, ns)
    with np.errstate(all="ignore"):
        if prog.mode == "eager":
            try:
                return ("ok", normalise(tf, fn(*xs)))
            except Exception as e:  # noqa: BLE001 - the error class is the result
                return _err(e)
        if prog.mode == "function":
            f = tf.function(fn)
            out = []
            for _ in range(2):
                try:
                    out.append(("ok", normalise(tf, f(*xs))))
                except Exception as e:  # noqa: BLE001
                    out.append(_err(e))
            return ("calls", tuple(out))
        if prog.mode == "grad":
            sources = [x for x, (_, _, var) in zip(xs, prog.inputs) if var]
            try:
                with tf.GradientTape() as tape:
                    y = fn(*xs)
            except Exception as e:  # noqa: BLE001
                return _err(e)
            res = ("ok", normalise(tf, y))
            if not sources:
                return ("grad", res, ("none",))
            try:
                g = tape.gradient(y, sources, unconnected_gradients=getattr(tf.UnconnectedGradients, prog.unconnected))
                return ("grad", res, ("ok", normalise(tf, g)))
            except Exception as e:  # noqa: BLE001
                return ("grad", res, _err(e))
        try:
            out = strategy.run(fn, args=tuple(xs))
        except Exception as e:  # noqa: BLE001
            return _err(e)
        local = strategy.experimental_local_results(out)
        cross: list[Any] = [("local", normalise(tf, local))]
        if all(hasattr(v, "dtype") and hasattr(v, "shape") for v in local):
            for how in ("SUM", "MEAN"):
                try:
                    cross.append((how, ("ok", normalise(tf, strategy.reduce(how, out, axis=None)))))
                except Exception as e:  # noqa: BLE001
                    cross.append((how, _err(e)))
        return ("dist", tuple(cross))


def execute(tf: Any, prog: Prog, strategy: Any = None) -> list[Any]:
    """One outcome per tree of `prog` on backend `tf`."""
    if prog.mode == "dist":
        per = [[a for a, _, _ in prog.inputs], prog.inputs2]
        xs = [strategy.experimental_distribute_values_from_function(
            lambda ctx, i=i: tf.constant(per[ctx.replica_id_in_sync_group][i], dtype=getattr(tf, prog.inputs[i][1])))
            for i in range(len(prog.inputs))]
    else:
        xs = [make_input(tf, a, dt, var) for a, dt, var in prog.inputs]
    return [_one(tf, prog, e, xs, strategy) for e in prog.exprs]


def _run_all(tf: Any, prog: Prog, strategy: Any) -> Any:
    try:
        return ("ran", execute(tf, prog, strategy))
    except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a result too
        return ("crashed", f"{type(e).__name__}: {e}")


def _worker_main() -> None:
    differ.serve_on_two_cpus(_run_all)


class TFWorker2(differ.ScriptWorker):
    """differ.TFWorker serving this module's programs (the same pipe protocol and crash handling)."""

    SCRIPT = os.path.abspath(__file__)
    PATHS = (HERE, os.path.join(os.path.dirname(HERE), "fuzz"))


def run_simdist(programs: list[Prog]) -> list[Any]:
    return differ.run_on_simdist(programs, _run_all)


# ---------------------------------------------------------------- comparison

def _differs(got: Any, want: Any, exact: bool) -> bool:
    if isinstance(want, tuple) and want[:1] == ("err",):
        return got != want
    if isinstance(got, tuple) and got[:1] == ("err",):
        return True
    if isinstance(want, tuple) and want[:1] == ("grad",):
        if not (isinstance(got, tuple) and got[:1] == ("grad",)):
            return True
        return _differs(got[1], want[1], exact) or _differs(got[2], want[2], False)
    if isinstance(want, tuple) and want[:1] == ("calls",):
        return not (isinstance(got, tuple) and got[:1] == ("calls",)) or \
            any(_differs(a, b, exact) for a, b in zip(got[1], want[1]))
    if isinstance(want, tuple) and want[:1] == ("dist",):
        if not (isinstance(got, tuple) and got[:1] == ("dist",)) or len(got[1]) != len(want[1]):
            return True
        (_, gl), (_, wl) = got[1][0], want[1][0]
        return _diff(gl, wl, exact) or any(a[0] != b[0] or _differs(a[1], b[1], False)
                                                 for a, b in zip(got[1][1:], want[1][1:]))
    return _diff(got, want, exact)


def _diff(got: Any, want: Any, exact: bool) -> bool:
    """differ.diff, with bfloat16 tensors compared through float32 at differ.RTOL["bfloat16"]
    (differ's tolerance path asks NumPy's finfo, which does not know ml_dtypes' bfloat16)."""
    if isinstance(want, tuple) and want[:1] == ("T",):
        if not (isinstance(got, tuple) and got[:1] == ("T",) and got[1:3] == want[1:3]):
            return True
        if want[1] != "bfloat16":
            return differ._values_differ(got[3], want[3], exact)
        g, w = got[3].astype(np.float32), want[3].astype(np.float32)
        if exact:
            return differ._values_differ(g, w, True)
        finite = np.isfinite(w)
        if not np.array_equal(np.isfinite(g), finite) or not np.all((g == w) | finite | np.isnan(g) & np.isnan(w)):
            return True
        rtol = differ.RTOL["bfloat16"]
        scale = float(np.max(np.abs(w[finite]))) if finite.any() else 0.0
        return not bool(np.all(np.abs(g[finite] - w[finite]) <= rtol * np.abs(w[finite]) + rtol * scale))
    if isinstance(want, tuple) and isinstance(got, tuple):
        return len(got) != len(want) or any(_diff(a, b, exact) for a, b in zip(got, want))
    if isinstance(got, float) and isinstance(want, float) and got != got and want != want:
        return False   # (two NaN Python floats are one outcome: `get_static_value(float('nan'))`, fz24b)
    return bool(got != want)


def kind_of(got: Any, want: Any) -> str:
    """error-class / accepts (simdist returns, TF raises) / rejects / value, of a tree's outcomes."""
    def first_err(x: Any) -> bool:
        return isinstance(x, tuple) and x[:1] == ("err",)
    if got[:1] == want[:1] == ("calls",):
        for a, b in zip(got[1], want[1]):
            if _differs(a, b, False):
                return kind_of(a, b)
    if first_err(got) and first_err(want):
        return "error-class"
    if first_err(want):
        return "accepts"
    if first_err(got):
        return "rejects"
    if want[:1] == ("grad",) and got[:1] == ("grad",) and not _differs(got[1], want[1], False):
        return "gradient"
    return "value"


def disagreements_of(prog: Prog, got: Any, want: Any) -> list[tuple[int, Any, Any]]:
    """(tree index, simdist's outcome, TF's outcome) for every tree that disagrees."""
    if want[0] != "ran":
        return [] if want[0] == "tf-died" or got[0] == want[0] else [(-1, got, want)]
    if got[0] != "ran":
        return [(-1, got, want)]
    return [(k, g, w) for k, (g, w) in enumerate(zip(got[1], want[1])) if _differs(g, w, prog.exact[k])]


def isolate(prog: Prog, k: int, mode: str | None = None) -> Prog:
    """The program with tree k only, and only the inputs it names."""
    import re
    e = prog.exprs[k]
    used = [i for i in range(len(prog.inputs)) if re.search(rf"\bx{i}\b", e)]
    ren = {f"x{i}": f"x{j}" for j, i in enumerate(used)}
    e2 = re.sub(r"\bx(\d+)\b", lambda m: ren.get(m.group(0), m.group(0)), e)
    mode = mode or prog.mode
    return Prog(prog.seed, prog.index, mode, [prog.inputs[i] for i in used],
                [prog.inputs2[i] for i in used] if mode == "dist" else [], [e2], [prog.exact[k]], prog.unconnected)


def minimize(prog: Prog, k: int, worker: Any) -> tuple[Prog, Any, Any]:
    """Tree k alone (eagerly when it still disagrees there), with the outcomes that disagree."""
    best = None
    for mode in dict.fromkeys(["eager" if prog.mode != "dist" else "dist", prog.mode]):
        cand = isolate(prog, k, mode)
        found = disagreements_of(cand, run_simdist([cand])[0], worker.run([cand])[0])
        if found:
            best = (cand, found[0][1], found[0][2])
            break
    return best or (prog, None, None)


def describe(prog: Prog, k: int, got: Any, want: Any) -> str:
    where = f"tree {k}: {prog.exprs[k]}" if k >= 0 else "the program"
    return f"{where}\n  simdist: {_short(got)}\n  TF 2.21: {_short(want)}"


def _short(x: Any) -> str:
    s = repr(x)
    return s if len(s) < 700 else s[:700] + "..."


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    _worker_main()

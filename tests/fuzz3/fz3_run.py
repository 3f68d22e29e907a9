"""Running the third fuzzer's programs on both backends and comparing them. The comparison, the
TF worker's pipe protocol and the outcome normalisation are the second fuzzer's
(tests/fuzz2/fz2_run.py, itself on tests/fuzz/differ.py); this module's own are the interpreter
of the modes fz3_calls.py draws ("sig", "tape", the "dist" variant with mirrored Variables,
reduce over axis 0 and gather) and the worker's entry point.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
for _p in (os.path.join(TESTS, "fuzz"), os.path.join(TESTS, "fuzz2"), HERE):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import differ  # noqa: E402
import fz2_run  # noqa: E402
from fz2_run import _err, _lambda, normalise  # noqa: E402
from fz3_calls import Prog3  # noqa: E402

disagreements_of = fz2_run.disagreements_of
describe = fz2_run.describe


def kind_of(got: Any, want: Any) -> str:
    """fz2_run.kind_of, and "trace-time" for a "sig" call whose only difference is whether
    get_concrete_function raised (the calls after it agree)."""
    if got[:1] == want[:1] == ("calls",) and len(got[1]) == len(want[1]) == 3 and \
            fz2_run._differs(got[1][0], want[1][0], True) and \
            not any(fz2_run._differs(a, b, False) for a, b in zip(got[1][1:], want[1][1:])):
        return "trace-time"
    return fz2_run.kind_of(got, want)


def _ok(tf: Any, f: Any, *a: Any) -> Any:
    try:
        return ("ok", normalise(tf, f(*a)))
    except Exception as e:  # noqa: BLE001 - the error class is the result
        return _err(e)


def _tape(tf: Any, prog: Prog3, fn: Any, xs: list[Any]) -> Any:
    var = [x for x, (_, _, v) in zip(xs, prog.inputs) if v]
    watched = [xs[k] for k in prog.watched]
    sources = var + [w for w in watched if not any(w is v for v in var)]
    how = getattr(tf.UnconnectedGradients, prog.unconnected)
    try:
        with tf.GradientTape(persistent=prog.order == 2) as outer:
            for w in watched:
                outer.watch(w)
            with tf.GradientTape(persistent=prog.persistent, watch_accessed_variables=prog.watch_accessed) as tape:
                for w in watched:
                    tape.watch(w)
                y = fn(*xs)
            res = ("ok", normalise(tf, y))
            if not sources:
                return ("grad", res, ("none",))
            try:
                g = tape.gradient(y, sources, unconnected_gradients=how)
            except Exception as e:  # noqa: BLE001
                return ("grad", res, _err(e))
    except Exception as e:  # noqa: BLE001
        return _err(e)
    out = [("first", ("ok", normalise(tf, g)))]
    if prog.persistent:
        out.append(("again", _ok(tf, lambda: tape.gradient(y, sources, unconnected_gradients=how))))
    if prog.order == 2:
        dense = [tf.convert_to_tensor(t) for t in g if t is not None]
        out.append(("second", _ok(tf, lambda: outer.gradient(dense, sources, unconnected_gradients=how))
                    if dense else ("none",)))
    return ("grad", res, ("ok", tuple(out)))


def _sig(tf: Any, prog: Prog3, fn: Any, xs: list[Any]) -> Any:
    specs = [tf.TensorSpec(None if s is None else s, getattr(tf, dt)) for s, (_, dt, _) in
             zip(prog.signature, prog.inputs)]
    f = tf.function(fn, input_signature=specs)
    out = []
    try:
        f.get_concrete_function()
        out.append(("ok", "traced"))
    except Exception as e:  # noqa: BLE001 - an error at trace time
        out.append(_err(e))
    for _ in range(2):
        out.append(_ok(tf, f, *xs))
    return ("calls", tuple(out))


def _dist(tf: Any, prog: Prog3, fn: Any, xs: list[Any], strategy: Any) -> Any:
    try:
        out = strategy.run(fn, args=tuple(xs))
    except Exception as e:  # noqa: BLE001
        return _err(e)
    local = strategy.experimental_local_results(out)
    cross: list[Any] = [("local", normalise(tf, local))]
    if all(hasattr(v, "dtype") and hasattr(v, "shape") for v in local):
        rank = len(local[0].shape)
        for how, axis in (("SUM", None), ("MEAN", None)) + ((("SUM", 0), ("MEAN", 0)) if rank else ()):
            cross.append((f"{how}{axis}", _ok(tf, lambda: strategy.reduce(how, out, axis=axis))))
        if rank:
            cross.append(("gather", _ok(tf, lambda: strategy.gather(out, axis=0))))
    return ("dist", tuple(cross))


def _one(tf: Any, prog: Prog3, expr: str, xs: list[Any], strategy: Any) -> Any:
    fn = _lambda(prog, expr, {"tf": tf, "np": np})
    with np.errstate(all="ignore"):
        if prog.mode == "eager":
            return _ok(tf, fn, *xs)
        if prog.mode == "sig":
            return _sig(tf, prog, fn, xs)
        if prog.mode == "tape":
            return _tape(tf, prog, fn, xs)
        return _dist(tf, prog, fn, xs, strategy)


def _inputs(tf: Any, prog: Prog3, strategy: Any) -> list[Any]:
    if prog.mode != "dist":
        return [fz2_run.make_input(tf, a, dt, var) for a, dt, var in prog.inputs]
    per = [[a for a, _, _ in prog.inputs], prog.inputs2]
    xs = []
    for i, (a, dt, var) in enumerate(prog.inputs):
        if var:
            with strategy.scope():
                xs.append(tf.Variable(tf.constant(a, dtype=getattr(tf, dt))))
        else:
            xs.append(strategy.experimental_distribute_values_from_function(
                lambda ctx, i=i, dt=dt: tf.constant(per[ctx.replica_id_in_sync_group][i], dtype=getattr(tf, dt))))
    return xs


def _run_all(tf: Any, prog: Prog3, strategy: Any) -> Any:
    try:
        xs = _inputs(tf, prog, strategy)
        return ("ran", [_one(tf, prog, e, xs, strategy) for e in prog.exprs])
    except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a result too
        return ("crashed", f"{type(e).__name__}: {e}")


def _worker_main() -> None:
    differ.serve_on_two_cpus(_run_all)


class TFWorker3(differ.ScriptWorker):
    """differ.TFWorker serving this module's programs."""

    SCRIPT = os.path.abspath(__file__)
    PATHS = (HERE, os.path.join(TESTS, "fuzz"), os.path.join(TESTS, "fuzz2"))


def run_simdist(programs: list[Prog3]) -> list[Any]:
    return differ.run_on_simdist(programs, _run_all)


def isolate(prog: Prog3, k: int, mode: str | None = None) -> Prog3:
    """The program with call k only (all inputs kept: the tape and signature options name them)."""
    import dataclasses
    return dataclasses.replace(prog, mode=mode or prog.mode, exprs=[prog.exprs[k]], exact=[prog.exact[k]],
                               inputs2=prog.inputs2 if (mode or prog.mode) == "dist" else [])


def minimize(prog: Prog3, k: int, worker: Any) -> tuple[Prog3, Any, Any]:
    """Call k alone (eagerly when it still disagrees there), with the outcomes that disagree."""
    for mode in dict.fromkeys(["eager" if prog.mode != "dist" else "dist", prog.mode]):
        cand = isolate(prog, k, mode)
        found = disagreements_of(cand, run_simdist([cand])[0], worker.run([cand])[0])
        if found:
            return cand, found[0][1], found[0][2]
    return prog, None, None


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    _worker_main()

"""tf.function and AutoGraph semantics by rule (sixty-first session, asweep61; test_asweep61.py): what a user sees of
a tf.function — values, the number of traces by a Python counter and by experimental_get_tracing_count, exception
classes and whether they are raised when the function traces or when it runs — crossed by rule with AutoGraph on and
off, against TF 2.21's recorded results.

What is crossed (test_blind79_gaps.py's fn-autograph-off takes one `if`, `while`, `for` over a tensor, `and`, bool()
and len() through autograph=False/True; data-iterator-ends takes next() at an iterator's end once; nothing crossed
the rest):
- a-flow-<construct>: Python control flow on tensors — if/elif/else, while, for over range(tensor), over a tensor,
  over a dataset, over an iterator made inside and outside, break, continue, return inside loops, an early return from
  both branches and from one, a variable defined in one branch only, bool() of a graph tensor, and/or/not, assert,
  a Python condition (not a tensor) — each under autograph=True and False, called with arguments that take each path:
  the value (or error class) and the phase of an error (`trace` if get_concrete_function raises, else `run`), and the
  Python counter of traces;
- a-print: Python print (trace time) against tf.print (run time, to a file in a temporary directory) over calls;
- a-iter: iterators — next() past the end inside a function and next(it, default) with AutoGraph on and off,
  get_next_as_optional's has_value/get_value, an iterator made outside and advanced across calls, a for loop over a
  dataset with a final partial batch (and with drop_remainder), a distributed dataset in a function;
- a-retrace-<kind>: traces counted by a Python counter and experimental_get_tracing_count over call sequences —
  Python ints/floats/bools/strings against tensors, new shapes and dtypes, input_signature with None dimensions,
  reduce_retracing, keyword arguments and defaults, nested lists/tuples/dicts, Variable arguments — and the concrete
  functions' structured input signatures;
- a-side: Python lists appended at trace time, variables created on the first call only (and on every call: TF's
  error, on the first or the second trace), variables assigned inside tensor loops, tf.py_function and
  tf.numpy_function (how often the Python runs), their exceptions and numpy_function's Tout check;
- a-relaxed: reduce_retracing over shape sequences (the shapes each serving trace saw); a-tape: a tf.function
  under a GradientTape; a-replicas: a tf.function inside strategy.run; a-misc: get_next() at the end, returned
  Python values, NumPy arguments, copies of functions, a decorator's input_signature, a returned variable, a
  concrete function's Python argument, Optional's spec.

No program is host-dependent: every value is an integer or a dyadic float whose arithmetic is exact.
`python -m simdist.conformance.suite.test_asweep61 --record` rewrites asweep61_reference.json.gz. OPEN lists
simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "asweep61_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=(), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-first session ... asweep61"; /work/wt/asweep61_logs/cmp_all.txt, TF 2.21 against simdist).
#: (1) bool() of a graph tensor inside an AutoGraph function, and an `assert` on one (AutoGraph leaves it Python):
#: TF's OperatorNotAllowedInGraphError at trace; simdist computes, or raises AssertionError (blind79's open item).
#: (2) `for x in dataset` (or an iterator) inside a tf.function with autograph=False: TF's ValueError at trace ("An
#: unusually high number of `tf.data.Iterator.get_next()` calls was detected"); next(it, default) at an iterator's
#: end in a tf.function, AutoGraph on or off: TF's OutOfRangeError at run time. simdist's in-function end of sequence
#: is also a StopIteration (errors._GraphEndOfSequence), so the loop ends and next() returns the default.
#: (3) A tf.data.Dataset argument: TF keys its trace by the element spec (four datasets of one spec, one trace);
#: simdist traces each dataset object (4).
#: (4) The Python counter where simdist runs the body again without a new trace: a call of new concrete shapes that
#: a relaxed trace (reduce_retracing) or an input_signature with None dimensions serves, and a call with a Variable
#: argument other than the first one of its spec (docs/spec.md function.trace-once, "Differences"); the values and
#: experimental_get_tracing_count agree.
#: (5) input_signature of a list, the function taking *args: a tuple argument is TF's TypeError; simdist runs it.
#: (6) A function creating tf.Variable(x) from its argument on each trace: TF's ValueError on the first call, simdist
#: from the second (fz11's open item); py_function/numpy_function outputs' static rank inside a tf.function is
#: unknown in TF, the eager result's in simdist (py_func.py).
OPEN: dict[str, tuple[str, ...]] = {
    'a-flow-assert': ('autograph=True', 'autograph=True traces'),
    'a-flow-bool': ('autograph=True', 'autograph=True traces'),
    'a-flow-for-dataset': ('autograph=False', 'autograph=False traces'),
    'a-flow-for-iterator': ('autograph=False', 'autograph=False traces'),
    'a-iter': ('autograph=False batches traces', 'autograph=False drop remainder', 'autograph=False empty',
               'autograph=False loop variable shape', 'autograph=False next default', 'autograph=False partial batch',
               'autograph=False same structure again', 'autograph=True batches traces',
               'autograph=True next default'),
    'a-retrace-python-reduce': ('14/python', '15/python', '16/python'),
    'a-retrace-signatures': ('g after python', 'nested', 'nested python', 'none-dim python', 'none-rank python',
                             'two-none python'),
    'a-retrace-variables': tuple(f"{i:02d}/python" for i in range(1, 8)),
    'a-side': ('create per trace', 'py_function static ranks'),
}


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def val(v: Any) -> Any:
    """A returned structure's values (tensors by their bits, Python values as they are)."""
    if isinstance(v, dict):
        return {str(k): val(x) for k, x in sorted(v.items())}
    if isinstance(v, (list, tuple)):
        return [val(x) for x in v]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v.hex()
    if hasattr(v, "numpy") or hasattr(v, "dtype"):
        a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
        if a.dtype.kind in "OS":
            return [x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel().tolist()]
        return bits(v)
    return type(v).__name__


def outcome(fn: Callable[[], Any]) -> Any:
    try:
        return val(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def phased(f: Any, *args: Any) -> Any:
    """f(*args)'s value, or the class of its error with the phase: `trace` when get_concrete_function already raises
    it, `run` when tracing succeeds and the call fails."""
    try:
        f.get_concrete_function(*args)
    except Exception as e:  # noqa: BLE001
        return f"trace {type(e).__name__}"
    try:
        return val(f(*args))
    except Exception as e:  # noqa: BLE001
        return f"run {type(e).__name__}"


# -- 1. Python control flow on tensors, AutoGraph on and off ----------------------------------------------------------
def _flows(tf: Any) -> dict[str, tuple[Callable[[list], Callable], list]]:
    """construct -> (maker(counter) of the Python function, argument list); the counter counts traces."""
    c = tf.constant
    i32 = tf.int32

    def ifelif(n):
        def f(x):
            n.append(1)
            if x > 2.0:
                y = x * 4.0
            elif x > 0.0:
                y = x * 2.0
            else:
                y = -x
            return y
        return f

    def while_(n):
        def f(x):
            n.append(1)
            i = tf.constant(0)
            while x < 100.0:
                x = x * 2.0
                i += 1
            return x, i
        return f

    def range_t(n):
        def f(k):
            n.append(1)
            s = tf.constant(0)
            for i in range(k):
                s += i * i
            return s
        return f

    def over_t(n):
        def f(x):
            n.append(1)
            s = tf.constant(0.0)
            for v in x:
                s = s * 2.0 + v
            return s
        return f

    def over_ds(n):
        def f(k):
            n.append(1)
            s = tf.constant(0, tf.int64)
            for v in tf.data.Dataset.range(k):
                s += v
            return s
        return f

    def over_iter(n):
        def f(k):
            n.append(1)
            s = tf.constant(0, tf.int64)
            for v in iter(tf.data.Dataset.range(k)):
                s += v
            return s
        return f

    def brk(n):
        def f(x):
            n.append(1)
            s = tf.constant(0.0)
            for v in x:
                if v < 0.0:
                    break
                s += v
            return s
        return f

    def cont(n):
        def f(x):
            n.append(1)
            s = tf.constant(0.0)
            for v in x:
                if v < 0.0:
                    continue
                s += v
            return s
        return f

    def while_brk(n):
        def f(k):
            n.append(1)
            i = tf.constant(0)
            while i < 10:
                i += 1
                if i >= k:
                    break
            return i
        return f

    def ret_loop(n):
        def f(x):
            n.append(1)
            for v in x:
                if v < 0.0:
                    return v
            return tf.constant(7.0)
        return f

    def ret_both(n):
        def f(x):
            n.append(1)
            if x > 0.0:
                return x + 1.0
            else:
                return x - 1.0
        return f

    def ret_one(n):
        def f(x):
            n.append(1)
            if x > 0.0:
                return x + 1.0
            return x - 1.0
        return f

    def ret_none(n):
        def f(x):
            n.append(1)
            if x > 0.0:
                return x + 1.0
        return f

    def one_branch(n):
        def f(x):
            n.append(1)
            if x > 0.0:
                y = x * 2.0
            return y  # noqa: F821 - TF's error
        return f

    def one_branch_after(n):
        def f(x):
            n.append(1)
            y = tf.constant(0.0)
            if x > 0.0:
                z = x * 3.0
                y = z
            return y
        return f

    def dtype_mismatch(n):
        def f(x):
            n.append(1)
            if x > 0.0:
                y = tf.constant(1)
            else:
                y = tf.constant(1.0)
            return y
        return f

    def shape_change(n):
        def f(x):
            n.append(1)
            while tf.reduce_sum(x) < 10.0:
                x = tf.concat([x, x], 0)
            return x
        return f

    def bool_(n):
        def f(x):
            n.append(1)
            return tf.constant(1.0) if bool(x > 0.0) else tf.constant(0.0)
        return f

    def andornot(n):
        def f(x, y):
            n.append(1)
            a = (x > 0.0) and (y > 0.0)
            b = (x > 0.0) or (y > 0.0)
            d = not (x > 0.0)
            return tf.cast(a, i32), tf.cast(b, i32), tf.cast(d, i32)
        return f

    def and_if(n):
        def f(x, y):
            n.append(1)
            if x > 0.0 and not y > 0.0:
                return x
            return y
        return f

    def assert_(n):
        def f(x):
            n.append(1)
            assert x > 0.0, "x must be positive"
            return x * 2.0
        return f

    def py_cond(n):
        def f(x, flag):
            n.append(1)
            if flag:
                return x * 2.0
            return x * 3.0
        return f

    def nested(n):
        def f(x):
            n.append(1)
            s = tf.constant(0.0)
            for i in tf.range(3):
                j = tf.constant(0)
                while j < i:
                    if x > 0.0:
                        s += 1.0
                    else:
                        s -= 1.0
                    j += 1
            return s
        return f

    def len_(n):
        def f(x):
            n.append(1)
            return len(x)
        return f

    def range_py(n):
        def f(x):
            n.append(1)
            for _ in range(3):
                x = x * 2.0
            return x
        return f

    f32 = tf.float32
    return {
        "if-elif-else": (ifelif, [[c(3.0)], [c(1.0)], [c(-1.5)]]),
        "while": (while_, [[c(3.0)], [c(200.0)]]),
        "for-range-tensor": (range_t, [[c(4)], [c(0)]]),
        "for-range-python": (range_py, [[c(1.5)]]),
        "for-tensor": (over_t, [[c([1.0, 0.5, 3.0])], [tf.zeros([0], f32)]]),
        "for-dataset": (over_ds, [[c(5, tf.int64)]]),
        "for-iterator": (over_iter, [[c(4, tf.int64)]]),
        "break": (brk, [[c([1.0, 2.0, -1.0, 8.0])], [c([1.0, 2.0])]]),
        "continue": (cont, [[c([1.0, -2.0, 4.0])]]),
        "while-break": (while_brk, [[c(3)], [c(20)]]),
        "return-in-loop": (ret_loop, [[c([1.0, -2.0, -3.0])], [c([1.0, 2.0])]]),
        "return-both": (ret_both, [[c(2.0)], [c(-2.0)]]),
        "return-one": (ret_one, [[c(2.0)], [c(-2.0)]]),
        "return-none": (ret_none, [[c(2.0)]]),
        "one-branch": (one_branch, [[c(2.0)], [c(-2.0)]]),
        "one-branch-local": (one_branch_after, [[c(2.0)], [c(-2.0)]]),
        "branch-dtypes": (dtype_mismatch, [[c(2.0)]]),
        "loop-shape-change": (shape_change, [[c([1.0])]]),
        "bool": (bool_, [[c(2.0)]]),
        "and-or-not": (andornot, [[c(1.0), c(-1.0)], [c(-1.0), c(-1.0)], [c(1.0), c(2.0)]]),
        "and-not-if": (and_if, [[c(1.0), c(-1.0)], [c(1.0), c(1.0)]]),
        "assert": (assert_, [[c(2.0)], [c(-2.0)]]),
        "python-condition": (py_cond, [[c(1.0), True], [c(1.0), False], [c(2.0), True]]),
        "nested": (nested, [[c(1.0)], [c(-1.0)]]),
        "len": (len_, [[c([1.0, 2.0])], [tf.zeros([0, 2])]]),
    }


def _flow(construct: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        maker, calls = _flows(tf)[construct]
        out = {}
        for ag in (True, False):
            out[f"autograph={ag}"] = [phased(tf.function(maker([]), autograph=ag), *a) for a in calls]
            n: list = []
            f = tf.function(maker(n), autograph=ag)   # (plain calls in turn: the traces a Python counter sees)
            for a in calls:
                outcome(lambda a=a: f(*a))
            out[f"autograph={ag} traces"] = [len(n), f.experimental_get_tracing_count()]
        out["eager"] = [outcome(lambda a=a: maker([])(*a)) for a in calls]
        return out
    return run


_FLOW_NAMES = ("if-elif-else", "while", "for-range-tensor", "for-range-python", "for-tensor", "for-dataset",
               "for-iterator", "break", "continue", "while-break", "return-in-loop", "return-both", "return-one",
               "return-none", "one-branch", "one-branch-local", "branch-dtypes", "loop-shape-change", "bool",
               "and-or-not", "and-not-if", "assert", "python-condition", "nested", "len")
for _name in _FLOW_NAMES:
    program(f"a-flow-{_name}", _flow(_name))


# -- 2. print at trace time, tf.print at run time ---------------------------------------------------------------------
def _print_order(tf: Any, mk: Any) -> Any:
    d = tempfile.mkdtemp()
    try:
        path = os.path.join(d, "out.txt")
        out = {}
        for ag in (True, False):
            with open(path, "w"):
                pass
            buf = io.StringIO()

            @tf.function(autograph=ag)
            def f(x):
                print("py", x.shape)
                tf.print("tf", x, output_stream="file://" + path)
                y = x * 2
                print("py2")
                tf.print("tf2", y, output_stream="file://" + path)
                return y
            with contextlib.redirect_stdout(buf):
                f(tf.constant(1))
                f(tf.constant(2))
                f(tf.constant([3, 4]))
            with open(path) as fh:
                out[f"autograph={ag}"] = {"stdout": buf.getvalue().splitlines(), "file": fh.read().splitlines()}
        return out
    finally:
        shutil.rmtree(d)


program("a-print", _print_order)


# -- 3. iterators inside functions ------------------------------------------------------------------------------------
def _iterator_fns(tf: Any) -> dict[str, Callable]:
    """The functions the iterator cases trace (named defs outside loops: AutoGraph reads their source)."""
    def step(i):
        return next(i)

    def with_default(i):
        return next(i, tf.constant(-1, tf.int64))

    def optional(i):
        o = i.get_next_as_optional()
        return o.has_value(), tf.cond(o.has_value(), o.get_value, lambda: tf.constant(-5, tf.int64))

    def get_value(i):
        return i.get_next_as_optional().get_value()

    def two(i):
        return next(i) * 10 + next(i)

    def batches(ds):
        count = tf.constant(0)
        total = tf.constant(0, tf.int64)
        last = tf.constant(-1)
        for b in ds:
            count += 1
            total += tf.reduce_sum(b)
            last = tf.shape(b)[0]
        return count, total, last

    def loop_shape(ds):
        shape = tf.constant("none")
        for b in ds:
            shape = tf.constant(str(b.shape))
        return shape
    return {"step": step, "default": with_default, "optional": optional, "get_value": get_value, "two": two,
            "batches": batches, "loop_shape": loop_shape}


def _iterators(tf: Any, mk: Any) -> Any:
    out = {}
    fns = _iterator_fns(tf)

    def calls(name: str, ag: bool, it: Any, times: int) -> list:
        f = tf.function(fns[name], autograph=ag)
        return [outcome(lambda: f(it)) for _ in range(times)]
    for ag in (True, False):
        k = f"autograph={ag}"
        out[f"{k} next across calls"] = calls("step", ag, iter(tf.data.Dataset.range(3)), 5)
        out[f"{k} next default"] = calls("default", ag, iter(tf.data.Dataset.range(2)), 4)
        out[f"{k} optional"] = calls("optional", ag, iter(tf.data.Dataset.range(2)), 3)
        out[f"{k} optional get_value past end"] = calls("get_value", ag, iter(tf.data.Dataset.range(1)), 2)
        out[f"{k} two next per call"] = calls("two", ag, iter(tf.data.Dataset.range(5)), 3)
        it = iter(tf.data.Dataset.range(5))

        def captured():
            return next(it)
        cap = tf.function(captured, autograph=ag)
        out[f"{k} captured"] = [outcome(cap) for _ in range(2)]
        out[f"{k} eager after captured"] = outcome(lambda: next(it))
        fb = tf.function(fns["batches"], autograph=ag)
        out[f"{k} partial batch"] = outcome(lambda: fb(tf.data.Dataset.range(7).batch(3)))
        out[f"{k} drop remainder"] = outcome(lambda: fb(tf.data.Dataset.range(7).batch(3, drop_remainder=True)))
        out[f"{k} empty"] = outcome(lambda: fb(tf.data.Dataset.range(0).batch(3)))
        out[f"{k} same structure again"] = outcome(lambda: fb(tf.data.Dataset.range(10, 14).batch(3)))
        out[f"{k} batches traces"] = fb.experimental_get_tracing_count()
        out[f"{k} loop variable shape"] = outcome(
            lambda: tf.function(fns["loop_shape"], autograph=ag)(tf.data.Dataset.range(7).batch(3)))
    s = mk()
    dist = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))

    def replica_sum(v):
        return tf.reduce_sum(v)

    def dsum(d):
        t = tf.constant(0, tf.int64)
        for x in d:
            t += s.reduce("SUM", s.run(replica_sum, args=(x,)), axis=None)
        return t
    out["distributed for"] = outcome(lambda: tf.function(dsum)(dist))

    def double(v):
        return v * 2

    def dstep(i):
        return s.reduce("SUM", s.run(double, args=(next(i),)), axis=0)
    f = tf.function(dstep)
    di = iter(dist)
    out["distributed next across calls"] = [outcome(lambda: f(di)) for _ in range(3)]

    def dopt(i):
        return i.get_next_as_optional().has_value()
    g = tf.function(dopt)
    di = iter(dist)
    out["distributed optional"] = [outcome(lambda: g(di)) for _ in range(3)]
    return out


program("a-iter", _iterators)


# -- 4. retracing -----------------------------------------------------------------------------------------------------
def _spec_text(s: Any) -> Any:
    if hasattr(s, "shape") and hasattr(s, "dtype"):
        shape = None if s.shape.rank is None else [d for d in s.shape.as_list()]
        kind = type(s).__name__ if "Spec" in type(s).__name__ else "Tensor"
        return [kind, shape, s.dtype.name, getattr(s, "name", None)]
    if isinstance(s, dict):
        return {str(k): _spec_text(v) for k, v in sorted(s.items())}
    if isinstance(s, (list, tuple)):
        return [type(s).__name__] + [_spec_text(v) for v in s]
    return val(s)


def _retraces(calls: Callable[[Any], list], **options: Any) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        n: list = []
        seq = calls(tf)
        fn = seq[0]

        def counted(*a, **kw):
            n.append(1)
            return fn(tf, *a, **kw)
        f = tf.function(fn(n) if fn is not _sum_all and calls is _kwargs else counted, **options)
        out = {}
        for i, (args, kwargs) in enumerate(seq[1:]):
            out[f"{i:02d}"] = {"value": outcome(lambda: f(*args, **kwargs)), "python": len(n),
                               "count": f.experimental_get_tracing_count()}
        return out
    return run


def _sum_all(tf: Any, *a: Any, **kw: Any) -> Any:
    total = tf.constant(0.0)
    for v in tf.nest.flatten((a, sorted(kw.items()))):
        if isinstance(v, str):
            total += float(len(v))
        else:
            total += tf.reduce_sum(tf.cast(v, tf.float32))
    return total


def _py_vs_tensor(tf: Any) -> list:
    c = tf.constant
    return [_sum_all, ((1,), {}), ((2,), {}), ((1,), {}), ((1.0,), {}), ((True,), {}), ((c(1),), {}), ((c(2),), {}),
            ((c(1.0),), {}), ((c(1, tf.int64),), {}), (("ab",), {}), (("ab",), {}), (("cd",), {}), ((None,), {}),
            ((c([1, 2]),), {}), ((c([1, 2, 3]),), {}), ((c([[1, 2]]),), {}), ((c([4, 5, 6]),), {})]


def _shapes(tf: Any) -> list:
    z = tf.zeros
    return [_sum_all, ((z([2]),), {}), ((z([3]),), {}), ((z([4]),), {}), ((z([2, 2]),), {}), ((z([2, 3]),), {}),
            ((z([5]),), {}), ((z([0]),), {}), ((z([]),), {}), ((z([3, 3]),), {}), ((z([2], tf.float64),), {})]


def _kwargs(tf: Any) -> list:
    c = tf.constant

    def maker(n):
        def fn(x, y=2, *, z=c(3.0)):
            n.append(1)
            return tf.cast(x, tf.float32) * 100.0 + tf.cast(y, tf.float32) * 10.0 + tf.cast(z, tf.float32)
        return fn
    return [maker, ((c(1.0),), {}), ((c(1.0), 2), {}), ((c(1.0),), {"y": 2}), ((), {"x": c(1.0)}), ((c(1.0), 3), {}),
            ((c(1.0),), {"z": c(4.0)}), ((c(1.0),), {"z": 4.0}), ((c(1.0),), {"z": 4.0}), ((c(1.0),), {"y": c(2)}),
            ((c(1.0), c(5)), {}), ((c(1.0),), {"q": 1}), ((c(1.0), 2, 3), {})]


def _nested(tf: Any) -> list:
    c = tf.constant
    return [_sum_all, (([c(1.0), c(2.0)],), {}), (([c(3.0), c(4.0)],), {}), (((c(3.0), c(4.0)),), {}),
            (([c(1.0), c(2.0), c(3.0)],), {}), (({"a": c(1.0), "b": c(2.0)},), {}), (({"b": c(2.0), "a": c(9.0)},), {}),
            (({"a": c(1.0)},), {}), (([c(1.0), 2.0],), {}), (([c(1.0), 3.0],), {}), (([c(1.0), c([2.0, 3.0])],), {}),
            (({"a": [c(1.0)], "b": (c(2), 4)},), {}), (({"a": [c(5.0)], "b": (c(6), 4)},), {}), (([],), {}),
            (((),), {})]


def _variables(tf: Any) -> list:
    v1 = tf.Variable(1.0)
    v2 = tf.Variable(2.0)
    v3 = tf.Variable([1.0, 2.0])
    v4 = tf.Variable(3, dtype=tf.int64)
    v5 = tf.Variable([4.0, 5.0, 6.0], shape=tf.TensorShape(None))

    def fn(tf, v):
        v.assign_add(tf.ones_like(v))
        return tf.reduce_sum(tf.cast(v, tf.float32))
    return [fn, ((v1,), {}), ((v2,), {}), ((v1,), {}), ((v3,), {}), ((v4,), {}), ((v5,), {}),
            ((tf.constant(1.0),), {}), ((v2,), {})]


program("a-retrace-python-tensor", _retraces(_py_vs_tensor))
program("a-retrace-shapes", _retraces(_shapes))
program("a-retrace-shapes-reduce", _retraces(_shapes, reduce_retracing=True))
program("a-retrace-python-reduce", _retraces(_py_vs_tensor, reduce_retracing=True))
program("a-retrace-kwargs", _retraces(_kwargs))
program("a-retrace-kwargs-reduce", _retraces(_kwargs, reduce_retracing=True))
program("a-retrace-nested", _retraces(_nested))
program("a-retrace-nested-reduce", _retraces(_nested, reduce_retracing=True))
program("a-retrace-variables", _retraces(_variables))


def _signatures(tf: Any, mk: Any) -> Any:
    out = {}
    specs = {
        "none-dim": [tf.TensorSpec([None], tf.float32)],
        "none-rank": [tf.TensorSpec(None, tf.float32)],
        "two-none": [tf.TensorSpec([None, 2], tf.float32, name="m"), tf.TensorSpec([], tf.int32)],
        "nested": [[tf.TensorSpec([None], tf.float32), tf.TensorSpec([2], tf.float32)]],
    }
    c = tf.constant
    calls = {
        "none-dim": [(c([1.0]),), (c([1.0, 2.0]),), (c([[1.0]]),), (c([1, 2]),), ([1.0, 2.0, 3.0],),
                     (c(1.0),)],
        "none-rank": [(c(1.0),), (c([1.0, 2.0]),), (c([[1.0, 2.0]]),), (c(1),)],
        "two-none": [(c([[1.0, 2.0]]), c(2)), (c([[1.0, 2.0], [3.0, 4.0]]), 3), (c([[1.0, 2.0, 3.0]]), c(1)),
                     (c([[1.0, 2.0]]), c(2.0))],
        "nested": [([c([1.0]), c([2.0, 3.0])],), ([c([1.0, 4.0]), c([2.0, 3.0])],), ([c([1.0]), c([2.0])],),
                   ((c([1.0]), c([2.0, 3.0])),)],
    }
    for k, sig in specs.items():
        n: list = []

        def fn(*a):
            n.append(1)
            shapes = [tf.constant(str(v.shape)) for v in tf.nest.flatten(a)]
            return _sum_all(tf, *a), shapes
        f = tf.function(fn, input_signature=sig)
        out[k] = [outcome(lambda a=a: f(*a)) for a in calls[k]]
        out[f"{k} python"] = len(n)
        out[f"{k} count"] = f.experimental_get_tracing_count()
        cf = f.get_concrete_function()
        out[f"{k} structured"] = _spec_text(cf.structured_input_signature)
        out[f"{k} inputs"] = [[t.dtype.name, None if t.shape.rank is None else t.shape.as_list()] for t in cf.inputs]
        out[f"{k} concrete calls"] = [outcome(lambda a=a: cf(*a)) for a in calls[k][:2]]
    n2: list = []

    def g(x, y=3, *, z=c(1.0)):
        n2.append(1)
        return x * z + float(y)
    f = tf.function(g)
    cfs = [f.get_concrete_function(c([1.0, 2.0])), f.get_concrete_function(tf.TensorSpec([None], tf.float32), 4),
           f.get_concrete_function(c(1.0), z=tf.TensorSpec([], tf.float32))]
    out["g structured"] = [_spec_text(cf.structured_input_signature) for cf in cfs]
    out["g outputs"] = [_spec_text(cf.structured_outputs) for cf in cfs]
    out["g traces"] = [len(n2), f.experimental_get_tracing_count()]
    out["g calls"] = [outcome(lambda: cfs[0](c([3.0, 4.0]))), outcome(lambda: cfs[1](c([3.0]), 4)),
                      outcome(lambda: cfs[1](c([3.0]), 5)), outcome(lambda: cfs[2](c(2.0), z=c(3.0))),
                      outcome(lambda: cfs[0](c([3.0, 4.0, 5.0])))]
    out["g after"] = [outcome(lambda: f(c([5.0, 6.0]))), outcome(lambda: f(c([5.0]), 4)),
                      f.experimental_get_tracing_count()]
    out["g after python"] = len(n2)
    return out


program("a-retrace-signatures", _signatures)


# -- 5. side effects --------------------------------------------------------------------------------------------------
def _side_effects(tf: Any, mk: Any) -> Any:
    out = {}
    c = tf.constant
    seen: list = []

    @tf.function
    def app(x):
        seen.append(int(x.shape.rank))
        return x + 1
    out["list"] = [outcome(lambda: app(c(1))), outcome(lambda: app(c(2))), outcome(lambda: app(c([1, 2]))),
                   list(seen)]
    holder: list = []

    @tf.function
    def once(x):
        if not holder:
            holder.append(tf.Variable(10.0))
        holder[0].assign_add(x)
        return holder[0].read_value()
    out["create once"] = [outcome(lambda: once(c(1.0))), outcome(lambda: once(c(2.0))),
                          outcome(lambda: once(c([1.0, 2.0]))), len(holder)]

    @tf.function
    def every(x):
        v = tf.Variable(1.0)
        return v + x
    out["create every call"] = [outcome(lambda: every(c(1.0))), outcome(lambda: every(c(2.0)))]
    made: list = []

    @tf.function
    def per_trace(x):
        made.append(tf.Variable(x))
        return made[-1].read_value()
    out["create per trace"] = [outcome(lambda: per_trace(c(1.0))), outcome(lambda: per_trace(c([1.0, 2.0]))),
                               len(made)]

    class Model(tf.Module):
        def __init__(self):
            super().__init__(name="m61")
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x))
            return self.v * x
    m = Model()
    out["module lazy"] = [outcome(lambda: m(c([2.0, 3.0]))), outcome(lambda: m(c([4.0, 5.0]))),
                          outcome(lambda: m(c([[1.0, 1.0]])))]

    for ag in (True, False):
        v = tf.Variable(0.0)
        w = tf.Variable(1, dtype=tf.int64)

        def loops(k):
            for i in tf.range(k):
                v.assign_add(tf.cast(i, tf.float32))
                w.assign(w * 2)
            j = tf.constant(0)
            while j < 3:
                v.assign(v * 2.0)
                j += 1
            return v.read_value(), w.read_value()
        f = tf.function(loops, autograph=ag)
        out[f"assign in loops autograph={ag}"] = [outcome(lambda: f(c(4))), outcome(lambda: f(c(0))),
                                                  outcome(lambda: [v.read_value(), w.read_value()])]

    calls: list = []

    def py(x):
        calls.append(1)
        return x * 2.0

    @tf.function
    def with_py(x):
        a = tf.py_function(py, [x], tf.float32)
        b = tf.numpy_function(lambda t: (t + 1).astype(t.dtype), [x], tf.float32)
        return a, b
    out["py_function"] = [outcome(lambda: with_py(c(1.5))), outcome(lambda: with_py(c(2.5))),
                          outcome(lambda: with_py(c([1.0, 2.0]))), len(calls)]

    def ranks(x):
        return (tf.py_function(py, [x], tf.float32).shape.rank,
                tf.numpy_function(lambda t: t, [x], tf.float32).shape.rank)
    out["py_function static ranks"] = outcome(lambda: tf.function(ranks)(c([1.0])))
    for cls in (ValueError, TypeError, StopIteration, KeyError, NotImplementedError, RuntimeError):
        def raiser(t, cls=cls):
            raise cls("x")

        def in_py(x, r=raiser):
            return tf.py_function(r, [x], tf.float32)

        def in_np(x, r=raiser):
            return tf.numpy_function(r, [x], tf.float32)
        out[f"raising {cls.__name__}"] = [outcome(lambda: in_py(c(1.0))), outcome(lambda: tf.function(in_py)(c(1.0))),
                                          outcome(lambda: in_np(c(1.0))), outcome(lambda: tf.function(in_np)(c(1.0)))]
    for label, fn in (("float64 array", lambda t: t.astype("float64")), ("python float", lambda t: 3.0),
                      ("python int", lambda t: 3), ("float32 array", lambda t: t * 2)):
        def np_out(x, fn=fn):
            return tf.numpy_function(fn, [x], tf.float32)
        out[f"numpy_function returns {label}"] = [outcome(lambda: np_out(c(1.0))),
                                                  outcome(lambda: tf.function(np_out)(c(1.0)))]

    def two_outs(x):
        return tf.numpy_function(lambda t: [t, t.astype("float64")], [x], [tf.float32, tf.float32])
    out["numpy_function list Tout mismatch"] = outcome(lambda: tf.function(two_outs)(c(1.0)))

    @tf.function
    def bad_py(x):
        return tf.numpy_function(lambda t: t.astype("float64"), [x], tf.float32)
    out["numpy_function wrong dtype"] = [outcome(lambda: bad_py(c(1.0))), outcome(lambda: bad_py(c(1.0)))]

    @tf.function
    def raising(x):
        def boom(t):
            raise ValueError("boom")
        return tf.py_function(boom, [x], tf.float32)
    out["py_function raising"] = phased(raising, c(1.0))
    counter = tf.Variable(0)

    @tf.function
    def py_side(x):
        counter.assign_add(1)
        return x
    for _ in range(3):
        py_side(c(1))
    out["variable side effect per call"] = outcome(counter.read_value)
    return out


program("a-side", _side_effects)


# -- 6. relaxed traces, tapes through functions, functions in replicas -------------------------------------------------
def _relaxed(tf: Any, mk: Any) -> Any:
    """reduce_retracing over shape sequences: each call's sum, the static shapes the Python saw (a string baked
    into the trace that serves the call) and the tracing count; a defaulted tensor parameter left out."""
    out = {}
    z = tf.zeros
    seqs = {
        "rows-then-cols": [[4, 2], [4, 3], [5, 2], [6, 3], [4, 2], [7, 7], [2]],
        "growing": [[1], [2], [3], [1, 1], [2, 2], [3, 1], [1]],
        "ranks": [[], [2], [2, 2], [3], [], [2, 2, 2]],
    }

    def seen(x, y=tf.ones([2])):
        return tf.reduce_sum(x) + tf.reduce_sum(y), tf.constant(f"{x.shape} {y.shape}")
    for name, shapes in seqs.items():
        for omit in (True, False):
            f = tf.function(seen, reduce_retracing=True)
            calls = []
            for i, sh in enumerate(shapes):
                x = z(sh) + float(i)
                calls.append([outcome(lambda: f(x) if omit else f(x, tf.ones([2]))), f.experimental_get_tracing_count()])
            out[f"{name} default {'omitted' if omit else 'given'}"] = calls
    f = tf.function(seen, reduce_retracing=True)
    out["keyword"] = [[outcome(lambda sh=sh: f(x=z(sh), y=z(sh))), f.experimental_get_tracing_count()]
                      for sh in ([2], [3], [2, 2], [4])]
    return out


program("a-relaxed", _relaxed)


def _tape(tf: Any, mk: Any) -> Any:
    """A tf.function called under a GradientTape (first call and replays), with AutoGraph control flow inside:
    the gradients w.r.t. a variable and the input, eager and inside an outer tf.function."""
    out = {}
    v = tf.Variable([1.0, 2.0])

    def inner(x):
        y = x * v
        i = tf.constant(0)
        while i < 2:
            y = y * 2.0
            i += 1
        if tf.reduce_sum(x) > 0.0:
            y = y + v
        return tf.reduce_sum(y * y)
    for ag in (True, False):
        f = tf.function(inner, autograph=ag)

        def taped(x, f=f):
            xt = tf.constant(x)
            with tf.GradientTape() as tape:
                tape.watch(xt)
                loss = f(xt)
            return [loss] + list(tape.gradient(loss, [xt, v]))
        out[f"autograph={ag} eager tape"] = [outcome(lambda x=x: taped(x))
                                             for x in ([1.0, 0.5], [-1.0, -3.0], [2.0, 0.25])]

    @tf.function
    def outer(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = inner_f(x)
        return tape.gradient(loss, [x, v])
    inner_f = tf.function(inner)
    out["nested function"] = [outcome(lambda x=x: outer(tf.constant(x))) for x in ([1.0, 0.5], [3.0, 1.0])]
    g = tf.function(lambda x: x * x)
    xt = tf.constant(3.0)
    plain = g(xt)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = g(xt)
    out["plain call then taped"] = outcome(lambda: [plain, y, tape.gradient(y, xt)])
    return out


program("a-tape", _tape)


def _replicas(tf: Any, mk: Any) -> Any:
    """A tf.function called inside strategy.run (two replicas), called twice: each replica's id, device suffix and
    value."""
    s = mk()

    @tf.function
    def per_replica(x):
        ctx = tf.distribute.get_replica_context()
        return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32), ctx.replica_id_in_sync_group

    def step(x):
        a, rid = per_replica(x)
        return a, rid, tf.constant(a.device.split(":")[-1] if a.device else "")
    out = {}
    for k in range(2):
        res = s.run(step, args=(tf.constant(float(k + 1)),))
        out[f"call {k}"] = [[outcome(lambda t=t: t) for t in s.experimental_local_results(r)] for r in res]
    dstep = tf.function(lambda x: s.run(step, args=(x,)))
    for k in range(2):
        res = dstep(tf.constant(float(k + 5)))
        out[f"traced call {k}"] = [[outcome(lambda t=t: t) for t in s.experimental_local_results(r)] for r in res]
    return out


program("a-replicas", _replicas)


def _misc(tf: Any, mk: Any) -> Any:
    """get_next() at the end, what a function may return, NumPy arguments (top level, in a list, a dict, by
    keyword, as a default), copies of functions and of objects with a function method, a decorator's
    input_signature, a returned variable, a concrete function's Python argument, Optional.from_value's spec."""
    import copy

    import numpy as _np
    out = {}
    c = tf.constant
    it = iter(tf.data.Dataset.range(1))
    out["get_next eagerly"] = [outcome(it.get_next) for _ in range(2)]
    it2 = iter(tf.data.Dataset.range(1))

    def gn(i):
        return i.get_next()
    f = tf.function(gn)
    out["get_next in function"] = [outcome(lambda: f(it2)) for _ in range(2)]
    for label, value in (("big int", 2 ** 70), ("text", "abc"), ("none", None), ("tuple", (1, 2.5)),
                         ("dict", {"b": 1, "a": 2.5}), ("list of arrays", [_np.float64(1.5), _np.arange(2)]),
                         ("object", object())):
        def ret(x, value=value):
            return value
        out[f"return {label}"] = outcome(lambda: tf.function(ret)(c(1.0)))

    def kinds(x, y=None, z=_np.array([1, 2], _np.int32)):
        leaves = tf.nest.flatten((x, y, z))
        return [tf.constant([tf.is_tensor(v) for v in leaves]), tf.constant([str(getattr(v, "dtype", type(v).__name__))
                                                                             for v in leaves])]
    f = tf.function(kinds)
    a64 = _np.array([1.5, 2.5])
    calls = {"array": ((a64,), {}), "array again": ((a64 * 2,), {}), "in list": (([a64, _np.int64(3)],), {}),
             "in dict": (({"k": a64},), {}), "keyword": ((), {"x": a64, "y": a64.astype(_np.float32)}),
             "scalar": ((_np.float32(2.0),), {}), "other shape": ((_np.zeros([3]),), {})}
    out["numpy arguments"] = {k: [outcome(lambda a=a, kw=kw: f(*a, **kw)), f.experimental_get_tracing_count()]
                              for k, (a, kw) in calls.items()}

    def square(x):
        return x * x
    g = tf.function(square)
    g2 = copy.copy(g)
    g2(c(2.0))
    out["copy before first call"] = [g.experimental_get_tracing_count(), g2.experimental_get_tracing_count()]
    g(c([1.0]))
    out["copy shares"] = [g.experimental_get_tracing_count(), g2.experimental_get_tracing_count()]
    out["deepcopy traced"] = outcome(lambda: type(copy.deepcopy(g)).__name__)

    class Scaler:
        def __init__(self, k):
            self.k = k

        @tf.function
        def __call__(self, x):
            return x * self.k
    s1 = Scaler(2.0)
    first = s1(c(3.0))
    s2 = copy.copy(s1)
    s2.k = 5.0
    out["method of a copy"] = [outcome(lambda: first), outcome(lambda: s2(c(3.0))), outcome(lambda: s1(c(3.0))),
                               outcome(lambda: Scaler(7.0)(c(3.0)))]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def decorated(x):
        return tf.reduce_sum(x)
    out["decorator signature"] = [outcome(lambda: decorated(c([1.0, 2.0]))), outcome(lambda: decorated(c([4.0]))),
                                  outcome(lambda: decorated(c([1, 2]))), outcome(lambda: decorated(c(1.0))),
                                  decorated.experimental_get_tracing_count()]
    v = tf.Variable(1.0)

    @tf.function
    def give(x):
        v.assign_add(x)
        return v
    r = give(c(2.0))
    v.assign(10.0)
    out["returned variable"] = [outcome(lambda: r), type(r).__name__ == type(v).__name__]

    def scaled(x, k=2):
        return x * float(k)
    h = tf.function(scaled)
    cf = h.get_concrete_function(tf.TensorSpec([], tf.float32), 3)
    out["concrete python argument"] = [outcome(lambda: cf(c(2.0), 3)), outcome(lambda: cf(c(2.0), 4)),
                                       outcome(lambda: cf(c(2.0)))]
    opt = tf.experimental.Optional.from_value(c([[1, 2, 3]]))
    out["optional spec"] = [_spec_text(opt.element_spec), outcome(opt.has_value), outcome(opt.get_value)]
    empty = tf.experimental.Optional.empty(tf.TensorSpec([2], tf.int32))
    out["empty optional"] = [outcome(empty.has_value), outcome(empty.get_value)]
    return out


program("a-misc", _misc)


def _concrete(tf: Any, mk: Any) -> Any:
    """Concrete functions: outputs' names and structure for dict and namedtuple returns, inputs' names for *args
    and dict arguments, the signature texts, a call of another dtype, a NaN literal, the tracing count of
    get_concrete_function of a function creating a variable; an iterator's checkpoint after two elements."""
    import collections
    import tempfile as _tempfile
    out = {}
    c = tf.constant
    Pair = collections.namedtuple("Pair", ["lo", "hi"])

    def dict_out(x):
        return {"b": x * 2.0, "a": x, "c": {"z": x + 1.0, "y": x}}

    def pair_out(x):
        return Pair(x - 1.0, x + 1.0)

    def star(*args):
        return tf.add_n(list(args))

    def nested_in(d, k=2.0, *, scale=c(1.0)):
        return d["q"] * scale + d["p"] * k
    spec = tf.TensorSpec([None], tf.float32)
    for label, fn, args, kwargs in (("dict", dict_out, (spec,), {}), ("namedtuple", pair_out, (spec,), {}),
                                    ("star", star, (spec, spec, spec), {}),
                                    ("nested", nested_in, ({"q": spec, "p": tf.TensorSpec([2], tf.float32)},),
                                     {"scale": tf.TensorSpec([], tf.float32)})):
        f = tf.function(fn)
        cf = f.get_concrete_function(*args, **kwargs)
        out[f"{label} outputs"] = [t.name for t in cf.outputs]
        out[f"{label} inputs"] = [t.name for t in cf.inputs]
        out[f"{label} structured outputs"] = _spec_text(cf.structured_outputs)
        out[f"{label} output shapes"] = outcome(lambda cf=cf: str(cf.output_shapes))
        out[f"{label} output dtypes"] = outcome(lambda cf=cf: str(cf.output_dtypes))
        out[f"{label} signature"] = outcome(lambda cf=cf: cf.pretty_printed_signature(verbose=False))
        out[f"{label} verbose signature"] = outcome(lambda cf=cf: cf.pretty_printed_signature())
    cf = tf.function(lambda x: x * 2.0).get_concrete_function(tf.TensorSpec([3], tf.float32))
    out["call float64"] = outcome(lambda: cf(c([1.0, 2.0, 3.0], tf.float64)))
    out["call int32"] = outcome(lambda: cf(c([1, 2, 3])))
    out["call other shape"] = outcome(lambda: cf(c([1.0, 2.0])))

    def lit(x, k):
        return x * 2.0 if k != k else x
    h = tf.function(lit)
    cn = h.get_concrete_function(tf.TensorSpec([], tf.float32), float("nan"))
    out["nan literal"] = [outcome(lambda: cn(c(3.0), float("nan"))), outcome(lambda: cn(c(3.0), 1.0))]
    box: list = []

    def creates(x):
        if not box:
            box.append(tf.Variable(1.0))
        return x * box[0]
    g = tf.function(creates)
    g.get_concrete_function(tf.TensorSpec([], tf.float32))
    out["creating concrete count"] = [g.experimental_get_tracing_count(), outcome(lambda: g(c(2.0))),
                                      g.experimental_get_tracing_count()]
    d = _tempfile.mkdtemp()
    try:
        it = iter(tf.data.Dataset.range(6))
        ck = tf.train.Checkpoint(it=it)
        first = [outcome(lambda: next(it)) for _ in range(2)]
        path = ck.save(os.path.join(d, "ck"))
        later = [outcome(lambda: next(it)) for _ in range(2)]
        ck.restore(path)
        again = [outcome(lambda: next(it)) for _ in range(2)]
        out["iterator checkpoint"] = [first, later, again]
    finally:
        shutil.rmtree(d)
    return out


program("a-concrete", _concrete)

"""tf.function signatures, retracing and AutoGraph control flow, crossed by rule (sixty-fifth session, tsweep65;
test_tsweep65.py).

What is crossed (batch 87's open item: an input_signature over a function with extra defaulted parameters; asweep61
crossed AutoGraph's constructs and retracing by call sequence, not the parameter kinds against the signatures):
- t-sig-<shape>: a Python function of each parameter shape (positional; defaulted; keyword-only; *args; **kwargs; all
  of them; a method; a tensor default) × input_signature (None, fewer/exactly/more specs than the positional
  parameters, a spec with None dimensions, a nested tuple, an int32 spec, reduce_retracing without a signature) ×
  one call sequence (positional and keyword tensors, Python floats and ints, NumPy scalars and arrays, lists, dicts,
  namedtuples, a tf.Variable, an extra keyword, too many arguments): each call's value or error class, and after
  each call the Python trace counter and experimental_get_tracing_count; the signature's own refusal at
  tf.function(); get_concrete_function()'s structured_input_signature and structured outputs;
- t-ag-if: AutoGraph `if` on a tensor whose branches differ (dtype, shape, rank, nesting, list length, None, a Python
  value, a variable defined in one branch, an early return from one) — the value or the error class with its phase
  (`trace`: get_concrete_function raises) and the output's static shape;
- t-ag-loops: while/for over tf.range, a tensor, a dataset, a Python list (unrolled), break/continue/return, loop
  variables changing shape or dtype (shape_invariants by set_loop_options), a loop variable undefined before the
  loop, print per trace against tf.print per call;
- t-cf-direct: tf.cond, tf.while_loop (maximum_iterations, parallel_iterations, shape_invariants,
  return_same_structure, swap_memory), tf.case (exclusive, default, strict), tf.switch_case (an index out of range,
  dict branches) eagerly and traced, their refusals; gradients through each form by a GradientTape outside the
  tf.function;
- t-nest-jit: nested tf.functions (traces of the inner across outer traces), jit_compile=True over loops and conds.

No program is host-dependent: every value is an integer or a dyadic float whose arithmetic is exact.
`python -m simdist.conformance.suite.test_tsweep65 --record` rewrites tsweep65_reference.json.gz. OPEN lists
simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import collections
import contextlib
import functools
import io
import json
import os
import shutil
import tempfile
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "tsweep65_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=(), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys, `case` or `case/field`
#: (docs/conformance.md, "Sixty-fifth session ... tsweep65"; /work/wt/tsweep65_logs/open1.json, tf_all.json against
#: sim4.json). Classes:
#: (1) `python n` (the Python counter): fixed (fix67t: a call of a new concrete shape that a trace with unknown
#:     dimensions serves replays a recording of that trace once a second recording, made in a forked copy of the
#:     process so that its Python's side effects are not the caller's, shows the very same program
#:     (runtime/graph/witness.py, tf/_function.py `_witnessed`); get_concrete_function's dry run on stand-ins of an
#:     unknown-dimension spec is kept as that trace's recording; the 12 `none-dim`/`unknown-rank` keys and
#:     t-sig-tensor-default's `relaxed/python n` back. History:) (sixty-sixth session, lead: t-sig-tensor-default's `relaxed/python n` passed on
#:     fix66t's branch and on fix66t merged with every branch but fix66n, and fails on their merge — the tenth call runs
#:     the Python once more than TF, 13 against 12 — back here until the interaction is found: fix66n names a Python
#:     operand's Const as TF does, which is what a relaxed trace's second recording is compared by; not verified)
#:     simdist runs the Python again where TF reuses a trace — a new concrete shape
#:     that an input_signature's [None]/unknown-rank spec serves (simdist records per concrete shape, and the first
#:     call of a shape other than get_concrete_function's placeholders records too) (function.trace-once,
#:     "Differences"; asweep61's OPEN (4)); the values and experimental_get_tracing_count agree. (fix65t: a Variable
#:     under an input_signature's TensorSpec is read at the call; a covered parameter the call leaves out gets its
#:     default cast to the spec. fix66t: get_concrete_function's dry run on placeholders of fully known shapes is
#:     recorded and the calls of those shapes replay it — the first call after it no longer runs the Python; a
#:     second Variable argument of a VariableSpec replays the first one's recording with its reads and writes on the
#:     call's variable; 42 keys back;)
#: (2) (fix65t: fixed — reduce_retracing's relaxation walks the call's parameters against each trace's, IndexError
#:     when a trace has fewer; t-relax-params; the `relaxed/*` keys of t-sig-varargs/-varkw/-everything are back;)
#: (3) a tensor default: fixed (fix65a, docs/conformance.md "... (fix65a)": the derived input_signature lists the
#:     default's TensorSpec, a namedtuple casts to a tuple entry);
#: (4) AutoGraph: a Python list appended in a tensor loop (`list_append`: TF's InaccessibleTensorError at trace, the
#:     body graph's tensor read outside it; simdist runs the body once and returns a list of one); fixed by fix65a:
#:     a TensorSpec argument, a loop over Dataset.range, set_loop_options in an inner function, TensorArray.stack's
#:     static shape;
#: (5) direct control flow: fixed (fix65a: non-bool and non-scalar predicates fail at run; fix66t:
#:     `while_bad_invariant`, a shape_invariants entry the loop variable's shape contradicts — while_v2 checks the
#:     body traced on the invariant's shape, not the loop variable, and its output's static shape is the
#:     invariant's [2] for a value of shape [1]: runtime/ops/loops.py, static_shapes.contradict);
#: (6) nested functions: fixed (fix66u: the inner function's Python counter, `outer *`, `inner eager` — TF's inner
#:     function keeps the traces made inside the outer's failed traces and serves its eager call from them; simdist
#:     ran a tf.function called inside another's recording as plain Python; now the ops its first call of a key
#:     adds are kept as its trace's program, runtime/graph/nested.py); fixed by fix65a: py_function and string ops
#:     under jit_compile=True; by fix66t: the relaxed concrete function's signature (get_concrete_function dispatches
#:     as a call does: `relaxed concrete` is TensorSpec([None])).
OPEN: dict[str, tuple[str, ...]] = {
    't-ag-loops': (
        'list_append 0', 'list_append 2', 'list_append 5',
    ),
}

Pair = collections.namedtuple("Pair", ["a", "b"])


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    """Register program `name`: its result without the OPEN cases, long value lists as digests."""
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def val(v: Any) -> Any:
    """A returned structure's values: tensors as [dtype, shape, bits], Python values as they are."""
    if isinstance(v, dict):
        return {str(k): val(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if isinstance(v, (list, tuple)):
        return [val(x) for x in v]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v.hex()
    if hasattr(v, "numpy") or hasattr(v, "dtype"):
        a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
        if a.dtype.kind in "OSU":
            return ["string", list(a.shape), [x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel()]]
        return [a.dtype.name, list(a.shape), bits(a)]
    return type(v).__name__


def spec(s: Any) -> Any:
    """A (structured) signature: TensorSpecs as [dtype, shape, name], Python values as they are."""
    if isinstance(s, dict):
        return {str(k): spec(x) for k, x in sorted(s.items())}
    if isinstance(s, (list, tuple)):
        return [type(s).__name__] + [spec(x) for x in s]
    if hasattr(s, "shape") and hasattr(s, "dtype"):
        shape = None if s.shape.rank is None else list(s.shape.as_list())
        kind = type(s).__name__ if "Spec" in type(s).__name__ else "Tensor"   # (SymbolicTensor in TF)
        return [kind, s.dtype.name, shape, getattr(s, "name", None)]
    return val(s)


def err(e: BaseException) -> str:
    return f"raised {type(e).__name__}"


def outcome(fn: Callable[[], Any]) -> Any:
    try:
        return val(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return err(e)


def phased(f: Any, *args: Any, **kwargs: Any) -> Any:
    """f(*args)'s value with its outputs' static shapes, or its error's class with the phase: `trace` when
    get_concrete_function raises, `run` when tracing succeeds and the call fails."""
    try:
        cf = f.get_concrete_function(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return f"trace {type(e).__name__}"
    shapes = [None if t.shape.rank is None else t.shape.as_list() for t in cf.outputs]
    try:
        return {"value": val(f(*args, **kwargs)), "static": shapes}
    except Exception as e:  # noqa: BLE001
        return f"run {type(e).__name__}"


# -- 1. parameter shapes x input_signature x call forms ---------------------------------------------------------------
def _flat_tensors(tf: Any, *parts: Any) -> list[Any]:
    """Every leaf the body received, as a float32 tensor twice its value (so a Python leaf is converted in the
    trace), in order."""
    out = []
    for leaf in tf.nest.flatten(list(parts)):
        t = tf.convert_to_tensor(leaf)
        out.append(tf.cast(t, tf.float32) * 2.0 if t.dtype != tf.string else t)
    return out


def _shapes(tf: Any, n: list) -> dict[str, Callable[[], Any]]:
    """parameter shape -> the Python function (each counting its traces in n)."""
    c = tf.constant

    def positional(x, y):
        n.append(1)
        return _flat_tensors(tf, x, y)

    def defaulted(x, y=2.0, z=3):
        n.append(1)
        return _flat_tensors(tf, x, y, z)

    def kwonly(x, *, k=4.0):
        n.append(1)
        return _flat_tensors(tf, x, k)

    def varargs(x, *args):
        n.append(1)
        return _flat_tensors(tf, x, args)

    def varkw(x, **kw):
        n.append(1)
        return _flat_tensors(tf, x, kw)

    def everything(x, y, z=1.0, *args, k=2.0, **kw):
        n.append(1)
        return _flat_tensors(tf, x, y, z, args, k, kw)

    def tensor_default(x, y=c(5.0)):
        n.append(1)
        return _flat_tensors(tf, x, y)

    class M:
        def method(self, x, y=2.0):
            n.append(1)
            return _flat_tensors(tf, x, y)

    return {"positional": positional, "defaulted": defaulted, "kwonly": kwonly, "varargs": varargs,
            "varkw": varkw, "everything": everything, "tensor-default": tensor_default, "method": M().method}


def _signatures(tf: Any) -> dict[str, Any]:
    """input_signature variants (None: no signature; "relaxed": no signature, reduce_retracing=True)."""
    S = tf.TensorSpec
    f32 = tf.float32
    return {
        "none": None,
        "relaxed": "relaxed",
        "one": [S([], f32)],
        "two": [S([], f32), S([], f32)],
        "three": [S([], f32), S([], f32), S([], f32)],
        "none-dim": [S([None], f32)],
        "named": [S([], f32, name="a"), S([], f32, name="b")],
        "nested": [(S([], f32), S([], f32))],
        "int32": [S([], tf.int32)],
        "unknown-rank": [S(None, f32), S(None, f32)],
    }


def _calls(tf: Any) -> list[tuple[str, Callable[[], tuple[tuple, dict]]]]:
    """The call sequence every (shape, signature) function meets, in order: name -> (args, kwargs)."""
    c = tf.constant
    f32 = tf.float32
    return [
        ("t", lambda: ((c(1.0),), {})),
        ("t t", lambda: ((c(1.0), c(2.0)), {})),
        ("t t again", lambda: ((c(3.0), c(4.0)), {})),
        ("py py", lambda: ((1.0, 2.0), {})),
        ("py py same", lambda: ((1.0, 2.0), {})),
        ("int int", lambda: ((1, 2), {})),
        ("np np", lambda: ((np.float32(1.5), np.float32(2.5)), {})),
        ("np-array", lambda: ((np.array([1.0, 2.0], np.float32), c(1.0)), {})),
        ("vector", lambda: ((c([1.0, 2.0]), c(1.0)), {})),
        ("vector 3", lambda: ((c([1.0, 2.0, 3.0]), c(1.0)), {})),
        ("int32 t", lambda: ((c(1), c(2)), {})),
        ("float64 t", lambda: ((c(1.0, tf.float64), c(2.0, tf.float64)), {})),
        ("kw y", lambda: ((c(1.0),), {"y": c(6.0)})),
        ("kw x y", lambda: ((), {"x": c(1.0), "y": c(6.0)})),
        ("kw k", lambda: ((c(1.0),), {"k": c(7.0)})),
        ("kw z", lambda: ((c(1.0), c(2.0)), {"z": c(8.0)})),
        ("kw extra", lambda: ((c(1.0), c(2.0)), {"w": c(9.0)})),
        ("three t", lambda: ((c(1.0), c(2.0), c(3.0)), {})),
        ("four t", lambda: ((c(1.0), c(2.0), c(3.0), c(4.0)), {})),
        ("tuple", lambda: (((c(1.0), c(2.0)),), {})),
        ("list", lambda: (([c(1.0), c(2.0)], c(0.5)), {})),
        ("dict", lambda: (({"p": c(1.0), "q": c(2.0)}, c(0.5)), {})),
        ("namedtuple", lambda: ((Pair(c(1.0), c(2.0)), c(0.5)), {})),
        ("variable", lambda: ((tf.Variable(1.5), c(0.5)), {})),
        ("variable2", lambda: ((tf.Variable(2.5), c(0.5)), {})),
        ("string", lambda: (("s", c(0.5)), {})),
        ("none arg", lambda: ((None, c(0.5)), {})),
        ("nothing", lambda: ((), {})),
    ]


def _signature_program(shape: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        out: dict[str, Any] = {}
        for sname, sig in _signatures(tf).items():
            n: list = []
            py = _shapes(tf, n)[shape]
            case: dict[str, Any] = {}
            try:
                if sig == "relaxed":
                    f = tf.function(py, reduce_retracing=True)
                else:
                    f = tf.function(py, input_signature=sig)
            except Exception as e:  # noqa: BLE001
                out[sname] = {"function": err(e)}
                continue
            if sig not in (None, "relaxed"):
                try:
                    cf = f.get_concrete_function()
                    case["concrete"] = {"inputs": spec(cf.structured_input_signature),
                                        "outputs": spec(cf.structured_outputs)}
                    case["concrete n"] = len(n)
                except Exception as e:  # noqa: BLE001
                    case["concrete"] = err(e)
            counts = []
            for cname, make in _calls(tf):
                args, kwargs = make()
                got = outcome(lambda: f(*args, **kwargs))
                case[cname] = [got, f.experimental_get_tracing_count()]
                counts.append(len(n))
            case["python n"] = counts   # (the Python counter after each call, in the calls' order)
            out[sname] = case
        return out
    return run


for _shape in ("positional", "defaulted", "kwonly", "varargs", "varkw", "everything", "tensor-default", "method"):
    program(f"t-sig-{_shape}", _signature_program(_shape))


def _concrete_program(tf: Any, mk: Any) -> Any:
    """get_concrete_function with specs, Python values and keyword specs for each shape; the concrete function's
    signature, outputs and its calls by position and keyword."""
    S = tf.TensorSpec
    f32 = tf.float32
    c = tf.constant
    out: dict[str, Any] = {}
    forms = {
        "specs": lambda: ((S([None], f32), S([2], f32)), {}),
        "spec py": lambda: ((S([2], f32), 3.0), {}),
        "spec kw": lambda: ((S([2], f32),), {"y": S([], f32)}),
        "tensor py": lambda: ((c([1.0, 2.0]), 2), {}),
        "spec unknown rank": lambda: ((S(None, f32), S(None, tf.int32)), {}),
        "one spec": lambda: ((S([3], f32),), {}),
        "kw k spec": lambda: ((S([3], f32),), {"k": S([3], f32)}),
        "nested spec": lambda: (((S([2], f32), S([2], f32)), S([], f32)), {}),
        "dict spec": lambda: (({"p": S([2], f32)}, S([], f32)), {}),
    }
    calls = {
        "pos": lambda: ((c([1.0, 2.0]), c(3.0)), {}),
        "pos2": lambda: ((c([1.0, 2.0]), c([3.0, 4.0])), {}),
        "kw": lambda: ((c([1.0, 2.0]),), {"y": c(3.0)}),
        "one": lambda: ((c([1.0, 2.0, 3.0]),), {}),
        "py": lambda: ((c([1.0, 2.0]), 3.0), {}),
        "int": lambda: ((c([1.0, 2.0]), 2), {}),
        "three": lambda: ((c([1.0, 2.0, 3.0]), c(3.0)), {}),
        "float64": lambda: ((c([1.0, 2.0], tf.float64), c(3.0, tf.float64)), {}),
    }
    for shape in ("positional", "defaulted", "kwonly", "varargs", "everything", "method"):
        for fname, form in forms.items():
            n: list = []
            f = tf.function(_shapes(tf, n)[shape])
            args, kwargs = form()
            key = f"{shape} {fname}"
            try:
                cf = f.get_concrete_function(*args, **kwargs)
            except Exception as e:  # noqa: BLE001
                out[key] = err(e)
                continue
            case: dict[str, Any] = {
                "inputs": spec(cf.structured_input_signature), "outputs": spec(cf.structured_outputs),
                "n": len(n), "count": f.experimental_get_tracing_count(),
                "n inputs": len(cf.inputs)}
            for cn, call in calls.items():
                a, k = call()
                case[cn] = outcome(lambda: cf(*a, **k))
            out[key] = case
    return out


program("t-sig-concrete", _concrete_program)


def _relax_params_program(tf: Any, mk: Any) -> Any:
    """reduce_retracing's relaxation walked parameter by parameter (fix65t): a call with more *args or **kwargs
    items than an earlier trace whose leading parameters relax (IndexError, no trace), fewer (relaxed), a keyword-only
    parameter against **kwargs names sorting before it (TF lays keyword-only parameters first); each call's outcome
    class, the tracing count and the Python counter after it."""
    c = tf.constant

    def kwmix(x, *, k=1.0, **kw):
        return x

    def va(x, *args):
        return x

    def vkw(x, **kw):
        return x

    sequences = {
        "kw order": (kwmix, [((c(1.0),), {"k": c(2.0)}), ((c(1.0),), {"k": c(2.0), "a": c(3.0)}),
                             ((c(1.0),), {"a": c(3.0), "k": c(2.0)})]),
        "kw default literal": (kwmix, [((c(1.0),), {"a": c(2.0)}), ((c(1.0),), {"k": c(2.0), "a": c(3.0)}),
                                       ((c(1.0),), {"b": c(3.0)})]),
        "fewer args": (va, [((c(1.0), c(2.0), c(3.0)), {}), ((c(1.0),), {}), ((c([1.0, 2.0]),), {}),
                            ((c([1.0, 2.0]), c(1.0)), {}), ((c([1.0, 2.0, 3.0]), c(1.0), c(1.0)), {})]),
        "shape then more": (va, [((c([1.0]),), {}), ((c([1.0, 2.0]),), {}), ((c([1.0, 2.0, 3.0]), c(1.0)), {}),
                                 ((c(1.0), c(1.0)), {})]),
        "first differs": (va, [((c(1.0),), {}), ((c([1.0]), c(1.0)), {}), ((1.0, c(1.0)), {})]),
        "kwargs": (vkw, [((c(1.0),), {"b": c(1.0)}), ((c(1.0),), {"a": c(1.0), "b": c(1.0)}),
                         ((c([1.0]),), {"a": c(1.0)}), ((c([1.0, 2.0]),), {"b": c(1.0), "c": c(1.0)})]),
    }
    out: dict[str, Any] = {}
    def counted(py: Callable, n: list) -> Callable:
        """py, counting its runs in n (a closure with py's signature, functools.wraps: TF binds by inspect's)."""
        @functools.wraps(py)
        def run(*a, **k):
            n.append(1)
            return py(*a, **k)
        return run
    for name, (py, calls) in sequences.items():
        n: list = []
        f = tf.function(counted(py, n), reduce_retracing=True)
        rows = []
        for args, kwargs in calls:
            got = outcome(lambda: f(*args, **kwargs))
            rows.append([got if isinstance(got, str) else "ok", f.experimental_get_tracing_count(), len(n)])
        out[name] = rows
    return out


program("t-relax-params", _relax_params_program)


def _variable_argument_program(tf: Any, mk: Any) -> Any:
    """A tf.Variable passed for a TensorSpec of an input_signature (fix65t): what the Python sees (a tensor, not the
    variable: no `assign`), an assign's outcome and the variable after, a [None] spec's static shape, and two
    variables of the spec sharing the one trace (tracing count and Python counter)."""
    S = tf.TensorSpec
    out: dict[str, Any] = {}
    for sname, sig in (("scalar", [S([], tf.float32)]), ("none-dim", [S([None], tf.float32)])):
        seen: list = []

        def body(x):
            seen.append([isinstance(x, tf.Variable), hasattr(x, "assign"), tf.is_tensor(x),
                          None if x.shape.rank is None else x.shape.as_list()])
            try:
                x.assign(x * 4.0)
                seen.append("assigned")
            except Exception as e:  # noqa: BLE001 - the class is the observation
                seen.append(err(e))
            return x * 2.0
        f = tf.function(body, input_signature=sig)
        init = (1.5, 2.5) if sname == "scalar" else ([1.0, 2.0], [3.0, 4.0])
        v, w = tf.Variable(init[0]), tf.Variable(init[1])
        rows = []
        for var in (v, w, v):
            rows.append([outcome(lambda: f(var)), val(var), f.experimental_get_tracing_count()])
        out[sname] = {"calls": rows, "python": seen}
    return out


program("t-sig-variable", _variable_argument_program)


def _spec_defaults_program(tf: Any, mk: Any) -> Any:
    """Defaults of parameters an input_signature's TensorSpecs cover, at calls that leave them out (fix65t): what
    the Python sees (tensors of the specs, in the one trace), a default the spec refuses (None, a tuple of another
    length: the call's error, no trace), the values, tracing counts and Python counter after each call."""
    S = tf.TensorSpec
    c = tf.constant
    f32 = tf.float32

    def three(x, y=2.0, z=3):
        return [x + y + tf.cast(z, f32), tf.is_tensor(y), tf.is_tensor(z)]

    def none_default(x, y=None):
        return [x, tf.is_tensor(y)]

    def int_default(x, y=2):
        return [x + tf.cast(y, f32), tf.is_tensor(y)]

    def tuple_default(x, y=(1.0, 2.0)):
        return [x, y]

    cases = {
        "three": (three, [S([], f32)] * 3, [((c(1.0), c(2.0)), {}), ((c(1.0), c(2.0)), {"z": c(8.0)}),
                                             ((c(1.0), c(2.0), c(3.0)), {}), ((c(1.0),), {})]),
        "none": (none_default, [S([], f32)] * 2, [((c(1.0),), {}), ((c(1.0), c(2.0)), {})]),
        "int": (int_default, [S([], f32)] * 2, [((c(1.0),), {}), ((c(1.0), c(2.0)), {})]),
        "int32 spec": (int_default, [S([], f32), S([], tf.int32)], [((c(1.0),), {}), ((c(1.0), c(2)), {})]),
        "tuple": (tuple_default, [S([], f32), S([2], f32)], [((c(1.0),), {}), ((c(1.0), c([3.0, 4.0])), {})]),
        "tuple other shape": (tuple_default, [S([], f32), S([3], f32)],
                              [((c(1.0),), {}), ((c(1.0), c([3.0, 4.0, 5.0])), {})]),
    }
    out: dict[str, Any] = {}
    for name, (py, sig, calls) in cases.items():
        n: list = []

        def counted(py: Callable = py, n: list = n) -> Callable:
            @functools.wraps(py)
            def run(*a, **k):
                n.append(1)
                return py(*a, **k)
            return run
        f = tf.function(counted(), input_signature=sig)
        out[name] = [[outcome(lambda: f(*args, **kwargs)), f.experimental_get_tracing_count(), len(n)]
                     for args, kwargs in calls]
    return out


program("t-sig-spec-defaults", _spec_defaults_program)


# -- 2. AutoGraph if on a tensor ----------------------------------------------------------------------------------------
def _ifs(tf: Any) -> dict[str, Callable]:
    c = tf.constant

    def dtypes(x):
        if x > 0:
            y = tf.cast(x, tf.float32)
        else:
            y = tf.cast(x, tf.int32)
        return y

    def shapes(x):
        if x > 0:
            y = tf.ones([2]) * tf.cast(x, tf.float32)
        else:
            y = tf.ones([3])
        return y

    def ranks(x):
        if x > 0:
            y = tf.ones([2])
        else:
            y = tf.ones([2, 2])
        return y

    def nesting(x):
        if x > 0:
            y = (x, x)
        else:
            y = x
        return y

    def list_len(x):
        if x > 0:
            y = [x, x]
        else:
            y = [x]
        return y

    def none_branch(x):
        if x > 0:
            y = x
        else:
            y = None
        return y

    def python_value(x):
        if x > 0:
            y = x * 2
        else:
            y = 7
        return y

    def python_float(x):
        if x > 0:
            y = tf.cast(x, tf.float32)
        else:
            y = 7.5
        return y

    def undefined(x):
        if x > 0:
            y = x * 2
        return y  # noqa: F821

    def defined_before(x):
        y = x
        if x > 0:
            y = x * 2
        return y

    def early_return_one(x):
        if x > 0:
            return x * 2
        return x * 3

    def return_none_one(x):
        if x > 0:
            return x * 2

    def return_dtypes(x):
        if x > 0:
            return tf.cast(x, tf.float64)
        return tf.cast(x, tf.float32)

    def dict_keys(x):
        if x > 0:
            y = {"a": x}
        else:
            y = {"b": x}
        return y

    def dict_same(x):
        if x > 0:
            y = {"a": x, "b": x * 2}
        else:
            y = {"b": x * 3, "a": x * 4}
        return y

    def elif_chain(x):
        if x > 2:
            y = x * 10
        elif x > 0:
            y = x * 100
        else:
            y = -x
        return y

    def python_cond(x):
        if 3 > 2:
            y = tf.cast(x, tf.float32)
        else:
            y = "never"
        return y

    def unknown_dim(x):
        v = tf.reshape(tf.range(x), [-1])
        if x > 2:
            y = v[:2]
        else:
            y = tf.zeros([2], tf.int32)
        return y

    def variable_branch(x):
        if x > 0:
            y = c(1)
        else:
            y = tf.Variable(2).read_value()
        return y

    def string_pred(x):
        if tf.strings.length(tf.strings.as_string(x)) > 1:
            y = x
        else:
            y = -x
        return y

    def float_pred(x):
        if tf.cast(x, tf.float32):
            y = x
        else:
            y = -x
        return y

    def vector_pred(x):
        if tf.stack([x, x]) > 0:
            y = x
        else:
            y = -x
        return y

    return {k: v for k, v in locals().items() if callable(v) and k not in ("c",)}


def _if_program(tf: Any, mk: Any) -> Any:
    c = tf.constant
    out: dict[str, Any] = {}
    for name, py in _ifs(tf).items():
        for arg in (3, 1, -1):
            f = tf.function(py)
            out[f"{name} {arg}"] = phased(f, c(arg))
        out[f"{name} spec"] = phased(tf.function(py), tf.TensorSpec([], tf.int32))
        out[f"{name} eager"] = outcome(lambda: py(c(1)))
    return out


program("t-ag-if", _if_program)


# -- 3. AutoGraph loops ---------------------------------------------------------------------------------------------
def _loops(tf: Any) -> dict[str, Callable]:
    c = tf.constant

    def for_range(x):
        s = c(0)
        for i in tf.range(x):
            s += i * i
        return s

    def for_range_break(x):
        s = c(0)
        for i in tf.range(x):
            if i > 3:
                break
            s += i
        return s

    def for_range_continue(x):
        s = c(0)
        for i in tf.range(x):
            if i % 2 == 0:
                continue
            s += i
        return s

    def for_return(x):
        for i in tf.range(x):
            if i > 2:
                return i * 10
        return c(-1)

    def for_tensor(x):
        s = c(0)
        for v in tf.range(x) * 2:
            s += v
        return s

    def for_matrix_rows(x):
        s = tf.zeros([2], tf.int32)
        for row in tf.reshape(tf.range(2 * x), [x, 2]):
            s += row
        return s

    def for_dataset(x):
        s = c(0, tf.int64)
        for v in tf.data.Dataset.range(5):
            s += v * tf.cast(x, tf.int64)
        return s

    def for_dataset_break(x):
        s = c(0, tf.int64)
        for v in tf.data.Dataset.range(10):
            if v > tf.cast(x, tf.int64):
                break
            s += v
        return s

    def for_list(x):
        s = x
        for k in [1, 2, 3]:
            s = s * k
        return s

    def for_list_tensor_break(x):
        s = x
        for k in [1, 2, 3]:
            if s > 10:
                break
            s = s * 4 + k
        return s

    def for_python_range(x):
        s = x
        for k in range(3):
            s += k
        return s

    def while_tensor(x):
        i = c(0)
        while i < x:
            i += 3
        return i

    def while_break(x):
        i = c(0)
        while i < 100:
            i += 1
            if i * i > x:
                break
        return i

    def while_continue(x):
        i, s = c(0), c(0)
        while i < x:
            i += 1
            if i % 3 == 0:
                continue
            s += i
        return s

    def while_return(x):
        i = c(0)
        while i < 100:
            i += 1
            if i > x:
                return i * 2
        return i

    def shape_change(x):
        v = tf.zeros([1])
        for _ in tf.range(x):
            v = tf.concat([v, [1.0]], 0)
        return v

    def shape_invariant(x):
        v = tf.zeros([1])
        for _ in tf.range(x):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat([v, [1.0]], 0)
        return v

    def dtype_change(x):
        v = c(0)
        for _ in tf.range(x):
            v = tf.cast(v, tf.float32) + 1.0
        return v

    def undefined_before(x):
        for i in tf.range(x):
            y = i * 2
        return y  # noqa: F821

    def none_before(x):
        y = None
        for i in tf.range(x):
            y = i * 2
        return y

    def python_int_before(x):
        y = 0
        for i in tf.range(x):
            y = y + i
        return y

    def python_float_before(x):
        y = 0.0
        for i in tf.range(x):
            y = y + tf.cast(i, tf.float32)
        return y

    def nested_loops(x):
        s = c(0)
        for i in tf.range(x):
            j = c(0)
            while j < i:
                s += i * j
                j += 1
        return s

    def list_append(x):
        acc = []
        for i in tf.range(x):
            acc.append(i)
        return acc

    def tensor_array(x):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(x):
            ta = ta.write(i, i * i)
        return ta.stack()

    def max_iterations(x):
        i = c(0)
        while i < x:
            tf.autograph.experimental.set_loop_options(maximum_iterations=3)
            i += 1
        return i

    def for_range_args(x):
        s = c(0)
        for i in tf.range(x, 20, 3):
            s += i
        return s

    def for_range_negative(x):
        s = c(0)
        for i in tf.range(x, -5, -2):
            s += i
        return s

    def for_enumerate_dataset(x):
        s = c(0, tf.int64)
        for i, v in enumerate(tf.data.Dataset.range(3, 6)):
            s += tf.cast(i, tf.int64) * v + tf.cast(x, tf.int64)
        return s

    def for_zip_python(x):
        s = x
        for a, b in zip([1, 2], [3, 4]):
            s = s * a + b
        return s

    return {k: v for k, v in locals().items() if callable(v) and k not in ("c",)}


def _print_counts(tf: Any) -> Any:
    """print (at trace time) against tf.print (at every call) inside a tensor loop and an if, over four calls."""
    out: dict[str, Any] = {}
    d = tempfile.mkdtemp()
    try:
        path = os.path.join(d, "p.txt")

        @tf.function
        def f(x):
            print("trace", x.shape)
            for i in tf.range(x):
                tf.print("it", i, output_stream=f"file://{path}")
                print("loop body traced")
            if x > 2:
                tf.print("big", output_stream=f"file://{path}")
            return x

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            for v in (1, 3, 3, 2):
                f(tf.constant(v))
        with open(path) as fh:
            out["tf.print"] = fh.read().splitlines()
        out["print"] = [line.split(" (")[0] for line in buf.getvalue().splitlines()]
        out["count"] = f.experimental_get_tracing_count()
    finally:
        shutil.rmtree(d)
    return out


def _loop_program(tf: Any, mk: Any) -> Any:
    c = tf.constant
    out: dict[str, Any] = {}
    for name, py in _loops(tf).items():
        for arg in (5, 2, 0):
            out[f"{name} {arg}"] = phased(tf.function(py), c(arg))
        out[f"{name} eager"] = outcome(lambda: py(c(4)))
    out["print"] = _print_counts(tf)
    return out


program("t-ag-loops", _loop_program)


# -- 4. tf.cond / tf.while_loop / tf.case / tf.switch_case called directly ---------------------------------------------
def _direct(tf: Any) -> dict[str, Callable[[Any], Any]]:
    c = tf.constant

    def cond_plain(x):
        return tf.cond(x > 0, lambda: x * 2.0, lambda: x * 3.0)

    def cond_tuple(x):
        return tf.cond(x > 0, lambda: (x, x * 2.0), lambda: (x * 3.0, x))

    def cond_dtype_mismatch(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.float64))

    def cond_structure_mismatch(x):
        return tf.cond(x > 0, lambda: (x, x), lambda: x)

    def cond_shape_mismatch(x):
        return tf.cond(x > 0, lambda: tf.ones([2]) * x, lambda: tf.ones([3]) * x)

    def cond_none(x):
        return tf.cond(x > 0, lambda: None, lambda: None)

    def cond_python_pred(x):
        return tf.cond(True, lambda: x * 2.0, lambda: x * 3.0)

    def cond_vector_pred(x):
        return tf.cond(tf.stack([x, x]) > 0, lambda: x, lambda: -x)

    def cond_float_pred(x):
        return tf.cond(x, lambda: x, lambda: -x)

    def cond_missing_fn(x):
        return tf.cond(x > 0, lambda: x)

    def cond_python_values(x):
        return tf.cond(x > 0, lambda: 1.0, lambda: 2.0)

    def cond_v1_strict(x):
        return tf.compat.v1.cond(x > 0, lambda: [x * 2.0], lambda: [x * 3.0], strict=True)

    def cond_v1_unstrict(x):
        return tf.compat.v1.cond(x > 0, lambda: [x * 2.0], lambda: [x * 3.0])

    def while_plain(x):
        return tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + x), (c(0), c(0.0)))

    def while_max_iter(x):
        return tf.while_loop(lambda i, s: i < 100, lambda i, s: (i + 1, s + x), (c(0), c(0.0)),
                             maximum_iterations=3)

    def while_max_iter_zero(x):
        return tf.while_loop(lambda i, s: i < 100, lambda i, s: (i + 1, s + x), (c(0), c(0.0)),
                             maximum_iterations=0)

    def while_max_iter_tensor(x):
        return tf.while_loop(lambda i, s: i < 100, lambda i, s: (i + 1, s + x), (c(0), c(0.0)),
                             maximum_iterations=tf.cast(x, tf.int32))

    def while_parallel(x):
        return tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s * x), (c(0), c(1.0)),
                             parallel_iterations=1, swap_memory=True)

    def while_parallel_zero(x):
        return tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s * x), (c(0), c(1.0)),
                             parallel_iterations=0)

    def while_single(x):
        return tf.while_loop(lambda s: tf.abs(s) < 50.0, lambda s: s * 2.0 + x, [x])

    def while_single_same_structure(x):
        return tf.while_loop(lambda s: tf.abs(s) < 50.0, lambda s: [s * 2.0 + x], [x], return_same_structure=True)

    def while_single_unpacked(x):
        return tf.while_loop(lambda s: tf.abs(s) < 50.0, lambda s: s * 2.0 + x, [x], return_same_structure=False)

    def while_shape_change(x):
        return tf.while_loop(lambda v: tf.size(v) < 4, lambda v: tf.concat([v, [x]], 0), [tf.reshape(x, [1])])

    def while_shape_invariant(x):
        return tf.while_loop(lambda v: tf.size(v) < 4, lambda v: tf.concat([v, [x]], 0), [tf.reshape(x, [1])],
                             shape_invariants=[tf.TensorShape([None])])

    def while_bad_invariant(x):
        return tf.while_loop(lambda v: tf.abs(tf.reduce_sum(v)) < 100.0, lambda v: v * 2.0, [tf.reshape(x, [1])],
                             shape_invariants=[tf.TensorShape([2])])

    def while_dtype_change(x):
        return tf.while_loop(lambda v: v < 4, lambda v: tf.cast(v, tf.float64) + 1.0, [x])

    def while_structure_change(x):
        return tf.while_loop(lambda v: v < 4.0, lambda v: (v + 1.0, v), [x])

    def while_dict(x):
        return tf.while_loop(lambda d: d["i"] < 3, lambda d: {"i": d["i"] + 1, "s": d["s"] + x},
                             [{"i": c(0), "s": c(0.0)}])

    def while_namedtuple(x):
        return tf.while_loop(lambda p: p.a < 3, lambda p: Pair(p.a + 1, p.b * x), [Pair(c(0), c(1.0))])

    def while_cond_not_bool(x):
        return tf.while_loop(lambda v: v, lambda v: v - 1.0, [x])

    def while_python_loop_var(x):
        return tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + x), (0, 0.0))

    def case_plain(x):
        return tf.case([(x > 2.0, lambda: x * 10.0), (x > 0.0, lambda: x * 100.0)], default=lambda: -x)

    def case_dict(x):
        return tf.case({x > 2.0: lambda: x * 10.0, x > 0.0: lambda: x * 100.0}, default=lambda: -x)

    def case_exclusive(x):
        return tf.case([(x > 2.0, lambda: x * 10.0), (x > 0.0, lambda: x * 100.0)], default=lambda: -x,
                       exclusive=True)

    def case_no_default(x):
        return tf.case([(x > 2.0, lambda: x * 10.0), (x > 0.0, lambda: x * 100.0)])

    def case_strict(x):
        return tf.case([(x > 0.0, lambda: [x])], default=lambda: [-x], strict=True)

    def case_unstrict(x):
        return tf.case([(x > 0.0, lambda: [x])], default=lambda: [-x])

    def case_empty(x):
        return tf.case([], default=lambda: x * 5.0)

    def case_dtype_mismatch(x):
        return tf.case([(x > 0.0, lambda: x)], default=lambda: tf.cast(x, tf.int32))

    def case_python_pred(x):
        return tf.case([(True, lambda: x)], default=lambda: -x)

    def switch_plain(x):
        i = tf.cast(x, tf.int32)
        return tf.switch_case(i, [lambda: x * 10.0, lambda: x * 100.0, lambda: x * 1000.0])

    def switch_default(x):
        i = tf.cast(x, tf.int32)
        return tf.switch_case(i, [lambda: x * 10.0, lambda: x * 100.0], default=lambda: -x)

    def switch_dict(x):
        i = tf.cast(x, tf.int32)
        return tf.switch_case(i, {0: lambda: x * 10.0, 2: lambda: x * 100.0}, default=lambda: -x)

    def switch_dict_gap(x):
        i = tf.cast(x, tf.int32)
        return tf.switch_case(i, {0: lambda: x * 10.0, 2: lambda: x * 100.0})

    def switch_int64(x):
        i = tf.cast(x, tf.int64)
        return tf.switch_case(i, [lambda: x * 10.0, lambda: x * 100.0])

    def switch_float_index(x):
        return tf.switch_case(x, [lambda: x * 10.0, lambda: x * 100.0])

    def switch_python_index(x):
        return tf.switch_case(1, [lambda: x * 10.0, lambda: x * 100.0])

    def switch_empty(x):
        return tf.switch_case(tf.cast(x, tf.int32), [])

    def switch_structure_mismatch(x):
        return tf.switch_case(tf.cast(x, tf.int32), [lambda: x, lambda: (x, x)])

    return {k: v for k, v in locals().items() if callable(v) and k not in ("c",)}


def _direct_program(tf: Any, mk: Any) -> Any:
    c = tf.constant
    out: dict[str, Any] = {}
    for name, py in _direct(tf).items():
        for arg in (3.0, 1.0, -1.0, 5.0):
            out[f"{name} {arg}"] = phased(tf.function(py), c(arg))
        out[f"{name} eager"] = outcome(lambda: py(c(1.0)))
        out[f"{name} eager -1"] = outcome(lambda: py(c(-1.0)))
    return out


program("t-cf-direct", _direct_program)


def _grad_program(tf: Any, mk: Any) -> Any:
    """Gradients through each control-flow form, by a GradientTape outside the tf.function, AutoGraph's and the
    direct forms, at arguments taking each path; and w.r.t. a captured variable."""
    c = tf.constant
    v = tf.Variable(1.5)

    def ag_if(x):
        if x > 0:
            y = x * x * v
        else:
            y = x * 3.0
        return y

    def ag_while(x):
        y = x
        i = c(0)
        while i < 3:
            y = y * x + v
            i += 1
        return y

    def ag_for(x):
        y = x
        for _ in tf.range(2):
            y = y * y
        return y

    def ag_for_break(x):
        y = x
        for i in tf.range(10):
            if y > 20.0:
                break
            y = y * 2.0 * v
        return y

    def ag_for_list(x):
        y = x
        for k in [1.0, 2.0, 0.5]:
            y = y * k + x
        return y

    def cond(x):
        return tf.cond(x > 0, lambda: x * x * v, lambda: x * v)

    def while_(x):
        return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), (c(0), c(1.0)))[1]

    def while_max(x):
        return tf.while_loop(lambda i, y: i < 30, lambda i, y: (i + 1, y * x + v), (c(0), c(1.0)),
                             maximum_iterations=2)[1]

    def case(x):
        return tf.case([(x > 2.0, lambda: x * x), (x > 0.0, lambda: x * v)], default=lambda: -x)

    def switch(x):
        return tf.switch_case(tf.cast(x, tf.int32) % 3, [lambda: x * v, lambda: x * x, lambda: x * x * x])

    def tensor_array(x):
        ta = tf.TensorArray(tf.float32, size=3)
        y = x
        for i in tf.range(3):
            y = y * x
            ta = ta.write(i, y)
        return tf.reduce_sum(ta.stack())

    forms = {"ag_if": ag_if, "ag_while": ag_while, "ag_for": ag_for, "ag_for_break": ag_for_break,
             "ag_for_list": ag_for_list, "cond": cond, "while": while_, "while_max": while_max, "case": case,
             "switch": switch, "tensor_array": tensor_array}
    out: dict[str, Any] = {}
    for name, py in forms.items():
        for traced in (True, False):
            f = tf.function(py) if traced else py
            for arg in (3.0, 1.0, -1.0, 2.0):
                x = c(arg)

                def g(f=f, x=x):
                    with tf.GradientTape(persistent=True) as tape:
                        tape.watch(x)
                        y = f(x)
                    return [y, tape.gradient(y, x), tape.gradient(y, v)]
                out[f"{name} {'traced' if traced else 'eager'} {arg}"] = outcome(g)
    return out


program("t-cf-gradients", _grad_program)


# -- 5. nested tf.functions, jit_compile --------------------------------------------------------------------------------
def _nest_program(tf: Any, mk: Any) -> Any:
    c = tf.constant
    out: dict[str, Any] = {}
    n_in: list = []
    n_out: list = []

    @tf.function
    def inner(x):
        n_in.append(1)
        return x * 2

    @tf.function
    def outer(x):
        n_out.append(1)
        return inner(x) + inner(x * 1) + inner(tf.cast(x, tf.float32))[..., None]

    for k, arg in enumerate([c(1), c(2), c([1, 2]), c(3), c([[1]]), c([4, 5])]):
        r = outcome(lambda: outer(arg))
        out[f"outer {k}"] = [r, len(n_in), len(n_out), inner.experimental_get_tracing_count(),
                             outer.experimental_get_tracing_count()]
    out["inner eager"] = [outcome(lambda: inner(c(7))), len(n_in), inner.experimental_get_tracing_count()]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def sig_inner(x):
        n_in.append(2)
        return tf.reduce_sum(x)

    @tf.function
    def sig_outer(x):
        return sig_inner(x) + sig_inner(x[:1])

    out["sig outer"] = outcome(lambda: sig_outer(c([1.0, 2.0])))
    out["sig outer rank"] = outcome(lambda: sig_outer(c([[1.0, 2.0]])))
    out["sig outer int"] = outcome(lambda: sig_outer(c([1, 2])))
    out["sig inner count"] = sig_inner.experimental_get_tracing_count()

    @tf.function(reduce_retracing=True)
    def relaxed(x):
        n_in.append(3)
        return tf.shape(x)

    for k, arg in enumerate([c([1.0]), c([1.0, 2.0]), c([1.0, 2.0, 3.0]), c([[1.0]]), c([[1.0, 2.0]]), c(1.0)]):
        out[f"relaxed {k}"] = [outcome(lambda: relaxed(arg)), relaxed.experimental_get_tracing_count()]
    out["relaxed concrete"] = spec(relaxed.get_concrete_function(c([5.0, 6.0])).structured_input_signature)

    # jit_compile=True over conds and loops (exact values), and what it refuses
    def j_loop(x):
        s = tf.zeros_like(x)
        for i in tf.range(4):
            s += x * tf.cast(i, x.dtype)
        return s

    def j_cond(x):
        if tf.reduce_sum(x) > 0:
            return x * 2.0
        return x * 4.0

    def j_while(x):
        return tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + x), (c(0), tf.zeros_like(x)),
                             maximum_iterations=2)[1]

    def j_switch(x):
        return tf.switch_case(tf.cast(tf.reduce_sum(x), tf.int32) % 2, [lambda: x, lambda: -x])

    def j_dynamic(x):
        return tf.boolean_mask(x, x > 0)

    def j_unique(x):
        return tf.unique(x)[0]

    def j_py(x):
        return tf.py_function(lambda a: a * 2, [x], tf.float32)

    def j_string(x):
        return tf.strings.length(tf.strings.as_string(x))

    def j_where(x):
        return tf.where(x > 0)

    for name, py in [("loop", j_loop), ("cond", j_cond), ("while", j_while), ("switch", j_switch),
                     ("dynamic", j_dynamic), ("unique", j_unique), ("py_function", j_py),
                     ("string", j_string), ("where", j_where)]:
        for arg in ([1.0, -2.0, 3.0], [-1.0, -2.0]):
            f = tf.function(py, jit_compile=True)
            out[f"jit {name} {arg}"] = phased(f, c(arg))
        out[f"jit {name} count"] = f.experimental_get_tracing_count()

    def j_grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(j_loop(x) * x)
        return tape.gradient(y, x)
    out["jit grad"] = outcome(lambda: tf.function(j_grad, jit_compile=True)(c([1.0, -2.0, 3.0])))
    return out


program("t-nest-jit", _nest_program)

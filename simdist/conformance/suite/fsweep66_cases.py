"""The ConcreteFunction API crossed by rule (sixty-sixth session, fsweep66; test_fsweep66.py).

What is crossed (batch 89's survivor concrete-input-names-case-sensitive: a concrete function's input names were
compared only on a few programs): tf.function over functions and methods with every parameter form (positional,
defaulted, keyword-only, *args, **kwargs, nested lists/tuples/dicts, names differing only by case, names colliding
with Graph.unique_name's `_1` suffixes, leading underscores, non-identifier dict keys) × get_concrete_function called
with TensorSpecs (named, unnamed, repeated names), tensors, Python and NumPy values, Variables → the concrete
function's inputs' names, structured_input_signature, structured_outputs, outputs' names/dtypes/shapes,
output_shapes/output_dtypes, pretty_printed_signature(), captured_inputs, variables and trainable_variables, calls
(positional, keyword, flat, extra/missing/mistyped arguments: error class), a gradient through a GradientTape, and
experimental_get_tracing_count around it. `python -m simdist.conformance.suite.test_fsweep66 --record` rewrites
fsweep66_reference.json.gz. Nothing is host-dependent."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "fsweep66_reference.json.gz")

REF = RecordedPrograms(PATH, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison (docs/conformance.md, "Sixty-sixth session ...
#: fsweep66"; /work/wt/fsweep66_logs/cmp5.txt): a traced function's captures. TF's FuncGraph captures each variable's
#: resource handle as a placeholder input named after the op that first read it ("MatMul/ReadVariableOp/resource:0",
#: after the arguments' placeholders in ConcreteFunction.inputs) and each eager tensor the Python closes over
#: ("add_1/y:0", a float32 [2] constant: in captured_inputs too); simdist's inputs are the arguments' placeholders
#: alone and its captured_inputs the variables' handles alone (the graph's op names of the captures are not modelled).
#: Fixed by fix67t (graph_names.capture_variable, ConcreteFunction._captures): the six keys back.
OPEN: dict[str, tuple[str, ...]] = {}

program = registrar(REF, OPEN)   # register a program: its result without the OPEN cases


def _error(fn: Callable[[], Any]) -> Any:
    """fn's result, or "raised <class>" (the class is the observation)."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _shape(s: Any) -> Any:
    """A static shape as JSON: None for unknown rank, else its dims (None for unknown)."""
    return None if s.rank is None else list(s.as_list())


def _struct(tf: Any, v: Any) -> Any:
    """A structured signature/output as JSON: specs as [kind, shape, dtype, name], tensors as [shape, dtype],
    containers recursively, Python values by repr-like form."""
    if isinstance(v, tf.TensorSpec):
        return ["TensorSpec", _shape(v.shape), v.dtype.name, v.name]
    if isinstance(v, dict):
        return {str(k): _struct(tf, x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if isinstance(v, (list, tuple)):
        return [type(v).__name__] + [_struct(tf, x) for x in v]
    if hasattr(v, "dtype") and hasattr(v, "shape"):
        return ["Tensor", _shape(v.shape), v.dtype.name]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v.hex()
    return type(v).__name__


def _describe(tf: Any, cf: Any) -> dict:
    """Everything the concrete function exposes about its signature and outputs."""
    d: dict[str, Any] = {}
    d["inputs"] = _error(lambda: [[t.name, t.dtype.name, _shape(t.shape)] for t in cf.inputs])
    d["sig"] = _error(lambda: _struct(tf, cf.structured_input_signature))
    d["outs"] = _error(lambda: _struct(tf, cf.structured_outputs))
    d["outputs"] = _error(lambda: [[t.name, t.dtype.name, _shape(t.shape)] for t in cf.outputs])
    d["output_shapes"] = _error(lambda: _struct(tf, tf.nest.map_structure(_shape, cf.output_shapes)))
    d["output_dtypes"] = _error(lambda: _struct(tf, tf.nest.map_structure(lambda x: x.name, cf.output_dtypes)))
    d["captured"] = _error(lambda: [t.dtype.name for t in cf.captured_inputs])
    d["variables"] = _error(lambda: [v.name for v in cf.variables])
    d["trainable"] = _error(lambda: [v.name for v in cf.trainable_variables])
    d["pretty"] = _error(lambda: cf.pretty_printed_signature(verbose=False))
    return d


def _put(out: dict, case: str, d: Any) -> None:
    """A case's description as one key per field (`case | field`: an OPEN entry names one field), or its
    refusal under the case's own key."""
    if isinstance(d, dict):
        out.update({f"{case} | {k}": v for k, v in d.items()})
    else:
        out[case] = d


def _out(tf: Any, r: Any) -> Any:
    """A call's result as JSON (tensor values by bits)."""
    return tf.nest.map_structure(lambda t: [t.dtype.name, bits(t)] if hasattr(t, "dtype") else _struct(tf, t), r)


# -- f-forms: parameter forms × spec kinds -> the concrete function's description ------------------------------------
def _forms(tf: Any, mk: Any) -> Any:
    S = tf.TensorSpec
    out: dict[str, Any] = {}

    def pos(a, b):
        return a * 2.0 + b

    def dflt(a, b=3.0):
        return a + b

    def dflt_t(a, b=None):
        return a if b is None else a - b

    def kwo(a, *, k, K=1.0):
        return a * k + K

    def star(a, *args):
        return a + tf.add_n(list(args)) if args else a

    def kw(a, **kwargs):
        return {k: a + v for k, v in kwargs.items()}

    def nest(p, q):
        return (p[0] + q["x"], [p[1] * q["y"]])

    def case(x, X, x_1, X_1):
        return x + X + x_1 + X_1

    def under(_a, __b, a_):
        return _a - __b + a_

    def dictkeys(d):
        return tf.add_n([d[k] for k in sorted(d)])

    def ints(a, n):
        return a * n

    def multi(a):
        return a, a * 2, {"z": a + 1, "a": tf.cast(a, tf.int32)}, None, 3

    fns: dict[str, Callable[..., Any]] = {"pos": pos, "dflt": dflt, "dflt_t": dflt_t, "kwo": kwo, "star": star,
                                          "kw": kw, "nest": nest, "case": case, "under": under,
                                          "dictkeys": dictkeys, "ints": ints, "multi": multi}
    cases: dict[str, tuple] = {
        "pos specs": ("pos", (S([2]), S([2])), {}),
        "pos named specs": ("pos", (S([2], name="b"), S([2], name="a")), {}),
        "pos same-name specs": ("pos", (S([2], name="t"), S([2], name="t")), {}),
        "pos case-names specs": ("pos", (S([None], name="T"), S([None], name="t")), {}),
        "pos spec name a_1": ("pos", (S([], name="a_1"), S([], name="a")), {}),
        "pos spec name with slash": ("pos", (S([], name="x/y"), S([])), {}),
        "pos spec name with colon": ("pos", (S([], name="x:0"), S([])), {}),
        "pos spec name -lead": ("pos", (S([], name="-q"), S([])), {}),
        "pos keyword specs": ("pos", (), {"b": S([3]), "a": S([3])}),
        "pos tensor+spec": ("pos", (tf.constant([1.0, 2.0]), S([2])), {}),
        "pos tensors": ("pos", (tf.constant(1.5), tf.constant(2.5)), {}),
        "pos python floats": ("pos", (1.5, 2.5), {}),
        "pos python int and spec": ("pos", (2, S([], tf.int32)), {}),
        "pos numpy": ("pos", (np.float32(1.0), np.array([1.0, 2.0], np.float64)), {}),
        "pos numpy int": ("pos", (np.array([1, 2], np.int64), np.int64(3)), {}),
        "pos unknown rank": ("pos", (S(None), S([None, 2])), {}),
        "dflt one spec": ("dflt", (S([2]),), {}),
        "dflt two specs": ("dflt", (S([2]), S([2])), {}),
        "dflt keyword spec": ("dflt", (S([2]),), {"b": S([2])}),
        "dflt_t none": ("dflt_t", (S([2], tf.float64),), {}),
        "dflt_t spec": ("dflt_t", (S([2], tf.float64), S([2], tf.float64)), {}),
        "kwo specs": ("kwo", (S([]),), {"k": S([])}),
        "kwo both": ("kwo", (S([]),), {"k": S([]), "K": S([])}),
        "kwo named": ("kwo", (S([], name="K"),), {"k": S([], name="k")}),
        "star three": ("star", (S([2]), S([2]), S([2])), {}),
        "star one": ("star", (S([2]),), {}),
        "star named": ("star", (S([2], name="args"), S([2], name="args_1"), S([2])), {}),
        "kw two": ("kw", (S([]),), {"b": S([]), "A": S([])}),
        "kw case": ("kw", (S([]),), {"x": S([]), "X": S([])}),
        "nest": ("nest", ([S([2]), S([2])], {"x": S([2]), "y": S([2])}), {}),
        "nest tuple": ("nest", ((S([2]), S([2])), {"y": S([2]), "x": S([2])}), {}),
        "nest named": ("nest", ([S([2], name="p"), S([2], name="q")], {"x": S([2], name="x"), "y": S([2])}), {}),
        "case": ("case", (S([]), S([]), S([]), S([])), {}),
        "case keyword": ("case", (), {"X_1": S([]), "x_1": S([]), "X": S([]), "x": S([])}),
        "under": ("under", (S([]), S([]), S([])), {}),
        "dictkeys": ("dictkeys", ({"a b": S([]), "1x": S([]), "_k": S([]), "K-1": S([]), "k/1": S([])},), {}),
        "ints": ("ints", (S([2], tf.int32), 3), {}),
        "ints numpy": ("ints", (S([2], tf.int64), np.int64(3)), {}),
        "multi": ("multi", (S([2]),), {}),
    }
    for cname, (fname, args, kwargs) in cases.items():
        f = tf.function(fns[fname])
        r = _error(lambda: f.get_concrete_function(*args, **kwargs))
        _put(out, cname, r if isinstance(r, str) else _describe(tf, r))
    # input signatures
    sigs = {
        "sig pos": (pos, [S([2]), S([2])]),
        "sig pos named": (pos, [S([2], name="B"), S([2], name="b")]),
        "sig nest": (nest, [[S([2]), S([2])], {"x": S([2]), "y": S([2])}]),
        "sig dflt one": (dflt, [S([2])]),
        "sig star": (star, [S([]), S([])]),
        "sig case": (case, [S([])] * 4),
    }
    for cname, (fn, sig) in sigs.items():
        f = tf.function(fn, input_signature=sig)
        r = _error(lambda: f.get_concrete_function())
        _put(out, cname, r if isinstance(r, str) else _describe(tf, r))
    return out


# -- f-methods: methods, variables and captures -----------------------------------------------------------------
def _methods(tf: Any, mk: Any) -> Any:
    S = tf.TensorSpec
    out: dict[str, Any] = {}

    class M(tf.Module):
        def __init__(self) -> None:
            super().__init__(name="m")
            self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
            self.b = tf.Variable([0.5, -0.5], name="b", trainable=False)
            self.c = tf.constant([1.0, 1.0])

        @tf.function
        def f(self, x, scale=1.0):
            return tf.matmul(x, self.w) * scale + self.b + self.c

        @tf.function(input_signature=[S([None, 2], name="inp")])
        def g(self, x):
            return {"y": tf.matmul(x, self.w), "n": tf.shape(x)[0]}

    m = M()
    cf = m.f.get_concrete_function(S([None, 2]))
    _put(out, "method f", _describe(tf, cf))
    _put(out, "method f scale", _describe(tf, m.f.get_concrete_function(S([1, 2]), scale=S([]))))
    _put(out, "method g", _describe(tf, m.g.get_concrete_function()))
    x = tf.constant([[1.0, 2.0]])
    out["call pos"] = _error(lambda: _out(tf, cf(x)))
    out["call kw"] = _error(lambda: _out(tf, cf(x=x)))
    out["call extra"] = _error(lambda: _out(tf, cf(x, x)))
    out["call missing"] = _error(lambda: _out(tf, cf()))
    out["call wrong dtype"] = _error(lambda: _out(tf, cf(tf.constant([[1, 2]]))))
    out["call wrong shape"] = _error(lambda: _out(tf, cf(tf.constant([1.0, 2.0]))))
    out["call python"] = _error(lambda: _out(tf, cf([[1.0, 2.0]])))
    out["call numpy"] = _error(lambda: _out(tf, cf(np.array([[1.0, 2.0]], np.float32))))
    out["call bad kw"] = _error(lambda: _out(tf, cf(y=x)))
    cg = m.g.get_concrete_function()
    out["g call"] = _error(lambda: _out(tf, cg(tf.constant([[1.0, 0.0], [0.0, 1.0]]))))
    out["g call kw inp"] = _error(lambda: _out(tf, cg(inp=x)))
    out["g call kw x"] = _error(lambda: _out(tf, cg(x=x)))
    with tf.GradientTape() as tape:
        y = cf(x)
        loss = tf.reduce_sum(y * y)
    out["grad"] = _error(lambda: [bits(g) if g is not None else None for g in tape.gradient(loss, [m.w, m.b])])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = cg(x)["y"]
    out["grad g x"] = _error(lambda: bits(tape.gradient(y, x)))

    # a variable as an argument
    v = tf.Variable([1.0, 2.0], name="arg_v")

    @tf.function
    def usev(a, b):
        return a * b

    cfv = usev.get_concrete_function(v, S([2]))
    _put(out, "var arg", _describe(tf, cfv))
    out["var arg call"] = _error(lambda: _out(tf, cfv(v, tf.constant([3.0, 4.0]))))
    out["var arg call tensor"] = _error(lambda: _out(tf, cfv(tf.constant([1.0, 1.0]), tf.constant([3.0, 4.0]))))
    # a captured variable
    cv = tf.Variable(2.0, name="cap")
    cv2 = tf.Variable(3, name="capi")

    @tf.function
    def cap(a):
        return a * cv + tf.cast(cv2, tf.float32)

    cfc = cap.get_concrete_function(S([]))
    _put(out, "capture", _describe(tf, cfc))
    with tf.GradientTape() as tape:
        r = cfc(tf.constant(1.5))
    out["capture grad"] = _error(lambda: bits(tape.gradient(r, cv)))
    return out


# -- f-calls: calling concrete functions of each form, flat and structured ------------------------------------------
def _calls(tf: Any, mk: Any) -> Any:
    S = tf.TensorSpec
    out: dict[str, Any] = {}
    one = tf.constant([1.0, 2.0])
    two = tf.constant([3.0, 5.0])

    def pos(a, b):
        return a * 2.0 + b

    def dflt(a, b=3.0):
        return a + b

    def kwo(a, *, k, K=1.0):
        return a * k + K

    def star(a, *args):
        return a + tf.add_n(list(args)) if args else a

    def nest(p, q):
        return (p[0] + q["x"], [p[1] * q["y"]])

    fp = tf.function(pos).get_concrete_function(S([2]), S([2]))
    calls = {
        "pos": lambda: fp(one, two),
        "pos kw": lambda: fp(b=one, a=two),
        "pos mixed": lambda: fp(one, b=two),
        "pos extra": lambda: fp(one, two, one),
        "pos missing": lambda: fp(one),
        "pos dup": lambda: fp(one, a=two),
        "pos unknown kw": lambda: fp(one, two, c=one),
        "pos int": lambda: fp(tf.constant([1, 2]), two),
        "pos float64": lambda: fp(tf.constant([1.0, 2.0], tf.float64), two),
        "pos shape": lambda: fp(tf.constant([1.0, 2.0, 3.0]), two),
        "pos list": lambda: fp([1.0, 2.0], two),
        "pos scalar py": lambda: fp(1.0, two),
        "pos numpy f64": lambda: fp(np.array([1.0, 2.0]), two),
        "pos none": lambda: fp(None, two),
    }
    fd = tf.function(dflt).get_concrete_function(S([2]))
    calls.update({
        "dflt": lambda: fd(one),
        "dflt b same": lambda: fd(one, 3.0),
        "dflt b other": lambda: fd(one, 4.0),
        "dflt b tensor": lambda: fd(one, two),
        "dflt b kw": lambda: fd(one, b=3.0),
    })
    fk = tf.function(kwo).get_concrete_function(S([]), k=S([]))
    calls.update({
        "kwo": lambda: fk(tf.constant(2.0), k=tf.constant(3.0)),
        "kwo pos k": lambda: fk(tf.constant(2.0), tf.constant(3.0)),
        "kwo missing k": lambda: fk(tf.constant(2.0)),
        "kwo K": lambda: fk(tf.constant(2.0), k=tf.constant(3.0), K=1.0),
        "kwo K other": lambda: fk(tf.constant(2.0), k=tf.constant(3.0), K=2.0),
    })
    fs = tf.function(star).get_concrete_function(S([2]), S([2]), S([2]))
    calls.update({
        "star": lambda: fs(one, two, one),
        "star fewer": lambda: fs(one, two),
        "star more": lambda: fs(one, two, one, two),
    })
    fn_ = tf.function(nest).get_concrete_function([S([2]), S([2])], {"x": S([2]), "y": S([2])})
    calls.update({
        "nest": lambda: fn_([one, two], {"x": one, "y": two}),
        "nest tuple": lambda: fn_((one, two), {"x": one, "y": two}),
        "nest kw": lambda: fn_(q={"y": two, "x": one}, p=[one, two]),
        "nest missing key": lambda: fn_([one, two], {"x": one}),
        "nest extra key": lambda: fn_([one, two], {"x": one, "y": two, "z": one}),
        "nest short list": lambda: fn_([one], {"x": one, "y": two}),
        "nest flat": lambda: fn_(one, two, one, two),
    })
    for k, c in calls.items():
        out[k] = _error(lambda: _out(tf, c()))
    # flat calls through the private-but-documented _call_flat are not API; the graph's inputs are
    out["flat inputs nest"] = [t.name for t in fn_.inputs]
    # tracing counts around get_concrete_function and calls
    f = tf.function(pos)
    counts = [f.experimental_get_tracing_count()]
    c1 = f.get_concrete_function(S([2]), S([2]))
    counts.append(f.experimental_get_tracing_count())
    f.get_concrete_function(S([2]), S([2]))
    counts.append(f.experimental_get_tracing_count())
    f(one, two)
    counts.append(f.experimental_get_tracing_count())
    f.get_concrete_function(S([None]), S([None]))
    counts.append(f.experimental_get_tracing_count())
    f(tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 2.0, 3.0]))
    counts.append(f.experimental_get_tracing_count())
    f.get_concrete_function(one, two)
    counts.append(f.experimental_get_tracing_count())
    f.get_concrete_function(S([2], name="x"), S([2], name="y"))
    counts.append(f.experimental_get_tracing_count())
    f.get_concrete_function(1.0, 2.0)
    counts.append(f.experimental_get_tracing_count())
    f(1.0, 2.0)
    counts.append(f.experimental_get_tracing_count())
    f.get_concrete_function(np.float32(1.0), 2.0)
    counts.append(f.experimental_get_tracing_count())
    c1(one, two)
    counts.append(f.experimental_get_tracing_count())
    out["tracing counts"] = counts
    g = tf.function(pos, input_signature=[S([None]), S([None])])
    gc = [g.experimental_get_tracing_count()]
    g.get_concrete_function()
    gc.append(g.experimental_get_tracing_count())
    g.get_concrete_function(S([None]), S([None]))
    gc.append(g.experimental_get_tracing_count())
    g(one, two)
    gc.append(g.experimental_get_tracing_count())
    out["sig get_concrete_function other spec"] = _error(lambda: g.get_concrete_function(S([2]), S([2])) is not None)
    out["sig get_concrete_function other dtype"] = _error(
        lambda: g.get_concrete_function(S([None], tf.int32), S([None], tf.int32)) is not None)
    gc.append(g.experimental_get_tracing_count())
    out["sig tracing counts"] = gc
    # a named spec's trace: a tensor call (no name) runs it, another name traces again
    h = tf.function(pos)
    hc = [h.get_concrete_function(S([2], name="x"), S([2], name="y")) is not None, h.experimental_get_tracing_count()]
    h(one, two)
    hc.append(h.experimental_get_tracing_count())
    h.get_concrete_function(S([2]), S([2]))
    hc.append(h.experimental_get_tracing_count())
    h.get_concrete_function(S([2], name="x"), S([2], name="z"))
    hc.append(h.experimental_get_tracing_count())
    h.get_concrete_function(S([2], name="x"), S([2], name="y"))
    hc.append(h.experimental_get_tracing_count())
    h(tf.constant([1.0]), tf.constant([2.0]))
    hc.append(h.experimental_get_tracing_count())
    out["named spec tracing counts"] = hc
    r = tf.function(pos, reduce_retracing=True)
    rc = []
    for n in (1, 2, 3):
        r.get_concrete_function(S([n], name="x"), S([n]))
        rc.append(r.experimental_get_tracing_count())
    for n in (4, 5):
        r.get_concrete_function(S([n]), S([n]))
        rc.append(r.experimental_get_tracing_count())
    rc.append(_struct(tf, r.get_concrete_function(S([6], name="x"), S([6])).structured_input_signature))
    rc.append(r.experimental_get_tracing_count())
    out["named spec reduce_retracing"] = rc
    u = tf.function(pos, reduce_retracing=True)
    out["reduce_retracing specs"] = [[_struct(tf, u.get_concrete_function(S([n, 2]), S([n, 2])).structured_input_signature),
                                      u.experimental_get_tracing_count()] for n in (1, 2, 3)]
    # refusals at get_concrete_function
    out["gcf missing arg"] = _error(lambda: tf.function(pos).get_concrete_function(S([2])) is not None)
    out["gcf extra arg"] = _error(lambda: tf.function(pos).get_concrete_function(S([2]), S([2]), S([2])) is not None)
    out["gcf unknown kw"] = _error(lambda: tf.function(pos).get_concrete_function(S([2]), c=S([2])) is not None)
    out["gcf kwo missing"] = _error(lambda: tf.function(kwo).get_concrete_function(S([])) is not None)
    return out


# -- f-more: literals, namedtuple outputs, re-laid keyword-only specs, the function cache, variables' trace types ------
def _more(tf: Any, mk: Any) -> Any:
    import collections
    S = tf.TensorSpec
    out: dict[str, Any] = {}
    one = tf.constant([1.0, 2.0])
    Pair = collections.namedtuple("Pair", ["lo", "hi"])

    def dflt(a, b=3.0):
        return a + b

    fn_nan = tf.function(dflt).get_concrete_function(S([2]), float("nan"))
    out["nan literal call nan"] = _error(lambda: _out(tf, fn_nan(one, float("nan"))))
    out["nan literal call 1"] = _error(lambda: _out(tf, fn_nan(one, 1.0)))
    out["nan literal sig"] = _error(lambda: _struct(tf, fn_nan.structured_input_signature))
    pair = tf.function(lambda a: Pair(a - 1.0, a + 1.0)).get_concrete_function(S([None]))
    _put(out, "namedtuple output", _describe(tf, pair))
    out["namedtuple call"] = _error(lambda: _out(tf, tuple(pair(one))))

    def kwdef(x, *, k=4.0):
        return x * k

    out["kwonly default two specs"] = _error(
        lambda: tf.function(kwdef, input_signature=[S([]), S([])]).get_concrete_function() is not None)
    out["kwonly default one spec"] = _error(
        lambda: _struct(tf, tf.function(kwdef, input_signature=[S([])]).get_concrete_function()
                        .structured_input_signature))
    runs: list = []

    def counted(a):
        runs.append(1)
        return a * 2.0

    f = tf.function(counted)
    c1 = f.get_concrete_function(S([2]))
    c2 = f.get_concrete_function(S([2]))
    c3 = f.get_concrete_function(tf.constant([5.0, 6.0]))
    out["cache python runs"] = [len(runs), f.experimental_get_tracing_count(), c1 is c2, c1 is c3]
    f(one)
    out["cache python runs after call"] = [len(runs), f.experimental_get_tracing_count()]
    v1, v2 = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])
    v3 = tf.Variable([1.0, 2.0], trainable=False)
    g = tf.function(lambda v: v * 2.0)
    counts = []
    for v in (v1, v2, v3, v1):
        g.get_concrete_function(v)
        counts.append(g.experimental_get_tracing_count())
    out["variable trace types"] = counts
    h = tf.function(lambda d: tf.constant(isinstance(d["a"], np.ndarray)))
    out["numpy in dict"] = _error(lambda: _out(tf, h({"a": np.array([1.0])})))
    out["numpy in dict concrete"] = _error(
        lambda: _struct(tf, h.get_concrete_function({"a": np.array([1.0])}).structured_input_signature))
    return out


program("f-forms", _forms)
program("f-methods", _methods)
program("f-calls", _calls)
program("f-more", _more)

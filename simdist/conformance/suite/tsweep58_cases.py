"""The tf.function and GradientTape sweep's programs (test_tsweep58.py, fifty-eighth session): tracing and retracing,
input signatures, Python and object arguments, methods, autograph constructs and the tape's options, crossed by rule.

What is crossed (and what earlier modules did not: blind73 took reduce_retracing's counts over four sequences of two
and three parameters; blind65/67/69/71 the relaxed traces of one and two parameters):
- reduce_retracing False and True over 1, 2 and 3 parameters whose shape, rank or dtype change at different calls
  (each later call changing another parameter, back to an earlier shape, a Python scalar beside the tensors): each
  call's value, the Python side-effect trace count, experimental_get_tracing_count and the static shapes and dtypes
  each trace saw (the relaxed key);
- input_signature with None dimensions, an unknown rank, nested tuples and dicts, TensorSpec names, and calls that
  fit, do not fit (error classes), with Python values or keywords; the concrete function's
  structured_input_signature, structured_outputs and output shapes;
- Python arguments (bools, ints, floats, None, tuples, dicts, plain objects hashed by identity, tf.Variable) by
  position and keyword, defaults omitted and given, *args and **kwargs; methods (bound, tf.Module, a Keras layer),
  jit_compile=True, experimental_autograph_options;
- autograph: for over tf.range, a tensor, a dataset and a Python list; while with break, continue and return; if/elif
  on tensors with branch dtypes and shapes differing; TensorArray; nested functions; variables created on the first
  call only;
- GradientTape: persistent, watch_accessed_variables=False with watch, unconnected_gradients NONE and ZERO,
  output_gradients, stop_recording, reset, nested tapes, jacobian and batch_jacobian (experimental_use_pfor both ways,
  unconnected, parallel_iterations), integer and bool sources, stop_gradient, custom_gradient with variables and with
  keyword arguments, recompute_grad, gradients through tf.cond, tf.while_loop, TensorArray and tf.gather of variables
  (IndexedSlices' shapes), ops of several outputs, ForwardAccumulator's jvp.

Inputs are small dyadic rationals (np.random.RandomState arithmetic: k / 8) so sums and products of a few are exact:
no value depends on the CPU's kernels, no program is host-dependent. TF 2.21's answers are recorded by
`python -m simdist.conformance.suite.test_tsweep58 --record` on this session's AVX-512 Xeon with oneDNN on."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "tsweep58_reference.json.gz")

REF = RecordedPrograms(PATH, (), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 found by this sweep and not fixed: (program, key left out, the evidence)
OPEN: tuple[tuple[str, str, str], ...] = (
    ("fn-sig-nested-tuple", "input",
     "get_concrete_function() of a tf.function whose input_signature nests TensorSpecs in a tuple or a dict: TF 2.21 "
     "traces it with a placeholder per spec; simdist passes the nested specs themselves to the Python (its dry runs "
     "make placeholders for top-level specs only: tf/_concrete.py trace), so the body's first op is TypeError "
     "'Expected any non-tensor type, but got a tensor instead.' (the calls themselves agree; a dict of TensorSpecs "
     "given to get_concrete_function of a function without a signature is the same class: the spec reaches the "
     "Python, TypeError)"),
    ("fn-sig-nested-dict", "input", "as fn-sig-nested-tuple"),
    ("fn-concrete-surface", "varargs kwonly inputs",
     "a concrete function's input tensors are named after a TensorSpec's own name when it has one: TF 2.21 "
     "['a:0', 'second:0', 'rest_1:0', 'extra:0', 'k:0'] for get_concrete_function(spec, TensorSpec(name='second'), "
     "...), simdist names every placeholder after its parameter (rest_0:0)"),
    ("fn-concrete-surface", "python input inputs", "as 'varargs kwonly inputs' (TF 'cc:0', simdist 'c:0')"),
    ("fn-concrete-surface", "varargs kwonly pretty",
     "pretty_printed_signature of a function with *args: TF 2.21 writes '/, *' before the keyword-only parameters "
     "(the *args parameters are positional-only) and each TensorSpec with its own name (name='second'); simdist "
     "writes '*' alone and name=None"),
    ("fn-concrete-surface", "python input pretty", "as 'varargs kwonly pretty' (TF name='cc', simdist name=None)"),
    ("fn-concrete-surface", "constant and none outputs output_shapes",
     "output_shapes of a concrete function returning None in a list: TF 2.21 TensorShape(None), simdist None"),
    ("tape-gradient-names-in-function", "sum gradient name",
     "the gradient of a reduce_sum over every axis of a fully defined shape in a tf.function: TF 2.21's _SumGrad "
     "reshapes and Tiles (gradient_tape/blk/inner/Tile:0), simdist's _sum_grad_to broadcasts "
     "(gradient_tape/blk/inner/BroadcastTo:0); the values agree, the node's name differs"),
)


def _open(name: str, out: Any) -> Any:
    for prog, key, _why in OPEN:
        if prog == name and isinstance(out, dict):
            out.pop(key, None)
    return out


def program(name: str, strategy: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register fn(tf) (fn(tf, mk) with `strategy`: mk() is MirroredStrategy over two CPUs) as a recorded program."""
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        REF.add(name, lambda tf, mk: _open(name, fn(tf, mk) if strategy else fn(tf)))
        return fn
    return deco


def dy(name: str, *shape: int, lo: int = -24, hi: int = 24) -> np.ndarray:
    """float32 values k / 8 (exact sums and products of a few)."""
    return (rng(name).randint(lo, hi, size=shape) / 8.0).astype("float32")


def b(x: Any) -> Any:
    """A tensor's (or None's, IndexedSlices') observation: values (floats by their bits), shape, dtype."""
    if x is None:
        return None
    if hasattr(x, "indices") and hasattr(x, "dense_shape"):
        return {"slices": b(x.values), "indices": b(x.indices),
                "dense_shape": None if x.dense_shape is None else bits(x.dense_shape)}
    if hasattr(x, "numpy") or isinstance(x, np.ndarray):
        a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
        v = [bits(a.real), bits(a.imag)] if np.iscomplexobj(a) else bits(a)
        return [v, list(a.shape), x.dtype.name]
    return repr(x)


def shp(x: Any) -> Any:
    """A traced value's static shape (None for an unknown rank) and dtype, or a Python value's repr."""
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        s = x.shape
        return [None if s.rank is None else s.as_list(), x.dtype.name]
    return repr(x)


def sig(tf: Any, s: Any) -> Any:
    """A structured signature: each TensorSpec as [shape, dtype, name], other leaves by repr."""
    def leaf(v: Any) -> Any:
        if isinstance(v, tf.TensorSpec):
            return ["spec", None if v.shape.rank is None else v.shape.as_list(), v.dtype.name, v.name]
        return repr(v)
    return tf.nest.map_structure(leaf, s)


# -- 1. reduce_retracing over parameters changing shape, rank, dtype at different calls -----------------------------
#: call sequences: each call a tuple of (shape, dtype) per tensor parameter
SEQUENCES: dict[str, list[tuple[tuple[tuple[int, ...], str], ...]]] = {
    "one-shapes": [(((2,), "f"),), (((3,), "f"),), (((4,), "f"),), (((2,), "f"),)],
    "one-rank": [(((2,), "f"),), (((2, 3), "f"),), (((3,), "f"),), (((), "f"),), (((4, 1), "f"),)],
    "one-2d": [(((2, 3), "f"),), (((2, 4), "f"),), (((3, 4), "f"),), (((3, 3), "f"),), (((1, 1, 1), "f"),)],
    "one-dtype": [(((2,), "f"),), (((2,), "i"),), (((3,), "f"),), (((3,), "i"),), (((4,), "d"),)],
    "two-staggered": [(((1,), "f"), ((5,), "f")), (((2,), "f"), ((5,), "f")), (((2,), "f"), ((6,), "f")),
                      (((3,), "f"), ((7,), "f")), (((1,), "f"), ((5,), "f")), (((4,), "f"), ((5,), "f"))],
    "two-second-first": [(((2,), "f"), ((3,), "f")), (((2,), "f"), ((4,), "f")), (((5,), "f"), ((4,), "f")),
                         (((2,), "f"), ((3,), "f")), (((6,), "f"), ((8,), "f"))],
    "two-rank-then-shape": [(((2,), "f"), ((3,), "f")), (((2, 2), "f"), ((3,), "f")), (((2,), "f"), ((4,), "f")),
                            (((2, 3), "f"), ((5,), "f")), (((4,), "f"), ((5,), "f"))],
    "two-2d-dims": [(((2, 3), "f"), ((4, 5), "f")), (((2, 4), "f"), ((4, 5), "f")), (((2, 4), "f"), ((3, 5), "f")),
                    (((5, 3), "f"), ((4, 6), "f")), (((2, 3), "f"), ((4, 5), "f"))],
    "two-dtype-and-shape": [(((2,), "f"), ((2,), "f")), (((3,), "f"), ((2,), "i")), (((4,), "f"), ((2,), "f")),
                            (((5,), "f"), ((3,), "i")), (((6,), "f"), ((4,), "f"))],
    "three-staggered": [(((1,), "f"), ((2,), "f"), ((3,), "f")), (((4,), "f"), ((2,), "f"), ((3,), "f")),
                        (((4,), "f"), ((5,), "f"), ((3,), "f")), (((4,), "f"), ((5,), "f"), ((6,), "f")),
                        (((1,), "f"), ((2,), "f"), ((3,), "f")), (((7,), "f"), ((8,), "f"), ((9,), "f"))],
    "three-one-fixed": [(((1, 2), "f"), ((3,), "f"), ((2,), "f")), (((1, 3), "f"), ((3,), "f"), ((2,), "f")),
                        (((1, 3), "f"), ((4,), "f"), ((2,), "f")), (((2, 3), "f"), ((4,), "f"), ((2,), "f")),
                        (((2, 3), "f"), ((4,), "f"), ((2, 2), "f"))],
}
DT = {"f": "float32", "i": "int32", "d": "float64"}


def _tensor(tf: Any, shape: tuple[int, ...], dt: str, k: int) -> Any:
    n = int(np.prod(shape)) if shape else 1
    v = (np.arange(n).reshape(shape) % 5 - 2 + k).astype(DT[dt])
    if dt != "i":
        v = v * 0.375
    return tf.constant(v)


def _sequence(name: str, reduce_retracing: bool) -> Callable[[Any], Any]:
    calls = SEQUENCES[name]

    def prog(tf: Any) -> Any:
        seen: list[Any] = []

        @tf.function(reduce_retracing=reduce_retracing)
        def f(*xs: Any) -> Any:
            seen.append([shp(x) for x in xs])
            return tf.add_n([tf.reduce_sum(tf.cast(x, tf.float32)) * (i + 1) for i, x in enumerate(xs)])
        out = []
        for call in calls:
            args = [_tensor(tf, sh, dt, i) for i, (sh, dt) in enumerate(call)]
            v = error(lambda: b(f(*args)))
            out.append([v, len(seen), f.experimental_get_tracing_count()])
        return {"calls": out, "traces": seen}
    return prog


for _seq in SEQUENCES:
    for _rr in (False, True):
        program(f"fn-retrace-{_seq}-{'reduce' if _rr else 'exact'}")(_sequence(_seq, _rr))


@program("fn-retrace-python-and-tensors")
def _python_and_tensors(tf: Any) -> Any:
    """A Python scalar beside tensors whose shapes change, reduce_retracing both ways: a new Python value always
    retraces, the tensors' keys relax."""
    out = {}
    for rr in (False, True):
        seen: list[Any] = []

        @tf.function(reduce_retracing=rr)
        def f(x: Any, n: Any, y: Any) -> Any:
            seen.append([shp(x), repr(n), shp(y)])
            return tf.reduce_sum(x) * n + tf.reduce_sum(y)
        got = []
        for xs, n, ys in (((2,), 2, (3,)), ((3,), 2, (3,)), ((3,), 3, (3,)), ((4,), 3, (4,)), ((2,), 2, (5,)),
                          ((2,), 2.0, (3,)), ((5,), True, (1,))):
            got.append([error(lambda: b(f(_tensor(tf, xs, "f", 0), n, _tensor(tf, ys, "f", 1)))), len(seen),
                        f.experimental_get_tracing_count()])
        out[f"rr={rr}"] = {"calls": got, "traces": seen}
    return out


@program("fn-retrace-nested-structures")
def _nested(tf: Any) -> Any:
    """Tensors inside a tuple, a dict and a list whose shapes change at different calls; reduce_retracing both ways."""
    out = {}
    for rr in (False, True):
        seen: list[Any] = []

        @tf.function(reduce_retracing=rr)
        def f(t: Any, d: Any) -> Any:
            seen.append([[shp(x) for x in t], {k: shp(v) for k, v in sorted(d.items())}])
            return tf.reduce_sum(t[0]) - tf.reduce_sum(t[1]) + tf.reduce_sum(d["a"]) * 2.0 + tf.reduce_sum(d["b"])
        got = []
        for s0, s1, sa, sb in (((1,), (2,), (3,), (4,)), ((2,), (2,), (3,), (4,)), ((2,), (2,), (5,), (4,)),
                               ((2,), (3,), (5,), (6,)), ((1,), (2,), (3,), (4,)), ((2, 2), (2,), (3,), (4,))):
            args = ((_tensor(tf, s0, "f", 0), _tensor(tf, s1, "f", 1)),
                    {"b": _tensor(tf, sb, "f", 3), "a": _tensor(tf, sa, "f", 2)})
            got.append([error(lambda: b(f(*args))), len(seen), f.experimental_get_tracing_count()])
        out[f"rr={rr}"] = {"calls": got, "traces": seen}
    return out


@program("fn-retrace-container-lengths")
def _container_lengths(tf: Any) -> Any:
    """Lists and tuples of tensors whose length grows and shrinks between calls (a trace of n elements never serves
    n +- 1), dicts gaining and losing a key, a list of one shape then of mixed shapes; reduce_retracing both ways."""
    out = {}
    for rr in (False, True):
        seen: list[Any] = []

        @tf.function(reduce_retracing=rr)
        def f(xs: Any, d: Any) -> Any:
            seen.append([type(xs).__name__, [shp(x) for x in xs], sorted(d)])
            return tf.add_n([tf.reduce_sum(x) * (i + 1) for i, x in enumerate(xs)]) + tf.add_n(
                [tf.reduce_sum(d[k]) for k in sorted(d)])
        got = []
        for kind, shapes, keys in (("list", [(2,), (2,)], "a"), ("list", [(2,), (2,), (2,)], "a"),
                                   ("list", [(2,)], "a"), ("list", [(3,), (3,)], "a"), ("tuple", [(2,), (2,)], "a"),
                                   ("list", [(2,), (2,)], "ab"), ("list", [(2,), (2,)], "b"),
                                   ("list", [(2,), (4,)], "a"), ("list", [(5,), (3,), (1,)], "a"),
                                   ("list", [(2,), (2,), (2,), (2,)], "a"), ("tuple", [(2,)], "ab")):
            xs = [_tensor(tf, sh, "f", i) for i, sh in enumerate(shapes)]
            d = {k: _tensor(tf, (2,), "f", 5 + j) for j, k in enumerate(keys)}
            got.append([error(lambda: b(f(tuple(xs) if kind == "tuple" else xs, d))), len(seen),
                        f.experimental_get_tracing_count()])
        out[f"rr={rr}"] = {"calls": got, "traces": seen}
    return out


@program("fn-retrace-defaults")
def _defaults(tf: Any) -> Any:
    """Parameters with defaults (a Python number, None, a tensor) left out, given equal to the default, given
    otherwise, by position and keyword, while a tensor's shape changes; reduce_retracing both ways."""
    out = {}
    for rr in (False, True):
        seen: list[Any] = []
        dflt = tf.constant([0.5, 0.25])

        @tf.function(reduce_retracing=rr)
        def f(x: Any, k: Any = 2, y: Any = None, z: Any = dflt) -> Any:
            seen.append([shp(x), repr(k), shp(y) if y is not None else None, shp(z)])
            r = tf.reduce_sum(x) * k + tf.reduce_sum(z)
            return r if y is None else r + tf.reduce_sum(y)
        got = []
        for label, shape, kw in (("x", (2,), {}), ("x bigger", (3,), {}), ("x k=2", (4,), {"k": 2}),
                                 ("x k=3", (4,), {"k": 3}), ("x y", (5,), {"y": "t"}), ("x y bigger", (6,), {"y": "t"}),
                                 ("x z", (2,), {"z": "t3"}), ("x z again", (7,), {"z": "t3"}),
                                 ("x k=2.0", (2,), {"k": 2.0}), ("x again", (8,), {})):
            a = {k: (_tensor(tf, (3,), "f", 4) if v == "t3" else _tensor(tf, (2,), "f", 3) if v == "t" else v)
                 for k, v in kw.items()}
            got.append([label, error(lambda: b(f(_tensor(tf, shape, "f", 0), **a))), len(seen),
                        f.experimental_get_tracing_count()])
        out[f"rr={rr}"] = {"calls": got, "traces": seen}
    return out


# -- 2. input_signature ----------------------------------------------------------------------------------------------
SIGS: dict[str, Callable[[Any], Any]] = {
    "none-dim": lambda tf: [tf.TensorSpec([None], tf.float32)],
    "none-dims-2d": lambda tf: [tf.TensorSpec([None, 3], tf.float32, name="rows")],
    "unknown-rank": lambda tf: [tf.TensorSpec(None, tf.float32)],
    "scalar-int": lambda tf: [tf.TensorSpec([], tf.int32, name="n")],
    "two-named": lambda tf: [tf.TensorSpec([2], tf.float32, name="a"), tf.TensorSpec([None], tf.float32, name="b")],
    "nested-tuple": lambda tf: [(tf.TensorSpec([None], tf.float32), tf.TensorSpec([2, None], tf.float32))],
    "nested-dict": lambda tf: [{"y": tf.TensorSpec([None], tf.float32, name="why"),
                                "x": tf.TensorSpec([3], tf.float64)}],
}
#: the calls of each signature's function (builders of positional arguments)
SIG_CALLS: dict[str, list[Callable[[Any], Any]]] = {
    "none-dim": [lambda tf: [tf.constant(dy("s1", 3))], lambda tf: [tf.constant(dy("s2", 5))],
                 lambda tf: [tf.constant(dy("s3", 2, 2))], lambda tf: [tf.constant([1, 2])],
                 lambda tf: [[0.5, 1.5]], lambda tf: [np.float32([0.25, 0.75, 2.0])], lambda tf: [2.5]],
    "none-dims-2d": [lambda tf: [tf.constant(dy("s4", 2, 3))], lambda tf: [tf.constant(dy("s5", 0, 3))],
                     lambda tf: [tf.constant(dy("s6", 2, 4))]],
    "unknown-rank": [lambda tf: [tf.constant(1.5)], lambda tf: [tf.constant(dy("s7", 2, 2, 2))],
                     lambda tf: [tf.constant(dy("s8", 3))], lambda tf: [tf.constant([1.0], tf.float64)]],
    "scalar-int": [lambda tf: [tf.constant(3)], lambda tf: [4], lambda tf: [tf.constant(3, tf.int64)],
                   lambda tf: [2.5], lambda tf: [tf.constant([3])]],
    "two-named": [lambda tf: [tf.constant(dy("s9", 2)), tf.constant(dy("s10", 4))],
                  lambda tf: [tf.constant(dy("s11", 3)), tf.constant(dy("s12", 4))],
                  lambda tf: [tf.constant(dy("s13", 2))]],
    "nested-tuple": [lambda tf: [(tf.constant(dy("s14", 3)), tf.constant(dy("s15", 2, 4)))],
                     lambda tf: [(tf.constant(dy("s16", 1)), tf.constant(dy("s17", 2, 1)))],
                     lambda tf: [[tf.constant(dy("s18", 1)), tf.constant(dy("s19", 2, 1))]],
                     lambda tf: [(tf.constant(dy("s20", 1)),)]],
    "nested-dict": [lambda tf: [{"x": tf.constant(dy("s21", 3).astype("float64")), "y": tf.constant(dy("s22", 2))}],
                    lambda tf: [{"x": tf.constant(dy("s23", 3).astype("float64")), "y": tf.constant(dy("s24", 7))}],
                    lambda tf: [{"x": tf.constant(dy("s25", 3)), "y": tf.constant(dy("s26", 7))}],
                    lambda tf: [{"y": tf.constant(dy("s27", 2))}]],
}


def unique(seen: list[Any]) -> list[Any]:
    """The distinct traces a Python side effect saw, in order (simdist may run the Python again for a call TF serves
    from a trace where an input_signature leaves dimensions unknown or an argument is a variable: docs/spec.md
    function.trace-once; the count compared is experimental_get_tracing_count)."""
    out: list[Any] = []
    for s in seen:
        if s not in out:
            out.append(s)
    return out


def _signature(name: str) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        seen: list[Any] = []

        @tf.function(input_signature=SIGS[name](tf))
        def f(*xs: Any) -> Any:
            seen.append(tf.nest.map_structure(shp, list(xs)))
            return [tf.reduce_sum(tf.cast(x, tf.float32)) * (i + 1.5) for i, x in enumerate(tf.nest.flatten(xs))]
        calls = []
        for c in SIG_CALLS[name]:
            calls.append([error(lambda: [b(v) for v in f(*c(tf))]), f.experimental_get_tracing_count()])
        out = {"calls": calls, "traces": unique(seen)}
        if name.startswith("nested-"):   # (OPEN: get_concrete_function() of a nested signature)
            return out
        cf = f.get_concrete_function()
        out.update({"input": sig(tf, cf.structured_input_signature),
                    "outputs": tf.nest.map_structure(shp, cf.structured_outputs),
                    "cf call": error(lambda: [b(v) for v in cf(*SIG_CALLS[name][0](tf))]),
                    "count after": f.experimental_get_tracing_count()})
        return out
    return prog


for _s in SIGS:
    program(f"fn-sig-{_s}")(_signature(_s))


@program("fn-sig-keywords-and-defaults")
def _sig_keywords(tf: Any) -> Any:
    """An input_signature with a keyword call, a default outside the signature, too many arguments."""
    seen: list[Any] = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x"), tf.TensorSpec([], tf.float32)])
    def f(x: Any, s: Any, k: int = 3) -> Any:
        seen.append([shp(x), shp(s), repr(k)])
        return tf.reduce_sum(x) * s + k
    x, s = tf.constant(dy("k1", 4)), tf.constant(1.5)
    out = {}
    for label, fn in (("positional", lambda: f(x, s)), ("keywords", lambda: f(s=s, x=x)),
                      ("x keyword", lambda: f(x, s=s)), ("default given", lambda: f(x, s, 4)),
                      ("default keyword", lambda: f(x, s, k=5)), ("missing", lambda: f(x)),
                      ("extra", lambda: f(x, s, 3, 4)), ("unknown keyword", lambda: f(x, s, z=1))):
        out[label] = [error(lambda: b(fn())), f.experimental_get_tracing_count()]
    out["traces"] = unique(seen)
    cf = f.get_concrete_function()
    out["input"] = sig(tf, cf.structured_input_signature)
    out["count"] = f.experimental_get_tracing_count()
    return out


@program("fn-concrete-functions")
def _concrete(tf: Any) -> Any:
    """get_concrete_function from specs, tensors and Python values; its signature, outputs and calls; the trace
    count it adds; a call that does not fit."""
    seen: list[Any] = []

    @tf.function
    def f(x: Any, scale: float = 2.0, flag: bool = False) -> Any:
        seen.append([shp(x), repr(scale), repr(flag)])
        y = x * scale
        return {"y": y, "s": tf.reduce_sum(y)} if flag else (y, tf.shape(y))
    out = {}
    c1 = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32, name="inp"))
    out["c1"] = [sig(tf, c1.structured_input_signature), tf.nest.map_structure(shp, c1.structured_outputs),
                 f.experimental_get_tracing_count()]
    c2 = f.get_concrete_function(tf.constant(dy("c2", 3)), 0.5, True)
    out["c2"] = [sig(tf, c2.structured_input_signature), tf.nest.map_structure(shp, c2.structured_outputs),
                 f.experimental_get_tracing_count()]
    c3 = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
    out["c3 same"] = f.experimental_get_tracing_count()
    out["traces"] = unique(seen)
    out["call c1"] = error(lambda: tf.nest.map_structure(b, c1(tf.constant(dy("c4", 3, 2)))))
    out["call c1 wrong shape"] = error(lambda: tf.nest.map_structure(b, c1(tf.constant(dy("c5", 3)))))
    out["call c1 wrong dtype"] = error(lambda: tf.nest.map_structure(b, c1(tf.constant([[1, 2]]))))
    out["call c2"] = error(lambda: tf.nest.map_structure(b, c2(tf.constant(dy("c6", 3)))))
    out["call c2 other python"] = error(lambda: tf.nest.map_structure(b, c2(tf.constant(dy("c6", 3)), 0.25, True)))
    out["call f matches c1"] = [error(lambda: tf.nest.map_structure(b, f(tf.constant(dy("c7", 5, 2))))),
                                f.experimental_get_tracing_count()]
    out["c3 output shapes"] = error(lambda: tf.nest.map_structure(shp, c3.outputs))
    return out


@program("fn-unknown-rank-reductions")
def _unknown_rank_reductions(tf: Any) -> Any:
    """The static shapes of reductions of an input of unknown rank (an input_signature's TensorSpec(None)): axis
    omitted (a scalar: TF's _may_reduce_to_scalar), keepdims, an axis given; and their values."""
    got: dict[str, Any] = {}

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x: Any) -> Any:
        outs = {"sum": tf.reduce_sum(x), "mean": tf.reduce_mean(x), "max": tf.reduce_max(x),
                "min": tf.reduce_min(x), "prod": tf.reduce_prod(x), "any": tf.reduce_any(x > 0.0),
                "all": tf.reduce_all(x > 0.0), "logsumexp": tf.reduce_logsumexp(x * 0.0),
                "euclidean": tf.math.reduce_euclidean_norm(x * 0.0 + 3.0), "std": tf.math.reduce_std(x * 0.0),
                "variance": tf.math.reduce_variance(x * 0.0), "count_nonzero": tf.math.count_nonzero(x),
                "sum keepdims": tf.reduce_sum(x, keepdims=True), "sum axis 0": tf.reduce_sum(x, axis=0),
                "max keepdims": tf.reduce_max(x, keepdims=True), "sum axis list": tf.reduce_sum(x, axis=[0])}
        got.update({k: shp(v) for k, v in outs.items()})
        return outs["sum"], outs["prod"], outs["count_nonzero"]
    vals = [b(v) for v in f(tf.constant(dy("ur", 2, 3)))]
    return {"shapes": got, "values": vals}


# -- 3. Python and object arguments ----------------------------------------------------------------------------------
class Box:
    """A plain object: hashed by identity, so each new instance retraces."""
    def __init__(self, k: float) -> None:
        self.k = k


@program("fn-args-python-values")
def _python_values(tf: Any) -> Any:
    """bools, ints, floats, None, tuples, dicts, plain objects: when each call retraces, and the value inside."""
    seen: list[Any] = []

    @tf.function
    def f(x: Any, p: Any) -> Any:
        seen.append(repr(p) if not isinstance(p, Box) else "Box")
        if isinstance(p, Box):
            return x * p.k
        if p is None:
            return x
        if isinstance(p, (tuple, list)):
            return x * float(sum(tf.nest.flatten(p)))
        if isinstance(p, dict):
            return x * float(p["a"])
        return x * float(p) if not isinstance(p, bool) else (x if p else -x)
    x = tf.constant(dy("pv", 3))
    b1, b2 = Box(2.0), Box(2.0)
    out = []
    for p in (1, 1, True, 1.0, 2, None, None, (1, 2), (1, 2), [1, 2], {"a": 3}, {"a": 3}, {"a": 4}, b1, b1, b2,
              False, 0, 0.0, -0.0, (1, (2, 3))):
        out.append([b(f(x, p)), len(seen), f.experimental_get_tracing_count()])
    b1.k = 5.0
    out.append(["box mutated", b(f(x, b1)), len(seen)])
    return {"calls": out, "traces": seen}


@program("fn-args-numpy-and-lists")
def _numpy_args(tf: Any) -> Any:
    """NumPy arrays and lists of numbers as arguments (converted to tensors or kept as Python values)."""
    seen: list[Any] = []

    @tf.function
    def f(a: Any) -> Any:
        seen.append(shp(a) if hasattr(a, "dtype") else repr(a))
        return tf.reduce_sum(tf.cast(a, tf.float32)) if hasattr(a, "dtype") else tf.constant(float(len(a)))
    out = []
    for a in (np.float32([1.5, 2.5]), np.float32([3.5, 0.5]), np.float64([1.5, 2.5]), np.int32([1, 2, 3]),
              [1.5, 2.5], [1.5, 2.5], (1, 2), np.float32(2.5), np.float32(3.5)):
        out.append([b(f(a)), len(seen), f.experimental_get_tracing_count()])
    return {"calls": out, "traces": seen}


@program("fn-args-variables")
def _variable_args(tf: Any) -> Any:
    """tf.Variable arguments: the same variable again, another of the same shape and dtype, another shape, another
    dtype; assign inside; reduce_retracing both ways."""
    out = {}
    for rr in (False, True):
        seen: list[Any] = []

        @tf.function(reduce_retracing=rr)
        def f(v: Any, x: Any) -> Any:
            seen.append([shp(v), type(v).__name__ if "Variable" in type(v).__name__ else "other"])
            v.assign_add(x)
            return v.read_value() * 2.0
        v1 = tf.Variable(dy("va1", 2))
        v2 = tf.Variable(dy("va2", 2))
        v3 = tf.Variable(dy("va3", 3))
        v4 = tf.Variable(dy("va4", 2).astype("float64"))
        got = []
        for v, x in ((v1, dy("vx1", 2)), (v1, dy("vx2", 2)), (v2, dy("vx3", 2)), (v3, dy("vx4", 3)),
                     (v4, dy("vx5", 2).astype("float64")), (v1, dy("vx6", 2))):
            got.append([error(lambda: b(f(v, tf.constant(x)))), f.experimental_get_tracing_count()])
        out[f"rr={rr}"] = {"calls": got, "traces": unique(seen), "v1": b(v1), "v4": b(v4)}
    return out


@program("fn-args-keywords-defaults-varargs")
def _keywords(tf: Any) -> Any:
    """keyword vs positional calls, defaults omitted and given (equal to the default or not), *args and **kwargs."""
    seen: list[Any] = []

    @tf.function
    def f(x: Any, y: Any = None, *rest: Any, scale: float = 1.0, **kw: Any) -> Any:
        seen.append([shp(x), shp(y) if y is not None else None, len(rest), repr(scale), sorted(kw)])
        r = x * scale
        if y is not None:
            r = r + y
        for t in rest:
            r = r - t
        for k in sorted(kw):
            r = r * kw[k]
        return r
    x, y = tf.constant(dy("kw1", 2)), tf.constant(dy("kw2", 2))
    out = []
    for label, fn in (("x", lambda: f(x)), ("x y", lambda: f(x, y)), ("x y=", lambda: f(x, y=y)),
                      ("x= y=", lambda: f(y=y, x=x)), ("y=None", lambda: f(x, None)),
                      ("scale default given", lambda: f(x, scale=1.0)), ("scale 2", lambda: f(x, scale=2.0)),
                      ("rest", lambda: f(x, y, y, y)), ("rest again", lambda: f(x, y, y, y)),
                      ("kw", lambda: f(x, z=tf.constant(dy("kw3", 2)))),
                      ("kw two", lambda: f(x, b=tf.constant(dy("kw4", 2)), a=tf.constant(dy("kw5", 2)))),
                      ("kw two swapped", lambda: f(x, a=tf.constant(dy("kw5", 2)), b=tf.constant(dy("kw4", 2)))),
                      ("x twice", lambda: f(x, x=x))):
        out.append([label, error(lambda: b(fn())), len(seen), f.experimental_get_tracing_count()])
    return {"calls": out, "traces": seen}


# -- 4. methods, jit_compile, autograph options ----------------------------------------------------------------------
@program("fn-methods")
def _methods(tf: Any) -> Any:
    """A tf.function method of a plain class (two instances: traces per instance), of a tf.Module creating its
    variable on the first call, of a Keras layer; jit_compile=True; experimental_autograph_options."""
    out = {}
    seen: list[Any] = []

    class Plain:
        def __init__(self, k: float) -> None:
            self.k = k

        @tf.function
        def call(self, x: Any) -> Any:
            seen.append(self.k)
            return x * self.k
    p1, p2 = Plain(1.5), Plain(-2.0)
    x = tf.constant(dy("me1", 3))
    out["plain"] = [b(p1.call(x)), b(p1.call(x)), b(p2.call(x)), b(p1.call(x * 2.0)), list(seen),
                    p1.call.experimental_get_tracing_count(), p2.call.experimental_get_tracing_count()]

    class Mod(tf.Module):
        def __init__(self) -> None:
            super().__init__(name="sweep_mod")
            self.v = None
            self.traces = 0

        @tf.function
        def __call__(self, x: Any) -> Any:
            self.traces += 1
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x) * 0.5, name="w")
            self.v.assign_add(x)
            return tf.reduce_sum(self.v * x)
    m = Mod()
    out["module"] = [b(m(x)), b(m(x)), b(m(x * 0.5)), m.traces, [v.name for v in m.variables],
                     [v.name for v in m.trainable_variables], error(lambda: b(m(tf.constant(dy("me2", 4)))))]
    lay = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros", name="sweep_dense")
    fl = tf.function(lambda t: lay(t) * 2.0)
    out["keras"] = [b(fl(tf.constant(dy("me3", 2, 3)))), b(fl(tf.constant(dy("me4", 4, 3)))),
                    fl.experimental_get_tracing_count(), [v.name for v in lay.weights]]
    jf = tf.function(lambda t: tf.reduce_sum(t * t) + 1.0, jit_compile=True)
    out["jit"] = [b(jf(x)), b(jf(tf.constant(dy("me5", 5)))), jf.experimental_get_tracing_count()]
    opts = tf.autograph.experimental.Feature
    af = tf.function(lambda t: t * 3.0, experimental_autograph_options=(opts.EQUALITY_OPERATORS,))
    out["autograph options"] = [b(af(x)), af.experimental_get_tracing_count()]
    nf = tf.function(lambda t: tf.where(t > 0.0, t, -t), autograph=False)
    out["autograph off"] = [b(nf(x))]
    return out


# -- 5. autograph constructs -----------------------------------------------------------------------------------------
def _ag(name: str, build: Callable[[Any], Callable[..., Any]], calls: Callable[[Any], list[list[Any]]]) -> None:
    def prog(tf: Any) -> Any:
        f = tf.function(build(tf))
        res = []
        for c in calls(tf):
            res.append(error(lambda: tf.nest.map_structure(b, f(*c))))
        return {"results": res, "count": f.experimental_get_tracing_count()}
    program(f"fn-ag-{name}")(prog)


def _for_range(tf: Any) -> Any:
    def f(n: Any, x: Any) -> Any:
        s = tf.constant(0.0)
        for i in tf.range(n):
            s = s * 0.5 + x[i % 3]
        return s
    return f


_ag("for-range", _for_range, lambda tf: [[tf.constant(0), tf.constant(dy("ag1", 3))],
                                         [tf.constant(5), tf.constant(dy("ag1", 3))]])


def _for_tensor(tf: Any) -> Any:
    def f(x: Any) -> Any:
        s = tf.zeros([2])
        for row in x:
            s = s + row * row
        return s
    return f


_ag("for-tensor", _for_tensor, lambda tf: [[tf.constant(dy("ag2", 4, 2))], [tf.zeros([0, 2])]])


def _for_dataset(tf: Any) -> Any:
    def f(n: Any) -> Any:
        s = tf.constant(0, tf.int64)
        c = tf.constant(0)
        for e in tf.data.Dataset.range(n).map(lambda i: i * i):
            s += e
            c += 1
        return s, c
    return f


_ag("for-dataset", _for_dataset, lambda tf: [[tf.constant(5, tf.int64)], [tf.constant(0, tf.int64)]])


def _for_list(tf: Any) -> Any:
    def f(x: Any) -> Any:
        out = []
        for k in [0.5, 1.5, 2.0]:
            out.append(x * k)
        return tf.stack(out)
    return f


_ag("for-python-list", _for_list, lambda tf: [[tf.constant(dy("ag3", 2))]])


def _while_break(tf: Any) -> Any:
    def f(x: Any, limit: Any) -> Any:
        i = tf.constant(0)
        s = tf.constant(0.0)
        while i < 10:
            i += 1
            if x * tf.cast(i, tf.float32) > limit:
                break
            if i % 2 == 0:
                continue
            s += tf.cast(i, tf.float32)
        return i, s
    return f


_ag("while-break-continue", _while_break, lambda tf: [[tf.constant(0.75), tf.constant(4.0)],
                                                      [tf.constant(0.0), tf.constant(1.0)],
                                                      [tf.constant(5.0), tf.constant(1.0)]])


def _loop_return(tf: Any) -> Any:
    def f(x: Any) -> Any:
        for i in tf.range(5):
            if x[i] < 0.0:
                return tf.cast(i, tf.float32) * 10.0
        return tf.reduce_sum(x)
    return f


_ag("loop-return", _loop_return, lambda tf: [[tf.constant([1.0, 2.0, -1.0, 3.0, 0.5])],
                                             [tf.constant([1.0, 2.0, 1.0, 3.0, 0.5])]])


def _if_elif(tf: Any) -> Any:
    def f(x: Any) -> Any:
        if x > 1.0:
            y = x * 2.0
        elif x > 0.0:
            y = x + 10.0
        else:
            y = -x
        return y
    return f


_ag("if-elif", _if_elif, lambda tf: [[tf.constant(1.5)], [tf.constant(0.5)], [tf.constant(-0.25)],
                                     [-tf.zeros([])]])   # (-0.0: tf.constant(-0.0) may be a cached 0.0)


def _if_dtypes(tf: Any) -> Any:
    def f(x: Any) -> Any:
        if x > 0.0:
            y = x
        else:
            y = tf.constant(1, tf.int32)
        return y
    return f


_ag("if-branch-dtypes", _if_dtypes, lambda tf: [[tf.constant(1.5)]])


def _if_shapes(tf: Any) -> Any:
    seen: list[Any] = []

    def f(x: Any) -> Any:
        if tf.reduce_sum(x) > 0.0:
            y = x[:2]
        else:
            y = tf.concat([x, x], 0)
        seen.append(shp(y))
        return y, tf.constant(-1 if seen[-1][0][0] is None else seen[-1][0][0])
    return f


_ag("if-branch-shapes", _if_shapes, lambda tf: [[tf.constant([1.0, 2.0, 3.0])], [tf.constant([-1.0, 2.0, -3.0])]])


def _if_missing(tf: Any) -> Any:
    def f(x: Any) -> Any:
        if x > 0.0:
            y = x * 3.0
        return y  # noqa: F821 - undefined in one branch: the error is the observation
    return f


_ag("if-undefined-in-branch", _if_missing, lambda tf: [[tf.constant(1.0)]])


def _tensor_array(tf: Any) -> Any:
    def f(x: Any) -> Any:
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(tf.shape(x)[0]):
            ta = ta.write(i, x[i] * tf.cast(i + 1, tf.float32))
        st = ta.stack()
        return st, ta.size(), ta.read(0), ta.gather([1, 0])
    return f


_ag("tensor-array", _tensor_array, lambda tf: [[tf.constant(dy("ta1", 3, 2))], [tf.constant(dy("ta2", 2, 2))]])


def _nested_fns(tf: Any) -> Any:
    inner = tf.function(lambda t: t * t - 1.0)

    def f(x: Any) -> Any:
        def helper(t: Any) -> Any:
            return inner(t) + 0.5
        return helper(x) * helper(x + 1.0)
    return f


_ag("nested-functions", _nested_fns, lambda tf: [[tf.constant(dy("nf", 3))], [tf.constant(dy("nf2", 2))]])


@program("fn-ag-variables-first-call-only")
def _first_call_vars(tf: Any) -> Any:
    """A variable created on the first call only (allowed), created on every call (ValueError on the second trace),
    created in a tf.function retraced for a new shape."""
    out = {}
    holder: list[Any] = []

    @tf.function
    def once(x: Any) -> Any:
        if not holder:
            holder.append(tf.Variable(2.0))
        return x * holder[0]
    out["once"] = [b(once(tf.constant(1.5))), b(once(tf.constant(2.5))), b(once(tf.constant([1.0, 2.0]))),
                   once.experimental_get_tracing_count()]

    @tf.function
    def every(x: Any) -> Any:
        v = tf.Variable(1.0)
        return x + v
    out["every"] = [error(lambda: b(every(tf.constant(1.0)))), error(lambda: b(every(tf.constant(2.0))))]
    return out


# -- 6. GradientTape ------------------------------------------------------------------------------------------------
@program("tape-persistent-and-errors")
def _persistent(tf: Any) -> Any:
    x = tf.constant(dy("tp1", 3))
    out = {}
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x * x
        z = tf.reduce_sum(y * 0.5)
    out["dy"] = b(t.gradient(y, x))
    out["dz"] = b(t.gradient(z, x))
    out["again"] = b(t.gradient([y, z], x))
    out["list sources"] = [b(g) for g in t.gradient(z, [x, y])]
    out["dict sources"] = {k: b(g) for k, g in t.gradient(z, {"x": x, "y": y}).items()}
    del t
    with tf.GradientTape() as t2:
        t2.watch(x)
        y2 = x * 3.0
    out["first"] = b(t2.gradient(y2, x))
    out["second non-persistent"] = error(lambda: b(t2.gradient(y2, x)))
    with tf.GradientTape() as t3:
        t3.watch(x)
        y3 = x * 2.0
        out["inside"] = error(lambda: b(t3.gradient(y3, x)))
    return out


@program("tape-watch-options")
def _watch(tf: Any) -> Any:
    v = tf.Variable(dy("tw1", 3), name="tw_v")
    u = tf.Variable(dy("tw2", 3), name="tw_u")
    n = tf.Variable(dy("tw3", 3), trainable=False, name="tw_n")
    x = tf.constant(dy("tw4", 3))
    out = {}
    for wav in (True, False):
        with tf.GradientTape(watch_accessed_variables=wav) as t:
            t.watch(u)
            t.watch(x)
            y = tf.reduce_sum(v * u * n + x * x)
        out[f"wav={wav}"] = [[b(g) for g in t.gradient(y, [v, u, n, x])], [w.name for w in t.watched_variables()]]
    with tf.GradientTape() as t:
        t.watch(n)
        y = tf.reduce_sum(n * n)
    out["watched non-trainable"] = [b(t.gradient(y, n)), [w.name for w in t.watched_variables()]]
    with tf.GradientTape() as t:
        y = tf.reduce_sum(x * 2.0)
    out["constant unwatched"] = b(t.gradient(y, x))
    return out


@program("tape-unconnected-and-output-gradients")
def _unconnected(tf: Any) -> Any:
    x = tf.constant(dy("tu1", 2, 2))
    i = tf.constant([1, 2])
    v = tf.Variable(dy("tu2", 3), name="tu_v")
    d = tf.constant(dy("tu3", 2).astype("float64"))
    out = {}
    for mode in ("NONE", "ZERO"):
        with tf.GradientTape(persistent=True) as t:
            t.watch([x, d])
            y = x * 2.0
        u = getattr(tf.UnconnectedGradients, mode)
        out[mode] = [[b(g) for g in t.gradient(y, [x, v, d], unconnected_gradients=u)],
                     error(lambda: b(t.gradient(y, i, unconnected_gradients=u))),
                     [b(g) for g in t.gradient(y, [x, d], output_gradients=tf.constant(dy("tu4", 2, 2)),
                                               unconnected_gradients=u)]]
        out[f"{mode} by string"] = error(lambda: [b(g) for g in t.gradient(y, [v], unconnected_gradients=mode.lower())])
    with tf.GradientTape() as t:
        t.watch(x)
        ys = [x * x, tf.reduce_sum(x)]
    out["two targets, output_gradients"] = b(t.gradient(ys, x, output_gradients=[tf.constant(dy("tu5", 2, 2)),
                                                                                 tf.constant(0.5)]))
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 3.0
    out["output_gradients wrong shape"] = error(lambda: b(t.gradient(y, x, output_gradients=tf.constant([1.0, 2.0]))))
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 3.0
    out["bad unconnected"] = error(lambda: b(t.gradient(y, x, unconnected_gradients="some")))
    return out


@program("tape-stop-recording-reset")
def _stop_reset(tf: Any) -> Any:
    x = tf.constant(dy("ts1", 3))
    out = {}
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        a = x * x
        with t.stop_recording():
            c = a * 3.0
        d = a + c
    out["stop"] = [b(t.gradient(d, x)), b(t.gradient(c, x))]
    with tf.GradientTape() as t:
        t.watch(x)
        a = x * x
        t.reset()
        t.watch(x)
        e = x * 5.0 + a
    out["reset"] = b(t.gradient(e, x))
    with tf.GradientTape() as t:
        t.watch(x)
        g = tf.stop_gradient(x * x) * x + x
    out["stop_gradient"] = b(t.gradient(g, x))
    t4 = tf.GradientTape()
    out["stop outside"] = error(lambda: t4.stop_recording().__enter__())
    return out


@program("tape-nested-higher-order")
def _nested_tapes(tf: Any) -> Any:
    x = tf.constant(dy("tn1", 3))
    v = tf.Variable(dy("tn2", 2), name="tn_v")
    out = {}
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = x * x * x
        g = t1.gradient(y, x)
    out["second"] = [b(g), b(t2.gradient(g, x))]
    with tf.GradientTape(persistent=True) as outer:
        with tf.GradientTape() as inner:
            z = tf.reduce_sum(v * v * v) + v[0] * v[1]
        gv = inner.gradient(z, v)
    out["hessian"] = b(outer.jacobian(gv, v))
    out["hessian no pfor"] = b(outer.jacobian(gv, v, experimental_use_pfor=False))
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t4:
            t4.watch(x)
            y = tf.reduce_sum(x * x)
        g4 = t4.gradient(y, x)
        h = tf.reduce_sum(g4 * g4)
    out["through gradient"] = b(t3.gradient(h, x))
    return out


@program("tape-jacobians")
def _jacobians(tf: Any) -> Any:
    x = tf.constant(dy("tj1", 2, 3))
    w = tf.constant(dy("tj2", 3, 2))
    out = {}
    for pfor in (True, False):
        for pi in (None, 1, 2):
            with tf.GradientTape(persistent=True) as t:
                t.watch(x)
                y = tf.matmul(x, w)
                s = x * x
            key = f"pfor={pfor} pi={pi}"
            out[key] = [error(lambda: b(t.jacobian(y, x, experimental_use_pfor=pfor, parallel_iterations=pi))),
                        error(lambda: b(t.batch_jacobian(s, x, experimental_use_pfor=pfor, parallel_iterations=pi))),
                        error(lambda: b(t.jacobian(y, w, experimental_use_pfor=pfor,
                                                   unconnected_gradients=tf.UnconnectedGradients.ZERO))),
                        error(lambda: b(t.jacobian(y, w, experimental_use_pfor=pfor))),
                        error(lambda: b(t.jacobian(s, tf.constant(dy("tj3", 2)), experimental_use_pfor=pfor))),
                        error(lambda: b(t.jacobian(s, tf.constant(dy("tj3", 2)), experimental_use_pfor=pfor,
                                                   unconnected_gradients=tf.UnconnectedGradients.ZERO)))]
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2.0
    out["non-persistent jacobian"] = b(t.jacobian(y, x))
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2.0
    out["non-persistent no pfor"] = error(lambda: b(t.jacobian(y, x, experimental_use_pfor=False)))
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2.0
    out["batch non-persistent no pfor"] = error(lambda: b(t.batch_jacobian(y, x, experimental_use_pfor=False)))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.reduce_sum(x, axis=1)
        yy = tf.reshape(x, [3, 2])
    out["batch mismatch"] = error(lambda: b(t.batch_jacobian(yy, x)))
    out["scalar target list"] = error(lambda: [b(j) for j in t.jacobian(y, [x, w])])
    return out


@program("tape-integer-bool-sources")
def _int_sources(tf: Any) -> Any:
    out = {}
    for dt in ("int32", "int64", "bool", "float16", "float64", "complex64"):
        x = (tf.constant([True, False, True]) if dt == "bool" else tf.constant([1 + 1j, 2 - 1j, 0.5j])
             if dt == "complex64" else tf.constant([1, 0, 1], dtype=dt))
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.cast(x, tf.float32) * 2.0 if dt in ("int32", "int64", "bool") else x * x
        out[dt] = error(lambda: b(t.gradient(y, x)))
    vi = tf.Variable([1, 2])
    with tf.GradientTape() as t:
        y = tf.cast(vi, tf.float32) * 3.0
    out["int variable"] = [error(lambda: b(t.gradient(y, vi))), [w.name for w in t.watched_variables()]]
    return out


@program("tape-custom-gradient")
def _custom(tf: Any) -> Any:
    out = {}
    v = tf.Variable(dy("cg1", 2), name="cg_v")

    @tf.custom_gradient
    def scaled(x: Any) -> Any:
        y = x * v

        def grad(up: Any, variables: Any = None) -> Any:
            return up * v * 3.0, [tf.reduce_sum(up * x) * tf.ones_like(v) * 0.5]
        return y, grad
    x = tf.constant(dy("cg2", 2))
    with tf.GradientTape() as t:
        t.watch(x)
        z = tf.reduce_sum(scaled(x) * x)
    out["variables"] = [b(g) for g in t.gradient(z, [x, v])]

    @tf.custom_gradient
    def kw(x: Any, scale: float = 2.0) -> Any:
        def grad(up: Any) -> Any:
            return up * scale * 10.0
        return x * scale, grad
    with tf.GradientTape() as t:
        t.watch(x)
        z = kw(x, scale=3.0)
    out["kwargs"] = error(lambda: b(t.gradient(z, x)))
    with tf.GradientTape() as t:
        t.watch(x)
        z = kw(x)
    out["default"] = b(t.gradient(z, x))

    @tf.custom_gradient
    def two(a: Any, c: Any) -> Any:
        def grad(up: Any) -> Any:
            return up * 2.0, None
        return a * c, grad
    c = tf.constant(dy("cg3", 2))
    with tf.GradientTape() as t:
        t.watch([x, c])
        z = two(x, c)
    out["none for one input"] = [b(g) for g in t.gradient(z, [x, c])]
    f = tf.function(lambda a: scaled(a) * 2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        z = f(x)
    out["traced"] = [b(g) for g in t.gradient(z, [x, v])]

    def block(a: Any) -> Any:
        return a * a * a
    rg = tf.recompute_grad(block)
    with tf.GradientTape() as t:
        t.watch(x)
        z = tf.reduce_sum(rg(x))
    out["recompute_grad"] = b(t.gradient(z, x))
    return out


@program("tape-control-flow")
def _control_flow(tf: Any) -> Any:
    v = tf.Variable(dy("cf1", 4, 2), name="cf_v")
    x = tf.constant(dy("cf2", 2))
    out = {}
    for traced in (False, True):
        def cond_fn(p: Any) -> Any:
            with tf.GradientTape() as t:
                t.watch(x)
                y = tf.cond(p, lambda: x * x, lambda: x * 3.0)
            return t.gradient(y, x)

        def while_fn(n: Any) -> Any:
            with tf.GradientTape() as t:
                t.watch(x)
                _, y = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * x + 1.0), (0, tf.ones_like(x)))
            return t.gradient(y, x)

        def ta_fn() -> Any:
            with tf.GradientTape() as t:
                t.watch(x)
                ta = tf.TensorArray(tf.float32, size=3)
                for k in range(3):
                    ta = ta.write(k, x * float(k + 1))
                y = tf.reduce_sum(ta.stack() * ta.stack())
            return t.gradient(y, x)

        def gather_fn() -> Any:
            with tf.GradientTape() as t:
                y = tf.reduce_sum(tf.gather(v, [3, 0, 3]) * 2.0)
            g = t.gradient(y, v)
            return g

        def gather_axis_fn() -> Any:
            with tf.GradientTape() as t:
                y = tf.reduce_sum(tf.gather(v, [[1], [2]]) * x)
            return t.gradient(y, v)

        def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
            return tf.function(fn) if traced else fn
        k = "traced" if traced else "eager"
        out[k] = {"cond true": b(wrap(cond_fn)(tf.constant(True))), "cond false": b(wrap(cond_fn)(tf.constant(False))),
                  "while 0": b(wrap(while_fn)(tf.constant(0))), "while 3": b(wrap(while_fn)(tf.constant(3))),
                  "tensor array": b(wrap(ta_fn)()), "gather": b(wrap(gather_fn)()),
                  "gather 2d": b(wrap(gather_axis_fn)())}
    return out


@program("tape-multiple-outputs")
def _multi(tf: Any) -> Any:
    x = tf.constant(dy("mo1", 2, 4))
    out = {}
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        a, c = tf.split(x, 2, axis=1)
        parts = tf.unstack(x, axis=1)
        mean, var = tf.nn.moments(x, axes=[1])
        top = tf.math.top_k(x, k=2)
        u, idx = tf.unique(tf.reshape(x, [-1]))
    out["split first"] = b(t.gradient(a * 2.0, x))
    out["split both"] = b(t.gradient([a, c * c], x))
    out["unstack one"] = b(t.gradient(parts[2], x))
    out["moments var"] = b(t.gradient(var, x))
    out["moments both"] = b(t.gradient([mean, var], x))
    out["top_k values"] = b(t.gradient(top.values, x))
    out["unique"] = error(lambda: b(t.gradient(u, x)))
    return out


@program("tape-forward-accumulator")
def _forward(tf: Any) -> Any:
    x = tf.constant(dy("fa1", 3))
    tx = tf.constant(dy("fa2", 3))
    v = tf.Variable(dy("fa3", 3), name="fa_v")
    out = {}
    with tf.autodiff.ForwardAccumulator(x, tx) as acc:
        y = x * x * 3.0 + x
        z = tf.reduce_sum(y)
        w = tf.constant(2.0) * 5.0
    out["jvp"] = [b(acc.jvp(y)), b(acc.jvp(z)), b(acc.jvp(w)),
                  b(acc.jvp(w, unconnected_gradients=tf.UnconnectedGradients.ZERO))]
    with tf.autodiff.ForwardAccumulator(v, tf.ones_like(v) * 0.5) as acc:
        y = v * x
    out["variable"] = b(acc.jvp(y))
    with tf.autodiff.ForwardAccumulator([x, v], [tx, tf.ones_like(v)]) as acc:
        y = tf.gather(x * v, [2, 0])
        s, c = tf.split(x, [1, 2])
    out["two primals"] = [b(acc.jvp(y)), b(acc.jvp(s)), b(acc.jvp(c))]
    with tf.GradientTape() as t:
        t.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tx) as acc:
            y = x * x
        j = acc.jvp(y)
    out["reverse of forward"] = b(t.gradient(j, x))
    out["bad tangent"] = error(lambda: type(tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0]))).__name__)
    return out


@program("tape-in-replicas", strategy=True)
def _in_replicas(tf: Any, mk: Any) -> Any:
    """GradientTape inside strategy.run of MirroredStrategy over two CPUs: a mirrored variable's gradient per replica
    (eager and in a tf.function), persistent, watch_accessed_variables=False with watch, a non-trainable one."""
    s = mk()
    with s.scope():
        v = tf.Variable(dy("ir1", 3), name="ir_v")
        n = tf.Variable(dy("ir2", 3), trainable=False, name="ir_n")

    def step(x: Any) -> Any:
        rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        with tf.GradientTape(persistent=True) as t:
            y = tf.reduce_sum(v * v * (x + rid) + n * v)
        g = t.gradient(y, [v, n])
        with tf.GradientTape(watch_accessed_variables=False) as t2:
            t2.watch(v)
            z = tf.reduce_sum(v * n)
        return g[0], g[1] if g[1] is not None else tf.constant(-1.0), t2.gradient(z, v)
    x = tf.constant(dy("ir3", 3))
    out = {}
    for mode, fn in (("eager", step), ("function", tf.function(step))):
        res = s.run(fn, args=(x,))
        out[mode] = [[b(r) for r in s.experimental_local_results(c)] for c in res]
    return out


@program("tape-gradient-names-in-function")
def _gradient_names(tf: Any) -> Any:
    """The names of a traced gradient's tensors: forward ops under name scopes (gradient_tape/<scope>/...)."""
    names: list[Any] = []

    @tf.function
    def f(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            with tf.name_scope("blk"):
                y = tf.square(x)
                with tf.name_scope("inner"):
                    w = tf.sqrt(y + 1.0) * 3.0
                    z = tf.reduce_sum(w)
        g, gy, gw = t.gradient(z, [x, y, w])
        names.extend([g.name, gy.name, gw.name])
        return g
    v = b(f(tf.constant(dy("gn", 3))))
    return {"names": names[:2], "sum gradient name": names[2], "value": v}


@program("fn-concrete-surface")
def _concrete_surface(tf: Any) -> Any:
    """A concrete function's surface over parameter kinds (positional, *args, keyword-only, **kwargs, a dict, Python
    values) and output structures (dict of unsorted keys, nested tuple, a Python constant): input and output tensor
    names, structured signatures and outputs, pretty_printed_signature, output_shapes/output_dtypes, flat calls."""
    out: dict[str, Any] = {}

    def flat(case: str, d: dict) -> dict:
        return {f"{case} {k}": v for k, v in d.items()}

    def surface(cf: Any) -> Any:
        return {"inputs": error(lambda: [t.name for t in cf.inputs]),
                "outputs": error(lambda: [t.name for t in cf.outputs]),
                "structured_input": error(lambda: sig(tf, cf.structured_input_signature)),
                "structured_outputs": error(lambda: repr(tf.nest.map_structure(shp, cf.structured_outputs))),
                "pretty": error(lambda: cf.pretty_printed_signature(verbose=False)),
                "output_shapes": error(lambda: repr(cf.output_shapes)),
                "output_dtypes": error(lambda: repr(cf.output_dtypes))}

    @tf.function
    def f1(a: Any, *rest: Any, k: Any = 2.0, **kw: Any) -> Any:
        r = a * k
        for t in rest:
            r = r + t
        return {"zeta": r, "alpha": (r * 2.0, {"m": tf.reduce_sum(r)}), "mid": 3}
    out.update(flat("varargs kwonly", surface(f1.get_concrete_function(
        tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32, name="second"), tf.TensorSpec([None]),
        k=tf.TensorSpec([], tf.float32), extra=tf.TensorSpec([2], tf.float32)))))

    @tf.function
    def f2(y: Any, c: Any, n: int, flag: Any = None) -> Any:
        return y * float(n) + c, tf.shape(c)
    # (not a dict of specs: get_concrete_function of nested specs is OPEN)
    c2 = f2.get_concrete_function(tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.float32, name="cc"), 4)
    out.update(flat("python input", surface(c2)))
    out["python input call"] = error(lambda: [b(t) for t in c2(tf.constant(dy("cs1", 3)), tf.constant(dy("cs2", 3)),
                                                                4)])
    out["python input call other n"] = error(lambda: [b(t) for t in c2(tf.constant(dy("cs1", 3)),
                                                                        tf.constant(dy("cs2", 3)), 5)])

    @tf.function
    def f3(x: Any) -> Any:
        return tf.constant(1.5), (x, [x * 2.0, None])
    out.update(flat("constant and none outputs", surface(f3.get_concrete_function(
        tf.TensorSpec([None, 2], tf.float64)))))
    return out


@program("tape-sparse-and-graph-gradients")
def _sparse_graph(tf: Any) -> Any:
    """Gradients of gathers from a tensor source (IndexedSlices densified by tape.gradient or not), of
    tf.stop_gradient, tf.gradients in a tf.function with stop_gradients and grad_ys, while_loop gradients of a
    trainable and a non-trainable variable, unconnected_gradients of tf.gradients."""
    x = tf.constant(dy("sg1", 4, 2))
    v = tf.Variable(dy("sg2", 4, 2), name="sg_v")
    n = tf.Variable(dy("sg3", 2), trainable=False, name="sg_n")
    out = {}
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        g1 = tf.gather(x, [0, 2, 2])
        g2 = tf.gather(v, [1, 1])
        y = tf.reduce_sum(g1 * 3.0) + tf.reduce_sum(g2 * g2)
        s = tf.stop_gradient(x) * x
    out["gather tensor"] = b(t.gradient(y, x))
    out["gather variable"] = b(t.gradient(y, v))
    out["gather both"] = [b(g) for g in t.gradient(y, [x, v])]
    out["stop_gradient product"] = b(t.gradient(s, x))
    out["gathered slices as source"] = error(lambda: b(t.gradient(y, g1)))

    @tf.function
    def graph_grads(a: Any) -> Any:
        p = a * a
        q = p * 3.0 + a
        r = [tf.gradients(q, a)[0], tf.gradients(q, a, stop_gradients=[p])[0],
             tf.gradients(q, a, grad_ys=tf.ones_like(q) * 0.5)[0],
             tf.gradients(q, [a, p], stop_gradients=[a])[1]]
        u = tf.gradients(tf.reduce_sum(a), [a, tf.constant(2.0)], unconnected_gradients="zero")
        return r + [u[1]]
    out["tf.gradients"] = [b(g) for g in graph_grads(tf.constant(dy("sg4", 3)))]

    def while_grads(k: Any) -> Any:
        with tf.GradientTape() as tt:
            _, acc = tf.while_loop(lambda i, a: i < k, lambda i, a: (i + 1, a * v[0] + n),
                                   (tf.constant(0), tf.ones([2])))
            z = tf.reduce_sum(acc)
        return tt.gradient(z, [v, n], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    for mode, fn in (("eager", while_grads), ("function", tf.function(while_grads))):
        out[f"while {mode}"] = [[b(tf.convert_to_tensor(g)) for g in fn(tf.constant(k))] for k in (0, 2)]
    return out

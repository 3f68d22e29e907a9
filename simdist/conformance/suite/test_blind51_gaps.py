"""Gaps the fifty-first blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (tf.function, tf.data, checkpoints, distribution) that the suite stated for one
spelling, one structure or one input only, or never, so that a wrong implementation of the other case passed (TF 2.21
+ Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or plain
Python, or is a relation TF's rule implies, or was observed on TF 2.21 (the checkpoint keys, the error classes; the
observations are in /work/wt/blind46b_logs/gaps/p1.py, p2.py, rt.py and their _tf/_sim outputs).
"""

from __future__ import annotations

import os
import pathlib

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)
from simdist.conformance.suite.outcomes import check

clause = pytest.mark.clause

_SINGLETON = "singleton tf.Variables created on the first call"


# -- tf.function: a variable created on every call ------------------------------------------------------------------
class _Holder:
    v = None


def _every_call(tf):
    def f(x):
        v = tf.Variable(1.0)
        return v + x
    return f


def _two_every_call(tf):
    def f(x):
        a = tf.Variable(1.0)
        b = tf.Variable(2.0)
        return a + b + x
    return f


@clause("function.trace-once", ref="tf221")
@pytest.mark.parametrize("how", ["call", "second call", "two variables", "input_signature", "get_concrete_function"])
def test_blind51_function_refuses_a_variable_made_on_every_call(tf, how):
    """TF 2.21 traces a tf.function's first call twice when the first trace created variables (polymorphic_function.py
    `_initialize`, then a trace that may not create any): a function that creates a tf.Variable on every call raises
    ValueError "tf.function only supports singleton tf.Variables created on the first call" on its FIRST call, and on
    every later call, whether it is called, given an input_signature or asked for a concrete function."""
    fn = (_two_every_call if how == "two variables" else _every_call)(tf)
    if how == "input_signature":
        f = tf.function(fn, input_signature=[tf.TensorSpec([], tf.float32)])
    else:
        f = tf.function(fn)
    if how == "get_concrete_function":
        with pytest.raises(ValueError, match=_SINGLETON):
            f.get_concrete_function(tf.TensorSpec([], tf.float32))
        return
    with pytest.raises(ValueError, match=_SINGLETON):
        f(tf.constant(1.0))
    if how == "second call":
        with pytest.raises(ValueError, match=_SINGLETON):
            f(tf.constant(2.0))
        with pytest.raises(ValueError, match=_SINGLETON):
            f(tf.constant([1.0, 2.0]))


@clause("function.trace-once", ref="tf221")
def test_blind51_function_keeps_a_variable_made_once(tf):
    """The singleton pattern (the variable made only when a holder has none) is accepted: the first call creates it,
    the later calls and traces (another shape, a concrete function) reuse it: 2 x for x = 1, 2, [1, 2]."""
    h = _Holder()

    def g(x):
        if h.v is None:
            h.v = tf.Variable(2.0)
        return h.v * x
    f = tf.function(g)
    assert float(f(tf.constant(1.0))) == 2.0
    assert float(f(tf.constant(2.0))) == 4.0
    assert _np(f(tf.constant([1.0, 2.0]))).tolist() == [2.0, 4.0]
    cf = f.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert float(cf(tf.constant(3.0))) == 6.0


@clause("function.trace-once", ref="tf221")
def test_blind51_function_refuses_a_variable_made_on_a_later_trace(tf):
    """A function whose first trace created no variable and whose later trace (a new Python argument) creates one:
    ValueError "Creating variables on a non-first call to a function decorated with tf.function."."""
    def g(x, make):
        if make:
            v = tf.Variable(3.0)
            return v + x
        return x
    f = tf.function(g)
    assert float(f(tf.constant(1.0), False)) == 1.0
    with pytest.raises(ValueError, match="non-first call"):
        f(tf.constant(1.0), True)


# -- tf.data: from_generator's nested output_types and output_shapes ------------------------------------------------
def _spec_table(tf, spec):
    """[(path, shape as a list or None, dtype name)] of a nested element spec, dict keys sorted (nest's order)."""
    out = []

    def walk(s, path):
        if isinstance(s, dict):
            for k in sorted(s):
                walk(s[k], path + (k,))
        elif isinstance(s, (tuple, list)):
            for i, v in enumerate(s):
                walk(v, path + (i,))
        else:
            out.append(("/".join(map(str, path)), s.shape.as_list() if s.shape.rank is not None else None,
                        s.dtype.name))
    walk(spec, ())
    return out


@clause("dataset.from-generator", ref="tf221")
@pytest.mark.parametrize("order", ["types sorted", "types reversed", "shapes reversed"])
def test_blind51_from_generator_matches_dict_shapes_by_key(tf, order):
    """Dataset.from_generator(gen, output_types, output_shapes) pairs each shape with its type by the structure, a
    dict by key whatever order the two dicts list their keys in (nest flattens dicts sorted); a shape may be a list,
    a tuple or a TensorShape; the elements come back with those dtypes and shapes."""
    keys = ["a", "b", "c"]
    types = {"a": tf.float32, "b": tf.int32, "c": tf.float32}
    shapes = {"a": [], "b": (2,), "c": tf.TensorShape([2, 3])}
    tkeys = keys[::-1] if order == "types reversed" else keys
    skeys = keys[::-1] if order == "shapes reversed" else keys

    def gen():
        yield {"b": np.array([1, 2], np.int32), "a": np.float32(3.0), "c": np.arange(6, dtype=np.float32).reshape(2, 3)}
    ds = tf.data.Dataset.from_generator(gen, output_types={k: types[k] for k in tkeys},
                                        output_shapes={k: shapes[k] for k in skeys})
    assert _spec_table(tf, ds.element_spec) == [("a", [], "float32"), ("b", [2], "int32"), ("c", [2, 3], "float32")], \
        f"element_spec: {_spec_table(tf, ds.element_spec)}"
    (e,) = list(ds)
    assert float(e["a"]) == 3.0 and _np(e["b"]).tolist() == [1, 2]
    assert _np(e["c"]).tolist() == np.arange(6, dtype=np.float32).reshape(2, 3).tolist()


@clause("dataset.from-generator", ref="tf221")
@pytest.mark.parametrize("shapes", ["full", "partial"])
def test_blind51_from_generator_nested_tuple_of_dict(tf, shapes):
    """A tuple holding a dict: the shapes follow the types' structure (the dict's keys in either order); None for a
    whole leaf is an unknown shape, [None] an unknown length."""
    def gen():
        yield {"z": np.array([1.0], np.float32), "y": np.array([1, 2, 3], np.int64)}, np.int32(4)
    types = ({"z": tf.float32, "y": tf.int64}, tf.int32)
    if shapes == "full":
        ds = tf.data.Dataset.from_generator(gen, output_types=types, output_shapes=({"y": [3], "z": [1]}, []))
        want = [("0/y", [3], "int64"), ("0/z", [1], "float32"), ("1", [], "int32")]
    else:
        ds = tf.data.Dataset.from_generator(gen, output_types=types, output_shapes=({"y": [None], "z": [None]}, None))
        want = [("0/y", [None], "int64"), ("0/z", [None], "float32"), ("1", None, "int32")]
    assert _spec_table(tf, ds.element_spec) == want, f"element_spec: {_spec_table(tf, ds.element_spec)}"
    ((d, n),) = list(ds)
    assert _np(d["y"]).tolist() == [1, 2, 3] and _np(d["z"]).tolist() == [1.0] and int(n) == 4


@clause("dataset.from-generator", ref="tf221")
def test_blind51_from_generator_refuses_an_element_of_another_shape(tf):
    """An element whose shape differs from its key's output_shapes entry fails when it is read (the generator's
    py_func check: InvalidArgumentError), here "a" of shape (3,) where (2,) was given, "b" matching."""
    def gen():
        yield {"b": np.array([1, 2], np.int32), "a": np.array([1.0, 2.0, 3.0], np.float32)}
    ds = tf.data.Dataset.from_generator(gen, output_types={"b": tf.int32, "a": tf.float32},
                                        output_shapes={"b": [2], "a": [2]})
    check("iterating a generator yielding 'a' of shape (3,) for output shape (2,)", lambda: list(ds),
          "InvalidArgumentError")


# -- checkpoints: load_checkpoint without a checkpoint, the reader's keys, the object-graph keys ------------------
_NO_CKPT = "Couldn't find 'checkpoint' file or checkpoints in given directory"
_V = "v/.ATTRIBUTES/VARIABLE_VALUE"


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("spelling", ["str", "pathlib"])
def test_blind51_readers_of_a_directory_without_checkpoints(tf, tmp_path, spelling):
    """checkpoint_utils: load_checkpoint, list_variables and load_variable of a directory holding no checkpoint raise
    ValueError "Couldn't find 'checkpoint' file or checkpoints in given directory ..." (latest_checkpoint gives
    None); a prefix naming no checkpoint is NotFoundError; after a save the directory reads its checkpoint."""
    d = tmp_path / "empty"
    d.mkdir()
    where = str(d) if spelling == "str" else pathlib.Path(d)
    assert tf.train.latest_checkpoint(str(d)) is None
    check("load_checkpoint(empty dir)", lambda: tf.train.load_checkpoint(where), "ValueError", _NO_CKPT)
    check("list_variables(empty dir)", lambda: tf.train.list_variables(where), "ValueError", _NO_CKPT)
    check("load_variable(empty dir)", lambda: tf.train.load_variable(where, _V), "ValueError", _NO_CKPT)
    check("load_checkpoint(missing prefix)", lambda: tf.train.load_checkpoint(str(d / "nope")), "NotFoundError")
    tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(str(d / "c"))
    r = tf.train.load_checkpoint(where)
    assert r.has_tensor(_V) and r.get_tensor(_V).tolist() == [1.0, 2.0]
    assert [n for n, _ in tf.train.list_variables(where)] == \
        ["_CHECKPOINTABLE_OBJECT_GRAPH", "save_counter/.ATTRIBUTES/VARIABLE_VALUE", _V]


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("key", ["str", "bytes", "np.str_", "int", "None", "float", "list"])
def test_blind51_checkpoint_reader_keys_are_strings(tf, tmp_path, key):
    """CheckpointReader.has_tensor and get_tensor take a str or bytes key (a NumPy str is a str); anything else is
    TypeError "Expected binary or unicode string, got 5" (py_checkpoint_reader's compat.as_bytes), not a lookup of
    its str()."""
    p = tf.train.Checkpoint(v=tf.Variable([1.0])).save(str(tmp_path / "c"))
    r = tf.train.load_checkpoint(p)
    k = {"str": _V, "bytes": _V.encode(), "np.str_": np.str_(_V), "int": 5, "None": None, "float": 1.5,
         "list": ["v"]}[key]
    if key in ("str", "bytes", "np.str_"):
        check(f"has_tensor({key})", lambda: r.has_tensor(k), "ok", want_value=True)
        assert r.get_tensor(k).tolist() == [1.0]
    else:
        check(f"has_tensor({key})", lambda: r.has_tensor(k), "TypeError", "Expected binary or unicode string")
        check(f"get_tensor({key})", lambda: r.get_tensor(k), "TypeError", "Expected binary or unicode string")


# Observed on TF 2.21 (p2.py): a variable reached by several paths is keyed by the first path of a breadth-first walk
# of the object graph: the shallowest; at one depth, tf.train.Checkpoint's children in sorted keyword order, a
# tf.Module's in assignment order; names escaped ("." doubled, "/" as ".S").
_KEY_CASES = {
    "deep and shallow": (lambda tf, C, V, W: C(a=C(v=V), c=C(b=C(v=V))), ["a/v"]),
    "shallow given last": (lambda tf, C, V, W: C(c=C(b=C(v=V)), a=C(v=V)), ["a/v"]),
    "one depth, kwargs z a": (lambda tf, C, V, W: C(z=C(v=V), a=C(v=V)), ["a/v"]),
    "depth 3 and 2": (lambda tf, C, V, W: C(x=C(y=C(z=C(v=V))), w=C(u=C(v=V))), ["w/u/v"]),
    "root and deep": (lambda tf, C, V, W: C(x=C(y=C(v=V)), v=V), ["v"]),
    "two shared": (lambda tf, C, V, W: C(p=C(q=V, r=W), s=C(t=C(q=W, r=V))), ["p/q", "p/r"]),
    "escaped names": (lambda tf, C, V, W: C(**{"a.b": C(v=V), "c/d": C(w=W)}), ["a..b/v", "c.Sd/w"]),
}


def _module_case(tf, C, V, W, which):
    m = tf.Module()
    if which == "module order":
        m.z = tf.Module()
        m.z.v = V
        m.a = tf.Module()
        m.a.v = V
    elif which == "module deep and top":
        m.deep = tf.Module()
        m.deep.deeper = tf.Module()
        m.deep.deeper.v = V
        m.top = V
    else:
        m.items = [tf.Module(), tf.Module()]
        m.items[0].v = V
        m.items[1].w = W
        m.direct = W
    return C(m=m)


_MODULE_CASES = {"module order": ["m/z/v"], "module deep and top": ["m/top"],
                 "module list": ["m/direct", "m/items/0/v"]}


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("case", list(_KEY_CASES) + list(_MODULE_CASES))
def test_blind51_checkpoint_keys_take_the_breadth_first_path(tf, tmp_path, case):
    """The keys tf.train.list_variables reads from a checkpoint of shared variables (one entry per variable)."""
    C = tf.train.Checkpoint
    V, W = tf.Variable([1.0]), tf.Variable([2.0])
    if case in _KEY_CASES:
        make, want = _KEY_CASES[case]
        ck = make(tf, C, V, W)
    else:
        ck, want = _module_case(tf, C, V, W, case), _MODULE_CASES[case]
    p = ck.save(str(tmp_path / "c"))
    got = [n for n, _ in tf.train.list_variables(p) if n.endswith("VARIABLE_VALUE") and not n.startswith("save_counter")]
    assert got == [w + "/.ATTRIBUTES/VARIABLE_VALUE" for w in want], f"{case}: keys {got}, expected {want}"


# -- distribution: reduce_to's destination under the default and one-device strategies ------------------------------
@clause("extended.reduce-to", ref="tf221")
@pytest.mark.parametrize("dest", ["/cpu:0", "/cpu:2", "variable", "None"])
@pytest.mark.parametrize("api", ["reduce_to", "batch_reduce_to"])
@pytest.mark.parametrize("which", ["default", "one_device"])
def test_blind51_single_replica_reduce_to_returns_the_value(tf, backend, which, api, dest):
    """TF 2.21's _DefaultDistributionExtended._reduce_to and OneDeviceExtended._reduce_to `del destinations; return
    value`: reduce_to and batch_reduce_to give the value itself (a tensor stays on its device, CPU:1 for
    OneDeviceStrategy("/cpu:1"), whatever device the destination names), SUM and MEAN alike; a Python float and a
    variable come back as they are too."""
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    s = tf.distribute.get_strategy() if which == "default" else tf.distribute.OneDeviceStrategy("/cpu:1")
    with s.scope():
        var = tf.Variable([1.0, 2.0])
    d = {"variable": var, "None": None}.get(dest, dest)
    home = "CPU:0" if which == "default" else "CPU:1"
    for value in (s.run(lambda: tf.constant([2.0, 3.0])), 2.5, var):
        if api == "reduce_to":
            out = s.extended.reduce_to("SUM", value, d)
        else:
            out = s.extended.batch_reduce_to("MEAN", [(value, d)])[0]
        assert out is value, f"{which} {api} to {dest}: expected the value itself, got {out!r}"
        if hasattr(out, "device") and not isinstance(value, float):
            assert out.device.endswith(home), f"{which} {api} to {dest}: on {out.device}, expected {home}"


# -- tf.function: a concrete function of **kwargs ------------------------------------------------------------------
def _weighted_kwargs(x, **kw):
    """x + the keyword arguments, in sorted key order, times 10, 100, ... (which value went where shows)."""
    out = x
    for i, k in enumerate(sorted(kw)):
        out = out + kw[k] * 10.0 ** (i + 1)
    return out


_SPEC = "TensorSpec(shape=(), dtype=tf.float32, name=None)"


@clause("function.input-signature", ref="tf221")
def test_blind51_concrete_function_of_var_keyword_arguments(tf):
    """get_concrete_function(x, b=..., a=...) of `def g(x, **kw)`: each keyword argument is a keyword-only parameter of
    its own, named by its key, sorted after the positional ones (TF 2.21's FunctionType): placeholders x, a, b; the
    signature text `(x: ..., *, a: ..., b: ...)`, KEYWORD_ONLY in the verbose one; structured_input_signature puts
    them in its dict. The concrete function takes them by keyword (x too), or the tensors in order (the flat
    signature); one missing or an unknown one is TypeError, another dtype InvalidArgumentError. A Python value is a
    literal (`*, k: Literal[5]`: another value TypeError, the value left out taken as traced); the function itself
    passes its keyword arguments on."""
    c = tf.constant
    f = tf.function(_weighted_kwargs)
    cf = f.get_concrete_function(c(1.0), b=c(2.0), a=c(3.0))
    assert [t.name for t in cf.inputs] == ["x:0", "a:0", "b:0"], [t.name for t in cf.inputs]
    assert cf.pretty_printed_signature(verbose=False) == f"(x: {_SPEC}, *, a: {_SPEC}, b: {_SPEC}) -> {_SPEC}"
    verbose = cf.pretty_printed_signature()
    assert f"  x (POSITIONAL_OR_KEYWORD): {_SPEC}" in verbose and f"  a (KEYWORD_ONLY): {_SPEC}" in verbose and \
        f"  b (KEYWORD_ONLY): {_SPEC}" in verbose, verbose
    pos, kw = cf.structured_input_signature
    assert [s.name for s in pos] == ["x"] and sorted(kw) == ["a", "b"] and kw["a"].name == "a", (pos, kw)
    want = 1.0 + 3.0 * 10 + 2.0 * 100   # (a = 3 is the first key sorted, b = 2 the second)
    check("cf(x, a=, b=)", lambda: float(cf(c(1.0), a=c(3.0), b=c(2.0))), "ok", want_value=want)
    check("cf(x=, a=, b=)", lambda: float(cf(x=c(1.0), a=c(3.0), b=c(2.0))), "ok", want_value=want)
    check("cf(x, a, b) (flat)", lambda: float(cf(c(1.0), c(3.0), c(2.0))), "ok", want_value=want)
    check("cf without b", lambda: cf(c(1.0), a=c(3.0)), "TypeError")
    check("cf with an unknown z", lambda: cf(c(1.0), a=c(3.0), b=c(2.0), z=c(1.0)), "TypeError")
    check("cf with an int32 a", lambda: cf(c(1.0), a=c(3), b=c(2.0)), "InvalidArgumentError")
    cf2 = f.get_concrete_function(c(1.0), k=5)
    assert [t.name for t in cf2.inputs] == ["x:0"]
    assert cf2.pretty_printed_signature(verbose=False) == f"(x: {_SPEC}, *, k: Literal[5]) -> {_SPEC}"
    check("cf2(x, k=5)", lambda: float(cf2(c(1.0), k=5)), "ok", want_value=51.0)
    check("cf2(x, k=6)", lambda: cf2(c(1.0), k=6), "TypeError")
    check("cf2(x)", lambda: float(cf2(c(1.0))), "ok", want_value=51.0)
    check("f(x, q=, p=)", lambda: float(f(c(1.0), q=c(1.0), p=c(2.0))), "ok", want_value=1.0 + 2.0 * 10 + 1.0 * 100)

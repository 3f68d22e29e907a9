"""A ConcreteFunction's signature and calls (`tf.function(f).get_concrete_function(...)`), which the whole
suite had only traced, never called or read, before session 23 (cov23b; simdist/tf/_concrete.py was 55%
covered; docs/conformance.md, "Twenty-third session: suite coverage of autodiff, gradients and
tf.function"). A serving or export path does exactly this: trace once for TensorSpecs, then call the
concrete function.

TF 2.21 (concrete_function.py `_call_impl`): a call binds to the structured signature first
(function_type_utils.bind_function_inputs: every parameter required, the literals too; a literal
matches by ==, TF's Literal.cast; a tensor must have its TensorSpec's dtype and a compatible shape, a
NumPy array or list is converted to it), then, when that fails, to the flat signature (the TensorSpec
parameters alone, tensors only); when both fail the TypeError joins the two texts. The signature's
text is TF's FunctionType's (default_types' Dict[[key, type]], List[...], Tuple[...], a namedtuple's
Name[[field, type]], Literal[value]). The expected texts below are TF 2.21's, observed.
"""

from __future__ import annotations

import collections
import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause

_SIG = ("(x: TensorSpec(shape=(None, 3), dtype=tf.float32, name=None), y: TensorSpec(shape=(3,), dtype=tf.int32, "
        "name=None), scale: Literal[2]) -> Dict[['s', TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)], "
        "['n', TensorSpec(shape=(), dtype=tf.int32, name=None)]]")
_Pair = collections.namedtuple("_Pair", ["lo", "hi"])


def _traced(tf):
    @tf.function
    def f(x, y, scale=2):
        return {"s": x * scale + tf.cast(y, x.dtype), "n": tf.shape(x)[0]}
    return f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([3], tf.int32))


@clause("function.input-signature", ref="tf221")
def test_cov23b_concrete_function_signature_texts(backend, tf):
    """structured_input_signature (specs named after their parameters, the literal as traced), inputs
    and outputs (graph tensors: the placeholders 'x:0', the outputs' Identity names in the flattened
    order, a dict's keys sorted), output_shapes/dtypes, and the signature as TF's FunctionType writes it
    (pretty_printed_signature verbose and not, str, repr) for dict, list, tuple and namedtuple outputs."""
    cf = _traced(tf)
    args, kwargs = cf.structured_input_signature
    assert_equal(repr(args), "(TensorSpec(shape=(None, 3), dtype=tf.float32, name='x'), TensorSpec(shape=(3,), "
                 "dtype=tf.int32, name='y'), 2)", call="cf.structured_input_signature[0]")
    assert_equal(kwargs, {}, call="cf.structured_input_signature[1]")
    assert_equal([(t.name, t.shape.as_list(), t.dtype.name) for t in cf.inputs],
                 [("x:0", [None, 3], "float32"), ("y:0", [3], "int32")], call="cf.inputs")
    assert_equal([(t.name, t.shape.as_list(), t.dtype.name) for t in cf.outputs],
                 [("Identity:0", [], "int32"), ("Identity_1:0", [None, 3], "float32")], call="cf.outputs")
    assert_equal({k: v.as_list() for k, v in cf.output_shapes.items()}, {"s": [None, 3], "n": []},
                 call="cf.output_shapes")
    assert_equal({k: v.name for k, v in cf.output_dtypes.items()}, {"s": "float32", "n": "int32"},
                 call="cf.output_dtypes")
    assert_equal(cf.pretty_printed_signature(verbose=False), _SIG, call="cf.pretty_printed_signature(verbose=False)")
    assert_true(re.fullmatch(r"<ConcreteFunction " + re.escape(_SIG) + r" at 0x[0-9A-F]+>", repr(cf)) is not None,
                f"repr(cf)={repr(cf)!r}, but should be '<ConcreteFunction {_SIG} at 0x...>'", call="repr(cf)")

    @tf.function
    def h(x, k=1):
        return [x * k, (x, tf.constant(k)), _Pair(x, x + 1)]
    ch = h.get_concrete_function(tf.TensorSpec([2], tf.float64), k=3)
    spec64 = "TensorSpec(shape=(2,), dtype=tf.float64, name=None)"
    out = (f"List[{spec64}, Tuple[{spec64}, TensorSpec(shape=(), dtype=tf.int32, name=None)], "
           f"_Pair[['lo', {spec64}], ['hi', {spec64}]]]")
    verbose = (f"Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): {spec64}\n  k (POSITIONAL_OR_KEYWORD): Literal[3]\n"
               f"Output Type:\n  {out}\nCaptures:\n  None")
    assert_equal(ch.pretty_printed_signature(), verbose, call="ch.pretty_printed_signature()")
    assert_equal(str(ch), "ConcreteFunction " + verbose, call="str(ch)")
    assert_equal(ch.pretty_printed_signature(verbose=False), f"(x: {spec64}, k: Literal[3]) -> {out}",
                 call="ch.pretty_printed_signature(verbose=False)")
    assert_equal(repr(ch.output_dtypes), "[tf.float64, (tf.float64, tf.int32), _Pair(lo=tf.float64, hi=tf.float64)]",
                 call="ch.output_dtypes")
    got = ch(tf.constant([1.0, 2.0], tf.float64))
    assert_equal([to_numpy(got[0]).tolist(), to_numpy(got[1][1]).tolist(), to_numpy(got[2].hi).tolist()],
                 [[3.0, 6.0], 3, [2.0, 3.0]], call="ch([1., 2.]) (k=3 as traced)")


@clause("function.input-signature", ref="tf221")
def test_cov23b_concrete_function_calls(backend, tf):
    """Calls that bind: positional, by keyword, the literal repeated (2 or 2.0: Literal.cast's ==), a
    NumPy array and a list converted to their TensorSpecs, the literal left out (the flat signature:
    tensors only; the graph keeps the traced 2). Each gives x * 2 + y."""
    cf = _traced(tf)
    xs, ys = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32), np.array([1, 2, 3], np.int32)
    x, y = tf.constant(xs), tf.constant(ys)
    want = xs * 2 + ys
    calls = {"cf(x, y)": lambda: cf(x, y), "cf(y=y, x=x)": lambda: cf(y=y, x=x), "cf(x, y, 2)": lambda: cf(x, y, 2),
             "cf(x, y, 2.0)": lambda: cf(x, y, 2.0), "cf(x, y, scale=2.0)": lambda: cf(x, y, scale=2.0),
             "cf(ndarray, y, 2)": lambda: cf(xs, y, 2), "cf(x, [1, 2, 3], 2)": lambda: cf(x, [1, 2, 3], 2)}
    for name, call in calls.items():
        out = call()
        assert_equal(to_numpy(out["s"]), want, call=name, what="out['s']")
        assert_equal(int(to_numpy(out["n"])), 2, call=name, what="out['n']")


def _both(why: str, args: tuple, kwargs: dict, flat: str) -> str:
    return (f"Binding inputs to tf.function failed due to `{why}`. Received args: {args!r} and kwargs: {kwargs!r} "
            f"for signature: {_SIG}.\nFallback to flat signature also failed due to: f(x, y){flat}")


@clause("function.input-signature", ref="tf221")
def test_cov23b_concrete_function_binding_errors(backend, tf):
    """Calls that bind to neither signature: TypeError with the structured text (Python's binding
    message or the cast's, the arguments, the signature) and the flat one's ("takes 2 positional
    arguments, got 3", "missing required arguments", "got unexpected keyword arguments", "got two
    values", "expected argument #1(zero-based) to be a Tensor"). A tensor of another dtype binds to the
    flat signature and fails in the graph: InvalidArgumentError naming C's type ('double')."""
    cf = _traced(tf)
    x, y = tf.constant([[1.0, 2.0, 3.0]]), tf.constant([1, 2, 3])
    yf = tf.cast(y, tf.float32)
    cases = [
        ((x, y, 3), {}, "Can not cast 3 to Literal[2]", " takes 2 positional arguments, got 3."),
        ((x, y, True), {}, "Can not cast True to Literal[2]", " takes 2 positional arguments, got 3."),
        ((x,), {}, "missing a required argument: 'y'", " missing required arguments: y."),
        ((), {"y": y}, "missing a required argument: 'x'", " missing required arguments: x."),
        ((x,), {"y": y, "z": 1}, "missing a required argument: 'scale'", " got unexpected keyword arguments: z."),
        ((x, y), {"x": x}, "multiple values for argument 'x'", " got two values for 'x'."),
        ((x, [1, 2, 3]), {}, "missing a required argument: 'scale'",
         ": expected argument #1(zero-based) to be a Tensor; got list ([1, 2, 3])."),
        ((x, 5, 2), {}, "Can not cast TensorSpec(shape=(), dtype=tf.int32, name=None) to TensorSpec(shape=(3,), "
         "dtype=tf.int32, name=None)", " takes 2 positional arguments, got 3."),
        ((x, yf, 2), {}, "Can not cast TensorSpec(shape=(3,), dtype=tf.float32, name=None) to TensorSpec(shape=(3,), "
         "dtype=tf.int32, name=None)", " takes 2 positional arguments, got 3."),
        ((x, y, 2, 4), {}, "too many positional arguments", " takes 2 positional arguments, got 4."),
    ]
    for args, kwargs, why, flat in cases:
        call = f"cf(*{len(args)} args, **{sorted(kwargs)})"
        with raises(TypeError, call=f"{call}: {why}") as box:
            cf(*args, **kwargs)
        assert_equal(str(box["value"]), _both(why, args, kwargs, flat), call=call, what="str(error)")
    for arg, i, c_type, got in ((tf.cast(x, tf.float64), 0, "float", "double"), (None, 1, "int32", "float")):
        args = (arg, y) if arg is not None else (x, yf)
        with raises(tf.errors.InvalidArgumentError,
                    match=rf"^cannot compute __inference_f(_\d+)? as input #{i}\(zero-based\) was expected to be a "
                          rf"{c_type} tensor but is a {got} tensor", call=f"cf(<{got} tensor as input #{i}>, ...)"):
            cf(*args)

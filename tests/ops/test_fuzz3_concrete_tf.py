"""`tf.function(...).get_concrete_function(...)` against real TensorFlow 2.21 (clause
function.input-signature; tests/fuzz3's open "trace-time" class): TF traces there, so an error
of the graph build raises from get_concrete_function (a shape function's ValueError, a dtype's
TypeError, a Python error of the function), one only a kernel finds waits for the call; the
ConcreteFunction's signature and output shapes; its calls' binding (missing, extra and keyword
arguments, literals, conversions) and their errors (another dtype: InvalidArgumentError; shapes
are the graph's run-time errors); a trace leaves variables unwritten. Also a call of a function
whose input_signature leaves dimensions unknown: a shape error its shape function cannot see is
the kernel's InvalidArgumentError. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _shape(s: Any) -> str:
    return "<unknown>" if s.rank is None else str([-1 if d is None else d for d in s.as_list()])


def _spec(s: Any) -> str:
    """A signature entry as text both backends print alike: name, shape, dtype (or a literal)."""
    if hasattr(s, "dtype"):
        return f"{s.name}:{_shape(s.shape)}:{s.dtype.name}"
    return f"literal {s!r}"


def _about(cf: Any) -> list[str]:
    """The ConcreteFunction's input signature and its outputs' shapes and dtypes, as text."""
    args, kwargs = cf.structured_input_signature
    outs = [f"{_shape(t.shape)}:{t.dtype.name}" for t in cf.outputs]
    return [np.array(" ".join(_spec(s) for s in args) + f" kw={sorted(kwargs)}"), np.array(" ".join(outs))]


def _sig(tf: Any, *specs: tuple[Any, str]) -> list[Any]:
    return [tf.TensorSpec(s, getattr(tf, d)) for s, d in specs]


def _add_cf(tf: Any) -> Any:
    f = tf.function(lambda x, y: x + y, input_signature=_sig(tf, ([None, 3], "float32"), ([3], "float32")))
    return f.get_concrete_function()


def _traced_from(body: str, *specs: tuple[Any, str]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x, y: body` (as many parameters as specs) on those specs."""
    names = "xyz"[:len(specs)]

    def run(tf: Any) -> Any:
        fn = eval(f"lambda {', '.join(names)}: {body}", {"tf": tf, "np": np})  # noqa: S307 - our text
        return _about(tf.function(fn).get_concrete_function(*_sig(tf, *specs)))
    return run


def _signature_call(body: str, specs: list[tuple[Any, str]], *values: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A call of tf.function(lambda ...: body, input_signature=specs) with real tensors."""
    names = "xyz"[:len(specs)]

    def run(tf: Any) -> Any:
        fn = eval(f"lambda {', '.join(names)}: {body}", {"tf": tf, "np": np})  # noqa: S307 - our text
        return tf.function(fn, input_signature=_sig(tf, *specs))(*[v(tf) for v in values])
    return run


def _both(body: str, spec: tuple[Any, str], value: Any) -> Callable[[Any], Any]:
    """get_concrete_function of tf.function(lambda x: body, input_signature=[spec]) (its outcome:
    "traced" or the error's class), then a call with `value`: the two outcomes, so that an error
    at trace time and one at run time are told apart."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {body}", {"tf": tf, "np": np})  # noqa: S307 - our text
        f = tf.function(fn, input_signature=_sig(tf, spec))
        try:
            f.get_concrete_function()
            traced = "traced"
        except Exception as e:  # noqa: BLE001 - the class is the outcome
            traced = type(e).__name__
        try:
            out = f(tf.constant(value))
            called = f"{out.dtype.name} {out.shape.as_list()}"
        except Exception as e:  # noqa: BLE001
            called = type(e).__name__
        return [np.array(traced), np.array(called)]
    return run


def _calls(body: str) -> Callable[[Any], Any]:
    """tf.function(lambda x: body, input_signature=[TensorSpec([None])]) called three times."""
    def run(tf: Any) -> Any:
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf}), input_signature=_sig(tf, ([None], "float32")))  # noqa: S307
        return [f(tf.zeros([2])) for _ in range(3)]
    return run


def _literal_cf(tf: Any) -> Any:
    return tf.function(lambda x, k=2: x * k).get_concrete_function(tf.constant([1.0, 2.0]), 3)


def _trace_leaves_variable(tf: Any) -> Any:
    v = tf.Variable(1.0)
    cf = tf.function(lambda x: v.assign_add(x)).get_concrete_function(tf.TensorSpec([], tf.float32))
    before = v.read_value()
    cf(tf.constant(2.0))
    return [before, v.read_value()]


_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs (simdist's on a fresh simulation for each case, TF's
    made once per worker, before any op)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _in_replica(body: str, dtype: str = "float64") -> Callable[[Any], Any]:
    """strategy.run(lambda v, c: body) with v a mirrored Variable of `dtype` and c a float32
    tensor: the replicas' results, or the error's class."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        with s.scope():
            v = tf.Variable(tf.constant([1, 2], getattr(tf, dtype)))
        fn = eval(f"lambda v: {body}", {"tf": tf, "np": np, "c": lambda: tf.constant([1.0, 2.0], tf.float32)})  # noqa: S307
        return s.experimental_local_results(s.run(fn, args=(v,)))
    return run


def _ones(shape: list[int], dt: str = "float32") -> Callable[[Any], Any]:
    return lambda tf: tf.ones(shape, getattr(tf, dt))


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- the trace: its signature and outputs, its errors
    ("signature-and-outputs", "trace", lambda tf: _about(_add_cf(tf))),
    ("signature-from-tensors-and-literal", "trace", lambda tf: _about(_literal_cf(tf))),
    ("signature-nested-outputs", "trace", lambda tf: _about(tf.function(lambda x: {"b": (x * 2, 3), "a": x})
                                                            .get_concrete_function(tf.TensorSpec([None], tf.float32)))),
    ("specs-matching-input-signature", "trace", lambda tf: _about(tf.function(
        lambda x, y: x + y, input_signature=_sig(tf, ([None, 3], "float32"), ([3], "float32")))
        .get_concrete_function(*_sig(tf, ([None, 3], "float32"), ([3], "float32"))))),
    ("spec-not-matching-input-signature", "trace", lambda tf: tf.function(
        lambda x: x, input_signature=_sig(tf, (None, "float32"))).get_concrete_function(tf.TensorSpec([2], tf.float64))),
    ("matmul-rank-1", "trace", _traced_from("tf.linalg.matmul(x, x)", ([3], "float32"))),
    ("add-known-dims-differ", "trace", _traced_from("x + y", ([2, None], "float32"), ([3, 1], "float32"))),
    ("add-unknown-dim-broadcasts", "trace", _traced_from("x + y", ([None, 2], "float32"), ([3, 1], "float32"))),
    ("add-dtypes-differ", "trace", _traced_from("x + y", ([2], "float32"), ([2], "int32"))),
    # (traces: simdist's dry runs all meet the kernel's error, so the outputs' shapes are not known there)
    ("reshape-unknown-rank", "trace", lambda tf: _about(tf.function(lambda x: tf.reshape(x, [3]))
                                                       .get_concrete_function(tf.TensorSpec(None, tf.float32)))[0]),
    ("reshape-known-count", "trace", _traced_from("tf.reshape(x, [3])", ([2, 2], "float32"))),
    ("gather-index-out-of-range", "trace", lambda tf: len(tf.function(lambda x: tf.gather(x, 5))
                                                           .get_concrete_function(tf.TensorSpec([2], tf.float32))
                                                           .structured_input_signature[0])),
    ("python-error-in-function", "trace", _traced_from("x + 1 / 0", ([2], "float32"))),
    ("trace-leaves-variable-unwritten", "trace", _trace_leaves_variable),
    # -- calls of a ConcreteFunction
    ("call", "call", lambda tf: _add_cf(tf)(tf.ones([2, 3]), tf.ones([3]))),
    ("call-by-keyword", "call", lambda tf: _add_cf(tf)(tf.ones([2, 3]), y=tf.ones([3]))),
    ("call-missing-argument", "call", lambda tf: _add_cf(tf)(tf.ones([2, 3]))),
    ("call-too-many-arguments", "call", lambda tf: _add_cf(tf)(tf.ones([2, 3]), tf.ones([3]), tf.ones([3]))),
    ("call-other-dtype", "call", lambda tf: _add_cf(tf)(tf.ones([2, 3], tf.float64), tf.ones([3], tf.float64))),
    ("call-other-shape", "call", lambda tf: _add_cf(tf)(tf.ones([2, 4]), tf.ones([3]))),
    ("call-numpy-with-input-signature", "call", lambda tf: _add_cf(tf)(np.ones([2, 3], np.float32),
                                                                       np.ones([3], np.float32))),
    ("call-lists-with-input-signature", "call", lambda tf: _add_cf(tf)([[1.0, 2.0, 3.0]], [1.0, 2.0, 3.0])),
    ("call-python-scalars", "call", lambda tf: _add_cf(tf)(1, 2)),
    ("call-literal-omitted", "call", lambda tf: _literal_cf(tf)(tf.constant([5.0, 6.0]))),
    ("call-literal-same", "call", lambda tf: _literal_cf(tf)(tf.constant([5.0, 6.0]), 3)),
    ("call-literal-other", "call", lambda tf: _literal_cf(tf)(tf.constant([5.0, 6.0]), 4)),
    ("call-longer-than-traced", "call", lambda tf: _literal_cf(tf)(tf.constant([5.0, 6.0, 7.0]))),
    ("call-int-for-float", "call", lambda tf: _literal_cf(tf)(tf.constant([5, 6]))),
    ("call-numpy-without-input-signature", "call", lambda tf: _literal_cf(tf)(np.ones([2], np.float32))),
    ("call-reshape-unknown-rank", "call", lambda tf: tf.function(
        lambda x: tf.reshape(x, [3]), input_signature=_sig(tf, (None, "float32"))).get_concrete_function()(tf.ones([2]))),
    # -- calls of a function whose input_signature leaves dimensions unknown
    ("signature-add-unknown-dim", "unknown-dims", _signature_call("x + y", [([None], "float32"), ([3], "float32")],
                                                                  _ones([2]), _ones([3]))),
    ("signature-add-known-dims", "unknown-dims", _signature_call("x + y", [([2], "float32"), ([3], "float32")],
                                                                 _ones([2]), _ones([3]))),
    ("signature-reshape-known", "unknown-dims", _signature_call("tf.reshape(x, [3])", [([2], "float32")], _ones([2]))),
    ("signature-add-n-unknown-dim", "unknown-dims", _signature_call("tf.math.add_n([x, tf.zeros([1, 1])])",
                                                                    [([None, None], "float32")], _ones([2, 2]))),
    ("signature-accumulate-n-unknown-dim", "unknown-dims", _signature_call(
        "tf.math.accumulate_n([x, tf.zeros([1, 1])])", [(None, "float32")], _ones([1, 1]))),
    ("signature-diag-part-unknown-rank", "unknown-dims", _signature_call("tf.linalg.diag_part(x)", [(None, "float32")],
                                                                         _ones([2]))),
    *[(f"graph-{n}", "graph-build", _both(body, spec, value)) for n, body, spec, value in (
        ("sort-axis-beyond-known-rank", "tf.sort(x, axis=2)", ([2, None], "int32"), np.ones([2, 3], np.int32)),
        ("argsort-axis-beyond-known-rank", "tf.argsort(x, axis=2)", ([None], "float16"), np.ones([1], np.float16)),
        ("argsort-negative-axis-beyond", "tf.argsort(x, axis=-3)", ([None, 2], "float16"), np.ones([1, 2], np.float16)),
        ("argsort-axis-unknown-rank", "tf.argsort(x, axis=2)", (None, "float32"), np.ones([2], np.float32)),
        ("one-hot-constant-negative-depth", "tf.one_hot(x, -2)", ([None], "int64"), np.ones([1], np.int64)),
        ("linspace-constant-negative-num", "tf.linspace(2.0, -1.0, num=-2) + tf.cast(x[0], tf.float32)",
         ([None], "int64"), np.ones([1], np.int64)),
        ("range-constants-refused", "tf.range(5, 1) + x[0]", ([None], "int32"), np.ones([1], np.int32)),
        ("range-uint16-no-kernel", "tf.range(start=1, delta=3, dtype=tf.uint16)", ([None], "int32"),
         np.ones([1], np.int32)),
        ("roll-scalar", "tf.roll(x, shift=1, axis=5)", ([], "float16"), np.float16(0.3)),
        ("roll-axis-out-of-range", "tf.roll(x, shift=1, axis=5)", ([2], "float16"), np.ones([2], np.float16)),
        ("roll-unknown-rank", "tf.roll(x, shift=1, axis=1)", (None, "float32"), np.ones([2], np.float32)),
        ("bitcast-bool", "tf.bitcast(x, tf.uint16)", ([None], "bool"), np.ones([1], bool)),
        ("bitcast-to-bool", "tf.bitcast(x, tf.bool)", ([None], "int8"), np.ones([1], np.int8)),
        ("bitcast-unknown-last-dim", "tf.bitcast(x, tf.int32)", ([None], "int8"), np.ones([2], np.int8)),
        ("cross-ranks-differ", "tf.linalg.cross(a=x, b=np.ones([2, 2, 1], np.int32))", ([2, 1], "float64"),
         np.ones([2, 1], np.float64)),
        ("cross-unknown-last-dim", "tf.linalg.cross(x, x)", ([None], "float32"), np.ones([2], np.float32)),
        ("cross-known-last-dim-2", "tf.linalg.cross(x, x)", ([None, 2], "float32"), np.ones([1, 2], np.float32)),
        ("cross-merged-last-dim-2", "tf.linalg.cross(a=x, b=tf.constant([[-0.0, 5.96e-08]], dtype=tf.float16))",
         ([None, None], "float16"), np.zeros([0, 2], np.float16)),
        ("cross-merged-last-dim-3", "tf.linalg.cross(a=x, b=tf.constant([[1.0, 2.0, 3.0]]))", ([None, None], "float32"),
         np.zeros([2, 3], np.float32)),
        ("matmul-rank-0-uint16", "tf.linalg.matmul(a=x, b=tf.constant([[7, 0], [0, 3]], dtype=tf.uint16))",
         ([], "uint16"), np.uint16(7)),
        ("matmul-rank-1-uint64", "tf.linalg.matmul(x, tf.constant([[4, 0], [7, 0]], dtype=tf.uint64))", ([2], "uint64"),
         np.array([2**63, 0], np.uint64)),
        ("top-k-unknown-dim", "tf.math.top_k(x, k=3).values", ([None], "float32"), np.ones([2], np.float32)),
        ("searchsorted-unknown-dims", "tf.searchsorted(x, tf.ones([3, 2]))", ([None, None], "float32"),
         np.ones([2, 2], np.float32)),
        ("unravel-index-empty", "tf.unravel_index(tf.constant([], dtype=tf.int64), dims=[2, 3])", ([None], "float32"),
         np.ones([1], np.float32)),
        ("unravel-index-unknown-rank", "tf.unravel_index(x, dims=[2, 3])", (None, "int32"), np.ones([2, 2, 2], np.int32)),
        ("diag-part-rank-1", "tf.linalg.diag_part(x)", ([None], "float32"), np.ones([2], np.float32)),
        ("log-softmax-axis-beyond-known-rank", "tf.nn.log_softmax(x, axis=1)", ([None], "float32"),
         np.ones([2], np.float32)),
        ("softmax-axis-unknown-rank", "tf.nn.softmax(x, axis=1)", (None, "float32"), np.ones([2], np.float32)),
        ("softmax-axis-0-unknown-rank", "tf.nn.softmax(x, axis=0)", (None, "float32"), np.ones([2], np.float32)),
        ("softmax-last-axis-unknown-rank", "tf.nn.softmax(x, axis=-1)", (None, "float32"), np.ones([2], np.float32)),
    )],
    # -- a Python list converted inside a tf.function: NumPy's inference, then astype (numpy_compat.np_array)
    *[(f"graph-constant-{n}", "conversion", (lambda v, d: lambda tf: tf.function(
        lambda: tf.constant(v, dtype=getattr(tf, d)))())(v, d)) for n, v, d in (
        ("uint64-max-beside-small", [[0], [18446744073709551615], [1], [4]], "uint64"),
        ("uint64-beyond-int64-only", [2**64 - 2, 2**63 + 1], "uint64"),
        ("uint64-max-scalar", 18446744073709551615, "uint64"),
        ("uint32-negative-and-big", [-1, 2**62], "uint32"),
        ("int64-beside-uint64-range", [0, 2**64 - 1], "int64"),
        ("int32-wraps", [2**33 + 5, -7], "int32"),
    )],
    ("graph-constant-reduce-max-uint64", "conversion", lambda tf: tf.function(
        lambda: tf.reduce_max(tf.constant([0, 18446744073709551615, 1], dtype=tf.uint64)))()),
    ("graph-constant-relu6-uint64", "conversion", lambda tf: tf.function(
        lambda: tf.nn.relu6(tf.constant([[0], [18446744073709551615], [1], [4]], dtype=tf.uint64)))()),
    ("eager-constant-uint64-max-beside-small", "conversion",
     lambda tf: tf.constant([[0], [18446744073709551615], [1], [4]], dtype=tf.uint64)),
    # -- a mirrored Variable of another dtype in a replica: a generated op's eager fallback converts it
    *[(f"replica-{n}", "replica-variables", _in_replica(body, dt)) for n, body, dt in (
        ("subtract", "tf.math.subtract(v, c())", "float64"), ("subtract-first", "tf.math.subtract(c(), v)", "float64"),
        ("multiply", "tf.math.multiply(v, c())", "int32"), ("less", "tf.math.less(v, c())", "float64"),
        ("maximum", "tf.math.maximum(v, c())", "float64"), ("minimum-first", "tf.math.minimum(c(), v)", "int32"),
        ("pow", "tf.math.pow(v, tf.constant(2, tf.int32))", "float64"), ("floormod", "tf.math.floormod(v, c())", "float64"),
        ("squared-difference", "tf.math.squared_difference(v, c())", "float64"),
        ("concat", "tf.concat([c(), v], 0)", "float64"), ("stack", "tf.stack([v, c()])", "int32"),
        ("where", "tf.where(tf.constant([True, False]), c(), v)", "float64"),
        # (these read the variable first: the kernel's InvalidArgumentError, or they compute)
        ("add", "tf.math.add(v, c())", "float64"), ("operator-minus", "v - c()", "float64"),
        ("add-n", "tf.math.add_n([v, c()])", "float64"), ("matmul", "tf.linalg.matmul(tf.reshape(v, [1, 2]), "
                                                                      "tf.ones([2, 1]))", "float64"),
        ("maximum-python-number", "tf.math.maximum(v, 1.5)", "float64"),
        ("maximum-same-dtype", "tf.math.maximum(v, tf.constant([1.0, 2.0], tf.float64))", "float64"),
    )],
    # -- Polygamma: an order that is not a non-negative integer is NaN (Eigen), a Python x takes a's dtype
    ("polygamma-non-integer-or-negative-order", "polygamma", lambda tf: tf.math.polygamma(
        tf.constant([1e-40, 0.5, -1.0, 2.5], tf.float64), tf.constant([1e-40, 2.0, 2.0, 3.0], tf.float64))),
    ("polygamma-python-x", "polygamma", lambda tf: tf.math.polygamma(tf.constant(1.0), -3)),
    ("polygamma-python-x-traced", "polygamma", lambda tf: tf.function(lambda: tf.math.polygamma(tf.constant(1.0), -3))()),
    ("polygamma-python-a-traced", "polygamma", lambda tf: tf.function(
        lambda: tf.math.polygamma(2, tf.constant([1.0, 3.0])))()),
    # -- a subnormal constant inside a tf.function: flushed by the ops it feeds on every call, the first too
    *[(f"subnormal-constant-{n}", "subnormals", _calls(body)) for n, body in (
        ("sign", "tf.math.sign(tf.constant([1.0, 9.99994610111476e-41], dtype=tf.float32)) + x"),
        ("digamma", "tf.math.digamma(tf.constant([9.99994610111476e-41, 0.1], dtype=tf.float32)) + x"),
    )],
    # -- Lgamma and Expint of a subnormal: glibc's log under DAZ takes it as 2**-150 (2**-1075), in every lane
    *[(f"subnormal-{n}-{dt}", "subnormals", (lambda n, dt, v: lambda tf: getattr(tf.math.special if n == "expint" else
                                                                               tf.math, n)(tf.constant(v, getattr(tf, dt))))(n, dt, v))
      for n in ("lgamma", "expint") for dt, v in (
          # (expint's float32 values of normal inputs differ from TF's in the last bit: left out here)
          ("float32", [1e-40] * 8 + [-1e-40, 2e-44, 0.0, -0.0, 1e-40] + ([] if n == "expint" else [1.0, 3.0, 1e-38])),
          ("float64", [1e-310] * 4 + [-1e-310, 5e-324, 1.0, 0.0, 1e-300]),
          ("float16", [6e-8, -6e-8, 1e-5, 1.0]))],
    # -- a non-tensor operand of Cross and UnravelIndex takes the tensor operand's dtype (eager and traced)
    *[(f"{m}-{n}", "conversion", f if m == "eager" else (lambda f: lambda tf: tf.function(lambda: f(tf))())(f))
      for m in ("eager", "traced") for n, f in (
        ("cross-numpy-int32-beside-float64", lambda tf: tf.linalg.cross(a=tf.ones([2, 3], tf.float64),
                                                                        b=np.ones([2, 3], np.int32))),
        ("cross-list-beside-int64", lambda tf: tf.linalg.cross(a=tf.ones([2, 3], tf.int64), b=[[1, 2, 3], [4, 5, 6]])),
        ("cross-numpy-first", lambda tf: tf.linalg.cross(np.ones([2, 3], np.int32), tf.ones([2, 3], tf.float64))),
        ("cross-numpy-float-beside-int32", lambda tf: tf.linalg.cross(a=tf.ones([2, 3], tf.int32),
                                                                      b=np.full([2, 3], 1.5, np.float64))),
        ("cross-scalar-and-python-int", lambda tf: tf.linalg.cross(a=tf.constant(0.1, dtype=tf.float64), b=7)),
        ("cross-last-dim-2", lambda tf: tf.linalg.cross(tf.ones([2, 2]), tf.ones([2, 2]))),
        ("unravel-index-list-dims", lambda tf: tf.unravel_index(tf.constant([1], dtype=tf.int64), dims=[2, 3])),
        ("unravel-index-numpy-dims", lambda tf: tf.unravel_index(tf.constant([1], dtype=tf.int64),
                                                                 dims=np.array([2, 3], np.int32))),
        ("unravel-index-list-indices", lambda tf: tf.unravel_index([1], dims=tf.constant([2, 3], tf.int64))),
        ("unravel-index-empty", lambda tf: tf.unravel_index(tf.constant([], dtype=tf.int64),
                                                            dims=tf.constant([2, 3], tf.int64))),
    )],
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.input-signature")
@EDGES.parametrize("trace")
def test_get_concrete_function_traces(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.input-signature")
@EDGES.parametrize("call")
def test_concrete_function_calls(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("unknown-dims")
def test_unknown_dimensions_leave_errors_to_the_kernel(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("graph-build")
def test_graph_build_errors_with_unknown_dimensions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("conversion")
def test_cross_and_unravel_index_operand_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("subnormals")
def test_subnormal_constants_in_a_traced_call(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("replica-variables")
def test_mirrored_variable_of_another_dtype_in_a_replica(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("polygamma")
def test_polygamma_orders_and_operands(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    _strategy(tf)   # the logical CPUs are configured before any op initializes TF's runtime
    return {k: EDGES.outcome(tf, k) for k in indices}


if __name__ == "__main__":  # TF worker: python test_fuzz3_concrete_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)

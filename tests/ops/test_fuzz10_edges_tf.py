"""Rules issue 29's tenth campaign (fz10: the third fuzzer's seeds 91-93) found wrong, each against
real TensorFlow 2.21: the same call on both backends gives the same dtype and bits, or raises the
same exception class. AdjustSaturation's RGB-to-HSV round trip takes C++'s std::max/std::min, which
keep a NaN only as their first operand (edge-valued images and factors). A cast with a complex
side keeps subnormal parts when the parts' precision is unchanged (float32 <-> complex64, float64
<-> complex128) and reads/writes them under DAZ/FTZ when it converts them; eager conversion of
Python numbers to complex64 flushes parts tiny after rounding (a graph's keeps them); complex
Log1p of a 0-d value computes. Inside a tf.function a Const node named '' (tf.constant,
convert_to_tensor of a non-tensor, shape/size/rank folded to a constant) is ValueError at trace;
saturate_cast to bool is TypeError before any op; searchsorted's StridedSlices come before
LowerBound's out_type check; sort of an unknown-rank argument called with a scalar is the run-time
InvalidArgumentError. Needs the `tf` extra.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_VALS = np.array([np.nan, np.inf, -np.inf, 1e30, -2.0, 0.5, 0.0, -0.0, 1e-40, 0.25, 1.0, 1e10, -7.25], np.float32)
_RGB = np.array(list(itertools.product(_VALS, _VALS, _VALS)), np.float32).reshape(13, 169, 3)
IMAGE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- AdjustSaturation of every triple of thirteen edge values (fz3 ext seeds 61 #13, #165, 91 #206, 92)
    *[(f"adjust-saturation-edges-{factor}", "ops.image",
       (lambda f: lambda tf: tf.image.adjust_saturation(tf.constant(_RGB), f))(factor))
      for factor in (0.5, 2.0, 0.0, -1.0, float("inf"), float("nan"))],
]
_SUB = {"float32": 1e-40, "float64": 1e-310, "complex64": complex(1e-40, -1e-40), "complex128": complex(1e-310, 1e-40)}
_FLOATS = ("float32", "float64", "complex64", "complex128")
SUBNORMALS: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Cast with a complex side (fz3 ext seeds 92 #96 saturate_cast, 93 #63): n = 1 (scalar path), 33 (packets)
    *[(f"cast-{src}-to-{dst}-{n}", "ops.subnormals",
       (lambda s, d, k: lambda tf: tf.cast(tf.constant(np.full(k, _SUB[s], s)), getattr(tf, d)))(src, dst, n))
      for src in _FLOATS for dst in _FLOATS if "complex" in src + dst and src != dst for n in (1, 33)],
    ("cast-complex64-to-bool", "ops.subnormals",
     lambda tf: tf.cast(tf.constant(np.array([1e-40 + 0j, 1e-40j, 1 + 0j], np.complex64)), tf.bool)),
    ("saturate-cast-complex64-to-float64", "ops.subnormals",
     lambda tf: tf.dtypes.saturate_cast(tf.constant(np.array([0j, 1e-40 - 1j, 1 - np.inf * 1j], np.complex64)),
                                        tf.float64)),
    # -- Python numbers to complex64: eagerly each part a double cast to float32 under FTZ; traced NumPy's cast
    ("python-complex-to-complex64", "ops.subnormals", lambda tf: tf.constant([complex(1e-40, 1), 1e-40, 2.5], tf.complex64)),
    ("python-complex-scalar-to-complex64", "ops.subnormals", lambda tf: tf.constant(complex(1.1754943e-38, 1.17549435e-38),
                                                                                   tf.complex64)),
    ("python-complex-to-complex128", "ops.subnormals", lambda tf: tf.constant([complex(1e-310, 1e-40)], tf.complex128)),
    ("python-complex-to-complex64-traced", "ops.subnormals",
     lambda tf: tf.function(lambda: tf.constant([complex(1e-40, 1)], tf.complex64))()),
]
COMPLEX: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- complex Log1p of a 0-d value (its Annex G products over a 0-d shape; fz3 ext seed 93 #189)
    ("log1p-complex64-0d", "ops.complex", lambda tf: tf.math.log1p(np.array(complex(0.5, 0.1), np.complex64).reshape(()))),
    ("log1p-complex128-0d", "ops.complex", lambda tf: tf.math.log1p(np.complex128(complex(-0.25, 3.0)))),
]


def _sig(fn: Callable[..., Any], specs: list[tuple[Any, str]], *values: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """fn(tf, *args) as a tf.function with input_signature TensorSpec(shape, dtype) per spec: "at trace:
    <class>" when get_concrete_function raises, else its call on the values (made by `values` from tf)."""
    def run(tf: Any) -> Any:
        f = tf.function(lambda *a: fn(tf, *a), input_signature=[tf.TensorSpec(sh, getattr(tf, dt)) for sh, dt in specs])
        try:
            f.get_concrete_function()
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"at trace: {type(e).__name__}"
        return f(*[v(tf) for v in values])
    return run


def _vec(tf: Any) -> Any:
    return tf.constant([1.0, 2.0, 3.0])


TRACE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- a Const node named '' (fz3 ext seeds 92 #44, 93 #204, seed 93 #79), and the ops that scope it away
    *[(f"node-name-empty-{label}", "function.trace-time-errors", _sig(fn, [(spec, "float32")], _vec))
      for label, fn, spec in (
          ("constant", lambda tf, x: tf.constant([1.0], name=""), [3]),
          ("constant-a/b", lambda tf, x: tf.constant([1.0], name="a/b"), [3]),
          ("convert-ndarray", lambda tf, x: tf.convert_to_tensor(np.array([1e-40, 1e10]), dtype=tf.bool, name=""), [3]),
          ("convert-tensor", lambda tf, x: tf.convert_to_tensor(x, name=""), [3]),
          ("rank-known", lambda tf, x: tf.rank(x, name=""), [None]),
          ("rank-unknown", lambda tf, x: tf.rank(x, name=""), None),
          ("size-known", lambda tf, x: tf.size(tf.constant([0, 3], tf.uint16), out_type=tf.int64, name=""), None),
          ("size-unknown", lambda tf, x: tf.size(x, name=""), [None]),
          ("shape-known", lambda tf, x: tf.shape(x, name=""), [3]),
          ("shape-unknown", lambda tf, x: tf.shape(x, name=""), [None]),
          ("add", lambda tf, x: tf.math.add(x, x, name=""), [3]),
          ("reduce-sum", lambda tf, x: tf.reduce_sum(x, name=""), [3]))],
    ("rank-empty-name-eager", "function.trace-time-errors", lambda tf: tf.rank(tf.zeros([3, 2, 3]), name="")),
    # -- saturate_cast to bool: the dtypes' limits first (fz3 seed 93 #15)
    ("saturate-cast-uint64-to-bool", "function.trace-time-errors",
     lambda tf: tf.dtypes.saturate_cast(np.array([], np.uint64), "bool")),
    ("saturate-cast-uint64-to-bool-traced", "function.trace-time-errors",
     lambda tf: tf.function(lambda: tf.dtypes.saturate_cast(np.array([1], np.uint64), "bool"))()),
    # -- searchsorted of a scalar with an out_type LowerBound refuses (fz3 seed 93 #113)
    ("searchsorted-scalar-int16-traced", "function.trace-time-errors",
     _sig(lambda tf, x: tf.searchsorted(tf.constant([1.0]), x, out_type=tf.int16), [([], "float32")],
          lambda tf: tf.constant(1.0))),
    ("searchsorted-scalar-int16-eager", "function.trace-time-errors",
     lambda tf: tf.searchsorted(tf.constant([1.0]), tf.constant(1.0), out_type=tf.int16)),
    ("searchsorted-vector-int16-traced", "function.trace-time-errors",
     _sig(lambda tf, x: tf.searchsorted(tf.constant([1.0]), x, out_type=tf.int16), [([2], "float32")],
          lambda tf: tf.constant([1.0, 0.0]))),
    # -- Shape/Size built (a shape the graph does not fully know) check out_type; folded take any (ext seed 91 #195)
    ("shape-int16-unknown-dim", "function.trace-time-errors",
     _sig(lambda tf, x: tf.shape(x, out_type=tf.int16), [([1, None], "uint32")], lambda tf: tf.constant([[4]], tf.uint32))),
    ("shape-int16-known", "function.trace-time-errors",
     _sig(lambda tf, x: tf.shape(x, out_type=tf.int16), [([1, 2], "uint32")], lambda tf: tf.constant([[4, 5]], tf.uint32))),
    ("size-int16-unknown-dim", "function.trace-time-errors",
     _sig(lambda tf, x: tf.size(x, out_type=tf.int16), [([None], "float32")], _vec)),
    # -- unknown rank called with a scalar / a vector: the kernels decide (seed 91 #147, ext seed 92 #297)
    ("reverse-unknown-rank-scalar", "function.trace-time-errors",
     _sig(lambda tf, x: tf.reverse(x, axis=[0]), [(None, "float16")], lambda tf: tf.constant(-2.0, tf.float16))),
    ("reverse-known-scalar-traced", "function.trace-time-errors",
     _sig(lambda tf, x: tf.reverse(x, axis=[0]), [([], "float16")], lambda tf: tf.constant(-2.0, tf.float16))),
    ("categorical-unknown-rank-vector", "function.trace-time-errors",
     _sig(lambda tf, x: tf.random.stateless_categorical(x, 100, seed=tf.constant([42, 2])), [(None, "float64")],
          lambda tf: tf.constant([-np.inf, 1e10, np.inf, -0.0], tf.float64))),
    ("categorical-unknown-rank-scalar-negative-samples", "function.trace-time-errors",
     _sig(lambda tf, x: tf.random.stateless_categorical(x, -1, [2147483647, 0]), [(None, "float32")],
          lambda tf: tf.constant(-2.0))),
    # -- map_fn in a graph: rows of a leading dimension the graph does not know; ctc_unique_labels of zero rows
    #    (its map_fn stacks unique's outputs, of a shape a graph never knows; fz7 ext seeds 81-83)
    ("ctc-unique-labels-zero-rows-traced", "function.trace-time-errors",
     lambda tf: tf.function(lambda: tf.nn.ctc_unique_labels(tf.zeros([0, 4], tf.int32)))()),
    ("ctc-unique-labels-zero-rows-eager", "function.trace-time-errors",
     lambda tf: tf.nn.ctc_unique_labels(tf.zeros([0, 4], tf.int32))),
    ("ctc-unique-labels-zero-rows-sig", "function.trace-time-errors",
     _sig(lambda tf, x: tf.nn.ctc_unique_labels(x), [([None, 4], "int32")], lambda tf: tf.zeros([0, 4], tf.int32))),
    ("ctc-unique-labels-unknown-batch", "function.trace-time-errors",
     _sig(lambda tf, x: tf.nn.ctc_unique_labels(x), [([None, 4], "int32")],
          lambda tf: tf.constant([[1, 1, 2, 0], [3, 3, 3, 3]]))),
    ("map-fn-unknown-rows", "function.trace-time-errors",
     _sig(lambda tf, x: tf.map_fn(lambda r: r * 2, x), [([None, 2], "int32")], lambda tf: tf.constant([[1, 2], [3, 4]]))),
    # -- sort/argsort of an unknown-rank argument called with a scalar (fz7 ext seed 83 #187) or a vector
    ("sort-unknown-rank-scalar", "function.trace-time-errors",
     _sig(lambda tf, x: tf.sort(x), [(None, "float32")], lambda tf: tf.constant(1.0))),
    ("argsort-unknown-rank-scalar-descending", "function.trace-time-errors",
     _sig(lambda tf, x: tf.argsort(x, direction="DESCENDING"), [(None, "float32")], lambda tf: tf.constant(1.0))),
    ("sort-unknown-rank-vector", "function.trace-time-errors",
     _sig(lambda tf, x: tf.sort(x), [(None, "float32")], lambda tf: tf.constant([2.0, -1.0, 0.5]))),
]
_TANH_RNG = np.random.default_rng(3)


def _tanh_gradient(z: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(z)
        with tf.GradientTape() as tape:
            y = tf.math.tanh(v)
        return tape.gradient(y, v)
    return run


COMPLEX += [
    # -- complex TanhGrad: Eigen's complex products (packets textbook, tail Annex G) (fz3 ext seeds 72, 82 #171)
    *[(f"tanh-gradient-{np.dtype(dt).name}-{n}", "ops.complex",
       _tanh_gradient((_TANH_RNG.standard_normal(n) * 2 + 1j * _TANH_RNG.standard_normal(n) * 2).astype(dt)))
      for dt in (np.complex64, np.complex128) for n in (1, 3, 5, 9, 17)],
    ("tanh-gradient-complex64-edges", "ops.complex", _tanh_gradient(np.array(
        [complex(np.inf, 1), complex(0.5, -0.0), complex(1e-40, 3), complex(-2, 1e30), complex(0, 0)], np.complex64))),
]
_CV = [0, 1e-40, -2.5, np.inf, np.nan, 1e30, 0.5]
_CX = np.array([complex(a, b) for a, b in itertools.product(_CV, _CV)], np.complex64)
_CY = np.random.default_rng(1).permutation(_CX)


def _div_no_nan_gradients(tf: Any) -> Any:
    x, y = tf.Variable(_CX), tf.Variable(_CY)
    with tf.GradientTape() as tape:
        r = tf.math.divide_no_nan(x, y)
    return tape.gradient(r, [x, y])


def _embedding_gradient(tf: Any) -> Any:
    x = tf.Variable(_CX)
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup(x, [0, 3, 3, 7, 48])
    return tf.convert_to_tensor(tape.gradient(e, x))


COMPLEX += [
    # -- DivNoNan's gradient conjugates x and y for complex (math_grad._DivNoNanGrad; fz5's _CX_GRAD class)
    ("div-no-nan-gradient-complex64-edges", "ops.complex", _div_no_nan_gradients),
    ("embedding-lookup-gradient-complex64-edges", "ops.complex", _embedding_gradient),
]
CASES = IMAGE + SUBNORMALS + COMPLEX + TRACE



def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """edge_compare.bits_agree, complex part by part (a NaN part matching any NaN part)."""
    if got.dtype.kind == "c":
        return edge_compare.bits_agree(np.array(got.real), np.array(want.real)) & \
            edge_compare.bits_agree(np.array(got.imag), np.array(want.imag))
    return edge_compare.bits_agree(got, want)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.image")
@EDGES.parametrize("ops.image")
def test_adjust_saturation_edges(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_complex_casts_and_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_log1p_and_tanh_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_node_names_and_trace_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz10_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

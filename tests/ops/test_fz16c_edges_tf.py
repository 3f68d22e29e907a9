"""The rules issue 29's fz16c closed (classes of the fourteenth generator, tests/fuzz14), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and bits, or
raises the same exception class. The stateless random ops' `alg` (get_key_counter_alg: philox's
draws are auto_select's, threefry's CPU kernel error, unsupported values), stateless_uniform's
unsigned dtypes and minval/maxval conversion (fold_in of float data), array means of the normals,
stateless_binomial's dtype hint; the shape functions a graph build runs (ApproxTopK,
RandomIndexShuffle, Fingerprint) and the string wrappers' static checks. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _call(text: str) -> Callable[[Any], Any]:
    return lambda tf: eval(text, {"tf": tf, "np": np})  # noqa: S307 - our own text


def _sig(text: str, specs: list[tuple[Any, str]], args: list[tuple[Any, str]]) -> Callable[[Any], Any]:
    """tf.function(lambda x, ...: text, input_signature=specs): traced, then called on args (the
    trace's error, as TF raises it while it builds the graph, is the outcome)."""
    def run(tf: Any) -> Any:
        f = tf.function(eval(text, {"tf": tf, "np": np}),  # noqa: S307 - our own text
                        input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs])
        f.get_concrete_function()
        return f(*[tf.constant(v, getattr(tf, d)) for v, d in args])
    return run


def _seeded(text: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.random.set_seed(79)
        return eval(text, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


_ALGS = ["'auto_select'", "'philox'", "1", "3", "tf.random.Algorithm.PHILOX", "' Phi-lox_'", "None", "True",
         "tf.constant(1)", "'threefry'", "2", "tf.constant(2)", "'foo'", "5", "False", "2.5", "np.int64(1)",
         "tf.constant(7)"]
_ALG_CALLS = ["tf.random.stateless_normal([3], seed=[1, -2], alg={})",
              "tf.random.stateless_uniform([3], seed=[1, -2], alg={})",
              "tf.random.stateless_uniform([3], seed=tf.constant([1, -2], tf.int64), minval=0, maxval=100, "
              "dtype=tf.int64, alg={})",
              "tf.random.stateless_truncated_normal([3], seed=[1, -2], alg={})",
              "tf.random.fold_in([1, -2], 3, alg={})", "tf.random.split([1, -2], 2, alg={})",
              "tf.random.experimental.stateless_shuffle([1, 2, 3, 4], [1, -2], alg={})"]
_UNIFORM = "tf.random.stateless_uniform([2], seed=[1, 2], "
CASES: list[tuple] = [
    *[(f"{c.format(a)}", "ops.stateless-random", _call(c.format(a))) for a in _ALGS for c in _ALG_CALLS[:2]],
    *[(f"{c.format(a)}", "ops.stateless-random", _call(c.format(a))) for a in ("'philox'", "'threefry'", "'foo'")
      for c in _ALG_CALLS[2:]],
    *[(f"stateless_normal seed {s} alg {a}", "ops.stateless-random",
       _call(f"tf.random.stateless_normal([2], seed={s}, alg={a})"))
      for s in ("[1.5, 2.0]", "[1, 2, 3]", "[[1, 2]]", "7") for a in ("'philox'", "'auto_select'", "'threefry'")],
    ("stateless_normal negative shape, threefry", "ops.stateless-random",
     _call("tf.random.stateless_normal([-2], seed=[1, 2], alg='threefry')")),
    ("stateless_normal mean 'a', alg 'foo'", "ops.stateless-random",
     _call("tf.random.stateless_normal([2], seed=[1, 2], mean='a', alg='foo')")),
    ("stateless_normal int32 dtype, alg 'foo'", "ops.stateless-random",
     _call("tf.random.stateless_normal([2], seed=[1, 2], dtype=tf.int32, alg='foo')")),
    *[(f"stateless_uniform {kw}", "ops.stateless-random", _call(_UNIFORM + kw + ")")) for kw in (
        "dtype=tf.uint32", "dtype=tf.uint32, minval=None, maxval=None", "dtype=tf.uint64, minval=None, maxval=None",
        "dtype=tf.int64, minval=None, maxval=None", "dtype=tf.uint64, minval=1, maxval=4",
        "dtype=tf.float32, minval=None, maxval=None", "dtype=tf.int8, minval=None, maxval=None")],
    ("stateless_uniform minval None, seed of 3", "ops.stateless-random",
     _call("tf.random.stateless_uniform([2], seed=[1, 2, 3], minval=None)")),
    ("stateless_uniform maxval 'a', seed of 3", "ops.stateless-random",
     _call("tf.random.stateless_uniform([2], seed=[1, 2, 3], minval=0, maxval='a')")),
    *[(f"fold_in data {d}", "ops.stateless-random", _call(f"tf.random.fold_in([1, 2], {d})")) for d in (
        "1.0", "np.uint32(3)", "tf.constant(3, tf.uint32)", "tf.constant(3, tf.uint64)", "tf.constant(3, tf.int64)",
        "tf.constant(3, tf.int8)", "tf.constant(3, tf.float16)")],
    *[(f"split {s}", "ops.stateless-random", _call(f"tf.random.split({s})")) for s in (
        "tf.constant([1, 2], tf.uint32)", "tf.constant([1, 2], tf.float32)", "[1, 2], 0", "[1, 2], -1")],
    ("fold_in uint64 data traced", "ops.stateless-random",
     _sig("lambda x: tf.random.fold_in([1, 2], data=tf.constant(3, dtype=tf.uint64)) + x", [([], "uint64")],
          [(1, "uint64")])),
    ("stateless_normal threefry traced", "ops.stateless-random",
     _sig("lambda x: tf.random.stateless_normal((1, 2, 2), seed=[0, 0], alg='threefry') + x", [([], "float32")],
          [(1.0, "float32")])),
    ("normal with a [1, 4, 1, 3] mean array", "ops.stateless-random",
     _seeded("tf.random.normal([1, 4, 1, 3], mean=np.array([[[[1.0, 2.5, 0.0]], [[1.0, 2.5, 0.0]], "
             "[[-0.0, 1.0, 1.0]], [[0.0, -1.5, 4.0]]]], dtype=np.float32), stddev=1.0)")),
    ("normal mean list, stddev column", "ops.stateless-random",
     _seeded("tf.random.normal([2, 3], mean=[1.0, 2.0, 3.0], stddev=[[1.0], [2.0]], seed=3)")),
    ("normal mean that does not broadcast", "ops.stateless-random",
     _seeded("tf.random.normal([2, 3], mean=[1.0, 2.0], seed=3)")),
    ("stateless_truncated_normal float64 mean array", "ops.stateless-random",
     _call("tf.random.stateless_truncated_normal(np.array([4], dtype=np.int64), seed=[1, 2], "
           "mean=np.array([-1.5, float('inf'), 0.25, 7.0], dtype=np.float64))")),
    ("stateless_normal mean list, stddev column", "ops.stateless-random",
     _call("tf.random.stateless_normal([2, 3], seed=[1, 2], mean=[1.0, 2.0, 3.0], stddev=np.array([[1.0], [2.0]]))")),
    *[(f"stateless_binomial {c}", "ops.random-generator",
       _call(f"tf.random.stateless_binomial([4], [1, 2], {c})")) for c in (
        "counts=[3, -4, 5, 1], probs=np.array([1, 1, 0, 3], dtype=np.uint64)",
        "counts=[3, -4, 5, 1], probs=np.array([1, 1, 0, 3], dtype=np.uint64), output_dtype=tf.uint32",
        "counts=np.array([3, 4, 5, 1]), probs=np.array([1, 1, 0, 3], dtype=np.uint64)",
        "counts=np.array([3, 4, 5, 1]), probs=[0.1, 0.5, 0, 0.3]",
        "counts=np.array([3, 4, 5, 1]), probs=tf.constant([1, 1, 0, 3], dtype=np.uint64)")],
    *[(f"approx_top_k traced {t} {s}", "function.trace-time-errors",
       _sig(f"lambda x: tf.{t}", [(s, "float32")], [(np.zeros([2, 3, 4]).tolist() if s != [] else 0.0, "float32")]))
      for t, s in (("approx_top_k(x, 2, reduction_dimension=5, recall_target=0)", [None, 3, None]),
                   ("approx_top_k(x, 2, reduction_dimension=-4)", [None, 3, None]),
                   ("approx_top_k(x, 2, reduction_dimension=2)", [None, 3, None]),
                   ("approx_top_k(x, 4, reduction_dimension=1)", [None, 3, None]),
                   ("approx_top_k(x, 2, recall_target=-0.5)", [None, 3, 4]),
                   ("approx_top_k(x, 0)", [None, 3, None]),
                   ("approx_top_k(x, 2, reduction_dimension=0)", None),
                   ("approx_top_k(x, 2)", []),
                   ("approx_top_k(x, -1)", [2, 3, 4]),
                   ("math.approx_min_k(x, 2)", [2, 3, 4]),
                   ("math.approx_max_k(x, 2, recall_target=float('nan'))", [2, 3, 4]),
                   ("math.approx_max_k(x, 2, recall_target=1.0)", [2, 3, 4]))],
    ("approx_min_k of a scalar traced", "function.trace-time-errors",
     _sig("lambda x: tf.math.approx_min_k(0.5, np.int64(2), reduction_dimension=-1) + x", [([], "float32")],
          [(1.0, "float32")])),
    ("approx_top_k recall_target 0 eagerly", "function.trace-time-errors",
     _call("tf.approx_top_k(tf.zeros([3, 4]), 2, recall_target=0)")),
    *[(f"random_index_shuffle traced {c}", "function.trace-time-errors",
       _sig(f"lambda x: tf.random_index_shuffle({c})", [([], "int32")], [(1, "int32")])) for c in (
        "1, seed=[0, 0], max_index=tf.constant(2)", "-1, [0, 0], -1", "x, [0, 0, 1], 3", "[1, 2], [[0, 0, 1]], [3, 4]",
        "[1, 2], [[0, 0, 1], [1, 2, 3]], [3, 4, 5]", "[[1, 2]], [0, 0, 1], 3", "x, [0, 0, 1], [[3]]",
        "x, [[[0, 0, 1]]], 3", "x, [0, 1, 2, 3], 3")],
    ("random_index_shuffle unknown seed length traced", "function.trace-time-errors",
     _sig("lambda x: tf.random_index_shuffle(1, x, 3)", [([None], "int32")], [([1, 2, 3], "int32")])),
    *[(f"fingerprint traced {c}", "function.trace-time-errors",
       _sig(f"lambda x: tf.fingerprint({c})", [([None, 3], "int64")], [([[1, 2, 3]], "int64")])) for c in (
        "x, method='bilinear'", "x, method=['farmhash64']", "x[0, 0]", "x")],
    ("fingerprint method 'bilinear' eagerly", "function.trace-time-errors",
     _call("tf.fingerprint(tf.constant([[1, 2]], tf.int64), method='bilinear')")),
    *[(f"strings traced {c}", "function.trace-time-errors", _sig(f"lambda x: tf.strings.{c}", [(None, d)], [(v, d)]))
      for c, d, v in (("unicode_split(tf.cast(x, tf.complex128), input_encoding=np.array([], dtype=np.uint16))",
                       "int64", [1]),
                      ("unicode_split(x, input_encoding=np.array([], dtype=np.uint16))", "string", ["a"]),
                      ("unicode_decode(x, 'UTF-8')", "string", ["a"]),
                      ("upper(x, encoding='UTF-8')", "int32", [1]),
                      ("lower(x)", "int32", [1]))],
    *[(f"ensure_shape traced {spec} to {shp}", "function.trace-time-errors",
       _sig(f"lambda x: tf.ensure_shape(x, {shp})", [(spec, "float32")], [(np.zeros([d or 1 for d in spec or [1]]).tolist(), "float32")]))
      for spec, shp in (([2], [3]), ([2, None], [2, 3, 4]), ([None, 2], [1, 3]), (None, [1]), ([2], None),
                        ([2, 3], [None, 4]), ([2, 3], [2, None]))],
    ("ensure_shape(False, [1, 1]) traced", "function.trace-time-errors",
     _sig("lambda x: tf.ensure_shape(x=False, shape=[1, 1])", [([], "float32")], [(1.0, "float32")])),
    ("ngrams with a tensor width traced", "function.trace-time-errors",
     _sig("lambda x: tf.strings.ngrams(x, tf.constant(2))", [([2], "string")], [(["a", "b"], "string")])),
    ("ngrams with a tensor width", "function.trace-time-errors", _call("tf.strings.ngrams(['a b', 'c'], tf.constant(2))")),
    *[(f"strings.{c} of a {v}", "function.trace-time-errors", _call(f"tf.strings.{c.format(v)}"))
      for c in ("ngrams({}, 2)", "unicode_decode({}, 'UTF-8').flat_values", "unicode_split({}, 'UTF-8').flat_values")
      for v in ("tf.Variable([1, 2])", "tf.Variable(['a', 'b c'])", "tf.constant([1, 2])")],
]

_CX = "[0.5 - 1.5j, complex(float('inf'), float('nan')), complex(-0.0, 1e10), 1e-5 + 2j]"
CASES += [(f"as_string {d} {kw}", "ops.as-string", _call(f"tf.strings.as_string(tf.constant({_CX}, tf.{d}), {kw})"))
          for d in ("complex64", "complex128")
          for kw in ("", "precision=2", "width=12", "width=12, fill='0'", "shortest=True",
                     "scientific=True, precision=3", "fill='+'", "fill='-', width=9", "scientific=True, shortest=True")]
_BOX = "tf.image.stateless_sample_distorted_bounding_box"
CASES += [(f"distorted box {name}", "ops.argument-errors", fn) for name, fn in (
    ("stateless, float64 boxes", _call(f"{_BOX}((0,), tf.constant(-3.0, dtype='float64'), tf.constant([5, 6]))")),
    ("stateless, float64 boxes traced",
     _sig(f"lambda x: {_BOX}((0,), tf.constant(-3.0, dtype='float64'), tf.constant([5, 6]))[0] + x",
          [([], "int32")], [(1, "int32")])),
    ("stateless, float64 min_object_covered",
     _call(f"{_BOX}([4, 4, 3], tf.constant([[[0.1, 0.1, 0.9, 0.9]]]), [5, 6], "
           "min_object_covered=tf.constant(0.5, tf.float64))")),
    ("stateless valid", _call(f"{_BOX}([4, 4, 3], tf.constant([[[0.1, 0.1, 0.9, 0.9]]]), [5, 6])")),
    ("tensor max_attempts", _call("tf.image.sample_distorted_bounding_box(tf.constant([3, 2, 0, 3], tf.int32), 3, "
                                  "min_object_covered=float('nan'), area_range=[1, 0], max_attempts=tf.constant(2))")),
    ("tensor max_attempts traced",
     _sig("lambda x: tf.image.sample_distorted_bounding_box(tf.constant([3, 2, 0, 3], tf.int32), 3, "
          "min_object_covered=float('nan'), area_range=[1, 0], max_attempts=tf.constant(2))[0] + x",
          [([], "int32")], [(1, "int32")])))]
CASES += [
    *[(f"qr traced of {spec}", "function.trace-time-errors",
       _sig("lambda x: tf.linalg.qr(x)[0]", [(spec, "float32")], [(np.zeros([1] * len(spec or [])).tolist(), "float32")]))
      for spec in ([], [None], None, [1, 1])],
    *[(f"split sizes {v}", "ops.argument-errors", _call(f"tf.split(tf.zeros([4]), {v})"))
      for v in ("2.5", "tf.constant(2)", "np.int64(2)", "[1, 3]", "tf.constant([2, 2])")],
    ("split(5, tf.constant(2), axis=[])", "ops.argument-errors",
     _call("tf.split(tf.constant(5, dtype=tf.int32), tf.constant(2), axis=[])")),
    ("split(5, tf.constant(2), axis=[]) traced", "ops.argument-errors",
     _sig("lambda x: tf.split(tf.constant(5, dtype=tf.int32), tf.constant(2), axis=[])[0] + x", [([], "int32")],
          [(1, "int32")])),
]
CASES += [(f"string conversion of {v}", "ops.conversion", _call(f"tf.convert_to_tensor({v}, dtype=tf.string)"))
          for v in ("np.array([0.5], np.float32)", "np.array([1], np.int32)", "np.array([True])", "np.float32(0.5)",
                    "np.array(2)", "np.array([], np.float32)", "np.array([b'a'])", "[0.5]")]
CASES += [(f"string tensor | {v}", "ops.conversion", _call(f"tf.constant(['a']) | {v}"))
          for v in ("np.array([0.5], np.float32)", "np.array([1], np.int32)", "np.array([b'a'])")]
CASES += [("as_string | float32 array", "ops.conversion",
           _call("tf.as_string([[1, 2]], width=tf.constant(2)) | np.array([[0.5, 1.0]], np.float32)")),
          ("string conversion of a float array traced", "ops.conversion",
           _sig("lambda x: tf.strings.join([x, tf.convert_to_tensor(np.array([0.5], np.float32), dtype=tf.string)])",
                [([1], "string")], [(["a"], "string")]))]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.stateless-random")
@EDGES.parametrize("ops.stateless-random")
def test_stateless_alg_dtypes_and_means(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-generator")
@EDGES.parametrize("ops.random-generator")
def test_stateless_binomial_dtype_hint(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_shape_functions_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.as-string")
@EDGES.parametrize("ops.as-string")
def test_as_string_of_complex(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_distorted_box_inputs_and_attrs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_numpy_values_to_string(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz16c_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

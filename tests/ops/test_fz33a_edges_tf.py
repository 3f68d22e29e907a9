"""Rules behind the twentieth fuzzer's classes that fz33a closed (fresh campaigns of session 33: seeds
3320261201- in every mode, and fz32a's unanalysed 3220261212), each against real TensorFlow 2.21: the same raw
call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same
exception class. Eagerly, inside a tf.function and with an input_signature. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_L = "ops.linalg-more"
_M = "ops.math-special"
# (e^[-30, 30) as m * 2**k, m in [1, 2), exactly: NumPy's float64 exp is SVML's on an AVX-512 CPU and the C library's
# elsewhere, so np.exp made other inputs on the golden's Intel host than on an AMD one)
_SPENCE_X = ("np.concatenate([np.random.default_rng(7).uniform(0, 3, 300), np.ldexp(np.random.default_rng(8).uniform(1, 2, 300), "
             "np.random.default_rng(9).integers(-44, 43, 300)), "
             "[0, 0.5, 1, 1.5, 2, 2.5, 7, 65504, 3e38, np.inf, -1, np.nan, 1e-40, 1e-45, 0.25, 0.001, -0.0, -np.inf]])")


def _sig_trace(expr: str, specs: list[tuple[list[int | None] | None, str]]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x0, ...: expr` with an input_signature of `specs` (its trace-time
    error, if any)."""
    def run(tf: Any) -> Any:
        fn = eval("lambda " + ", ".join(f"x{i}" for i in range(len(specs))) + ": " + expr, {"tf": tf})  # noqa: S307
        tf.function(fn, input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs],
                    autograph=False).get_concrete_function()
        return "traced"
    return run


def _sig_call(expr: str, specs: list[tuple[list[int | None] | None, str]], args: list[str]) -> Callable[[Any], Any]:
    """As _sig_trace, then a call of the concrete function on `args` (its error class, or its result)."""
    def run(tf: Any) -> Any:
        fn = eval("lambda " + ", ".join(f"x{i}" for i in range(len(specs))) + ": " + expr, {"tf": tf})  # noqa: S307
        g = tf.function(fn, input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs], autograph=False)
        g.get_concrete_function()
        return g(*[eval(a, {"tf": tf}) for a in args])  # noqa: S307
    return run


def _both(name: str, group: str, expr: str) -> list[tuple[str, str, Any]]:
    """The expression eagerly and inside a tf.function."""
    return [(name, group, _eager(expr)), (f"{name} in a tf.function", group, _traced(expr))]


_UNIQUE_AXES = (("tf.constant(0, tf.int32)", None), ("tf.constant(0, tf.int32)", [3, 2, 1]), ("[0]", None),
                ("[3]", [3, 2, 1]), ("[-4]", [3, 2, 1]), ("[-3]", [3, 2, 1]), ("[2]", [3, 2, 1]), ("[]", [3, 2, 1]),
                ("[]", [3]), ("[]", None), ("[[0]]", [3, 2, 1]), ("[[0]]", None), ("[1, 2]", [3, 2, 1]), ("[1, 2]", None),
                ("x1", [3, 2, 1]), ("x2", [3, 2, 1]), ("tf.zeros([0], tf.int64)", [3, 2]), ("[0]", [None, 2]),
                ("[5]", [None, 2]), ("tf.constant([[]], tf.int32)", [3]), ("tf.constant([[]], tf.int32)", None))

_SC = ("tf.raw_ops.SparseCross(indices={i}, values={v}, shapes={s}, dense_inputs={d}, hashed_output={h}, "
       "num_buckets={nb}, hash_key=7, out_type=tf.{o}, internal_type=tf.{it})")
_I64 = "tf.constant({}, tf.int64)"
_STR = "tf.constant({}, tf.string)"
# (indices, values, shapes, dense_inputs): each a list of expressions
_SC_INPUTS: list[tuple[str, list[str], list[str], list[str], list[str]]] = [
    ("complex values and a uint64 dense input", ["[[0, 0]]"], ["tf.constant([1j], tf.complex128)"], ["[1, 1]"],
     ["tf.constant([[0]], tf.uint64)"]),
    ("a uint64 dense input", ["[[0, 0]]"], [_I64.format([3])], ["[1, 1]"], ["tf.constant([[0]], tf.uint64)"]),
    ("indices of rank 1", ["[0, 0]"], [_I64.format([3])], ["[1, 1]"], []),
    ("indices of one column", ["[[0]]"], [_I64.format([3])], ["[1, 1]"], []),
    ("values of rank 2", ["[[0, 0]]"], [_I64.format([[3]])], ["[1, 1]"], []),
    ("two values for one index", ["[[0, 0]]"], [_I64.format([3, 4])], ["[1, 1]"], []),
    ("a shape of rank 2", ["[[0, 0]]"], [_I64.format([3])], ["[[1, 1]]"], []),
    ("a shape of three", ["[[0, 0]]"], [_I64.format([3])], ["[1, 1, 1]"], []),
    ("a dense input of rank 1", ["[[0, 0]]"], [_I64.format([3])], ["[1, 1]"], [_I64.format([3])]),
    ("a dense input of rank 3", [], [], [], [_I64.format([[[3]]])]),
    ("batch sizes 2 and 1", ["[[0, 0]]", "[[0, 0]]"], [_I64.format([3]), _I64.format([4])], ["[2, 1]", "[1, 1]"], []),
    ("a dense input of another batch", ["[[0, 0]]"], [_I64.format([3])], ["[2, 1]"], [_I64.format([[1], [2], [3]])]),
    ("string values, int64 dense", ["[[0, 0], [1, 0], [1, 1]]"], [_STR.format(["a", "b", "c"])], ["[2, 2]"],
     [_I64.format([[5, 6], [7, 8]])]),
    ("int64 values, string dense", ["[[0, 0], [1, 0], [1, 1]]"], [_I64.format([1, 2, 3])], ["[2, 2]"],
     [_STR.format([["x"], ["y"]])]),
    ("unsorted rows", ["[[1, 0], [0, 0], [0, 1]]"], [_I64.format([1, 2, 3])], ["[2, 2]"], [_I64.format([[5], [6]])]),
    ("a row past the batch", ["[[0, 0], [3, 0], [1, 0]]"], [_I64.format([1, 2, 3])], ["[2, 2]"],
     [_I64.format([[5], [6]])]),
    ("rows 0, 0, 1 of two inputs", ["[[0, 0], [0, 1], [1, 0]]", "[[1, 0]]"], [_I64.format([1, 2, 3]), _I64.format([9])],
     ["[2, 2]", "[2, 1]"], []),
    ("dense inputs only", [], [], [], [_I64.format([[1, 2], [3, 4]]), _I64.format([[5], [6]])]),
    ("nothing", [], [], [], []),
    ("an empty sparse input", ["tf.zeros([0, 2], tf.int64)"], [_I64.format([])], ["[2, 3]"], [_I64.format([[1], [2]])]),
    ("more values than indices lists", ["[[0, 0]]"], [_I64.format([3]), _I64.format([4])], ["[1, 1]"], []),
]
_SC_TYPES = (("int64", "int64", "True", 0), ("int64", "string", "False", 10), ("string", "int64", "True", 0),
             ("string", "string", "False", 0))


def _sc_cases() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for name, i, v, s, d in _SC_INPUTS:
        for o, it, h, nb in _SC_TYPES:
            expr = _SC.format(i="[" + ", ".join(f"tf.constant({x}, tf.int64)" if x.startswith("[") else x for x in i) + "]",
                              v="[" + ", ".join(v) + "]", d="[" + ", ".join(d) + "]", h=h, nb=nb, o=o, it=it,
                              s="[" + ", ".join(f"tf.constant({x}, tf.int64)" for x in s) + "]")
            out += _both(f"SparseCross out {o} internal {it} of {name}", _K, expr)
    return out


_P3 = "tf.constant([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [0.5, 0.5, 0.5]])"
_ITK = [([3, 3], [2], "1", _P3, "[1, 2]"), ([3, 3], [3], "tf.constant([1])", _P3, "[1, 2, 0]"),
        ([None, 3], [3], "tf.constant([1])", _P3, "[1, 2, 0]"), (None, [3], "1", "tf.constant([1.0, 2.0, 3.0])", "[1, 2, 0]"),
        (None, [2], "5", _P3, "[1, 2]"), ([None], [3], "1", "tf.constant([1.0, 2.0, 3.0])", "[1, 2, 0]"),
        ([3, 3], None, "1", _P3, "[[1, 2, 0]]"), ([None, 3], [None], "1", _P3, "[1, 2]"),
        ([None, None], [2], "1", _P3, "[1, 2]"), ([None, 3], [None], "2", _P3, "[1, 2, 0]"),
        (None, [None], "tf.constant([[1]])", _P3, "[1, 2, 0]")]
# (matrices of seeded random parts: log|det| of 2x2 and 3x3 complex matrices)
_RNG_PARTS = (-3.0, -1.5, -1.0, -0.5, 0.001, 0.25, 0.75, 1.0, 2.5, 4.0, 7.0)
_SCV2 = "tf.raw_ops.SparseCrossV2(indices={i}, values={v}, shapes={s}, dense_inputs={d}, sep='+')"
_SHAPES = "[t.dtype.name + str(t.shape) for t in {}]"

CASES: list[tuple[str, str, Any]] = [
    # UniqueIdxShapeFn: nothing checked unless axis's value and x's rank are known (sig seed 3220261212 #99)
    *[(f"{op} axis {ax} of {sh} in an input_signature", _T, _sig_trace(
        f"tf.raw_ops.{op}(axis={ax}, x=x0)", [(sh, "float32"), ([1], "int32"), ([1, 1], "int64")]))
      for op in ("UniqueV2", "UniqueWithCountsV2") for ax, sh in _UNIQUE_AXES],
    # a deprecated op in a graph: op_def_library's NotImplementedError before a string attr's allowed values
    # (function seed 3220261212 #190)
    *[c for op in ("Conv3DBackpropInput", "Conv3DBackpropFilter") for pad in ("BOGUS", "SAME") for c in _both(
        f"{op} padding {pad}", _K, f"tf.raw_ops.{op}(filter=tf.ones([1, 1, 1, 1, 1], tf.float64), padding='{pad}', "
        "input=tf.ones([1, 2, 2, 2, 1], tf.float64), out_backprop=tf.ones([1, 2, 2, 2, 1], tf.float64), "
        "strides=[1, 1, 1, 1, 1])")],
    *[c for op, extra in (("TopK", "k=1, sorted='BOGUS'"), ("BatchMatrixBandPart", "num_lower=1, num_upper=1"),
                          ("BatchSvd", "compute_uv='x'"), ("BatchFFT", "")) for c in _both(
        f"{op} {extra}", _K, f"tf.raw_ops.{op}(input=tf.ones([2, 2], tf.complex64){', ' + extra if extra else ''})")],
    # SparseCross: the OpDef's type lists in their inputs' order, then ValidateInput's order; ExtractFeatureData's
    # runs of rows (function seed 3320261201 #232)
    *_sc_cases(),
    *[c for name, i, v, s, d in _SC_INPUTS[12:19] for c in _both(f"SparseCrossV2 of {name}", _K, _SCV2.format(
        i="[" + ", ".join(f"tf.constant({x}, tf.int64)" for x in i) + "]", v="[" + ", ".join(v) + "]",
        d="[" + ", ".join(d) + "]", s="[" + ", ".join(f"tf.constant({x}, tf.int64)" for x in s) + "]"))],
    # InTopKV2's shape function: ranks 2 and 1 and the merged batch, an unknown rank or dimension left to the
    # kernel; k's rank the kernel's alone (sig seeds 3320261206 #48, 3320261207 #13: V1 InTopK too)
    *[(f"{op} predictions {ps} targets {ts} k {k} in an input_signature", _T, _sig_call(
        f"tf.raw_ops.{op}(predictions=x0, targets=x1, k={k})", [(ps, "float32"), (ts, "int32")],
        [pv, f"tf.constant({tv})"])) for op in ("InTopKV2", "InTopK") for ps, ts, k, pv, tv in _ITK
      if op == "InTopKV2" or not k.startswith("tf.")],
    *[(f"{op} predictions [4] targets [4] eagerly", _K, _eager(f"tf.raw_ops.{op}(predictions=tf.ones([4]), "
                                                               "targets=[0, 1, 2, 3], k=1)")) for op in ("InTopKV2", "InTopK")],
    # std::abs of a complex LU pivot is glibc's hypot (LogMatrixDeterminant's log|det|; seed 3320261201 #252);
    # complex64 and 3x3 matrices keep a few last-bit differences (fz20_known.py's MatrixDeterminant entry)
    *[(f"LogMatrixDeterminant {dt} log|det| of {n}x{n} matrices (seed {seed})", _L, _eager(
        f"tf.raw_ops.LogMatrixDeterminant(input=tf.constant(np.random.default_rng({seed}).choice({_RNG_PARTS}, "
        f"size=(40, {n}, {n})) + 1j * np.random.default_rng({seed + 1}).choice({_RNG_PARTS}, size=(40, {n}, {n})), "
        f"tf.{dt}))[1]")) for dt in ("complex128",) for n, seed in ((2, 3301),)],
    # OneHot in its output's memory only (tape seed 3320261208 #76: depth 2147483647 ran simdist out of memory)
    *[(f"OneHot {dt} depth {d} axis {ax} of {ids}", _K, _eager(
        f"tf.raw_ops.OneHot(indices=tf.constant({ids}, tf.{it}), depth={d}, on_value=tf.constant({on}, tf.{dt}), "
        f"off_value=tf.constant({off}, tf.{dt}), axis={ax})"))
      for dt, on, off in (("int8", 126, -4), ("bfloat16", "float('inf')", "float('nan')"), ("string", "'a'", "''"))
      for it, ids in (("uint8", [0, 255, 3]), ("int64", [[-1, 2], [70000, 69999]]))
      for d, ax in ((70000, -1), (4, 0), (0, -1))],
    # TF's spence_op: Cephes' spence in the element's precision, scalar, under DAZ/FTZ (eager seed 3320261208 #59)
    *[(f"Spence {dt} of 618 values{where}", _M, run(f"tf.raw_ops.Spence(x=tf.constant({_SPENCE_X}, tf.{dt}))"))
      for dt in ("float32", "float64") for where, run in (("", _eager), (" in a tf.function", _traced))],
    *[(f"Spence {dt} scalar {v}{where}", _M, run(f"tf.raw_ops.Spence(x=tf.constant({v}, tf.{dt}))"))
      for dt in ("float32", "float64") for v in ("-0.0", "0.5", "3.0") for where, run in (("", _eager), (" in a tf.function", _traced))],
    ("tf.math.special.spence float32", _M, _eager("tf.math.special.spence(tf.constant([0.5, 2.5, 3e38, 1e-40, 7.0]))")),
    # LinearAlgebraOp::PrepareOutputs: an output the kernel does not compute is a scalar (its value uninitialised
    # memory, so only dtype and shape are compared; tape seed 3320261203 #135)
    *[(f"{op} of {sh} {dt} without vectors", _L, _eager(_SHAPES.format(
        f"tf.raw_ops.{op}(input=tf.reshape(tf.cast(tf.range({n}), tf.{dt}), {sh}), {flag}=False)")))
      for op, flag in (("SelfAdjointEigV2", "compute_v"), ("Svd", "compute_uv"))
      for sh, n in (([1, 1], 1), ([4, 1, 1], 4), ([3, 2, 2], 12), ([0, 0], 0), ([2, 0, 0], 0), ([0, 3, 3], 0))
      for dt in ("float32", "complex128")],
    *[(f"{op} without vectors in a tf.function: tf.shape of each output", _L, _traced(
        f"[tf.shape(t) for t in tf.raw_ops.{op}(input=tf.ones([2, 2]), {flag}=False)][0]"))
      for op, flag in (("SelfAdjointEigV2", "compute_v"), ("Svd", "compute_uv"))],
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_linalg_unused_outputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.math-special")
@EDGES.parametrize("ops.math-special")
def test_spence_is_tfs_kernel(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz33a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

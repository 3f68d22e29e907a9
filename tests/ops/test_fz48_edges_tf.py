"""Rules behind the disagreement classes fz48 closed (fresh campaigns of session 48: fourteenth generator seeds
1420473004, 1420483001-, and fz3_known's older classes), each against real TensorFlow 2.21: the same call on both backends gives the same dtype and
values bit for bit (a NaN matching any NaN), or raises the same exception class, inside a tf.function (with an
input_signature where the graph must not know a dimension). Recorded on this AMD host (oneDNN off: the golden's "host"
key gives simdist that CPU's model). Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"


def _unused(expr: str) -> str:
    """`expr` computed and its result left unused: the tf.function returns ones."""
    return f"({expr}, tf.ones([2]))[1]"


# --- Kernel checks of stateless ops that a graph cannot make at trace (a dimension or rank it does not know, a value
# the kernel reads): TF prunes the op when nothing uses its output (PruneFunctionBody), so the call returns; used, the
# kernel's error comes when the graph runs (fz14 sig seed 1420483001 #47: `band_part` of a [2] bool argument, unused,
# then `tf.ones`; simdist had raised MatrixBandPart's "input must be at least 2-dim" at the call). A kernel TF lacks
# (RealDiv of int32, integer logits of StatelessMultinomial) and a graph Assert stay errors, used or not.
def _pruned_cases() -> list[tuple[str, str, object]]:
    out = []
    sig_calls = (
        # (expr of x, spec, argument)
        ("tf.linalg.band_part(x, tf.constant(2), 2)", ([2], "bool"), "tf.constant([False, True])"),
        ("tf.linalg.band_part(x, 2, 2)", ([None], "float32"), "tf.constant([1., 2.])"),
        ("tf.linalg.band_part(x, 5, 0)", ([None, None], "float32"), "tf.ones([2, 2])"),
        ("tf.linalg.band_part(x, 0, 5)", ([None, None], "int32"), "tf.ones([2, 2], tf.int32)"),
        ("tf.linalg.det(x)", ([None, None], "float32"), "tf.ones([2, 3])"),
        ("tf.linalg.inv(x)", ([None, 3], "float64"), "tf.ones([2, 3], tf.float64)"),
        ("tf.matmul(x, x)", ([2, None], "float32"), "tf.ones([2, 3])"),
        ("tf.tensordot(x, x, 1)", ([2, None], "float32"), "tf.ones([2, 3])"),
        ("tf.math.argmax(x, 3)", ([None], "float32"), "tf.ones([3])"),
        ("tf.math.argmin(x, -2)", (None, "int32"), "tf.constant([1, 2], tf.int32)"),
        ("tf.gather_nd(x, [[0, 0]])", (None, "float32"), "tf.ones([2])"),
        ("tf.signal.frame(x, 2, tf.shape(x)[0] - 6)", ([None], "float32"), "tf.ones([6])"),
        ("tf.nn.dropout(x, 0.5, noise_shape=[2, 2], seed=1)", ([None, 3], "float32"), "tf.ones([2, 3])"),
        ("tf.cast(x, tf.string)", ([2], "int32"), "tf.constant([1, 2])"),
    )
    for expr, spec, arg in sig_calls:
        out.append((f"unused {expr} of {spec}({arg})", _T, _sig(_unused(expr), spec, arg)))
        out.append((f"{expr} of {spec}({arg})", _T, _sig(expr, spec, arg)))
    traced_calls = (
        "tf.cast(tf.constant([1, 2]), tf.string)",
        "tf.linalg.band_part(tf.constant([1., 2.]), 1, 1)",
        "tf.realdiv(tf.constant([1, 2]), tf.constant([1, 0]))",
        "tf.random.stateless_categorical(tf.constant([[1, 2]]), 3, seed=[1, 2])",
        "tf.random.categorical(tf.constant([[1, 2]]), 3)",
    )
    for expr in traced_calls:
        out.append((f"unused {expr} in a tf.function", _T, _traced(_unused(expr))))
        out.append((f"{expr} in a tf.function", _T, _traced(expr)))
    out.append(("unused assert_rank(x, 5) of an unknown rank", _T,
                _sig(_unused("tf.debugging.assert_rank(x, 5)"), (None, "float32"), "tf.ones([2])")))
    return out


# --- MatrixInverse of complex matrices holding inf or NaN: TF 2.21's pivot check (min |diagonal of PartialPivLU| > 0,
# |z| its modulus) refuses a NaN pivot as for real matrices (fz3_known's ('linalg.inv', 'accepts'), ext seed 61 #147;
# simdist had skipped the check for complex matrices and computed). The shape of the result only: the values of
# non-finite complex inverses stay fz3_known's ('linalg.inv', 'value') class
def _complex_inverse_cases() -> list[tuple[str, str, object]]:
    mats = ("[[np.nan, 2], [0, 1]]", "[[1 + 1j, np.inf], [0, 1]]", "[[1, 2], [np.nan, 1]]", "[[1, np.nan], [3, 1]]",
            "[[np.inf, 1], [1, 1]]", "[[1, 1], [1, np.inf]]", "[[complex(np.inf, np.nan), 1], [1, 2]]",
            "[[2, 1j], [np.nan * 1j, 1]]", "[[1, 2, 3], [4, np.inf, 6], [7, 8, 1j]]", "[[0, 1], [1, np.nan]]",
            "[[np.nan, np.nan], [np.nan, np.nan]]", "[[1e300j, 1], [1, np.inf]]", "[[[np.nan, 1], [1, 1]], [[1, 0], [0, 1]]]")
    calls = tuple(f"tf.shape(tf.linalg.inv(tf.constant(np.array({m}, np.complex128), {dt})))"
                  for m in mats for dt in ("tf.complex64", "tf.complex128"))
    return [(c, "ops.linalg-more", _eager(c)) for c in calls]


CASES: list[tuple] = [
    *_pruned_cases(),
    *_complex_inverse_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_complex_inverse_acceptance(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz48_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

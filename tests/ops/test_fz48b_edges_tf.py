"""Rules behind the disagreement classes fz48b closed, found by fz45b's chained programs (tests/fuzz45/fz45_gen.py
seed 45005), fz46b's (tests/fuzz46b/fz46b_gen.py seed 46003) and fz48b's widened generator
(tests/fuzz48b/fz48b_gen.py seeds 48001, 48002): each against real TensorFlow 2.21, the same call on both backends
gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class, eagerly and
in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", group, _traced(call)))
    return out


# --- DepthwiseConv2dNative on TF's own kernel (float64 everywhere; float32 where oneDNN does not take it, as on this
# AMD host): the taps in row-major order, acc = acc + x * k rounded (no FMA in the wheel) (fz48b_gen seed 48001 #4)
_DW_X = "tf.reshape((tf.range({n}.0, dtype=tf.{dt}) % 13.0 - 6.3) / 7.0, {shape})"
_DW_F = "tf.reshape((tf.range({n}.0, dtype=tf.{dt}) % 11.0 - 5.1) / 3.0, {shape})"


def _depthwise_cases() -> list[tuple[str, str, object]]:
    calls = []
    for dt in ("float32", "float64"):
        x1 = _DW_X.format(n=96, dt=dt, shape=[2, 4, 3, 4])
        f1 = _DW_F.format(n=48, dt=dt, shape=[3, 2, 4, 2])
        x2 = _DW_X.format(n=150, dt=dt, shape=[1, 5, 5, 6])
        f2 = _DW_F.format(n=54, dt=dt, shape=[3, 3, 6, 1])
        calls += [f"tf.nn.depthwise_conv2d({x1}, {f1}, [1, 1, 1, 1], 'SAME')",
                  f"tf.nn.depthwise_conv2d({x1}, {f1}, [1, 2, 2, 1], 'VALID')",
                  f"tf.nn.depthwise_conv2d({x2}, {f2}, [1, 2, 2, 1], 'SAME')",
                  f"tf.nn.depthwise_conv2d({x2}, {f2}, [1, 1, 1, 1], 'VALID', dilations=[2, 2])"]
    calls.append("tf.nn.depthwise_conv2d(tf.constant([[[[1.5, float('inf')], [-0.0, 2.0]], [[0.1, -3.0], [1e30, 1e30]]]]), "
                 "tf.constant([[[[0.3], [-0.7]], [[1.1], [0.0]]], [[[2.0], [0.5]], [[-1e30], [0.25]]]]), "
                 "[1, 1, 1, 1], 'SAME')")
    cases = _both(tuple(calls), "ops.host-cpu")
    cases.append(("the gradient of a float64 depthwise_conv2d", "ops.host-cpu",
                  _tape("tf.nn.depthwise_conv2d(x, tf.constant([[[[0.5], [-1.5]]], [[[2.0], [0.25]]]], tf.float64), "
                        "[1, 1, 1, 1], 'SAME')", _DW_X.format(n=24, dt="float64", shape=[1, 3, 4, 2]))))
    return cases


# --- sigmoid_cross_entropy_with_logits and weighted_cross_entropy_with_logits: log1p(exp(-|x|)) as two ops, as
# nn_impl composes them (a Softplus op's gradient rounds otherwise; fz48b_gen seed 48001 #24)
_LOGITS = "tf.constant([0.0, -1.5, 0.7, -0.3, 2.2, 1.1, -3.3, 12.5, -40.0, 0.01, -7.75, 4.0], tf.{dt})"
_LABELS = "tf.constant([0.0625, 0.01, 0.8125, 1.0, 0.0, 0.5, 0.3, 0.9, 0.2, 0.6, 0.75, 0.125], tf.{dt})"


def _xent_cases() -> list[tuple[str, str, object]]:
    cases = []
    for dt in ("float32", "float64", "float16"):
        z = _LABELS.format(dt=dt)
        for f in (f"tf.nn.sigmoid_cross_entropy_with_logits(labels={z}, logits=x)",
                  f"tf.nn.weighted_cross_entropy_with_logits({z}, x, pos_weight=2.5)",
                  f"tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels={z}, logits=x * 3.0))"):
            cases.append((f"the gradient of {f} ({dt})", "nn.loss-formulas", _tape(f, _LOGITS.format(dt=dt))))
    cases += _both((f"tf.nn.sigmoid_cross_entropy_with_logits(labels={_LABELS.format(dt='float32')}, "
                    f"logits={_LOGITS.format(dt='float32')} * 3.0)",
                    f"tf.nn.weighted_cross_entropy_with_logits({_LABELS.format(dt='float16')}, "
                    f"{_LOGITS.format(dt='float16')}, pos_weight=0.5)"), "nn.loss-formulas")
    return cases


# --- Grappler's SimplifyReduction: a reduction over no axes (or, keeping dims, over dims of size 1) is an Identity
# the dependency optimizer removes, so an AddN orders it by its input's node name (fz45_gen seed 45005 #37, #78)
_ADDN_ARG = ("tf.constant([-0.25, 2.375, 0.75, -1.0, -2.0, 0.0, 1.25, 1.1, -1.625, 0.375, 2.25, 1.0, 1.1, 1.1, 2.375, "
             "0.75, 1.1, 1.1, 1.1, 1.25, 1.1, 1.1, 0.375, 2.25, 1.0])")


def _reduction_cases() -> list[tuple[str, str, object]]:
    cases = []
    for mid in ("tf.reduce_sum(x[12])", "tf.reduce_mean(x[12])", "tf.reduce_max(x[12])", "tf.reduce_min(x[12])",
                "tf.reduce_prod(x[12])", "tf.reduce_sum(x[12], axis=[])",
                "tf.reduce_sum(tf.reshape(x[12], [1, 1]), keepdims=True)[0, 0]",
                "tf.reduce_sum(tf.reshape(x[12], [1]))"):
        expr = f"tf.math.add_n([tf.reduce_sum(x[:12]), {mid}, tf.reduce_sum(x[13:])])"
        cases.append((f"{expr} in a tf.function", "function.grappler-rewrites", _sig(expr, ([25], "float32"), _ADDN_ARG)))
    expr = "tf.math.add_n([tf.reduce_sum(x[:12]), tf.reduce_sum(x[12]), tf.reduce_sum(x[13:])])"
    cases.append((f"{expr}, eagerly", "function.grappler-rewrites", _eager(expr.replace("x", _ADDN_ARG))))
    return cases


# --- float16 Mean: Eigen's MeanReducer<half>, SumReducer<half>'s order with each addition rounded, / half(n)
# (fz45_gen seed 45005 #50: reduce_std of float16)
_H = "tf.cast((tf.range({n}.0) % 17.0 - 8.3) / 7.0 * {s}, tf.float16)"


def _mean16_cases() -> list[tuple[str, str, object]]:
    calls = ["tf.math.reduce_std(tf.constant([[0.125, -1.375, 2.0, 1.875]], tf.float16), axis=-1)",
             "tf.math.reduce_variance(tf.constant([[0.125, -1.375, 2.0, 1.875]], tf.float16), axis=-1)"]
    for n, shape, axis in ((4, [4], None), (7, [7], None), (100, [100], None), (100, [4, 25], 1), (100, [4, 25], 0),
                           (1000, [1000], None), (120, [2, 3, 20], (0, 2)), (33, [33], 0)):
        for s in ("1.0", "60.0"):
            x = f"tf.reshape({_H.format(n=n, s=s)}, {shape})"
            calls.append(f"tf.reduce_mean({x}, axis={axis})")
        calls.append(f"tf.math.reduce_std(tf.reshape({_H.format(n=n, s='3.0')}, {shape}), axis={axis})")
    return _both(tuple(calls), "ops.sum-order")


# --- RaggedTensor cumsum along its ragged axis: ragged_math_ops' (E - E[eldest]) + x, E the exclusive flat cumsum
# (fz48b_gen seed 48002 #5, fz46b_gen seed 46003 #30, #52)
def _ragged_cases() -> list[tuple[str, str, object]]:
    calls = []
    for dt in ("float32", "float16", "float64"):
        rt = f"tf.ragged.constant([[1.5, 2.25, -0.1], [3.3], [], [0.7, 0.2, 0.1, -2.9]], dtype=tf.{dt})"
        for ex in ("False", "True"):
            for rv in ("False", "True"):
                calls.append(f"tf.math.cumsum({rt}, axis=1, exclusive={ex}, reverse={rv}).flat_values")
    calls.append("tf.math.cumsum(tf.RaggedTensor.from_row_lengths(tf.math.sinh(tf.constant([-2.875, 1.847, -0.75], "
                 "tf.float16)), [1, 1, 1]), axis=1).flat_values")
    return _both(tuple(calls), "ops.ragged")


CASES: list[tuple] = [
    *_depthwise_cases(),
    *_xent_cases(),
    *_reduction_cases(),
    *_mean16_cases(),
    *_ragged_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_depthwise_taps_in_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("nn.loss-formulas")
@EDGES.parametrize("nn.loss-formulas")
def test_sigmoid_xent_log1p_of_exp(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_trivial_reduction_forwards_its_input(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sum-order")
@EDGES.parametrize("ops.sum-order")
def test_float16_mean_in_half(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.ragged")
@EDGES.parametrize("ops.ragged")
def test_ragged_cumsum_composition(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz48b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

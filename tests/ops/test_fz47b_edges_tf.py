"""Rules behind the disagreement classes fz47b closed, found by fz44b's generator (tests/fuzz44/fz44_gen.py seeds
44006-44011), fz45b's chained programs (tests/fuzz45/fz45_gen.py seed 45005) and fz47b's widened generator
(tests/fuzz47b/fz47b_gen.py): each against real TensorFlow 2.21, the same call on both backends gives the same dtype
and values bit for bit (a NaN matching any NaN), or raises the same exception class, eagerly and in a tf.function.
Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
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


# --- Expint, FresnelCos, FresnelSin: Eigen's expint_op and fresnel_*_op (Cephes in the kernel's type: Horner's rule
# with rounded products and sums, the C library's logf/expf/sinf/cosf, DAZ/FTZ), not SciPy's values rounded
# (fz44_gen seeds 44006, 44008: float32 fresnel_cos(-2.5), fresnel_sin(1.0), expint(1.5) in the last bit)
_X = "tf.range(-48.0, 49.0, dtype=tf.{dt}) / 8.0"          # -6 .. 6 by 1/8: both Fresnel intervals
_E = "tf.range(1.0, 161.0, dtype=tf.{dt}) / 2.0"            # 0.5 .. 80: every expint interval
_EDGE = "tf.constant([0.0, -0.0, 1e-40, -1e-40, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 36974.0, 36975.0, float('inf'), " \
        "-float('inf'), float('nan'), -1.5, 1.6, 1e-8], tf.{dt})"


def _special_calls() -> tuple[str, ...]:
    calls = []
    for dt in ("float32", "float64"):
        for f in ("fresnel_cos", "fresnel_sin", "expint"):
            src = _E if f == "expint" else _X
            calls += [f"tf.math.special.{f}({src.format(dt=dt)})", f"tf.math.special.{f}({_EDGE.format(dt=dt)})"]
    calls += ["tf.math.special.fresnel_cos(tf.constant([1.0, -2.5, 0.5]))",
              "tf.math.special.fresnel_sin(tf.ones([1, 2, 2, 1]))",
              "tf.math.special.expint(tf.constant([[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]]))",
              "tf.math.special.expint(tf.constant(1.5, tf.float64))"]
    return tuple(calls)


def _special_cases() -> list[tuple[str, str, object]]:
    cases = _both(_special_calls(), "ops.math-special")
    for f in ("fresnel_cos", "fresnel_sin", "expint"):
        cases.append((f"the gradient of {f}", "ops.math-special",
                      _tape(f"tf.math.special.{f}(x)", "tf.constant([[1.5, 2.0, 3.0], [4.0, 0.25, 7.0]])")))
    return cases


# --- RaggedRange: the values [nvals] allocated before they are filled (ResourceExhaustedError beyond what the
# allocator gives, not NumPy's ValueError; fz44_gen seed 44011), an integer row of more than 2**63 - 1 values the
# kernel's InvalidArgumentError; a ragged binary op in a graph builds the op on the flat values (its dtypes'
# TypeError) before the partitions' assertion runs (fz44_gen seed 44009)
def _ragged_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.ragged.range(2, np.array([9223372036854775807, -1], np.int64)).to_tensor()",
        "tf.ragged.range(0, np.array([2 ** 40], np.int64))",
        "tf.ragged.range(np.array([-9223372036854775807, 0], np.int64), np.array([9223372036854775807, 3], np.int64))",
        "tf.ragged.range([0, 3], [4, 5]).to_tensor()",
        "(tf.ragged.constant([[1, 2, 3], [4]]) + tf.ragged.constant([[1.0, 2.0], [], [3.0]])).to_tensor()",
        "(tf.ragged.constant([[1, 2, 3], [4]]) + tf.ragged.constant([[1, 2], [], [3]])).to_tensor()",
        "tf.math.maximum(tf.ragged.constant([[1, 2, 3], [4]]), tf.ragged.constant([[1.0], [2.0, 3.0, 4.0]])).to_tensor()",
        "tf.math.multiply(tf.ragged.constant([[1, 2, 3], [4]]), tf.ragged.constant([[1, 2], [3, 4]])).to_tensor()",
        "(tf.ragged.constant([[1.0, 2.0], [3.0]]) - tf.ragged.constant([[1.0, 2.0], [3.0]])).to_tensor()",
    ), "ops.ragged")


# --- the eager scalar cache after a MirroredStrategy is made: CollectiveReplicaLauncher's ordering token
# ResourceVariable(0.) on each device puts +0.0 under (0.0, no dtype, that device), so a replica's -0.0 converts to
# +0.0 (fz44_gen seed 44008: bessel_j1(-0.0) and one_hot's off_value in strategy.run)
_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation for each case, TF's made once per
    worker (as tests/ops/test_fuzz2_edges_tf.py makes it; no case of this module converts a zero under a device
    scope before it)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _in_replicas(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        return list(s.experimental_local_results(s.run(lambda: eval(expr, {"tf": tf, "np": np}))))  # noqa: S307
    return run


def _under_device(expr: str, device: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        _strategy(tf)
        with tf.device(device):
            return eval(expr, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def _cache_cases() -> list[tuple[str, str, object]]:
    g = "ops.scalar-cache"
    return [
        ("tf.constant(-0.0) in strategy.run", g, _in_replicas("tf.constant(-0.0)")),
        ("tf.math.special.bessel_j1(-0.0) in strategy.run", g, _in_replicas("tf.math.special.bessel_j1(-0.0)")),
        ("tf.math.negative(-0.0) in strategy.run", g, _in_replicas("tf.math.negative(-0.0)")),
        ("tf.one_hot([1, 0], 3, on_value=1.0, off_value=-0.0) in strategy.run", g,
         _in_replicas("tf.one_hot([1, 0], 3, on_value=1.0, off_value=-0.0)")),
        ("tf.constant(-0.0, tf.float32) in strategy.run (another key)", g, _in_replicas("tf.constant(-0.0, tf.float32)")),
        ("tf.constant(-0.0) under tf.device('/cpu:1') after the strategy", g,
         _under_device("tf.constant(-0.0)", "/cpu:1")),
        ("tf.constant(-0.0) outside any device scope after the strategy", g,
         _under_device("tf.constant(-0.0)", None)),
    ]


# --- Xdivy(x, constant) in a graph: constant_folding's ReduceDivToReciprocalMul, MulNoNan(Reciprocal(c), x)
# (fz45_gen seed 45005 #14: xdivy(x, -1.5) of float64 -2.5 in the last bit)
def _xdivy_cases() -> list[tuple[str, str, object]]:
    cases = []
    x = "tf.constant([-2.5, 0.0, -0.0, 1.1, float('nan'), float('inf'), 1e-40, 3.0, 7.0, 0.3], tf.float32)"
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for c in ("-1.5", "3.0", "0.0", "7.0", "3e38"):
            cases.append((f"xdivy(x, {c}) of {dt} x in a tf.function", "function.grappler-rewrites",
                          _sig(f"tf.math.xdivy(x, tf.constant({c}, tf.{dt}))", ([10], dt), f"tf.cast({x}, tf.{dt})")))
    cases.append(("xdivy(x, -1.5) of a float64 argument and a Python float", "function.grappler-rewrites",
                  _sig("tf.math.xdivy(x, -1.5)", ([3], "float64"), "tf.constant([-2.5, 0.7, -0.0], tf.float64)")))
    cases.append(("xdivy(x, 0.3 - 1j) of complex64 x in a tf.function", "function.grappler-rewrites",
                  _sig("tf.math.xdivy(x, tf.constant(0.3 - 1j, tf.complex64))", ([3], "complex64"),
                       "tf.constant([1 + 2j, 0j, -3j], tf.complex64)")))
    return cases


# --- L2Loss: l2loss_op.cc's (x.square() * 0.5).sum(), a full reduction in Eigen's SumReducer order, not NumPy's pairwise
# sum (fz45_gen seed 45002 #7: a float32 l2_loss in the last bit; fz47b_gen seed 47001 #16: clip_by_global_norm, whose
# global norm sums L2Loss ops)
def _l2_cases() -> list[tuple[str, str, object]]:
    calls = []
    for dt in ("float32", "float16", "bfloat16", "float64"):
        for n, shape in ((7, [7]), (33, [3, 11]), (100, [100]), (257, [257]), (1000, [10, 100])):
            calls.append(f"tf.nn.l2_loss(tf.cast(tf.reshape((tf.range({n}.0) % 17.0 - 8.3) / 7.0 * 3.0, {shape}), tf.{dt}))")
    calls.append("tf.clip_by_global_norm([tf.reshape((tf.range(150.0) % 13.0 - 6.1) / 3.0, [5, 5, 3, 2]), "
                 "(tf.range(40.0) - 19.7) / 9.0], 0.5)")
    calls.append("tf.linalg.global_norm([(tf.range(77.0) % 11.0 - 5.2) / 3.0, tf.reshape((tf.range(24.0) - 11.9) / 7.0, [4, 6])])")
    cases = _both(tuple(calls), "ops.sum-order")
    cases.append(("the gradient of l2_loss", "ops.sum-order",
                  _tape("tf.nn.l2_loss(x)", "tf.reshape((tf.range(33.0) % 17.0 - 8.3) / 7.0, [3, 11])")))
    return cases


# --- fz44_gen seed 44012: tensordot of float32 and bfloat16 operands is math_ops.matmul's SparseMatMul, float32 (eagerly
# too); SoftmaxCrossEntropyWithLogits' shape function at trace (its operands flattened to [3, 2] and [6, 4])
def _seed44012_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.tensordot(tf.constant([[2.0, 1.0], [1.0, 3.0]]), tf.constant([1.0, -1.0], tf.bfloat16), axes=[[0], [0]])",
        "tf.tensordot(tf.constant([1.5, -1.0], tf.bfloat16), tf.constant([[2.0, 1.0], [1.0, 3.0]]), axes=1)",
        "tf.tensordot(tf.constant([[2.0, 1.0], [1.0, 3.0]]), tf.constant([1.0, -1.0], tf.float16), axes=[[0], [0]])",
        "tf.nn.softmax_cross_entropy_with_logits(labels=tf.reshape(tf.range(24.0) / 7.0 - 1.5, [2, 3, 4]), "
        "logits=tf.constant([[0.5, -1.0], [2.0, 0.125], [-3.0, 4.0]], tf.float64))",
        "tf.nn.softmax_cross_entropy_with_logits(labels=tf.ones([4, 2]), logits=tf.ones([3, 2]))",
        "tf.nn.softmax_cross_entropy_with_logits(labels=tf.ones([2, 3]), logits=tf.ones([3, 2]), axis=0)",
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.ones([3, 2]), labels=tf.ones([2, 2]))",
    ), "function.trace-time-errors")


CASES: list[tuple] = [
    *_cache_cases(),     # (first: TF's worker configures its two logical CPUs before any other case runs an op)
    *_special_cases(),
    *_ragged_cases(),
    *_xdivy_cases(),
    *_l2_cases(),
    *_seed44012_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.math-special")
@EDGES.parametrize("ops.math-special")
def test_expint_and_fresnel_in_eigens_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.ragged")
@EDGES.parametrize("ops.ragged")
def test_ragged_range_allocation_and_graph_error_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.scalar-cache")
@EDGES.parametrize("ops.scalar-cache")
def test_collective_tokens_in_the_scalar_cache(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_xdivy_by_a_constant_in_a_graph(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sum-order")
@EDGES.parametrize("ops.sum-order")
def test_l2_loss_in_eigens_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_mixed_bfloat16_tensordot_and_xent_shapes(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz47b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

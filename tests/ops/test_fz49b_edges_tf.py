"""Rules behind the disagreement classes fz49b closed, found by fz48b's generator (tests/fuzz48b/fz48b_gen.py seed
48003) and fz49b's widened one (tests/fuzz49b/fz49b_gen.py seed 49002): each against real TensorFlow 2.21, the same
call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same
exception class, eagerly and in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", group, _traced(call)))
    return out


# --- AvgPoolGrad / AvgPool3DGrad on TF's own kernel (every dtype where oneDNN does not run, as on this AMD host):
# each gradient element times T(1 / window size) added over its window in the kernel's loop order, so an input
# element three or more overlapping windows cover sums in that order (fz48b_gen seed 48003 #5)
_X = "tf.cast(tf.reshape((tf.range({n}.0) % 17.0 - 8.3) / 3.7, {shape}), tf.{dt})"
_G = "tf.cast(tf.reshape((tf.range({n}.0) % 13.0 - 6.1) / 2.9, {shape}), tf.{dt})"


def _pool_cases() -> list[tuple[str, str, object]]:
    cases = []
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for k, st, pad in ((3, 1, "VALID"), (3, 1, "SAME"), (2, 1, "VALID"), (3, 2, "SAME")):
            if dt == "float64" and k == 2:   # (four terms of one sign pattern here: no reordering shows)
                continue
            oh, ow = ((e - k + 1) if pad == "VALID" else -(-e // st) for e in (6, 5))
            g = _G.format(n=2 * oh * ow * 3, shape=[2, oh, ow, 3], dt=dt)
            cases += _both((f"tf.raw_ops.AvgPoolGrad(orig_input_shape=[2, 6, 5, 3], grad={g}, ksize=[1, {k}, {k}, 1], "
                            f"strides=[1, {st}, {st}, 1], padding='{pad}')",), "ops.host-cpu")
    for dt in ("float32", "float64", "float16"):
        x = _X.format(n=90, shape=[2, 5, 3, 3], dt=dt)
        w = f"tf.cast(tf.reshape(tf.range(30.0) % 7.0 - 2.5, [2, 5, 3, 1]), tf.{dt})"
        cases.append((f"the gradient of avg_pool2d 3x3 stride 1 SAME ({dt})", "ops.host-cpu",
                      _tape(f"tf.reduce_sum(tf.nn.avg_pool2d(x, 3, 1, 'SAME') * {w})", x)))
    for dt in ("float32", "bfloat16"):
        for k, s, pad in ((3, 1, "VALID"), (3, 1, "SAME"), (2, 1, "SAME"), (3, 2, "SAME")):
            out = [((e - k + 1) if pad == "VALID" else -(-e // s)) for e in (4, 5, 4)]
            n = 2 * out[0] * out[1] * out[2] * 2
            g = _G.format(n=n, shape=[2] + out + [2], dt=dt)
            cases += _both((f"tf.raw_ops.AvgPool3DGrad(orig_input_shape=[2, 4, 5, 4, 2], grad={g}, "
                            f"ksize=[1, {k}, {k}, {k}, 1], strides=[1, {s}, {s}, {s}, 1], padding='{pad}')",),
                           "ops.host-cpu")
    return cases


# --- DynamicStitch's indices items converted to int32 as op_def_library / the fast path convert them: an empty list,
# tuple or float64 ndarray is an empty int32 index (fz49b_gen seed 49002 #10)
def _stitch_cases() -> list[tuple[str, str, object]]:
    calls = ("tf.dynamic_stitch([[], [], [0, 1]], [tf.zeros([0]), tf.zeros([0]), tf.constant([4.0, 5.0])])",
             "tf.dynamic_stitch([[], [0]], [tf.zeros([0, 2]), tf.constant([[1.0, 2.0]])])",
             "tf.dynamic_stitch([np.array([]), [0]], [tf.zeros([0]), tf.constant([3.0])])",
             "tf.dynamic_stitch([(), (1, 0)], [tf.zeros([0]), tf.constant([3.0, -1.5])])",
             "tf.dynamic_stitch([[0.5]], [tf.constant([1.0])])")
    return _both(calls, "ops.empty-inputs")


# --- static shapes with an input_signature of unknown dimensions: TopKV2's leading dimensions, sort/argsort's k of
# an unknown axis, and the UnchangedShape ops (fz49b_gen seed 49002 #8, #17, #20)
def _static(expr: str, spec: list[int | None]) -> Callable[[Any], Any]:
    """The static shape (-1 for an unknown dimension) of `lambda x: expr` traced for TensorSpec(spec, float32)."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        f = tf.function(fn, input_signature=[tf.TensorSpec(spec, tf.float32)], autograph=False)
        shape = f.get_concrete_function().structured_outputs.shape.as_list()
        return tf.constant([-1 if d is None else d for d in shape], tf.int32)
    return run


_STATIC = ("tf.reverse(x, [0])", "tf.reverse(x, [1])", "tf.math.cumsum(x, axis=1)", "tf.math.cumprod(x)",
           "tf.math.cumulative_logsumexp(x, axis=0)", "tf.roll(x, 1, axis=0)", "tf.sort(x)", "tf.sort(x, axis=0)",
           "tf.argsort(x, direction='DESCENDING')", "tf.math.top_k(x, 1).values", "tf.math.top_k(x, 1).indices",
           "tf.image.flip_left_right(x[..., None])", "tf.image.adjust_contrast(x[..., None], 2.0)")


def _static_cases() -> list[tuple[str, str, object]]:
    return [(f"the static shape of {e} for an input_signature {s}", "function.trace-time-errors", _static(e, s))
            for s in ([None, None], [None, 3], [2, None]) for e in _STATIC
            if not (s == [2, None] and "top_k" in e)]   # (k known, the leading 2 known: no unknown flag to keep)


# --- tf.gather of a ragged_rank-1 RaggedTensor with batch_dims=1: each index offset by its row's start in the values,
# one GatherV2 of the values (fz49b_gen seed 49002 #32)
_RP = "tf.ragged.constant([[1.0, 2.0, 3.0], [4.0], [5.0, 6.0]])"


def _ragged_gather_cases() -> list[tuple[str, str, object]]:
    calls = []
    for idx, extra in (("tf.ragged.constant([[2, 0], [], [1, 1, 0]])", ""),
                       ("tf.ragged.constant([[2, 0], [0], [1]])", ", axis=1"),
                       ("tf.ragged.constant([[3], [0], [0]])", ""),
                       ("tf.ragged.constant([[1], [0], [1]], dtype=tf.int64)", ", batch_dims=-1"),
                       ("tf.RaggedTensor.from_row_lengths(tf.zeros([0], tf.int32), [0, 0, 0])", ""),
                       ("tf.ragged.constant([[-1], [0], [0]])", "")):
        bd = "" if "batch_dims" in extra else ", batch_dims=1"
        calls.append(f"tf.gather({_RP}, {idx}{bd}{extra}).to_tensor(default_value=-9.0)")
    calls.append(f"tf.gather({_RP}, tf.constant([[0], [0], [1]]), batch_dims=1)")
    return _both(tuple(calls), "ops.ragged")


# --- RaggedTensor.from_tensor's padding compared by the NotEqual kernel: under DAZ a subnormal equals a zero padding
# (fz49b_gen seed 49007 #18)
def _padding_cases() -> list[tuple[str, str, object]]:
    calls = ("tf.RaggedTensor.from_tensor(tf.constant([[1e-40, 0.0], [1.0, -1e-40], [2.0, 1e-40]]), padding=0.0)"
             ".row_lengths()",
             "tf.RaggedTensor.from_tensor(tf.constant([[1e-310, 0.0], [1.0, -1e-310]], tf.float64), padding=0.0)"
             ".row_lengths()",
             "tf.RaggedTensor.from_tensor(tf.constant([[1e-40, 1e-40], [1.0, 0.0]]), padding=1e-40).row_lengths()")
    return _both(calls, "ops.subnormals")


CASES: list[tuple] = [
    *_pool_cases(),
    *_stitch_cases(),
    *_static_cases(),
    *_ragged_gather_cases(),
    *_padding_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_avg_pool_grad_loop_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.empty-inputs")
@EDGES.parametrize("ops.empty-inputs")
def test_dynamic_stitch_index_items(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_unknown_dims_static_shapes(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.ragged")
@EDGES.parametrize("ops.ragged")
def test_ragged_batch_gather(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_ragged_padding_under_daz(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz49b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

"""Integer arguments of every dtype against the OpDef that types them (clause ops.index-dtypes; fix62a, closing
vsweep62's largest OPEN class). An axis, depth, begin, num_segments or segment_ids argument is an input of the op
the public function builds, typed by its OpDef: TF 2.21 refuses a tensor of a dtype the type attr does not allow
(int8, int16, uint8 ... where Tidx/Tdim/Tnumsegments/Index take int32/int64: InvalidArgumentError eagerly,
TypeError traced) or of another dtype than a fixed input's (OneHot's depth: int32), casts a NumPy value to the
attr's default (a 0-d np.uint8 axis of reduce_sum computes) and refuses one where the attr has none (Slice's
begin). The compositions add their own: softmax's `dim + ndims`, unsorted_segment_mean's convert_to_tensor,
unstack's Python range check, gather's int attr batch_dims, split's size_splits against num; MatrixDiagV3's k
(int32). simdist computed (or refused NumPy 0-d axes with a TypeError of its own): 241 of the 432 cases differed
before the fix.

Each case runs eagerly and as a zero-argument tf.function; its result is the value, or the exception's class
(messages are not compared: TF's carry NodeDefs). Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS: dict[str, Callable[[Any, Any], Any]] = {
    "np int32": lambda tf, v: np.array(v, np.int32),
    "np int16": lambda tf, v: np.array(v, np.int16),
    "np uint8": lambda tf, v: np.array(v, np.uint8),
    "t int8": lambda tf, v: tf.constant(v, tf.int8),
    "t int16": lambda tf, v: tf.constant(v, tf.int16),
    "t int64": lambda tf, v: tf.constant(v, tf.int64),
    "t uint8": lambda tf, v: tf.constant(v, tf.uint8),
    "t uint64": lambda tf, v: tf.constant(v, tf.uint64),
}


def _x(tf: Any) -> Any:
    return tf.reshape(tf.range(12.0), [2, 2, 3]) * 0.375 - 1.5


def _i(tf: Any) -> Any:
    return tf.reshape(tf.range(24), [2, 3, 4])


def _d(tf: Any) -> Any:
    return tf.constant([[1.0, -2.0], [3.5, 4.0], [-5.0, 6.0], [7.0, 0.5]])


# op label -> (the argument's value, the call given tf and the argument in a form)
_OPS: dict[str, tuple[Any, Callable[[Any, Any], Any]]] = {
    "reduce_sum": (1, lambda tf, a: tf.reduce_sum(_x(tf), a)),
    "reduce_max list": ([1], lambda tf, a: tf.reduce_max(_x(tf), a)),
    "reduce_any": (1, lambda tf, a: tf.reduce_any(_x(tf) > 0, a)),
    "reduce_mean": (2, lambda tf, a: tf.reduce_mean(_x(tf), a)),
    "reduce_logsumexp": (1, lambda tf, a: tf.reduce_logsumexp(_x(tf), a)),
    "cumsum": (1, lambda tf, a: tf.cumsum(_x(tf), a)),
    "cumprod": (2, lambda tf, a: tf.math.cumprod(_x(tf), a)),
    "expand_dims": (1, lambda tf, a: tf.expand_dims(_x(tf), a)),
    "l2_normalize": (1, lambda tf, a: tf.math.l2_normalize(_x(tf), a)),
    "softmax": (1, lambda tf, a: tf.nn.softmax(_x(tf), a)),
    "log_softmax": (0, lambda tf, a: tf.nn.log_softmax(_x(tf), a)),
    "one_hot depth": (3, lambda tf, a: tf.one_hot(tf.constant([0, 2, 1]), a)),
    "one_hot depth list indices": (3, lambda tf, a: tf.one_hot([0, 2], a)),
    "slice begin": ([0, 1, 1], lambda tf, a: tf.slice(_i(tf), a, [1, 2, 2])),
    "strided_slice begin": ([1, 0, 0], lambda tf, a: tf.strided_slice(_i(tf), a, [2, 3, 4])),
    "unsorted_segment_sum n": (2, lambda tf, a: tf.math.unsorted_segment_sum(_d(tf), [0, 1, 1, 0], a)),
    "unsorted_segment_mean n": (2, lambda tf, a: tf.math.unsorted_segment_mean(_d(tf), [0, 1, 1, 0], a)),
    "unsorted_segment_max n rank 1": ([2], lambda tf, a: tf.math.unsorted_segment_max(_d(tf), [0, 1, 1, 0], a)),
    "segment_sum ids": ([0, 0, 1, 1], lambda tf, a: tf.math.segment_sum(_d(tf), a)),
    "split axis": (1, lambda tf, a: tf.split(_x(tf), 2, axis=a)),
    "fill dims": ([2, 3], lambda tf, a: tf.fill(a, 7)),
    "concat axis": (1, lambda tf, a: tf.concat([_x(tf), _x(tf)], a)),
    "unstack axis": (1, lambda tf, a: tf.unstack(_x(tf), axis=a)),
    "gather batch_dims": (1, lambda tf, a: tf.gather(_i(tf), [[0], [1]], axis=1, batch_dims=a)),
    "diag k": (1, lambda tf, a: tf.linalg.diag([1.0, 2.0], k=a)),
    "diag k tensor diagonal": (-1, lambda tf, a: tf.linalg.diag(tf.constant([1.0, 2.0]), k=a)),
}

# split's size_splits against num and against each other (SplitV's checks, eager and traced)
_SPLITS: dict[str, Callable[[Any], Any]] = {
    f"split sizes {ss} num {n}": (lambda ss, n: lambda tf: tf.split(tf.reshape(tf.range(24), [6, 4]), ss, num=n))(ss, n)
    for ss, n in (([-1], None), ([5], None), ([-1, -1], None), ([-2, 8], None), ([-1, 7], None), ([2, 4], 3),
                  ([2, 4], 1), ([6], 2), ([2, 4], 2), ([-1], 1))}


def _class_or_value(f: Callable[[], Any]) -> Any:
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _case(call: Callable[[Any], Any], traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        if traced:
            return _class_or_value(lambda: tf.function(lambda: call(tf), autograph=False)())
        return _class_or_value(lambda: call(tf))
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for op, (v, fn) in _OPS.items():
        for form, mk in _FORMS.items():
            if form == "t uint64" and op.endswith("softmax"):
                continue   # (TF 2.21's `dim == -1` of a uint64 axis: OverflowError or AddV2's error by call order)
            call = (lambda fn, mk, v: lambda tf: fn(tf, mk(tf, v)))(fn, mk, v)
            for traced in (False, True):
                out[f"{op} | {form}{' fn' if traced else ''}"] = _case(call, traced)
    for label, call in _SPLITS.items():
        for traced in (False, True):
            out[f"{label}{' fn' if traced else ''}"] = _case(call, traced)
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(index_dtypes_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.index-dtypes")
def test_integer_arguments_take_the_dtypes_their_opdef_allows(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: not lab.startswith("split sizes"))


@pytest.mark.clause("ops.index-dtypes")
def test_split_sizes_are_checked_against_num_and_each_other(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("split sizes"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""Dataset.interleave — clause dataset.interleave (TF 2.21's InterleaveDataset and
ParallelInterleaveDatasetV4).

Orders are InterleaveDatasetOp's: `cycle_length` slots read `block_length` elements in turn, an
empty slot under the cursor takes the next input element's dataset at once, an ended dataset
empties its slot and moves the cursor on. Expected orders were computed from that rule by hand
(each is written out beside its case) and observed with TF 2.21; num_parallel_calls with the
default deterministic order gives the same; cycle_length AUTOTUNE is the number of CPUs the
process may use (port::MaxParallelism).
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _values(ds) -> list:
    return [np.asarray(x).tolist() for x in ds]


@clause("dataset.interleave", ref="tf221")
def test_interleave_reads_blocks_from_a_cycle_of_datasets(tf):
    R = tf.data.Dataset.range

    def mk(x):   # x elements: x, 10 + x, 20 + x, ...
        return R(x).map(lambda y: y * 10 + x)
    cases = [
        ("range(1, 5).interleave(mk, cycle_length=2, block_length=1)",
         lambda: R(1, 5).interleave(mk, cycle_length=2, block_length=1), [1, 2, 12, 3, 13, 4, 23, 14, 24, 34]),
        ("range(1, 5).interleave(mk, cycle_length=2, block_length=2)",
         lambda: R(1, 5).interleave(mk, cycle_length=2, block_length=2), [1, 2, 12, 3, 13, 23, 4, 14, 24, 34]),
        ("range(0, 7).interleave(mk, cycle_length=3, block_length=2)",
         lambda: R(0, 7).interleave(mk, cycle_length=3, block_length=2),
         [1, 2, 12, 3, 13, 4, 14, 23, 24, 34, 5, 15, 6, 16, 25, 35, 26, 36, 45, 46, 56]),
        ("range(0, 7).interleave(mk, cycle_length=3, block_length=2, num_parallel_calls=3)",
         lambda: R(0, 7).interleave(mk, cycle_length=3, block_length=2, num_parallel_calls=3),
         [1, 2, 12, 3, 13, 4, 14, 23, 24, 34, 5, 15, 6, 16, 25, 35, 26, 36, 45, 46, 56]),
        ("range(0, 7).interleave(mk, cycle_length=3, num_parallel_calls=AUTOTUNE)",
         lambda: R(0, 7).interleave(mk, cycle_length=3, num_parallel_calls=tf.data.AUTOTUNE),
         [1, 2, 3, 12, 13, 4, 23, 14, 5, 24, 15, 6, 34, 25, 16, 35, 26, 45, 36, 46, 56]),
        ("range(1, 4).interleave(mk, cycle_length=1)", lambda: R(1, 4).interleave(mk, cycle_length=1),
         [1, 2, 12, 3, 13, 23]),
        ("range(0).interleave(mk, cycle_length=2)", lambda: R(0).interleave(mk, cycle_length=2), []),
        ("range(3).repeat().interleave(mk, cycle_length=2).take(5)",
         lambda: R(3).repeat().interleave(mk, cycle_length=2).take(5), [1, 2, 12, 1, 2]),
    ]
    for call, make, want in cases:
        ds = make()
        assert_same(_values(ds), want, call=call)
        assert_same(int(ds.cardinality()), -2, call=f"{call}.cardinality() (UNKNOWN)")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert_same(_values(R(1, 6).interleave(mk)), _values(R(1, 6).interleave(mk, cycle_length=cpus)),
                 call=f"interleave(mk) against interleave(mk, cycle_length={cpus}): AUTOTUNE is the CPUs this "
                      "process may use")


@clause("dataset.interleave", ref="tf221")
def test_interleave_element_spec_is_the_returned_datasets(tf):
    R = tf.data.Dataset.range
    ds = R(1, 4).interleave(lambda x: tf.data.Dataset.from_tensors(tf.range(x)), cycle_length=2)
    assert_same((str(ds.element_spec.dtype.name), ds.element_spec.shape.as_list()), ("int64", [None]),
                 call="interleave of from_tensors(range(x)): element spec")
    assert_same(_values(ds), [[0], [0, 1], [0, 1, 2]], call="interleave of from_tensors(range(x))")
    ds = tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).interleave(
        lambda a, b: tf.data.Dataset.from_tensors(a + b).repeat(2), cycle_length=2)
    assert_same(_values(ds), [4, 6, 4, 6], call="a tuple element is unpacked into the function's arguments")


@clause("dataset.interleave", ref="tf221")
def test_interleave_argument_errors(tf):
    R = tf.data.Dataset.range
    bad = [
        ("cycle_length=0", tf.errors.InvalidArgumentError, "cycle_length must be greater than zero",
         lambda: R(3).interleave(R, cycle_length=0)),
        ("cycle_length=-3", tf.errors.InvalidArgumentError, "cycle_length must be greater than zero",
         lambda: R(3).interleave(R, cycle_length=-3)),
        ("block_length=0", tf.errors.InvalidArgumentError, "block_length must be greater than zero",
         lambda: R(3).interleave(R, block_length=0)),
        ("cycle_length=0, num_parallel_calls=2", tf.errors.InvalidArgumentError,
         "`cycle_length` must be `tf.data.AUTOTUNE` or greater than 0 but is 0",
         lambda: R(3).interleave(R, cycle_length=0, num_parallel_calls=2)),
        ("block_length=0, num_parallel_calls=2", tf.errors.InvalidArgumentError, "`block_length` must be > 0",
         lambda: R(3).interleave(R, block_length=0, num_parallel_calls=2)),
        ("num_parallel_calls=0", tf.errors.InvalidArgumentError, "num_parallel_calls must be greater than zero",
         lambda: R(3).interleave(R, cycle_length=2, num_parallel_calls=0)),
        ("cycle_length=2.5", TypeError, "Cannot convert 2.5 to EagerTensor of dtype int64",
         lambda: R(3).interleave(R, cycle_length=2.5)),
        ("cycle_length=int32 tensor", ValueError, "Tensor conversion requested dtype int64",
         lambda: R(3).interleave(R, cycle_length=tf.constant(2))),
        ("a function returning a tensor", AttributeError, "has no attribute '_name'",
         lambda: R(3).interleave(lambda x: x)),
    ]
    for call, cls, match, fn in bad:
        with raises(cls, call=f"range(3).interleave(..., {call})", match=match):
            fn()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        R(3).interleave(R, cycle_length=2, deterministic=True)
    said = [str(x.message) for x in w if "deterministic" in str(x.message)]
    assert_same(len(said), 1, call="interleave(deterministic=True) without num_parallel_calls: its one warning")

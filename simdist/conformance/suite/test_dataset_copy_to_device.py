"""tf.data.experimental.copy_to_device and prefetch_to_device — clause dataset.copy-to-device (TF 2.21).

copy_to_device(target) gives the input's elements placed on `target` (a canonical device name), with
cardinality UNKNOWN (-2); prefetch_to_device(device, buffer_size) is copy_to_device then prefetch, the
final node of a pipeline. Expected values observed with TF 2.21 (on its CPU: the device the suite's
TF backend has).
"""

from __future__ import annotations

import pytest

clause = pytest.mark.clause

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


@clause("dataset.copy-to-device", ref="tf221")
def test_copy_and_prefetch_to_device_place_the_elements(tf):
    D = tf.data.Dataset
    cases = [
        ("range(5).apply(copy_to_device('/cpu:0'))", D.range(5).apply(tf.data.experimental.copy_to_device("/cpu:0"))),
        ("range(5).apply(prefetch_to_device('/cpu:0', 2))",
         D.range(5).apply(tf.data.experimental.prefetch_to_device("/cpu:0", buffer_size=2))),
        ("range(5).apply(prefetch_to_device('/cpu:0'))",
         D.range(5).apply(tf.data.experimental.prefetch_to_device("/cpu:0"))),
    ]
    for what, ds in cases:
        got = [int(x) for x in ds.as_numpy_iterator()]
        assert got == [0, 1, 2, 3, 4], f"elements={got}, but should be [0, 1, 2, 3, 4] [{what}]"
        assert int(ds.cardinality()) == -2, f"cardinality={int(ds.cardinality())}, but should be -2 [{what}]"
        assert ds.element_spec == tf.TensorSpec([], tf.int64), f"element_spec={ds.element_spec!r} [{what}]"
        devs = sorted({x.device for x in ds})
        assert devs == [CPU0], f"element devices={devs}, but should be [{CPU0!r}] [{what}]"
    pairs = D.from_tensor_slices(([1., 2.], [3, 4])).apply(tf.data.experimental.copy_to_device("/cpu:0"))
    got = [(float(a), int(b)) for a, b in pairs]
    assert got == [(1.0, 3), (2.0, 4)], f"elements={got}, but should be [(1.0, 3), (2.0, 4)] [tuple elements]"

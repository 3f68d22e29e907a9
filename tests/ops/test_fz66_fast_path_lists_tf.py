"""List attributes as the eager fast path and the generated wrappers read them (clause ops.attr-types, fz66: fz62gen
seeds 66404 #0 and #4, 66407 #1, 66405 #5, 66410 #6, 66411 #4). (1) SetOpAttrList sizes a value PySequence_Check takes
with PySequence_Size, -1 for a 0-d tensor or ndarray and for a variable (it has __getitem__ and no __len__): the C++
array of -1 values is std::bad_alloc, MemoryError, before the fallback's "Expected list" TypeError:
`extract_volume_patches(x, <int32 scalar>, ...)`, `tf.conv(..., explicit_paddings=<bool scalar>)`,
`conv2d_backprop_input_v2(..., explicit_paddings=<complex64 scalar>)`, `squeeze(x, <variable>)`; simdist raised the
TypeError (attr_rules.check and conv_generic/conv_v2_backprops now ask `fast_path_takes`, which reads them in order).
(2) nn_ops._get_sequence lists any Sized value: an EagerTensor is one, and `list()` of a scalar one is TypeError
"Cannot iterate over a scalar tensor." (`conv1d(x, f, stride=<scalar>)`, `max_pool3d(x, <scalar>, 1, ...)`; simdist
took its value); a variable is not Sized and becomes one element that the op's make_int refuses. (3) tf.conv's wrapper
runs make_int on batch_dims and groups before the kernel validates padding's value: a vector batch_dims is TypeError
beside padding 'same' (simdist: the padding's InvalidArgumentError), and make_int of a complex scalar takes its real
part (EagerTensor.__int__ is int() of its NumPy scalar). Compared: value, or error class and message (the class alone
where TF's text prints a variable's creation name, a tensor list or its NodeDef)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_classes
import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_VALUES = {"scalar": "tf.constant(2)", "0d-np": "np.array(2)", "var5": "tf.Variable([1, 1, 1, 1, 1])", "int": "2",
           "vec5": "tf.constant([1, 1, 1, 1, 1])", "np-vec5": "np.array([1, 1, 1, 1, 1])", "bool": "tf.constant(True)",
           "np-int": "np.int64(2)", "float": "tf.constant(1.5)", "complex": "tf.complex(2.0, 0.0)"}
_CALLS = {
    "evp-ksizes": "tf.extract_volume_patches(x5, V, [1, 1, 1, 1, 1], 'SAME')",
    "evp-strides": "tf.extract_volume_patches(x5, [1, 1, 1, 1, 1], V, 'SAME')",
    "evp-list-input": "tf.extract_volume_patches(x5.numpy().tolist(), V, [1, 1, 1, 1, 1], 'SAME')",
    "evp-bad-padding": "tf.extract_volume_patches(x5, V, [1, 1, 1, 1, 1], 3)",
    "conv-strides": "tf.conv(x4, f4, V, 'SAME')",
    "conv-explicit": "tf.conv(x4, f4, [1, 1, 1, 1], 'EXPLICIT', explicit_paddings=V)",
    "conv-dilations": "tf.conv(x4, f4, [1, 1, 1, 1], 'SAME', dilations=V)",
    "conv-list-input": "tf.conv(x4.numpy().tolist(), f4, V, 'SAME')",
    "conv-batch-dims": "tf.conv(x4, f4, [1, 1, 1, 1], 'same', batch_dims=V)",
    "conv-groups": "tf.conv(x4, f4, [1, 1, 1, 1], 'SAME', groups=V)",
    "c2bi-explicit": "tf.conv2d_backprop_input_v2(x4, f4, x4, [1, 1, 1, 1], 'EXPLICIT', explicit_paddings=V)",
    "c2bf-explicit": "tf.conv2d_backprop_filter_v2(x4, f4, x4, [1, 1, 1, 1], 'EXPLICIT', explicit_paddings=V)",
    "c2bi-strides": "tf.conv2d_backprop_input_v2(x4, f4, x4, V, 'VALID')",
    "patches": "tf.image.extract_patches(x4, V, [1, 1, 1, 1], [1, 1, 1, 1], 'SAME')",
    "max-pool3d": "tf.nn.max_pool3d(x5, V, 1, 'SAME')",
    "avg-pool3d-strides": "tf.nn.avg_pool3d(x5, 1, V, 'SAME')",
    "conv1d-stride": "tf.nn.conv1d(x3, f3, V, 'SAME')",
    "conv2d-strides": "tf.nn.conv2d(x4, f4, V, 'SAME')",
    "dilation2d": "tf.nn.dilation2d(x4, tf.zeros([2, 2, 1]), V, 'SAME', 'NHWC', [1, 1, 1, 1])",
    "squeeze": "tf.squeeze(tf.zeros([1, 2]), V)",
    "hash-key": "tf.strings.to_hash_bucket_strong(['a'], 2, key=V)",
}


def _case(call: str, value: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        x5, x4, x3 = tf.zeros([1, 2, 2, 2, 1]), tf.reshape(tf.range(9.0), [1, 3, 3, 1]), tf.ones([1, 3, 1])
        f4, f3 = tf.ones([2, 2, 1, 1]), tf.ones([2, 1, 1])
        env = {"tf": tf, "np": np, "x5": x5, "x4": x4, "x3": x3, "f4": f4, "f3": f3}
        env["V"] = eval(_VALUES[value], env)
        return eval(_CALLS[call], env)
    return run


_CASES = {f"{c}/{v}": _case(c, v) for c in _CALLS for v in _VALUES}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz66_lists_auto_)\d+"))
# (a variable's repr names it Variable:0 or Variable_N:0 by creation order; TF's _get_sequence keeps a vector tensor's
# elements as tensors, which its length message prints; a padding refused on the fallback prints TF's NodeDef)
_CLASS_ONLY = re.compile(r"/var5$|/vec5$|^conv-batch-dims/")


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.attr-types")
def test_list_attrs_on_the_fast_path_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: not _CLASS_ONLY.search(lab))


@pytest.mark.clause("ops.attr-types")
def test_list_attrs_error_classes_as_tf(tf_results: dict[int, Any]) -> None:
    case_classes.check_classes(TABLE, tf_results, lambda lab: bool(_CLASS_ONLY.search(lab)))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

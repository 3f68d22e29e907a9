"""The graph-era and rarely used methods of TF 2.21's eager objects, against real TensorFlow 2.21: what
`Tensor` (EagerTensor), `Variable` (ResourceVariable), `TensorShape`, `DType` and `tf.Module` answer
eagerly — names and ops undefined (AttributeError, NotImplementedError), `cpu()`, `backing_device`,
`copy.copy`/`copy.deepcopy`, `complex()`, a variable's `constraint`, `initial_value`, `is_initialized`,
`set_shape`, `scatter_nd_max/min`, `gather_nd`, `count_up_to`, `load`, TensorShape's rank assertions
and `most_specific_compatible_shape`, its truth value, DType's `limits`, `is_unsigned`,
`is_compatible_with` and `int()`, Module's `non_trainable_variables`. Found by listing the public
attributes of each object on both libraries. Values, dtypes and error classes and messages compared
case by case (case_results.Table). Needs the `tf` extra. Rule: docs/spec.md `ops.tensor-shape-methods`.
"""

from __future__ import annotations

import copy
import os
import re
from typing import Any

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _t(tf: Any) -> Any:
    return tf.constant([1.0, 2.0])


def _v(tf: Any) -> Any:
    return tf.Variable([1.0, 2.0], name="v")


CASES = {
    "tensor/name": lambda tf: _t(tf).name,
    "tensor/op": lambda tf: _t(tf).op,
    "tensor/graph": lambda tf: _t(tf).graph,
    "tensor/value_index": lambda tf: _t(tf).value_index,
    "tensor/consumers": lambda tf: _t(tf).consumers(),
    "tensor/eval": lambda tf: _t(tf).eval(),
    "tensor/cpu": lambda tf: [_t(tf).cpu(), _t(tf).cpu().device],
    "tensor/backing_device": lambda tf: _t(tf).backing_device,
    "tensor/is_packed": lambda tf: _t(tf).is_packed,
    "tensor/complex of a scalar": lambda tf: [complex(tf.constant(2.5)), complex(tf.constant(3)), complex(tf.constant(1 + 2j))],
    "tensor/complex of a vector": lambda tf: complex(_t(tf)),
    "tensor/copy and deepcopy": lambda tf: (lambda t: [copy.copy(t) is t, copy.deepcopy(t) is t])(_t(tf)),
    "tensor/experimental_ref": lambda tf: (lambda t: t.experimental_ref().deref() is t)(_t(tf)),
    "tensor/name of a tf.function argument": lambda tf: tf.function(lambda x: tf.constant(x.name))(_t(tf)),
    "variable/op": lambda tf: _v(tf).op,
    "variable/graph": lambda tf: _v(tf).graph,
    "variable/eval": lambda tf: _v(tf).eval(),
    "variable/initializer": lambda tf: _v(tf).initializer,
    "variable/constraint": lambda tf: [_v(tf).constraint, tf.Variable(1.0, constraint=abs).constraint is abs],
    "variable/constraint not callable": lambda tf: tf.Variable(1.0, constraint=3),
    "variable/initial_value": lambda tf: _v(tf).initial_value,
    "variable/initialized_value": lambda tf: _v(tf).initialized_value(),
    "variable/is_initialized": lambda tf: _v(tf).is_initialized(),
    "variable/read_value_no_copy": lambda tf: _v(tf).read_value_no_copy(),
    "variable/set_shape": lambda tf: (lambda v: [v.set_shape([2]), v.set_shape([None]), v.shape])(_v(tf)),
    "variable/set_shape incompatible": lambda tf: _v(tf).set_shape([3]),
    "variable/scatter_nd_max and min": lambda tf: (lambda v: [v.scatter_nd_max([[0]], [5.0]).read_value(),
                                                              v.scatter_nd_min([[1], [0]], [-5.0, 7.0]).read_value()])(_v(tf)),
    "variable/scatter_nd_max out of range": lambda tf: _v(tf).scatter_nd_max([[2]], [5.0]),
    "variable/gather_nd": lambda tf: tf.Variable([[1, 2], [3, 4]]).gather_nd([[1, 0], [0, 1]]),
    "variable/copy": lambda tf: (lambda v: copy.copy(v) is v)(_v(tf)),
    "variable/deepcopy": lambda tf: (lambda v: (lambda c: [c is v, c.name, c.trainable, c.read_value(),
                                                           c.assign([9.0, 9.0]).read_value(), v.read_value()])(
        copy.deepcopy(v)))(tf.Variable([1.0, 2.0], name="w", trainable=False)),
    "variable/complex": lambda tf: [complex(tf.Variable(2.0)), complex(tf.Variable(3))],
    "variable/count_up_to": lambda tf: (lambda v: [v.count_up_to(3), v.count_up_to(3), v.read_value()])(tf.Variable(1)),
    "variable/count_up_to at its limit": lambda tf: tf.Variable(3).count_up_to(3),
    "variable/load": lambda tf: (lambda v: [v.load([3.0, 4.0]), v.read_value()])(_v(tf)),
    "shape/assert_is_fully_defined": lambda tf: [tf.TensorShape([2]).assert_is_fully_defined(),
                                                 tf.TensorShape([2, None]).assert_is_fully_defined()],
    "shape/assert_same_rank": lambda tf: [tf.TensorShape([2, None]).assert_same_rank([1, 3]),
                                          tf.TensorShape(None).assert_same_rank([1]),
                                          tf.TensorShape([2, None]).assert_same_rank(tf.TensorShape([1]))],
    "shape/with_rank_at_most": lambda tf: [tf.TensorShape([2, None]).with_rank_at_most(3),
                                           tf.TensorShape(None).with_rank_at_most(0),
                                           tf.TensorShape([2, None]).with_rank_at_most(1)],
    "shape/most_specific_compatible_shape": lambda tf: [
        tf.TensorShape([2, None]).most_specific_compatible_shape(tf.TensorShape([2, 3])),
        tf.TensorShape([2, 3]).most_specific_compatible_shape([2, 4]),
        tf.TensorShape([2, 3]).most_specific_compatible_shape([2]),
        tf.TensorShape(None).most_specific_compatible_shape([2])],
    "shape/truth value": lambda tf: [bool(tf.TensorShape([])), bool(tf.TensorShape([0])), bool(tf.TensorShape([2, None])),
                                     bool(tf.TensorShape(None)), bool(tf.constant(1.0).shape)],
    "dtype/limits": lambda tf: [d.limits for d in (tf.bool, tf.uint8, tf.uint64, tf.int8, tf.int64, tf.float32,
                                                   tf.float64)],
    "dtype/limits of float16": lambda tf: tf.float16.limits,
    "dtype/is_unsigned, is_quantized, is_numpy_compatible": lambda tf: [
        [d.is_unsigned, d.is_quantized, d.is_numpy_compatible] for d in (tf.uint8, tf.int8, tf.float32, tf.bool, tf.string)],
    "dtype/is_compatible_with": lambda tf: [tf.float32.is_compatible_with(tf.float32),
                                            tf.float32.is_compatible_with(tf.float64),
                                            tf.float32.is_compatible_with("float32"), tf.int32.is_compatible_with(3)],
    "dtype/is_compatible_with an unknown name": lambda tf: tf.float32.is_compatible_with("foo"),
    "dtype/int": lambda tf: [int(d) for d in (tf.float32, tf.int32, tf.bool, tf.bfloat16, tf.complex128, tf.string,
                                              tf.uint64, tf.float16)],
    "module/non_trainable_variables": lambda tf: (lambda m: [m.non_trainable_variables, m.trainable_variables])(
        (lambda m: (setattr(m, "a", tf.Variable(1.0, trainable=False, name="a")),
                    setattr(m, "b", tf.Variable(2.0, name="b")), m)[-1])(tf.Module())),
}

TABLE = case_results.Table(__file__, CASES, re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.tensor-shape-methods")
def test_eager_tensor_attributes(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("tensor/"))


@pytest.mark.clause("ops.tensor-shape-methods")
def test_eager_variable_attributes(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("variable/"))


@pytest.mark.clause("ops.tensor-shape-methods")
def test_shape_dtype_and_module_attributes(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.split("/")[0] in ("shape", "dtype", "module"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

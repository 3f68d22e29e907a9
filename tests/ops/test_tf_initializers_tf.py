"""TF's own initializers at the top level against real TensorFlow 2.21 (clause ops.initializers):
tf.zeros_initializer, ones_initializer, constant_initializer, random_normal_initializer and
random_uniform_initializer: values bit for bit (a seeded initializer is the stateless op with
seed [seed, 0]; an unseeded one continues the global seed's stream), dtypes, errors, configs,
partition keywords, and their use as a Variable's and a Keras layer's initializer. Needs the `tf`
extra (golden-backed otherwise)."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _seeded(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """fn(tf) after tf.random.set_seed(29)."""
    def run(tf: Any) -> Any:
        tf.random.set_seed(29)
        return fn(tf)
    return run


def _config(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda tf: tf.constant(repr(sorted(make(tf).get_config().items())))


def _dense_kernel(tf: Any) -> Any:
    layer = tf.keras.layers.Dense(3, kernel_initializer=tf.random_normal_initializer(stddev=0.5, seed=7),
                                  bias_initializer=tf.constant_initializer(0.25))
    layer.build((None, 4))
    return [tf.convert_to_tensor(layer.kernel), tf.convert_to_tensor(layer.bias)]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("zeros", "values", lambda tf: [tf.zeros_initializer()([2, 3]), tf.zeros_initializer()([2], tf.int64),
                                    tf.zeros_initializer()([1], tf.bool)]),
    ("ones", "values", lambda tf: [tf.ones_initializer()([2, 3]), tf.ones_initializer()((3,), tf.float16),
                                   tf.ones_initializer()([2], dtype=tf.uint8)]),
    ("zeros-string", "values", lambda tf: tf.zeros_initializer()([2], tf.string)),
    ("constant-scalar", "values", lambda tf: tf.constant_initializer(2.5)([2, 2])),
    ("constant-list", "values", lambda tf: tf.constant_initializer([1, 2, 3, 4])([2, 2], tf.int64)),
    ("constant-no-dtype", "values", lambda tf: tf.constant_initializer([1, 2])([2])),
    ("constant-bad-size", "values", lambda tf: tf.constant_initializer([1, 2, 3])([2, 2])),
    ("constant-bad-type", "values", lambda tf: tf.constant_initializer({"a": 1})),
    ("constant-partition", "values", lambda tf: tf.constant_initializer(1.0)([2], partition_shape=[1])),
    ("normal-seeded", "values", lambda tf: [tf.random_normal_initializer(seed=3)([4]),
                                            tf.random_normal_initializer(seed=3)([4])]),
    ("normal-seeded-args", "values", lambda tf: tf.random_normal_initializer(1.0, 2.0, seed=11)([2, 3], tf.float64)),
    ("normal-unseeded", "values", _seeded(lambda tf: [tf.random_normal_initializer()([3]),
                                                      tf.random_normal_initializer()([3])])),
    ("normal-same-object-twice", "values", _seeded(lambda tf: [(lambda i: [i([2]), i([2])])(
        tf.random_normal_initializer(stddev=3.0))])),
    ("normal-int-dtype", "values", lambda tf: tf.random_normal_initializer(seed=1)([2], tf.int32)),
    ("normal-partition", "values", lambda tf: tf.random_normal_initializer(seed=1)([4], partition_shape=[2],
                                                                                   partition_offset=[0])),
    ("normal-bad-kwarg", "values", lambda tf: tf.random_normal_initializer(seed=1)([4], foo=1)),
    ("uniform-seeded", "values", lambda tf: tf.random_uniform_initializer(-1.0, 2.0, seed=5)([5])),
    ("uniform-seeded-int", "values", lambda tf: tf.random_uniform_initializer(0, 10, seed=5)([6], tf.int64)),
    ("uniform-unseeded", "values", _seeded(lambda tf: tf.random_uniform_initializer()([4]))),
    ("uniform-bool", "values", lambda tf: tf.random_uniform_initializer(seed=5)([2], tf.bool)),
    ("config-normal", "configs", _config(lambda tf: tf.random_normal_initializer(0.5, 2.0, seed=4))),
    ("config-uniform", "configs", _config(lambda tf: tf.random_uniform_initializer(seed=4))),
    ("config-constant", "configs", _config(lambda tf: tf.constant_initializer(3))),
    ("config-zeros", "configs", _config(lambda tf: tf.zeros_initializer())),
    ("from-config", "configs", lambda tf: tf.random_normal_initializer.from_config(
        {"mean": 0.0, "stddev": 1.0, "seed": 2, "dtype": "float32"})([3])),
    ("variable", "uses", lambda tf: tf.Variable(tf.random_normal_initializer(seed=8)([2, 2])).read_value()),
    ("variable-callable", "uses", lambda tf: tf.Variable(
        lambda: tf.random_uniform_initializer(seed=8)([3])).read_value()),
    ("dense-kernel", "uses", _dense_kernel),
    ("keras-namespace", "uses", lambda tf: tf.initializers.Zeros()([2])),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.initializers")
@EDGES.parametrize("values")
def test_initializer_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.initializers")
@EDGES.parametrize("configs")
def test_initializer_configs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.initializers")
@EDGES.parametrize("uses")
def test_initializer_uses(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_tf_initializers_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

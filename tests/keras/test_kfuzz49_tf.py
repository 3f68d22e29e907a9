"""The training fuzzer's kfuzz49 classes against TF 2.21 (tests/fuzz_train; clause function.grappler-rewrites):
Grappler's MinimizeBroadcasts on a tree of products, after ConstantPushDown past a second leaf that is not constant;
and (clause keras.layer.forward-and-gradients) the Add layer's sum as Keras's ops.add.

kfuzz48 left open the reordering of `(x * y) * c` inside tf.function (1,396-1,453 of 4,000 float32 results apart
from the written order). TF's constant folding pushes a constant down past a product (`(x * y) * c` is x * (c * y),
X the first input in name order), then the arithmetic optimizer's MinimizeBroadcasts takes the leaves of a Mul tree
in its canonical order (inputs sorted by node name), sorts them by size and multiplies the smallest first: a product
of vectors and a scalar, constant or not, multiplies the scalar into the first vector in name order. Each case returns
the bits of its float result (int views: compared exactly); inputs exact (ratios of integers, correctly rounded)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

N = 2000


def _vals(n: int, salt: int, dtype: Any = np.float32) -> np.ndarray:
    """Exact inputs in [0.5, 2): distinct ratios k / 997, correctly rounded to the dtype."""
    k = (np.arange(n) * (37 + 2 * salt) + 11 * salt) % 1497 + 499
    return (k.astype(np.float64) / 997.0).astype(dtype)


def _bits(a: Any) -> np.ndarray:
    a = np.asarray(a)
    return a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize])


#: label -> (the form over arguments a, b, z (vectors of N) and s, t (scalars), the arguments it takes)
FORMS: dict[str, tuple[Callable[..., Any], str]] = {
    "(a * b) * 0.3": (lambda tf, a, b: (a * b) * 0.3, "ab"),
    "(b * a) * 0.3, b first": (lambda tf, b, a: (b * a) * 0.3, "ba"),
    "0.3 * (a * b)": (lambda tf, a, b: 0.3 * (a * b), "ab"),
    "(a * 0.3) * b": (lambda tf, a, b: (a * 0.3) * b, "ab"),
    "a * (b * 0.3)": (lambda tf, a, b: a * (b * 0.3), "ab"),
    "(a * b) * s": (lambda tf, a, b, s: (a * b) * s, "abs"),
    "a * (b * s)": (lambda tf, a, b, s: a * (b * s), "abs"),
    "s * (a * b)": (lambda tf, a, b, s: s * (a * b), "abs"),
    "((a * b) * z) * s": (lambda tf, a, b, z, s: ((a * b) * z) * s, "abzs"),
    "((a * s) * b) * t": (lambda tf, a, b, s, t: ((a * s) * b) * t, "abst"),
    "(a * b) * (z * s)": (lambda tf, a, b, z, s: (a * b) * (z * s), "abzs"),
    "(a * b) * z (one shape)": (lambda tf, a, b, z: (a * b) * z, "abz"),
    "(a * b) * c of shape [n]": (lambda tf, a, b: (a * b) * tf.constant(np.full(a.shape, 0.3, a.dtype.as_numpy_dtype)),
                                 "ab"),
    "(a * b) / 0.3": (lambda tf, a, b: (a * b) / 0.3, "ab"),
    "(a * b) / c of shape [n]": (lambda tf, a, b: (a * b) / tf.constant(np.full(a.shape, 0.3, a.dtype.as_numpy_dtype)),
                                 "ab"),
}


def _args(kinds: str, dtype: Any) -> list[np.ndarray]:
    salts = {"a": 1, "b": 2, "z": 3, "s": 4, "t": 5}
    return [_vals(N, salts[k], dtype) if k in "abz" else _vals(1, salts[k], dtype)[0] for k in kinds]


def _form(label: str, dtype: Any, unknown: bool = False) -> Callable:
    def case(tf: Any) -> Any:
        fn, kinds = FORMS[label]
        sig = ([tf.TensorSpec([None] if k in "abz" else [], tf.as_dtype(dtype)) for k in kinds] if unknown else None)
        f = tf.function(lambda *xs: fn(tf, *xs), input_signature=sig)
        return _bits(f(*[tf.constant(v) for v in _args(kinds, dtype)]))
    return case


def _taped(tf: Any) -> Any:
    """`(a * b) * s` under a tape watching s: s's gradient reads a * b, which the group then cannot absorb."""
    @tf.function
    def f(a: Any, b: Any, s: Any) -> Any:
        with tf.GradientTape() as g:
            g.watch(s)
            q = (a * b) * s
        return q, g.gradient(q, s)
    q, ds = f(*[tf.constant(v) for v in _args("abs", np.float32)])
    return [_bits(q), _bits(ds)]


def _adam_custom_loop(tf: Any) -> Any:
    """A custom loop's steps in a tf.function with the learning rate applied by hand to clipped gradients:
    `(lr * g) * scale` products of vectors and scalars in the update, then Adam on the result (the weights' bits)."""
    v = tf.Variable(_vals(N, 6) - 1.0)
    w = tf.Variable(_vals(N, 7) - 1.0)
    opt = tf.keras.optimizers.Adam(0.01)
    opt.build([v, w])

    @tf.function
    def step(x: Any, scale: Any) -> Any:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((v * x) * scale) + tf.reduce_sum(tf.square(w * x))
        gv, gw = tape.gradient(loss, [v, w])
        gv, _ = tf.clip_by_global_norm([gv], 5.0)
        opt.apply_gradients(zip([gv[0] * 0.5, gw], [v, w]))
        return loss
    out = []
    for k in range(3):
        step(tf.constant(_vals(N, 8 + k) - 1.1), tf.constant(np.float32(0.7 + 0.1 * k)))
        out += [_bits(v.numpy()), _bits(w.numpy())]
    return out


def _empty_replica_add(rows: int) -> Callable:
    """predict of a two-input model whose Dense outputs meet in an Add layer, under MirroredStrategy(3) (seed
    4920261201 #19: a GRU and a Dense output, predict of 4 rows after a weights file round trip): 4 rows split as
    [2, 2, 0], the third replica's traced batch statically 0, so Keras's ops.add takes the [0, 2] operand for a bias
    (it squeezes to the vector [2]) and TF's BiasAdd refuses the squeezed [0, 2] at trace (ValueError); 9 rows run."""
    def case(tf: Any) -> Any:
        if not hasattr(tf, "__path__") or "simdist" in tf.__name__:   # (simdist: a fresh machine of 4 CPUs)
            import simdist
            simdist.reset()
            cpu = tf.config.list_physical_devices("CPU")[0]
            tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
        keras = tf.keras
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
        with strategy.scope():
            i0, i1 = keras.Input((3,)), keras.Input((4,))
            out = keras.layers.Add()([keras.layers.Dense(2)(i0), keras.layers.Dense(2)(i1)])
            model = keras.Model([i0, i1], out)
        model.set_weights([_vals(int(np.prod(w.shape)), 20 + i).reshape(w.shape) - 1.0
                           for i, w in enumerate(model.get_weights())])
        x = [_vals(rows * 3, 30).reshape(rows, 3), _vals(rows * 4, 31).reshape(rows, 4)]
        try:
            return model.predict(x, verbose=0)
        except Exception as e:  # noqa: BLE001 - the class and the shape rule are the result (the message names nodes)
            return [type(e).__name__, "Shape must be rank 1 but is rank 2" in str(e)]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for label in FORMS:
        out[f"min_broadcasts/float32 {label}"] = _form(label, np.float32)
    for label in ("(a * b) * 0.3", "(a * b) * s", "((a * b) * z) * s", "(a * 0.3) * b"):
        out[f"min_broadcasts/float64 {label}"] = _form(label, np.float64)
        out[f"min_broadcasts/float16 {label}"] = _form(label, np.float16)
        out[f"min_broadcasts/unknown dims {label}"] = _form(label, np.float32, unknown=True)
    out["min_broadcasts/taped (a * b) * s"] = _taped
    out["min_broadcasts/adam custom loop"] = _adam_custom_loop
    out["empty_replica/add predict 4 rows"] = _empty_replica_add(4)
    out["empty_replica/add predict 9 rows"] = _empty_replica_add(9)
    return out


_AUTO_NAME = re.compile(r"(adam_|functional_|input_layer_|dense_|add_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


def _check(tf_results: dict[int, Any], prefix: str) -> None:
    from simdist.runtime import host_cpu
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's answers follow the CPU: ops.host-cpu)
        TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


@pytest.mark.clause("keras.layer.forward-and-gradients")
def test_an_add_layer_adds_a_bias_shaped_operand_as_keras_ops_add(tf_results: dict[int, Any]) -> None:
    """kfuzz49 (seed 4920261201 #19): Keras 3.15's Add layer sums by ops.add, whose BiasAdd special case refuses
    an empty replica's traced [0, n] operand."""
    _check(tf_results, "empty_replica/")


@pytest.mark.clause("function.grappler-rewrites")
def test_a_product_tree_multiplies_its_smallest_leaves_first_in_name_order(tf_results: dict[int, Any]) -> None:
    """kfuzz48's open (x * y) * c class: ConstantPushDown of a product, then MinimizeBroadcasts."""
    _check(tf_results, "min_broadcasts/")


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)

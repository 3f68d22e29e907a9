"""Static shapes a traced graph gives ops' outputs when an input's dimension is unknown, against TF 2.21 (the
forty-seventh session, helper open47; clause function.trace-time-errors; simdist/runtime/ops/static_shapes.py
`_SHAPE_FNS` and `_INPUT_SHAPED`, runtime/ops/grappler.py `_pack_rule`, keras/losses/_ops.py `prod_of_shape`).

Inside a tf.function whose input_signature leaves the batch dimension unknown, TF's shape functions carry the
unknown dimension through MatMul, BatchMatMulV2, Einsum, BiasAdd, Softmax, ConcatV2, Tile, Pad, OneHot and Pack:
user code reading `.shape` sees None (simdist gave the call's concrete rows, its marks carried only through
elementwise ops and reductions). Grappler replaces a Pack of copies by Tile and Reshape only when the Pack's
shape is fully known (a uint16 stack of a [None, 2] input keeps its values; of [3, 2] it is Tile's
UnimplementedError). A Keras custom train_step sees its model's outputs and losses with the batch dimension None
once fit's trace is relaxed. Each case: a list of [label, value or [error class, first line]].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        out.append([label, r.numpy().tolist() if hasattr(r, "numpy") else r])
    except Exception as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    name = case["name"]
    if name == "ops of an unknown batch dimension":
        shapes: list[Any] = []

        @tf.function(input_signature=[tf.TensorSpec([None, 2])])
        def f(x: Any) -> Any:
            def s(label: str, t: Any) -> Any:
                shapes.append([label, t.shape.as_list()])
                return t
            a = s("matmul", tf.matmul(x, tf.ones([2, 3])))
            s("matmul transpose_b", tf.matmul(x, tf.ones([3, 2]), transpose_b=True))
            s("matmul transpose_a", tf.matmul(x, tf.ones([4, 3]), transpose_a=True))
            s("matmul of the unknown on the right", tf.matmul(tf.ones([3, 4]), tf.transpose(x)))
            s("bias_add", tf.nn.bias_add(a, tf.ones([3])))
            s("relu of a matmul", tf.nn.relu(a))
            s("batch matmul", tf.matmul(tf.reshape(x, [-1, 1, 2]), tf.ones([2, 5])))
            s("batch matmul broadcast", tf.matmul(tf.ones([3, 1, 4, 2]), tf.reshape(x, [-1, 2, 1])))
            s("einsum", tf.einsum("ij,jk->ik", x, tf.ones([2, 3])))
            s("einsum transposed", tf.einsum("ij->ji", x))
            s("tensordot", tf.tensordot(x, tf.ones([2, 3]), 1))
            s("concat axis 1", tf.concat([x, x], 1))
            s("concat axis 0", tf.concat([x, tf.ones([3, 2])], 0))
            s("softmax", tf.nn.softmax(x))
            s("log_softmax", tf.nn.log_softmax(x))
            s("tile", tf.tile(x, [1, 2]))
            s("pad", tf.pad(x, [[1, 1], [0, 0]]))
            s("mirror pad", tf.pad(x, [[1, 1], [1, 0]], mode="REFLECT"))
            s("one_hot", tf.one_hot(tf.cast(x[:, 0], tf.int32), 4))
            s("one_hot axis 0", tf.one_hot(tf.cast(x[:, 0], tf.int32), 4, axis=0))
            s("stack of copies", tf.stack([x, x]))
            s("stack axis 1", tf.stack([x, x + 1.0], axis=1))
            s("stack with a known", tf.stack([x[:3], tf.ones([3, 2])], axis=0))
            return tf.reduce_sum(a)
        _try(out, "value", lambda: f(tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])))
        out.append(["shapes", shapes])
    elif name == "a uint16 stack of copies":
        for spec in ([None, 2], [3, 2]):
            @tf.function(input_signature=[tf.TensorSpec(spec, tf.uint16)])
            def g(x: Any) -> Any:
                return tf.stack([x, x], axis=1)
            try:   # (the class: TF's graph error's first line is "Graph execution error:", not compared here)
                out.append([f"spec {spec}", g(tf.constant([[0, 1], [2, 3], [4, 5]], tf.uint16)).numpy().tolist()])
            except Exception as e:  # noqa: BLE001
                out.append([f"spec {spec}", type(e).__name__])
    elif name == "a custom train_step's shapes":
        keras = tf.keras
        log: list[Any] = []

        class M(keras.Model):
            def train_step(self, data: Any) -> Any:
                x, y = data
                yp = self(x)
                d = tf.square(y - yp)
                log.append([x.shape.as_list(), y.shape.as_list(), yp.shape.as_list(), d.shape.as_list(),
                            tf.reduce_mean(d, axis=1).shape.as_list()])
                return super().train_step(data)
        inp = keras.Input((2,))
        hidden = keras.layers.Dense(3, activation="relu", kernel_initializer="ones")(inp)
        model = M(inp, keras.layers.Dense(1, kernel_initializer="ones")(hidden))
        model.compile(loss="mse", optimizer=keras.optimizers.SGD(0.01))
        x = [[i / 10.0, (i + 1) / 10.0] for i in range(0, 24, 2)]
        for b in (6, 4):
            h = model.fit(tf.constant(x), tf.constant([[1.0]] * 12), batch_size=b, epochs=1, verbose=0, shuffle=False)
            out.append([f"loss by {b}", round(float(h.history["loss"][0]), 4)])
        out.append(["step shapes", log])
    return out


NAMES = ["ops of an unknown batch dimension", "a uint16 stack of copies", "a custom train_step's shapes"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.trace-time-errors")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_static_shapes_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

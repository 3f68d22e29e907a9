"""Static shapes and control flow inside a tf.function whose input_signature leaves dimensions unknown, against
real TensorFlow 2.21 (the fifty-second session's generator tests/fuzz52b/fz52b_gen.py, helper fz52b): the shape user
code reads of a tf.cond / tf.switch_case / tf.case result while the function traces is the most specific shape
compatible with every branch's (clause function.traced-branches); a distributed variable passed to an
input_signature function is checked against its spec as any variable (clause function.input-signature); inside a
tf.function a TensorArray unstacks rows the graph does not count and its index errors are TensorList kernels'
InvalidArgumentError (clause ops.tensor-array). Each case: a list of [label, value]; a value is the
`str(t.shape)` read inside the trace, the concrete function's output shapes, or an error's [class, first line].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, fn()])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def _shapes(fn: Any) -> list:
    return [None if t.shape.rank is None else t.shape.as_list() for t in fn.get_concrete_function().structured_outputs]


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    seen: list[Any] = []
    name = case["name"]
    if name == "cond_shapes":
        @tf.function(input_signature=[tf.TensorSpec([3, None], tf.float32)])
        def f(x: Any) -> Any:
            a = x + 1.0
            r = [tf.cond(tf.reduce_sum(x) > 0, lambda: a, lambda: a),                       # (3, None) both
                 tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x),                 # (3, None) both
                 tf.cond(tf.reduce_sum(x) > 0, lambda: x[:, :1], lambda: x[:, :2]),          # (3, 1) / (3, None)
                 tf.cond(tf.reduce_sum(x) > 0, lambda: x[:1], lambda: x[1:]),               # (1, None) / (2, None)
                 tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reshape(x, [-1]), lambda: x),     # ranks differ
                 tf.switch_case(tf.shape(x)[0] % 3, [lambda: x + 1.0, lambda: x * 0.0]),
                 tf.case([(tf.reduce_sum(x) > 0, lambda: x * 3.0)], default=lambda: x)]
            seen.extend(str(t.shape) for t in r)
            return r
        f(tf.constant([[1.0, -2.0], [0.5, 0.25], [3.0, 1.0]]))
        out.append(["traced", seen[:7]])   # (the first trace: simdist's get_concrete_function runs the Python again)
        out.append(["outputs", _shapes(f)])
    elif name == "mirrored_variable_signature":
        s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def g(x: Any) -> Any:
            return x * 2.0
        with s.scope():
            bad = tf.Variable(tf.ones([5, 5]))
            good = tf.Variable(tf.ones([2, 3]))
            on_read = tf.Variable(tf.ones([3]), synchronization=tf.VariableSynchronization.ON_READ,
                                  aggregation=tf.VariableAggregation.SUM)
        for label, v in [("mirrored (5, 5)", bad), ("sync on read (3,)", on_read), ("mirrored (2, 3)", good)]:
            _try(out, label, lambda v=v: g(v).numpy().tolist())
    elif name == "tensor_array_in_function":
        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def h(x: Any) -> Any:
            n = tf.shape(x)[0]
            return (tf.TensorArray(tf.float32, size=n).unstack(x).stack(),
                    tf.TensorArray(tf.float32, size=n, infer_shape=False).unstack(x).read(1),
                    tf.TensorArray(tf.float32, size=n + 1).scatter(tf.range(1, n + 1), x).write(0, x[0]).stack())
        _try(out, "unstack unknown rows", lambda: [t.numpy().tolist() for t in h(tf.constant([[1.0, 2.0], [3.0, 4.0]]))])
        _try(out, "read past the end", lambda: [t.numpy().tolist() for t in h(tf.constant([[1.0, 2.0]]))])

        @tf.function
        def bounds(x: Any, i: Any, how: str) -> Any:
            if how == "write":
                return tf.TensorArray(tf.float32, size=2).write(i, x).stack()
            if how == "gather":
                return tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(x).gather([i])
            return tf.TensorArray(tf.float32, size=tf.shape(x)[0]).unstack(x).read(i)
        for how, x, i in [("read", tf.ones([2, 2]), 2), ("read", tf.ones([2, 2]), -1), ("write", tf.ones([2]), 3),
                          ("write", tf.ones([2]), -1), ("gather", tf.ones([2, 2]), 5)]:
            _try(out, f"{how} {i}", lambda x=x, i=i, how=how: [type(bounds(x, tf.constant(i), how)).__name__])
        # (errors by class: TF's first line is "Graph execution error:", simdist's call running its Python raises the
        # kernel's message itself, the second line of TF's)
        out = [[k, v[:1] if isinstance(v, list) and len(v) == 2 and str(v[0]).endswith("Error") else v] for k, v in out]
    return out


NAMES = ["cond_shapes", "mirrored_variable_signature", "tensor_array_in_function"]
CASES: dict[str, dict] = {"cond_shapes": {"strategy": "default", "name": "cond_shapes"},
                         "mirrored_variable_signature": {"strategy": "mirrored2", "name": "mirrored_variable_signature"},
                         "tensor_array_in_function": {"strategy": "default", "name": "tensor_array_in_function"}}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


@pytest.mark.clause("function.traced-branches")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_branch_output_shapes_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_distributed_variable_binding_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.tensor-array")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:3])
def test_tensor_array_in_function_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

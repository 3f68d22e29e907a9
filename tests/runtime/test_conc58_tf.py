"""The concrete-function surface and _SumGrad's node as TF 2.21 shows them (fifty-eighth session, helper conc58; clauses
function.input-signature and function.symbolic-tensors). tsweep58 left these open, each observed on TF 2.21:
get_concrete_function of nested TensorSpecs (an input_signature's, a dict or tuple of specs given) passed the specs
themselves to the Python (TypeError); a concrete function's inputs were named after their parameters, never a spec's
own name, and not made unique ('z:0', 'z_1:0'); pretty_printed_signature wrote no '/' for traced *args and name=None
for a named spec; output_shapes kept None for a None output (TF TensorShape(None)); the gradient of a reduce_sum (and
reduce_mean) was BroadcastTo where TF's _SumGrad Tiles (and _MeanGrad's division is named 'truediv'). Each case: the
surface as strings (input names, structured_input_signature, pretty text, output shapes, a call's values), the reprs
the Python sees of get_concrete_function's placeholders (simdist showed the dry run's zeros), or the traced
gradient's name and values.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _err(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class and first line are compared
        return ["raised", type(e).__name__, str(e).split("\n")[0][:60]]


def _surface(cf: Any, *call: Any) -> dict:
    return {"inputs": _err(lambda: [t.name for t in cf.inputs]),
            "structured_input": _err(lambda: repr(cf.structured_input_signature)),
            "pretty": _err(lambda: cf.pretty_printed_signature(verbose=False)),
            "verbose": _err(lambda: cf.pretty_printed_signature().split("Output Type:")[0]),
            "output_shapes": _err(lambda: repr(cf.output_shapes)),
            "call": _err(lambda: repr([v.numpy().tolist() for v in cf.__call__(*call)])) if call else None}


def _concrete(tf: Any, name: str) -> Any:
    S = tf.TensorSpec
    if name.startswith("sig_"):
        sigs = {"sig_tuple": [(S([None], tf.float32), S([2, None], tf.float32, name="q"))],
                "sig_dict": [{"y": S([None], tf.float32, name="why"), "x": S([3], tf.float64)}],
                "sig_named_varargs": [S([2], tf.float32, name="p"), S([2], tf.float32)]}
        calls = {"sig_tuple": ((tf.constant([1.0, 2.0]), tf.ones([2, 3])),),
                 "sig_dict": ({"x": tf.constant([1.0, 2.0, 3.0], tf.float64), "y": tf.ones([2])},),
                 "sig_named_varargs": (tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25]))}

        @tf.function(input_signature=sigs[name])
        def f(*xs: Any) -> Any:
            return [tf.reduce_sum(tf.cast(x, tf.float32)) for x in tf.nest.flatten(xs)]
        return _surface(f.get_concrete_function(), *calls[name])
    if name == "dict_of_specs":
        @tf.function
        def g(d: Any, n: int = 2) -> Any:
            return [d["a"] * float(n) + tf.reduce_sum(d["b"])]
        cf = g.get_concrete_function({"b": S([None], tf.float32), "a": S([2], tf.float32, name="aa")})
        return _surface(cf, {"a": tf.ones([2]), "b": tf.constant([1.0, 2.0, 3.0])}, 2)
    if name == "tuple_of_tensor_and_spec":
        @tf.function
        def h(x: Any, pair: Any) -> Any:
            return [x + pair[0] * pair[1]]
        cf = h.get_concrete_function(S([2], tf.float32), (tf.constant([1.0, 2.0]), S([], tf.float32, name="sc")))
        return _surface(cf, tf.ones([2]), (tf.constant([2.0, 3.0]), tf.constant(2.0)))
    if name in ("same_names", "name_of_other_parameter"):
        @tf.function
        def k(a: Any, b: Any) -> Any:
            return [a + b]
        specs = {"same_names": (S([2], tf.float32, name="z"), S([2], tf.float32, name="z")),
                 "name_of_other_parameter": (S([2], tf.float32, name="b"), S([2], tf.float32))}[name]
        return _surface(k.get_concrete_function(*specs), tf.ones([2]), tf.constant([0.5, 1.5]))
    if name == "varargs_kwonly":
        @tf.function
        def m(a: Any, *rest: Any, k: Any = 2.0, **kw: Any) -> Any:
            r = a * k
            for t in rest:
                r = r + t
            return [r]
        cf = m.get_concrete_function(S([2], tf.float32), S([2], tf.float32, name="second"), S([None]),
                                     k=S([], tf.float32), extra=S([2], tf.float32))
        return _surface(cf)
    if name == "none_output":
        @tf.function
        def n(x: Any) -> Any:
            return tf.constant(1.5), (x, [x * 2.0, None])
        return _surface(n.get_concrete_function(S([None, 2], tf.float64)))
    if name == "placeholder_reprs":
        seen: list[str] = []

        @tf.function(input_signature=[S([None], tf.float32, name="p"), (S([2], tf.float32), S([2], tf.float32,
                                                                                             name="q"))])
        def r(a: Any, pair: Any) -> Any:
            seen.extend([repr(a), repr(pair[0]), repr(pair[1]), repr(a * 2.0)])
            return a
        r.get_concrete_function()
        return seen
    raise KeyError(name)


#: reduction -> (the reduction of y, the input_signature's spec of x)
GRADS: dict[str, tuple[Callable[[Any, Any], Any], Callable[[Any], Any]]] = {
    "sum_all": (lambda tf, y: tf.reduce_sum(y), lambda tf: tf.TensorSpec([2, 3])),
    "sum_all_none_dim": (lambda tf, y: tf.reduce_sum(y), lambda tf: tf.TensorSpec([None, 3])),
    "sum_axis_1": (lambda tf, y: tf.reduce_sum(y, axis=1), lambda tf: tf.TensorSpec([2, 3])),
    "sum_axis_1_none_dim": (lambda tf, y: tf.reduce_sum(y, axis=1), lambda tf: tf.TensorSpec([None, 3])),
    "sum_axis_m1_keepdims": (lambda tf, y: tf.reduce_sum(y, axis=-1, keepdims=True), lambda tf: tf.TensorSpec([2, 3])),
    "sum_all_keepdims": (lambda tf, y: tf.reduce_sum(y, keepdims=True), lambda tf: tf.TensorSpec([2, 3])),
    "sum_axes_1_0_none_dim": (lambda tf, y: tf.reduce_sum(y, axis=[1, 0]), lambda tf: tf.TensorSpec([None, 3])),
    "sum_unknown_rank": (lambda tf, y: tf.reduce_sum(y), lambda tf: tf.TensorSpec(None)),
    "mean_all": (lambda tf, y: tf.reduce_mean(y), lambda tf: tf.TensorSpec([2, 3])),
    "mean_axis_0_none_dim": (lambda tf, y: tf.reduce_mean(y, axis=0), lambda tf: tf.TensorSpec([None, 3])),
    # (a source that is also an intermediate, reached twice: one AddN, TF's imperative_grad keeping the aggregate)
    "two_sums_of_a_source": (lambda tf, y: tf.reduce_sum(y) + tf.reduce_sum(y, axis=0)[0],
                             lambda tf: tf.TensorSpec([2, 3])),
}


def _gradient(tf: Any, name: str) -> Any:
    reduce, spec = GRADS[name]
    names: list[str] = []

    @tf.function(input_signature=[spec(tf)])
    def g(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * 2.0
            z = reduce(tf, y)
        dy = t.gradient(z, y)
        names.append(dy.name)
        return dy
    v = g(tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]))
    return [names[0], v.numpy().tolist()]


CONCRETE = ["sig_tuple", "sig_dict", "sig_named_varargs", "dict_of_specs", "tuple_of_tensor_and_spec", "same_names",
            "name_of_other_parameter", "varargs_kwonly", "none_output", "placeholder_reprs"]
NAMES = CONCRETE + [f"grad_{g}" for g in GRADS]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


def program(tf: Any, case: dict, workdir: str) -> Any:
    name = case["name"]
    return _gradient(tf, name[len("grad_"):]) if name.startswith("grad_") else _concrete(tf, name)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("index", range(len(CONCRETE)), ids=CONCRETE)
def test_concrete_surface_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert got == want, f"{name}: simdist's concrete function shows {got}, TF 2.21's {want}"


@pytest.mark.clause("function.symbolic-tensors")
@pytest.mark.parametrize("index", range(len(CONCRETE), len(NAMES)), ids=NAMES[len(CONCRETE):])
def test_sum_gradient_node_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert got == want, f"{name}: simdist's traced gradient [name, values] is {got}, TF 2.21's {want}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

"""A public function's `name=` argument inside a tf.function (clause function.symbolic-tensors, node names): TF's
functions hand it to their op (`tf.reduce_sum(x, name="loss")` is the node `loss`, `loss_1` when the name is in
use), so the next unnamed op of that type keeps its counter, and Grappler sums an AddN's inputs in their names'
order (clause function.grappler-rewrites). And the nodes a public function's TF Python makes where simdist computes
without one (a reduction's axes, compute_average_loss's asserts, custom_gradient's IdentityN): their names move the
counters of later nodes. simdist vs TF 2.21; before the fifty-seventh session 163 of the 214 functions of the fz54b
table ignored `name` (tf/_given_names.py), and 19 made other top-level nodes than TF's. Its golden (tests/goldens/)
is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# (function path below tf, how it is called: x one argument, xy two, xi an integer second argument)
_FUNCTIONS = (
    ("math.abs", "x"), ("math.exp", "x"), ("math.log1p", "x"), ("math.sqrt", "x"), ("math.square", "x"),
    ("math.negative", "x"), ("math.sigmoid", "x"), ("math.tanh", "x"), ("math.softplus", "x"), ("math.erf", "x"),
    ("math.sin", "x"), ("math.cumsum", "x"), ("math.cumprod", "x"), ("math.is_finite", "x"),
    ("math.subtract", "xy"), ("math.multiply", "xy"), ("math.divide", "xy"), ("math.maximum", "xy"),
    ("math.minimum", "xy"), ("math.pow", "xy"), ("math.squared_difference", "xy"), ("math.atan2", "xy"),
    ("math.xlogy", "xy"), ("math.floormod", "xy"), ("math.equal", "xy"), ("math.less", "xy"),
    ("math.reduce_sum", "x"), ("math.reduce_mean", "x"), ("math.reduce_max", "x"), ("math.reduce_min", "x"),
    ("math.reduce_prod", "x"), ("math.reduce_euclidean_norm", "x"), ("math.argmax", "x"), ("math.argmin", "x"),
    ("nn.relu", "x"), ("nn.relu6", "x"), ("nn.elu", "x"), ("nn.selu", "x"), ("nn.leaky_relu", "x"),
    ("nn.softmax", "x"), ("nn.log_softmax", "x"), ("nn.l2_loss", "x"), ("nn.top_k", "x"),
    ("expand_dims", "xi"), ("gather", "xi"), ("squeeze", "x"), ("where", "x"), ("searchsorted", "xy"),
    ("linalg.cross", "xy"), ("linalg.tensor_diag_part", "x"),
)


def _get(tf: Any, path: str) -> Callable[..., Any]:
    fn = tf
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def _given(tf: Any, paths: tuple) -> list:
    """Each function called with name="g" after a reduce_sum named "g" (the given name made unique: g_1, g_2, ...),
    then one unnamed call of each (its node takes its type's next counter): the outputs' names."""
    seen: list = []
    x = [[0.5, 1.5, 0.3], [2.0, 0.25, 0.7], [0.1, 0.2, 0.9]]

    @tf.function
    def f(a: Any, b: Any) -> Any:
        seen.append(tf.reduce_sum(a, name="g").name)
        for path, how in paths:
            fn = _get(tf, path)
            call = {"x": (a,), "xy": (a, b), "xi": (a, 1)}[how]
            for kwargs in ({"name": "g"}, {}):
                r = fn(*call, **kwargs)
                while isinstance(r, (list, tuple)):
                    r = r[0]
                seen.append(f"{path}: {r.name}")
        return a
    f(tf.constant(x), tf.constant(x) * 2.0)
    return seen


def _probes(tf: Any, x: Any) -> list:
    """Nodes whose names count on after a call (the counters the call's own nodes moved)."""
    return [tf.constant(2.0), tf.reduce_sum(x, 0), tf.identity(x), x * 2.0, tf.cast(x, tf.float64), x[0],
            tf.reshape(x, [-1]), tf.range(3), tf.shape(x), tf.math.truediv(x, 3.0)]


# the public functions whose TF Python makes nodes simdist computes without (a reduction's axes Const, the
# asserts and casts of compute_average_loss, searchsorted's shapes, swish's beta and custom_gradient's IdentityN)
# or whose scope names them (zero_fraction, log_sigmoid, adjoint, angle, softmax_cross_entropy_with_logits)
_COUNTED: dict[str, Callable[..., Any]] = {
    "reductions": lambda tf, x, y, v: [tf.reduce_sum(x), tf.reduce_mean(y), tf.reduce_max(v), tf.reduce_prod(x),
                                       tf.reduce_any(x > 0), tf.math.reduce_euclidean_norm(x), tf.reduce_min(x[0, 0])],
    "average_loss": lambda tf, x, y, v: [tf.nn.compute_average_loss(x[0]),
                                         tf.nn.compute_average_loss(x[0], global_batch_size=8),
                                         tf.nn.compute_average_loss(x[0], sample_weight=0.5),
                                         tf.nn.compute_average_loss(x[0], sample_weight=x[1], global_batch_size=8)],
    "regularization": lambda tf, x, y, v: [tf.nn.scale_regularization_loss(x[0])],
    "searchsorted": lambda tf, x, y, v: [tf.searchsorted(tf.sort(x), y)],
    "swish": lambda tf, x, y, v: [tf.nn.silu(x), tf.nn.swish(x, beta=1.5), tf.nn.silu(x, beta=y[0, 0])],
    # (angle of a real tensor left out: its where is TF's v1 Select node, simdist's SelectV2 — tf.compat.v1.where's
    # too; the cross entropy's own result is TF's `softmax_cross_entropy_with_logits/Reshape_2`, simdist's op below
    # its scope: its scope counts, the identity after it shows)
    "scopes": lambda tf, x, y, v: [tf.math.zero_fraction(x), tf.math.log_sigmoid(x), tf.linalg.adjoint(x),
                                   tf.identity(tf.nn.softmax_cross_entropy_with_logits(y, x))],
}


def _custom(tf: Any, x: Any) -> Any:
    @tf.custom_gradient
    def cube(t: Any) -> Any:
        return t * t * t, lambda dy: dy * 3.0 * t * t
    return [cube(x), cube(x)]


def _counted(tf: Any, which: str) -> list:
    """The named outputs of the calls, then of probe nodes made after them, inside a tf.function."""
    seen: list = []
    v = tf.Variable([[1.0, -2.0, 3.0], [0.5, 0.25, -1.0]])

    @tf.function
    def f(x: Any, y: Any) -> Any:
        outs = _custom(tf, x) if which == "custom_gradient" else _COUNTED[which](tf, x, y, v)
        seen.extend(o.name for o in outs)
        seen.extend(p.name for p in _probes(tf, x))
        return x
    f(tf.constant([[0.5, 1.5, 0.3], [2.0, 0.25, 0.7]]), tf.constant([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]]))
    return seen


def _named_sum(tf: Any, names: list[str]) -> str:
    """add_n of three named reductions in a tf.function, whose order by name decides the float32 sum's last bits
    (1e8 + 1 - 1e8 ...): the sum's bits."""
    @tf.function
    def f(a: Any, b: Any, c: Any) -> Any:
        return tf.add_n([tf.reduce_sum(a, name=names[0]), tf.reduce_sum(b, name=names[1]),
                         tf.math.reduce_max(c, name=names[2])])
    v = f(tf.constant([1e8, 3.0]), tf.constant([1.0, 0.25]), tf.constant([-1e8, -2e8]))
    return float(v.numpy()).hex()


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for k in range(0, len(_FUNCTIONS), 10):
        c[f"names/given_{k // 10}"] = lambda tf, k=k: _given(tf, _FUNCTIONS[k:k + 10])
    for which in list(_COUNTED) + ["custom_gradient"]:
        c[f"names/counted_{which}"] = lambda tf, which=which: _counted(tf, which)
    for order in (["z", "a", "m"], ["a", "z", "m"], ["m", "a", "z"], ["Sum", "a", "b"], ["b", "Sum", "a"]):
        c["add_n/" + "_".join(order)] = lambda tf, order=order: _named_sum(tf, order)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(given_names_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.symbolic-tensors")
def test_given_names_name_the_node_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("names/"))


@pytest.mark.clause("function.grappler-rewrites")
def test_add_n_of_named_reductions_sums_in_name_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("add_n/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

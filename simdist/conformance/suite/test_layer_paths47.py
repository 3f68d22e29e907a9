"""keras.Layer on the code paths the suite had not run (a coverage run of the whole suite on simdist, forty-sixth
session: layer.py 88%, 56 lines never run): add_weight's positional form and its conflicts, a scalar weight,
add_variable, untracking a deleted weight, metrics_variables, get_build_config/build_from_config of a one-shape and a
two-shape build, stateless_call (values, its checks, return_losses), the messages of a layer without call() or
compute_output_shape(), the error a symbolic call raises when Keras cannot infer its output (Keras 3.15's
Operation.compute_output_spec wraps it: "Could not automatically infer the output shape / dtype ..."; an op's shape
error there is a ValueError, TF inferring in a graph), a layer's input/output before and after a call, and a path
(clause keras.layer.protocol).

Every expected value, class and message fragment was observed on TF 2.21 + Keras 3.15 (forty-seventh session,
/work/wt/lead47_logs/probe/layer_probe.py and wrap_probe.py run beside simdist).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np
from simdist.conformance.suite.outcomes import check

clause = pytest.mark.clause


def _weight_layer(keras, build):
    class W(keras.layers.Layer):
        def build(self, input_shape):
            build(self)

        def call(self, x):
            return x

    layer = W()
    layer.build((None, 2))
    w = layer.w
    return [list(w.shape), str(w.dtype), np.asarray(_np(w)).tolist(), w.trainable]


@clause("keras.layer.protocol", ref="tf221")
def test_add_weight_forms(keras):
    """add_weight(shape, initializer, dtype) positionally, too many positional arguments, an initializer or dtype
    given twice, a scalar weight (no shape), and add_variable (the alias)."""
    def with_(fn):
        return lambda: _weight_layer(keras, lambda self: setattr(self, "w", fn(self)))

    check("add_weight((2,), 'ones', 'float16')", with_(lambda s: s.add_weight((2,), "ones", "float16")), "ok",
          want_value=[[2], "float16", [1.0, 1.0], True])
    check("add_weight((2,), 'ones', 'float16', True)", with_(lambda s: s.add_weight((2,), "ones", "float16", True)),
          "TypeError", "add_weight() takes at most 3 positional arguments but 4 were given.")
    check("add_weight((2,), 'ones', initializer='zeros')",
          with_(lambda s: s.add_weight((2,), "ones", initializer="zeros")), "ValueError",
          "`initializer` was passed both positionally and as a keyword argument.")
    check("add_weight((2,), 'ones', 'float16', dtype='float32')",
          with_(lambda s: s.add_weight((2,), "ones", "float16", dtype="float32")), "ValueError",
          "`dtype` was passed both positionally and as a keyword argument.")
    check("add_weight(initializer='ones')", with_(lambda s: s.add_weight(initializer="ones")), "ok",
          want_value=[[], "float32", 1.0, True])
    check("add_variable((3,), 'ones')", with_(lambda s: s.add_variable((3,), "ones")), "ok",
          want_value=[[3], "float32", [1.0, 1.0, 1.0], True])


@clause("keras.layer.protocol", ref="tf221")
def test_layer_tracking_and_build_config(keras):
    """Deleting a weight attribute untracks it; metrics_variables lists a tracked metric's; a build of two named
    shapes records a shapes_dict and build_from_config rebuilds from it; a one-shape build records input_shape."""
    L = keras.layers

    class Two(L.Layer):
        def build(self, input_shape):
            self.a = self.add_weight((1,), name="a")
            self.b = self.add_weight((1,), name="b")

        def call(self, x):
            return x

    layer = Two()
    layer.build((None, 1))
    del layer.a
    got = [v.name for v in layer.weights]
    assert got == ["b"], f"weights after `del layer.a`: expected ['b'], got {got}"
    dense = L.Dense(1)
    dense.m = keras.metrics.Mean()
    dense.build((None, 2))
    got = [v.name for v in dense.metrics_variables]
    assert got == ["total", "count"], f"metrics_variables of a layer tracking a Mean: expected total, count; got {got}"

    class Pair(L.Layer):
        def build(self, a_shape, b_shape):
            self.w = self.add_weight((a_shape[-1], b_shape[-1]))

        def call(self, a, b):
            return a @ self.w + b

    pair = Pair()
    pair(np.ones((1, 2), "float32"), np.ones((1, 3), "float32"))
    config = pair.get_build_config()
    again = Pair()
    again.build_from_config(config)
    got = [config, again.built, list(again.w.shape)]
    want = [{"shapes_dict": {"a_shape": (1, 2), "b_shape": (1, 3)}}, True, [2, 3]]
    assert _plain(got) == _plain(want), f"build config of a two-shape build: expected {want}, got {got}"
    one = L.Dense(2)
    one.build((None, 3))
    config = one.get_build_config()
    again = L.Dense(2)
    again.build_from_config(config)
    got = [config, again.built, list(again.kernel.shape)]
    assert _plain(got) == _plain([{"input_shape": (None, 3)}, True, [3, 2]]), \
        f"build config of Dense built at (None, 3): expected input_shape (None, 3), rebuilt (3, 2); got {got}"


def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


@clause("keras.layer.protocol", ref="tf221")
def test_stateless_call(keras):
    """stateless_call computes with the variables given and leaves the layer's own; it refuses an unbuilt layer and a
    list of another length; return_losses gives the regularization losses of the given values."""
    L = keras.layers
    dense = L.Dense(1, kernel_initializer="ones")
    dense.build((None, 2))
    y, _ = dense.stateless_call([np.full((2, 1), 2.0, "float32"), np.zeros((1,), "float32")], [],
                                np.ones((1, 2), "float32"))
    got = [np.asarray(_np(y)).tolist(), np.asarray(_np(dense.kernel)).tolist()]
    assert got == [[[4.0]], [[1.0], [1.0]]], \
        f"stateless_call with kernel 2s: expected [[4.0]] and the layer's kernel still ones, got {got}"
    check("stateless_call of an unbuilt Dense", lambda: L.Dense(1).stateless_call([], [], np.ones((1, 2), "float32")),
          "ValueError", "To call stateless_call, Dense must be built (i.e. its variables must have been already "
          "created). You can build it by calling it on some data.")

    def wrong_count():
        d = L.Dense(1)
        d.build((None, 2))
        d.stateless_call([np.ones((2, 1), "float32")], [], np.ones((1, 2), "float32"))

    check("stateless_call with one of two trainable variables", wrong_count, "ValueError",
          "Argument `trainable_variables` must be a list of tensors corresponding 1:1 to Dense().trainable_variables. "
          "Received list with length 1, but expected 2 variables.")

    def losses():
        d = L.Dense(1, kernel_regularizer="l2")
        d.build((None, 2))
        _, _, out = d.stateless_call([np.ones((2, 1), "float32"), np.zeros((1,), "float32")], [],
                                     np.ones((1, 2), "float32"), return_losses=True)
        return [len(out), round(float(np.asarray(_np(out[0]))), 5)]

    check("stateless_call(..., return_losses=True) with an l2 kernel regularizer of ones", losses, "ok",
          want_value=[1, 0.02])


@clause("keras.layer.protocol", ref="tf221")
def test_missing_methods_and_inference_errors(keras, tf):
    """A layer without call() or compute_output_shape() says which method it lacks; a symbolic call whose output
    Keras cannot infer raises the error's class wrapped with the layer's name (Keras's Operation.compute_output_spec),
    and an op's shape error there is a ValueError."""
    L = keras.layers

    class NoCall(L.Layer):
        pass

    class NoShape(L.Layer):
        def call(self, x):
            return x

    class Failing(L.Layer):
        def __init__(self, kind):
            super().__init__()
            self.kind = kind

        def call(self, x):
            if self.kind == "value":
                raise ValueError("bad value")
            if self.kind == "key":
                raise KeyError("k")
            return tf.reshape(x, (5, 7))

    check("NoCall()(an array)", lambda: NoCall()(np.ones((1, 2), "float32")), "NotImplementedError",
          "Layer NoCall does not have a `call` method implemented.")
    inferring = "Could not automatically infer the output shape / dtype of '{}' (of type {}). Either the `{}.call()` " \
                "method is incorrect, or you need to implement the `{}.compute_output_spec() / compute_output_shape()` " \
                "method. Error encountered:\n\n"
    layer = NoCall()
    check("NoCall()(keras.Input((2,)))", lambda: layer(keras.Input((2,))), "NotImplementedError",
          inferring.format(layer.name, "NoCall", "NoCall", "NoCall") + "Layer NoCall does not have a `call` method")
    check("NoShape().compute_output_shape((None, 2))", lambda: NoShape().compute_output_shape((None, 2)),
          "NotImplementedError", "Layer NoShape does not have a `compute_output_shape` method implemented. Should "
          "implement `def compute_output_shape(self, input_shape)`.")
    for kind, cls, inner in (("value", "ValueError", "bad value"), ("key", "KeyError", "'k'"),
                             ("reshape", "ValueError", "")):
        layer = Failing(kind)
        want = inferring.format(layer.name, "Failing", "Failing", "Failing") + inner
        if cls == "KeyError":   # (a KeyError's str is its message's repr: compare up to the line break)
            want = want.split("\n")[0]
        check(f"a layer whose call raises ({kind}) called on keras.Input((3,))", lambda: layer(keras.Input((3,))), cls,
              want)


@clause("keras.layer.protocol", ref="tf221")
def test_layer_nodes_and_path(keras):
    """A layer's input before any call is an AttributeError; after a symbolic call, input and output are its
    KerasTensors; a layer's path and its weights' follow the model; a positional non-tensor beside a tensor in a
    nested argument is refused."""
    L = keras.layers
    dense = L.Dense(2)
    check("Dense.input before a call", lambda: dense.input, "AttributeError", "has never been called and thus has no "
          "defined input.")
    dense(keras.Input((3,)))
    got = [[None if d is None else int(d) for d in t.shape] for t in (dense.input, dense.output)]
    assert got == [[None, 3], [None, 2]], f"Dense.input/output after a call on Input((3,)): got {got}"
    named = L.Dense(2, name="dd")
    keras.Sequential([keras.Input((3,)), named], name="seq")
    assert [named.path, named.kernel.path] == ["seq/dd", "seq/dd/kernel"], \
        f"paths in Sequential 'seq': expected seq/dd and seq/dd/kernel, got {named.path}, {named.kernel.path}"

    class First(L.Layer):
        def call(self, xs):
            return xs[0]

    check("First()([keras.Input((2,)), 3])", lambda: First()([keras.Input((2,)), 3]), "ValueError",
          "Only input tensors may be passed as positional arguments. The following argument value should be passed "
          "as a keyword argument: 3")

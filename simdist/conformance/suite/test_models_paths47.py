"""Sequential and functional models on the code paths the suite had not run (a coverage run of the whole suite on
simdist, forty-sixth session: sequential.py 78%, functional.py 88%): Sequential's refusals (a second Input, a layer of
two required arguments or none, a non-layer, a repeated name, building empty or at another shape, `layers = ...`),
its unbuilt attributes, pop and add(rebuild=False), the deferred path of a model that cannot be built from a shape (a
dict input), from_config's checks; the functional constructor's refusals (non-KerasTensors, empty inputs or outputs, a
disconnected graph), calls with a missing, None or optional input and an input of a wrong rank, add_loss, input_spec;
and a functional model whose inputs are intermediate tensors (Keras 3.15's clone_graph_nodes: new Inputs named
``<tensor>CLONE``, the layers shared, the original graph untouched) built, called, trained and configured
(clauses keras.model.call, keras.model.errors).

Every expected class, message fragment and value was observed on TF 2.21 + Keras 3.15 (forty-seventh session,
/work/wt/lead47_logs/probe/models_probe.py and clone_probe.py run beside simdist), except the values the tests compute.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np
from simdist.conformance.suite.outcomes import check

clause = pytest.mark.clause


def _shape(t):
    return [None if d is None else int(d) for d in t.shape]


@clause("keras.model.errors", ref="tf221")
def test_sequential_refusals(keras):
    """Sequential refuses what Keras 3.15 refuses, each with its class and message."""
    L = keras.layers

    class Two(L.Layer):
        def call(self, a, b):
            return a + b

    class NoPositional(L.Layer):
        def call(self, *, x=None):
            return x

    def second_input():
        m = keras.Sequential([keras.Input((3,)), L.Dense(2)])
        m.add(keras.Input((4,)))

    check("Sequential.add(a second Input)", second_input, "ValueError",
          "has already been configured to use input shape (None, 3). You cannot add a different Input layer to it.")
    check("Sequential([Input, a layer of two required arguments])", lambda: keras.Sequential([keras.Input((3,)), Two()]),
          "ValueError", "can only have a single required positional argument, the input tensor. Layer Two has multiple "
          "required positional arguments")
    check("Sequential([Input, a layer of no positional argument])",
          lambda: keras.Sequential([keras.Input((3,)), NoPositional()]), "ValueError",
          "should have a single positional argument, the input tensor. Layer NoPositional has no positional arguments.")
    check("Sequential([Input, a function])", lambda: keras.Sequential([keras.Input((3,)), lambda x: x]), "ValueError",
          "Only instances of `keras.Layer` can be added to a Sequential model.")
    check("Sequential([Dense(name='d'), Dense(name='d')])",
          lambda: keras.Sequential([L.Dense(2, name="d"), L.Dense(2, name="d")]), "ValueError",
          "Name 'd' is already the name of a layer in this model.")
    check("Sequential().build((None, 3))", lambda: keras.Sequential().build((None, 3)), "ValueError",
          "cannot be built because it has no layers. Call `model.add(layer)`.")

    def other_shape():
        m = keras.Sequential([keras.Input((3,)), L.Dense(2)])
        m.build((None, 4))

    check("Sequential([Input((3,)), ...]).build((None, 4))", other_shape, "ValueError",
          "has already been configured to use input shape (None, 3). You cannot build it with input_shape (None, 4)")

    def set_layers():
        keras.Sequential([L.Dense(2)]).layers = []

    check("Sequential.layers = []", set_layers, "AttributeError", "`Sequential.layers` attribute is reserved")
    check("Sequential().pop()", lambda: keras.Sequential().pop(), "IndexError", "list index out of range")
    check("Sequential.from_config({'layers': []})", lambda: keras.Sequential.from_config({"layers": []}), "ValueError",
          "A Sequential model configuration must be a dictionary containing the 'name' and 'layers' keys.")


@clause("keras.model.call", ref="tf221")
def test_sequential_unbuilt_and_rebuilt(keras):
    """An unbuilt Sequential has no inputs, outputs or shapes (AttributeError naming what); once its input is known
    they are the InputLayer's and the last layer's; pop rebuilds without the last layer, add(rebuild=False) leaves
    the model unbuilt (a call then builds at the batch's concrete shape, which the Input refuses; build((None, 3))
    builds it); compute_output_shape of an unbuilt model chains its layers; from_config of a
    built model is built at its build_input_shape."""
    L = keras.layers
    for attr, word in (("inputs", "inputs"), ("outputs", "outputs"), ("input_shape", "input shape"),
                       ("output_shape", "output shape")):
        check(f"unbuilt Sequential.{attr}", lambda a=attr: getattr(keras.Sequential([L.Dense(2)]), a),
              "AttributeError", f"has no defined {word} yet.")
    m = keras.Sequential([keras.Input((3,)), L.Dense(4), L.Dense(2)])
    got = [list(m.input_shape), list(m.output_shape), _shape(m.inputs[0]), _shape(m.outputs[0])]
    assert got == [[None, 3], [None, 2], [None, 3], [None, 2]], \
        f"built Sequential's input_shape, output_shape, inputs, outputs: expected (None, 3) and (None, 2), got {got}"
    popped = m.pop()
    got = [popped.name.startswith("dense"), list(m.output_shape), len(m.layers)]
    assert got == [True, [None, 4], 1], f"after pop(): expected the Dense popped, output (None, 4), 1 layer; got {got}"
    m.add(L.Dense(5), rebuild=False)
    assert m.built is False, f"add(rebuild=False): expected an unbuilt model, got built={m.built}"
    # (Keras 3.15 then builds at the call's concrete shape, which its Input's (None, 3) refuses: observed on TF 2.21)
    check("call after add(rebuild=False)", lambda: m(np.ones((2, 3), "float32")), "ValueError",
          "has already been configured to use input shape (None, 3). You cannot build it with input_shape (2, 3)")
    m.build((None, 3))
    assert list(m.output_shape) == [None, 5], f"build((None, 3)) after add(rebuild=False): expected output (None, 5), " \
        f"got {m.output_shape}"
    shape = keras.Sequential([L.Dense(4), L.Dense(2)]).compute_output_shape((5, 3))
    assert list(shape) == [5, 2], f"unbuilt compute_output_shape((5, 3)): expected (5, 2), got {shape}"
    src = keras.Sequential([keras.Input((3,)), L.Dense(2, name="dd")], name="s")
    config = src.get_config()
    copy = keras.Sequential.from_config(config)
    got = [list(config.get("build_input_shape")), list(copy.output_shape), [x.name for x in copy.layers], copy.name]
    assert got == [[None, 3], [None, 2], ["dd"], "s"], f"from_config(get_config()): expected built at (None, 3), got {got}"
    emb = keras.Sequential([keras.Input((3,), dtype="int32"), L.Embedding(5, 2)])
    assert emb.input_dtype == "int32", f"Sequential input_dtype: expected the Input's int32, got {emb.input_dtype}"


@clause("keras.model.call", ref="tf221")
def test_sequential_of_a_dict_input_runs_layer_by_layer(keras):
    """A Sequential whose first layer takes a dict cannot be built from a shape: called, it runs its layers one by one
    on the value given (Keras 3.15's Sequential.call without a functional graph) and is then built."""
    L = keras.layers
    m = keras.Sequential([L.Lambda(lambda d: d["a"] * 2.0), L.Dense(2, kernel_initializer="ones")])
    y = m({"a": np.ones((2, 3), "float32")})
    got = np.asarray(_np(y)).tolist()
    assert got == [[6.0, 6.0], [6.0, 6.0]] and m.built, f"Sequential of a dict input: expected 6.0 everywhere, built; " \
        f"got {got}, built={m.built}"


@clause("keras.model.errors", ref="tf221")
def test_functional_constructor_and_call_refusals(keras):
    """keras.Model(inputs, outputs) refuses non-KerasTensors, empty inputs or outputs and outputs not computed from
    the inputs; a call refuses too few inputs, a dict without an input's name, None for an input that is not optional
    and an input whose rank differs by more than a trailing axis of 1 (the path of a lone input is ''); add_loss is
    NotImplementedError."""
    L = keras.layers
    check("keras.Model(ndarray, KerasTensor)", lambda: keras.Model(np.ones((2, 3)), keras.Input((3,))), "ValueError",
          "All `inputs` values must be KerasTensors.")

    def outputs_array():
        keras.Model(keras.Input((3,)), np.ones(3))

    check("keras.Model(KerasTensor, ndarray)", outputs_array, "ValueError", "All `outputs` values must be KerasTensors.")
    check("keras.Model([], KerasTensor)", lambda: keras.Model([], keras.Input((3,))), "ValueError",
          "`inputs` argument cannot be empty.")
    check("keras.Model(KerasTensor, [])", lambda: keras.Model(keras.Input((3,)), []), "ValueError",
          "`outputs` argument cannot be empty.")

    def disconnected():
        a, b = keras.Input((3,)), keras.Input((3,))
        keras.Model(a, L.Add()([a, b]))

    check("keras.Model(a, a + b)", disconnected, "ValueError", "Output with path `` is not connected to `inputs`")

    def two():
        a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
        return keras.Model([a, b], L.Add()([a, b]))

    one = np.ones((1, 3), "float32")
    check("a two-input model called with [x]", lambda: two()([one]), "ValueError",
          "expects 2 named input(s) with keys ['a', 'b'], but it received 1 input tensors.")
    check("a two-input model called with {'a': x}", lambda: two()({"a": one}), "ValueError",
          "Missing data for input \"b\". You passed a data dictionary with keys ['a']. Expected the following keys: "
          "['a', 'b']")
    check("a two-input model called with [x, None]", lambda: two()([one, None]), "ValueError",
          "The input 'b' is not optional, but None was passed.")
    check("a two-input model called with {'a': x, 'b': x}",
          lambda: np.asarray(_np(two()({"a": one, "b": one}))).tolist(), "ok", want_value=[[2.0, 2.0, 2.0]])

    def optional_none():
        a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b", optional=True)
        m = keras.Model([a, b], L.Lambda(lambda t: t[0] if t[1] is None else t[0] + t[1])([a, b]))
        return np.asarray(_np(m([one, None]))).tolist()

    check("an optional input given None", optional_none, "ok", want_value=[[1.0, 1.0, 1.0]])

    def rank(in_shape, x_shape):
        a = keras.Input(in_shape)
        m = keras.Model(a, L.Flatten()(a))
        return _shape(m(np.ones(x_shape, "float32")))

    check("Input((3,)) given (2, 3, 1)", lambda: rank((3,), (2, 3, 1)), "ok", want_value=[2, 3])
    check("Input((3, 4)) given (2, 3)", lambda: rank((3, 4), (2, 3)), "ValueError",
          "and path ''. Expected shape (None, 3, 4), but input has incompatible shape (2, 3)")
    check("Input((3,)) given (2, 3, 4, 5)", lambda: rank((3,), (2, 3, 4, 5)), "ValueError",
          "Expected shape (None, 3), but input has incompatible shape (2, 3, 4, 5)")

    def list_rank():
        a = keras.Input((3, 4))
        return keras.Model([a], L.Flatten()(a))([np.ones((2, 3), "float32")])

    check("[Input((3, 4))] given [(2, 3)]", list_rank, "ValueError", "and path '0'. Expected shape (None, 3, 4)")

    def add_loss():
        a = keras.Input((3,))
        keras.Model(a, L.Dense(2)(a)).add_loss(1.0)

    check("Functional.add_loss(1.0)", add_loss, "NotImplementedError")

    def specs():
        a, b = keras.Input((3,), name="x"), keras.Input((2,), name="y")
        single = keras.Model(a, L.Dense(2)(a)).input_spec
        named = keras.Model({"x": a, "y": b}, L.Concatenate()([a, b])).input_spec
        return [type(single).__name__, type(named).__name__, [getattr(s, "name", None) for s in named]]

    check("input_spec of a one-input and a dict-input model", specs, "ok", want_value=["list", "list", ["x", "y"]])


def _chain(keras):
    keras.utils.set_random_seed(1)
    L = keras.layers
    a = keras.Input((3,), name="a")
    h = L.Dense(4, name="d1")(a)
    h2 = L.Dense(4, activation="relu", name="d2")(h)
    return a, h, h2, L.Dense(1, name="d3")(h2)


@clause("keras.model.call", ref="tf221")
def test_functional_model_of_intermediate_inputs(keras):
    """keras.Model(h, y) with h an intermediate tensor (Keras 3.15's clone_graph_nodes): its input is a new Input
    named after h with 'CLONE', of h's shape; its layers are that input and the layers after h, shared with the
    original graph, which is left as it was; it computes y from a value fed at h, mixes with a keras.Input, takes a
    dict, trains, and its config names the cloned input."""
    L = keras.layers
    a, h, h2, y = _chain(keras)
    m = keras.Model(h, y)
    names = [x.name for x in m.layers]
    assert len(names) == 3 and names[0] == f"{h.name}CLONE" and names[1:] == ["d2", "d3"], \
        f"layers of keras.Model(h, y): expected ['{h.name}CLONE', 'd2', 'd3'], got {names}"
    assert [_shape(x) for x in m.inputs] == [[None, 4]] and m.inputs[0].name == f"{h.name}CLONE", \
        f"inputs: expected one (None, 4) tensor named {h.name}CLONE, got {[(x.name, _shape(x)) for x in m.inputs]}"
    assert (len(m.weights), m.count_params()) == (4, 25), \
        f"weights, params: expected 4 and 25 (d2 and d3), got {len(m.weights)} and {m.count_params()}"
    x = np.arange(8, dtype="float32").reshape(2, 4) / 7
    d2, d3 = m.get_layer("d2"), m.get_layer("d3")
    want = np.maximum(x @ _np(d2.kernel) + _np(d2.bias), 0) @ _np(d3.kernel) + _np(d3.bias)
    got = np.asarray(_np(m(x)))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6,
                               err_msg="keras.Model(h, y)(x): expected relu(x W2 + b2) W3 + b3 from the shared layers")
    full = keras.Model(a, y)
    assert [x.name for x in full.layers] == ["a", "d1", "d2", "d3"], \
        f"the original graph after cloning: expected layers a, d1, d2, d3, got {[x.name for x in full.layers]}"
    assert len(a._keras_history[0]._inbound_nodes) == 1, "cloning added a node to the original Input layer"
    ones = np.ones((1, 4), "float32")
    b = keras.Input((4,), name="b")
    mixed = keras.Model([h, b], L.Dense(1, name="o")(L.Add(name="add")([h2, b])))
    got = [x.name for x in mixed.layers]
    assert got == [f"{h.name}CLONE", "d2", "b", "add", "o"], \
        f"keras.Model([h, b], ...).layers: expected [{h.name}CLONE, d2, b, add, o], got {got}"
    assert _shape(mixed([ones, ones])) == [1, 1], "a model of an intermediate and a keras.Input did not compute"
    by_name = keras.Model({"feat": h}, y)
    np.testing.assert_allclose(np.asarray(_np(by_name({"feat": ones}))), np.asarray(_np(m(ones))), rtol=1e-6,
                               err_msg="keras.Model({'feat': h}, y) fed a dict: expected keras.Model(h, y)'s value")
    config = m.get_config()
    assert config["input_layers"] == [f"{h.name}CLONE", 0, 0] and config["output_layers"] == ["d3", 0, 0], \
        f"config input/output layers: expected [{h.name}CLONE, 0, 0] and [d3, 0, 0], got " \
        f"{config['input_layers']} and {config['output_layers']}"


@clause("keras.model.call", ref="tf221")
def test_functional_model_of_intermediate_inputs_trains(keras):
    """fit of keras.Model(h, y) (SGD, MSE, two epochs of two batches, seed 1): the losses TF 2.21 gave."""
    _, h, _, y = _chain(keras)
    m = keras.Model(h, y)
    m.compile(optimizer="sgd", loss="mse")
    x = np.arange(16, dtype="float32").reshape(4, 4) / 15
    hist = m.fit(x, np.ones((4, 1), "float32"), epochs=2, batch_size=2, verbose=0, shuffle=False)
    got = [round(float(v), 4) for v in hist.history["loss"]]
    assert got == [2.8392, 2.2046], f"losses of fit(keras.Model(h, y)): expected [2.8392, 2.2046] (TF 2.21), got {got}"

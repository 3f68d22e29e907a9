"""Model bookkeeping the suite never executed before the fourteenth session (docs/conformance.md,
"Fourteenth session: suite coverage of Keras models, trainers, optimizers"): Sequential's add/pop/
build/config, functional models' layers, shapes, specs and config round trip, subclassed models'
layers and config, and summary's functional table, show_trainable and layer_range (TF 2.21 +
Keras 3.15).

Expected values come from Keras 3.15's source (models/sequential.py, functional.py, model.py,
utils/summary_utils.py) and are computed here with NumPy or plain Python, never with the
backend's implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises

clause = pytest.mark.clause


def _f32(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def _shapes(weights):
    return [tuple(int(d) for d in np.asarray(w).shape) for w in weights]


# -- Sequential: add, pop, build ------------------------------------------------------------------------------
@clause("keras.model.weights-order", ref="tf221")
def test_cov13_sequential_pop_add_and_deferred_build(keras, tf, onednn_float32):
    """A Sequential without an Input is unbuilt (no weights, no input_shape) until build(shape);
    build puts an InputLayer first (not in `layers`); pop removes the last layer and rebuilds;
    compute_output_shape follows the layers; assigning `layers` is refused."""
    model = keras.Sequential([keras.layers.Dense(4, name="d1"), keras.layers.Dense(2, name="d2")])
    call = "Sequential([Dense(4), Dense(2)]) without Input"
    assert_equal(bool(model.built), False, call=call, what="built")
    assert_equal(len(model.weights), 0, call=call, what="len(weights)")
    with raises(AttributeError, call=call + ": model.input_shape"):
        _ = model.input_shape
    model.build((None, 3))
    call += ", build((None, 3))"
    assert_equal(bool(model.built), True, call=call, what="built")
    assert_equal([l.name for l in model.layers], ["d1", "d2"], call=call, what="layer names")
    assert_equal(_shapes(model.get_weights()), [(3, 4), (4,), (4, 2), (2,)], call=call, what="weight shapes")
    assert_equal(tuple(model.input_shape), (None, 3), call=call, what="input_shape")
    assert_equal(tuple(model.output_shape), (None, 2), call=call, what="output_shape")
    assert_equal(tuple(model.compute_output_shape((None, 3))), (None, 2), call=call, what="compute_output_shape")
    popped = model.pop()
    assert_equal(popped.name, "d2", call=call + ", pop()", what="popped layer")
    assert_equal([l.name for l in model.layers], ["d1"], call=call + ", pop()", what="layer names")
    assert_equal(tuple(model.output_shape), (None, 4), call=call + ", pop()", what="output_shape")
    assert_equal(len(model.trainable_weights), 2, call=call + ", pop()", what="len(trainable_weights)")
    model.add(keras.layers.Dense(5, name="d3"))
    assert_equal(tuple(model.output_shape), (None, 5), call=call + ", pop(), add(Dense(5))", what="output_shape")
    x = _f32(2, 3, seed=1)
    w = model.get_weights()
    expected = (x @ w[0] + w[1]) @ w[2] + w[3]
    assert_close(np.asarray(model(x)), expected, call=call + ", pop(), add(Dense(5))", what="model(x)")
    with raises(AttributeError, call="model.layers = []"):
        model.layers = []


@clause("keras.model.errors", ref="tf221")
def test_cov13_sequential_build_and_add_errors(keras):
    """Keras 3.15: building a Sequential with no layers, building one that has an Input with
    another shape, and get_layer with both or neither of name and index raise ValueError."""
    with raises(ValueError, match="no layers", call="Sequential().build((None, 2))"):
        keras.Sequential().build((None, 2))
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    with raises(ValueError, match="input shape", call="Sequential([Input((3,)), Dense]).build((None, 4))"):
        model.build((None, 4))
    with raises(ValueError, match="Provide only a layer name or a layer index", call="get_layer(name, index)"):
        model.get_layer(name=model.layers[0].name, index=0)
    with raises(ValueError, match="Provide either a layer name or layer index", call="get_layer()"):
        model.get_layer()


@clause("keras.model.config", ref="tf221")
def test_cov13_sequential_config_round_trip(keras):
    """Sequential.get_config: name, the layers (InputLayer first when there is one) and
    build_input_shape only once built; from_config makes the same architecture, built from
    build_input_shape; a config that is not a dict with 'name' is a ValueError."""
    unbuilt = keras.Sequential([keras.layers.Dense(3)], name="unbuilt_seq")
    cfg = unbuilt.get_config()
    call = "Sequential([Dense(3)]).get_config() (unbuilt)"
    assert_equal(cfg["name"], "unbuilt_seq", call=call, what="config['name']")
    assert_equal("build_input_shape" in cfg, False, call=call, what="'build_input_shape' in config")
    assert_equal([l["class_name"] for l in cfg["layers"]], ["Dense"], call=call, what="layer class names")
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)],
                             name="seq_cfg")
    cfg = model.get_config()
    call = "Sequential([Input((4,)), Dense(3, relu), Dense(1)]).get_config()"
    assert_equal([l["class_name"] for l in cfg["layers"]], ["InputLayer", "Dense", "Dense"], call=call,
                 what="layer class names")
    assert_equal(tuple(cfg["build_input_shape"]), (None, 4), call=call, what="build_input_shape")
    clone = keras.Sequential.from_config(cfg)
    call = "Sequential.from_config(get_config())"
    assert_equal(bool(clone.built), True, call=call, what="built")
    assert_equal(clone.name, "seq_cfg", call=call, what="name")
    assert_equal(_shapes(clone.get_weights()), [(4, 3), (3,), (3, 1), (1,)], call=call, what="weight shapes")
    assert_equal(clone.layers[0].get_config()["activation"], "relu", call=call, what="first Dense activation")
    clone.set_weights(model.get_weights())
    x = _f32(5, 4, seed=2)
    assert_close(np.asarray(clone(x)), np.asarray(model(x)), call=call, what="clone(x) vs model(x)")
    unbuilt_clone = keras.Sequential.from_config(unbuilt.get_config())
    assert_equal(bool(unbuilt_clone.built), False, call="Sequential.from_config(unbuilt config)", what="built")
    with raises(ValueError, match="must be a dictionary", call="Sequential.from_config({'layers': []})"):
        keras.Sequential.from_config({"layers": []})


# -- Functional models ---------------------------------------------------------------------------------------
def _two_input_model(keras):
    a = keras.Input((3,), name="in_a")
    b = keras.Input((2,), name="in_b")
    h = keras.layers.Dense(4, name="ha")(a)
    c = keras.layers.Concatenate(name="cat")([h, b])
    out1 = keras.layers.Dense(1, name="out1")(c)
    out2 = keras.layers.Dense(2, name="out2")(h)
    return keras.Model([a, b], [out1, out2], name="two_in")


@clause("keras.model.weights-order", ref="tf221")
def test_cov13_functional_layers_shapes_and_specs(keras):
    """A functional model's `layers` holds its InputLayers; input_shape/output_shape are lists for
    several inputs/outputs and a single shape for one; input_spec has one spec per input with the
    batch dimension free; compute_output_shape runs the graph on shapes."""
    model = _two_input_model(keras)
    call = "Model([in_a(3), in_b(2)], [out1(1), out2(2)])"
    names = [l.name for l in model.layers]
    assert_equal(sorted(names), sorted(["in_a", "in_b", "ha", "cat", "out1", "out2"]), call=call, what="layer names")
    assert_true(names.index("in_a") < names.index("ha") < names.index("cat") < names.index("out1"),
                f"layers are in graph order (an input before the layers it feeds), got {names}", call=call)
    assert_equal([tuple(s) for s in model.input_shape], [(None, 3), (None, 2)], call=call, what="input_shape")
    assert_equal([tuple(s) for s in model.output_shape], [(None, 1), (None, 2)], call=call, what="output_shape")
    specs = model.input_spec
    assert_equal(len(specs), 2, call=call, what="len(input_spec)")
    assert_equal([tuple(s.shape) for s in specs], [(None, 3), (None, 2)], call=call, what="input_spec shapes")
    out_shapes = model.compute_output_shape([(7, 3), (7, 2)])
    assert_equal([tuple(s) for s in out_shapes], [(7, 1), (7, 2)], call=call + ".compute_output_shape([(7,3),(7,2)])",
                 what="output shapes")
    one = keras.Model(model.inputs[0], model.get_layer("ha").output)
    assert_equal(tuple(one.input_shape), (None, 3), call="Model(in_a, ha.output)", what="input_shape")
    assert_equal(tuple(one.output_shape), (None, 4), call="Model(in_a, ha.output)", what="output_shape")
    with raises(AttributeError, call="functional model.layers = []"):
        model.layers = []


@clause("keras.model.call", ref="tf221")
def test_cov13_functional_inputs_as_dict_and_list_give_the_same_outputs(keras, tf, onednn_float32):
    """A model built on a list of Inputs takes its inputs as that list or as a dict keyed by the
    Inputs' names; its outputs are the graph's (checked against NumPy)."""
    model = _two_input_model(keras)
    xa, xb = _f32(3, 3, seed=3), _f32(3, 2, seed=4)
    wa, ba = model.get_layer("ha").get_weights()
    w1, b1 = model.get_layer("out1").get_weights()
    w2, b2 = model.get_layer("out2").get_weights()
    h = xa @ wa + ba
    expected1 = np.concatenate([h, xb], axis=1) @ w1 + b1
    expected2 = h @ w2 + b2
    for what, inputs in [("[xa, xb]", [xa, xb]), ("{'in_a': xa, 'in_b': xb}", {"in_a": xa, "in_b": xb})]:
        o1, o2 = model(inputs)
        assert_close(np.asarray(o1), expected1, call=f"model({what})", what="out1")
        assert_close(np.asarray(o2), expected2, call=f"model({what})", what="out2")


@clause("keras.model.config", ref="tf221")
def test_cov13_functional_config_round_trip(keras):
    """Functional get_config names the input and output layers; Model.from_config (and
    keras.Model.from_config of it) rebuilds the graph: same layer names, weight shapes and, with
    the weights copied, the same outputs."""
    model = _two_input_model(keras)
    cfg = model.get_config()
    call = "two-input functional get_config()"
    assert_equal([r[0] for r in cfg["input_layers"]], ["in_a", "in_b"], call=call, what="input_layers names")
    assert_equal([r[0] for r in cfg["output_layers"]], ["out1", "out2"], call=call, what="output_layers names")
    assert_equal(sorted(l["name"] for l in cfg["layers"]), sorted(["in_a", "in_b", "ha", "cat", "out1", "out2"]),
                 call=call, what="config layer names")
    clone = keras.Model.from_config(cfg)
    call = "keras.Model.from_config(functional config)"
    assert_equal(clone.name, "two_in", call=call, what="name")
    assert_equal(sorted(l.name for l in clone.layers), sorted(l.name for l in model.layers), call=call,
                 what="layer names")
    assert_equal(_shapes(clone.get_weights()), _shapes(model.get_weights()), call=call, what="weight shapes")
    clone.set_weights(model.get_weights())
    xa, xb = _f32(2, 3, seed=5), _f32(2, 2, seed=6)
    for got, want, what in zip(clone([xa, xb]), model([xa, xb]), ("out1", "out2")):
        assert_close(np.asarray(got), np.asarray(want), call=call, what=what)


# -- Subclassed models ----------------------------------------------------------------------------------------
@clause("keras.model.config", ref="tf221")
def test_cov13_subclassed_model_layers_config_and_missing_call(keras):
    """A subclassed model's `layers` lists the layers assigned to it in assignment order; its
    get_config is the base config (name, trainable, dtype); a Model subclass without `call`
    raises NotImplementedError when called."""
    class Two(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.second = keras.layers.Dense(2, name="second")
            self.first = keras.layers.Dense(3, name="first")

        def call(self, x):
            return self.second(self.first(x))

    model = Two(name="two")
    model(_f32(1, 4, seed=7))
    call = "subclassed Model with self.second, self.first"
    assert_equal([l.name for l in model.layers], ["second", "first"], call=call, what="layer names")
    assert_equal(model.get_layer("first").units, 3, call=call, what="get_layer('first').units")
    cfg = model.get_config()
    assert_equal(cfg["name"], "two", call=call, what="get_config()['name']")
    assert_equal(cfg["trainable"], True, call=call, what="get_config()['trainable']")
    assert_equal(_shapes(model.weights), [(3, 2), (2,), (4, 3), (3,)], call=call, what="weight shapes (layer order)")

    class NoCall(keras.Model):
        pass

    with raises(NotImplementedError, call="calling a Model subclass without call()"):
        NoCall()(_f32(1, 2))


# -- summary ---------------------------------------------------------------------------------------------------
def _summary_text(model, **kwargs):
    lines = []
    model.summary(print_fn=lambda s, **kw: lines.append(s), **kwargs)
    return "\n".join(lines)


@clause("keras.model.summary", ref="tf221")
def test_cov13_summary_of_a_branching_functional_model(keras, monkeypatch):
    """A functional model whose graph branches gets the "Connected to" column, each layer's
    inbound tensors as `name[node][tensor]`; the totals count every weight (computed here from
    the layer sizes); show_trainable adds a Trainable column, centred as rich centres (cell
    padding 1, then the odd space on the right), with N for a frozen layer and - for a layer
    without weights."""
    monkeypatch.setenv("COLUMNS", "200")     # rich's console (and simdist's) as wide as the table
    model = _two_input_model(keras)
    model.get_layer("out2").trainable = False
    text = _summary_text(model, line_length=150, show_trainable=True)
    call = "summary(line_length=150, show_trainable=True) of a two-input functional model, COLUMNS=200"
    assert_true("Connected to" in text, f"the header has 'Connected to': {text!r}", call=call)
    assert_true("Trainable" in text, f"the header has 'Trainable': {text!r}", call=call)
    assert_true("in_a[0][0]" in text and "ha[0][0], in_b[0][0]" in text,
                f"the connections name in_a[0][0] and 'ha[0][0], in_b[0][0]': {text!r}", call=call)
    total = 3 * 4 + 4 + (4 + 2) * 1 + 1 + 4 * 2 + 2
    frozen = 4 * 2 + 2
    assert_true(f"Total params: {total:,}" in text, f"'Total params: {total:,}' in {text!r}", call=call)
    assert_true(f"Trainable params: {total - frozen:,}" in text, f"'Trainable params: {total - frozen:,}'", call=call)
    assert_true(f"Non-trainable params: {frozen:,}" in text, f"'Non-trainable params: {frozen:,}'", call=call)
    for name, flag in [("out2 (Dense)", "N"), ("out1 (Dense)", "Y"), ("cat (Concatenate)", "-")]:
        rows = [l for l in text.splitlines() if name in l]
        assert_equal(len(rows), 1, call=call, what=f"rows naming {name}")
        cell = rows[0].split("│")[-2]
        inner = len(cell) - 2
        expected = " " + " " * ((inner - 1) // 2) + flag
        expected += " " * (len(cell) - len(expected))
        assert_equal(cell, expected, call=call, what=f"Trainable cell of {name}")


@clause("keras.model.summary", ref="tf221")
def test_cov13_summary_wider_than_the_console_is_cropped(keras, monkeypatch):
    """rich prints the table on a console as wide as the terminal (COLUMNS): a line_length above
    it crops every table line at the console width (the same lines, cut)."""
    model = _two_input_model(keras)
    monkeypatch.setenv("COLUMNS", "200")
    wide = _summary_text(model, line_length=120).splitlines()
    monkeypatch.setenv("COLUMNS", "60")
    narrow = _summary_text(model, line_length=120).splitlines()
    call = "summary(line_length=120) with COLUMNS=60 vs COLUMNS=200"
    assert_equal(len(narrow), len(wide), call=call, what="number of lines")
    assert_true(max(len(l) for l in wide) == 120, f"the wide table is 120 wide: {wide!r}", call=call)
    for i, (n, w) in enumerate(zip(narrow, wide)):
        if w.startswith(("┏", "┃", "┡", "│", "├", "└")):
            assert_equal(n, w[:60], call=call, what=f"table line {i}")
        else:
            assert_equal(n, w, call=call, what=f"line {i}")


@clause("keras.model.summary", ref="tf221")
def test_cov13_summary_layer_range_and_its_errors(keras):
    """layer_range=[first, last] (regexes over the names) prints the layers from the first match
    to the last only; a range not of length 2 or of non-strings is a ValueError."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, name="aa"), keras.layers.Dense(3, name="bb"),
                              keras.layers.Dense(1, name="cc")])
    text = _summary_text(model, line_length=100, layer_range=["bb", "cc"])
    call = "Sequential summary(layer_range=['bb', 'cc'])"
    assert_true("bb (Dense)" in text and "cc (Dense)" in text, f"rows for bb and cc in {text!r}", call=call)
    assert_true("aa (Dense)" not in text, f"no row for aa in {text!r}", call=call)
    with raises(ValueError, match="length 2", call="summary(layer_range=['aa'])"):
        _summary_text(model, layer_range=["aa"])
    with raises(ValueError, match="string", call="summary(layer_range=[0, 1])"):
        _summary_text(model, layer_range=[0, 1])


@clause("keras.model.summary", ref="tf221")
def test_cov13_summary_expand_nested(keras):
    """expand_nested=True adds a row for each layer of a nested model, under it."""
    inner = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, name="inner_dense")], name="inner")
    model = keras.Sequential([keras.Input((2,)), inner, keras.layers.Dense(1, name="head")])
    flat = _summary_text(model, line_length=100)
    nested = _summary_text(model, line_length=100, expand_nested=True)
    call = "summary of Sequential([inner Sequential, Dense])"
    assert_true("inner_dense" not in flat, f"without expand_nested no inner_dense row: {flat!r}", call=call)
    assert_true("inner_dense (Dense)" in nested, f"with expand_nested an inner_dense row: {nested!r}", call=call)
    assert_true(nested.index("inner (Sequential)") < nested.index("inner_dense (Dense)") < nested.index("head (Dense)"),
                f"the nested row sits under its model: {nested!r}", call=call)

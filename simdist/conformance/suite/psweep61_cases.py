"""The Keras model plumbing sweep's programs (sixty-first session, psweep61; test_psweep61.py): what a user reads off
a Keras model, crossed by rule — model.summary()'s text (line_length, positions, show_trainable, expand_nested,
layer_range) of Sequential, functional, nested, subclassed and unbuilt models and of layers called on several
shapes; Keras masks (Embedding(mask_zero), Masking, their propagation through Dense/Dropout/Add/Concatenate/LSTM/
GRU/GlobalAveragePooling1D/Attention, compute_mask called directly, an explicit mask= beside a propagated one,
_keras_mask after ops, masked losses and metrics in fit); the order of model.layers, weights, trainable_weights,
non_trainable_weights, variables and get_weights/set_weights of nested, shared and frozen layers and of subclassed
models' attributes, lists and dicts; dtype policies (the global policy fresh, cached, set before and after building;
a layer's dtype= as a string, a DTypePolicy, a policy's name; compute vs variable dtypes; autocast of inputs; Input
and Sequential-without-Input dtypes; dtype in get_config); get_config/from_config and clone_model round trips;
get_layer by name and index; inputs and outputs' specs.

Every program starts from a fresh global state (keras.backend.clear_session() and floatx float32: no global policy
set, as in a fresh interpreter) and leaves it so. Layer and model names are explicit; weights come from seeded or
constant initializers. Values are data movements, masks, names, shapes and dtypes (host-independent), but for the
programs prefixed `p-host-` (forward passes of Dense/LSTM/GRU/attention and fit, whose float32 products and sums
oneDNN orders): those are listed host-dependent. TF 2.21's answers are recorded by `python -m
simdist.conformance.suite.test_psweep61 --record` on this session's AVX-512 Xeon with oneDNN on."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, plain,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "psweep61_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("p-host-",), recording_host=avx512_with_onednn,
                       recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys left out of the
#: comparison (the evidence in docs/conformance.md, "Sixty-first session ... psweep61").
OPEN: dict[str, tuple[str, ...]] = {
    # (a) a per-sample weight of shape (2,) beside a masked (2, 5) loss: TF 2.21 raises the Mul kernel's
    # InvalidArgumentError ("Incompatible shapes: [2] vs. [2,5]", compile_loss/mse/mul); simdist a ValueError at
    # the same product (the error class of a broadcast inside fit's step)
    "p-host-masked-values": ("fit mse weighted",),
    # (b) Keras's Layer.__call__ puts the populated `mask` (None too) into the call's kwargs before the symbolic
    # call makes its Node, so a functional config's inbound_nodes list `"kwargs": {"mask": None}` for a nested
    # Sequential (and the mask's KerasTensor after a masking layer); simdist's Node keeps the caller's kwargs
    "p-configs": ("fun config",),
}


def failure(e: BaseException) -> str:
    return f"raised {type(e).__name__}"


def attempt(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return failure(e)


def fresh(keras: Any) -> None:
    """A fresh interpreter's Keras state: no global policy set yet, floatx float32."""
    keras.backend.clear_session()
    keras.config.set_floatx("float32")
    keras.backend.clear_session()


def run_cases(name: str, cases: dict[str, Callable[[], Any]], keras: Any, open_: dict[str, tuple[str, ...]] | None = None,
              reset_policy: bool = False) -> dict[str, Any]:
    """Each case from a fresh state; the keys `open_` (default this module's OPEN) lists for `name` left out;
    `reset_policy`: the global dtype policy set back to float32 after each case too (psweep61b)."""
    out: dict[str, Any] = {}
    skip = (OPEN if open_ is None else open_).get(name, ())
    for key, fn in cases.items():
        fresh(keras)
        try:
            if key not in skip:
                out[key] = attempt(fn)
        finally:
            if reset_policy:
                keras.mixed_precision.set_global_policy("float32")
            keras.config.set_floatx("float32")
            fresh(keras)
    return out


def lines(model: Any, **kw: Any) -> Any:
    got: list[str] = []
    model.summary(print_fn=lambda line, **k: got.append(line), **kw)
    return [ln.rstrip() for ln in "\n".join(got).splitlines()]


def mask_of(t: Any) -> Any:
    m = getattr(t, "_keras_mask", None)
    return None if m is None else [str(getattr(m.dtype, "name", m.dtype)), list(m.shape), bits(m)]


def paths(ws: Any) -> list[Any]:
    return [[w.path, list(w.shape), str(w.dtype)] for w in ws]


def _ints(tf: Any) -> Any:
    return np.array([[1, 2, 0, 0, 3], [4, 0, 5, 6, 0]], "int32")


# -- summaries ---------------------------------------------------------------------------------------------------------
def _summary_models(keras: Any) -> dict[str, Callable[[], Any]]:
    L = keras.layers

    def seq() -> Any:
        m = keras.Sequential([keras.Input((4,), name="x"), L.Dense(3, name="d1"), L.Dropout(0.5, name="drop"),
                              L.Dense(2, name="d2")], name="seq")
        m.get_layer("d1").trainable = False
        return m

    def seq_unbuilt() -> Any:
        return keras.Sequential([L.Dense(3, name="d1"), L.Dense(2, name="d2")], name="seq_unbuilt")

    def seq_built_by_build() -> Any:
        m = keras.Sequential([L.Dense(3, name="d1"), L.BatchNormalization(name="bn"), L.Dense(2, name="d2")],
                             name="seq_b")
        m.build((None, 5))
        return m

    def functional() -> Any:
        a, b = keras.Input((3,), name="a"), keras.Input((2, 3), name="b")
        sh = L.Dense(4, name="shared")
        fa, fb = sh(a), L.Flatten(name="flat")(sh(b))
        y = L.Concatenate(name="cat")([fa, fb])
        return keras.Model({"a": a, "b": b}, [L.Dense(1, name="out1")(y), L.Dense(2, name="out2")(y)], name="fun")

    def nested() -> Any:
        inner = keras.Sequential([keras.Input((3,), name="in_i"), L.Dense(3, name="i1"),
                                  L.BatchNormalization(name="ibn")], name="inner")
        inner2_in = keras.Input((3,), name="in_f")
        inner2 = keras.Model(inner2_in, L.Dense(2, name="f1")(inner(inner2_in)), name="middle")
        x = keras.Input((3,), name="x")
        inner.trainable = False
        return keras.Model(x, L.Dense(1, name="head")(inner2(x)), name="outer")

    class Sub(keras.Model):
        def __init__(self) -> None:
            super().__init__(name="sub")
            self.d1 = L.Dense(3, name="s1")
            self.blocks = [L.Dense(2, name="s2"), L.Dense(2, name="s3")]

        def call(self, x: Any) -> Any:
            return self.blocks[1](self.blocks[0](self.d1(x)))

    def sub_called() -> Any:
        m = Sub()
        m(np.ones((2, 4), "float32"))
        return m

    def sub_built() -> Any:
        m = Sub()
        m.build((None, 4))
        return m

    return {"seq": seq, "seq-unbuilt": seq_unbuilt, "seq-build": seq_built_by_build, "functional": functional,
            "nested": nested, "sub-called": sub_called, "sub-unbuilt": Sub, "sub-built": sub_built}


_SUMMARY_OPTIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "line60": {"line_length": 60},
    "line130": {"line_length": 130},
    "positions": {"positions": [0.25, 0.5, 0.75, 1.0]},
    "positions-abs": {"line_length": 90, "positions": [30, 60, 70, 90]},
    "trainable": {"show_trainable": True},
    "trainable99": {"show_trainable": True, "line_length": 99},
    "trainable101": {"show_trainable": True, "line_length": 101},
    "nested": {"expand_nested": True},
    "nested-trainable": {"expand_nested": True, "show_trainable": True, "line_length": 110},
}


def _summaries(tf: Any, mk: Any) -> Any:
    """model.summary(print_fn=...) of eight models (Sequential with and without Input, built by build(); a
    functional model with dict inputs, a shared layer called on two ranks and two outputs; a model nested two deep,
    frozen inside; a subclassed model called, built, unbuilt) under eight option sets (default, line_length 60 and
    130, fractional and absolute positions, show_trainable, expand_nested, both): the text's lines."""
    keras = tf.keras
    fresh(keras)
    models = _summary_models(keras)
    cases: dict[str, Callable[[], Any]] = {}
    for mname, make in models.items():
        for oname, kw in _SUMMARY_OPTIONS.items():
            if mname in ("seq-build", "sub-built", "seq-unbuilt") and oname not in ("default", "trainable", "nested"):
                continue
            cases[f"{mname} {oname}"] = lambda make=make, kw=kw: lines(make(), **kw)
    return run_cases("p-summaries", cases, keras)


REF.add("p-summaries", _summaries)


def _summary_layer_range(tf: Any, mk: Any) -> Any:
    """summary's layer_range (names of the first and last layer, a wrong name, a reversed range) on a functional
    model, and a layer called on three shapes then summarized; count_params of built/unbuilt models."""
    keras = tf.keras
    L = keras.layers

    def model() -> Any:
        x = keras.Input((4,), name="x")
        h = L.Dense(3, name="a")(x)
        h = L.Dense(3, name="b")(h)
        return keras.Model(x, L.Dense(2, name="c")(h), name="m")

    def three_shapes() -> Any:
        sh = L.Dense(2, name="sh")
        xs = [keras.Input(s, name=f"x{i}") for i, s in enumerate(((3,), (4, 3), (2, 4, 3)))]
        return keras.Model(xs, [sh(x) for x in xs], name="m3")

    def popped(rebuild: bool) -> Any:
        m = keras.Sequential([keras.Input((4,), name="x"), L.Dense(3, name="a"), L.Dense(2, name="b"),
                              L.Dense(1, name="c")], name="s")
        m.pop(rebuild=rebuild)
        return [m.built, attempt(lambda: plain(m.output_shape)), lines(m)]

    def compiled(build: bool) -> Any:
        m = model()
        m.compile(optimizer=keras.optimizers.Adam(), loss="mse")
        if build:
            m.optimizer.build(m.trainable_variables)
        return lines(m)

    def count_unbuilt() -> Any:
        return keras.Sequential([L.Dense(2, name="d")], name="s").count_params()

    cases: dict[str, Callable[[], Any]] = {
        "range-a-b": lambda: lines(model(), layer_range=["a", "b"]),
        "range-x-c": lambda: lines(model(), layer_range=["x", "c"]),
        "range-b-b": lambda: lines(model(), layer_range=["b", "b"]),
        "range-wrong": lambda: lines(model(), layer_range=["a", "zz"]),
        "range-one": lambda: lines(model(), layer_range=["a"]),
        "three-shapes": lambda: lines(three_shapes()),
        "three-shapes-nested": lambda: lines(three_shapes(), expand_nested=True, show_trainable=True),
        "count-built": lambda: model().count_params(),
        "pop": lambda: popped(True),
        "pop-no-rebuild": lambda: popped(False),
        "compiled": lambda: compiled(False),
        "compiled-built": lambda: compiled(True),
        "count-unbuilt": count_unbuilt,
    }
    return run_cases("p-summary-range", cases, keras)


REF.add("p-summary-range", _summary_layer_range)


# -- masks -------------------------------------------------------------------------------------------------------------
def _mask_propagation(tf: Any, mk: Any) -> Any:
    """The _keras_mask of the outputs of layers called eagerly on an Embedding(mask_zero=True)'s output and on a
    Masking layer's (Dense, Dropout in training and not, Activation, Add, Concatenate of a masked and an unmasked
    input on axis -1 and 1, LSTM/GRU with and without return_sequences, GlobalAveragePooling1D, Flatten, Reshape,
    Attention, a layer without supports_masking, TimeDistributed), after keras.ops and tf ops, and of a functional
    model's output; compute_mask called directly (Embedding, Masking, Dense, Add and Concatenate with one mask None,
    LSTM, pooling)."""
    keras = tf.keras
    L = keras.layers
    ops = keras.ops
    r = rng("p-mask-prop")
    x3 = r.randint(-2, 3, (2, 5, 3)).astype("float32") / 4
    x3[0, 1] = 0.0
    x3[1, 4] = 0.0
    xm = x3.copy()
    xm[0, 2] = 1.0
    ini = keras.initializers.RandomUniform(-1, 1, seed=3)

    def emb() -> Any:
        return L.Embedding(8, 3, mask_zero=True, embeddings_initializer=ini, name="emb")(_ints(tf))

    def masking(v: float = 0.0) -> Any:
        return L.Masking(mask_value=v, name="masking")(xm if v else x3)

    class NoMask(L.Layer):
        def call(self, x: Any) -> Any:
            return x

    class Passes(L.Layer):
        def __init__(self) -> None:
            super().__init__(name="passes")
            self.supports_masking = True

        def call(self, x: Any) -> Any:
            return x

    makers: dict[str, Callable[[], Any]] = {
        "dense": lambda: L.Dense(2, kernel_initializer="ones", name="d"),
        "dropout": lambda: L.Dropout(0.5, seed=1, name="drop"),
        "activation": lambda: L.Activation("relu", name="act"),
        "lstm-seq": lambda: L.LSTM(2, return_sequences=True, kernel_initializer=ini, name="lstm"),
        "lstm-last": lambda: L.LSTM(2, kernel_initializer=ini, name="lstm"),
        "gru-seq": lambda: L.GRU(2, return_sequences=True, kernel_initializer=ini, name="gru"),
        "gap": lambda: L.GlobalAveragePooling1D(name="gap"),
        "gmp": lambda: L.GlobalMaxPooling1D(name="gmp"),
        "flatten": lambda: L.Flatten(name="flat"),
        "reshape": lambda: L.Reshape((15,), name="resh"),
        "nomask": lambda: NoMask(name="nomask"),
        "passes": Passes,
        "time-dist": lambda: L.TimeDistributed(L.Dense(2, kernel_initializer="ones", name="td_d"), name="td"),
        "layernorm": lambda: L.LayerNormalization(name="ln"),
        "softmax": lambda: L.Softmax(name="sm"),
        "conv1d": lambda: L.Conv1D(2, 1, kernel_initializer="ones", name="conv"),
    }
    sources: dict[str, Callable[[], Any]] = {"emb": emb, "masking": masking, "masking-1": lambda: masking(1.0)}
    cases: dict[str, Callable[[], Any]] = {}
    for sname, src in sources.items():
        cases[f"{sname} source"] = lambda src=src: mask_of(src())
        for lname, make in makers.items():
            def call(src: Any = src, make: Any = make, lname: str = lname) -> Any:
                kw = {"training": True} if lname == "dropout" else {}
                return mask_of(make()(src(), **kw))
            cases[f"{sname} {lname}"] = call
    cases["masking values"] = lambda: bits(masking())
    cases["masking-1 values"] = lambda: bits(masking(1.0))
    cases["dropout-infer"] = lambda: mask_of(L.Dropout(0.5, name="drop")(emb(), training=False))
    cases["add masked+plain"] = lambda: mask_of(L.Add(name="add")([emb(), tf.ones((2, 5, 3))]))
    cases["add masked+masked"] = lambda: mask_of(L.Add(name="add")([emb(), masking()]))
    cases["multiply masked+masked"] = lambda: mask_of(L.Multiply(name="mul")([emb(), masking()]))
    cases["concat -1 masked+plain"] = lambda: mask_of(L.Concatenate(name="cat")([emb(), tf.ones((2, 5, 2))]))
    cases["concat 1 masked+plain"] = lambda: mask_of(L.Concatenate(axis=1, name="cat")([emb(), tf.ones((2, 3, 3))]))
    cases["concat -1 masked+masked"] = lambda: mask_of(L.Concatenate(name="cat")([emb(), masking()]))
    cases["attention"] = lambda: mask_of(L.Attention(name="att")([emb(), masking()]))
    cases["ops.add"] = lambda: mask_of(ops.add(emb(), 1.0))
    cases["tf.add"] = lambda: mask_of(tf.add(emb(), 1.0))
    cases["operator +"] = lambda: mask_of(emb() + 1.0)
    cases["ops.multiply"] = lambda: mask_of(ops.multiply(emb(), emb()))

    def compute(layer: Any, inputs: Any, mask: Any) -> Any:
        m = layer.compute_mask(inputs, mask)
        if isinstance(m, (list, tuple)):
            return [None if v is None else bits(v) for v in m]
        return None if m is None else [list(m.shape), bits(m)]

    mk0 = np.array([[True, True, False, False, True], [True, False, True, True, False]])
    mk1 = np.array([[True, False, True, True, True], [False, True, True, True, True]])
    t3, t2 = tf.constant(x3), tf.constant(x3[:, :, :2])
    cases["cm embedding"] = lambda: compute(L.Embedding(8, 3, mask_zero=True, name="e"), _ints(tf), None)
    cases["cm embedding no-zero"] = lambda: compute(L.Embedding(8, 3, name="e"), _ints(tf), None)
    cases["cm masking"] = lambda: compute(L.Masking(name="mm"), t3, None)
    cases["cm masking given"] = lambda: compute(L.Masking(name="mm"), t3, mk0)
    cases["cm dense"] = lambda: compute(L.Dense(2, name="d"), t3, mk0)
    cases["cm dense none"] = lambda: compute(L.Dense(2, name="d"), t3, None)
    cases["cm add one none"] = lambda: compute(L.Add(name="add"), [t3, t3], [mk0, None])
    cases["cm add both"] = lambda: compute(L.Add(name="add"), [t3, t3], [mk0, mk1])
    cases["cm concat -1 one none"] = lambda: compute(L.Concatenate(name="c"), [t3, t2], [None, mk1])
    cases["cm concat 1"] = lambda: compute(L.Concatenate(axis=1, name="c"), [t3, t3], [mk0, mk1])
    cases["cm lstm seq"] = lambda: compute(L.LSTM(2, return_sequences=True, name="l"), t3, mk0)
    cases["cm lstm last"] = lambda: compute(L.LSTM(2, name="l"), t3, mk0)
    cases["cm gap"] = lambda: compute(L.GlobalAveragePooling1D(name="g"), t3, mk0)
    cases["cm flatten"] = lambda: compute(L.Flatten(name="f"), t3, mk0)

    def functional(kind: str) -> Any:
        i = keras.Input((5,), dtype="int32", name="ids")
        h = L.Embedding(8, 3, mask_zero=True, embeddings_initializer=ini, name="emb")(i)
        h = L.Dense(2, kernel_initializer="ones", name="d")(h)
        if kind == "gap":
            h = L.GlobalAveragePooling1D(name="gap")(h)
        m = keras.Model(i, h, name="m")
        return mask_of(m(_ints(tf)))
    cases["functional seq"] = lambda: functional("seq")
    cases["functional gap"] = lambda: functional("gap")

    def sequential() -> Any:
        m = keras.Sequential([keras.Input((5, 3), name="x"), L.Masking(name="mm"),
                              L.Dense(2, kernel_initializer="ones", name="d")], name="s")
        return mask_of(m(x3))
    cases["sequential"] = sequential
    return run_cases("p-mask-propagation", cases, keras)


REF.add("p-mask-propagation", _mask_propagation)


def _masked_values(tf: Any, mk: Any) -> Any:
    """The values that a mask changes: GlobalAveragePooling1D/GlobalMaxPooling1D of masked steps, LSTM/GRU with
    return_sequences (the masked steps repeat the state), Attention with query and value masks, a masked MSE and
    masked accuracy in a functional model's evaluate and in 2 steps of fit (the loss divided by the unmasked count),
    the explicit mask= beside the propagated one for GlobalAveragePooling1D and LSTM: the bits."""
    keras = tf.keras
    L = keras.layers
    r = rng("p-masked-values")
    x3 = (r.randint(-4, 5, (2, 5, 3)) / 8).astype("float32")
    ini = keras.initializers.RandomUniform(-1, 1, seed=3)
    rini = keras.initializers.RandomUniform(-0.5, 0.5, seed=4)
    explicit = tf.constant([[True, True, True, False, False], [True, True, False, True, True]])

    def emb() -> Any:
        return L.Embedding(8, 3, mask_zero=True, embeddings_initializer=ini, name="emb")(_ints(tf))

    cases: dict[str, Callable[[], Any]] = {
        "gap": lambda: bits(L.GlobalAveragePooling1D(name="g")(emb())),
        "gmp": lambda: bits(L.GlobalMaxPooling1D(name="g")(emb())),
        "gap explicit": lambda: bits(L.GlobalAveragePooling1D(name="g")(emb(), mask=explicit)),
        "lstm": lambda: bits(L.LSTM(2, return_sequences=True, kernel_initializer=ini, recurrent_initializer=rini,
                                    name="l")(emb())),
        "lstm explicit": lambda: bits(L.LSTM(2, return_sequences=True, kernel_initializer=ini,
                                             recurrent_initializer=rini, name="l")(emb(), mask=explicit)),
        "gru": lambda: bits(L.GRU(2, return_sequences=True, kernel_initializer=ini, recurrent_initializer=rini,
                                  name="g")(emb())),
        "attention": lambda: bits(L.Attention(name="a")([emb(), L.Masking(name="mm")(x3)])),
        "masking lstm": lambda: bits(L.LSTM(2, kernel_initializer=ini, recurrent_initializer=rini, name="l")(
            L.Masking(mask_value=0.125, name="mm")(x3))),
    }

    def fit(loss: str, weighted: bool) -> Any:
        keras.utils.set_random_seed(1)
        i = keras.Input((5,), dtype="int32", name="ids")
        h = L.Embedding(8, 3, mask_zero=True, embeddings_initializer=ini, name="emb")(i)
        o = L.Dense(2, kernel_initializer=ini, name="d")(h)
        m = keras.Model(i, o, name="m")
        m.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss, metrics=["mae", "accuracy"])
        y = (r.randint(0, 2, (2, 5, 2))).astype("float32")
        sw = np.array([1.0, 0.5], "float32") if weighted else None
        if weighted == "2d":
            sw = (r.randint(1, 5, (2, 5)) / 4).astype("float32")
        ev = m.evaluate(_ints(tf), y, sample_weight=sw, verbose=0, return_dict=True)
        h2 = m.fit(_ints(tf), y, sample_weight=sw, epochs=2, batch_size=2, verbose=0, shuffle=False)
        return {"evaluate": {k: float(v).hex() for k, v in sorted(ev.items())},
                "history": {k: [float(v).hex() for v in vs] for k, vs in sorted(h2.history.items())},
                "kernel": bits(m.get_layer("d").kernel)}
    cases["fit mse"] = lambda: fit("mse", False)
    cases["fit mse weighted"] = lambda: fit("mse", True)
    cases["fit mse weighted-2d"] = lambda: fit("mse", "2d")
    cases["fit bce"] = lambda: fit("binary_crossentropy", False)
    return run_cases("p-host-masked-values", cases, keras)


REF.add("p-host-masked-values", _masked_values)


# -- order of layers and weights ---------------------------------------------------------------------------------------
def _order(tf: Any, mk: Any) -> Any:
    """model.layers, weights, trainable_weights, non_trainable_weights, variables (paths, shapes, dtypes) and
    get_weights' shapes of a functional model with a nested Sequential, a shared layer called twice, a
    BatchNormalization; with the nested model frozen, a layer frozen, both thawed; set_weights of values numbered by
    position then each layer's weights; a subclassed model tracking layers as attributes (in assignment order, one
    assigned twice), a list, a dict (insertion order not sorted), a nested list and a plain weight; Layer.trainable
    toggled on sublayers."""
    keras = tf.keras
    L = keras.layers

    def functional() -> Any:
        inner = keras.Sequential([keras.Input((3,), name="in_i"), L.Dense(3, name="z_dense"),
                                  L.BatchNormalization(name="bn")], name="inner")
        x = keras.Input((3,), name="x")
        sh = L.Dense(3, name="shared")
        h = sh(inner(sh(x)))
        h = L.BatchNormalization(name="a_bn")(h)
        return keras.Model(x, L.Dense(1, name="b_head")(h), name="outer"), inner

    def summary(m: Any) -> Any:
        return {"layers": [lay.name for lay in m.layers], "weights": paths(m.weights),
                "trainable": paths(m.trainable_weights), "non_trainable": paths(m.non_trainable_weights),
                "variables": paths(m.variables), "get_weights": [list(w.shape) for w in m.get_weights()]}

    def toggled(which: str) -> Any:
        m, inner = functional()
        if which == "inner":
            inner.trainable = False
        elif which == "layer":
            m.get_layer("shared").trainable = False
        elif which == "bn":
            inner.get_layer("bn").trainable = False
        elif which == "model-then-thaw":
            m.trainable = False
            inner.trainable = True
        elif which == "model":
            m.trainable = False
        return summary(m)

    cases: dict[str, Callable[[], Any]] = {
        f"functional {w}": (lambda w=w: toggled(w))
        for w in ("none", "inner", "layer", "bn", "model", "model-then-thaw")}

    def set_get() -> Any:
        m, inner = functional()
        vals = [np.arange(int(np.prod(w.shape)), dtype="float32").reshape(w.shape) + 100 * i
                for i, w in enumerate(m.get_weights())]
        m.set_weights(vals)
        return {lay.name: [bits(w) for w in lay.get_weights()] for lay in m.layers}
    cases["set_weights"] = set_get

    def set_wrong(delta: int) -> Any:
        m, _ = functional()
        vals = m.get_weights()
        m.set_weights(vals[:delta] if delta < 0 else vals + [np.zeros((1,), "float32")])
        return "ok"
    cases["set_weights fewer"] = lambda: set_wrong(-1)
    cases["set_weights more"] = lambda: set_wrong(1)

    def set_shape() -> Any:
        m, _ = functional()
        vals = m.get_weights()
        vals[0] = vals[0].reshape(-1)
        m.set_weights(vals)
        return "ok"
    cases["set_weights shape"] = set_shape

    class Block(L.Layer):
        def __init__(self, name: str) -> None:
            super().__init__(name=name)
            self.z = L.Dense(2, name=f"{name}_z")
            self.a = L.Dense(2, name=f"{name}_a")

        def build(self, shape: Any) -> None:
            self.w = self.add_weight(shape=(2,), initializer="ones", name="w")
            self.s = self.add_weight(shape=(1,), initializer="zeros", trainable=False, name="s")

        def call(self, x: Any) -> Any:
            return self.a(self.z(x)) * self.w + self.s

    class Sub(keras.Model):
        def __init__(self) -> None:
            super().__init__(name="sub")
            self.second = L.Dense(2, name="second")
            self.first = L.Dense(2, name="first")
            self.first = L.Dense(2, name="first_again")
            self.blocks = [Block("blk_b"), Block("blk_a")]
            self.heads = {"z": L.Dense(1, name="head_z"), "a": L.Dense(1, name="head_a")}
            self.deep = [[L.Dense(2, name="deep0")], {"k": L.BatchNormalization(name="deep_bn")}]

        def build(self, shape: Any) -> None:
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
            super().build(shape)

        def call(self, x: Any) -> Any:
            h = self.second(self.first(x))
            for b in self.blocks:
                h = b(h)
            h = self.deep[1]["k"](self.deep[0][0](h))
            return self.heads["a"](h) + self.heads["z"](h) * self.scale

    def sub(which: str) -> Any:
        m = Sub()
        m(np.ones((2, 3), "float32"))
        if which == "block":
            m.blocks[1].trainable = False
        elif which == "head":
            m.heads["z"].trainable = False
        elif which == "model":
            m.trainable = False
        got = summary(m)
        got["sub_blocks"] = [[w.path for w in b.weights] for b in m.blocks]
        got["flatten"] = [lay.name for lay in m._flatten_layers(include_self=False)]
        return got
    for w in ("none", "block", "head", "model"):
        cases[f"sub {w}"] = lambda w=w: sub(w)

    def list_edit(how: str) -> Any:
        m = Sub()
        m(np.ones((2, 3), "float32"))
        if how == "pop":
            m.blocks.pop()
        elif how == "pop0":
            m.blocks.pop(0)
        elif how == "del-dict":
            del m.heads["z"]
        elif how == "append":
            extra = L.Dense(2, name="extra")
            extra.build((None, 2))
            m.blocks.append(extra)
        return [[lay.name for lay in m.layers], [w.path for w in m.weights]]
    for how in ("pop", "pop0", "del-dict", "append"):
        cases[f"sub list {how}"] = lambda how=how: list_edit(how)

    def seq_order() -> Any:
        inner = keras.Sequential([L.Dense(2, name="i_d"), L.BatchNormalization(name="i_bn")], name="i_seq")
        m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="o_d"), inner,
                              L.BatchNormalization(name="o_bn")], name="o_seq")
        return summary(m) | {"flatten": [lay.name for lay in m._flatten_layers()]}
    cases["sequential nested"] = seq_order

    def losses_order() -> Any:
        reg = keras.regularizers
        inner = keras.Sequential([keras.Input((3,), name="x_i"),
                                  L.Dense(2, kernel_initializer="ones", kernel_regularizer=reg.L2(0.5), name="i1")],
                                 name="inner")
        middle = keras.Sequential([keras.Input((3,), name="x_m"), inner,
                                   L.Dense(2, kernel_initializer="ones", kernel_regularizer=reg.L1(0.25),
                                           name="m1")], name="middle")
        x = keras.Input((3,), name="x")
        m = keras.Model(x, L.Dense(1, kernel_initializer="ones", kernel_regularizer=reg.L2(2.0),
                                   name="o1")(middle(x)), name="outer")
        return [bits(v) for v in m.losses]
    cases["losses nested"] = losses_order

    class Lossy(L.Layer):
        def __init__(self, name: str, value: float, inner: Any = ()) -> None:
            super().__init__(name=name)
            self.value = value
            self.inner = list(inner)

        def call(self, x: Any) -> Any:
            self.add_loss(tf.constant(self.value))
            for lay in self.inner:
                x = lay(x)
            return x

    def own_losses(kind: str) -> Any:
        tree = Lossy("top", 1.0, [Lossy("a", 2.0, [Lossy("a1", 3.0), Lossy("a2", 4.0, [Lossy("a2x", 5.0)])]),
                                  Lossy("b", 6.0, [Lossy("b1", 7.0), Lossy("b2", 8.0)])])
        if kind == "model":
            x = keras.Input((2,), name="x")
            m = keras.Model(x, tree(x), name="m")
            m(np.ones((1, 2), "float32"))
            return [[lay.name for lay in m._flatten_layers()], [bits(v) for v in m.losses]]
        tree(np.ones((1, 2), "float32"))
        return [[lay.name for lay in tree._flatten_layers()], [bits(v) for v in tree.losses]]
    cases["own losses layer"] = lambda: own_losses("layer")

    def activity(kind: str) -> Any:
        reg = keras.regularizers
        x = (np.arange(12, dtype="float32").reshape(4, 3) - 5) / 4
        d = L.Dense(2, kernel_initializer="ones", activity_regularizer=reg.L1(0.5), name="act_d")
        if kind == "layer":
            d(x)
            return [bits(v) for v in d.losses]
        inp = keras.Input((3,), name="x")
        h = L.Dense(3, kernel_initializer="ones", activity_regularizer=reg.L2(0.25), name="act_a")(inp)
        m = keras.Model(inp, d(h), name="m")
        m(x[:3] if kind == "model3" else x)
        return [bits(v) for v in m.losses]
    cases["activity layer"] = lambda: activity("layer")
    cases["activity model"] = lambda: activity("model")
    cases["activity model batch3"] = lambda: activity("model3")
    cases["own losses model"] = lambda: own_losses("model")
    return run_cases("p-order", cases, keras)


REF.add("p-order", _order)


# -- dtype policies ----------------------------------------------------------------------------------------------------
def _policy_view(layer: Any) -> Any:
    cfg = layer.get_config().get("dtype")
    return {"policy": layer.dtype_policy.name, "compute": layer.compute_dtype, "variable": layer.variable_dtype,
            "dtype": layer.dtype, "config": plain(cfg),
            "weights": [str(getattr(w.dtype, "name", w.dtype)) for w in layer.weights]}


def _policies(tf: Any, mk: Any) -> Any:
    """The global policy from a fresh state (read before and after set_floatx: Keras caches the floatx policy on
    first use), set_global_policy (mixed_float16, mixed_bfloat16, float64, float16) before and after a layer is made
    and built; a layer's dtype= as a string, a policy name, a DTypePolicy and None; its compute, variable and
    config dtypes, its weights' dtypes, its output's dtype for float32, float64, float16 and int32 inputs (autocast
    of floating inputs only; autocast=False); Input's dtype under each policy; a Sequential without Input under each
    policy; from_config of a config with a policy. (Variables read inside a parent's autocast scope by a child
    layer — a list of keras.ops.convert_to_tensor(variable) returned from call — raised AttributeError on TF 2.21 and
    were left out for want of time.)"""
    keras = tf.keras
    L = keras.layers
    cases: dict[str, Callable[[], Any]] = {}

    def cached() -> Any:
        before = keras.config.dtype_policy().name
        keras.config.set_floatx("float64")
        after = keras.config.dtype_policy().name
        d = L.Dense(2, name="d")
        return [before, after, d.dtype_policy.name, d.compute_dtype]
    cases["cached"] = cached

    def floatx_first() -> Any:
        keras.config.set_floatx("float64")
        p = keras.config.dtype_policy().name
        keras.config.set_floatx("float16")
        d = L.Dense(2, name="d")
        return [p, keras.config.dtype_policy().name, d.dtype_policy.name, keras.Input((2,), name="x").dtype]
    cases["floatx-first"] = floatx_first

    def floatx_only() -> Any:
        keras.config.set_floatx("float16")
        d = L.Dense(2, name="d")
        return [keras.config.dtype_policy().name, _policy_view(d), keras.Input((2,), name="x").dtype]
    cases["floatx-only"] = floatx_only

    for pol in ("mixed_float16", "mixed_bfloat16", "float64", "float16"):
        def made_before(pol: str = pol) -> Any:
            d0 = L.Dense(2, name="before")
            keras.config.set_dtype_policy(pol)
            d0.build((None, 3))
            d1 = L.Dense(2, name="after")
            d1.build((None, 3))
            return [_policy_view(d0), _policy_view(d1), keras.config.dtype_policy().name]
        cases[f"{pol} before-after"] = made_before

        def built_then(pol: str = pol) -> Any:
            d0 = L.Dense(2, kernel_initializer="ones", name="built")
            d0.build((None, 3))
            keras.mixed_precision.set_global_policy(pol)
            y = d0(np.ones((1, 3), "float32"))
            return [_policy_view(d0), str(y.dtype.name)]
        cases[f"{pol} built-then-set"] = built_then

        def inputs(pol: str = pol) -> Any:
            keras.mixed_precision.set_global_policy(pol)
            x = keras.Input((3,), name="x")
            xi = keras.Input((3,), dtype="int32", name="xi")
            s = keras.Sequential([L.Dense(2, name="d1"), L.Dense(1, name="d2")], name="s")
            s.build((None, 3))
            s2 = keras.Sequential([L.Dense(2, name="d1")], name="s2")
            y2 = s2(np.ones((1, 3), "float64"))
            return {"input": x.dtype, "input int": xi.dtype, "seq input": s.inputs[0].dtype,
                    "DTypePolicy()": keras.DTypePolicy().name,
                    "seq layers": [_policy_view(lay) for lay in s.layers], "seq2 input": s2.inputs[0].dtype,
                    "seq2 out": str(y2.dtype.name),
                    "seq config": plain(s.get_config()["layers"][0]["config"].get("dtype"))}
        cases[f"{pol} inputs"] = inputs

        def autocast(pol: str = pol) -> Any:
            keras.mixed_precision.set_global_policy(pol)
            out = {}
            for dt in ("float32", "float64", "float16", "int32"):
                lay = L.Activation("linear", name="lin")
                out[dt] = attempt(lambda lay=lay, dt=dt: str(lay(np.ones((1, 2), dt)).dtype.name))
            na = L.Activation("linear", name="lin", autocast=False)
            out["autocast-false"] = str(na(np.ones((1, 2), "float64")).dtype.name)
            return out
        cases[f"{pol} autocast"] = autocast

    forms: dict[str, Callable[[], Any]] = {
        "str-float64": lambda: "float64",
        "str-mixed_bfloat16": lambda: "mixed_bfloat16",
        "policy-mixed_float16": lambda: keras.DTypePolicy("mixed_float16"),
        "policy-float16": lambda: keras.DTypePolicy("float16"),
        "none": lambda: None,
        "np-float64": lambda: np.float64,
        "bad": lambda: "float17",
    }
    for glob in ("float32", "mixed_float16"):
        for fname, form in forms.items():
            def layer_dtype(glob: str = glob, form: Any = form) -> Any:
                keras.mixed_precision.set_global_policy(glob)
                d = L.Dense(2, kernel_initializer="ones", dtype=form(), name="d")
                y = d(np.ones((1, 3), "float32"))
                clone = L.Dense.from_config(d.get_config())
                return [_policy_view(d), str(y.dtype.name), _policy_view(clone)]
            cases[f"{glob} layer {fname}"] = layer_dtype

    def nested_policy() -> Any:
        keras.mixed_precision.set_global_policy("mixed_float16")
        inner = keras.Sequential([keras.Input((3,), name="xi"), L.Dense(2, dtype="float32", name="i32"),
                                  L.Dense(2, name="imix")], name="inner")
        x = keras.Input((3,), name="x")
        m = keras.Model(x, L.Activation("linear", dtype="float32", name="out")(inner(x)), name="m")
        y = m(np.ones((1, 3), "float32"))
        return {"layers": {lay.name: _policy_view(lay) for lay in m.layers + inner.layers},
                "out": str(y.dtype.name), "model": m.dtype_policy.name,
                "tensors": [t.dtype for t in (inner.outputs[0], m.outputs[0])]}
    cases["nested"] = nested_policy

    return run_cases("p-policies", cases, keras)


REF.add("p-policies", _policies)


# -- configs and clones ------------------------------------------------------------------------------------------------
def _configs(tf: Any, mk: Any) -> Any:
    """get_config/from_config and clone_model of a Sequential, a functional model with two inputs (a dict), a shared
    layer and a nested model, and a subclassed model: the clone's layer names, classes and config keys, its weights
    (seeded initializers: the same draws) and whether its output equals the original's after set_weights;
    clone_function renaming layers; get_layer by name and index (negative, out of range, both, neither);
    inputs/outputs' names, shapes and dtypes, input_shape/output_shape, input_spec."""
    keras = tf.keras
    L = keras.layers
    r = rng("p-configs")
    x3 = (r.randint(-4, 5, (2, 3)) / 8).astype("float32")
    ini = keras.initializers.RandomUniform(-1, 1, seed=7)

    def seq() -> Any:
        return keras.Sequential([keras.Input((3,), name="x"), L.Dense(4, kernel_initializer=ini, name="d1"),
                                 L.Dropout(0.25, name="drop"), L.Dense(2, kernel_initializer=ini, name="d2")],
                                name="seq")

    def fun() -> Any:
        a, b = keras.Input((3,), name="a"), keras.Input((3,), dtype="float64", name="b")
        sh = L.Dense(2, kernel_initializer=ini, name="shared")
        inner = keras.Sequential([keras.Input((2,), name="xi"), L.Dense(2, kernel_initializer=ini, name="i")],
                                 name="inner")
        y = L.Add(name="add")([inner(sh(a)), sh(b)])
        return keras.Model({"a": a, "b": b}, {"y": y, "z": L.Dense(1, kernel_initializer=ini, name="z")(y)},
                           name="fun")

    def describe(m: Any) -> Any:
        return {"name": m.name, "layers": [[lay.name, type(lay).__name__] for lay in m.layers],
                "weights": [[w.path, bits(w)] for w in m.weights]}

    def spec(m: Any) -> Any:
        def t(x: Any) -> Any:
            return [getattr(x, "name", None), list(x.shape), str(x.dtype)]
        # (the outputs' names are KerasTensor counters, which follow the process's history: left out)
        return {"inputs": [t(x) for x in m.inputs], "outputs": [t(x)[1:] for x in m.outputs],
                "input_shape": attempt(lambda: plain(m.input_shape)),
                "output_shape": attempt(lambda: plain(m.output_shape)),
                "input": attempt(lambda: plain(keras.tree.map_structure(lambda v: v.name, m.input))),
                "output": attempt(lambda: plain(keras.tree.map_structure(lambda v: list(v.shape), m.output)))}

    def inputs_for(m: Any) -> Any:
        return {"a": x3, "b": x3.astype("float64")} if m.name == "fun" else x3

    def out_bits(y: Any) -> Any:
        return {k: bits(v) for k, v in sorted(y.items())} if isinstance(y, dict) else bits(y)

    cases: dict[str, Callable[[], Any]] = {}
    for mname, make in (("seq", seq), ("fun", fun)):
        def round_trip(make: Any = make) -> Any:
            m = make()
            cfg = m.get_config()
            keys = sorted(cfg)
            c = type(m).from_config(cfg)
            return {"orig": describe(m), "from_config": describe(c), "spec": spec(c),
                    "config keys": keys, "same output": out_bits(m(inputs_for(m))) == out_bits(c(inputs_for(m)))}
        cases[f"{mname} from_config"] = round_trip

        def clone(make: Any = make) -> Any:
            m = make()
            c = keras.models.clone_model(m)
            c.set_weights(m.get_weights())
            return {"clone": describe(c), "spec": spec(c),
                    "same output": out_bits(m(inputs_for(m))) == out_bits(c(inputs_for(m))),
                    "shared kept": [lay.name for lay in c.layers if len(lay._inbound_nodes) > 1]}
        cases[f"{mname} clone"] = clone

        def clone_fn(make: Any = make) -> Any:
            m = make()

            def fn(layer: Any) -> Any:
                cfg = layer.get_config()
                cfg["name"] = "c_" + cfg["name"]
                return layer.__class__.from_config(cfg)
            c = keras.models.clone_model(m, clone_function=fn)
            return describe(c)
        cases[f"{mname} clone_function"] = clone_fn

        def get_layer(make: Any = make) -> Any:
            m = make()
            out = {}
            for key, kw in (("name", {"name": "d1" if m.name == "seq" else "shared"}), ("index0", {"index": 0}),
                            ("index1", {"index": 1}), ("index-1", {"index": -1}), ("index99", {"index": 99}),
                            ("missing", {"name": "nope"}), ("both", {"name": "d1", "index": 1}), ("neither", {}),
                            ("index-len", {"index": len(m.layers)}), ("index-len-1", {"index": len(m.layers) - 1}),
                            ("index-len+1", {"index": len(m.layers) + 1}), ("index--len", {"index": -len(m.layers)}),
                            ("index--len-1", {"index": -len(m.layers) - 1})):
                out[key] = attempt(lambda kw=kw: m.get_layer(**kw).name)
            out["spec"] = spec(m)
            return out
        cases[f"{mname} get_layer"] = get_layer

    def seq_config() -> Any:
        m = seq()
        return plain(m.get_config())
    cases["seq config"] = seq_config

    def fun_config() -> Any:
        cfg = fun().get_config()
        return {"input_layers": plain(cfg["input_layers"]), "output_layers": plain(cfg["output_layers"]),
                "layers": [[lay["class_name"], lay["name"], plain(lay["inbound_nodes"])] for lay in cfg["layers"]]}
    cases["fun config"] = fun_config

    def unbuilt_seq() -> Any:
        m = keras.Sequential([L.Dense(2, kernel_initializer=ini, name="d")], name="s")
        cfg = m.get_config()
        c = keras.Sequential.from_config(cfg)
        cl = keras.models.clone_model(m)
        return {"config": plain(cfg), "from_config built": c.built, "clone built": cl.built,
                "clone layers": [lay.name for lay in cl.layers]}
    cases["unbuilt seq"] = unbuilt_seq

    def specs() -> Any:
        d = L.Dense(2, name="d")
        before = str(d.input_spec)
        d.build((None, 4))
        c = L.Conv1D(2, 2, name="c")
        c.build((None, 5, 3))
        return {"dense": [before, attempt(lambda: [d.input_spec.axes, d.input_spec.min_ndim, d.input_spec.ndim])],
                "dense bad": attempt(lambda: str(d(np.ones((2, 3), "float32")).shape)),
                "conv": attempt(lambda: [c.input_spec.axes, c.input_spec.ndim]),
                "conv bad": attempt(lambda: str(c(np.ones((2, 5, 4), "float32")).shape))}
    cases["input_spec"] = specs

    def duplicate(how: str) -> Any:
        if how == "init":
            m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="d"), L.Dense(2, name="d")], name="s")
        else:
            m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="d")], name="s")
            m.add(L.Dense(2, name="d" if how == "add" else "x"))
        return [lay.name for lay in m.layers]
    for how in ("init", "add", "add-input-name"):
        cases[f"duplicate names {how}"] = lambda how=how: duplicate(how)

    def frozen_clone(kind: str) -> Any:
        m = seq() if kind == "seq" else fun()
        m.trainable = False
        if kind == "fun-layer":
            m.trainable = True
            m.get_layer("shared").trainable = False
        c = keras.models.clone_model(m)
        return [c.trainable, [[lay.name, lay.trainable] for lay in c.layers], len(c.trainable_weights)]
    for kind in ("seq", "fun", "fun-layer"):
        cases[f"clone frozen {kind}"] = lambda kind=kind: frozen_clone(kind)

    def dict_fed(kind: str) -> Any:
        z, a = keras.Input((3,), name="z"), keras.Input((3,), name="a")
        y = L.Subtract(name="sub")([z, a])
        m = keras.Model([z, a] if kind == "list" else {"k1": z, "k0": a}, y, name="m")
        feed = {"z": x3, "a": x3 * 2} if kind == "list" else {"k1": x3, "k0": x3 * 2}
        return [bits(m(feed)), bits(m.predict(feed, verbose=0))]
    cases["dict fed list-inputs"] = lambda: dict_fed("list")

    def rank_adjust(shape: tuple, feed: tuple) -> Any:
        x = keras.Input(shape, name="x")
        m = keras.Model(x, L.Activation("linear", name="lin")(x), name="m")
        v = (np.arange(int(np.prod(feed)), dtype="float32") / 4).reshape(feed)
        y = m(v)
        return [list(y.shape), bits(y)]
    for shape, feed in (((3,), (1, 3, 1)), ((3,), (2, 3, 1)), ((1,), (1, 1, 1)), ((2, 1), (1, 2, 1, 1)),
                        ((3,), (1, 3)), ((3, 1), (1, 3)), ((3, 1), (2, 3))):
        cases[f"rank-adjust {shape} fed {feed}"] = lambda shape=shape, feed=feed: rank_adjust(shape, feed)
    cases["dict fed dict-inputs"] = lambda: dict_fed("dict")
    return run_cases("p-configs", cases, keras)


REF.add("p-configs", _configs)

def _extras(tf: Any, mk: Any) -> Any:
    """(Added after the first measurement.) A Sequential's input_dtype and a functional model's (Input of another
    dtype, under float32 and mixed_float16); compute_output_shape/compute_output_spec of one-input and two-input functional models given a
    shape tuple, a list of them and a dict; to_json with indent and sort_keys (its lines' count and first lines)."""
    keras = tf.keras
    L = keras.layers
    cases: dict[str, Callable[[], Any]] = {}
    for pol in ("float32", "mixed_float16"):
        for dt in ("int32", "float64", None):
            def input_dtype(pol: str = pol, dt: Any = dt) -> Any:
                keras.mixed_precision.set_global_policy(pol)
                kw = {} if dt is None else {"dtype": dt}
                s = keras.Sequential([keras.Input((3,), name="x", **kw), L.Dense(2, name="d")], name="s")
                s2 = keras.Sequential([L.Dense(2, name="d")], name="s2")
                x = keras.Input((3,), name="x", **kw)
                f = keras.Model(x, L.Dense(2, name="d")(x), name="f")
                return [attempt(lambda: str(s.input_dtype)), attempt(lambda: str(s2.input_dtype)),
                        attempt(lambda: str(f.input_dtype)), s.compute_dtype, f.inputs[0].dtype]
            cases[f"input_dtype {pol} {dt}"] = input_dtype

    def shapes(kind: str) -> Any:
        if kind == "one":
            x = keras.Input((3,), name="x")
            m = keras.Model(x, L.Dense(2, name="d")(x), name="m")
            args = {"tuple": (None, 3), "list": [(None, 3)], "batch": (5, 3)}
        else:
            a, b = keras.Input((3,), name="a"), keras.Input((4,), name="b")
            m = keras.Model([a, b], L.Concatenate(name="c")([a, b]), name="m")
            args = {"list": [(None, 3), (None, 4)], "batch": [(5, 3), (5, 4)], "tuple": (None, 3)}
        return {k: attempt(lambda v=v: plain(m.compute_output_shape(v))) for k, v in args.items()}
    cases["output shape one"] = lambda: shapes("one")
    cases["output shape two"] = lambda: shapes("two")

    def to_json(kw: Any) -> Any:
        m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="d")], name="s")
        text = m.to_json(**kw)
        return [len(text.splitlines()), text.splitlines()[:3]]
    cases["to_json default"] = lambda: to_json({})[0]
    cases["to_json indent"] = lambda: to_json({"indent": 2})
    cases["to_json indent sorted"] = lambda: to_json({"indent": 1, "sort_keys": True})
    return run_cases("p-extras", cases, keras)


REF.add("p-extras", _extras)

FAMILIES = tuple(REF.programs)

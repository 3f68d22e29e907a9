"""The Keras model plumbing sweep's second module (sixty-first session, fix61c; test_psweep61b.py): the classes of
program psweep61's module did not reach, each the one that shows a catalogue mistake psweep61 left alive — variables
read inside nested autocast scopes (a child layer with autocast=False, with its own compute dtype, an integer
variable, the parent's reads after a child's call), summary()'s memory figures of 1,000 bytes and more and its
centred Trainable column at every width, Sequential's refusal of a duplicate layer name, load_weights of a .keras
file into an unbuilt model, Layer.metrics of nested layers, add_weight's default initializer by dtype, the losses of
a frozen layer's regularizers, set_weights' shape check against a transposed value, an explicit mask= beside a
propagated one in eager calls, and model.layers' order in graphs with branches of different depths.

Every case starts from a fresh global state (keras.backend.clear_session() and floatx float32) and leaves it so;
names explicit; weights constant or seeded. Values are names, shapes, dtypes, refusals by class, summary text and
exact sums of small dyadic numbers: nothing here depends on the host. TF 2.21's answers are recorded by `python -m
simdist.conformance.suite.test_psweep61b --record` on this session's AVX-512 Xeon with oneDNN on."""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.psweep61_cases import attempt, lines
from simdist.conformance.suite.psweep61_cases import run_cases as psweep61_run_cases
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, plain,
                                                         reference_cpu)

PATH = os.path.join(os.path.dirname(__file__), "psweep61b_reference.json.gz")

REF = RecordedPrograms(PATH, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 found here and not fixed: program -> case keys left out of the comparison.
OPEN: dict[str, tuple[str, ...]] = {}


def run_cases(name: str, cases: dict[str, Callable[[], Any]], keras: Any) -> dict[str, Any]:
    """Each case from a fresh state (the global policy reset too); OPEN's keys left out."""
    return psweep61_run_cases(name, cases, keras, OPEN, reset_policy=True)


def _dt(t: Any) -> str:
    return str(getattr(t.dtype, "name", t.dtype))


# -- autocast scopes ---------------------------------------------------------------------------------------------------
def _autocast(tf: Any, mk: Any) -> Any:
    """Variables read (keras.ops.add(v, 0) inside call, its dtype noted) by a parent layer and by children called
    inside its call: a child with autocast=False, one with a float32 / float64 / bfloat16 policy, one of the same
    policy, an integer variable, a child's child; the parent's reads before and after each child; under
    mixed_float16, mixed_bfloat16 and float32 global policies, and the children called alone."""
    keras = tf.keras
    ops = keras.ops
    cases: dict[str, Callable[[], Any]] = {}

    class Leaf(keras.layers.Layer):
        def __init__(self, log: list[Any], int_var: bool = False, var_autocast: bool = True, **kw: Any) -> None:
            super().__init__(**kw)
            self.note = log.append   # a bound method: Keras would track (copy) a list attribute
            self.int_var = int_var
            self.var_autocast = var_autocast

        def build(self, shape: Any) -> None:
            self.v = self.add_weight(shape=(1,), initializer="ones", name="v", autocast=self.var_autocast)
            if self.int_var:
                self.k = self.add_weight(shape=(1,), initializer="ones", dtype="int32", name="k", trainable=False)

        def call(self, x: Any) -> Any:
            self.note([self.name, "v", _dt(ops.add(self.v, 0))])
            if self.int_var:
                self.note([self.name, "k", _dt(ops.add(self.k, 0))])
            return x

    class Parent(keras.layers.Layer):
        def __init__(self, log: list[Any], children: list[Any], **kw: Any) -> None:
            super().__init__(**kw)
            self.note = log.append
            self.kids = children

        def build(self, shape: Any) -> None:
            self.w = self.add_weight(shape=(1,), initializer="ones", name="w")
            self.n = self.add_weight(shape=(1,), initializer="ones", dtype="int32", name="n", trainable=False)
            for c in self.kids:
                c.build(shape)

        def call(self, x: Any) -> Any:
            self.note([self.name, "w", _dt(ops.add(self.w, 0))])
            self.note([self.name, "n", _dt(ops.add(self.n, 0))])
            for c in self.kids:
                x = c(x)
                self.note([self.name, "w after " + c.name, _dt(ops.add(self.w, 0))])
            return x

    kinds: dict[str, Callable[[list[Any]], Any]] = {
        "autocast-false": lambda log: Leaf(log, autocast=False, name="c_noac"),
        "float32": lambda log: Leaf(log, dtype="float32", name="c_f32"),
        "float64": lambda log: Leaf(log, dtype="float64", name="c_f64"),
        "bfloat16": lambda log: Leaf(log, dtype="mixed_bfloat16", name="c_bf16"),
        "same": lambda log: Leaf(log, name="c_same"),
        "int": lambda log: Leaf(log, int_var=True, name="c_int"),
        "var-no-autocast": lambda log: Leaf(log, var_autocast=False, name="c_vnoac"),
        "nested": lambda log: Parent(log, [Leaf(log, dtype="float32", name="gc_f32"), Leaf(log, name="gc_same")],
                                     dtype="float32", name="c_parent32"),
    }
    for pol in ("mixed_float16", "mixed_bfloat16", "float32"):
        for kind, make in kinds.items():
            def case(pol: str = pol, make: Callable[[list[Any]], Any] = make) -> Any:
                keras.mixed_precision.set_global_policy(pol)
                log: list[Any] = []
                p = Parent(log, [make(log)], name="p")
                y = p(np.ones((2, 1), "float32"))
                return [log, _dt(y)]
            cases[f"{pol} {kind}"] = case

        def chain(pol: str = pol) -> Any:
            keras.mixed_precision.set_global_policy(pol)
            log: list[Any] = []
            p = Parent(log, [Leaf(log, dtype="float32", name="a"), Leaf(log, autocast=False, name="b"),
                             Leaf(log, name="c"), Leaf(log, int_var=True, name="d")], name="p")
            p(np.ones((2, 1), "float32"))
            return log
        cases[f"{pol} chain"] = chain

        def alone(pol: str = pol) -> Any:
            keras.mixed_precision.set_global_policy(pol)
            log: list[Any] = []
            for c in (Leaf(log, autocast=False, name="noac"), Leaf(log, int_var=True, name="int"),
                      Leaf(log, dtype="float32", name="f32")):
                c(np.ones((2, 1), "float32"))
            return log
        cases[f"{pol} alone"] = alone
    return run_cases("q-autocast", cases, keras)


REF.add("q-autocast", _autocast)


# -- summaries: memory units and the Trainable column -----------------------------------------------------------------
def _summary(tf: Any, mk: Any) -> Any:
    """summary() of models whose weights take 0.9 KB to several MB (the memory figures' units), with trainable and
    non-trainable parts; show_trainable=True at line lengths 40..140 (the centred Trainable cell's odd space)."""
    keras = tf.keras
    L = keras.layers
    cases: dict[str, Callable[[], Any]] = {}
    for units, inp in ((50, 4), (62, 3), (63, 3), (250, 3), (256, 4), (1000, 250), (513, 1023), (2048, 600)):
        def mem(units: int = units, inp: int = inp) -> Any:
            m = keras.Sequential([keras.Input((inp,), name="x"), L.Dense(units, name="d"),
                                  L.BatchNormalization(name="bn")], name="s")
            return lines(m)[-4:]
        cases[f"memory {units}x{inp}"] = mem

    def frozen() -> Any:
        m = keras.Sequential([keras.Input((300,), name="x"), L.Dense(300, name="a"), L.Dense(7, name="b")], name="s")
        m.layers[0].trainable = False
        return lines(m)[-4:]
    cases["memory frozen"] = frozen

    def model_for_trainable() -> Any:
        m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(4, name="d1"), L.Dense(2, name="d2")], name="s")
        m.layers[1].trainable = False
        return m
    for n in (40, 55, 64, 71, 77, 80, 83, 88, 91, 96, 100, 105, 110, 117, 120, 125, 131, 140):
        cases[f"trainable {n}"] = lambda n=n: lines(model_for_trainable(), line_length=n, show_trainable=True)
    return run_cases("q-summary", cases, keras)


REF.add("q-summary", _summary)


# -- refusals and defaults of the layer/model API ---------------------------------------------------------------------
def _api(tf: Any, mk: Any) -> Any:
    """Sequential's duplicate layer names (in the list, by add, after Input, the same layer twice); load_weights of a
    .keras file into unbuilt models (Sequential, empty, subclassed; with and without skip_mismatch) and built ones; Layer.metrics of nested layers; add_weight's default initializer
    for float, int and bool weights; the losses of frozen layers' regularizers (layer, nested, model, unfrozen again);
    set_weights with transposed and reshaped values."""
    keras = tf.keras
    L = keras.layers
    cases: dict[str, Callable[[], Any]] = {}

    def dup(kind: str) -> Any:
        if kind == "list":
            m = keras.Sequential([L.Dense(2, name="d"), L.Dense(2, name="d")], name="s")
        elif kind == "input":
            m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="d"), L.Dense(2, name="d")], name="s")
        elif kind == "add":
            m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="d")], name="s")
            m.add(L.Dense(2, name="d"))
        elif kind == "other":
            m = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="d"), L.Dense(2, name="e")], name="s")
        else:
            d = L.Dense(3, name="d")
            m = keras.Sequential([keras.Input((3,), name="x"), d, d], name="s")
        return [ly.name for ly in m.layers]
    for kind in ("list", "input", "add", "other", "same"):
        cases[f"duplicate {kind}"] = lambda kind=kind: dup(kind)

    def load(kind: str) -> Any:
        src = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, kernel_initializer="ones", name="d")],
                               name="s")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.keras")
            src.save(path)
            if kind.startswith("unbuilt"):
                dst = keras.Sequential([L.Dense(2, name="d")], name="s")
            elif kind.startswith("empty"):
                dst = keras.Sequential([], name="s")
            elif kind.startswith("subclassed"):
                dst = Holder(L.Dense(2, name="d"), name="s")
            elif kind == "built":
                dst = keras.Sequential([keras.Input((3,), name="x"), L.Dense(2, name="d")], name="s")
            else:
                dst = keras.Sequential([L.Dense(2, name="d")], name="s")
                dst.build((None, 3))
            r = attempt(lambda: dst.load_weights(path, skip_mismatch=kind.endswith("skip")))
            return [r if isinstance(r, str) else None, dst.built,
                    [bits(w) for w in dst.get_weights()] if dst.built else None]
    class Holder(keras.Model):
        def __init__(self, layer: Any, **kw: Any) -> None:
            super().__init__(**kw)
            self.d = layer

        def call(self, x: Any) -> Any:
            return self.d(x)

    for kind in ("unbuilt", "built", "build()", "unbuilt skip", "empty", "empty skip", "subclassed", "subclassed skip"):
        cases[f"load .keras {kind}"] = lambda kind=kind: load(kind)

    class WithMetric(keras.layers.Layer):
        def __init__(self, tag: str, inner: Any = None, **kw: Any) -> None:
            super().__init__(**kw)
            self.m = keras.metrics.Mean(name=f"mean_{tag}")
            self.inner = inner

        def call(self, x: Any) -> Any:
            self.m.update_state(x)
            return x if self.inner is None else self.inner(x)

    def metrics(kind: str) -> Any:
        if kind == "one":
            layer = WithMetric("a", name="a")
        elif kind == "nested":
            layer = WithMetric("a", WithMetric("b", name="b"), name="a")
        else:
            layer = WithMetric("a", WithMetric("b", WithMetric("c", name="c"), name="b"), name="a")
        layer(np.ones((2, 1), "float32"))
        return [[m.name, float(m.result())] for m in layer.metrics]
    for kind in ("one", "nested", "deep"):
        cases[f"metrics {kind}"] = lambda kind=kind: metrics(kind)

    class Weights(keras.layers.Layer):
        def build(self, shape: Any) -> None:
            self.f = self.add_weight(shape=(40, 30), name="f")
            self.h = self.add_weight(shape=(40, 30), dtype="float64", name="h")
            self.i = self.add_weight(shape=(3,), dtype="int32", name="i")
            self.b = self.add_weight(shape=(3,), dtype="bool", name="b")
            self.s = self.add_weight(shape=(), name="s")

        def call(self, x: Any) -> Any:
            return x

    def default_init() -> Any:
        layer = Weights(name="w")
        layer.build((None, 1))
        out = []
        for v in layer.weights:
            a = np.asarray(v.numpy(), "float64")
            limit = float(np.sqrt(6.0 / sum(a.shape))) if a.ndim == 2 else None
            out.append([v.name, _dt(v), bool(np.any(a != 0)),
                        None if limit is None else bool(np.all(np.abs(a) <= limit))])
        return out
    cases["add_weight default"] = default_init

    def reg(kind: str) -> Any:
        d = L.Dense(2, kernel_initializer="ones", kernel_regularizer=keras.regularizers.L2(0.5),
                    bias_regularizer=keras.regularizers.L1(0.25), bias_initializer="ones", name="d")
        if kind == "layer":
            d.build((None, 3))
            d.trainable = False
            return [float(v) for v in d.losses]
        m = keras.Sequential([keras.Input((3,), name="x"), d, L.Dense(1, kernel_initializer="ones",
                                                                       kernel_regularizer="l2", name="e")], name="s")
        if kind == "model":
            m.trainable = False
        elif kind == "nested":
            d.trainable = False
        elif kind == "refrozen":
            d.trainable = False
            d.trainable = True
        return [float(v) for v in m.losses]
    for kind in ("layer", "model", "nested", "refrozen", "none"):
        cases[f"frozen regularizer {kind}"] = lambda kind=kind: reg(kind)

    def set_w(kind: str) -> Any:
        d = L.Dense(3, kernel_initializer="zeros", name="d")
        d.build((None, 2))
        k = np.arange(6, dtype="float32").reshape(2, 3) / 8
        b = np.zeros((3,), "float32")
        vals = {"ok": [k, b], "transposed": [k.T, b], "flat": [k.reshape(6), b], "bias-2d": [k, b.reshape(1, 3)],
                "bias-long": [k, np.zeros((4,), "float32")]}[kind]
        try:
            d.set_weights(vals)
            r = None
        except ValueError as e:   # the message names the check that refused (Keras's per-weight shape check)
            r = f"raised ValueError: {e}"
        return [r, [plain(w.shape) for w in d.get_weights()], bits(d.get_weights()[0])]
    for kind in ("ok", "transposed", "flat", "bias-2d", "bias-long"):
        cases[f"set_weights {kind}"] = lambda kind=kind: set_w(kind)
    return run_cases("q-api", cases, keras)


REF.add("q-api", _api)


# -- explicit masks and layer order ------------------------------------------------------------------------------------
def _graphs(tf: Any, mk: Any) -> Any:
    """An explicit mask= passed beside a propagated Keras mask (a tensor, a NumPy array and a Python list — a mask
    that is not a tensor leaves the call one tensor argument, where Keras fills `mask` only when it is None; eager and
    functional; pooling, whose values show the mask used); model.layers of graphs whose branches differ in depth (outputs in both orders)."""
    keras = tf.keras
    L = keras.layers
    cases: dict[str, Callable[[], Any]] = {}
    ids = np.array([[1, 2, 0, 0], [3, 0, 4, 5]], "int32")
    explicit = np.array([[True, False, True, True], [True, True, False, False]])

    def emb() -> Any:
        table = np.arange(12, dtype="float32").reshape(6, 2) / 4
        return L.Embedding(6, 2, embeddings_initializer=keras.initializers.Constant(table), mask_zero=True, name="e")

    def masked(kind: str) -> Any:
        x = emb()(ids)
        if kind == "gap":
            return bits(L.GlobalAveragePooling1D(name="g")(x, mask=explicit))
        if kind == "gap-none":
            return bits(L.GlobalAveragePooling1D(name="g")(x))
        if kind == "gmp":
            return bits(L.GlobalMaxPooling1D(name="g")(x, mask=explicit))
        if kind == "gap-keepdims":
            return bits(L.GlobalAveragePooling1D(keepdims=True, name="g")(x, mask=explicit))
        if kind == "gap-list":   # a mask that is not a tensor: the call has one tensor argument, the mask is kept
            return bits(L.GlobalAveragePooling1D(name="g")(x, mask=explicit.tolist()))
        if kind == "gap-list-unmasked":
            y = L.Embedding(6, 2, embeddings_initializer="ones", name="e2")(ids)
            return bits(L.GlobalAveragePooling1D(name="g")(y * x, mask=explicit.tolist()))
        if kind == "functional":
            i = keras.Input((4,), dtype="int32", name="i")
            mi = keras.Input((4,), dtype="bool", name="mi")
            y = L.GlobalAveragePooling1D(name="g")(emb()(i), mask=mi)
            return bits(keras.Model([i, mi], y, name="m")([ids, explicit]))
        raise AssertionError(kind)
    for kind in ("gap", "gap-none", "gmp", "gap-keepdims", "gap-list", "gap-list-unmasked", "functional"):
        cases[f"explicit mask {kind}"] = lambda kind=kind: masked(kind)

    def depth(order: str, shape: str) -> Any:
        x = keras.Input((2,), name="x")
        d1 = L.Dense(2, name="d1")(x)
        if shape == "branch":
            long = L.Dense(2, name="d4")(L.Dense(2, name="d3")(L.Dense(2, name="d2")(d1)))
            short = L.Dense(2, name="e1")(d1)
            outs = [long, short] if order == "long-first" else [short, long]
        elif shape == "residual":
            long = L.Dense(2, name="d3")(L.Dense(2, name="d2")(d1))
            side = L.Dense(2, name="e1")(x)
            add = L.Add(name="add")([long, d1])
            outs = [add, side] if order == "long-first" else [side, add]
        else:
            a = L.Dense(2, name="a2")(L.Dense(2, name="a1")(x))
            b = L.Dense(2, name="b1")(d1)
            c = L.Concatenate(name="cat")([a, b, d1])
            short = L.Dense(2, name="s1")(d1)
            outs = [c, short] if order == "long-first" else [short, c]
        m = keras.Model(x, outs, name="m")
        return [ly.name for ly in m.layers]
    for shape in ("branch", "residual", "diamond"):
        for order in ("long-first", "short-first"):
            cases[f"layers {shape} {order}"] = lambda shape=shape, order=order: depth(order, shape)
    return run_cases("q-graphs", cases, keras)


REF.add("q-graphs", _graphs)

FAMILIES = tuple(REF.programs)

"""The classes around the eighty-sixth blind batch's mutants (tests/mutants.py TRAINING_BATCH86, the Keras areas) that
the suite did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind86_gaps --record`, which rewrites blind86_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits may follow the CPU's kernels (prefix `kernel-`: Eigen's vectorized transcendental functions, the
NaN an elementwise kernel keeps) run on simdist elsewhere under its reference model of such a host. Floats are
compared by their bits (a NaN's payload too)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.raw_bits import raw_bits as _raw
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind86_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _specials(dt: str) -> np.ndarray:
    """Signed zeros, infinities, tagged quiet NaNs of both signs, the dtype's extremes and values near 0, 1 and 2 (as
    `dt`). (No signalling NaN: TF's arithmetic quiets one where simdist's Mul, Exp's packets, Log1p and Reciprocal
    keep it, left open: docs/conformance.md, the eighty-sixth blind batch.)"""
    u = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}[dt]
    nans = {"float16": (0x7E05, 0xFE03), "float32": (0x7FC00005, 0xFFC00003),
            "float64": (0x7FF8000000000005, 0xFFF8000000000003)}[dt]
    fi = np.finfo(dt)
    vals = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, 2.0, 0.5, 1e-7, -1e-7, 3.0, 8.0, -27.0, 10.0, 100.0,
                     0.999, 1.001, 7.25, -7.25, 1e4], np.float64).astype(dt)
    vals = np.concatenate([vals, np.array([fi.max, -fi.max, fi.tiny, -fi.tiny], dt)])
    return np.concatenate([vals, np.array(nans, u).view(dt)])


def _samples(name: str, dt: str, n: int, lo: float, hi: float) -> np.ndarray:
    """`n` seeded values in [lo, hi) followed by the specials (sizes that leave packets and a tail)."""
    r = _rng(f"{name}-{dt}-{n}")
    return np.concatenate([r.uniform(lo, hi, n).astype(dt), _specials(dt)])


# -- 1. keras.ops' NumPy-like math by its bits: each function's formula, packets and NaN operands ---------------------
_UNARY = ("cbrt", "log2", "log10", "log1p", "expm1", "exp2", "exp", "log", "sqrt", "square", "reciprocal", "sign",
          "negative", "absolute", "sinc", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
          "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg", "floor", "ceil", "trunc", "round", "nan_to_num",
          "isnan", "isinf", "isfinite", "signbit")
_MATH = ("rsqrt", "erf", "erfinv", "logsumexp")


def _keras_ops_numpy_math(tf: Any, mk: Any) -> Any:
    """keras.ops' elementwise NumPy-like functions (cbrt, log2, log10, log1p, expm1, exp2, reciprocal, sinc, the
    trigonometric and hyperbolic ones, rounding, nan_to_num, ...) and keras.ops.rsqrt/erf/erfinv/logsumexp on float16,
    float32 and float64 inputs of 37 seeded values and the specials (signed zeros, infinities, tagged and signalling
    NaNs of both signs, the dtype's extremes), and int32 inputs (their result dtype): every result's bits. Keras 3.15
    writes several of them as formulas (cbrt = sign(x)·|x|^(1/3), log2 = log(x)/log(2), exp2 = 2^x, sinc = sin(πx)/πx),
    so their last bits and which NaN survives follow the formula's ops."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    for dt in ("float16", "float32", "float64"):
        x = _samples("numpy-math", dt, 37, -4, 4)
        pos = np.abs(_samples("numpy-math-pos", dt, 37, 0, 9))
        inside = np.where(np.abs(x) < 1, x, np.nan).astype(dt)   # (arcsin, arccos, arctanh of |x| > 1: TF's
        above = (np.abs(x) + 1).astype(dt)                       # packets' NaN bits, left open)
        for name in _UNARY:
            arg = pos if name in ("log2", "log10", "log", "sqrt") else x
            arg = inside if name in ("arcsin", "arccos", "arctanh") else (above if name == "arccosh" else arg)
            out[f"{name} {dt}"] = _error(lambda name=name, arg=arg: _raw(getattr(ops, name)(tf.constant(arg))))
        for name in _MATH:
            arg = pos if name == "rsqrt" else (inside if name == "erfinv" else x)
            if name in ("erf", "logsumexp") and dt == "float16":   # (their float16 NaN payloads: left open)
                arg = np.nan_to_num(x, nan=0.25)
            out[f"math.{name} {dt}"] = _error(lambda name=name, arg=arg: _raw(getattr(ops, name)(tf.constant(arg))))
        out[f"nan_to_num options {dt}"] = _error(
            lambda x=x: _raw(ops.nan_to_num(tf.constant(x), nan=1.5, posinf=7.0, neginf=-7.0)))
    xi = np.array([0, 1, -1, 8, -27, 1000, 7], np.int32)
    for name in ("cbrt", "log2", "log1p", "exp2", "sinc", "sqrt", "reciprocal", "nan_to_num"):
        out[f"{name} int32"] = _error(lambda name=name: _raw(getattr(ops, name)(tf.constant(xi))))
    return out


_program("kernel-keras-ops-numpy-math-bits", _keras_ops_numpy_math)


@pytest.mark.clause("keras.ops")
def test_blind86_keras_ops_numpy_math_by_bits(backend: Any) -> None:
    """keras.ops' NumPy-like elementwise math, bit for bit with TF 2.21 + Keras 3.15 (formulas, NaN operands)."""
    _check(backend, "kernel-keras-ops-numpy-math-bits")


# -- 2. string options of Keras layers given None, an unknown name or another case: accepted or refused -----------
def _string_options(tf: Any, mk: Any) -> Any:
    """Keras layers whose string options Keras checks (validate_string_arg and the layers' own checks): the lookup
    layers' output_mode and oov handling, TextVectorization's standardize/split/output_mode, Hashing's and
    CategoryEncoding's output_mode, Discretization's output_mode, the convolutions' and poolings' padding and
    data_format, Resizing's interpolation, Attention's score_mode, each given None, "", an unknown name, an upper-case
    variant and a valid value: the layer's class name and the option as it kept it, or the error class. (None is
    allowed only where Keras says so: TextVectorization's standardize and split.)"""
    L = tf.keras.layers
    makers = {
        "StringLookup output_mode": lambda v: L.StringLookup(output_mode=v),
        "IntegerLookup output_mode": lambda v: L.IntegerLookup(output_mode=v),
        "StringLookup oov_token": lambda v: L.StringLookup(oov_token=v, vocabulary=["a", "b"]),
        "TextVectorization standardize": lambda v: L.TextVectorization(standardize=v),
        "TextVectorization split": lambda v: L.TextVectorization(split=v),
        "TextVectorization output_mode": lambda v: L.TextVectorization(output_mode=v),
        "Hashing output_mode": lambda v: L.Hashing(num_bins=4, output_mode=v),
        "CategoryEncoding output_mode": lambda v: L.CategoryEncoding(num_tokens=4, output_mode=v),
        "Discretization output_mode": lambda v: L.Discretization(bin_boundaries=[0.0, 1.0], output_mode=v),
        "Conv2D padding": lambda v: L.Conv2D(2, 3, padding=v),
        "Conv1D data_format": lambda v: L.Conv1D(2, 3, data_format=v),
        "MaxPooling2D padding": lambda v: L.MaxPooling2D(2, padding=v),
        "Resizing interpolation": lambda v: L.Resizing(4, 4, interpolation=v),
        "Attention score_mode": lambda v: L.Attention(score_mode=v),
    }
    valid = {"StringLookup output_mode": "count", "IntegerLookup output_mode": "one_hot", "StringLookup oov_token": "?",
             "TextVectorization standardize": "lower", "TextVectorization split": "character",
             "TextVectorization output_mode": "multi_hot", "Hashing output_mode": "one_hot",
             "CategoryEncoding output_mode": "count", "Discretization output_mode": "one_hot", "Conv2D padding": "same",
             "Conv1D data_format": "channels_first", "MaxPooling2D padding": "valid", "Resizing interpolation": "nearest",
             "Attention score_mode": "concat"}
    out: dict[str, Any] = {}
    for name, make in makers.items():
        for v in (None, "", "bogus", valid[name].upper(), valid[name]):
            def run(make: Any = make, v: Any = v) -> Any:
                layer = make(v)
                cfg = layer.get_config()
                key = name.split(" ")[1]
                return [type(layer).__name__, repr(cfg.get(key, "(absent)"))]
            out[f"{name}={v!r}"] = _error(run)
    return out


_program("keras-string-options-none-unknown-and-case", _string_options)


@pytest.mark.clause("keras.layer.option-coverage")
def test_blind86_string_options_accepted_or_refused(backend: Any) -> None:
    """Keras layers' string options given None, "", unknown names and other cases: refused as Keras refuses them."""
    _check(backend, "keras-string-options-none-unknown-and-case")


# -- 3. a layer's own variables: add_weight and its alias add_variable, every option -----------------------------
def _layer_variable_options(tf: Any, mk: Any) -> Any:
    """A custom layer whose build makes variables with add_weight and with add_variable (Keras's alias, the same
    options): trainable False, dtype int32/float64, autocast False, a regularizer, a constraint, a name, string,
    instance and callable initializers; then the layer called under "float32" and "mixed_float16" policies and one
    SGD step of a model around it: which variables are trainable, their names, paths, dtypes and values, the
    output's dtype, the regularization losses. add_variable is add_weight by another name. (A cleared session
    first: the variables' paths hold the layers' generated names, counted per name since the last clear.)"""
    keras = tf.keras
    keras.backend.clear_session()
    L = keras.layers
    out: dict[str, Any] = {}
    for method in ("add_weight", "add_variable"):
        class Own(L.Layer):
            def build(self, shape: Any) -> None:
                make = getattr(self, method)
                n = shape[-1]
                self.w = make(shape=(n, 2), initializer="ones", name="w")
                self.frozen = make(shape=(2,), initializer="zeros", trainable=False, name="frozen")
                self.count = make(shape=(), initializer="zeros", dtype="int32", trainable=False, name="count")
                self.wide = make(shape=(2,), initializer=keras.initializers.Constant(0.1), dtype="float64", name="wide")
                self.raw = make(shape=(2,), initializer="ones", autocast=False, name="raw")
                self.reg = make(shape=(2,), initializer="ones", regularizer=keras.regularizers.L2(0.5), name="reg")
                self.pos = make(shape=(2,), initializer=lambda s, dtype=None: -np.ones(s, "float32"),
                                constraint=keras.constraints.NonNeg(), name="pos")

            def call(self, x: Any) -> Any:
                self.seen = [keras.backend.standardize_dtype(v.dtype) for v in (self.w, self.raw, self.wide, self.reg)]
                h = keras.ops.matmul(x, self.w) + self.frozen + self.pos
                h = h + keras.ops.cast(self.raw, h.dtype) * keras.ops.cast(self.reg, h.dtype)
                return h + keras.ops.cast(self.wide, h.dtype)

        for policy in ("float32", "mixed_float16"):
            keras.mixed_precision.set_global_policy(policy)
            try:
                layer = Own()
                y = layer(np.ones((2, 3), "float32"))
                out[f"{method} {policy} call"] = [str(y.dtype), layer.seen, len(layer.losses)]
                out[f"{method} {policy} variables"] = [
                    [v.name, v.path, str(v.dtype), bool(v.trainable)] for v in layer.weights]
                out[f"{method} {policy} trainable"] = [v.name for v in layer.trainable_weights]
                out[f"{method} {policy} non-trainable"] = [v.name for v in layer.non_trainable_weights]
            finally:
                keras.mixed_precision.set_global_policy("float32")
        m = keras.Sequential([keras.Input((3,)), Own()])
        m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        m.fit(np.ones((4, 3), "float32"), np.zeros((4, 2), "float32"), epochs=1, batch_size=4, verbose=0,
              shuffle=False)
        out[f"{method} after a step"] = [[v.name, np.asarray(v).ravel().tolist()] for v in m.layers[0].weights]
    return out


_program("keras-layer-variable-options", _layer_variable_options)


@pytest.mark.clause("keras.layer.option-coverage")
def test_blind86_layer_variables_take_every_option(backend: Any) -> None:
    """add_weight and add_variable with every option: trainability, dtypes, names, autocast, regularizers, constraints."""
    _check(backend, "keras-layer-variable-options")


# -- 4. summary's table laid out from given positions and line lengths --------------------------------------------
def _summary_layouts(tf: Any, mk: Any) -> Any:
    """Model.summary of a Sequential model, a functional model with two branches (its connections column) and a
    model holding a nested model, under line lengths 60-120 and positions (fractions summing to less than one, to
    exactly one, absolute column ends, fewer and more than the header has), with show_trainable and expand_nested:
    the printed text. Keras draws the table with rich, which spreads the room the columns leave over them in
    proportion to their widths, rounding up as it goes (rich's ratio_distribute), and shrinks them evenly when they do
    not fit (ratio_reduce)."""
    keras = tf.keras
    L = keras.layers
    seq = keras.Sequential([keras.Input((6,), name="x_in"), L.Dense(7, name="hidden"), L.Dense(3, name="head")],
                           name="seq")
    a = keras.Input((4,), name="a_in")
    b1, b2 = L.Dense(5, name="left")(a), L.Dense(5, name="right")(a)
    two = keras.Model(a, L.Dense(1, name="out")(L.Concatenate(name="join")([b1, b2])), name="branches")
    inner = keras.Sequential([keras.Input((6,)), L.Dense(2, name="inner_dense")], name="inner")
    x = keras.Input((6,), name="outer_in")
    nested = keras.Model(x, L.Dense(1, name="outer_dense")(inner(x)), name="nested")
    layouts = [dict(line_length=60, positions=[0.3, 0.5, 0.7]), dict(line_length=71, positions=[0.2, 0.45, 0.6]),
               dict(line_length=83, positions=[0.25, 0.5, 0.65, 0.8]), dict(line_length=97, positions=[0.4, 0.6, 1.0]),
               dict(line_length=120, positions=[30, 60, 75]), dict(line_length=77, positions=[0.33, 0.66]),
               dict(line_length=90, positions=[0.1, 0.3, 0.5, 0.6, 0.7]), dict(line_length=64),
               dict(line_length=101, positions=[0.5, 0.7, 0.85], show_trainable=True),
               dict(line_length=88, positions=[0.3, 0.55, 0.7], expand_nested=True, show_trainable=True)]
    out: dict[str, Any] = {}
    for mname, model in (("seq", seq), ("branches", two), ("nested", nested)):
        for i, kw in enumerate(layouts):
            lines: list[str] = []
            out[f"{mname} {i}"] = _error(
                lambda model=model, kw=kw, lines=lines: model.summary(print_fn=lambda s, **k: lines.append(s), **kw)
                or "\n".join(lines))
    return out


_program("keras-summary-layouts", _summary_layouts)


@pytest.mark.clause("keras.model.summary")
def test_blind86_summary_layouts_from_positions(backend: Any) -> None:
    """Model.summary's table under given line lengths and positions: the columns as rich lays them out."""
    _check(backend, "keras-summary-layouts")


# -- 5. keras.ops' ranges, integrals and reductions by their bits; softmax over several axes -------------------------
def _keras_ops_ranges_and_reductions(tf: Any, mk: Any) -> Any:
    """keras.ops.logspace/linspace/geomspace (bases 10, 2 and 0.5, endpoint both ways, float32 and float64),
    trapezoid with a dx and with sample points along each axis, average with and without weights, var, std, ptp,
    diff, cumsum, cumprod, nan_to_num, and softmax/log_softmax over every tuple of axes of rank-3 and rank-4
    inputs (positive and negative axes): every result's bits. Keras 3.15 writes logspace as pow(base, linspace),
    trapezoid as sum(0.5 (y[1:] + y[:-1]) · dx), softmax over several axes as a transpose, a reshape, a softmax over
    the last axis and the inverse transpose."""
    ops = tf.keras.ops
    r = _rng("keras-ops-ranges-and-reductions")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        for base in (10, 2, 0.5):
            for endpoint in (True, False):
                out[f"logspace base {base} endpoint {endpoint} {dt}"] = _error(
                    lambda base=base, endpoint=endpoint, dt=dt: _raw(
                        ops.logspace(-1.5, 2.25, num=13, endpoint=endpoint, base=base, dtype=dt)))
        out[f"linspace {dt}"] = _error(lambda dt=dt: _raw(ops.linspace(-1.3, 2.9, num=17, dtype=dt)))
        out[f"geomspace {dt}"] = _error(lambda dt=dt: _raw(ops.geomspace(0.3, 70.0, num=11, dtype=dt)))
        y = r.uniform(-3, 3, (3, 7)).astype(dt)
        pts = np.sort(r.uniform(0, 5, 7)).astype(dt)
        for dx in (1.0, 0.1, 0.37):
            out[f"trapezoid dx {dx} {dt}"] = _error(lambda y=y, dx=dx: _raw(ops.trapezoid(y, dx=dx)))
        out[f"trapezoid x {dt}"] = _error(lambda y=y, pts=pts: _raw(ops.trapezoid(y, x=pts)))
        out[f"trapezoid axis 0 {dt}"] = _error(lambda y=y: _raw(ops.trapezoid(y, dx=0.3, axis=0)))
        w = r.uniform(0, 2, (3, 7)).astype(dt)
        out[f"average {dt}"] = _error(lambda y=y: _raw(ops.average(y, axis=1)))
        out[f"average weights {dt}"] = _error(lambda y=y, w=w: _raw(ops.average(y, axis=1, weights=w)))
        out[f"average weights 1-d {dt}"] = _error(lambda y=y, w=w: _raw(ops.average(y, axis=1, weights=w[0])))
        for name in ("var", "std", "ptp", "cumsum", "cumprod"):
            out[f"{name} {dt}"] = _error(lambda y=y, name=name: _raw(getattr(ops, name)(y, axis=1)))
        out[f"diff {dt}"] = _error(lambda y=y: _raw(ops.diff(y, n=2)))
        z = r.uniform(-4, 4, (2, 3, 4, 5)).astype(dt)
        for axes in ((0,), (1,), (-1,), (0, 1), (0, 2), (1, 3), (0, 2, 3), (-3, -1), (2, 0)):
            out[f"softmax {axes} {dt}"] = _error(lambda z=z, axes=axes: _raw(ops.softmax(z, axis=axes)))
            out[f"log_softmax {axes} {dt}"] = _error(lambda z=z, axes=axes: _raw(ops.log_softmax(z, axis=axes)))
        z3 = z[0]
        for axes in ((0,), (0, 1), (1, 2), (0, 2)):
            out[f"softmax rank 3 {axes} {dt}"] = _error(lambda z3=z3, axes=axes: _raw(ops.softmax(z3, axis=axes)))
    return out


_program("kernel-keras-ops-ranges-and-reductions", _keras_ops_ranges_and_reductions)


@pytest.mark.clause("keras.ops")
def test_blind86_keras_ops_ranges_reductions_and_softmax_axes(backend: Any) -> None:
    """keras.ops' ranges, integrals, reductions and softmax over several axes, bit for bit with TF 2.21 + Keras 3.15."""
    _check(backend, "kernel-keras-ops-ranges-and-reductions")


# -- 6. keras.ops.add's bias rule where the channel axes are alike: which axis the bias goes along -----------------
def _add_bias_rule(tf: Any, mk: Any) -> Any:
    """keras.ops.add (Keras's TF backend turns `x + b` into tf.nn.bias_add when b squeezes to a vector whose length
    is x's axis 1 or last axis: NHWC when it is the last axis's, else NCHW) for inputs whose axis 1 and last axis
    have the same length and for ones where only one matches, of ranks 2-5, with biases of shapes (n,), (1, n),
    (1, 1, n), (n, 1) and (1, n, 1), either operand first; and Dense/EinsumDense/Conv1D layers whose time or
    spatial length equals their units (the bias added by the layer): every result's bits."""
    keras = tf.keras
    ops = keras.ops
    L = keras.layers
    r = _rng("keras-add-bias-rule")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        for shape in ((4, 3), (2, 3, 3), (2, 3, 5), (2, 5, 3), (2, 3, 2, 3), (2, 4, 3, 4), (1, 2, 2, 2, 2)):
            x = r.uniform(-2, 2, shape).astype(dt)
            for n in sorted({shape[1], shape[-1]}):
                v = r.uniform(-1, 1, n).astype(dt)
                for bshape in ((n,), (1, n), (1, 1, n), (n, 1), (1, n, 1)):
                    b = v.reshape(bshape)
                    out[f"add {shape} + {bshape} {dt}"] = _error(lambda x=x, b=b: _raw(ops.add(x, b)))
                    out[f"add {bshape} + {shape} {dt}"] = _error(lambda x=x, b=b: _raw(ops.add(b, x)))
        seq = r.uniform(-1, 1, (2, 4, 4)).astype(dt)
        for name, layer in (("Dense", L.Dense(4, bias_initializer="glorot_uniform", dtype=dt)),
                            ("EinsumDense", L.EinsumDense("abc,cd->abd", (None, 4), bias_axes="d",
                                                          bias_initializer="glorot_uniform", dtype=dt)),
                            ("Conv1D", L.Conv1D(4, 1, bias_initializer="glorot_uniform", dtype=dt))):
            layer.build(seq.shape)
            for i, w in enumerate(layer.weights):
                w.assign(r.uniform(-1, 1, tuple(w.shape)).astype(dt))
            out[f"{name} time = units {dt}"] = _error(lambda layer=layer: _raw(layer(seq)))
    return out


_program("keras-add-bias-rule-shapes", _add_bias_rule)


@pytest.mark.clause("keras.ops")
def test_blind86_keras_add_takes_the_bias_along_the_axis_keras_chooses(backend: Any) -> None:
    """keras.ops.add's bias rule (BiasAdd NHWC or NCHW) where axis 1 and the last axis have the bias's length."""
    _check(backend, "keras-add-bias-rule-shapes")


# -- 7. a functional model's input specs: the batch dimension left free, the rest checked ---------------------------
def _functional_input_specs(tf: Any, mk: Any) -> Any:
    """Functional and Sequential models built on Inputs with a batch size (keras.Input(shape, batch_size=n),
    batch_shape), with unknown inner dimensions, two inputs and a dict of inputs: `input_spec`'s shapes and
    names, and the model called, predicted and nested in another model on batches of the Input's size, of other
    sizes and of a wrong inner size: the output shapes or the error class. Keras's Functional.input_spec leaves
    the batch dimension free (None) whatever the Input said, and keeps every other dimension."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    i4 = keras.Input((3,), batch_size=4, name="fixed")
    fixed = keras.Model(i4, L.Dense(2, name="d")(i4), name="fixed_batch")
    ib = keras.Input(batch_shape=(2, None, 5), name="seq_in")
    seq_model = keras.Model(ib, L.GlobalAveragePooling1D()(L.Dense(3)(ib)), name="var_len")
    a, b = keras.Input((2,), batch_size=3, name="a"), keras.Input((4,), name="b")
    two = keras.Model([a, b], L.Concatenate()([a, b]), name="two")
    da, db = keras.Input((2,), batch_size=5, name="da"), keras.Input((1,), name="db")
    dct = keras.Model({"da": da, "db": db}, L.Concatenate()([da, db]), name="dict_in")
    sq = keras.Sequential([keras.Input((3,), batch_size=4), L.Dense(1)], name="seq_fixed")

    def specs(m: Any) -> Any:
        sp = m.input_spec
        sp = sp if isinstance(sp, (list, tuple)) else [sp]
        return [[None if x is None else str(x.shape), getattr(x, "name", None)] for x in sp]

    for m in (fixed, seq_model, two, dct, sq):
        out[f"{m.name} input_spec"] = _error(lambda m=m: specs(m))
    f32 = np.float32
    calls = {
        "fixed 4": lambda: fixed(np.ones((4, 3), f32)), "fixed 2": lambda: fixed(np.ones((2, 3), f32)),
        "fixed 7 predict": lambda: fixed.predict(np.ones((7, 3), f32), batch_size=3, verbose=0),
        "fixed inner 5": lambda: fixed(np.ones((4, 5), f32)),
        "var_len 6x4": lambda: seq_model(np.ones((6, 4, 5), f32)), "var_len 2x9": lambda: seq_model(np.ones((2, 9, 5), f32)),
        "var_len inner 3": lambda: seq_model(np.ones((2, 4, 3), f32)),
        "two 1": lambda: two([np.ones((1, 2), f32), np.ones((1, 4), f32)]),
        "two 3": lambda: two([np.ones((3, 2), f32), np.ones((3, 4), f32)]),
        "dict 2": lambda: dct({"da": np.ones((2, 2), f32), "db": np.ones((2, 1), f32)}),
        "seq_fixed 6": lambda: sq(np.ones((6, 3), f32)),
        "nested 5": lambda: keras.Model(x := keras.Input((3,)), fixed(x))(np.ones((5, 3), f32)),
    }
    for name, call in calls.items():
        out[name] = _error(lambda call=call: list(np.shape(call())))
    return out


_program("keras-functional-input-specs", _functional_input_specs)


@pytest.mark.clause("keras.model.call")
def test_blind86_functional_input_specs_leave_the_batch_free(backend: Any) -> None:
    """A functional model's input_spec: the Input's batch size not enforced, its other dimensions checked."""
    _check(backend, "keras-functional-input-specs")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

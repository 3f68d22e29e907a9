"""The classes around the eighty-second blind batch's mutants (tests/mutants.py TRAINING_BATCH82, the Keras areas) that
the suite did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind82_gaps --record`, which rewrites blind82_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits follow the CPU's kernels (prefix `kernel-`) run on simdist elsewhere under its reference model of
such a host. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind82_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _dtype_and_bits(t: Any) -> Any:
    return [str(np.asarray(t).dtype), _bits(t)]


# -- 1. keras.ops' elementwise functions Keras writes out of several TF ops: their arithmetic bit for bit ------------
def _ops_written_out_math(tf: Any, mk: Any) -> Any:
    """keras.ops.hypot, logaddexp2, logaddexp, deg2rad, rad2deg and sinc on float32 and float64 operands of ordinary
    magnitude, of very different magnitudes and of large magnitude (hypot's scaling, logaddexp2's distant operands):
    the results by their bits (each function is a fixed composition of TF ops, which its last bits show)."""
    ops = tf.keras.ops
    r = _rng("written-out-math")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        a = r.uniform(-4, 4, 41).astype(dt)
        b = r.uniform(-4, 4, 41).astype(dt)
        big = (r.uniform(1, 2, 9) * 1e18).astype(dt)
        wide = np.concatenate([a[:9] * 60, b[:9] / 60]).astype(dt)
        out[f"hypot {dt}"] = _error(lambda a=a, b=b: _bits(ops.hypot(a, b)))
        out[f"hypot big {dt}"] = _error(lambda big=big, b=b: _bits(ops.hypot(big, big[::-1] * 0.5)))
        out[f"logaddexp2 {dt}"] = _error(lambda a=a, b=b: _bits(ops.logaddexp2(a, b)))
        out[f"logaddexp2 wide {dt}"] = _error(lambda w=wide: _bits(ops.logaddexp2(w, w[::-1])))
        out[f"logaddexp {dt}"] = _error(lambda a=a, b=b: _bits(ops.logaddexp(a, b)))
        out[f"deg2rad {dt}"] = _error(lambda a=a: _bits(ops.deg2rad(a * 90)))
        out[f"rad2deg {dt}"] = _error(lambda a=a: _bits(ops.rad2deg(a)))
        out[f"sinc {dt}"] = _error(lambda a=a: _bits(ops.sinc(a)))
    return out


_program("kernel-keras-ops-written-out-math", _ops_written_out_math)


# -- 2. keras.ops' reductions composed by Keras: cdist, corrcoef, average, softmax and log_softmax ------------------
def _ops_composed_reductions(tf: Any, mk: Any) -> Any:
    """keras.ops.cdist (2-D and batched, float32 and float64), corrcoef (rows of several lengths), average (with and
    without weights, over an axis and over all), softmax and log_softmax (last axis, axis 0, axis None; rows of 1, 9
    and 33): the results by their bits."""
    ops = tf.keras.ops
    r = _rng("composed-reductions")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        x = r.uniform(-2, 3, (5, 7)).astype(dt)
        y = r.uniform(-2, 3, (6, 7)).astype(dt)
        out[f"cdist {dt}"] = _error(lambda x=x, y=y: _bits(ops.cdist(x, y)))
        out[f"cdist batched {dt}"] = _error(
            lambda x=x, y=y: _bits(ops.cdist(np.stack([x, x[::-1]]), np.stack([y, y[::-1]]))))
        out[f"cdist equal rows {dt}"] = _error(lambda x=x: _bits(ops.cdist(x, x)))
        for n in (3, 11, 40):
            c = r.uniform(-1, 2, (4, n)).astype(dt)
            out[f"corrcoef {n} {dt}"] = _error(lambda c=c: _bits(ops.corrcoef(c)))
        w = r.uniform(0.1, 2, (5, 7)).astype(dt)
        out[f"average weights axis=1 {dt}"] = _error(lambda x=x, w=w: _bits(ops.average(x, axis=1, weights=w)))
        out[f"average weights all {dt}"] = _error(lambda x=x, w=w: _bits(ops.average(x, weights=w)))
        out[f"average weights vector {dt}"] = _error(lambda x=x, w=w: _bits(ops.average(x, axis=1, weights=w[0])))
        for n in (1, 9, 33):
            z = r.uniform(-6, 6, (4, n)).astype(dt)
            for axis in (-1, 0, None):
                out[f"softmax {n} axis={axis} {dt}"] = _error(lambda z=z, a=axis: _bits(ops.softmax(z, axis=a)))
                out[f"log_softmax {n} axis={axis} {dt}"] = _error(
                    lambda z=z, a=axis: _bits(ops.log_softmax(z, axis=a)))
    return out


_program("kernel-keras-ops-composed-reductions", _ops_composed_reductions)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", ["kernel-keras-ops-written-out-math", "kernel-keras-ops-composed-reductions"])
def test_blind82_keras_ops_compositions(backend: Any, name: str) -> None:
    """keras.ops functions Keras composes of several TF ops, in Keras's order of operations."""
    _check(backend, name)


# -- 3. keras.ops.image's kernels: Gaussian blur and scale_and_translate's filters ------------------------------------
def _image_kernels(tf: Any, mk: Any) -> Any:
    """keras.ops.image.gaussian_blur (kernel sizes 3, 5 and 7; equal and unequal sigmas) and scale_and_translate
    (methods linear, cubic, lanczos3, lanczos5, gaussian; up- and downscaling, with and without antialias) on float32
    images: the outputs by their bits (the filters' weights are computed by a fixed formula)."""
    ops = tf.keras.ops
    r = _rng("image-kernels")
    img = r.uniform(0, 1, (2, 9, 11, 2)).astype("float32")
    out: dict[str, Any] = {}
    for k, s in (((3, 3), (1.0, 1.0)), ((5, 5), (1.3, 0.7)), ((7, 5), (2.1, 0.45))):
        out[f"gaussian_blur {k} {s}"] = _error(
            lambda k=k, s=s: _bits(ops.image.gaussian_blur(img, kernel_size=k, sigma=s)))
    for method in ("linear", "cubic", "lanczos3", "lanczos5", "gaussian"):
        for shape, scale, trans in (((2, 13, 7, 2), (1.5, 0.7), (0.3, -0.2)), ((2, 5, 16, 2), (0.55, 1.4), (0.0, 0.5))):
            for aa in (True, False):
                def st(method: str = method, shape: Any = shape, scale: Any = scale, trans: Any = trans,
                       aa: bool = aa) -> Any:
                    return _bits(ops.image.scale_and_translate(
                        img, output_shape=shape, scale=np.array(scale, "float32"),
                        translation=np.array(trans, "float32"), spatial_dims=(1, 2), method=method, antialias=aa))
                out[f"scale_and_translate {method} {shape} aa={aa}"] = _error(st)
    return out


_program("kernel-keras-image-kernels", _image_kernels)


@pytest.mark.clause("keras.ops")
def test_blind82_keras_image_kernels(backend: Any) -> None:
    """keras.ops.image's filter weights (Gaussian, Lanczos, cubic) bit for bit."""
    _check(backend, "kernel-keras-image-kernels")


# -- 4. keras.ops' dtype rules: comparisons, where, clip, sum and mean by input dtype ----------------------------------
def _ops_dtype_rules(tf: Any, mk: Any) -> Any:
    """keras.ops comparisons (less, less_equal, greater, greater_equal, equal, not_equal) of int32, int8 and float16
    tensors against Python floats and ints and against tensors of other dtypes; where with Python-number and tensor
    branches; clip of bool, int8 and float16; sum and mean of bool, int8, int16, uint8, uint16, int32, float16 and
    bfloat16: each result's dtype and value."""
    ops = tf.keras.ops
    r = _rng("ops-dtype-rules")
    out: dict[str, Any] = {}
    ints = np.array([-2, 0, 1, 3], "int32")
    smalls = np.array([-2, 0, 1, 3], "int8")
    halves = r.uniform(-2, 3, 4).astype("float16")
    for fname in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
        f = getattr(ops, fname)
        for label, a in (("int32", ints), ("int8", smalls), ("float16", halves)):
            for other in (0.5, 1, np.float32(0.5), np.array([0.5, 0.0, 1.0, 2.5], "float32")):
                out[f"{fname} {label} {type(other).__name__}"] = _error(
                    lambda f=f, a=a, o=other: _dtype_and_bits(f(a, o)))
            out[f"{fname} float scalar first {label}"] = _error(lambda f=f, a=a: _dtype_and_bits(f(0.5, a)))
    cond = np.array([True, False, True, False])
    for label, a in (("int32", ints), ("int8", smalls), ("float16", halves)):
        for other in (0.25, 2, np.array([1, 2, 3, 4], "int16")):
            out[f"where {label} {type(other).__name__}"] = _error(
                lambda a=a, o=other: _dtype_and_bits(ops.where(cond, a, o)))
            out[f"where first {label} {type(other).__name__}"] = _error(
                lambda a=a, o=other: _dtype_and_bits(ops.where(cond, o, a)))
    for label, a in (("bool", cond), ("int8", smalls), ("float16", halves)):
        out[f"clip {label}"] = _error(lambda a=a: _dtype_and_bits(ops.clip(a, 0, 1)))
    vals = np.array([100, 100, 7, 1, 0], "int64")
    for dt in ("bool", "int8", "int16", "uint8", "uint16", "int32", "int64", "float16", "bfloat16"):
        def arr(dt: str = dt) -> Any:
            return tf.cast(tf.constant(vals), dt)
        out[f"sum {dt}"] = _error(lambda arr=arr: _dtype_and_bits(ops.sum(arr())))
        out[f"mean {dt}"] = _error(lambda arr=arr: _dtype_and_bits(ops.mean(arr())))
    long = r.uniform(0, 1, 3001).astype("float16")
    out["mean float16 long"] = _error(lambda: _dtype_and_bits(ops.mean(long)))
    out["mean float16 long axis"] = _error(lambda: _dtype_and_bits(ops.mean(long[:3000].reshape(3, 1000), axis=1)))
    return out


_program("keras-ops-dtype-rules", _ops_dtype_rules)


@pytest.mark.clause("keras.ops")
def test_blind82_keras_ops_dtype_rules(backend: Any) -> None:
    """keras.ops' result dtypes and values by input dtype, Python numbers weak."""
    _check(backend, "keras-ops-dtype-rules")


# -- 5. model.summary's table at widths where its columns shrink and its words wrap -----------------------------------
def _summary_widths(tf: Any, mk: Any) -> Any:
    """model.summary() of a functional model whose layers have names of 8 to 48 characters (one word, and words
    joined by underscores), printed at line_length 40, 64, 98 and the default: the table's lines (rich's column
    shrinking and word wrapping)."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    names = ["n" * k for k in range(8, 49, 3)] + ["block_" + "a" * k + "_dense" for k in (5, 14, 23)]
    inp = keras.Input((3,), name="inputs")
    h = inp
    for n in names:
        h = L.Dense(2, name=n)(h)
    model = keras.Model(inp, h, name="widths")
    for width in (40, 64, 98, None):
        lines: list[str] = []
        kwargs = {} if width is None else {"line_length": width}
        model.summary(print_fn=lambda s, line_break=True: lines.append(s), **kwargs)
        out[f"line_length={width}"] = "\n".join(lines)
    return out


_program("keras-summary-widths", _summary_widths)


@pytest.mark.clause("keras.model.summary")
def test_blind82_summary_widths(backend: Any) -> None:
    """model.summary()'s table where columns shrink and names wrap."""
    _check(backend, "keras-summary-widths")


# -- 6. layer and model names: default names from class names, names refused ------------------------------------------
def _layer_names(tf: Any, mk: Any) -> Any:
    """The default names of layers, cells and optimizers whose class names hold acronyms (PReLU, LSTMCell, GRUCell,
    SimpleRNNCell, ReLU, ELU, RMSprop, GroupQueryAttention, MultiHeadAttention, ...) with their numeric suffix
    removed; and names with '/', empty and non-string names given to a layer, a Sequential and a functional model:
    the name or the error's class."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    makers = {
        "PReLU": lambda: L.PReLU(), "ReLU": lambda: L.ReLU(), "ELU": lambda: L.ELU(), "LSTMCell": lambda: L.LSTMCell(2),
        "GRUCell": lambda: L.GRUCell(2), "SimpleRNNCell": lambda: L.SimpleRNNCell(2), "LSTM": lambda: L.LSTM(2),
        "GRU": lambda: L.GRU(2), "MultiHeadAttention": lambda: L.MultiHeadAttention(2, 2),
        "Conv2DTranspose": lambda: L.Conv2DTranspose(2, 2), "UpSampling2D": lambda: L.UpSampling2D(),
        "RMSprop": lambda: keras.optimizers.RMSprop(), "SGD": lambda: keras.optimizers.SGD(),
        "AdamW": lambda: keras.optimizers.AdamW(), "IoU": lambda: keras.metrics.IoU(2, [0]),
        "AUC": lambda: keras.metrics.AUC(), "RandomFlip": lambda: L.RandomFlip(),
        "TextVectorization": lambda: L.TextVectorization(), "StringLookup": lambda: L.StringLookup(),
    }
    for k, f in makers.items():
        out[f"default {k}"] = _error(lambda f=f: re.sub(r"_\d+$", "", f().name))
    for name in ("a/b", "/", "", "ok_name", "with space", 3):
        out[f"layer {name!r}"] = _error(lambda n=name: L.Dense(2, name=n).name)
        out[f"sequential {name!r}"] = _error(lambda n=name: keras.Sequential(name=n).name)
        # (an empty name takes keras_tensor_<a process-wide count>: the count left out, as it depends on what ran before)
        out[f"input {name!r}"] = _error(lambda n=name: re.sub(r"_\d+$", "", keras.Input((2,), name=n).name))
    return out


_program("keras-layer-names", _layer_names)


@pytest.mark.clause("keras.layer.option-coverage")
def test_blind82_layer_names(backend: Any) -> None:
    """Keras's default names (snake case of the class name) and its refusals of bad names."""
    _check(backend, "keras-layer-names")


# -- 7. fit's data checks on structured arrays: the cardinality error's message -------------------------------------
def _cardinality_messages(tf: Any, mk: Any) -> Any:
    """fit and evaluate given x as a dict of NumPy arrays (keys not in sorted order; with y or sample_weight of
    another length too) and as a list, the arrays' first dimensions disagreeing: the error's class and message (Keras
    lists each structure's sizes in the order its tree.flatten visits the arrays: a dict by its sorted keys)."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    b = keras.Input((2,), name="b")
    a = keras.Input((2,), name="a")
    c = keras.Input((2,), name="c")
    model = keras.Model({"b": b, "a": a, "c": c}, L.Dense(1)(L.Concatenate()([b, a, c])))
    model.compile(loss="mse")
    z = lambda n: np.zeros((n, 2), "float32")   # noqa: E731 - a short array maker
    cases = {
        "dict x": ({"b": z(4), "a": z(3), "c": z(5)}, np.zeros((4, 1), "float32"), None),
        "dict x y": ({"c": z(3), "b": z(3), "a": z(3)}, np.zeros((5, 1), "float32"), None),
        "dict x weights": ({"c": z(4), "a": z(4), "b": z(4)}, np.zeros((4, 1), "float32"), np.ones(6, "float32")),
        "dict x reversed": ({"c": z(2), "b": z(3), "a": z(4)}, np.zeros((4, 1), "float32"), None),
    }
    for name, (x, y, w) in cases.items():
        for entry in ("fit", "evaluate"):
            def run(x: Any = x, y: Any = y, w: Any = w, entry: str = entry) -> Any:
                try:
                    getattr(model, entry)(x, y, sample_weight=w, verbose=0)
                    return "no error"
                except Exception as e:  # noqa: BLE001 - the message is the observation
                    return f"{type(e).__name__}: {e}"
            out[f"{entry} {name}"] = run()
    lm = keras.Model([b, a], L.Add()([b, a]))
    lm.compile(loss="mse")
    for entry in ("fit", "evaluate"):
        def run_list(entry: str = entry) -> Any:
            try:
                getattr(lm, entry)([z(4), z(3)], np.zeros((2, 2), "float32"), verbose=0)
                return "no error"
            except Exception as e:  # noqa: BLE001 - the message is the observation
                return f"{type(e).__name__}: {e}"
        out[f"{entry} list x"] = run_list()
    return out


_program("keras-fit-cardinality-messages", _cardinality_messages)


@pytest.mark.clause("keras.fit.data")
def test_blind82_fit_cardinality_messages(backend: Any) -> None:
    """fit's and evaluate's data-cardinality error for structured inputs, sizes listed in Keras's flatten order."""
    _check(backend, "keras-fit-cardinality-messages")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

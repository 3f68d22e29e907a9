"""The classes around the eighty-ninth blind batch's mutants (tests/mutants.py TRAINING_BATCH89: op kernels,
gradients, shape functions, Grappler, variables, tf.data, tf.function tracing, checkpoints, all-reduce packs, random
ops) that the suite did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind89_gaps --record`, which rewrites blind89_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits may follow the CPU's kernels (prefix `kernel-`: Eigen's packets, its sums' order) run on simdist
elsewhere under its reference model of such a host. Floats are compared by their bits."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.raw_bits import raw_bits as _raw
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind89_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _check = REF.add, REF.check


# -- 1. norms over inputs with size-1 dimensions: which dimensions go, and the values ---------------------------------
_NORM_SHAPES = ((3, 1), (1, 4), (1, 1), (2, 1, 3), (1, 3, 1), (4,), (2, 1, 1))


def _norms(tf: Any, mk: Any) -> Any:
    """tf.norm and tf.linalg.norm of every order (euclidean, fro, 1, 2, inf, 3.0) over axis None, each single axis,
    negative forms and the two-axis forms, keepdims True and False; reduce_euclidean_norm, l2_normalize, clip_by_norm
    and linalg.normalize over the same axes; of float32 and float64 inputs whose shapes hold size-1 dimensions, eagerly
    and traced (one function per shape): every result's shape and bits, or the error's class."""
    r = _rng("norms-unit-dims")
    out = {}
    for shape in _NORM_SHAPES:
        rank = len(shape)
        x32 = (r.normal(size=shape) * 3).astype(np.float32)
        singles = list(range(-rank, rank))
        pairs = [(a, b) for a in range(-rank, rank) for b in range(-rank, rank)
                 if a % rank < b % rank] if rank >= 2 else []
        for dt in ("float32", "float64"):
            x = tf.constant(x32.astype(dt))
            ok = []
            for ordv in ("euclidean", "fro", 1, 2, np.inf, 3.0):
                for axis in [None] + singles + pairs[:4]:
                    for keep in (False, True):
                        key = f"norm {shape} {dt} ord={ordv} axis={axis} keepdims={keep}"
                        out[key] = _error(lambda: _raw(tf.norm(x, ord=ordv, axis=axis, keepdims=keep)))
                        if not str(out[key]).startswith("raised"):
                            ok.append((key, tf.norm, dict(ord=ordv, axis=axis, keepdims=keep)))
            for axis in [None] + singles:
                for keep in (False, True):
                    key = f"linalg.norm {shape} {dt} axis={axis} keepdims={keep}"
                    out[key] = _error(lambda: _raw(tf.linalg.norm(x, axis=axis, keepdims=keep)))
                    key = f"euclidean {shape} {dt} axis={axis} keepdims={keep}"
                    out[key] = _error(lambda: _raw(tf.math.reduce_euclidean_norm(x, axis=axis, keepdims=keep)))
                    if not str(out[key]).startswith("raised"):
                        ok.append((key, tf.math.reduce_euclidean_norm, dict(axis=axis, keepdims=keep)))
                out[f"l2_normalize {shape} {dt} axis={axis}"] = _error(lambda: _raw(tf.nn.l2_normalize(x, axis=axis)))
                out[f"clip_by_norm {shape} {dt} axes={axis}"] = _error(
                    lambda: _raw(tf.clip_by_norm(x, 1.5, axes=axis)))
                out[f"normalize {shape} {dt} axis={axis}"] = _error(
                    lambda: [_raw(v) for v in tf.linalg.normalize(x, axis=axis)])
            f = tf.function(lambda t, ok=ok: {k: fn(t, **kw) for k, fn, kw in ok})
            out[f"traced {shape} {dt}"] = _error(lambda: {k: _raw(v) for k, v in f(x).items()})
    return out


_program("kernel-norms-over-unit-dimensions", _norms)


@pytest.mark.clause("ops.math-composites")
def test_blind89_norms_keep_or_drop_exactly_their_axes(backend: Any) -> None:
    """tf.norm/linalg.norm of every order and axis form, reduce_euclidean_norm, l2_normalize, clip_by_norm and
    linalg.normalize on inputs with size-1 dimensions, eager and traced: shapes and bits (only the reduced axes go)."""
    _check(backend, "kernel-norms-over-unit-dimensions")


# -- 2. image geometry: the sizes resize and the crops compute, at their rounding ties ---------------------------------
def _image_sizes(tf: Any, mk: Any) -> Any:
    """tf.image.resize with preserve_aspect_ratio over image sizes and targets whose scaled sizes fall on halves (and
    off them), for the bilinear, nearest and area methods, rank 3 and 4; resize_with_pad, resize_with_crop_or_pad and
    central_crop at odd sizes and fractions; the resulting shapes, and the values of the small bilinear and nearest
    ones."""
    r = _rng("image-sizes")
    out = {}
    hws = ((2, 5), (5, 2), (3, 3), (6, 5), (4, 7), (7, 3), (1, 1), (10, 3), (5, 6), (3, 8))
    targets = ((1, 100), (3, 100), (100, 1), (5, 5), (7, 2), (2, 7), (9, 4), (1, 1), (3, 5))
    for h, w in hws:
        img = tf.constant(r.uniform(0, 10, size=(h, w, 2)).astype(np.float32))
        for th, tw in targets:
            for method in ("bilinear", "nearest", "area"):
                key = f"resize {h}x{w} -> {th}x{tw} {method}"

                def run() -> Any:
                    y = tf.image.resize(img, [th, tw], method=method, preserve_aspect_ratio=True)
                    return _raw(y) if method != "area" and int(np.prod(y.shape)) <= 64 else y.shape.as_list()
                out[key] = _error(run)
            out[f"resize4 {h}x{w} -> {th}x{tw}"] = _error(
                lambda: tf.image.resize(img[None], [th, tw], preserve_aspect_ratio=True).shape.as_list())
            out[f"with_pad {h}x{w} -> {th}x{tw}"] = _error(
                lambda: _raw(tf.image.resize_with_pad(img, th, tw)) if th * tw <= 64 else
                tf.image.resize_with_pad(img, th, tw).shape.as_list())
            out[f"crop_or_pad {h}x{w} -> {th}x{tw}"] = _error(
                lambda: _raw(tf.image.resize_with_crop_or_pad(img, th, tw)) if th * tw <= 64 else
                tf.image.resize_with_crop_or_pad(img, th, tw).shape.as_list())
        for frac in (0.5, 0.3, 0.75, 1.0, 0.1):
            out[f"central_crop {h}x{w} {frac}"] = _error(lambda: _raw(tf.image.central_crop(img, frac)))
    return out


_program("image-sizes-at-rounding-ties", _image_sizes)


@pytest.mark.clause("ops.image-resize")
def test_blind89_image_sizes_at_rounding_ties(backend: Any) -> None:
    """resize with preserve_aspect_ratio, resize_with_pad, resize_with_crop_or_pad and central_crop where the
    computed sizes fall on halves: the shapes (tf.round's half to even) and the small results' bits."""
    _check(backend, "image-sizes-at-rounding-ties")


# -- 3. gradients through a variable's reads, by dtype and read form --------------------------------------------------
def _read_gradients(tf: Any, mk: Any) -> Any:
    """For variables of int32, int64, float32, float64, float16 and complex64: the gradient with respect to the
    variable (watched explicitly, and not) of each read form — read_value(), value(), convert_to_tensor, identity,
    the variable itself, sparse_read, gather, an index, v * 1 — with unconnected gradients None and ZERO, eagerly and
    inside tf.function: None, the gradient's dtype, shape and bits, or the error's class."""
    out = {}
    forms = {"read_value": lambda tf, v: v.read_value(), "value": lambda tf, v: v.value(),
             "convert": lambda tf, v: tf.convert_to_tensor(v), "identity": lambda tf, v: tf.identity(v),
             "itself": lambda tf, v: v, "sparse_read": lambda tf, v: v.sparse_read([0, 1, 1]),
             "gather": lambda tf, v: tf.gather(v, [2, 0]), "index": lambda tf, v: v[1],
             "times-one": lambda tf, v: v * tf.ones([], v.dtype)}
    init = {"int32": [1, 2, 3], "int64": [4, 5, 6], "float32": [0.5, 1.5, 2.5], "float64": [0.25, 1.0, 3.0],
            "float16": [1.0, 2.0, 0.5], "complex64": [1 + 1j, 2 - 1j, 0.5j]}
    for dt, vals in init.items():
        v = tf.Variable(tf.constant(vals, getattr(tf, dt)))
        for fname, form in forms.items():
            for watch in (True, False):
                for unconnected in ("NONE", "ZERO"):
                    key = f"{dt} {fname} watch={watch} unconnected={unconnected}"

                    def run() -> Any:
                        with tf.GradientTape() as tape:
                            if watch:
                                tape.watch(v)
                            y = form(tf, v)
                        g = tape.gradient(y, v, unconnected_gradients=getattr(tf.UnconnectedGradients, unconnected))
                        return _raw(tf.convert_to_tensor(g)) if g is not None else None
                    out[key] = _error(run)

            @tf.function
            def traced(form: Any = form) -> Any:
                with tf.GradientTape() as tape:
                    tape.watch(v)
                    y = form(tf, v)
                g = tape.gradient(y, v)
                return {"g": tf.convert_to_tensor(g)} if g is not None else {}
            out[f"{dt} {fname} traced"] = _error(lambda: {k: _raw(t) for k, t in traced().items()})
    return out


_program("var-read-gradients-by-dtype-and-form", _read_gradients)


@pytest.mark.clause("autodiff.integer")
def test_blind89_gradients_through_variable_reads(backend: Any) -> None:
    """The gradient of each read form of a variable with respect to the variable, for integer, float and complex
    variables, watched or not, unconnected None or ZERO, eagerly and traced: None, zeros, ones or the gradient."""
    _check(backend, "var-read-gradients-by-dtype-and-form")


# -- 4. tf.Variable's initial value against its dtype --------------------------------------------------------------
def _initial_values(tf: Any, mk: Any) -> Any:
    """tf.Variable(initial_value, dtype=...) for initial values of every kind — tensors and callables returning
    tensors of int32, int64, float32 and float64, NumPy arrays and scalars, Python lists and numbers, another
    variable — crossed with dtype None, float16, float32, float64, int32 and int64, and with shape= and
    validate_shape=False: the variable's dtype, shape and bits, or the error's class."""
    out = {}
    kinds = {
        "tensor-int32": lambda: tf.constant([1, 2], tf.int32), "tensor-int64": lambda: tf.constant([3, 4], tf.int64),
        "tensor-float32": lambda: tf.constant([0.1, 2.5], tf.float32),
        "tensor-float64": lambda: tf.constant([0.1, 2.5], tf.float64),
        "callable-int32": lambda: (lambda: tf.constant([1, 2], tf.int32)),
        "callable-float64": lambda: (lambda: tf.constant([0.1, 2.5], tf.float64)),
        "callable-list": lambda: (lambda: [0.1, 2.5]),
        "numpy-int64": lambda: np.array([1, 2], np.int64), "numpy-float64": lambda: np.array([0.1, 2.5]),
        "numpy-float32-scalar": lambda: np.float32(0.1), "list-ints": lambda: [1, 2], "list-floats": lambda: [0.1, 2.5],
        "python-int": lambda: 3, "python-float": lambda: 0.1, "variable-float32": lambda: tf.Variable([0.1, 2.5]),
    }
    for kname, make in kinds.items():
        for dt in (None, "float16", "float32", "float64", "int32", "int64"):
            key = f"{kname} dtype={dt}"

            def run() -> Any:
                v = tf.Variable(make(), dtype=None if dt is None else getattr(tf, dt))
                return [v.dtype.name, _raw(v.read_value())]
            out[key] = _error(run)
        out[f"{kname} shape=None-dims"] = _error(
            lambda: tf.Variable(make(), shape=tf.TensorShape(None)).shape.rank)
        out[f"{kname} validate_shape=False dtype=float32"] = _error(
            lambda: _raw(tf.Variable(make(), validate_shape=False, dtype=tf.float32).read_value()))
    return out


_program("var-initial-values-against-dtype", _initial_values)


@pytest.mark.clause("ops.conversion")
def test_blind89_variable_initial_values_against_their_dtype(backend: Any) -> None:
    """tf.Variable's initial value of every kind against dtype=, shape= and validate_shape=False: the variable made
    (dtype and bits) or the conversion's error class (a tensor of another dtype is never cast)."""
    _check(backend, "var-initial-values-against-dtype")


# -- 5. a concrete function's input names -------------------------------------------------------------------------
def _input_names(tf: Any, mk: Any) -> Any:
    """get_concrete_function's placeholders (ConcreteFunction.inputs) named after parameters whose names collide
    when case is ignored, specs with their own names (equal to another parameter's, in other case, repeated), nested
    lists and dicts of specs, *args and keyword-only parameters, and an input_signature: the inputs' names in order,
    or the error's class."""
    out = {}
    S = tf.TensorSpec

    def names(cf: Any) -> list:
        return [t.name for t in cf.inputs]

    def x_X(x: Any, X: Any) -> Any:
        return x + X

    def ab3(ab: Any, AB: Any, Ab: Any) -> Any:
        return ab + AB + Ab

    def a_a1(a: Any, a_1: Any, A: Any) -> Any:
        return a + a_1 + A

    def nested(x: Any, X: Any) -> Any:
        return x[0] + x[1] + X["k"]

    def star(x: Any, *args: Any) -> Any:
        return x + sum(args)

    def kwonly(x: Any, *, X: Any) -> Any:
        return x + X

    cases = {
        "x X": (x_X, (S([]), S([])), {}),
        "ab AB Ab": (ab3, (S([2]), S([2]), S([2])), {}),
        "a a_1 A": (a_a1, (S([]), S([]), S([])), {}),
        "spec names Y y": (x_X, (S([], name="Y"), S([], name="y")), {}),
        "spec names repeated": (x_X, (S([], name="t"), S([], name="T")), {}),
        "spec name of the other parameter": (x_X, (S([], name="X"), S([])), {}),
        "nested list and dict": (nested, ([S([]), S([])], {"k": S([])}), {}),
        "star args": (star, (S([]), S([]), S([])), {}),
        "keyword-only": (kwonly, (S([]),), {"X": S([])}),
    }
    for cname, (fn, args, kwargs) in cases.items():
        out[cname] = _error(lambda: names(tf.function(fn).get_concrete_function(*args, **kwargs)))
    out["input_signature x X"] = _error(
        lambda: names(tf.function(x_X, input_signature=[S([]), S([])]).get_concrete_function()))
    out["input_signature named"] = _error(
        lambda: names(tf.function(ab3, input_signature=[S([2], name="AB"), S([2], name="ab"), S([2])])
                      .get_concrete_function()))
    out["tensors x X"] = _error(
        lambda: names(tf.function(x_X).get_concrete_function(tf.constant(1.0), tf.constant(2.0))))
    return out


_program("fn-concrete-input-names", _input_names)


@pytest.mark.clause("function.symbolic-tensors")
def test_blind89_concrete_function_input_names(backend: Any) -> None:
    """The placeholders' names of get_concrete_function over parameters and specs whose names collide by case or
    repeat, nested structures, *args, keyword-only parameters and input signatures (Graph.unique_name's rule)."""
    _check(backend, "fn-concrete-input-names")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

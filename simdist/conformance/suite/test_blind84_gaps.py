"""The classes around the eighty-fourth blind batch's mutants (tests/mutants.py TRAINING_BATCH84, the Keras areas) that
the suite did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind84_gaps --record`, which rewrites blind84_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits may follow the CPU's kernels (prefix `kernel-`: Eigen's vectorized transcendental functions, the
NaN operand an elementwise kernel keeps) run on simdist elsewhere under its reference model of such a host. Floats
are compared by their bits (a NaN's payload too)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind84_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _raw(t: Any) -> list:
    """A float tensor's dtype and values as their bit patterns (a NaN's payload included)."""
    a = np.asarray(t)
    return [str(a.dtype), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]


def _tag(a: np.ndarray, r: Any, share: float, base: int) -> np.ndarray:
    """`a` (float32 or float64) with about `share` of its elements quiet NaNs whose payloads count up from `base`,
    signs alternating (in place)."""
    m = r.uniform(size=a.shape) < share
    n = int(m.sum())
    if a.dtype == np.float32:
        pay = (np.arange(n, dtype=np.uint32) + np.uint32(0x7FC00000 + base)) | (
            (np.arange(n, dtype=np.uint32) % 2) << np.uint32(31))
        a[m] = pay.view(np.float32)
    else:
        pay = (np.arange(n, dtype=np.uint64) + np.uint64(0x7FF8000000000000 + base)) | (
            (np.arange(n, dtype=np.uint64) % 2) << np.uint64(63))
        a[m] = pay.view(np.float64)
    return a


# -- 1. keras.activations with Python-number options, float64 to float16, at and around their thresholds ------------
def _activations_python_options(tf: Any, mk: Any) -> Any:
    """keras.activations whose options are Python numbers (squareplus's b, soft_shrink's and hard_shrink's threshold,
    threshold's threshold and default, celu's and elu's alpha, leaky_relu's slope, relu's max_value, threshold and
    slope), on float64, float32 and float16 inputs that include the thresholds themselves and their neighbours one
    ulp away, and the written-out ones (sparse_plus, sparse_sigmoid, sparsemax over rows and axis 0, tanh_shrink,
    hard_sigmoid, hard_silu, log_sigmoid, mish, softsign, glu): every result's bits. A Python option is weakly typed
    in Keras: it takes the input's dtype exactly, never through float32."""
    act = tf.keras.activations
    r = _rng("activations-python-options")
    out: dict[str, Any] = {}
    for dt in ("float64", "float32", "float16"):
        base = r.uniform(-3, 3, 37)
        edges = np.array([0.1, -0.1, 0.3, -0.3, 0.5, -0.5, 1.0, -1.0, 0.0, 2.0, -2.0])
        x = np.concatenate([base, edges]).astype(dt)
        near = np.array([0.1, 0.3, 0.5], dt)
        x = np.concatenate([x, np.nextafter(near, np.array(1, dt)), np.nextafter(near, np.array(-1, dt))]).astype(dt)
        for b in (4, 0.1, 3.7):
            out[f"squareplus b={b} {dt}"] = _error(lambda x=x, b=b: _bits(act.squareplus(x, b=b)))
        for t in (0.5, 0.1, 0.3):
            out[f"soft_shrink {t} {dt}"] = _error(lambda x=x, t=t: _bits(act.soft_shrink(x, threshold=t)))
            out[f"hard_shrink {t} {dt}"] = _error(lambda x=x, t=t: _bits(act.hard_shrink(x, threshold=t)))
            out[f"threshold {t} {dt}"] = _error(lambda x=x, t=t: _bits(act.threshold(x, t, -0.7)))
        for a in (1.0, 0.3):
            out[f"celu {a} {dt}"] = _error(lambda x=x, a=a: _bits(act.celu(x, alpha=a)))
            out[f"elu {a} {dt}"] = _error(lambda x=x, a=a: _bits(act.elu(x, alpha=a)))
        out[f"leaky_relu 0.1 {dt}"] = _error(lambda x=x: _bits(act.leaky_relu(x, negative_slope=0.1)))
        out[f"relu options {dt}"] = _error(
            lambda x=x: _bits(act.relu(x, negative_slope=0.2, max_value=0.6, threshold=0.1)))
        for name in ("sparse_plus", "sparse_sigmoid", "tanh_shrink", "hard_sigmoid", "hard_silu", "log_sigmoid",
                     "mish", "softsign", "softplus", "silu", "selu", "relu6"):
            out[f"{name} {dt}"] = _error(lambda x=x, name=name: _bits(getattr(act, name)(x)))
        rows = r.uniform(-1, 1, (24, 9)).astype(dt)
        out[f"sparsemax rows {dt}"] = _error(lambda rows=rows: _bits(act.sparsemax(rows)))
        out[f"sparsemax axis 0 {dt}"] = _error(lambda rows=rows: _bits(act.sparsemax(rows, axis=0)))
        out[f"glu {dt}"] = _error(lambda rows=rows: _bits(act.glu(rows[:, :8])))
    return out


_program("kernel-keras-activations-python-options", _activations_python_options)


@pytest.mark.clause("keras.layer.forward-and-gradients")
def test_blind84_activations_with_python_options(backend: Any) -> None:
    """keras.activations' Python-number options take the input's dtype exactly; written-out formulas by their bits."""
    _check(backend, "kernel-keras-activations-python-options")


# -- 2. merge layers and Keras's add with NaN operands: which operand's payload survives -----------------------------
def _merge_nan_payloads(tf: Any, mk: Any) -> Any:
    """The merge layers (Add, Subtract, Multiply, Average, Maximum, Minimum) of two and three inputs, float32 and
    float64, with NaN-tagged operands (each input's payloads from its own base, both operands NaN at some places), and
    keras.ops.add where Keras's bias rule applies (a (1, n) or (n,) second operand against (b, n), either way
    round): every result's bit pattern. The kept payload shows the operand order of each sum."""
    keras = tf.keras
    L = keras.layers
    r = _rng("merge-nan-payloads")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        a = _tag(r.uniform(-2, 2, (6, 5)).astype(dt), r, 0.3, 0x10)
        b = _tag(r.uniform(-2, 2, (6, 5)).astype(dt), r, 0.3, 0x200)
        c = _tag(r.uniform(-2, 2, (6, 5)).astype(dt), r, 0.3, 0x3000)
        for cls in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"):
            out[f"{cls} {dt}"] = _error(lambda cls=cls, a=a, b=b: _raw(getattr(L, cls)(dtype=dt)([a, b])))
            if cls != "Subtract":
                out[f"{cls} three {dt}"] = _error(
                    lambda cls=cls, a=a, b=b, c=c: _raw(getattr(L, cls)(dtype=dt)([a, b, c])))
        row = _tag(r.uniform(-2, 2, (1, 5)).astype(dt), r, 0.5, 0x40)
        vec = row[0].copy()
        ops = keras.ops
        out[f"ops.add (b,n)+(1,n) {dt}"] = _error(lambda a=a, row=row: _raw(ops.add(a, row)))
        out[f"ops.add (1,n)+(b,n) {dt}"] = _error(lambda a=a, row=row: _raw(ops.add(row, a)))
        out[f"ops.add (b,n)+(n,) {dt}"] = _error(lambda a=a, vec=vec: _raw(ops.add(a, vec)))
        out[f"ops.add (n,)+(b,n) {dt}"] = _error(lambda a=a, vec=vec: _raw(ops.add(vec, a)))
        out[f"Add (b,n)+(1,n) {dt}"] = _error(lambda a=a, row=row: _raw(L.Add(dtype=dt)([a, row])))
        out[f"Add (1,n)+(b,n) {dt}"] = _error(lambda a=a, row=row: _raw(L.Add(dtype=dt)([row, a])))
    return out


_program("kernel-merge-layers-nan-payloads", _merge_nan_payloads)


@pytest.mark.clause("keras.layer.forward-and-gradients")
def test_blind84_merge_layers_keep_the_nan_of_their_operand_order(backend: Any) -> None:
    """Merge layers' and keras.ops.add's NaN payloads: the operand order of each sum, the bias rule's included."""
    _check(backend, "kernel-merge-layers-nan-payloads")


# -- 3. Keras's losses on NaN, infinite and zero inputs: which values propagate through their clips and maxima -------
def _losses_non_finite(tf: Any, mk: Any) -> Any:
    """Every Keras loss class Keras writes with clips, maxima or logs (MeanSquaredLogarithmicError, Hinge,
    SquaredHinge, CategoricalHinge, Huber, LogCosh, Poisson, KLDivergence, MeanAbsolutePercentageError,
    BinaryCrossentropy and CategoricalCrossentropy with probabilities and logits, CosineSimilarity, Dice, Tversky,
    Circle) with reduction=None on float32 and float64 predictions holding a NaN, +inf, -inf, -1 and 0, against targets
    holding a NaN and ordinary values: the per-sample losses by their raw bits, a NaN's payload and sign included
    (Keras's `ops.maximum`/`ops.clip` are tf.maximum/tf.clip_by_value; the log of a NaN in a packet is plog's
    all-ones NaN, negated to 0x7fffffff by the cross entropies; nsweep64)."""
    keras = tf.keras
    r = _rng("losses-non-finite")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        p = r.uniform(0.05, 0.95, (6, 4)).astype(dt)
        p[0, 0], p[1, 1], p[2, 2], p[3, 3], p[4, 0] = np.nan, np.inf, -np.inf, -1.0, 0.0
        t = r.uniform(0.0, 1.0, (6, 4)).astype(dt)
        t[5, 1] = np.nan
        onehot = np.eye(4, dtype=dt)[[0, 1, 2, 3, 0, 1]]
        labels = (t > 0.5).astype(dt)
        cases = {
            "msle": (keras.losses.MeanSquaredLogarithmicError, t, p), "hinge": (keras.losses.Hinge, labels, p),
            "squared_hinge": (keras.losses.SquaredHinge, labels, p),
            "categorical_hinge": (keras.losses.CategoricalHinge, onehot, p), "huber": (keras.losses.Huber, t, p),
            "log_cosh": (keras.losses.LogCosh, t, p), "poisson": (keras.losses.Poisson, t, p),
            "kld": (keras.losses.KLDivergence, t, p), "mape": (keras.losses.MeanAbsolutePercentageError, t, p),
            "bce": (keras.losses.BinaryCrossentropy, labels, p),
            "cce": (keras.losses.CategoricalCrossentropy, onehot, p),
            "cosine": (keras.losses.CosineSimilarity, t, p), "dice": (keras.losses.Dice, labels, p),
            "tversky": (keras.losses.Tversky, labels, p),
        }
        for name, (cls, y, x) in cases.items():
            out[f"{name} {dt}"] = _error(lambda cls=cls, y=y, x=x: _raw(cls(reduction=None, dtype=dt)(y, x)))
        for name, cls in (("bce logits", keras.losses.BinaryCrossentropy),
                          ("cce logits", keras.losses.CategoricalCrossentropy)):
            y = labels if name.startswith("bce") else onehot
            out[f"{name} {dt}"] = _error(
                lambda cls=cls, y=y: _raw(cls(from_logits=True, reduction=None, dtype=dt)(y, p * 4 - 2)))
        emb = r.uniform(-1, 1, (6, 4)).astype(dt)
        emb[2, 1] = np.nan
        out[f"circle {dt}"] = _error(
            lambda emb=emb: _raw(keras.losses.Circle(reduction=None, dtype=dt)(np.array([0, 1, 0, 1, 2, 2]), emb)))
    return out


_program("kernel-keras-losses-non-finite-inputs", _losses_non_finite)


@pytest.mark.clause("keras.loss.reductions")
def test_blind84_losses_propagate_non_finite_inputs(backend: Any) -> None:
    """Keras's losses on NaN/inf/zero predictions and NaN targets: per-sample values by their bits."""
    _check(backend, "kernel-keras-losses-non-finite-inputs")


# -- 4. the built-in learning-rate schedules' names: checked when the schedule is called -----------------------------
def _schedule_names(tf: Any, mk: Any) -> Any:
    """Each built-in keras.optimizers.schedules class made with a name holding '/', a name that is an int, an empty
    name, None and a plain name, then called at step 3 eagerly, inside a tf.function and through an optimizer's
    learning rate (one SGD step): the value's bits or the error's class (Keras computes each schedule inside
    `ops.name_scope(self.name)`, which refuses a name that is not a string or holds '/')."""
    sch = tf.keras.optimizers.schedules
    makers = {
        "ExponentialDecay": lambda n: sch.ExponentialDecay(0.1, 10, 0.9, name=n),
        "PiecewiseConstantDecay": lambda n: sch.PiecewiseConstantDecay([2, 5], [0.1, 0.05, 0.01], name=n),
        "PolynomialDecay": lambda n: sch.PolynomialDecay(0.1, 10, 0.01, name=n),
        "InverseTimeDecay": lambda n: sch.InverseTimeDecay(0.1, 10, 0.5, name=n),
        "CosineDecay": lambda n: sch.CosineDecay(0.1, 10, name=n),
        "CosineDecayRestarts": lambda n: sch.CosineDecayRestarts(0.1, 4, name=n),
    }
    out: dict[str, Any] = {}
    for cls, make in makers.items():
        for label, name in (("slash", "a/b"), ("int", 5), ("empty", ""), ("none", None), ("plain", "my_lr")):
            def eager(make: Any = make, name: Any = name) -> Any:
                return _bits(make(name)(3))

            def traced(make: Any = make, name: Any = name) -> Any:
                s = make(name)
                return _bits(tf.function(lambda: s(tf.constant(3)))())

            def in_optimizer(make: Any = make, name: Any = name) -> Any:
                v = tf.Variable([1.0, 2.0])
                opt = tf.keras.optimizers.SGD(learning_rate=make(name))
                opt.apply_gradients([(tf.constant([0.5, -0.25]), v)])
                return _bits(v)
            out[f"{cls} {label} eager"] = _error(eager)
            out[f"{cls} {label} traced"] = _error(traced)
            out[f"{cls} {label} optimizer"] = _error(in_optimizer)
    return out


_program("keras-schedule-names", _schedule_names)


@pytest.mark.clause("optim.schedules")
def test_blind84_schedules_check_their_names_when_called(backend: Any) -> None:
    """Built-in LR schedules refuse a name with '/' or not a string when called (eagerly, traced, in an optimizer)."""
    _check(backend, "keras-schedule-names")


# -- 5. adapt's documents: what a lookup layer counts as one document for tf_idf -------------------------------------
def _lookup_adapt_documents(tf: Any, mk: Any) -> Any:
    """StringLookup, IntegerLookup and TextVectorization with output_mode="tf_idf" (and "count") adapted on a
    tf.data.Dataset of 1-D elements (each one document), of 2-D batches (each row one), of scalars, on a 1-D array (a
    column: each entry one), a 2-D array and a list: the vocabulary, idf_weights' bits and the encoding of two
    documents (a layer's token document counts and document count follow those shapes)."""
    keras = tf.keras
    L = keras.layers
    words = np.array([["a", "b", "a", "c"], ["c", "a", "d", "d"], ["b", "e", "a", "a"]])
    ints = np.array([[3, 4, 3, 5], [5, 3, 6, 6], [4, 7, 3, 3]], "int64")
    sources = {
        "dataset rows": lambda w: tf.data.Dataset.from_tensor_slices(w),
        "dataset batches": lambda w: tf.data.Dataset.from_tensor_slices(w).batch(2),
        "dataset scalars": lambda w: tf.data.Dataset.from_tensor_slices(w.reshape(-1)),
        "array 1-D": lambda w: w.reshape(-1),
        "array 2-D": lambda w: w,
        "list": lambda w: w.tolist(),
    }
    out: dict[str, Any] = {}
    for label, src in sources.items():
        for mode in ("tf_idf", "count"):
            def string(src: Any = src, mode: str = mode) -> Any:
                layer = L.StringLookup(output_mode=mode)
                layer.adapt(src(words))
                idf = _bits(layer.idf_weights) if mode == "tf_idf" else None
                return [[str(v) for v in layer.get_vocabulary()], idf, _bits(layer(words[:2]))]

            def integer(src: Any = src, mode: str = mode) -> Any:
                layer = L.IntegerLookup(output_mode=mode)
                layer.adapt(src(ints))
                idf = _bits(layer.idf_weights) if mode == "tf_idf" else None
                return [[int(v) for v in layer.get_vocabulary()], idf, _bits(layer(ints[:2]))]
            out[f"StringLookup {mode} {label}"] = _error(string)
            out[f"IntegerLookup {mode} {label}"] = _error(integer)
        def text(src: Any = src) -> Any:
            layer = L.TextVectorization(output_mode="tf_idf", split=None, standardize=None)
            layer.adapt(src(words))
            return [[str(v) for v in layer.get_vocabulary()], _bits(layer.idf_weights)]
        out[f"TextVectorization tf_idf {label}"] = _error(text)
    return out


_program("keras-lookup-adapt-documents", _lookup_adapt_documents)


@pytest.mark.clause("keras.layer.option-coverage")
def test_blind84_lookup_adapt_counts_documents_by_shape(backend: Any) -> None:
    """tf_idf adapt: a 1-D dataset element or array row is one document; the idf weights follow."""
    _check(backend, "keras-lookup-adapt-documents")


# -- 6. Keras variables written with Python numbers: the value converted in the variable's dtype --------------------
def _keras_variable_writes(tf: Any, mk: Any) -> Any:
    """keras.Variable of float64, float32, float16, bfloat16 and int32 written by assign, assign_add and assign_sub
    with Python floats (0.1, 1/3, 1e-8, 2.5), lists of them, NumPy float64 arrays and scalars, and a float32 tensor;
    a layer weight (add_weight of float64) and an optimizer's iteration-free variable after assign: every value's bits
    or the error's class (Keras's convert_to_tensor makes a Python number in the variable's dtype at once, so a float64
    variable holds 0.1 exactly; a tensor of another dtype is cast)."""
    keras = tf.keras
    out: dict[str, Any] = {}
    values = {"0.1": 0.1, "1/3": 1 / 3, "1e-8": 1e-8, "2.5": 2.5, "list": [0.1, 1 / 3], "np64": np.array([0.1, 0.7]),
              "np64 scalar": np.float64(0.3), "f32 tensor": "tensor"}
    for dt in ("float64", "float32", "float16", "bfloat16", "int32"):
        for name, v in values.items():
            for method in ("assign", "assign_add", "assign_sub"):
                def run(dt: str = dt, v: Any = v, method: str = method) -> Any:
                    shape = (2,) if isinstance(v, (list, np.ndarray)) and np.ndim(v) else ()
                    var = keras.Variable(np.zeros(shape) + 1.5, dtype=dt)
                    val = tf.constant(0.1, dtype="float32") if isinstance(v, str) else v
                    if isinstance(v, str) and shape == ():
                        val = tf.constant(0.1, dtype="float32")
                    getattr(var, method)(val)
                    return [str(var.dtype), _bits(var.numpy())]
                out[f"{dt} {method} {name}"] = _error(run)
    layer = keras.layers.Dense(2, dtype="float64")
    layer.build((None, 2))
    layer.kernel.assign([[0.1, 0.2], [0.3, 1 / 3]])
    layer.bias.assign_add([1e-8, 0.1])
    out["dense float64 kernel"] = _bits(layer.kernel.numpy())
    out["dense float64 bias"] = _bits(layer.bias.numpy())
    return out


_program("keras-variable-writes-of-python-numbers", _keras_variable_writes)


@pytest.mark.clause("keras.layer.option-coverage")
def test_blind84_keras_variable_writes_convert_in_the_variable_dtype(backend: Any) -> None:
    """keras.Variable assign/assign_add/assign_sub of Python numbers and arrays: converted in the variable's dtype."""
    _check(backend, "keras-variable-writes-of-python-numbers")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

"""The classes around the sixty-eighth blind batch's mutants (tests/mutants.py TRAINING_BATCH68), each checked as a
class: every Keras activation over a grid reaching its edges (float32 and float64); the weight constraints (MaxNorm,
MinMaxNorm, UnitNorm, NonNeg) along each axis; the regularizers (L1, L2, L1L2 and OrthogonalRegularizer of fewer and
more rows than a packet, zero factors) and a layer's penalties when frozen; the Add/Average/Maximum merges of three and
four inputs; a LoRA-enabled Dense layer's merged kernel; the default initializers' draws for odd fan sums and the
Orthogonal initializer's signs; LSTM and GRU cells in both implementations with dropout and recurrent dropout at
different rates; AUC with predictions of exactly 0 and 1; compile's "accuracy" for each label shape; a layer's weights
order, get_weights/set_weights (and a transposed kernel refused), a frozen layer's weights; the weights file's and the
`.keras` archive's entries; the progress bar's lines (negative and small metrics, 1, 9, 10 and 100 steps, epochs) and
the callbacks' `params["steps"]`; decoupled weight decay and RMSprop/Adam of float64 variables.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program on
TF (`python -m simdist.conformance.suite.test_blind68_gaps --record`, which rewrites blind68_reference.json.gz). The
recording host is this session's AVX-512 Xeon with oneDNN on (recorded_programs.avx512_with_onednn): the programs whose
bits follow the CPU's kernels are host-dependent, run by simdist under its model of that host (reference_cpu) on any
other CPU. Floats are compared by their bits (hex of the IEEE value): the batch's subtle mutants move a value by an ulp
(a product by a reciprocal, a reassociated factor, a sum in another order), which any tolerance would hide."""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import zipfile
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite import portable
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                          error as _error, plain as _plain, reference_cpu)

PATH = os.path.join(os.path.dirname(__file__), "blind68_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): the activations' transcendental
#: packets, the constraints' and regularizers' sums and rsqrt, the initializers' draws, the recurrent layers'
#: matmuls, the optimizers' updates
HOST_DEPENDENT = ("act-", "constraint-", "reg-", "merge-", "lora-", "init-", "rnn-", "opt-")

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _grid(dtype: str) -> np.ndarray:
    """Values reaching each activation's edges: large of both signs, the [-3, 3] ramps, small, zeros, thresholds."""
    edges = [-120.0, -80.0, -20.0, -9.1, -3.5, -3.0, -2.5, -1.0, -0.7, -0.5, -1e-3, -3.7e-4, -1e-6, -0.0, 0.0,
             1e-6, 3.7e-4, 1e-3, 0.1, 0.5, 0.9, 1.0, 2.5, 3.0, 3.5, 9.1, 20.0, 80.0, 120.0]
    return np.concatenate([np.array(edges), np.linspace(-4.0, 4.0, 37)]).astype(dtype)


# -- 1. activations, by their bits --------------------------------------------------------------------------------
_ACTS = ("relu", "relu6", "leaky_relu", "elu", "selu", "gelu", "silu", "sigmoid", "hard_sigmoid", "hard_silu",
         "softplus", "softsign", "tanh", "exponential", "mish", "log_sigmoid", "celu", "hard_shrink", "hard_tanh",
         "soft_shrink", "sparse_plus", "sparse_sigmoid", "squareplus", "tanh_shrink")
for _act in _ACTS:
    def _activation(tf: Any, mk: Any, act: str = _act) -> Any:
        fn = getattr(tf.keras.activations, act)
        return {dt: _bits(fn(tf.constant(_grid(dt)))) for dt in ("float32", "float64")}
    _program(f"act-{_act}", _activation)


def _activations_with_arguments(tf: Any, mk: Any) -> Any:
    a = tf.keras.activations
    out = {}
    for dt in ("float32", "float64"):
        x = tf.constant(_grid(dt))
        out[dt] = {"glu": _bits(a.glu(tf.reshape(x, (-1, 2)))), "glu-axis0": _bits(a.glu(tf.reshape(x, (2, -1)), axis=0)),
                   "celu-0.3": _bits(a.celu(x, alpha=0.3)), "elu-0.5": _bits(a.elu(x, alpha=0.5)),
                   "threshold": _bits(a.threshold(x, 1.0, -2.0)), "threshold-0": _bits(a.threshold(x, 0.0, 0.5)),
                   "softmax": _bits(a.softmax(tf.reshape(x, (6, 11)))), "log_softmax": _bits(a.log_softmax(tf.reshape(x, (6, 11)))),
                   "sparsemax": _bits(a.sparsemax(tf.reshape(x, (6, 11)))),
                   "squareplus-1": _bits(a.squareplus(x, b=1)), "leaky-0.3": _bits(a.leaky_relu(x, negative_slope=0.3))}
    return out


_program("act-with-arguments", _activations_with_arguments)


# -- 2. constraints and regularizers ------------------------------------------------------------------------------
def _w(shape: tuple, k: float, dtype: str = "float32") -> np.ndarray:
    return (portable.sin(np.arange(int(np.prod(shape))) * k + 0.3) * 1.7).reshape(shape).astype(dtype)


def _constraints(tf: Any, mk: Any) -> Any:
    c = tf.keras.constraints
    out = {}
    for dt in ("float32", "float64"):
        for shape in ((5, 3), (40, 7), (3, 3, 2, 4)):
            w = tf.constant(_w(shape, 0.77, dt))
            key = f"{dt}-{'x'.join(map(str, shape))}"
            out[key] = {"maxnorm": _bits(c.MaxNorm(1.3)(w)), "maxnorm-axis-last": _bits(c.MaxNorm(0.9, axis=-1)(w)),
                        "unitnorm": _bits(c.UnitNorm()(w)), "unitnorm-axis-last": _bits(c.UnitNorm(axis=-1)(w)),
                        "nonneg": _bits(c.NonNeg()(w))}
            for rate in (0.3, 0.7, 1.0):
                out[key][f"minmax-{rate}"] = _bits(c.MinMaxNorm(0.5, 1.7, rate=rate)(w))
                out[key][f"minmax-axis-last-{rate}"] = _bits(c.MinMaxNorm(0.2, 0.9, rate=rate, axis=-1)(w))
    return out


_program("constraint-values", _constraints)


def _regularizers(tf: Any, mk: Any) -> Any:
    r = tf.keras.regularizers
    out = {}
    for dt in ("float32", "float64"):
        for shape in ((5, 7), (48, 3), (3, 48), (37,)):
            w = tf.constant(_w(shape, 1.3, dt))
            key = f"{dt}-{'x'.join(map(str, shape))}"
            got = {}
            for f in (0.01, 0.003, 1e-4, 0.37):
                got[f"l1-{f}"] = _error(lambda f=f: _bits(r.L1(f)(w)))
                got[f"l2-{f}"] = _error(lambda f=f: _bits(r.L2(f)(w)))
                got[f"l1l2-{f}"] = _error(lambda f=f: _bits(r.L1L2(l1=f, l2=f / 3)(w)))
            if len(shape) == 2:   # (rsqrt over 48 norms takes its packet path; fewer than a packet, 1 / sqrt)
                for mode in ("rows", "columns"):
                    for k in (1.3, 2.3, 3.7, 5.1):
                        wk = tf.constant(_w(shape, k, dt))
                        got[f"orth-{mode}-{k}"] = _error(
                            lambda mode=mode, wk=wk: _bits(r.OrthogonalRegularizer(0.37, mode=mode)(wk)))
            out[key] = got
    return out


_program("reg-values", _regularizers)


def _zero_factors(tf: Any, mk: Any) -> Any:
    r = tf.keras.regularizers
    w = tf.constant([1.0, -2.0, 3.0])
    return {"l1-0": _error(lambda: _bits(r.L1(0.0)(w))), "l2-0": _error(lambda: _bits(r.L2(0.0)(w))),
            "l1l2-default": _error(lambda: _bits(r.L1L2()(w))), "l1l2-l2-only": _error(lambda: _bits(r.L1L2(l2=0.1)(w))),
            "l2-int-0": _error(lambda: _bits(r.L2(0)(w))), "l1-negative": _error(lambda: r.L1(-0.1)),
            "orth-0": _error(lambda: _bits(r.OrthogonalRegularizer(0.0)(tf.reshape(tf.range(6.0), (2, 3)))))}


_program("zero-factors", _zero_factors)


def _frozen_penalties(tf: Any, mk: Any) -> Any:
    """A layer's `losses` (its weights' penalties and added losses) trainable, frozen, and in a frozen model."""
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(68)
    out = {}

    class Adds(L.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x) * 0.001)
            return x
    d = L.Dense(2, kernel_regularizer=tf.keras.regularizers.l2(0.1), bias_regularizer=tf.keras.regularizers.l1(0.2),
                kernel_initializer="ones", bias_initializer="ones")
    m = tf.keras.Sequential([tf.keras.Input((3,)), d, Adds(), L.Dense(1, kernel_regularizer="l1", kernel_initializer="ones")])
    m(np.ones((2, 3), "float32"))
    out["trainable"] = [_bits(v) for v in m.losses]
    d.trainable = False
    out["first-frozen"] = [_bits(v) for v in m.losses]
    out["first-frozen-own"] = [_bits(v) for v in d.losses]
    m.trainable = False
    out["model-frozen"] = [_bits(v) for v in m.losses]
    return out


_program("frozen-penalties", _frozen_penalties)


# -- 3. merges and LoRA ---------------------------------------------------------------------------------------------
def _merges(tf: Any, mk: Any) -> Any:
    L = tf.keras.layers
    a = np.float32([[1e8, 1.0, 3.3, 0.1, -2.7], [0.3, 0.7, 1e-8, 5.5, 1.1]])
    b = np.float32([[-1e8, 1e-8, 7.7, 0.2, 1.3], [0.6, -0.7, 1.0, 0.25, 1e7]])
    c = np.float32([[1.0, 1.0, 0.3, 0.3, 0.9], [1e-3, 0.1, -1.0, 2.5, -1e7]])
    d = np.float32([[0.7, -3.1, 1e-4, 0.33, 2.0], [9.0, 0.2, 0.4, 0.5, 0.6]])
    out = {}
    for n, xs in ((2, [a, b]), (3, [a, b, c]), (4, [a, b, c, d])):
        for kind in ("Add", "Average", "Maximum", "Minimum", "Multiply"):
            out[f"{kind}-{n}"] = _bits(getattr(L, kind)()([tf.constant(x) for x in xs]))
    return out


_program("merge-values", _merges)


def _lora(tf: Any, mk: Any) -> Any:
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(68)
    out = {}
    for rank, alpha in ((3, 7), (4, None), (2, 5.5)):
        d = L.Dense(5, kernel_initializer="glorot_uniform"); d.build((None, 7))
        d.enable_lora(rank, lora_alpha=alpha)
        d.lora_kernel_a.assign(_w((7, rank), 0.9) * 0.37)
        d.lora_kernel_b.assign(_w((rank, 5), 1.1) * 1.3)
        out[f"{rank}-{alpha}"] = {"kernel": _bits(d.kernel), "out": _bits(d(tf.constant(_w((3, 7), 0.4))))}
    e = L.Embedding(6, 4); e.build((None,)); e.enable_lora(2, lora_alpha=3)
    e.lora_embeddings_a.assign(_w((6, 2), 0.5)); e.lora_embeddings_b.assign(_w((2, 4), 0.8))
    out["embedding"] = _bits(e(tf.constant([[0, 5, 2]])))
    return out


_program("lora-merged-kernels", _lora)


# -- 4. initializers ------------------------------------------------------------------------------------------------
def _initializers(tf: Any, mk: Any) -> Any:
    I = tf.keras.initializers
    out = {}
    for shape in ((8, 3), (7, 5), (3, 11), (6, 6), (1, 4), (3, 3, 2, 5)):
        key = "x".join(map(str, shape))
        for name in ("GlorotUniform", "GlorotNormal", "HeUniform", "HeNormal", "LecunUniform", "LecunNormal"):
            for dt in ("float32", "float64"):
                out[f"{key}-{name}-{dt}"] = _bits(getattr(I, name)(seed=5)(shape, dtype=dt))
        for mode in ("fan_in", "fan_out", "fan_avg"):
            for dist in ("uniform", "truncated_normal", "untruncated_normal"):
                out[f"{key}-vs-{mode}-{dist}"] = _bits(I.VarianceScaling(0.7, mode, dist, seed=2)(shape))
    return out


_program("init-variance-scaling", _initializers)


def _orthogonal(tf: Any, mk: Any) -> Any:
    """The Orthogonal initializer's values to 4 decimals (QR's last bits are not compared: TF's float32 QR is not
    simdist's float64 one rounded) and their signs, for square, tall, wide and rank-3 shapes."""
    out = {}
    for shape in ((4, 4), (6, 3), (3, 6), (2, 3, 4)):
        for gain in (1.0, 0.5):
            q = tf.keras.initializers.Orthogonal(gain=gain, seed=4)(shape).numpy().astype(np.float64)
            out[f"{shape}-{gain}"] = np.round(q, 4).tolist()
    return out


_program("orthogonal-rounded", _orthogonal)


# -- 5. recurrent layers with dropout -------------------------------------------------------------------------------
def _rnn_dropout(tf: Any, mk: Any) -> Any:
    """LSTM and GRU in both implementations, trained-mode calls with dropout and recurrent dropout at different rates
    (one unit, dyadic inputs and weights: every sum is exact, so the draws and their use show, not a matmul order),
    and an inference call of default-initialized layers."""
    L = tf.keras.layers
    c = tf.keras.initializers.Constant(0.125)
    x = (np.arange(6 * 5 * 2).reshape(6, 5, 2) % 7 / 8.0).astype("float32")
    out = {}
    for cls in ("LSTM", "GRU", "SimpleRNN"):
        for impl in (1, 2):
            for dp, rdp in ((0.5, 0.75), (0.75, 0.5), (0.5, 0.0), (0.0, 0.5)):
                kw = {} if cls == "SimpleRNN" else {"implementation": impl}
                layer = getattr(L, cls)(1, dropout=dp, recurrent_dropout=rdp, seed=2, kernel_initializer=c,
                                        recurrent_initializer=c, **kw)
                out[f"{cls}-{impl}-{dp}-{rdp}"] = _error(lambda layer=layer: _bits(layer(tf.constant(x), training=True)))
    tf.keras.utils.set_random_seed(68)
    xs = tf.constant(_w((2, 4, 3), 0.6))
    for cls in ("LSTM", "GRU"):
        for units in (1,):   # (more units: a float32 matmul of the host's kernels, ops.host-cpu)
            layer = getattr(L, cls)(units, seed=3, return_sequences=True)
            out[f"{cls}-default-{units}"] = _bits(layer(xs))
    return out


_program("rnn-dropout-and-gates", _rnn_dropout)


def _lstm_gates(tf: Any, mk: Any) -> Any:
    """An LSTM of one unit whose kernels are dyadic and distinct per gate (i, f, c, o), without and with the forget
    bias: each gate's slice shows in the output."""
    L = tf.keras.layers
    x = tf.constant((np.arange(3 * 4 * 2).reshape(3, 4, 2) % 5 / 4.0).astype("float32"))
    out = {}
    for impl in (1, 2):
        for ufb in (True, False):
            layer = L.LSTM(1, implementation=impl, unit_forget_bias=ufb, return_state=True)
            layer.build((None, 4, 2))
            layer.cell.kernel.assign(np.float32([[0.5, -0.25, 1.0, 0.125], [0.25, 0.75, -0.5, 1.5]]))
            layer.cell.recurrent_kernel.assign(np.float32([[0.375, -0.125, 0.25, 0.625]]))
            out[f"{impl}-{ufb}"] = {"bias": _bits(layer.cell.bias), "out": [_bits(t) for t in layer(x)]}
    return out


_program("rnn-lstm-gate-slices", _lstm_gates)


# -- 6. metrics and compile ------------------------------------------------------------------------------------------
def _auc_ends(tf: Any, mk: Any) -> Any:
    """AUC over predictions of exactly 0 and 1 (the end thresholds and the first bucket), both curves, evenly spaced
    and given thresholds."""
    out = {}
    y = [0, 1, 0, 1, 1, 0, 1, 0]
    p = [0.0, 0.0, 0.3, 0.8, 1.0, 1.0, 0.5, 0.0]
    for curve in ("ROC", "PR"):
        for nt in (3, 5, 200):
            m = tf.keras.metrics.AUC(num_thresholds=nt, curve=curve)
            m.update_state(y, p)
            out[f"{curve}-{nt}"] = {"auc": _bits(m.result()), "tp": _bits(m.true_positives),
                                    "fp": _bits(m.false_positives), "tn": _bits(m.true_negatives),
                                    "fn": _bits(m.false_negatives), "thresholds": [float(t).hex() for t in m.thresholds]}
        m = tf.keras.metrics.AUC(thresholds=[0.0, 0.5, 1.0], curve=curve)
        m.update_state(y, p)
        out[f"{curve}-given"] = {"auc": _bits(m.result()), "tp": _bits(m.true_positives), "fp": _bits(m.false_positives)}
    for name in ("Precision", "Recall", "TruePositives", "FalsePositives"):
        m = getattr(tf.keras.metrics, name)(thresholds=[0.0, 0.5, 1.0])
        m.update_state(y, p)
        out[name] = _bits(m.result())
    return out


_program("auc-end-predictions", _auc_ends)


def _compile_accuracy(tf: Any, mk: Any) -> Any:
    """compile(metrics=["accuracy"]) for each label shape: sparse (n,) and (n, 1), one-hot, binary (n, 1), and the
    metric class chosen."""
    L = tf.keras.layers
    out = {}
    x = np.float32([[1, 2, 3], [3, 2, 1], [0, 1, 0], [1, 0, 0]])
    cases = {"sparse-n": (3, np.int32([2, 0, 1, 0]), "sparse_categorical_crossentropy"),
             "sparse-n1": (3, np.int32([[2], [0], [1], [0]]), "sparse_categorical_crossentropy"),
             "onehot": (3, np.eye(3, dtype="float32")[[2, 0, 1, 0]], "categorical_crossentropy"),
             "binary-n1": (1, np.float32([[1], [0], [1], [1]]), "binary_crossentropy"),
             "binary-n": (1, np.float32([1, 0, 1, 1]), "binary_crossentropy")}
    for key, (units, y, loss) in cases.items():
        tf.keras.utils.set_random_seed(68)
        m = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(units, activation="softmax" if units > 1 else "sigmoid",
                                                               kernel_initializer="ones")])
        m.compile("sgd", loss=loss, metrics=["accuracy", "acc"])
        r = m.evaluate(x, y, verbose=0, return_dict=True)
        out[key] = {k: float(v).hex() for k, v in sorted(r.items())}
    return out


_program("compile-accuracy-by-label-shape", _compile_accuracy)


# -- 7. weights, weight files, archives -------------------------------------------------------------------------------
def _weights(tf: Any, mk: Any) -> Any:
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(68)
    # (named model and layers: auto names count the process's earlier layers)
    m = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2, name="d1"), L.BatchNormalization(name="bn"),
                             L.Dense(1, name="d2")], name="m")
    out = {"names": [v.path for v in m.weights], "trainable": [v.path for v in m.trainable_weights],
           "shapes": [list(w.shape) for w in m.get_weights()],
           "layer": [[v.name for v in layer.weights] for layer in m.layers]}
    m.layers[0].trainable = False
    out["frozen-names"] = [v.path for v in m.weights]
    out["frozen-shapes"] = [list(w.shape) for w in m.get_weights()]
    out["frozen-layer-weights"] = [list(w.shape) for w in m.layers[0].get_weights()]
    d = L.Dense(2, name="d"); d.build((None, 3))

    def refused(values: list) -> str:
        try:
            d.set_weights(values)
            return "accepted " + str([_bits(v) for v in d.weights])
        except Exception as e:  # noqa: BLE001 - the class and Keras's message are the observation
            return f"raised {type(e).__name__}: {str(e)[:120]}"
    out["set-transposed"] = refused([np.ones((2, 3), "float32"), np.zeros((2,), "float32")])
    out["set-too-few"] = refused([np.ones((3, 2), "float32")])
    out["set-bias-shape"] = refused([np.ones((3, 2), "float32"), np.zeros((1, 2), "float32")])
    out["set-flat-kernel"] = refused([np.ones((6,), "float32"), np.zeros((2,), "float32")])
    d.set_weights([np.arange(6, dtype="float32").reshape(3, 2), np.float32([1, 2])])
    out["set-ok"] = [_bits(v) for v in d.weights]
    bn = L.BatchNormalization(name="bn2"); bn.build((None, 3))
    out["bn-order"] = [v.name for v in bn.weights]
    out["bn-get"] = [list(w.shape) for w in bn.get_weights()]
    return out


_program("weights-order-and-set", _weights)


def _h5_keys(path: str) -> list[str]:
    import h5py
    got: list[str] = []
    with h5py.File(path, "r") as f:
        f.visit(got.append)
    return got


def _files(tf: Any, mk: Any) -> Any:
    """The entries of the weights file and the `.keras` archive of a Sequential, a functional and a subclassed model."""
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(68)
    d = tempfile.mkdtemp()
    seq = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2), L.BatchNormalization(), L.Dense(1)])
    seq_no_input = tf.keras.Sequential([L.Dense(2), L.Dense(1)])
    seq_no_input(np.ones((1, 3), "float32"))
    inp = tf.keras.Input((3,))
    fun = tf.keras.Model(inp, L.Dense(1)(L.Dense(2)(inp)))
    out = {}
    for key, m in (("sequential", seq), ("sequential-built-by-call", seq_no_input), ("functional", fun)):
        p = os.path.join(d, f"{key}.weights.h5")
        m.save_weights(p)
        out[f"{key}-h5"] = _h5_keys(p)
        k = os.path.join(d, f"{key}.keras")
        m.save(k)
        z = zipfile.ZipFile(k)
        out[f"{key}-zip"] = z.namelist()
        inner = os.path.join(d, f"{key}-inner.h5")
        with open(inner, "wb") as f:
            f.write(z.read("model.weights.h5"))
        out[f"{key}-zip-h5"] = _h5_keys(inner)
    return out


_program("files-entries", _files)


# -- 8. the progress bar and the callbacks' params -------------------------------------------------------------------
def _fit_lines(tf: Any, fit: Any) -> list[str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fit()
    s = re.sub(r"\x1b\[[0-9;]*m", "", buf.getvalue()).replace("\x08", "").replace("\r", "\n")
    s = re.sub(r"\d+(\.\d+)?(ms|s|us)(/step)?", "T", s)   # the wall clock (TF) or the simulated one (simdist)
    s = re.sub(r"\d+:\d\d(:\d\d)?", "T", s)
    # (only the epoch headers and each bar's first and final lines, their padding kept: TF redraws the bar when its
    # wall-clock interval passes, so its intermediate lines are not deterministic; the first always prints)
    lines = [ln.rstrip() for ln in s.split("\n") if ln.strip()]
    kept = [ln for ln in lines if ln.startswith("Epoch") or re.match(r"\s*(1/\d+|(\d+)/\2)\b", ln)]
    # (a timed redraw at the last step and the final one can print the same line twice on TF)
    return [ln for i, ln in enumerate(kept) if i == 0 or ln != kept[i - 1]]


def _progbar(tf: Any, mk: Any) -> Any:
    """fit's verbose=1 and verbose=2 lines (times replaced by T): negative, tiny and large metric values, 1, 9, 10
    and 100 steps, one and three epochs, evaluate's line."""
    L = tf.keras.layers
    out = {}

    def neg(y_true, y_pred):
        return tf.reduce_mean(y_pred) * 0.0 - 0.5

    def tiny(y_true, y_pred):
        return tf.reduce_mean(y_pred) * 0.0 - 2e-4

    def big(y_true, y_pred):
        return tf.reduce_mean(y_pred) * 0.0 + 12345.678
    for steps in (1, 9, 10, 100):
        for verbose in (1, 2):
            for epochs in (1, 3):
                if steps == 100 and epochs == 3:
                    continue
                tf.keras.utils.set_random_seed(68)
                m = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(1, kernel_initializer="ones")])
                m.compile("sgd", loss="mse", metrics=[neg, tiny, big])
                x, y = np.ones((steps, 3), "float32"), np.ones((steps, 1), "float32")
                out[f"{steps}-{verbose}-{epochs}"] = _fit_lines(
                    tf, lambda m=m, x=x, y=y, v=verbose, e=epochs: m.fit(x, y, batch_size=1, epochs=e, verbose=v))
    m.compile("sgd", loss="mse", metrics=[neg])
    out["evaluate"] = _fit_lines(tf, lambda: m.evaluate(np.ones((10, 3), "float32"), np.ones((10, 1), "float32"),
                                                         batch_size=1, verbose=1))
    return out


_program("progbar-lines", _progbar)


def _steps_params(tf: Any, mk: Any) -> Any:
    """The callbacks' params["steps"] and the batches run for sample counts dividing the batch size or not, with
    validation_split, steps_per_epoch and a dataset."""
    L = tf.keras.layers
    out = {}

    class Seen(tf.keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.got = []

        def on_train_begin(self, logs=None):
            self.got.append(["params", self.params.get("steps"), self.params.get("epochs")])

        def on_train_batch_end(self, batch, logs=None):
            self.got.append(batch)

        def on_test_begin(self, logs=None):
            self.got.append(["test", self.params.get("steps")])
    for n, bs, extra in ((8, 4, {}), (9, 4, {}), (8, 8, {}), (3, 5, {}), (12, 4, {"validation_split": 0.25}),
                         (10, 2, {"validation_split": 0.25}), (7, 3, {"validation_split": 0.3}),
                         (8, 4, {"steps_per_epoch": 3, "epochs": 2})):
        tf.keras.utils.set_random_seed(68)
        m = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(1)])
        m.compile("sgd", loss="mse")
        cb = Seen()
        kw = {"epochs": 1, **extra}
        h = m.fit(np.arange(n * 3, dtype="float32").reshape(n, 3), np.ones((n, 1), "float32"), batch_size=bs,
                  verbose=0, callbacks=[cb], **kw)
        out[f"{n}-{bs}-{sorted(extra.items())}"] = {"seen": cb.got, "history": sorted(h.history)}
    return out


_program("steps-params", _steps_params)


# -- 9. optimizers of float64 variables ------------------------------------------------------------------------------
_OPTS = (("AdamW", {"learning_rate": 0.01, "weight_decay": 0.01}),
         ("AdamW", {"learning_rate": 0.003, "weight_decay": 0.3}),
         ("SGD", {"learning_rate": 0.1, "weight_decay": 0.05}),
         ("RMSprop", {"learning_rate": 0.01}),
         ("RMSprop", {"learning_rate": 0.01, "rho": 0.8, "momentum": 0.5, "centered": True}),
         ("Adam", {"learning_rate": 0.02, "weight_decay": 0.1}),
         ("Adagrad", {"learning_rate": 0.1, "weight_decay": 0.01}))
for _i, (_name, _opts) in enumerate(_OPTS):
    def _optimizer(tf: Any, mk: Any, name: str = _name, opts: dict = _opts) -> Any:
        out = {}
        for dtype in ("float64", "float32"):
            rng = np.random.RandomState(68)
            v = tf.Variable(rng.randn(40).astype(dtype))
            opt = getattr(tf.keras.optimizers, name)(**opts)
            for _ in range(3):
                opt.apply_gradients([(tf.constant((rng.randn(40) * 0.5).astype(dtype)), v)])
            out[dtype] = _bits(v)
        return out
    _program(f"opt-{_i}-{_name}", _optimizer)


# -- the tests -------------------------------------------------------------------------------------------------------
@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("act-"))
def test_blind68_activations_bit_for_bit(backend: Any, name: str) -> None:
    """Each Keras activation over values reaching its edges (float32, float64), and those with arguments."""
    _check(backend, name)


@pytest.mark.clause("keras.reg.penalties")
@pytest.mark.parametrize("name", _ids("constraint-") + _ids("reg-") + _ids("zero-") + _ids("frozen-"))
def test_blind68_constraints_and_penalties(backend: Any, name: str) -> None:
    """The constraints along each axis, the regularizers' penalties (fewer and more rows than a packet), zero
    factors, a frozen layer's and model's penalties beside an added loss."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("merge-") + _ids("lora-") + _ids("rnn-"))
def test_blind68_merges_lora_and_recurrent_gates(backend: Any, name: str) -> None:
    """Merges of 2-4 inputs, LoRA-merged kernels, LSTM/GRU/SimpleRNN with dropout and recurrent dropout in both
    implementations, an LSTM's gate slices."""
    _check(backend, name)


@pytest.mark.clause("keras.init.distributions")
@pytest.mark.parametrize("name", _ids("init-") + _ids("orthogonal-"))
def test_blind68_initializers(backend: Any, name: str) -> None:
    """VarianceScaling's presets and modes for odd fan sums and rank-4 kernels (float32, float64); Orthogonal's signs."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.auc")
@pytest.mark.parametrize("name", _ids("auc-") + _ids("compile-"))
def test_blind68_auc_ends_and_compiled_accuracy(backend: Any, name: str) -> None:
    """AUC and the confusion metrics at predictions of exactly 0 and 1; compile's "accuracy" by label shape."""
    _check(backend, name)


@pytest.mark.clause("keras.model.weights-order")
@pytest.mark.parametrize("name", _ids("weights-") + _ids("files-"))
def test_blind68_weights_and_files(backend: Any, name: str) -> None:
    """A model's weights order, get/set_weights, a frozen layer's weights; weight-file and archive entries."""
    _check(backend, name)


@pytest.mark.clause("keras.fit.progress-bar")
@pytest.mark.parametrize("name", _ids("progbar-") + _ids("steps-"))
def test_blind68_progress_bar_and_steps(backend: Any, name: str) -> None:
    """fit/evaluate's progress lines (times elided), the callbacks' params["steps"] and batches."""
    _check(backend, name)


@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("name", _ids("opt-"))
def test_blind68_optimizers_of_float64_variables(backend: Any, name: str) -> None:
    """Weight decay and RMSprop/Adam/Adagrad/SGD updates of float64 and float32 variables over three steps."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

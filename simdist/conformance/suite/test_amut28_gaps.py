"""Gaps the fifth mechanical mutation sweep found (benchmarks/auto_mutants.py: seed 4's sampled mutants its budget
left unrun, then seed 5 over the training-layer files seeds 1-4 sampled least; twenty-eighth session): behaviours
the suite executed but no test looked at (docs/conformance.md, "Twenty-eighth session: automatic sweep, seed 5
(amut28)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values
are NumPy transcriptions of Keras's rules computed here, relations between two spellings of one computation, or
observations of TF 2.21 / Keras 3.15 named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.repro import Program
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


# -- Keras layers: the InputSpec axes a build fixes ------------------------------------------------------------------
#: (name, constructor, build shape, [(call shape, None if accepted else (axis key, value) of the refusal)]):
#: Dense and SpectralNormalization fix axis -1, the convolutions their channel axis, BatchNormalization its `axis`,
#: GroupNormalization axis -1, PReLU with shared_axes every non-shared axis after the batch (Keras 3.15's builds).
_FIXED_AXES = [
    ("Dense", lambda L: L.Dense(2), (2, 4), [((2, 5), (-1, 4)), ((3, 4), None)]),
    ("Conv1D", lambda L: L.Conv1D(2, 2), (2, 5, 3), [((2, 5, 4), (-1, 3)), ((2, 7, 3), None)]),
    ("Conv2D", lambda L: L.Conv2D(2, 2), (2, 5, 5, 3), [((2, 5, 5, 4), (-1, 3)), ((2, 6, 5, 3), None)]),
    ("DepthwiseConv2D", lambda L: L.DepthwiseConv2D(2), (2, 5, 5, 3), [((2, 5, 5, 4), (-1, 3))]),
    ("Conv2DTranspose", lambda L: L.Conv2DTranspose(2, 2), (2, 5, 5, 3), [((2, 5, 5, 4), (-1, 3))]),
    ("BatchNormalization", lambda L: L.BatchNormalization(), (2, 3, 4), [((2, 3, 5), (-1, 4)), ((2, 6, 4), None)]),
    ("BatchNormalization(axis=1)", lambda L: L.BatchNormalization(axis=1), (2, 3, 4),
     [((2, 4, 4), (1, 3)), ((2, 3, 6), None)]),
    ("GroupNormalization", lambda L: L.GroupNormalization(groups=2), (2, 4), [((2, 6), (-1, 4))]),
    ("PReLU(shared_axes=[1, 2])", lambda L: L.PReLU(shared_axes=[1, 2]), (2, 3, 4, 5),
     [((2, 3, 4, 6), (3, 5)), ((2, 6, 7, 5), None)]),
    ("PReLU(shared_axes=[2])", lambda L: L.PReLU(shared_axes=[2]), (2, 3, 4), [((2, 5, 4), (1, 3)), ((2, 3, 6), None)]),
    ("PReLU(shared_axes=[1])", lambda L: L.PReLU(shared_axes=[1]), (2, 3, 4), [((2, 3, 5), (2, 4)), ((2, 7, 4), None)]),
    ("SpectralNormalization", lambda L: L.SpectralNormalization(L.Dense(2)), (2, 4),
     [((2, 5), (-1, 4)), ((3, 4), None)]),
]


@clause("keras.layer.call", ref="tf221")
def test_amut28_built_layers_refuse_inputs_whose_fixed_axes_differ(keras):
    """A built layer's InputSpec fixes the axes its weights depend on: a call whose size on such an axis differs
    is Keras's ValueError "... expected axis K of input shape to have value V, but received input with shape S"
    (K as the spec keys it: -1 for Dense and the convolutions' channels, BatchNormalization's `axis`, PReLU's
    non-shared axes counted from the batch), before any op runs; a call that differs only on free axes (the batch,
    a convolution's spatial axes, PReLU's shared axes) is accepted, and its output has the built layer's shape
    rule (observed on TF 2.21)."""
    L = keras.layers
    for name, make, built_on, calls in _FIXED_AXES:
        layer = make(L)
        layer(np.ones(built_on, np.float32))
        ref = tuple(layer.compute_output_shape(built_on))
        for shape, refusal in calls:
            call = f"{name} built on {built_on}, called on {shape}"
            x = np.ones(shape, np.float32)
            if refusal is None:
                out = layer(x)
                want = tuple(layer.compute_output_shape(shape))
                assert_equal(tuple(out.shape), want, call=call, what="out.shape (compute_output_shape's)")
                assert_equal(len(out.shape), len(ref), call=call, what="out's rank (the built call's)")
                continue
            axis, value = refusal
            with raises(ValueError, match=rf"expected axis {re.escape(str(axis))} of input shape to have value "
                                         rf"{value}, but received input with shape {re.escape(str(shape))}",
                        call=call):
                layer(x)


# -- Layers whose call takes training=False by default: a plain call is inference -------------------------------------
_INFERENCE_BY_DEFAULT = [
    ("Dropout", lambda L: L.Dropout(0.5, seed=1)),
    ("GaussianNoise", lambda L: L.GaussianNoise(0.5, seed=1)),
    ("GaussianDropout", lambda L: L.GaussianDropout(0.5, seed=1)),
    ("AlphaDropout", lambda L: L.AlphaDropout(0.5, seed=1)),
    ("SpatialDropout1D", lambda L: L.SpatialDropout1D(0.5, seed=1)),
    ("BatchNormalization", lambda L: L.BatchNormalization(momentum=0.5)),
    ("SpectralNormalization", lambda L: L.SpectralNormalization(L.Dense(3, kernel_initializer="ones"))),
]


@clause("keras.layer.call", ref="tf221")
def test_amut28_a_plain_call_of_a_training_aware_layer_is_inference(keras):
    """Keras's Layer.__call__ resolves `training` from the argument, else an outer call's, else the call
    signature's default; these layers' call defaults to training=False, so a plain eager call returns what
    training=False returns and writes no weight (compared with the weights right after build: BatchNormalization's
    moving statistics, SpectralNormalization's kernel and vector_u stay), where training=True changes the output
    or the weights (observed on TF 2.21)."""
    L = keras.layers
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 + 0.5
    for name, make in _INFERENCE_BY_DEFAULT:
        layer = make(L)
        layer.build(x.shape)
        w_built = [to_numpy(w).copy() for w in layer.weights]
        plain = to_numpy(layer(x))
        w_plain = [to_numpy(w).copy() for w in layer.weights]
        for w, a, b in zip(layer.weights, w_built, w_plain):
            assert_equal(b, a, call=f"{name}.build then {name}(x)", what=f"weight {w.name} after the plain call")
        off = to_numpy(layer(x, training=False))
        w_off = [to_numpy(w).copy() for w in layer.weights]
        on = to_numpy(layer(x, training=True))
        w_on = [to_numpy(w).copy() for w in layer.weights]
        call = f"{name}(x) then (x, training=False) then (x, training=True)"
        assert_equal(plain, off, call=call, what="the plain call's output (training=False's)")
        for w, a, b in zip(layer.weights, w_plain, w_off):
            assert_equal(b, a, call=call, what=f"weight {w.name} after the plain and training=False calls")
        changed = (not np.array_equal(on, off)) or any(not np.array_equal(a, b) for a, b in zip(w_off, w_on))
        assert_equal(changed, True, call=call, what="whether training=True changed the output or a weight")


# -- Keras normalization ops on low-precision and integer inputs -------------------------------------------------------
def _np_rms(x, scale, eps):
    y = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    return y if scale is None else y * scale


def _np_layer_norm(x, eps):
    m = x.mean(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(((x - m) ** 2).mean(axis=-1, keepdims=True) + eps)


@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int32"])
def test_amut28_normalization_ops_compute_narrow_inputs_in_float32(keras, tf, dtype):
    """keras.ops.rms_normalization (with and without scale) and layer_normalization, and the RMSNormalization and
    LayerNormalization layers of that dtype, compute a float16, bfloat16 or integer input in Keras's
    result_type(dtype, float32) = float32 and cast the result back to the input's dtype (Keras 3.15's TF backend;
    integers truncate toward zero): expected computed here in float64 and cast."""
    ops = keras.ops
    if dtype == "int32":
        raw = np.array([[1, 2, 3], [4, -5, 6]], np.float64)
    else:
        raw = np.array([[1.0, 2.0, 3.0], [0.5, -4.0, 1e-3]], np.float64)
    x = tf.cast(tf.constant(raw.astype(np.float32)), dtype)
    xs = to_numpy(tf.cast(x, "float64")).astype(np.float64)
    scale = np.array([1.0, 2.0, 3.0])
    cases = {
        "ops.rms_normalization(x, epsilon=1e-6)": (lambda: ops.rms_normalization(x, epsilon=1e-6),
                                                   _np_rms(xs, None, 1e-6)),
        "ops.rms_normalization(x, scale, epsilon=1e-6)": (
            lambda: ops.rms_normalization(x, scale=tf.cast(tf.constant(scale), dtype), epsilon=1e-6),
            _np_rms(xs, scale, 1e-6)),
        "ops.layer_normalization(x, epsilon=1e-3)": (lambda: ops.layer_normalization(x, epsilon=1e-3),
                                                     _np_layer_norm(xs, 1e-3)),
        f"layers.RMSNormalization(epsilon=1e-6, dtype={dtype!r})": (
            lambda: keras.layers.RMSNormalization(epsilon=1e-6, dtype=dtype)(x), _np_rms(xs, None, 1e-6)),
        f"layers.LayerNormalization(epsilon=1e-3, dtype={dtype!r})": (
            lambda: keras.layers.LayerNormalization(epsilon=1e-3, dtype=dtype)(x), _np_layer_norm(xs, 1e-3)),
    }
    for call, (fn, want) in cases.items():
        out = fn()
        assert_equal(np.dtype(to_numpy(out).dtype).name if dtype != "bfloat16" else out.dtype.name, dtype,
                     call=call + f" on {dtype}", what="out.dtype (the input's)")
        got = to_numpy(tf.cast(out, "float64")).astype(np.float64)
        if dtype == "int32":
            assert_equal(got, np.trunc(want), call=call + " on int32", what="out (float32 result truncated)")
        else:
            ulp = 2.0 ** -10 if dtype == "float16" else 2.0 ** -7
            assert_close(got, want, call=call + f" on {dtype}", tolerance=_tol(ulp))


def _tol(rel: float) -> Tolerance:
    return Tolerance(rtol=rel, atol=rel * 1e-2)


# -- StackedRNNCells: each cell built on (batch, the previous cell's output size) --------------------------------------
@clause("keras.layer.stacked-rnn-cells", ref="tf221")
def test_amut28_stacked_cells_build_each_cell_on_the_previous_output_size(keras):
    """StackedRNNCells.build builds its first cell on the step input shape (batch, features) and each next cell
    on (batch, previous output size), where that size is the previous cell's `output_size`, else the first of a
    list `state_size`, else the int `state_size` (Keras 3.15's build, batch kept from the first shape): cells
    recording their build shape see those, and Keras cells' get_build_config reports them."""
    L = keras.layers

    class Recording(L.Layer):
        def __init__(self, units, how, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            if how == "output_size":
                self.output_size = units
                self.state_size = units + 3      # read only when output_size is missing
            elif how == "list":
                self.state_size = [units, units + 1]
            else:
                self.state_size = units

        def build(self, input_shape):
            self.seen = tuple(input_shape)
            self.k = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones")

        def call(self, x, states):
            h = keras.ops.matmul(x, self.k)
            if isinstance(self.state_size, list):
                return h, [h, keras.ops.concatenate([h, h[:, :1]], axis=-1)]
            return h, [h]

    x = np.ones((2, 4, 6), np.float32)
    cells = [Recording(3, "output_size"), Recording(5, "list"), Recording(2, "int"), Recording(4, "int")]
    stack = L.StackedRNNCells(cells)
    L.RNN(stack)(x)
    want = [(2, 6), (2, 3), (2, 5), (2, 2)]
    assert_equal([c.seen for c in cells], want, call="RNN(StackedRNNCells([output_size=3, state_size=[5, 6], "
                 "state_size=2, state_size=4]))(x of shape (2, 4, 6))", what="each cell's build input_shape")
    keras_cells = [L.SimpleRNNCell(3), L.GRUCell(5), L.LSTMCell(2)]
    stack = L.StackedRNNCells(keras_cells)
    L.RNN(stack)(x)
    got = [tuple(c.get_build_config()["input_shape"]) for c in keras_cells]
    assert_equal(got, [(2, 6), (2, 3), (2, 5)], call="RNN(StackedRNNCells([SimpleRNNCell(3), GRUCell(5), "
                 "LSTMCell(2)]))(x of shape (2, 4, 6))", what="each cell's get_build_config()['input_shape']")


# -- keras.ops math/linalg: the symbolic output spec against the eager result ------------------------------------------
def _math_cases(ops):
    """name -> (fn, [(shape, dtype or None for the float dtype under test, values or None)], float16 allowed)."""
    spd = [[2.0, 0.1, 0.0], [0.1, 3.0, 0.0], [0.0, 0.0, 1.5]]
    return {
        "stft[0]": (lambda x: ops.stft(x, 4, 2, 4)[0], [((2, 8), None, None)], False),
        "stft[1]": (lambda x: ops.stft(x, 4, 2, 4)[1], [((2, 8), None, None)], False),
        "stft(center=False)[0]": (lambda x: ops.stft(x, 4, 2, 4, center=False)[0], [((2, 8), None, None)], False),
        "istft": (lambda r, i: ops.istft((r, i), 4, 2, 4), [((2, 5, 3), None, None)] * 2, False),
        "rfft[0]": (lambda x: ops.rfft(x)[0], [((2, 8), None, None)], False),
        "irfft": (lambda r, i: ops.irfft((r, i)), [((2, 5), None, None)] * 2, False),
        "fft[0]": (lambda r, i: ops.fft((r, i))[0], [((2, 4), None, None)] * 2, False),
        "fft2[1]": (lambda r, i: ops.fft2((r, i))[1], [((2, 4), None, None)] * 2, False),
        "ifft2[0]": (lambda r, i: ops.ifft2((r, i))[0], [((2, 4), None, None)] * 2, False),
        "rsqrt": (ops.rsqrt, [((2, 3), None, None)], True),
        "erf": (ops.erf, [((2, 3), None, None)], True),
        "erfinv": (ops.erfinv, [((2, 3), None, None)], True),
        "segment_sum": (lambda d, s: ops.segment_sum(d, s, num_segments=3),
                        [((4, 2), None, None), ((4,), "int32", [0, 0, 1, 2])], True),
        "segment_max": (lambda d, s: ops.segment_max(d, s, num_segments=3),
                        [((4, 2), None, None), ((4,), "int32", [0, 0, 1, 2])], True),
        "top_k[0]": (lambda x: ops.top_k(x, 2)[0], [((2, 3), None, None)], True),
        "top_k[1]": (lambda x: ops.top_k(x, 2)[1], [((2, 3), None, None)], True),
        "in_top_k": (lambda t, p: ops.in_top_k(t, p, 2), [((2,), "int32", [0, 2]), ((2, 3), "float32", None)], True),
        "extract_sequences": (lambda x: ops.extract_sequences(x, 3, 2), [((2, 7), None, None)], True),
        "qr[0]": (lambda x: ops.qr(x)[0], [((3, 3), None, None)], True),
        "logdet": (ops.logdet, [((3, 3), None, spd)], False),
        "solve": (ops.solve, [((3, 3), None, spd), ((3, 2), None, None)], False),
        "norm": (ops.norm, [((2, 3), None, None)], True),
    }


@clause("keras.ops", ref="tf221")
def test_amut28_math_ops_symbolic_specs_match_their_eager_results(keras):
    """keras.ops math and linalg functions (the FFTs and STFT, erf, segments, top_k, extract_sequences, qr,
    logdet, solve, norm) called on KerasTensors give the shape and dtype their eager call on arrays of the same
    shapes and dtypes gives: float64 always, float16 where TF has the kernel (the FFTs refuse float16, Cholesky
    and MatrixSolve have no half kernel on CPU); two spellings compared."""
    ops = keras.ops
    rng = np.random.default_rng(28)
    for dt in ("float64", "float16"):
        for name, (fn, specs, half) in _math_cases(ops).items():
            if dt == "float16" and not half:
                continue
            call = f"keras.ops.{name} on {dt} inputs of shapes {[s for s, _, _ in specs]}"
            sym = fn(*[keras.KerasTensor(s, dtype=d or dt) for s, d, _ in specs])
            eag = fn(*[ops.cast(np.asarray(v) if v is not None else rng.uniform(0.1, 0.9, s).astype(np.float32),
                                d or dt) for s, d, v in specs])
            assert_equal(tuple(sym.shape), tuple(eag.shape), call=call,
                         what="the KerasTensor result's shape (the eager result's)")
            assert_equal(_dtype_name(sym.dtype), _dtype_name(eag.dtype), call=call,
                         what="the KerasTensor result's dtype (the eager result's)")


def _dtype_name(d) -> str:
    return getattr(d, "name", None) or str(d)


# -- sparse categorical targets with a trailing 1 among other size-1 axes -------------------------------------------
def _np_sparse_ce(t, logits):
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(logp, t[..., None], axis=-1)[..., 0]


@clause("keras.loss.shapes", ref="tf221")
def test_amut28_sparse_targets_drop_only_their_trailing_one(keras):
    """Sparse categorical crossentropy and accuracy take integer targets of the logits' shape without the class
    axis, or with a trailing axis of 1, which only that axis is squeezed from: targets (1, 1) for logits (1, 3),
    (1, 1, 1) for (1, 1, 3) keep their other size-1 axes (a squeeze of every size-1 axis would leave a rank the
    logits refuse); per-sample results have the logits' shape without the class axis, values computed here."""
    base = np.array([0.2, -1.0, 0.7, 1.5, 0.1, -0.3], np.float64)
    labels = np.array([2, 0, 1], np.int64)
    for tshape, oshape in [((1, 1), (1, 3)), ((1,), (1, 3)), ((1, 1, 1), (1, 1, 3)), ((2, 1), (2, 3)),
                           ((1, 2, 1), (1, 2, 3)), ((2, 1, 1), (2, 1, 3))]:
        logits = np.resize(base, oshape)
        t = np.resize(labels, tshape).astype(np.int32)
        flat_t = t.reshape(oshape[:-1]).astype(np.int64)
        want_ce = _np_sparse_ce(flat_t, logits)
        want_acc = (np.argmax(logits, axis=-1) == flat_t).astype(np.float64)
        lg = logits.astype(np.float32)
        cases = {
            "keras.ops.sparse_categorical_crossentropy": (
                keras.ops.sparse_categorical_crossentropy(t, lg, from_logits=True), want_ce),
            "keras.losses.sparse_categorical_crossentropy": (
                keras.losses.sparse_categorical_crossentropy(t, lg, from_logits=True), want_ce),
            "keras.losses.SparseCategoricalCrossentropy(reduction=None)": (
                keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)(t, lg), want_ce),
            "keras.metrics.sparse_categorical_crossentropy": (
                keras.metrics.sparse_categorical_crossentropy(t, lg, from_logits=True), want_ce),
            "keras.metrics.sparse_categorical_accuracy": (keras.metrics.sparse_categorical_accuracy(t, lg), want_acc),
            "keras.losses.SparseCategoricalCrossentropy()": (
                keras.losses.SparseCategoricalCrossentropy(from_logits=True)(t, lg), np.mean(want_ce)),
        }
        for name, (got, want) in cases.items():
            call = f"{name}(targets of shape {tshape}, logits of shape {oshape})"
            assert_equal(tuple(got.shape), np.shape(want), call=call, what="out.shape")
            assert_close(got, want, call=call)


# -- from_config of wrappers: custom_objects reach the wrapped object ------------------------------------------------
@clause("keras.saving.json-and-serialize", ref="tf221")
def test_amut28_wrapper_from_config_passes_custom_objects_to_the_wrapped_object(keras):
    """A wrapper's from_config(config, custom_objects) deserializes the object it wraps with those
    custom_objects: LossScaleOptimizer's inner optimizer, TimeDistributed's and SpectralNormalization's layer,
    RNN's cell, StackedRNNCells' cells, each an unregistered subclass the revived wrapper holds again (Keras
    3.15's from_config methods; observed on TF 2.21)."""
    L = keras.layers

    class MySGD(keras.optimizers.SGD):
        pass

    class MyDense(L.Dense):
        pass

    class MyCell(L.SimpleRNNCell):
        pass

    custom = {"MySGD": MySGD, "MyDense": MyDense, "MyCell": MyCell}
    cases = [
        ("LossScaleOptimizer(MySGD(0.1))", keras.optimizers.LossScaleOptimizer,
         lambda: keras.optimizers.LossScaleOptimizer(MySGD(0.1)), lambda o: [o.inner_optimizer], [MySGD]),
        ("TimeDistributed(MyDense(2))", L.TimeDistributed, lambda: L.TimeDistributed(MyDense(2)),
         lambda o: [o.layer], [MyDense]),
        ("SpectralNormalization(MyDense(2))", L.SpectralNormalization, lambda: L.SpectralNormalization(MyDense(2)),
         lambda o: [o.layer], [MyDense]),
        ("RNN(MyCell(2))", L.RNN, lambda: L.RNN(MyCell(2)), lambda o: [o.cell], [MyCell]),
        ("StackedRNNCells([MyCell(2), MyCell(3)])", L.StackedRNNCells,
         lambda: L.StackedRNNCells([MyCell(2), MyCell(3)]), lambda o: list(o.cells), [MyCell, MyCell]),
    ]
    for name, cls, make, inner, want in cases:
        original = make()
        revived = cls.from_config(dict(original.get_config()), custom_objects=custom)
        call = f"{cls.__name__}.from_config({name}.get_config(), custom_objects={{...}})"
        assert_equal([type(o).__name__ for o in inner(revived)], [w.__name__ for w in want], call=call,
                     what="the wrapped objects' classes")
        assert_equal(all(isinstance(o, w) for o, w in zip(inner(revived), want)), True, call=call,
                     what="whether the wrapped objects are instances of the custom classes given")
        got_cfg = [o.get_config() for o in inner(revived)]
        want_cfg = [o.get_config() for o in inner(original)]
        for g, w in zip(got_cfg, want_cfg):
            for key in ("units", "learning_rate"):
                if key in w:
                    assert_equal(g[key], w[key], call=call, what=f"the wrapped object's config[{key!r}]")


# -- keras.tree: None is a leaf in every function ----------------------------------------------------------------------
def _leaves_with_paths(s, path=()):
    """The rule under test: leaf paths with None a leaf (dict keys sorted, lists and tuples by index)."""
    if isinstance(s, dict):
        return [lp for k in sorted(s) for lp in _leaves_with_paths(s[k], path + (k,))]
    if isinstance(s, (list, tuple)):
        return [lp for i, v in enumerate(s) for lp in _leaves_with_paths(v, path + (i,))]
    return [(path, s)]


@clause("keras.tree", ref="tf221")
def test_amut28_keras_tree_counts_none_as_a_leaf(keras):
    """keras.tree (optree with none_is_leaf=True in Keras 3.15) treats None as a leaf in flatten,
    flatten_with_path, pack_sequence_as, assert_same_structure and assert_same_paths: a None matches any
    leaf, list and tuple paths match, and a path only one side has is ValueError naming it (the expected
    leaves and paths computed here by a plain recursive walk)."""
    T = keras.tree
    s = [1, None, {"b": (2, None), "a": None}]
    other = [1, 5, {"a": 6, "b": (2, 7)}]
    want = _leaves_with_paths(s)
    assert_equal(list(T.flatten(s)), [v for _, v in want], call=f"keras.tree.flatten({s!r})")
    assert_equal([(tuple(p), v) for p, v in T.flatten_with_path(s)], want, call=f"keras.tree.flatten_with_path({s!r})")
    packed = T.pack_sequence_as(s, list(range(10, 10 + len(want))))
    assert_equal(_leaves_with_paths(packed), [(p, 10 + i) for i, (p, _) in enumerate(want)],
                 call=f"keras.tree.pack_sequence_as({s!r}, [10, ...])", what="the packed leaves with their paths")
    T.assert_same_structure(s, other)
    T.assert_same_paths(s, other)
    T.assert_same_paths(s, (1, 5, {"a": 6, "b": [2, 7]}))
    with raises(ValueError, match=r"don't have the same paths.*Paths in `a` missing in `b`:.*\{\(1,\)\}",
                call="keras.tree.assert_same_paths([1, None], [1])"):
        T.assert_same_paths([1, None], [1])
    with raises(ValueError, match=r"don't have the same paths.*Paths in `b` missing in `a`:.*\(2, 'b', 1\)",
                call="keras.tree.assert_same_paths([1, {'b': (2,)}], [1, {'b': (2, None)}])"):
        T.assert_same_paths([1, None, {"b": (2,)}], [1, None, {"b": (2, None)}])


# -- the confusion-curve metrics' default threshold grid ---------------------------------------------------------------
@clause("keras.metric.auc", ref="tf221")
def test_amut28_curve_metrics_default_to_200_evenly_spaced_thresholds(keras):
    """SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision and AUC default to
    num_thresholds=200: thresholds 0, (i+1)/199 for i < 198, 1 (AUC's ends -1e-7 and 1+1e-7), four or two
    (200,) count variables, num_thresholds 200 in the config, and after one update the results of an explicit
    num_thresholds=200 (Keras 3.15's constructors; the grid computed here)."""
    M = keras.metrics
    inner = [(i + 1) / 199.0 for i in range(198)]
    rng = np.random.default_rng(28)
    y_true = (rng.uniform(size=64) > 0.5).astype(np.float32)
    y_pred = rng.uniform(size=64).astype(np.float32)
    for cls, args in [(M.SensitivityAtSpecificity, (0.5,)), (M.SpecificityAtSensitivity, (0.5,)),
                      (M.PrecisionAtRecall, (0.5,)), (M.RecallAtPrecision, (0.5,)), (M.AUC, ())]:
        call = f"keras.metrics.{cls.__name__}({', '.join(map(str, args))})"
        m = cls(*args)
        ends = (-1e-7, 1.0 + 1e-7) if cls is M.AUC else (0.0, 1.0)
        assert_equal(m.get_config()["num_thresholds"], 200, call=call, what="get_config()['num_thresholds']")
        assert_close(np.asarray(m.thresholds, np.float64), np.array([ends[0]] + inner + [ends[1]]), call=call,
                     what="thresholds")
        assert_equal(sorted({tuple(v.shape) for v in m.variables}), [(200,)], call=call, what="the variables' shapes")
        explicit = cls(*args, num_thresholds=200)
        m.update_state(y_true, y_pred)
        explicit.update_state(y_true, y_pred)
        assert_equal(to_numpy(m.result()), to_numpy(explicit.result()), call=call + ".update_state(64 samples)",
                     what="result() (num_thresholds=200's)")


# -- .keras files: each object's assets under its path in the weights file ------------------------------------------
@clause("keras.saving.keras-file", ref="tf221")
def test_amut28_keras_file_assets_sit_under_each_objects_weights_path(keras, tmp_path):
    """model.save("x.keras") writes an object's save_assets files (an adapted lookup's vocabulary.txt) under
    assets/<the object's path>, the path its variables have in model.weights.h5: attribute names, and list or
    dict items by their snake_case class names, nested models and layers included (Keras 3.15's _save_state
    walk; the paths observed on TF 2.21); load_model reads them back."""
    import h5py
    import zipfile
    L = keras.layers
    lookup = L.StringLookup(name="lookup")
    lookup.adapt(np.array([["a", "b"], ["c", "a"]]))
    inner = keras.Sequential([lookup, L.Embedding(5, 2, name="emb")], name="inner")
    inp = keras.Input((2,), dtype="string")
    nested = keras.Model(inp, L.Dense(1, name="head")(inner(inp)), name="outer")

    class Holder(L.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.parts = [L.StringLookup(name="lk"), L.IntegerLookup(name="ik")]
            self.parts[0].adapt(np.array(["x", "y", "x"]))
            self.parts[1].adapt(np.array([3, 5, 5]))

        def build(self, input_shape):
            pass

        def call(self, x):
            return x

    inp2 = keras.Input((1,))
    holding = keras.Model(inp2, Holder(name="holder")(inp2))
    cases = [("a Sequential of an adapted StringLookup in a functional model", nested,
              ["layers/sequential/layers/string_lookup"]),
             ("a layer holding a list of adapted StringLookup and IntegerLookup", holding,
              ["layers/holder/parts/integer_lookup", "layers/holder/parts/string_lookup"])]
    for i, (what, model, want) in enumerate(cases):
        path = str(tmp_path / f"m{i}.keras")
        model.save(path)
        with zipfile.ZipFile(path) as z:
            names = sorted(z.namelist())
            with z.open("model.weights.h5") as f:
                h5 = h5py.File(f, "r")
                groups: list[str] = []
                h5.visit(groups.append)
                h5.close()
        assets = sorted(n[len("assets/"):].rsplit("/", 1)[0] for n in names if n.startswith("assets/"))
        call = f"model.save('x.keras') of {what}"
        assert_equal(assets, want, call=call, what="the asset directories (assets/<path>/vocabulary.txt)")
        for p in assets:
            assert_equal(p + "/vars" in groups, True, call=call,
                         what=f"whether model.weights.h5 has the group {p}/vars (groups: {sorted(groups)})")
    revived = keras.models.load_model(str(tmp_path / "m0.keras"))
    assert_equal(list(revived.layers[1].layers[0].get_vocabulary()), list(lookup.get_vocabulary()),
                 call="load_model of the nested model", what="the revived lookup's vocabulary")


# -- tf.gradients inside a tf.cond branch or loop body, of tensors computed outside it --------------------------------
def _central(f, x, h=1e-3):
    return (f(x + h) - f(x - h)) / (2 * h)


@clause("function.graph-gradients", ref="tf221")
def test_amut28_graph_gradients_inside_a_branch_reach_the_enclosing_graph(tf):
    """Inside a tf.function, tf.gradients (and a tape's gradient) called in a tf.cond branch, a nested branch or a
    while_loop body differentiates through the ops the enclosing function recorded before the branch: d(x*x)/dx,
    d(3 sin(x) x)/dx and the partial by the intermediate y = sin(x), d(x^3)/dx summed over two loop steps,
    d(x^3)/dx or d(x^2)/dx by a nested cond; expected by central differences of the NumPy functions."""
    @tf.function
    def in_cond(x):
        y = x * x
        return tf.cond(x > 0, lambda: tf.gradients(y, x)[0], lambda: tf.zeros_like(x))

    @tf.function
    def two_sources(x):
        y = tf.sin(x)
        z = y * 3.0
        return tf.cond(x > 0, lambda: tf.gradients(z * x, [x, y]), lambda: [tf.zeros_like(x), tf.zeros_like(x)])

    @tf.function
    def in_loop(x):
        y = x * x * x

        def body(i, acc):
            return i + 1, acc + tf.gradients(y, x)[0]
        return tf.while_loop(lambda i, a: i < 2, body, (tf.constant(0), tf.zeros_like(x)))[1]

    @tf.function
    def nested(x):
        y = x * x

        def outer():
            w = y * x
            return tf.cond(x > 1, lambda: tf.gradients(w, x)[0], lambda: tf.gradients(y, x)[0])
        return tf.cond(x > 0, outer, lambda: tf.zeros_like(x))

    @tf.function
    def tape_in_cond(x):
        with tf.GradientTape() as g:
            g.watch(x)
            y = x * x
        return tf.cond(x > 0, lambda: g.gradient(y, x), lambda: tf.zeros_like(x))

    cases = [
        ("tf.cond(x > 0, gradients(x*x, x), 0)", in_cond, lambda v: [_central(lambda t: t * t, v) if v > 0 else 0.0]),
        ("tf.cond(x > 0, gradients(3 sin(x) x, [x, sin(x)]), 0)", two_sources,
         lambda v: [_central(lambda t: 3 * np.sin(t) * t, v), 3 * v] if v > 0 else [0.0, 0.0]),
        ("while_loop(2 steps, acc + gradients(x^3, x))", in_loop, lambda v: [2 * _central(lambda t: t ** 3, v)]),
        ("tf.cond(x > 0, tf.cond(x > 1, gradients(x^3, x), gradients(x^2, x)), 0)", nested,
         lambda v: [(_central(lambda t: t ** 3, v) if v > 1 else _central(lambda t: t * t, v)) if v > 0 else 0.0]),
        ("tf.cond(x > 0, tape.gradient(x*x, x), 0)", tape_in_cond,
         lambda v: [_central(lambda t: t * t, v) if v > 0 else 0.0]),
    ]
    for name, fn, expected in cases:
        for v in (1.5, 0.5, -1.0):
            got = fn(tf.constant(v, tf.float64))
            got = [to_numpy(g) for g in (got if isinstance(got, (list, tuple)) else [got])]
            assert_close(np.array(got, np.float64), np.array(expected(v), np.float64),
                         call=f"tf.function {name} at x={v}", tolerance=Tolerance(rtol=1e-5, atol=1e-8))


# -- regression loss functions on float64 and narrow floats ------------------------------------------------------------
_EPS = 1e-7
_REGRESSION = {
    "mse": lambda t, p: np.mean((p - t) ** 2, axis=-1),
    "mae": lambda t, p: np.mean(np.abs(p - t), axis=-1),
    "mape": lambda t, p: 100.0 * np.mean(np.abs(t - p) / np.maximum(np.abs(t), _EPS), axis=-1),
    "msle": lambda t, p: np.mean((np.log(np.maximum(p, _EPS) + 1) - np.log(np.maximum(t, _EPS) + 1)) ** 2, axis=-1),
    "logcosh": lambda t, p: np.mean(np.log(np.cosh(p - t)), axis=-1),
    "huber": lambda t, p: np.mean(np.where(np.abs(p - t) <= 1.0, 0.5 * (p - t) ** 2, np.abs(p - t) - 0.5), axis=-1),
}


@clause("keras.loss.dtype", ref="tf221")
@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16"])
def test_amut28_regression_loss_functions_keep_their_inputs_dtype(tf, dtype):
    """tf.keras.losses.mse, mae, mape, msle, logcosh and huber on float64, float16 or bfloat16 tensors compute in
    that dtype and return it (msle of a narrow float is float32: Keras 3.15 promotes it with its float32 epsilon
    tensor, observed on TF 2.21); the Loss classes of dtype float64 return float64; values against NumPy
    transcriptions of Keras's formulas, within the dtype's precision."""
    K = tf.keras.losses
    t = np.array([[0.2, 1.5, -0.3], [1.0, 0.4, 2.0]])
    p = np.array([[0.5, 1.0, 0.1], [0.8, 0.9, 1.7]])
    tc, pc = tf.cast(tf.constant(t), dtype), tf.cast(tf.constant(p), dtype)
    tn, pn = (to_numpy(tf.cast(v, "float64")).astype(np.float64) for v in (tc, pc))
    rtol = {"float64": 1e-7, "float16": 5e-3, "bfloat16": 3e-2}[dtype]   # (logcosh: Keras takes log(2) in float32)
    for name, rule in _REGRESSION.items():
        out = getattr(K, name)(tc, pc)
        call = f"tf.keras.losses.{name}({dtype} y_true, {dtype} y_pred)"
        want_dtype = "float32" if name == "msle" and dtype != "float64" else dtype
        assert_equal(out.dtype.name, want_dtype, call=call, what="out.dtype")
        assert_close(to_numpy(tf.cast(out, "float64")), rule(tn, pn), call=call,
                     tolerance=Tolerance(rtol=rtol, atol=rtol * 1e-2))
    if dtype == "float64":
        for cls, rule in [("LogCosh", "logcosh"), ("MeanSquaredLogarithmicError", "msle"), ("Huber", "huber"),
                          ("MeanAbsolutePercentageError", "mape")]:
            out = getattr(K, cls)(dtype="float64")(tf.constant(t), tf.constant(p))
            call = f"tf.keras.losses.{cls}(dtype='float64')(float64 y_true, float64 y_pred)"
            assert_equal(out.dtype.name, "float64", call=call, what="out.dtype")
            assert_close(to_numpy(out), np.mean(_REGRESSION[rule](t, p)), call=call,
                         tolerance=Tolerance(rtol=1e-7, atol=1e-10))


# -- op gradients at the sizes the suite skipped: RFFT of even lengths > 2, QR of wide matrices ------------------------
def _numeric_grad(f, x, h=1e-6):
    """Central differences of the scalar f at x (float64), element by element."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


@clause("autodiff.op-gradients", ref="tf221")
def test_amut28_rfft_gradients_at_every_length_parity(tf):
    """The gradient of sum(real(w * rfft(x))) (and of rfft2d) for inputs of even and odd lengths 4 to 8, batched:
    TF's _rfft_grad_helper adds the first bin and, for an even length, the last bin (times (-1)^k) to the
    IRFFT of the upstream; expected by central differences of NumPy's rfft."""
    rng = np.random.default_rng(28)
    for shape, two_d in [((4,), False), ((2, 6), False), ((5,), False), ((3, 8), False), ((3, 4), True),
                         ((2, 3, 6), True)]:
        bins = shape[:-1] + (shape[-1] // 2 + 1,)
        w = rng.normal(size=bins) + 1j * rng.normal(size=bins)
        x = rng.normal(size=shape)
        np_fft = (lambda a: np.fft.rfft2(a)) if two_d else np.fft.rfft
        want = _numeric_grad(lambda a: float(np.sum(np.real(np_fft(a) * w))), x)
        xt = tf.constant(x)
        with tf.GradientTape() as g:
            g.watch(xt)
            y = tf.signal.rfft2d(xt) if two_d else tf.signal.rfft(xt)
            loss = tf.reduce_sum(tf.math.real(y * tf.constant(w)))
        call = f"d/dx sum(real(w * tf.signal.{'rfft2d' if two_d else 'rfft'}(x))), x of shape {shape} (float64)"
        assert_close(g.gradient(loss, xt), want, call=call, tolerance=Tolerance(rtol=1e-6, atol=1e-7))


@clause("autodiff.op-gradients", ref="tf221")
def test_amut28_qr_gradients_of_wide_square_and_deep_matrices(tf):
    """The gradient of sum(wq * q) + sum(wr * r) for tf.linalg.qr of wide (m < n: TF's QrGrad splits x = [X | Y]
    and folds Y's part into dq), square and deep matrices, batched; expected by central differences of the
    backend's own tf.linalg.qr (two spellings of one derivative: no sign convention assumed)."""
    rng = np.random.default_rng(28)
    for shape in [(2, 4), (3, 5), (2, 2, 3), (3, 3), (4, 2)]:
        m, n = shape[-2:]
        k = min(m, n)
        x = rng.normal(size=shape)
        wq = rng.normal(size=shape[:-2] + (m, k))
        wr = rng.normal(size=shape[:-2] + (k, n))

        def loss_np(a):
            q, r = tf.linalg.qr(tf.constant(a))
            return float(np.sum(to_numpy(q) * wq) + np.sum(to_numpy(r) * wr))

        want = _numeric_grad(loss_np, x)
        xt = tf.constant(x)
        with tf.GradientTape() as g:
            g.watch(xt)
            q, r = tf.linalg.qr(xt)
            loss = tf.reduce_sum(q * tf.constant(wq)) + tf.reduce_sum(r * tf.constant(wr))
        assert_close(g.gradient(loss, xt), want, call=f"d/dx sum(wq * q) + sum(wr * r), (q, r) = tf.linalg.qr(x), "
                     f"x of shape {shape} (float64)", tolerance=Tolerance(rtol=1e-5, atol=1e-6))


# -- ClusterCoordinator: the functions cancelled after a failure say so ------------------------------------------------
_QUEUED_CANCEL = "The corresponding function is cancelled. Please reschedule the function."


@clause("coord.errors", ref="tf221")
@pytest.mark.requires("multi_worker")
def test_amut28_functions_cancelled_after_a_failure_carry_a_message(backend, tf):
    """With one worker, a failing function scheduled before six others: the failure is raised once (by join(), or
    by a schedule() once the coordinator has seen it: on TF that depends on timing), and each function scheduled
    before that returns from fetch() or raises CancelledError whose message is TF's text for a queued function
    ("The corresponding function is cancelled. Please reschedule the function.") or, on TF, names the cancelled
    remote call of `good` (observed on TF 2.21: every one scheduled is cancelled)."""
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=1, ps=1)
strategy, coordinator = cluster.strategy, cluster.coordinator
with strategy.scope():
    v = tf.Variable(0.0)
@tf.function
def good():
    v.assign_add(1.0)
    return v.read_value()
@tf.function
def bad():
    tf.debugging.assert_non_positive(v.read_value() + 1.0, message="planted failure")
    return tf.constant(0.0)
failing = coordinator.schedule(bad)
remotes, early = [], None
for _ in range(6):
    try:
        remotes.append(coordinator.schedule(good))
    except tf.errors.OpError as e:
        early = e
        break
""")
    ns = prog.run()
    tf_, coordinator = ns["tf"], ns["coordinator"]
    if ns["early"] is None:
        with raises((tf_.errors.InvalidArgumentError, tf_.errors.OpError), match="planted failure",
                    call="join() after a failing function"):
            coordinator.join()
    else:
        assert_true("planted failure" in str(ns["early"]), f"schedule() raised {ns['early']!r}, but should raise "
                    f"the planted failure", call="schedule() after a failing function")
    for i, r in enumerate(ns["remotes"]):
        try:
            r.fetch()
        except tf_.errors.CancelledError as e:
            msg = e.message
            assert_true(isinstance(msg, str) and (msg == _QUEUED_CANCEL or "__inference_good" in msg),
                        f"CancelledError.message={msg!r}, but should be {_QUEUED_CANCEL!r} (or, on TF, name the "
                        f"cancelled call of good)", call=f"remotes[{i}].fetch() after the failure")
            assert_equal(str(e), msg, call=f"remotes[{i}].fetch() after the failure", what="str(CancelledError)")


# -- random ops: the logits dtypes categorical refuses, and the ThreeFry generator on CPU ------------------------------
_MULTINOMIAL_T = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"


@clause("ops.random-ranges", ref="tf221")
def test_amut28_categorical_refuses_logits_outside_its_type_list(tf):
    """tf.random.categorical and tf.random.stateless_categorical, and the raw Multinomial and StatelessMultinomial
    ops, check the logits' dtype against the ops' T list: bool, complex64 and string are InvalidArgumentError
    "Value for attr 'T' of <dtype> is not in the list of allowed values: float, double, int32, ..."; integer logits
    are in the list but have no CPU kernel (NotFoundError "Could not find device for node"); float16 logits draw
    int64 samples (observed on TF 2.21)."""
    for dt in ("bool", "complex64", "string", "int32", "int64", "uint8", "float16"):
        logits = tf.constant([["a", "b", "c"]]) if dt == "string" else tf.cast(tf.constant([[1, 0, 2]]), dt)
        for name, fn in [("tf.random.categorical(logits, 3, seed=1)",
                          lambda: tf.random.categorical(logits, 3, seed=1)),
                         ("tf.random.stateless_categorical(logits, 3, seed=[1, 2])",
                          lambda: tf.random.stateless_categorical(logits, 3, seed=[1, 2])),
                         ("tf.raw_ops.Multinomial(logits, 3, seed=1, seed2=2)",
                          lambda: tf.raw_ops.Multinomial(logits=logits, num_samples=3, seed=1, seed2=2)),
                         ("tf.raw_ops.StatelessMultinomial(logits, 3, seed=[1, 2])",
                          lambda: tf.raw_ops.StatelessMultinomial(logits=logits, num_samples=3, seed=[1, 2]))]:
            call = f"{name} of {dt} logits"
            if dt in ("bool", "complex64", "string"):
                with raises(tf.errors.InvalidArgumentError,
                            match=rf"Value for attr 'T' of {dt} is not in the list of allowed values: "
                                  + re.escape(_MULTINOMIAL_T), call=call):
                    fn()
            elif dt != "float16":
                with raises(tf.errors.NotFoundError, match="Could not find device for node", call=call):
                    fn()
            else:
                out = fn()
                assert_equal(out.dtype.name, "int64", call=call, what="out.dtype")
                assert_equal(tuple(out.shape), (1, 3), call=call, what="out.shape")


@clause("ops.random-generator", ref="tf221")
def test_amut28_threefry_generators_draw_nothing_on_cpu(tf):
    """A tf.random.Generator of the ThreeFry algorithm ("threefry" or 2) is created (algorithm 2), but every draw
    and state step reads and skips through RngReadAndSkip, which has no ThreeFry CPU kernel: skip, normal,
    uniform_full_int, make_seeds and split are UnimplementedError "Non-XLA devices don't support the ThreeFry
    algorithm." (observed on TF 2.21); a Philox generator's skip works."""
    for alg in ("threefry", 2):
        g = tf.random.Generator.from_seed(1, alg=alg)
        assert_equal(int(g.algorithm), 2, call=f"Generator.from_seed(1, alg={alg!r})", what="algorithm")
        for name, fn in [("skip(10)", lambda: g.skip(10)), ("normal([2])", lambda: g.normal([2])),
                         ("uniform_full_int([2], tf.int64)", lambda: g.uniform_full_int([2], tf.int64)),
                         ("make_seeds(2)", lambda: g.make_seeds(2)), ("split(2)", lambda: g.split(2))]:
            with raises(tf.errors.UnimplementedError, match="Non-XLA devices don't support the ThreeFry algorithm",
                        call=f"Generator.from_seed(1, alg={alg!r}).{name}"):
                fn()
    p = tf.random.Generator.from_seed(1, alg="philox")
    before = to_numpy(p.state).copy()
    p.skip(10)
    assert_equal(bool(np.array_equal(before, to_numpy(p.state))), False, call="Generator.from_seed(1, alg='philox')"
                 ".skip(10)", what="whether the state stayed the same")


# -- Model.input_shape / output_shape: the flat inputs' and outputs' shapes ------------------------------------------
@clause("keras.model.call", ref="tf221")
def test_amut28_model_shapes_are_those_of_the_flat_inputs_and_outputs(keras):
    """A functional Model's input_shape and output_shape are the shapes of `inputs` and `outputs`, the flattened
    lists (dicts in sorted-key order), one shape alone when the list holds one: a single tensor, a list of one
    and a dict of one all give the shape itself, a list or dict of two a list (Keras 3.15's Functional)."""
    L = keras.layers

    def flat_shapes(struct):
        flat = [struct[k] for k in sorted(struct)] if isinstance(struct, dict) else \
            list(struct) if isinstance(struct, list) else [struct]
        shapes = [tuple(t.shape) for t in flat]
        return shapes[0] if len(shapes) == 1 else shapes

    def norm(s):
        return tuple(s) if isinstance(s, tuple) else [tuple(x) for x in s]

    for name, build in [
        ("Model(a, Dense(a))", lambda a, b: (a, L.Dense(2)(a))),
        ("Model([a], [Dense(a)])", lambda a, b: ([a], [L.Dense(2)(a)])),
        ("Model([a, b], [Dense(a), Dense(b)])", lambda a, b: ([a, b], [L.Dense(2)(a), L.Dense(5)(b)])),
        ("Model({'b': b, 'a': a}, {'o': Dense(a)})", lambda a, b: ({"b": b, "a": a}, {"o": L.Dense(2)(a)})),
        ("Model(a, {'y': Dense(a), 'x': Dense(a)})", lambda a, b: (a, {"y": L.Dense(2)(a), "x": L.Dense(6)(a)})),
    ]:
        a, b = keras.Input((3,), name="a"), keras.Input((4,), name="b")
        ins, outs = build(a, b)
        m = keras.Model(ins, outs)
        assert_equal(norm(m.input_shape), flat_shapes(ins), call=name, what="input_shape")
        assert_equal(norm(m.output_shape), flat_shapes(outs), call=name, what="output_shape")

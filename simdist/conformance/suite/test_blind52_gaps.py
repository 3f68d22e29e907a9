"""Gaps the fifty-second blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of Keras's layers, losses, metrics, optimizers, schedules and callbacks that the suite stated for one
spelling, one option value, one dtype or one input only, or never, so that a wrong implementation of the other case
passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, or (said so where it is) was observed on TF 2.21 — never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)
from simdist.conformance.suite.outcomes import outcome as _outcome

clause = pytest.mark.clause


def _dtype(x):
    return str(getattr(x.dtype, "name", x.dtype))


# -- the merge layers' batch sizes ----------------------------------------------------------------------------------------------
_MERGE_PAIRS = [((None, 3), (2, 3)), ((2, 3), (None, 3)), ((2, 3), (3, 3)), ((None, 3), (None, 3))]
_BATCHES = "Cannot merge tensors with different batch sizes"
_CONCAT = "A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis"


def _want_merge(name, a, b):
    """Keras 3.15's Merge.build: the batch sizes other than None must agree (ValueError); the output's batch size is
    the first known one (the elementwise layers' broadcast). Concatenate checks the non-concatenated axes and keeps
    the first input's batch size (None stays None); Dot (axes=1) checks no batch size and keeps the first input's
    (observed on TF 2.21)."""
    known = {d for d in (a[0], b[0]) if d is not None}
    if name == "Dot":
        return "ok", (a[0], 1)
    if name == "Concatenate":
        return ("ValueError", _CONCAT) if len(known) > 1 else ("ok", (a[0], 6))
    if len(known) > 1:
        return "ValueError", _BATCHES
    return "ok", (next(iter(known)) if known else None, 3)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("pair", _MERGE_PAIRS, ids=str)
@pytest.mark.parametrize("name", ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot"])
def test_blind52_merge_layers_batch_sizes(keras, name, pair):
    """A merge layer over two symbolic inputs whose batch sizes are (None, 2), (2, None), (2, 3) or (None, None): an
    unknown batch size agrees with any; two known different ones are refused (ValueError) by the elementwise layers
    and Concatenate, not by Dot; the output's batch size as _want_merge says (observed on TF 2.21)."""
    a, b = pair
    layer = keras.layers.Dot(axes=1) if name == "Dot" else getattr(keras.layers, name)()
    cls, got = _outcome(lambda: tuple(layer([keras.Input(batch_shape=a), keras.Input(batch_shape=b)]).shape))
    want_cls, want = _want_merge(name, a, b)
    if want_cls == "ok":
        assert (cls, got) == ("ok", want), f"{name} of {a} and {b}: expected shape {want}, got {cls}: {got}"
    else:
        assert cls == want_cls and want in got, f"{name} of {a} and {b}: expected {want_cls} {want!r}, got {cls}: {got}"


# -- the preprocessing layers' symbolic output dtypes ---------------------------------------------------------------------------
def _lookup(cls, mode, **kw):
    extra = {"idf_weights": [0.5, 0.25]} if mode == "tf_idf" else {}
    vocab = ["a", "b"] if cls == "StringLookup" else [3, 4]
    return lambda k: getattr(k.layers, cls)(vocabulary=vocab, output_mode=mode, **extra, **kw)


_SYMBOLIC = {}
for _m in ["int", "one_hot", "multi_hot", "count", "tf_idf"]:
    _want = "int64" if _m == "int" else "float32"
    _SYMBOLIC[f"StringLookup-{_m}"] = (_lookup("StringLookup", _m), (1,), "string", _want)
    _SYMBOLIC[f"IntegerLookup-{_m}"] = (_lookup("IntegerLookup", _m), (1,), "int64", _want)
    _SYMBOLIC[f"TextVectorization-{_m}"] = (
        lambda k, m=_m: k.layers.TextVectorization(vocabulary=["a", "b"], output_mode=m,
                                                   **({"idf_weights": [0.5, 0.25]} if m == "tf_idf" else {})),
        (1,), "string", _want) if _m != "one_hot" else None
_SYMBOLIC = {k: v for k, v in _SYMBOLIC.items() if v is not None}
_SYMBOLIC["StringLookup-invert"] = (lambda k: k.layers.StringLookup(vocabulary=["a", "b"], invert=True), (1,), "int64",
                                    "int64")
_SYMBOLIC["IntegerLookup-invert"] = (lambda k: k.layers.IntegerLookup(vocabulary=[3, 4], invert=True), (1,), "int64",
                                     "int64")
for _m in ["int", "one_hot", "multi_hot", "count"]:
    _SYMBOLIC[f"Discretization-{_m}"] = (
        lambda k, m=_m: k.layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode=m), (1,), "float32",
        "int32" if _m == "int" else "float32")
    _SYMBOLIC[f"Hashing-{_m}"] = (lambda k, m=_m: k.layers.Hashing(num_bins=3, output_mode=m), (1,), "string",
                                  "int64" if _m == "int" else "float32")
for _m in ["one_hot", "multi_hot", "count"]:
    _SYMBOLIC[f"CategoryEncoding-{_m}"] = (lambda k, m=_m: k.layers.CategoryEncoding(num_tokens=3, output_mode=m), (1,),
                                           "int32", "float32")
_SYMBOLIC["Discretization-int-dtype=int64"] = (
    lambda k: k.layers.Discretization(bin_boundaries=[0.0], output_mode="int", dtype="int64"), (1,), "float32", "int32")


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("what", list(_SYMBOLIC))
def test_blind52_preprocessing_layers_symbolic_output_dtype(keras, what):
    """A preprocessing layer called on a keras.Input gives the dtype Keras 3.15's compute_output_spec gives: the
    lookup layers and TextVectorization int64 indices in 'int' mode, float32
    counts otherwise (an inverted StringLookup's symbolic output says int64 too: Keras 3.15's compute_output_spec
    looks at output_mode only); Discretization int32 bucket indices (its output_dtype, whatever `dtype`), Hashing int64, the
    counting modes float32 (observed on TF 2.21)."""
    make, shape, in_dtype, want = _SYMBOLIC[what]
    y = make(keras)(keras.Input(shape, dtype=in_dtype))
    assert _dtype(y) == want, f"{what} of a symbolic {in_dtype} input: expected {want}, got {_dtype(y)}"


# -- TextVectorization's output shape ---------------------------------------------------------------------------------------
def _want_tv_shape(mode, split, shape):
    """Keras 3.15's TextVectorization.compute_output_shape: 'int' gives (batch, output_sequence_length); otherwise
    without a split a vector of strings gets a token axis of 1 before the lookup replaces the last axis by the
    vocabulary size (3: OOV + 2 tokens), and with a split the token axis is added to any input (a (batch, 1) input
    keeps its 1)."""
    if mode == "int":
        return (shape[0], 3)
    if split is None:
        base = shape + (1,) if len(shape) <= 1 else shape
    else:
        base = shape + (None,)
    return base[:-1] + (3,)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("shape", [(None,), (None, 1), (4,), (4, 1)], ids=str)
@pytest.mark.parametrize("split", [None, "whitespace"])
@pytest.mark.parametrize("mode", ["int", "multi_hot", "count", "tf_idf"])
def test_blind52_text_vectorization_output_shape(keras, mode, split, shape):
    """TextVectorization(vocabulary=['a', 'b'], output_mode, split).compute_output_shape of a vector or a (batch, 1)
    column of strings, and the shape of its symbolic output, are _want_tv_shape's (observed on TF 2.21 for the 32
    cases: a split (batch, 1) input keeps its unit axis in the counting modes)."""
    kw = {"idf_weights": [0.5, 0.25]} if mode == "tf_idf" else {}
    make = lambda: keras.layers.TextVectorization(vocabulary=["a", "b"], output_mode=mode, split=split,  # noqa: E731
                                                  output_sequence_length=3 if mode == "int" else None, **kw)
    want = _want_tv_shape(mode, split, shape)
    got = tuple(make().compute_output_shape(shape))
    assert got == want, f"TextVectorization({mode!r}, split={split!r}).compute_output_shape({shape}): expected " \
                        f"{want}, got {got}"
    got = tuple(make()(keras.Input(shape[1:], dtype="string", batch_size=shape[0])).shape)
    assert got == want, f"TextVectorization({mode!r}, split={split!r}) of a symbolic {shape} input: expected {want}, " \
                        f"got {got}"


# -- the noise and dropout layers keep the compute dtype in training ----------------------------------------------------------------
_NOISE = {
    "GaussianNoise": lambda k, d: k.layers.GaussianNoise(0.1, seed=1, dtype=d),
    "GaussianDropout": lambda k, d: k.layers.GaussianDropout(0.1, seed=1, dtype=d),
    "AlphaDropout": lambda k, d: k.layers.AlphaDropout(0.1, seed=1, dtype=d),
    "Dropout": lambda k, d: k.layers.Dropout(0.1, seed=1, dtype=d),
    "SpatialDropout1D": lambda k, d: k.layers.SpatialDropout1D(0.1, seed=1, dtype=d),
}


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("policy, x_dtype", [("mixed_float16", "float16"), ("mixed_float16", "float32"),
                                             ("float64", "float64"), ("float16", "float16")], ids=str)
@pytest.mark.parametrize("name", list(_NOISE))
def test_blind52_noise_layers_keep_the_compute_dtype_in_training(keras, name, policy, x_dtype):
    """A noise or dropout layer called with training=True under a dtype policy draws its noise in the compute dtype
    (Keras 3.15: dtype=self.compute_dtype), so its output is that dtype (float16 under mixed_float16, whatever the
    input's float dtype) and the input's shape (observed on TF 2.21)."""
    want = ("float16" if policy.endswith("float16") else policy, (2, 3, 4))
    y = _NOISE[name](keras, policy)(np.ones((2, 3, 4), x_dtype), training=True)
    got = (_dtype(y), tuple(y.shape))
    assert got == want, f"{name}(dtype={policy!r}) of {x_dtype} ones in training: expected {want}, got {got}"


# -- RNN over a cell without get_initial_state ------------------------------------------------------------------------------------
def _cell_class(keras):
    class Cell(keras.layers.Layer):
        """A minimal cell without get_initial_state: state_size [2, 3], output the input's first two features plus the
        first state."""

        def __init__(self, **kw):
            super().__init__(**kw)
            self.state_size = [2, 3]
            self.output_size = 2

        def call(self, x, states):
            h = x[:, :2] + states[0]
            return h, [h, states[1]]
    return Cell


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("policy", ["float64", "mixed_float16", "float32", "bfloat16"])
def test_blind52_rnn_over_a_cell_without_initial_state_uses_its_compute_dtype(keras, policy):
    """RNN(cell) over a cell without get_initial_state makes zeros of the cell's compute dtype for each state_size
    entry (Keras 3.15's RNN.get_initial_state); its call returns the output and states in that dtype; StackedRNNCells of
    two such cells does the same per cell (observed on TF 2.21)."""
    want = "float16" if policy == "mixed_float16" else policy
    Cell = _cell_class(keras)
    got = [(_dtype(t), tuple(t.shape)) for t in keras.layers.RNN(Cell(dtype=policy), dtype=policy).get_initial_state(4)]
    assert got == [(want, (4, 2)), (want, (4, 3))], f"RNN(cell, dtype={policy!r}).get_initial_state(4): expected " \
                                                    f"{want} zeros (4, 2) and (4, 3), got {got}"
    outs = keras.layers.RNN(Cell(dtype=policy), dtype=policy, return_state=True)(np.ones((2, 3, 2), "float32"))
    got = [(_dtype(t), tuple(t.shape)) for t in outs]
    assert got == [(want, (2, 2)), (want, (2, 2)), (want, (2, 3))], \
        f"RNN(cell, dtype={policy!r}, return_state=True): expected {want} (2, 2), (2, 2), (2, 3), got {got}"
    init = keras.layers.StackedRNNCells([Cell(dtype=policy), Cell(dtype=policy)], dtype=policy).get_initial_state(
        batch_size=2)
    got = [_dtype(t) for s in init for t in (s if isinstance(s, (list, tuple)) else [s])]
    assert got == [want] * 4, f"StackedRNNCells of two such cells (dtype={policy!r}): expected {[want] * 4}, got {got}"


# -- Softmax with a mask ---------------------------------------------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("axis", [-1, 0])
def test_blind52_softmax_layer_takes_and_passes_on_a_mask(keras, axis):
    """Softmax(axis)(x, mask=m): the masked entries get -1e9 added before the softmax (Keras 3.15), so they are 0 and
    the others' softmax is over the unmasked entries only; the layer supports masking, so the output carries the mask
    (`_keras_mask`, observed on TF 2.21)."""
    if axis == -1:
        x = np.array([[1.0, -2.0, 3.0], [0.5, 0.25, 2.0]], "float32")
        m = np.array([[True, True, False], [False, True, True]])
    else:
        x = np.array([[1.0, 4.0], [2.0, 0.0], [-1.0, 3.0]], "float32")
        m = np.array([[True, False], [False, True], [True, True]])
    e = np.where(m, np.exp(x.astype(np.float64) - x.max()), 0.0)
    want = e / e.sum(axis=axis, keepdims=True)
    y = keras.layers.Softmax(axis=axis)(x, mask=m)
    np.testing.assert_allclose(np.asarray(_np(y)), want, rtol=1e-5, atol=1e-7,
                               err_msg=f"Softmax(axis={axis}) of {x.tolist()} with mask {m.tolist()}")
    got = getattr(y, "_keras_mask", None)
    assert got is not None and np.asarray(_np(got)).tolist() == m.tolist(), \
        f"Softmax(axis={axis})(x, mask=m)._keras_mask: expected {m.tolist()}, got {got}"


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("name", ["Activation", "ReLU", "Dense", "Dropout", "LayerNormalization", "Rescaling"])
def test_blind52_layers_without_a_mask_argument_refuse_one(keras, name):
    """A layer whose call has no `mask` parameter refuses an explicit mask= keyword with TypeError "got an unexpected
    keyword argument 'mask'" (observed on TF 2.21), while Softmax takes it (the test above)."""
    make = {"Activation": lambda: keras.layers.Activation("relu"), "ReLU": keras.layers.ReLU,
            "Dense": lambda: keras.layers.Dense(2), "Dropout": lambda: keras.layers.Dropout(0.5),
            "LayerNormalization": keras.layers.LayerNormalization, "Rescaling": lambda: keras.layers.Rescaling(2.0)}
    cls, got = _outcome(lambda: make[name]()(np.ones((1, 3), "float32"), mask=np.array([[True, True, False]])))
    assert cls == "TypeError" and "unexpected keyword argument 'mask'" in got, \
        f"{name}(x, mask=m): expected TypeError \"got an unexpected keyword argument 'mask'\", got {cls}: {got}"


# -- the losses' constructor arguments ------------------------------------------------------------------------------------------
#: loss class -> its default name (observed on TF 2.21).
_LOSS_NAMES = {
    "MeanSquaredError": "mean_squared_error", "MeanAbsoluteError": "mean_absolute_error",
    "MeanAbsolutePercentageError": "mean_absolute_percentage_error",
    "MeanSquaredLogarithmicError": "mean_squared_logarithmic_error", "CosineSimilarity": "cosine_similarity",
    "Huber": "huber_loss", "LogCosh": "log_cosh", "Hinge": "hinge", "SquaredHinge": "squared_hinge",
    "CategoricalHinge": "categorical_hinge", "KLDivergence": "kl_divergence", "Poisson": "poisson",
    "BinaryCrossentropy": "binary_crossentropy", "CategoricalCrossentropy": "categorical_crossentropy",
    "BinaryFocalCrossentropy": "binary_focal_crossentropy",
    "CategoricalFocalCrossentropy": "categorical_focal_crossentropy", "Tversky": "tversky", "Dice": "dice",
}
_YT = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], "float32")
_YP = np.array([[0.2, 0.7, 0.4], [0.6, 0.3, 0.1]], "float32")


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(_LOSS_NAMES))
def test_blind52_loss_classes_take_their_constructor_arguments(keras, name):
    """Each loss class passes its constructor's reduction, dtype and name on: the default name (in .name and
    get_config(), observed on TF 2.21); reduction='sum' is the sum and 'mean' the mean of reduction='none''s per-sample
    values (Dice and Tversky reduce to one value before: all three equal); dtype='float64' gives a float64 loss
    (Keras 3.15's Loss.__call__ casts to self.dtype); a name given is kept."""
    cls = getattr(keras.losses, name)
    want = _LOSS_NAMES[name]
    got = [cls().name, cls().get_config()["name"], cls(name="given").name]
    assert got == [want, want, "given"], f"{name}: expected names {[want, want, 'given']}, got {got}"
    per = np.asarray(_np(cls(reduction="none")(_YT, _YP)), dtype=np.float64)
    total = float(_np(cls(reduction="sum")(_YT, _YP)))
    mean = float(_np(cls(reduction="mean")(_YT, _YP)))
    np.testing.assert_allclose([total, mean], [per.sum(), per.mean()], rtol=1e-5,
                               err_msg=f"{name}: reduction 'sum' and 'mean' against reduction 'none' {per.tolist()}")
    y = cls(dtype="float64")(_YT, _YP)
    assert _dtype(y) == "float64", f"{name}(dtype='float64'): expected a float64 loss, got {_dtype(y)}"
    assert cls(reduction="sum").get_config()["reduction"] == "sum", f"{name}(reduction='sum').get_config()"


# -- the metrics' default names ---------------------------------------------------------------------------------------------------
#: metric (constructor) -> its default name (observed on TF 2.21).
_METRIC_NAMES = {
    "MeanSquaredError": "mean_squared_error", "MeanAbsoluteError": "mean_absolute_error",
    "MeanAbsolutePercentageError": "mean_absolute_percentage_error",
    "MeanSquaredLogarithmicError": "mean_squared_logarithmic_error", "RootMeanSquaredError": "root_mean_squared_error",
    "CosineSimilarity": "cosine_similarity", "LogCoshError": "logcosh", "Hinge": "hinge",
    "SquaredHinge": "squared_hinge", "CategoricalHinge": "categorical_hinge", "KLDivergence": "kl_divergence",
    "Poisson": "poisson", "BinaryCrossentropy": "binary_crossentropy",
    "CategoricalCrossentropy": "categorical_crossentropy",
    "SparseCategoricalCrossentropy": "sparse_categorical_crossentropy", "Accuracy": "accuracy",
    "BinaryAccuracy": "binary_accuracy", "CategoricalAccuracy": "categorical_accuracy",
    "SparseCategoricalAccuracy": "sparse_categorical_accuracy", "TopKCategoricalAccuracy": "top_k_categorical_accuracy",
    "SparseTopKCategoricalAccuracy": "sparse_top_k_categorical_accuracy", "AUC": "auc", "Precision": "precision",
    "Recall": "recall", "TruePositives": "true_positives", "TrueNegatives": "true_negatives",
    "FalsePositives": "false_positives", "FalseNegatives": "false_negatives", "F1Score": "f1_score",
    "FBetaScore": "fbeta_score", "R2Score": "r2_score", "PearsonCorrelation": "pearson_correlation",
    "ConcordanceCorrelation": "concordance_correlation", "Sum": "sum", "Mean": "mean", "BinaryIoU": "binary_io_u",
    "IoU(2, [0])": "io_u", "MeanIoU(2)": "mean_io_u", "OneHotIoU(2, [0])": "one_hot_io_u",
    "OneHotMeanIoU(2)": "one_hot_mean_io_u", "PrecisionAtRecall(0.5)": "precision_at_recall",
    "RecallAtPrecision(0.5)": "recall_at_precision", "SensitivityAtSpecificity(0.5)": "sensitivity_at_specificity",
    "SpecificityAtSensitivity(0.5)": "specificity_at_sensitivity",
}


def _make_metric(keras, spec):
    name, _, args = spec.partition("(")
    cls = getattr(keras.metrics, name)
    if not args:
        return cls()
    return cls(*eval("(" + args.rstrip(")") + ",)"))   # noqa: S307 - literal arguments of this module's table


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("spec", list(_METRIC_NAMES))
def test_blind52_metric_default_names(keras, spec):
    """Each metric's default name (what fit's logs are keyed by; observed on TF 2.21): the loss-like metrics take
    their loss's name except LogCoshError ('logcosh', the loss is 'log_cosh'); the IoU metrics 'io_u'."""
    got = _make_metric(keras, spec).name
    assert got == _METRIC_NAMES[spec], f"{spec}.name: expected {_METRIC_NAMES[spec]!r}, got {got!r}"


# -- the learning-rate schedules' configs ---------------------------------------------------------------------------------------
_SCHEDULES = {
    "PolynomialDecay(cycle=True)": lambda s: s.PolynomialDecay(1.0, 4, end_learning_rate=0.1, power=2.0, cycle=True),
    "PolynomialDecay(power=0.5)": lambda s: s.PolynomialDecay(1.0, 4, end_learning_rate=0.1, power=0.5),
    "InverseTimeDecay(staircase=True)": lambda s: s.InverseTimeDecay(1.0, 3, 0.5, staircase=True),
    "ExponentialDecay(staircase=True)": lambda s: s.ExponentialDecay(1.0, 3, 0.5, staircase=True),
    "CosineDecay(alpha, warmup)": lambda s: s.CosineDecay(0.5, 6, alpha=0.1, warmup_target=1.0, warmup_steps=2),
    "CosineDecayRestarts(t_mul, m_mul, alpha)": lambda s: s.CosineDecayRestarts(1.0, 3, t_mul=1.5, m_mul=0.5, alpha=0.1),
    "PiecewiseConstantDecay": lambda s: s.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1]),
}


def _poly(step, cycle, power, init=1.0, end=0.1, steps=4):
    """Keras 3.15's PolynomialDecay: with cycle the decay steps grow to the next multiple (at least one period),
    else the step is clipped to them."""
    if cycle:
        steps = steps * max(1.0, np.ceil(step / steps))
    else:
        step = min(step, steps)
    return (init - end) * (1 - step / steps) ** power + end


@clause("optim.config-round-trip", ref="tf221")
@pytest.mark.parametrize("name", list(_SCHEDULES))
def test_blind52_schedules_round_trip_every_option(keras, name):
    """A schedule rebuilt by from_config(get_config()) gives the same learning rate as the original at steps 0-11
    (so every option is in the config, cycle and staircase included); PolynomialDecay's values are Keras 3.15's rule
    (_poly)."""
    s = keras.optimizers.schedules
    sched = _SCHEDULES[name](s)
    again = type(sched).from_config(sched.get_config())
    got = [float(_np(again(i))) for i in range(12)]
    want = [float(_np(sched(i))) for i in range(12)]
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{name} rebuilt from its config, steps 0-11")
    if name.startswith("PolynomialDecay"):
        cycle, power = "cycle" in name, 2.0 if "cycle" in name else 0.5
        np.testing.assert_allclose(want, [_poly(i, cycle, power) for i in range(12)], rtol=1e-5,
                                   err_msg=f"{name}, steps 0-11")


# -- CallbackList's default callbacks -----------------------------------------------------------------------------------------------
@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("given", [False, True])
@pytest.mark.parametrize("add_progbar", [False, True])
@pytest.mark.parametrize("add_history", [False, True])
def test_blind52_callback_list_adds_the_default_callbacks_asked_for(keras, add_history, add_progbar, given):
    """CallbackList(callbacks, add_history, add_progbar) appends a History when add_history and none is given, then a
    ProgbarLogger when add_progbar (Keras 3.15's _add_default_callbacks: History first, observed on TF 2.21)."""
    cb = keras.callbacks
    start = [cb.History()] if given else []
    got = [type(c).__name__ for c in cb.CallbackList(start, add_history=add_history, add_progbar=add_progbar).callbacks]
    want = (["History"] if given or add_history else []) + (["ProgbarLogger"] if add_progbar else [])
    assert got == want, f"CallbackList({'[History()]' if given else '[]'}, add_history={add_history}, " \
                        f"add_progbar={add_progbar}).callbacks: expected {want}, got {got}"


# -- SwapEMAWeights(swap_on_epoch=True) -------------------------------------------------------------------------------------------
def _ema_fit(keras, epochs, swap, validation=False):
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones",
                                                                  bias_initializer="zeros")])
    m.compile(optimizer=keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), loss="mse")
    x = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
    y = np.array([[1.0], [2.0]], "float32")
    seen = []

    class Record(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            seen.append(np.asarray(_np(self.model.layers[0].kernel)).ravel().tolist())

        def on_epoch_end(self, epoch, logs=None):
            seen.append(np.asarray(_np(self.model.layers[0].kernel)).ravel().tolist())

    cbs = ([keras.callbacks.SwapEMAWeights(swap_on_epoch=True)] if swap else []) + [Record()]
    m.fit(x, y, epochs=epochs, batch_size=1, verbose=0, shuffle=False, callbacks=cbs,
          validation_data=(x, y) if validation else None)
    return np.asarray(_np(m.layers[0].kernel)).ravel().tolist(), seen


@clause("keras.callbacks.swap-ema-weights", ref="tf221")
@pytest.mark.parametrize("validation", [False, True])
@pytest.mark.parametrize("epochs", [1, 2, 3])
def test_blind52_swap_ema_weights_on_every_epoch(keras, epochs, validation):
    """SwapEMAWeights(swap_on_epoch=True) puts the EMA weights in the model at each epoch's end and the trained ones
    back at the next epoch's begin: a callback after it sees, at each epoch's begin, the kernel a fit without it has at
    the previous epoch's end (the training is unchanged), and at each epoch's end a kernel other than the trained one;
    the fit ends with the same kernel as without it (fit's own finalize_variable_values: observed on TF 2.21)."""
    plain_final, plain = _ema_fit(keras, epochs, False)
    final, seen = _ema_fit(keras, epochs, True, validation)
    begins, ends, plain_ends = seen[0::2], seen[1::2], plain[1::2]
    np.testing.assert_allclose(begins[1:], plain_ends[:-1], rtol=1e-6,
                               err_msg=f"the kernel at epochs 2-{epochs}'s begin with the callback vs at the previous "
                                       "epoch's end without it")
    for e, (a, b) in enumerate(zip(ends, plain_ends)):
        assert not np.allclose(a, b), f"epoch {e + 1}'s end: expected the EMA kernel, got the trained one {a}"
    np.testing.assert_allclose(final, plain_final, rtol=1e-6, err_msg="the kernel after fit, with and without it")
    np.testing.assert_allclose(ends[-1], final, rtol=1e-6, err_msg="the kernel at the last epoch's end and after fit")


# -- the optimizers' options -----------------------------------------------------------------------------------------------------
_GRADS = [[10.0, 2.0], [0.1, 0.2], [0.1, 0.1]]


def _adam(grads, lr, b1, b2, eps, amsgrad):
    """Keras 3.15's Adam.update_step in float64."""
    v0 = np.array([1.0, -2.0])
    m = np.zeros(2)
    v = np.zeros(2)
    vhat = np.zeros(2)
    for t, g in enumerate(grads, start=1):
        g = np.asarray(g, np.float64)
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        m += (g - m) * (1 - b1)
        v += (g * g - v) * (1 - b2)
        if amsgrad:
            vhat = np.maximum(vhat, v)
            v_use = vhat
        else:
            v_use = v
        v0 = v0 - m * alpha / (np.sqrt(v_use) + eps)
    return v0.tolist()


#: optimizer -> its variable after the three _GRADS steps from [1, -2] (observed on TF 2.21 unless computed: Adam).
_OPTIMIZERS = {
    "Adam(amsgrad=True)": (lambda o: o.Adam(0.1, beta_2=0.5, amsgrad=True), _adam(_GRADS, 0.1, 0.9, 0.5, 1e-7, True)),
    "Adam": (lambda o: o.Adam(0.1, beta_2=0.5), _adam(_GRADS, 0.1, 0.9, 0.5, 1e-7, False)),
    "AdamW(amsgrad=True)": (lambda o: o.AdamW(0.1, beta_2=0.5, amsgrad=True, weight_decay=0.1), [0.77375, -2.14880]),
    "Nadam(epsilon=1.0)": (lambda o: o.Nadam(0.1, epsilon=1.0), [0.88860, -2.08847]),
    "Nadam(beta_2=0.5)": (lambda o: o.Nadam(0.1, beta_2=0.5), [0.87009, -2.14837]),
    "Lamb(beta_1=0.5, beta_2=0.99)": (lambda o: o.Lamb(0.1, beta_1=0.5, beta_2=0.99), [0.54389, -2.52790]),
    "Lamb(epsilon=0.5)": (lambda o: o.Lamb(0.1, epsilon=0.5), [0.47460, -2.45041]),
    "Adamax(beta_2=0.5)": (lambda o: o.Adamax(0.1, beta_2=0.5), [0.68185, -2.34548]),
    "Adagrad(epsilon=1.0)": (lambda o: o.Adagrad(0.1, epsilon=1.0), [0.89856, -2.10179]),
    "Adadelta(rho=0.5)": (lambda o: o.Adadelta(1.0, rho=0.5), [0.99953, -2.00059]),
    "Lion(beta_1=0.5, beta_2=0.2)": (lambda o: o.Lion(0.1, beta_1=0.5, beta_2=0.2), [0.7, -2.3]),
    "Ftrl(l1, beta)": (lambda o: o.Ftrl(0.1, l1_regularization_strength=0.01, beta=0.5), [0.82511, -1.44409]),
}


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(_OPTIMIZERS))
def test_blind52_optimizer_options_take_effect(keras, tf, name):
    """Three apply_gradients steps of _GRADS on a variable [1, -2] with a non-default option (amsgrad, epsilon, beta_2,
    rho, l1 and beta): the variable is Keras 3.15's (Adam's computed by _adam, a transcription of its update_step;
    the others observed on TF 2.21, 5 digits) — an option dropped or swapped changes it."""
    make, want = _OPTIMIZERS[name]
    opt = make(keras.optimizers)
    v = tf.Variable([1.0, -2.0])
    for g in _GRADS:
        opt.apply_gradients([(tf.constant(g, "float32"), v)])
    np.testing.assert_allclose(np.asarray(_np(v)), want, rtol=2e-5, atol=1e-5,
                               err_msg=f"{name} after three steps of {_GRADS}")


# -- TimeDistributed's output shape ---------------------------------------------------------------------------------------------
#: wrapped layer -> (its maker, the input shape without batch, the output shape without batch: computed by hand from the
#: wrapped layer's rule applied to each time step's (rest of the) shape).
_TIME_DISTRIBUTED = {
    "Dense(5)": (lambda k: k.layers.Dense(5), (4, 3), (4, 5)),
    "Dense(5) over (4, 2, 3)": (lambda k: k.layers.Dense(5), (4, 2, 3), (4, 2, 5)),
    "Conv1D(2, 3)": (lambda k: k.layers.Conv1D(2, 3), (4, 6, 3), (4, 4, 2)),
    "Conv2D(2, 3, strides=2)": (lambda k: k.layers.Conv2D(2, 3, strides=2), (3, 7, 5, 1), (3, 3, 2, 2)),
    "Flatten": (lambda k: k.layers.Flatten(), (4, 2, 3), (4, 6)),
    "MaxPooling1D(2)": (lambda k: k.layers.MaxPooling1D(2), (4, 6, 3), (4, 3, 3)),
    "GlobalAveragePooling1D": (lambda k: k.layers.GlobalAveragePooling1D(), (4, 6, 3), (4, 3)),
    "RepeatVector(2)": (lambda k: k.layers.RepeatVector(2), (4, 3), (4, 2, 3)),
}


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("batch", [None, 2])
@pytest.mark.parametrize("name", list(_TIME_DISTRIBUTED))
def test_blind52_time_distributed_output_shape(keras, name, batch):
    """TimeDistributed(layer) keeps the batch and time axes and puts the wrapped layer's per-step output shape after
    them: compute_output_shape, a symbolic call and (batch 2) an eager call agree with the shape computed by hand."""
    make, shape, out = _TIME_DISTRIBUTED[name]
    want = (batch,) + out
    got = tuple(keras.layers.TimeDistributed(make(keras)).compute_output_shape((batch,) + shape))
    assert got == want, f"TimeDistributed({name}).compute_output_shape({(batch,) + shape}): expected {want}, got {got}"
    got = tuple(keras.layers.TimeDistributed(make(keras))(keras.Input(shape, batch_size=batch)).shape)
    assert got == want, f"TimeDistributed({name}) of a symbolic {(batch,) + shape} input: expected {want}, got {got}"
    if batch is not None:
        got = tuple(keras.layers.TimeDistributed(make(keras))(np.ones((batch,) + shape, "float32")).shape)
        assert got == want, f"TimeDistributed({name}) of ones {(batch,) + shape}: expected {want}, got {got}"

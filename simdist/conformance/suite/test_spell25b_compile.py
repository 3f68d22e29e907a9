"""spell25b (issue 29): compile() and the losses through every spelling of the same model — a two-output
functional model whose output names are NOT in sorted order, given targets as a list or a dict, `loss` as one
string, a list or a dict, `loss_weights` as a list, a dict, an int or a float, `metrics` as a list of lists or a
dict, evaluated eagerly and traced over batches that leave a partial one; a masked loss (ignore_class, or a Keras
mask from Embedding(mask_zero)) under each reduction; a frozen BatchNormalization called with training=True,
directly and inside fit.

Expected values: NumPy float64 transcriptions of Keras 3.15 (keras/src/trainers/compile_utils.py: dict targets,
losses, weights and metrics matched to the outputs BY NAME; the total loss tracker weighs each batch by its rows;
a per-output loss tracker `<name>_loss` weighs a batch by the prediction's static batch size — its rows when run
eagerly, nothing (every batch once) in a traced step; keras/src/losses/loss.py apply_mask: under "mean" and
"sum_over_batch_size" a valid entry weighs total/valid, so the loss is the mean over the valid entries;
layers/normalization/batch_normalization.py: training only `if training and self.trainable`).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-6)

_RNG = np.random.default_rng(25253)
X5 = _RNG.integers(-4, 5, size=(5, 2)).astype(np.float32) / 2.0
KZ = np.array([[1.0], [-0.5]], np.float32)
KA = np.array([[0.25], [0.75]], np.float32)
YZ = _RNG.integers(-4, 5, size=(5, 1)).astype(np.float32) / 2.0
YA = _RNG.integers(-4, 5, size=(5, 1)).astype(np.float32) / 2.0


def _two_outputs(keras):
    inp = keras.Input((2,))
    zeta = keras.layers.Dense(1, use_bias=False, name="zeta_out")(inp)
    alpha = keras.layers.Dense(1, use_bias=False, name="alpha_out")(inp)
    model = keras.Model(inp, [zeta, alpha])
    model.get_layer("zeta_out").set_weights([KZ])
    model.get_layer("alpha_out").set_weights([KA])
    return model


def _sq_err(k: np.ndarray, y: np.ndarray) -> np.ndarray:
    return ((X5.astype(np.float64) @ k - y)[:, 0]) ** 2


def _abs_err(k: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.abs((X5.astype(np.float64) @ k - y)[:, 0])


@clause("keras.compile.loss-weights", ref="tf221")
def test_spell25b_two_outputs_every_compile_spelling(keras):
    """The total loss of the model [zeta_out, alpha_out] is wz * mse(zeta) + wa * mse(alpha), each output's own
    loss logged as `<name>_loss`, zeta_out's mse and alpha_out's mae as `<name>_<metric>`, however the targets
    (list or dict), the loss (one string, a list or tuple, a dict), the loss weights (list, tuple, dict, a float
    scalar) and the metrics (list of lists, dict by name) are spelled; five samples in one batch. Weights pair with
    a loss of their own
    structure; others are flattened (a dict by sorted key) and packed as the loss, so a dict of weights beside a
    list loss goes in sorted key order. One loss with two weights is a ValueError, an int weight too."""
    mz, ma = _sq_err(KZ, YZ).mean(), _sq_err(KA, YA).mean()
    aa = _abs_err(KA, YA).mean()
    targets = {"list": [YZ, YA], "dict": {"zeta_out": YZ, "alpha_out": YA}}
    spellings = {   # what -> (compile kwargs, (wz, wa))
        "loss=['mse', 'mse'], loss_weights=[2.0, 0.5]": ({"loss": ["mse", "mse"], "loss_weights": [2.0, 0.5]},
                                                       (2.0, 0.5)),
        "loss=('mse', 'mse'), loss_weights=(2.0, 0.5)": ({"loss": ("mse", "mse"), "loss_weights": (2.0, 0.5)},
                                                       (2.0, 0.5)),
        # a dict of weights beside a list loss is flattened by SORTED key: alpha_out's 0.5 goes to the first output
        "loss=['mse', 'mse'], loss_weights={'zeta_out': 2.0, 'alpha_out': 0.5}":
            ({"loss": ["mse", "mse"], "loss_weights": {"zeta_out": 2.0, "alpha_out": 0.5}}, (0.5, 2.0)),
        "loss={'alpha_out': 'mse', 'zeta_out': 'mse'}, loss_weights={'alpha_out': 0.5, 'zeta_out': 2.0}":
            ({"loss": {"alpha_out": "mse", "zeta_out": "mse"}, "loss_weights": {"alpha_out": 0.5, "zeta_out": 2.0}},
             (2.0, 0.5)),
        "loss={'alpha_out': 'mse', 'zeta_out': 'mse'}, loss_weights=[2.0, 0.5]":
            ({"loss": {"alpha_out": "mse", "zeta_out": "mse"}, "loss_weights": [2.0, 0.5]}, (2.0, 0.5)),
        "loss='mse', loss_weights=1.5": ({"loss": "mse", "loss_weights": 1.5}, (1.5, 1.5)),
    }
    metric_spellings = {"metrics=[['mse'], ['mae']]": [["mse"], ["mae"]],
                        "metrics={'alpha_out': ['mae'], 'zeta_out': ['mse']}": {"alpha_out": ["mae"],
                                                                               "zeta_out": ["mse"]}}
    model = _two_outputs(keras)
    for j, ((how, (kwargs, (wz, wa))), (mhow, metrics)) in enumerate(zip(spellings.items(),
                                                                          list(metric_spellings.items()) * 3)):
        for tname, y in list(targets.items())[j % 2::2] if j < 4 else targets.items():
            model.compile(optimizer="sgd", metrics=metrics, run_eagerly=True, **kwargs)   # (a recompile: all new)
            out = model.evaluate(X5, y, verbose=0, return_dict=True)
            call = f"compile({how}, {mhow}).evaluate(targets as a {tname})"
            assert_close(out["loss"], wz * mz + wa * ma, tolerance=TOL, call=call, what="loss")
            assert_close(out["zeta_out_loss"], mz, tolerance=TOL, call=call, what="zeta_out_loss")
            assert_close(out["alpha_out_loss"], ma, tolerance=TOL, call=call, what="alpha_out_loss")
            assert_close(out["zeta_out_mse"], mz, tolerance=TOL, call=call, what="zeta_out_mse")
            assert_close(out["alpha_out_mae"], aa, tolerance=TOL, call=call, what="alpha_out_mae")
    with raises(ValueError, match="loss_weights", call="compile(loss='mse', loss_weights=3)"):
        model.compile(optimizer="sgd", loss="mse", loss_weights=3)
    for weights in ([2.0, 0.5], {"zeta_out": 2.0, "alpha_out": 0.5}):
        model.compile(optimizer="sgd", loss="mse", loss_weights=weights, run_eagerly=True)
        with raises(ValueError, match="must match the number of losses",
                    call=f"compile(loss='mse', loss_weights={weights}).evaluate (one loss, two weights)"):
            model.evaluate(X5, [YZ, YA], verbose=0)


@clause("keras.fit.logs", ref="tf221")
@pytest.mark.parametrize("eager", [True, False], ids=["run_eagerly", "traced"])
def test_spell25b_per_output_losses_over_a_partial_batch_eager_and_traced(keras, eager):
    """Five samples in batches of 2 (2, 2, 1): the total loss is the mean over samples in both spellings; each
    `<name>_loss` is the mean over samples when run eagerly (batches weighed by their rows) but the plain mean of
    the three batches' losses in a traced step (Keras 3.15 weighs by the static batch size, None there)."""
    model = _two_outputs(keras)
    model.compile(optimizer="sgd", loss="mse", run_eagerly=eager)
    out = model.evaluate(X5, [YZ, YA], batch_size=2, verbose=0, return_dict=True)
    call = f"compile(loss='mse', run_eagerly={eager}).evaluate(5 samples, batch_size=2)"
    ez, ea = _sq_err(KZ, YZ), _sq_err(KA, YA)
    assert_close(out["loss"], ez.mean() + ea.mean(), tolerance=TOL, call=call, what="loss (mean over samples)")
    for name, e in (("zeta_out", ez), ("alpha_out", ea)):
        want = e.mean() if eager else np.mean([e[:2].mean(), e[2:4].mean(), e[4:].mean()])
        assert_close(out[f"{name}_loss"], want, tolerance=TOL, call=call,
                     what=f"{name}_loss ({'rows-weighted' if eager else 'the mean of the batches'})")


_LOGITS = _RNG.integers(-4, 5, size=(2, 4, 3)).astype(np.float32) / 2.0
_LABELS = np.array([[1, 2, 0, 0], [2, 0, 1, 0]], np.int64)     # class 0 ignored / padded


def _sparse_xent(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    z = logits.astype(np.float64)
    lse = np.log(np.exp(z - z.max(-1, keepdims=True)).sum(-1)) + z.max(-1)
    return lse - np.take_along_axis(z, labels[..., None], -1)[..., 0]


@clause("keras.loss.ignore-class", ref="tf221")
def test_spell25b_masked_loss_under_every_reduction(keras, tf):
    """SparseCategoricalCrossentropy(from_logits=True, ignore_class=0): "none" gives 0 at ignored entries, "sum"
    the sum over the valid ones, "mean" and "sum_over_batch_size" alike the MEAN over the valid entries (not over
    all), "mean_with_sample_weight" too; the same with a Keras mask from Embedding(mask_zero=True) in evaluate."""
    per = _sparse_xent(_LOGITS, _LABELS)
    valid = _LABELS != 0
    want = {"none": np.where(valid, per, 0.0), "sum": per[valid].sum(), "mean": per[valid].mean(),
            "sum_over_batch_size": per[valid].mean(), "mean_with_sample_weight": per[valid].mean()}
    for reduction, expected in want.items():
        loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0, reduction=reduction)
        assert_close(np.asarray(loss(_LABELS, _LOGITS)), expected, tolerance=TOL,
                     call=f"SparseCategoricalCrossentropy(from_logits=True, ignore_class=0, reduction={reduction!r})",
                     what="loss")
    # the mask from the tokens (0 = padding), carried by the output of Embedding -> Dense
    table = _RNG.integers(-4, 5, size=(3, 3)).astype(np.float32) / 2.0
    model = keras.Sequential([keras.Input((4,), dtype="int64"), keras.layers.Embedding(3, 3, mask_zero=True),
                              keras.layers.Dense(3, use_bias=False, kernel_initializer="identity")])
    model.layers[0].set_weights([table])
    logits = table[_LABELS]
    per_m = _sparse_xent(logits, _LABELS)
    for reduction in ("mean", "sum_over_batch_size", "sum"):
        model.compile(optimizer="sgd", run_eagerly=True,
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=reduction))
        got = model.evaluate(_LABELS, _LABELS, verbose=0)
        expected = per_m[valid].sum() if reduction == "sum" else per_m[valid].mean()
        assert_close(got, expected, tolerance=TOL, call=f"Embedding(mask_zero) -> Dense; SCCE(reduction={reduction!r})"
                     ".evaluate(tokens, tokens)", what="loss (over the unmasked tokens)")


_XB = _RNG.integers(-4, 5, size=(6, 2)).astype(np.float32) / 2.0


@clause("keras.layer.batchnorm", ref="tf221")
def test_spell25b_frozen_batchnorm_is_inference_whatever_training_says(keras):
    """BatchNormalization with trainable=False normalises by its moving statistics and leaves them alone when
    called with training=True, directly, through a model, or inside fit; a trainable one (the other spelling)
    uses the batch's statistics and moves the moving ones by momentum."""
    mean0 = np.array([0.5, -0.25], np.float32)
    var0 = np.array([2.0, 0.5], np.float32)
    eps = 1e-3
    infer = (_XB - mean0) / np.sqrt(var0.astype(np.float64) + eps)
    bmean, bvar = _XB.astype(np.float64).mean(0), _XB.astype(np.float64).var(0)
    batch = (_XB - bmean) / np.sqrt(bvar + eps)

    def make(trainable):
        bn = keras.layers.BatchNormalization(momentum=0.5, epsilon=eps)
        bn.build((None, 2))
        bn.set_weights([np.ones(2, np.float32), np.zeros(2, np.float32), mean0, var0])
        bn.trainable = trainable
        return bn

    for trainable in (False, True):
        bn = make(trainable)
        out = np.asarray(bn(_XB, training=True))
        call = f"BatchNormalization(trainable={trainable})(x, training=True)"
        assert_close(out, batch if trainable else infer, tolerance=TOL, call=call, what="out")
        new_mean = 0.5 * mean0 + 0.5 * bmean if trainable else mean0
        assert_close(bn.moving_mean.numpy(), new_mean, tolerance=TOL, call=call, what="moving_mean")
    bn = make(False)
    model = keras.Sequential([keras.Input((2,)), bn])
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", run_eagerly=True)
    assert_close(np.asarray(model(_XB, training=True)), infer, tolerance=TOL,
                 call="Sequential([frozen BatchNormalization])(x, training=True)", what="out")
    hist = model.fit(_XB, np.zeros_like(_XB), batch_size=6, epochs=1, verbose=0)
    assert_close(hist.history["loss"][0], (infer ** 2).mean(), tolerance=TOL,
                 call="fit of Sequential([frozen BatchNormalization]), SGD(0.0)", what="loss (moving statistics)")
    assert_close(bn.moving_variance.numpy(), var0, tolerance=TOL,
                 call="fit of Sequential([frozen BatchNormalization])", what="moving_variance")

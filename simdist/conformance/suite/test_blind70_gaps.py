"""The classes around the seventieth blind batch's mutants (tests/mutants.py TRAINING_BATCH70), each checked as a
class: Keras's Attention layer (dot and concat scores, with and without a scale) with masked keys under large scores
and a causal mask; MultiHeadAttention's fast path (no dropout, no returned scores) and its score path, with masks;
R2Score's aggregations, adjusted and weighted; AUC's curves and summation methods with soft labels and batches without
positives or negatives (its four counts too), multi-label with label weights; top-k accuracy with targets out of range
and non-finite rows; F-beta scores for each beta, threshold, average and fractional weights; IoU/MeanIoU with absent
classes; the regression, probabilistic and hinge losses in float32 and float64 and binary focal crossentropy's
options; SGD/RMSprop momentum and Nadam over several variables, clipping options at 0; every learning-rate schedule
over 30 steps; GlobalAveragePooling of the half types and with masks; recurrent layers running backwards; Embedding
with negative indices.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program on
TF (`python -m simdist.conformance.suite.test_blind70_gaps --record`, which rewrites blind70_reference.json.gz). The
recording host is this session's AVX-512 Xeon with oneDNN on (recorded_programs.avx512_with_onednn): the programs whose
bits follow the CPU's kernels are host-dependent, run by simdist under its model of that host (reference_cpu) on any
other CPU. Floats are compared by their bits (hex of the IEEE value): a scale applied before or after a product, or a
sum of squares taken in another form, moves a value by an ulp, which any tolerance would hide."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                          error as _error, reference_cpu)

PATH = os.path.join(os.path.dirname(__file__), "blind70_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): softmax, exp and sums of the attention
#: layers, the metrics' and losses' reductions and transcendental packets, the optimizers' and schedules' arithmetic
HOST_DEPENDENT = ("layer-", "metric-", "loss-", "opt-", "sched-")

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. attention: masked keys under large scores, MultiHeadAttention's fast and score paths ---------------------------
def _dyadic(r: Any, *shape: int, scale: float = 1.0) -> np.ndarray:
    """Values k/8 (exact sums and products of a few terms: only the scale's and softmax's roundings show)."""
    return (np.round(r.uniform(-1, 1, shape) * 8) / 8 * scale).astype(np.float32)


def _attention_masks(tf: Any, mk: Any) -> Any:
    r = np.random.RandomState(70)
    L = tf.keras.layers
    out = {}
    for size in (1.0, 30.0, 100.0):
        q = tf.constant(_dyadic(r, 2, 3, 4, scale=size) + np.float32(size))
        v = tf.constant(_dyadic(r, 2, 5, 4, scale=size) + np.float32(size))
        vmask = tf.constant(np.array([[True, True, False, False, False], [True, False, True, True, False]]))
        for mode in ("dot", "concat"):
            for use_scale in (False, True):
                layer = L.Attention(score_mode=mode, use_scale=use_scale)
                for causal in (False, True):
                    o, s = layer([q, v], mask=[None, vmask], return_attention_scores=True, use_causal_mask=causal)
                    out[f"{size} {mode} scale={use_scale} causal={causal}"] = [_bits(o), _bits(s)]
    return out


_program("layer-attention-masks", _attention_masks)


def _mha(tf: Any, mk: Any) -> Any:
    """MultiHeadAttention with dyadic weights and inputs: the value rows are zero but one and the output kernel
    takes one input per output, so every sum is exact and only the logits' scale, the softmax and the masks show."""
    r = np.random.RandomState(71)
    L = tf.keras.layers
    out = {}
    for heads, key_dim in ((2, 3), (1, 5)):
        layer = L.MultiHeadAttention(num_heads=heads, key_dim=key_dim, value_dim=2)
        q = tf.constant(_dyadic(r, 2, 4, 6, scale=2.0))
        v = tf.constant(_dyadic(r, 2, 5, 6, scale=2.0))
        layer(q, v)
        ws = []
        for w in layer.get_weights():
            a = _dyadic(r, *w.shape)
            ws.append(a)
        names = [w.path for w in layer.weights]
        # value kernel/bias: only the first input feature feeds the values; output kernel: one input per output
        for i, n in enumerate(names):
            if "value" in n and "kernel" in n:
                ws[i][1:] = 0.0
            if "value" in n and "bias" in n:
                ws[i][...] = 0.0
            if "attention_output" in n and "kernel" in n:
                k = np.zeros_like(ws[i]).reshape(-1, ws[i].shape[-1])
                for j in range(k.shape[1]):
                    k[j % k.shape[0], j] = 0.5
                ws[i] = k.reshape(ws[i].shape)
        layer.set_weights(ws)
        vv = v.numpy().copy(); vv[:, 1:, :] = 0.0
        vv = tf.constant(vv)
        mask = tf.constant(r.rand(2, 4, 5) > 0.3)
        out[f"{heads}x{key_dim} fast"] = _bits(layer(q, vv))
        out[f"{heads}x{key_dim} mask"] = _bits(layer(q, vv, attention_mask=mask))
        out[f"{heads}x{key_dim} causal"] = _bits(layer(q, vv, use_causal_mask=True))
        o, s = layer(q, vv, return_attention_scores=True)
        out[f"{heads}x{key_dim} scores"] = [_bits(o), _bits(s)]
    return out


_program("layer-mha-paths", _mha)


# -- 2. metrics --------------------------------------------------------------------------------------------------------
def _r2(tf: Any, mk: Any) -> Any:
    """R2Score's result bit for bit: each aggregation, adjusted, weighted, one and three outputs, several updates."""
    r = np.random.RandomState(72)
    out = {}
    for outputs in (1, 3):
        y = [(r.randn(n, outputs) * 3 + 1.5).astype(np.float32) for n in (7, 12)]
        p = [(a + r.randn(*a.shape)).astype(np.float32) for a in y]
        w = [r.rand(a.shape[0], 1).astype(np.float32) for a in y]
        for agg in ("uniform_average", "variance_weighted_average", None):
            for regressors in (0, 2):
                for weighted in (False, True):
                    m = tf.keras.metrics.R2Score(class_aggregation=agg, num_regressors=regressors)
                    for a, b, c in zip(y, p, w):
                        m.update_state(a, b, sample_weight=c if weighted else None)
                    out[f"{outputs} {agg} {regressors} {weighted}"] = _bits(m.result())
    return out


_program("metric-r2", _r2)


def _auc_counts(tf: Any, mk: Any) -> Any:
    """AUC (ROC, PR, PRGAIN; interpolation, minoring, majoring) and its four counts for soft labels, batches without
    negatives or without positives, label weights and multi_label."""
    r = np.random.RandomState(73)
    out = {}
    cases = {"soft": np.array([0, 0.3, 1, 0.7, 0, 1, 0.5, 0], np.float32),
             "positives-only": np.ones(8, np.float32), "negatives-only": np.zeros(8, np.float32),
             "binary": np.array([0, 1, 1, 0, 1, 0, 0, 1], np.float32)}
    preds = r.rand(8).astype(np.float32)
    for label_name, labels in cases.items():
        for curve in ("ROC", "PR", "PRGAIN"):
            for method in ("interpolation", "minoring", "majoring"):
                m = tf.keras.metrics.AUC(num_thresholds=7, curve=curve, summation_method=method)
                m.update_state(labels, preds)
                out[f"{label_name} {curve} {method}"] = [_bits(m.result()), _bits(m.true_positives),
                                                         _bits(m.false_positives), _bits(m.true_negatives),
                                                         _bits(m.false_negatives)]
    y = (r.rand(6, 3) > 0.5).astype(np.float32)
    y[:, 2] = 1.0
    p = r.rand(6, 3).astype(np.float32)
    for lw in (None, [0.5, 1.0, 2.0]):
        m = tf.keras.metrics.AUC(num_thresholds=5, multi_label=True, label_weights=lw)
        m.update_state(y, p)
        out[f"multi {lw}"] = [_bits(m.result()), _bits(m.true_negatives), _bits(m.false_negatives)]
    return out


_program("metric-auc-counts", _auc_counts)


def _top_k_f_iou(tf: Any, mk: Any) -> Any:
    """Top-k accuracies with targets out of range and non-finite rows; F1/F-beta (thresholds None and given, betas,
    fractional weights, negative scores); IoU/MeanIoU with classes absent, never hit, or only predicted."""
    r = np.random.RandomState(74)
    out = {}
    preds = tf.constant([[-1.0, -2.0, -3.0], [0.1, 0.5, 0.2], [0.3, 0.3, 0.1], [np.nan, 0.2, 0.1], [0.0, 0.0, 0.0]])
    for k in (1, 2, 3):
        out[f"sparse top-{k}"] = _error(lambda k=k: _bits(tf.keras.metrics.sparse_top_k_categorical_accuracy(
            tf.constant([3, 1, 0, 1, -1]), preds, k=k)))
    y = np.eye(3, dtype=np.float32)[[0, 1, 2, 1, 0, 2, 2]]
    p = r.rand(7, 3).astype(np.float32)
    for beta in (0.5, 1.0, 2.0):
        for threshold in (None, 0.4):
            for avg in (None, "micro", "macro", "weighted"):
                for scale in (1.0, -1.0):
                    for sw in (None, 0.125):
                        m = tf.keras.metrics.FBetaScore(beta=beta, threshold=threshold, average=avg)
                        w = None if sw is None else np.full((7,), sw, np.float32)
                        m.update_state(y, p * np.float32(scale), sample_weight=w)
                        out[f"fbeta {beta} {threshold} {avg} {scale} {sw}"] = _bits(m.result())
    for yt, yp in (([0, 0, 1, 2, 2], [0, 1, 0, 2, 2]), ([0, 1, 1, 2, 2, 0], [0, 1, 2, 2, 1, 0]),
                   ([0, 0, 0, 2], [0, 1, 0, 2]), ([1, 1, 1, 1], [0, 0, 1, 1])):
        m = tf.keras.metrics.MeanIoU(num_classes=4)
        m.update_state(yt, yp)
        out[f"meaniou {yt} {yp}"] = _bits(m.result())
        m = tf.keras.metrics.IoU(num_classes=4, target_class_ids=[0, 2, 3])
        m.update_state(yt, yp, sample_weight=np.linspace(0.5, 1.5, len(yt)).astype(np.float32))
        out[f"iou {yt} {yp}"] = _bits(m.result())
    return out


_program("metric-top-k-f-iou", _top_k_f_iou)


# -- 3. losses -----------------------------------------------------------------------------------------------------
def _losses(tf: Any, mk: Any) -> Any:
    """The regression, probabilistic and hinge losses per sample and reduced, float32 and float64 (the loss's
    dtype), at values reaching their edges; binary focal crossentropy with class balancing, gammas, label
    smoothing and several columns."""
    r = np.random.RandomState(75)
    K = tf.keras.losses
    out = {}
    yt = r.uniform(-0.5, 2.0, (6, 5))
    yt[0, :2] = 0.0
    yp = r.uniform(-1.0, 2.5, (6, 5))
    yp[1, :2] = 0.0
    prob_t = r.dirichlet(np.ones(5), 6)
    prob_p = r.dirichlet(np.ones(5), 6)
    for dtype in ("float32", "float64"):
        a, b = tf.constant(yt.astype(dtype)), tf.constant(yp.astype(dtype))
        pa, pb = tf.constant(prob_t.astype(dtype)), tf.constant(np.abs(prob_p).astype(dtype))
        for name, loss, args in (("log_cosh", K.LogCosh, (a, b)), ("msle", K.MeanSquaredLogarithmicError, (a, b)),
                                 ("mape", K.MeanAbsolutePercentageError, (a, b)), ("huber", K.Huber, (a, b)),
                                 ("cosine", K.CosineSimilarity, (a, b)), ("kld", K.KLDivergence, (pa, pb)),
                                 ("poisson", K.Poisson, (pa, pb)), ("hinge", K.Hinge, (a, b)),
                                 ("squared_hinge", K.SquaredHinge, (a, b)), ("categorical_hinge", K.CategoricalHinge, (pa, b))):
            out[f"{name} {dtype} none"] = _error(lambda loss=loss, args=args: _bits(loss(reduction=None, dtype=dtype)(*args)))
            out[f"{name} {dtype} mean"] = _error(lambda loss=loss, args=args: _bits(loss(dtype=dtype)(*args)))
        out[f"huber 0.3 {dtype}"] = _bits(K.Huber(delta=0.3, reduction=None, dtype=dtype)(a, b))
        labels = tf.constant((r.rand(6, 5) > 0.5).astype(dtype))
        probs = tf.constant(r.uniform(0.02, 0.98, (6, 5)).astype(dtype))
        for balance in (False, True):
            for gamma in (0.0, 2.0, 3.5):
                for smoothing in (0.0, 0.1):
                    f = K.BinaryFocalCrossentropy(apply_class_balancing=balance, alpha=0.3, gamma=gamma,
                                                  label_smoothing=smoothing, reduction=None, dtype=dtype)
                    out[f"focal {dtype} {balance} {gamma} {smoothing}"] = _bits(f(labels, probs))
    return out


_program("loss-values", _losses)


# -- 4. optimizers and schedules -----------------------------------------------------------------------------------
_OPTIMIZERS = (("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
               ("SGD", {"learning_rate": 0.05, "momentum": 0.5, "nesterov": True}),
               ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5}),
               ("RMSprop", {"learning_rate": 0.01, "momentum": 0.9, "centered": True}),
               ("Nadam", {"learning_rate": 0.01}),
               ("SGD", {"learning_rate": 0.1, "clipnorm": 0.0}),
               ("SGD", {"learning_rate": 0.1, "clipvalue": 0.0}),
               ("SGD", {"learning_rate": 0.1, "global_clipnorm": 0.0}),
               ("Adam", {"learning_rate": 0.01, "clipnorm": 0.5}),
               ("Adam", {"learning_rate": 0.01, "clipvalue": 0.2}),
               ("Adam", {"learning_rate": 0.01, "global_clipnorm": 0.7}))


def _optimizers(tf: Any, mk: Any) -> Any:
    """Each optimizer's updates of three variables of different sizes over four steps (their slots must stay per
    variable), and clipping options at 0 (off) and above."""
    out = {}
    for i, (name, opts) in enumerate(_OPTIMIZERS):
        r = np.random.RandomState(76)
        vs = [tf.Variable(r.randn(n).astype(np.float32)) for n in (5, 5, 9)]

        def run(name: str = name, opts: dict = opts, vs: list = vs, r: Any = r) -> Any:
            opt = getattr(tf.keras.optimizers, name)(**opts)
            for _ in range(4):
                opt.apply_gradients([(tf.constant((r.randn(*v.shape) * 0.7).astype(np.float32)), v) for v in vs])
            return [_bits(v) for v in vs]
        out[f"{i} {name} {sorted(opts.items())}"] = _error(run)
    return out


_program("opt-updates-and-clipping", _optimizers)


def _schedules(tf: Any, mk: Any) -> Any:
    """The learning-rate schedules over 30 steps, float32 and float64 initial rates, staircase, alpha and warmup."""
    S = tf.keras.optimizers.schedules
    out = {}
    for lr in (0.1, 0.0123):
        for kind in ("float32", "float64"):
            init = lr if kind == "float32" else tf.constant(lr, tf.float64)
            made = {"exp": S.ExponentialDecay(init, 7, 0.83), "exp-stair": S.ExponentialDecay(init, 7, 0.83, staircase=True),
                    "inv": S.InverseTimeDecay(init, 3, 0.7), "inv-stair": S.InverseTimeDecay(init, 3, 0.7, staircase=True),
                    "poly": S.PolynomialDecay(init, 17, 0.001, power=1.7),
                    "poly-cycle": S.PolynomialDecay(init, 9, 0.001, power=0.5, cycle=True),
                    "cos": S.CosineDecay(init, 17), "cos-alpha": S.CosineDecay(init, 23, alpha=0.13),
                    "cos-warm": S.CosineDecay(init, 13, alpha=0.05, warmup_target=lr * 3, warmup_steps=7),
                    "restarts": S.CosineDecayRestarts(init, 5, t_mul=1.5, m_mul=0.8, alpha=0.1)}
            for name, s in made.items():
                out[f"{lr} {kind} {name}"] = _error(lambda s=s: [_bits(s(step)) for step in range(30)])
    return out


_program("sched-values", _schedules)


# -- 5. pooling, recurrent layers backwards, embeddings -------------------------------------------------------------
def _dyadic_weights(layer: Any, r: Any) -> None:
    layer.set_weights([np.round(r.uniform(-1, 1, w.shape) * 8) / 8 for w in layer.get_weights()])


def _pool_rnn_embedding(tf: Any, mk: Any) -> Any:
    """GlobalAveragePooling1D/2D of the half types and with masks; recurrent layers running backwards (one unit,
    dyadic values: no matmul order shows); Embedding with negative indices."""
    r = np.random.RandomState(77)
    L = tf.keras.layers
    out = {}
    x = r.uniform(-1, 1, (3, 60, 5))
    for dtype in ("float16", "bfloat16", "float32"):
        xs = tf.cast(tf.constant(x.astype(np.float32)), dtype)
        out[f"gap1d {dtype}"] = _bits(tf.cast(L.GlobalAveragePooling1D(dtype=dtype)(xs), "float32"))
        out[f"gap1d keepdims {dtype}"] = _bits(tf.cast(L.GlobalAveragePooling1D(dtype=dtype, keepdims=True)(xs), "float32"))
        x2 = tf.cast(tf.constant(r.uniform(-1, 1, (2, 9, 7, 3)).astype(np.float32)), dtype)
        out[f"gap2d {dtype}"] = _bits(tf.cast(L.GlobalAveragePooling2D(dtype=dtype)(x2), "float32"))
    mask = tf.constant(r.rand(3, 60) > 0.3)
    out["gap1d masked"] = _bits(L.GlobalAveragePooling1D()(tf.constant(x.astype(np.float32)), mask=mask))
    seq = tf.constant((np.round(r.uniform(-1, 1, (2, 5, 1)) * 8) / 8).astype(np.float32))
    for cls in ("SimpleRNN", "GRU", "LSTM"):
        for backwards in (False, True):
            for ret in (False, True):
                tf.keras.utils.set_random_seed(70)
                layer = getattr(L, cls)(1, go_backwards=backwards, return_sequences=ret)
                layer(seq)
                _dyadic_weights(layer, np.random.RandomState(78))
                out[f"{cls} backwards={backwards} sequences={ret}"] = _bits(layer(seq))
    tf.keras.utils.set_random_seed(70)
    e = L.Embedding(10, 3)
    e.build((None,))
    e.set_weights([np.arange(30, dtype=np.float32).reshape(10, 3)])
    out["embedding"] = _error(lambda: _bits(e(tf.constant([[1, -1, -3, 9, -10]]))))
    return out


_program("layer-pool-rnn-embedding", _pool_rnn_embedding)


# -- the tests -------------------------------------------------------------------------------------------------------
@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("layer-"))
def test_blind70_layers_bit_for_bit(backend: Any, name: str) -> None:
    """Attention with masked keys under large scores, causal masks, concat scores and scales; MultiHeadAttention's
    fast and score paths with masks (exact sums: only the scale, softmax and masks show); GlobalAveragePooling of
    the half types and masked; recurrent layers backwards; Embedding with negative indices."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.auc")
@pytest.mark.parametrize("name", _ids("metric-"))
def test_blind70_metrics_bit_for_bit(backend: Any, name: str) -> None:
    """R2Score's aggregations; AUC's curves, methods and counts for soft labels and one-class batches; top-k with
    targets out of range; F-beta scores; IoU with absent classes."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.dtype")
@pytest.mark.parametrize("name", _ids("loss-"))
def test_blind70_losses_bit_for_bit(backend: Any, name: str) -> None:
    """The regression, probabilistic and hinge losses per sample and reduced in float32 and float64; binary focal
    crossentropy's options."""
    _check(backend, name)


@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("name", _ids("opt-") + _ids("sched-"))
def test_blind70_optimizers_and_schedules(backend: Any, name: str) -> None:
    """SGD/RMSprop momentum and Nadam over three variables (slots per variable), clipping options at 0 and above;
    every learning-rate schedule over 30 steps (float32 and float64 rates, staircase, alpha, warmup, restarts)."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

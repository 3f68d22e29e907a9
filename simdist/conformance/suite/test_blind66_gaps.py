"""The classes around the sixty-sixth blind batch's mutants (tests/mutants.py TRAINING_BATCH66), each checked as a
class: every optimizer of Python-float hyperparameters in float32 and float64 over three steps (momentum, Nesterov,
clipnorm, clipvalue and global_clipnorm that clips, AdamW's decay, ScheduleFreeAdamW), fourteen Keras losses over
batches of 1 to 7 rows in float32, float64 and float16 (mean, weighted, summed), the loss functions of integer
targets, a loss computed in each replica of a three-replica MirroredStrategy (scaled by 1/3), AUC of both curves
and three summation methods at 200 and 37 thresholds (its value and its thresholds), Precision/Recall with no
positives, F1Score and FBetaScore through their configs, a one-unit Dense layer's bias gradient over 1 to 64 rows,
Attention and MultiHeadAttention (output shapes, weight dtypes, the projections' dtype policies under
mixed_float16 and float64), Normalization.adapt in float64 and float32 and Discretization.adapt.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind66_gaps --record`, which rewrites blind66_reference.json.gz,
with three logical CPUs). Floats are compared by their bits (hex of the IEEE value): the batch's subtle mutants move
a value by an ulp (a quotient for a product by a reciprocal, a reversed sum, a float32 mean of float64 data), which
any tolerance would hide."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import RecordedPrograms, bits as _bits, error as _error, plain as _plain

PATH = os.path.join(os.path.dirname(__file__), "blind66_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): sums over rows (the losses' means,
#: the one-unit Dense bias gradient, AUC's Riemann sum, adapt's means), the optimizers' packets
HOST_DEPENDENT = ("opt-", "loss-", "replica-", "auc-", "dense-", "adapt-", "attention-")

#: three replicas: a loss's 1/2 scale is exact, 1/3 shows a quotient taken for a product by the reciprocal
REF = RecordedPrograms(PATH, HOST_DEPENDENT, replicas=3)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. optimizers: three steps of 64 values, float32 and float64 ---------------------------------------------------
_OPTS = (("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
         ("SGD", {"learning_rate": 0.1, "momentum": 0.7, "nesterov": True}),
         ("SGD", {"learning_rate": 0.3, "global_clipnorm": 1.3}),
         ("SGD", {"learning_rate": 0.3, "clipnorm": 0.7}),
         ("SGD", {"learning_rate": 0.3, "clipvalue": 0.3}),
         ("Adagrad", {"learning_rate": 0.03}),
         ("Adadelta", {"learning_rate": 0.5}),
         ("Adamax", {"learning_rate": 0.01}),
         ("Lion", {"learning_rate": 0.01}),
         ("Ftrl", {"learning_rate": 0.1}),
         ("AdamW", {"learning_rate": 0.01, "weight_decay": 0.03}),
         ("Adam", {"learning_rate": 0.01, "global_clipnorm": 2.5}),
         ("ScheduleFreeAdamW", {"learning_rate": 0.01}))
for _name, _opts in _OPTS:
    def _optimizer(tf: Any, mk: Any, name: str = _name, opts: dict = _opts) -> Any:
        out = {}
        for dtype in ("float32", "float64"):
            rng = np.random.RandomState(66)
            v = tf.Variable(rng.randn(64).astype(dtype))
            opt = getattr(tf.keras.optimizers, name)(**opts)
            for _ in range(3):
                opt.apply_gradients([(tf.constant((rng.randn(64) * 2).astype(dtype)), v)])
            out[dtype] = _bits(v)
        return out
    _program(f"opt-{_name}-{'-'.join(sorted(_opts))}", _optimizer)


# -- 2. losses: batches of 1 to 7 rows, three dtypes; loss functions of integer targets; per replica ----------------
_LOSSES = {"mean_squared_error": "MeanSquaredError", "mean_absolute_error": "MeanAbsoluteError",
           "mean_absolute_percentage_error": "MeanAbsolutePercentageError",
           "mean_squared_logarithmic_error": "MeanSquaredLogarithmicError", "huber": "Huber", "log_cosh": "LogCosh",
           "binary_crossentropy": "BinaryCrossentropy", "categorical_crossentropy": "CategoricalCrossentropy",
           "sparse_categorical_crossentropy": "SparseCategoricalCrossentropy", "kl_divergence": "KLDivergence",
           "poisson": "Poisson", "cosine_similarity": "CosineSimilarity", "hinge": "Hinge",
           "categorical_hinge": "CategoricalHinge"}
for _name in _LOSSES:
    def _loss(tf: Any, mk: Any, name: str = _name) -> Any:
        cls = getattr(tf.keras.losses, _LOSSES[name])
        out = {}
        for dtype in ("float32", "float64", "float16"):
            rng = np.random.RandomState(7)
            got = []
            for n in (1, 3, 5, 6, 7):
                if name == "sparse_categorical_crossentropy":
                    y, p = rng.randint(0, 4, (n,)), rng.dirichlet(np.ones(4), n).astype(dtype)
                elif name in ("categorical_crossentropy", "kl_divergence", "categorical_hinge"):
                    y, p = np.eye(4)[rng.randint(0, 4, n)].astype(dtype), rng.dirichlet(np.ones(4), n).astype(dtype)
                elif name in ("binary_crossentropy", "hinge"):
                    y, p = rng.randint(0, 2, (n, 3)).astype(dtype), rng.rand(n, 3).astype(dtype)
                else:
                    y, p = (rng.rand(n, 3) + 0.05).astype(dtype), rng.rand(n, 3).astype(dtype)
                w = rng.rand(n).astype(dtype)
                lo = cls(dtype=dtype)
                got.append({"mean": _bits(lo(y, p)), "weighted": _bits(lo(y, p, sample_weight=w)),
                            "sum": _bits(cls(dtype=dtype, reduction="sum")(y, p))})
            out[dtype] = got
        return out
    _program(f"loss-{_name}", _loss)


def _loss_functions(tf: Any, mk: Any) -> Any:
    out = {}
    for nm in ("MSE", "MAE", "MAPE", "MSLE"):
        fn = getattr(tf.keras.losses, nm)
        for yt in (np.array([[1, 2, 3]]), np.array([[1.0, 2.0, 3.0]], "float64")):
            try:
                r = fn(yt, np.array([[1.5, 2.25, 2.0]], "float32"))
                out[f"{nm}-{yt.dtype}"] = [r.dtype.name] + _bits(r)
            except Exception as e:  # noqa: BLE001 - the class is the observation
                out[f"{nm}-{yt.dtype}"] = f"raised {type(e).__name__}"
    return out


_program("loss-functions-of-integer-targets", _loss_functions)


def _replica_losses(tf: Any, mk: Any) -> Any:
    s = mk()
    rng = np.random.RandomState(8)
    out = {}
    for cls in ("MeanSquaredError", "MeanAbsoluteError", "Huber"):
        for dtype in ("float32", "float64"):
            y, p = tf.constant(rng.rand(5, 1).astype(dtype)), tf.constant(rng.rand(5, 1).astype(dtype))
            with s.scope():
                lf = getattr(tf.keras.losses, cls)(dtype=dtype)
            r = s.run(lambda: lf(y, p))
            out[f"{cls}-{dtype}"] = [_bits(t) for t in s.experimental_local_results(r)]
    return out


_program("replica-losses-scaled-by-a-third", _replica_losses)


# -- 3. metrics: AUC (value and thresholds), confusion ratios, F-scores through their configs ------------------------
for _curve in ("ROC", "PR"):
    for _summ in ("interpolation", "majoring", "minoring"):
        def _auc(tf: Any, mk: Any, curve: str = _curve, summ: str = _summ) -> Any:
            out = {}
            for nt in (200, 37, 3):
                rng = np.random.RandomState(4)
                m = tf.keras.metrics.AUC(num_thresholds=nt, curve=curve, summation_method=summ)
                for _ in range(2):
                    m.update_state(rng.randint(0, 2, 300).astype("float32"), rng.rand(300).astype("float32"))
                out[str(nt)] = {"auc": _bits(m.result()), "thresholds": _bits(np.asarray(m.thresholds))}
            return out
        _program(f"auc-{_curve}-{_summ}", _auc)


def _confusion_ratios(tf: Any, mk: Any) -> Any:
    M = tf.keras.metrics
    out = {}
    for nm, m in (("precision", M.Precision()), ("recall", M.Recall()), ("precision-t", M.Precision([0.3, 0.8])),
                  ("recall-t", M.Recall([0.3, 0.8]))):
        m.update_state([0.0, 0.0], [0.1, 0.2])
        out[nm] = _bits(m.result())
    for nm, m in (("f1", M.F1Score()), ("fbeta", M.FBetaScore(beta=2.0)), ("f1-t", M.F1Score(threshold=0.5)),
                  ("fbeta-micro", M.FBetaScore(average="micro", beta=0.5))):
        c = m.get_config()
        out[nm + "-config"] = _plain({k: v for k, v in c.items() if k != "dtype"})
        m2 = type(m).from_config(c)
        m2.update_state(np.array([[1.0, 0.0], [0.0, 1.0]], "float32"), np.array([[0.7, 0.1], [0.4, 0.6]], "float32"))
        out[nm] = _bits(m2.result())
    return out


_program("metric-confusion-ratios-and-fscores", _confusion_ratios)


# -- 4. layers: a one-unit Dense's bias gradient, attention's dtypes, adapt ----------------------------------------
def _dense_one_unit(tf: Any, mk: Any) -> Any:
    rng = np.random.RandomState(5)
    out = {}
    for units in (1, 2):
        for rows in (1, 7, 8, 37, 64):
            d = tf.keras.layers.Dense(units)
            x = tf.constant(rng.randn(rows, 3).astype("float32"))
            d.build((None, 3))
            d.set_weights([rng.randn(3, units).astype("float32"), rng.randn(units).astype("float32")])
            with tf.GradientTape() as t:
                y = d(x)
                loss = tf.reduce_sum(y * tf.constant(rng.randn(rows, units).astype("float32")))
            out[f"{units}x{rows}"] = {"bias": _bits(t.gradient(loss, d.bias))}
            if units == 1 or rows <= 32:   # (a float32 product of 33 rows or more, two columns: Eigen's GEMM, whose
                out[f"{units}x{rows}"]["y"] = _bits(y)   # order simdist does not model: ops.eigen-kernels' limits)
    return out


_program("dense-one-unit-bias-gradient", _dense_one_unit)


def _attention(tf: Any, mk: Any) -> Any:
    rng = np.random.RandomState(5)
    out = {}
    q, v = rng.randn(1, 2, 3).astype("float32"), rng.randn(1, 4, 3).astype("float32")
    for kw in ({"use_scale": True}, {"use_scale": True, "score_mode": "concat"}, {}):
        a = tf.keras.layers.Attention(**kw)
        out[str(sorted(kw.items()))] = {"out": _bits(a([q, v])), "weights": [_bits(w) for w in a.weights]}
    for kw in ({"num_heads": 2, "key_dim": 3, "value_dim": 5},
               {"num_heads": 2, "key_dim": 3, "value_dim": 5, "output_shape": (6,)},
               {"num_heads": 1, "key_dim": 2, "dtype": "mixed_float16"},
               {"num_heads": 2, "key_dim": 2, "dtype": "float64"},
               {"num_heads": 2, "key_dim": 2, "dtype": "mixed_bfloat16"}):
        m = tf.keras.layers.MultiHeadAttention(**kw)
        o = m(np.ones((1, 2, 4), "float32"), np.ones((1, 3, 4), "float32"))
        out[str(sorted(kw.items()))] = [
            list(o.shape), o.dtype.name if hasattr(o.dtype, "name") else str(o.dtype),
            [[list(w.shape), w.dtype if isinstance(w.dtype, str) else w.dtype.name] for w in m.weights],
            [[s.dtype_policy.name, s.compute_dtype, s.variable_dtype]
             for s in (m._query_dense, m._key_dense, m._value_dense, m._output_dense)]]
    return out


_program("attention-dtypes-and-policies", _attention)


def _adapt(tf: Any, mk: Any) -> Any:
    rng = np.random.RandomState(5)
    out = {}
    for dt in ("float64", "float32"):
        for data_dt in ("float64", "float32"):
            n = tf.keras.layers.Normalization(axis=-1, dtype=dt)
            n.adapt((rng.randn(100, 2) + 1.0 / 3).astype(data_dt))
            out[f"norm-{dt}-{data_dt}"] = {"mean": _bits(np.asarray(n.mean)), "variance": _bits(np.asarray(n.variance)),
                                           "out": _bits(n(np.array([[0.1, 0.7]], data_dt)))}
            data = (rng.randn(100, 2) * 3 + 1.0 / 3).astype(data_dt)   # a tensor, a Dataset, a list of batches
            for form, make in (("tensor", lambda: tf.constant(data)),
                               ("dataset", lambda: tf.data.Dataset.from_tensor_slices(data).batch(32)),
                               ("batches", lambda: [data[:40], data[40:]])):
                n = tf.keras.layers.Normalization(axis=-1, dtype=dt)
                out[f"norm-{dt}-{data_dt}-{form}"] = _error(lambda: (n.adapt(make()), {
                    "mean": _bits(np.asarray(n.mean)), "variance": _bits(np.asarray(n.variance))})[1])
    for nb, eps in ((5, 0.01), (4, 0.1), (7, 0.003)):
        d = tf.keras.layers.Discretization(num_bins=nb, epsilon=eps)
        d.adapt(rng.rand(2000).astype("float32") ** 2)
        out[f"disc-{nb}-{eps}"] = _bits(np.asarray(d.bin_boundaries))
    return out


_program("adapt-normalization-and-discretization", _adapt)


# -- the tests ------------------------------------------------------------------------------------------------------
@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("name", _ids("opt-"))
def test_blind66_optimizers_bit_for_bit(backend: Any, name: str) -> None:
    """Three steps of each optimizer on 64 float32 and float64 values: momentum, Nesterov, clipnorm, clipvalue,
    global_clipnorm that clips (SGD and Adam), Adagrad, Adadelta, Adamax, Lion, Ftrl, AdamW, ScheduleFreeAdamW."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.reductions")
@pytest.mark.parametrize("name", _ids("loss-"))
def test_blind66_losses_bit_for_bit(backend: Any, name: str) -> None:
    """Fourteen losses over batches of 1 to 7 rows in float32, float64 and float16 (mean, sample-weighted, summed),
    and the loss functions of integer targets."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.distribution-scaling")
@pytest.mark.parametrize("name", _ids("replica-"))
def test_blind66_losses_in_three_replicas(backend: Any, name: str) -> None:
    """MSE, MAE and Huber computed in each of three replicas (float32, float64): each scaled by 1/3, exactly."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.auc")
@pytest.mark.parametrize("name", _ids("auc-"))
def test_blind66_auc_value_and_thresholds(backend: Any, name: str) -> None:
    """AUC of both curves and three summation methods at 200, 37 and 3 thresholds: value and thresholds, exactly."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.f-score")
@pytest.mark.parametrize("name", _ids("metric-"))
def test_blind66_confusion_ratios_and_fscore_configs(backend: Any, name: str) -> None:
    """Precision/Recall without positives, F1Score/FBetaScore configs and the scores of metrics rebuilt from them."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("dense-") + _ids("attention-"))
def test_blind66_dense_bias_gradient_and_attention_dtypes(backend: Any, name: str) -> None:
    """A one- and two-unit Dense layer's output and bias gradient over 1 to 64 rows, Attention's outputs and weights,
    MultiHeadAttention's shapes, weight dtypes and its projections' dtype policies."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.normalization-adapt")
@pytest.mark.parametrize("name", _ids("adapt-"))
def test_blind66_adapt(backend: Any, name: str) -> None:
    """Normalization.adapt (float64 and float32 layers and data: mean, variance, output) and Discretization.adapt's
    boundaries."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

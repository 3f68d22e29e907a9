"""Gaps the thirty-third blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only, or never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15); and one rule
where simdist disagreed with TF (tf.data.experimental.choose_from_datasets' default).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


def _chosen(inputs: list[list[int]], choices: list[int], stop_on_empty: bool) -> list[int]:
    """DirectedInterleave's rule: each choice reads the next element of that input; an exhausted input ends the
    iteration (stop_on_empty_dataset) or is skipped."""
    its, out = [iter(x) for x in inputs], []
    for c in choices:
        try:
            out.append(next(its[c]))
        except StopIteration:
            if stop_on_empty:
                break
    return out


# -- choose_from_datasets: the experimental name skips exhausted inputs, the method stops ------------------------------
@clause("dataset.sample-choose", ref="tf221")
@pytest.mark.parametrize("choices", [[0, 0, 0, 1, 1], [1, 1, 1, 1, 0, 0], [0, 1, 0, 1, 0, 1, 1], [2, 0, 2, 2, 2, 1]])
def test_blind33_experimental_choose_from_datasets_skips_exhausted_inputs_by_default(tf, choices):
    """tf.data.experimental.choose_from_datasets(datasets, choices) defaults to stop_on_empty_dataset=False (TF 2.21's
    interleave_ops.choose_from_datasets_v2: a choice of an exhausted input is skipped), where
    Dataset.choose_from_datasets defaults to True (the iteration ends there); either takes the argument as given."""
    inputs = [[0, 1], [10, 11, 12], [20]]
    datasets = [tf.data.Dataset.from_tensor_slices(np.array(x, np.int64)) for x in inputs]

    def run(ds):
        return [int(_np(v)) for v in ds]
    ch = tf.data.Dataset.from_tensor_slices(np.array(choices, np.int64))
    cases = {
        "tf.data.experimental.choose_from_datasets(datasets, choices)":
            (tf.data.experimental.choose_from_datasets(datasets, ch), False),
        "tf.data.experimental.choose_from_datasets(..., stop_on_empty_dataset=True)":
            (tf.data.experimental.choose_from_datasets(datasets, ch, stop_on_empty_dataset=True), True),
        "tf.data.Dataset.choose_from_datasets(datasets, choices)": (tf.data.Dataset.choose_from_datasets(datasets, ch),
                                                                    True),
        "tf.data.Dataset.choose_from_datasets(..., stop_on_empty_dataset=False)":
            (tf.data.Dataset.choose_from_datasets(datasets, ch, stop_on_empty_dataset=False), False),
    }
    for call, (ds, stop) in cases.items():
        assert_equal(run(ds), _chosen(inputs, choices, stop), call=f"{call} with choices {choices}", what="elements")


# -- TextVectorization: each standardize mode does its own steps only -----------------------------------------------------
_PUNCT = set('!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\'')


def _standardized(text: str, mode) -> str:
    if mode in ("lower", "lower_and_strip_punctuation"):
        text = text.lower()
    if mode in ("strip_punctuation", "lower_and_strip_punctuation"):
        text = "".join(c for c in text if c not in _PUNCT)
    return text


@clause("keras.layer.text-vectorization", ref="tf221")
@pytest.mark.parametrize("standardize", [None, "lower", "strip_punctuation", "lower_and_strip_punctuation"])
def test_blind33_text_vectorization_standardize_modes_do_their_own_steps(keras, standardize):
    """keras.layers.TextVectorization(standardize=mode): "lower" lowercases, "strip_punctuation" removes
    string.punctuation (Keras's DEFAULT_STRIP_REGEX) and keeps the case, "lower_and_strip_punctuation" does both, None
    neither; the words are then split on whitespace and looked up (mask 0, OOV 1, the vocabulary from 2), padded to
    output_sequence_length. Expected ids computed here from a transcription of those steps."""
    vocab = ["hello", "Hello", "world", "World!", "world!", "it's", "its", "DON'T", "dont"]
    texts = ["Hello, World!", "hello world! It's", "DON'T stop", "its World! dont"]
    layer = keras.layers.TextVectorization(standardize=standardize, vocabulary=vocab, output_sequence_length=6)
    got = _np(layer(np.array(texts))).tolist()
    want = []
    for t in texts:
        ids = [vocab.index(w) + 2 if w in vocab else 1 for w in _standardized(t, standardize).split()]
        want.append((ids + [0] * 6)[:6])
    assert_equal(got, want, call=f"TextVectorization(standardize={standardize!r}, vocabulary={vocab}) on {texts}",
                 what="token ids")


# -- GroupQueryAttention / MultiHeadAttention: the query, value and key masks are and-ed --------------------------------
_MASKS = [("query",), ("value",), ("key",), ("value", "key"), ("query", "key"), ("query", "value", "key")]


def _attention_mask_case(which, query_keyword_counts=True):
    qm = np.array([[1, 1, 0], [1, 0, 1]], bool)
    vm = np.array([[1, 1, 1, 0, 1], [1, 1, 1, 1, 1]], bool)
    km = np.array([[1, 0, 1, 1, 1], [0, 1, 1, 0, 1]], bool)
    given = {k: m for k, m in (("query", qm), ("value", vm), ("key", km)) if k in which}
    full = np.ones((2, 3, 5), bool)
    if "query" in given and query_keyword_counts:
        full &= qm[:, :, None]
    if "value" in given:
        full &= vm[:, None, :]
    if "key" in given:
        full &= km[:, None, :]
    return {f"{k}_mask": m for k, m in given.items()}, full


@clause("keras.layer.group-query-attention", ref="tf221")
@pytest.mark.parametrize("which", _MASKS, ids=["+".join(w) for w in _MASKS])
def test_blind33_group_query_attention_ands_query_value_and_key_masks(keras, which):
    """GroupQueryAttention(q, v, query_mask=, value_mask=, key_mask=) attends where every given mask holds: its
    output equals the call with attention_mask = query_mask[:, :, None] & value_mask[:, None, :] & key_mask[:, None, :]
    (Keras 3.15's _compute_attention_mask), for each mask alone and together."""
    layer = keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=4, num_key_value_heads=2,
                                             kernel_initializer=keras.initializers.GlorotUniform(seed=1))
    q = np.linspace(-1, 1, 24).reshape(2, 3, 4).astype("float32")
    v = np.linspace(1, -2, 40).reshape(2, 5, 4).astype("float32")
    masks, full = _attention_mask_case(which)
    got = _np(layer(q, v, **masks))
    want = _np(layer(q, v, attention_mask=full))
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6), (
        f"GroupQueryAttention(2, 4, 2)(q, v, {', '.join(f'{k}=...' for k in masks)}): expected the output of "
        f"attention_mask = the and of the given masks; the largest difference is {np.max(np.abs(got - want)):.3g}")


@clause("keras.mha.masks", ref="tf221")
@pytest.mark.parametrize("which", _MASKS, ids=["+".join(w) for w in _MASKS])
def test_blind33_multi_head_attention_ands_query_value_and_key_masks(keras, which):
    """MultiHeadAttention(q, v, value_mask=, key_mask=) attends where both hold, as GroupQueryAttention; but its
    query_mask keyword is not read: Keras 3.15's call replaces it by the query tensor's own Keras mask
    (`query_mask = backend.get_keras_mask(query)`), so a query_mask given to a plain array changes nothing."""
    layer = keras.layers.MultiHeadAttention(num_heads=2, key_dim=2,
                                            kernel_initializer=keras.initializers.GlorotUniform(seed=1))
    q = np.linspace(-1, 1, 24).reshape(2, 3, 4).astype("float32")
    v = np.linspace(1, -2, 40).reshape(2, 5, 4).astype("float32")
    masks, full = _attention_mask_case(which, query_keyword_counts=False)
    got = _np(layer(q, v, **masks))
    want = _np(layer(q, v, attention_mask=full))
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6), (
        f"MultiHeadAttention(2, 2)(q, v, {', '.join(f'{k}=...' for k in masks)}): expected the output of "
        f"attention_mask = the and of the value and key masks given; the largest difference is {np.max(np.abs(got - want)):.3g}")


# -- AUC: given thresholds are sorted ------------------------------------------------------------------------------------
@clause("keras.metric.auc", ref="tf221")
@pytest.mark.parametrize("curve, summation", [("ROC", "interpolation"), ("PR", "interpolation"),
                                              ("ROC", "minoring"), ("PR", "majoring")])
@pytest.mark.parametrize("order", [(0.7, 0.3, 0.5), (0.9, 0.1), (0.2, 0.8, 0.4, 0.6)])
def test_blind33_auc_sorts_the_thresholds_it_is_given(keras, curve, summation, order):
    """keras.metrics.AUC(thresholds=t) sorts t (Keras 3.15: `thresholds = sorted(thresholds)`), adds -epsilon and
    1 + epsilon, and computes as with the sorted list: the thresholds property and the result equal those of AUC
    with sorted(t), for the ROC and PR curves and each summation method."""
    y_true = np.array([0, 0, 1, 1, 0, 1, 1, 0], "float32")
    y_pred = np.array([0.1, 0.45, 0.35, 0.8, 0.75, 0.2, 0.65, 0.55], "float32")
    given = keras.metrics.AUC(thresholds=list(order), curve=curve, summation_method=summation)
    ref = keras.metrics.AUC(thresholds=sorted(order), curve=curve, summation_method=summation)
    for m in (given, ref):
        m.update_state(y_true, y_pred)
    eps = 1e-7
    call = f"AUC(thresholds={list(order)}, curve={curve!r}, summation_method={summation!r})"
    assert np.allclose(np.asarray(given.thresholds, np.float64), [0.0 - eps] + sorted(order) + [1.0 + eps]), (
        f"{call}.thresholds: expected [-eps] + {sorted(order)} + [1 + eps], got {list(given.thresholds)}")
    assert_equal(float(_np(given.result())), float(_np(ref.result())), call=call,
                 what="result (as AUC of the sorted thresholds)")


# -- callbacks reused across fits start afresh ---------------------------------------------------------------------------
def _drive(keras, cb, runs):
    """The callback through `runs` (lists of epoch losses) as fit would call it; the learning rate and stop flag
    after each run."""
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    cb.set_model(model)
    out = []
    for losses in runs:
        model.stop_training = False
        cb.on_train_begin()
        for e, loss in enumerate(losses):
            cb.on_epoch_end(e, {"loss": loss})
            if model.stop_training:
                break
        cb.on_train_end()
        out.append((round(float(np.asarray(_np(model.optimizer.learning_rate))), 7), bool(model.stop_training), e))
    return out


_RUN_A = [1.0, 0.5, 0.2]
_RUNS_B = [[2.0, 1.9, 1.95, 1.8], [0.9, 0.95, 0.97, 0.99, 0.7], [3.0, 3.0, 2.99]]


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
@pytest.mark.parametrize("kwargs", [dict(patience=1), dict(patience=2, cooldown=1), dict(patience=1, min_delta=0.05)])
@pytest.mark.parametrize("run_b", range(len(_RUNS_B)))
def test_blind33_reduce_lr_on_plateau_reused_starts_afresh(keras, kwargs, run_b):
    """ReduceLROnPlateau.on_train_begin resets best, wait and the cooldown (Keras 3.15's _reset): one instance used for
    a second fit reduces the learning rate as a new instance would, whatever the first fit's best loss was."""
    make = lambda: keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, **kwargs)  # noqa: E731
    reused = _drive(keras, make(), [_RUN_A, _RUNS_B[run_b]])[1]
    fresh = _drive(keras, make(), [_RUNS_B[run_b]])[0]
    assert_equal(reused[0], fresh[0], call=f"ReduceLROnPlateau(monitor='loss', factor=0.5, {kwargs}) after a fit of "
                 f"losses {_RUN_A}, then a fit of losses {_RUNS_B[run_b]}", what="learning rate (as a new instance's)")


@clause("keras.callback.early-stopping", ref="tf221")
@pytest.mark.parametrize("kwargs", [dict(patience=1), dict(patience=2), dict(patience=1, min_delta=0.05)])
@pytest.mark.parametrize("run_b", range(len(_RUNS_B)))
def test_blind33_early_stopping_reused_starts_afresh(keras, kwargs, run_b):
    """EarlyStopping.on_train_begin resets wait, best and the stopped epoch ("Allow instances to be re-used across
    model.fit() calls"): a reused instance stops the second fit at the epoch a new instance would."""
    make = lambda: keras.callbacks.EarlyStopping(monitor="loss", **kwargs)  # noqa: E731
    reused = _drive(keras, make(), [_RUN_A, _RUNS_B[run_b]])[1]
    fresh = _drive(keras, make(), [_RUNS_B[run_b]])[0]
    assert_equal(list(reused[1:]), list(fresh[1:]), call=f"EarlyStopping(monitor='loss', {kwargs}) after a fit of "
                 f"losses {_RUN_A}, then a fit of losses {_RUNS_B[run_b]}", what="(stopped, last epoch)")


# -- LossScaleOptimizer: the outer scale only ------------------------------------------------------------------------------
@clause("keras.mixed-precision.loss-scale", ref="tf221")
@pytest.mark.parametrize("factor", [None, 4.0, 0.5])
def test_blind33_loss_scale_optimizer_clears_the_inner_loss_scale_factor(keras, factor):
    """LossScaleOptimizer(inner) sets inner.loss_scale_factor = None (Keras 3.15): the dynamic scale is the only
    one, so apply(grads) moves the variables by -lr * grads / initial_scale whatever factor the inner optimizer had."""
    inner = keras.optimizers.SGD(0.1, loss_scale_factor=factor)
    opt = keras.optimizers.LossScaleOptimizer(inner, initial_scale=8.0)
    call = f"LossScaleOptimizer(SGD(0.1, loss_scale_factor={factor}), initial_scale=8.0)"
    assert_equal(inner.loss_scale_factor, None, call=call, what="inner.loss_scale_factor")
    v = keras.Variable(np.array([1.0, -2.0, 0.5], "float32"))
    g = np.array([0.8, -1.6, 4.0], "float32")
    opt.apply([keras.ops.convert_to_tensor(g)], [v])
    want = np.array([1.0, -2.0, 0.5], "float32") - np.float32(0.1) * (g / np.float32(8.0))
    assert np.allclose(_np(v.value), want, rtol=1e-6, atol=1e-7), (
        f"{call}.apply(g) once: expected v - 0.1 * g / 8 = {want.tolist()}, got {_np(v.value).tolist()}")


# -- sample_from_datasets: inputs of weight 0 are dropped ---------------------------------------------------------------------
@clause("dataset.sample-choose", ref="tf221")
@pytest.mark.parametrize("weights", [[0.0, 0.0], [0.0, 2.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0], [0.25, 0.0, 0.0]])
def test_blind33_sample_from_datasets_drops_inputs_of_zero_weight(tf, weights):
    """tf.data.Dataset.sample_from_datasets(datasets, weights=a list) drops the inputs whose weight is <= 0 before it
    draws (TF 2.21's sample_from_datasets_op): with none left the result is empty, with one left it is that input as
    it is, otherwise the same sequence as the call without them (same seed)."""
    inputs = [list(range(100 * i, 100 * i + 4)) for i in range(len(weights))]
    ds = [tf.data.Dataset.from_tensor_slices(np.array(x, np.int64)) for x in inputs]
    got = [int(_np(v)) for v in tf.data.Dataset.sample_from_datasets(ds, weights=weights, seed=5)]
    kept = [i for i, w in enumerate(weights) if w > 0]
    call = f"Dataset.sample_from_datasets(4 elements each, weights={weights}, seed=5)"
    if not kept:
        assert_equal(got, [], call=call, what="elements")
    elif len(kept) == 1:
        assert_equal(got, inputs[kept[0]], call=call, what="elements")
    else:
        want = [int(_np(v)) for v in tf.data.Dataset.sample_from_datasets([ds[i] for i in kept],
                                                                           weights=[weights[i] for i in kept], seed=5)]
        assert_equal(got, want, call=call, what="elements (as without the zero-weight inputs)")


# -- latest_checkpoint: the recorded checkpoint only if its files are there -----------------------------------------------------
@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("removed", [(), (1,), (3,), (1, 2), (1, 2, 3)])
def test_blind33_latest_checkpoint_is_none_when_its_files_are_gone(tf, tmp_path, removed):
    """tf.train.latest_checkpoint(dir) names the checkpoint the state file records as the newest, if its files are
    there; when they were removed it is None (TF 2.21 logs "Couldn't match files"), whatever older ones remain."""
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    prefix = str(tmp_path / "ck")
    paths = [ckpt.save(prefix) for _ in range(3)]
    for n in removed:
        for f in tmp_path.iterdir():
            if f.name.startswith(f"ck-{n}."):
                f.unlink()
    got = tf.train.latest_checkpoint(str(tmp_path))
    want = None if 3 in removed else paths[-1]
    assert_equal(None if got is None else str(got), want,
                 call=f"3 saves, the files of saves {list(removed)} removed; tf.train.latest_checkpoint(dir)")


# -- batch_reduce_to of a MirroredVariable reduces its copies -----------------------------------------------------------------
@clause("reduce.same-object-leaves", ref="tf221")
@pytest.mark.parametrize("replicas", [2, 3])
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_blind33_mirrored_batch_reduce_to_reduces_a_mirrored_variable_s_copies(backend, tf, replicas, op):
    """MirroredStrategy.extended.batch_reduce_to(op, [(v, destination)]) of a MirroredVariable reduces its copies
    (TF 2.21: CrossDeviceOps.batch_reduce over the variable's per-replica values): SUM gives replicas * v, MEAN v,
    on every destination device; a per-replica value beside it is reduced as ever."""
    strategy = backend.make_strategy("mirrored", replicas)
    with strategy.scope():
        v = tf.Variable(np.array([3.0, -1.5], "float32"))
    per_replica = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([float(ctx.replica_id_in_sync_group + 1), 1.0]))
    reduce_op = getattr(tf.distribute.ReduceOp, op)
    out = strategy.extended.batch_reduce_to(reduce_op, [(v, v), (per_replica, v)])
    n = replicas
    want_v = np.array([3.0, -1.5]) * (n if op == "SUM" else 1)
    pr = np.array([[i + 1.0, 1.0] for i in range(n)])
    want_pr = pr.sum(0) if op == "SUM" else pr.mean(0)
    call = f"MirroredStrategy({n}).extended.batch_reduce_to({op}, [(mirrored v = [3, -1.5], v), (per-replica, v)])"
    for got, want, what in ((out[0], want_v, "the variable's reduction"), (out[1], want_pr, "the per-replica's")):
        local = [_np(x) for x in strategy.experimental_local_results(got)]
        assert_equal(len(local), n, call=call, what=f"copies of {what}")
        for x in local:
            assert np.allclose(x, want), f"{call}: {what}: expected {want.tolist()} on each device, got {x.tolist()}"

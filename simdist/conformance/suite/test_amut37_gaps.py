"""Gaps the fourteenth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 14, over the training-layer
files seeds 1-13 never sampled; thirty-seventh session), and those seed 13's open survivors showed: behaviours the
suite executed but no test looked at (docs/conformance.md, "Thirty-seventh session: automatic sweep, seed 14 (amut37)";
TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


# -- seed 13's open survivors ------------------------------------------------------------------------------------------
def _sequence_example(tf, ctx_ints: list[int], frames: list[list[float]]) -> bytes:
    ex = tf.train.SequenceExample()
    ex.context.feature["c"].int64_list.value.extend(ctx_ints)
    ex.context.feature["d"].float_list.value.extend([float(len(frames))])
    for fr in frames:
        ex.feature_lists.feature_list["f"].feature.add().float_list.value.extend(fr)
        ex.feature_lists.feature_list["s"].feature.add().int64_list.value.extend([int(v) for v in fr])
    return ex.SerializeToString()


@clause("io.parse-example", ref="tf221")
def test_amut37_raw_parse_sequence_example_v2_parses(tf):
    """tf.raw_ops.ParseSequenceExampleV2 of two SequenceExamples (a sparse and a dense context key, a sparse and a
    dense feature list, no ragged key): TF's fourteen output lists, in TF's order, with TF 2.21's values (observed).
    The suite only checked the raw op's refusals; a raw form that lost its binding went unseen."""
    s = [_sequence_example(tf, [1, 2], [[1.0, 2.0], [3.0, 4.0]]), _sequence_example(tf, [5], [[5.0, 6.0]])]
    out = tf.raw_ops.ParseSequenceExampleV2(
        serialized=s, debug_name=tf.constant([], tf.string), context_sparse_keys=["c"], context_dense_keys=["d"],
        context_ragged_keys=tf.constant([], tf.string), feature_list_sparse_keys=["s"], feature_list_dense_keys=["f"],
        feature_list_ragged_keys=tf.constant([], tf.string), feature_list_dense_missing_assumed_empty=[False],
        context_dense_defaults=[tf.constant([0.0])], Ncontext_sparse=1, context_sparse_types=[tf.int64],
        context_ragged_value_types=[], context_ragged_split_types=[], context_dense_shapes=[[1]],
        Nfeature_list_sparse=1, Nfeature_list_dense=1, feature_list_dense_types=[tf.float32],
        feature_list_sparse_types=[tf.int64], feature_list_ragged_value_types=[], feature_list_ragged_split_types=[],
        feature_list_dense_shapes=[[2]])
    got = [[(x.dtype.name, x.numpy().tolist()) for x in part] for part in out]
    want = [[("int64", [[0, 0], [0, 1], [1, 0]])], [("int64", [1, 2, 5])], [("int64", [2, 2])],
            [("float32", [[2.0], [1.0]])], [], [],
            [("int64", [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1]])],
            [("int64", [1, 2, 3, 4, 5, 6])], [("int64", [2, 2, 2])],
            [("float32", [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [0.0, 0.0]]])], [("int64", [2, 1])], [], [], []]
    assert_equal(got, want, call="tf.raw_ops.ParseSequenceExampleV2 of 2 SequenceExamples: the 14 lists "
                                 "(dtype, values)")


@clause("ops.linalg-eigh-tridiagonal", ref="tf221")
def test_amut37_eigh_tridiagonal_clusters_by_the_largest_eigenvalue_magnitude(tf):
    """eigh_tridiagonal's eigenvectors: eigenvalues closer than sqrt(eps) * max(|lambda_first|, |lambda_last|) form a
    cluster whose inverse-iteration vectors are re-orthogonalised by QR (tensorflow/python/ops/linalg/
    linalg_impl.py, _compute_eigenvectors). Here the first eigenvalue (-1000) is the largest in magnitude, so in
    float32 the pair near 0.46 and 0.50 is one cluster; TF 2.21's vectors (observed) follow."""
    alpha = np.array([-1000.0, 0.5, 0.5, 2.0], np.float32)
    beta = np.array([1.0, 5e-3, 0.25], np.float32)
    _, v = tf.linalg.eigh_tridiagonal(tf.constant(alpha), tf.constant(beta), eigvals_only=False)
    want = [[0.999999463558197, -0.00011622905731201172, -0.0009927147766575217, -5.191625973566261e-07],
            [-0.0009994987631216645, -0.11630721390247345, -0.9932126402854919, -0.0005202220054343343],
            [4.994991531503956e-09, 0.9803978204727173, -0.11472266912460327, -0.1601838320493698],
            [-1.2462541849195263e-12, -0.1590370088815689, 0.019140571355819702, -0.987087070941925]]
    assert_close(v, want, tolerance=Tolerance(rtol=0.0, atol=1e-6),
                 call="eigh_tridiagonal([-1000, .5, .5, 2], [1, 5e-3, .25]) float32 eigenvectors")


# -- Keras callbacks ---------------------------------------------------------------------------------------------------
@clause("keras.backup-and-restore.resume", ref="tf221")
def test_amut37_backup_and_restore_resumes_from_the_previous_backup_s_epoch(keras, tmp_path):
    """BackupAndRestore(double_checkpoint=True): when the latest weights file cannot be read, on_train_begin copies
    the ".bkp" weights AND the ".bkp" training metadata over the latest ones (keras/src/callbacks/
    backup_and_restore.py), so fit resumes at the previous backup's epoch with its weights: after two epochs (backups
    of epochs 1 and 2) and a damaged latest file, fit(epochs=4) runs epochs 1, 2 and 3."""
    x = np.arange(8, dtype=np.float32).reshape(4, 2) / 8.0
    y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    d = str(tmp_path / "backup")
    cb = keras.callbacks.BackupAndRestore(d, double_checkpoint=True, delete_checkpoint=False)
    model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False, callbacks=[cb])
    with open(f"{d}/latest.weights.h5", "wb") as f:
        f.write(b"not a weights file")
    again = keras.callbacks.BackupAndRestore(d, double_checkpoint=True, delete_checkpoint=False)
    hist = model.fit(x, y, epochs=4, batch_size=4, verbose=0, shuffle=False, callbacks=[again])
    assert_equal(list(hist.epoch), [1, 2, 3], call="fit(epochs=4) resumed from a damaged latest backup: history.epoch "
                                                   "(the .bkp metadata's epoch 1 onwards)")
    with open(f"{d}/training_metadata.json", encoding="utf-8") as f:
        meta = f.read()
    assert_equal(meta, '{"epoch": 4, "batch": 0}', call="training_metadata.json after the resumed fit")


# -- Keras losses ------------------------------------------------------------------------------------------------------
_REGRESSION_FNS = ["mse", "mae", "mape", "msle", "cosine_similarity", "huber", "logcosh", "poisson", "kld", "hinge",
                   "squared_hinge", "categorical_hinge"]


@clause("keras.loss.functions", ref="tf221")
@pytest.mark.parametrize("true_dtype", ["int32", "float64"])
@pytest.mark.parametrize("fn", _REGRESSION_FNS)
def test_amut37_regression_loss_functions_cast_y_true_to_y_pred_s_dtype(keras, fn, true_dtype):
    """The regression, probabilistic and hinge loss functions convert y_pred first and y_true to y_pred's dtype
    (keras/src/losses/losses.py): integer or float64 targets with float32 predictions give float32 losses equal to
    those of the targets cast to float32 (never predictions truncated to integers or widened to float64)."""
    y_true = np.array([[1, 2, 3], [0, 4, 1]]).astype(true_dtype)
    y_pred = np.array([[0.5, 2.5, 2.0], [0.25, 3.5, 1.75]], np.float32)
    f = getattr(keras.losses, fn)
    got = f(y_true, y_pred)
    want = f(y_true.astype(np.float32), y_pred)
    assert_equal(np.asarray(got).dtype.name, "float32",
                 call=f"keras.losses.{fn}({true_dtype} y_true, float32 y_pred).dtype")
    assert_equal(np.asarray(got), np.asarray(want),
                 call=f"keras.losses.{fn}({true_dtype} y_true, float32 y_pred) vs with y_true cast to float32")


# -- audio features ----------------------------------------------------------------------------------------------------
@clause("ops.audio-features", ref="tf221")
def test_amut37_mfcc_of_a_silent_frame(tf):
    """Mfcc of a spectrogram frame of zeros (silence): each filterbank band takes sqrt(0) = 0 and is floored at
    1e-12 before the log (tensorflow/core/kernels/mfcc_mel_filterbank.cc, mfcc.cc), so the frame's coefficients are
    finite: the first sqrt(2/40) * 40 * ln(1e-12), the rest about 0; a ramp frame beside it as TF 2.21 gives it
    (observed, bit for bit)."""
    spec = np.zeros((1, 2, 257), np.float32)
    spec[0, 1] = np.linspace(0.0, 3.0, 257, dtype=np.float32)
    out = tf.raw_ops.Mfcc(spectrogram=spec, sample_rate=16000).numpy()
    silent = [-247.1393585205078, 8.881784197001252e-16, 2.220446049250313e-14, -1.0658141036401503e-14,
              8.881784197001252e-16, -1.5987211554602254e-14, 1.1546319456101628e-14, -4.440892098500626e-15,
              1.0658141036401503e-14, -4.796163466380676e-14, 1.5987211554602254e-14, -2.842170943040401e-14, 0.0]
    ramp = [4.006036758422852, -6.6029791831970215, -0.7606249451637268, -1.0866918563842773, -0.3733772337436676,
            -0.5040392875671387, -0.2449154406785965, -0.31295689940452576, -0.18052519857883453, -0.221896693110466,
            -0.14737047255039215, -0.1832854002714157, -0.13117240369319916]
    assert_equal(out, np.array([[silent, ramp]], np.float32),
                 call="Mfcc(spectrogram=[silence, a ramp 0..3 over 257 bins], sample_rate=16000)")


# -- Keras optimizers --------------------------------------------------------------------------------------------------
@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("how", ["build", "apply_gradients"])
def test_amut37_optimizer_own_variables_take_the_current_name_scope(keras, how):
    """Adafactor's placeholders for a variable of rank < 2 and Nadam's u_product are plain backend.Variables the
    optimizer makes in build(), not add_variable's "<optimizer>/<name>": built directly they have no scope ("bias",
    "variable"); built by apply_gradients they are in the optimizer's scope. Paths as TF 2.21 gives them (observed)."""
    b = keras.Variable(np.ones(3, np.float32), name="bias")
    k = keras.Variable(np.ones((2, 3), np.float32), name="kernel")
    ada, nadam = keras.optimizers.Adafactor(), keras.optimizers.Nadam()
    nb = keras.Variable(np.ones(3, np.float32), name="bias")
    if how == "build":
        ada.build([b, k])
        nadam.build([nb])
    else:
        ada.apply_gradients([(np.ones(3, np.float32), b), (np.ones((2, 3), np.float32), k)])
        nadam.apply_gradients([(np.ones(3, np.float32), nb)])
    a, n = ada.name, nadam.name
    p = "" if how == "build" else f"{a}/"
    assert_equal([v.path for v in ada.variables],
                 [f"{a}/iteration", f"{a}/learning_rate", f"{p}bias", f"{p}bias", f"{a}/bias_velocity", f"{a}/kernel",
                  f"{a}/kernel", f"{a}/kernel_velocity"], call=f"Adafactor {how}: optimizer.variables' paths")
    own = [v.path for v in nadam.variables][-1]
    assert_equal(own.rsplit("_", 1)[0] if own[-1].isdigit() else own,
                 "variable" if how == "build" else f"{n}/variable",
                 call=f"Nadam {how}: u_product's path (auto-named 'variable', uniquified)")


# -- Keras callbacks' state --------------------------------------------------------------------------------------------
@clause("keras.callback.option-coverage", ref="tf221")
def test_amut37_reduce_lr_on_plateau_starts_out_of_cooldown(keras):
    """ReduceLROnPlateau's counters start at zero (keras/src/callbacks/reduce_lr_on_plateau.py __init__), before any
    on_train_begin: cooldown_counter 0, wait 0, so a callback driven by hand is not in cooldown at first; and
    on_train_begin (_reset) sets them to zero again and forgets best."""
    cb = keras.callbacks.ReduceLROnPlateau(cooldown=2)
    assert_equal([cb.cooldown_counter, cb.wait, bool(cb.in_cooldown())], [0, 0, False],
                 call="ReduceLROnPlateau(cooldown=2): [cooldown_counter, wait, in_cooldown()] as constructed")
    cb.cooldown_counter, cb.wait = 5, 3
    cb.on_train_begin()
    assert_equal([cb.cooldown_counter, cb.wait, cb.best, bool(cb.in_cooldown())], [0, 0, None, False],
                 call="ReduceLROnPlateau: [cooldown_counter, wait, best, in_cooldown()] after on_train_begin resets")


_HOOKS = ["on_batch_begin", "on_batch_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
          "on_train_batch_end", "on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin",
          "on_predict_batch_end", "on_train_begin", "on_train_end", "on_test_begin", "on_test_end", "on_predict_begin",
          "on_predict_end"]


@clause("keras.callback.option-coverage", ref="tf221")
def test_amut37_callback_list_forwards_logs_to_every_hook(keras):
    """CallbackList passes each hook's logs on to every callback (keras/src/callbacks/callback_list.py, after
    pythonify_logs): a callback driven through the list sees the same logs dict values for each of the 16 hooks
    (batch and epoch hooks with their index)."""
    seen = []

    class Recorder(keras.callbacks.Callback):
        pass

    def record(name):
        def hook(*args, **kwargs):
            logs = kwargs.get("logs", args[-1] if args and isinstance(args[-1], (dict, type(None))) else None)
            seen.append((name, None if logs is None else {k: float(v) for k, v in logs.items()}))
        return hook
    rec = Recorder()
    for h in _HOOKS:
        setattr(rec, h, record(h))
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    cl = keras.callbacks.CallbackList([rec], model=model)
    for i, h in enumerate(_HOOKS):
        logs = {"loss": np.float32(0.25 * (i + 1))}
        if h.endswith(("_begin", "_end")) and ("batch" in h or "epoch" in h):
            getattr(cl, h)(i, logs=logs)
        else:
            getattr(cl, h)(logs=logs)
    assert_equal(seen, [(h, {"loss": 0.25 * (i + 1)}) for i, h in enumerate(_HOOKS)],
                 call="CallbackList([recorder]).<hook>(..., logs={'loss': ...}) for each hook: what the recorder saw")


# -- Keras metrics -----------------------------------------------------------------------------------------------------
@clause("keras.metric.accuracy", ref="tf221")
def test_amut37_sparse_categorical_accuracy_compares_in_y_pred_s_dtype(keras):
    """sparse_categorical_accuracy converts the labels to y_pred's dtype and casts argmax(y_pred) to it before
    comparing (keras/src/metrics/accuracy_metrics.py): with float16 predictions over 4100 classes, label 2049 and
    argmax 2048 are both 2048 in float16 and count as a hit, label 4001 and argmax 4000 likewise; 10 vs 11 is a
    miss (TF 2.21: [1, 1, 0]); the metric class averages the same."""
    y_pred = np.zeros((3, 4100), np.float16)
    y_pred[0, 2048] = y_pred[1, 4000] = y_pred[2, 11] = 1.0
    y_true = np.array([2049, 4001, 10], np.int32)
    got = keras.metrics.sparse_categorical_accuracy(y_true, y_pred)
    assert_equal(np.asarray(got), np.array([1.0, 1.0, 0.0], np.float32),
                 call="sparse_categorical_accuracy(int labels [2049, 4001, 10], float16 y_pred peaking at 2048, "
                      "4000, 11)")
    m = keras.metrics.SparseCategoricalAccuracy()
    m.update_state(y_true, y_pred)
    assert_close(m.result(), 2.0 / 3.0, tolerance=Tolerance(rtol=1e-7, atol=0.0),
                 call="SparseCategoricalAccuracy of the same batch")


# -- trace-time shape functions ----------------------------------------------------------------------------------------
@clause("function.trace-time-errors", ref="tf221")
@pytest.mark.parametrize("sigs,text", [
    ([[3, None], [3, 2], [2, None]],
     "Dimension 0 in both shapes must be equal, but are 3 and 2. Shapes are [3,2] and [2,?]."),
    ([[3, None], [2, 2, 1], [3, None]], "Shapes must be equal rank, but are 3 and 2"),
    ([[4], [None, 3], [5]], "Shapes must be equal rank, but are 2 and 1"),
])
def test_amut37_add_n_merges_each_input_with_the_shapes_after_it(tf, sigs, text):
    """AddN's shape function merges input i with the merge of the inputs after it, Merge(input(i), cur)
    (tensorflow/core/ops/math_ops.cc): a traced AddN's ValueError names input i's shape first, then the merged
    rest's, then "From merging shape i with other shapes." (TF 2.21's texts, observed)."""
    specs = [tf.TensorSpec(s, tf.float32) for s in sigs]
    f = tf.function(lambda a, b, c: tf.raw_ops.AddN(inputs=[a, b, c]), input_signature=specs)
    with pytest.raises(ValueError) as info:
        f.get_concrete_function()
    msg = str(info.value)
    want = text + "\n\tFrom merging shape 1 with other shapes."
    assert re.search(re.escape(text) + r"\s*\n\s*\tFrom merging shape 1 with other shapes\.", msg), \
        f"AddN of {sigs} traced: expected the message to contain {want!r}, got {msg[-400:]!r}"


# -- Keras fit's inputs ------------------------------------------------------------------------------------------------
class _ArrayLike:
    """An array-like that is no NumPy array or tensor: __array__, shape and dtype (as pandas or xarray objects)."""

    def __init__(self, a: np.ndarray) -> None:
        self._a = a
        self.shape = a.shape
        self.dtype = a.dtype

    def __array__(self, dtype=None, copy=None):
        return self._a if dtype is None else self._a.astype(dtype)

    def __len__(self) -> int:
        return len(self._a)


@clause("keras.fit.data", ref="tf221")
def test_amut37_fit_takes_array_likes_as_arrays(keras):
    """Model.fit and evaluate take any object with __array__ where an array goes (keras/src/trainers/data_adapters/
    array_slicing.py can_slice_array): an array-like x (and y) trains and evaluates exactly as the NumPy arrays."""
    x = np.arange(12, dtype=np.float32).reshape(6, 2) / 12.0
    y = np.array([[1.0], [0.0], [1.0], [0.0], [1.0], [0.0]], np.float32)

    def run(xx, yy):
        keras.utils.set_random_seed(3)
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        hist = model.fit(xx, yy, epochs=2, batch_size=3, shuffle=False, verbose=0)
        return hist.history["loss"], model.evaluate(xx, yy, verbose=0), model.get_weights()[0]
    want = run(x, y)
    got = run(_ArrayLike(x), _ArrayLike(y))
    assert_equal(got[0], want[0], call="fit(array-like x, y): history['loss'] vs NumPy arrays")
    assert_equal(got[1], want[1], call="evaluate(array-like x, y) vs NumPy arrays")
    assert_equal(got[2], want[2], call="the kernel after fit on array-likes vs NumPy arrays")


# -- Keras preprocessing layers' shapes --------------------------------------------------------------------------------
@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("mode,want,symbolic", [
    ("multi_hot", [(5,), (4, 5), (2, 3, 5), (2, 3, 5)], (None, 3, 5)),
    ("count", [(5,), (4, 5), (2, 3, 5), (2, 3, 5)], (None, 3, 5)),
    ("one_hot", [(4, 5), (4, 3, 5), (2, 3, 4, 5), (2, 3, 5)], (None, 3, 4, 5)),
])
def test_amut37_category_encoding_output_shapes(keras, mode, want, symbolic):
    """CategoryEncoding(num_tokens=5)'s compute_output_shape (keras/src/layers/preprocessing/category_encoding.py):
    multi_hot and count replace the last axis by num_tokens (a rank-1 input is one sample), one_hot appends it unless
    the last axis is 1; of inputs (4,), (4, 3), (2, 3, 4), (2, 3, 1), and of a symbolic keras.Input((3, 4)) (TF 2.21,
    observed)."""
    layer = keras.layers.CategoryEncoding(num_tokens=5, output_mode=mode)
    got = [tuple(layer.compute_output_shape(s)) for s in [(4,), (4, 3), (2, 3, 4), (2, 3, 1)]]
    assert_equal(str(got), str(want), call=f"CategoryEncoding(5, {mode!r}).compute_output_shape of (4,), (4, 3), "
                                           f"(2, 3, 4), (2, 3, 1)")
    assert_equal(str(tuple(layer(keras.Input((3, 4))).shape)), str(symbolic),
                 call=f"CategoryEncoding(5, {mode!r}) of keras.Input((3, 4)): the symbolic output's shape")


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("kw,want", [({}, "[UNK]\nb\na\nc"),
                                     ({"mask_token": "", "num_oov_indices": 2}, "\n[UNK]\n[UNK]\nb\na\nc")])
def test_amut37_string_lookup_saves_its_special_tokens_as_assets(keras, tmp_path, kw, want):
    """An adapted StringLookup saved in a .keras file writes its vocabulary asset (assets/.../vocabulary.txt) with
    the special tokens, mask first, then the OOV tokens, then the adapted terms by frequency (keras/src/layers/
    preprocessing/index_lookup.py save_assets: get_vocabulary(include_special_tokens=True); TF 2.21, observed)."""
    import zipfile
    layer = keras.layers.StringLookup(**kw)
    layer.adapt(np.array(["b", "a", "b", "c", "b", "a"]))
    model = keras.Sequential([keras.Input((1,), dtype="string"), layer])
    path = str(tmp_path / "m.keras")
    model.save(path)
    with zipfile.ZipFile(path) as z:
        got = [z.read(n).decode() for n in z.namelist() if n.endswith("vocabulary.txt")]
    assert_equal(got, [want], call=f"StringLookup({kw}) adapted on b, a, b, c, b, a and saved: the vocabulary asset")


@clause("keras.utils.data-tools", ref="tf221")
@pytest.mark.parametrize("kw", [{"left_size": 4}, {"right_size": 4}, {"left_size": 0}, {"right_size": 0.0},
                                {"left_size": 1.0}, {"right_size": 1.0}])
def test_amut37_split_dataset_refuses_a_side_of_the_whole_size(keras, tf, kw):
    """keras.utils.split_dataset: an int size must lie strictly between 0 and the dataset's size, a float strictly
    between 0 and 1 (keras/src/utils/dataset_utils.py): a side of all 4 elements (4 or 1.0), or of none (0 or 0.0),
    is ValueError; a side of 3 splits 1 and 3."""
    ds = tf.data.Dataset.range(4)
    side = next(iter(kw))
    with pytest.raises(ValueError, match=f"`{side}` should be either a positive integer"):
        keras.utils.split_dataset(ds, **kw)
    left, right = keras.utils.split_dataset(ds, **{side: 3})
    got = [int(left.cardinality()), int(right.cardinality())]
    assert_equal(got, [3, 1] if side == "left_size" else [1, 3], call=f"split_dataset(range(4), {side}=3) sizes")


@clause("keras.layer.groupnorm", ref="tf221")
def test_amut37_group_normalization_reads_gamma_and_beta_in_float32_under_mixed_precision(keras):
    """GroupNormalization's gamma and beta are added with autocast=False and the layer computes in float32 however
    its inputs come (keras/src/layers/normalization/group_normalization.py): under mixed_float16, with gamma 1.1 and
    beta 0.3 (not float16 values) and float16-exact inputs, the output is the float32 layer's output rounded once to
    float16."""
    x = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 8.0 - 1.0).astype(np.float16).astype(np.float32)
    outs = {}
    for policy in ("float32", "mixed_float16"):
        layer = keras.layers.GroupNormalization(groups=2, dtype=policy)
        layer.build((2, 3, 4))
        layer.set_weights([np.full(4, 1.1, np.float32), np.full(4, 0.3, np.float32)])
        outs[policy] = np.asarray(layer(x))
    assert_equal(str(outs["mixed_float16"].dtype), "float16",
                 call="GroupNormalization(dtype='mixed_float16') output dtype")
    assert_equal(outs["mixed_float16"], outs["float32"].astype(np.float16),
                 call="GroupNormalization(groups=2) under mixed_float16 vs the float32 layer's output in float16")


# -- tf.data ---------------------------------------------------------------------------------------------------------
@clause("dataset.sparse-elements", ref="tf221")
@pytest.mark.parametrize("beside", [False, True])
def test_amut37_from_tensor_slices_refuses_a_rank_one_sparse_tensor(tf, beside):
    """Dataset.from_tensor_slices of a rank-1 SparseTensor (alone, or beside a dense tensor) is SerializeManySparse's
    InvalidArgumentError "Rank of input SparseTensor should be > 1, but saw rank: 1" (TF 2.21, observed; simdist
    sliced it into scalar SparseTensors): a sparse element of rank 0 cannot be made by slicing; a rank-2 one slices."""
    st = tf.sparse.SparseTensor(indices=[[0], [2]], values=[5, 7], dense_shape=[3])
    arg = (tf.constant([1, 2, 3]), st) if beside else st
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Rank of input SparseTensor should be > 1, but saw rank: 1"):
        tf.data.Dataset.from_tensor_slices(arg)
    st2 = tf.sparse.SparseTensor(indices=[[0, 1], [2, 0]], values=[5, 7], dense_shape=[3, 2])
    got = [tf.sparse.to_dense(s).numpy().tolist() for s in tf.data.Dataset.from_tensor_slices(st2)]
    assert_equal(got, [[0, 5], [0, 0], [7, 0]], call="from_tensor_slices of a [3, 2] SparseTensor: its rows, dense")

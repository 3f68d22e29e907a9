"""Gaps the third mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 3, twenty-sixth
session, over the core of training: op gradients and the tape, tf.nn, Keras layers, the strategies):
behaviours the suite executed but no test looked at (docs/conformance.md, "Twenty-sixth session:
automatic sweep, seed 3"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant.
Expected values are NumPy transcriptions of TF 2.21's / Keras 3.15's rules computed here, or
relations between two spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises, to_numpy

clause = pytest.mark.clause


# -- Keras layers: which layers pass a Masking mask on ------------------------------------------------------------
#: (name, constructor, passes the mask on): Keras 3.15 sets `supports_masking = True` in these layers'
#: constructors (activations, dropout and noise layers, Dense, the normalizations but RMSNormalization,
#: Rescaling, Identity, ActivityRegularization); EinsumDense, Permute and RMSNormalization do not (Keras
#: warns that the mask is destroyed).
_MASK_LAYERS = [
    ("ThresholdedReLU", lambda k: k.layers.ThresholdedReLU(0.5), True),
    ("ReLU", lambda k: k.layers.ReLU(), True),
    ("LeakyReLU", lambda k: k.layers.LeakyReLU(), True),
    ("ELU", lambda k: k.layers.ELU(), True),
    ("PReLU", lambda k: k.layers.PReLU(), True),
    ("Activation", lambda k: k.layers.Activation("tanh"), True),
    ("Dropout", lambda k: k.layers.Dropout(0.5), True),
    ("SpatialDropout1D", lambda k: k.layers.SpatialDropout1D(0.2), True),
    ("GaussianNoise", lambda k: k.layers.GaussianNoise(0.1), True),
    ("GaussianDropout", lambda k: k.layers.GaussianDropout(0.1), True),
    ("AlphaDropout", lambda k: k.layers.AlphaDropout(0.1), True),
    ("Dense", lambda k: k.layers.Dense(3), True),
    ("LayerNormalization", lambda k: k.layers.LayerNormalization(), True),
    ("BatchNormalization", lambda k: k.layers.BatchNormalization(), True),
    ("GroupNormalization", lambda k: k.layers.GroupNormalization(2), True),
    ("UnitNormalization", lambda k: k.layers.UnitNormalization(), True),
    ("Rescaling", lambda k: k.layers.Rescaling(2.0), True),
    ("ActivityRegularization", lambda k: k.layers.ActivityRegularization(), True),
    ("Identity", lambda k: k.layers.Identity(), True),
    ("RMSNormalization", lambda k: k.layers.RMSNormalization(), False),
    ("EinsumDense", lambda k: k.layers.EinsumDense("abc,cd->abd", (None, 4)), False),
    ("Permute", lambda k: k.layers.Permute((1, 2)), False),
]


@clause("keras.layer.call", ref="tf221")
def test_amut26_layers_that_support_masking_pass_the_mask_on(keras):
    """Masking(0.0) marks the time steps whose features are not all 0; a layer with
    `supports_masking` passes that mask on to its output unchanged (Keras's default compute_mask),
    one without drops it (output mask None). Checked for each layer: the attribute and the mask."""
    x = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, -1.0]], [[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]]], np.float32)
    want = np.any(x != 0.0, axis=-1)
    for name, make, passes in _MASK_LAYERS:
        layer = make(keras)
        call = f"{name}()(Masking(0.0)(x)), x of shape {x.shape}"
        assert_equal(bool(layer.supports_masking), passes, call=call, what="layer.supports_masking")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = layer(keras.layers.Masking(0.0)(x))
        mask = getattr(out, "_keras_mask", None)
        if passes:
            assert_equal(None if mask is None else to_numpy(mask).tolist(), want.tolist(), call=call,
                         what="output._keras_mask (the input's mask passed on)")
        else:
            assert_equal(mask, None, call=call, what="output._keras_mask (a layer without masking drops it)")


# -- tf.sparse.add: the threshold's dropped sums and SparseAddGrad's merge walk ------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_amut26_sparse_add_gradient_skips_the_dropped_sums_wherever_they_fall(backend, tf):
    """sparse.add(a, b, threshold) drops the sums of indices both operands hold whose magnitude is
    below the threshold (an index only one operand holds is kept whatever its value: the SparseAdd
    kernel thresholds only the sums it forms, observed on TF 2.21); the gradient of a's and b's
    values (SparseAddGrad) is the upstream value of the output entry at the same index, 0 for the
    dropped ones. Layouts where dropped sums fall first, in the middle and
    last, and where a has indices after a dropped one, so the walk over the sum must skip each."""
    rng = np.random.default_rng(26)
    cells = [(r, c) for r in range(3) for c in range(3)]
    layouts = []
    # fixed: sums of a and b that cancel at (0, 1) and (1, 0), each followed by more of a's entries
    layouts.append(([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 2]], [0.5, 0.3, -0.7, 0.2, 0.9, -0.4],
                    [[0, 1], [1, 0], [2, 0]], [-0.25, -0.15, 0.6]))
    layouts.append(([[0, 1], [1, 0], [1, 2], [2, 1]], [0.1, -0.6, 0.8, 0.3],
                    [[0, 1], [1, 1], [1, 2]], [0.05, 0.4, -0.79]))
    for _ in range(6):
        ka = sorted(rng.choice(len(cells), size=5, replace=False).tolist())
        kb = sorted(rng.choice(len(cells), size=4, replace=False).tolist())
        layouts.append(([list(cells[i]) for i in ka], np.round(rng.uniform(-1.0, 1.0, 5), 2),
                        [list(cells[i]) for i in kb], np.round(rng.uniform(-1.0, 1.0, 4), 2)))
    for case, (ai, av, bi, bv) in enumerate(layouts):
        av, bv = np.asarray(av, np.float64), np.asarray(bv, np.float64)
        sums: dict = {}
        for idx, v in list(zip(map(tuple, ai), av)) + list(zip(map(tuple, bi), bv)):
            sums[idx] = sums.get(idx, 0.0) + v
        both = set(map(tuple, ai)) & set(map(tuple, bi))
        thresh = float(np.round(np.median([abs(sums[k]) for k in sorted(both)] or [0.5]), 3)) + 1e-3
        want_kept = sorted(k for k, v in sums.items() if k not in both or abs(v) >= thresh)
        ta, tb = tf.constant(av), tf.constant(bv)
        with tf.GradientTape() as tape:
            tape.watch([ta, tb])
            out = tf.sparse.add(tf.sparse.SparseTensor(ai, ta, [3, 3]), tf.sparse.SparseTensor(bi, tb, [3, 3]),
                                threshold=thresh)
            kept = to_numpy(out.indices).tolist()
            R = np.round(np.linspace(-1.0, 1.5, max(len(kept), 1)), 2)[:len(kept)]
            total = tf.reduce_sum(tf.constant(R) * out.values)
        ga, gb = tape.gradient(total, [ta, tb])
        call = f"sparse.add(a at {ai}, b at {bi}, threshold={thresh}) [case {case}]"
        assert_equal(kept, [list(k) for k in want_kept], call=call, what="kept indices")
        weight = {k: R[i] for i, k in enumerate(want_kept)}
        assert_close(ga, [weight.get(tuple(k), 0.0) for k in ai], call=call, what="d/da.values")
        assert_close(gb, [weight.get(tuple(k), 0.0) for k in bi], call=call, what="d/db.values")


# -- strategies: variables created inside strategy.run are shared by canonical name --------------------------------
@clause("mirrored.variables", ref="tf221")
def test_amut26_run_shares_variables_by_their_canonical_name(backend, tf):
    """Inside `MirroredStrategy.run` replica 0 creates each variable and the other replicas reuse
    replica 0's of the same canonical name (TF 2.21's shared_variable_creator: the uniquifying
    suffix "_<digit>" dropped at the end and before "/"), whatever order they create them in; a name
    replica 0 did not create is RuntimeError."""
    strategy = backend.make_strategy("mirrored", 2)
    order = {0: ["a", "b_1", "c/d"], 1: ["c_2/d", "a", "b"]}     # replica 1: other order, other suffixes

    def fn():
        rid = int(tf.distribute.get_replica_context().replica_id_in_sync_group)
        made = [(n, tf.Variable(float(10 * (k + 1) + rid), name=n)) for k, n in enumerate(order[rid])]
        return {n.split("_")[0].split("/")[0]: v.read_value() for n, v in made}

    out = strategy.run(fn)
    # replica 0 made a = 10, b_1 = 20, c/d = 30: every replica reads replica 0's by canonical name
    want = {"a": 10.0, "b": 20.0, "c": 30.0}
    for key in sorted(want):
        got = [float(to_numpy(x)) for x in strategy.experimental_local_results(out[key])]
        assert_equal(got, [want[key]] * 2, what=f"variable {key!r} read on each replica",
                     call=f"MirroredStrategy(2).run(fn), replica 0 creating {order[0]}, replica 1 {order[1]}")

    def other():
        rid = int(tf.distribute.get_replica_context().replica_id_in_sync_group)
        return tf.Variable(1.0, name="x" if rid == 0 else "y").read_value()

    with raises(RuntimeError, match="mismatching name",
                call="MirroredStrategy(2).run(fn), replica 1 creating 'y' where replica 0 created 'x'"):
        strategy.run(other)


# -- Keras layers: the normalization layers on float16 inputs compute in float32 -----------------------------------
def _np_group_norm(x: np.ndarray, groups: int, eps: float) -> np.ndarray:
    g = x.reshape(x.shape[:-1] + (groups, x.shape[-1] // groups))
    axes = tuple(range(1, g.ndim - 2)) + (g.ndim - 1,)
    mean, var = g.mean(axis=axes, keepdims=True), g.var(axis=axes, keepdims=True)
    return ((g - mean) / np.sqrt(var + eps)).reshape(x.shape)


@clause("keras.layer.groupnorm", ref="tf221")
def test_amut26_normalization_layers_take_float16_inputs_under_mixed_float16(keras):
    """Under the mixed_float16 policy (float16 inputs, float32 variables) GroupNormalization,
    LayerNormalization, BatchNormalization (inference: moving mean 0, variance 1) and
    UnitNormalization compute their statistics in float32 (Keras 3.15 promotes float16 with
    float32) and return float16: the NumPy rule in float64 rounded to float16."""
    from simdist.conformance.tolerances import Tolerance

    x = np.linspace(-3.0, 2.0, 48).reshape(2, 3, 8).astype(np.float16)
    x64 = x.astype(np.float64)
    ln_mean, ln_var = x64.mean(-1, keepdims=True), x64.var(-1, keepdims=True)
    cases = [
        ("GroupNormalization(groups=4)", lambda: keras.layers.GroupNormalization(4, dtype="mixed_float16"),
         _np_group_norm(x64, 4, 1e-3)),
        ("LayerNormalization()", lambda: keras.layers.LayerNormalization(dtype="mixed_float16"),
         (x64 - ln_mean) / np.sqrt(ln_var + 1e-3)),
        ("BatchNormalization()", lambda: keras.layers.BatchNormalization(dtype="mixed_float16"),
         x64 / np.sqrt(1.0 + 1e-3)),
        ("UnitNormalization()", lambda: keras.layers.UnitNormalization(dtype="mixed_float16"),
         x64 / np.sqrt(np.sum(x64 ** 2, axis=-1, keepdims=True))),
    ]
    tol = Tolerance(rtol=2e-3, atol=2e-3)        # float16's last bit over the outputs' range
    for name, make, want in cases:
        layer = make()
        out = layer(x)
        call = f"keras.layers.{name} with dtype='mixed_float16' on float16 x of shape {x.shape}"
        assert_equal(out.dtype.name, "float16", call=call, what="output dtype")
        assert_close(out, want, call=call, what="output", tolerance=tol)


# -- the tape: integers as targets or sources name DataType enums, *_ref ones included -----------------------------
#: TF 2.21's DataType enum (tensorflow/core/framework/types.proto), 1..33; n + 100 is the *_ref form.
_ENUM = ("float32 float64 int32 uint8 int16 int8 string complex64 int64 bool qint8 quint8 qint32 bfloat16 qint16 "
         "quint16 uint16 complex128 float16 resource variant uint32 uint64 float8_e5m2 float8_e4m3fn "
         "float8_e4m3fnuz float8_e4m3b11fnuz float8_e5m2fnuz int4 uint4 int2 uint2 float4_e2m1fn").split()
#: backprop_util.IsTrainable's dtypes (TF 2.21's source): their *_ref forms count by their base dtype.
_TRAINABLE = ("float16", "float32", "float64", "bfloat16", "complex64", "complex128", "resource", "variant")


@clause("autodiff.targets", ref="tf221")
def test_amut26_integer_targets_and_sources_are_read_as_dtype_enums(backend, tf):
    """tape.gradient with a Python int as a target or a source reads it as a DataType enum
    (backprop_util.IsTrainable's dtypes.as_dtype): TypeError "Cannot convert the argument" for an
    int that names no enum (0, 34-100, above 133, negatives); for an enum whose base dtype is
    trainable (the *_ref forms 101-133 included), the C tape's AttributeError '_id'; for the
    others, AttributeError 'dtype' (logging.vlog reading `t.dtype`)."""
    x = tf.constant(1.5)
    for value in [-100, -99, -67, -1, 0, *range(1, 37), *range(99, 137), 200]:
        base = value % 100 if value > 0 and value % 100 and value // 100 in (0, 1) else 0
        name = _ENUM[base - 1] if 1 <= base <= len(_ENUM) else None
        if name is None:
            cls = TypeError
            pattern = re.escape(f"Cannot convert the argument `type_value`: {value} to a TensorFlow DType")
        else:
            attr = "_id" if name in _TRAINABLE else "dtype"
            cls, pattern = AttributeError, re.escape(f"'int' object has no attribute '{attr}'")
        for role in ("target", "source"):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x * 2.0
            label = f"{name}{'_ref' if value > 100 else ''}" if name else "no DataType"
            with raises(cls, match=pattern, call=f"tape.gradient with {value} ({label}) as a {role}"):
                if role == "target":
                    tape.gradient(value, x)
                else:
                    tape.gradient(y, [x, value])


# -- op gradients: MirrorPadGrad's boundaries and fold, both modes ----------------------------------------------------
def _np_mirror_fold(g: np.ndarray, lo: int, hi: int, reflect: bool) -> np.ndarray:
    """The gradient of a 1-D mirror pad by (lo, hi): each padded entry added back onto the entry it
    copied (REFLECT skips the edge entry, SYMMETRIC repeats it)."""
    n = g.shape[0] - lo - hi
    out = g[lo:lo + n].astype(np.float64).copy()
    for k in range(lo):                       # padded position lo-1-k copies input k+1 (REFLECT) or k
        out[k + 1 if reflect else k] += g[lo - 1 - k]
    for k in range(hi):                       # padded position lo+n+k copies input n-2-k or n-1-k
        out[n - 2 - k if reflect else n - 1 - k] += g[lo + n + k]
    return out


@clause("autodiff.op-gradients", ref="tf221")
def test_amut26_mirror_pad_grad_checks_each_side_against_the_output_size(backend, tf):
    """raw_ops.MirrorPadGrad(g, [[lo, hi]], mode) folds the padded entries back (the gradient of
    MirrorPad); the forward input size is n = len(g) - lo - hi and each side must be < n for REFLECT,
    <= n for SYMMETRIC (InvalidArgumentError "paddings must be ..." otherwise), each side on its own."""
    g = np.arange(1.0, 8.0)                    # 7 entries
    for mode in ("REFLECT", "SYMMETRIC"):
        reflect = mode == "REFLECT"
        for lo, hi in [(0, 0), (1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (1, 3), (2, 3), (3, 2), (0, 3), (3, 0),
                       (0, 4), (4, 0), (1, 4), (4, 1), (3, 3)]:
            n = len(g) - lo - hi
            ok = (lo < n and hi < n) if reflect else (lo <= n and hi <= n)
            call = f"tf.raw_ops.MirrorPadGrad(input=arange(1, 8), paddings=[[{lo}, {hi}]], mode={mode!r})"
            if ok:
                got = tf.raw_ops.MirrorPadGrad(input=tf.constant(g), paddings=[[lo, hi]], mode=mode)
                assert_close(got, _np_mirror_fold(g, lo, hi, reflect), call=call, what="folded gradient")
            else:
                with raises(tf.errors.InvalidArgumentError, match="paddings must be", call=call):
                    tf.raw_ops.MirrorPadGrad(input=tf.constant(g), paddings=[[lo, hi]], mode=mode)


# -- op gradients: SparseSoftmax over the last axis of a rank-3 SparseTensor ----------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_amut26_sparse_softmax_gradient_of_a_rank_3_sparse_tensor(backend, tf):
    """tf.sparse.softmax normalizes over the last axis among the entries present; the gradient of
    sum(R * softmax(v)) by the values is s * (R - sum over the row of R * s), a row being the
    entries sharing every index but the last (rank 3 here: rows are (i, j) pairs)."""
    idx = [[0, 0, 0], [0, 0, 2], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 0, 3], [1, 2, 2], [1, 2, 3]]
    v = np.array([0.5, -1.0, 2.0, 0.1, 0.7, -0.3, 1.5, -2.0])
    R = np.array([1.0, -2.0, 0.5, 3.0, -1.0, 0.25, 2.0, -0.5])
    rows: dict = {}
    for k, i in enumerate(idx):
        rows.setdefault(tuple(i[:-1]), []).append(k)
    s, want = np.zeros_like(v), np.zeros_like(v)
    for ks in rows.values():
        e = np.exp(v[ks] - v[ks].max())
        s[ks] = e / e.sum()
        want[ks] = s[ks] * (R[ks] - np.sum(R[ks] * s[ks]))
    tv = tf.constant(v)
    with tf.GradientTape() as tape:
        tape.watch(tv)
        out = tf.sparse.softmax(tf.sparse.SparseTensor(idx, tv, [2, 3, 4]))
        total = tf.reduce_sum(tf.constant(R) * out.values)
    call = "tf.sparse.softmax of a SparseTensor of dense_shape [2, 3, 4]"
    assert_close(out.values, s, call=call, what="values")
    assert_close(tape.gradient(total, tv), want, call=call, what="d/dvalues sum(R * softmax)")


# -- Keras layers: StackedRNNCells with dropout, cells of other widths than the input --------------------------------
@clause("keras.rnn.dropout", ref="tf221")
def test_amut26_stacked_cells_take_dropout_masks_of_their_own_inputs(keras):
    """RNN(StackedRNNCells([...])) in training with dropout and recurrent_dropout on cells whose
    units differ from the features (4 -> 3 -> 2): each cell's input mask has its own input's
    width (the first cell's the features, the next one's the previous cell's units) and its
    recurrent mask its state's width; the layer runs, gives (batch, 2), differs from the
    inference output and, with rate 0, equals the inference output."""
    x = np.linspace(-1.0, 1.0, 2 * 5 * 4).reshape(2, 5, 4).astype(np.float32)
    for kind in ("SimpleRNNCell", "GRUCell", "LSTMCell"):
        cls = getattr(keras.layers, kind)
        outs = {}
        for rate in (0.0, 0.5):
            cells = [cls(3, dropout=rate, recurrent_dropout=rate, seed=1), cls(2, dropout=rate,
                                                                                recurrent_dropout=rate, seed=2)]
            layer = keras.layers.RNN(keras.layers.StackedRNNCells(cells))
            call = f"RNN(StackedRNNCells([{kind}(3), {kind}(2)], dropout={rate}))(x of shape {x.shape})"
            train = to_numpy(layer(x, training=True))
            infer = to_numpy(layer(x, training=False))
            assert_equal(train.shape, (2, 2), call=call, what="output shape (training)")
            outs[rate] = (train, infer, call)
        train, infer, call = outs[0.0]
        assert_close(train, infer, call=call, what="training output with rate 0 (= inference)")
        train, infer, call = outs[0.5]
        assert_equal(bool(np.all(np.isfinite(train))), True, call=call, what="training output finite")
        assert_equal(bool(np.allclose(train, infer)), False, call=call,
                     what="training output equal to the inference output (dropout did nothing)")


# -- strategies: get_next_as_optional takes a partial last step ----------------------------------------------------
@clause("dataset-fn.input-context", ref="tf221")
def test_amut26_get_next_as_optional_gives_the_partial_last_step(backend, tf):
    """distribute_datasets_from_function on MirroredStrategy(2), one worker: the dataset's elements
    (batches of 1, drop_remainder: a fully known shape) are dealt to the replicas in turn; with an
    odd count the last step is partial: get_next_as_optional has a value, replica 1 gets an empty
    batch of shape (0,), then no value. Iterating `dist` stops before that partial step instead
    (TF 2.21 enables partial steps for iteration only where the batch dimension is not fully
    known; get_next_as_optional always takes them)."""
    strategy = backend.make_strategy("mirrored", 2)
    n = 5
    dist = strategy.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.range(n).batch(1, drop_remainder=True))
    want = [[True, [[k], [k + 1] if k + 1 < n else []]] for k in range(0, n, 2)] + [[False, None]]
    it = iter(dist)
    got = []
    for _ in range(len(want)):
        opt = it.get_next_as_optional()
        has = bool(opt.has_value())
        got.append([has, [to_numpy(x).tolist() for x in strategy.experimental_local_results(opt.get_value())]
                    if has else None])
    call = f"MirroredStrategy(2).distribute_datasets_from_function(range({n}).batch(1, drop_remainder=True))"
    assert_equal(got, want, call=call, what="get_next_as_optional() steps: [has_value, local results]")
    steps = [[to_numpy(x).tolist() for x in strategy.experimental_local_results(v)] for v in dist]
    assert_equal(steps, [w[1] for w in want[:-1] if len(w[1][1]) == 1], call=call,
                 what="steps of `for v in dist` (the full ones)")

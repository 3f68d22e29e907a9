"""Gaps the fourth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 4, twenty-seventh
session, over the training-layer files seeds 1-3 did not sample: the tf facade's wrappers, keras.ops,
Keras models, trainers and optimizers, layers not sampled yet, variables, the strategies' value
paths): behaviours the suite executed but no test looked at (docs/conformance.md, "Twenty-seventh
session: automatic sweep, seed 4 (amut27)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant.
Expected values are observations of TF 2.21 / Keras 3.15 named in each test, NumPy transcriptions
of their rules computed here, or relations between two spellings of the same computation.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


# -- Keras layers: an input_spec that fixes the rank refuses every other rank -------------------------------------
#: (layer, constructor, the ranks it takes: "ndim" exactly or "min_ndim" at least), as Keras 3.15 sets each
#: layer's InputSpec (SpatialDropoutND: ndim N + 2; ConvLSTMND: N + 3; Conv2D/3D: min_ndim N + 2; RNNs,
#: pooling, cropping, padding, upsampling, RepeatVector, Permute: their fixed rank; Dense: min_ndim 2).
_RANKED = [
    ("SpatialDropout1D", lambda L: L.SpatialDropout1D(0.5), "ndim", 3),
    ("SpatialDropout2D", lambda L: L.SpatialDropout2D(0.5), "ndim", 4),
    ("SpatialDropout3D", lambda L: L.SpatialDropout3D(0.5), "ndim", 5),
    ("ConvLSTM1D", lambda L: L.ConvLSTM1D(2, 2), "ndim", 4),
    ("ConvLSTM2D", lambda L: L.ConvLSTM2D(2, 2), "ndim", 5),
    ("ConvLSTM3D", lambda L: L.ConvLSTM3D(2, 2), "ndim", 6),
    ("Conv2D", lambda L: L.Conv2D(2, 2), "min_ndim", 4),
    ("Conv3D", lambda L: L.Conv3D(2, 2), "min_ndim", 5),
    ("LSTM", lambda L: L.LSTM(2), "ndim", 3),
    ("GRU", lambda L: L.GRU(2), "ndim", 3),
    ("SimpleRNN", lambda L: L.SimpleRNN(2), "ndim", 3),
    ("MaxPooling1D", lambda L: L.MaxPooling1D(), "ndim", 3),
    ("MaxPooling2D", lambda L: L.MaxPooling2D(), "ndim", 4),
    ("GlobalAveragePooling1D", lambda L: L.GlobalAveragePooling1D(), "ndim", 3),
    ("RepeatVector", lambda L: L.RepeatVector(2), "ndim", 2),
    ("Cropping1D", lambda L: L.Cropping1D(1), "ndim", 3),
    ("Cropping3D", lambda L: L.Cropping3D(1), "ndim", 5),
    ("ZeroPadding2D", lambda L: L.ZeroPadding2D(1), "ndim", 4),
    ("ZeroPadding3D", lambda L: L.ZeroPadding3D(1), "ndim", 5),
    ("UpSampling1D", lambda L: L.UpSampling1D(2), "ndim", 3),
    ("UpSampling3D", lambda L: L.UpSampling3D(2), "ndim", 5),
    ("Permute", lambda L: L.Permute((2, 1)), "ndim", 3),
    ("Dense", lambda L: L.Dense(2), "min_ndim", 2),
]


@clause("keras.layer.call", ref="tf221")
def test_amut27_layers_refuse_inputs_of_a_rank_their_input_spec_excludes(keras):
    """A layer call checks the input against the layer's InputSpec before build and call: a rank the
    spec excludes (one below a min_ndim, one either side of an ndim) is Keras's ValueError "Input 0 ...
    of layer '<name>' is incompatible with the layer: expected ndim=N, found ndim=M" (observed on TF
    2.21 for each layer here), on a fresh layer and on one built on a rank it takes (ConvLSTM sets its
    rank in build); the rank it takes is computed. Dropout layers are called without `training`, where
    the call itself is the identity, so only the spec can refuse."""
    for name, make, kind, rank in _RANKED:
        wrong = [rank - 1] if kind == "min_ndim" else [rank - 1, rank + 1]
        built = make(keras.layers)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            built(np.ones((2, 3, 4, 5, 2, 2)[:rank], np.float32))
        for r in wrong:
            if r < 1:
                continue
            shape = (2, 3, 4, 5, 2, 2, 2)[:r]
            x = np.ones(shape, np.float32)
            pat = rf"incompatible with the layer: expected {kind}={rank}, found ndim={r}\b"
            # a fresh layer (the spec its constructor sets) and one built on a rank it takes (the spec build sets)
            for state, layer in (("fresh", make(keras.layers)), ("built", built)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    with raises(ValueError, match=pat, call=f"{name}(...) ({state})(x of shape {shape})"):
                        layer(x)


# -- attention layers: the query's Keras mask on the output --------------------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
def test_amut27_attention_layers_pass_the_query_mask_on(keras):
    """MultiHeadAttention and GroupQueryAttention (supports_masking) called on Masking(0.0) query and
    value tensors take query_mask/value_mask from them and give the output the query's mask (the
    steps whose features are not all 0, computed here); Attention and AdditiveAttention called on the
    list [query, value] give no output mask (Keras's compute_mask sees the list's own mask, None;
    observed on TF 2.21)."""
    L = keras.layers
    q = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, -1.0]], [[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]]], np.float32)
    v = np.array([[[1.0, 0.5], [2.0, 1.0]], [[0.0, 0.0], [1.0, -1.0]]], np.float32)
    want = np.any(q != 0.0, axis=-1).tolist()
    cases = [("MultiHeadAttention(2, 2)", lambda: L.MultiHeadAttention(2, 2), False, want, True),
             ("GroupQueryAttention(2, 2, 1)", lambda: L.GroupQueryAttention(2, 2, 1), False, want, False),
             ("Attention()", L.Attention, True, want, False),
             ("AdditiveAttention()", L.AdditiveAttention, True, want, False)]
    for name, make, as_list, expect, clears in cases:
        call = f"{name} on Masking(0.0)(q of shape {q.shape}), Masking(0.0)(v of shape {v.shape})"
        layer = make()
        assert_equal(bool(layer.supports_masking), True, call=call, what="layer.supports_masking")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mq, mv = L.Masking(0.0)(q), L.Masking(0.0)(v)
            out = layer([mq, mv]) if as_list else layer(mq, mv)
        mask = getattr(out, "_keras_mask", None)
        assert_equal(None if mask is None else to_numpy(mask).tolist(), expect, call=call, what="output._keras_mask")
        if not as_list:
            # Keras's MultiHeadAttention.call sets its inputs' masks to None (it read them as query_mask and
            # value_mask); GroupQueryAttention leaves them (observed on TF 2.21)
            kept = getattr(mq, "_keras_mask", None)
            assert_equal(kept is None, clears, call=call, what="query._keras_mask is None after the call")


# -- SpectralNormalization: vector_u in the wrapped kernel's dtype -------------------------------------------------
@clause("keras.layer.spectral-normalization", ref="tf221")
def test_amut27_spectral_normalization_keeps_vector_u_in_the_kernels_dtype(keras):
    """SpectralNormalization adds its non-trainable vector_u in the dtype of the wrapped layer's kernel
    (or embeddings), whatever its own policy: Dense/Embedding of float64, float16, bfloat16 or
    mixed_float16 (kernel float32) inside a float32 wrapper, and a float32 Dense inside a float64 wrapper
    (observed on TF 2.21). A training call then renormalizes the kernel in that dtype: its largest
    singular value after enough power iterations is ~1 (NumPy's SVD of the new kernel)."""
    L = keras.layers
    cases = [(f"Dense(3, dtype={d!r})", lambda d=d: L.SpectralNormalization(L.Dense(3, dtype=d), power_iterations=30),
              np.ones((2, 4), np.float32)) for d in ("float64", "float16", "bfloat16", "mixed_float16")]
    cases += [("Dense(3) in a float64 wrapper",
               lambda: L.SpectralNormalization(L.Dense(3), dtype="float64", power_iterations=30),
               np.ones((2, 4), np.float32)),
              ("Embedding(5, 3, dtype='float64')",
               lambda: L.SpectralNormalization(L.Embedding(5, 3, dtype="float64"), power_iterations=30),
               np.array([[0, 1, 2, 4]], np.int32))]
    for name, make, x in cases:
        call = f"SpectralNormalization({name})(x)"
        sn = make()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sn(x)
        kd = getattr(sn.layer, "kernel", None)
        kd = (kd if kd is not None else sn.layer.embeddings).dtype
        assert_equal(str(np.dtype(getattr(sn.vector_u.dtype, "name", sn.vector_u.dtype)))
                     if "bfloat" not in str(sn.vector_u.dtype) else "bfloat16",
                     str(np.dtype(getattr(kd, "name", kd))) if "bfloat" not in str(kd) else "bfloat16",
                     call=call, what="vector_u.dtype (the wrapped kernel's dtype)")
        if "float16" in name:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sn(x, training=True)
        k = to_numpy(sn.kernel).astype(np.float64).reshape(-1, to_numpy(sn.kernel).shape[-1])
        sigma = np.linalg.svd(k, compute_uv=False)[0]
        assert_equal(bool(abs(sigma - 1.0) < 1e-3), True, call=call,
                     what=f"the kernel's largest singular value after a training call ({sigma!r}, should be ~1)")


# -- keras.ops: the symbolic output spec of nn/loss ops against their eager result --------------------------------
def _ops_cases(ops):
    """name -> (fn, [(shape, dtype or None for the float dtype under test, values or None)])."""
    return {
        "ctc_loss": (lambda t, o, tl, ol: ops.ctc_loss(t, o, tl, ol),
                     [((2, 3), "int32", [[1, 2, 1], [2, 1, 0]]), ((2, 5, 4), None, None), ((2,), "int32", [3, 2]),
                      ((2,), "int32", [5, 5])]),
        "ctc_decode": (lambda o, n: ops.ctc_decode(o, n)[1], [((2, 5, 4), None, None), ((2,), "int32", [5, 4])]),
        "binary_crossentropy": (ops.binary_crossentropy, [((2, 3), None, None)] * 2),
        "categorical_crossentropy": (ops.categorical_crossentropy, [((2, 3), None, None)] * 2),
        "sparse_categorical_crossentropy": (ops.sparse_categorical_crossentropy,
                                            [((2,), "int32", [0, 2]), ((2, 3), None, None)]),
        "softmax": (ops.softmax, [((2, 3), None, None)]),
        "log_softmax": (ops.log_softmax, [((2, 3), None, None)]),
        "moments": (lambda a: ops.moments(a, axes=[0])[1], [((2, 3), None, None)]),
        "rms_normalization": (ops.rms_normalization, [((2, 3), None, None)]),
        "layer_normalization": (ops.layer_normalization, [((2, 3), None, None)]),
        "batch_normalization": (lambda a, m, v: ops.batch_normalization(a, m, v, axis=-1),
                                [((2, 3), None, None), ((3,), None, None), ((3,), None, None)]),
        "dot_product_attention": (ops.dot_product_attention, [((2, 4, 2, 3), None, None)] * 3),
        "one_hot": (lambda a: ops.one_hot(a, 4), [((3,), "int32", [0, 3, 1])]),
        "sigmoid": (ops.sigmoid, [((2, 3), None, None)]),
        "gelu": (ops.gelu, [((2, 3), None, None)]),
        "glu": (ops.glu, [((2, 4), None, None)]),
        "sparsemax": (ops.sparsemax, [((2, 3), None, None)]),
        "conv": (ops.conv, [((1, 5, 2), None, None), ((2, 2, 3), None, None)]),
        "depthwise_conv": (ops.depthwise_conv, [((1, 5, 2), None, None), ((2, 2, 1), None, None)]),
        "average_pool": (lambda x: ops.average_pool(x, 2), [((1, 4, 2), None, None)]),
        "max_pool": (lambda x: ops.max_pool(x, 2), [((1, 4, 2), None, None)]),
        "unfold": (lambda x: ops.unfold(x, 2), [((1, 2, 4, 4), None, None)]),
        # Keras 3.15's own spec disagrees with its TF result here: the symbolic dtype is fixed (observed on TF 2.21)
        "normalize": (ops.normalize, [((2, 3), None, None)]),
        "psnr": (lambda a, b: ops.psnr(a, b, 1.0), [((2, 3), None, None)] * 2),
        "logsumexp": (lambda a: ops.logsumexp(a, axis=1), [((2, 3), None, None)]),
        "multi_hot": (lambda a: ops.multi_hot(a, 4), [((2, 2), "int32", [[0, 3], [1, 1]])]),
    }


#: ops whose symbolic dtype is not their eager one in Keras 3.15 on TF 2.21 (observed): name -> symbolic dtype.
_FIXED_SPEC_DTYPE = {"normalize": "float32", "psnr": "float32", "logsumexp": "float32", "multi_hot": "int32"}


def _dtype_name(d) -> str:
    return getattr(d, "name", None) or str(d)


@clause("keras.ops", ref="tf221")
def test_amut27_ops_symbolic_specs_match_their_eager_results(keras):
    """keras.ops nn and loss functions called on KerasTensors give the shape and dtype their eager call on
    arrays of the same shapes and dtypes gives (float64 and float16 inputs: ctc_loss of float16 logits is
    float32 both ways, of float64 float64), two spellings compared; where Keras 3.15's compute_output_spec
    is fixed (normalize, psnr, logsumexp: float32; multi_hot: int32) that dtype, observed on TF 2.21."""
    ops = keras.ops
    rng = np.random.default_rng(27)
    for dt in ("float64", "float16"):
        for name, (fn, specs) in _ops_cases(ops).items():
            call = f"keras.ops.{name} on {dt} inputs of shapes {[s for s, _, _ in specs]}"
            sym = fn(*[keras.KerasTensor(s, dtype=d or dt) for s, d, _ in specs])
            eag = fn(*[ops.cast(np.asarray(v) if v is not None else rng.uniform(0.1, 0.9, s).astype(np.float32),
                                d or dt) for s, d, v in specs])
            assert_equal(tuple(sym.shape), tuple(eag.shape), call=call,
                         what="the KerasTensor result's shape (the eager result's)")
            want = _FIXED_SPEC_DTYPE.get(name, _dtype_name(eag.dtype))
            assert_equal(_dtype_name(sym.dtype), want, call=call, what="the KerasTensor result's dtype")


# -- Model.from_config of subclasses: revived as functional or through the constructor -----------------------------
@clause("keras.model.config", ref="tf221")
def test_amut27_model_subclasses_revive_from_a_functional_config_by_their_init(keras):
    """Keras 3.15's Model.from_config revives a functional config functionally (an instance of the
    subclass, holding the config's layers) when the class is Model/Functional, its __init__ takes exactly
    (inputs, outputs, name) or (*args, **kwargs); otherwise it calls cls(**config): an __init__ of its own
    arguments gets the config's keys (ValueError "Unrecognized keyword arguments"), one of (inputs, outputs,
    name) without **kwargs is revived and refuses `trainable` (TypeError), one of (inputs, outputs, **kwargs)
    is called without inputs (TypeError "Unable to revive model from config"); each observed on TF 2.21.
    A config without the functional keys goes to the constructor."""
    L = keras.layers
    inp = keras.Input((3,))
    out = L.Dense(2, name="d")(inp)
    base = keras.Model(inp, out, name="base")

    class Exact(keras.Model):
        def __init__(self, inputs, outputs, name=None, **kwargs):
            super().__init__(inputs=inputs, outputs=outputs, name=name, **kwargs)

    class Star(keras.Model):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

    class Own(keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.d = L.Dense(units)

        def call(self, x):
            return self.d(x)

    class NoKwargs(keras.Model):
        def __init__(self, inputs, outputs, name=None):
            super().__init__(inputs=inputs, outputs=outputs, name=name)

    class NoName(keras.Model):
        def __init__(self, inputs, outputs, **kwargs):
            super().__init__(inputs=inputs, outputs=outputs, **kwargs)

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for cls in (keras.Model, Exact, Star):
        call = f"{cls.__name__}.from_config(a functional model's get_config())"
        m = cls.from_config(base.get_config())
        assert_equal(isinstance(m, cls), True, call=call, what=f"isinstance(result, {cls.__name__})")
        assert_equal([lay.name for lay in m.layers], [base.layers[0].name, "d"],
                     call=call, what="result.layers' names")
        assert_equal(m.name, "base", call=call, what="result.name")
        m.set_weights(base.get_weights())
        assert_equal(to_numpy(m(x)).tolist(), to_numpy(base(x)).tolist(), call=call,
                     what="result(x) with base's weights (base(x))")
    with raises(ValueError, match="Unrecognized keyword arguments", call="Own.from_config(functional config)"):
        Own.from_config(base.get_config())
    with raises(TypeError, match="unexpected keyword argument 'trainable'", call="NoKwargs.from_config(...)"):
        NoKwargs.from_config(base.get_config())
    with raises(TypeError, match="Unable to revive model from config", call="NoName.from_config(...)"):
        NoName.from_config(base.get_config())
    own = Own.from_config({"units": 4, "name": "own4", "trainable": True})
    assert_equal((type(own).__name__, own.units, own.name), ("Own", 4, "own4"),
                 call="Own.from_config({'units': 4, 'name': 'own4', 'trainable': True})",
                 what="(class, units, name)")


# -- keras.tree: None is a leaf unless none_is_leaf=False ----------------------------------------------------------
@clause("keras.tree", ref="tf221")
def test_amut27_tree_map_structure_treats_none_as_a_leaf_by_default(keras):
    """keras.tree.map_structure(func, *structures, none_is_leaf=True) (Keras 3.15's signature) calls func
    on every None of a nested structure by default, and with none_is_leaf=False keeps each None as an
    empty node without calling func; with several structures, None pairs with None either way, and
    with a value only as a leaf (none_is_leaf=False: ValueError). Expected values: func applied by the
    rule, here."""
    tree = keras.tree
    s = [1, None, (None, 2), {"a": None, "b": 3}]

    def f(x):
        return "N" if x is None else x * 10

    as_leaf = [10, "N", ("N", 20), {"a": "N", "b": 30}]
    as_node = [10, None, (None, 20), {"a": None, "b": 30}]
    assert_equal(tree.map_structure(f, s), as_leaf, call=f"keras.tree.map_structure(f, {s})")
    assert_equal(tree.map_structure(f, s, none_is_leaf=True), as_leaf, call="map_structure(f, s, none_is_leaf=True)")
    assert_equal(tree.map_structure(f, s, none_is_leaf=False), as_node,
                 call="map_structure(f, s, none_is_leaf=False)")
    assert_equal(tree.map_structure(f, None), "N", call="map_structure(f, None)")
    assert_equal(tree.map_structure(f, None, none_is_leaf=False), None, call="map_structure(f, None, none_is_leaf=False)")

    def pair(a, b):
        return (a, b)

    assert_equal(tree.map_structure(pair, [1, None], [2, None]), [(1, 2), (None, None)],
                 call="map_structure(pair, [1, None], [2, None])")
    assert_equal(tree.map_structure(pair, [1, None], [2, None], none_is_leaf=False), [(1, 2), None],
                 call="map_structure(pair, [1, None], [2, None], none_is_leaf=False)")
    assert_equal(tree.map_structure(pair, [1, None], [2, 3]), [(1, 2), (None, 3)],
                 call="map_structure(pair, [1, None], [2, 3])")
    with raises(ValueError, call="map_structure(pair, [1, None], [2, 3], none_is_leaf=False)"):
        tree.map_structure(pair, [1, None], [2, 3], none_is_leaf=False)


# -- tf.Variable: the in-place operators' refusals, word for word --------------------------------------------------
#: TF 2.21's resource_variable_ops.py texts (observed): (operator, statement, method, out expression). `-=`'s
#: "out = variable * value" is TF's own text.
_INPLACE = [("+=", "variable += value", "variable.assign_add(value)", "variable + value"),
            ("-=", "variable -= value", "variable.assign_sub(value)", "variable * value"),
            ("*=", "var *= value", "var.assign(var * value)", "var * value"),
            ("/=", "var /= value", "var.assign(var / value)", "var / value"),
            ("**=", "var **= value", "var.assign(var ** value)", "var ** value")]


@clause("ops.variable-inplace", ref="tf221")
def test_amut27_variable_inplace_operators_refuse_with_tfs_text(tf):
    """`v += 1.0`, `-=`, `*=`, `/=`, `**=` of a plain tf.Variable raise RuntimeError "`<statement>` with
    `tf.Variable`s is not supported. Use `<method>` to modify the variable, or `out = <expr>` if you need
    to get a new output Tensor." (TF 2.21's texts, observed), and leave the variable as it was."""
    v = tf.Variable(2.0)
    for op, text, method, out in _INPLACE:
        want = (f"`{text}` with `tf.Variable`s is not supported. Use `{method}` to modify the variable, or "
                f"`out = {out}` if you need to get a new output Tensor.")
        w = v
        with raises(RuntimeError, match=re.escape(want), call=f"v {op} 1.0 (v a tf.Variable)"):
            if op == "+=":
                w += 1.0
            elif op == "-=":
                w -= 1.0
            elif op == "*=":
                w *= 1.0
            elif op == "/=":
                w /= 1.0
            else:
                w **= 1.0
        assert_equal(float(to_numpy(v)), 2.0, call=f"v {op} 1.0", what="v after the refused operator")


# -- tf.compat.v1.where: Select's shape error names the input that differs -----------------------------------------
@clause("ops.compat-v1", ref="tf221")
def test_amut27_compat_v1_where_names_the_mismatched_input(tf):
    """tf.compat.v1.where(cond, x, y) of a cond of rank > 1 (Select) needs x and y of cond's shape: the
    InvalidArgumentError names the input that differs, 1 for x and 2 for y ("Input 0: [2,2] != input 1:
    [2,3]"; TF 2.21's text); matching shapes select elementwise (NumPy's where)."""
    c = np.array([[True, False], [False, True]])
    ok, bad = np.arange(4, dtype=np.float32).reshape(2, 2), np.ones((2, 3), np.float32)
    for i, (x, y) in ((1, (bad, ok)), (2, (ok, bad))):
        call = f"tf.compat.v1.where(cond (2, 2), x {x.shape}, y {y.shape})"
        with raises(tf.errors.InvalidArgumentError, match=rf"Input 0: \[2,2\] != input {i}: \[2,3\]", call=call):
            tf.compat.v1.where(tf.constant(c), tf.constant(x), tf.constant(y))
    got = to_numpy(tf.compat.v1.where(tf.constant(c), tf.constant(ok), tf.constant(-ok)))
    assert_equal(got.tolist(), np.where(c, ok, -ok).tolist(), call="tf.compat.v1.where(cond, x, -x)")


# -- tf.Module: the default name is the class name in TF's snake case ----------------------------------------------
#: TF 2.21's module.py camel_to_snake: a capital after a lower-case letter or digit, or a capital (not first)
#: before a lower-case letter, starts a word.
_CAMEL = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")


@clause("ops.tf-utilities", ref="tf221")
def test_amut27_module_default_names_are_snake_case_of_the_class(tf):
    """A tf.Module subclass made without a name is named by camel_to_snake of its class name (the rule
    computed here with TF's regex; e.g. HTTPServer2Thing -> http_server2_thing, observed on TF 2.21);
    a name given is kept."""
    for cls_name, seen in [("MyDenseModule", "my_dense_module"), ("HTTPServer2Thing", "http_server2_thing"),
                           ("ABC", "abc"), ("A", "a"), ("already_snake", "already_snake"),
                           ("XMLHttpRequest", "xml_http_request"), ("IOModule", "io_module"),
                           ("Conv2DTranspose", None), ("ResNet50V2Block", None)]:
        cls = type(cls_name, (tf.Module,), {})
        want = _CAMEL.sub(r"_\1", cls_name).lower()
        if seen is not None:
            assert_equal(want, seen, call=f"camel_to_snake({cls_name!r}) (the test's own rule)")
        assert_equal(cls().name, want, call=f"class {cls_name}(tf.Module); {cls_name}().name")
        assert_equal(cls(name="given").name, "given", call=f"{cls_name}(name='given').name")


# -- MirroredStrategy.extended.batch_reduce_to of values that are not distributed ----------------------------------
@clause("reduce.plain-value", ref="tf221")
def test_amut27_batch_reduce_to_takes_plain_tensors_and_refuses_python_numbers(backend, tf):
    """MirroredStrategy(2).extended.batch_reduce_to(SUM, [(value, destination)]) of a plain tensor
    returns it reduced as one value (its single copy: the tensor itself); a Python float, which has no
    dtype, is AttributeError "'float' object has no attribute 'dtype'" (observed on TF 2.21)."""
    strategy = backend.make_strategy("mirrored", 2)
    t = tf.constant([1.0, 2.0])
    call = "MirroredStrategy(2).extended.batch_reduce_to(SUM, [(tf.constant([1., 2.]), the tensor)])"
    out = strategy.extended.batch_reduce_to(tf.distribute.ReduceOp.SUM, [(t, t)])
    assert_equal(len(out), 1, call=call, what="len(result)")
    got = [to_numpy(x).tolist() for x in strategy.experimental_local_results(out[0])]
    assert_equal(got, [[1.0, 2.0]], call=call, what="local results of result[0]")
    with raises(AttributeError, match="'float' object has no attribute 'dtype'",
                call="batch_reduce_to(SUM, [(3.0, device string)])"):
        strategy.extended.batch_reduce_to(tf.distribute.ReduceOp.SUM, [(3.0, backend.device_names(1)[0])])


# -- strategy.run: variables of one canonical name created several times -------------------------------------------
@clause("mirrored.variables", ref="tf221")
def test_amut27_run_shares_repeated_names_in_creation_order(backend, tf):
    """Inside MirroredStrategy(2).run each replica creates three variables named "v" (TF uniquifies them
    v, v_1, v_2: one canonical name); replica 1's k-th creation of that name reuses replica 0's k-th
    (TF 2.21's shared_variable_creator counts the creations per name), so replica 1 reads replica 0's
    values in creation order."""
    strategy = backend.make_strategy("mirrored", 2)

    def fn():
        rid = int(tf.distribute.get_replica_context().replica_id_in_sync_group)
        return [tf.Variable(float(10 * (k + 1) + rid), name="v").read_value() for k in range(3)]

    out = strategy.run(fn)
    got = [[float(to_numpy(x)) for x in strategy.experimental_local_results(o)] for o in out]
    assert_equal(got, [[10.0, 10.0], [20.0, 20.0], [30.0, 30.0]],
                 call="MirroredStrategy(2).run(three tf.Variable(..., name='v') per replica)",
                 what="each variable read on each replica (replica 0's values)")


# -- SyncOnRead variables: what a cross-replica write returns -------------------------------------------------------
@clause("mirrored.variables", ref="tf221")
def test_amut27_sync_on_read_cross_replica_writes_return_the_read_value(backend, tf):
    """A SyncOnRead variable of MirroredStrategy(2) written in cross-replica context: `assign(x)` stores
    x / 2 in each copy under SUM (x under MEAN and ONLY_FIRST_REPLICA), assign_add/assign_sub change each
    copy by the delta (SUM refuses them: ValueError); each returns the variable's read value after the
    write (the aggregate of the copies, computed here), and None with read_value=False."""
    strategy = backend.make_strategy("mirrored", 2)
    VA = tf.VariableAggregation
    for agg in (VA.SUM, VA.MEAN, VA.ONLY_FIRST_REPLICA):
        with strategy.scope():
            v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ, aggregation=agg)
        copies = [1.0, 1.0]
        for method, x in (("assign", 3.0), ("assign_add", 3.0), ("assign_sub", 2.0)):
            call = f"SyncOnRead({agg.name}) variable.{method}({x}) in cross-replica context"
            if agg is VA.SUM and method != "assign":
                with raises(ValueError, match=f"does not support `{method}` in cross-replica context", call=call):
                    getattr(v, method)(x)
                continue
            for read_value in (True, False):
                if method == "assign":
                    copies = [x / 2 if agg is VA.SUM else x] * 2
                else:
                    copies = [c + (x if method == "assign_add" else -x) for c in copies]
                out = getattr(v, method)(x, read_value=read_value) if not read_value else getattr(v, method)(x)
                want = sum(copies) if agg is VA.SUM else copies[0]
                assert_equal(None if out is None else float(to_numpy(out)), want if read_value else None,
                             call=f"{call}, read_value={read_value}", what="the value returned")
                got = [float(to_numpy(c)) for c in strategy.experimental_local_results(v)]
                assert_equal(got, copies, call=f"{call}, read_value={read_value}", what="the copies after it")


# -- tf.Module over a sharded variable: the shards are its variables -----------------------------------------------
@pytest.mark.requires("multi_worker")
@clause("pss.sharded-variable", ref="tf221")
def test_amut27_module_lists_the_shards_of_a_partitioned_variable(backend, tf):
    """A variable created under a ParameterServerStrategy with FixedShardsPartitioner(2) is sharded; a
    tf.Module holding it lists the shards as its variables and trainable_variables (w/part_0,
    w/part_1: TF's module walk expands a ShardedVariable), beside a plain variable it also holds."""
    part = tf.distribute.experimental.partitioners.FixedShardsPartitioner(2)
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=part)
    with cluster.strategy.scope():
        m = tf.Module(name="amut27_sharded")
        m.w = tf.Variable(np.arange(4, dtype=np.float32).reshape(4, 1), name="w")
        m.b = tf.Variable(1.0, name="b")
    call = "tf.Module holding w (4, 1) of FixedShardsPartitioner(2) and b under ParameterServerStrategy"
    for attr in ("variables", "trainable_variables"):
        got = sorted(v.name for v in getattr(m, attr))
        assert_equal(got, ["b:0", "w/part_0:0", "w/part_1:0"], call=call, what=f"module.{attr}' names")
    shards = sorted((v for v in m.variables if v.name.startswith("w/")), key=lambda v: v.name)
    assert_equal([to_numpy(v).tolist() for v in shards], [[[0.0], [1.0]], [[2.0], [3.0]]], call=call,
                 what="the shards' values")


# -- ExponentialMovingAverage: the averages' names count per variable and EMA name ---------------------------------
@clause("training.moving-average", ref="tf221")
def test_amut27_moving_average_names_are_uniquified_per_variable(tf):
    """ExponentialMovingAverage(decay).apply([v]) names v's average "<v>/ExponentialMovingAverage"; a second
    EMA of the same name averaging v gets "<v>/ExponentialMovingAverage_1" (TF 2.21's variable_scope
    uniquifies the scope in the eager default graph), while its average of another variable w starts
    at "<w>/ExponentialMovingAverage"; an EMA named "Avg" gives "<w>/Avg" (observed on TF 2.21). The
    variables' names are this test's own, so no other test has taken the scopes."""
    v = tf.Variable(1.0, name="amut27_ema_v")
    w = tf.Variable(2.0, name="amut27_ema_w")
    e1 = tf.train.ExponentialMovingAverage(0.9)
    e1.apply([v])
    e2 = tf.train.ExponentialMovingAverage(0.5)
    e2.apply([v, w])
    e3 = tf.train.ExponentialMovingAverage(0.5, name="Avg")
    e3.apply([w])
    got = [e1.average(v).name, e2.average(v).name, e2.average(w).name, e3.average(w).name]
    want = ["amut27_ema_v/ExponentialMovingAverage:0", "amut27_ema_v/ExponentialMovingAverage_1:0",
            "amut27_ema_w/ExponentialMovingAverage:0", "amut27_ema_w/Avg:0"]
    assert_equal(got, want, call="EMA(0.9).apply([v]); EMA(0.5).apply([v, w]); EMA(0.5, name='Avg').apply([w])",
                 what="[e1.average(v), e2.average(v), e2.average(w), e3.average(w)] names")


# -- tf.function's tracing count of distributed variables ----------------------------------------------------------
@clause("function.tracing-count", ref="tf221")
def test_amut27_tracing_count_keys_distributed_variables_by_spec(backend, tf):
    """A tf.function called with MirroredVariables traces once per dtype and shape (a, b of one spec
    share a trace; one of another shape or dtype takes its own), and a sync-on-read variable of that
    spec shares the mirrored one's trace whatever its aggregation, while a plain variable of that spec
    takes another (observed on TF 2.21)."""
    strategy = backend.make_strategy("mirrored", 2)
    on_read, VA = tf.VariableSynchronization.ON_READ, tf.VariableAggregation
    with strategy.scope():
        v = {"a": tf.Variable(1.0), "b": tf.Variable(2.0), "c": tf.Variable([1.0, 2.0]), "i": tf.Variable(1),
             "r": tf.Variable(1.0, synchronization=on_read, aggregation=VA.SUM),
             "r3": tf.Variable(3.0, synchronization=on_read, aggregation=VA.MEAN)}
    v["p"] = tf.Variable(1.0)
    for names, want in (("a b a", 1), ("a c", 2), ("a i", 2), ("a r r3", 1), ("a p", 2)):
        @tf.function
        def f(x):
            return x * 2

        for n in names.split():
            f(v[n])
        assert_equal(int(f.experimental_get_tracing_count()), want,
                     call=f"f(x) = x * 2 called with the variables {names} (MirroredStrategy(2): a, b, c, i "
                          "mirrored, r, r3 sync-on-read, p plain)", what="f.experimental_get_tracing_count()")

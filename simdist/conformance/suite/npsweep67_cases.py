"""NumPy scalars, 0-d arrays and Python numbers as arguments, crossed by rule (sixty-seventh session, npsweep67;
test_npsweep67.py).

What is crossed (batch 91's survivor rescaling-config-float64-scale-as-item and batch 90's concrete-numpy-spec-float32:
the suite passed Python numbers, and float32 arrays, where users pass NumPy scalars of every dtype): the argument forms
Python int/float/bool, np.float16/32/64, np.int8..int64, np.uint8..uint64, np.bool_, a 0-d array of several dtypes, a
shape-[1] array where a scalar is taken and a tensor (FORMS) fed into
- np-op-args: op attributes and scalar arguments (reduce_*/argmax/cumsum/expand_dims/concat/gather axis, gather's
  batch_dims, range/linspace/fill/one_hot/top_k/split/tile/reshape/pad constant_values/cast/round/roll shift,
  leaky_relu alpha, l2_normalize epsilon, clip_by_value bounds);
- np-convert: tf.constant/convert_to_tensor/tf.Variable of each form, with dtype None and each of five dtypes;
- np-arith: a tensor of each of six dtypes (+, -, *, /, //, **, <, ==, tf.maximum) with each form, on both sides;
- np-keras-layers / np-keras-optim: Keras layer, optimizer, schedule and loss constructor arguments of each form:
  the config value's type and value, from_config's and the to_json round trip's, and the values computed;
- np-function-data: tf.function calls with each form (values, trace counts, the concrete function's input
  signature), strategy.run args, tf.data from_tensors/from_tensor_slices/range, Model.fit with NumPy arguments.

A value is its kind (a Python or NumPy type, Tensor, Variable, ndarray), dtype, shape and values (floats as the hex of
their exact value); a refusal is its exception class. `python -m simdist.conformance.suite.test_npsweep67 --record`
rewrites npsweep67_reference.json.gz (TF 2.21 on this session's AVX-512 Xeon with oneDNN on; nothing host-dependent).
OPEN lists simdist's disagreements left out."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu
from simdist.conformance.suite.vsweep66_cases import enc, outcome

PATH = os.path.join(os.path.dirname(__file__), "npsweep67_reference.json.gz")

REF = RecordedPrograms(PATH, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-seventh session ... npsweep67").
OPEN: dict[str, tuple[str, ...]] = {}

program = registrar(REF, OPEN)

NP_SCALARS = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64")


def forms(tf: Any, v: Any, full: bool = True) -> list[tuple[str, Callable[[], Any]]]:
    """The argument forms of the value v (a non-negative number): Python, each NumPy scalar type, np.bool_, 0-d arrays,
    a shape-[1] array and tensors (`full`: every NumPy scalar type and 0-d array; else a representative few)."""
    out: list[tuple[str, Callable[[], Any]]] = [
        ("py-int", lambda: int(v)), ("py-float", lambda: float(v)), ("py-bool", lambda: bool(v))]
    kinds = NP_SCALARS if full else ("float32", "float64", "int64")
    out += [(f"np.{dt}", lambda dt=dt: getattr(np, dt)(v)) for dt in kinds]
    out += [("np.bool_", lambda: np.bool_(v))]
    out += [(f"0d-{dt}", lambda dt=dt: np.array(v, dtype=dt)) for dt in
            (("float32", "float64", "int32", "int64", "uint8", "bool") if full else ("float64", "int64"))]
    out += [("arr1-int64", lambda: np.array([v], dtype="int64")), ("arr1-float64", lambda: np.array([v], "float64"))]
    out += [("t-int32", lambda: tf.constant(int(v))), ("t-int64", lambda: tf.constant(int(v), tf.int64)),
            ("t-float32", lambda: tf.constant(float(v)))]
    if not full:
        out = [f for f in out if f[0] not in ("arr1-int64", "t-int64")]
    return out


def _x(tf: Any) -> Any:
    return tf.constant([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])


# -- (a) op attributes and scalar arguments -------------------------------------------------------------------------
def _op_args(tf: Any, mk: Any) -> Any:
    """Each op argument that takes a scalar, given in each form: the op's result or the refusal's class."""
    x = _x(tf)
    v = tf.constant([3.0, -1.0, 2.5, 0.5, -4.0, 1.25])
    ops: list[tuple[str, Any, Callable[[Any], Any]]] = [
        ("reduce_sum axis", 1, lambda a: tf.reduce_sum(x, axis=a)),
        ("reduce_mean axis", 1, lambda a: tf.reduce_mean(x, axis=a)),
        ("reduce_max axis", 1, lambda a: tf.reduce_max(x, axis=a, keepdims=True)),
        ("argmax axis", 1, lambda a: tf.argmax(x, axis=a)),
        ("cumsum axis", 1, lambda a: tf.cumsum(x, axis=a)),
        ("expand_dims axis", 1, lambda a: tf.expand_dims(x, axis=a)),
        ("concat axis", 1, lambda a: tf.concat([x, x], axis=a)),
        ("gather axis", 1, lambda a: tf.gather(x, [2, 0], axis=a)),
        ("gather batch_dims", 1, lambda a: tf.gather(x, [[1], [2]], axis=1, batch_dims=a)),
        ("range limit", 3, lambda a: tf.range(a)),
        ("range start", 2, lambda a: tf.range(a, 5)),
        ("range delta", 2, lambda a: tf.range(0, 5, a)),
        ("linspace num", 3, lambda a: tf.linspace(0.0, 1.0, num=a)),
        ("linspace stop", 2, lambda a: tf.linspace(0.0, a, 3)),
        ("fill value", 2, lambda a: tf.fill([2], a)),
        ("fill dims", 2, lambda a: tf.fill([a, 1], 1.0)),
        ("one_hot depth", 3, lambda a: tf.one_hot([0, 2, 1], depth=a)),
        ("one_hot on_value", 2, lambda a: tf.one_hot([0, 1], 2, on_value=a, off_value=0)),
        ("top_k k", 2, lambda a: list(tf.math.top_k(v, k=a))),
        ("split num", 2, lambda a: tf.split(v, num_or_size_splits=a)),
        ("split axis", 1, lambda a: tf.split(x, 3, axis=a)),
        ("tile multiples", 2, lambda a: tf.tile(v, [a])),
        ("reshape dim", 3, lambda a: tf.reshape(v, [a, -1])),
        ("pad constant_values", 2, lambda a: tf.pad(x, [[1, 0], [0, 1]], constant_values=a)),
        ("cast x", 2, lambda a: tf.cast(a, tf.float32)),
        ("cast x int8", 2, lambda a: tf.cast(a, tf.int8)),
        ("round x", 2, lambda a: tf.round(a)),
        ("roll shift", 2, lambda a: tf.roll(v, shift=a, axis=0)),
        ("roll axis", 1, lambda a: tf.roll(x, shift=1, axis=a)),
        ("leaky_relu alpha", 0.25, lambda a: tf.nn.leaky_relu(v, alpha=a)),
        ("l2_normalize epsilon", 0.5, lambda a: tf.math.l2_normalize(tf.constant([0.1, 0.2]), epsilon=a)),
        ("clip_by_value min", 0.5, lambda a: tf.clip_by_value(v, clip_value_min=a, clip_value_max=2.0)),
        ("clip_by_value max", 2, lambda a: tf.clip_by_value(v, clip_value_min=-1.0, clip_value_max=a)),
        ("squeeze axis", 0, lambda a: tf.squeeze(tf.ones([1, 2]), axis=a)),
        ("transpose perm", 1, lambda a: tf.transpose(x, perm=[a, 0])),
        ("unstack num", 2, lambda a: tf.unstack(x, num=a)),
        ("sequence_mask maxlen", 3, lambda a: tf.sequence_mask([1, 2], maxlen=a)),
        ("zeros shape", 2, lambda a: tf.zeros([a])),
        ("ones scalar shape", 2, lambda a: tf.ones(a)),
        ("dropout rate", 0.5, lambda a: tf.nn.dropout(tf.ones([3]), rate=a, seed=1) * 0),
        ("bincount minlength", 4, lambda a: tf.math.bincount(tf.constant([0, 3]), minlength=a)),
        ("bincount axis -1 maxlength", 4, lambda a: tf.math.bincount(tf.constant([[0, 3]]), minlength=4, maxlength=a,
                                                                     axis=-1)),
        ("fill dims first", 2, lambda a: tf.fill([a, 2], 0.5)),
        # (values with a fraction: a NumPy value is cast, truncated toward zero, where a Python float is refused)
        ("frac reduce_sum axis", 1.7, lambda a: tf.reduce_sum(x, axis=a)),
        ("frac cumsum axis", 1.7, lambda a: tf.cumsum(x, axis=a)),
        ("frac split axis", 1.7, lambda a: tf.split(x, 3, axis=a)),
        ("frac expand_dims axis", -1.7, lambda a: tf.expand_dims(x, axis=a)),
        ("frac one_hot depth", 2.7, lambda a: tf.one_hot([0, 1], depth=a)),
        ("frac range limit", 2.7, lambda a: tf.range(a)),
        ("frac ones shape", 2.7, lambda a: tf.ones(a)),
        ("frac fill dims", 2.7, lambda a: tf.fill([a, 1], 1.0)),
        ("frac bincount minlength", 3.7, lambda a: tf.math.bincount(tf.constant([0, 1]), minlength=a)),
        ("frac linspace num", 2.7, lambda a: tf.linspace(0.0, 1.0, a)),
        ("frac top_k k", 1.7, lambda a: list(tf.math.top_k(v, k=a))),
    ]
    traced = ("reduce_sum axis", "reduce_max axis", "cumsum axis", "split axis", "expand_dims axis", "ones scalar shape",
              "fill dims", "fill dims first", "linspace num", "sequence_mask maxlen", "bincount minlength",
              "one_hot depth", "range limit", "frac reduce_sum axis", "frac cumsum axis", "frac ones shape",
              "frac fill dims")
    out = {}
    for name, value, fn in ops:
        for fname, make in forms(tf, value):
            out[f"{name} {fname}"] = outcome(tf, lambda fn=fn, make=make: fn(make()))
            if name in traced:   # (the same call traced: op_def_library's conversion, the shape functions)
                out[f"traced {name} {fname}"] = outcome(tf, lambda fn=fn, make=make: tf.function(
                    lambda: fn(make()), autograph=False)())
    return out


program("np-op-args", _op_args)


# -- (b) conversion, dtype inference and arithmetic -----------------------------------------------------------------
def _convert(tf: Any, mk: Any) -> Any:
    """tf.constant, convert_to_tensor and tf.Variable of each form of 2.5 and 3, with dtype None and five dtypes."""
    out = {}
    for value in (2.5, 3):
        for fname, make in forms(tf, value):
            for dt in (None, "float16", "float32", "float64", "int32", "int64"):
                key = f"{value} {fname} {dt}"
                out[f"constant {key}"] = outcome(tf, lambda make=make, dt=dt: tf.constant(make(), dtype=dt))
                out[f"convert {key}"] = outcome(tf, lambda make=make, dt=dt: tf.convert_to_tensor(make(), dtype=dt))
                out[f"Variable {key}"] = outcome(tf, lambda make=make, dt=dt: tf.Variable(make(), dtype=dt))
            out[f"constant shaped {value} {fname}"] = outcome(tf, lambda make=make: tf.constant(make(), shape=[2]))
            out[f"zeros_like {value} {fname}"] = outcome(tf, lambda make=make: tf.zeros_like(make()))
            out[f"is_tensor {value} {fname}"] = outcome(tf, lambda make=make: tf.is_tensor(make()))
            out[f"identity {value} {fname}"] = outcome(tf, lambda make=make: tf.identity(make()))
    return out


program("np-convert", _convert)


def _arith(tf: Any, mk: Any) -> Any:
    """A tensor of each of six dtypes with each form of 2 (and 0.5) on both sides of +, -, *, /, //, **, <, == and
    tf.maximum: TF's dtype rules (the tensor's dtype wins over a NumPy scalar or a Python number) and refusals."""
    ops: list[tuple[str, Callable[[Any, Any], Any]]] = [
        ("+", lambda a, b: a + b), ("-", lambda a, b: a - b), ("*", lambda a, b: a * b), ("/", lambda a, b: a / b),
        ("//", lambda a, b: a // b), ("**", lambda a, b: a ** b), ("<", lambda a, b: a < b),
        ("==", lambda a, b: a == b), ("maximum", lambda a, b: tf.maximum(a, b))]
    out = {}
    for dt in ("float16", "float32", "float64", "int32", "int64", "uint8"):
        t = tf.constant([3, 1], dtype=dt)
        for value in (2, 0.5):
            for fname, make in forms(tf, value, full=(value == 2)):
                for oname, op in ops:
                    out[f"{dt} {oname} {value} {fname}"] = outcome(tf, lambda op=op, make=make: op(t, make()))
                    out[f"{value} {fname} {oname} {dt}"] = outcome(tf, lambda op=op, make=make: op(make(), t))
    return out


program("np-arith", _arith)


# -- (c) Keras constructor arguments ---------------------------------------------------------------------------------
def _typed(tf: Any, v: Any) -> Any:
    """A config value: its type's name and value (nests by element)."""
    if isinstance(v, dict):
        return {k: _typed(tf, x) for k, x in sorted(v.items())}
    if isinstance(v, (list, tuple)):
        return [type(v).__name__] + [_typed(tf, x) for x in v]
    if isinstance(v, str) or v is None:
        return v
    return enc(tf, v)


def _layer_case(tf: Any, make: Callable[[], Any], keys: tuple[str, ...], x: Any) -> Any:
    """The layer's config values at `keys` (types too), from_config's and the to_json round trip's, and its output
    on x (and the re-made layers' outputs)."""
    keras = tf.keras
    got: dict[str, Any] = {}
    layer = make()
    cfg = layer.get_config()
    got["config"] = {k: _typed(tf, cfg.get(k)) for k in keys}
    got["call"] = outcome(tf, lambda: layer(x))
    again = type(layer).from_config(cfg)
    got["from_config"] = {k: _typed(tf, again.get_config().get(k)) for k in keys}
    got["from_config call"] = outcome(tf, lambda: again(x))

    def json_trip() -> Any:
        model = keras.Sequential([keras.Input(tuple(x.shape[1:]), dtype=x.dtype), make()])
        text = model.to_json()
        parsed = json.loads(text)["config"]["layers"][-1]["config"]
        remade = keras.models.model_from_json(text)
        return [{k: _typed(tf, parsed.get(k)) for k in keys},
                {k: _typed(tf, remade.layers[-1].get_config().get(k)) for k in keys}]
    got["to_json"] = _safe(tf, json_trip)
    return got


def _keras_layers(tf: Any, mk: Any) -> Any:
    """Keras layers made with each form of their scalar arguments: configs, round trips and outputs."""
    keras = tf.keras
    L = keras.layers
    x2 = tf.constant([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]])
    img = tf.reshape(tf.range(32, dtype=tf.float32) / 8.0, [1, 4, 4, 2])
    cases: list[tuple[str, Any, Callable[[Any], Any], tuple[str, ...], Any]] = [
        ("Dense units", 3, lambda a: L.Dense(units=a, kernel_initializer="ones"), ("units",), x2),
        ("Dropout rate", 0.5, lambda a: L.Dropout(rate=a), ("rate",), x2),
        ("Rescaling scale", 1 / 255, lambda a: L.Rescaling(scale=a), ("scale", "offset"), x2),
        ("Rescaling offset", 0.5, lambda a: L.Rescaling(scale=2.0, offset=a), ("scale", "offset"), x2),
        ("Rescaling float64 scale", 1 / 255, lambda a: L.Rescaling(scale=a, dtype="float64"), ("scale",),
         tf.constant([[255.0, 3.0]], tf.float64)),
        ("Normalization mean", 0.5, lambda a: L.Normalization(mean=a, variance=4.0), ("mean", "variance"), x2),
        ("Normalization variance", 2, lambda a: L.Normalization(mean=1.0, variance=a), ("mean", "variance"), x2),
        ("Embedding input_dim", 5, lambda a: L.Embedding(input_dim=a, output_dim=2, embeddings_initializer="ones"),
         ("input_dim", "output_dim"), tf.constant([[1, 4]])),
        ("Conv2D filters", 2, lambda a: L.Conv2D(filters=a, kernel_size=2, kernel_initializer="ones"),
         ("filters", "kernel_size"), img),
        ("Conv2D kernel_size", 2, lambda a: L.Conv2D(filters=1, kernel_size=a, kernel_initializer="ones"),
         ("filters", "kernel_size", "strides"), img),
        ("Conv2D strides", 2, lambda a: L.Conv2D(1, 2, strides=a, kernel_initializer="ones"), ("strides",), img),
        ("MaxPooling2D pool_size", 2, lambda a: L.MaxPooling2D(pool_size=a), ("pool_size", "strides"), img),
        ("LeakyReLU negative_slope", 0.25, lambda a: L.LeakyReLU(negative_slope=a), ("negative_slope",), x2),
        ("BatchNormalization epsilon", 0.5, lambda a: L.BatchNormalization(epsilon=a), ("epsilon", "momentum"), x2),
        ("BatchNormalization momentum", 0.5, lambda a: L.BatchNormalization(momentum=a), ("momentum",), x2),
        ("LayerNormalization epsilon", 0.5, lambda a: L.LayerNormalization(epsilon=a), ("epsilon",), x2),
        ("ReLU max_value", 2, lambda a: L.ReLU(max_value=a), ("max_value", "threshold"), x2),
        ("Reshape target", 3, lambda a: L.Reshape((a, 2)), ("target_shape",), tf.ones([1, 6])),
        ("RepeatVector n", 2, lambda a: L.RepeatVector(a), ("n",), x2),
        ("Softmax axis", 1, lambda a: L.Softmax(axis=a), ("axis",), x2),
        ("GaussianNoise stddev", 0.5, lambda a: L.GaussianNoise(stddev=a), ("stddev",), x2),
        ("ActivityRegularization l1", 0.5, lambda a: L.ActivityRegularization(l1=a), ("l1", "l2"), x2),
        ("CategoryEncoding num_tokens", 4, lambda a: L.CategoryEncoding(num_tokens=a), ("num_tokens",),
         tf.constant([[0, 3]])),
    ]
    out = {}
    for name, value, make, keys, x in cases:
        for fname, fmake in forms(tf, value, full=False):
            out[f"{name} {fname}"] = _safe(tf, lambda make=make, fmake=fmake, keys=keys, x=x: _layer_case(
                tf, lambda: make(fmake()), keys, x))
    return out


def _safe(tf: Any, fn: Callable[[], Any]) -> Any:
    """fn()'s result (already JSON-shaped), or "raised <class>"."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


program("np-keras-layers", _keras_layers)


def _spec(tf: Any, s: Any) -> Any:
    """A structured input signature element: a TensorSpec as [dtype, shape, name]; a Python value as its type/value."""
    if isinstance(s, tf.TensorSpec):
        return ["TensorSpec", s.dtype.name, None if s.shape.rank is None else s.shape.as_list(), s.name]
    if isinstance(s, (list, tuple)):
        return [_spec(tf, x) for x in s]
    if isinstance(s, dict):
        return {k: _spec(tf, x) for k, x in sorted(s.items())}
    return enc(tf, s)


def _hyper(tf: Any, opt: Any, keys: tuple[str, ...]) -> Any:
    """An optimizer's or schedule's config values at keys (types too), and its from_config's."""
    cfg = opt.get_config()
    again = type(opt).from_config(cfg).get_config()
    return [{k: _typed(tf, cfg.get(k)) for k in keys}, {k: _typed(tf, again.get(k)) for k in keys}]


def _keras_optim(tf: Any, mk: Any) -> Any:
    """Optimizers' hyperparameters, schedules' and losses' arguments in each form: config values (types too), the
    from_config round trip, two steps' variable values, the schedule's values, the loss's value."""
    keras = tf.keras
    O = keras.optimizers
    S = O.schedules
    opts: list[tuple[str, Any, Callable[[Any], Any], tuple[str, ...]]] = [
        ("SGD learning_rate", 0.5, lambda a: O.SGD(learning_rate=a), ("learning_rate", "momentum")),
        ("SGD momentum", 0.5, lambda a: O.SGD(learning_rate=0.1, momentum=a), ("momentum",)),
        ("Adam learning_rate", 0.25, lambda a: O.Adam(learning_rate=a), ("learning_rate",)),
        ("Adam beta_1", 0.5, lambda a: O.Adam(learning_rate=0.1, beta_1=a), ("beta_1", "beta_2", "epsilon")),
        ("Adam epsilon", 0.5, lambda a: O.Adam(learning_rate=0.1, epsilon=a), ("epsilon",)),
        ("RMSprop rho", 0.5, lambda a: O.RMSprop(learning_rate=0.1, rho=a), ("rho",)),
        ("SGD clipnorm", 0.5, lambda a: O.SGD(learning_rate=0.1, clipnorm=a), ("clipnorm",)),
        ("SGD weight_decay", 0.5, lambda a: O.SGD(learning_rate=0.1, weight_decay=a), ("weight_decay",)),
    ]
    out: dict[str, Any] = {}
    for name, value, make, keys in opts:
        for fname, fmake in forms(tf, value, full=False):
            def steps(make: Any = make, fmake: Any = fmake, keys: Any = keys) -> Any:
                opt = make(fmake())
                got = _hyper(tf, opt, keys)
                v = tf.Variable([1.0, -2.0, 0.5])
                for g in ([0.5, 0.25, -1.0], [1.0, 2.0, 3.0]):
                    opt.apply_gradients([(tf.constant(g), v)])
                return got + [enc(tf, v), enc(tf, np.asarray(opt.learning_rate))]
            out[f"{name} {fname}"] = _safe(tf, steps)
    scheds: list[tuple[str, Any, Callable[[Any], Any], tuple[str, ...]]] = [
        ("ExponentialDecay initial", 0.5, lambda a: S.ExponentialDecay(a, 10, 0.5), ("initial_learning_rate",)),
        ("ExponentialDecay steps", 4, lambda a: S.ExponentialDecay(0.5, a, 0.5), ("decay_steps",)),
        ("ExponentialDecay rate", 0.5, lambda a: S.ExponentialDecay(0.5, 4, a), ("decay_rate",)),
        ("ExponentialDecay staircase steps", 4, lambda a: S.ExponentialDecay(0.5, a, 0.5, staircase=True),
         ("decay_steps",)),
        ("PiecewiseConstant boundary", 2, lambda a: S.PiecewiseConstantDecay([a], [1.0, 0.5]), ("boundaries",)),
        ("PiecewiseConstant value", 0.5, lambda a: S.PiecewiseConstantDecay([2], [1.0, a]), ("values",)),
        ("CosineDecay steps", 4, lambda a: S.CosineDecay(0.5, a), ("decay_steps", "initial_learning_rate")),
        ("CosineDecay alpha", 0.5, lambda a: S.CosineDecay(0.5, 8, alpha=a), ("alpha",)),
        ("InverseTimeDecay rate", 0.5, lambda a: S.InverseTimeDecay(0.5, 4, a), ("decay_rate",)),
        ("PolynomialDecay power", 2, lambda a: S.PolynomialDecay(0.5, 8, 0.1, power=a), ("power",)),
    ]
    for name, value, make, keys in scheds:
        for fname, fmake in forms(tf, value, full=False):
            def sched(make: Any = make, fmake: Any = fmake, keys: Any = keys) -> Any:
                s = make(fmake())
                vals = [outcome(tf, lambda step=step: s(step)) for step in (0, 3, np.int64(5), tf.constant(6))]
                return _hyper(tf, s, keys) + vals
            out[f"{name} {fname}"] = _safe(tf, sched)
    y, p = tf.constant([[0.0, 1.0, 3.0]]), tf.constant([[0.25, 2.5, 0.5]])
    losses: list[tuple[str, Any, Callable[[Any], Any], tuple[str, ...]]] = [
        ("Huber delta", 0.5, lambda a: keras.losses.Huber(delta=a), ("delta",)),
        ("CategoricalCrossentropy label_smoothing", 0.5,
         lambda a: keras.losses.CategoricalCrossentropy(label_smoothing=a), ("label_smoothing",)),
        ("BinaryCrossentropy label_smoothing", 0.5, lambda a: keras.losses.BinaryCrossentropy(label_smoothing=a),
         ("label_smoothing",)),
    ]
    for name, value, make, keys in losses:
        for fname, fmake in forms(tf, value, full=False):
            def loss(make: Any = make, fmake: Any = fmake, keys: Any = keys) -> Any:
                lo = make(fmake())
                cfg = lo.get_config()
                again = type(lo).from_config(cfg)
                yy, pp = (y, p) if "Huber" in name else (tf.constant([[0.0, 1.0, 0.0]]), tf.constant([[.25, .5, .25]]))
                return [{k: _typed(tf, cfg.get(k)) for k in keys},
                        {k: _typed(tf, again.get_config().get(k)) for k in keys},
                        outcome(tf, lambda: lo(yy, pp)), outcome(tf, lambda: again(yy, pp))]
            out[f"{name} {fname}"] = _safe(tf, loss)
    return out


program("np-keras-optim", _keras_optim)


# -- (d) tf.function, strategies, tf.data and Model.fit ---------------------------------------------------------------
def _function_data(tf: Any, mk: Any) -> Any:
    """tf.function called with each form (values, trace counts over two values, the concrete function's input
    signature and a call of it), strategy.run args, Dataset.from_tensors/from_tensor_slices/range/batch/take."""
    out: dict[str, Any] = {}
    s = mk()
    for fname, make in forms(tf, 2):
        def traced(make: Any = make, fname: str = fname) -> Any:
            f = tf.function(lambda a: a * 2)
            first = outcome(tf, lambda: f(make()))
            other = [f for f2, f in forms(tf, 3) if f2 == fname][0]
            second = outcome(tf, lambda: f(other()))
            again = outcome(tf, lambda: f(make()))
            return [first, second, again, f.experimental_get_tracing_count()]
        out[f"call {fname}"] = _safe(tf, traced)

        def concrete(make: Any = make) -> Any:
            f = tf.function(lambda a: tf.cast(a, tf.float32) + 1)
            cf = f.get_concrete_function(make())
            return [_spec(tf, cf.structured_input_signature), [_spec(tf, t) for t in cf.inputs and [
                tf.TensorSpec(i.shape, i.dtype) for i in cf.inputs]], outcome(tf, lambda: cf(make()))]
        out[f"concrete {fname}"] = _safe(tf, concrete)

        def signature(make: Any = make) -> Any:
            f = tf.function(lambda a: a + 1, input_signature=[tf.TensorSpec([], tf.float32)])
            return outcome(tf, lambda: f(make()))
        out[f"float32 signature {fname}"] = _safe(tf, signature)
        out[f"run {fname}"] = _safe(tf, lambda make=make: outcome(tf, lambda: list(s.experimental_local_results(
            s.run(lambda a: a * 2, args=(make(),))))))
        out[f"from_tensors {fname}"] = _safe(tf, lambda make=make: outcome(tf, lambda: [
            tf.data.Dataset.from_tensors(make()).element_spec.dtype.name,
            list(tf.data.Dataset.from_tensors(make()).as_numpy_iterator())]))
        out[f"range {fname}"] = _safe(tf, lambda make=make: outcome(tf, lambda: [
            tf.data.Dataset.range(make()).element_spec.dtype.name, list(tf.data.Dataset.range(make()).as_numpy_iterator())]))
        out[f"batch {fname}"] = _safe(tf, lambda make=make: outcome(tf, lambda: [
            [list(b) for b in tf.data.Dataset.range(5).batch(make()).as_numpy_iterator()]]))
        out[f"take {fname}"] = _safe(tf, lambda make=make: outcome(tf, lambda: list(
            tf.data.Dataset.range(5).take(make()).as_numpy_iterator())))
    for fname, make in forms(tf, 2.7, full=False):   # (a NumPy count with a fraction: cast, truncated)
        out[f"frac range {fname}"] = outcome(tf, lambda make=make: list(tf.data.Dataset.range(make()).as_numpy_iterator()))
        out[f"frac batch {fname}"] = outcome(tf, lambda make=make: [list(b) for b in tf.data.Dataset.range(5).batch(
            make()).as_numpy_iterator()])
        out[f"frac skip {fname}"] = outcome(tf, lambda make=make: list(tf.data.Dataset.range(5).skip(
            make()).as_numpy_iterator()))
    for dt in ("float16", "float32", "float64", "int32", "int64", "uint8", "bool"):
        arr = np.array([1, 0, 2], dtype=dt)
        out[f"from_tensor_slices {dt}"] = outcome(tf, lambda arr=arr: [
            tf.data.Dataset.from_tensor_slices(arr).element_spec.dtype.name,
            list(tf.data.Dataset.from_tensor_slices(arr).as_numpy_iterator())])
        out[f"from_tensor_slices list of {dt} scalars"] = outcome(tf, lambda arr=arr: [
            tf.data.Dataset.from_tensor_slices(list(arr)).element_spec.dtype.name,
            list(tf.data.Dataset.from_tensor_slices(list(arr)).as_numpy_iterator())])
    return out


program("np-function-data", _function_data)


def _fit(tf: Any, mk: Any) -> Any:
    """Model.fit with x float64 / int64 arrays, batch_size=np.int64(4), epochs=np.int32(2), a NumPy learning rate and
    loss weights: the history and the weights after."""
    keras = tf.keras
    out: dict[str, Any] = {}
    x64 = (np.arange(16, dtype="float64").reshape(8, 2) / 8.0)
    y64 = np.arange(8, dtype="float64").reshape(8, 1) / 4.0
    for name, x, y, kw in (
            ("float64 x numpy args", x64, y64, {"batch_size": np.int64(4), "epochs": np.int32(2)}),
            ("int64 x numpy args", (x64 * 8).astype("int64"), y64.astype("int64"),
             {"batch_size": np.int32(3), "epochs": np.int64(1)}),
            ("float32 x 0d batch", x64.astype("float32"), y64.astype("float32"),
             {"batch_size": np.array(4), "epochs": 1}),
            ("float64 x uint8 epochs", x64, y64, {"batch_size": 8, "epochs": np.uint8(2), "initial_epoch": np.int64(1)})):
        def fit(x: Any = x, y: Any = y, kw: Any = kw) -> Any:
            keras.utils.set_random_seed(7)
            model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
            model.compile(optimizer=keras.optimizers.SGD(np.float64(0.125)), loss="mse",
                          loss_weights=np.float32(0.5))
            hist = model.fit(x, y, shuffle=False, verbose=0, **kw)
            return [{k: [float(v).hex() for v in vs] for k, vs in sorted(hist.history.items())},
                    [enc(tf, w) for w in model.get_weights()], enc(tf, model.predict(x[:2], verbose=0))]
        out[name] = _safe(tf, fit)
    return out


program("np-fit", _fit)

"""spell25b (issue 29): optimizers and layers through every spelling of the same computation —
exclude_from_weight_decay by one name, several names, variables or both; the learning rate set by the constructor
or by the `learning_rate` setter (float, schedule, callable), given as int / NumPy / float, and a decay schedule
through get_config/from_config, serialize/deserialize and get; activations by string, function, get(), the
Activation layer, a layer's `activation=`, the LeakyReLU layer, keras.ops and tf.nn (whose defaults differ);
a mask from Embedding(mask_zero), from Masking, given explicitly, or both; a functional model on a list of Inputs
fed a list, a tuple or a dict keyed by the inputs' names.

Expected values: NumPy float64 transcriptions of Keras 3.15 (keras/src/optimizers/base_optimizer.py:
`var -= var * weight_decay * lr` unless excluded by variable or by re.search of any name; the learning-rate
setter drops the learning-rate variable for a schedule or callable; a learning rate must be a Python float (TF
2.21 refuses int, np.float32 and tensors); schedules.py's formulas, floored with staircase=True;
activations.py: gelu exact (erf) and leaky_relu slope 0.2 by default, keras.ops.gelu tanh-approximated, the
LeakyReLU layer 0.3; global_average_pooling1d: the mean over unmasked steps, an explicit mask winning over the
input's; functional.py: dict inputs matched to Inputs by name).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-6)

_NAMES = ("alpha", "beta", "gamma", "alphabet")
_INIT = {n: np.array([1.0 + i, -2.0 - i], np.float32) for i, n in enumerate(_NAMES)}
#: spelling -> (kwargs of exclude_from_weight_decay, excluded names) (names: re.search, so "alpha" is in "alphabet")
_EXCLUDE = {
    "var_names=['alpha', 'gamma']": ({"var_names": ["alpha", "gamma"]}, {"alpha", "alphabet", "gamma"}),
    "var_names=['gamma', 'alpha']": ({"var_names": ["gamma", "alpha"]}, {"alpha", "alphabet", "gamma"}),
    "var_names=['bet']": ({"var_names": ["bet"]}, {"beta", "alphabet"}),
    "var_list=[alpha, gamma]": ({"var_list": ["alpha", "gamma"]}, {"alpha", "gamma"}),
    "var_list=[beta], var_names=['gamma', 'bet']": ({"var_list": ["beta"], "var_names": ["gamma", "bet"]},
                                                     {"beta", "gamma", "alphabet"}),
}


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("opt_name", ["SGD", "AdamW"])
def test_spell25b_exclude_from_weight_decay_every_spelling(keras, tf, opt_name):
    """With zero gradients only weight decay moves a variable: var * (1 - lr * wd), except the variables
    excluded — by object (var_list), or by any of several names found anywhere in the variable's name."""
    lr, wd = 0.5, 0.1
    for how, (kwargs, excluded) in _EXCLUDE.items():
        variables = {n: keras.Variable(_INIT[n], name=n) for n in _NAMES}
        opt = getattr(keras.optimizers, opt_name)(learning_rate=lr, weight_decay=wd)
        kw = dict(kwargs)
        if "var_list" in kw:
            kw["var_list"] = [variables[n] for n in kw["var_list"]]
        opt.exclude_from_weight_decay(**kw)
        opt.apply_gradients([(tf.zeros_like(v), v) for v in variables.values()])
        for n, v in variables.items():
            want = _INIT[n].astype(np.float64) * (1.0 if n in excluded else 1.0 - lr * wd)
            assert_close(v.numpy(), want, tolerance=TOL,
                         call=f"{opt_name}(learning_rate={lr}, weight_decay={wd}).exclude_from_weight_decay({how}), "
                              "one zero-gradient step",
                         what=f"variable {n!r} ({'excluded' if n in excluded else 'decayed'})")


@clause("optim.update-rules", ref="tf221")
def test_spell25b_learning_rate_setter_and_constructor_spellings(keras, tf):
    """A learning rate given to the constructor or set later through `optimizer.learning_rate = ...` drives the
    same steps: a schedule or a callable set over a float drops the learning-rate variable (variables
    ['iteration'] as when constructed so), a float set over a float keeps it and takes the new value; an SGD step
    moves the variable by lr(step) * gradient, lr(step) of the schedule at the iterations done."""
    def sched():
        return keras.optimizers.schedules.ExponentialDecay(0.5, decay_steps=1, decay_rate=0.5)

    spellings = {
        "SGD(schedule)": (lambda: keras.optimizers.SGD(sched()), None),
        "SGD(0.1); .learning_rate = schedule": (lambda: keras.optimizers.SGD(0.1), sched),
        "SGD(lambda: 0.25)": (lambda: keras.optimizers.SGD(lambda: 0.25), None),
        "SGD(0.1); .learning_rate = lambda: 0.25": (lambda: keras.optimizers.SGD(0.1), lambda: (lambda: 0.25)),
        "SGD(0.1); .learning_rate = 0.3": (lambda: keras.optimizers.SGD(0.1), lambda: 0.3),
    }
    for how, (make, later) in spellings.items():
        opt = make()
        v = keras.Variable(np.array([1.0, -1.0], np.float32), name="v")
        opt.apply_gradients([(tf.constant([1.0, 2.0]), v)])        # builds; step at iteration 0
        first = {"SGD(schedule)": 0.5, "SGD(lambda: 0.25)": 0.25}.get(how, 0.1)
        if later is not None:
            opt.learning_rate = later()
        rates = []
        for step in (1, 2):
            rates.append(0.5 * 0.5 ** step if "schedule" in how else (0.25 if "lambda" in how else 0.3))
            opt.apply_gradients([(tf.constant([1.0, 2.0]), v)])
        want = np.array([1.0, -1.0]) - (first + sum(rates)) * np.array([1.0, 2.0])
        call = f"{how}; three apply_gradients of [1, 2]"
        assert_close(v.numpy(), want, tolerance=TOL, call=call, what="v")
        keeps_var = how.endswith("= 0.3")
        assert_equal(sorted(x.name for x in opt.variables), ["iteration", "learning_rate"] if keeps_var else
                     ["iteration"], call=call, what="names of optimizer.variables")


@clause("optim.update-rules", ref="tf221")
def test_spell25b_learning_rate_argument_forms(keras, tf):
    """Keras 3.15 takes a Python float (np.float64 is one), a schedule or a callable as the learning rate and
    refuses an int, an np.float32 and a tensor with its ValueError; a float of 1.0 steps like the float 1.0."""
    for lr in (1, np.float32(0.5), np.int64(1)):
        with raises(ValueError, match="learning_rate", call=f"SGD(learning_rate={lr!r} of {type(lr).__name__})"):
            keras.optimizers.SGD(learning_rate=lr)
    with raises(ValueError, match="learning_rate", call="SGD(learning_rate=tf.constant(0.5))"):
        keras.optimizers.SGD(learning_rate=tf.constant(0.5))
    for lr in (1.0, np.float64(1.0)):
        opt = keras.optimizers.SGD(learning_rate=lr)
        v = keras.Variable(np.array([1.0, -1.0], np.float32), name="v")
        opt.apply_gradients([(tf.constant([0.5, 0.25]), v)])
        assert_close(v.numpy(), [0.5, -1.25], tolerance=TOL, call=f"SGD(learning_rate={lr!r}), one step of [0.5, 0.25]",
                     what="v")


_SCHEDULES = {   # name -> (constructor kwargs, lr(step) in NumPy with staircase=True)
    "ExponentialDecay": ({"initial_learning_rate": 1.0, "decay_steps": 2, "decay_rate": 0.5, "staircase": True},
                         lambda s: 1.0 * 0.5 ** math.floor(s / 2)),
    "InverseTimeDecay": ({"initial_learning_rate": 1.0, "decay_steps": 2, "decay_rate": 0.5, "staircase": True},
                         lambda s: 1.0 / (1.0 + 0.5 * math.floor(s / 2))),
}


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("name", sorted(_SCHEDULES))
def test_spell25b_decay_schedule_survives_every_config_round_trip(keras, tf, name):
    """A staircase decay schedule, alone or inside an optimizer, comes back with its staircase through
    from_config(get_config()), deserialize(serialize()) and optimizers.get(serialize()): the learning rate after
    3 steps is lr(3) of the floored formula."""
    kwargs, formula = _SCHEDULES[name]
    sched = getattr(keras.optimizers.schedules, name)(**kwargs)
    schedules = keras.optimizers.schedules
    copies = {
        "the schedule": sched,
        "Schedule.from_config(get_config())": type(sched).from_config(sched.get_config()),
        "schedules.deserialize(schedules.serialize())": schedules.deserialize(schedules.serialize(sched)),
    }
    for how, s in copies.items():
        for step in (1, 3, 4):
            assert_close(float(np.asarray(s(step))), formula(step), tolerance=TOL,
                         call=f"{name}(staircase=True): {how}", what=f"lr({step})")
    opt = keras.optimizers.SGD(learning_rate=sched)
    opts = {
        "SGD(schedule)": opt,
        "SGD.from_config(get_config())": keras.optimizers.SGD.from_config(opt.get_config()),
        "optimizers.deserialize(serialize())": keras.optimizers.deserialize(keras.optimizers.serialize(opt)),
        "optimizers.get(serialize())": keras.optimizers.get(keras.optimizers.serialize(opt)),
    }
    for how, o in opts.items():
        v = keras.Variable(np.array([1.0], np.float32), name="v")
        for _ in range(3):
            o.apply_gradients([(tf.constant([0.0]), v)])
        assert_close(float(np.asarray(o.learning_rate)), formula(3), tolerance=TOL,
                     call=f"{how} with {name}(staircase=True), after 3 steps", what="optimizer.learning_rate")


_GRID = np.linspace(-3.0, 3.0, 13).astype(np.float32)


def _gelu(x: np.ndarray, approximate: bool) -> np.ndarray:
    x = x.astype(np.float64)
    if approximate:
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


@clause("keras.layer.call", ref="tf221")
def test_spell25b_activation_defaults_by_spelling(keras, tf):
    """gelu is exact (erf) through keras.activations, get("gelu"), Activation("gelu"), Dense(activation="gelu") and
    tf.nn.gelu, tanh-approximated through keras.ops.gelu; leaky_relu has slope 0.2 through keras.activations,
    get(), Activation("leaky_relu"), Dense(activation=...), keras.ops and tf.nn, 0.3 through the LeakyReLU layer."""
    x = _GRID.reshape(13, 1)

    def dense(act):
        layer = keras.layers.Dense(1, activation=act, use_bias=False, kernel_initializer="ones")
        return layer(x)

    exact, approx = _gelu(x, False), _gelu(x, True)
    slope2 = np.where(x >= 0, x, 0.2 * x)
    slope3 = np.where(x >= 0, x, 0.3 * x)
    cases = {
        "keras.activations.gelu(x)": (keras.activations.gelu(x), exact),
        "keras.activations.get('gelu')(x)": (keras.activations.get("gelu")(x), exact),
        "keras.layers.Activation('gelu')(x)": (keras.layers.Activation("gelu")(x), exact),
        "Dense(1, activation='gelu', kernel ones)(x)": (dense("gelu"), exact),
        "tf.nn.gelu(x)": (tf.nn.gelu(x), exact),
        "keras.ops.gelu(x)": (keras.ops.gelu(x), approx),
        "keras.ops.gelu(x, approximate=False)": (keras.ops.gelu(x, approximate=False), exact),
        "keras.activations.leaky_relu(x)": (keras.activations.leaky_relu(x), slope2),
        "keras.activations.get('leaky_relu')(x)": (keras.activations.get("leaky_relu")(x), slope2),
        "keras.layers.Activation('leaky_relu')(x)": (keras.layers.Activation("leaky_relu")(x), slope2),
        "Dense(1, activation='leaky_relu', kernel ones)(x)": (dense("leaky_relu"), slope2),
        "keras.ops.leaky_relu(x)": (keras.ops.leaky_relu(x), slope2),
        "tf.nn.leaky_relu(x)": (tf.nn.leaky_relu(x), slope2),
        "keras.layers.LeakyReLU()(x)": (keras.layers.LeakyReLU()(x), slope3),
    }
    for call, (got, want) in cases.items():
        assert_close(np.asarray(got), want, tolerance=TOL, call=call + " on linspace(-3, 3, 13)", what="out")


_TOKENS = np.array([[1, 2, 0, 0], [3, 0, 4, 2], [0, 1, 0, 0]], np.int64)
_TABLE = np.array([[0.0, 0.0], [1.0, -1.0], [0.5, 2.0], [-1.5, 0.25], [3.0, 1.0]], np.float32)
_OTHER_MASK = np.array([[True, True, True, False], [True, False, False, False], [True, True, True, True]])


def _masked_mean(v: np.ndarray, mask: np.ndarray) -> np.ndarray:
    m = mask[..., None].astype(np.float64)
    return (v * m).sum(axis=1) / m.sum(axis=1)


@clause("keras.mask.propagation", ref="tf221")
def test_spell25b_global_average_pooling_mask_every_spelling(keras, tf):
    """GlobalAveragePooling1D averages the unmasked steps, the mask coming from Embedding(mask_zero=True) (a direct
    call, a functional model, a Sequential), from Masking(0.0), or given explicitly as mask= (a tensor or a NumPy
    array) — and an explicit mask given beside the input's own wins over it (Keras fills `mask` from the input only
    when it is None; a NumPy mask is not a tensor argument, so only that rule keeps it)."""
    emb = keras.layers.Embedding(5, 2, mask_zero=True)
    emb.build((None, 4))
    emb.set_weights([_TABLE])
    gap = keras.layers.GlobalAveragePooling1D()
    plain = tf.constant(_TABLE[_TOKENS])
    inp = keras.Input((4,), dtype="int64")
    functional = keras.Model(inp, gap(emb(inp)))
    sequential = keras.Sequential([keras.Input((4,), dtype="int64"), emb, keras.layers.GlobalAveragePooling1D()])
    by_tokens = _masked_mean(_TABLE[_TOKENS], _TOKENS != 0)
    cases = {
        "gap(emb(tokens))": (gap(emb(_TOKENS)), by_tokens),
        "functional Input -> Embedding -> GAP": (functional(_TOKENS), by_tokens),
        "Sequential([Embedding, GAP])": (sequential(_TOKENS), by_tokens),
        "gap(Masking(0.0)(embedded))": (gap(keras.layers.Masking(0.0)(plain)), by_tokens),
        "gap(embedded, mask=tokens != 0)": (gap(plain, mask=tf.constant(_TOKENS != 0)), by_tokens),
        "gap(emb(tokens), mask=other)": (gap(emb(_TOKENS), mask=tf.constant(_OTHER_MASK)),
                                         _masked_mean(_TABLE[_TOKENS], _OTHER_MASK)),
        "gap(emb(tokens), mask=other as NumPy)": (gap(emb(_TOKENS), mask=_OTHER_MASK),
                                                  _masked_mean(_TABLE[_TOKENS], _OTHER_MASK)),
        "gap(embedded, mask=tokens != 0 as NumPy)": (gap(plain, mask=_TOKENS != 0), by_tokens),
    }
    for call, (got, want) in cases.items():
        assert_close(np.asarray(got), want, tolerance=TOL, call=call, what="pooled (3, 2)")


_Z = np.array([[1.0, 2.0], [-0.5, 0.25], [3.0, -1.0]], np.float32)
_A = np.array([[0.5, -1.0], [2.0, 1.5], [-2.0, 0.75]], np.float32)
_KD = np.array([[1.0], [-0.5], [0.25], [2.0]], np.float32)


@clause("keras.model.call", ref="tf221")
def test_spell25b_functional_list_inputs_fed_as_list_tuple_or_dict(keras):
    """A functional model on the Input list [zeta, alpha] (names not in sorted order) computes the same from a
    list, a tuple, or a dict keyed by the inputs' names, in call, predict and evaluate: concat(zeta, alpha) @ K."""
    z = keras.Input((2,), name="zeta")
    a = keras.Input((2,), name="alpha")
    model = keras.Model([z, a], keras.layers.Dense(1, use_bias=False)(keras.layers.Concatenate()([z, a])))
    model.set_weights([_KD])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    want = np.concatenate([_Z, _A], axis=1).astype(np.float64) @ _KD
    y = np.zeros((3, 1), np.float32)
    spellings = {"[zeta, alpha]": [_Z, _A], "(zeta, alpha)": (_Z, _A), "{'zeta', 'alpha'}": {"zeta": _Z, "alpha": _A},
                 "{'alpha', 'zeta'} (other key order)": {"alpha": _A, "zeta": _Z}}
    for how, feed in spellings.items():
        assert_close(np.asarray(model(feed)), want, tolerance=TOL, call=f"model({how})", what="out")
        assert_close(model.predict(feed, verbose=0), want, tolerance=TOL, call=f"model.predict({how})", what="out")
        assert_close(model.evaluate(feed, y, verbose=0), (want ** 2).mean(), tolerance=TOL,
                     call=f"model.evaluate({how}, zeros)", what="loss")

"""`tf.keras.config`'s global switches and Lambda layers of Python lambdas — clauses keras.config.globals
and keras.layer.lambda-serialization (TF 2.21 + Keras 3.15: keras/src/backend/config.py,
keras/src/trainers/epoch_iterator.py, keras/src/utils/io_utils.py, keras/src/utils/traceback_utils.py,
keras/src/layers/attention/multi_head_attention.py, keras/src/layers/core/lambda_layer.py,
keras/src/saving/serialization_lib.py).

Expected values come from Keras's rules written here (the capped epoch iterator below), never from the
backend. Every test puts the switches it touches back to their defaults.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import tempfile
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.suite.log_records import LogRecords

clause = pytest.mark.clause

X = np.arange(20, dtype=np.float32).reshape(10, 2) / 10.0
Y = np.ones((10, 1), np.float32)


@pytest.fixture
def config(keras):
    """keras.config, with the switches back at their defaults afterwards."""
    c = keras.config
    yield c
    c.set_max_epochs(None)
    c.set_max_steps_per_epoch(None)
    c.enable_interactive_logging()
    c.enable_traceback_filtering()
    c.enable_flash_attention()


def _model(keras):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(keras.optimizers.SGD(0.01), "mse")
    return model


def _capped_iterations(batches: int, steps: int, epochs: int) -> tuple[int, int]:
    """(epochs run, optimizer steps) of Keras's EpochIterator over an array of `batches` batches whose
    epoch is capped at `steps` < batches: the iterator carries over between epochs and an epoch stops
    early when the data runs out (with the "ran out of data" warning), then starts again."""
    seen, total = 0, 0
    for _ in range(epochs):
        for _ in range(steps):
            if seen >= batches:
                break
            seen += 1
            total += 1
        if seen >= batches:
            seen = 0
    return epochs, total


def _warnings(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(x.message) for x in w]


@clause("keras.config.globals", ref="tf221")
def test_keras_config_caps_limit_fit_evaluate_and_predict(keras, config):
    assert_equal((config.max_epochs(), config.max_steps_per_epoch()), (None, None),
                 call="keras.config.max_epochs(), max_steps_per_epoch()", what="defaults")
    config.set_max_epochs(2)
    config.set_max_steps_per_epoch(3)
    model = _model(keras)
    h, warned = _warnings(lambda: model.fit(X, Y, epochs=5, batch_size=2, verbose=0))
    epochs, steps = _capped_iterations(batches=5, steps=3, epochs=2)
    call = "set_max_epochs(2), set_max_steps_per_epoch(3); fit(10 rows, epochs=5, batch_size=2)"
    assert_equal(len(h.history["loss"]), epochs, call=call, what="epochs run")
    assert_equal(int(model.optimizer.iterations.numpy()), steps, call=call,
                 what="optimizer.iterations (the capped epoch's iterator carries over)")
    for text in ("Limiting epochs to 2", "Limiting steps_per_epoch to 3", "Your input ran out of data"):
        assert_true(any(m.startswith(text) for m in warned), f"no warning {text!r}, got {warned}", call=call)
    p, warned = _warnings(lambda: model.predict(X, batch_size=2, verbose=0))
    assert_equal(p.shape, (6, 1), call="predict(10 rows, batch_size=2) under set_max_steps_per_epoch(3)",
                 what="predictions (3 batches of 2)")
    assert_true("Limiting steps_per_epoch to 3" in warned, f"warnings {warned}, but should hold "
                "'Limiting steps_per_epoch to 3'", call="predict(...) under set_max_steps_per_epoch(3)")
    _, warned = _warnings(lambda: model.evaluate(X, Y, batch_size=2, steps=2, verbose=0))
    assert_true(not any(m.startswith("Limiting") for m in warned), f"a cap warning {warned}, but steps=2 is under "
                "the cap", call="evaluate(steps=2) under set_max_steps_per_epoch(3)")


@clause("keras.config.globals", ref="tf221")
@pytest.mark.parametrize("interactive", [True, False])
def test_keras_config_interactive_logging_chooses_stdout_or_absl(keras, config, interactive):
    if not interactive:
        keras.utils.disable_interactive_logging()
    assert_equal(config.is_interactive_logging_enabled(), interactive, call="is_interactive_logging_enabled()",
                 what="the switch")
    model = _model(keras)
    absl = logging.getLogger("absl")
    handler, level = LogRecords(logging.INFO), absl.level
    absl.addHandler(handler)
    absl.setLevel(logging.INFO)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            stop = keras.callbacks.EarlyStopping(monitor="loss", min_delta=100.0, patience=0, verbose=1)
            model.fit(X, Y, epochs=3, batch_size=5, verbose=2, callbacks=[stop])
            model.summary()
    finally:
        absl.removeHandler(handler)
        absl.setLevel(level)
    call = f"fit(verbose=2, EarlyStopping(verbose=1)); summary() with interactive logging {interactive}"
    stdout, records = out.getvalue(), handler.messages
    for text in ("Epoch 1/3", "early stopping", "Model: "):
        where_ok = text in stdout if interactive else any(text in m for m in records)
        assert_true(where_ok, f"{text!r} is not on {'stdout' if interactive else 'the absl logger'} (stdout "
                    f"{stdout[:200]!r}, absl records {[m[:60] for m in records]})", call=call)
    if not interactive:
        assert_equal(stdout, "", call=call, what="stdout")


@clause("keras.config.globals", ref="tf221")
def test_keras_config_traceback_filtering_controls_call_argument_messages(keras, config):
    class Bad(keras.layers.Layer):
        def call(self, x):
            raise ValueError("boom")

    messages = []
    for switch in (config.disable_traceback_filtering, config.enable_traceback_filtering):
        switch()
        try:
            Bad()(np.ones((1, 2), np.float32))
        except ValueError as e:
            messages.append(str(e))
    assert_equal(messages[0], "boom", call="disable_traceback_filtering(); a layer's call raises ValueError('boom')",
                 what="the message (as raised)")
    assert_true(messages[1].startswith("Exception encountered when calling Bad.call().") and
                "Arguments received by Bad.call():" in messages[1],
                f"message {messages[1]!r}, but should be Keras's wrapped message with the call's arguments",
                call="enable_traceback_filtering(); the same call")


@clause("keras.config.globals", ref="tf221")
def test_keras_config_flash_attention_on_the_tensorflow_backend(keras, config):
    assert_equal(config.is_flash_attention_enabled(), None, call="is_flash_attention_enabled()", what="default")
    config.disable_flash_attention()
    assert_equal(config.is_flash_attention_enabled(), False, call="disable_flash_attention()", what="the setting")
    config.enable_flash_attention()
    assert_equal(config.is_flash_attention_enabled(), None, call="enable_flash_attention()",
                 what="the setting (None: where the backend has it)")
    x = np.ones((1, 2, 4), np.float32)
    out = keras.layers.MultiHeadAttention(2, 3)(x, x)
    assert_equal(tuple(out.shape), (1, 2, 4), call="MultiHeadAttention(2, 3) after enable_flash_attention()",
                 what="output shape (the TF backend has no flash kernel, so it is not used)")
    with raises(ValueError, match="Dropout is not supported when flash attention is enabled",
                call="MultiHeadAttention(2, 3, flash_attention=True, dropout=0.1)"):
        keras.layers.MultiHeadAttention(2, 3, flash_attention=True, dropout=0.1)
    layer = keras.layers.MultiHeadAttention(2, 3, flash_attention=True)
    with raises(ValueError, match="Returning attention scores is not supported when flash attention",
                call="MultiHeadAttention(flash_attention=True)(x, x, return_attention_scores=True)"):
        layer(x, x, return_attention_scores=True)
    with raises(ValueError, match="Flash attention is not supported in tensorflow backend",
                call="MultiHeadAttention(flash_attention=True)(x, x)"):
        layer(x, x)


def _make(k: float):
    return lambda x: x * k + 1.0


@clause("keras.layer.lambda-serialization", ref="tf221")
def test_keras_lambda_layer_of_a_python_lambda_loads_only_outside_safe_mode(keras, config):
    inp = keras.Input((2,))
    model = keras.Model(inp, keras.layers.Lambda(_make(3.0), name="lam")(inp))
    cfg = model.get_layer("lam").get_config()["function"]
    got = repr((cfg["class_name"], sorted(cfg["config"]), cfg["config"]["closure"], cfg["config"]["defaults"]))
    assert_equal(got, repr(("__lambda__", ["closure", "code", "defaults"], (3.0,), None)),
                 call="Lambda(lambda x: x * k + 1.0).get_config()['function'] with k = 3.0 in the closure",
                 what="class_name, keys, closure, defaults")
    path = os.path.join(tempfile.mkdtemp(), "lambda.keras")
    model.save(path)
    with raises(ValueError, match="safe_mode=False", call="keras.models.load_model(<a Lambda of a lambda>)"):
        keras.models.load_model(path)
    with raises(ValueError, match="safe_mode=False", call="keras.layers.Lambda.from_config(<its config>)"):
        keras.layers.Lambda.from_config(model.get_layer("lam").get_config())
    x = np.array([[1.0, -2.0]], np.float32)
    loaded = keras.models.load_model(path, safe_mode=False)
    assert_close(loaded.predict(x, verbose=0), x * 3.0 + 1.0, call="load_model(path, safe_mode=False).predict(x)",
                 what="x * 3 + 1")
    layer = keras.layers.Lambda.from_config(model.get_layer("lam").get_config(), safe_mode=False)
    assert_close(layer(x), x * 3.0 + 1.0, call="Lambda.from_config(config, safe_mode=False)(x)", what="x * 3 + 1")


@clause("keras.utils.config", ref="tf221")
def test_keras_utils_config_reads_writes_and_freezes(keras):
    c = keras.utils.Config(b=1, a=2)
    c.d = 3
    c["c"] = 4
    assert_equal(repr((c.a, c["d"], len(c), list(c))), repr((2, 3, 4, ["a", "b", "c", "d"])),
                 call="Config(b=1, a=2); c.d = 3; c['c'] = 4", what="(c.a, c['d'], len(c), list(c)) (keys sorted)")
    c.freeze()
    for what, mutate in (("c.e = 5", lambda: setattr(c, "e", 5)), ("c['a'] = 0", lambda: c.__setitem__("a", 0)),
                         ("c.pop('a')", lambda: c.pop("a"))):
        with raises(ValueError, match="frozen", call=f"Config.freeze(); {what}"):
            mutate()
    c.unfreeze()
    c.e = 5
    assert_equal(c.as_dict()["e"], 5, call="unfreeze(); c.e = 5", what="c.as_dict()['e']")
    with raises(AttributeError, match="Did you mean 'learning_rate'", call="Config(learning_rate=0.1).learning_rat"):
        keras.utils.Config(learning_rate=0.1).learning_rat

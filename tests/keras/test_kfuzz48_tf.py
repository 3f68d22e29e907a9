"""The training fuzzer's kfuzz48 class against TF 2.21 (tests/fuzz_train; clause function.grappler-rewrites):
grappler's ConstantPushDown past a second leaf that is not constant.

Seed 4820261209 #48 (a custom loop applying centered RMSprop with momentum by `optimizer.apply` in a tf.function)
drifted from the first step: Keras's `velocity - square(average_grad) + epsilon` is `(X - Y) + C` with X and Y not
constant, which TF's constant folding rotates to `X + (C - Y)` (constant_folding.cc ConstantPushDown, its size check
passed: C is a scalar), where simdist pushed a constant down only past a constant Y. Each case returns the bits of
its float result (int32/int64 views: compared exactly), inputs exact (ratios of integers, correctly rounded).

And the widening's string models (seed 4820261209 #12): fit of a StringLookup or TextVectorization model on a string
tensor with validation_split, which Keras 3.15 slices as a tensor (array_slicing.train_validation_split), where
simdist made a NumPy object array of it (ValueError "Invalid dtype: object")."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _vals(n: int, salt: int, dtype: Any = np.float32) -> np.ndarray:
    """Exact inputs in [0.5, 2): 1000 distinct ratios k / 997, correctly rounded to the dtype."""
    k = (np.arange(n) * (37 + 2 * salt) + 11 * salt) % 1497 + 499
    return (k.astype(np.float64) / 997.0).astype(dtype)


def _bits(a: Any) -> np.ndarray:
    a = np.asarray(a)
    return a.view(np.int32 if a.dtype == np.float32 else np.int64)


FORMS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "(x - y) + c": lambda tf, x, y: (x - y) + 0.3,
    "c + (x - y)": lambda tf, x, y: 0.3 + (x - y),
    "(x + y) - c": lambda tf, x, y: (x + y) - 0.3,
    "(x - y) - c": lambda tf, x, y: (x - y) - 0.3,
    "c - (x - y)": lambda tf, x, y: 0.3 - (x - y),
    "c - (x + y)": lambda tf, x, y: 0.3 - (x + y),
    "(x + y) + c": lambda tf, x, y: (x + y) + 0.3,   # (re-associated again by AddOpsRewrite: as written)
    "x - square(y) + eps": lambda tf, x, y: x - tf.square(y) + 1e-7,
    "c of shape [n] + (x - y)": lambda tf, x, y: tf.constant(np.full(x.shape, 0.3, x.dtype.as_numpy_dtype)) + (x - y),
}


def _form(label: str, dtype: Any) -> Callable:
    def case(tf: Any) -> Any:
        x, y = tf.constant(_vals(2000, 1, dtype)), tf.constant(_vals(2000, 2, dtype))
        return _bits(tf.function(lambda a, b: FORMS[label](tf, a, b))(x, y))
    return case


def _form_eager(label: str) -> Callable:
    def case(tf: Any) -> Any:   # (eagerly: no grappler, as written)
        return _bits(FORMS[label](tf, tf.constant(_vals(2000, 1)), tf.constant(_vals(2000, 2))))
    return case


def _rmsprop(mode: str) -> Callable:
    """Three steps of RMSprop(centered=True, momentum=0.6) applied to a variable of 2000 elements, by
    `optimizer.apply` in a tf.function (the fuzzer's custom loop), eagerly, or by Keras's fit without XLA (a
    Dense(1) of 8 inputs fit two epochs by 4s): the variables' bits after each step."""
    def case(tf: Any) -> Any:
        if mode == "fit":
            keras = tf.keras
            model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(3, activation="tanh"),
                                      keras.layers.Dense(1)])
            model.set_weights([_vals(int(np.prod(w.shape)), 3 + i).reshape(w.shape) - 1.0
                               for i, w in enumerate(model.get_weights())])
            model.compile(optimizer=keras.optimizers.RMSprop(0.01, centered=True, momentum=0.6), loss="mse",
                          jit_compile=False)
            seen: list[Any] = []

            class Keep(keras.callbacks.Callback):
                def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
                    seen.append(_bits(np.concatenate([np.ravel(w) for w in self.model.get_weights()])))
            model.fit(_vals(64, 7).reshape(8, 8) - 1.0, _vals(8, 8).reshape(8, 1) - 1.0, batch_size=4, epochs=2,
                      shuffle=False, verbose=0, callbacks=[Keep()])
            return seen
        v = tf.Variable(_vals(2000, 4) - 1.0)
        opt = tf.keras.optimizers.RMSprop(learning_rate=0.01, centered=True, momentum=0.6)
        opt.build([v])

        def step(g: Any) -> Any:
            opt.apply([g], [v])
            return tf.constant(0.0)
        fn = tf.function(step, jit_compile=False) if mode == "function" else step
        out = []
        for s in range(3):
            fn(tf.constant(_vals(2000, 5 + s) - 1.2))
            out.append(_bits(v.numpy()))
        return out
    return case


def _string_fit(layer: str) -> Callable:
    """A model over string inputs (a tf.constant of words: Keras 3.15's array adapter refuses NumPy string arrays)
    fit with validation_split, then sample weights, then validation data: each fit's history and the weights."""
    def case(tf: Any) -> Any:
        keras = tf.keras
        words = np.array(["zero", "one", "two", "three", "four", "five"])
        tokens = ((np.arange(50) * 7 + 3) % 6).reshape(10, 5)
        if layer == "string_lookup":
            x = tf.constant(words[tokens])
            inp = keras.Input((5,), dtype="string")
            h = keras.layers.StringLookup(vocabulary=["one", "two", "three", "four"])(inp)
            h = keras.layers.Embedding(5, 3)(h)
        else:
            x = tf.constant([" ".join(r) for r in words[tokens]])
            inp = keras.Input((), dtype="string")
            tv = keras.layers.TextVectorization(max_tokens=6, output_sequence_length=6)
            tv.adapt(["one two two three", "three three four", "five one zero two", "four four four"])
            h = keras.layers.Embedding(6, 3, mask_zero=True)(tv(inp))
        h = keras.layers.GlobalAveragePooling1D()(h)
        model = keras.Model(inp, keras.layers.Dense(1)(h))
        model.set_weights([_vals(int(np.prod(w.shape)), 11 + i).reshape(w.shape) - 1.0
                           for i, w in enumerate(model.get_weights())])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        y = _vals(10, 12).reshape(10, 1) - 1.0
        out = [np.asarray(tv.get_vocabulary())] if layer == "text_vectorization" else []
        for kw in ({"validation_split": 0.2}, {"sample_weight": _vals(10, 13)}, {"validation_data": (x[:4], y[:4])}):
            hist = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0, **kw)
            out.append({k: np.asarray(v) for k, v in sorted(hist.history.items())})
            out.append(np.concatenate([np.ravel(w) for w in model.get_weights()]))
        out.append(model.predict(x[:7], batch_size=3, verbose=0))
        return out
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for label in FORMS:
        out[f"push_down/float32 {label}"] = _form(label, np.float32)
        out[f"push_down/float64 {label}"] = _form(label, np.float64)
    out["push_down/eager (x - y) + c"] = _form_eager("(x - y) + c")
    for mode in ("function", "eager", "fit"):
        out[f"rmsprop_centered/{mode}"] = _rmsprop(mode)
    out["string_inputs/string_lookup"] = _string_fit("string_lookup")
    out["string_inputs/text_vectorization"] = _string_fit("text_vectorization")
    return out


_AUTO_NAME = re.compile(r"(sequential_|functional_|input_layer_|rmsprop_|sgd_|dense_|embedding_|string_lookup_|"
                        r"text_vectorization_|global_average_pooling1d_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


def _check(tf_results: dict[int, Any], prefix: str) -> None:
    from simdist.runtime import host_cpu
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (TF's answers follow the CPU: ops.host-cpu)
        TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


@pytest.mark.clause("function.grappler-rewrites")
def test_a_constant_is_pushed_past_a_leaf_that_is_not_constant_when_a_sub_is_involved(
        tf_results: dict[int, Any]) -> None:
    _check(tf_results, "push_down/")


@pytest.mark.clause("function.grappler-rewrites")
def test_centered_rmsprop_in_a_function_follows_the_pushed_down_denominator(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "rmsprop_centered/")


@pytest.mark.clause("keras.fit.python-inputs")
def test_string_tensor_inputs_split_and_train_as_keras(tf_results: dict[int, Any]) -> None:
    """kfuzz48's widening (string models, seed 4820261209 #12): validation_split slices a tf.Tensor as it is."""
    _check(tf_results, "string_inputs/")


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)

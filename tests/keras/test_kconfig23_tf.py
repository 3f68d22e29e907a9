"""`tf.keras.config`'s global switches and Lambda layers holding Python lambdas, on simdist vs TF 2.21 +
Keras 3.15: the getters' defaults; `set_max_epochs` / `set_max_steps_per_epoch` capping fit, evaluate and
predict (the warnings, the epochs run, the optimizer's iterations when the capped epoch leaves the array
iterator part-way, the predictions' rows); interactive logging (stdout empty when disabled, the messages
on the `absl` logger instead, `Model.summary()` included); traceback filtering (a layer call's error with
and without Keras's argument block); flash attention (the stored setting, MultiHeadAttention and
GroupQueryAttention: dropout refused, attention scores refused, the call's error on the TensorFlow
backend, the einsum path it does not reach); and `keras.layers.Lambda` of a Python lambda: its config
(marshalled code, defaults, closure), a `.keras` round trip refused in safe mode, loaded with
`safe_mode=False` and after `enable_unsafe_deserialization()`, `from_config` directly, the generic
`serialize_keras_object` of a lambda, defaults that went through JSON; and `keras.utils.Config` (attributes
and items, freezing, iteration, repr, JSON, did-you-mean). Each case restores the global state it changed.
Clauses keras.config.globals, keras.layer.lambda-serialization and keras.utils.config. Its golden (tests/goldens/)
is stamped with this file.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
import tempfile
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

X = np.arange(20, dtype=np.float32).reshape(10, 2) / 10.0
Y = np.ones((10, 1), np.float32)


def _restore(tf: Any) -> None:
    """Every switch back at its default (safe mode too: Keras has no public way back, so the
    backend's own state is reset)."""
    c = tf.keras.config
    c.set_max_epochs(None)
    c.set_max_steps_per_epoch(None)
    c.enable_interactive_logging()
    c.enable_traceback_filtering()
    c.enable_flash_attention()
    if tf.__name__.startswith("simdist"):
        import simdist.keras.safe_mode as safe
        safe._SAFE_MODE = None
    else:
        from keras.src.backend.common import global_state
        global_state.set_global_attribute("safe_mode_saving", None)


def _restoring(case: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        try:
            return case(tf)
        finally:
            _restore(tf)
    return run


def _warned(fn: Callable[[], Any]) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(x.message) for x in w if "Limiting" in str(x.message) or "ran out of data" in str(x.message)]


def _model(tf: Any) -> Any:
    keras = tf.keras
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(keras.optimizers.SGD(0.01), "mse")
    return model


# -- the getters -----------------------------------------------------------------------------------------
def _defaults(tf: Any) -> Any:
    c = tf.keras.config
    u = tf.keras.utils
    return (c.is_interactive_logging_enabled(), u.is_interactive_logging_enabled(), c.is_traceback_filtering_enabled(),
            c.is_flash_attention_enabled(), c.is_nnx_enabled(), c.max_epochs(), c.max_steps_per_epoch(), c.backend())


def _toggles(tf: Any) -> Any:
    c, u = tf.keras.config, tf.keras.utils
    seen = []
    c.disable_flash_attention(); seen.append(c.is_flash_attention_enabled())      # noqa: E702
    c.enable_flash_attention(); seen.append(c.is_flash_attention_enabled())       # noqa: E702
    u.disable_interactive_logging(); seen.append(c.is_interactive_logging_enabled())  # noqa: E702
    c.enable_interactive_logging(); seen.append(u.is_interactive_logging_enabled())   # noqa: E702
    c.disable_traceback_filtering(); seen.append(c.is_traceback_filtering_enabled())  # noqa: E702
    c.set_max_epochs(3); c.set_max_steps_per_epoch(7)                              # noqa: E702
    seen += [c.max_epochs(), c.max_steps_per_epoch()]
    return tuple(seen)


# -- the debugging caps ----------------------------------------------------------------------------------
def _fit_capped(max_epochs: Any, max_steps: Any, epochs: int, batch_size: int, steps_per_epoch: Any = None,
                dataset: bool = False) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        tf.keras.config.set_max_epochs(max_epochs)
        tf.keras.config.set_max_steps_per_epoch(max_steps)
        model = _model(tf)
        if dataset:
            data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(batch_size)
            h, warned = _warned(lambda: model.fit(data, epochs=epochs, steps_per_epoch=steps_per_epoch, verbose=0))
        else:
            h, warned = _warned(lambda: model.fit(X, Y, epochs=epochs, batch_size=batch_size,
                                                  steps_per_epoch=steps_per_epoch, verbose=0))
        return (len(h.history["loss"]), int(model.optimizer.iterations.numpy()), warned)
    return case


def _eval_predict_capped(max_steps: int, steps: Any) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        tf.keras.config.set_max_steps_per_epoch(max_steps)
        model = _model(tf)
        _, w1 = _warned(lambda: model.evaluate(X, Y, batch_size=2, steps=steps, verbose=0))
        p, w2 = _warned(lambda: model.predict(X, batch_size=2, steps=steps, verbose=0))
        return (w1, w2, p.shape, p)
    return case


# -- interactive logging ---------------------------------------------------------------------------------
class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _logging(disabled: bool) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        if disabled:
            keras.config.disable_interactive_logging()
        model = _model(tf)
        absl = logging.getLogger("absl")
        handler, level = _Records(), absl.level
        absl.addHandler(handler)
        absl.setLevel(logging.INFO)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                stop = keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=100.0, verbose=1)
                model.fit(X, Y, epochs=4, batch_size=5, verbose=2, callbacks=[stop])
                model.summary()
        finally:
            absl.removeHandler(handler)
            absl.setLevel(level)
        text = out.getvalue()
        records = handler.messages
        return (text == "", "Epoch 1/4" in text, "early stopping" in text, 'Model: "sequential' in text,
                [m for m in records if m.startswith("Epoch")],
                [m.split("\n")[0] for m in records if m.lstrip().startswith("Model:")])
    return case


# -- traceback filtering ---------------------------------------------------------------------------------
def _traceback(disabled: bool) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        if disabled:
            keras.config.disable_traceback_filtering()

        class Bad(keras.layers.Layer):
            def call(self, x: Any) -> Any:
                raise ValueError("boom")

        try:
            Bad()(np.ones((1, 2), np.float32))
        except ValueError as e:
            return str(e)
        return "no error"
    return case


# -- flash attention -------------------------------------------------------------------------------------
def _attention(kind: str, flash: Any, setting: str | None = None, dropout: float = 0.0, scores: bool = False,
               rank4: bool = False) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        if setting == "disable":
            keras.config.disable_flash_attention()
        if kind == "mha":
            layer = keras.layers.MultiHeadAttention(2, 3, flash_attention=flash, dropout=dropout,
                                                    attention_axes=(1, 2) if rank4 else None,
                                                    kernel_initializer="ones")
        else:
            layer = keras.layers.GroupQueryAttention(head_dim=3, num_query_heads=2, num_key_value_heads=1,
                                                       flash_attention=flash, dropout=dropout,
                                                       kernel_initializer="ones")
        x = (np.arange(24, dtype=np.float32).reshape((1, 2, 3, 4)) if rank4
             else np.arange(8, dtype=np.float32).reshape((1, 2, 4))) / 10.0
        out = layer(x, x, return_attention_scores=scores)
        # (the values are other modules' business; shapes and dtype here, free of the host's kernels)
        return ("flash_attention" in layer.get_config(), tuple(out.shape), out.dtype.name)
    return case


# -- Lambda layers of Python lambdas ---------------------------------------------------------------------
def _make(k: float) -> Callable[[Any], Any]:
    return lambda x: x * k + 1.0


def _lambda_model(tf: Any) -> Any:
    keras = tf.keras
    inp = keras.Input((2,))
    return keras.Model(inp, keras.layers.Lambda(_make(3.0), name="lam")(inp))


def _lambda_config(tf: Any) -> Any:
    cfg = tf.keras.layers.Lambda(_make(3.0), name="lam").get_config()
    fn = cfg["function"]
    cfg2 = tf.keras.layers.Lambda(lambda x, a=2.0: x * a).get_config()["function"]["config"]
    return (fn["class_name"], sorted(fn["config"]), fn["config"]["closure"], fn["config"]["defaults"],
            cfg2["defaults"], cfg2["closure"], "output_shape" in cfg, cfg.get("arguments"))


def _lambda_load(how: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        path = os.path.join(tempfile.mkdtemp(), "m.keras")
        _lambda_model(tf).save(path)
        if how == "unsafe-switch":
            keras.config.enable_unsafe_deserialization()
        loaded = keras.models.load_model(path, safe_mode=(how != "safe_mode=False"))
        return loaded.predict(np.array([[1.0, 2.0]], np.float32), verbose=0)
    return case


def _lambda_from_config(safe_mode: Any) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        cfg = tf.keras.layers.Lambda(_make(3.0), name="lam").get_config()
        kw = {} if safe_mode == "unset" else {"safe_mode": safe_mode}
        return tf.keras.layers.Lambda.from_config(dict(cfg), **kw)(np.array([[1.0, 2.0]], np.float32))
    return case


def _lambda_json_defaults(tf: Any) -> Any:
    cfg = json.loads(json.dumps(tf.keras.layers.Lambda(lambda x, a=2.0: x * a).get_config()))
    return tf.keras.layers.Lambda.from_config(cfg, safe_mode=False)(np.ones((1, 2), np.float32))


def _generic_lambda(safe_mode: bool) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            s = tf.keras.utils.serialize_keras_object(lambda x: x + 1)
        warned = [str(x.message)[:60] for x in w]
        f = tf.keras.utils.deserialize_keras_object(json.loads(json.dumps(s)), safe_mode=safe_mode)
        return (s["class_name"], sorted(s["config"]), warned, f(41))
    return case


# -- keras.utils.Config -------------------------------------------------------------------------------------
def _utils_config(tf: Any) -> Any:
    c = tf.keras.utils.Config(learning_rate=0.1, layers=[2, 3])
    c.epochs = 4
    c["batch"] = 8
    seen = [c.learning_rate, c["epochs"], c.batch, len(c), "epochs" in c, list(c), repr(c), c.to_json(),
            c.as_dict(), c.get("nope", -1), sorted(c.keys()), c.frozen]
    c.pop("batch")
    c.update(momentum=0.9)
    del c["layers"]
    seen += [repr(c), c.frozen]
    c.freeze()
    for mutate in (lambda: setattr(c, "x", 1), lambda: c.__setitem__("x", 1), lambda: c.pop("epochs"),
                   lambda: c.update(y=2), lambda: c.__delitem__("epochs")):
        try:
            mutate()
            seen.append("no error")
        except ValueError as e:
            seen.append(str(e))
    c.unfreeze()
    c.z = 1
    seen.append(repr(c))
    for name in ("learning_rat", "zzz"):
        try:
            getattr(c, name)
        except AttributeError as e:
            seen.append(str(e))
    return seen


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {"config/defaults": _defaults, "config/toggles": _toggles,
                                          "utils_config/Config": _utils_config}
    c["caps/fit epochs 2 of 5"] = _fit_capped(2, None, 5, 2)
    c["caps/fit epochs 7 of 3 (no cap)"] = _fit_capped(7, None, 3, 5)
    c["caps/fit steps 3 of 5, iterator carried over"] = _fit_capped(2, 3, 5, 2)
    c["caps/fit steps 3 over steps_per_epoch 4"] = _fit_capped(None, 3, 2, 1, steps_per_epoch=4)
    c["caps/fit steps 4 under steps_per_epoch 2 (no cap)"] = _fit_capped(None, 4, 2, 1, steps_per_epoch=2)
    c["caps/fit dataset steps 2"] = _fit_capped(None, 2, 3, 3, dataset=True)
    c["caps/evaluate predict steps 3"] = _eval_predict_capped(3, None)
    c["caps/evaluate predict steps 3 over steps 4"] = _eval_predict_capped(3, 4)
    c["caps/evaluate predict steps 3 under steps 2"] = _eval_predict_capped(3, 2)
    c["logging/enabled"] = _logging(False)
    c["logging/disabled"] = _logging(True)
    c["traceback/enabled"] = _traceback(False)
    c["traceback/disabled"] = _traceback(True)
    for kind in ("mha", "gqa"):
        c[f"flash/{kind} default"] = _attention(kind, None)
        c[f"flash/{kind} disabled globally"] = _attention(kind, None, setting="disable")
        c[f"flash/{kind} True call"] = _attention(kind, True)
        c[f"flash/{kind} True with dropout"] = _attention(kind, True, dropout=0.1)
        c[f"flash/{kind} True returning scores"] = _attention(kind, True, scores=True)
        c[f"flash/{kind} False with dropout"] = _attention(kind, False, dropout=0.1)
    c["flash/mha True on the einsum path (rank-4 inputs)"] = _attention("mha", True, rank4=True)
    c["lambda/config"] = _lambda_config
    for how in ("safe", "safe_mode=False", "unsafe-switch"):
        c[f"lambda/load {how}"] = _lambda_load(how)
    for safe in ("unset", True, False):
        c[f"lambda/from_config safe_mode={safe}"] = _lambda_from_config(safe)
    c["lambda/defaults through JSON"] = _lambda_json_defaults
    c["lambda/generic serialize, safe"] = _generic_lambda(True)
    c["lambda/generic serialize, unsafe"] = _generic_lambda(False)
    return {k: _restoring(v) for k, v in c.items()}


_AUTO_NAME = re.compile(r"\b(sequential|dense|lam|input_layer|functional|bad|multi_head_attention|"
                        r"group_query_attention|lambda)(_\d+)?\b")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.config.globals")
@pytest.mark.clause("keras.layer.lambda-serialization")
@pytest.mark.clause("keras.utils.config")
@pytest.mark.parametrize("prefix", ["config/", "caps/", "logging/", "traceback/", "flash/", "lambda/",
                                    "utils_config/"])
def test_kconfig23_cases_match_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""tf.errors' constructors and attributes against TF 2.21 (the forty-eighth session, helper open48; clause
runtime.error-classes; simdist/runtime/errors.py `OpError`, `_make`; keras/layers/layer.py `_inference_error`).

TF's OpError takes (node_def, op, message, error_code, *args) and each subclass (node_def, op, message, *args), the
optional extra argument a dict of payloads: a class called with one argument is TypeError naming the missing
parameters. `message`, `op`, `node_def`, `error_code`, `experimental_payloads` are properties, str() the message,
repr() the class with empty parentheses, and pickling rebuilds the error from the arguments its constructor names
(the payloads dropped). A user's Keras layer whose call raises an OpError while Keras infers its output is TypeError
(Keras rebuilds the class with one argument), an op's own error a ValueError. Each case: [label, observation].
"""

from __future__ import annotations

import pickle
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CLASSES = ["OpError", "CancelledError", "UnknownError", "InvalidArgumentError", "DeadlineExceededError",
           "NotFoundError", "AlreadyExistsError", "PermissionDeniedError", "ResourceExhaustedError",
           "FailedPreconditionError", "AbortedError", "OutOfRangeError", "UnimplementedError", "InternalError",
           "UnavailableError", "DataLossError", "UnauthenticatedError"]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, fn()])
    except Exception as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:200]]])


def _look(e: Any) -> list:
    return [type(e).__name__, str(e), repr(e), e.message, e.op, e.node_def, e.error_code,
            dict(e.experimental_payloads), isinstance(e, Exception)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    name = case["name"]
    if name == "constructors":
        for cname in CLASSES:
            cls = getattr(tf.errors, cname)
            extra = (3,) if cname == "OpError" else ()
            _try(out, f"{cname} of three", lambda: _look(cls(None, None, "a message", *extra)))
            _try(out, f"{cname} with payloads", lambda: _look(cls(None, None, "m", *extra, {"k": b"v"})))
            _try(out, f"{cname} of one", lambda: _look(cls("only a message")))
            _try(out, f"{cname} of none", lambda: _look(cls()))
            _try(out, f"{cname} by keyword", lambda: _look(cls(node_def=None, op=None, message="kw", *extra)))
            _try(out, f"{cname} pickled", lambda: _look(pickle.loads(pickle.dumps(cls(None, None, "p", *extra,
                                                                                        {"k": b"v"})))))
            _try(out, f"{cname} bases", lambda: [c.__name__ for c in cls.__mro__[1:]])
        _try(out, "message is read-only", lambda: setattr(tf.errors.InvalidArgumentError(None, None, "m"),
                                                           "message", "x"))
        _try(out, "error_code constants", lambda: [tf.errors.INVALID_ARGUMENT, tf.errors.NOT_FOUND, tf.errors.OK])

        def raised() -> Any:
            try:
                raise tf.errors.NotFoundError(None, None, "missing")
            except tf.errors.OpError as e:
                return _look(e)
        _try(out, "raised and caught as OpError", raised)

        def kernel() -> Any:
            try:
                tf.reshape(tf.constant([1, 2, 3]), [2])
            except tf.errors.OpError as e:
                return [type(e).__name__, e.op, e.node_def, e.error_code, dict(e.experimental_payloads),
                        type(pickle.loads(pickle.dumps(e))).__name__]
        _try(out, "an op's error", kernel)
    elif name == "keras inference":
        keras = tf.keras

        class UserRaises(keras.layers.Layer):
            def call(self, x: Any) -> Any:
                raise tf.errors.InvalidArgumentError(None, None, "bad input")

        class UserRaisesNotFound(keras.layers.Layer):
            def call(self, x: Any) -> Any:
                raise tf.errors.NotFoundError(None, None, "no such thing")

        class OpRaises(keras.layers.Layer):
            def call(self, x: Any) -> Any:
                return tf.reshape(x, (5, 7))

        for cls in (UserRaises, UserRaisesNotFound, OpRaises):
            def infer(cls: Any = cls) -> Any:
                cls()(keras.Input((3,)))
                return "inferred"
            try:
                out.append([cls.__name__, infer()])
            except Exception as e:  # noqa: BLE001
                text = str(e)
                # (the inner text: TF's graph names its NodeDef where simdist's runs the op; the class is compared,
                # and for the user's errors the TypeError's text)
                out.append([cls.__name__, type(e).__name__, "missing 2 required positional arguments" in text,
                            "Could not automatically infer" in text])
    return out


NAMES = ["constructors", "keras inference"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("config.runtime-settings")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_errors_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1:]}, TF 2.21 gives {w[1:]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

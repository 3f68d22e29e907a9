"""A layer's output inferred as Keras's scratch FuncGraph traces it, against TF 2.21 (clause
keras.reg.scratch-graph-trace; fix63q, from qsweep63's OPEN "functional corrcoef").

Keras 3.15 (keras/src/backend/tensorflow/core.py `compute_output_spec`) infers a layer's output on a functional
build by calling `call` on `tf.compat.v1.placeholder`s inside a fresh FuncGraph that AutoGraph does not convert: the
call's Python meets symbolic tensors (the truth of a tensor and iteration raise OperatorNotAllowedInGraphError,
`.numpy()` AttributeError, len()/int()/float() TypeError, np.asarray NotImplementedError, tf.executing_eagerly() is
False, `x.shape[0]` of an unknown batch is None, a data-dependent dimension is None). simdist ran the call eagerly
on zeros, so these layers built (with 0 for boolean_mask's rows) where TF 2.21 refuses or says None.

Each case is [label, outcome]: the build's output shape and dtype and the model's eager call's output shape, or the
build's error class.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _cases(tf: Any) -> dict[str, Callable[[Any], Any]]:
    k = tf.keras.ops

    def eager_flag(v: Any) -> Any:
        return v * 2.0 if tf.executing_eagerly() else v[:, :1]
    return {
        "if-tensor": lambda v: v * 2.0 if tf.reduce_sum(v) > 0 else v,
        "numpy": lambda v: tf.constant(v.numpy()) + 1.0,
        "len": lambda v: v * float(len(v)),
        "iter": lambda v: tf.stack([r for r in v]),
        "int-shape": lambda v: v * float(int(tf.shape(v)[0])),
        "float-sum": lambda v: v * float(tf.reduce_sum(v)),
        "np-asarray": lambda v: tf.constant(np.asarray(v)) + 1.0,
        "bool-all": lambda v: v if bool(tf.reduce_all(v == v)) else v * 0.0,
        "shape-branch": lambda v: v * 2.0 if v.shape[0] is None else v[:, :1],
        "reshape-static-batch": lambda v: tf.reshape(v, (v.shape[0], -1)),
        "boolean-mask": lambda v: tf.boolean_mask(v, v[:, 0] > 0),
        "unique": lambda v: tf.unique(tf.reshape(v, [-1]))[0],
        "where-one-arg": lambda v: tf.where(v > 0),
        "executing-eagerly": eager_flag,
        "keras-corrcoef": lambda v: k.corrcoef(v),
        "keras-corrcoef-lambda": None,
        "range-of-shape": lambda v: tf.range(tf.shape(v)[0]),
        "index-by-argmax": lambda v: v[tf.argmax(v[:, 0])],
        "ndim": lambda v: v * float(v.ndim),
        "print": lambda v: (print("PRINTED", v), v * 1.0)[1],
    }


def program(tf: Any, case: dict, workdir: str) -> Any:
    keras = tf.keras
    x = tf.constant(np.arange(16.0).reshape(4, 4) % 5 - 2.0, "float32")
    out: list[Any] = []
    for name, fn in _cases(tf).items():
        for batch in (None, 4):
            label = f"{name} batch={batch}"
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf):
                    inp = keras.Input((4,), batch_size=batch)
                    if fn is None:
                        layer = keras.layers.Lambda(lambda v: keras.ops.corrcoef(v), output_shape=None)
                    else:
                        layer = type("L", (keras.layers.Layer,), {"call": lambda self, v, fn=fn: fn(v)})(
                            name=name.replace("-", "_"))
                    y = layer(inp)
                got: list[Any] = ["built", list(y.shape), str(y.dtype)]
                try:
                    with contextlib.redirect_stdout(io.StringIO()):
                        got.append(list(np.asarray(keras.Model(inp, y)(x)).shape))
                except Exception as e:  # noqa: BLE001 - the class is what is compared
                    got.append(type(e).__name__)
            except Exception as e:  # noqa: BLE001
                got = ["raised", type(e).__name__]
            if name == "print" and batch == 4:   # (one trace, one print of the placeholder: its text)
                got.append(buf.getvalue().strip())
            out.append([label, got])
    # (a Lambda's outputs: KerasTensors of its compute dtype whatever the function returns, Keras 3.15's Lambda going
    # through compute_output_shape)
    lambdas = {"cast int32": lambda v: tf.cast(v, "int32"), "argmax": lambda v: tf.argmax(v, 1),
               "float64 pair": lambda v: [tf.cast(v, "float64"), v[:, :2]], "dict": lambda v: {"a": v * 2.0}}
    for name, fn in lambdas.items():
        try:
            y = keras.layers.Lambda(fn)(keras.Input((4,)))
            got = [[list(t.shape), str(t.dtype)] for t in tf.nest.flatten(y)]
        except Exception as e:  # noqa: BLE001
            got = ["raised", type(e).__name__]
        out.append([f"lambda {name}", got])
    return out


CASES: dict[str, dict] = {"scratch": {"strategy": "default", "name": "scratch"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.reg.scratch-graph-trace")
@pytest.mark.parametrize("index", [0])
def test_a_layers_output_is_inferred_as_keras_traces_it(index: int, tf_results: dict[int, Any],
                                                        tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["scratch"], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], "labels differ"
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g[1] != w[1]]
    assert not bad, f"{len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:20])


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

"""Gaps the thirty-ninth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer (the trainer, gradients, tf.data, checkpoints and saving, distribution)
that the suite stated for one spelling, one option value or one input only, or never, so that a wrong
implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- compile's metrics: one output's metrics as a tuple or a list -----------------------------------------------------
def _two_output_model(keras):
    i = keras.Input((2,))
    a = keras.layers.Dense(1, kernel_initializer="ones", name="a")(i)
    b = keras.layers.Dense(1, kernel_initializer="zeros", name="b")(i)
    return i, a, b


@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("container", [tuple, list])
@pytest.mark.parametrize("outputs", ["single", "list", "dict"])
def test_blind39_metrics_of_one_output_as_a_tuple_or_a_list(keras, container, outputs):
    """compile(metrics=...) takes one output's metrics as a list or a tuple alike (Keras 3.15 `get_metrics_list`:
    `isinstance(metrics, (list, tuple))`), at the top level of a single-output model and per output in a list or a
    dict: each named metric is made and logged (`<output>_<metric>` for several outputs) with its value."""
    x = np.ones((4, 2), "float32")
    ya, yb = np.zeros((4, 1), "float32"), np.full((4, 1), 3.0, "float32")
    pa, pb = x.sum(axis=1, keepdims=True), np.zeros((4, 1), "float32")   # the Dense kernels: ones, zeros
    mae = lambda y, p: float(np.mean(np.abs(y - p)))
    mse = lambda y, p: float(np.mean((y - p) ** 2))
    i, a, b = _two_output_model(keras)
    if outputs == "single":
        model = keras.Model(i, a)
        model.compile(loss="mse", metrics=container(["mae", "mse"]))
        got = model.evaluate(x, ya, verbose=0, return_dict=True)
        want = {"loss": mse(ya, pa), "mae": mae(ya, pa), "mse": mse(ya, pa)}
    else:
        metrics_a, metrics_b = container(["mae", "mse"]), container(["mae"])
        if outputs == "list":
            model = keras.Model(i, [a, b])
            model.compile(loss=["mse", "mse"], metrics=[metrics_a, metrics_b])
            got = model.evaluate(x, [ya, yb], verbose=0, return_dict=True)
        else:
            model = keras.Model(i, {"a": a, "b": b})
            model.compile(loss={"a": "mse", "b": "mse"}, metrics={"a": metrics_a, "b": metrics_b})
            got = model.evaluate(x, {"a": ya, "b": yb}, verbose=0, return_dict=True)
        want = {"loss": mse(ya, pa) + mse(yb, pb), "a_loss": mse(ya, pa), "b_loss": mse(yb, pb),
                "a_mae": mae(ya, pa), "a_mse": mse(ya, pa), "b_mae": mae(yb, pb)}
    assert sorted(got) == sorted(want), f"{outputs} {container.__name__}: expected logs {sorted(want)}, got {sorted(got)}"
    for k, v in want.items():
        assert float(got[k]) == pytest.approx(v, rel=1e-6), f"{outputs} {container.__name__}: {k} expected {v}, got {got[k]}"


# -- take_while: the predicate must return a scalar bool ---------------------------------------------------------------
@clause("dataset.scan-take-while-unique", ref="tf221")
@pytest.mark.parametrize("kind", ["scalar", "[1]", "[2]", "[1, 1]", "int64 scalar"])
def test_blind39_take_while_predicate_must_be_a_scalar_bool(tf, kind):
    """Dataset.take_while refuses, when the transformation is made, a predicate whose output is not a scalar tf.bool
    (TF 2.21 `_TakeWhileDataset`: ValueError "Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor
    but its return type is<the spec>", the spec's repr glued on), a one-element vector included; a scalar bool takes
    the elements while it holds."""
    preds = {"scalar": (lambda x: x < 3, None),
             "[1]": (lambda x: tf.reshape(x < 3, [1]), "(1,)"),
             "[2]": (lambda x: tf.stack([x < 3, x < 4]), "(2,)"),
             "[1, 1]": (lambda x: tf.reshape(x < 3, [1, 1]), "(1, 1)"),
             "int64 scalar": (lambda x: tf.cast(x < 3, tf.int64), "()")}
    fn, shape = preds[kind]
    ds = tf.data.Dataset.range(6)
    if shape is None:
        got = [int(v) for v in ds.take_while(fn).as_numpy_iterator()]
        assert got == [0, 1, 2], f"take_while(x < 3) of range(6): expected [0, 1, 2], got {got}"
        return
    dtype = "int64" if kind.startswith("int64") else "bool"
    want = ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return type is"
            f"TensorSpec(shape={shape}, dtype=tf.{dtype}, name=None).")
    with pytest.raises(ValueError) as e:
        ds.take_while(fn)
    assert str(e.value) == want, f"{kind} predicate: expected {want!r}, got {str(e.value)!r}"


# -- rebatch: every component of an element has the first one's batch size ---------------------------------------------
@clause("dataset.rebatch", ref="tf221")
@pytest.mark.parametrize("sizes", [(4, 3), (3, 4), (4, 4, 2), (2, 5, 2), (4, 4)])
def test_blind39_rebatch_components_share_the_batch_size(tf, sizes):
    """Dataset.rebatch(n) of elements whose components' batch sizes the element spec leaves unknown checks each
    element when it is read (TF 2.21 RebatchDatasetV2's kernel): a component with more or fewer rows than component
    0 is InvalidArgumentError "Input element must have the same batch size in each component. Component 0 had size
    A but component I had size, B." (the first such component); equal sizes are split into batches of n rows."""
    comps = tuple(np.arange(s * 2, dtype="float32").reshape(s, 2) for s in sizes)
    ds = tf.data.Dataset.from_generator(lambda: iter([comps]),
                                        output_signature=tuple(tf.TensorSpec([None, 2], tf.float32) for _ in sizes))
    bad = next((i for i, s in enumerate(sizes) if s != sizes[0]), None)
    if bad is None:
        got = [[_np(c).tolist() for c in e] for e in ds.rebatch(2)]
        want = [[c[j:j + 2].tolist() for c in comps] for j in range(0, sizes[0], 2)]
        assert got == want, f"rebatch(2) of sizes {sizes}: expected {want}, got {got}"
        return
    want = ("Input element must have the same batch size in each component. Component 0 had size "
            f"{sizes[0]} but component {bad} had size, {sizes[bad]}.")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        list(ds.rebatch(2))
    assert want in str(e.value), f"rebatch of sizes {sizes}: expected {want!r} in {str(e.value)!r}"

"""compile()'s loss structures against Keras 3.15 on TF 2.21 (clause keras.compile.loss-weights, closs47).

Keras 3.15's CompileLoss (keras/src/trainers/compile_utils.py) resolves `loss` (and `loss_weights`) against
the predictions and labels by walking the loss's structure (`_build_nested`): a flat list or tuple of as many
losses as outputs is packed as the predictions, a shorter list against list outputs gives the first outputs
their losses and leaves the rest out, a longer one is a KeyError naming the missing path, a list of losses for
one output applies each (call's single-output fast path returns the first, its trackers never updated); and
`call` fits labels of another structure to the predictions (packed when the leaf counts agree, by paths when
only container types differ, spread over a partially defined loss) or raises ValueError "y_true and y_pred
have different structures" — never silently dropping a target. Each case fits (or evaluates) a small model
with constant initializers and returns its logs' names and values and the weights, or Keras's error.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# Exact inputs and targets (multiples of 1/11 and 1/5, as float32 from integers).
_X = np.arange(12, dtype=np.float32).reshape(6, 2) / np.float32(11)
_Y = np.arange(6, dtype=np.float32).reshape(6, 1) / np.float32(5)
_YS = [_Y, np.float32(1) - _Y, _Y * np.float32(2)]
_SW = np.array([1, 2, 1, 3, 1, 2], dtype=np.float32) / np.float32(2)


def _model(tf: Any, form: str) -> Any:
    """A functional model of Dense(1) heads named o1, o2, o3 (constant kernels, so no seed matters), its
    outputs: 'one' (o1 alone), 'list2', 'list3', 'dict2', 'dict2_rev' (o2 inserted first), 'nested_dict'
    ({'a': {'x': o1, 'y': o2}, 'b': o3}) or 'nested_list' ([o1, [o2, o3]])."""
    keras = tf.keras
    if "simdist" in tf.__name__:
        import simdist
        simdist.reset()
    keras.backend.clear_session()
    a = keras.Input((2,), name="in")
    o = [keras.layers.Dense(1, name=f"o{i + 1}", kernel_initializer=keras.initializers.Constant(0.25 * (i + 1)),
                            bias_initializer=keras.initializers.Constant(-0.125 * i))(a) for i in range(3)]
    outputs = {"one": o[0], "list2": o[:2], "list3": o, "dict2": {"o1": o[0], "o2": o[1]},
               "dict2_rev": {"o2": o[1], "o1": o[0]}, "nested_dict": {"a": {"x": o[0], "y": o[1]}, "b": o[2]},
               "nested_list": [o[0], [o[1], o[2]]]}[form]
    return keras.Model(a, outputs)


def _case(form: str, loss: Any, ys: Any, what: str = "fit", **kw: Any) -> Callable[[Any], Any]:
    """compile(SGD(0.1), loss, **compile_kw) then fit one epoch by 3s (or evaluate by 4s) with targets `ys`
    (and `sample_weight` when given): the logs' names, their values and the weights."""
    sample_weight = kw.pop("sample_weight", None)

    def case(tf: Any) -> Any:
        m = _model(tf, form)
        m.compile(tf.keras.optimizers.SGD(0.1), loss=loss, **kw)
        if what == "evaluate":
            logs = m.evaluate(_X, ys, sample_weight=sample_weight, batch_size=4, verbose=0, return_dict=True)
        else:
            logs = {k: v[0] for k, v in m.fit(_X, ys, sample_weight=sample_weight, epochs=1, batch_size=3,
                                               verbose=0, shuffle=False).history.items()}
        names = sorted(logs)
        return [" ".join(names), np.array([float(logs[k]) for k in names], np.float64)] + \
            [np.asarray(w, np.float64) for w in m.get_weights()]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    y1, y2, y3 = _YS
    d2 = {"o1": y1, "o2": y2}
    nd = {"a": {"x": y1, "y": y2}, "b": y3}
    return {
        # the lead's probe (closs47_logs/loss_probe.py), targets now distinct per output
        "probe/short_list": _case("list2", ["mae"], [y1, y2]),
        "probe/long_list": _case("list2", ["mse", "mae", "mse"], [y1, y2]),
        "probe/single_loss_one_target_two_outputs": _case("list2", "mse", y1),
        "probe/list_loss_single_output": _case("one", ["mse"], y1),
        "probe/list2_loss_single_output": _case("one", ["mse", "mae"], y1),
        "probe/none_in_list": _case("list2", [None, "mae"], [y1, y2]),
        "probe/dict_loss_list_outputs": _case("list2", {"o1": "mse", "o2": "mae"}, [y1, y2]),
        "probe/dict_loss_partial": _case("list2", {"o2": "mae"}, [y1, y2]),
        "probe/dict_out_dict_loss": _case("dict2", {"o1": "mse", "o2": "mae"}, d2),
        "probe/dict_out_list_loss": _case("dict2", ["mse", "mae"], d2),
        "probe/dict_out_single_loss": _case("dict2", "mse", d2),
        "probe/dict_out_list_targets": _case("dict2", {"o1": "mse", "o2": "mae"}, [y1, y2]),
        "probe/tuple_loss": _case("list2", ("mse", "mae"), (y1, y2)),
        "probe/list_targets_tuple_loss": _case("list2", ("mse", "mae"), [y1, y2]),
        "probe/three_targets_two_outputs": _case("list2", ["mse", "mae"], [y1, y2, y3]),
        "probe/one_target_list_two_outputs": _case("list2", ["mse", "mae"], [y1]),
        # lists and tuples of other lengths
        "lists/short_list_three_outputs": _case("list3", ["mse", "mae"], [y1, y2, y3]),
        "lists/short_list_dict_targets": _case("list2", ["mae"], d2),
        "lists/short_list_evaluate": _case("list2", ["mae"], [y1, y2], "evaluate"),
        "lists/three_targets_evaluate": _case("list2", ["mse", "mae"], [y1, y2, y3], "evaluate"),
        "lists/long_list_single_output": _case("one", ["mse", "mae", "huber"], y1),
        "lists/list2_single_output_evaluate": _case("one", ["mae", "mse"], y1, "evaluate"),
        "lists/list2_single_output_run_eagerly": _case("one", ["mae", "mse"], y1, run_eagerly=True),
        "lists/tuple_loss_dict_outputs": _case("dict2", ("mse", "mae"), d2),
        "lists/list_loss_reversed_dict_outputs": _case("dict2_rev", ["mse", "mae"], {"o2": y2, "o1": y1}),
        "lists/single_loss_one_target_three_outputs": _case("list3", "mae", [y1]),
        "lists/none_first_in_short_list": _case("list3", [None, "mae"], [y1, y2, y3]),
        "lists/all_none": _case("list2", [None, None], [y1, y2]),
        # one output and dict losses
        "dicts/one_output_dict_loss": _case("one", {"o1": "mae"}, y1),
        "dicts/one_output_dict_loss_wrong_name": _case("one", {"zz": "mae"}, y1),
        "dicts/dict_out_partial_dict_loss": _case("dict2", {"o2": "mae"}, d2),
        "dicts/dict_out_unknown_key": _case("dict2", {"o1": "mse", "zz": "mae"}, d2),
        "dicts/reversed_dict_outputs_dict_loss": _case("dict2_rev", {"o1": "mse", "o2": "mae"}, {"o2": y2, "o1": y1}),
        # nested outputs
        "nested/dict_full_loss": _case("nested_dict", {"a": {"x": "mse", "y": "mae"}, "b": "huber"}, nd),
        "nested/dict_single_loss": _case("nested_dict", "mse", nd),
        "nested/dict_flat_list_loss": _case("nested_dict", ["mse", "mae", "huber"], nd),
        "nested/dict_partial_loss": _case("nested_dict", {"a": {"y": "mae"}, "b": "mse"}, nd),
        "nested/dict_flat_targets": _case("nested_dict", {"a": {"x": "mse", "y": "mae"}, "b": "huber"},
                                          [y1, y2, y3]),
        "nested/dict_loss_weights": _case("nested_dict", {"a": {"x": "mse", "y": "mae"}, "b": "huber"}, nd,
                                          loss_weights={"a": {"x": 0.5, "y": 2.0}, "b": 1.5}),
        "nested/list_full_loss": _case("nested_list", ["mse", ["mae", "huber"]], [y1, [y2, y3]]),
        "nested/list_single_loss": _case("nested_list", "mae", [y1, [y2, y3]]),
        "nested/list_flat_loss": _case("nested_list", ["mse", "mae", "huber"], [y1, [y2, y3]]),
        "nested/list_short_loss": _case("nested_list", ["mse", "mae"], [y1, [y2, y3]]),
        "nested/list_flat_targets": _case("nested_list", ["mse", ["mae", "huber"]], [y1, y2, y3]),
        # loss_weights with the new structures
        "weights/short_list": _case("list2", ["mae"], [y1, y2], loss_weights=[0.5]),
        "weights/short_list_two_weights": _case("list2", ["mae"], [y1, y2], loss_weights=[0.5, 2.0]),
        "weights/list2_single_output": _case("one", ["mse", "mae"], y1, loss_weights=[0.5, 2.0]),
        "weights/dict_out_dict_weights": _case("dict2_rev", {"o1": "mse", "o2": "mae"}, {"o2": y2, "o1": y1},
                                               loss_weights={"o2": 3.0, "o1": 0.5}),
        # sample weights
        "sample_weight/list_outputs_list": _case("list2", ["mse", "mae"], [y1, y2], sample_weight=[_SW, _SW[::-1]]),
        "sample_weight/list_outputs_array": _case("list2", ["mse", "mae"], [y1, y2], sample_weight=_SW),
        "sample_weight/short_list_list": _case("list2", ["mae"], [y1, y2], sample_weight=[_SW, _SW[::-1]]),
        "sample_weight/dict_outputs_dict": _case("dict2", {"o1": "mse", "o2": "mae"}, d2,
                                                 sample_weight={"o1": _SW, "o2": _SW[::-1]}),
        "sample_weight/reversed_dict_outputs_dict": _case("dict2_rev", ["mse", "mae"], {"o2": y2, "o1": y1},
                                                          sample_weight={"o2": _SW[::-1], "o1": _SW}),
        "sample_weight/dict_outputs_list": _case("dict2", {"o1": "mse", "o2": "mae"}, d2,
                                                 sample_weight=[_SW, _SW[::-1]]),
        "sample_weight/list_outputs_dict": _case("list2", ["mse", "mae"], [y1, y2],
                                                 sample_weight={"o1": _SW, "o2": _SW[::-1]}),
        "sample_weight/nested_dict_array": _case("nested_dict", "mse", nd, sample_weight=_SW),
        "sample_weight/nested_dict_nested": _case("nested_dict", "mse", nd,
                                                  sample_weight={"a": {"x": _SW, "y": _SW[::-1]}, "b": _SW}),
        "sample_weight/single_output_list2_loss": _case("one", ["mse", "mae"], y1, sample_weight=_SW),
        "sample_weight/evaluate_list_outputs_list": _case("list2", ["mse", "mae"], [y1, y2], "evaluate",
                                                          sample_weight=[_SW, _SW[::-1]]),
    }


_AUTO_NAME = re.compile(r"(functional_|input_layer_|sgd_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


@pytest.mark.clause("keras.compile.loss-weights")
def test_the_probes_loss_structures_resolve_as_keras_does(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("probe/"))


@pytest.mark.clause("keras.compile.loss-weights")
def test_loss_lists_of_other_lengths_and_dict_losses(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(("lists/", "dicts/")))


@pytest.mark.clause("keras.compile.loss-weights")
def test_nested_outputs_take_nested_flat_and_partial_losses(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("nested/"))


@pytest.mark.clause("keras.compile.loss-weights")
def test_loss_weights_and_sample_weights_follow_the_losss_paths(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(("weights/", "sample_weight/")))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)

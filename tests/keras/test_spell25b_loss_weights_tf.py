"""compile(loss=..., loss_weights=...) of a model with two outputs (named zeta_out, alpha_out: NOT in sorted
order) and of one output, every spelling of the pair, against Keras 3.15 on TF 2.21 (clause
keras.compile.loss-weights). Keras's CompileLoss.build pairs weights of the loss's own structure with it, and
otherwise flattens the weights (a dict by SORTED key, whatever the output names) and packs them as the loss,
their count that of the loss's leaves: one loss with a list or dict of two weights is a ValueError; a list loss
with a dict of weights takes them in sorted key order; a list loss with a scalar weight fails on len() of the
scalar (TypeError); an int weight is refused at compile (a 0 only later). simdist paired a dict by output name
and broadcast any scalar or list before session 25 (found by spell25b's spelling sweep)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_X = np.arange(10, dtype=np.float32).reshape(5, 2) / 5.0
_YZ = np.ones((5, 1), np.float32)
_YA = -np.ones((5, 1), np.float32)


def _two(tf: Any) -> Any:
    k = tf.keras
    inp = k.Input((2,))
    zeta = k.layers.Dense(1, name="zeta_out", kernel_initializer="ones")(inp)
    alpha = k.layers.Dense(1, name="alpha_out", kernel_initializer="zeros")(inp)
    return k.Model(inp, [zeta, alpha])


def _one(tf: Any) -> Any:
    k = tf.keras
    inp = k.Input((2,))
    return k.Model(inp, k.layers.Dense(1, name="zeta_out", kernel_initializer="ones")(inp))


def _case(loss: Any, weights: Any, single: bool = False, targets: str = "list") -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        model = _one(tf) if single else _two(tf)
        model.compile(optimizer="sgd", loss=loss, loss_weights=weights, run_eagerly=True)
        y = _YZ if single else ([_YZ, _YA] if targets == "list" else {"alpha_out": _YA, "zeta_out": _YZ})
        out = model.evaluate(_X, y, verbose=0, return_dict=True)
        return sorted((k, float(v)) for k, v in out.items())
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    d_w = {"alpha_out": 0.5, "zeta_out": 2.0}
    d_l = {"alpha_out": "mse", "zeta_out": "mse"}
    return {
        "two/one loss, list of weights": _case("mse", [2.0, 0.5]),
        "two/one loss, dict of weights": _case("mse", d_w),
        "two/one loss, float weight": _case("mse", 1.5),
        "two/one loss, int weight": _case("mse", 3),
        "two/list loss, list of weights": _case(["mse", "mse"], [2.0, 0.5]),
        "two/list loss, tuple of weights": _case(["mse", "mse"], (2.0, 0.5)),
        "two/list loss, dict of weights (sorted keys)": _case(["mse", "mse"], d_w),
        "two/list loss, dict of weights, dict targets": _case(["mse", "mse"], d_w, targets="dict"),
        "two/list loss, float weight": _case(["mse", "mse"], 1.5),
        "two/list loss, int 0 weight": _case(["mse", "mse"], 0),
        "two/list loss, True weight": _case(["mse", "mse"], True),
        "two/list loss, one weight": _case(["mse", "mse"], [2.0]),
        "two/list loss with None, two weights": _case(["mse", None], [2.0, 0.5]),
        "two/list loss with None, one weight": _case(["mse", None], [2.0]),
        "two/list loss with None, dict of weights": _case(["mse", None], d_w),
        "two/dict loss, dict of weights": _case(d_l, d_w),
        "two/dict loss, list of weights": _case(d_l, [2.0, 0.5]),
        "one/loss, list of one weight": _case("mse", [2.0], single=True),
        "one/loss, dict of one weight": _case("mse", {"zeta_out": 2.0}, single=True),
        "one/loss, int weight": _case("mse", 2, single=True),
        "one/list loss, float weight": _case(["mse"], 2.0, single=True),
    }


_AUTO_NAME = re.compile(r"((?:dense|functional|sgd|mean)_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.compile.loss-weights")
@pytest.mark.parametrize("prefix", ["two/", "one/"])
def test_loss_weights_pair_with_the_loss_as_keras_does(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

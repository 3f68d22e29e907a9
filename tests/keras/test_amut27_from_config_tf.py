"""keras.Model.from_config of a functional config against Keras 3.15 on TF 2.21 (clause keras.model.config):
Keras's functional_from_config pops layers, input_layers, output_layers, name and trainable from the
caller's dict (a second from_config of the same dict builds an empty subclassed Model) and passes the
keys left to the constructor (a subclass taking (*args, **kwargs) receives them); Functional's
constructor reads only `trainable` from its keywords and drops the rest, dtype and unknown names
included (the model's policy stays the global one). Found triaging the seed-4 mutation sweep (docs/conformance.md, twenty-seventh session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _base(tf: Any) -> Any:
    keras = tf.keras
    inp = keras.Input((3,))
    return keras.Model(inp, keras.layers.Dense(2, name="d")(inp), name="base")


def _keys_left(tf: Any) -> Any:
    cfg = _base(tf).get_config()
    tf.keras.Model.from_config(cfg)
    return sorted(cfg)


def _second_read(tf: Any) -> Any:
    cfg = _base(tf).get_config()
    tf.keras.Model.from_config(cfg)
    m = tf.keras.Model.from_config(cfg)
    return [type(m).__name__, len(m.layers), m.name]


def _extra_key_to_subclass(tf: Any) -> Any:
    class Star(tf.keras.Model):
        def __init__(self, *args: Any, tag: Any = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.tag = tag

    cfg = _base(tf).get_config()
    cfg["tag"] = "kept"
    m = Star.from_config(cfg)
    return [type(m).__name__, m.tag, [lay.name for lay in m.layers][1:], sorted(cfg)]


def _extra_key_to_functional(tf: Any) -> Any:
    cfg = _base(tf).get_config()
    cfg["units"] = 3
    return tf.keras.Model.from_config(cfg)


def _functional_kwargs(**kw: Any) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        inp = keras.Input((3,))
        m = keras.Model(inp, keras.layers.Dense(2, name="d")(inp), **kw)
        return [type(m).__name__, m.dtype_policy.name, m.trainable, hasattr(m, "units")]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "pop/the keys a Model.from_config leaves in the caller's dict": _keys_left,
        "pop/a second Model.from_config of the same dict": _second_read,
        "rest/an extra key goes to a (*args, **kwargs) subclass": _extra_key_to_subclass,
        "rest/an extra key Functional does not take": _extra_key_to_functional,
        "init/Model(inputs, outputs, units=3)": _functional_kwargs(units=3),
        "init/Model(inputs, outputs, dtype='float64')": _functional_kwargs(dtype="float64"),
        "init/Model(inputs, outputs, trainable=False, foo=1)": _functional_kwargs(trainable=False, foo=1),
    }


_AUTO_NAME = re.compile(r"((?:model|functional|input_layer)_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.model.config")
@pytest.mark.parametrize("prefix", ["pop/", "rest/", "init/"])
def test_model_from_config_consumes_the_functional_keys(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""The optimizer's variables (iterations, learning rate, slots) are Keras variables
(simdist/keras/variables.py), created under the optimizer's name scope ("sgd/iteration");
this module keeps the names the optimizers use for them."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.naming import name_scope
from simdist.keras.variables import Variable, unwrap

__all__ = ["OptimizerVariable", "make_variable", "unwrap", "dtype_name"]

OptimizerVariable = Variable


def make_variable(owner: Any, initial_value: Any, dtype: Any, name: str | None, aggregation: str = "none",
                  scoped: bool = True, trainable: bool = False) -> Variable:
    """A non-trainable Keras variable at path "<owner.name>/<name>" (Keras's optimizer add_variable);
    `scoped=False`: a plain `backend.Variable(value, dtype, trainable=...)` an optimizer makes
    itself in its build (Nadam's u_product, Adafactor's placeholders), in the current name scope
    (the optimizer's when `apply` builds it), auto-named "variable" without a name."""
    if not scoped:
        return Variable(initial_value, dtype=dtype_name(dtype), trainable=trainable, name=name)
    with name_scope(owner.name, caller=owner):
        return Variable(initial_value, dtype=dtype_name(dtype), trainable=False, aggregation=aggregation, name=name)


def dtype_name(dt: Any) -> str:
    return tf.as_dtype(dt).name

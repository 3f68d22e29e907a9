"""`keras.layers.StackedRNNCells` (keras/src/layers/rnn/stacked_rnn_cells.py): a list of RNN cells run
as one cell, each cell's output the next one's input; its state is the list of the cells' states
(nested: an LSTMCell contributes [h, c]). `RNN([cell, cell])` wraps a list in it."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.layer import Layer

__all__ = ["StackedRNNCells"]


def _nested(x: Any) -> bool:
    return isinstance(x, (list, tuple, dict))


class StackedRNNCells(Layer):
    """`keras.layers.StackedRNNCells(cells)`."""

    def __init__(self, cells: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError(f"All cells must have a `call` method. Received cell without a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError("All cells must have a `state_size` attribute. Received cell without a "
                                 f"`state_size`: {cell}")
        self.cells = cells

    @property
    def state_size(self) -> list:
        return [c.state_size for c in self.cells]

    @property
    def output_size(self) -> Any:
        if getattr(self.cells[-1], "output_size", None) is not None:
            return self.cells[-1].output_size
        if isinstance(self.cells[-1].state_size, (list, tuple)):
            return self.cells[-1].state_size[0]
        return self.cells[-1].state_size

    def get_initial_state(self, batch_size: Any = None) -> list:
        initial_states = []
        for cell in self.cells:
            fn = getattr(cell, "get_initial_state", None)
            if fn:
                initial_states.append(fn(batch_size=batch_size))
            elif isinstance(cell.state_size, int):
                initial_states.append(tf.zeros((batch_size, cell.state_size), dtype=self.compute_dtype))
            else:
                initial_states.append([tf.zeros((batch_size, d), dtype=self.compute_dtype) for d in cell.state_size])
        return initial_states

    def call(self, inputs: Any, states: Any, training: Any = False, **kwargs: Any) -> tuple[Any, Any]:
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            state_is_list = _nested(cell_states)
            cell_states = list(cell_states) if state_is_list else [cell_states]
            if isinstance(cell, Layer) and cell._call_has_training_arg:
                kwargs["training"] = training
            else:
                kwargs.pop("training", None)
            cell_call_fn = cell.__call__ if callable(cell) else cell.call
            inputs, cell_states = cell_call_fn(inputs, cell_states, **kwargs)
            if len(cell_states) == 1 and not state_is_list:
                cell_states = cell_states[0]
            new_states.append(cell_states)
        if len(new_states) == 1:
            new_states = new_states[0]
        return inputs, new_states

    def build(self, input_shape: Any) -> None:
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell.build(input_shape)
                cell.built = True
            if getattr(cell, "output_size", None) is not None:
                output_dim = cell.output_size
            elif isinstance(cell.state_size, (list, tuple)):
                output_dim = cell.state_size[0]
            else:
                output_dim = cell.state_size
            batch_size = tf.nest.flatten(input_shape)[0]
            input_shape = (batch_size, output_dim)

    def get_config(self) -> dict[str, Any]:
        from simdist.keras.serialization import serialize_keras_object
        return {**super().get_config(), "cells": [serialize_keras_object(c, "keras.layers") for c in self.cells]}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "StackedRNNCells":
        from simdist.keras.layers.rnn import _cell_names
        from simdist.keras.serialization import deserialize_keras_object
        config = dict(config)
        cells = [deserialize_keras_object(c, _cell_names(), "layer", custom_objects) for c in config.pop("cells")]
        return cls(cells, **config)

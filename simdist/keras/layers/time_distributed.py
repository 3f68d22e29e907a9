"""`keras.layers.TimeDistributed` (keras/src/layers/rnn/time_distributed.py, core/wrapper.py):
applies a layer to every time step of a (batch, time, ...) input: the input transposed to
(time, batch, ...), the wrapped layer's `call` run on each step in a Python loop (Keras's path
for a static time axis), the results stacked and transposed back. The wrapped layer is built
once, on (batch, ...); `training` and a (batch, time) mask reach its call when it takes them."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.layer import Layer
from simdist.keras.layers.wrapper import Wrapper

__all__ = ["TimeDistributed"]


def _swap_first_axes(data: Any) -> Any:
    return tf.transpose(data, [1, 0, *range(2, len(data.shape))])


class TimeDistributed(Wrapper):
    """`keras.layers.TimeDistributed(layer)`."""

    def __init__(self, layer: Any, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    @staticmethod
    def _child_input_shape(input_shape: Any) -> tuple:
        if not isinstance(input_shape, (tuple, list)) or len(input_shape) < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at least 3 dimensions, "
                             f"received: {input_shape}")
        return (input_shape[0], *input_shape[2:])

    def compute_output_shape(self, input_shape: Any) -> tuple:
        child = self.layer.compute_output_shape(self._child_input_shape(input_shape))
        return (child[0], input_shape[1], *child[1:])

    def build(self, input_shape: Any) -> None:
        super().build(self._child_input_shape(input_shape))

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if mask is not None:
            if len(mask.shape) < 2:
                raise ValueError("The `mask` passed to the `TimeDistributed` layer must be at least 2D (e.g., "
                                 f"`(batch_size, timesteps)`), but it has {len(mask.shape)} dimension(s) with shape "
                                 f"{mask.shape}.")
            for i in (0, 1):
                if inputs.shape[i] is not None and mask.shape[i] is not None and inputs.shape[i] != mask.shape[i]:
                    raise ValueError(f"The `mask` passed to the `TimeDistributed` layer has a shape {mask.shape} "
                                     f"that is incompatible with the input shape {inputs.shape}. The first two "
                                     "dimensions of the mask (batch size and timesteps) must match the input's first "
                                     f"two dimensions. Expected mask shape prefix: ({inputs.shape[0]}, "
                                     f"{inputs.shape[1]}).")
        if inputs.shape[1] is None:
            raise NotImplementedError("simdist: TimeDistributed over an unknown number of time steps (Keras's "
                                      "vectorized_map path); give the input a static time axis")
        steps = _swap_first_axes(inputs)
        masks = _swap_first_axes(mask) if mask is not None else None
        outputs = []
        for i in range(inputs.shape[1]):
            kwargs: dict[str, Any] = {}
            if self.layer._call_has_mask_arg and masks is not None:
                kwargs["mask"] = masks[i]
            if self.layer._call_has_training_arg:
                kwargs["training"] = training
            outputs.append(self.layer.call(steps[i], **kwargs))
        return _swap_first_axes(tf.stack(outputs))

"""`keras.layers.Bidirectional(layer, merge_mode="concat", backward_layer=None)` (Keras 3.15's
keras/src/layers/rnn/bidirectional.py): a recurrent layer run forward and a copy of it run with
`go_backwards=True`; the backward sequences are flipped back to time order and the two merged.

The copies are made from the layer's config: named "forward_<name>" and "backward_<name>"
(weights "bidirectional/forward_lstm/lstm_cell/kernel", forward's first). Both take
`zero_output_for_mask = return_sequences`, so masked steps of returned sequences are zeros.
Keras's fused bidirectional LSTM/GRU kernels need cuDNN; on a CPU TF 2.21 runs the two layers,
as here. Clause keras.rnn.bidirectional in docs/spec.md.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.layer import Layer

__all__ = ["Bidirectional"]

_MODES = ("sum", "mul", "ave", "concat", None)


def _copy(layer: Layer, **overrides: Any) -> Layer:
    return type(layer).from_config({**layer.get_config(), **overrides})


def _strip(name: str, prefix: str) -> str:
    return name[len(prefix):] if name.startswith(prefix) else name


class Bidirectional(Layer):
    """Runs `layer` both ways and merges: "concat" (last axis), "sum", "mul", "ave", or None (a
    list of the two)."""

    def __init__(self, layer: Any, merge_mode: Any = "concat", weights: Any = None, backward_layer: Any = None,
                 **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError(f"`backward_layer` need to be a `keras.layers.Layer` instance. Received: {backward_layer}")
        if merge_mode not in _MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        super().__init__(**kwargs)
        self.forward_layer = _copy(layer, name=f"forward_{_strip(layer.name, 'forward_')}")
        if backward_layer is None:
            self.backward_layer = _copy(layer, go_backwards=True, name=f"backward_{_strip(layer.name, 'backward_')}")
        else:
            self.backward_layer = backward_layer
        if weights:
            # Keras 3.15 parks the halves on an attribute nothing reads: TF 2.21 ignores `weights`
            nw = len(weights)
            self.forward_layer.initial_weights = weights[: nw // 2]
            self.backward_layer.initial_weights = weights[nw // 2:]
        if hasattr(layer, "use_cudnn"):
            self.forward_layer.use_cudnn = layer.use_cudnn
            self.backward_layer.use_cudnn = layer.use_cudnn
        self._verify_layer_config()
        for sub in (self.forward_layer, self.backward_layer):
            if getattr(sub, "zero_output_for_mask", None) is not None:
                sub.zero_output_for_mask = sub.return_sequences
        self.merge_mode = merge_mode
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self.input_spec = layer.input_spec

    def _verify_layer_config(self) -> None:
        fwd, bwd = self.forward_layer, self.backward_layer
        if fwd.go_backwards == bwd.go_backwards:
            raise ValueError("Forward layer and backward layer should have different `go_backwards` value. Received: "
                             f"forward_layer.go_backwards {fwd.go_backwards}, backward_layer.go_backwards="
                             f"{bwd.go_backwards}")
        for a in ("stateful", "return_sequences", "return_state"):
            fv, bv = getattr(fwd, a), getattr(bwd, a)
            if fv != bv:
                raise ValueError("Forward layer and backward layer are expected to have the same value for attribute "
                                 f'"{a}", got "{fv}" for forward layer and "{bv}" for backward layer')

    def compute_output_shape(self, sequences_shape: Any, initial_state_shape: Any = None) -> Any:
        output_shape = self.forward_layer.compute_output_shape(sequences_shape)
        state_shape: tuple = ()
        if self.return_state:
            output_shape, state_shape = output_shape[0], tuple(output_shape[1:])
        if self.merge_mode == "concat":
            output_shape = tuple(output_shape[:-1]) + (output_shape[-1] * 2,)
        elif self.merge_mode is None:
            output_shape = [output_shape, output_shape]
        if self.return_state:
            if self.merge_mode is None:
                return tuple(output_shape) + state_shape + state_shape
            return (output_shape,) + state_shape + state_shape
        return tuple(output_shape) if self.merge_mode is not None else output_shape

    def build(self, sequences_shape: Any, initial_state_shape: Any = None) -> None:
        if not self.forward_layer.built:
            self.forward_layer.build(sequences_shape)
        if not self.backward_layer.built:
            self.backward_layer.build(sequences_shape)

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: Any = None) -> Any:
        kwargs: dict[str, Any] = {}
        if self.forward_layer._call_has_training_arg:
            kwargs["training"] = training
        if self.forward_layer._call_has_mask_arg:
            kwargs["mask"] = mask
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(sequences, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(sequences, initial_state=backward_state, **kwargs)
        states: tuple = ()
        if self.return_state:
            states = tuple(y[1:]) + tuple(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        y = tf.cast(y, self.compute_dtype)
        y_rev = tf.cast(y_rev, self.compute_dtype)
        if self.return_sequences:
            y_rev = tf.reverse(y_rev, [1])
        if self.merge_mode == "concat":
            output: Any = tf.concat([y, y_rev], axis=-1)
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = (y, y_rev)
        if self.return_state:
            return output + states if self.merge_mode is None else (output,) + states
        return output

    @property
    def states(self) -> Any:
        return None

    def compute_mask(self, _: Any, mask: Any) -> Any:
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            return (mask, mask) if not self.merge_mode else mask
        return (None, None) if not self.merge_mode else None

    def get_config(self) -> dict[str, Any]:
        from simdist.keras.serialization import serialize_keras_object
        return {**super().get_config(), "merge_mode": self.merge_mode,
                "layer": serialize_keras_object(self.forward_layer, "keras.layers"),
                "backward_layer": serialize_keras_object(self.backward_layer, "keras.layers")}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "Bidirectional":
        from simdist.keras.layers.rnn import _cell_names
        from simdist.keras.serialization import deserialize_keras_object
        config = dict(config)
        names = _cell_names()
        config["layer"] = deserialize_keras_object(config["layer"], names, "layer", custom_objects, base=Layer)
        backward = config.pop("backward_layer", None)
        if backward is not None:
            config["backward_layer"] = deserialize_keras_object(backward, names, "layer", custom_objects, base=Layer)
        return super().from_config(config)

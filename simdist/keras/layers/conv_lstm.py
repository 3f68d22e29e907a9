"""Keras's ConvLSTM (keras/src/layers/rnn/conv_lstm.py, conv_lstm{1,2,3}d.py): an LSTM whose input and
recurrent transforms are convolutions (`keras.ops.conv`: the inputs with the layer's strides,
padding and dilation; the state with stride 1 and "same" padding), gates i, f, c, o split along the
kernels' last axis, unit_forget_bias, four dropout masks per RNN call; ConvLSTM1D/2D/3D run it over
(batch, time, *spatial, channels) sequences through keras.layers.RNN."""

from __future__ import annotations

from typing import Any

from simdist.keras import activations, constraints, initializers, regularizers
from simdist.keras.keras_tensor import flatten
from simdist.keras.layers.argument_validation import (compute_conv_output_shape, standardize_data_format,
                                                      standardize_padding, standardize_tuple)
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer
from simdist.keras.layers.rnn import RNN
from simdist.keras.layers.rnn_cells import DropoutRNNCell
from simdist.keras.random import SeedGenerator

__all__ = ["ConvLSTMCell", "ConvLSTM", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]


def _ops() -> Any:
    from simdist.keras import ops
    return ops


class ConvLSTMCell(Layer, DropoutRNNCell):
    """Keras's ConvLSTMCell(rank, filters, kernel_size, ...)."""

    def __init__(self, rank: int, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = 1, activation: Any = "tanh",
                 recurrent_activation: Any = "sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, seed: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed = seed
        self.seed_generator = SeedGenerator(seed=seed)
        self.rank = rank
        if self.rank > 3:
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. Received: rank={rank}")
        self.filters = filters
        self.kernel_size = standardize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = standardize_tuple(strides, self.rank, "strides", allow_zero=True)
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.dilation_rate = standardize_tuple(dilation_rate, self.rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("Specifying `strides > 1` is not compatible with `dilation_rate > 1`. Please provide "
                             f"`strides=1` or `dilation_rate=1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.dropout_mask_count = 4
        self.input_spec = InputSpec(ndim=rank + 2)
        self.state_size = -1   # (Keras: defined by the input's spatial shape)

    def build(self, inputs_shape: Any, states_shape: Any = None) -> None:
        if self.data_format == "channels_first":
            channel_axis = 1
            self.spatial_dims = tuple(inputs_shape[2:])
        else:
            channel_axis = -1
            self.spatial_dims = tuple(inputs_shape[1:-1])
        if None in self.spatial_dims:
            raise ValueError("ConvLSTM layers only support static input shapes for the spatial dimension. Received "
                             f"invalid input shape: input_shape={inputs_shape}")
        if inputs_shape[channel_axis] is None:
            raise ValueError("The channel dimension of the inputs (last axis) should be defined. Found None. Full "
                             f"input shape received: input_shape={inputs_shape}")
        self.input_spec = InputSpec(ndim=self.rank + 3, shape=(None,) + tuple(inputs_shape[1:]))
        input_dim = inputs_shape[channel_axis]
        self.input_dim = input_dim
        self.kernel_shape = self.kernel_size + (input_dim, self.filters * 4)
        self.kernel = self.add_weight(shape=self.kernel_shape, initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=self.kernel_size + (self.filters, self.filters * 4),
                                                initializer=self.recurrent_initializer, name="recurrent_kernel",
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        if self.use_bias:
            if self.unit_forget_bias:
                def bias_initializer(_: Any, *args: Any, **kwargs: Any) -> Any:
                    return _ops().concatenate([self.bias_initializer((self.filters,), *args, **kwargs),
                                               initializers.get("ones")((self.filters,), *args, **kwargs),
                                               self.bias_initializer((self.filters * 2,), *args, **kwargs)])
            else:
                bias_initializer = self.bias_initializer
            self.bias = self.add_weight(shape=(self.filters * 4,), name="bias", initializer=bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None

    def call(self, inputs: Any, states: Any, training: Any = False) -> tuple[Any, list]:
        ops = _ops()
        h_tm1, c_tm1 = states[0], states[1]
        if training and 0.0 < self.dropout < 1.0:
            dp_mask = self.get_dropout_mask(inputs)
            inputs_i, inputs_f, inputs_c, inputs_o = (inputs * dp_mask[k] for k in range(4))
        else:
            inputs_i = inputs_f = inputs_c = inputs_o = inputs
        if training and 0.0 < self.recurrent_dropout < 1.0:
            rec_dp_mask = self.get_recurrent_dropout_mask(h_tm1)
            h_tm1_i, h_tm1_f, h_tm1_c, h_tm1_o = (h_tm1 * rec_dp_mask[k] for k in range(4))
        else:
            h_tm1_i = h_tm1_f = h_tm1_c = h_tm1_o = h_tm1
        kernel_i, kernel_f, kernel_c, kernel_o = ops.split(self.kernel, 4, axis=self.rank + 1)
        rk_i, rk_f, rk_c, rk_o = ops.split(self.recurrent_kernel, 4, axis=self.rank + 1)
        if self.use_bias:
            bias_i, bias_f, bias_c, bias_o = ops.split(self.bias, 4)
        else:
            bias_i = bias_f = bias_c = bias_o = None
        x_i = self.input_conv(inputs_i, kernel_i, bias_i, padding=self.padding)
        x_f = self.input_conv(inputs_f, kernel_f, bias_f, padding=self.padding)
        x_c = self.input_conv(inputs_c, kernel_c, bias_c, padding=self.padding)
        x_o = self.input_conv(inputs_o, kernel_o, bias_o, padding=self.padding)
        h_i = self.recurrent_conv(h_tm1_i, rk_i)
        h_f = self.recurrent_conv(h_tm1_f, rk_f)
        h_c = self.recurrent_conv(h_tm1_c, rk_c)
        h_o = self.recurrent_conv(h_tm1_o, rk_o)
        i = self.recurrent_activation(x_i + h_i)
        f = self.recurrent_activation(x_f + h_f)
        c = f * c_tm1 + i * self.activation(x_c + h_c)
        o = self.recurrent_activation(x_o + h_o)
        h = o * self.activation(c)
        return h, [h, c]

    def compute_output_shape(self, inputs_shape: Any, states_shape: Any = None) -> tuple:
        conv_output_shape = compute_conv_output_shape(inputs_shape, self.filters, self.kernel_size,
                                                      strides=self.strides, padding=self.padding,
                                                      data_format=self.data_format, dilation_rate=self.dilation_rate)
        return conv_output_shape, [conv_output_shape, conv_output_shape]

    def get_initial_state(self, batch_size: Any = None) -> list:
        ops = _ops()
        if self.data_format == "channels_last":
            input_shape = (batch_size,) + self.spatial_dims + (self.input_dim,)
        else:
            input_shape = (batch_size, self.input_dim) + self.spatial_dims
        state_shape = self.compute_output_shape(input_shape)[0]
        return [ops.zeros(state_shape, dtype=self.compute_dtype), ops.zeros(state_shape, dtype=self.compute_dtype)]

    def input_conv(self, x: Any, w: Any, b: Any = None, padding: str = "valid") -> Any:
        ops = _ops()
        conv_out = ops.conv(x, w, strides=self.strides, padding=padding, data_format=self.data_format,
                            dilation_rate=self.dilation_rate)
        if b is not None:
            if self.data_format == "channels_last":
                bias_shape = (1,) * (self.rank + 1) + (self.filters,)
            else:
                bias_shape = (1, self.filters) + (1,) * self.rank
            conv_out += ops.reshape(b, bias_shape)
        return conv_out

    def recurrent_conv(self, x: Any, w: Any) -> Any:
        strides = standardize_tuple(1, self.rank, "strides", allow_zero=True)
        return _ops().conv(x, w, strides=strides, padding="same", data_format=self.data_format)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "unit_forget_bias": self.unit_forget_bias,
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint), "dropout": self.dropout,
                "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}


_CELL_ATTRS = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
               "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
               "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
               "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")


class ConvLSTM(RNN):
    """Keras's ConvLSTM(rank, filters, kernel_size, ...): RNN of a ConvLSTMCell named "conv_lstm_cell"."""

    _rank = 0

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = 1, activation: Any = "tanh",
                 recurrent_activation: Any = "sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0, seed: Any = None,
                 return_sequences: bool = False, return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, **kwargs: Any) -> None:
        rank = self._rank
        cell = ConvLSTMCell(rank=rank, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
                            data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                            recurrent_activation=recurrent_activation, use_bias=use_bias,
                            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
                            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
                            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
                            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
                            dropout=dropout, recurrent_dropout=recurrent_dropout, seed=seed, name="conv_lstm_cell",
                            dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, activity_regularizer=activity_regularizer,
                         **kwargs)
        self.input_spec = InputSpec(ndim=rank + 3)

    def __getattr__(self, name: str) -> Any:
        cell = self.__dict__.get("cell")
        if cell is not None and name in _CELL_ATTRS:
            return getattr(cell, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: Any = False) -> Any:
        return super().call(sequences, initial_state=initial_state, mask=mask, training=training)

    def compute_output_shape(self, sequences_shape: Any, initial_state_shape: Any = None) -> Any:
        batch_size, steps = sequences_shape[0], sequences_shape[1]
        step_shape = (batch_size,) + tuple(sequences_shape[2:])
        state_shape = tuple(self.cell.compute_output_shape(step_shape)[0][1:])
        output_shape = (batch_size, steps) + state_shape if self.return_sequences else (batch_size,) + state_shape
        if self.return_state:
            batched_state_shape = (batch_size,) + state_shape
            return output_shape, batched_state_shape, batched_state_shape
        return output_shape

    def compute_mask(self, _: Any, mask: Any) -> Any:
        mask = flatten(mask)[0] if mask is not None else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask, None, None]
        return output_mask

    def get_config(self) -> dict[str, Any]:
        cell = self.cell
        config = {"filters": cell.filters, "kernel_size": cell.kernel_size, "strides": cell.strides,
                  "padding": cell.padding, "data_format": cell.data_format, "dilation_rate": cell.dilation_rate,
                  "activation": activations.serialize(cell.activation),
                  "recurrent_activation": activations.serialize(cell.recurrent_activation),
                  "use_bias": cell.use_bias, "kernel_initializer": initializers.serialize(cell.kernel_initializer),
                  "recurrent_initializer": initializers.serialize(cell.recurrent_initializer),
                  "bias_initializer": initializers.serialize(cell.bias_initializer),
                  "unit_forget_bias": cell.unit_forget_bias,
                  "kernel_regularizer": regularizers.serialize(cell.kernel_regularizer),
                  "recurrent_regularizer": regularizers.serialize(cell.recurrent_regularizer),
                  "bias_regularizer": regularizers.serialize(cell.bias_regularizer),
                  "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                  "kernel_constraint": constraints.serialize(cell.kernel_constraint),
                  "recurrent_constraint": constraints.serialize(cell.recurrent_constraint),
                  "bias_constraint": constraints.serialize(cell.bias_constraint), "dropout": cell.dropout,
                  "recurrent_dropout": cell.recurrent_dropout, "seed": cell.seed}
        base_config = super().get_config()
        del base_config["cell"]
        return {**base_config, **config}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "ConvLSTM":
        return cls(**config)


class ConvLSTM1D(ConvLSTM):
    """`keras.layers.ConvLSTM1D(filters, kernel_size, ...)`: sequences (batch, time, length, channels)."""
    _rank = 1


class ConvLSTM2D(ConvLSTM):
    """`keras.layers.ConvLSTM2D(filters, kernel_size, ...)`: sequences (batch, time, rows, cols, channels)."""
    _rank = 2


class ConvLSTM3D(ConvLSTM):
    """`keras.layers.ConvLSTM3D(filters, kernel_size, ...)`: sequences (batch, time, d1, d2, d3, channels)."""
    _rank = 3

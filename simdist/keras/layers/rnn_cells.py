"""Keras 3.15's recurrent cells (keras/src/layers/rnn/{simple_rnn,lstm,gru,dropout_rnn_cell}.py):
one time step of SimpleRNN, LSTM and GRU, computed with simdist.tf's ops (matmul, add, sigmoid,
tanh, slices) so the tape differentiates through time and the cost model counts every op.

Weights (names, shapes and order as Keras's, so weight files load): kernel (input_dim, k*units),
recurrent_kernel (units, k*units), bias (k*units,) — GRU with reset_after=True (the default) has
bias (2, 3*units): its input and recurrent biases. Gate order: LSTM i, f, c, o; GRU z, r, h.
Clauses keras.rnn.layers, keras.rnn.dropout in docs/spec.md.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import activations, initializers, regularizers, traced
from simdist.keras.layers.convolutional import keras_add
from simdist.keras.layers.layer import Layer
from simdist.keras.random import SeedGenerator

__all__ = ["DropoutRNNCell", "SimpleRNNCell", "LSTMCell", "GRUCell"]


def _matmul(x: Any, w: Any) -> Any:
    return tf.matmul(x, tf.convert_to_tensor(w))


def _check_units(units: Any) -> None:
    # (Keras 3.15's cells compare only: True and 2.0 pass, a str or None is Python's TypeError; a float state_size
    # is then refused by the RNN layer, spec keras.rnn.arguments)
    if units <= 0:
        raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, got {units}.")


class DropoutRNNCell:
    """Keras's dropout mixin: one dropout mask per call of the RNN (made from the first step's
    input, reused at every step, cleared when the RNN call ends); `dropout_mask_count` masks for
    the split-gate implementation (1)."""

    dropout: float
    recurrent_dropout: float
    seed_generator: SeedGenerator

    def _create_dropout_mask(self, step_input: Any, dropout_rate: float) -> Any:
        from simdist.keras import random
        count = getattr(self, "dropout_mask_count", None)
        ones = tf.ones_like(step_input)
        if count is None:
            return random.dropout(ones, rate=dropout_rate, seed=self.seed_generator)
        return [random.dropout(ones, rate=dropout_rate, seed=self.seed_generator) for _ in range(count)]

    def get_dropout_mask(self, step_input: Any) -> Any:
        if getattr(self, "_dropout_mask", None) is None and self.dropout > 0:
            object.__setattr__(self, "_dropout_mask", self._create_dropout_mask(step_input, self.dropout))
        return getattr(self, "_dropout_mask", None)

    def get_recurrent_dropout_mask(self, step_input: Any) -> Any:
        if getattr(self, "_recurrent_dropout_mask", None) is None and self.recurrent_dropout > 0:
            object.__setattr__(self, "_recurrent_dropout_mask",
                               self._create_dropout_mask(step_input, self.recurrent_dropout))
        return getattr(self, "_recurrent_dropout_mask", None)

    def reset_dropout_mask(self) -> None:
        object.__setattr__(self, "_dropout_mask", None)

    def reset_recurrent_dropout_mask(self) -> None:
        object.__setattr__(self, "_recurrent_dropout_mask", None)


class _Cell(Layer, DropoutRNNCell):
    """The arguments every Keras cell shares, stored as Keras stores them."""

    _extra_args: tuple[str, ...] = ()      # the cell's arguments beyond those (the layers pass them on)
    # Keras's SimpleRNNCell makes its SeedGenerator before its initializers, LSTMCell and GRUCell
    # after: under keras.utils.set_random_seed each draws its seed from Python's random in that order
    _seed_generator_first = False

    def __init__(self, units: int, activation: Any, use_bias: bool, kernel_initializer: Any,
                 recurrent_initializer: Any, bias_initializer: Any, kernel_regularizer: Any,
                 recurrent_regularizer: Any, bias_regularizer: Any, kernel_constraint: Any, recurrent_constraint: Any,
                 bias_constraint: Any, dropout: float, recurrent_dropout: float, seed: Any, **kwargs: Any) -> None:
        _check_units(units)
        super().__init__(**kwargs)
        if self._seed_generator_first:
            self.seed = seed
            self.seed_generator = SeedGenerator(seed=seed)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        if not self._seed_generator_first:
            self.seed = seed
            self.seed_generator = SeedGenerator(seed=seed)
        self.output_size = self.units

    def _add_kernels(self, input_dim: int, gates: int) -> None:
        self.kernel = self.add_weight(shape=(input_dim, self.units * gates), name="kernel",
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units * gates), name="recurrent_kernel",
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)

    def _add_bias(self, shape: tuple, initializer: Any) -> None:
        self.bias = self.add_weight(shape=shape, name="bias", initializer=initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def get_initial_state(self, batch_size: Any = None) -> list:
        sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else [self.state_size]
        return [tf.zeros((batch_size, d), dtype=self.compute_dtype) for d in sizes]

    def _base_config(self) -> dict[str, Any]:
        return {"units": self.units, "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint), "dropout": self.dropout,
                "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}


class SimpleRNNCell(_Cell):
    """`keras.layers.SimpleRNNCell(units, activation="tanh", ...)`:
    h_t = activation(x_t @ kernel + bias + h_{t-1} @ recurrent_kernel)."""

    _seed_generator_first = True

    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0, seed: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed, **kwargs)
        self.state_size = self.units

    def build(self, input_shape: Any) -> None:
        self._add_kernels(input_shape[-1], 1)
        self._add_bias((self.units,), self.bias_initializer)

    def call(self, sequence: Any, states: Any, training: bool = False) -> Any:
        prev_output = states[0] if isinstance(states, (list, tuple)) else states
        dp_mask = self.get_dropout_mask(sequence)
        rec_dp_mask = self.get_recurrent_dropout_mask(prev_output)
        if training and dp_mask is not None:
            sequence = sequence * dp_mask
        h = _matmul(sequence, self.kernel)
        if self.bias is not None:
            h = tf.add(h, tf.convert_to_tensor(self.bias))
        if training and rec_dp_mask is not None:
            prev_output = prev_output * rec_dp_mask
        output = h + _matmul(prev_output, self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, ([output] if isinstance(states, (list, tuple)) else output)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), **self._base_config()}


class LSTMCell(_Cell):
    """`keras.layers.LSTMCell(units, activation="tanh", recurrent_activation="sigmoid",
    unit_forget_bias=True, ...)`: states [h, c]; z = x @ kernel + h @ recurrent_kernel + bias
    split into i, f, c, o; c' = f*c + i*act(z_c); h' = o*act(c'). `implementation=1` (forced by
    recurrent_dropout) computes each gate with its own slice of the kernels."""

    _extra_args = ("recurrent_activation", "unit_forget_bias", "implementation")

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0, seed: Any = None,
                 **kwargs: Any) -> None:
        implementation = kwargs.pop("implementation", 2)
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed, **kwargs)
        self.implementation = 1 if self.recurrent_dropout != 0.0 else implementation
        if self.implementation == 1:
            self.dropout_mask_count = 4
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [self.units, self.units]

    def build(self, input_shape: Any) -> None:
        self._add_kernels(input_shape[-1], 4)
        if self.use_bias and self.unit_forget_bias:
            units, base = self.units, self.bias_initializer

            def bias_initializer(_: Any, *args: Any, **kwargs: Any) -> Any:
                return tf.concat([base((units,), *args, **kwargs), initializers.get("ones")((units,), *args, **kwargs),
                                  base((units * 2,), *args, **kwargs)], axis=0)
            self._add_bias((self.units * 4,), bias_initializer)
        else:
            self._add_bias((self.units * 4,), self.bias_initializer)

    def call(self, inputs: Any, states: Any, training: bool = False) -> Any:
        h_tm1, c_tm1 = states[0], states[1]
        act, rec = self.activation, self.recurrent_activation
        if self.implementation == 1:
            dp = self.get_dropout_mask(inputs) if training and 0.0 < self.dropout < 1.0 else None
            xs = [inputs * dp[i] for i in range(4)] if dp is not None else [inputs] * 4
            kernels = tf.split(tf.convert_to_tensor(self.kernel), 4, axis=1)
            x = [_matmul(xs[i], kernels[i]) for i in range(4)]
            if self.use_bias:
                biases = tf.split(tf.convert_to_tensor(self.bias), 4, axis=0)
                x = [x[i] + biases[i] for i in range(4)]
            rdp = self.get_recurrent_dropout_mask(h_tm1) if training and 0.0 < self.recurrent_dropout < 1.0 else None
            hs = [h_tm1 * rdp[i] for i in range(4)] if rdp is not None else [h_tm1] * 4
            rk, u = tf.convert_to_tensor(self.recurrent_kernel), self.units
            i = rec(x[0] + tf.matmul(hs[0], rk[:, :u]))
            f = rec(x[1] + tf.matmul(hs[1], rk[:, u:u * 2]))
            c = f * c_tm1 + i * act(x[2] + tf.matmul(hs[2], rk[:, u * 2:u * 3]))
            o = rec(x[3] + tf.matmul(hs[3], rk[:, u * 3:]))
        else:
            if training and 0.0 < self.dropout < 1.0:
                inputs = inputs * self.get_dropout_mask(inputs)
            z = _matmul(inputs, self.kernel)
            # Keras's ops.add: its bias rule drops static dimensions of size 0, so on an empty batch of known
            # size the recurrent term [0, 4u] passes for a bias and tf.nn.bias_add rejects it (eagerly
            # InvalidArgumentError, traced ValueError); an unknown batch dimension (a traced step) adds
            # (TF 2.21: clause keras.layer.rnn-empty-batch)
            rec_term = _matmul(h_tm1, self.recurrent_kernel)
            z = tf.add(z, rec_term) if traced.batch_dim_unknown() else keras_add(z, rec_term)
            if self.use_bias:
                z = keras_add(z, self.bias)
            z0, z1, z2, z3 = tf.split(z, 4, axis=1)
            i = rec(z0)
            f = rec(z1)
            c = f * c_tm1 + i * act(z2)
            o = rec(z3)
        h = o * act(c)
        return h, [h, c]

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), **self._base_config(),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_Cell):
    """`keras.layers.GRUCell(units, activation="tanh", recurrent_activation="sigmoid",
    reset_after=True, ...)`: z, r from x and h; hh = act(x_h + r * (h @ R_h + b_rh)) when
    reset_after, else act(x_h + (r*h) @ R_h); h' = z*h + (1-z)*hh."""

    _extra_args = ("recurrent_activation", "reset_after", "implementation")

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0, reset_after: bool = True, seed: Any = None,
                 **kwargs: Any) -> None:
        implementation = kwargs.pop("implementation", 2)
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed, **kwargs)
        self.implementation = 1 if self.recurrent_dropout != 0.0 else implementation
        if self.implementation == 1:
            self.dropout_mask_count = 3
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after
        self.state_size = self.units

    def build(self, input_shape: Any) -> None:
        self._add_kernels(input_shape[-1], 3)
        shape = (2, 3 * self.units) if self.reset_after else (3 * self.units,)
        self._add_bias(shape, self.bias_initializer)

    def call(self, inputs: Any, states: Any, training: bool = False) -> Any:
        nested = isinstance(states, (list, tuple))
        h_tm1 = states[0] if nested else states
        u, act, rec = self.units, self.activation, self.recurrent_activation
        input_bias = recurrent_bias = None
        if self.use_bias:
            bias = tf.convert_to_tensor(self.bias)
            if self.reset_after:
                input_bias, recurrent_bias = (tf.squeeze(e, axis=0) for e in tf.split(bias, 2, axis=0))
            else:
                input_bias = bias
        kernel, rk = tf.convert_to_tensor(self.kernel), tf.convert_to_tensor(self.recurrent_kernel)
        if self.implementation == 1:
            dp = self.get_dropout_mask(inputs) if training and 0.0 < self.dropout < 1.0 else None
            xs = [inputs * dp[i] for i in range(3)] if dp is not None else [inputs] * 3
            x_z, x_r, x_h = (tf.matmul(xs[0], kernel[:, :u]), tf.matmul(xs[1], kernel[:, u:u * 2]),
                             tf.matmul(xs[2], kernel[:, u * 2:]))
            if input_bias is not None:
                x_z, x_r, x_h = x_z + input_bias[:u], x_r + input_bias[u:u * 2], x_h + input_bias[u * 2:]
            rdp = self.get_recurrent_dropout_mask(h_tm1) if training and 0.0 < self.recurrent_dropout < 1.0 else None
            hs = [h_tm1 * rdp[i] for i in range(3)] if rdp is not None else [h_tm1] * 3
            recurrent_z, recurrent_r = tf.matmul(hs[0], rk[:, :u]), tf.matmul(hs[1], rk[:, u:u * 2])
            if self.reset_after and recurrent_bias is not None:
                recurrent_z, recurrent_r = recurrent_z + recurrent_bias[:u], recurrent_r + recurrent_bias[u:u * 2]
            z = rec(x_z + recurrent_z)
            r = rec(x_r + recurrent_r)
            if self.reset_after:
                recurrent_h = tf.matmul(hs[2], rk[:, u * 2:])
                if recurrent_bias is not None:
                    recurrent_h = recurrent_h + recurrent_bias[u * 2:]
                recurrent_h = r * recurrent_h
            else:
                recurrent_h = tf.matmul(r * hs[2], rk[:, u * 2:])
        else:
            if training and 0.0 < self.dropout < 1.0:
                inputs = inputs * self.get_dropout_mask(inputs)
            matrix_x = tf.matmul(inputs, kernel)
            if input_bias is not None:
                matrix_x = tf.add(matrix_x, input_bias)
            x_z, x_r, x_h = tf.split(matrix_x, 3, axis=-1)
            if self.reset_after:
                matrix_inner = tf.matmul(h_tm1, rk)
                if recurrent_bias is not None:
                    matrix_inner = matrix_inner + recurrent_bias
            else:
                matrix_inner = tf.matmul(h_tm1, rk[:, :2 * u])
            recurrent_z, recurrent_r = matrix_inner[:, :u], matrix_inner[:, u:u * 2]
            z = rec(x_z + recurrent_z)
            r = rec(x_r + recurrent_r)
            if self.reset_after:
                recurrent_h = r * matrix_inner[:, u * 2:]
            else:
                recurrent_h = tf.matmul(r * h_tm1, rk[:, 2 * u:])
        hh = act(x_h + recurrent_h)
        h = z * h_tm1 + (1 - z) * hh
        return h, ([h] if nested else h)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), **self._base_config(),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "reset_after": self.reset_after}

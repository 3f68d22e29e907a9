"""`keras.layers.RNN(cell)` and the recurrent layers SimpleRNN, LSTM and GRU (Keras 3.15's
keras/src/layers/rnn/): a cell run over the time steps by rnn_loop.rnn. On a CPU Keras's TF
backend takes this generic loop for LSTM and GRU too (its cuDNN kernels need a GPU), so these
are the values TF 2.21 gives there.

- `return_sequences`: every step's output (batch, steps, units), else the last (batch, units);
  `return_state`: the final states follow the output.
- `go_backwards`: the steps are read last to first; returned sequences stay in that order.
- Masks (an `Embedding(mask_zero=True)` or `Masking` before, or `mask=`): masked steps carry
  the states and the previous output; the output mask is the input's when returning sequences.
- `unroll=True` computes the same values (the loop is a Python loop either way).
- `stateful=True`: build makes one untracked, non-trainable "rnn_state" variable per state for
  the (static) batch size; a call without initial_state starts from them and writes its final
  states back; `reset_state()` (alias `reset_states()`) zeroes them (Keras 3.15's RNN).
Clauses keras.rnn.* in docs/spec.md.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import activations, dtype_policies, initializers, regularizers
from simdist.keras.keras_tensor import flatten
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer
from simdist.keras.layers.rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, DropoutRNNCell
from simdist.keras.layers.rnn_loop import rnn
from simdist.keras.layers.stacked_rnn_cells import StackedRNNCells

__all__ = ["RNN", "SimpleRNN", "LSTM", "GRU"]


def _cell_names() -> dict[str, Any]:
    from simdist.keras.layers.layer_serialization import layer_bindings
    return layer_bindings()


class RNN(Layer):
    """`keras.layers.RNN(cell, return_sequences=False, return_state=False, go_backwards=False,
    stateful=False, unroll=False, zero_output_for_mask=False)`."""

    def __init__(self, cell: Any, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 zero_output_for_mask: bool = False, **kwargs: Any) -> None:
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError("The RNN cell should have a `state_size` attribute (single integer or list of integers, "
                             f"one integer per RNN state). Received: cell={cell}")
        super().__init__(**kwargs)
        self.zero_output_for_mask = zero_output_for_mask
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.supports_masking = True
        self.input_spec = None
        self.states: Any = None
        self._expected_batch_size: Any = None
        state_size = getattr(self.cell, "state_size", None)
        if state_size is None:
            raise ValueError("state_size must be specified as property on the RNN cell.")
        if not isinstance(state_size, (list, tuple, int)):
            raise ValueError("state_size must be an integer, or a list/tuple of integers (one for each state tensor).")
        if isinstance(state_size, int):
            self.state_size = [state_size]
            self.single_state = True
        else:
            self.state_size = list(state_size)
            self.single_state = False

    def compute_output_shape(self, sequences_shape: Any, initial_state_shape: Any = None) -> Any:
        batch_size, length = sequences_shape[0], sequences_shape[1]
        states_shape = [(batch_size, s) if isinstance(s, int) else [(batch_size, d) for d in s]
                        for s in self.state_size]
        output_size = getattr(self.cell, "output_size", None)
        if output_size is None:
            output_size = self.state_size[0]
        if not isinstance(output_size, int):
            raise ValueError("output_size must be an integer.")
        output_shape = (batch_size, length, output_size) if self.return_sequences else (batch_size, output_size)
        if self.return_state:
            return (output_shape, *states_shape)
        return output_shape

    def compute_mask(self, _: Any, mask: Any) -> Any:
        mask = flatten(mask)[0] if mask is not None else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in self.state_size]
        return output_mask

    def build(self, sequences_shape: Any, initial_state_shape: Any = None) -> None:
        step_input_shape = (sequences_shape[0],) + tuple(sequences_shape[2:])
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build(step_input_shape)
            self.cell.built = True
        if self.stateful:
            if self.states is not None:
                self.reset_state()
            else:
                if sequences_shape[0] is None:
                    raise ValueError("When using `stateful=True` in a RNN, the batch size must be static. Found "
                                     f"dynamic batch size: sequence.shape={tuple(sequences_shape)}")
                self._create_state_variables(sequences_shape[0])
                self._expected_batch_size = int(sequences_shape[0])

    def _create_state_variables(self, batch_size: int) -> None:
        """One non-trainable variable per state, outside the layer's weights (Keras creates them
        under no_automatic_dependency_tracking)."""
        from simdist.keras.tracking import no_tracking
        from simdist.keras.variables import Variable
        with no_tracking():
            self.states = tf.nest.map_structure(
                lambda value: Variable(value, trainable=False, dtype=self.variable_dtype, name="rnn_state"),
                self.get_initial_state(batch_size))

    def reset_states(self) -> None:
        """Compatibility alias of reset_state."""
        self.reset_state()

    def reset_state(self) -> None:
        """Zero the stateful layer's state variables."""
        if self.states is not None:
            # (over the top level, as Keras: the nested states of StackedRNNCells are a list, whose
            # missing `assign` is Keras's AttributeError)
            for v in self.states:
                v.assign(tf.zeros_like(v.value))

    def get_initial_state(self, batch_size: Any) -> list:
        fn = getattr(self.cell, "get_initial_state", None)
        if fn is None:
            return [tf.zeros((batch_size, d), dtype=self.cell.compute_dtype) for d in self.state_size]
        init_state = fn(batch_size=batch_size)
        return list(init_state) if isinstance(init_state, (list, tuple)) else [init_state]

    def inner_loop(self, sequences: Any, initial_state: Any, mask: Any, training: Any = False) -> Any:
        cell_kwargs = {}
        if isinstance(self.cell, Layer) and self.cell._call_has_training_arg:
            cell_kwargs["training"] = training

        cell = self.cell
        # The first step calls the cell through Layer.__call__ (its checks, conversions, error
        # wrapping); a built cell of Keras's own then runs `call` directly at the later steps:
        # inside the RNN's call, __call__ does nothing more for it (same autocast scope and
        # training, no masks, no losses), and it is a good part of each step's Python time.
        direct = type(cell) in (SimpleRNNCell, LSTMCell, GRUCell) and cell.activity_regularizer is None
        called: list[bool] = []

        def step(inputs: Any, states: tuple) -> Any:
            if direct and called:
                output, new_states = cell.call(inputs, list(states), **cell_kwargs)
            else:
                output, new_states = cell(inputs, list(states), **cell_kwargs)
                called.append(True)
            return output, new_states if isinstance(new_states, (list, tuple)) else [new_states]

        if not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        flat = tf.nest.flatten(initial_state)
        if len(flat) != len(initial_state) or any(isinstance(s, (list, tuple)) for s in initial_state):
            # nested states (StackedRNNCells): the loop carries them flat, the cell sees them packed
            # (Keras's TF backend rnn flattens and packs them the same way)
            structure = initial_state
            inner = step

            def step(inputs: Any, states: tuple) -> Any:  # noqa: F811 - the packing wrapper of `step`
                output, new_states = inner(inputs, tf.nest.pack_sequence_as(structure, list(states)))
                return output, tf.nest.flatten(new_states)
            last, outputs, states = rnn(step, sequences, flat, go_backwards=self.go_backwards, mask=mask,
                                        zero_output_for_mask=self.zero_output_for_mask,
                                        return_all_outputs=self.return_sequences)
            return last, outputs, tf.nest.pack_sequence_as(structure, list(states))
        return rnn(step, sequences, initial_state, go_backwards=self.go_backwards, mask=mask,
                   zero_output_for_mask=self.zero_output_for_mask, return_all_outputs=self.return_sequences)

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: Any = False) -> Any:
        if initial_state is None:
            if self.stateful:
                initial_state = tf.nest.map_structure(lambda v: v.value, self.states)
            else:
                initial_state = self.get_initial_state(batch_size=tf.shape(sequences)[0])
        if self.stateful:
            actual = sequences.shape[0]
            if self._expected_batch_size is not None and actual is not None and actual != self._expected_batch_size:
                raise ValueError("If an RNN is stateful, the batch size of the input sequences must be the same as "
                                 "the batch size of the initial state. \n"
                                 f"- Expected batch size: {self._expected_batch_size}\n"
                                 f"- Received batch size: {actual}")
        if not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        initial_state = [tf.nest.map_structure(lambda x: tf.cast(tf.convert_to_tensor(x), self.cell.compute_dtype), s)
                         for s in initial_state]
        self._maybe_config_dropout_masks(self.cell, sequences[:, 0, :], initial_state)
        last_output, outputs, states = self.inner_loop(sequences=sequences, initial_state=initial_state,
                                                       mask=mask, training=training)
        last_output = tf.cast(last_output, self.compute_dtype)
        outputs = tf.cast(outputs, self.compute_dtype)
        states = [tf.nest.map_structure(lambda x: tf.cast(x, self.compute_dtype), s) for s in states]
        self._maybe_reset_dropout_masks(self.cell)
        if self.stateful:
            for variable, state in zip(tf.nest.flatten(self.states), tf.nest.flatten(states)):
                variable.assign(state)
        output = outputs if self.return_sequences else last_output
        if self.return_state:
            return (output, *states)
        return output

    @staticmethod
    def _maybe_config_dropout_masks(cell: Any, input_sequence: Any, input_state: Any) -> None:
        state = input_state[0] if isinstance(input_state, (list, tuple)) else input_state
        if isinstance(cell, DropoutRNNCell):
            cell.get_dropout_mask(input_sequence)
            cell.get_recurrent_dropout_mask(state)
        if isinstance(cell, StackedRNNCells):
            for c, s in zip(cell.cells, input_state):
                RNN._maybe_config_dropout_masks(c, input_sequence, s)
                # (as StackedRNNCells.call: the next cell's input is this cell's output)
                s = list(s) if isinstance(s, (list, tuple)) else [s]
                cell_call_fn = c.__call__ if callable(c) else c.call
                input_sequence, _ = cell_call_fn(input_sequence, s)

    @staticmethod
    def _maybe_reset_dropout_masks(cell: Any) -> None:
        if isinstance(cell, DropoutRNNCell):
            cell.reset_dropout_mask()
            cell.reset_recurrent_dropout_mask()
        if isinstance(cell, StackedRNNCells):
            for c in cell.cells:
                RNN._maybe_reset_dropout_masks(c)

    def get_config(self) -> dict[str, Any]:
        from simdist.keras.serialization import serialize_keras_object
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": self.stateful,
                "unroll": self.unroll, "zero_output_for_mask": self.zero_output_for_mask,
                "cell": serialize_keras_object(self.cell, "keras.layers")}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "RNN":
        from simdist.keras.serialization import deserialize_keras_object
        config = dict(config)
        cell = deserialize_keras_object(config.pop("cell"), _cell_names(), "layer", custom_objects)
        return super().from_config({**config, "cell": cell})


_CELL_ARGS = ("units", "activation", "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
              "kernel_regularizer", "recurrent_regularizer", "bias_regularizer", "kernel_constraint",
              "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")


def _cudnn_attempt_dropout(layer: Any, sequences: Any, training: Any) -> None:
    """Keras 3.15's LSTM/GRU.inner_loop before trying the backend's cuDNN kernel (use_cudnn "auto", no recurrent
    dropout, training with dropout; use_cudnn=True too, before its ValueError): the cell's dropout mask of the first step, expanded on axis 1 and broadcast to the
    sequences. The split-gate cells (implementation 1) keep one mask per gate, a list that stacks to rank 3, so the
    broadcast to the rank-3 sequences fails as on TF 2.21 (InvalidArgumentError "Rank of input (4) must be no greater
    than rank of output shape (3)"; traced: ValueError); a single mask broadcasts, unused, as in Keras (the mask is the
    cell's, drawn once: the fallback loop reuses it). Clause keras.rnn.dropout; blind55a's gaps probe."""
    if getattr(layer, "use_cudnn", None) not in ("auto", True) or layer.cell.recurrent_dropout or not (training and layer.cell.dropout):
        return
    mask = layer.cell.get_dropout_mask(sequences[:, 0, :])
    if isinstance(mask, (list, tuple)):
        tf.broadcast_to(tf.expand_dims(mask, axis=1), tf.shape(sequences))


class _CellLayer(RNN):
    """A recurrent layer that owns its cell: the cell's arguments read through, and Keras's
    config (the cell's arguments inline, no "cell" entry)."""

    def __getattr__(self, name: str) -> Any:
        cell = self.__dict__.get("cell")
        if cell is not None and (name in _CELL_ARGS or name in type(cell)._extra_args):
            return getattr(cell, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: Any = False) -> Any:
        return super().call(sequences, mask=mask, training=training, initial_state=initial_state)

    def inner_loop(self, sequences: Any, initial_state: Any, mask: Any, training: Any = False) -> Any:
        # (LSTM and GRU: Keras's TF backend has their cuDNN kernels on GPUs only)
        _cudnn_attempt_dropout(self, sequences, training)
        if getattr(self, "use_cudnn", "auto") is True:
            raise ValueError("use_cudnn=True was specified, but cuDNN is not supported for this layer configuration "
                             "with this backend. Pass use_cudnn='auto' to fallback to a non-cuDNN implementation.")
        return super().inner_loop(sequences, initial_state, mask=mask, training=training)

    def _layer_config(self) -> dict[str, Any]:
        config = super().get_config()
        del config["cell"]
        cell = self.cell
        config.update({"units": cell.units, "activation": activations.serialize(cell.activation),
                       "use_bias": cell.use_bias,
                       "kernel_initializer": initializers.serialize(cell.kernel_initializer),
                       "recurrent_initializer": initializers.serialize(cell.recurrent_initializer),
                       "bias_initializer": initializers.serialize(cell.bias_initializer),
                       "kernel_regularizer": regularizers.serialize(cell.kernel_regularizer),
                       "recurrent_regularizer": regularizers.serialize(cell.recurrent_regularizer),
                       "bias_regularizer": regularizers.serialize(cell.bias_regularizer),
                       "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                       "kernel_constraint": constraints.serialize(cell.kernel_constraint),
                       "recurrent_constraint": constraints.serialize(cell.recurrent_constraint),
                       "bias_constraint": constraints.serialize(cell.bias_constraint),
                       "dropout": cell.dropout, "recurrent_dropout": cell.recurrent_dropout})
        return config

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "RNN":
        """Keras's SimpleRNN/LSTM/GRU.from_config: `cls(**config)` without Operation.from_config's TypeError
        wrapper (an unknown initializer stays initializers.get's ValueError; keras.rnn.config, asweep65); a dtype
        policy's dict passes as Layer.__init__ would take it."""
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            policy = dtype_policies.get(config["dtype"])
            config["dtype"] = policy.name if policy.quantization_mode is None else policy
        return cls(**config)


def _check_use_cudnn(use_cudnn: Any) -> Any:
    if use_cudnn not in ("auto", True, False):
        raise ValueError("Invalid valid received for argument `use_cudnn`. Expected one of {'auto', True, False}. "
                         f"Received: use_cudnn={use_cudnn}")
    return use_cudnn


def _rnn_kwargs(kwargs: dict, go_backwards: bool, return_sequences: bool, return_state: bool, stateful: bool,
                unroll: bool) -> dict:
    return dict(return_sequences=return_sequences, return_state=return_state, go_backwards=go_backwards,
                stateful=stateful, unroll=unroll, **kwargs)


def _own_cell(cell_cls: type, name: str, args: dict[str, Any], kwargs: dict[str, Any],
              extra: tuple[str, ...] = ()) -> Any:
    """The cell a recurrent layer makes for itself (Keras's SimpleRNN/LSTM/GRU): the layer's cell
    arguments (`args`: its __init__'s locals) and `extra` ones, its dtype and trainable, and
    `implementation` (popped from the layer's kwargs) for cells that have one; named as Keras
    names it ("lstm_cell", ...), so the weights' paths are Keras's."""
    cell_args = {k: args[k] for k in _CELL_ARGS + ("seed",) + extra}
    if "implementation" in cell_cls._extra_args:
        cell_args["implementation"] = kwargs.pop("implementation", 2)
    return cell_cls(**cell_args, dtype=kwargs.get("dtype", None), trainable=kwargs.get("trainable", True), name=name)


class SimpleRNN(_CellLayer):
    """`keras.layers.SimpleRNN(units, activation="tanh", ...)`: a SimpleRNNCell named
    "simple_rnn_cell" over the steps."""

    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False, seed: Any = None,
                 **kwargs: Any) -> None:
        cell = _own_cell(SimpleRNNCell, "simple_rnn_cell", locals(), kwargs)
        # (Keras 3.15's SimpleRNN takes activity_regularizer but does not pass it on)
        super().__init__(cell, **_rnn_kwargs(kwargs, go_backwards, return_sequences, return_state, stateful, unroll))
        self.input_spec = [InputSpec(ndim=3)]

    def get_config(self) -> dict[str, Any]:
        return self._layer_config()


class LSTM(_CellLayer):
    """`keras.layers.LSTM(units, activation="tanh", recurrent_activation="sigmoid",
    unit_forget_bias=True, ...)`: an LSTMCell named "lstm_cell" over the steps."""

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, seed: Any = None, return_sequences: bool = False,
                 return_state: bool = False, go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 use_cudnn: Any = "auto", **kwargs: Any) -> None:
        cell = _own_cell(LSTMCell, "lstm_cell", locals(), kwargs, ("recurrent_activation", "unit_forget_bias"))
        super().__init__(cell, activity_regularizer=activity_regularizer,
                         **_rnn_kwargs(kwargs, go_backwards, return_sequences, return_state, stateful, unroll))
        self.input_spec = InputSpec(ndim=3)
        self.use_cudnn = _check_use_cudnn(use_cudnn)

    def get_config(self) -> dict[str, Any]:
        cell = self.cell
        return {**self._layer_config(), "recurrent_activation": activations.serialize(cell.recurrent_activation),
                "unit_forget_bias": cell.unit_forget_bias, "seed": cell.seed}


class GRU(_CellLayer):
    """`keras.layers.GRU(units, activation="tanh", recurrent_activation="sigmoid",
    reset_after=True, ...)`: a GRUCell named "gru_cell" over the steps (one state)."""

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0, seed: Any = None,
                 return_sequences: bool = False, return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, unroll: bool = False, reset_after: bool = True, use_cudnn: Any = "auto",
                 **kwargs: Any) -> None:
        cell = _own_cell(GRUCell, "gru_cell", locals(), kwargs, ("recurrent_activation", "reset_after"))
        super().__init__(cell, activity_regularizer=activity_regularizer,
                         **_rnn_kwargs(kwargs, go_backwards, return_sequences, return_state, stateful, unroll))
        self.input_spec = InputSpec(ndim=3)
        self.use_cudnn = _check_use_cudnn(use_cudnn)

    def inner_loop(self, sequences: Any, initial_state: Any, mask: Any, training: Any = False) -> Any:
        if isinstance(initial_state, (list, tuple)):
            initial_state = initial_state[0]
        return super().inner_loop(sequences, initial_state, mask=mask, training=training)

    def get_config(self) -> dict[str, Any]:
        cell = self.cell
        return {**self._layer_config(), "recurrent_activation": activations.serialize(cell.recurrent_activation),
                "reset_after": cell.reset_after, "seed": cell.seed}

"""The loop over time steps of Keras 3.15's TensorFlow backend (`keras.src.backend.tensorflow.
rnn.rnn`), as a Python loop of simdist.tf ops: the tape records each step, so gradients flow
through time, and a tf.function records the unrolled steps.

The rules it keeps (clauses keras.rnn.layers, keras.mask.propagation in docs/spec.md):
- steps are read along axis 1; `go_backwards` reads them last to first and the outputs stay in
  that reversed order;
- with a mask (batch, steps), a masked step keeps the previous states and emits the previous
  step's output (zeros before the first kept step), or zeros when `zero_output_for_mask`;
- `return_all_outputs=False` keeps only the last step's output: `outputs` is then (batch, 1, units);
- `last_output` is the last output emitted (after masking).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from simdist import tf

__all__ = ["rnn"]


class _StepMasks:
    """The (batch, steps) mask's step slices, broadcastable against a (batch, ...) tensor of
    a given rank: the mask is expanded once per rank and unstacked once, not expanded at every
    step for every state (the same booleans, fewer ops per step)."""

    def __init__(self, mask: Any) -> None:
        self._mask = mask
        self._by_rank: dict[int, list[Any]] = {}

    def at(self, t: int, like: Any) -> Any:
        rank = len(like.shape)
        steps = self._by_rank.get(rank)
        if steps is None:
            mask = self._mask
            for _ in range(rank - 1):
                mask = tf.expand_dims(mask, -1)
            steps = self._by_rank[rank] = tf.unstack(mask, axis=1)
        return steps[t]


def rnn(step_function: Callable[[Any, tuple], tuple[Any, Any]], inputs: Any, initial_states: Sequence[Any],
        go_backwards: bool = False, mask: Any = None, zero_output_for_mask: bool = False,
        return_all_outputs: bool = True) -> tuple[Any, Any, list]:
    """(last_output, outputs (batch, steps or 1, ...), final states) of `step_function` run over
    the steps of `inputs` (batch, steps, ...) from `initial_states`."""
    inputs = tf.convert_to_tensor(inputs)
    if len(inputs.shape) < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {len(inputs.shape)} "
                         f"(the sequences of a recurrent layer: (batch, timesteps, features); got {inputs.shape})")
    steps = inputs.shape[1]
    if steps is None:
        raise ValueError("simdist: a recurrent layer needs a known number of time steps (axis 1) when it runs; "
                         f"got inputs of shape {inputs.shape}")
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    # One Unpack of the steps (as TF's TensorArray.unstack): its gradient is one Pack, where a
    # slice per step would scatter each step's gradient into a zero tensor of the whole input.
    step_inputs = tf.unstack(inputs, axis=1)
    step_masks: _StepMasks | None = None
    if mask is not None:
        mask = tf.convert_to_tensor(mask)
        if mask.dtype != tf.bool:
            mask = tf.cast(mask, tf.bool)
        if len(mask.shape) == 3:
            mask = tf.squeeze(mask, axis=-1)
        step_masks = _StepMasks(mask)
    states = list(initial_states)
    outputs: list[Any] = []
    prev_output: Any = None
    for t in order:
        output, new_states = step_function(step_inputs[t], tuple(states))
        new_states = list(new_states) if isinstance(new_states, (list, tuple)) else [new_states]
        if step_masks is not None:
            if prev_output is None or zero_output_for_mask:
                fallback = tf.zeros_like(output)
            else:
                fallback = prev_output
            output = tf.where(step_masks.at(t, output), output, fallback)
            new_states = [tf.where(step_masks.at(t, s), s, ps) for s, ps in zip(new_states, states)]
            prev_output = output
        states = new_states
        if return_all_outputs:
            outputs.append(output)
        else:
            outputs = [output]
    last_output = outputs[-1]
    return last_output, tf.stack(outputs, axis=1), states

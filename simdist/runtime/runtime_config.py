"""The TF runtime's process-wide configuration and whether the runtime has initialised.

TF's eager context initialises lazily, on the first tensor it makes (context.ensure_initialized,
called from convert_to_eager_tensor; creating a Keras optimizer or a tf.data dataset makes one),
and from then on the physical-device settings (visible devices, logical device splits, memory
growth) and the thread pools' sizes are fixed: changing one is RuntimeError, setting it to the
value it has is not (clause config.runtime-initialization). simdist initialises at the same
event: `Tensor()` calls `initialize` on the first tensor it makes; `simdist.configure` (a new
simulated machine, i.e. a new TF process) makes the runtime fresh again, with a fresh
`RuntimeConfig` for the client. Each client program is its own TF process: `FRESH` holds the
running client's state, and a switch between clients (execution.switch) keeps the other's in its
`RuntimeConfig`.

`RuntimeConfig` holds what `tf.config` sets for a client process: the thread pools' sizes
(tf.config.threading), op determinism (tf.config.experimental.enable_op_determinism) and TF32
(tf.config.experimental.enable_tensor_float_32_execution), clause config.runtime-settings.
"""

from __future__ import annotations

import operator
from typing import Any

__all__ = ["FRESH", "RuntimeConfig", "initialized", "initialize", "mark", "reset", "switch_client", "thread_count", "thread_counts"]

#: [True] until the runtime initialised (a one-item list, so Tensor() reads it in place).
FRESH: list[bool] = [True]
_INT32_MAX = 2**31 - 1


class RuntimeConfig:
    """One client process's runtime settings, as TF's eager context keeps them (context.Context)."""

    __slots__ = ("inter_op_threads", "intra_op_threads", "op_determinism", "tf32", "initialized", "optimizer",
                 "jit", "device_policy", "synchronous", "log_placement", "mlir_bridge")

    def __init__(self) -> None:
        # tf.config.threading's values as set (None: unset, read as 0); TF keeps the raw value and
        # converts it into its ConfigProto when it reads it (thread_count)
        self.inter_op_threads: Any = None
        self.intra_op_threads: Any = None
        self.op_determinism = False   # tf.config.experimental.enable_op_determinism()
        self.tf32 = True              # TF32 on tensor cores for float32 matmuls/convolutions (TF's default)
        self.initialized = False      # kept here while another client runs (`FRESH` holds the running one's)
        # tf.config.optimizer.set_experimental_options' dict as given (context._optimizer_experimental_options,
        # updated by each call; runtime/ops/grappler.py reads it), and set_jit's autoclustering flag
        self.optimizer: dict[str, Any] = {}
        self.jit = False
        # tf.config.experimental.set_device_policy / set_synchronous_execution, tf.debugging's
        # set_log_device_placement, enable/disable_mlir_bridge: the context's flags as set (simdist
        # places, runs and logs as it does whatever they hold: only read back)
        self.device_policy = "silent"
        self.synchronous = True
        self.log_placement = False
        self.mlir_bridge: Any = None


def thread_count(value: Any, field: str) -> int:
    """A thread setting as TF's ConfigProto holds it (context.config): unset is 0; a bool or a
    non-integer is TypeError, an integer outside int32 ValueError, as protobuf's int32 field says."""
    if value is None:
        return 0
    if isinstance(value, bool):
        raise TypeError(f"Field tensorflow.ConfigProto.{field}: Expected an int, got a boolean.")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer") from None
    if not -_INT32_MAX - 1 <= n <= _INT32_MAX:
        raise ValueError(f"Value out of range: {n}")
    return int(n)


def thread_counts(cfg: RuntimeConfig) -> tuple[int, int]:
    """(inter, intra) as TF's context.config builds its ConfigProto, intra first: reading either
    count converts both, so a bad value in one fails the other's read too."""
    intra = thread_count(cfg.intra_op_threads, "intra_op_parallelism_threads")
    inter = thread_count(cfg.inter_op_threads, "inter_op_parallelism_threads")
    return inter, intra


def initialized() -> bool:
    """Whether the runtime has initialised (a tensor was made since the machine was configured)."""
    return not FRESH[0]


def initialize() -> None:
    """The first tensor's initialisation: TF builds its ConfigProto then, so a thread setting it
    cannot hold fails every tensor until it is set right (TypeError/ValueError, as TF's)."""
    from simdist.runtime import execution
    thread_counts(execution.current().client.config)
    FRESH[0] = False


def switch_client(old: RuntimeConfig, new: RuntimeConfig) -> None:
    """The running client changes from the one with config `old` to the one with `new`."""
    old.initialized = not FRESH[0]
    FRESH[0] = not new.initialized


def mark() -> None:
    """Initialise the runtime now (TF: listing logical devices, building a strategy)."""
    FRESH[0] = False


def reset() -> None:
    """A fresh, uninitialised runtime (simdist.configure: a new machine is a new TF process)."""
    FRESH[0] = True

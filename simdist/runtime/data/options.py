"""`tf.data.Options` and its groups (distribute, optimization, threading, autotune), with
`tf.data.experimental.AutoShardPolicy` and `ExternalStatePolicy` (TF's data/ops/options.py)."""

from __future__ import annotations

import copy
import enum
from typing import Any


class AutoShardPolicy(enum.IntEnum):
    """`tf.data.experimental.AutoShardPolicy` (values as TF 2.21)."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    """`tf.data.experimental.ExternalStatePolicy`."""

    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionsBase:
    """TF's OptionsBase: a fixed set of typed properties; unset ones read as their default."""

    _FIELDS: dict[str, tuple[Any, Any]] = {}   # name -> (type or tuple of types, default or factory)
    _ALIASES: dict[str, str] = {}

    def __init__(self) -> None:
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name: str) -> Any:
        name = type(self)._ALIASES.get(name, name)
        fields = type(self)._FIELDS
        if name not in fields:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        ty, default = fields[name]
        if isinstance(default, type) and issubclass(default, _OptionsBase):
            values[name] = default()            # nested options objects are created on first access
            return values[name]
        return default

    def __setattr__(self, name: str, value: Any) -> None:
        name = type(self)._ALIASES.get(name, name)
        fields = type(self)._FIELDS
        if name not in fields:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        ty, _ = fields[name]
        if value is not None and ty is not None and not isinstance(value, ty):
            shown = ty if not isinstance(ty, tuple) else ty[0]
            raise TypeError(f'Property "{name}" must be of type {shown}, got: {value!r} (type: {type(value)})')
        self._values[name] = value

    def _is_set(self, name: str) -> bool:
        return name in self._values

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in type(self)._FIELDS)

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def _merged_with(self, other: "_OptionsBase") -> "_OptionsBase":
        """Options of `self` overridden by whatever is set in `other` (recursively)."""
        out = type(self)()
        for name, (_, default) in type(self)._FIELDS.items():
            mine, theirs = self._values.get(name), other._values.get(name)
            if isinstance(default, type) and issubclass(default, _OptionsBase):
                if mine is not None or theirs is not None:
                    base = mine if mine is not None else default()
                    out._values[name] = base._merged_with(theirs) if theirs is not None else copy.deepcopy(base)
            elif name in other._values:
                out._values[name] = theirs
            elif name in self._values:
                out._values[name] = mine
        return out


class DistributeOptions(_OptionsBase):
    """`tf.data.experimental.DistributeOptions`: auto_shard_policy (default AUTO), num_devices."""

    _FIELDS = {"auto_shard_policy": (AutoShardPolicy, AutoShardPolicy.AUTO), "num_devices": (int, None)}


class OptimizationOptions(_OptionsBase):
    """`tf.data.experimental.OptimizationOptions` (recorded only: simdist runs no graph optimizations)."""

    _FIELDS = {n: (bool, None) for n in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
        "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization",
        "noop_elimination", "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion")}


class ThreadingOptions(_OptionsBase):
    """`tf.data.ThreadingOptions` (recorded only)."""

    _FIELDS = {"max_intra_op_parallelism": (int, None), "private_threadpool_size": (int, None)}


class AutotuneOptions(_OptionsBase):
    """`tf.data.experimental.AutotuneOptions` (recorded only)."""

    _FIELDS = {"enabled": (bool, None), "cpu_budget": (int, None), "ram_budget": (int, None),
               "autotune_algorithm": (None, None)}


class Options(_OptionsBase):
    """`tf.data.Options`: `ds.with_options(o)`; `ds.options()` merges all options upstream."""

    _FIELDS = {
        "autotune": (AutotuneOptions, AutotuneOptions),
        "dataset_name": (str, None),
        "deterministic": (bool, None),
        "experimental_distribute": (DistributeOptions, DistributeOptions),
        "experimental_external_state_policy": (ExternalStatePolicy, None),
        "experimental_optimization": (OptimizationOptions, OptimizationOptions),
        "experimental_slack": (bool, None),
        "experimental_symbolic_checkpoint": (bool, None),
        "experimental_warm_start": (bool, None),
        "framework_type": (list, None),
        "threading": (ThreadingOptions, ThreadingOptions),
    }
    _ALIASES = {"experimental_deterministic": "deterministic", "experimental_threading": "threading"}

    def merge(self, options: "Options") -> "Options":
        """A new Options: self's settings overridden by those set in `options`."""
        if not isinstance(options, Options):
            raise TypeError(f"Expected `tf.data.Options`, got {type(options).__name__}")
        return self._merged_with(options)  # type: ignore[return-value]

"""`tf.distribute.OneDeviceStrategy`: everything (variables, inputs, run) on one device."""

from __future__ import annotations

from typing import Any

from simdist import session
from simdist.runtime import variables
from simdist.strategies.base import Strategy, StrategyExtended, _strip


class OneDeviceExtended(StrategyExtended):

    _colocate_check = "created"   # (TF 2.21's _validate_colocate_with_variable, base._validate_colocate)
    _reduce_to_keeps_value = True   # (TF's OneDeviceExtended._reduce_to: the value, whatever the destinations)

    def __init__(self, strategy: "OneDeviceStrategy", device: str) -> None:
        super().__init__(strategy)
        self._device = device

    @property
    def worker_devices(self) -> tuple[str, ...]:
        return (self._device,)

    @property
    def parameter_devices(self) -> tuple[str, ...]:
        return (self._device,)

    @property
    def _host_device(self) -> str:
        return session.canonical(self._device.rsplit("/device:", 1)[0] + "/device:CPU:0")

    # StrategyExtendedV1 methods (clause extended.v1-methods), OneDeviceExtended's values
    experimental_should_init = True
    experimental_between_graph = False

    def non_slot_devices(self, var_list: Any) -> tuple[str, ...]:
        return (self._device,)

    def _update_non_slot(self, colocate_with: Any, fn: Any, args: tuple, kwargs: dict, group: bool) -> Any:
        """OneDeviceExtended._update_non_slot: fn once on the strategy's device, whatever `colocate_with` is."""
        from simdist.strategies.base import _non_slot_run
        return _non_slot_run(self._device, fn, args, kwargs, group)

    def _broadcast_to(self, tensor: Any, destinations: Any) -> Any:
        """OneDeviceExtended._broadcast_to: the value as it is (clause extended.broadcast-to)."""
        return tensor

    def _create_variable(self, **kwargs: Any) -> Any:
        dev = self._colocate_with.device if self._colocate_with is not None else self._device
        v = variables.ResourceVariable(device=dev, **_strip(kwargs))
        v._distribute_strategy = self._container_strategy
        return v


class OneDeviceStrategy(Strategy):
    """Clause one-device.placement: variables created in scope, inputs and `run` use `device`."""

    _replica_threads = False   # `run` calls the function on the caller's thread, as TF
    _nested_local_results = False

    def __init__(self, device: str) -> None:
        full = session.canonical(device)
        if not session.logical_exists(full):
            raise ValueError(f"OneDeviceStrategy: unknown device {full!r} (from {device!r}); this machine has "
                             f"{[d.name for d in session.list_logical_devices()]}. Give the simulated host more "
                             "devices with simdist.configure(gpus=N) or tf.config.set_logical_device_configuration.")
        self._device = full
        Strategy.__init__(self)

    def _make_extended(self) -> OneDeviceExtended:
        return OneDeviceExtended(self, self._device)

    def _axis_reduce_destination(self, op: Any) -> str:
        """OneDevice's `_reduce_to` returns the run's result as it is: a SUM along an axis stays on the strategy's
        device (the per-axis tf.function ran under its device scope); a MEAN's division runs on the caller's
        (observed on TF 2.21, fifty-sixth session; clause function.output-device)."""
        from simdist.semantics.reduce import ReduceOp
        return self._device if op is ReduceOp.SUM else self._reduce_destination()

    def _input_layout(self) -> Any:
        from simdist.strategies.input import InputLayout
        return InputLayout(worker_devices=((self._device,),), host_devices=(self._extended._host_device,),
                           rebatch=False, partial_batches=False, wrap_single=True)

    def experimental_distribute_values_from_function(self, value_fn: Any) -> Any:
        from simdist.strategies.input import ValueContext
        return value_fn(ValueContext())

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        """TF 2.21's OneDeviceExtended refuses InputReplicationMode.PER_REPLICA first, in its own words (two
        spaces, sic; clause input.interface-types)."""
        _refuse_per_replica(options, "InputReplicationMode.PER_REPLICA is only supported in  "
                                     "`experimental_distribute_datasets_from_function`.")
        return super().experimental_distribute_dataset(dataset, options)

    def distribute_datasets_from_function(self, dataset_fn: Any, options: Any = None) -> Any:
        """TF 2.21's OneDeviceExtended refuses InputReplicationMode.PER_REPLICA (only MirroredStrategy takes it;
        simdist distributed the datasets until fz55d seed 55302 #2; clause input.interface-types)."""
        _refuse_per_replica(options, "InputReplicationMode.PER_REPLICA is only supported in "
                                     "`experimental_distribute_datasets_from_function` of tf.distribute.MirroredStrategy")
        return super().distribute_datasets_from_function(dataset_fn, options)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function


def _refuse_per_replica(options: Any, message: str) -> None:
    from simdist.strategies.input import InputReplicationMode
    if options and getattr(options, "experimental_replication_mode", None) == InputReplicationMode.PER_REPLICA:
        raise NotImplementedError(message)


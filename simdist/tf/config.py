"""`tf.config`: devices of the simulated machine (see `simdist.configure`)."""

from simdist.session import (LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice,  # noqa: F401
                             get_logical_device_configuration, get_visible_devices, list_logical_devices,
                             list_physical_devices, set_logical_device_configuration, set_visible_devices)
from types import SimpleNamespace as _NS
import warnings as _warnings

from simdist.runtime import execution as _execution


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Make every `tf.function` call of this client run its Python eagerly (or stop): TF 2.21's
    module-wide switch (eager_function_run.py), read at each call; scheduled ClusterCoordinator
    closures still run their traced function, and tf.data functions are always traced (clause
    function.run-eagerly)."""
    _execution.current().client.functions_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """The value `run_functions_eagerly` set (False at start)."""
    return _execution.current().client.functions_eagerly


def experimental_run_functions_eagerly(run_eagerly: bool) -> None:
    """Deprecated alias of `run_functions_eagerly` (TF logs its deprecation; simdist warns: DeprecationWarning)."""
    _warnings.warn("experimental_run_functions_eagerly is deprecated: use tf.config.run_functions_eagerly",
                   DeprecationWarning, stacklevel=2)
    run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly() -> bool:
    """Deprecated alias of `functions_run_eagerly`."""
    _warnings.warn("experimental_functions_run_eagerly is deprecated: use tf.config.functions_run_eagerly",
                   DeprecationWarning, stacklevel=2)
    return functions_run_eagerly()

experimental = _NS(
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    list_logical_devices=list_logical_devices,
    list_physical_devices=list_physical_devices,
    set_visible_devices=set_visible_devices,
    get_visible_devices=get_visible_devices,
)


def set_soft_device_placement(enabled: bool) -> None:
    """Whether an op under a `tf.device` scope naming a device the machine does not have runs on
    the best device of that task instead of failing (TF: on by default; clause
    placement.soft-placement)."""
    _execution.current().client.soft_placement = bool(enabled)


def get_soft_device_placement() -> bool:
    """The value `set_soft_device_placement` set (True at start)."""
    return _execution.current().client.soft_placement

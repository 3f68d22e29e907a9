"""`tf.config`: devices of the simulated machine (see `simdist.configure`)."""

from simdist.session import (LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice,  # noqa: F401
                             get_logical_device_configuration, get_visible_devices, list_logical_devices,
                             list_physical_devices, set_logical_device_configuration, set_visible_devices)
from simdist.session import get_memory_growth as _get_memory_growth, set_memory_growth as _set_memory_growth
from typing import Any as _Any
from types import SimpleNamespace as _NS

from simdist.runtime import execution as _execution
from simdist.runtime import runtime_config as _runtime_config
from simdist.runtime.deprecation import log_deprecated as _log_deprecated


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Make every `tf.function` call of this client run its Python eagerly (or stop): TF 2.21's
    module-wide switch (eager_function_run.py), read at each call; scheduled ClusterCoordinator
    closures still run their traced function, and tf.data functions are always traced (clause
    function.run-eagerly)."""
    _execution.current().client.functions_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """The value `run_functions_eagerly` set (False at start)."""
    return _execution.current().client.functions_eagerly


_EAGER_MODULE = "tensorflow.python.eager.polymorphic_function.eager_function_run"


def experimental_run_functions_eagerly(run_eagerly: bool) -> None:
    """Deprecated alias of `run_functions_eagerly`: TF's `@deprecated` notice, logged once per process
    (simdist/runtime/deprecation.py), no Python warning."""
    _log_deprecated("experimental_run_functions_eagerly", _EAGER_MODULE,
                    "Use `tf.config.run_functions_eagerly` instead of the experimental version.")
    run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly() -> bool:
    """Deprecated alias of `functions_run_eagerly` (TF's notice, as above)."""
    _log_deprecated("experimental_functions_run_eagerly", _EAGER_MODULE,
                    "Use tf.config.functions_run_eagerly instead of the experimental version.")
    return functions_run_eagerly()

def _set_threads(attr: str, what: str, num_threads: _Any) -> None:
    """TF's context setter: the value it has is accepted at any time, another one after the
    runtime initialised is RuntimeError; the value is kept as given and converted when read."""
    cfg = _execution.current().client.config
    if getattr(cfg, attr) == num_threads:
        return
    if _runtime_config.initialized():
        raise RuntimeError(f"{what} parallelism cannot be modified after initialization.")
    setattr(cfg, attr, num_threads)


def _set_inter_op_parallelism_threads(num_threads: _Any) -> None:
    """`tf.config.threading.set_inter_op_parallelism_threads` (clause config.runtime-settings).
    simdist runs ops one at a time on the simulated clock, so the setting changes no value or
    time; TF's checks and read-back are kept."""
    _set_threads("inter_op_threads", "Inter op", num_threads)


def _get_inter_op_parallelism_threads() -> int:
    """The value set (0 when unset: TF's default), as TF's ConfigProto holds it."""
    return _runtime_config.thread_counts(_execution.current().client.config)[0]


def _set_intra_op_parallelism_threads(num_threads: _Any) -> None:
    """`tf.config.threading.set_intra_op_parallelism_threads` (as the inter-op one)."""
    _set_threads("intra_op_threads", "Intra op", num_threads)


def _get_intra_op_parallelism_threads() -> int:
    """The value set (0 when unset), as TF's ConfigProto holds it."""
    return _runtime_config.thread_counts(_execution.current().client.config)[1]


threading = _NS(
    get_inter_op_parallelism_threads=_get_inter_op_parallelism_threads,
    set_inter_op_parallelism_threads=_set_inter_op_parallelism_threads,
    get_intra_op_parallelism_threads=_get_intra_op_parallelism_threads,
    set_intra_op_parallelism_threads=_set_intra_op_parallelism_threads,
)


def _enable_op_determinism() -> None:
    """`tf.config.experimental.enable_op_determinism` (clause config.runtime-settings): from now on
    a stateful random op with neither a global nor an op seed is TF's RuntimeError, a raw random
    kernel whose seed attrs are both 0 is InvalidArgumentError, and the nondeterministic
    generators (`Generator.from_non_deterministic_state`, `get_global_generator` before
    `set_global_generator`) are RuntimeError. simdist's values are deterministic either way."""
    _execution.current().client.config.op_determinism = True


def _simdist_op_determinism_enabled() -> bool:
    """Whether enable_op_determinism ran (not TF's public API: its framework/config.py
    `is_op_determinism_enabled`, which Keras reads to refuse jit_compile)."""
    return bool(getattr(_execution.current().client.config, "op_determinism", False))


def _enable_tensor_float_32_execution(enabled: _Any) -> None:
    """`tf.config.experimental.enable_tensor_float_32_execution`: whether float32 matrix products
    and convolutions may run on TF32 tensor cores (TF's default: yes). Values are the host CPU's
    either way (TF's CPU kernels have no TF32); the roofline cost model times such ops on a GPU
    with TF32 tensor cores at the TF32 rate when enabled, at the FP32 rate when not."""
    _execution.current().client.config.tf32 = bool(enabled)


def _tensor_float_32_execution_enabled() -> bool:
    """Whether TF32 is enabled (True at start)."""
    return _execution.current().client.config.tf32


_POLICIES = ("silent", "warn", "explicit", "silent_for_int32")


def _set_device_policy(device_policy: _Any) -> None:
    """`tf.config.experimental.set_device_policy`: one of TF's four policies, None for the default
    ("silent"); else ValueError (context.py's text). Read back only: simdist copies tensors between
    its devices as it does under "silent"."""
    if device_policy is None:
        device_policy = "silent"
    if device_policy not in _POLICIES:
        raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
                         "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_device_policy for "
                         "valid `device_policy` arguments.")
    _execution.current().client.config.device_policy = device_policy


def _get_device_policy() -> str:
    return _execution.current().client.config.device_policy   # type: ignore[no-any-return]


def _set_synchronous_execution(enable: _Any) -> None:
    """`tf.config.experimental.set_synchronous_execution`: None is the default (True); read back only
    (simdist's ops finish before they return either way)."""
    _execution.current().client.config.synchronous = True if enable is None else bool(enable)


def _get_synchronous_execution() -> bool:
    return _execution.current().client.config.synchronous   # type: ignore[no-any-return]


def _memory_device(device: _Any) -> str:
    """A device string as get_memory_info parses it: TF's errors for an unparsable one and for one the
    machine lacks."""
    from simdist import session
    text = str(device)
    try:
        canon = session.canonical(text)
    except Exception:  # noqa: BLE001 - TF's one message for any unparsable name
        canon = None
    if canon is None or ":" not in text:
        raise ValueError(f"Failed parsing device name: '{text}'. Note a valid device string should at least contain "
                         'a device type and a device index, like "GPU:0".')
    last = text.rsplit("/device:", 1)[-1].rsplit("/", 1)[-1]   # (TYPE:N as written: the type is case-sensitive)
    kind, _, index = last.partition(":")
    if not any(d.device_type == kind and d.name.rsplit(":", 1)[-1] == index for d in list_physical_devices()):
        raise ValueError(f"No matching devices found for '{text}'")
    return text


def _get_memory_info(device: _Any) -> dict:
    """`tf.config.experimental.get_memory_info`: TF 2.21's CPU allocator keeps no stats, ValueError
    "Allocator stats not available for device 'CPU:0'" (observed); simdist's simulated devices report none
    either (a simulated GPU's memory is the scenario's, not an allocator's)."""
    text = _memory_device(device)
    raise ValueError(f"Allocator stats not available for device '{text}'")


def _get_memory_usage(device: _Any) -> int:
    """Deprecated `get_memory_usage`: get_memory_info(device)['current'] (the same ValueError)."""
    _log_deprecated("get_memory_usage", "tensorflow.python.framework.config",
                    "Use tf.config.experimental.get_memory_info(device)['current'] instead.")
    return _get_memory_info(device)["current"]   # type: ignore[no-any-return]


def _reset_memory_stats(device: _Any) -> None:
    text = _memory_device(device)
    raise ValueError(f"Cannot reset memory stats for device '{text}'")


def _get_device_details(device: _Any) -> dict:
    """`tf.config.experimental.get_device_details`: a PhysicalDevice's details, {} for a CPU (observed);
    simdist's simulated devices have none either."""
    if not isinstance(device, PhysicalDevice):
        raise ValueError(f"device must be a tf.config.PhysicalDevice, but got: {device}")
    return {}


def _enable_mlir_bridge() -> None:
    _execution.current().client.config.mlir_bridge = True


def _disable_mlir_bridge() -> None:
    _execution.current().client.config.mlir_bridge = False


experimental = _NS(
    set_device_policy=_set_device_policy, get_device_policy=_get_device_policy,
    set_synchronous_execution=_set_synchronous_execution, get_synchronous_execution=_get_synchronous_execution,
    get_memory_info=_get_memory_info, get_memory_usage=_get_memory_usage, reset_memory_stats=_reset_memory_stats,
    get_device_details=_get_device_details, enable_mlir_bridge=_enable_mlir_bridge,
    disable_mlir_bridge=_disable_mlir_bridge,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    list_logical_devices=list_logical_devices,
    list_physical_devices=list_physical_devices,
    set_visible_devices=set_visible_devices,
    get_visible_devices=get_visible_devices,
    set_memory_growth=_set_memory_growth,
    get_memory_growth=_get_memory_growth,
    enable_op_determinism=_enable_op_determinism,
    enable_tensor_float_32_execution=_enable_tensor_float_32_execution,
    tensor_float_32_execution_enabled=_tensor_float_32_execution_enabled,
)


def set_soft_device_placement(enabled: bool) -> None:
    """Whether an op under a `tf.device` scope naming a device the machine does not have runs on
    the best device of that task instead of failing (TF: on by default; clause
    placement.soft-placement)."""
    _execution.current().client.soft_placement = bool(enabled)


def get_soft_device_placement() -> bool:
    """The value `set_soft_device_placement` set (True at start)."""
    return _execution.current().client.soft_placement


# --- tf.config.optimizer (framework/config.py and eager/context.py; clause function.grappler-rewrites)
_TOGGLES = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping", "arithmetic_optimization",
            "dependency_optimization", "loop_optimization", "function_optimization", "debug_stripper",
            "disable_model_pruning", "scoped_allocator_optimization", "pin_to_host_optimization",
            "implementation_selector", "auto_mixed_precision", "use_plugin_optimizers", "disable_meta_optimizer",
            "auto_mixed_precision_onednn_bfloat16", "auto_mixed_precision_mkl")
_BOOLS = ("disable_model_pruning", "disable_meta_optimizer")


def _set_optimizer_jit(enabled: _Any) -> None:
    """`tf.config.optimizer.set_jit`: XLA autoclustering on for True or "autoclustering", off for anything
    else (simdist compiles nothing: the flag is only read back)."""
    _execution.current().client.config.jit = enabled in (True, "autoclustering")


def _get_optimizer_jit() -> str:
    return "autoclustering" if _execution.current().client.config.jit else ""


def _set_optimizer_experimental_options(options: _Any) -> None:
    """`tf.config.optimizer.set_experimental_options`: the dict updated with `options` (any keys; only
    RewriterConfig's are read). simdist's Grappler rewrites (runtime/ops/grappler.py) read constant_folding,
    arithmetic_optimization and disable_meta_optimizer."""
    _execution.current().client.config.optimizer.update(options)


def _get_optimizer_experimental_options() -> dict:
    """The RewriterConfig context.config builds from the options, read back: each toggle set (True for
    a true value), disable_model_pruning and disable_meta_optimizer always, min_graph_nodes when set
    and not 0, in RewriterConfig's order."""
    opts = _execution.current().client.config.optimizer
    out: dict[str, _Any] = {}
    for key in _TOGGLES:
        v = opts.get(key)
        if key in _BOOLS:
            out[key] = False if v is None else v
        elif v is not None:
            out[key] = bool(v)
    nodes = opts.get("min_graph_nodes")
    if nodes:
        out["min_graph_nodes"] = nodes
    return out


optimizer = _NS(set_jit=_set_optimizer_jit, get_jit=_get_optimizer_jit,
                set_experimental_options=_set_optimizer_experimental_options,
                get_experimental_options=_get_optimizer_experimental_options)

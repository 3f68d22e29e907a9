"""`keras.layers.Layer`: Keras 3.15's base layer (keras/src/layers/layer.py) on simdist.tf.

What a layer does when called (`__call__`), in Keras's order:
1. converts array inputs to tensors and casts float inputs to the layer's compute dtype
   (autocasting; integer inputs are left alone);
2. refuses non-tensor positional arguments (ValueError);
3. checks the first input against `input_spec` (Keras's messages);
4. builds the layer on first use, from the first input's shape (`build(input_shape)`, run in
   the layer's name scope, so its variables' paths are "<parent>/<layer>/<var>"); the tracker
   is then locked;
5. resolves `training`: the value passed, else the enclosing layer call's, else the default
   of `call`'s signature; passed down to nested layer calls;
6. fills a `mask` argument left at None from the input's Keras mask, runs `call` (under an
   autocast scope when the compute and variable dtypes differ), then attaches
   `compute_mask(inputs, mask)` to the outputs when the layer supports masking (else warns that
   the mask is dropped, as Keras); on KerasTensors it infers the output specs instead and records
   a Node (functional graphs).
Weights and sub-layers assigned to attributes are tracked (tracking.py); `weights`,
`trainable_weights`, `non_trainable_weights`, `variables` list the layer's own then its
sub-layers', without duplicates; a non-trainable layer has no trainable weights.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any, Callable

import numpy as np

from simdist import tf
from simdist.keras import auto_config, constraints
from simdist.keras import dtype_policies, initializers, regularizers
from simdist.keras.keras_tensor import (KerasTensor, Node, any_symbolic_tensors, compute_output_spec as _probe_spec,
                                        flatten, map_structure)
from simdist.keras.layers.input_spec import InputSpec, assert_input_compatibility
from simdist.keras.naming import auto_name, current_path, name_scope
from simdist.keras.random import SeedGenerator
from simdist.keras.scratch_graph import scratch_graph
from simdist.keras.tensor_attributes import get_keras_mask, set_keras_mask
from simdist.keras.tracking import TF_UNWRAPPED, Tracker, is_tracking_enabled, no_tracking, wrap_or_unwrap
from simdist.keras.traceback_utils import call_with_argument_info
from simdist.keras.variables import StatelessScope, Variable, get_stateless_scope, standardize_shape
from simdist.keras.keras_saveable import KerasSaveable

__all__ = ["Layer", "InputSpec", "CallContext", "is_metric"]

_LOCK_MSG = ("You cannot add new elements of state (variables or sub-layers) to a layer that is already built. All "
             "state must be created in the `__init__()` method or in the `build()` method.")


_UNTRACKED = (bool, int, float, str, bytes)


def is_metric(x: Any) -> bool:
    """A Keras metric (duck-typed: K2's metrics are not layers; `_keras_metric` marks them)."""
    return bool(getattr(type(x), "_keras_metric", False)) or (
        not isinstance(x, Layer) and hasattr(x, "update_state") and hasattr(x, "result") and hasattr(x, "reset_state"))


def _is_default(method: Any, base: Callable[..., Any]) -> bool:
    return getattr(method, "__func__", method) is base


class CallContext:
    """The outermost layer call in progress and the context values (`training`) it set."""

    current: "CallContext | None" = None

    def __init__(self, entry_layer: Any) -> None:
        self.entry_layer = entry_layer
        self.training: Any = None


def _is_tensor_or_symbolic(x: Any, allow_none: bool = False) -> bool:
    """Keras's is_backend_tensor_or_symbolic: tf.is_tensor (variables, SparseTensor, RaggedTensor too) or a
    KerasTensor."""
    if allow_none and x is None:
        return True
    return tf.is_tensor(x) or isinstance(x, KerasTensor)


class CallSpec:
    """A call's arguments bound to `call`'s signature (Keras's CallSpec)."""

    def __init__(self, signature: inspect.Signature, context_args: set, args: tuple, kwargs: dict) -> None:
        call_args = {a: kwargs.pop(a) for a in list(context_args) if a in kwargs and a not in signature.parameters}
        bound = signature.bind(*args, **kwargs)
        self.user_arguments_dict = {**call_args, **bound.arguments}
        bound.apply_defaults()
        self.arguments_dict: dict[str, Any] = {}
        self.argument_names: list[str] = []
        self.tensor_arguments_dict: dict[str, Any] = {}
        self.nested_tensor_argument_names: list[str] = []
        for name, value in bound.arguments.items():
            self.arguments_dict[name] = value
            self.argument_names.append(name)
            if _is_tensor_or_symbolic(value):
                self.tensor_arguments_dict[name] = value
            elif isinstance(value, (list, tuple, dict)) and len(value) > 0:
                flat = flatten(value)
                if all(_is_tensor_or_symbolic(x, allow_none=True) for x in flat):
                    self.tensor_arguments_dict[name] = value
                    self.nested_tensor_argument_names.append(name)
                elif any(_is_tensor_or_symbolic(x) for x in flat):
                    raise ValueError("In a nested call() argument, you cannot mix tensors and non-tensors. Received "
                                     f"invalid mixed argument: {name}={value}")
        self.first_arg = self.arguments_dict[self.argument_names[0]] if self.argument_names else None
        self.eager = all(isinstance(x, tf.Tensor) for x in flatten(list(self.tensor_arguments_dict.values())))


def _mask_of(x: Any) -> Any:
    return get_keras_mask(x) if isinstance(x, (tf.Tensor, KerasTensor)) else None


def _populate_masks(call_spec: "CallSpec", kwargs: dict) -> None:
    """Keras's step 6: with one tensor argument, its mask fills `mask`; with several, each
    argument `<name>`'s mask fills `<name>_mask` (when `call` has it and it was left None)."""
    tensors = call_spec.tensor_arguments_dict
    if len(tensors) == 1:
        if "mask" in call_spec.argument_names and call_spec.arguments_dict["mask"] is None:
            mask = map_structure(_mask_of, next(iter(tensors.values())))
            if any(m is not None for m in flatten(mask)):
                kwargs["mask"] = mask
    elif len(tensors) > 1:
        for name, value in tensors.items():
            key = f"{name}_mask"
            if key in call_spec.argument_names and call_spec.arguments_dict[key] is None:
                mask = map_structure(_mask_of, value)
                if any(m is not None for m in flatten(mask)):
                    kwargs[key] = mask


def _shape_or_none(x: Any) -> Any:
    return None if x is None else standardize_shape(x.shape)


def get_shapes_dict(call_spec: CallSpec) -> dict[str, Any]:
    """{"<arg>_shape": shape} for each tensor argument of the call (masks excluded)."""
    shapes: dict[str, Any] = {}
    for k, v in call_spec.tensor_arguments_dict.items():
        if k in ("mask", "kwargs", "args"):
            continue
        if k in call_spec.nested_tensor_argument_names:
            shapes[f"{k}_shape"] = map_structure(_shape_or_none, v)
        else:
            shapes[f"{k}_shape"] = _shape_or_none(v)
    return shapes


def update_shapes_dict_for_target_fn(target_fn: Callable[..., Any], shapes_dict: dict, call_spec: CallSpec,
                                     class_name: str) -> dict:
    """Align the call's shapes with `build`'s (or `compute_output_shape`'s) parameters: one
    parameter gets the first shape; several must be named "<call arg>_shape"."""
    sig = inspect.signature(target_fn)
    expected = [n for n, p in sig.parameters.items()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY, p.KEYWORD_ONLY)]
    if len(expected) == 1:
        values = tuple(shapes_dict.values())
        return {expected[0]: values[0] if values else None}
    out = {}
    method_name = target_fn.__name__
    preamble = (f"For a `{method_name}()` method with more than one argument, all arguments should have a `_shape` "
                f"suffix and match an argument from `call()`. E.g. `{method_name}(self, foo_shape, bar_shape)` ")
    for name in expected:
        if not name.endswith("_shape"):
            raise ValueError(f"{preamble} For layer '{class_name}', Received `{method_name}()` argument `{name}`, "
                             "which does not end in `_shape`.")
        call_arg = name[: -len("_shape")]
        if call_arg not in call_spec.arguments_dict:
            raise ValueError(f"{preamble} For layer '{class_name}', received `{method_name}()` argument `{name}`, "
                             f"but `call()` does not have argument `{call_arg}`.")
        if name in shapes_dict:
            out[name] = shapes_dict[name]
    return out


class Layer(KerasSaveable):
    """The base class of Keras layers (and models)."""
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

    def __new__(cls, *args: Any, **kwargs: Any) -> "Layer":
        obj = super().__new__(cls)
        # (Keras's Operation.__new__: the constructor's arguments kept for get_config's automatic config)
        auto, error_args = auto_config.record(cls, args, kwargs)
        object.__setattr__(obj, "_auto_config", auto)
        if error_args:
            object.__setattr__(obj, "_auto_config_error_args", True)
        original_build = obj.build

        @functools.wraps(original_build)
        def build_wrapper(*a: Any, **k: Any) -> None:
            with obj._open_name_scope():
                obj._path = current_path()
                original_build(*a, **k)
            try:
                obj._build_shapes_dict = inspect.signature(original_build).bind(*a, **k).arguments
            except TypeError:
                obj._build_shapes_dict = None
            obj.built = True
            obj._post_build()
            obj._lock_state()

        object.__setattr__(obj, "build", build_wrapper)
        return obj

    def __init__(self, *, activity_regularizer: Any = None, trainable: bool = True, dtype: Any = None,
                 autocast: bool = True, name: str | None = None, **kwargs: Any) -> None:
        self._initialize_tracker()
        object.__setattr__(self, "_lock", False)
        if name is None:
            name = auto_name(type(self).__name__)
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name} (of type {type(name)})")
        self.name = name
        self._inbound_nodes: list[Node] = []
        self._outbound_nodes: list[Node] = []
        self._dtype_policy = dtype_policies.get(dtype)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        input_dim = kwargs.pop("input_dim", None)
        input_shape = (input_dim,) if input_dim is not None else kwargs.pop("input_shape", None)
        if input_shape is not None:
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential "
                          "models, prefer using an `Input(shape)` object as the first layer in the model instead.",
                          stacklevel=2)
            self._input_shape_arg = tuple(input_shape)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")
        self._path: str | None = None
        self.built = False
        self.autocast = autocast
        self._input_spec: Any = None
        self._called = False
        self.supports_jit = True
        if not isinstance(trainable, bool):
            raise ValueError(f"Expected `trainable` to be a boolean. Received: trainable={trainable} (of type "
                             f"{type(trainable)})")
        self._trainable = trainable
        self._losses: list[Any] = []
        self._scope_loss_ids: set[int] = set()   # (losses this layer added inside a StatelessScope)
        self._call_signature = inspect.signature(self.call)
        self.call_signature_parameters = [p.name for p in self._call_signature.parameters.values()]
        self._call_has_training_arg = "training" in self.call_signature_parameters
        self._call_has_mask_arg = "mask" in self.call_signature_parameters
        self._supports_masking = not _is_default(type(self).compute_mask, Layer.compute_mask)
        self._call_context_args = {"training"}
        self._convert_input_args = True
        self._allow_non_tensor_positional_args = False
        self._build_shapes_dict: Any = None
        self._parent_path: str | None = None

    def _initialize_tracker(self) -> None:
        if "_tracker" in self.__dict__:
            return
        trainable: list[Any] = []
        non_trainable: list[Any] = []
        layers: list[Any] = []
        metrics: list[Any] = []
        seed_generators: list[Any] = []
        tracker = Tracker({
            "trainable_variables": (lambda x: isinstance(x, Variable) and x.trainable, trainable),
            "non_trainable_variables": (lambda x: isinstance(x, Variable) and not x.trainable, non_trainable),
            "metrics": (is_metric, metrics),
            "layers": (lambda x: isinstance(x, Layer) and not is_metric(x), layers),
            "seed_generators": (lambda x: isinstance(x, SeedGenerator), seed_generators),
        }, exclusions={"non_trainable_variables": ["trainable_variables"]})
        d = self.__dict__
        d["_tracker"] = tracker
        d["_trainable_variables"] = trainable
        d["_non_trainable_variables"] = non_trainable
        d["_layers"] = layers
        d["_metrics"] = metrics
        d["_seed_generators"] = seed_generators

    def __setattr__(self, name: str, value: Any) -> None:
        if value is None or type(value) in _UNTRACKED:
            object.__setattr__(self, name, value)
            return
        if name != "_tracker":
            if "_tracker" not in self.__dict__:
                self._initialize_tracker()
            value = self._tracker.track(value)
            if not is_tracking_enabled() and name not in TF_UNWRAPPED:
                # (TF's AutoTrackable.__setattr__ under Keras's layer: a plain list or dict Keras did not track,
                # e.g. compile's `self.loss = loss`, is wrapped in TF's ListWrapper/_DictWrapper)
                value = wrap_or_unwrap(value)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        obj = getattr(self, name)
        if isinstance(obj, Variable):
            self._untrack_variable(obj)
        object.__delattr__(self, name)

    def _check_super_called(self) -> None:
        if self.__dict__.get("_lock", True):
            raise RuntimeError(f"In layer '{type(self).__name__}', you forgot to call `super().__init__()` as the "
                               "first statement in the `__init__()` method. Go add it!")

    # --- building -----------------------------------------------------------------------------
    def _build_at_init(self) -> None:
        """Mark a layer without its own `build` as built (layers with no state call this)."""
        if _is_default(type(self).build, Layer.build):
            self.built = True
            self._post_build()
            self._lock_state()

    def build(self, input_shape: Any = None) -> None:
        """Create the layer's state from the input shape (the default has none)."""
        self._check_super_called()
        if _is_default(type(self).build, Layer.build) and any(not layer.built for layer in self._layers):
            warnings.warn(f"`build()` was called on layer '{self.name}', however the layer does not have a `build()` "
                          "method implemented and it looks like it has unbuilt state. This will cause the layer to be "
                          "marked as built, despite not being actually built, which may cause failures down the line. "
                          "Make sure to implement a proper `build()` method.", stacklevel=2)
        self.built = True

    def _post_build(self) -> None:
        """Hook run after `build` (models use it)."""

    def _lock_state(self) -> None:
        if not self._tracker.locked:
            self._tracker.lock(msg=_LOCK_MSG)

    def get_build_config(self) -> dict[str, Any] | None:
        if self._build_shapes_dict is not None:
            if len(self._build_shapes_dict) == 1:
                return {"input_shape": tuple(self._build_shapes_dict.values())[0]}
            return {"shapes_dict": self._build_shapes_dict}
        return None

    def build_from_config(self, config: dict[str, Any] | None) -> None:
        if config:
            if "input_shape" in config:
                self.build(config["input_shape"])
            elif "shapes_dict" in config:
                self.build(**config["shapes_dict"])

    def _open_name_scope(self) -> name_scope:
        if self._parent_path is None:
            self._parent_path = current_path()
        return name_scope(self.name, caller=self)

    @property
    def path(self) -> str | None:
        """The layer's path ("sequential/dense"), known once it is built."""
        return self._path

    @property
    def input_spec(self) -> Any:
        return self._input_spec

    @input_spec.setter
    def input_spec(self, value: Any) -> None:
        self._input_spec = value

    # --- weights ---------------------------------------------------------------------------------
    def add_variable(self, shape: Any, initializer: Any, dtype: Any = None, trainable: bool = True,
                     autocast: bool = True, regularizer: Any = None, constraint: Any = None,
                     name: str | None = None) -> Variable:
        """Alias of `add_weight`."""
        return self.add_weight(shape=shape, initializer=initializer, dtype=dtype, trainable=trainable,
                               autocast=autocast, regularizer=regularizer, constraint=constraint, name=name)

    def add_weight(self, *args: Any, shape: Any = None, initializer: Any = None, dtype: Any = None,
                   trainable: bool = True, autocast: bool = True, regularizer: Any = None, constraint: Any = None,
                   aggregation: str = "none", overwrite_with_gradient: bool = False, name: str | None = None) -> Variable:
        """A new weight at "<layer path>/<name>": default initializer glorot_uniform for floats,
        zeros otherwise; dtype the layer's variable dtype."""
        self._check_super_called()
        if args:
            if len(args) > 3:
                raise TypeError(f"add_weight() takes at most 3 positional arguments but {len(args)} were given.")
            if isinstance(args[0], str):
                raise ValueError(f"`name` must be passed as a keyword argument. Received: add_weight('{args[0]}', "
                                 f"...). Use: add_weight(shape=..., name='{args[0]}').")
            if shape is not None:
                raise ValueError("`shape` was passed both positionally and as a keyword argument.")
            shape = args[0]
            if len(args) > 1:
                if initializer is not None:
                    raise ValueError("`initializer` was passed both positionally and as a keyword argument.")
                initializer = args[1]
            if len(args) > 2:
                if dtype is not None:
                    raise ValueError("`dtype` was passed both positionally and as a keyword argument.")
                dtype = args[2]
        if shape is None:
            shape = ()
        dtype = dtype_policies.standardize_dtype(dtype) if dtype is not None else self.variable_dtype
        if initializer is None:
            initializer = "glorot_uniform" if "float" in dtype else "zeros"
        initializer = initializers.get(initializer)
        with name_scope(self.name, caller=self):
            variable = Variable(initializer=initializer, shape=shape, dtype=dtype, trainable=trainable,
                                autocast=autocast, aggregation=aggregation, name=name)
        variable.regularizer = regularizers.get(regularizer)
        variable.constraint = constraints.get(constraint)
        variable.overwrite_with_gradient = overwrite_with_gradient
        self._track_variable(variable)
        return variable

    def _track_variable(self, variable: Variable) -> None:
        if variable.trainable:
            self._tracker.add_to_store("trainable_variables", variable)
        else:
            self._tracker.add_to_store("non_trainable_variables", variable)
        if not self.trainable:
            variable.trainable = False
        hook = self.__dict__.get("_checkpoint_on_track")
        if hook is not None:   # restored before it was built: the checkpoint's value (clause pch.deferred-restore)
            hook(variable)

    def _untrack_variable(self, variable: Variable) -> None:
        was_locked = self._tracker.locked
        self._tracker.unlock()
        self._tracker.untrack(variable)
        if was_locked:
            self._tracker.lock()

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        value = bool(value)
        self._trainable = value
        for v in self._trainable_variables:
            v.trainable = value
        for layer in self._layers:
            layer.trainable = value

    def _dedup(self, attr: str) -> list[Any]:
        out: list[Any] = []
        seen: set[int] = set()
        for v in self._trainable_variables + self._non_trainable_variables:
            if id(v) not in seen:
                out.append(v)
                seen.add(id(v))
        if attr == "variables":
            for sg in self._seed_generators:
                out.append(sg.state)
        for layer in self._layers:
            for v in getattr(layer, attr):
                if id(v) not in seen:
                    out.append(v)
                    seen.add(id(v))
        return out

    @property
    def variables(self) -> list[Variable]:
        """All state: weights, then seed generator states, then sub-layers' (no duplicates)."""
        return self._dedup("variables")

    @property
    def trainable_variables(self) -> list[Variable]:
        return [v for v in self.variables if v.trainable] if self.trainable else []

    @property
    def non_trainable_variables(self) -> list[Variable]:
        return self.variables if not self.trainable else [v for v in self.variables if not v.trainable]

    @property
    def weights(self) -> list[Variable]:
        """The layer's own weights (trainable first, in creation order), then its sub-layers'."""
        return self._dedup("weights")

    @property
    def trainable_weights(self) -> list[Variable]:
        return [v for v in self.weights if v.trainable] if self.trainable else []

    @property
    def non_trainable_weights(self) -> list[Variable]:
        return self.weights if not self.trainable else [v for v in self.weights if not v.trainable]

    @property
    def metrics(self) -> list[Any]:
        out = list(self._metrics)
        for layer in self._layers:
            out.extend(layer.metrics)
        return out

    @property
    def metrics_variables(self) -> list[Any]:
        out: list[Any] = []
        for m in self.metrics:
            out.extend(m.variables)
        return out

    def save_own_variables(self, store: Any) -> None:
        """Keras 3.15's Layer.save_own_variables: the layer's own variables (trainable, then non-trainable; not its
        sublayers') into `store` under "0", "1", ... (clause keras.model.weights-order, ssweep59)."""
        for i, v in enumerate(self._trainable_variables + self._non_trainable_variables):
            store[f"{i}"] = v

    def load_own_variables(self, store: Any) -> None:
        """Keras 3.15's Layer.load_own_variables: ValueError unless `store` holds as many values as the layer has
        own variables, else each assigned from its position."""
        self._check_load_own_variables(store)
        for i, v in enumerate(self._trainable_variables + self._non_trainable_variables):
            v.assign(store[f"{i}"])

    def _check_load_own_variables(self, store: Any) -> None:
        """Keras 3.15's _check_load_own_variables: ValueError unless `store` holds as many values as the layer has own
        variables (Dense, EinsumDense, the convolutions and Embedding check so before loading without LoRA: clause
        keras.model.weights-order)."""
        own = self._trainable_variables + self._non_trainable_variables
        if len(store.keys()) != len(own):
            if not own and not self.built:
                raise ValueError(f"Layer '{self.name}' was never built and thus it doesn't have any variables. "
                                 f"However the weights file lists {len(store.keys())} variables for this layer.")
            raise ValueError(f"Layer '{self.name}' expected {len(own)} variables, but received "
                             f"{len(store.keys())} variables during loading. Expected: {[v.name for v in own]}")

    def get_weights(self) -> list[np.ndarray]:
        """The values of `weights` as NumPy arrays."""
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights: Any) -> None:
        """Assign `weights` (arrays in the order of `weights`): the count and each shape must match."""
        layer_weights = self.weights
        if len(layer_weights) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of length "
                             f"{len(weights)}, but the layer was expecting {len(layer_weights)} weights.")
        for variable, value in zip(layer_weights, weights):
            if tuple(variable.shape.as_list()) != tuple(np.shape(value)):
                raise ValueError(f"Layer {self.name} weight shape {tuple(variable.shape.as_list())} is not compatible "
                                 f"with provided weight shape {tuple(np.shape(value))}.")
            variable.assign(value)

    def add_metric(self, *args: Any, **kwargs: Any) -> None:
        """Keras 3.15's Layer.add_metric: permanently disabled (kopen58)."""
        raise NotImplementedError(
            "Layer `add_metric()` method is deprecated. Add your metric in `Model.compile(metrics=[...])`, or create "
            "metric trackers in init() or build() when subclassing the layer or model, then call "
            "`metric.update_state()` whenever necessary.")

    def count_params(self) -> int:
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer isn't built. "
                             "You can build it manually via: `layer.build(input_shape)`.")
        return int(sum(int(np.prod(v.shape.as_list())) for v in self.weights))

    # --- dtypes ------------------------------------------------------------------------------------
    @property
    def dtype_policy(self) -> dtype_policies.DTypePolicy:
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value: Any) -> None:
        self._dtype_policy = dtype_policies.get(value)

    @property
    def dtype(self) -> str:
        return self.variable_dtype

    @property
    def compute_dtype(self) -> str:
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self._dtype_policy.variable_dtype

    @property
    def input_dtype(self) -> str:
        return self.compute_dtype

    @property
    def quantization_mode(self) -> None:
        return None

    @property
    def supports_masking(self) -> bool:
        """Whether the layer passes a mask on (`compute_mask`); by default, whether it defines
        its own `compute_mask` (Keras 3.15)."""
        return self._supports_masking

    @supports_masking.setter
    def supports_masking(self, value: bool) -> None:
        object.__setattr__(self, "_supports_masking", value)

    def compute_mask(self, inputs: Any, previous_mask: Any) -> Any:
        """The mask of the outputs: by default the input's (clause keras.mask.propagation)."""
        return previous_mask

    def _set_mask_metadata(self, outputs: Any, previous_mask: Any, first_arg: Any) -> None:
        """Keras's: each output without a mask takes compute_mask's (clause keras.mask.propagation). On a symbolic
        call the mask is a KerasTensor too (Keras runs compute_mask on the KerasTensors: `Embedding(mask_zero=True)
        (Input(...))._keras_mask` is a bool KerasTensor), found here by probing compute_mask as compute_output_spec
        does; a compute_mask the probe cannot run leaves the symbolic outputs without masks, as before."""
        flat_outputs = flatten(outputs)
        symbolic = not any(isinstance(x, tf.Tensor) for x in flat_outputs)
        if symbolic and not any(isinstance(x, KerasTensor) for x in flat_outputs):
            return
        if all(get_keras_mask(x) is not None for x in flat_outputs):
            return
        if symbolic:
            if getattr(self.compute_mask, "__func__", None) is Layer.compute_mask:
                output_masks = previous_mask    # (the default passes the input's mask on: the same KerasTensor)
            else:
                try:
                    output_masks = _probe_spec(self.compute_mask, first_arg, previous_mask)
                except Exception:  # noqa: BLE001 - a compute_mask written for real tensors only: no symbolic mask
                    return
        else:
            output_masks = self.compute_mask(first_arg, previous_mask)
        if output_masks is None:
            return
        for tensor, mask in zip(flat_outputs, flatten(output_masks)):
            if get_keras_mask(tensor) is None and mask is not None and isinstance(tensor, (tf.Tensor, KerasTensor)):
                set_keras_mask(tensor, mask)

    # --- losses -------------------------------------------------------------------------------------
    def add_loss(self, loss: Any) -> None:
        """A scalar loss to add to the training loss (collected by `losses`); inside a StatelessScope it goes to the
        scope when the scope collects losses (and is dropped otherwise), as Keras does."""
        losses = flatten(loss)
        scope = get_stateless_scope()
        if scope is None:
            self._losses.extend(losses)
        elif scope.collect_losses:
            for x in losses:
                scope.add_loss(x)
                self._scope_loss_ids.add(id(x))

    def _own_losses(self) -> list[Any]:
        """Keras's _get_own_losses: the losses this layer added (inside a StatelessScope, those of the scope's)."""
        scope = get_stateless_scope()
        if scope is not None:
            return [x for x in scope.losses if id(x) in self._scope_loss_ids]
        return list(self._losses)

    def _get_regularization_losses(self) -> list[Any]:
        return [v.regularizer(v) for v in self.trainable_weights if v.regularizer is not None]

    @property
    def losses(self) -> list[Any]:
        """The losses added in the last call (this layer's and its sub-layers'), then the weight
        regularization penalties."""
        out = self._own_losses()
        for layer in self._flatten_layers(include_self=False):
            out.extend(layer._own_losses())
        out.extend(self._get_regularization_losses())
        return out

    # --- the stateless API (Keras 3's layer.py stateless_call) ---------------------------------------------------
    def stateless_call(self, trainable_variables: Any, non_trainable_variables: Any, *args: Any,
                       return_losses: bool = False, **kwargs: Any) -> Any:
        """`call` with the layer's trainable and non-trainable variables replaced by the given values (one per
        variable, in their order), in a StatelessScope: (outputs, the non-trainable values after the call[, the
        losses the call added when `return_losses`]); the layer's own variables are not written."""
        if not self.built:
            raise ValueError(f"To call stateless_call, {self.__class__.__name__} must be built (i.e. its variables "
                             "must have been already created). You can build it by calling it on some data.")
        for arg, given, own in (("trainable_variables", trainable_variables, self.trainable_variables),
                                ("non_trainable_variables", non_trainable_variables, self.non_trainable_variables)):
            if len(given) != len(own):
                raise ValueError(f"Argument `{arg}` must be a list of tensors corresponding 1:1 to "
                                 f"{self.__class__.__name__}().{arg}. Received list with length {len(given)}, but "
                                 f"expected {len(own)} variables.")
        mapping = list(zip(self.trainable_variables, trainable_variables)) + list(
            zip(self.non_trainable_variables, non_trainable_variables))
        losses = None
        with StatelessScope(state_mapping=mapping, collect_losses=return_losses) as scope:
            outputs = self.call(*args, **kwargs)
            if return_losses:
                losses = self.losses
        non_trainable = [scope.get_current_value(v) for v in self.non_trainable_variables]
        if return_losses:
            return outputs, non_trainable, losses
        return outputs, non_trainable

    def _clear_losses(self) -> None:
        self._losses.clear()
        for layer in self._layers:
            layer._clear_losses()

    # --- calling ------------------------------------------------------------------------------------
    def call(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call` method implemented.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._check_super_called()
        self._called = True
        original_args, original_kwargs = args, kwargs

        # 1. arrays to tensors, floats autocast to the compute dtype
        def maybe_convert(x: Any) -> Any:
            mask = get_keras_mask(x) if isinstance(x, tf.Tensor) else None
            y = self._dtype_policy.convert_input(x, self.autocast, self.input_dtype)
            if mask is not None and y is not x:
                set_keras_mask(y, mask)
            return y

        if (kwargs or len(args) != 1 or not _is_tensor_or_symbolic(args[0])
                or dtype_policies.standardize_dtype(args[0].dtype) != self.input_dtype) and self._convert_input_args:
            args = map_structure(maybe_convert, args)
            kwargs = map_structure(maybe_convert, kwargs)

        # 2. only tensors positionally
        if not self._allow_non_tensor_positional_args:
            for arg in flatten(args):
                if not _is_tensor_or_symbolic(arg, allow_none=True):
                    raise ValueError("Only input tensors may be passed as positional arguments. The following argument "
                                     f"value should be passed as a keyword argument: {arg} (of type {type(arg)})")
        kwargs = dict(kwargs)
        call_spec = CallSpec(self._call_signature, self._call_context_args, args, kwargs)

        # 3. input spec, 4. build
        self._assert_input_compatibility(call_spec.first_arg)
        with self._open_name_scope():
            self._maybe_build(call_spec)

        # 5. training
        context = CallContext.current
        entered = context is None
        if entered:
            context = CallContext(self)
            CallContext.current = context
            self._clear_losses()
        try:
            if "training" in call_spec.user_arguments_dict:
                value = call_spec.user_arguments_dict["training"]
            elif context.training is not None:
                value = context.training
            else:
                value = call_spec.arguments_dict.get("training", None)
            context.training = value
            if self._call_has_training_arg and value is not None:
                kwargs["training"] = value

            # 5b. masks: an input's Keras mask fills a `mask` argument left at None
            _populate_masks(call_spec, kwargs)
            if kwargs.get("mask") is not None:
                previous_mask = kwargs["mask"]
            else:
                previous_mask = map_structure(_mask_of, call_spec.first_arg)

            # 6. call
            with self._open_name_scope():
                scope = dtype_policies.get_autocast_scope()
                new_scope = None
                if scope is not None:
                    if not self.autocast or not dtype_policies.is_float_dtype(self.compute_dtype):
                        new_scope = dtype_policies.AutocastScope(None)
                    elif scope.dtype != self.compute_dtype:
                        new_scope = dtype_policies.AutocastScope(self.compute_dtype)
                elif self.compute_dtype != self.variable_dtype:
                    new_scope = dtype_policies.AutocastScope(self.compute_dtype)
                if new_scope is not None:
                    with new_scope:
                        outputs = self._call_or_spec(args, kwargs)
                else:
                    outputs = self._call_or_spec(args, kwargs)
                self.built = True
                if self.supports_masking:
                    self._set_mask_metadata(outputs, previous_mask, call_spec.first_arg)
                elif any(m is not None for m in flatten(previous_mask)):
                    warnings.warn(f"Layer '{self.name}' (of type {type(self).__name__}) was passed an input with a "
                                  "mask attached to it. However, this layer does not support masking and will "
                                  "therefore destroy the mask information. Downstream layers will not see the mask.")
                if self.activity_regularizer is not None:
                    for output in flatten(outputs):
                        if isinstance(output, tf.Tensor):
                            loss = self.activity_regularizer(output)
                            if len(output.shape) > 0:
                                loss = tf.math.divide_no_nan(loss, tf.cast(tf.shape(output)[0], loss.dtype))
                            self.add_loss(loss)
        finally:
            if entered:
                CallContext.current = None

        # 7. the node of a symbolic call
        if any_symbolic_tensors(original_args, original_kwargs):
            Node(self, call_args=original_args, call_kwargs=original_kwargs, outputs=outputs)
        return outputs

    def _call_or_spec(self, args: tuple, kwargs: dict) -> Any:
        fn = self.compute_output_spec if any_symbolic_tensors(args, kwargs) else self.call
        return call_with_argument_info(fn, f"{type(self).__name__}.call()", *args, **kwargs)

    def symbolic_call(self, *args: Any, **kwargs: Any) -> Any:
        return self.compute_output_spec(*args, **kwargs)

    def compute_output_shape(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `compute_output_shape` method "
                                  "implemented. Should implement `def compute_output_shape(self, input_shape)`.")

    def compute_output_spec(self, *args: Any, **kwargs: Any) -> Any:
        """The KerasTensors a call on these symbolic inputs returns: from `compute_output_shape`
        when the layer defines it, else by running `call` on probes (keras_tensor.py)."""
        if _is_default(type(self).compute_output_shape, Layer.compute_output_shape):
            try:
                return _probe_spec(self.call, *args, **kwargs)
            except Exception as e:  # noqa: BLE001 - Keras's Operation.compute_output_spec wraps every error
                raise _inference_error(self, e).with_traceback(e.__traceback__) from None
        call_spec = CallSpec(self._call_signature, self._call_context_args, args, dict(kwargs))
        shapes = update_shapes_dict_for_target_fn(self.compute_output_shape, get_shapes_dict(call_spec), call_spec,
                                                  type(self).__name__)
        output_shape = self.compute_output_shape(**shapes)
        if isinstance(output_shape, list) and output_shape and isinstance(output_shape[0], (int, type(None))):
            output_shape = tuple(output_shape)
        if not isinstance(output_shape, (list, tuple, dict)):
            try:
                output_shape = tuple(output_shape)
            except Exception:  # noqa: BLE001
                raise ValueError(f"Method `compute_output_shape()` of layer {type(self).__name__} is returning a type "
                                 f"that cannot be interpreted as a shape. It should return a shape tuple. Received: "
                                 f"{output_shape}") from None
        if isinstance(output_shape, tuple) and (not output_shape or isinstance(output_shape[0], (int, type(None)))):
            return KerasTensor(output_shape, dtype=self.compute_dtype)
        return _map_shapes(lambda s: KerasTensor(s, dtype=self.compute_dtype), output_shape)

    def _maybe_build(self, call_spec: CallSpec) -> None:
        if self.built:
            return
        shapes = get_shapes_dict(call_spec)
        first_shape = next(iter(shapes.values()), None)
        if not _is_default(type(self).build, Layer.build):
            shapes = update_shapes_dict_for_target_fn(self.build, shapes, call_spec, type(self).__name__)
            self.build(**shapes)
            self._assert_input_compatibility(call_spec.first_arg)
            return
        if any(not layer.built for layer in self._layers):
            # Keras builds the sub-layers by running `call` once in a stateless scope (on
            # symbolic inputs, or the eager ones); if that fails on eager inputs the real call
            # builds them.
            try:
                with StatelessScope(), scratch_graph():   # (Keras: backend.compute_output_spec's scratch FuncGraph)
                    if call_spec.eager:
                        self.call(**call_spec.arguments_dict)
                    else:
                        _probe_spec(self.call, **call_spec.arguments_dict)
            except Exception:  # noqa: BLE001 - as Keras: an eager call retries for real
                if call_spec.eager:
                    return
        self.build(first_shape)

    def _assert_input_compatibility(self, arg_0: Any) -> None:
        if self.input_spec:
            assert_input_compatibility(self.input_spec, arg_0, layer_name=self.name)

    def _flatten_layers(self, include_self: bool = True, recursive: bool = True) -> list["Layer"]:
        out: list[Layer] = [self] if include_self else []
        seen: set[int] = set()
        queue = list(self._layers)
        while queue:
            layer = queue.pop(0)
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            out.append(layer)
            if recursive:
                queue[:0] = list(reversed(layer._layers))   # (Keras: deque.extendleft, which reverses them)
        return out

    @property
    def input(self) -> Any:
        """The input KerasTensor(s) of the layer's first symbolic call."""
        return self._get_node_attribute_at_index(0, "input_tensors", "input")

    @property
    def output(self) -> Any:
        """The output KerasTensor(s) of the layer's first symbolic call."""
        return self._get_node_attribute_at_index(0, "output_tensors", "output")

    def _get_node_attribute_at_index(self, node_index: int, attr: str, attr_name: str) -> Any:
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined {attr_name}.")
        if not len(self._inbound_nodes) > node_index:
            raise ValueError(f"Asked to get {attr_name} at node {node_index}, but the operation has only "
                             f"{len(self._inbound_nodes)} inbound nodes.")
        values = getattr(self._inbound_nodes[node_index], attr)
        return values[0] if isinstance(values, list) and len(values) == 1 else values

    # --- config ---------------------------------------------------------------------------------------
    @auto_config.default
    def get_config(self) -> dict[str, Any]:
        """Keras's Layer.get_config: Operation's (the name; with the constructor's arguments where the class has no
        get_config of its own: keras/auto_config.py), the trainable flag and the dtype policy."""
        self._check_super_called()
        config = {"trainable": self.trainable, "dtype": dtype_policies.serialize(self.dtype_policy)}
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return {**auto_config.operation_config(self), **config}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "Layer":
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            # Keras's Operation.from_config: a policy without quantization passes on as its name
            policy = dtype_policies.get(config["dtype"])
            config["dtype"] = policy.name if policy.quantization_mode is None else policy
        try:
            return cls(**config)
        except Exception as e:  # noqa: BLE001 - Keras's Operation.from_config wraps every error
            raise TypeError(f"Error when deserializing class '{cls.__name__}' using config={config}.\n\n"
                            f"Exception encountered: {e}") from e

    def _obj_type(self) -> str:
        return "Layer"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    __str__ = __repr__


def _inference_error(layer: Any, e: Exception) -> Exception:
    """Keras 3.15's Operation.compute_output_spec: an error while inferring a call's output is raised again as its
    class with a message naming the layer. TF infers in a graph, where an op's shape or dtype error is a ValueError
    at its construction; simdist's probes run the ops, whose errors are tf.errors.OpError: those become ValueError."""
    cls = type(layer).__name__
    msg = (f"Could not automatically infer the output shape / dtype of '{layer.name}' (of type {cls}). Either the "
           f"`{cls}.call()` method is incorrect, or you need to implement the `{cls}.compute_output_spec() / "
           f"compute_output_shape()` method. Error encountered:\n\n{e}")
    # (an OpError the user's call raises itself is rebuilt as its class with one argument, as Keras does: TF's
    # OpError constructors take (node_def, op, message), so that is TypeError on TF 2.21 and here)
    err_cls = ValueError if isinstance(e, tf.errors.OpError) and _raised_by_simdist(e) else type(e)
    try:
        return err_cls(msg)
    except Exception as made:  # noqa: BLE001 - a class whose constructor takes other arguments: Keras raises that
        return made


def _raised_by_simdist(e: BaseException) -> bool:
    """Whether `e` was raised by simdist's own code (an op's error in a probe run: the innermost frame of its
    traceback is in a simdist module other than the conformance suite's), not by the user's call."""
    tb = e.__traceback__
    if tb is None:
        return True
    while tb.tb_next is not None:
        tb = tb.tb_next
    module = str(tb.tb_frame.f_globals.get("__name__", ""))
    return module.startswith("simdist.") and not module.startswith("simdist.conformance.")


def _map_shapes(fn: Callable[[Any], Any], structure: Any) -> Any:
    """Apply fn to each shape tuple of a nested structure of shapes."""
    if isinstance(structure, (tuple, list)) and (not structure or all(isinstance(d, (int, type(None)))
                                                                      for d in structure)):
        return fn(tuple(structure))
    if isinstance(structure, dict):
        return {k: _map_shapes(fn, v) for k, v in structure.items()}
    return type(structure)(_map_shapes(fn, s) for s in structure)


# `no_tracking` is re-exported for layers that keep private containers.
__all__ += ["no_tracking"]

"""`keras.optimizers.MultiOptimizer` and `OptimizerMap` (keras/src/optimizers/multi_optimizer.py,
Keras 3.15): one optimizer per model variable, chosen by the variable's path (clause
keras.optimizers.multi).

`OptimizerMap[path]` is the optimizer of an exact key, else of the one key that `re.fullmatch`es
the path (ValueError when several do), else the default optimizer. `MultiOptimizer(map_or_callable)`
builds each inner optimizer on its own variables (in the order the model lists them), hands each
its gradients in `apply`, and counts its own `iterations` beside theirs. Its `variables` are its own
`iteration` and (unused, 0.0) `learning_rate`, then each inner optimizer's, in the order the inner
optimizers were met (the map's values, then the default, then any the callable returned);
`learning_rate` is refused (AttributeError); `loss_scale_factor` is set on every inner optimizer."""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any, Callable, Iterator, Sequence

from simdist.keras.optimizers.base_optimizer import Optimizer
from simdist.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer
from simdist.keras.serialization import serialize_keras_object


def _serialize(obj: Any) -> Any:
    """serialization_lib.serialize_keras_object of an optimizer, an OptimizerMap or a dict of them."""
    if isinstance(obj, dict):
        return {k: _serialize(v) for k, v in obj.items()}
    return serialize_keras_object(obj, "keras.optimizers")


def _deserialize(config: Any, custom_objects: dict | None) -> Any:
    """The inverse of `_serialize` (a dict of serialized optimizers stays a dict)."""
    from simdist.keras import optimizers
    if isinstance(config, dict) and "class_name" not in config:
        return {k: _deserialize(v, custom_objects) for k, v in config.items()}
    # (a copy: Keras's wrappers deserialize with serialization_lib's generic path, which leaves the config as it is;
    # optimizers.deserialize lower-cases its class_name in place)
    from simdist.keras.utils.keras_object_serialization import deserialize_keras_object
    if isinstance(config, dict) and "module" in config:   # (serialization_lib's path: Lamb by its export too)
        return deserialize_keras_object(dict(config), custom_objects=custom_objects)
    return optimizers.deserialize(dict(config) if isinstance(config, dict) else config, custom_objects=custom_objects)


class OptimizerMap(MutableMapping):
    """Variable paths (exact, or regular expressions matched whole) to optimizers, with a default."""

    def __init__(self, default_optimizer: Optimizer, optimizer_map: dict[str, Optimizer] | None = None) -> None:
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(f"default_optimizer must be a Keras Optimizer instance. Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. Received: {optimizer_map}")
        self._default_optimizer = default_optimizer
        self._optimizer_map: dict[str, Optimizer] = optimizer_map or dict()

    @property
    def default_optimizer(self) -> Optimizer:
        return self._default_optimizer

    def __getitem__(self, key: str) -> Optimizer:
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matching = [pattern for pattern in self._optimizer_map if re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Multiple optimizers assigned to variable {key}.")
        if len(matching) == 1:
            return self._optimizer_map[matching[0]]
        return self.default_optimizer

    def __setitem__(self, key: str, optimizer: Optimizer) -> None:
        if key in self._optimizer_map:
            raise ValueError(f"'{key}' already exists in the OptimizerMap with value {self._optimizer_map[key]}. "
                             "Please make sure to not use duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        if not isinstance(optimizer, Optimizer):
            raise ValueError(f"optimizer must be a Keras Optimizer instance. Received: {optimizer}")
        if isinstance(optimizer, LossScaleOptimizer):
            raise ValueError("optimizer cannot be LossScaleOptimizer.")
        if isinstance(optimizer, MultiOptimizer):
            raise ValueError("optimizer cannot be MultiOptimizer.")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key: str) -> None:
        del self._optimizer_map[key]

    def __len__(self) -> int:
        return len(self._optimizer_map)

    def __iter__(self) -> Iterator[str]:
        return iter(self._optimizer_map)

    def __call__(self, variable: Any) -> Optimizer:
        return self[variable.path]

    def get_config(self) -> dict[str, Any]:
        return {"default_optimizer": _serialize(self._default_optimizer),
                "optimizer_map": _serialize(self._optimizer_map)}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "OptimizerMap":
        return cls(_deserialize(config["default_optimizer"], custom_objects),
                   _deserialize(config["optimizer_map"], custom_objects))


class MultiOptimizer(Optimizer):
    """Delegates each variable to the optimizer an OptimizerMap (or a callable of the variable) gives."""

    def __init__(self, optimizer_map: OptimizerMap | Callable[[Any], Optimizer],
                 loss_scale_factor: float | None = None, name: str | None = None) -> None:
        super().__init__(learning_rate=0.0, loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        self._inner_optimizers: list[Optimizer] = []
        if hasattr(optimizer_map, "values"):
            for opt in optimizer_map.values():
                if all(opt is not o for o in self._inner_optimizers):
                    opt.loss_scale_factor = loss_scale_factor
                    self._inner_optimizers.append(opt)
        default = getattr(optimizer_map, "default_optimizer", None)
        if default is not None and all(default is not o for o in self._inner_optimizers):
            default.loss_scale_factor = loss_scale_factor
            self._inner_optimizers.append(default)

    def _index(self, opt: Optimizer) -> int:
        return next(i for i, o in enumerate(self._inner_optimizers) if o is opt)

    def build(self, var_list: Sequence[Any]) -> None:
        if self.built:
            return
        self._var_to_optimizer_idx: dict[Any, int] = {}
        self._trainable_variables_indices = {}
        optimizer_vars: list[list[Any]] = [[] for _ in self._inner_optimizers]
        for i, var in enumerate(var_list):
            opt = self._optimizer_map(var)
            if not isinstance(opt, Optimizer):
                raise ValueError(f"Optimizer for variable {var} is not an Optimizer instance.")
            if isinstance(opt, LossScaleOptimizer):
                raise ValueError("LossScaleOptimizer cannot be used inside an MultiOptimizer.")
            if isinstance(opt, MultiOptimizer):
                raise ValueError("MultiOptimizer cannot be used inside an MultiOptimizer.")
            if all(opt is not o for o in self._inner_optimizers):
                opt.loss_scale_factor = self.loss_scale_factor
                self._inner_optimizers.append(opt)
                optimizer_vars.append([])
            idx = self._index(opt)
            self._var_to_optimizer_idx[self._var_key(var)] = idx
            self._trainable_variables_indices[self._var_key(var)] = i
            optimizer_vars[idx].append(var)
        for opt, variables in zip(self._inner_optimizers, optimizer_vars):
            if variables:
                opt.build(variables)
        super().build(var_list)

    @property
    def optimizers(self) -> list[Optimizer]:
        return self._inner_optimizers

    @property
    def variables(self) -> list[Any]:
        out = self._variables[:]
        for opt in self._inner_optimizers:
            out.extend(opt.variables)
        return out

    @property
    def learning_rate(self) -> Any:
        raise AttributeError("Learning rate cannot be accessed on a MultiOptimizer. "
                             "Access the learning rate on the individual sub-optimizers instead.")

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        raise AttributeError("Learning rate cannot be set on a MultiOptimizer. "
                             "Set the learning rate on the individual sub-optimizers instead.")

    @property
    def loss_scale_factor(self) -> float | None:
        return self.__dict__.get("_loss_scale_factor")

    @loss_scale_factor.setter
    def loss_scale_factor(self, value: float | None) -> None:
        self._loss_scale_factor = value
        for opt in self.__dict__.get("_inner_optimizers", ()):
            opt.loss_scale_factor = value

    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Any] | None = None) -> None:
        if len(grads) == 0:
            return
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on "
                                 "a list of variables. Call `optimizer.build(trainable_variables)` first.")
            trainable_variables = self._trainable_variables
        if not self.built:
            self.build(trainable_variables)
            self.built = True
        if len(grads) != len(self._trainable_variables_indices):
            raise ValueError("Gradients must match trainable variables one-to-one. Received "
                             f"{len(grads)} gradients and {len(self._trainable_variables_indices)} variables.")
        grads_and_vars: list[list[tuple[Any, Any]]] = [[] for _ in self._inner_optimizers]
        for grad, var in zip(grads, trainable_variables):
            grads_and_vars[self._var_to_optimizer_idx[self._var_key(var)]].append((grad, var))
        for opt, sub in zip(self._inner_optimizers, grads_and_vars):
            if sub:
                sub_grads, sub_vars = zip(*sub)
                opt.apply(list(sub_grads), list(sub_vars))
        self._iterations.assign_add(1)

    def finalize_variable_values(self, var_list: Sequence[Any]) -> None:
        optimizer_vars: list[list[Any]] = [[] for _ in self._inner_optimizers]
        for var in var_list:
            optimizer_vars[self._var_to_optimizer_idx[self._var_key(var)]].append(var)
        for opt, variables in zip(self._inner_optimizers, optimizer_vars):
            if variables:
                opt.finalize_variable_values(variables)

    def set_weights(self, weights: Sequence[Any]) -> None:
        if not self.built:
            raise ValueError("You are calling `set_weights()` on an optimizer that has not yet been built. Please "
                             "call `optimizer.build(trainable_variables)` to create the optimizer weights before "
                             "calling `set_weights()`.")
        own = len(self._variables)
        for i in range(own):
            self._variables[i].assign(weights[i])
        idx = own
        for opt in self._inner_optimizers:
            n = len(opt.variables)
            if n > 0:
                opt.set_weights(weights[idx:idx + n])
                idx += n

    def get_config(self) -> dict[str, Any]:
        return {"optimizer_map": _serialize(self._optimizer_map), "loss_scale_factor": self.loss_scale_factor,
                "name": self.name}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "MultiOptimizer":
        config = dict(config)
        config["optimizer_map"] = _deserialize(config["optimizer_map"], custom_objects)
        return cls(**config)

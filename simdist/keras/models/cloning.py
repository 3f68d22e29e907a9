"""`keras.models.clone_model` (Keras 3.15's keras/src/models/cloning.py): a model of the same
architecture with new layers, hence new weights (drawn again from the initializers, not copied),
compiled like the original when it was compiled.

- Sequential: each layer cloned by `clone_function` (default `cls.from_config(get_config())`),
  the input layer rebuilt from its batch shape, dtype and name (or `input_tensors`);
- Functional: the graph run again from new `Input`s (or `input_tensors`, which must have the
  model's input structure) with every layer cloned (`call_function(layer, *args, **kwargs)` may
  replace the call); a model subclass with a functional constructor keeps its class;
- `recursive=True` clones nested Sequential/Functional models with the same functions (a layer
  used twice is cloned once); any other model is serialized and deserialized."""

from __future__ import annotations

from typing import Any, Callable

from simdist import tf
from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.layers.core import Input, InputLayer

__all__ = ["clone_model"]


def clone_model(model: Any, input_tensors: Any = None, clone_function: Callable[[Any], Any] | None = None,
                call_function: Callable[..., Any] | None = None, recursive: bool = False, **kwargs: Any) -> Any:
    """A new model like `model`, with new weights (see the module docstring)."""
    from simdist.keras.models.functional import Functional
    from simdist.keras.models.sequential import Sequential
    cache = kwargs.pop("cache", None)
    if kwargs:
        raise ValueError(f"Unexpected keyword argument(s): {tuple(kwargs.keys())}")
    if isinstance(model, Sequential):
        clone_function = _wrap_clone_function(clone_function, call_function=call_function, recursive=recursive,
                                              cache=cache)
        if call_function is not None:
            raise ValueError("`call_function` argument is not supported with Sequential models.  In a Sequential "
                             "model, layers aren't called at model-construction time (they're merely listed). Use "
                             "`call_function` with Functional models only. Received model of type "
                             f"'{model.__class__.__name__}', with call_function={clone_function}")
        return _clone_sequential_model(model, clone_function=clone_function, input_tensors=input_tensors)
    if isinstance(model, Functional):
        clone_function = _wrap_clone_function(clone_function, call_function=call_function, recursive=recursive,
                                              cache=cache)
        if _default_get_config(model) or clone_function or input_tensors:
            return _clone_functional_model(model, clone_function=clone_function, call_function=call_function,
                                           input_tensors=input_tensors)
    if clone_function or input_tensors:
        raise ValueError("Arguments `clone_function` and `input_tensors` are only supported for Sequential models or "
                         f"Functional models. Received model of type '{model.__class__.__name__}', with "
                         f"clone_function={clone_function} and input_tensors={input_tensors}")
    if call_function is not None:
        raise ValueError("Argument `call_function` is only supported for Functional models. Received model of type "
                         f"'{model.__class__.__name__}', with call_function={clone_function}")
    from simdist.keras.models.keras_file import deserialize_model, serialize_model
    return deserialize_model(serialize_model(model), custom_objects={model.__class__.__name__: model.__class__})


def _default_get_config(model: Any) -> bool:
    from simdist.keras.models.functional import Functional
    return type(model).get_config is Functional.get_config


def _wrap_clone_function(clone_function: Callable[[Any], Any] | None, call_function: Any = None,
                         recursive: bool = False, cache: dict | None = None) -> Callable[[Any], Any]:
    from simdist.keras.models.functional import Functional
    from simdist.keras.models.sequential import Sequential
    if clone_function is None:
        def clone_function(layer: Any) -> Any:
            return layer.__class__.from_config(layer.get_config())
    memo: dict[int, Any] = {} if cache is None else cache   # (keyed by the layer's id while it lives: lookups only)

    def wrapped_clone_function(layer: Any) -> Any:
        if id(layer) in memo:
            return memo[id(layer)]
        if recursive and isinstance(layer, (Sequential, Functional)):
            extra = {} if isinstance(layer, Sequential) else {"call_function": call_function}
            clone = clone_model(layer, clone_function=clone_function, recursive=True, cache=memo, **extra)
        else:
            clone = clone_function(layer)
        memo[id(layer)] = clone
        return clone

    return wrapped_clone_function


def _compile_like(model: Any, clone: Any) -> None:
    if model.compiled:
        from simdist.keras.models.keras_file import _compile_from_config, compile_config
        _compile_from_config(clone, compile_config(model), None)


def _clone_sequential_model(model: Any, clone_function: Callable[[Any], Any], input_tensors: Any = None) -> Any:
    from simdist.keras.models.sequential import Sequential
    if not callable(clone_function):
        raise ValueError(f"Expected `clone_function` argument to be a callable. Received: clone_function={clone_function}")
    new_layers = [clone_function(layer) for layer in model.layers]
    first = model._layers[0] if model._layers else None
    if isinstance(first, InputLayer):
        input_name, input_batch_shape = first.name, first.batch_shape
        input_dtype, input_optional = first._dtype, first.optional
    else:
        input_name = input_dtype = input_batch_shape = None
        input_optional = False
    if input_tensors is not None:
        if isinstance(input_tensors, (list, tuple)):
            if len(input_tensors) != 1:
                raise ValueError("Argument `input_tensors` must contain a single tensor.")
            input_tensors = input_tensors[0]
        if not isinstance(input_tensors, KerasTensor):
            raise ValueError("Argument `input_tensors` must be a KerasTensor. Received invalid value: "
                             f"input_tensors={input_tensors}")
        new_layers = [Input(tensor=input_tensors, name=input_name, optional=input_optional)] + new_layers
    elif input_batch_shape is not None:
        new_layers = [Input(batch_shape=input_batch_shape, dtype=input_dtype, name=input_name,
                            optional=input_optional)] + new_layers
    clone = Sequential(new_layers, name=model.name, trainable=model.trainable)
    _compile_like(model, clone)
    return clone


def _clone_functional_model(model: Any, clone_function: Callable[[Any], Any], input_tensors: Any = None,
                            call_function: Callable[..., Any] | None = None) -> Any:
    from simdist.keras.models.functional import Functional
    if not callable(clone_function):
        raise ValueError(f"Expected `clone_function` argument to be a callable. Received: clone_function={clone_function}")
    if input_tensors is not None:
        if not all(isinstance(x, KerasTensor) for x in tf.nest.flatten(input_tensors)):
            raise ValueError("All entries in `input_tensors` must be KerasTensors. Received invalid values: "
                             f"inputs_tensors={input_tensors}")
        try:
            tf.nest.assert_same_structure(input_tensors, model.input)
        except (ValueError, TypeError) as e:
            raise ValueError(f"`input_tensors` must have the same structure as model.input\nReference structure: "
                             f"{model.input}\nReceived structure: {input_tensors}") from e
    else:
        input_tensors = tf.nest.map_structure(lambda x: Input(batch_shape=x.shape, dtype=x.dtype, name=x.name),
                                              model.input)

    def operation_fn(layer: Any) -> Any:
        new_layer = clone_function(layer)
        if call_function is None:
            return new_layer
        return lambda *args, **kwargs: call_function(new_layer, *args, **kwargs)

    flat_inputs = tf.nest.flatten(input_tensors)
    output_tensors = model._run_through_graph(flat_inputs, operation_fn=operation_fn)
    if _functional_like_constructor(model.__class__):
        clone = model.__class__(input_tensors, output_tensors, name=model.name)
    else:
        clone = Functional(input_tensors, output_tensors, name=model.name)
    _compile_like(model, clone)
    return clone


def _functional_like_constructor(cls: type) -> bool:
    """Keras's functional_like_constructor: the class's __init__ takes Functional's arguments."""
    import inspect
    from simdist.keras.models.functional import Functional
    return inspect.getfullargspec(cls.__init__).args[1:] == inspect.getfullargspec(Functional.__init__).args[1:]

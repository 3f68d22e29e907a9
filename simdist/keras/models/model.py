"""`keras.Model`: Keras 3.15's Model (keras/src/models/model.py) as `class Model(Trainer, Layer)`.

`keras.Model(inputs, outputs)` makes a functional model (models/functional.py); a subclass of
Model is a subclassed model: the layers assigned to its attributes are tracked, and are built
in the model's name scope on the first call ("my_model/dense/kernel"). A model made inside
`strategy.scope()` keeps that strategy (`distribute_strategy`, the Trainer's capture), and its
variables are made by it.
"""

from __future__ import annotations

from typing import Any, Callable

from simdist.keras import auto_config
from simdist.keras.layers.layer import Layer
from simdist.keras.trainers.trainer import Trainer

__all__ = ["Model", "functional_init_arguments", "inject_functional_model_class"]


def functional_init_arguments(args: tuple, kwargs: dict) -> bool:
    """Whether Model(...) was given inputs and outputs (the functional API)."""
    return len(args) == 2 or (len(args) == 1 and "outputs" in kwargs) or ("inputs" in kwargs and "outputs" in kwargs)


def inject_functional_model_class(cls: type) -> type:
    """Keras 3.15's inject_functional_model_class: replace Model by Functional in the bases of
    ``cls`` (recursively; classes outside Model's hierarchy are left alone)."""
    from simdist.keras.models.functional import Functional
    if cls is Model:
        return Functional
    if cls is object:
        return object
    cls.__bases__ = tuple(inject_functional_model_class(base) for base in cls.__bases__)
    return cls


class Model(Trainer, Layer):
    """A layer with training (compile/fit/evaluate/predict), summary and weight saving."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "Model":
        if functional_init_arguments(args, kwargs) and cls is Model:
            from simdist.keras.models.functional import Functional
            return Functional.__new__(Functional, *args, **kwargs)
        # (Keras: `super().__new__(cls)` without the arguments, so Operation's automatic config binds none: a
        # subclassed model's config holds its constructor's defaults, `M(5)` of `units=2` says units 2, and one
        # with a required argument has none, its get_config NotImplementedError; fix66n, observed on TF 2.21)
        return super().__new__(cls)   # type: ignore[return-value]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if functional_init_arguments(args, kwargs):
            # Keras 3.15: a subclass of Model called with inputs and outputs becomes a functional
            # model: Functional is put in place of Model among its bases (for the class itself,
            # as Keras does), then Functional.__init__ runs on it (clause keras.model.functional-subclass)
            from simdist.keras.models.functional import Functional
            inject_functional_model_class(type(self))
            Functional.__init__(self, *args, **kwargs)   # type: ignore[arg-type]
            return
        self._init_model(*args, **kwargs)

    def _init_model(self, *args: Any, **kwargs: Any) -> None:
        Trainer.__init__(self)
        Layer.__init__(self, *args, **kwargs)

    def call(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` method implemented.")

    @property
    def layers(self) -> list[Layer]:
        """The model's direct sub-layers, in the order they were tracked."""
        return list(self._flatten_layers(include_self=False, recursive=False))

    @layers.setter
    def layers(self, _: Any) -> None:
        raise AttributeError("`Model.layers` attribute is reserved and should not be used. Please use another name.")

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """A sub-layer by name or by index in `layers`."""
        if index is not None and name is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: {list(l.name for l in self.layers)}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def compute_output_spec(self, *args: Any, **kwargs: Any) -> Any:
        from simdist.keras.keras_tensor import any_symbolic_tensors
        if not any_symbolic_tensors(args, kwargs):
            raise NotImplementedError("the output spec of a model for concrete inputs: run it")
        return super().compute_output_spec(*args, **kwargs)

    def summary(self, line_length: int | None = None, positions: Any = None, print_fn: Callable[..., Any] | None = None,
                expand_nested: bool = False, show_trainable: bool = False, layer_range: Any = None) -> None:
        """Print the layer table of Keras 3.15 (layer, output shape, parameter count; the
        connections of a non-sequential functional model) and the parameter totals."""
        from simdist.keras.models.summary import print_summary
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                      expand_nested=expand_nested, show_trainable=show_trainable, layer_range=layer_range)

    def save_weights(self, filepath: Any, overwrite: bool = True, max_shard_size: Any = None) -> None:
        """Write the weights to a Keras 3 `.weights.h5` file (models/saving.py)."""
        from simdist.keras.models.saving import save_weights
        save_weights(self, filepath, overwrite=overwrite, max_shard_size=max_shard_size)

    def load_weights(self, filepath: Any, skip_mismatch: bool = False, **kwargs: Any) -> None:
        """Read the weights from a Keras 3 `.weights.h5` or `.keras` file (made by simdist or by Keras)."""
        import os
        from simdist.keras.models.load_kwargs import check_load_kwargs
        check_load_kwargs(str(os.fspath(filepath)), kwargs)
        if str(os.fspath(filepath)).endswith(".keras"):
            from simdist.keras.models.keras_file import load_weights_from_keras_file
            if not self.built:
                raise ValueError("You are loading weights into a model that has not yet been built. Try building the "
                                 "model first by calling it on some data or by using `build()`.")
            load_weights_from_keras_file(self, filepath, skip_mismatch=skip_mismatch)
            return
        from simdist.keras.models.saving import load_weights
        load_weights(self, filepath, skip_mismatch=skip_mismatch, **kwargs)

    def save(self, filepath: Any, overwrite: bool = True, zipped: Any = None, **kwargs: Any) -> None:
        """Write the whole model (config, compile config, weights) to a Keras 3 `.keras` file
        (models/keras_file.py) that Keras 3 loads."""
        from simdist.keras.models.keras_file import save_model
        save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def _obj_type(self) -> str:
        return "Layer"

    def to_json(self, **kwargs: Any) -> str:
        """The model serialized as Keras's `Model.to_json` writes it (what a .keras file's
        config.json holds: config, build_config, compile_config), `json.dumps` keyword arguments
        passed on."""
        import json
        from simdist.keras.models.keras_file import _jsonable, serialize_model
        return json.dumps(_jsonable(serialize_model(self)), **kwargs)

    @auto_config.default
    def get_config(self) -> dict[str, Any]:
        """Keras 3.15's Model has no get_config of its own: a subclassed model's is Layer's (name, its constructor's
        arguments where it keeps them, trainable, dtype policy: keras/auto_config.py)."""
        return Layer.get_config(self)

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> Any:
        """Keras 3.15's Model.from_config: a functional config (layers with their inbound nodes,
        input_layers, output_layers) gives a functional model; any other config is passed to the
        constructor (so a Sequential's config is refused: "Unrecognized keyword arguments")."""
        import inspect
        from simdist.keras.models.functional import Functional
        functional_config = isinstance(config, dict) and all(
            k in config for k in ("name", "layers", "input_layers", "output_layers"))
        spec = inspect.getfullargspec(cls.__init__)
        revivable = cls in (Functional, Model) or spec.args[1:] == ["inputs", "outputs", "name"] \
            or (spec.varargs == "args" and spec.varkw == "kwargs")
        if functional_config and revivable:
            # (Keras: functional_from_config(cls, ...): a subclass comes back as itself, made functional)
            return Functional.from_config.__func__(Functional if cls is Model else cls, config, custom_objects)
        try:
            return cls(**config)   # (Keras: not Operation.from_config's wrapper; a ValueError stays one)
        except TypeError as e:
            raise TypeError("Unable to revive model from config. When overriding the `get_config()` method, make sure "
                            "that the returned config contains all items used as arguments in the  constructor to "
                            f"{cls}, which is the default behavior. You can override this default behavior by "
                            "defining a `from_config(cls, config)` class method to specify how to create an instance "
                            f"of {cls.__name__} from its config.\n\nReceived config={config}\n\nError encountered "
                            f"during deserialization: {e}") from None

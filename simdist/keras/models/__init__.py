"""`keras.models`: Model, Sequential and functional models; `.keras` files (save_model, load_model)."""

from __future__ import annotations

from simdist.keras.models.functional import Functional  # noqa: F401
from simdist.keras.models.model import Model  # noqa: F401
from simdist.keras.models.sequential import Sequential  # noqa: F401
from simdist.keras.models.keras_file import load_model  # noqa: F401
from simdist.keras.models.keras_file import save_model  # noqa: F401
from simdist.keras.models.cloning import clone_model  # noqa: F401


def model_from_json(json_string: str, custom_objects: dict | None = None) -> "Model":
    """`keras.models.model_from_json`: the model a `Model.to_json()` string describes (built from
    its build_config, compiled from its compile_config, as Keras's deserialize_keras_object)."""
    import json
    from simdist.keras.models.keras_file import deserialize_model
    return deserialize_model(json.loads(json_string), custom_objects=custom_objects)


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.models names simdist has (one a line; clause api.namespaces)
    "Model",
    "Sequential",
    "clone_model",
    "load_model",
    "model_from_json",
    "save_model",
]
__dir__ = _api.dir_of(__name__)

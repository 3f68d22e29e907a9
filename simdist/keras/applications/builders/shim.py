"""What the transcribed builders (Keras 3.15's keras/src/applications/*.py) took from keras.src, as
simdist.keras's objects: the same names, so their bodies stay Keras's text."""

from __future__ import annotations

from types import SimpleNamespace

from simdist.keras import activations, initializers, layers, ops, random  # noqa: F401
from simdist.keras import backend as _tf_keras_backend
from simdist.keras import naming
from simdist.keras.layers.layer import Layer  # noqa: F401
from simdist.keras.models.functional import Functional  # noqa: F401
from simdist.keras.models.sequential import Sequential  # noqa: F401
from simdist.keras.ops.ops_shim import keras_export  # noqa: F401
from simdist.keras.utils import file_utils  # noqa: F401
from simdist.keras.utils import graph_utils as operation_utils  # noqa: F401  (get_source_inputs)

#: keras.src.backend, not tf.keras.backend: its `name_scope` is Keras 3's, which prefixes the paths of
#: the variables built inside it (NASNet's "normal_A_block_12/adjust_block/.../kernel"); tf.keras.backend's
#: legacy `name_scope` is tf.name_scope, which does not
backend = SimpleNamespace(
    backend=_tf_keras_backend.backend, floatx=_tf_keras_backend.floatx, get_uid=_tf_keras_backend.get_uid,
    image_data_format=_tf_keras_backend.image_data_format, is_keras_tensor=_tf_keras_backend.is_keras_tensor,
    set_image_data_format=_tf_keras_backend.set_image_data_format, name_scope=naming.name_scope)

"""The session-21 families of benchmarks/suite_options.py: the training surface beyond tf.nn,
tf.math, the tape and Keras' layers, losses, metrics, optimizers and callbacks.

- `tf.initializers.*`: tf.zeros/ones/constant/random_normal/random_uniform_initializer (constructor
  and `__call__`); `keras.initializers.*`: every public initializer class (the same two);
- `keras.utils.*`: the functions (to_categorical, pad_sequences, normalize, split_dataset,
  timeseries_dataset_from_array, ...); `keras.models.*`: load_model, save_model, clone_model,
  model_from_json; `keras.Model.save`, `save_weights`, `load_weights` (family keras.Model);
- `tf.data.Dataset.*` (every public method and static constructor), tf.data.TFRecordDataset,
  TextLineDataset, FixedLengthRecordDataset, and `tf.data.experimental.*` (functions and the
  dataset classes CsvDataset, RandomDataset, ...);
- `tf.io.*`: the functions (parse_example, decode_csv, decode_raw, ...), the feature types'
  fields (FixedLenFeature, VarLenFeature, RaggedFeature, ... constructors), TFRecordOptions and
  TFRecordWriter;
- `tf.train.Checkpoint` and `tf.train.CheckpointManager` (constructors, save/write/restore/read,
  the manager's save), tf.train.latest_checkpoint;
- `tf.random.*` and `tf.image.*` functions;
- `tf.raw_ops.*`: the attrs of every raw op the suite calls, and the pseudo-parameter
  `python_value_beside_tensor` (suite_options.RAW_PYTHON).
"""

from __future__ import annotations

import inspect
import types
from typing import Any

_DATASET_SKIP = frozenset({"element_spec", "options", "cardinality", "as_numpy_iterator", "inputs", "kind", "params"})


def _public(mod: Any) -> list[tuple[str, Any]]:
    return [(n, getattr(mod, n)) for n in sorted(dir(mod)) if not n.startswith("_")]


def _wrap_functions(rec: Any, prefix: str, mod: Any, skip: frozenset[str] = frozenset()) -> None:
    """Each public function of `mod`, one API per function object, replaced under every name."""
    seen: dict[int, Any] = {}
    for n, obj in _public(mod):
        if n in skip or not isinstance(obj, types.FunctionType):
            continue
        if id(obj) not in seen:
            seen[id(obj)] = rec.wrap_function(obj, f"{prefix}.{n}")
        w = seen[id(obj)]
        if w is not obj:
            rec._set(mod, n, w)


def _wrap_class(rec: Any, api: str, cls: type, methods: tuple[str, ...]) -> None:
    """Constructor and methods of one class, each wrapped where it is defined in the MRO (a
    subclass made by simdist records under the public name)."""
    for attr in methods:
        for c in cls.__mro__:
            if attr in c.__dict__ and c.__module__.startswith("simdist."):
                name = f"{api}.{attr}"
                if isinstance(c.__dict__[attr], (types.FunctionType, staticmethod)):
                    rec.wrap_method(c, attr, lambda s, name=name: name, name)
                break


def install_more(rec: Any) -> None:
    """Wrap the session-21 families in place."""
    from simdist import tf

    keras = tf.keras
    # initializers
    for n, obj in _public(tf):
        if n.endswith("_initializer") and isinstance(obj, type):
            _wrap_class(rec, f"tf.initializers.{n}", obj, ("__init__", "__call__"))
    for n, obj in _public(keras.initializers):
        if isinstance(obj, type) and n not in ("Initializer",):
            _wrap_class(rec, f"keras.initializers.{n}", obj, ("__init__", "__call__"))
    # keras.utils, keras.models, Model's saving
    _wrap_functions(rec, "keras.utils", keras.utils, skip=frozenset({"get_custom_objects", "clear_session"}))
    _wrap_functions(rec, "keras.models", keras.models)
    from simdist.keras.models.model import Model
    for attr in ("save", "save_weights", "load_weights"):
        rec.wrap_method(Model, attr, lambda s: None, f"keras.Model.{attr}")
    # tf.data
    ds = tf.data.Dataset
    for n in sorted(ds.__dict__):
        if not n.startswith("_") and n not in _DATASET_SKIP:
            rec.wrap_method(ds, n, lambda s, n=n: f"tf.data.Dataset.{n}", f"tf.data.Dataset.{n}")
    for n in ("TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset"):
        _wrap_class(rec, f"tf.data.{n}", getattr(tf.data, n), ("__init__",))
    exp = tf.data.experimental
    for n, obj in _public(exp):
        if isinstance(obj, type) and n.endswith("Dataset"):
            _wrap_class(rec, f"tf.data.experimental.{n}", obj, ("__init__",))
    _wrap_functions(rec, "tf.data.experimental", exp)
    # tf.io
    _wrap_functions(rec, "tf.io", tf.io)
    for n, obj in _public(tf.io):
        if isinstance(obj, type):
            _wrap_class(rec, f"tf.io.{n}", obj, ("__new__", "__init__"))
    # tf.train
    _wrap_class(rec, "tf.train.Checkpoint", tf.train.Checkpoint, ("__init__", "save", "write", "restore", "read"))
    _wrap_class(rec, "tf.train.CheckpointManager", tf.train.CheckpointManager, ("__init__", "save"))
    _wrap_functions(rec, "tf.train", tf.train)
    # tf.random, tf.image
    _wrap_functions(rec, "tf.random", tf.random)
    _wrap_functions(rec, "tf.image", tf.image)
    # tf.raw_ops: made on first use by the module's __getattr__; wrap every one made so far and
    # every one made later
    _wrap_raw_ops(rec, tf.raw_ops)


def _wrap_raw_ops(rec: Any, raw: Any) -> None:
    getter = raw.__dict__.get("__getattr__")
    for n in sorted(raw.__dict__):
        obj = raw.__dict__[n]
        if n[:1].isupper() and isinstance(obj, types.FunctionType):
            rec._set(raw, n, rec.wrap_function(obj, f"tf.raw_ops.{n}"))
    if getter is None:
        return

    def __getattr__(name: str) -> Any:
        obj = getter(name)
        if name[:1].isupper() and isinstance(obj, types.FunctionType) and inspect.signature(obj):
            w = rec.wrap_function(obj, f"tf.raw_ops.{name}")
            setattr(raw, name, w)
            rec._patched.append((raw, name, _Absent))
            return w
        return obj
    rec._set(raw, "__getattr__", __getattr__)


class _Absent:
    """Marker: restoring a raw op made while the survey ran deletes the wrapper."""
    survey_absent = True

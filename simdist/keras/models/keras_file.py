"""Whole-model `.keras` files (Keras 3.15's native format, keras/src/saving/saving_lib.py):
`model.save("x.keras")`, `keras.models.save_model`, `keras.models.load_model`, and
`load_weights("x.keras")`.

The file is a zip archive (entries stored, not compressed) of `metadata.json` (the Keras
version and the date saved), `config.json` (the model serialized as Keras serializes it: module,
class_name, config, registered_name, build_config, compile_config) and `model.weights.h5` (the
weights in the `.weights.h5` layout of models/saving.py), and under `assets/<object path>/` the
files of every object with a `save_assets(dir)` (Keras's DiskIOStore: the lookup layers' and
TextVectorization's vocabulary.txt; loading calls `load_assets(dir)` once the weights are in, so a
tf_idf vocabulary finds its idf weights). simdist writes the date from the
simulated clock (the wall clock would make the bytes depend on when the program ran), and every
zip entry with the zip epoch's timestamp; Keras reads neither. Loading re-makes the model from the
config (Sequential, functional, or a class registered with `register_keras_serializable` or
given in `custom_objects`), builds it from `build_config`, compiles it from `compile_config`
(optimizer variables made, as Keras's compile_from_config does), then reads and checks every
variable before assigning any (a bad file raises and changes nothing).
"""

from __future__ import annotations

import datetime
import inspect
import io
import json
import os
import zipfile
from typing import Any

from simdist import tf

__all__ = ["save_model", "load_model", "load_weights_from_keras_file", "serialize_model"]

KERAS_VERSION = "3.15.1"
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.h5"
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def _check_extension(path: str, what: str) -> None:
    if path.endswith(".h5") or path.endswith(".hdf5"):
        raise NotImplementedError(f"{what}: {path}: the legacy HDF5 whole-model format (.h5) is not implemented by "
                                  "simdist; use a `.keras` file (Keras 3's native format)")
    if not path.endswith(".keras"):
        raise ValueError("Invalid filepath extension for saving. Please add either a `.keras` extension for the native "
                         "Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if you want to "
                         f"export a SavedModel for use with TFLite/TFServing/etc. Received: filepath={path}.")


def _jsonable(x: Any) -> Any:
    """Tuples as lists, NumPy scalars as numbers (what json.dumps of Keras's serialized dicts gives)."""
    import numpy as np
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def _serialize_compile_arg(x: Any) -> Any:
    from simdist.keras import losses, metrics, optimizers
    from simdist.keras.losses import Loss
    from simdist.keras.metrics import Metric
    from simdist.keras.optimizers import Optimizer
    if x is None or isinstance(x, (str, bool, int, float)):
        return x
    if isinstance(x, Optimizer):
        return optimizers.serialize(x)
    if isinstance(x, Loss):
        return losses.serialize(x)
    if isinstance(x, Metric):
        return metrics.serialize(x)
    if isinstance(x, dict):
        return {k: _serialize_compile_arg(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_serialize_compile_arg(v) for v in x]
    if inspect.isfunction(x) and x.__name__ != "<lambda>":
        # (Keras's serialize_keras_object: {"module": "builtins", "class_name": "function", "config": the registered
        # name or __name__, "registered_name": "function"}, for Keras's own loss functions too)
        from simdist.keras.serialization import serialize_function
        return serialize_function(x)
    if callable(x) and hasattr(x, "__name__"):
        return x.__name__
    raise ValueError(f"save: cannot serialize the compile argument {x!r} for a .keras file")


def compile_config(model: Any) -> dict[str, Any]:
    """Keras's get_compile_config(): {} for a model never compiled."""
    if not getattr(model, "compiled", False) or not hasattr(model, "_compile_config"):
        return {}
    raw = dict(model._compile_config)
    raw["optimizer"] = model.optimizer
    return {k: _serialize_compile_arg(v) for k, v in raw.items()}


def model_identity(cls: type) -> tuple[str | None, str | None]:
    """(module, registered_name) of a model class as Keras 3.15's serialize_keras_object writes
    them, at the top of config.json and for a model nested in a functional model's layers."""
    from simdist.keras.models.functional import Functional
    from simdist.keras.models.sequential import Sequential
    from simdist.keras.object_registration import registered_name_or_none
    registered = registered_name_or_none(cls)
    if registered:
        return None, registered
    if getattr(cls, "_keras_public_module", None):   # (a public Keras class saved whole: FeatureSpace)
        return cls._keras_public_module, None
    if cls is Sequential:
        return "keras", None
    if cls is Functional:
        return "keras.src.models.functional", "Functional"
    return cls.__module__, cls.__name__


def serialize_model(model: Any) -> dict[str, Any]:
    """The model as config.json holds it (Keras 3.15's serialize_keras_object of a model)."""
    from simdist.keras.models.functional import Functional
    from simdist.keras.models.sequential import Sequential
    cls = type(model)
    module, registered_name = model_identity(cls)
    out: dict[str, Any] = {"module": module, "class_name": cls.__name__, "config": model.get_config(),
                           "registered_name": registered_name}
    build = model.get_build_config() if isinstance(model, (Sequential, Functional)) or model.built else None
    if isinstance(model, Functional):
        build = {"input_shape": None}
    if build is not None:
        out["build_config"] = build
    from simdist.keras.models.model import Model
    if isinstance(model, Model):   # (a layer saved whole has no compile config: FeatureSpace.save)
        out["compile_config"] = compile_config(model)
    return _jsonable(out)


def _date_saved() -> str:
    """Keras writes the wall-clock date; simdist the simulated time since the Unix epoch."""
    from simdist import now
    when = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=float(now()))
    return when.strftime("%Y-%m-%d@%H:%M:%S")


def save_model(model: Any, filepath: Any, overwrite: bool = True, zipped: Any = None, **kwargs: Any) -> None:
    """Write `model` (config, compile config, weights, its optimizer's variables) to a `.keras` file."""
    kwargs.pop("include_optimizer", True)   # (Keras 3.15's saving_api: read only by the legacy .h5 writer)
    save_format = kwargs.pop("save_format", False)
    if save_format and not str(filepath).endswith((".h5", ".hdf5", ".keras")):
        raise ValueError("The `save_format` argument is deprecated in Keras 3. Please remove this argument and pass a "
                         f"file path with either `.keras` or `.h5` extension.Received: save_format={save_format}")
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs)}")
    if zipped is False:
        raise NotImplementedError("save(zipped=False): the unzipped .keras directory layout is not implemented")
    path = str(os.fspath(filepath))
    _check_extension(path, "save")
    if not overwrite and os.path.exists(path):
        raise FileExistsError(f"{path} exists and overwrite=False (Keras asks the user to confirm here)")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"save: cannot write {path}: the directory {directory} does not exist")
    tmp = os.path.join(directory, f".{os.path.basename(path)}.tmp")
    try:
        written = write_archive(model, tmp)
        os.replace(tmp, path)
    except OSError as e:
        raise OSError(f"save: cannot write {path} ({e})") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    tf.train._simdist_charge_storage_io(written, save=True)


def write_archive(obj: Any, target: Any) -> list[Any]:
    """Write the `.keras` zip of `obj` (a model, or any Keras object saved whole) to `target`, a path
    or a binary file object; the variables written (for the storage cost)."""
    from simdist.keras.models.saving import _h5py, _save
    from simdist.keras.utils.keras_object_serialization import serialize_keras_object
    from simdist.keras.models.model import Model
    whole = isinstance(obj, Model) or getattr(type(obj), "_keras_public_module", None)   # (FeatureSpace.save)
    config = json.dumps(serialize_model(obj) if whole else _jsonable(serialize_keras_object(obj)))
    metadata = json.dumps({"keras_version": KERAS_VERSION, "date_saved": _date_saved()})
    weights = io.BytesIO()
    written: list[Any] = []
    with _h5py().File(weights, "w") as h5:
        _save(obj, h5, "", set(), written)
    assets = _saved_assets(obj)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, data in ((_METADATA, metadata.encode()), (_CONFIG, config.encode()),
                           (_WEIGHTS, weights.getvalue()), *assets):
            zf.writestr(zipfile.ZipInfo(name, date_time=_ZIP_EPOCH), data)
    return written


def _saved_assets(model: Any) -> list[tuple[str, bytes]]:
    """("assets/<object path>/<file>", bytes) of every object's save_assets(dir), by name."""
    import tempfile
    from simdist.keras.models.saving import walk_saveables
    out: list[tuple[str, bytes]] = []
    with tempfile.TemporaryDirectory() as root:
        for obj_path, obj in walk_saveables(model):
            if callable(getattr(obj, "save_assets", None)):
                where = os.path.join(root, obj_path)
                os.makedirs(where, exist_ok=True)
                obj.save_assets(where)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for fn in sorted(filenames):
                full = os.path.join(dirpath, fn)
                with open(full, "rb") as f:
                    out.append(("assets/" + os.path.relpath(full, root).replace(os.sep, "/"), f.read()))
    return out


def _load_assets(model: Any, path: Any) -> None:
    """Each object's load_assets(dir) with its files from the archive's assets/ (None when it has none)."""
    import tempfile
    from simdist.keras.models.saving import walk_saveables
    with zipfile.ZipFile(path, "r") as zf, tempfile.TemporaryDirectory() as root:
        names = [n for n in zf.namelist() if n.startswith("assets/") and not n.endswith("/")]
        for name in names:
            rel = name[len("assets/"):]
            if rel.startswith("/") or ".." in rel.split("/"):
                raise ValueError(f"Invalid asset path: '{rel}' escapes the asset directory.")
            target = os.path.join(root, *rel.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(zf.read(name))
        for obj_path, obj in walk_saveables(model):
            if callable(getattr(obj, "load_assets", None)):
                where = os.path.join(root, obj_path)
                obj.load_assets(where if os.path.exists(where) else None)


def _read_archive(path: Any) -> tuple[dict[str, Any], bytes]:
    """(config, weights bytes) of a `.keras` file (a path, or a binary file object), with an error
    naming the path if it is not one."""
    if isinstance(path, str) and not os.path.exists(path):
        raise ValueError(f"File not found: filepath={path}. Please ensure the file is an accessible `.keras` zip file.")
    try:
        with zipfile.ZipFile(path, "r") as zf:
            names = set(zf.namelist())
            if _CONFIG not in names:   # (Keras opens config.json first: zipfile's KeyError, as on TF 2.21)
                raise KeyError(f"There is no item named '{_CONFIG}' in the archive")
            missing = [n for n in (_CONFIG, _WEIGHTS) if n not in names]
            if missing:
                raise ValueError(f"load_model: {path} is not a Keras 3 `.keras` file: it has no {missing[0]} "
                                 f"(entries: {sorted(names)})")
            config = json.loads(zf.read(_CONFIG).decode("utf-8"))
            weights = zf.read(_WEIGHTS)
    except zipfile.BadZipFile as e:
        raise ValueError(f"load_model: {path} is not a readable `.keras` zip file ({e})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"load_model: {path}: config.json is not valid JSON ({e})") from None
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"load_model: {path}: config.json does not describe a model (no class_name)")
    return config, weights


def _model_class(config: dict[str, Any], custom_objects: dict | None) -> type:
    from simdist.keras.models.functional import Functional
    from simdist.keras.models.model import Model
    from simdist.keras.models.sequential import Sequential
    from simdist.keras.object_registration import get_registered_object
    builtin = {"Sequential": Sequential, "Functional": Functional, "Model": Model}
    name, registered = config["class_name"], config.get("registered_name")
    cls = get_registered_object(registered, custom_objects) if isinstance(registered, str) else None
    module = config.get("module")
    # (Keras's _retrieve_class_or_fn: a built-in model class is found through its "keras..." module; a config
    # without one, a hand-written JSON's {"class_name": "Sequential"}, is TypeError "Could not locate class")
    keras_module = isinstance(module, str) and (module == "keras" or module.startswith("keras."))
    cls = cls or get_registered_object(name, custom_objects) or (builtin.get(name) if keras_module else None)
    if cls is None and module == "keras.utils":   # (Keras's public classes saved whole: FeatureSpace)
        from simdist.keras import utils
        cls = getattr(utils, name, None)
    if cls is None:
        from simdist.keras.serialization import could_not_locate
        raise could_not_locate("class", name, config)
    return cls


def deserialize_model(config: dict[str, Any], custom_objects: dict | None = None, compile: bool = True) -> Any:
    """The model a config.json describes, built from its build_config and compiled from its
    compile_config (Keras 3.15's deserialize_keras_object for a model)."""
    import inspect as _inspect
    cls = _model_class(config, custom_objects)
    inner = dict(config.get("config") or {})
    params = _inspect.signature(cls.from_config).parameters
    model = cls.from_config(inner, custom_objects=custom_objects) if "custom_objects" in params \
        else cls.from_config(inner)
    build_config = config.get("build_config")
    from simdist.keras.layers.layer import Layer
    if build_config and not model.built and type(model).build_from_config is not Layer.build_from_config:
        model.build_from_config(build_config)   # (the class's own: FeatureSpace builds its preprocessors)
        model.built = True
    if build_config and not model.built:
        _build_from_config(model, build_config)
        model.built = True   # (serialization_lib sets it after build_from_config, whether that built or not)
    compile_config = config.get("compile_config")
    if compile and compile_config:
        _compile_from_config(model, compile_config, custom_objects)
        model.compiled = True   # (serialization_lib: also when a custom compile() skipped it, with its warning)
    return model


def _build_from_config(model: Any, build_config: dict[str, Any]) -> None:
    """Keras's Model.build_from_config: a model without its own build() is built by running its
    `call` (not `__call__`) on KerasTensors of its input shape, as backend.compute_output_spec
    does (_build_by_run_for_single_pos_arg) -- outside the model's name scope, so the sublayers'
    variables are "d1/kernel", not "model/d1/kernel"; a run that fails leaves the model unbuilt,
    with Keras's warning."""
    import warnings
    from simdist.keras.keras_tensor import KerasTensor, compute_output_spec
    from simdist.keras.layers.layer import Layer
    from simdist.keras.models.model import Model
    shape = build_config.get("input_shape")
    if shape is None:
        return
    own_build = type(model).build not in (Layer.build, Model.build)
    if own_build:
        model.build(shape)
        model._build_shapes_dict = build_config   # (Keras keeps the config it was given: get_build_config)
        return
    try:
        compute_output_spec(model.call, KerasTensor(tuple(shape)))
        model._build_shapes_dict = build_config
    except Exception:  # noqa: BLE001 - Keras's bare except: the model stays unbuilt, with a warning
        model._build_shapes_dict = build_config
        warnings.warn(f"Model '{model.name}' had a build config, but the model cannot be built automatically in "
                      "`build_from_config(config)`. You should implement `def build_from_config(self, config)`, "
                      "and you might also want to implement the method  that generates the config at saving time, "
                      "`def get_build_config(self)`. The method `build_from_config()` is meant to create the state "
                      "of the model (i.e. its variables) upon deserialization.", stacklevel=3)


def _compile_from_config(model: Any, compile_config: dict[str, Any], custom_objects: dict | None) -> None:
    from simdist.keras import losses, metrics, optimizers
    from simdist.keras.utils.keras_object_serialization import deserialize_keras_object
    from simdist.keras.trainers.trainer import Trainer
    if type(model).compile is not Trainer.compile:
        import warnings
        warnings.warn("`compile()` was not called as part of model loading because the model's `compile()` method is "
                      "custom. All subclassed Models that have `compile()` overridden should also override "
                      "`get_compile_config()` and `compile_from_config(config)`. Alternatively, you can call "
                      "`compile()` manually after loading.", stacklevel=3)
        return

    # (Keras's compile_from_config: the generic deserialize_keras_object of the whole compile config: a function
    # or class neither custom_objects, a custom_object_scope nor the registry names is TypeError "Could not locate")
    def loss_of(x: Any) -> Any:
        if isinstance(x, dict) and "class_name" in x and "module" in x:
            return deserialize_keras_object(x, custom_objects)
        if isinstance(x, dict) and "class_name" in x:
            return losses.deserialize(x, custom_objects)
        if isinstance(x, dict):
            return {k: loss_of(v) for k, v in x.items()}
        if isinstance(x, list):
            return [loss_of(v) for v in x]
        return x

    def metric_of(x: Any) -> Any:
        if isinstance(x, dict) and "class_name" in x and "module" in x:
            return deserialize_keras_object(x, custom_objects)
        if isinstance(x, dict) and "class_name" in x:
            return metrics.deserialize(x, custom_objects)
        if isinstance(x, dict):
            return {k: metric_of(v) for k, v in x.items()}
        if isinstance(x, list):
            return [metric_of(v) for v in x]
        return x

    cfg = dict(compile_config)
    opt = cfg.get("optimizer")
    kwargs: dict[str, Any] = {
        # (Keras: serialization_lib.deserialize_keras_object of the whole compile config, whose "keras.optimizers"
        # objects are found by their export path: Lamb too, which keras.optimizers.deserialize does not know)
        "optimizer": (deserialize_keras_object(opt, custom_objects) if isinstance(opt, dict) and "module" in opt
                      else optimizers.deserialize(opt, custom_objects) if isinstance(opt, dict) else opt),
        "loss": loss_of(cfg.get("loss")), "loss_weights": cfg.get("loss_weights"),
        "metrics": metric_of(cfg.get("metrics")), "weighted_metrics": metric_of(cfg.get("weighted_metrics")),
        "run_eagerly": bool(cfg.get("run_eagerly", False)), "steps_per_execution": int(cfg.get("steps_per_execution", 1)),
    }
    model.compile(**kwargs)
    if getattr(model, "optimizer", None) is not None and model.built:
        model.optimizer.build(model.trainable_variables)


def _load_checked(model: Any, weights: bytes, path: str, skip_mismatch: bool = False) -> None:
    """Read and check every variable of `model` against the archive's weights, then assign them
    all (none if anything does not fit)."""
    from simdist.keras.models.saving import _apply_loaded, _Ctx, _h5py, _load
    ctx = _Ctx(skip_mismatch)
    try:
        with _h5py().File(io.BytesIO(weights), "r") as h5:
            _load(model, h5, "", set(), ctx)
    except OSError as e:
        raise ValueError(f"load: {path}: model.weights.h5 is not a readable HDF5 file ({e})") from None
    _apply_loaded(ctx, path, skip_mismatch)


def load_model(filepath: Any, custom_objects: dict | None = None, compile: bool = True, safe_mode: bool = True) -> Any:
    """The model a `.keras` file holds (written by simdist or by Keras 3), weights and optimizer state included."""
    path = str(os.fspath(filepath))
    if path.endswith(".h5") or path.endswith(".hdf5"):
        raise NotImplementedError(f"load_model: {path}: the legacy HDF5 whole-model format (.h5) is not implemented "
                                  "by simdist; use a `.keras` file")
    if not path.endswith(".keras"):
        raise ValueError(f"File format not supported: filepath={path}. Keras 3 only supports V3 `.keras` files and "
                         "legacy H5 format files (`.h5` extension). (simdist: no SavedModel directories)")
    return read_archive(path, custom_objects, compile, safe_mode)


def read_archive(source: Any, custom_objects: dict | None = None, compile: bool = True,  # noqa: A002
                 safe_mode: bool = True) -> Any:
    """The object a `.keras` zip holds (`source`: a path or a binary file object): built from its
    config, compiled from its compile config, its variables read from the archive."""
    config, weights = _read_archive(source)
    from simdist.keras.safe_mode import SafeModeScope, in_safe_mode
    ambient = in_safe_mode()   # (enable_unsafe_deserialization() wins over safe_mode=True, as in Keras)
    with SafeModeScope(ambient if ambient is not None else safe_mode):
        if "compile_config" in config or config.get("class_name") in ("Sequential", "Functional", "Model") \
                or config.get("module") == "keras.utils" or config.get("registered_name"):
            model = deserialize_model(config, custom_objects, compile=compile)
        else:   # (a layer, loss, metric or optimizer saved whole: KerasSaveable.__reduce__)
            from simdist.keras.utils.keras_object_serialization import deserialize_keras_object
            model = deserialize_keras_object(config, custom_objects, safe_mode=bool(safe_mode))
    label = source if isinstance(source, str) else "<file object>"
    _load_checked(model, weights, label)
    _load_assets(model, source)
    return model


def load_weights_from_keras_file(model: Any, filepath: Any, skip_mismatch: bool = False) -> None:
    """`model.load_weights("x.keras")`: the weights (and optimizer variables) of a `.keras` file."""
    path = str(os.fspath(filepath))
    _, weights = _read_archive(path)
    _load_checked(model, weights, path, skip_mismatch=skip_mismatch)

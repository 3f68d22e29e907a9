"""`Model.save_weights` / `load_weights` in Keras 3's `.weights.h5` format
(keras/src/saving/saving_lib.py: save_weights_only, load_weights_only, H5IOStore).

The file is a tree of HDF5 groups by object path: each layer (and the optimizer, once built)
stores its own variables as datasets "0", "1", ... (trainable then non-trainable, in creation
order) in a "vars" group whose `name` attribute is the object's name. Children are found as Keras
finds them: a Sequential or functional model's `layers` first (group "layers/<snake_case class
name>", numbered "_1", "_2" ... within the list), then the attributes holding layers, the
optimizer, or lists/dicts of them, in sorted attribute order ("_x" after the rest); the model's
own variables are in the root "vars". An object with its own `save_own_variables(store)` /
`load_own_variables(store)` (Keras's hooks; the lookup layers' idf weights) writes and reads its
"vars" group itself, by key; one with `_after_variables_loaded()` has it called once its variables
are assigned (Normalization recomputes its mean and variance from them, as Keras's does). So files written by Keras 3.15 load into the same model
built by simdist and the other way round (tests/keras/test_models_tf.py). Needs h5py.
"""

from __future__ import annotations

import os
from typing import Any, Iterator

import numpy as np

from simdist import tf

from simdist.keras.layers.layer import Layer, is_metric
from simdist.keras.naming import to_snake_case

__all__ = ["save_weights", "load_weights", "walk_saveables"]

# Attributes every layer has: not children (Keras skips dir(Layer()) the same way).
_SKIP: set[str] | None = None


def _skipset(obj_type: str) -> set[str]:
    global _SKIP
    if _SKIP is None:
        with _quiet_names():
            ref = Layer()
        _SKIP = set(dir(ref)) | {"_self_unconditional_dependency_names"}
    extra = {"Functional": {"operations", "_operations"}, "Sequential": {"_functional"}}.get(obj_type, set())
    return _SKIP | extra


class _quiet_names:
    """Make the reference layer without taking a name uid (Keras's would take one; it is unobservable)."""

    def __enter__(self) -> None:
        from simdist.keras import naming
        self._saved = dict(naming._uids)

    def __exit__(self, *exc: object) -> None:
        from simdist.keras import naming
        naming._uids.clear()
        naming._uids.update(self._saved)


def _h5py() -> Any:
    try:
        import h5py
    except ImportError as e:   # pragma: no cover - h5py comes with TensorFlow and the `tf` extra
        raise ImportError("save_weights/load_weights need h5py (pip install h5py)") from e
    return h5py


def _is_saveable(x: Any) -> bool:
    from simdist.keras.optimizers import Optimizer
    return isinstance(x, (Layer, Optimizer)) and not is_metric(x)


def _name_key(name: str) -> str:
    return f"~{name}" if name.startswith("_") else name


def _children(obj: Any) -> Iterator[tuple[str, Any]]:
    from simdist.keras.optimizers import Optimizer
    if isinstance(obj, Optimizer):
        return
    obj_type = obj._obj_type() if hasattr(obj, "_obj_type") else "Layer"
    if obj_type in ("Sequential", "Functional"):
        yield "layers", obj.layers
    skip = _skipset(obj_type)
    for attr in sorted(dir(obj), key=_name_key):
        if attr.startswith("__") or attr in skip:
            continue
        try:
            child = getattr(obj, attr)
        except Exception:  # noqa: BLE001 - a property that cannot be read now is no child (as in Keras)
            continue
        yield attr, child


def _own_variables(obj: Any) -> list[Any]:
    from simdist.keras.optimizers import Optimizer
    if isinstance(obj, Optimizer):
        return list(obj.variables)
    if isinstance(obj, Layer):
        return list(obj._trainable_variables) + list(obj._non_trainable_variables)
    return []


def _join(a: str, b: str) -> str:
    return f"{a}/{b}" if a else b


def _has_own_store(obj: Any) -> bool:
    """The object saves and loads its variables itself (Keras's save_own_variables hook; a layer whose hook differs
    from the plain store only in a mode, such as Dense with LoRA, says when through `_saves_own_variables`)."""
    hook = getattr(type(obj), "save_own_variables", None)
    return (callable(hook) and hook is not Layer.save_own_variables   # (the base Layer's is the plain store)
            and getattr(obj, "_saves_own_variables", True))


class _H5Writer:
    """The store an object's save_own_variables writes to: key -> a dataset of its "vars" group."""

    def __init__(self, group: Any) -> None:
        self.group = group

    def __setitem__(self, key: str, value: Any) -> None:
        self.group[key] = np.asarray(value)


class _Deferred:
    """A call queued with the variables (made once every object was checked): an object's
    load_own_variables(store), or its `_after_variables_loaded()` hook once its variables are in
    (Keras's Normalization.load_own_variables calls finalize_state after loading)."""

    def __init__(self, call: Any) -> None:
        self.call = call

    def assign(self, value: Any) -> None:
        self.call(value)


def _save(obj: Any, h5: Any, path: str, visited: set[int], written: list[Any]) -> None:
    if id(obj) in visited:
        return
    if _is_saveable(obj):
        own = _own_variables(obj)
        group = h5.create_group(_join(path, "vars")) if path else h5.create_group("vars")
        group.attrs["name"] = obj.name
        if _has_own_store(obj):
            obj.save_own_variables(_H5Writer(group))
        else:
            for i, v in enumerate(own):
                group[str(i)] = np.asarray(v)   # Keras: backend.convert_to_numpy(variable) = np.array(variable)
        written.extend(own)
    visited.add(id(obj))
    for attr, child in _children(obj):
        if _is_saveable(child):
            _save(child, h5, _join(path, attr), visited, written)
        elif isinstance(child, (list, tuple, dict)):
            _save_container(child, h5, _join(path, attr), visited, set(), written)


def walk_saveables(obj: Any, path: str = "", visited: set[int] | None = None) -> Iterator[tuple[str, Any]]:
    """(path, object) for `obj` and every saveable below it, in the order and under the paths the
    weights file uses (Keras's _save_state walk: the paths of a .keras file's assets)."""
    visited = set() if visited is None else visited
    if id(obj) in visited:
        return
    if _is_saveable(obj):
        yield path, obj
    visited.add(id(obj))
    for attr, child in _children(obj):
        if _is_saveable(child):
            yield from walk_saveables(child, _join(path, attr), visited)
        elif isinstance(child, (list, tuple, dict)):
            yield from _walk_container(child, _join(path, attr), visited, set())


def _walk_container(container: Any, path: str, visited: set[int], seen: set[int]) -> Iterator[tuple[str, Any]]:
    if id(container) in seen:
        return
    seen.add(id(container))
    used: dict[str, int] = {}
    items = list(container.values()) if isinstance(container, dict) else list(container)
    for item in items:
        if _is_saveable(item):
            yield from walk_saveables(item, _join(path, _unique(to_snake_case(type(item).__name__), used)), visited)
        elif isinstance(item, (list, tuple, dict)):
            yield from _walk_container(item, _join(path, _unique("container", used)), visited, seen)


def _unique(name: str, used: dict[str, int]) -> str:
    if name in used:
        used[name] += 1
        return f"{name}_{used[name]}"
    used[name] = 0
    return name


def _save_container(container: Any, h5: Any, path: str, visited: set[int], seen: set[int],
                    written: list[Any]) -> None:
    if id(container) in seen:
        return
    seen.add(id(container))
    used: dict[str, int] = {}
    items = list(container.values()) if isinstance(container, dict) else list(container)
    for item in items:
        if _is_saveable(item):
            _save(item, h5, _join(path, _unique(to_snake_case(type(item).__name__), used)), visited, written)
        elif isinstance(item, (list, tuple, dict)):
            _save_container(item, h5, _join(path, _unique("container", used)), visited, seen, written)


def _check_path(filepath: Any) -> str:
    path = os.fspath(filepath)
    if not str(path).endswith(".weights.h5"):
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={path}")
    return str(path)


def save_weights(model: Any, filepath: Any, overwrite: bool = True, max_shard_size: Any = None) -> None:
    """Write `model`'s weights (and its built optimizer's) to `filepath` (".weights.h5")."""
    if max_shard_size is not None:
        raise NotImplementedError("save_weights(max_shard_size=...): sharded weight files are not implemented")
    path = _check_path(filepath)
    if not overwrite and os.path.exists(path):
        raise FileExistsError(f"{path} exists and overwrite=False (Keras asks the user to confirm here)")
    if not model.built:
        raise ValueError("You are saving a model that has not yet been built. Try building the model first by calling "
                         "it on some data or by using `build()`.")
    h5py = _h5py()
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"save_weights: cannot write {path}: the directory {directory} does not exist")
    # written whole under a temporary name, then renamed: an interrupted save never leaves a
    # half-written weights file (nor destroys the previous one)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.tmp")
    written: list[Any] = []
    try:
        with h5py.File(tmp, "w") as h5:
            _save(model, h5, "", set(), written)
        os.replace(tmp, path)
    except OSError as e:
        raise OSError(f"save_weights: cannot write {path} ({e})") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    # the copies to the host it cost, as a tf.train.Checkpoint save's (clause keras.backup-and-restore.resume)
    tf.train._simdist_charge_storage_io(written, save=True)


class _Store:
    """The variables of one object in a file ("vars" group), as a mapping "0" -> array."""

    def __init__(self, h5: Any, path: str) -> None:
        self.group: Any = {}
        if not path:
            if "vars" in h5:
                self.group = h5["vars"]
        elif path in h5 and "vars" in h5[path]:
            self.group = h5[path]["vars"]

    def keys(self) -> list[str]:
        return list(self.group.keys())

    def __getitem__(self, key: str) -> np.ndarray:
        return np.asarray(self.group[key])


def _load_own(obj: Any, store: _Store, pending: list[tuple[Any, np.ndarray]]) -> None:
    """Check ``obj``'s variables against the file and queue their values in ``pending`` (nothing
    is assigned here: `load_weights` assigns once every object has been checked)."""
    from simdist.keras.optimizers import Optimizer
    if _has_own_store(obj):
        pending.append((_Deferred(obj.load_own_variables), {k: store[k] for k in store.keys()}))
        return
    own = _own_variables(obj)
    if isinstance(obj, Optimizer):
        if len(store.keys()) != len(own):
            import warnings
            msg = (f"Skipping variable loading for optimizer '{obj.name}', because it has {len(own)} variables "
                   f"whereas the saved optimizer has {len(store.keys())} variables. ")
            if not own or not obj.built:
                msg += "This is likely because the optimizer has not been called/built yet."
            warnings.warn(msg, stacklevel=3)
            return
    elif len(store.keys()) != len(own):
        if not own and not obj.built:
            raise ValueError(f"Layer '{obj.name}' was never built and thus it doesn't have any variables. However the "
                             f"weights file lists {len(store.keys())} variables for this layer.")
        raise ValueError(f"Layer '{obj.name}' expected {len(own)} variables, but received {len(store.keys())} "
                         "variables during loading. "
                         f"Expected: {[v.name for v in own]}")
    mine = []
    for i, v in enumerate(own):
        value = store[str(i)]
        if tuple(v.shape.as_list()) != tuple(value.shape):
            raise ValueError("The shape of the target variable and the shape of the target value in "
                             f"`variable.assign(value)` must match. variable.shape={v.shape}, Received: "
                             f"value.shape={value.shape}. Target variable: {v}")
        mine.append((v, value))
    if callable(getattr(obj, "_after_variables_loaded", None)):
        mine.append((_Deferred(lambda _: obj._after_variables_loaded()), None))
    pending.extend(mine)   # all of this object's variables, or none


class _Ctx:
    """One load: the values checked so far, the objects that failed, the mode."""

    def __init__(self, skip_mismatch: bool) -> None:
        self.pending: list[tuple[Any, np.ndarray]] = []
        self.errors: list[tuple[Any, Exception]] = []
        self.skip_mismatch = skip_mismatch


def _load(obj: Any, h5: Any, path: str, visited: set[int], ctx: _Ctx) -> None:
    if id(obj) in visited:
        return
    if _is_saveable(obj):
        try:
            _load_own(obj, _Store(h5, path), ctx.pending)
        except (ValueError, KeyError, TypeError) as e:   # collected, then raised (or warned) together as Keras does
            ctx.errors.append((obj, e))
    visited.add(id(obj))
    for attr, child in _children(obj):
        if _is_saveable(child):
            _load(child, h5, _join(path, attr), visited, ctx)
        elif isinstance(child, (list, tuple, dict)):
            _load_container(child, h5, _join(path, attr), visited, ctx, set())


def _load_container(container: Any, h5: Any, path: str, visited: set[int], ctx: _Ctx, seen: set[int]) -> None:
    if id(container) in seen:
        return
    seen.add(id(container))
    used: dict[str, int] = {}
    items = list(container.values()) if isinstance(container, dict) else list(container)
    for item in items:
        if _is_saveable(item):
            _load(item, h5, _join(path, _unique(to_snake_case(type(item).__name__), used)), visited, ctx)
        elif isinstance(item, (list, tuple, dict)):
            nested = _join(path, _unique("container", used))
            if nested in h5:
                _load_container(item, h5, nested, visited, ctx, seen)


def load_weights(model: Any, filepath: Any, skip_mismatch: bool = False, **kwargs: Any) -> None:
    """Assign `model`'s weights from a `.weights.h5` file (Keras's or simdist's)."""
    path = os.fspath(filepath)
    from simdist.keras.models.load_kwargs import check_load_kwargs
    if check_load_kwargs(str(path), kwargs) is not None:
        raise NotImplementedError("load_weights(objects_to_skip=...): simdist does not model skipping objects when "
                                  "loading a .weights.h5 file")
    if not str(path).endswith(".weights.h5"):
        raise ValueError(f"File format not supported: filepath={path}. Keras 3 only supports V3 `.keras` files, "
                         "`.weights.h5` files, legacy H5 format files (`.h5` extension), or Orbax checkpoints.")
    if not model.built:
        raise ValueError("You are loading weights into a model that has not yet been built. Try building the model "
                         "first by calling it on some data or by using `build()`.")
    h5py = _h5py()
    ctx = _Ctx(skip_mismatch)
    # Every object is checked, and every value read, before anything is assigned: a file that does
    # not fit (or cannot be read) leaves the model as it was. (Keras 3.15 assigns object by object
    # and raises at the end, with the earlier layers overwritten; a deliberate deviation, see
    # docs/keras.md.)
    try:
        with h5py.File(path, "r") as h5:
            _load(model, h5, "", set(), ctx)
    except FileNotFoundError:
        raise FileNotFoundError(f"load_weights: no such file: {path}") from None
    except OSError as e:   # h5py: not an HDF5 file, truncated, unreadable
        raise OSError(f"load_weights: {path} is not a readable .weights.h5 file ({e})") from None
    _apply_loaded(ctx, path, skip_mismatch)


def _apply_loaded(ctx: Any, path: Any, skip_mismatch: bool) -> None:
    """Assign what a load read, only once everything was read: on any error nothing changes
    (or, with skip_mismatch, Keras's warning and the rest assigned); the reads cost storage time."""
    if ctx.errors:
        obj, err = ctx.errors[0]
        msg = (f"A total of {len(ctx.errors)} objects could not be loaded from {path}. Example error message for "
               f"object {obj}:\n\n{err}\n\nList of objects that could not be loaded:\n{[o for o, _ in ctx.errors]}")
        if not skip_mismatch:
            raise ValueError(msg + "\n\nNo weight was changed.")
        import warnings
        warnings.warn(msg)
    for v, value in ctx.pending:
        v.assign(value)
    tf.train._simdist_charge_storage_io([v for v, _ in ctx.pending if not isinstance(v, _Deferred)], save=False)

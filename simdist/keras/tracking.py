"""Keras's attribute tracking (keras/src/utils/tracking.py): a layer puts the variables, sub-layers,
metrics and seed generators assigned to its attributes into its stores, in assignment order,
including those inside lists, tuples and dicts (kept as tracking containers so later appends are
tracked too). Once a layer is built its tracker is locked: new state raises ValueError.

Whether tracking is on (`no_tracking`, Keras's DotNotTrackScope) is per thread of control, as in
Keras (its global_state is thread-local): a context variable, so each thread and each greenlet
has its own. The in-process clients of a multi-worker launch (simdist.launch) are greenlets of
one thread that switch at collectives; a process-wide flag saved and restored around a block let
one client's restore of another's "off" outlive both, leaving tracking off for the rest of the
process (every later model had no weights)."""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Callable, Iterator

__all__ = ["ListWrapper", "Tracker", "TrackedList", "TrackedDict", "no_tracking", "is_tracking_enabled", "wrap_or_unwrap"]

_tracking: contextvars.ContextVar[bool] = contextvars.ContextVar("simdist.keras.tracking", default=True)


def is_tracking_enabled() -> bool:
    return _tracking.get()


@contextlib.contextmanager
def no_tracking() -> Iterator[None]:
    """Attributes set inside are not tracked (Keras's DotNotTrackScope), in this thread of
    control only (thread or greenlet)."""
    token = _tracking.set(False)
    try:
        yield
    finally:
        _tracking.reset(token)


def _remove_by_id(seq: list, value: Any) -> None:
    for i, v in enumerate(seq):
        if v is value:
            del seq[i]
            return


class Tracker:
    """`config`: store name -> (predicate, list). `exclusions`: a store's values found in
    another named store are not added again (non-trainable vs trainable)."""

    def __init__(self, config: dict[str, tuple[Callable[[Any], bool], list]],
                 exclusions: dict[str, list[str]] | None = None) -> None:
        self.config = config
        self.stored_ids: dict[str, set[int]] = {name: set() for name in config}
        self.locked = False
        self._lock_violation_msg: str | None = None
        self.exclusions = exclusions or {}

    def track(self, attr: Any) -> Any:
        if not is_tracking_enabled():
            return attr
        for store_name, (is_attr_type, _) in self.config.items():
            if is_attr_type(attr):
                for excl in self.exclusions.get(store_name, []):
                    if self.is_in_store(excl, attr):
                        return attr
                if not self.is_in_store(store_name, attr):
                    self.add_to_store(store_name, attr)
                return attr
        if isinstance(attr, tuple) and hasattr(attr, "_fields"):
            return type(attr)(**{k: self.track(v) for k, v in attr._asdict().items()})
        if isinstance(attr, tuple):
            return type(attr)([self.track(e) for e in attr])
        if isinstance(attr, TrackedList) or isinstance(attr, TrackedDict):
            if attr.tracker is self:
                return attr
        if isinstance(attr, list):
            return TrackedList(attr, self)
        if isinstance(attr, dict):
            return TrackedDict(attr, self)
        return attr

    def untrack(self, value: Any) -> None:
        for store_name, ids in self.stored_ids.items():
            if id(value) in ids:
                ids.remove(id(value))
                _remove_by_id(self.config[store_name][1], value)

    def lock(self, msg: str | None = None) -> None:
        self.locked = True
        if msg is not None:
            self._lock_violation_msg = msg

    def unlock(self) -> None:
        self.locked = False

    def add_to_store(self, store_name: str, value: Any) -> None:
        if self.locked:
            raise ValueError(self._lock_violation_msg)
        self.config[store_name][1].append(value)
        self.stored_ids[store_name].add(id(value))

    def is_in_store(self, store_name: str, value: Any) -> bool:
        return id(value) in self.stored_ids[store_name]


class TrackedList(list):
    """A list whose additions are tracked by its owner's tracker."""

    def __init__(self, values: Any = None, tracker: Tracker | None = None) -> None:
        self.tracker = tracker
        values = list(values or [])
        if tracker is not None:
            values = [tracker.track(v) for v in values]
        super().__init__(values)

    def append(self, value: Any) -> None:
        if self.tracker is not None:
            value = self.tracker.track(value)
        super().append(value)

    def insert(self, index: Any, value: Any) -> None:
        if self.tracker is not None:
            value = self.tracker.track(value)
        super().insert(index, value)

    def extend(self, values: Any) -> None:
        if self.tracker is not None:
            values = [self.tracker.track(v) for v in values]
        super().extend(values)

    def remove(self, value: Any) -> None:
        if self.tracker is not None:
            self.tracker.untrack(value)
        _remove_by_id(self, value)

    def pop(self, index: Any = -1) -> Any:
        value = super().pop(index)
        if self.tracker is not None:
            self.tracker.untrack(value)
        return value

    def clear(self) -> None:
        if self.tracker is not None:
            for value in self:
                self.tracker.untrack(value)
        super().clear()


class TrackedDict(dict):
    """A dict whose added values are tracked by its owner's tracker."""

    def __init__(self, values: Any = None, tracker: Tracker | None = None) -> None:
        self.tracker = tracker
        values = dict(values or {})
        if tracker is not None:
            values = {k: tracker.track(v) for k, v in values.items()}
        super().__init__(values)

    def __setitem__(self, key: Any, value: Any) -> None:
        if self.tracker is not None:
            value = self.tracker.track(value)
        super().__setitem__(key, value)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for k, v in dict(*args, **kwargs).items():
            self[k] = v

    def pop(self, key: Any, *default: Any) -> Any:
        value = super().pop(key, *default)
        if self.tracker is not None:
            self.tracker.untrack(value)
        return value


class ListWrapper(list):
    """TF 2.21's data_structures.ListWrapper: a plain list assigned to an attribute of a TF AutoTrackable (a
    tf.Module; a Keras layer or model while Keras's own tracking is off, e.g. `model.loss` set by compile) is
    wrapped in one, its plain lists and dicts wrapped too. A list (isinstance, ==, +, json as the list), shown as
    "ListWrapper([...])"; copy and deepcopy give a ListWrapper; unhashable."""

    def __init__(self, wrapped_list: Any = ()) -> None:
        super().__init__(wrap_or_unwrap(v) for v in wrapped_list)

    def __repr__(self) -> str:
        return f"ListWrapper({list.__repr__(self)})"

    def __copy__(self) -> "ListWrapper":
        return ListWrapper(list(self))

    def __deepcopy__(self, memo: dict) -> "ListWrapper":
        import copy
        return ListWrapper(copy.deepcopy(list(self), memo))


class _DictWrapper(dict):
    """TF 2.21's data_structures._DictWrapper, for a plain dict (see ListWrapper): a dict whose repr is
    "DictWrapper({...})" and whose str is the dict's."""

    def __init__(self, wrapped_dict: Any = None) -> None:
        super().__init__({k: wrap_or_unwrap(v) for k, v in dict(wrapped_dict or {}).items()})

    def __repr__(self) -> str:
        return f"DictWrapper({dict.__repr__(self)})"

    def __str__(self) -> str:
        return dict.__repr__(self)

    def __copy__(self) -> "_DictWrapper":
        return _DictWrapper(dict(self))

    def __deepcopy__(self, memo: dict) -> "_DictWrapper":
        import copy
        return _DictWrapper(copy.deepcopy(dict(self), memo))


# attributes Keras 3 assigns with TF's attribute tracking off (`_self_setattr_tracking = False`), which TF therefore
# never wraps: Layer._initialize_tracker's collections and ops.Function's input/output structures
# (also a Functional's `_operations` and `_operations_by_depth`: simdist's checkpoint walks them as plain containers,
# giving TF's keys `f/_operations/1/_kernel/...`: tests/strategies/test_checkpoint_reader43_tf.py)
TF_UNWRAPPED = frozenset({"_trainable_variables", "_non_trainable_variables", "_layers", "_metrics",
                          "_seed_generators", "_inputs_struct", "_outputs_struct", "_inputs", "_outputs",
                          "_operations", "_operations_by_depth"})


def wrap_or_unwrap(value: Any) -> Any:
    """TF's data_structures.wrap_or_unwrap for an attribute's value: a value whose type is exactly list or dict is
    wrapped (ListWrapper, _DictWrapper); anything else (a tuple of immutables, a Keras TrackedList, a subclass)
    is kept as it is."""
    if type(value) is list:
        return ListWrapper(value)
    if type(value) is dict:
        return _DictWrapper(value)
    return value

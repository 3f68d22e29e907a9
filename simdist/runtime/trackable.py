"""Which objects a `tf.train.Checkpoint` tracks (TF 2.21's `base.Trackable`; clause checkpoint.restore-status).

TF's Checkpoint takes as a keyword argument (or root) only a trackable object, or a list, tuple or
dict (which it wraps in a trackable data structure), and refuses anything else with ValueError
(checkpoint.py `_assert_trackable`: a `base.Trackable` or a tf.function). Assigning an attribute
accepts any value, but only trackables are saved; a non-trackable element of a list or dict is
skipped. The rule lives on the classes: each simdist class whose TF counterpart is a Trackable sets
`_simdist_trackable = True` (variables, sharded variables, tf.Module, tf.function, datasets and their
iterators, tf.random.Generator, Keras layers, models, optimizers and variables, Checkpoint itself).
Keras 3's metrics, losses, schedules and SeedGenerators are not TF trackables (KerasSaveable only),
nor is a distributed iterator or a strategy.
"""

from __future__ import annotations

from typing import Any

__all__ = ["is_trackable", "is_container", "trackable_error"]


def is_container(value: Any) -> bool:
    """A list, tuple or dict: TF wraps it in a trackable data structure (ListWrapper, _DictWrapper)."""
    return isinstance(value, (list, tuple, dict))


def is_trackable(value: Any) -> bool:
    """True for what TF 2.21's Checkpoint accepts as a keyword argument: a trackable object or a container."""
    return is_container(value) or bool(getattr(type(value), "_simdist_trackable", False))


def trackable_error(name: str, value: Any) -> ValueError:
    """TF 2.21's ValueError for a Checkpoint argument that is not trackable (checkpoint.py `_assert_trackable`)."""
    return ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an object derived from "
                      f"`Trackable`), got {_shown(value)}. If you believe this object should be trackable (i.e. it is "
                      "part of the TensorFlow Python API and manages state), please open an issue.")


def _shown(value: Any) -> str:
    """The value as TF's f-string shows it (`{obj}`: str, a tensor's str)."""
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - an object whose str fails: its repr, as a last resort
        return repr(value)

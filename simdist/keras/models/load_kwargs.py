"""`Model.load_weights`' keyword arguments, as Keras 3.15's saving_api.load_weights reads them
(spec `keras.model.save-weights`): the legacy keywords `objects_to_skip` and `by_name` are taken
out first and any other keyword is ValueError "Invalid keyword arguments: {...}"; then, by the
file's extension, `by_name` (any value but None, False too) is refused for `.keras`, `.weights.h5`
and `.weights.json` files ("only supports loading legacy '.h5' or '.hdf5' files") and
`objects_to_skip` for `.keras` files ("only supports loading '.weights.h5' files."). These checks
come before the file is read and before the unbuilt-model check."""

from __future__ import annotations

from typing import Any


def check_load_kwargs(path: str, kwargs: dict[str, Any]) -> Any:
    """Keras's checks of load_weights' `kwargs` for the file `path`; returns `objects_to_skip` (None
    unless given)."""
    rest = dict(kwargs)
    objects_to_skip = rest.pop("objects_to_skip", None)
    by_name = rest.pop("by_name", None)
    if rest:
        raise ValueError(f"Invalid keyword arguments: {rest}")
    if path.endswith(".keras"):
        if objects_to_skip is not None:
            raise ValueError(f"`objects_to_skip` only supports loading '.weights.h5' files.Received: {path}")
        if by_name is not None:
            raise ValueError(f"`by_name` only supports loading legacy '.h5' or '.hdf5' files. Received: {path}")
    elif path.endswith(".weights.h5") or path.endswith(".weights.json"):
        if by_name is not None:
            raise ValueError(f"`by_name` only supports loading legacy '.h5' or '.hdf5' files. Received: {path}")
    return objects_to_skip

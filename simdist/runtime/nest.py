"""`tf.nest`: the one structure utility (flatten, pack, map), with TF's rules.

Lists, tuples, namedtuples and dicts (values in sorted key order, as TF flattens them) are
structures; everything else (tensors, variables, numbers, None) is a leaf. With
`expand_composites=True` a SparseTensor is the structure [indices, values, dense_shape], an
IndexedSlices [values, indices, dense_shape] and a RaggedTensor [flat_values, *nested_row_splits]
(TF's type specs' components).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

__all__ = ["flatten", "pack_sequence_as", "map_structure", "is_nested", "assert_same_structure"]


def is_nested(x: Any) -> bool:
    return isinstance(x, (list, tuple, dict))


def _children(x: Any) -> list[Any]:
    if isinstance(x, dict):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


def _sorted_keys(d: dict) -> list[Any]:
    try:
        return sorted(d)
    except TypeError:
        raise TypeError(f"nest only supports dicts with sortable keys, got keys {list(d)!r}") from None


def _composite(x: Any) -> list[Any] | None:
    """A SparseTensor's or IndexedSlices' component tensors (None for anything else)."""
    name = type(x).__name__
    if name == "SparseTensor":
        return [x.indices, x.values, x.dense_shape]
    if name == "IndexedSlices":
        return [x.values, x.indices] + ([] if x.dense_shape is None else [x.dense_shape])
    if name == "RaggedTensor":
        return [x.flat_values] + list(x.nested_row_splits)
    return None


def _rebuilt(structure: Any, parts: list[Any]) -> Any:
    """The composite again from new components; a SparseTensor's must fit its spec (its shape)."""
    if type(structure).__name__ == "RaggedTensor":
        return type(structure).from_nested_row_splits(parts[0], parts[1:], validate=False)
    if type(structure).__name__ == "SparseTensor":
        new = type(structure)(parts[0], parts[1], parts[2])
        if not structure.shape.is_compatible_with(new.shape):
            raise ValueError(f"Shapes {new.shape} and {structure.shape} are not compatible")
        return new
    return type(structure)(parts[0], parts[1], parts[2] if len(parts) > 2 else None)


def _walk(x: Any, expand: bool = False) -> Iterator[Any]:
    if is_nested(x):
        for c in _children(x):
            yield from _walk(c, expand)
    elif expand and _composite(x) is not None:
        yield from _composite(x)  # type: ignore[misc]
    else:
        yield x


def flatten(structure: Any, expand_composites: bool = False) -> list[Any]:
    return list(_walk(structure, expand_composites))


def _pack(structure: Any, it: Iterator[Any], expand: bool = False) -> Any:
    if not is_nested(structure):
        parts = _composite(structure) if expand else None
        if parts is not None:
            return _rebuilt(structure, [next(it) for _ in parts])
        return next(it)
    if isinstance(structure, dict):
        packed = {k: _pack(structure[k], it, expand) for k in _sorted_keys(structure)}
        return type(structure)((k, packed[k]) for k in structure)
    items = [_pack(c, it, expand) for c in structure]
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*items)
    return type(structure)(items)


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    flat = list(flat_sequence)
    n = len(flatten(structure, expand_composites))
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence had {len(flat)} "
                         f"items. Structure: {structure!r}, flat_sequence: {flat!r}.")
    return _pack(structure, iter(flat), expand_composites)


def _shape(x: Any, check_types: bool) -> Any:
    """The structure of x without its leaves (a module function: a nested function calling
    itself is a reference cycle)."""
    if not is_nested(x):
        return None
    kind = type(x) if check_types else (dict if isinstance(x, dict) else list)
    keys = _sorted_keys(x) if isinstance(x, dict) else None
    return (kind, keys, [_shape(c, check_types) for c in _children(x)])


def _same_kind(a: Any, b: Any) -> bool:
    """TF's check_types test of two nested values: one type, two mappings, or two namedtuples of one name and fields."""
    if type(a) is type(b) or (isinstance(a, dict) and isinstance(b, dict)):
        return True
    fa, fb = getattr(a, "_fields", None), getattr(b, "_fields", None)
    return fa is not None and fb is not None and isinstance(a, tuple) and isinstance(b, tuple) and \
        type(a).__name__ == type(b).__name__ and tuple(fa) == tuple(fb)


def _mismatch(a: Any, b: Any, check_types: bool) -> type | None:
    """The error class of TF 2.21's AssertSameStructureHelper (util.cc) for the first difference met depth first,
    None when the structures match: a value nested and the other not, dictionaries with other keys (checked with
    types only) or other lengths are ValueError; with check_types, sequences of other types (list and tuple, two
    namedtuple classes; two mappings of any kinds match) TypeError, checked before their lengths."""
    na, nb = is_nested(a), is_nested(b)
    if na != nb:
        return ValueError
    if not na:
        return None
    if check_types:
        if not _same_kind(a, b):
            return TypeError
        if isinstance(a, dict) and set(a) != set(b):
            return ValueError
    ca, cb = list(_children(a)), list(_children(b))
    if len(ca) != len(cb):
        return ValueError
    for x, y in zip(ca, cb):
        got = _mismatch(x, y, check_types)
        if got is not None:
            return got
    return None


def assert_same_structure(a: Any, b: Any, check_types: bool = True, expand_composites: bool = False) -> None:
    cls = _mismatch(a, b, check_types)
    if cls is not None:
        raise cls(f"The two structures don't have the same nested structure.\n\nFirst structure: {a!r}\n\n"
                         f"Second structure: {b!r}")


def map_structure(func: Callable[..., Any], *structures: Any, check_types: bool = True,
                  expand_composites: bool = False) -> Any:
    if not structures:
        raise ValueError("Must provide at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s, check_types=check_types)
    flats = [flatten(s, expand_composites) for s in structures]
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)], expand_composites)

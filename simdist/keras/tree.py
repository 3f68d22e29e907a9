"""`tf.keras.tree` (Keras 3.15's keras/src/tree/tree_api.py on its optree implementation,
keras/src/tree/optree_impl.py): flatten, map and pack nested structures the way Keras's own code
does — optree with `none_is_leaf=True` in the "keras" namespace, so None is a leaf, dicts flatten
in sorted key order, namedtuples and deques are nodes, and Keras's tracked containers
(simdist/keras/tracking.py: TrackedList, TrackedDict) are nodes as Keras registers them. optree is
the library Keras itself uses for this (a dependency of Keras 3, and of simdist). Clause
keras.tree.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import optree

from simdist.keras import _api

__all__ = ["MAP_TO_NONE", "assert_same_paths", "assert_same_structure", "flatten", "flatten_with_path", "is_nested",
           "lists_to_tuples", "map_shape_structure", "map_structure", "map_structure_up_to", "pack_sequence_as",
           "traverse"]

_NS = "keras"


def _register_tracked_containers() -> None:
    """TrackedList and TrackedDict as tree nodes (Keras: @tree.register_tree_node_class on them), and TF's
    ListWrapper and _DictWrapper (simdist/keras/tracking.py)."""
    from simdist.keras.tracking import ListWrapper, TrackedDict, TrackedList, _DictWrapper

    def sorted_items(d: Any) -> tuple[list, list, list]:
        keys = sorted(d.keys())
        return [d[k] for k in keys], keys, keys

    for cls, flatten_fn, unflatten_fn in (
            (TrackedList, lambda x: (x, None), lambda meta, children: TrackedList(list(children))),
            (TrackedDict, sorted_items, lambda keys, values: TrackedDict(dict(zip(keys, values)))),
            # (Keras's optree_impl registers TF's ListWrapper and _DictWrapper alike, on the TF backend)
            (ListWrapper, lambda x: (x, None), lambda meta, children: ListWrapper(list(children))),
            (_DictWrapper, sorted_items, lambda keys, values: _DictWrapper(dict(zip(keys, values))))):
        try:
            optree.register_pytree_node(cls, flatten_fn, unflatten_fn, namespace=_NS)
        except ValueError:   # (registered already: a re-import)
            pass


_register_tracked_containers()


class MAP_TO_NONE:   # noqa: N801 - Keras's name
    """Special value for use with `traverse()`: map the node to None."""


def _is_leaf(x: Any, none_is_leaf: bool = True) -> bool:
    return optree.tree_is_leaf(x, none_is_leaf=none_is_leaf, namespace=_NS)


def is_nested(structure: Any) -> bool:
    """Whether `structure` is a list, tuple, dict, namedtuple, deque or registered node (not a leaf)."""
    return not _is_leaf(structure)


def traverse(func: Callable[[Any], Any], structure: Any, top_down: bool = True) -> Any:
    """Apply `func` to each node; a None result keeps the node (and, top-down, goes into it), MAP_TO_NONE
    replaces it with None."""
    def traverse_children() -> Any:
        children, treedef = optree.tree_flatten(structure, is_leaf=lambda x: x is not structure, none_is_leaf=True,
                                                namespace=_NS)
        if treedef.num_nodes == 1 and treedef.num_leaves == 1:
            return structure
        return optree.tree_unflatten(treedef, [traverse(func, c, top_down=top_down) for c in children])

    if top_down:
        ret = func(structure)
        if ret is None:
            return traverse_children()
    else:
        traversed = traverse_children()
        ret = func(traversed)
        if ret is None:
            return traversed
    if isinstance(ret, type) and ret.__name__ == "MAP_TO_NONE":
        return None
    return ret


def flatten(structure: Any) -> list:
    """The leaves of `structure` in Keras's order (a leaf alone is a one-element list)."""
    if not is_nested(structure):
        return [structure]
    if isinstance(structure, (list, tuple)) and len(structure) == 1 and not is_nested(structure[0]):
        return [structure[0]]
    leaves, _ = optree.tree_flatten(structure, none_is_leaf=True, namespace=_NS)
    return leaves


def flatten_with_path(structure: Any) -> list[tuple[tuple, Any]]:
    """(path, leaf) pairs, a path the tuple of keys and indices from the root."""
    paths, leaves, _ = optree.tree_flatten_with_path(structure, none_is_leaf=True, namespace=_NS)
    return list(zip(paths, leaves))


def map_structure(func: Callable[..., Any], *structures: Any, none_is_leaf: bool = True) -> Any:
    """`func` over the leaves of one or more structures of the same nesting."""
    if len(structures) == 1 and not is_nested(structures[0]):
        if structures[0] is None and not none_is_leaf:
            return None
        return func(structures[0])
    if not structures:
        raise ValueError("Must provide at least one structure")

    def func_with_check(*args: Any) -> Any:
        if not all(_is_leaf(s, none_is_leaf) for s in args):
            raise ValueError("Structures don't have the same nested structure.")
        return func(*args)

    return optree.tree_map(func_with_check if len(structures) > 1 else func, *structures,
                           none_is_leaf=none_is_leaf, namespace=_NS)


def map_structure_up_to(shallow_structure: Any, func: Callable[..., Any], *structures: Any) -> Any:
    """`func` over `structures` down to the depth of `shallow_structure`."""
    if not structures:
        raise ValueError("Must provide at least one structure")

    def func_with_check_without_shallow_structure(shallow: Any, *args: Any) -> Any:
        if not optree.tree_is_leaf(shallow):
            raise ValueError("Structures don't have the same nested structure.")
        return func(*args)

    return optree.tree_map(func_with_check_without_shallow_structure, shallow_structure, *structures,
                           none_is_leaf=True, namespace=_NS)


def assert_same_structure(a: Any, b: Any, check_types: Any = None) -> None:
    """ValueError unless `a` and `b` nest alike (`check_types` is deprecated and ignored, with a warning)."""
    if check_types is not None:
        if check_types:
            warnings.warn("The `check_types` argument is deprecated and no longer has any effect, please remove.",
                          DeprecationWarning, stacklevel=2)
        else:
            warnings.warn("The `check_types` argument is deprecated and no longer has any effect. For a looser "
                          "check, use `keras.tree.assert_same_paths()`, which considers `list`, `tuple`, "
                          "`namedtuple` and `deque` as matching", DeprecationWarning, stacklevel=2)

    def check(a_leaf: Any, b_leaf: Any) -> None:
        if not _is_leaf(a_leaf) or not _is_leaf(b_leaf):
            raise ValueError("Structures don't have the same nested structure.")
        return None

    optree.tree_map(check, a, b, none_is_leaf=True, namespace=_NS)


def assert_same_paths(a: Any, b: Any) -> None:
    """ValueError unless `a` and `b` have the same leaf paths (container types may differ)."""
    a_paths = set(optree.tree_paths(a, none_is_leaf=True, namespace=_NS))
    b_paths = set(optree.tree_paths(b, none_is_leaf=True, namespace=_NS))
    if a_paths != b_paths:
        msg = "`a` and `b` don't have the same paths."
        a_diff = a_paths.difference(b_paths)
        if a_diff:
            msg += f"\nPaths in `a` missing in `b`:\n{a_diff}"
        b_diff = b_paths.difference(a_paths)
        if b_diff:
            msg += f"\nPaths in `b` missing in `a`:\n{b_diff}"
        raise ValueError(msg)


def pack_sequence_as(structure: Any, flat_sequence: Any) -> Any:
    """`flat_sequence`'s items in the nesting of `structure`."""
    _, treespec = optree.tree_flatten(structure, none_is_leaf=True, namespace=_NS)
    return optree.tree_unflatten(treespec, flat_sequence)


def lists_to_tuples(structure: Any) -> Any:
    """Every list of `structure` made a tuple, innermost first."""
    return traverse(lambda x: tuple(x) if isinstance(x, list) else None, structure, top_down=False)


def map_shape_structure(func: Callable[[Any], Any], structure: Any) -> Any:
    """`func` over the shape tuples (lists or tuples of ints and None) of `structure`."""
    def is_shape_tuple(x: Any) -> bool:
        return isinstance(x, (list, tuple)) and all(isinstance(e, (int, type(None))) for e in x)

    return optree.tree_map(func, structure, is_leaf=is_shape_tuple, none_is_leaf=True, namespace=_NS)


__dir__ = _api.dir_of(__name__)

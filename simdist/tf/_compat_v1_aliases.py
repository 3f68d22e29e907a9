"""tf.compat.v1's names that TF 2.21 binds to its TF2 objects (tf.compat.v1.add is tf.math.add, tf.compat.v1.nn.relu
is tf.nn.relu): recorded from TF by scripts/make_compat_v1_aliases.py into compat_v1_aliases.json, and resolved here
in simdist's own TF2 facade the first time a program reads them, so the v1 name is simdist's TF2 object as TF's is
its TF2 one. A v1 namespace's own forms (tf.compat.v1.where, the v1 assertions) come first; a name whose TF2 object
simdist lacks stays absent. Clause api.namespaces."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

__all__ = ["V1Namespace", "namespaces"]

_TABLE = Path(__file__).with_name("compat_v1_aliases.json")
_MISSING = object()


def _resolve(paths: list[str]) -> Any:
    """The first of TF's TF2 paths of the object that simdist's facade has, else _MISSING."""
    import simdist.tf as facade
    for path in paths:
        obj: Any = facade
        for part in path.split(".")[1:]:
            obj = getattr(obj, part, _MISSING)
            if obj is _MISSING:
                break
        if obj is not _MISSING:
            return obj
    return _MISSING


class V1Namespace(types.SimpleNamespace):
    """A tf.compat.v1 namespace: its own v1 forms as attributes, and TF's shared TF2 objects resolved on first use."""

    def __init__(self, path: str, aliases: dict[str, list[str]], **own: Any) -> None:
        super().__init__(**own)
        object.__setattr__(self, "_v1_path", path)
        object.__setattr__(self, "_v1_aliases", aliases)

    def __getattr__(self, name: str) -> Any:   # (only when the attribute is not set)
        aliases = object.__getattribute__(self, "_v1_aliases")
        if name in aliases:
            obj = _resolve(aliases[name])
            if obj is not _MISSING:
                object.__setattr__(self, name, obj)
                return obj
        raise AttributeError(f"module '{object.__getattribute__(self, '_v1_path')}' has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        own = [n for n in super().__dir__() if not n.startswith("_v1_")]
        aliases = object.__getattribute__(self, "_v1_aliases")
        return sorted(set(own) | {n for n in aliases if _resolve(aliases[n]) is not _MISSING})

    def __repr__(self) -> str:
        return f"<module '{object.__getattribute__(self, '_v1_path')}'>"


def namespaces(own: dict[str, Any]) -> V1Namespace:
    """tf.compat.v1 from its own v1 forms (`own`, sub-namespaces as SimpleNamespaces) and the recorded aliases."""
    table = json.loads(_TABLE.read_text())["namespaces"]
    top = dict(own)
    for ns_name, aliases in sorted(table.items()):
        if not ns_name or not aliases:
            continue
        mine = top.get(ns_name)
        fields = dict(vars(mine)) if isinstance(mine, types.SimpleNamespace) else {}
        top[ns_name] = V1Namespace(f"tensorflow._api.v2.compat.v1.{ns_name}", aliases, **fields)
    return V1Namespace("tensorflow._api.v2.compat.v1", table.get("", {}), **top)

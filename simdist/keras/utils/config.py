"""`keras.utils.Config` (keras/src/utils/config.py): a dict of settings read and written as attributes or
items, that can be frozen (then every mutation is ValueError); an unknown attribute is AttributeError with a
did-you-mean from difflib. Transcribed. Clause keras.utils.config."""

from __future__ import annotations

import copy
import difflib
import json
from typing import Any, Iterator

__all__ = ["Config"]


class Config:
    """`keras.utils.Config(**kwargs)`."""

    __attrs__: Any = None

    def __init__(self, **kwargs: Any) -> None:
        self._config = kwargs
        self._frozen = False
        self.__attrs__ = set(dir(self))   # (membership only: the names that are the object's own)

    @property
    def frozen(self) -> bool:
        return self._frozen

    def freeze(self) -> None:
        self._frozen = True

    def unfreeze(self) -> None:
        self._frozen = False

    def _raise_if_frozen(self) -> None:
        if self._frozen:
            raise ValueError("Cannot mutate attribute(s) because the config is frozen.")

    def as_dict(self) -> dict:
        return copy.copy(self._config)

    def to_json(self) -> str:
        return json.dumps(self._config)

    def keys(self) -> Any:
        return self._config.keys()

    def values(self) -> Any:
        return self._config.values()

    def items(self) -> Any:
        return self._config.items()

    def pop(self, *args: Any) -> Any:
        self._raise_if_frozen()
        return self._config.pop(*args)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._raise_if_frozen()
        return self._config.update(*args, **kwargs)

    def get(self, keyname: Any, value: Any = None) -> Any:
        return self._config.get(keyname, value)

    def __setattr__(self, name: str, value: Any) -> None:
        attrs = object.__getattribute__(self, "__attrs__")
        if attrs is None or name in attrs:
            return object.__setattr__(self, name, value)
        self._raise_if_frozen()
        self._config[name] = value

    def __getattr__(self, name: str) -> Any:
        attrs = object.__getattribute__(self, "__attrs__")
        if attrs is None or name in attrs:
            return object.__getattribute__(self, name)
        if name in self._config:
            return self._config[name]
        msg = f"Unknown attribute: '{name}'."
        closest = difflib.get_close_matches(name, self._config.keys(), n=1, cutoff=0.7)
        if closest:
            msg += f" Did you mean '{closest[0]}'?"
        raise AttributeError(msg)

    def __setitem__(self, key: Any, item: Any) -> None:
        self._raise_if_frozen()
        self._config[key] = item

    def __getitem__(self, key: Any) -> Any:
        return self._config[key]

    def __repr__(self) -> str:
        return f"<Config {self._config}>"

    def __iter__(self) -> Iterator[Any]:
        yield from sorted(self._config.keys())

    def __len__(self) -> int:
        return len(self._config)

    def __delitem__(self, key: Any) -> None:
        self._raise_if_frozen()
        del self._config[key]

    def __contains__(self, item: Any) -> bool:
        return item in self._config

"""Finding a backend by name: built-ins, the ``simdist.backends`` entry point group, or
``module:factory``.

``load_backend(spec)`` accepts:

* ``simdist`` / ``tensorflow``: the built-in backends;
* a name registered by an installed distribution under the entry point group
  ``simdist.backends`` (the entry point's object is a factory or a backend class);
* ``package.module:factory``: import the module and call ``factory()`` (a class is a factory).
  Arguments may follow in the form ``module:factory?key=value&key=value``; values are parsed
  as Python literals where they can be (``max_replicas=2``), else kept as strings.
"""

from __future__ import annotations

import ast
import importlib
from importlib import metadata
from typing import Any, Callable

ENTRY_POINT_GROUP = "simdist.backends"

BUILTIN = {
    "simdist": "simdist.conformance.backends.simdist_backend:SimdistBackend",
    "tensorflow": "simdist.conformance.backends.tf_backend:TensorFlowBackend",
}
ALIASES = {"tf": "tensorflow"}


class BackendNotFound(LookupError):
    """The backend spec names nothing loadable."""


def _parse_kwargs(query: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in filter(None, query.split("&")):
        key, _, raw = part.partition("=")
        try:
            out[key] = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            out[key] = raw
    return out


def _import_target(target: str) -> Callable[..., Any]:
    modname, _, attr = target.partition(":")
    if not modname or not attr:
        raise BackendNotFound(f"backend {target!r} must have the form 'module:factory'")
    try:
        mod = importlib.import_module(modname)
    except ImportError as e:
        raise BackendNotFound(f"cannot import backend module {modname!r}: {e}") from e
    obj: Any = mod
    for name in attr.split("."):
        try:
            obj = getattr(obj, name)
        except AttributeError as e:
            raise BackendNotFound(f"module {modname!r} has no attribute {attr!r}") from e
    return obj


def entry_point_backends() -> dict[str, metadata.EntryPoint]:
    """Backends registered by installed distributions (``simdist.backends`` group)."""
    try:
        eps = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except TypeError:  # pragma: no cover - Python < 3.10 API
        eps = metadata.entry_points().get(ENTRY_POINT_GROUP, [])
    return {ep.name: ep for ep in eps}


def available_backends() -> list[str]:
    return sorted(set(BUILTIN) | set(entry_point_backends()))


_PRELOADED: dict[str, Any] = {}


def preload(spec: str) -> Any:
    """Build the backend for ``spec`` now (errors as BackendNotFound) and hand this instance to the
    next ``load_backend(spec)``: the command line checks the spec before pytest starts."""
    backend = load_backend(spec)
    _PRELOADED[spec.strip()] = backend
    return backend


def load_backend(spec: str) -> Any:
    """Return a backend *instance* for ``spec`` (see module docstring)."""
    spec = spec.strip()
    if spec in _PRELOADED:
        return _PRELOADED.pop(spec)
    base, _, query = spec.partition("?")
    kwargs = _parse_kwargs(query)
    base = ALIASES.get(base, base)
    if ":" in base:
        factory = _import_target(base)
    elif base in BUILTIN:
        factory = _import_target(BUILTIN[base])
    else:
        eps = entry_point_backends()
        if base not in eps:
            from simdist.suggest import did_you_mean  # noqa: PLC0415
            raise BackendNotFound(
                f"unknown backend {base!r}{did_you_mean(base, available_backends())} (known: "
                f"{', '.join(available_backends())}, or give 'module:factory')")
        factory = eps[base].load()
    try:
        backend = factory(**kwargs) if callable(factory) else factory
    except Exception as e:  # noqa: BLE001 - any failure to build the backend is the spec's problem
        raise BackendNotFound(f"creating the backend failed: {type(e).__name__}: {e}") from e
    if not hasattr(backend, "make_strategy") or not hasattr(backend, "tf"):
        raise BackendNotFound(
            f"{spec!r} gave {type(backend).__name__}, which is not a backend "
            f"(it needs at least `tf` and `make_strategy`; see simdist.conformance.protocol)")
    return backend

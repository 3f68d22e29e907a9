"""The boundary around user code: a scenario's ``[model] function`` and ``[explore] checks``.

Whatever user code does wrong (a syntax error, an import that fails, a name that is missing or
not callable, a call that raises, even ``SystemExit`` or ``KeyboardInterrupt``) becomes a
`UserCodeError` naming the scenario key path and the file:line of the user code at fault, never
an internal error or a traceback.

Where user modules are imported from (the one rule, whichever entry point runs simdist: the
``simdist`` console script, ``python -m simdist``, a sweep's or explore's worker process): the
scenario file's directory, then the working directory, then ``PYTHONPATH`` and the installed
packages. The two directories are put at the front of ``sys.path`` for the rest of the process,
so that a user module may import its neighbours when it runs, not only when it is imported.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
import traceback
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, Callable, Sequence

from .run_context import RunFailure

__all__ = ["UserCodeError", "search_dirs", "import_user", "resolve", "call_user", "describe", "blame", "user_failure",
           "call_bounded", "raised", "message"]

_SIMDIST = str(Path(__file__).resolve().parents[1])   # the simdist package's directory
_STDLIB = str(Path(os.__file__).resolve().parent)
_USER_FILES: set[str] = set()   # the files of user modules imported through this boundary


class UserCodeError(RunFailure):
    """User code did something wrong; ``key`` is the scenario key path that names it."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        self.detail = message
        super().__init__(f"{key}: {message}")


def search_dirs(scenario_file: str | None) -> list[str]:
    """Where user modules are imported from, first to last (before PYTHONPATH and site-packages)."""
    out: list[str] = []
    if scenario_file and not scenario_file.startswith("<"):
        out.append(str(Path(scenario_file).resolve().parent))
    cwd = str(Path.cwd().resolve())
    if cwd not in out:
        out.append(cwd)
    return out


def _use_dirs(dirs: Sequence[str]) -> None:
    for d in reversed(list(dirs)):
        if d in sys.path:
            sys.path.remove(d)
        sys.path.insert(0, d)


def _user_frame(tb: TracebackType | None) -> str | None:
    """file:line of the innermost traceback frame in user code (not simdist, not the standard
    library or installed packages, not importlib's machinery)."""
    found = None
    for frame, line in traceback.walk_tb(tb):
        f = frame.f_code.co_filename
        if f.startswith(("<", _SIMDIST, _STDLIB)) or "site-packages" in f or "dist-packages" in f:
            continue
        found = f"{_short(f)}:{line}"
    return found


def blame(exc: BaseException) -> str | None:
    """file:line of the innermost frame of ``exc``'s traceback in a user module imported through
    this boundary (None when user code is not in it)."""
    found = None
    for frame, line in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename in _USER_FILES:
            found = f"{_short(frame.f_code.co_filename)}:{line}"
    return found


def _short(path: str) -> str:
    """``path`` relative to the working directory when it is below it, else absolute."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_KERAS_CALL = re.compile(r"^Exception encountered when calling (?P<what>[^\n]*?)\.?\n+\x1b\[1m(?P<msg>.*?)\x1b\[0m",
                         re.S)


def message(e: BaseException) -> str:
    """``e``'s message on one line: Keras's "Exception encountered when calling X.call()" frame
    reduced to the original message (and X), terminal escape codes removed, lines joined."""
    text = str(e)
    m = _KERAS_CALL.match(text)
    if m:
        text = f"{m.group('msg').strip()} (in {m.group('what').strip()})"
    text = _ANSI.sub("", text)
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def raised(e: BaseException) -> str:
    """What ``e`` says user code did: 'raised ValueError: ...', 'called sys.exit(0)'."""
    if isinstance(e, SystemExit):
        return f"called sys.exit({e.code!r})"
    text = message(e)
    return f"raised {type(e).__name__}" + (f": {text}" if text else "")


def describe(fn: Any) -> str:
    """file:line where ``fn`` is defined (or its repr when that is unknown)."""
    try:
        src = inspect.getsourcefile(fn)
        _, line = inspect.getsourcelines(fn)
    except (TypeError, OSError):
        return repr(fn)
    return f"{_short(src)}:{line}" if src else repr(fn)


def import_user(module: str, key: str, scenario_file: str | None, dirs: Sequence[str] | None = None) -> ModuleType:
    """Import ``module`` by the one rule (`search_dirs`; ``dirs``: that list, made earlier, e.g. in
    the process that started a worker); every failure is a UserCodeError at ``key``."""
    dirs = list(dirs) if dirs is not None else search_dirs(scenario_file)
    _use_dirs(dirs)
    try:
        mod = importlib.import_module(module)
    except SyntaxError as e:
        raise UserCodeError(key, f"{module!r} has a syntax error at {_short(e.filename or '?')}:{e.lineno}: "
                                 f"{e.msg}") from None
    except ModuleNotFoundError as e:
        if e.name and (module == e.name or module.startswith(e.name + ".")):
            where = ", ".join(dirs)
            raise UserCodeError(key, f"module {module!r} cannot be found (rule: importable from the scenario's "
                                     f"directory, the working directory or PYTHONPATH; searched first: {where})"
                                ) from None
        raise UserCodeError(key, f"importing {module!r} failed: {raised(e)}"
                                 f"{_at(e)}") from None
    except (Exception, SystemExit, KeyboardInterrupt) as e:  # noqa: BLE001 - user code: report what it did
        raise UserCodeError(key, f"importing {module!r} {raised(e)}{_at(e)}") from None
    f = getattr(mod, "__file__", None)
    if f:
        _USER_FILES.add(f)
        _USER_FILES.add(str(Path(f).resolve()))
    return mod


def _at(e: BaseException) -> str:
    where = _user_frame(e.__traceback__)
    return f" (at {where})" if where else ""


def resolve(ref: str, key: str, scenario_file: str | None, dirs: Sequence[str] | None = None) -> Callable[..., Any]:
    """The callable named by "module:qualified.name"; a UserCodeError at ``key`` when it is not one."""
    module, _, qual = ref.partition(":")
    obj: Any = import_user(module, key, scenario_file, dirs)
    for part in qual.split("."):
        if not hasattr(obj, part):
            import difflib
            names = [n for n in dir(obj) if not n.startswith("_")]
            close = [n for n in names if n.startswith(part)][:1] or difflib.get_close_matches(part, names, n=1)
            raise UserCodeError(key, f"{ref!r}: {module} has no {part!r}" +
                                (f"; did you mean '{close[0]}'?" if close else ""))
        obj = getattr(obj, part)
    if not callable(obj):
        raise UserCodeError(key, f"{ref!r} is a {type(obj).__name__}, not a function (rule: \"module:function\" "
                                 "names a function)")
    return obj


def check_signature(fn: Callable[..., Any], args: Sequence[Any], ref: str, key: str, expects: str) -> None:
    """A UserCodeError unless ``fn`` can be called with ``args`` (positionally)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return   # a builtin without a signature: the call will say
    try:
        sig.bind(*args)
    except TypeError as e:
        raise UserCodeError(key, f"{ref!r} ({describe(fn)}) cannot be called as {expects}: {e} "
                                 f"(its signature is {ref.partition(':')[2]}{sig})") from None


def call_user(fn: Callable[..., Any], args: Sequence[Any], ref: str, key: str, kwargs: dict | None = None) -> Any:
    """``fn(*args)``; anything it raises (SystemExit and KeyboardInterrupt too) is a UserCodeError
    at ``key`` with the file:line in user code where it was raised."""
    try:
        return fn(*args, **(kwargs or {}))
    except UserCodeError:
        raise
    except (Exception, SystemExit, KeyboardInterrupt) as e:  # noqa: BLE001 - user code: report what it did
        where = blame(e) or _user_frame(e.__traceback__) or describe(fn)
        raise UserCodeError(key, f"{ref!r} {raised(e)} (at {where})") from None


def user_failure(e: BaseException, key: str = "model.function") -> UserCodeError | None:
    """A UserCodeError for ``e`` when a user module's code raised it (its traceback passes through
    a file imported by `import_user`), else None. A run records it as a failed run (exit 1). A
    KeyboardInterrupt is never taken for user code here: during a run it is the user's Ctrl-C."""
    if isinstance(e, UserCodeError):
        return e
    where = blame(e)
    if where is None:
        return None
    return UserCodeError(key, f"the model's code {raised(e)} during the run (at {where})")


def call_bounded(fn: Callable[..., Any], args: Sequence[Any], timeout_s: float) -> tuple[str, Any]:
    """``fn(*args)`` in a daemon thread, waited for at most ``timeout_s`` seconds of wall time:
    ("ok", result), ("raised", the exception: SystemExit and KeyboardInterrupt too) or ("timeout",
    None). A call past its time is abandoned (it cannot be stopped from outside), so that the
    caller keeps its own time limit whatever the user code does."""
    import threading
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["ok"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - user code: everything it raises is reported
            box["raised"] = e

    t = threading.Thread(target=target, name="simdist-user-code", daemon=True)
    t.start()
    t.join(max(0.0, timeout_s))
    if t.is_alive():
        return "timeout", None
    if "raised" in box:
        return "raised", box["raised"]
    return "ok", box.get("ok")

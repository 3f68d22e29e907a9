"""Output directories and files shared by the subcommands: never overwrite without --force,
write atomically, show progress (a bar on a terminal, a line every few seconds in a log)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Iterable

__all__ = ["prepare_out_dir", "make_dir", "check_file_path", "default_out", "write_json", "write_text", "write_atomic", "save_figure", "temp_name", "progress_bar", "LineProgress", "usage_error"]

MARKER = ".simdist-output"


def usage_error(msg: str) -> Exception:
    from simdist.usage import UsageError
    return UsageError(msg)


def prepare_out_dir(path: str | os.PathLike, force: bool, produced: Iterable[str], what: str = "run",
                    resume: bool = False) -> Path:
    """Create ``path`` for a new result, or refuse: an existing non-empty directory is only
    reused with ``force`` (the files a previous simdist result left there are removed first; a
    directory simdist did not create is never emptied) or ``resume`` (kept as is)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise usage_error(f"--out {p}: exists and is not a directory")
    if p.exists() and any(p.iterdir()):
        if resume:
            return p
        if not force:
            raise usage_error(f"--out {p}: directory exists and is not empty; pass --force to overwrite the "
                              f"previous {what}, or choose another --out")
        if not (p / MARKER).exists():
            raise usage_error(f"--out {p}: not a simdist output directory (no {MARKER} file); refusing to "
                              "overwrite it even with --force")
        for name in list(produced):
            f = p / name
            if f.is_file():
                f.unlink()
    make_dir(p, "--out")
    (p / MARKER).write_text(f"{what}\n", encoding="utf-8")
    return p


def make_dir(p: Path, flag: str, given: str | os.PathLike | None = None) -> None:
    """``mkdir -p`` that reports a path that cannot be a directory as bad input (exit 2), before
    any work, naming the path given (``given``, default ``p``) and the reason."""
    head = f"{flag} {given if given is not None else p}"
    where = "" if given is None else f" {p}"
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        blocker = next((a for a in (p, *p.parents) if a.exists() and not a.is_dir()), None)
        why = f"{blocker} is a file, not a directory" if blocker is not None else (e.strerror or str(e))
        raise usage_error(f"{head}: cannot create the directory{where} ({why})") from None
    if not os.access(p, os.W_OK | os.X_OK):
        raise usage_error(f"{head}: the directory{where} is not writable")


def check_file_path(path: str | os.PathLike, flag: str) -> Path:
    """Check, before any work, that a file can be written at ``path`` (its directory is created);
    the file itself is written later, atomically."""
    p = Path(path)
    if p.is_dir():
        raise usage_error(f"{flag} {p}: is a directory; expected a file name")
    make_dir(p.parent, flag, given=p)
    if p.exists() and not os.access(p, os.W_OK):
        raise usage_error(f"{flag} {p}: file is not writable")
    return p


def default_out(name: str, suffix: str = "") -> str:
    """The default output directory of a scenario, ``out/<name><suffix>``; a name that would put
    it anywhere but directly under out/ (``../x``, ``a/b``, an absolute path) is refused."""
    leaf = f"{name}{suffix}"
    if not leaf or "/" in leaf or "\\" in leaf or leaf in (".", "..") or leaf.startswith(".."):
        raise usage_error(f"scenario.name {name!r}: the default output directory out/{leaf} would not be directly "
                          "under out/; pass --out, or use a name without '/', '\\' or a leading '..'")
    return f"out/{leaf}"


def temp_name(path: str | os.PathLike) -> Path:
    """The temporary name a file is written under before `os.replace` gives it its own: in the
    same directory (a rename is atomic only within one file system), hidden, ending in .tmp."""
    p = Path(path)
    return p.with_name(f".{p.name}.tmp")


def write_atomic(path: str | os.PathLike, write: Any) -> Path:
    """Call ``write(tmp)`` to write a temporary file, then rename it to ``path``: an interrupt or
    an error leaves the previous file or none, never a half-written one (the temporary is removed)."""
    p = Path(path)
    tmp = temp_name(p)
    try:
        write(tmp)
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return p


def write_text(path: str | os.PathLike, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def save_figure(fig: Any, path: str | os.PathLike, dpi: int) -> str:
    """``fig.savefig`` to ``path`` atomically, as PNG (a Figure on an Agg canvas)."""
    write_atomic(path, lambda tmp: fig.savefig(tmp, dpi=dpi, format="png"))
    return str(path)


def write_json(path: Path, obj: Any) -> None:
    write_text(path, json.dumps(obj, indent=2, sort_keys=True, allow_nan=False) + "\n")


def progress_bar(total: int, unit: str, desc: str | None = None, enabled: bool | None = None,
                 interval_s: float = 5.0) -> Any:
    """Progress on stderr: a tqdm bar on a terminal; elsewhere (a CI log, a pipe) one plain line
    every ``interval_s`` seconds of wall time while the work lasts, so long work is never silent.
    ``enabled=False`` gives None (no output); ``enabled=True`` forces the bar."""
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    if enabled is False:
        return None
    if enabled is None and not tty:
        return LineProgress(total, unit, desc, interval_s)
    from tqdm import tqdm
    cols = _columns()
    # A terminal that reports 0 columns (some CI pseudo-terminals) would get an empty bar.
    return tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, delay=0.5, leave=False,
                dynamic_ncols=cols >= 20, ncols=None if cols >= 20 else 80)


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, AttributeError, ValueError):
        return 0


class LineProgress:
    """Plain-text progress for logs: ``sweep x: 40/400 runs (10%), 12 s`` every ``interval_s``
    seconds (wall time: this is what a person watches, it never reaches a result)."""

    def __init__(self, total: int, unit: str, desc: str | None, interval_s: float,
                 clock: Any = None, stream: Any = None) -> None:
        import time
        self.total, self.unit, self.desc, self.interval = total, unit, desc or "progress", interval_s
        self.n = 0
        self._clock = clock or time.monotonic
        self._stream = stream
        self._t0 = self._last = self._clock()
        self.lines = 0

    def update(self, n: int = 1) -> None:
        self.n += n
        now = self._clock()
        if now - self._last >= self.interval and self.n < self.total:
            self._last = now
            self._line(now)

    def close(self) -> None:
        if self.lines:   # say it finished, if we said anything at all
            self._line(self._clock())

    def _line(self, now: float) -> None:
        pct = f" ({100 * self.n / self.total:.0f}%)" if self.total else ""
        print(f"{self.desc}: {self.n}/{self.total} {self.unit}s{pct}, {now - self._t0:.0f} s",
              file=self._stream or sys.stderr, flush=True)
        self.lines += 1

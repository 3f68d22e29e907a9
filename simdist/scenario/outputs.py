"""Output directories and files shared by the subcommands: never overwrite without --force,
write atomically, show progress (a bar on a terminal, a line every few seconds in a log)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Iterable

__all__ = ["prepare_out_dir", "write_json", "write_text", "progress_bar", "LineProgress", "usage_error"]

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
    p.mkdir(parents=True, exist_ok=True)
    (p / MARKER).write_text(f"{what}\n", encoding="utf-8")
    return p


def write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


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

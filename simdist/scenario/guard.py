"""Guard rails shared by every command that runs scenarios (`run`, `replay`, `sweep`, `explore`):
a run whose `--dry-run` estimate exceeds the memory available (or ``--memory-limit``) or whose
time estimate exceeds ``--time-limit`` (default 1 h) is refused before it runs, with the
estimate and the flag that overrides it."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from .outputs import usage_error

__all__ = ["Limits", "add_arguments", "limits_from", "refusal", "refuse", "duration", "TIME_LIMIT_S"]

TIME_LIMIT_S = 3600.0   # the default --time-limit


@dataclass(frozen=True)
class Limits:
    """``memory``: bytes (None: the memory available when the run starts; 0: no check);
    ``time``: seconds of estimated wall time (0: no limit)."""
    memory: int | None = None
    time: float = TIME_LIMIT_S


def add_arguments(p: argparse.ArgumentParser, each: str = "a run") -> None:
    """--memory-limit and --time-limit; ``each`` names what they apply to in the help."""
    p.add_argument("--memory-limit", default=None, metavar="SIZE",
                   help=f"the memory budget of {each}: refused when its --dry-run memory estimate exceeds "
                        "SIZE (e.g. 8GiB; default: the memory available now; 0: no check)")
    p.add_argument("--time-limit", default=None, metavar="DURATION",
                   help=f"the time budget of {each}: refused when the low end of its --dry-run time estimate exceeds "
                        "DURATION (default 1h; 0: no limit)")


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits of the command line (a usage error names a bad value)."""
    return Limits(_memory_limit(args.memory_limit), _time_limit(args.time_limit))


def refusal(sc: Any, limits: Limits, e: dict[str, Any] | None = None) -> str | None:
    """Why ``sc`` must not run under ``limits`` (its estimate ``e``, made here when None), or None."""
    if limits.memory == 0 and not limits.time:
        return None
    if e is None:
        from .build import build_cluster
        from .estimate import estimate
        e = estimate(sc, build_cluster(sc))
    from .memory_check import check_memory
    return check_memory(sc, limits.memory, e) or _too_long(e, limits.time)


def refuse(sc: Any, limits: Limits, what: str = "") -> None:
    """Raise the usage error (exit 2) of `refusal`, prefixed by ``what`` (e.g. "run 0 of the sweep: ")."""
    why = refusal(sc, limits)
    if why:
        raise usage_error(what + why)


def _time_limit(text: str | None) -> float:
    if text is None:
        return TIME_LIMIT_S
    from simdist.sim.units import parse_time
    try:
        t = float(parse_time(text, field="--time-limit"))
    except ValueError as e:
        raise usage_error(str(e)) from None
    if not t >= 0:
        raise usage_error(f"--time-limit {text}: expected a duration >= 0")
    return t


def _too_long(e: dict[str, Any], limit: float) -> str | None:
    """Why a run must not start: even the low end of its time estimate ``e`` exceeds ``limit``
    seconds (0: no limit)."""
    if not limit:
        return None
    lo, hi = e["wall_s"]
    if lo <= limit:
        return None
    return (f"the run is estimated to take {duration(lo)} to {duration(hi)} of wall time, more than the "
            f"--time-limit of {duration(limit)} (rule: make the model, batch, cluster or number of steps smaller, "
            "or pass --time-limit DURATION to allow it, --time-limit 0 for no limit; simdist run FILE --dry-run "
            "shows the estimate)")


def _memory_limit(text: str | None) -> int | None:
    if text is None:
        return None
    from simdist.sim.units import parse_bytes
    try:
        n = parse_bytes(text, field="--memory-limit")
    except ValueError as e:
        raise usage_error(str(e)) from None
    if n < 0:
        raise usage_error(f"--memory-limit {text}: expected a size >= 0")
    return n


def duration(s: float) -> str:
    """Seconds as the estimates print them: 4.2 s, 12 min, 3.5 h."""
    if s < 60:
        return f"{s:.2g} s"
    if s < 3600:
        return f"{s / 60:.2g} min"
    return f"{s / 3600:.2g} h"

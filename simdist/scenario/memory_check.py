"""Refuse a run that will not fit in memory, before it runs: the `--dry-run` estimate
(`simdist.scenario.estimate`) against the memory available (psutil, else /proc/meminfo) or a
budget given with ``--memory-limit``."""

from __future__ import annotations

from typing import Any

__all__ = ["available_bytes", "check_memory", "FLAG"]

FLAG = "--memory-limit"


def available_bytes() -> int | None:
    """The memory the system can give a new process now (None when it cannot be told)."""
    try:
        import psutil
        return int(psutil.virtual_memory().available)
    except Exception:  # noqa: BLE001 - psutil missing or unusable: try the kernel's own figure
        pass
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_memory(sc: Any, limit: int | None, e: dict[str, Any] | None = None) -> str | None:
    """Why ``sc`` must not run (its estimate ``e``, made here when None, exceeds ``limit`` bytes, or
    the available memory when ``limit`` is None), or None. ``limit`` 0: no check."""
    if limit == 0:
        return None
    from simdist.sim.units import format_bytes
    if e is None:
        from .build import build_cluster
        from .estimate import estimate
        e = estimate(sc, build_cluster(sc))
    need = int(e["memory_bytes"])
    have, what = (limit, f"the {FLAG} of") if limit is not None else (available_bytes(), "the available")
    if have is None or need <= have:
        return None
    parts = ""
    t = e.get("training")
    if t:
        parts = (f" (model: {t['parameters']:,} parameters, {format_bytes(t['model_bytes'])} with gradients and "
                 f"the strategy's copies; activations {format_bytes(t['activation_bytes'])}; data "
                 f"{format_bytes(t['data_bytes'])})")
    return (f"the run needs ~{format_bytes(need)} of memory by its estimate{parts}, more than {what} "
            f"{format_bytes(have)} (rule: a run must fit in memory; make the model, batch or cluster smaller, or "
            f"pass {FLAG} SIZE to set the budget, {FLAG} 0 to run anyway; simdist run FILE --dry-run shows the "
            "estimate)")

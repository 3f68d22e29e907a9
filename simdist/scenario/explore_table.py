"""The scenario's `[explore]` table: its whole-file rules (called by the scenario validator).

Keys, types and units are declared in `simdist.scenario.schema` (the loader checks them and
fills fixed defaults); this module checks what the schema cannot: ranges written [min, max],
fault kinds the strategy supports, links that exist, predicates over known metrics that can
fail, and `module:function` references. It belongs to the scenario (as the [explore] table does):
`simdist.explore` reads the settings of one exploration from a scenario validated here.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .predicates import PredicateError, parse

__all__ = ["KINDS", "DEFAULT_METRIC", "check_table", "known_metrics"]

KINDS = ("preemptions", "ps_failures", "stragglers", "links")   # the [[faults.*]] lists a plan draws into
PS_ONLY = ("preemptions", "ps_failures")
_RANGES = {"window": (), "preemptions": ("downtime",), "ps_failures": ("downtime",),
           "stragglers": ("slowdown", "duration"), "links": ("bandwidth_factor", "latency_factor", "duration")}
_CHECK_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*"
                       r"(\.[A-Za-z_][A-Za-z0-9_]*)*$")
DEFAULT_METRIC = "examples_per_s"


def known_metrics() -> list[str]:
    from .metrics import SUMMARY_METRICS
    return list(SUMMARY_METRICS)


def check_table(ex: dict, config: dict, plan: dict, topo: Any, err: Callable[[str, str], None]) -> None:
    """Report every problem of a validated-by-schema `[explore]` table through ``err(path, message)``."""
    ps = config.get("strategy", {}).get("kind") == "parameter_server"
    for where, keys in _RANGES.items():
        tbl = ex if where == "window" else ex.get(where)
        if not isinstance(tbl, dict):
            continue
        for key in keys or ("window",):
            r = tbl.get(key)
            path = "explore." + (key if where == "window" else f"{where}.{key}")
            if r is None:
                continue
            if len(r) != 2:
                err(path, f"{len(r)} values (rule: [min, max])")
            elif r[0] > r[1] or (where == "window" and r[0] == r[1]):
                err(path, f"{r[0]!r} is above {r[1]!r} (rule: [min, max] with min <= max"
                          f"{'; a window has min < max' if where == 'window' else ''})")
    mw = config.get("strategy", {}).get("kind") == "multi_worker_mirrored"
    for kind in PS_ONLY:
        if mw and kind == "preemptions":   # (drawn at a time: at_closure is not used, see explore.config)
            continue
        if not ps and isinstance(ex.get(kind), dict) and ex[kind].get("rate", 1.0) != 0:
            err(f"explore.{kind}", f"{config['strategy']['kind']} has no workers to preempt or ps tasks to fail "
                                   "(rule: preemptions and ps_failures are for parameter_server)")
    pre = ex.get("preemptions")
    if isinstance(pre, dict) and pre.get("at_closure", 0.0) > 1.0:
        err("explore.preemptions.at_closure", f"{pre['at_closure']!r} is not a share (rule: 0 <= at_closure <= 1)")
    links = ex.get("links")
    if isinstance(links, dict) and links.get("names") and topo is not None:
        from .loader import resolve_link
        names = topo.links()
        for i, name in enumerate(links["names"]):
            full = resolve_link(name, names)
            if isinstance(full, list):
                what = f"matches {len(full)} links" if full else "is not a link of the cluster"
                err(f"explore.links.names[{i}]", f"{name!r} {what} (rule: a link name or unique suffix, e.g. "
                                                 f"{', '.join(names[:2])})")
            else:
                links["names"][i] = full
    known = known_metrics()
    for i, text in enumerate(ex.get("invariants") or []):
        try:
            parse(text, known)
        except PredicateError as e:
            err(f"explore.invariants[{i}]", str(e))
    for i, ref in enumerate(ex.get("checks") or []):
        if not _CHECK_RE.match(ref):
            err(f"explore.checks[{i}]", f"{ref!r} is not 'module:function' (rule: e.g. \"mychecks:no_lost_steps\", "
                                        "importable from the scenario's directory or PYTHONPATH)")
    metric = ex.get("metric")
    if metric is not None and metric not in known:
        import difflib
        close = difflib.get_close_matches(metric, known, n=1, cutoff=0.5)
        err("explore.metric", f"no metric {metric!r} (rule: a summary metric of metrics.json)"
                              + (f"; did you mean '{close[0]}'?" if close else ""))

"""The scenario's `[explore]` table: its whole-file rules (called by the scenario loader) and the
settings of one exploration, with defaults that depend on the cluster and the fault-free run.

Keys, types and units are declared in `simdist.scenario.schema` (the loader checks them and
fills fixed defaults); this module checks what the schema cannot: ranges written [min, max],
fault kinds the strategy supports, links that exist, predicates over known metrics that can
fail, and `module:function` references.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from .predicates import Predicate, PredicateError, parse

__all__ = ["KINDS", "Settings", "check_table", "settings", "predicates_of", "known_metrics"]

KINDS = ("preemptions", "ps_failures", "stragglers", "links")   # the [[faults.*]] lists a plan draws into
PS_ONLY = ("preemptions", "ps_failures")
_RANGES = {"window": (), "preemptions": ("downtime",), "ps_failures": ("downtime",),
           "stragglers": ("slowdown", "duration"), "links": ("bandwidth_factor", "latency_factor", "duration")}
_CHECK_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*"
                       r"(\.[A-Za-z_][A-Za-z0-9_]*)*$")
DEFAULT_METRIC = "examples_per_s"


def known_metrics() -> list[str]:
    from simdist.scenario.metrics import SUMMARY_METRICS
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
    for kind in PS_ONLY:
        if not ps and isinstance(ex.get(kind), dict) and ex[kind].get("rate", 1.0) != 0:
            err(f"explore.{kind}", f"{config['strategy']['kind']} has no workers to preempt or ps tasks to fail "
                                   "(rule: preemptions and ps_failures are for parameter_server)")
    pre = ex.get("preemptions")
    if isinstance(pre, dict) and pre.get("at_closure", 0.0) > 1.0:
        err("explore.preemptions.at_closure", f"{pre['at_closure']!r} is not a share (rule: 0 <= at_closure <= 1)")
    links = ex.get("links")
    if isinstance(links, dict) and links.get("names") and topo is not None:
        from simdist.scenario.loader import resolve_link
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


def predicates_of(texts: list[str]) -> list[Predicate]:
    known = known_metrics()
    return [parse(t, known) for t in texts]


@dataclass(frozen=True)
class Settings:
    """One exploration: how many plans, how they are drawn, and what they must keep."""

    plans: int
    seed: int
    window: tuple[float, float]
    max_events: int
    base_faults: str
    metric: str
    invariants: tuple[str, ...]
    checks: tuple[str, ...]
    determinism_sample: int
    max_simulated_time: float
    max_wall_time: float
    rates: dict[str, float]
    caps: dict[str, int]          # at most this many events of a kind per plan
    workers: int                  # workers (parameter_server) or replicas (synchronous)
    ps: int
    steps: int
    preemption_downtime: tuple[float, float]
    at_closure: float
    ps_downtime: tuple[float, float]
    slowdown: tuple[float, float]
    straggler_duration: tuple[float, float]
    links: tuple[str, ...]
    bandwidth_factor: tuple[float, float]
    latency_factor: tuple[float, float]
    link_duration: tuple[float, float]

    def manifest(self) -> dict[str, Any]:
        from dataclasses import asdict
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}


def _pair(v: Any, default: tuple[float, float]) -> tuple[float, float]:
    return (float(v[0]), float(v[1])) if v else default


def _default_links(sc: Any) -> tuple[str, ...]:
    names = sc.topology.links()
    nics = [n for n in names if n.endswith("/nic")]
    return tuple(nics if len(sc.topology.hosts) > 1 else [n for n in names if not n.endswith("/nic")] or names)


def settings(sc: Any, baseline_time: float, plans: int | None = None, seed: int | None = None,
             metric: str | None = None) -> Settings:
    """The settings of exploring ``sc``: its `[explore]` table, flags, and defaults scaled to the
    fault-free run's simulated time ``baseline_time``."""
    ex = sc.config.get("explore") or {}
    ps = sc.strategy == "parameter_server"
    window = _pair(ex.get("window"), (0.0, max(baseline_time, 1e-9)))
    span = window[1] - window[0]

    def kind(name: str) -> dict:
        return ex.get(name) or {}

    default_rates = {"preemptions": 1.0, "ps_failures": 0.3, "stragglers": 0.5, "links": 0.5} if ps else \
        {"preemptions": 0.0, "ps_failures": 0.0, "stragglers": 1.0, "links": 1.0}
    rates = {k: float(kind(k).get("rate") if kind(k).get("rate") is not None else default_rates[k]) for k in KINDS}
    links = tuple(kind("links").get("names") or _default_links(sc))
    if not links:
        rates["links"] = 0.0
    lasting = (0.05 * span, 0.5 * span)
    down = (0.01 * span, 0.2 * span)
    max_sim = ex.get("max_simulated_time") or max(10.0 * baseline_time, window[1])
    return Settings(
        plans=int(plans if plans is not None else ex.get("plans", 200)),
        seed=int(seed if seed is not None else ex.get("seed", 0)),
        window=window, max_events=int(ex.get("max_events", 4)), base_faults=ex.get("base_faults", "keep"),
        metric=metric or ex.get("metric") or DEFAULT_METRIC,
        invariants=tuple(ex.get("invariants") or ()), checks=tuple(ex.get("checks") or ()),
        determinism_sample=int(ex.get("determinism_sample", 4)),
        max_simulated_time=float(max_sim), max_wall_time=float(ex.get("max_wall_time", 60.0)),
        rates=rates, caps={k: int(kind(k).get("max", ex.get("max_events", 4))) for k in KINDS}, workers=int(sc.plan["replicas"]), ps=int(sc.plan.get("ps", 0)),
        steps=int(sc.config["training"]["steps"]),
        preemption_downtime=_pair(kind("preemptions").get("downtime"), down),
        at_closure=float(kind("preemptions").get("at_closure", 0.3)),
        ps_downtime=_pair(kind("ps_failures").get("downtime"), down),
        slowdown=_pair(kind("stragglers").get("slowdown"), (1.5, 4.0)),
        straggler_duration=_pair(kind("stragglers").get("duration"), lasting),
        links=links,
        bandwidth_factor=_pair(kind("links").get("bandwidth_factor"), (0.05, 0.5)),
        latency_factor=_pair(kind("links").get("latency_factor"), (1.0, 1.0)),
        link_duration=_pair(kind("links").get("duration"), lasting),
    )

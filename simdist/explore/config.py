"""The settings of one exploration, read from the scenario's `[explore]` table, with defaults that
depend on the cluster and the fault-free run. The table's whole-file rules (and the metric
predicates) belong to the scenario: `simdist.scenario.explore_table`, `simdist.scenario.predicates`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simdist.scenario.explore_table import DEFAULT_METRIC, KINDS, known_metrics
from simdist.scenario.predicates import Predicate, parse

__all__ = ["KINDS", "Settings", "settings", "predicates_of", "known_metrics"]


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
    preempt_workers: int = 0      # workers a preemption can hit (multi_worker_mirrored: hosts; else = workers)

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

    mw = sc.strategy == "multi_worker_mirrored"
    default_rates = {"preemptions": 1.0, "ps_failures": 0.3, "stragglers": 0.5, "links": 0.5} if ps else \
        {"preemptions": 1.0 if mw else 0.0, "ps_failures": 0.0, "stragglers": 1.0, "links": 1.0}
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
        at_closure=0.0 if mw else float(kind("preemptions").get("at_closure", 0.3)),   # mwms: at a time only
        preempt_workers=int(sc.plan.get("workers", sc.plan["replicas"])),
        ps_downtime=_pair(kind("ps_failures").get("downtime"), down),
        slowdown=_pair(kind("stragglers").get("slowdown"), (1.5, 4.0)),
        straggler_duration=_pair(kind("stragglers").get("duration"), lasting),
        links=links,
        bandwidth_factor=_pair(kind("links").get("bandwidth_factor"), (0.05, 0.5)),
        latency_factor=_pair(kind("links").get("latency_factor"), (1.0, 1.0)),
        link_duration=_pair(kind("links").get("duration"), lasting),
    )

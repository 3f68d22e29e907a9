"""Fault plans: drawn at random for a scenario's cluster, written as `--param` overrides and as a
ready `[[faults.*]]` TOML fragment.

A plan is a tuple of `Event`s, each one entry of a `[[faults.<kind>]]` list (preemptions,
ps_failures, stragglers, links). Plan ``i`` of an exploration draws from the stream
``explore/plan/<i>`` of the exploration's root seed (`simdist.sim.rng.derive`), so it is the
same whatever the number of plans, the executor or the order runs finish in.

A plan reaches a run through overrides of whole lists (``faults.ps_failures=[{ps = 1, ...}]``),
made from their TOML text and parsed back with `parse_override`, exactly as `simdist run
--param` and `simdist replay --param` parse them: the run explore makes and the printed command
have the same overrides, so the same metrics, byte for byte.
"""

from __future__ import annotations

import json
import math
import shlex
from dataclasses import dataclass
from typing import Any, Sequence

from .config import KINDS, Settings

__all__ = ["Event", "draw", "overrides", "param_args", "toml_fragment", "commands", "describe", "event_from",
           "plan_json"]

# the keys of each kind, in the order they are written
_KEYS = {"preemptions": ("worker", "at_time", "at_closure", "downtime"),
         "ps_failures": ("ps", "at_time", "downtime"),
         "stragglers": ("worker", "slowdown", "start", "end"),
         "links": ("link", "bandwidth_factor", "latency_factor", "start", "end")}


@dataclass(frozen=True, order=True)
class Event:
    """One fault: ``kind`` is a [[faults.*]] list, ``fields`` its (key, value) pairs in TOML order."""

    kind: str
    fields: tuple[tuple[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.fields)

    def toml(self) -> str:
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in self.fields) + "}"


def event_from(kind: str, entry: dict[str, Any]) -> Event:
    """An Event from a (validated or hand-written) [[faults.<kind>]] entry; None values are left out."""
    return Event(kind, tuple((k, entry[k]) for k in _KEYS[kind] if entry.get(k) is not None))


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v!r} has no TOML form here")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    raise TypeError(f"no TOML form for {type(v).__name__} {v!r}")


def _round(x: float, digits: int = 4) -> float:
    """x to ``digits`` significant digits: plans stay readable in TOML and on a command line."""
    return float(f"{x:.{digits}g}")


# ---------------------------------------------------------------------------------------------- drawing
def draw(s: Settings, index: int) -> tuple[Event, ...]:
    """Plan ``index`` (>= 1) of the exploration ``s``: the number of events is Poisson(total rate),
    capped at ``max_events``; each event's kind is drawn in proportion to its rate, among the kinds
    that have not reached their ``max`` in this plan."""
    from simdist.sim.rng import derive
    rng = derive(s.seed, f"explore/plan/{index}")
    kinds = [k for k in KINDS if s.rates.get(k, 0.0) > 0]
    total = sum(s.rates[k] for k in kinds)
    if not kinds or total <= 0:
        return ()
    n = min(s.max_events, int(rng.poisson(total)))
    events: list[Event] = []
    left = {k: s.caps.get(k, s.max_events) for k in kinds}
    for _ in range(n):
        open_ = [k for k in kinds if left[k] > 0]
        if not open_:
            break
        weights = [s.rates[k] for k in open_]
        kind = open_[int(rng.choice(len(open_), p=[w / sum(weights) for w in weights]))]
        left[kind] -= 1
        events.append(_DRAW[kind](s, rng))
    return tuple(sorted(events, key=_sort_key))


def _sort_key(e: Event) -> tuple:
    d = e.as_dict()
    t = d.get("at_time", d.get("start", -1.0 if "at_closure" not in d else math.inf))
    return (KINDS.index(e.kind), t if t is not None else 0.0, json.dumps(e.fields))


def _uniform(rng: Any, r: tuple[float, float]) -> float:
    return _round(float(rng.uniform(r[0], r[1]))) if r[1] > r[0] else _round(r[0])


def _window_time(s: Settings, rng: Any) -> float:
    return _uniform(rng, s.window)


def _preemption(s: Settings, rng: Any) -> Event:
    w = int(rng.integers(0, s.preempt_workers or s.workers))
    if rng.random() < s.at_closure:
        trigger: tuple[str, Any] = ("at_closure", int(rng.integers(1, s.steps + 1)))
    else:
        trigger = ("at_time", _window_time(s, rng))
    return Event("preemptions", (("worker", w), trigger, ("downtime", _uniform(rng, s.preemption_downtime))))


def _ps_failure(s: Settings, rng: Any) -> Event:
    return Event("ps_failures", (("ps", int(rng.integers(0, s.ps))), ("at_time", _window_time(s, rng)),
                                 ("downtime", _uniform(rng, s.ps_downtime))))


def _straggler(s: Settings, rng: Any) -> Event:
    w = int(rng.integers(0, s.workers))
    slowdown = max(1.0, _round(float(rng.uniform(*s.slowdown)), 3))
    start = _window_time(s, rng)
    end = _round(start + max(_uniform(rng, s.straggler_duration), 1e-6))
    return Event("stragglers", (("worker", w), ("slowdown", slowdown), ("start", start), ("end", end)))


def _link(s: Settings, rng: Any) -> Event:
    link = s.links[int(rng.integers(0, len(s.links)))]
    bw = _round(float(rng.uniform(*s.bandwidth_factor)), 3)
    lat = _round(float(rng.uniform(*s.latency_factor)), 3)
    start = _window_time(s, rng)
    end = _round(start + max(_uniform(rng, s.link_duration), 1e-6))
    return Event("links", (("link", link), ("bandwidth_factor", bw), ("latency_factor", lat), ("start", start),
                           ("end", end)))


_DRAW = {"preemptions": _preemption, "ps_failures": _ps_failure, "stragglers": _straggler, "links": _link}


# ---------------------------------------------------------------------------------------------- overrides
def base_events(config: dict) -> dict[str, list[Event]]:
    """The scenario file's own [[faults.*]] entries, as Events."""
    f = config.get("faults") or {}
    return {k: [event_from(k, e) for e in f.get(k) or []] for k in KINDS}


def lists(base: dict[str, list[Event]], base_faults: str, events: Sequence[Event]) -> dict[str, list[Event]]:
    """The [[faults.*]] lists a plan changes: kind -> full list (the file's entries first when kept)."""
    out: dict[str, list[Event]] = {}
    for k in KINDS:
        mine = [e for e in events if e.kind == k]
        kept = base[k] if base_faults == "keep" else []
        if mine or kept != base[k]:
            out[k] = kept + mine
    return out


def param_args(base: dict[str, list[Event]], base_faults: str, events: Sequence[Event]) -> list[str]:
    """The ``key=value`` strings of the plan's overrides, as `--param` takes them."""
    return [f"faults.{k}=[{', '.join(e.toml() for e in evs)}]" for k, evs in lists(base, base_faults, events).items()]


def overrides(base: dict[str, list[Event]], base_faults: str, events: Sequence[Event]) -> list[tuple[str, Any]]:
    """The plan's overrides, parsed from their `--param` text as the command line parses them."""
    from simdist.scenario.loader import parse_override
    return [parse_override(a) for a in param_args(base, base_faults, events)]


def toml_fragment(base: dict[str, list[Event]], base_faults: str, events: Sequence[Event], header: str = "") -> str:
    """A ready `[[faults.*]]` fragment: paste it in place of the file's entries of these kinds."""
    out = [f"# {line}" for line in header.splitlines()] if header else []
    changed = lists(base, base_faults, events)
    if not changed:
        out.append("# no fault events: the scenario as written (with the file's own [faults]) fails")
    for k, evs in changed.items():
        if not evs:
            out.append(f"# and no [[faults.{k}]] entries (the file's are dropped)")
        for e in evs:
            out.append("")
            out.append(f"[[faults.{k}]]")
            out += [f"{key} = {_toml(v)}" for key, v in e.fields]
    return "\n".join(out).strip("\n") + "\n"


def commands(file: str, seed: int, quick: bool, params: Sequence[str], digest: str | None,
             out: str | None = None) -> tuple[str, str]:
    """(`simdist run ...` that writes the run with its trace and timeline, `simdist replay ...
    --digest` that checks the metrics byte for byte)."""
    tail = [file, "--seed", str(seed)] + (["--quick"] if quick else []) + [x for p in params for x in ("--param", p)]
    run = ["simdist", "run"] + tail + ["--trace", "--plot"] + (["--out", out] if out else [])
    replay = ["simdist", "replay"] + tail + (["--digest", digest] if digest else [])
    return " ".join(shlex.quote(a) for a in run), " ".join(shlex.quote(a) for a in replay)


def describe(e: Event) -> str:
    """One line, e.g. ``ps_failures: ps 1 at 197.5 s, down 30 s``."""
    d = e.as_dict()
    if e.kind == "preemptions":
        when = f"during function {d['at_closure']}" if "at_closure" in d else f"at {d['at_time']:g} s"
        return f"preemption of worker {d['worker']} {when}, down {d['downtime']:g} s"
    if e.kind == "ps_failures":
        return f"ps {d['ps']} fails at {d['at_time']:g} s, down {d['downtime']:g} s"
    if e.kind == "stragglers":
        return f"worker {d['worker']} {d['slowdown']:g}x slower from {d['start']:g} s to {d['end']:g} s"
    return (f"link {d['link']} at {d['bandwidth_factor']:g}x bandwidth, {d['latency_factor']:g}x latency "
            f"from {d['start']:g} s to {d['end']:g} s")


def plan_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [{"kind": e.kind, **e.as_dict()} for e in events]

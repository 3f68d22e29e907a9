"""Streaming Chrome-trace recorder (the JSON object format that Perfetto and chrome://tracing open).

The file is ``{"displayTimeUnit": "ms", "otherData": {...}, "traceEvents": [ ... ]}``; each event
is written (one per line) as soon as it is complete, nothing is held in memory, and ``close()``
writes the closing brackets, after which the file is valid JSON.

Tracks: one process (pid = host index + 1) per host, named after the host; in it one thread per
device (tid = 1 + position in the host's device list) and, for links and collectives, "lanes":
a finished transfer is written on the lowest lane of each link it crossed that was free for its
whole duration, so the events on one track never overlap. Timestamps and durations are
microseconds of simulated time, rounded to the nanosecond and written as integer nanoseconds with a decimal exponent
(``"ts":1500e-3`` is 1.5 us): a plain JSON number that is cheap to format and exact.

This module is compiled with the simulator's hot modules (see `_native`): `Tracer` is the
Simulator's traced hot path (each kernel's and transfer's span, formatted from pieces made once).
TraceRecorder's public methods take Any and check or convert what they need by hand, as the
pure-Python build would accept it.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

from .clock import Clock
from .kernels import KernelBook
from .flows import Flow
from .network import Network
from .units import format_bytes

__all__ = ["TraceRecorder", "Tracer", "args_json", "num"]

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:/[]()#+,=<>*@!?&%$'")
_MEMO = 65536   # entries each memo below keeps at most
_JSTR: dict[Any, str] = {}
_NUM: dict[float, str] = {}
_LABEL: dict[tuple[Any, Any], Any] = {}


def _jstr(s: Any) -> str:
    """``s`` (a str) as a JSON string literal."""
    out = _JSTR.get(s)
    if out is None:
        out = f'"{s}"' if _SAFE.issuperset(s) else json.dumps(s)
        if len(_JSTR) < _MEMO:
            _JSTR[s] = out
    return out


def _jval(v: Any) -> str:
    if isinstance(v, str):
        return _jstr(v)
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else json.dumps(str(v))
    return json.dumps(v, sort_keys=True)


def num(x: float) -> str:
    """A number as JSON, integral floats without the (slow) float repr: 8388608.0 -> "8388608"."""
    out = _NUM.get(x)
    if out is None:
        if x.is_integer() and -9007199254740992.0 < x < 9007199254740992.0:
            out = str(int(x))
        else:
            out = repr(x)
        if len(_NUM) < _MEMO:
            _NUM[x] = out
    return out


def args_json(args: dict[str, Any]) -> str:
    """A flat dict of str/number values as a JSON object string (keys in the given order)."""
    return "{" + ",".join(f'"{k}":{_jval(v)}' for k, v in args.items()) + "}"


def _label(name: Any, replica: Any) -> Any:
    """Trace name: ``name[replica r]`` (unless ``name`` already says so)."""
    if replica is None:
        return name
    out = _LABEL.get((name, replica))
    if out is None:
        tag = f"[replica {replica}]"
        out = name if name.endswith(tag) else name + tag
        if len(_LABEL) < _MEMO:
            _LABEL[(name, replica)] = out
    return out


def _ns(t: float) -> int:
    """Simulated seconds as integer nanoseconds, rounded."""
    return int(t * 1e9 + 0.5)


class _Lanes:
    """One track group's lanes: each lane's end (ns) of its last span and track ('<pid>,"tid":<tid>');
    the group's key, process, label and sort base (for a new lane's metadata)."""

    __slots__ = ("ends", "tracks", "key", "pid", "label", "sort_base")

    ends: list[int]
    tracks: list[str]
    key: Any
    pid: Any
    label: Any
    sort_base: Any

    def __init__(self, key: Any, pid: Any, label: Any, sort_base: Any) -> None:
        self.ends = []
        self.tracks = []
        self.key = key
        self.pid = pid
        self.label = label
        self.sort_base = sort_base


class TraceRecorder:
    """Writes Chrome trace events to ``dest`` (a path, or a text or binary file object) as they
    complete. A path is opened (and closed by `close`); a file object is left open."""

    path: Path | None
    dest: Any
    events: int
    closed: bool
    _own: bool
    _wrapped: bool
    _bound: bool
    _file: Any
    _write: Any
    _sep: str
    _lanes: dict[Any, _Lanes]
    _lane_tid: dict[tuple[Any, int], int]
    _next_tid: dict[Any, int]

    def __init__(self, dest: Any) -> None:
        self.path = None
        self._own = False
        self._wrapped = False
        if isinstance(dest, (str, os.PathLike)):
            self.path = Path(dest)
            self._file = open(self.path, "w", encoding="utf-8", buffering=1 << 20)
            self._own = True
        elif hasattr(dest, "write"):
            if isinstance(dest, (io.RawIOBase, io.BufferedIOBase)) or "b" in getattr(dest, "mode", ""):
                self._file = io.TextIOWrapper(dest, encoding="utf-8", write_through=True)
                self._wrapped = True
            else:
                self._file = dest
        else:
            raise TypeError(f"trace: expected None, a path, a file object or a TraceRecorder, "
                            f"got {type(dest).__name__} {dest!r}")
        self.dest = dest
        self._write = self._file.write
        self._sep = ""
        self.events = 0
        self.closed = False
        self._bound = False
        self._lanes = {}   # per track group (its key): its lanes
        self._lane_tid = {}
        self._next_tid = {}
        self._write('{"displayTimeUnit":"ms","otherData":{"generator":"simdist.sim","timeUnit":"us of simulated time"},'
                    '"traceEvents":[\n')

    # -- low level ------------------------------------------------------------------------------
    def _emit(self, line: str) -> None:
        self._write(self._sep + line)
        self._sep = ",\n"
        self.events += 1

    def metadata(self, kind: Any, pid: Any, tid: Any, **args: Any) -> None:
        """A metadata ("M") event: process_name, thread_name, process_sort_index, thread_sort_index."""
        t = "" if tid is None else f',"tid":{tid}'
        body = ",".join([f'"{k}":{_jval(v)}' for k, v in args.items()])
        self._emit(f'{{"name":"{kind}","ph":"M","pid":{pid}{t},"args":{{{body}}}}}')

    def complete(self, name: Any, cat: Any, start_s: Any, dur_s: Any, pid: Any, tid: Any,
                 args: Any = None) -> None:
        """A complete ("X") event from ``start_s`` lasting ``dur_s`` simulated seconds."""
        self.spans(name, cat, start_s, start_s + dur_s, ((pid, tid),), args_json(args) if args else "")

    def spans(self, name: Any, cat: Any, start_s: Any, end_s: Any, tracks: Any, args: Any = "") -> None:
        """The same complete event on each (pid, tid) of ``tracks``; ``args`` is a JSON object
        string (see `args_json`) or "". Start and end are rounded to the nanosecond, so an event
        that starts when another ends lines up with it exactly."""
        a = int(start_s * 1e9 + 0.5)
        head = (f'{{"name":{_jstr(name)},"cat":"{cat}","ph":"X","ts":{a}e-3,'
                f'"dur":{int(end_s * 1e9 + 0.5) - a}e-3,"pid":')
        tail = f',"args":{args}}}' if args else "}"
        write = self._write
        sep = self._sep
        for pid, tid in tracks:
            write(f'{sep}{head}{pid},"tid":{tid}{tail}')
            sep = ",\n"
        self.events += len(tracks)
        self._sep = sep

    def event_raw(self, prefix: Any, start_s: Any, end_s: Any, track: Any, tail: Any) -> None:
        """One "X" event from preformatted pieces: `prefix`, ``track`` ('<pid>,"tid":<tid>') and
        ``tail`` (',"args":{...}}' or '}')."""
        a = int(start_s * 1e9 + 0.5)
        self._write(f'{self._sep}{prefix}{a}e-3,"dur":{int(end_s * 1e9 + 0.5) - a}e-3,"pid":{track}{tail}')
        self._sep = ",\n"
        self.events += 1

    def _event(self, prefix: str, a: int, b: int, track: str, tail: str) -> None:
        """`event_raw` from ``a`` to ``b`` ns (the compiled hot path)."""
        self._write(f'{self._sep}{prefix}{a}e-3,"dur":{b - a}e-3,"pid":{track}{tail}')
        self._sep = ",\n"
        self.events += 1

    def laned(self, name: Any, cat: Any, start_s: Any, end_s: Any, groups: Any, args: Any = "") -> None:
        """A finished span on one lane of each track group in ``groups`` (a list of (key, pid,
        label, sort_base)): in each group, the lowest lane whose last span ended by ``start_s``
        (a new lane if none), so spans on one lane never overlap and are written in time order."""
        self.laned_raw(self.prefix(name, cat), start_s, end_s, groups, f',"args":{args}}}' if args else "}")

    @staticmethod
    def prefix(name: Any, cat: Any) -> str:
        """The fixed start of an "X" event: name, category, phase (see `laned_raw`)."""
        return f'{{"name":{_jstr(name)},"cat":"{cat}","ph":"X","ts":'

    def laned_raw(self, prefix: Any, start_s: Any, end_s: Any, groups: Any, tail: Any) -> None:
        """`laned` with the event's ``prefix`` (from `prefix`) and ``tail`` (',"args":{...}}' or
        '}') already formatted."""
        lanes = []
        for key, pid, label, sort_base in groups:
            g = self.group(key, pid, label, sort_base)
            g.pid = pid   # (a new lane is named after this call's values)
            g.label = label
            g.sort_base = sort_base
            lanes.append(g)
        self._laned(str(prefix), int(start_s * 1e9 + 0.5), int(end_s * 1e9 + 0.5), lanes, str(tail))

    def group(self, key: Any, pid: Any, label: Any, sort_base: Any) -> _Lanes:
        """The lanes of track group ``key`` (created empty the first time)."""
        g = self._lanes.get(key)
        if g is None:
            g = self._lanes[key] = _Lanes(key, pid, label, sort_base)
        return g

    def _laned(self, prefix: str, a: int, b: int, groups: list[_Lanes], tail: str) -> None:
        """`laned_raw` from ``a`` to ``b`` ns on the lanes of ``groups`` (the compiled hot path).
        The events differ only in their track: a flow's one or two events (a ring's routes in a
        host cross two links) are built as one string straight from the pieces, longer routes'
        pieces joined once (a string per event, a list and their join copied every byte twice and
        gave the allocator and the collector work per flow: ~0.7 of a traced 64-GPU ring step's
        ~21 ms of CPU, docs/benchmarks.md)."""
        n = len(groups)   # (lanes picked before the separator is read: a new lane's metadata precedes the events)
        if n == 1:
            t0 = self._track(groups[0], a, b)
            self._write(f'{self._sep}{prefix}{a}e-3,"dur":{b - a}e-3,"pid":{t0}{tail}')
        elif n == 2:
            t0 = self._track(groups[0], a, b)
            t1 = self._track(groups[1], a, b)
            ts = str(a)   # (once: each {int} in an f-string is formatted anew)
            dur = str(b - a)
            self._write(f'{self._sep}{prefix}{ts}e-3,"dur":{dur}e-3,"pid":{t0}{tail}'
                        f',\n{prefix}{ts}e-3,"dur":{dur}e-3,"pid":{t1}{tail}')
        elif n == 0:
            self._write(self._sep)   # (no groups: as before, a separator alone)
        else:
            tracks = [self._track(g, a, b) for g in groups]
            head = f'{prefix}{a}e-3,"dur":{b - a}e-3,"pid":'
            between = f'{tail},\n{head}'   # (one event's end and the next's start)
            self._write(f'{self._sep}{head}{between.join(tracks)}{tail}')
        self._sep = ",\n"
        self.events += n

    def _track(self, g: _Lanes, a: int, b: int) -> str:
        """The track of the lane of ``g`` a span from ``a`` to ``b`` ns goes on (the lowest lane
        free by ``a``; a new lane if none), marked busy until ``b``."""
        ends = g.ends
        if ends and ends[0] <= a:  # lane 0 free: the common case
            ends[0] = b
            return g.tracks[0]
        lane = 0
        for e in ends:
            if e <= a:
                ends[lane] = b
                return g.tracks[lane]
            lane += 1
        ends.append(b)
        track = f'{g.pid},"tid":{self._new_lane(g.key, lane, g.pid, g.label, g.sort_base)}'
        g.tracks.append(track)
        return track

    def counter(self, name: Any, t_s: Any, pid: Any, tid: Any, **values: Any) -> None:
        """A counter ("C") event (e.g. memory in use)."""
        body = ",".join([f'"{k}":{_jval(v)}' for k, v in values.items()])
        self._emit(f'{{"name":{_jstr(name)},"ph":"C","ts":{int(t_s * 1e9 + 0.5)}e-3,"pid":{pid},"tid":{tid},'
                   f'"args":{{{body}}}}}')

    # -- tracks ---------------------------------------------------------------------------------
    def bind(self, cluster: Any) -> None:
        """Name one process per host and one thread per device (called by the Simulator)."""
        if self._bound:
            raise ValueError("trace: this TraceRecorder already records a simulation; use one per Simulator")
        self._bound = True
        for h in cluster.hosts:
            pid = h.index + 1
            self.metadata("process_name", pid, None, name=h.name)
            self.metadata("process_sort_index", pid, None, sort_index=h.index)
            for i, d in enumerate(h.devices):
                self.metadata("thread_name", pid, i + 1, name=d.short_name)
                self.metadata("thread_sort_index", pid, i + 1, sort_index=i + 1)
            self._next_tid[pid] = 1000

    def _new_lane(self, key: Any, lane: int, pid: Any, label: Any, sort_base: Any) -> Any:
        tid = self._next_tid.get(pid, 1000)
        self._next_tid[pid] = tid + 1
        self._lane_tid[(key, lane)] = tid
        self.metadata("thread_name", pid, tid, name=label if lane == 0 else f"{label} #{lane}")
        self.metadata("thread_sort_index", pid, tid, sort_index=sort_base + lane)
        return tid

    # -- lifetime -------------------------------------------------------------------------------
    def close(self) -> None:
        """Finish the JSON document and flush (closes the file if the recorder opened it)."""
        if self.closed:
            return
        self.closed = True
        self._write("\n]}\n")
        self._file.flush()
        if self._own:
            self._file.close()
        elif self._wrapped:
            self._file.detach()

    def getvalue(self) -> bytes | None:
        """The trace bytes (after close): the file's content, or the buffer's if it has getvalue()."""
        if self.path is not None:
            return self.path.read_bytes()
        gv = getattr(self.dest, "getvalue", None)
        if gv is None:
            return None
        v = gv()
        return v.encode("utf-8") if isinstance(v, str) else v


class Route:
    """A route's part of its transfers' spans: '"src":..,"dst":..' and its links' lane groups."""

    __slots__ = ("ends", "lanes")

    ends: str
    lanes: list[_Lanes]

    def __init__(self, ends: str, lanes: list[_Lanes]) -> None:
        self.ends = ends
        self.lanes = lanes


class Tracer:
    """A Simulator's traced hot paths: each kernel's span on its device's track, each transfer's
    spans on its links' lanes. Formats once, and keeps, the event prefix of each (name, replica,
    category) and each route's part of the event; collectives call it directly."""

    rec: TraceRecorder
    clock: Clock
    kb: KernelBook
    net: Network
    tracks: list[str]
    prefixes: dict[tuple[Any, Any, Any], str]
    routes: dict[Any, Route]
    steps: list[str]
    step_ends: list[str]

    def __init__(self, rec: TraceRecorder, clock: Clock, kb: KernelBook, net: Network, tracks: list[str]) -> None:
        self.rec = rec
        self.clock = clock   # (its `now` is the current time)
        self.kb = kb
        self.net = net
        self.tracks = tracks   # device ordinal -> its track, '<pid>,"tid":<tid>'
        self.prefixes = {}
        self.routes = {}
        self.steps = []   # step k -> ',"step":k'
        self.step_ends = []   # step k -> ',"step":k}}'

    def prefix(self, name: Any, replica: Any, category: Any) -> str:
        """The event prefix of spans named ``name`` (of ``replica``) in ``category``."""
        key = (name, replica, category)
        p = self.prefixes.get(key)
        if p is None:
            p = self.prefixes[key] = TraceRecorder.prefix(_label(name, replica), category)
        return p

    def kernel(self, d: Any, flops: Any, overhead: Any, name: Any, replica: Any, category: Any) -> float:
        """Book a kernel of ``flops`` (checked) FLOPs on Device ``d`` and write its span; returns
        its end time (`Simulator.kernel_booker`'s function)."""
        fl = float(flops)
        end = self.kb.book(d, fl, overhead)
        self.rec._event(self.prefix(name, replica, category), _ns(self.kb.last_start), _ns(end),
                        self.tracks[d.ordinal], f',"args":{{"flops":{num(fl)}}}}}')
        return end

    def route(self, path: Any) -> Route:
        """``path``'s part of its transfers' spans."""
        r = self.routes.get(path)
        if r is None:
            info = path.trace_info
            if info is None:   # (recorder-independent: kept on the route)
                info = path.trace_info = (
                    f',"src":{_jstr(path.src.name)},"dst":{_jstr(path.dst.name)}',
                    [(ln.index, ln.host.index + 1, ln.name[len(ln.host.name) + 1:], 10_000 + ln.index * 100)
                     for ln in path.links])
            r = self.routes[path] = Route(info[0], [self.rec.group(k, pid, label, sb) for k, pid, label, sb in info[1]])
        return r

    def start_flow(self, path: Any, nbytes: Any, on_done: Any, tag: Any, name: Any, replica: Any,
                   category: Any, args: Any) -> Flow:
        """`Simulator.start_flow` traced: the flow, labelled for its span when it finishes."""
        nb = float(nbytes)
        f = self.net.start(path, nb, on_done, tag)
        f.hooked = True
        f.name = self.prefix(name if name is not None else f"transfer {format_bytes(nb, 1, '')}", replica, category)
        r = self.route(path)
        f.args = f',"args":{{"bytes":{num(nb)}{r.ends}{args}}}}}'
        f.lanes = r.lanes
        return f

    def send_head(self, route: Route, nbytes: float) -> str:
        """The start of the arguments of a chunked collective's chunks of ``nbytes`` on ``route``,
        ',"args":{"bytes":..,"src":..,"dst":..' (made once per rank of a collective, not per chunk)."""
        return f',"args":{{"bytes":{num(nbytes)}{route.ends}'

    def send(self, path: Any, route: Route, nbytes: float, on_done: Any, tag: Any, prefix: str, head: str,
             step: int) -> None:
        """`start_flow` of a chunked collective's chunk: ``route`` is ``path``'s (`route`), ``prefix``
        the event's (`prefix`), ``head`` its arguments' start (`send_head`), ``step`` the chunk's
        step (its ``"step"`` argument)."""
        f = self.net.start(path, nbytes, on_done, tag)
        f.hooked = True
        f.name = prefix
        f.args = head + self.step_end(step)
        f.lanes = route.lanes

    def kernel_p(self, d: Any, flops: float, overhead: bool, prefix: str, tail: str) -> float:
        """`kernel` with the event's ``prefix`` (`prefix`) and ``tail`` (`flops_tail`) given: a
        chunked collective's reduction."""
        end = self.kb.book(d, flops, overhead)
        self.rec._event(prefix, _ns(self.kb.last_start), _ns(end), self.tracks[d.ordinal], tail)
        return end

    @staticmethod
    def flops_tail(flops: float) -> str:
        """A kernel span's end: ',"args":{"flops":..}}'."""
        return f',"args":{{"flops":{num(flops)}}}}}'

    def step(self, k: int) -> str:
        """',"step":k' (a chunked collective's per-chunk argument)."""
        steps = self.steps
        while len(steps) <= k:
            steps.append(f',"step":{len(steps)}')
        return steps[k]

    def step_end(self, k: int) -> str:
        """',"step":k}}': `step` closing a chunk's arguments and event."""
        ends = self.step_ends
        while len(ends) <= k:
            ends.append(f',"step":{len(ends)}}}}}')
        return ends[k]

    def finished(self, f: Flow) -> None:
        """The network's finish hook: a traced flow's spans, from its start to now."""
        self.rec._laned(f.name, _ns(f.t0), _ns(float(self.clock.now)), f.lanes, f.args)

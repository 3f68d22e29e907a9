"""Load and validate scenario files: tomllib + the schema in `schema`, every error at once.

    from simdist.scenario import load
    sc = load("scenarios/mirrored_allreduce.toml", overrides=["training.steps=5"])
    sc.config["model"]["global_batch"]      # validated, defaults filled, units in SI

Validation has two passes. The first checks every key against the schema (unknown key, wrong
type, bad unit, out-of-range value) and fills in defaults; the second checks what only the whole
file can tell (devices and links that exist, a batch that splits over the replicas, no more ps
shards than ps tasks, faults that fit the strategy, ...). All problems of both passes are raised
together as one `ScenarioError`; each names the file, the line (when it can be found), the key
path and the rule that was broken.

Nothing here imports the simulator: a `Topology` sketch of the cluster (hosts, devices and link
names, built from the config with the same naming rules as `simdist.sim.topology`) is enough to
validate, so `simdist sweep` and `--dry-run` stay cheap.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
try:
    import tomllib
except ModuleNotFoundError:   # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib  # type: ignore[no-redef]
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from .schema import DTYPES, PRESETS, REQUIRED, SCHEMA, Field

__all__ = ["Issue", "ScenarioError", "Scenario", "Topology", "load", "loads", "parse_value", "parse_override",
           "split_values", "parse_seeds", "apply_override"]


# ---------------------------------------------------------------------------------------------- errors
@dataclass(frozen=True)
class Issue:
    """One problem: where (file, line, key path) and what (the message states the rule)."""

    file: str
    path: str
    message: str
    line: int | None = None
    origin: str | None = None   # "--param ..." when the value came from the command line

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        if self.origin:
            where += f" ({self.origin})"
        return f"{where}: {self.path or '<file>'}: {self.message}"


class ScenarioError(ValueError):
    """A scenario file (or its overrides) is invalid; ``issues`` lists every problem found."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = list(issues)
        super().__init__(self._text())

    def _text(self) -> str:
        if len(self.issues) == 1:
            return str(self.issues[0])
        files = sorted({i.file for i in self.issues})
        head = f"{', '.join(files)}: {len(self.issues)} problems"
        return head + "".join(f"\n  {i}" for i in self.issues)


# ---------------------------------------------------------------------------------------------- values
_FLOPS_RE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([kKMGTPE]?)(FLOPs?|flops?|FLOP/s|FLOPS|flop/s)?"
                       r"\s*$")
_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


def _parse_flops(value: Any, field: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a FLOP count")
    if isinstance(value, (int, float)):
        v = float(value)
    elif isinstance(value, str):
        m = _FLOPS_RE.match(value)
        if m is None or (m.group(2) and not m.group(3)):
            raise ValueError(f"{value!r} is not a FLOP count; expected a number or a string like '2GFLOP', "
                             "'1.5TFLOPs', '312TFLOPS'")
        v = float(m.group(1)) * _PREFIX[m.group(2)]
    else:
        raise ValueError(f"{value!r} is not a FLOP count")
    if math.isnan(v) or math.isinf(v) or v < 0:
        raise ValueError(f"{value!r} is not a FLOP count; expected a finite number >= 0")
    return v


def _unit_parser(kind: str) -> Any:
    from simdist.sim import units  # units.py is stdlib-only and cheap; imported lazily anyway
    return {"time": units.parse_time, "bandwidth": units.parse_bandwidth, "bytes": units.parse_bytes}[kind]


def _strip_field_prefix(msg: str, path: str) -> str:
    return msg[len(path) + 2:] if msg.startswith(path + ": ") else msg


_TYPE_NAMES = {"int": "an integer", "float": "a number", "bool": "true or false", "str": "a string",
               "list": "an array", "map": "a table", "table": "a table", "tables": "an array of tables",
               "time": "a duration (a number of seconds or a string like \"50us\")",
               "bandwidth": "a bandwidth (bytes/s or a string like \"25Gbps\")",
               "bytes": "a size (bytes or a string like \"16GiB\")",
               "flops": "a FLOP count (a number or a string like \"2GFLOP\")"}


def _tname(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a float"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "a table"
    return type(v).__name__


# ---------------------------------------------------------------------------------------------- lines
def _locate_lines(text: str) -> dict[str, int]:
    """Key path -> 1-based line of its definition, from the source text (tables, arrays of tables,
    dotted and quoted keys; keys inside inline tables map to the line of the table's key)."""
    out: dict[str, int] = {}
    counters: dict[str, int] = {}
    prefix = ""
    key_re = re.compile(r'^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\'))*)'
                        r'\s*=')
    in_multiline = None
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if in_multiline:
            if in_multiline in line:
                in_multiline = None
            continue
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^\[\[\s*([^\]]+?)\s*\]\]", line)
        if m:
            name = _join_key(m.group(1))
            idx = counters.get(name, 0)
            counters[name] = idx + 1
            prefix = f"{name}[{idx}]"
            out.setdefault(prefix, no)
            out.setdefault(name, no)
            continue
        m = re.match(r"^\[\s*([^\]]+?)\s*\]", line)
        if m:
            prefix = _join_key(m.group(1))
            out.setdefault(prefix, no)
            continue
        m = key_re.match(line)
        if m:
            key = _join_key(m.group(1))
            path = f"{prefix}.{key}" if prefix else key
            out.setdefault(path, no)
            rest = line[m.end():]
            for q in ('"""', "'''"):
                if rest.count(q) == 1:
                    in_multiline = q
    return out


def _join_key(k: str) -> str:
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', k)
    return ".".join(a or b or c for a, b, c in parts)


# ---------------------------------------------------------------------------------------------- overrides
def parse_value(text: str) -> Any:
    """A command-line value as TOML (``10``, ``1.5``, ``true``, ``[1, 2]``, ``"x"``); anything that is not
    valid TOML is taken as a bare string (``10s``, ``ring``)."""
    t = text.strip()
    try:
        return tomllib.loads(f"v = {t}")["v"]
    except tomllib.TOMLDecodeError:
        return t


def split_values(text: str) -> list[str]:
    """Split ``v1,v2,[1,2],"a,b"`` on top-level commas."""
    out, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur).strip())
    return [v for v in out if v != ""]


def parse_override(spec: str, many: bool = False) -> tuple[str, Any]:
    """``key.path=value`` -> (path, value); with ``many`` the value is a list of comma-separated values."""
    if "=" not in spec:
        raise ValueError(f"--param {spec!r}: expected key.path=value")
    path, _, text = spec.partition("=")
    path = path.strip()
    if not re.match(r"^[A-Za-z0-9_-]+(\[\d+\])?(\.[A-Za-z0-9_-]+(\[\d+\])?)*$", path):
        raise ValueError(f"--param {spec!r}: {path!r} is not a key path like model.global_batch or "
                         "model.variables[0].shape")
    if many:
        vals = [parse_value(v) for v in split_values(text)]
        if not vals:
            raise ValueError(f"--param {spec!r}: no values after '='")
        return path, vals
    return path, parse_value(text)


def apply_override(doc: dict, path: str, value: Any) -> None:
    """Set ``path`` (``a.b[1].c``) in a parsed TOML document, creating missing tables."""
    parts = path.split(".")
    cur: Any = doc
    for i, part in enumerate(parts):
        m = re.match(r"^([^\[]+)(?:\[(\d+)\])?$", part)
        assert m is not None
        key, idx = m.group(1), m.group(2)
        last = i == len(parts) - 1
        if not isinstance(cur, dict):
            raise ValueError(f"--param {path}: {'.'.join(parts[:i])} is not a table")
        if idx is not None:
            arr = cur.get(key)
            if not isinstance(arr, list) or int(idx) >= len(arr):
                n = len(arr) if isinstance(arr, list) else 0
                raise ValueError(f"--param {path}: {key} has {n} entries, no [{idx}]")
            if last:
                arr[int(idx)] = value
            else:
                cur = arr[int(idx)]
            continue
        if last:
            cur[key] = value
        else:
            if key not in cur:
                cur[key] = {}
            cur = cur[key]


def parse_seeds(text: str | Sequence[int]) -> list[int]:
    """``"0..999"`` (inclusive), ``"1,5,9"``, ``"0..9,20"`` or a list of ints -> sorted unique seeds."""
    if isinstance(text, (list, tuple)):
        items = list(text)
        if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in items):
            raise ValueError(f"seeds: expected ints >= 0, got {text!r}")
        return sorted(set(items))
    if not isinstance(text, str):
        raise ValueError(f"seeds: expected a string like \"0..99\", got {text!r}")
    seeds: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        m = re.match(r"^(\d+)\s*\.\.\s*(\d+)$", part)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if b < a:
                raise ValueError(f"seeds {text!r}: empty range {part!r} (end < start)")
            if b - a > 10_000_000:
                raise ValueError(f"seeds {text!r}: range {part!r} is too large")
            seeds.update(range(a, b + 1))
        elif re.match(r"^\d+$", part):
            seeds.add(int(part))
        else:
            raise ValueError(f"seeds {text!r}: {part!r} is not N or A..B (inclusive, A <= B)")
    return sorted(seeds)


# ---------------------------------------------------------------------------------------------- topology
@dataclass
class HostSketch:
    job: str
    task: int
    cpus: int
    gpus: int

    @property
    def name(self) -> str:
        return f"/job:{self.job}/replica:0/task:{self.task}"

    def devices(self) -> list[str]:
        return [f"CPU:{i}" for i in range(self.cpus)] + [f"GPU:{i}" for i in range(self.gpus)]

    def links(self) -> list[str]:
        out = [f"{self.name}/pcie:GPU:{i}" for i in range(self.gpus)]
        if self.gpus > 1:
            out += [f"{self.name}/nvlink:GPU:{i}" for i in range(self.gpus)]
        return out + [f"{self.name}/nic"]


@dataclass
class Topology:
    """Hosts, devices and link names of a scenario's cluster, without building it (same order and
    names as `simdist.sim.topology.Cluster`; tests check they agree)."""

    hosts: list[HostSketch]

    def jobs(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for h in self.hosts:
            out[h.job] = out.get(h.job, 0) + 1
        return out

    def links(self) -> list[str]:
        return [ln for h in self.hosts for ln in h.links()]

    def devices(self) -> list[str]:
        return [f"{h.name}/device:{d}" for h in self.hosts for d in h.devices()]


def sketch(cluster: dict) -> Topology:
    preset = cluster.get("preset")
    if preset == "gpu_host":
        return Topology([HostSketch("localhost", 0, cluster["cpus"], cluster["gpus"])])
    if preset == "cpu_cluster":
        jobs = cluster["jobs"]
        return Topology([HostSketch(j, t, cluster["cpus_per_host"], 0) for j in sorted(jobs) for t in range(jobs[j])])
    return Topology([HostSketch(h["job"], t, h["cpus"], h["gpus"]) for h in cluster.get("host") or []
                     for t in range(h["tasks"])])


# ---------------------------------------------------------------------------------------------- scenario
@dataclass
class Scenario:
    """A validated scenario: ``config`` is the document with defaults filled and units in SI."""

    name: str
    file: str                      # as given (for messages)
    text: str                      # the source text
    config: dict[str, Any]
    overrides: list[tuple[str, Any]] = field(default_factory=list)
    topology: Topology | None = None
    plan: dict[str, Any] = field(default_factory=dict)   # derived: replicas, devices, workers, ps, ...

    @property
    def digest(self) -> str:
        """sha256 of the validated config without its [outputs], [sweep] and [explore] tables (which do not
        change what a run computes): two files that mean the same thing share it."""
        cfg = {k: v for k, v in self.config.items() if k not in ("outputs", "sweep", "explore")}
        return hashlib.sha256(json.dumps(cfg, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    @property
    def seed(self) -> int:
        return int(self.config["scenario"]["seed"])

    @property
    def strategy(self) -> str:
        return str(self.config["strategy"]["kind"])

    def with_overrides(self, overrides: Iterable[tuple[str, Any]]) -> "Scenario":
        """A new validated Scenario from the same text with more overrides applied."""
        return loads(self.text, self.file, list(self.overrides) + list(overrides))


def load(path: str | Path, overrides: Iterable[str | tuple[str, Any]] = (), quick: bool = False) -> Scenario:
    """Read and validate a scenario file; ``overrides`` are ``"key.path=value"`` strings or pairs,
    applied after the file's ``[quick]`` overrides when ``quick``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError([Issue(str(path), "", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError([Issue(str(path), "", "is a directory, expected a .toml scenario file")]) from None
    except UnicodeDecodeError as e:
        raise ScenarioError([Issue(str(path), "", f"not UTF-8 text ({e.reason} at byte {e.start})")]) from None
    except OSError as e:
        raise ScenarioError([Issue(str(path), "", f"cannot read: {e.strerror}")]) from None
    return loads(text, str(path), overrides, quick)


def loads(text: str, file: str = "<scenario>", overrides: Iterable[str | tuple[str, Any]] = (),
          quick: bool = False) -> Scenario:
    """Validate scenario ``text`` (``file`` names it in messages); see `load`."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = int(m.group(1)) if m else None
        msg = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", msg)
        raise ScenarioError([Issue(file, "", f"TOML syntax error: {msg} (rule: the file must be valid TOML 1.0)",
                                   line)]) from None
    pairs: list[tuple[str, Any]] = []
    issues: list[Issue] = []
    n_quick = 0
    if quick:
        q = doc.get("quick")
        if not isinstance(q, dict) or not q:
            raise ScenarioError([Issue(file, "quick", "--quick: this scenario has no [quick] table of overrides "
                                                      "(rule: a short variant must be declared in the file)")])
        pairs.extend((str(k), v) for k, v in q.items())
        n_quick = len(pairs)
    for ov in overrides:
        try:
            pairs.append(parse_override(ov) if isinstance(ov, str) else (str(ov[0]), ov[1]))
        except ValueError as e:
            issues.append(Issue(file, "", str(e), origin="--param"))
    for path, value in pairs:
        try:
            apply_override(doc, path, value)
        except ValueError as e:
            issues.append(Issue(file, path, str(e), origin="--param"))
    v = _Validator(file, text, pairs, n_quick)
    config = v.validate(doc)
    issues = issues + v.issues
    if issues:
        raise ScenarioError(issues)
    sc = Scenario(name=config["scenario"]["name"], file=file, text=text, config=config, overrides=pairs)
    sc.topology = v.topology
    sc.plan = v.plan
    return sc


class _Validator:
    def __init__(self, file: str, text: str, overrides: list[tuple[str, Any]], n_quick: int = 0) -> None:
        self.file = file
        self.n_quick = n_quick
        self.lines = _locate_lines(text)
        self.overrides = overrides
        self.issues: list[Issue] = []
        self.topology: Topology | None = None
        self.plan: dict[str, Any] = {}

    # -- reporting ---------------------------------------------------------------------------------
    def err(self, path: str, message: str) -> None:
        origin = None
        for i, (op, val) in enumerate(self.overrides):
            if path == op or path.startswith(op + ".") or path.startswith(op + "["):
                origin = f"{'[quick]' if i < self.n_quick else '--param'} {op}={_show(val)}"
        line = None
        if origin is None:
            p = path
            while p:
                if p in self.lines:
                    line = self.lines[p]
                    break
                cut = max(p.rfind("."), p.rfind("["))
                p = p[:cut] if cut > 0 else ""
        self.issues.append(Issue(self.file, path, message, line, origin))

    # -- pass 1: schema ------------------------------------------------------------------------------
    def validate(self, doc: dict) -> dict:
        out = self.table(doc, SCHEMA, "")
        if not self.issues:
            self.semantics(out)
        else:  # still check what can be checked in sections that were fine
            self.semantics(out, partial=True)
        return out

    def table(self, value: dict, fields: dict[str, Field], prefix: str) -> dict:
        out: dict[str, Any] = {}
        for key in value:
            if key not in fields:
                close = difflib.get_close_matches(key, list(fields), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                self.err(prefix + key, f"unknown key (rule: allowed keys here are {', '.join(sorted(fields))}){hint}")
        for key, f in fields.items():
            path = prefix + key
            if key in value:
                got = self.value(value[key], f, path)
                if got is not _BAD:
                    out[key] = got
            elif f.default is REQUIRED:
                self.err(path, f"missing required key (rule: {f.kind} `{key}` must be given: {f.doc})")
            elif f.default is not None:
                out[key] = f.default
        return out

    def value(self, v: Any, f: Field, path: str) -> Any:
        k = f.kind
        if k == "table":
            if not isinstance(v, dict):
                self.err(path, f"expected a table, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            return self.table(v, f.fields, path + ".")
        if k == "tables":
            if isinstance(v, dict):
                v = [v]
            if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
                self.err(path, f"expected an array of tables ([[{path}]]), got {_tname(v)} (rule: type)")
                return _BAD
            if len(v) < f.min_items:
                self.err(path, f"expected at least {f.min_items} entr{'y' if f.min_items == 1 else 'ies'} "
                               f"(rule: [[{path}]] must not be empty)")
            return [self.table(x, f.fields, f"{path}[{i}].") for i, x in enumerate(v)]
        if k == "list":
            if not isinstance(v, list):
                self.err(path, f"expected an array, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            if len(v) < f.min_items:
                self.err(path, f"expected at least {f.min_items} item(s), got {len(v)} (rule: non-empty)")
                return _BAD
            items = [self.value(x, f.item, f"{path}[{i}]") for i, x in enumerate(v)] if f.item else list(v)
            return _BAD if any(x is _BAD for x in items) else items
        if k == "map":
            if not isinstance(v, dict):
                self.err(path, f"expected a table, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            items = {str(key): (self.value(x, f.item, f"{path}.{key}") if f.item else x) for key, x in v.items()}
            return _BAD if any(x is _BAD for x in items.values()) else items
        return self.scalar(v, f, path)

    def scalar(self, v: Any, f: Field, path: str) -> Any:
        k = f.kind
        if k == "bool":
            if not isinstance(v, bool):
                self.err(path, f"expected true or false, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            return v
        if k == "str":
            if not isinstance(v, str):
                self.err(path, f"expected a string, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            if f.choices and v not in f.choices:
                close = difflib.get_close_matches(v, list(f.choices), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                self.err(path, f"{v!r} is not one of {', '.join(map(repr, f.choices))} (rule: choice){hint}")
                return _BAD
            return v
        if k == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                self.err(path, f"expected an integer, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            out: Any = v
        elif k == "float":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (isinstance(v, float) and not math.isfinite(v)):
                self.err(path, f"expected a finite number, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            out = float(v)
        elif k in ("time", "bandwidth", "bytes", "flops"):
            if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                self.err(path, f"expected {_TYPE_NAMES[k]}, got {_tname(v)} {_show(v)} (rule: type)")
                return _BAD
            try:
                out = _parse_flops(v, path) if k == "flops" else _unit_parser(k)(v, field=path)
            except ValueError as e:
                self.err(path, f"{_strip_field_prefix(str(e), path)} (rule: unit)")
                return _BAD
            if k != "bytes":
                out = float(out)
        else:  # pragma: no cover - schema bug
            raise AssertionError(f"unknown field kind {k!r} at {path}")
        if f.minimum is not None and out < f.minimum:
            self.err(path, f"{_show(v)} is below the minimum (rule: must be >= {f.minimum:g})")
            return _BAD
        if f.above is not None and not out > f.above:
            self.err(path, f"{_show(v)} is too small (rule: must be > {f.above:g})")
            return _BAD
        return out

    # -- pass 2: the whole file ---------------------------------------------------------------------
    def semantics(self, c: dict, partial: bool = False) -> None:
        cl = c.get("cluster")
        topo = self.cluster(cl) if isinstance(cl, dict) else None
        self.topology = topo
        st = c.get("strategy")
        if topo is None or not isinstance(st, dict) or "kind" not in st:
            return
        self.strategy(st, topo, c)
        if "replicas" not in self.plan:
            return
        model = c.get("model")
        if isinstance(model, dict):
            self.model(model, st)
        tr = c.get("training")
        faults = c.get("faults")
        if isinstance(faults, dict):
            self.faults(faults, st, topo, tr if isinstance(tr, dict) else {})
        sw = c.get("sweep")
        if isinstance(sw, dict) and not partial:
            self.sweep(sw, c)
        q = c.get("quick")
        if isinstance(q, dict) and not partial:
            for key, val in q.items():
                self._probe(f"quick.{key}", key, val)
        ex = c.get("explore")
        if isinstance(ex, dict):
            from simdist.explore.config import check_table   # the [explore] table's own rules
            check_table(ex, c, self.plan, topo, self.err)

    _PRESET_KEYS = {
        "gpu_host": {"gpus": 8, "cpus": 1},
        "cpu_cluster": {"jobs": REQUIRED, "cpus_per_host": 1, "network": "25Gbps", "latency": 50e-6},
        None: {"host": REQUIRED, "network": "25Gbps", "latency": 50e-6},
    }
    _ANY_PRESET = ("preset", "gpu", "gpu_flops", "cpu_flops", "gpu_memory", "pcie", "nvlink")

    def cluster(self, cl: dict) -> Topology | None:
        self.cluster_cfg = cl
        preset = cl.get("preset")
        if "preset" in cl and preset not in PRESETS:
            return None
        keys = self._PRESET_KEYS[preset]
        ok = True
        what = f"preset {preset!r}" if preset else "a custom cluster ([[cluster.host]])"
        for k in list(cl):
            if k not in keys and k not in self._ANY_PRESET:
                self.err(f"cluster.{k}", f"not used by {what} (rule: {what} takes "
                                         f"{', '.join(sorted(set(keys) | set(self._ANY_PRESET) - {'preset'}))})")
                ok = False
        for k, d in keys.items():
            if k not in cl:
                if d is REQUIRED:
                    self.err("cluster." + (k if preset else "host"),
                             f"missing (rule: {what} needs `{k}`" +
                             ("; or set cluster.preset" if preset is None else "") + ")")
                    ok = False
                else:
                    cl[k] = d if not isinstance(d, str) else _unit_parser("bandwidth")(d)
        if not ok:
            return None
        if preset == "cpu_cluster":
            for job, n in cl["jobs"].items():
                if not re.match(r"^[A-Za-z0-9_]+$", job):
                    self.err(f"cluster.jobs.{job}", "job names are letters, digits and '_' (rule: job name)")
                    ok = False
            if sum(cl["jobs"].values()) < 1:
                self.err("cluster.jobs", "no tasks (rule: at least one host)")
                ok = False
        if preset is None:
            seen = set()
            for i, h in enumerate(cl.get("host") or []):
                if "job" not in h:
                    ok = False
                    continue
                if not re.match(r"^[A-Za-z0-9_]+$", h["job"]):
                    self.err(f"cluster.host[{i}].job", "job names are letters, digits and '_' (rule: job name)")
                    ok = False
                if h["job"] in seen:
                    self.err(f"cluster.host[{i}].job", f"job {h['job']!r} listed twice (rule: one entry per job; "
                                                       "use `tasks` for several hosts)")
                    ok = False
                seen.add(h["job"])
        if preset == "gpu_host" and cl["gpus"] == 0 and "nvlink" in cl:
            self.err("cluster.nvlink", "the host has no GPU (rule: nvlink needs >= 2 GPUs per host)")
        return sketch(cl) if ok else None

    def strategy(self, st: dict, topo: Topology, c: dict) -> None:
        kind = st["kind"]
        allowed = {"one_device": {"devices"}, "mirrored": {"devices", "all_reduce"},
                   "central_storage": {"devices", "parameter_device"}, "parameter_server": {"partitioner"}}[kind]
        for k in st:
            if k != "kind" and k not in allowed:
                self.err(f"strategy.{k}", f"not an option of {kind} (rule: {kind} takes "
                                          f"{', '.join(sorted(allowed)) or 'no options'})")
        if kind == "parameter_server":
            self.ps_strategy(st, topo)
            return
        if len(topo.hosts) != 1:
            self.err("cluster", f"{kind} runs on one host, the cluster has {len(topo.hosts)} (rule: synchronous "
                                "strategies are single-host; MultiWorkerMirroredStrategy is not modelled)")
            return
        host = topo.hosts[0]
        known = host.devices()
        gpus = [d for d in known if d.startswith("GPU")]
        devs = st.get("devices")
        if devs is not None:
            norm = []
            for i, d in enumerate(devs):
                n = _short_device(d)
                if n is None or n not in known:
                    self.err(f"strategy.devices[{i}]", f"{d!r} is not a device of the host (rule: one of "
                                                       f"{', '.join(known)})")
                    return
                if n in norm:
                    self.err(f"strategy.devices[{i}]", f"{d!r} listed twice (rule: no duplicate devices)")
                    return
                norm.append(n)
            devs = norm
        else:
            devs = (gpus or ["CPU:0"]) if kind != "one_device" else [gpus[0] if gpus else "CPU:0"]
        if kind == "one_device" and len(devs) != 1:
            self.err("strategy.devices", f"one_device takes exactly one device, got {len(devs)} (rule: one device)")
            return
        plan: dict[str, Any] = {"host": host.name, "replica_devices": devs, "replicas": len(devs)}
        if kind == "mirrored":
            plan["all_reduce"] = st.get("all_reduce") or "ring"
            st.setdefault("all_reduce", plan["all_reduce"])
        if kind == "central_storage":
            pd = st.get("parameter_device")
            if pd is not None:
                n = _short_device(pd)
                if n is None or n not in known:
                    self.err("strategy.parameter_device", f"{pd!r} is not a device of the host (rule: one of "
                                                          f"{', '.join(known)})")
                    return
                pd = n
            else:
                pd = devs[0] if len(devs) == 1 else "CPU:0"
            plan["parameter_device"] = pd
        elif kind == "one_device":
            plan["parameter_device"] = devs[0]
        self.plan = plan

    def ps_strategy(self, st: dict, topo: Topology) -> None:
        jobs = topo.jobs()
        bad = False
        for job, need in (("chief", "exactly 1"), ("worker", ">= 1"), ("ps", ">= 1")):
            n = jobs.get(job, 0)
            if (job == "chief" and n != 1) or n < 1:
                self.err("cluster.jobs" if "jobs" in self.cluster_cfg else "cluster.host",
                         f"parameter_server needs {need} `{job}` task(s), the cluster has {n} (rule: a chief, "
                         "workers and ps tasks)")
                bad = True
        other = sorted(set(jobs) - {"chief", "worker", "ps"})
        if other:
            self.err("cluster", f"jobs {other} are not part of a ParameterServerStrategy cluster (rule: jobs are "
                                "chief, worker, ps)")
            bad = True
        if bad:
            return
        nw, nps = jobs["worker"], jobs["ps"]
        wh = next(h for h in topo.hosts if h.job == "worker")
        self.plan = {"replicas": nw, "workers": nw, "ps": nps,
                     "worker_device": "GPU:0" if wh.gpus else "CPU:0"}
        p = st.get("partitioner")
        if p is None or "kind" not in p:
            return
        kind = p["kind"]
        allowed = {"none": set(), "fixed": {"num_shards"}, "min_size": {"min_shard_bytes", "max_shards"},
                   "max_size": {"max_shard_bytes", "max_shards"}}[kind]
        for k in p:
            if k != "kind" and k not in allowed:
                self.err(f"strategy.partitioner.{k}", f"not an option of the {kind} partitioner (rule: {kind} takes "
                                                      f"{', '.join(sorted(allowed)) or 'nothing'})")
        if kind == "fixed" and "num_shards" not in p:
            self.err("strategy.partitioner.num_shards", "missing (rule: the fixed partitioner needs num_shards)")
        if kind == "max_size" and "max_shard_bytes" not in p:
            self.err("strategy.partitioner.max_shard_bytes", "missing (rule: max_size needs max_shard_bytes)")
        if kind == "min_size":
            p.setdefault("min_shard_bytes", 256 << 10)
            p.setdefault("max_shards", 1)
        for key in ("num_shards", "max_shards"):
            n = p.get(key)
            if isinstance(n, int) and n > nps:
                self.err(f"strategy.partitioner.{key}", f"{n} shards but only {nps} ps task(s) (rule: at most one "
                                                        "shard per ps task: shards <= cluster ps)")

    def model(self, m: dict, st: dict) -> None:
        r = self.plan["replicas"]
        b = m.get("global_batch")
        if isinstance(b, int) and b % r:
            who = "workers" if st["kind"] == "parameter_server" else "replicas"
            self.err("model.global_batch", f"{b} does not split evenly over {r} {who} (rule: global_batch % "
                                           f"{who} == 0; e.g. {max(r, (b // r) * r)} or {(b // r + 1) * r})")
        names: dict[str, str] = {}
        for i, v in enumerate(m.get("variables") or []):
            if "name" not in v:
                continue
            count = v.get("count", 1)
            expanded = [v["name"]] if count == 1 else [f"{v['name']}_{k}" for k in range(count)]
            for n in expanded:
                if n in names:
                    self.err(f"model.variables[{i}].name", f"{n!r} is also {names[n]} (rule: variable names are "
                                                           "unique)")
                    break
                names[n] = f"model.variables[{i}]"
            if st["kind"] != "parameter_server" and v.get("rows_read_per_example"):
                self.err(f"model.variables[{i}].rows_read_per_example", "sparse reads are modelled for "
                                                                        "parameter_server only (rule: strategy)")

    def faults(self, f: dict, st: dict, topo: Topology, tr: dict) -> None:
        ps = st["kind"] == "parameter_server"
        nw = self.plan["replicas"]
        who = "workers" if ps else "replicas"
        if not ps:
            for key in ("preemptions", "preemption_process", "ps_failures", "recovery"):
                if f.get(key):
                    self.err(f"faults.{key}", f"only parameter_server runs have workers to preempt or ps tasks to "
                                              f"fail (rule: {st['kind']} supports faults.stragglers and faults.links)")
        for i, p in enumerate(f.get("preemptions") or []):
            if ("at_time" in p) == ("at_closure" in p):
                self.err(f"faults.preemptions[{i}]", "give exactly one of at_time or at_closure (rule: one trigger)")
            if p.get("worker", 0) >= nw:
                self.err(f"faults.preemptions[{i}].worker", f"worker {p['worker']} does not exist (rule: < {nw} "
                                                            "workers)")
        proc = f.get("preemption_process")
        if proc:
            for j, w in enumerate(proc.get("workers") or []):
                if w >= nw:
                    self.err(f"faults.preemption_process.workers[{j}]", f"worker {w} does not exist (rule: < {nw} "
                                                                        "workers)")
        nps = self.plan.get("ps", 0)
        for i, p in enumerate(f.get("ps_failures") or []):
            if ps and p.get("ps", 0) >= nps:
                self.err(f"faults.ps_failures[{i}].ps", f"ps {p['ps']} does not exist (rule: < {nps} ps tasks)")
        for i, s in enumerate(f.get("stragglers") or []):
            if s.get("worker", 0) >= nw:
                self.err(f"faults.stragglers[{i}].worker", f"{s['worker']} does not exist (rule: < {nw} {who})")
            self._window(f"faults.stragglers[{i}]", s)
        names = topo.links()
        for i, ln in enumerate(f.get("links") or []):
            self._window(f"faults.links[{i}]", ln)
            if "link" not in ln:
                continue
            full = resolve_link(ln["link"], names)
            if isinstance(full, list):
                if full:
                    self.err(f"faults.links[{i}].link", f"{ln['link']!r} matches {len(full)} links: "
                                                        f"{', '.join(full[:4])} (rule: name exactly one link)")
                else:
                    near = difflib.get_close_matches(ln["link"], names, n=3, cutoff=0.3)
                    self.err(f"faults.links[{i}].link", f"{ln['link']!r} is not a link of the cluster (rule: a link "
                                                        f"name or unique suffix; e.g. {', '.join(near or names[:3])})")
            else:
                ln["link"] = full
        rec = f.get("recovery")
        if ps and rec and rec.get("on_ps_failure") == "restore_checkpoint":
            if not tr.get("checkpoint_every"):
                self.err("faults.recovery.on_ps_failure", "restore_checkpoint needs checkpoints (rule: set "
                                                          "training.checkpoint_every > 0)")
            for i, p in enumerate(f.get("ps_failures") or []):
                if p.get("downtime") is None:
                    self.err(f"faults.ps_failures[{i}].downtime", "a ps that never restarts cannot be restored "
                                                                  "onto (rule: restore_checkpoint needs a downtime)")

    def _window(self, path: str, d: dict) -> None:
        if d.get("end") is not None and "start" in d and d["end"] <= d["start"]:
            self.err(f"{path}.end", f"{d['end']!r} s is not after start {d['start']!r} s (rule: end > start)")

    def sweep(self, sw: dict, c: dict) -> None:
        if "seeds" in sw:
            try:
                parse_seeds(sw["seeds"])
            except ValueError as e:
                self.err("sweep.seeds", f"{e} (rule: seed range)")
        for key, values in (sw.get("params") or {}).items():
            f = _lookup_leaf(key)
            if f is None:
                self.err(f"sweep.params.{key}", f"{key!r} is not a key of the scenario schema (rule: a key path "
                                                "like training.steps)")
                continue
            for j, val in enumerate(values):
                self._probe(f"sweep.params.{key}[{j}]", key, val)

    def _probe(self, where: str, key: str, val: Any) -> None:
        """Check one value for the key path ``key`` (a [sweep] or [quick] entry) against the schema."""
        f = _lookup_leaf(key)
        if f is None:
            self.err(where, f"{key!r} is not a key of the scenario schema (rule: a key path like training.steps)")
            return
        probe = _Validator(self.file, "", [])
        if probe.value(val, f, key) is _BAD:
            for iss in probe.issues:
                self.err(where, iss.message)


def _lookup_leaf(path: str) -> Field | None:
    from .schema import lookup
    f = lookup(path)
    return f if f is not None and f.kind not in ("table", "tables") else None


def resolve_link(name: str, names: Sequence[str]) -> str | list[str]:
    """A full link name from a full name or a unique suffix (``nvlink:GPU:3``); a list of the
    candidates (empty or several) when it does not name exactly one link."""
    if name in names:
        return name
    cands = [n for n in names if n.endswith(name) and (name.startswith("/") or n[-len(name) - 1] in "/:")]
    return cands[0] if len(cands) == 1 else cands


def _short_device(d: str) -> str | None:
    """"GPU:0", "/gpu:0", "/device:GPU:0", "gpu:0" -> "GPU:0"."""
    m = re.match(r"^(?:/?device:)?/?(cpu|gpu):(\d+)$", d.strip(), re.IGNORECASE)
    if not m:
        return None
    return f"{m.group(1).upper()}:{int(m.group(2))}"


def _show(v: Any) -> str:
    s = json.dumps(v) if isinstance(v, (str, list, dict, bool)) or v is None else repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


_BAD: Any = object()

# bytes per element, for the runner
DTYPE_BYTES = DTYPES

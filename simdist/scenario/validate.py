"""Validation of a parsed scenario document against the schema (pass 1) and as a whole (pass 2).

The first pass checks every key against `schema.SCHEMA` (unknown key, wrong type, bad unit,
out-of-range value) and fills in defaults; the second checks what only the whole file can tell
(devices and links that exist, a batch that splits over the replicas, no more ps shards than ps
tasks, faults that fit the strategy, ...). Problems are collected as `Issue`s, never raised.
"""

from __future__ import annotations

import difflib
import math
import re
from typing import Any

from simdist.suggest import did_you_mean

from .errors import Issue
from .overrides import parse_seeds
from .schema import KIND_RANGE, MAX_GPUS_PER_HOST, PRESETS, REQUIRED, SCHEMA, Field, _num, is_training_model
from .sketch import Topology, _short_device, resolve_link, sketch
from .tomlread import locate_lines as _locate_lines
from .validate_training import check_training
from .values import _TYPE_NAMES, _parse_flops, _show, _strip_field_prefix, _tname, _unit_parser

__all__ = ["Validator", "default_all_reduce"]


def default_all_reduce(devices: list[str], config: dict) -> str:
    """The all-reduce of a mirrored / multi_worker_mirrored scenario that does not name one
    (docs/scenarios.md "Cost model and collectives"): "nccl" (NCCL's own tuning model, validated
    in docs/validation.md) when every replica is a GPU and the scenario degrades no link, else
    "ring" (the link-level simulation: a CPU replica has no NCCL, a link fault needs the
    collective to load the simulated links, which the NCCL model does not, and a training model
    under mirrored runs the facade's MirroredStrategy, whose NcclAllReduce is timed as the ring)."""
    faults = config.get("faults")
    if isinstance(faults, dict) and faults.get("links"):
        return "ring"
    st = config.get("strategy")
    if isinstance(st, dict) and st.get("kind") == "mirrored" and is_training_model(config.get("model")):
        return "ring"   # (a training model runs the facade's MirroredStrategy: NcclAllReduce as the ring)
    if not devices or not all(str(d).startswith("GPU") for d in devices):
        return "ring"
    return "nccl"


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
        self.raw = doc
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
                hint = did_you_mean(key, list(fields)) or _elsewhere(key, prefix)
                self.err(prefix + key, f"unknown key (rule: allowed keys here are {', '.join(sorted(fields))}){hint}")
        for key, f in fields.items():
            path = prefix + key
            if key in value:
                got = self.value(value[key], f, path)
                if got is not _BAD:
                    out[key] = got
            elif f.default is REQUIRED:
                if not any(value.get(k) is not None for k in f.required_unless):
                    unless = f" (or name a training model: {' or '.join(prefix + k for k in f.required_unless)})" \
                        if f.required_unless else ""
                    self.err(path, f"missing required key (rule: {f.kind} `{key}` must be given: {f.doc}){unless}")
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
                hint = did_you_mean(v, list(f.choices))
                self.err(path, f"{_show(v)} is not one of {', '.join(map(_show, f.choices))} (rule: choice){hint}")
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
        lo, hi, why = KIND_RANGE[k]
        if f.maximum is not None and out > f.maximum:
            self.err(path, f"{_show(v)} is above the maximum (rule: must be <= {_num(f.maximum)})")
            return _BAD
        if f.maximum is None and out > hi:
            self.err(path, f"{_show(v)} is too large (rule: {why})")
            return _BAD
        if f.minimum is None and out < lo and (f.above is None or lo > f.above):
            self.err(path, f"{_show(v)} is too small (rule: {why})")
            return _BAD
        if k == "bandwidth" and out < lo:
            self.err(path, f"{_show(v)} is too small (rule: {why})")
            return _BAD
        return out

    # -- pass 2: the whole file ---------------------------------------------------------------------
    def semantics(self, c: dict, partial: bool = False) -> None:
        cl = c.get("cluster")
        topo = self.cluster(cl) if isinstance(cl, dict) else None
        self.topology = topo
        self.config = c
        st = c.get("strategy")
        if topo is None or not isinstance(st, dict) or "kind" not in st:
            return
        self.strategy(st, topo, c)
        if "replicas" not in self.plan:
            return
        model = c.get("model")
        tr = c.get("training")
        if isinstance(model, dict):
            if is_training_model(model):
                check_training(self, c, st, topo)
            else:
                self.model(model, st)
                for key in ("data",):
                    if c.get(key) is not None:
                        self.err(key, "[data] is for training models (rule: name one with model.zoo or "
                                      "model.function, or drop [data] for a FLOP-only model)")
                for key in ("optimizer", "learning_rate", "eval_every", "target_accuracy", "target_loss"):
                    if isinstance(tr, dict) and tr.get(key) is not None:
                        self.err(f"training.{key}", "only for training models (rule: name one with model.zoo or "
                                                    "model.function)")
        if st["kind"] != "multi_worker_mirrored" and isinstance(tr, dict):
            for key in ("checkpoint_interval", "grace_period"):
                if tr.get(key) is not None:
                    self.err(f"training.{key}", f"only for multi_worker_mirrored (rule: {st['kind']} checkpoints "
                                                "with training.checkpoint_every)")
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
            from .explore_table import check_table   # the [explore] table's own rules
            check_table(ex, c, self.plan, topo, self.err)

    _PRESET_KEYS = {
        "gpu_host": {"gpus": 8, "cpus": 1},
        "cpu_cluster": {"jobs": REQUIRED, "cpus_per_host": 1, "network": "25Gbps", "latency": 50e-6},
        "gpu_cluster": {"hosts": REQUIRED, "gpus_per_host": 8, "cpus": 1, "network": "100Gbps", "latency": 2e-6,
                        "pod_size": None, "oversubscription": 1.0},
        None: {"host": REQUIRED, "network": "25Gbps", "latency": 50e-6},
    }
    _ANY_PRESET = ("preset", "gpu", "gpu_flops", "cpu_flops", "gpu_memory", "pcie", "nvlink", "max_gpus_per_host",
                   "cost_model")

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
        limit = cl.get("max_gpus_per_host") or MAX_GPUS_PER_HOST
        per_host = [("cluster.gpus", cl.get("gpus"))] if preset == "gpu_host" else \
            [("cluster.gpus_per_host", cl.get("gpus_per_host"))] if preset == "gpu_cluster" else \
            [(f"cluster.host[{i}].gpus", h.get("gpus")) for i, h in enumerate(cl.get("host") or [])]
        for where, n in per_host:
            if isinstance(n, int) and n > limit:
                self.err(where, f"{n} GPUs on one host (rule: at most {limit} GPUs per host"
                                + (", as in the largest real machine (an HGX-2 / DGX-2)" if limit == MAX_GPUS_PER_HOST
                                   else ", cluster.max_gpus_per_host")
                                + f"; {self._spread_hint(cl, preset, n)}set cluster.max_gpus_per_host = {n} to "
                                  f"model a larger hypothetical machine)")
                ok = False
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
        allowed = {"one_device": {"devices"}, "mirrored": {"devices", "all_reduce", "collectives"},
                   "central_storage": {"devices", "parameter_device"}, "parameter_server": {"partitioner"},
                   "multi_worker_mirrored": {"all_reduce", "collectives", "restart", "timeout_seconds"}}[kind]
        for k in st:
            if k != "kind" and k not in allowed:
                self.err(f"strategy.{k}", f"not an option of {kind} (rule: {kind} takes "
                                          f"{', '.join(sorted(allowed)) or 'no options'})")
        if kind == "parameter_server":
            self.ps_strategy(st, topo)
            return
        if kind == "multi_worker_mirrored":
            if self.cluster_cfg.get("preset") != "gpu_cluster":
                self.err("strategy.kind", "multi_worker_mirrored runs on cluster.preset = \"gpu_cluster\" (rule: N "
                                          "hosts x G GPUs, one worker per host; cluster.hosts and "
                                          "cluster.gpus_per_host)")
                return
            self._multi_host_mirrored(st, topo)
            self.plan["workers"] = len(topo.hosts)
            return
        if len(topo.hosts) != 1:
            if kind == "mirrored" and self.cluster_cfg.get("preset") == "gpu_cluster" and "devices" not in st:
                self._multi_host_mirrored(st, topo)
                return
            self.err("cluster", f"{kind} runs on one host, the cluster has {len(topo.hosts)} (rule: synchronous "
                                "strategies are single-host, except mirrored on cluster.preset = \"gpu_cluster\" "
                                "(data parallel over every GPU of every host, without strategy.devices))")
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
            plan["all_reduce"] = st.get("all_reduce") or default_all_reduce(devs, c)
            st.setdefault("all_reduce", plan["all_reduce"])
            if plan["all_reduce"] == "nccl" and is_training_model(c.get("model")):
                self.err("strategy.all_reduce", "nccl is not available to a training model under mirrored (rule: "
                                                "its MirroredStrategy times NcclAllReduce as ring, or reduce_to_one; "
                                                "nccl is for FLOP-only models and multi_worker_mirrored)")
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

    def _spread_hint(self, cl: dict, preset: Any, n: int) -> str:
        """"spread them over hosts: ..., or " when that fits the scenario (same GPU count; a
        strategy that runs over hosts: mirrored without strategy.devices), else ""."""
        st = self.raw.get("strategy") if isinstance(self.raw, dict) else None
        st = st if isinstance(st, dict) else {}
        if preset not in ("gpu_host", "gpu_cluster") or st.get("kind") != "mirrored" or "devices" in st:
            return ""
        hosts = cl.get("hosts", 1) if preset == "gpu_cluster" else 1
        total = n * hosts if isinstance(hosts, int) else n
        if total % 8:
            return ""
        return (f"spread them over hosts: cluster.preset = \"gpu_cluster\" with hosts = {total // 8} and "
                "gpus_per_host = 8, or ")

    def _multi_host_mirrored(self, st: dict, topo: Topology) -> None:
        """Data parallel over every GPU of a gpu_cluster: a replica per GPU, each host's CPU:0
        feeding its own GPUs (MultiWorkerMirroredStrategy's shape, as the simulator sees it)."""
        full = [f"{h.name}/device:{d}" for h in topo.hosts for d in h.devices() if d.startswith("GPU")]
        cpus = [f"{h.name}/device:CPU:0" for h in topo.hosts for d in h.devices() if d.startswith("GPU")]
        short = [d.split("/device:")[1] for d in full]
        self.plan = {"host": topo.hosts[0].name, "replica_devices": short,
                     "replica_full": full, "input_cpus": cpus, "replicas": len(full),
                     "all_reduce": st.get("all_reduce") or default_all_reduce(short, self.config)}
        st.setdefault("all_reduce", self.plan["all_reduce"])
        if st.get("kind") == "mirrored" and self.plan["all_reduce"] == "nccl" \
                and is_training_model(self.config.get("model")):
            self.err("strategy.all_reduce", "nccl is not available to a training model under mirrored (rule: its "
                                            "MirroredStrategy times NcclAllReduce as ring, or reduce_to_one; nccl is "
                                            "for FLOP-only models and multi_worker_mirrored)")

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
            self.err("cluster", f"jobs {', '.join(other)} are not part of a ParameterServerStrategy cluster (rule: jobs are "
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
                                           f"{who} == 0; e.g. {_either(max(r, (b // r) * r), (b // r + 1) * r)})")
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
        mw = st["kind"] == "multi_worker_mirrored"
        nw = self.plan["replicas"]
        nwk = self.plan.get("workers", nw)   # workers to preempt (multi_worker_mirrored: hosts)
        who = "workers" if ps else "replicas"
        if not ps:
            for key in ("ps_failures", "recovery") if mw else ("preemptions", "preemption_process", "ps_failures",
                                                                 "recovery"):
                if f.get(key):
                    self.err(f"faults.{key}", f"only parameter_server runs have workers to preempt or ps tasks to "
                                              f"fail (rule: {st['kind']} supports faults.stragglers and faults.links"
                                              + (", faults.preemptions and faults.preemption_process)" if mw else ")"))
        for i, p in enumerate(f.get("preemptions") or []):
            if mw and "at_closure" in p:
                self.err(f"faults.preemptions[{i}].at_closure", "counts parameter_server functions (rule: a "
                                                                "multi_worker_mirrored preemption is at_time)")
            elif ("at_time" in p) == ("at_closure" in p):
                self.err(f"faults.preemptions[{i}]", "give exactly one of at_time or at_closure (rule: one trigger)")
            if p.get("worker", 0) >= nwk:
                self.err(f"faults.preemptions[{i}].worker", f"worker {p['worker']} does not exist (rule: < {nwk} "
                                                            "workers" + (", one per host)" if mw else ")"))
        proc = f.get("preemption_process")
        if proc:
            for j, w in enumerate(proc.get("workers") or []):
                if w >= nwk:
                    self.err(f"faults.preemption_process.workers[{j}]", f"worker {w} does not exist (rule: < {nwk} "
                                                                        "workers)")
            if proc.get("workers") is not None and proc.get("worker_fraction") is not None:
                self.err("faults.preemption_process.worker_fraction", "give workers or worker_fraction, not both "
                                                                      "(rule: one choice of workers)")
            t_fn = self._function_seconds(topo)
            mtbf = proc.get("mtbf")
            if isinstance(mtbf, float) and mtbf < 1.0 and not is_training_model(self.config.get("model")):
                self.err("faults.preemption_process.mtbf", f"{mtbf:g} s is below the minimum for a FLOP-only model "
                                                           "(rule: must be >= 1 s; runs of training models may use "
                                                           "down to 1 ms)")
            if ps and t_fn is not None and isinstance(mtbf, float) and mtbf < t_fn:
                self.err("faults.preemption_process.mtbf",
                         f"{mtbf:g} s is shorter than the compute of one scheduled function (~{t_fn:.3g} s on a "
                         "worker) (rule: mtbf >= one function's compute; a worker preempted more often would "
                         "rarely finish a function and the run would not end)")
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

    def _function_seconds(self, topo: Topology) -> float | None:
        """Compute time of one scheduled function on a worker (its share of the global batch at the
        worker device's sustained rate), or None when the model or cluster is not valid yet."""
        model, cl = self.config.get("model"), self.cluster_cfg
        if not isinstance(model, dict) or not isinstance(model.get("flops_per_example"), float):
            return None
        if not isinstance(model.get("global_batch"), int) or not self.plan.get("workers"):
            return None
        from simdist.sim import hardware
        wh = next((h for h in topo.hosts if h.job == "worker"), None)
        if wh is not None and wh.gpus:
            rate = cl.get("gpu_flops") or hardware.GPUS[cl.get("gpu") or "A100"].flops
        else:
            rate = cl.get("cpu_flops") or hardware.CPU.flops
        return model["flops_per_example"] * model["global_batch"] / self.plan["workers"] / float(rate)

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


def _either(a: int, b: int) -> str:
    return str(a) if a == b else f"{a} or {b}"


def _elsewhere(key: str, prefix: str) -> str:
    """A hint for a key that belongs to another table: ``model.steps`` -> ``training.steps``."""
    from .schema import walk
    here = prefix.rstrip(".")
    homes = [p for p, _ in walk() if p.rsplit(".", 1)[-1] == key and p.rsplit(".", 1)[0].replace("[]", "") !=
             re.sub(r"\[[0-9]+\]", "", here)]
    if not homes:
        return ""
    shown = [f"'{h}'" for h in homes[:4]]
    return f"; did you mean {' or '.join(shown)} (another table)?"


def _lookup_leaf(path: str) -> Field | None:
    from .schema import lookup
    f = lookup(path)
    return f if f is not None and f.kind not in ("table", "tables") else None


_BAD: Any = object()

Validator = _Validator

"""Chrome trace: valid JSON after close, required fields, named tracks, non-overlapping tracks, streaming."""

from __future__ import annotations

import io
import json

import pytest

import simtest_workloads as w
from simdist.sim import Simulator, TraceRecorder, presets


def load(sim):
    sim.close()
    return json.loads(sim.trace.getvalue())


def test_trace_is_valid_chrome_trace(tmp_path):
    path = tmp_path / "run.trace.json"
    sim = Simulator(presets.gpu_cluster(hosts=2, gpus_per_host=4), trace=path)
    devs = [d.name for d in sim.cluster.devices() if d.kind == "GPU"]
    sim.drive(sim.all_of([sim.compute(d, 1e12, "run", replica=i) for i, d in enumerate(devs)]))
    sim.drive(sim.all_reduce(devs, 2**24))
    sim.close()
    doc = json.loads(path.read_text())
    assert doc["displayTimeUnit"] == "ms"
    events = doc["traceEvents"]
    xs = [e for e in events if e["ph"] == "X"]
    assert xs, "no complete events"
    for e in xs:
        missing = {"name", "cat", "ph", "ts", "dur", "pid", "tid"} - set(e)
        assert not missing, f"event {e} lacks {missing}"
        assert e["dur"] >= 0 and e["ts"] >= 0, e
    meta = [e for e in events if e["ph"] == "M"]
    procs = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    assert procs == {1: "/job:worker/replica:0/task:0", 2: "/job:worker/replica:0/task:1"}, procs
    for e in xs:
        assert (e["pid"], e["tid"]) in threads, f"track of {e['name']} has no thread_name"
    names = {e["name"] for e in xs}
    assert "run[replica 1]" in names, sorted(names)[:20]
    assert "all_reduce" in names and "all_reduce:reduce_scatter[replica 0]" in names, sorted(names)[:20]
    assert {threads[(1, 2)], threads[(1, 1)]} == {"GPU:0", "CPU:0"}
    assert "nic" in threads.values() and "nvlink:GPU:0" in threads.values(), sorted(set(threads.values()))


def test_tracks_never_overlap_and_are_time_ordered():
    doc = load(w.training_steps(seed=2))
    by_track = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "X":
            by_track.setdefault((e["pid"], e["tid"]), []).append(e)
    assert len(by_track) > 10
    for track, evs in by_track.items():
        for a, b in zip(evs, evs[1:]):
            assert b["ts"] >= a["ts"], f"track {track}: {b} starts before {a}"
            assert b["ts"] >= a["ts"] + a["dur"] - 1e-6, f"track {track}: {a} and {b} overlap"


def test_compute_and_transfer_events_carry_times_and_sizes():
    sim = Simulator(presets.gpu_host(gpus=1), trace=io.StringIO())
    gpu = sim.cluster.devices()[1]
    sim.drive(sim.compute(gpu.name, 3.12e12, "run", replica=0))
    t1 = sim.now
    sim.drive(sim.transfer("/cpu:0", "/gpu:0", 4 * 2**20))
    doc = load(sim)
    xs = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    k, x = xs
    assert (k["name"], k["cat"], k["ts"], k["args"]["flops"]) == ("run[replica 0]", "compute", 0.0, 3.12e12), k
    assert k["dur"] == pytest.approx(t1 * 1e6, abs=1e-3), f"kernel dur: expected {t1 * 1e6} us, got {k['dur']}"
    assert (x["name"], x["cat"], x["args"]["bytes"]) == ("transfer 4.0MiB", "transfer", 4 * 2**20), x
    assert x["args"]["src"].endswith("CPU:0") and x["args"]["dst"].endswith("GPU:0")
    assert x["ts"] == pytest.approx(t1 * 1e6, abs=1e-3) and x["dur"] == pytest.approx((sim.now - t1) * 1e6, abs=1e-3)


def test_events_are_streamed_before_close():
    buf = io.StringIO()
    sim = Simulator(presets.cpu_host(), trace=buf)
    for i in range(50):
        sim.drive(sim.compute("/cpu:0", 1e6, f"op{i}"))
    text = buf.getvalue()
    assert text.count('"ph":"X"') == 50, "events must be written as they complete, not at close"
    assert not hasattr(sim.trace, "events_list")
    sim.close()
    assert len(json.loads(buf.getvalue())["traceEvents"]) >= 50


def test_binary_file_and_recorder_objects():
    raw = io.BytesIO()
    rec = TraceRecorder(raw)
    sim = Simulator(presets.cpu_host(), trace=rec)
    sim.allocate("/cpu:0", "1MiB", "buf")
    sim.drive(sim.compute("/cpu:0", 1e6, "op"))
    sim.close()
    doc = json.loads(raw.getvalue())
    counters = [e for e in doc["traceEvents"] if e["ph"] == "C"]
    assert counters and counters[0]["args"] == {"bytes": 2**20}, counters
    with pytest.raises(ValueError, match="already records a simulation"):
        Simulator(presets.cpu_host(), trace=rec)


def test_tracing_off_by_default():
    sim = Simulator(presets.cpu_host())
    assert sim.trace is None
    with pytest.raises(TypeError, match="trace: expected None, a path"):
        Simulator(presets.cpu_host(), trace=42)


def test_trace_file_is_finished_even_without_close(tmp_path):
    import gc
    path = tmp_path / "forgot.json"
    sim = Simulator(presets.cpu_host(), trace=path)
    sim.drive(sim.compute("/cpu:0", 1e6, "op"))
    del sim
    gc.collect()
    doc = json.loads(path.read_text())
    assert any(e["ph"] == "X" for e in doc["traceEvents"])


@pytest.mark.parametrize("ngroups", [1, 2, 3, 4])
def test_laned_span_is_one_event_per_group_as_spans_writes_it(ngroups):
    """A span over ``ngroups`` track groups (one, two and longer routes are built differently)
    writes, per group in order, the event `spans` writes on that group's lowest lane free at the
    span's start, a new lane being named (thread_name, thread_sort_index) before the events and
    separated from them (a recorder's first events were once written without the comma: invalid JSON)."""
    groups = [(("link", k), 1 + k % 2, f"link {k}", 10_000 + 100 * k) for k in range(ngroups)]
    # overlapping spans force lanes 1 and 2, then lane 0 is free again
    times = [(0.0, 2e-6), (1e-6, 3e-6), (1.5e-6, 2.5e-6), (2e-6, 4e-6), (5e-6, 6e-6)]
    got, want = io.StringIO(), io.StringIO()
    rec, ref = TraceRecorder(got), TraceRecorder(want)
    lanes = {key: [] for key, _, _, _ in groups}   # ref: each group's lanes' end (ns)
    next_tid: dict[int, int] = {}
    for a, b in times:
        rec.laned_raw(TraceRecorder.prefix("grads", "collective"), a, b, groups, ',"args":{"step":1}}')
        a_ns, b_ns = int(a * 1e9 + 0.5), int(b * 1e9 + 0.5)
        tracks = []
        for key, pid, label, sort_base in groups:
            ends = lanes[key]
            lane = next((i for i, e in enumerate(ends) if e[0] <= a_ns), None)
            if lane is None:
                lane = len(ends)
                tid = next_tid.get(pid, 1000)
                next_tid[pid] = tid + 1
                ends.append([b_ns, tid])
                ref.metadata("thread_name", pid, tid, name=label if lane == 0 else f"{label} #{lane}")
                ref.metadata("thread_sort_index", pid, tid, sort_index=sort_base + lane)
            ends[lane][0] = b_ns
            tracks.append((pid, ends[lane][1]))
        ref.spans("grads", "collective", a, b, tracks, '{"step":1}')
    rec.close()
    ref.close()
    assert rec.events == ref.events, f"rec.events={rec.events}, but should be {ref.events} [{ngroups} groups]"
    json.loads(got.getvalue())   # (valid JSON)
    assert got.getvalue() == want.getvalue(), (
        f"laned_raw wrote\n{got.getvalue()}\nbut spans (one event per group) writes\n{want.getvalue()}"
        f"[{ngroups} groups]")

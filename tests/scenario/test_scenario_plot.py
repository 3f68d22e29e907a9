"""The timeline's rows: one per device, compute and communication attributed to the right rows."""

from __future__ import annotations

import json

from scenario_helpers import ROOT, TINY

from simdist.scenario import load, loads
from simdist.scenario.plot import _rows_for, _subtract, timeline_rows, plot_run
from simdist.scenario.runner import run


def test_rows_have_compute_and_communication_of_their_device(tmp_path):
    trace = tmp_path / "t.json"
    m = run(loads(TINY), trace=str(trace)).metrics
    rows, end = timeline_rows(json.loads(trace.read_text())["traceEvents"])
    labels = [r["label"] for r in rows]
    assert labels == ["CPU:0", "GPU:0", "GPU:1"]
    gpu0 = rows[1]
    assert gpu0["compute"] and gpu0["comm"]
    assert all(b > a for a, b in gpu0["compute"])
    assert abs(end - m["summary"]["simulated_time_s"]) < 1e-6
    busy = sum(b - a for a, b in gpu0["compute"])   # kernels of the training compute
    assert 0 < busy <= m["devices"][gpu0["name"]]["busy_s"] + 1e-9   # busy_s also counts collective kernels


def test_fault_windows_map_to_rows_and_pictures_are_written(tmp_path):
    sc = load(ROOT / "scenarios/ps_spot_preemption.toml", quick=True)
    trace = tmp_path / "t.json"
    m = run(sc, trace=str(trace)).metrics
    rows, _ = timeline_rows(json.loads(trace.read_text())["traceEvents"])
    pre = [f for f in m["faults"] if f["kind"] == "preemption"]
    assert pre
    for f in pre:
        (i,) = _rows_for(f, rows)
        assert rows[i]["host"] == f["target"]
    paths = plot_run(trace, m, tmp_path)
    assert [p.rsplit("/", 1)[1] for p in paths] == ["timeline.png", "utilisation.png"]


def test_subtract_intervals():
    assert _subtract([(0, 10)], [(2, 3), (5, 7)]) == [(0, 2), (3, 5), (7, 10)]
    assert _subtract([(0, 1), (4, 6)], [(0, 5)]) == [(5, 6)]
    assert _subtract([(0, 1)], []) == [(0, 1)]


# --- what the pictures draw ----------------------------------------------------------------------
def _spot_run(tmp_path, *overrides):
    sc = load(ROOT / "scenarios/ps_spot_preemption.toml", ["faults.preemption_process.mtbf=1min", *overrides],
              quick=True)
    trace = tmp_path / "t.json"
    m = run(sc, trace=str(trace)).metrics
    events = json.loads(trace.read_text())["traceEvents"]
    rows, end = timeline_rows(events)
    return m, rows, end


def _rects(fig, prefix):
    """{gid suffix: [(x0, x1), ...]} of the broken_barh collections whose gid starts with prefix."""
    out = {}
    for coll in fig.axes[0].collections:
        gid = coll.get_gid() or ""
        if gid.startswith(prefix):
            spans = []
            for path in coll.get_paths():
                xs = path.vertices[:, 0]
                spans.append((float(xs.min()), float(xs.max())))
            out.setdefault(gid[len(prefix):], []).extend(spans)
    return out


def test_downtime_is_drawn_as_down_never_as_communication(tmp_path):
    m, rows, end = _spot_run(tmp_path)
    # windows still open when the run ended are cut at its end in the metrics (and have no trace span)
    ended = [f for f in m["faults"] if f["kind"] == "preemption" and f["end"] < m["summary"]["simulated_time_s"]]
    assert ended, "the run should have preemptions that end before the run does"
    by_host = {r["host"]: r for r in rows}
    for f in ended:
        r = by_host[f["target"]]
        assert any(abs(a - f["start"]) < 1e-9 and abs(b - f["end"]) < 1e-9 for a, b in r["down"]), \
            f"{r['label']}: the preemption window {f['start']:.3f}..{f['end']:.3f} s is not a down interval: {r['down']}"
        inside = [(a, b) for a, b in r["comm"] if a > f["start"] + 1e-9 and b < f["end"] - 1e-9]
        assert not inside, f"{r['label']}: communication drawn inside its down window {f}: {inside}"
    from simdist.scenario.plot import draw_timeline
    fig = draw_timeline(rows, m, end)
    comm, down = _rects(fig, "comm:"), _rects(fig, "down:")
    assert down, "no down interval was drawn"
    for label, spans in down.items():
        for a, b in spans:
            bad = [(x, y) for x, y in comm.get(label, []) if x > a + 1e-6 and y < b - 1e-6]
            assert not bad, f"{label}: communication bars drawn inside the down window {a:.3f}..{b:.3f}: {bad}"
    handles = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "down" in handles and "preempted (window)" in handles and "not busy (waiting)" in handles, handles


def test_utilisation_counts_down_apart_from_communication(tmp_path):
    from simdist.scenario.plot import utilisation
    m, rows, end = _spot_run(tmp_path)
    u = utilisation(rows, end)
    width = end / (len(u["edges"]) - 1)
    down_s = sum(u["down"]) * width * u["devices"]
    comm_s = sum(u["comm"]) * width * u["devices"]
    worker_down = sum(b - a for r in rows if r["compute"] for a, b in r["down"])
    assert abs(down_s - worker_down) <= 1e-6 * max(1.0, worker_down), (down_s, worker_down)
    transfers = sum(b - a for r in rows if r["compute"] for a, b in r["comm"])
    assert comm_s <= transfers + 1e-6, f"'communication only' ({comm_s:.1f} s) exceeds the transfers ({transfers:.1f} s)"


def test_many_devices_are_grouped_with_a_note_and_all_counted(tmp_path):
    from simdist.scenario.plot import display_rows, draw_timeline, draw_utilisation
    m, rows, end = _spot_run(tmp_path, "cluster.jobs.worker=64", "model.global_batch=1024")
    computing = [r for r in rows if r["compute"]]
    assert len(computing) == 64
    shown = display_rows(rows, 40)
    assert len(shown) <= 40
    members = [x["name"] for r in shown for x in r["members"]]
    assert members == [r["name"] for r in rows], "grouped rows must cover every device once, in order"
    fig = draw_timeline(rows, m, end, max_rows=40)
    notes = [t.get_text() for t in fig.texts if t.get_gid() == "grouping-note"]
    assert notes and f"{len(rows)} devices" in notes[0], [t.get_text() for t in fig.texts]
    assert len(fig.axes[0].get_yticklabels()) == len(shown)
    ufig = draw_utilisation(rows, m, end, max_rows=40)
    assert ufig.axes[0].get_ylabel() == "share of the 64 computing devices", ufig.axes[0].get_ylabel()
    # and a run that fits is not grouped and has no note
    few = display_rows(rows[:10], 40)
    assert all(len(r["members"]) == 1 for r in few)


def test_synchronous_steps_are_marked(tmp_path):
    from simdist.scenario.plot import DPI, draw_timeline, step_starts
    sc = load(ROOT / "scenarios/mirrored_allreduce.toml", quick=True)
    trace = tmp_path / "t.json"
    m = run(sc, trace=str(trace)).metrics
    events = json.loads(trace.read_text())["traceEvents"]
    rows, end = timeline_rows(events)
    steps = step_starts(events, rows)
    assert len(steps) == m["steps"]["count"], (steps, m["steps"]["count"])
    fig = draw_timeline(rows, m, end, steps=steps)
    assert len([ln for ln in fig.axes[0].lines if ln.get_gid() == "step"]) == len(steps)


def _ink(fig, gid: str) -> float:
    """Area (plot x units x band fraction) of every polygon whose gid is ``gid`` or its short-event
    columns (``kind-short:label``)."""
    kind, _, label = gid.partition(":")
    total = 0.0
    for coll in fig.axes[0].collections:
        g = coll.get_gid() or ""
        if g in (gid, f"{kind}-short:{label}"):
            for path in coll.get_paths():
                v = path.vertices
                total += (v[:, 0].max() - v[:, 0].min()) * (v[:, 1].max() - v[:, 1].min())
    return total


def test_timeline_ink_is_the_traced_time_short_events_are_not_widened(tmp_path):
    """The issue's ps rows: ~20 ms transfers in a minutes-long run were each widened to a pixel
    (~3 s) and the rows looked 100% busy. Drawn area per row and kind = the trace's time."""
    from simdist.scenario.plot import _scale, draw_timeline
    m, rows, end = _spot_run(tmp_path)
    fig = draw_timeline(rows, m, end)
    scale, _ = _scale(max(end, m["summary"]["simulated_time_s"]))
    span = max(end, m["summary"]["simulated_time_s"])
    for r in rows:
        for kind, band in (("compute", 0.8), ("comm", 0.35), ("down", 0.8)):
            want = sum(b - a for a, b in r[kind]) * scale
            got = _ink(fig, f"{kind}:{r['label']}") / band
            assert abs(got - want) <= 1e-6 * max(1.0, want), \
                f"{r['label']} {kind}: drawn {got / scale:.4f} s, the trace has {want / scale:.4f} s"
    ps = [r for r in rows if r["job"] == "ps"]
    assert ps
    for r in ps:
        drawn = _ink(fig, f"comm:{r['label']}") / 0.35 / scale / span
        assert drawn < 0.2, f"{r['label']}: drawn {drawn:.0%} busy communicating"


def test_ps_optimizer_updates_are_compute(tmp_path):
    sc = load(ROOT / "scenarios/train_ps_failure.toml", ["training.steps=4"], quick=True)
    trace = tmp_path / "t.json"
    run(sc, trace=str(trace))
    events = json.loads(trace.read_text())["traceEvents"]
    rows, _ = timeline_rows(events)
    ps = [r for r in rows if r["job"] == "ps"]
    from simdist.scenario.plot import _merge
    pname = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "process_name"}
    for r in ps:
        spans = _merge([(float(e["ts"]) * 1e-6, (float(e["ts"]) + float(e["dur"])) * 1e-6) for e in events
                        if e.get("ph") == "X" and e.get("cat") == "update" and pname.get(e["pid"]) == r["host"]
                        and e["tid"] < 1000])   # (the device track; lanes >= 1000 are transfers)
        assert spans, f"{r['label']}: the run has no ps update spans to check"
        want, got = sum(b - a for a, b in spans), sum(b - a for a, b in r["compute"])
        assert abs(got - want) <= 1e-9, f"{r['label']}: {want:.6f} s of optimizer updates, {got:.6f} s drawn as compute"
        inside = [c for c in r["comm"] if c in spans]
        assert not inside, f"{r['label']}: updates drawn as communication: {inside[:3]}"


def test_utilisation_shows_every_link_class_with_traffic_and_the_summary_idle(tmp_path):
    from simdist.scenario.plot import NOT_BUSY, draw_utilisation, link_class
    sc = load(ROOT / "scenarios/mirrored_allreduce.toml", quick=True)
    trace = tmp_path / "t.json"
    m = run(sc, trace=str(trace)).metrics
    rows, end = timeline_rows(json.loads(trace.read_text())["traceEvents"])
    fig = draw_utilisation(rows, m, end)
    ax = fig.axes[1]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    widths = [p.get_width() for p in ax.patches]
    carrying = sorted({link_class(k) for k, d in m["links"].items() if d["bytes"]})
    assert "nvlink" in carrying
    for cls in carrying:
        assert any(lab.startswith(cls + ":") for lab in labels), f"no {cls} link among the bars: {labels}"
    for lab, w in zip(labels, widths):
        if ":" in lab and not lab.startswith(("GPU", "CPU")):
            full = next(k for k in m["links"] if k.endswith("/" + lab))
            assert abs(w - 100 * m["links"][full]["busy_fraction"]) < 1e-9, (lab, w)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "idle" not in legend and NOT_BUSY in legend, legend
    note = next(t.get_text() for t in fig.texts if t.get_gid() == "summary-fractions")
    assert f"idle (nothing running) {100 * m['summary']['idle_fraction']:.1f}%" in note, note

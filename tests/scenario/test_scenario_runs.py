"""Every ready scenario runs (its --quick variant), its metrics.json validates, and it is
deterministic (twice here and once in a fresh interpreter with another PYTHONHASHSEED)."""

from __future__ import annotations

import json

import pytest
from scenario_helpers import ROOT, SCENARIOS, TINY

from simdist.scenario import load, loads
from simdist.scenario.metrics import METRICS_SCHEMA, SUMMARY_METRICS, validate_metrics
from simdist.scenario.runner import determinism_probe, run
from simdist.sim import check_determinism


# train_transformer's three runs took 72 s (the default run's third-longest test, 2026-12-06): under -m slow; the
# default run trains it under faults in tests/scenario/test_zoo_transformer_tf.py, and every other ready scenario here.
_LONG = {"train_transformer"}


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=pytest.mark.slow if p.stem in _LONG else ())
                                  for p in SCENARIOS])
def test_ready_scenario_runs_validates_and_is_deterministic(path):
    sc = load(path, quick=True)
    # (one run's probe gives the metrics checked here and is the determinism check's first run: three runs of the
    # scenario, not four)
    probe = determinism_probe(sc.text, sc.file, list(sc.overrides), sc.seed)
    m = json.loads(probe.split(b"\n--trace--\n", 1)[0])
    assert validate_metrics(m) == [], validate_metrics(m)
    assert m["status"] == "ok", m["error"]
    assert m["summary"]["steps_completed"] == sc.config["training"]["steps"]
    assert m["summary"]["simulated_time_s"] > 0 and m["summary"]["examples_per_s"] > 0
    assert set(m["summary"]) <= set(SUMMARY_METRICS)
    check_determinism(determinism_probe, sc.text, sc.file, list(sc.overrides), sc.seed, fresh_process=True, first=probe)


def test_seed_changes_random_streams_only():
    sc = load(ROOT / "scenarios/ps_spot_preemption.toml", quick=True)
    a, b, a2 = run(sc, 1).metrics, run(sc, 2).metrics, run(sc, 1).metrics
    assert a == a2
    assert a["digest"] != b["digest"]
    assert a["summary"]["preemptions"] != b["summary"]["preemptions"] or \
        a["summary"]["simulated_time_s"] != b["summary"]["simulated_time_s"]


def test_ring_beats_reduce_to_one_and_degraded_link_is_slower():
    base = ROOT / "scenarios/degraded_link.toml"
    t = {}
    for alg in ("ring", "reduce_to_one"):
        for f in (1.0, 0.1):
            # (the FLOP-only cost model: the 1.5x below is the link's share of a step under it)
            sc = load(base, [f"strategy.all_reduce={alg}", f"faults.links[0].bandwidth_factor={f}", "training.steps=3",
                             "cluster.cost_model=flops"])
            t[alg, f] = run(sc).metrics["summary"]["step_time_mean_s"]
    assert t["ring", 1.0] < t["reduce_to_one", 1.0]
    assert t["ring", 0.1] > 1.5 * t["ring", 1.0]
    assert t["reduce_to_one", 0.1] > t["reduce_to_one", 1.0]


def test_central_storage_scaling_moves_time_into_communication():
    base = ROOT / "scenarios/central_storage_gpus.toml"
    out = {}
    for g in (1, 2, 8):
        m = run(load(base, [f"cluster.gpus={g}", "training.steps=3", "training.checkpoint_every=0"])).metrics
        out[g] = m["summary"]
    assert out[1]["communication_fraction"] < 0.05
    assert out[8]["communication_fraction"] > out[2]["communication_fraction"]
    assert out[8]["examples_per_s"] > out[1]["examples_per_s"]


def test_out_of_memory_is_a_failed_run_not_a_crash():
    sc = loads(TINY, "t.toml", ['cluster.gpu_memory="1MiB"'])
    m = run(sc).metrics
    assert m["status"] == "failed" and "ResourceExhaustedError" in m["error"]
    assert validate_metrics(m) == []


def test_windowed_degradation_and_straggler_for_sync():
    text = TINY + '\n[[faults.links]]\nlink = "nvlink:GPU:1"\nbandwidth_factor = 0.01\nstart = "0.5ms"\nend = "20ms"\n' \
        '\n[[faults.stragglers]]\nworker = 1\nslowdown = 3.0\n'
    m = run(loads(text, "t.toml")).metrics
    base = run(loads(TINY, "t.toml")).metrics
    assert m["summary"]["simulated_time_s"] > base["summary"]["simulated_time_s"]
    kinds = {f["kind"] for f in m["faults"]}
    assert {"degraded_link", "straggler"} <= kinds


def test_ps_failure_is_recovered_from_the_last_checkpoint_and_accounted():
    sc = load(ROOT / "scenarios/ps_failure_checkpoint.toml", quick=True)
    m = run(sc).metrics
    rec = m["recovery"]
    assert m["status"] == "ok" and rec["recoveries"] == 1
    ev = rec["events"][0]
    assert ev["resumed_at"] >= ev["failed_at"] + 2.0   # waited for the ps to come back
    assert ev["restored_step"] % sc.config["training"]["checkpoint_every"] == 0
    c = m["coordinator"]["closures"]
    assert c["scheduled"] == c["completed"] + c["failed"] + c["cancelled"]    # nothing lost silently
    kinds = [f["kind"] for f in m["faults"]]
    assert "ps_failure" in kinds and "restore" in kinds and "checkpoint" in kinds
    # without recovery the same failure ends the run with UnavailableError
    m2 = run(sc.with_overrides([("faults.recovery.on_ps_failure", "fail")])).metrics
    assert m2["status"] == "failed" and "UnavailableError" in m2["error"]
    assert validate_metrics(m2) == []


def test_metrics_validator_rejects_bad_documents():
    m = run(loads(TINY)).metrics
    assert validate_metrics(m) == []
    bad = json.loads(json.dumps(m))
    bad["summary"]["examples_per_s"] = "fast"
    bad["summary"]["not_a_metric"] = 1.0
    del bad["devices"]
    bad["extra"] = 1
    errs = validate_metrics(bad)
    assert any("examples_per_s" in e for e in errs) and any("not_a_metric" in e for e in errs)
    assert any("devices" in e for e in errs) and any("extra" in e for e in errs)
    tampered = json.loads(json.dumps(m))
    tampered["summary"]["simulated_time_s"] *= 2
    assert any("digest" in e for e in validate_metrics(tampered))


def test_metrics_schema_file_and_jsonschema_agree():
    doc = json.loads((ROOT / "docs/metrics.schema.json").read_text())
    assert doc == json.loads(json.dumps(METRICS_SCHEMA)), "regenerate docs/metrics.schema.json " \
        "(python -m simdist.scenario.metrics > docs/metrics.schema.json)"
    jsonschema = pytest.importorskip("jsonschema")
    for p in SCENARIOS[:2]:
        jsonschema.validate(run(load(p, quick=True)).metrics, METRICS_SCHEMA)


def test_ps_failure_during_a_checkpoint_save_invalidates_that_checkpoint():
    sc = load(ROOT / "scenarios/ps_failure_checkpoint.toml", quick=True)
    ck = [f for f in run(sc).metrics["faults"] if f["kind"] == "checkpoint"][0]
    mid = (ck["start"] + ck["end"]) / 2          # fail in the middle of the first save
    m = run(sc.with_overrides([("faults.ps_failures[0].at_time", mid)])).metrics
    assert m["status"] == "ok", m["error"]
    (ev,) = m["recovery"]["events"]
    assert ev["restored_step"] == 0 and ev["failed_at"] == mid
    assert ev["lost_closures"] == sc.config["training"]["checkpoint_every"]
    assert m["summary"]["steps_completed"] == sc.config["training"]["steps"]

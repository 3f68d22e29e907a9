"""Scenario files: strict validation with every error at once (file, line, key path, rule)."""

from __future__ import annotations

import re

import pytest
from scenario_helpers import ROOT, SCENARIOS, TINY

from simdist.scenario import ScenarioError, load, loads
from simdist.scenario.loader import parse_override, parse_seeds, parse_value, resolve_link, split_values
from simdist.scenario.schema import reference_rows


def errors(text: str, overrides=()) -> list[str]:
    with pytest.raises(ScenarioError) as ei:
        loads(text, "f.toml", overrides)
    return [str(i) for i in ei.value.issues]


def test_ready_scenarios_are_at_least_six_and_valid():
    names = {p.stem for p in SCENARIOS}
    assert len(SCENARIOS) >= 6
    kinds = set()
    for p in SCENARIOS:
        sc = load(p)
        kinds.add(sc.strategy)
        text = p.read_text()
        assert text.startswith("# Question:"), f"{p.name} must start with a comment saying what it answers"
        assert sc.config.get("quick"), f"{p.name} needs a [quick] short variant"
        load(p, quick=True)
    assert {"central_storage", "mirrored", "parameter_server"} <= kinds
    assert {"central_storage_gpus", "mirrored_allreduce", "ps_embedding", "ps_spot_preemption",
            "ps_failure_checkpoint", "degraded_link"} <= names


def test_tiny_loads_with_defaults_in_si_units():
    sc = loads(TINY, "t.toml")
    c = sc.config
    assert c["model"]["example_bytes"] == 4096
    assert c["model"]["flops_per_example"] == 1e9
    assert c["training"]["checkpoint_bandwidth"] == 2e9
    assert c["strategy"]["all_reduce"] == "nccl"   # (GPU replicas, no link fault: NCCL's model)
    assert sc.plan["replicas"] == 2 and sc.plan["replica_devices"] == ["GPU:0", "GPU:1"]
    assert len(sc.digest) == 64


def test_every_error_is_reported_at_once_with_line_path_and_rule():
    text = TINY.replace('gpus = 2', 'gpus = 2\ngpuz = 3').replace('global_batch = 8', 'global_batch = "eight"') \
        .replace('example_bytes = "4KiB"', 'example_bytes = "4 parsecs"').replace("steps = 3", "steps = 0")
    errs = errors(text)
    assert len(errs) == 4, errs
    lines = text.splitlines()
    joined = "\n".join(errs)
    for key, rule in (("cluster.gpuz", "unknown key"), ("model.global_batch", "type"),
                      ("model.example_bytes", "unit"), ("training.steps", "must be >= 1")):
        (e,) = [x for x in errs if f": {key}:" in x]
        assert rule in e, e
        m = re.match(r"f\.toml:(\d+): ", e)
        assert m, e
        assert key.split(".")[-1] in lines[int(m.group(1)) - 1], (e, lines[int(m.group(1)) - 1])
    assert "did you mean 'gpus' or 'gpu'?" in joined   # both are one edit away


def test_batch_not_divisible_by_replicas():
    (e,) = errors(TINY.replace("global_batch = 8", "global_batch = 9"))
    assert "model.global_batch" in e and "split evenly over 2 replicas" in e and "rule:" in e


def test_more_ps_shards_than_ps_is_an_error():
    text = (ROOT / "scenarios/ps_spot_preemption.toml").read_text()
    errs = errors(text, ["strategy.partitioner.num_shards=3"])
    assert any("num_shards" in e and "only 2 ps" in e and "--param" in e for e in errs), errs


def test_missing_sections_and_wrong_table_types():
    errs = errors('[scenario]\nname = "x"\nmodel = 3\n')
    joined = "\n".join(errs)
    for key in ("cluster", "strategy", "model", "training", "scenario.model"):
        assert key in joined


def test_toml_syntax_error_names_line():
    (e,) = errors('[scenario]\nname = "x"\nseed = = 3\n')
    assert e.startswith("f.toml:3:") and "TOML syntax error" in e


def test_strategy_options_and_faults_must_fit_the_strategy():
    text = TINY.replace('kind = "mirrored"', 'kind = "central_storage"\nall_reduce = "ring"') + \
        '\n[[faults.preemptions]]\nworker = 0\nat_time = "1s"\ndowntime = "1s"\n'
    errs = errors(text)
    assert any("strategy.all_reduce" in e and "not an option of central_storage" in e for e in errs)
    assert any("faults.preemptions" in e and "only parameter_server" in e for e in errs)


def test_unknown_device_and_link():
    errs = errors(TINY.replace('kind = "mirrored"', 'kind = "mirrored"\ndevices = ["GPU:0", "GPU:7"]'))
    assert any("strategy.devices[1]" in e and "not a device" in e for e in errs)
    errs = errors(TINY + '\n[[faults.links]]\nlink = "nvlink:GPU:9"\nbandwidth_factor = 0.5\n')
    assert any("faults.links[0].link" in e and "not a link of the cluster" in e for e in errs)
    sc = loads(TINY + '\n[[faults.links]]\nlink = "nvlink:GPU:1"\nbandwidth_factor = 0.5\n')
    assert sc.config["faults"]["links"][0]["link"] == "/job:localhost/replica:0/task:0/nvlink:GPU:1"


def test_window_end_before_start():
    errs = errors(TINY + '\n[[faults.stragglers]]\nworker = 1\nslowdown = 2.0\nstart = "2s"\nend = "1s"\n')
    assert any("faults.stragglers[0].end" in e and "end > start" in e for e in errs)


def test_restore_checkpoint_needs_checkpoints():
    text = (ROOT / "scenarios/ps_failure_checkpoint.toml").read_text()
    errs = errors(text, ["training.checkpoint_every=0"])
    assert any("restore_checkpoint needs checkpoints" in e for e in errs)


def test_overrides_apply_and_bad_ones_name_the_flag():
    sc = loads(TINY, "t.toml", ["training.steps=7", "cluster.gpus=4", "model.variables[0].shape=[8, 8]"])
    assert sc.config["training"]["steps"] == 7 and sc.plan["replicas"] == 4
    assert sc.config["model"]["variables"][0]["shape"] == [8, 8]
    errs = errors(TINY, ["training.stepz=7", "model.variables[3].shape=[1]", "nonsense"])
    assert len(errs) == 3
    assert all("--param" in e for e in errs)


def test_sweep_and_quick_tables_are_validated():
    text = TINY + '\n[quick]\n"training.steps" = 0\n\n[sweep]\nseeds = "5..1"\nparams = { "cluster.gpus" = [2, "x"], "nope.key" = [1] }\n'
    errs = "\n".join(errors(text))
    assert "quick.training.steps" in errs
    assert "sweep.seeds" in errs
    assert "sweep.params.cluster.gpus[1]" in errs
    assert "sweep.params.nope.key" in errs


def test_sync_strategies_need_one_host_and_ps_needs_chief_workers_ps():
    text = TINY.replace('preset = "gpu_host"\ngpus = 2', 'preset = "cpu_cluster"\njobs = { worker = 2 }')
    errs = errors(text)
    assert any("runs on one host" in e for e in errs)
    text = (ROOT / "scenarios/ps_embedding.toml").read_text()
    errs = errors(text, ["cluster.jobs={worker = 2, ps = 1}"])
    assert any("chief" in e for e in errs)


def test_topology_sketch_matches_the_built_cluster():
    from simdist.scenario.build import build_cluster
    for p in SCENARIOS:
        sc = load(p)
        cl = build_cluster(sc)
        assert [ln.name for ln in cl.links] == sc.topology.links(), p.name
        assert [d.name for d in cl.devices()] == sc.topology.devices(), p.name


def test_preset_cluster_matches_simdist_presets():
    from simdist.scenario.build import build_cluster
    from simdist.sim import presets
    sc = loads(TINY.replace("gpus = 2", "gpus = 4"))
    mine, ref = build_cluster(sc), presets.gpu_host(gpus=4)
    assert [(ln.name, ln.bandwidth, ln.latency) for ln in mine.links] == \
        [(ln.name, ln.bandwidth, ln.latency) for ln in ref.links]
    assert [(d.name, d.flops, d.memory) for d in mine.devices()] == [(d.name, d.flops, d.memory) for d in ref.devices()]


def test_file_errors():
    with pytest.raises(ScenarioError, match="no such file"):
        load("does/not/exist.toml")


def test_value_parsing_helpers():
    assert parse_value("10") == 10 and parse_value("10s") == "10s" and parse_value("[1, 2]") == [1, 2]
    assert parse_value('"a,b"') == "a,b" and parse_value("true") is True
    assert split_values('1,[2,3],"a,b",x') == ["1", "[2,3]", '"a,b"', "x"]
    assert parse_override("a.b=1,2", many=True) == ("a.b", [1, 2])
    assert parse_seeds("0..3,7") == [0, 1, 2, 3, 7] and parse_seeds([3, 1]) == [1, 3]
    with pytest.raises(ValueError):
        parse_seeds("3..1")
    names = ["/job:a/replica:0/task:0/nic", "/job:b/replica:0/task:0/nic"]
    assert resolve_link("a/replica:0/task:0/nic", names) == names[0]
    assert resolve_link("nic", names) == names


def test_docs_reference_lists_every_key():
    doc = (ROOT / "docs/scenarios.md").read_text()
    for path, *_ in reference_rows():
        assert f"`{path}`" in doc, f"docs/scenarios.md does not document {path}"


def test_docs_scenarios_table_lists_every_ready_scenario():
    """The table of ready scenarios names each scenarios/*.toml (issue 28: it listed 6 of 9)."""
    import re
    doc = (ROOT / "docs/scenarios.md").read_text()
    table = set(re.findall(r"^\| `([\w.]+\.toml)` \|", doc, flags=re.M))
    files = {p.name for p in (ROOT / "scenarios").glob("*.toml")}
    assert files <= table, f"docs/scenarios.md's table lacks {sorted(files - table)}"
    assert table <= files, f"docs/scenarios.md's table names missing files {sorted(table - files)}"

"""A golden records the CPU whose TensorFlow answered, and simdist is checked with that CPU's model
(tf_workers.answers_model, clause ops.host-cpu): TF 2.21's answers follow the CPU (oneDNN is on by default
only with AVX512_VNNI-class features; the vrcpps tables are the vendor's), so a golden recorded on an
AVX2-only AMD EPYC must not be checked against simdist modelling the Intel Xeon of the older goldens."""

from __future__ import annotations

import gzip
import pickle
from pathlib import Path

import pytest

import tf_workers
from simdist.runtime import host_cpu

clause = pytest.mark.clause

_AMD = {"vendor": "AuthenticAMD", "flags": ["avx", "avx2", "fma"], "parallelism": 2, "onednn_opts": None,
        "conv_empty_input_shaped": True}


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module file whose golden lives under tmp_path (tf_workers' goldens directory moved there)."""
    monkeypatch.setattr(tf_workers, "HERE", tmp_path)
    monkeypatch.setattr(tf_workers, "GOLDENS", tmp_path / "goldens")
    monkeypatch.setattr(tf_workers, "_golden_hosts", {})
    monkeypatch.setattr(tf_workers, "_live_answered", set())
    path = tmp_path / "test_some_module_tf.py"
    path.write_text("CASES = []\n")
    return str(path)


def _write(module_file: str, golden: dict) -> None:
    path = tf_workers.golden_path(module_file)
    path.parent.mkdir(exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(pickle.dumps(golden, protocol=4))


@clause("ops.host-cpu")
def test_a_golden_recording_its_host_is_checked_with_that_host(module: str) -> None:
    _write(module, {"stamp": "x", "release": "r", "host": _AMD, "results": {}})
    model = tf_workers.answers_model(module)
    assert (model.vendor, model.flags, model.onednn_enabled) == ("AuthenticAMD", ("avx", "avx2", "fma"), False), \
        f"answers_model gave {model}, but the golden recorded an AVX2-only AMD host (oneDNN off)"


@clause("ops.host-cpu")
def test_an_older_golden_is_checked_with_the_model_in_force(module: str) -> None:
    _write(module, {"stamp": "x", "release": "r", "results": {}})
    with host_cpu.using("reference"):
        model = tf_workers.answers_model(module)
    assert model == host_cpu.REFERENCE, f"answers_model gave {model}, but a golden without a host is the reference's"


@clause("ops.host-cpu")
def test_live_answers_are_checked_with_this_machine(module: str) -> None:
    _write(module, {"stamp": "x", "release": "r", "host": _AMD, "results": {}})
    tf_workers._live_answered.add(tf_workers._key(module))
    assert tf_workers.answers_model(module) == host_cpu.detect(), \
        "answers TF gave live on this machine must be checked with this machine's model (host_cpu.detect())"


@clause("ops.host-cpu")
def test_recording_a_golden_stores_this_machine(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tf_workers, "installed_release", lambda: "r")
    tf_workers._refresh(module, {0: ("ok", [])})
    g = tf_workers._load(module)
    assert g is not None and g["host"] == tf_workers.this_host(), \
        f"the recorded golden's host is {g and g.get('host')}, but should be this machine's {tf_workers.this_host()}"
    # a golden gaining a case keeps the host that recorded its first answers
    _write(module, dict(g, host=_AMD))
    tf_workers._refresh(module, {1: ("ok", [])})
    g2 = tf_workers._load(module)
    assert g2 is not None and g2["host"] == _AMD and sorted(g2["results"]) == [0, 1], \
        f"after adding case 1: host {g2 and g2.get('host')}, cases {g2 and sorted(g2['results'])}; " \
        "should keep the recording host and hold cases [0, 1]"
    model = tf_workers.answers_model(module)
    assert model.vendor == "AuthenticAMD", f"answers_model gave {model} after the golden changed, not its new host"

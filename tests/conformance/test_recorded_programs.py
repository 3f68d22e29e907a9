"""Where the suite's host-dependent recorded programs run (simdist/conformance/suite/recorded_programs.py `emulating`):
on the recording host's kind of CPU as they are; on simdist elsewhere under its model of the recording host, so a
planted kernel bug shows on every machine the suite runs on (before 2026-12-06 they were skipped off the AVX2 host:
the tests' AVX-512 reference model never ran blind61-67's and kpaths54's host-dependent programs); on another backend
elsewhere not at all (the caller skips)."""

from __future__ import annotations

import types

import pytest

from simdist import tf as sim_tf
from simdist.conformance.suite import recorded_programs as rp
from simdist.runtime import host_cpu

pytestmark = pytest.mark.clause("ops.host-cpu")


def test_simdist_off_the_recording_host_runs_under_the_recording_hosts_model() -> None:
    with host_cpu.using("reference"):
        where = rp.emulating(sim_tf, rp.avx2_without_onednn, rp.avx2_recording_cpu)
        assert where is not None, "simdist under the AVX-512 reference model skipped an AVX2-recorded program"
        with where:
            inside = host_cpu.current()
        after = host_cpu.current()
    assert (inside.vendor, inside.has("avx512f"), inside.onednn_enabled) == ("AuthenticAMD", False, False), (
        f"the program ran under {inside}, but should run under the AVX2 recording host's model (AMD, no AVX-512, "
        f"oneDNN off)")
    assert after == host_cpu.REFERENCE, f"the model after the program is {after.name}, but should be the reference again"


def test_the_recording_hosts_kind_runs_the_program_as_it_is() -> None:
    with host_cpu.using(rp.avx2_recording_cpu()):
        where = rp.emulating(sim_tf, rp.avx2_without_onednn, rp.avx2_recording_cpu)
        with where:
            assert host_cpu.current().name == "amd-epyc-avx2", f"the model changed to {host_cpu.current().name}"


def test_another_backend_off_the_recording_host_cannot_say() -> None:
    other = types.SimpleNamespace(__name__="tensorflow")
    with host_cpu.using("reference"):   # (the stand-in's CPU: backend_cpu reads this machine's for a non-simdist tf)
        on_avx2 = rp.avx2_without_onednn(host_cpu.detect())
        where = rp.emulating(other, rp.avx2_without_onednn, rp.avx2_recording_cpu)
    assert (where is None) != on_avx2, (f"emulating gave {where} for TensorFlow on a CPU that is "
                                        f"{'' if on_avx2 else 'not '}the AVX2 recording host's kind: it should "
                                        f"{'run as it is' if on_avx2 else 'skip (None)'}")

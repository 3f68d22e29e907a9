"""Shared fixtures: every test starts on a fresh default simulated machine."""

from __future__ import annotations

import os

# The goldens (tests/goldens) and the tests' expected values were recorded on the reference host:
# simdist models its CPU here, whatever CPU runs the tests (subprocesses inherit it). Tests of the
# host model itself choose with simdist.runtime.host_cpu.using (clause ops.host-cpu).
os.environ["SIMDIST_HOST_CPU"] = "reference"
# The reference host's float32/float64 matrix products and LAPACK calls ran OpenBLAS's AVX2 (Haswell)
# kernels; on an AVX-512 CPU OpenBLAS picks SkylakeX/Cooperlake kernels, whose sums round otherwise in
# the last bits (README, "two exceptions still open"). OpenBLAS reads this when NumPy loads it: the
# xdist workers and every subprocess start with it; a process that imported NumPy before this line
# keeps the kernel it chose (tests/test_blas_kernel.py says which one runs).
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("default", max_examples=50, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# The default run draws the "ci" profile: 25 examples, derandomized (the same examples on every run, as the project's
# determinism rule asks; a failure reproduces as it is). It was "default" (50 random examples) until 2026-12-06:
# tests/ops/test_op_forward.py + strategies/test_reduce.py + test_gather.py took 68 CPU s, 39 s with "ci". The
# random profiles stay for exploring: SIMDIST_HYPOTHESIS_PROFILE=default (50) or long (1000).
settings.load_profile(os.environ.get("SIMDIST_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def fresh_machine():
    """Reset the simulated machine (devices, clock, distribution context) around each test."""
    import simdist
    simdist.reset()
    yield
    simdist.reset()


def _numpy_blas_pools() -> list[tuple[str, int]]:
    """(library file, threads) of NumPy's own BLAS pools loaded in this process."""
    from threadpoolctl import threadpool_info

    import numpy
    here = os.path.dirname(os.path.dirname(numpy.__file__))
    return sorted((i["filepath"], i["num_threads"]) for i in threadpool_info()
                  if i["user_api"] == "blas" and i["filepath"].startswith(os.path.join(here, "numpy")))


@pytest.fixture(autouse=True, scope="module")
def numpy_blas_keeps_its_threads():
    """simdist's values equal TF's with NumPy's BLAS on one thread (`import simdist` sets it; more
    threads sum a matmul in another order). A test module that leaves another count would change
    the values of every module run after it in the same worker: fail that module instead."""
    import simdist  # noqa: F401  (its import sets the count a module must leave)
    before = _numpy_blas_pools()
    yield
    after = _numpy_blas_pools()
    assert after == before, f"this module left NumPy's BLAS pools at {after}, but found them at {before}: " \
                            f"restore each pool's own count (threadpoolctl.threadpool_limits(limits=None) as a context does)"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tf-live", choices=("slice", "all", "none"), default="slice",
        help="differential modules with a current TF golden (tests/goldens/): ask live TF for a bounded "
             "slice of their cases and take the rest from the golden (slice, the default), ask it for every "
             "case (all: the full differential run, and what a TF upgrade needs), or use the goldens only (none)")


    parser.addoption(
        "--cpu-report", metavar="FILE.json", default=None,
        help="write the CPU seconds each test file took (this process and its subprocesses, TF zygote children "
             "included) as JSON; under xdist each worker writes FILE.<worker>.json")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        _keep_bytecode()
    import tf_workers
    tf_workers.live_mode = config.getoption("--tf-live")
    if config.getoption("--cpu-report"):
        from cpu_meter import CpuMeter
        config.pluginmanager.register(CpuMeter(config.getoption("--cpu-report")), "cpu_meter")


def _keep_bytecode() -> None:
    """Let this run and its subprocesses cache bytecode, even where PYTHONDONTWRITEBYTECODE is set.

    The tests start hundreds of Python processes (the CLI, conformance runs, TF workers, fresh-process
    determinism checks), and each imports simdist's ~530 modules: without cached bytecode every one
    compiles them again (measured on the 2-core machine: `from simdist import tf` 6.0 s without .pyc
    files, 2.2 s with; tests/cli 204 s vs 133 s), and pytest re-rewrites the suite's modules in every
    conformance subprocess. The caches go where Python puts them (__pycache__, ignored by git); the
    variable is dropped before xdist starts its workers, so they and every subprocess inherit that."""
    import sys
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        sys.dont_write_bytecode = False


# Files whose tests run for minutes (measured: the TF-backend conformance run alone is about 460 s of the
# default run's ~960 s on 2 cores). pytest-xdist's --dist loadfile hands out files with the most tests first,
# which sent these few-test files out last, so one worker ran the TF conformance alone at the end while the
# other sat idle. Sending them first (longest first, then xdist's order) balances the two workers.
HEAVY_FIRST = (
    "tests/conformance/test_conformance_reports.py",
    "tests/conformance/test_conformance_meta.py",
    "tests/conformance/test_thirdparty_backend.py",
    "tests/scenario/test_scenario_runs.py",
    "tests/test_examples.py",
)


try:
    from xdist.scheduler import LoadFileScheduling
except ImportError:   # no pytest-xdist: the suite runs in one process, nothing to schedule
    LoadFileScheduling = None

if LoadFileScheduling is not None:
    class HeavyFirstLoadFile(LoadFileScheduling):
        def schedule(self) -> None:
            if self.collection is None and self.collection_is_completed and self._check_nodes_have_same_collection():
                rank = {f: i for i, f in enumerate(HEAVY_FIRST)}
                ids = list(next(iter(self.registered_collections.values())))
                count: dict[str, int] = {}
                for nodeid in ids:
                    count[self._split_scope(nodeid)] = count.get(self._split_scope(nodeid), 0) + 1
                order = sorted(count, key=lambda s: (rank.get(s, len(rank)), -count[s]))
                pos = {s: i for i, s in enumerate(order)}
                ids.sort(key=lambda n: pos[self._split_scope(n)])   # stable: a file's tests keep their order
                for node in self.registered_collections:
                    self.registered_collections[node] = ids
                self.config.option.loadscopereorder = False
            super().schedule()

    def pytest_xdist_make_scheduler(config: pytest.Config, log):  # type: ignore[no-untyped-def]
        """--dist loadfile with the known-heavy files sent first (see HEAVY_FIRST); other modes as xdist's."""
        if config.getvalue("dist") != "loadfile":
            return None
        return HeavyFirstLoadFile(config, log)

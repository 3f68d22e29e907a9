"""Fixtures of the conformance suite: the backend under test and its ``tf``."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance import plugin


@pytest.fixture(scope="session")
def backend(request: pytest.FixtureRequest) -> Any:
    st = plugin.state(request.config)
    if st is None or st.backend is None:
        raise pytest.UsageError(
            "the conformance suite needs its plugin: run `simdist conformance --backend NAME`, "
            "`pytest conformance --backend NAME` in a checkout, or pytest with "
            "`-p simdist.conformance.plugin`")
    return st.backend


@pytest.fixture(scope="session")
def tf(backend: Any) -> Any:
    return backend.tf


@pytest.fixture()
def keras(tf: Any) -> Any:
    """The backend's tf.keras on a cleared session (no layer names or state left by a test before)."""
    tf.keras.backend.clear_session()
    return tf.keras


@pytest.fixture()
def budget(request: pytest.FixtureRequest) -> Any:
    """The cases a table-driven test runs: all of them, or the first only under `--profile ci`
    (whose TF run is already at its time budget: a test costs TF about 2 s of set-up, its cases
    little more)."""
    ci = request.config.getoption("conformance_profile", "default") == "ci"
    return lambda cases: cases[:1] if ci else cases


@pytest.fixture()
def onednn_float32(tf: Any) -> None:
    """Skips a test of oneDNN's float32 kernels where the backend's CPU runs TF's own instead: TF 2.21
    turns oneDNN on by default only on CPUs with AVX512_VNNI, AVX512_BF16, AVX_VNNI or AMX (clause
    ops.host-cpu; on an AVX2-only CPU real TF fails such a test as simdist's host model does): one
    that runs an op only oneDNN has (NCHW or dilated-backprop convolutions) or compares values in
    oneDNN's summation order."""
    from simdist.conformance.suite.host_model import backend_cpu
    cpu = backend_cpu(tf)
    if not cpu.onednn("float32", ("float32",)):
        pytest.skip(f"{cpu.name} CPU ({cpu.vendor}) runs float32 without oneDNN (TF 2.21 IsMklEnabled is off: "
                    "ops.host-cpu); this test states oneDNN's kernels")

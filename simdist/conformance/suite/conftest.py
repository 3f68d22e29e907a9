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

"""Shared fixtures: every test starts on a fresh default simulated machine."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=50, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("SIMDIST_HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def fresh_machine():
    """Reset the simulated machine (devices, clock, distribution context) around each test."""
    import simdist
    simdist.reset()
    yield
    simdist.reset()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tf-live", choices=("slice", "all", "none"), default="slice",
        help="differential modules with a current TF golden (tests/goldens/): ask live TF for a bounded "
             "slice of their cases and take the rest from the golden (slice, the default), ask it for every "
             "case (all: the full differential run, and what a TF upgrade needs), or use the goldens only (none)")


def pytest_configure(config: pytest.Config) -> None:
    import tf_workers
    tf_workers.live_mode = config.getoption("--tf-live")

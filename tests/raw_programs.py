"""edge_programs' eager, traced and taped programs written with `R.` for `tf.raw_ops.` (the raw-op differential
modules' short form: `R.ImageSummary(...)`)."""

from __future__ import annotations

from typing import Any

from edge_programs import eager as _e, tape as _t, traced as _tr

__all__ = ["eager", "traced", "tape"]


def _raw(expr: str) -> str:
    return expr.replace("R.", "tf.raw_ops.")


def eager(expr: str) -> Any:
    return _e(_raw(expr))


def traced(expr: str) -> Any:
    return _tr(_raw(expr))


def tape(expr: str, src: str) -> Any:
    return _t(_raw(expr), _raw(src))

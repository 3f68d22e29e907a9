"""Issue 26's hidden-set proxy: published measurements from sources the model had not seen when
they were chosen (the third round; the seventeenth session's "seventh round" added three two-node
sweeps), each sampled by the table's rules before simdist was run on them, and evaluated with the
model as it stands. They are kept out of the validation table and of the fit of its global
factors, so their error stays an estimate of how the model does on unseen measurements;
`simdist validate --hidden` re-runs them (docs/validation.md "The third round", "Seventeenth
session: the seventh round").
"""

from __future__ import annotations

from .collectives import hidden_measurements as _collectives
from .table import Measurement
from .training import hidden_measurements as _training

__all__ = ["measurements"]


def measurements() -> list[Measurement]:
    """The hidden-set rows: the collective rows, then the training rows."""
    return _collectives() + _training()

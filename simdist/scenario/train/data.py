"""The arrays a training scenario learns from: the [data] table's source, split, scaling and the
derived categorical feature.

- Split: a permutation of the examples from the stream ``data/split`` of the run's root seed;
  the last ``test`` examples of it are held out.
- Scaling (``normalize``): features divided by the largest absolute value in the training split.
- Categorical feature (``categorical_buckets`` = B > 0): the (scaled) features, flattened, are cut
  into G = min(16, features) contiguous groups; bit i is set when group i's mean is above that
  group's mean over the training split; the G-bit code is hashed (Knuth's multiplicative hash,
  2654435761 mod 2^32) into B ids. For the digits that is a coarse 16-bit sketch of the image
  (which half-rows are darker than usual): a sparse feature with a few hundred distinct values,
  what a wide-and-deep model's embedding and wide part learn from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["TrainingData", "prepare", "categorical_ids"]

_HASH = 2654435761
_GROUPS = 16


@dataclass
class TrainingData:
    """Model inputs and labels of both splits; ``inputs`` are x, or (x, ids) with the categorical feature."""

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    ids_train: np.ndarray | None
    ids_test: np.ndarray | None
    num_classes: int
    buckets: int

    @property
    def input_shape(self) -> tuple[int, ...]:
        return tuple(int(s) for s in self.x_train.shape[1:])

    def train_inputs(self) -> Any:
        return self.x_train if self.ids_train is None else (self.x_train, self.ids_train)

    def test_inputs(self) -> Any:
        return self.x_test if self.ids_test is None else (self.x_test, self.ids_test)


def _arrays(d: dict, facts: dict) -> tuple[np.ndarray, np.ndarray]:
    from simdist import datasets
    if d.get("dataset") is not None:
        return datasets.load(d["dataset"])
    return datasets.read_npz(facts["path"])


def categorical_ids(x: np.ndarray, thresholds: np.ndarray | None, buckets: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, thresholds): each example's category id in [0, buckets), from its features' group means
    (thresholds: the training split's group means; computed from ``x`` when None)."""
    flat = x.reshape(len(x), -1).astype(np.float64)
    groups = np.array_split(np.arange(flat.shape[1]), min(_GROUPS, flat.shape[1]))
    means = np.stack([flat[:, g].mean(axis=1) for g in groups], axis=1)
    if thresholds is None:
        thresholds = means.mean(axis=0)
    bits = (means > thresholds).astype(np.uint64)
    code = (bits << np.arange(len(groups), dtype=np.uint64)).sum(axis=1)
    ids = ((code * np.uint64(_HASH)) % np.uint64(2 ** 32)) % np.uint64(buckets)
    return ids.astype(np.int32), thresholds


def prepare(config: dict, facts: dict, rng: np.random.Generator, images: bool) -> TrainingData:
    """The run's data: split with ``rng`` (the stream data/split), scaled, shaped for the model
    (``images``: (examples, h, w, channels) for a CNN; else x as stored for a model from a
    function, flattened to (examples, features) for the zoo's dense models)."""
    d = config["data"]
    x, y = _arrays(d, facts)
    n = len(x)
    order = rng.permutation(n)
    n_test = int(facts["test"])
    tr, te = order[: n - n_test], order[n - n_test:]
    x = x.astype(np.float32)
    if d.get("normalize", True):
        scale = float(np.max(np.abs(x[tr]))) if len(tr) else 0.0
        if scale > 0:
            x = x / np.float32(scale)
    if images:
        if x.ndim == 3:
            x = x[..., None]
    elif config["model"].get("zoo") is not None:
        x = x.reshape(n, -1)
    buckets = int(d.get("categorical_buckets") or 0)
    ids_tr = ids_te = None
    if buckets:
        ids_tr, thr = categorical_ids(x[tr], None, buckets)
        ids_te, _ = categorical_ids(x[te], thr, buckets)
    y = y.astype(np.int32)
    return TrainingData(np.ascontiguousarray(x[tr]), y[tr], np.ascontiguousarray(x[te]), y[te], ids_tr, ids_te,
                        int(facts["classes"]), buckets)

"""CutMix's output re-made from its seed: Keras 3.15's draws from SeedGenerator(seed) in its order (alpha, a
beta weight per image, the boxes' x starts then their y starts, the partner permutation), the box
[x0, x0 + sqrt(1 - w) W) x [y0, y0 + sqrt(1 - w) H) in float32, the labels mixed by the area kept. Shared by
the suite tests that read CutMix's values (test_blind19_gaps.py, test_degen22a_geometry.py)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

F32 = np.float32


def expected(keras: Any, to_numpy: Callable[[Any], np.ndarray], x: np.ndarray, y: np.ndarray,
             seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """For channels-last images x (b, h, w, c) and labels y: the images and labels CutMix(factor=1.0,
    seed=seed) gives, the partner of each image and each image's box (a boolean (h, w) mask)."""
    b, h, w = x.shape[:3]
    sg = keras.random.SeedGenerator(seed)
    alpha = F32(to_numpy(keras.random.uniform((), 0.0, 1.0, seed=sg))) + F32(1e-6)
    weight = to_numpy(keras.random.beta((b,), alpha, alpha, seed=sg)).astype(F32)
    ratio = np.sqrt(F32(1.0) - weight)
    cw, ch = ratio * F32(w), ratio * F32(h)
    x0 = to_numpy(keras.random.uniform([b], 0, 1, seed=sg)).astype(F32) * (F32(w) - cw)
    y0 = to_numpy(keras.random.uniform([b], 0, 1, seed=sg)).astype(F32) * (F32(h) - ch)
    perm = to_numpy(keras.random.shuffle(np.arange(b, dtype=np.int32), seed=sg)).astype(int)
    gy, gx = np.meshgrid(np.arange(h, dtype=F32), np.arange(w, dtype=F32), indexing="ij")
    want, labels, boxes = x.copy(), [], []
    for i in range(b):
        box = (gx >= x0[i]) & (gx < x0[i] + cw[i]) & (gy >= y0[i]) & (gy < y0[i] + ch[i])
        want[i][box] = x[perm[i]][box]
        boxes.append(box)
        kept = 1.0 - float(cw[i]) * float(ch[i]) / (w * h)
        labels.append(kept * y[i] + (1.0 - kept) * y[perm[i]])
    return want, np.array(labels), perm, boxes

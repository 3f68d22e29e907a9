"""Convolution benchmark: simdist's tf.nn.conv2d forward + backward against a plain NumPy im2col.

    python benchmarks/bench_conv.py [--repeat N] [--no-tf]

The layer: x [32, 28, 28, 1] -> [32, 28, 28, 32], a 3x3 filter, stride 1, SAME padding (the
first layer of an MNIST CNN). One step is the forward and both gradients (input and filter)
for a given upstream gradient:
- simdist: `tf.nn.conv2d` under a `tf.GradientTape`, `tape.gradient(y, [x, w], output_gradients=dy)`
  (dispatch, dtype checks, FLOP tally and the tape included);
- NumPy: the textbook im2col written out (pad, sliding windows copied into columns, one matmul;
  the filter gradient columns.T @ dy, the input gradient dy @ W.T scattered back offset by offset),
  keeping its columns from the forward for the backward;
- TF 2.21 (eager, oneDNN on its own threads), for reference.
Rounds alternate between the implementations; the script prints the medians and the ratio
simdist / NumPy (target: within 2x), and checks the three agree.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any, Callable

import numpy as np

from default_env import out_of_the_box

N, H, W, CIN, COUT, K = 32, 28, 28, 1, 32, 3


def numpy_step(x: np.ndarray, w: np.ndarray, dy: np.ndarray) -> tuple[np.ndarray, ...]:
    """Forward and backward of a SAME 3x3 stride-1 convolution by im2col."""
    n, h, wd, c = x.shape
    kh, kw, _, cout = w.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    win = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(1, 2))    # [n, h, w, c, kh, kw]
    cols = win.transpose(0, 1, 2, 4, 5, 3).reshape(n * h * wd, kh * kw * c)
    w2 = w.reshape(kh * kw * c, cout)
    y = (cols @ w2).reshape(n, h, wd, cout)
    dy2 = dy.reshape(-1, cout)
    dw = (cols.T @ dy2).reshape(w.shape)
    dcols = (dy2 @ w2.T).reshape(n, h, wd, kh, kw, c)
    dxp = np.zeros(xp.shape, x.dtype)
    for i in range(kh):
        for j in range(kw):
            dxp[:, i:i + h, j:j + wd, :] += dcols[:, :, :, i, j, :]
    return y, dxp[:, 1:-1, 1:-1, :], dw


def framework_step(tf: Any, x: Any, w: Any, dy: Any) -> Callable[[], tuple[Any, ...]]:
    def step() -> tuple[Any, ...]:
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.conv2d(x, w, 1, "SAME")
        dx, dw = tape.gradient(y, [x, w], output_gradients=dy)
        return y, dx, dw
    return step


def bench(cases: dict[str, Callable[[], Any]], repeat: int, number: int) -> dict[str, float]:
    """Median seconds per call; the cases take turns round by round (same machine state)."""
    for fn in cases.values():
        fn()
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(repeat):
        for k, fn in cases.items():
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            times[k].append((time.perf_counter() - t0) / number)
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> None:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--number", type=int, default=10)
    ap.add_argument("--no-tf", action="store_true")
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, H, W, CIN)).astype(np.float32)
    w = rng.standard_normal((K, K, CIN, COUT)).astype(np.float32)
    dy = rng.standard_normal((N, H, W, COUT)).astype(np.float32)

    from simdist import tf as sim_tf
    sim = framework_step(sim_tf, sim_tf.constant(x), sim_tf.constant(w), sim_tf.constant(dy))
    cases: dict[str, Callable[[], Any]] = {"numpy": lambda: numpy_step(x, w, dy), "simdist": sim}
    want = numpy_step(x, w, dy)
    got = [t.numpy() for t in sim()]
    for name, g, r in zip(("y", "dx", "dw"), got, want):
        assert np.allclose(g, r, rtol=1e-4, atol=1e-3), f"simdist's {name} differs from the NumPy im2col"
    if not args.no_tf:
        import tensorflow as real_tf
        cases["tensorflow"] = framework_step(real_tf, real_tf.constant(x), real_tf.constant(w), real_tf.constant(dy))
        for name, g, r in zip(("y", "dx", "dw"), [t.numpy() for t in cases["tensorflow"]()], want):
            assert np.allclose(g, r, rtol=1e-4, atol=1e-3), f"TF's {name} differs from the NumPy im2col"

    t = bench(cases, args.repeat, args.number)
    print(f"conv2d forward+backward, x [{N},{H},{W},{CIN}] -> [{N},{H},{W},{COUT}], 3x3 SAME "
          f"(median of {args.repeat} rounds of {args.number})")
    print("| implementation | time per step | vs NumPy im2col |")
    print("|---|---|---|")
    for k, v in t.items():
        print(f"| {k} | {v * 1e3:.2f} ms | {v / t['numpy']:.2f}x |")
    print(f"simdist / numpy = {t['simdist'] / t['numpy']:.2f} (target <= 2)")


if __name__ == "__main__":
    main()

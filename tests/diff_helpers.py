"""Comparing results of the same program on real TensorFlow 2.21 and on simdist.

`normalise` turns a result into a backend-neutral form (values as NumPy, dtype names, shapes,
structure, exception classes); `assert_same` compares two normalised results and says where
they differ. Differential test modules run the TF side in a subprocess (tf_workers.py).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import simdist
from simdist import tf as sim_tf

KINDS = ("mirrored", "central_storage", "one_device", "default")


def make_strategy(tf: Any, kind: str, n: int) -> Any:
    if tf is sim_tf:
        simdist.reset()
        cpu = sim_tf.config.list_physical_devices("CPU")[0]
        sim_tf.config.set_logical_device_configuration(cpu, [sim_tf.config.LogicalDeviceConfiguration()] * 4)
    devices = [f"/cpu:{i}" for i in range(n)]
    if kind == "mirrored":
        return tf.distribute.MirroredStrategy(devices)
    if kind == "central_storage":
        return tf.distribute.experimental.CentralStorageStrategy(devices)
    if kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:0")
    return tf.distribute.get_strategy()


def normalise(x: Any) -> Any:
    """A comparable, backend-neutral form of a result."""
    if hasattr(x, "values") and type(x).__name__ in ("PerReplica", "Mirrored"):
        return ("PerReplica", tuple(normalise(v) for v in x.values))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(normalise(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, normalise(x[k])) for k in sorted(x)))
    if type(x).__name__ == "IndexedSlices":
        # Rows in index order (then by value): the order of an IndexedSlices' rows means nothing
        # (they add up), and TF's aggregation concatenates them in its own backprop order.
        vals, idx = np.asarray(x.values.numpy()), np.asarray(x.indices.numpy())
        flat = vals.reshape(len(idx), -1)
        order = np.lexsort(tuple(flat.T[::-1]) + (idx,)) if len(idx) else np.arange(0)
        return ("IndexedSlices", ("Tensor", x.values.dtype.name, vals.shape, vals[order]),
                ("Tensor", x.indices.dtype.name, idx.shape, idx[order]), normalise(x.dense_shape))
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        arr = np.asarray(x.numpy())
        return ("Tensor", x.dtype.name, tuple(arr.shape), arr)
    if isinstance(x, (int, float, bool, np.generic)) or x is None:
        return ("py", type(x).__name__, x)
    return ("other", type(x).__name__)


def run_program(tf: Any, program: Callable[[Any, Any, int], Any], kind: str, n: int) -> Any:
    try:
        s = make_strategy(tf, kind, n)
        return normalise(program(tf, s, n))
    except Exception as e:  # noqa: BLE001 - the exception class is part of the result
        return ("error", type(e).__name__)


def assert_same(got: Any, want: Any, path: str = "result", rtol: float = 1e-6) -> None:
    if isinstance(want, tuple) and want and want[0] == "Tensor":
        assert isinstance(got, tuple) and got[0] == "Tensor", f"{path}: simdist gave {got!r}, TF 2.21 gave a Tensor"
        assert got[1] == want[1], f"{path}.dtype={got[1]}, but TF 2.21 gives {want[1]}"
        assert got[2] == want[2], f"{path}.shape={got[2]}, but TF 2.21 gives {want[2]}"
        g, w = got[3], want[3]
        if w.dtype.kind == "f":
            ok = np.allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=rtol * 1e-2, equal_nan=True)
        else:
            ok = np.array_equal(g, w)
        assert ok, f"{path}={g.tolist()}, but TF 2.21 gives {w.tolist()}"
        return
    if isinstance(want, tuple) and want and want[0] in ("PerReplica", "list", "tuple", "dict", "IndexedSlices"):
        assert isinstance(got, tuple) and got[0] == want[0], f"{path}: simdist gave {got!r}, TF 2.21 gave {want!r}"
        if want[0] == "IndexedSlices":
            for i, part in enumerate(("values", "indices", "dense_shape")):
                assert_same(got[1 + i], want[1 + i], f"{path}.{part}", rtol)
            return
        assert len(got[1]) == len(want[1]), f"{path}: {len(got[1])} parts, but TF 2.21 gives {len(want[1])}"
        for i, (g, w) in enumerate(zip(got[1], want[1])):
            assert_same(g, w, f"{path}[{i}]", rtol)
        return
    if isinstance(want, tuple) and want and want[0] == "py":
        assert got[:2] == want[:2], f"{path}: simdist gave {got!r}, TF 2.21 gave {want!r}"
        assert got[2] == want[2] or (isinstance(want[2], float) and np.isclose(got[2], want[2])), \
            f"{path}={got[2]!r}, but TF 2.21 gives {want[2]!r}"
        return
    assert got == want, f"{path}: simdist gave {got!r}, but TF 2.21 gives {want!r}"




def compare_with_tf(got: Any, want: Any, where: str, rtol: float = 1e-5, atol_scale: float = 0.1,
                    rtol64: float | None = None) -> None:
    """Compare simdist's nested result (dicts, lists, arrays, scalars) with TF's, saying where
    they differ. Float arrays: within `rtol` (`rtol64` for float64, when given), with an absolute
    floor of `atol_scale * rtol * max|want|`; other values exactly."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), f"{where}: keys {list(got)} != TF's {list(want)}"
        for k in want:
            compare_with_tf(got[k], want[k], f"{where}[{k!r}]", rtol, atol_scale, rtol64)
    elif isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), f"{where}: {got!r} != TF's {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            compare_with_tf(g, w, f"{where}[{i}]", rtol, atol_scale, rtol64)
    elif isinstance(want, np.ndarray):
        got = np.asarray(got)
        assert (got.shape, got.dtype) == (want.shape, want.dtype), \
            f"{where}: shape/dtype {got.shape} {got.dtype} != TF's {want.shape} {want.dtype}"
        if want.dtype.kind == "f":
            tol = rtol64 if (rtol64 is not None and want.dtype == np.float64) else rtol
            atol = atol_scale * tol * float(np.max(np.abs(want))) if want.size else 0.0
            np.testing.assert_allclose(got, want, rtol=tol, atol=atol, err_msg=f"{where}: values differ from TF's")
        else:
            np.testing.assert_array_equal(got, want, err_msg=f"{where}: values differ from TF's")
    elif isinstance(want, float) and isinstance(got, float):
        assert abs(got - want) <= max(rtol * abs(want), 1e-12), f"{where}: simdist {got} != TF's {want} (rtol {rtol})"
    else:
        assert got == want, f"{where}: simdist {got!r} != TF's {want!r}"

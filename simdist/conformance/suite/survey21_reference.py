"""The TF 2.21 recording the ``test_survey21_*.py`` modules compare with (gzip'd JSON beside this module,
written by ``python -m simdist.conformance.suite.survey21_record``): for every case of survey21_cases,
what the case's program returned on real TF 2.21 + Keras 3.15, reduced by :func:`jsonable`.

Tolerance: harden19_reference's (floats within 1e-5 relative plus 1e-6 of the largest magnitude; dtypes,
shapes, strings and integers exactly). Nothing here imports TensorFlow.
"""

from __future__ import annotations

import base64
import hashlib
import inspect
import os
from typing import Any

import numpy as np

from simdist.conformance.suite import harden19_reference, reference_store

PATH = os.path.join(os.path.dirname(__file__), "survey21_reference.json.gz")
RECORD_COMMAND = "nice -n 10 python -m simdist.conformance.suite.survey21_record"
differences = harden19_reference.differences


def save(data: dict[str, Any], path: str = PATH) -> None:
    """Write `data` (reference_store.save: the same data gives the same bytes)."""
    reference_store.save(data, path)


def load(path: str = PATH) -> dict[str, Any]:
    """The recording (cached); raises FileNotFoundError naming the command that writes it."""
    return reference_store.load(path, "survey21", RECORD_COMMAND)


def case_hash(fn: Any) -> str:
    """The SHA-256 of a case's source: a recording made from another program is stale."""
    return hashlib.sha256(inspect.getsource(fn).encode()).hexdigest()[:16]


def jsonable(x: Any) -> Any:
    """A backend's output as JSON: a tensor {dtype, shape, values}; bytes base64 under "b64"; a dataset
    its elements; a ragged tensor its rows; a sparse tensor its parts; containers recursively."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, bytes):
        return {"b64": base64.b64encode(x).decode()}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    name = type(x).__name__
    if name == "SparseTensor":
        return {"sparse": [jsonable(x.indices), jsonable(x.values), jsonable(x.dense_shape)]}
    if "Ragged" in name and hasattr(x, "to_list"):
        return {"ragged": jsonable(x.to_list()), "dtype": x.dtype.name}
    if hasattr(x, "element_spec") and hasattr(x, "__iter__"):
        return {"dataset": [jsonable(e) for e in x]}
    if hasattr(x, "numpy"):
        a = np.asarray(x.numpy())
        return _array(a)
    if isinstance(x, (np.ndarray, np.generic)):
        return _array(np.asarray(x))
    return {"object": name}


def _array(a: np.ndarray) -> dict[str, Any]:
    if a.dtype.kind in "SO":
        vals = np.vectorize(lambda b: base64.b64encode(b if isinstance(b, bytes) else str(b).encode()).decode(),
                            otypes=[object])(a).tolist() if a.size else a.tolist()
        return {"dtype": "string", "shape": list(a.shape), "b64": vals}
    if a.dtype.kind == "b":
        return {"dtype": "bool", "shape": list(a.shape), "values": a.tolist()}
    if a.dtype.kind in "iu":
        return {"dtype": a.dtype.name, "shape": list(a.shape), "values": a.tolist()}
    v = a.astype(np.float64)
    vals = np.where(np.isfinite(v), v, 0.0).tolist() if np.isfinite(v).all() is False else v.tolist()
    if not np.isfinite(v).all():
        return {"dtype": a.dtype.name, "shape": list(a.shape), "values": np.nan_to_num(v, nan=1e300).tolist(),
                "nonfinite": np.where(np.isnan(v), "nan", np.where(np.isposinf(v), "inf",
                                       np.where(np.isneginf(v), "-inf", ""))).tolist()}
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals}


def observe(tf: Any, fn: Any) -> Any:
    """A case's program run on `tf`, as JSON; an exception as its class name."""
    try:
        return jsonable(fn(tf))
    except Exception as e:  # noqa: BLE001 - a refusal is recorded as its class
        return {"error": type(e).__name__}

"""Degeneracy audit of the suite's image programs (session 22, degen22a): which inputs and options
the conformance suite actually gives Keras's image preprocessing layers and tf.image's functions.

It runs chosen suite modules on the simdist backend with a pytest plugin (this file) that wraps
every image layer's ``__init__`` and ``call`` and every public ``tf.image`` function, and records per
call the image's shape and dtype, the data format and the options set; then prints, per API, the
mechanical degenerate points its calls sit on: only square spatial shapes, only even H/W, never
channels_first, never an integer image, never an unbatched (rank-3) image or never a batch (rank 4),
never a batch above 2, options only at their defaults (never passed).

    python benchmarks/degen22a_audit.py [suite files ...]   # default: the image modules below

Run from the repository root (the copy under test is the working tree; PYTHONPATH is set to it).
"""

from __future__ import annotations

import collections
import functools
import inspect
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SUITE = "simdist/conformance/suite/"
#: The suite modules that run the image layers or tf.image (grep of the suite, the shared case tables'
#: modules included).
DEFAULT_FILES = [
    "test_keras_image_preprocessing.py", "test_image_rules.py", "test_image_resize_rules.py",
    "test_survey21_image.py", "test_survey21_layers.py", "test_klayers21.py", "test_blind18_gaps.py",
    "test_blind19_gaps.py", "test_blind6_gaps.py", "test_blind10_gaps.py", "test_options_layers.py",
    "test_harden16_configs.py", "test_harden19_defaults_layers.py", "test_harden19_defaults_configs.py",
    "test_harden20b_trained_layers.py", "test_signal_image_debugging_rules.py", "test_miss15_rules.py",
    "test_ops8_rules.py", "test_fz15d_rules.py", "test_cov14_gradients.py", "test_gradient_table.py",
]
_INT = ("int", "uint")


def _describe(v: Any) -> tuple[tuple[int, ...] | None, str | None]:
    """(shape, dtype name) of an array-like, else (None, None)."""
    try:
        import numpy as np
        if isinstance(v, dict):
            v = v.get("images")
        if hasattr(v, "shape") and hasattr(v, "dtype"):
            shp = tuple(int(d) if d is not None else -1 for d in tuple(v.shape))
            return shp, str(getattr(v.dtype, "name", v.dtype))
        if isinstance(v, (list, tuple)) and v and not isinstance(v[0], str):
            a = np.asarray(v)
            if a.dtype != object:
                return tuple(a.shape), str(a.dtype)
    except Exception:   # noqa: BLE001 - an audit of arbitrary arguments: an odd one is simply not described
        pass
    return None, None


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."


class _Recorder:
    def __init__(self, path: str) -> None:
        self.f = open(path, "a")   # noqa: SIM115 - closed at session end

    def write(self, rec: dict[str, Any]) -> None:
        self.f.write(json.dumps(rec) + "\n")


def _wrap_layers(rec: _Recorder) -> None:
    import importlib
    import pkgutil

    import simdist.keras.layers.preprocessing.image as pkg
    from simdist.keras.layers import rescaling
    from simdist.keras.layers.preprocessing import pipeline
    from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
    classes: set[type] = set()
    mods = [importlib.import_module(f"{pkg.__name__}.{m.name}") for m in pkgutil.iter_modules(pkg.__path__)]
    for mod in mods + [rescaling, pipeline]:
        for name, obj in sorted(vars(mod).items()):
            if inspect.isclass(obj) and obj.__module__ == mod.__name__ and not name.startswith("_") and (
                    issubclass(obj, BaseImagePreprocessingLayer) or mod in (rescaling, pipeline)):
                classes.add(obj)
    for cls in sorted(classes, key=lambda c: c.__name__):
        init, call = cls.__dict__.get("__init__"), cls.__dict__.get("call")
        if init is not None:
            def new_init(self: Any, *a: Any, __init: Any = init, **k: Any) -> None:
                if "_degen_opts" not in self.__dict__:   # the outermost __init__: the user's arguments
                    self.__dict__["_degen_opts"] = {f"arg{i}": _short(v) for i, v in enumerate(a)} | {
                        kk: _short(vv) for kk, vv in k.items()}
                __init(self, *a, **k)
            cls.__init__ = functools.wraps(init)(new_init)
        if call is not None:
            def new_call(self: Any, data: Any, *a: Any, __call: Any = call, **k: Any) -> Any:
                if self.__dict__.get("_degen_in_call"):
                    return __call(self, data, *a, **k)
                shp, dt = _describe(data)
                rec.write({"api": f"keras.layers.{type(self).__name__}", "shape": shp, "dtype": dt,
                           "dict": isinstance(data, dict), "data_format": getattr(self, "data_format", None),
                           "opts": self.__dict__.get("_degen_opts", {})})
                self.__dict__["_degen_in_call"] = True
                try:
                    return __call(self, data, *a, **k)
                finally:
                    self.__dict__["_degen_in_call"] = False
            cls.call = functools.wraps(call)(new_call)


def _wrap_tf_image(rec: _Recorder) -> None:
    import simdist.tf.image as image
    for name in sorted(vars(image)):
        fn = getattr(image, name)
        if name.startswith("_") or not inspect.isfunction(fn):
            continue
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            params = []

        def wrapped(*a: Any, __fn: Any = fn, __name: str = name, __params: list[str] = params, **k: Any) -> Any:
            shp, dt = _describe(a[0]) if a else _describe(next(iter(k.values()), None))
            opts = {__params[i] if i < len(__params) else f"arg{i}": _short(v) for i, v in enumerate(a[1:], 1)
                    if _describe(v)[0] is None} | {kk: _short(vv) for kk, vv in k.items() if _describe(vv)[0] is None}
            rec.write({"api": f"tf.image.{__name}", "shape": shp, "dtype": dt, "dict": False,
                       "data_format": "channels_last", "opts": opts})
            return __fn(*a, **k)
        setattr(image, name, functools.wraps(fn)(wrapped))


def pytest_configure(config: Any) -> None:   # the plugin half: active when DEGEN22A_AUDIT names a file
    path = os.environ.get("DEGEN22A_AUDIT")
    if path:
        rec = _Recorder(path)
        _wrap_layers(rec)
        _wrap_tf_image(rec)


def summarize(path: str) -> list[dict[str, Any]]:
    """Per API: the calls' flags and the degenerate points they sit on."""
    by: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            by[r["api"]].append(r)
    rows = []
    for api in sorted(by):
        calls = by[api]
        shapes = [c for c in calls if c["shape"] and len(c["shape"]) in (3, 4)]
        hw = []
        for c in shapes:
            s = c["shape"]
            cf = c["data_format"] == "channels_first"
            h, w = (s[-2], s[-1]) if cf else (s[-3], s[-2])
            hw.append((h, w))
        points = []
        if shapes:
            if all(h == w for h, w in hw):
                points.append("square only")
            if all(h % 2 == 0 and w % 2 == 0 for h, w in hw if h > 0 and w > 0):
                points.append("even H/W only")
            if not any(c["data_format"] == "channels_first" for c in shapes) and api.startswith("keras"):
                points.append("channels_last only")
            if not any(c["dtype"] and c["dtype"].startswith(_INT) for c in shapes):
                points.append("float only")
            if not any(len(c["shape"]) == 3 for c in shapes):
                points.append("never unbatched")
            if not any(len(c["shape"]) == 4 for c in shapes):
                points.append("never batched")
            elif all(c["shape"][0] <= 2 for c in shapes if len(c["shape"]) == 4):
                points.append("batch <= 2 only")
        opts: dict[str, set[str]] = collections.defaultdict(set)
        for c in calls:
            for k, v in c["opts"].items():
                opts[k].add(v)
        rows.append({"api": api, "calls": len(calls), "shapes": sorted({tuple(c["shape"]) for c in shapes})[:6],
                     "dtypes": sorted({c["dtype"] for c in shapes if c["dtype"]}), "points": points,
                     "opts": {k: sorted(v)[:4] for k, v in sorted(opts.items())}})
    return rows


def main(files: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="degen22a") as d:
        out = str(Path(d) / "calls.jsonl")
        env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'benchmarks'}", DEGEN22A_AUDIT=out)
        env.pop("SIMDIST_CONFORMANCE_BACKEND", None)
        subprocess.run([sys.executable, "-m", "pytest", *[SUITE + f for f in files], "-q", "-p",
                        "simdist.conformance.plugin", "--backend", "simdist", "-p", "degen22a_audit",
                        "-p", "no:cacheprovider", "-W", "ignore", "--hypothesis-seed", "0"],
                       cwd=ROOT, env=env, check=False)
        for r in summarize(out):
            print(f"{r['api']}: {r['calls']} calls; shapes {r['shapes']}; dtypes {r['dtypes']}; "
                  f"DEGENERATE: {', '.join(r['points']) or '-'}; options set: {r['opts']}")


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT_FILES)

"""tf.compat's Python helpers against TF 2.21 (clause api.namespaces; simdist/tf/_compat_utils.py, a
transcription of tensorflow/python/util/compat.py, python/compat/compat.py and tensor_shape.py's
dimension_value / dimension_at_index): as_bytes/as_text/as_str/as_str_any/path_to_str with their
encodings and errors, the type tuples, dimension_value and dimension_at_index, forward_compatible and
forward_compatibility_horizon against TF 2.21's horizon (2026-01-16), and compat.v2 being the TF 2 API.
Each call: ok with its value (repr), or the error's class."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _attempt(f: Any) -> Any:
    try:
        return ["ok", repr(f())]
    except Exception as e:  # noqa: BLE001 - the class is the observable
        return ["error", type(e).__name__]


def program(tf: Any, case: dict, workdir: str) -> Any:
    c = tf.compat
    out: dict[str, Any] = {}
    part = case["part"]
    if part == "strings":
        values = ["héllo", b"h\xc3\xa9", bytearray(b"ab"), 3, None, pathlib.PurePosixPath("a/./b/../c"), ["x"],
                  b"\xff", "日本"]
        for i, v in enumerate(values):
            for fn in ("as_bytes", "as_text", "as_str", "as_str_any", "path_to_str"):
                out[f"{fn}({v!r})"] = _attempt(lambda: getattr(c, fn)(v))
            for enc in ("latin-1", "ascii", "UTF8", "no-such-codec"):
                for fn in ("as_bytes", "as_text", "as_str_any"):
                    out[f"{fn}({v!r}, {enc})"] = _attempt(lambda: getattr(c, fn)(v, encoding=enc))
        return out
    if part == "types":
        import numbers

        import numpy as np
        for name in ("integral_types", "real_types", "complex_types", "bytes_or_text_types"):
            out[name] = _attempt(lambda: [t.__name__ for t in getattr(c, name)])
            for j, v in enumerate([3, True, 2.5, np.int8(1), np.float16(1), 1j, np.complex64(1), b"a", "a",
                                   numbers.Number]):
                out[f"{name} {j}"] = _attempt(lambda: isinstance(v, getattr(c, name)))
        return out
    if part == "dimensions":
        D = tf.compat.v1.Dimension
        for k, v in {"int": 5, "None": None, "Dimension(3)": D(3), "Dimension(None)": D(None),
                     "TensorShape([2, None])[1]": tf.TensorShape([2, None])[1], "str": "x", "float": 2.5}.items():
            out[f"dimension_value({k})"] = _attempt(lambda: c.dimension_value(v))
        for k, (s, i) in {"[2, None] 0": ([2, None], 0), "[2, None] 1": ([2, None], 1), "[2, None] -1": ([2, None], -1),
                          "[2, None] 5": ([2, None], 5), "unknown rank 3": (None, 3), "[] 0": ([], 0)}.items():
            out[f"dimension_at_index({k})"] = _attempt(lambda: c.dimension_at_index(tf.TensorShape(s), i))
            out[f"dimension_at_index({k}).value"] = _attempt(lambda: c.dimension_at_index(tf.TensorShape(s), i).value)
        out["dimension_at_index(list)"] = _attempt(lambda: c.dimension_at_index([2, 3], 0))
        return out
    if part == "forward":
        dates = [(2026, 1, 15), (2026, 1, 16), (2026, 1, 17), (2025, 12, 31), (2030, 6, 1)]
        for d in dates:
            out[f"forward_compatible{d}"] = _attempt(lambda: c.forward_compatible(*d))
        for h in [(2030, 1, 1), (2026, 1, 17), (2020, 1, 1)]:
            with c.forward_compatibility_horizon(*h):
                for d in dates:
                    out[f"within {h}: forward_compatible{d}"] = _attempt(lambda: c.forward_compatible(*d))
        for d in dates:
            out[f"after: forward_compatible{d}"] = _attempt(lambda: c.forward_compatible(*d))
        out["horizon bad month"] = _attempt(lambda: c.forward_compatibility_horizon(2030, 13, 1).__enter__())
        out["compat.v2 names"] = _attempt(lambda: all(getattr(c.v2, n) is getattr(tf, n) for n in
                                                      ("reduce_sum", "constant", "function", "Variable", "GradientTape")))
        out["compat.v2.math.add"] = _attempt(lambda: c.v2.math.add(1, 2).numpy())
        out["compat.v2.compat.v1.Dimension"] = _attempt(lambda: c.v2.compat.v1.Dimension is tf.compat.v1.Dimension)
        return out
    raise ValueError(part)


NAMES = ["strings", "types", "dimensions", "forward"]
CASES: dict[str, dict] = {n: {"strategy": "default", "part": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_compat_helpers_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's calls {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, f"{name}: " + "; ".join(f"{k}: simdist gives {got[k]}, TF 2.21 gives {want[k]}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

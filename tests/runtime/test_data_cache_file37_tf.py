"""`Dataset.cache(filename)` on simdist vs TF 2.21 (clause dataset.save-load): the files a first iteration holds (the
lockfile, the temporary data file) and a complete one leaves (the index and the data file; an empty pass the index
alone), a second iterator meeting the lockfile (AlreadyExistsError), a cache read back by another pipeline of the same
prefix (its input never consulted), repeat reading the cache, an iterator dropped before the end discarding its
files, a missing directory (NotFoundError), structured, string and float elements. Each case runs in its own
temporary directory; listings are relative to it. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import tempfile
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _listing(root: str) -> list[str]:
    return sorted(re.sub(r"\.tempstate\d+$", ".tempstate", f) for f in os.listdir(root))


def _in_dir(body: Callable[[Any, str], Any]) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        root = tempfile.mkdtemp()
        try:
            return body(tf, root)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return f


def _error_class(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the result (the message holds the temporary path)
        return ("raised", type(e).__name__)


def _lifecycle(tf: Any, root: str) -> Any:
    ds = tf.data.Dataset.range(5).map(lambda x: x * 10).cache(os.path.join(root, "c"))
    it = iter(ds)
    out: list[Any] = [next(it), _listing(root)]
    it2 = iter(ds)
    out.append(_error_class(lambda: next(it2)))
    out += [list(it), _listing(root)]
    del it, it2
    gc.collect()
    out.append(list(tf.data.Dataset.range(3).cache(os.path.join(root, "c"))))
    out.append(list(ds.repeat(2)))
    return out


def _partial(tf: Any, root: str) -> Any:
    ds = tf.data.Dataset.range(5).cache(os.path.join(root, "d"))
    it = iter(ds)
    out: list[Any] = [next(it), next(it), _listing(root)]
    del it
    gc.collect()
    out.append(_listing(root))
    out += [list(ds), _listing(root)]
    return out


CASES: dict[str, Callable[[Any], Any]] = {
    "lifecycle": _in_dir(_lifecycle),
    "partial": _in_dir(_partial),
    "missing_directory": _in_dir(lambda tf, root: _error_class(
        lambda: list(tf.data.Dataset.range(2).cache(os.path.join(root, "nodir", "x"))))),
    "structure": _in_dir(lambda tf, root: [list(tf.data.Dataset.from_tensor_slices(
        ({"k": [1, 2]}, ["x", "yz"])).cache(os.path.join(root, "s"))) for _ in range(2)] + [_listing(root)]),
    "floats_repeat": _in_dir(lambda tf, root: list(tf.data.Dataset.from_tensor_slices(
        [[1.5, 2.0], [3.0, -1.0]]).cache(os.path.join(root, "f")).repeat(2))),
    "empty": _in_dir(lambda tf, root: [list(tf.data.Dataset.range(0).cache(os.path.join(root, "e"))),
                                       _listing(root)]),
    "then_map": _in_dir(lambda tf, root: list(tf.data.Dataset.range(3).cache(os.path.join(root, "g")).map(
        lambda v: v + 1))),
}
LABELS = sorted(CASES)
_NO_NAMES = re.compile(r"(?!)(x)")   # (no auto-named objects; one group for case_results' substitution)


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _NO_NAMES)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


@pytest.mark.clause("dataset.save-load")
def test_file_cache_matches_tf(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = [d for i, lab in enumerate(LABELS) if (d := case_results.diff(_run(tf, lab), tf_results[i], lab))]
    assert not bad, f"{len(bad)} of {len(LABELS)} cases differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)

"""Every namespace of `from simdist import tf` lists exactly names TF 2.21 has at that path (clause
api.namespaces): no implementation module, typing name or helper leaks into `dir()`, and `dir()` omits
no TF name the namespace has. TF's names are recorded in tests/tf_namespace_names.json
(scripts/make_namespace_names.py); the comparison runs without TF."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Iterator

import pytest

import tf_workers

ROOT = Path(__file__).resolve().parents[1]
RECORD = json.loads((ROOT / "tests" / "tf_namespace_names.json").read_text())["namespaces"]
clause = pytest.mark.clause


def _namespaces() -> Iterator[tuple[str, Any]]:
    """(path, namespace) for the facade's namespaces at the recorded paths, reached by public names."""
    from simdist import tf
    todo, seen = [("tf", tf)], set()
    while todo:
        path, ns = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        yield path, ns
        for n in sorted(x for x in dir(ns) if not x.startswith("_")):
            v = getattr(ns, n, None)
            if isinstance(v, (types.ModuleType, types.SimpleNamespace)) and f"{path}.{n}" in RECORD:
                todo.append((f"{path}.{n}", v))


@pytest.mark.tf
@pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs real TensorFlow 2.21")
@clause("api.namespaces")
def test_recorded_names_are_current() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_namespace_names.py"), "--check"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, f"tests/tf_namespace_names.json is not what TF gives: {r.stderr[-500:]}"


@clause("api.namespaces")
def test_dir_lists_only_tf_names() -> None:
    leaks = {}
    for path, ns in _namespaces():
        extra = [n for n in dir(ns) if not n.startswith("_") and n not in RECORD[path]]
        if extra:
            leaks[path] = extra
    assert not leaks, f"dir() lists names TF 2.21 does not have at that path: {leaks}, but should list none"


@clause("api.namespaces")
def test_dir_lists_every_tf_name_the_namespace_has() -> None:
    hidden = {}
    for path, ns in _namespaces():
        if path == "tf.raw_ops":   # (its functions are made on access; its own test lists them: clause ops.raw-ops)
            continue
        listed = set(dir(ns))
        missing = [n for n in RECORD[path] if n not in listed and hasattr(ns, n)]
        if missing:
            hidden[path] = missing
    assert not hidden, f"names the namespace has but dir() does not list: {hidden}, but dir() should list them"


@clause("api.namespaces")
def test_leaked_implementation_names_are_gone() -> None:
    """The names issue 29's sweep found (modules, typing names, helpers) are no attributes any more
    where they are no TF name (the Keras packages' submodules stay attributes, unlisted)."""
    from simdist import tf
    for path, name in [("tf", "annotations"), ("tf", "compat_v1_ops"), ("tf", "math_special"), ("tf.io", "os"),
                       ("tf.io", "exists"), ("tf.debugging", "np"), ("tf.debugging", "convert_to_tensor"),
                       ("tf.data", "DatasetV2"), ("tf.data", "OwnedIterator"), ("tf.compat", "ConfigProto"),
                       ("tf.compat", "MirroredStrategy"), ("tf.nest", "Any"), ("tf.ragged", "RaggedTensor"),
                       ("tf.distribute", "get_cross_replica_context"), ("tf.lookup", "MutableHashTable")]:
        ns = tf
        for part in path.split(".")[1:]:
            ns = getattr(ns, part)
        assert name not in RECORD[path], f"{path}.{name} is a TF 2.21 name; this test's list is wrong"
        assert not hasattr(ns, name), f"{path}.{name} exists, but should not (TF 2.21 has no such name)"

"""tf.compat.v1's names that TF 2.21 binds to its TF2 objects (clause api.namespaces): the record
(simdist/tf/compat_v1_aliases.json, scripts/make_compat_v1_aliases.py) is what TF gives, each such v1 name is
simdist's TF2 object at that path (the identity TF has), and a v1 namespace's own v1 forms are not replaced."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tf_workers

ROOT = Path(__file__).resolve().parents[1]
TABLE = json.loads((ROOT / "simdist" / "tf" / "compat_v1_aliases.json").read_text())["namespaces"]


@pytest.mark.tf
@pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs real TensorFlow 2.21")
@pytest.mark.clause("api.namespaces")
def test_recorded_aliases_are_current() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_compat_v1_aliases.py"), "--check"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, f"simdist/tf/compat_v1_aliases.json is not what TF gives: {r.stdout[-300:]}"


def _facade(path: str) -> object:
    from simdist import tf
    obj: object = tf
    for part in path.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


@pytest.mark.clause("api.namespaces")
def test_each_v1_alias_is_simdists_tf2_object() -> None:
    """For every recorded alias whose TF2 object simdist has, tf.compat.v1.<ns>.<name> is that object; a v1 name
    whose TF2 object simdist lacks is absent (AttributeError), not some other object."""
    from simdist import tf
    wrong, resolved = [], 0
    for ns_name, aliases in TABLE.items():
        ns = tf.compat.v1 if not ns_name else getattr(tf.compat.v1, ns_name, None)
        for name, paths in aliases.items():
            want = next((o for o in map(_facade, paths) if o is not None), None)
            own = ns is not None and name in vars(ns)
            got = getattr(ns, name, None) if ns is not None else None
            if want is None:
                if got is not None and not own:
                    wrong.append(f"tf.compat.v1.{ns_name + '.' if ns_name else ''}{name}: present, but simdist "
                                 f"has none of {paths}")
                continue
            resolved += 1
            if got is not want and not own:
                wrong.append(f"tf.compat.v1.{ns_name + '.' if ns_name else ''}{name} is {got!r}, but should be "
                             f"simdist's {paths[0]}")
    assert not wrong, f"{len(wrong)} v1 names are not their TF2 objects:\n" + "\n".join(wrong[:20])
    assert resolved > 500, f"only {resolved} of TF's v1 aliases resolve in simdist's facade, expected over 500"


@pytest.mark.clause("api.namespaces")
def test_v1_namespaces_keep_their_own_forms() -> None:
    """The v1 forms simdist implements (TF's v1 objects differ from the TF2 ones) come before any alias."""
    from simdist import tf
    from simdist.tf import _compat_v1_debugging, _compat_v1_ops
    v1 = tf.compat.v1
    checks = {"where": (v1.where, _compat_v1_ops.where), "assert_equal": (v1.assert_equal,
              _compat_v1_debugging.ASSERTS["assert_equal"]), "nn.max_pool": (v1.nn.max_pool, _compat_v1_ops.max_pool),
              "debugging.assert_scalar": (v1.debugging.assert_scalar, _compat_v1_debugging.assert_scalar)}
    bad = [f"tf.compat.v1.{k} is {got!r}, but should be simdist's v1 form {want!r}"
           for k, (got, want) in checks.items() if got is not want]
    assert not bad, "\n".join(bad)
    assert v1.add in (tf.add, tf.math.add) and v1.nn.relu is tf.nn.relu, \
        "tf.compat.v1.add / tf.compat.v1.nn.relu are not the TF2 objects"

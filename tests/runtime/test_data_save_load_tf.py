"""Dataset.save directories cross between TF 2.21 and simdist (clause dataset.save-load): a directory
saved by TF loads in simdist and one saved by simdist loads in TF, with the same element spec (dict
keys compared sorted: TF's protobuf map order is its own), cardinality and values; the shard files
and dataset_spec.pb of non-dict specs are equal byte for byte. Needs the `tf` extra."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytestmark = pytest.mark.tf

real_tf = pytest.importorskip("tensorflow")

from simdist import tf as sim_tf  # noqa: E402


def _cases(tf):
    D = tf.data.Dataset
    return {
        "range": (lambda: D.range(5), {}),
        "tuple_str": (lambda: D.range(4).map(lambda x: (x, tf.strings.as_string(x))), {}),
        "dict": (lambda: D.from_tensors({"s": tf.constant([b"ab", b"c"]), "f": tf.ones([2, 3]),
                                         "b": tf.constant([True, False]), "u": tf.constant([1, 2], tf.uint8)}).repeat(2),
                 {}),
        "none_dim": (lambda: D.range(5).batch(2), {}),
        "gzip": (lambda: D.range(6).map(lambda x: tf.cast(x, tf.float32) / 4), {"compression": "GZIP"}),
        "zlib": (lambda: D.range(3).map(lambda x: tf.cast(x, tf.float64) * 1.5), {"compression": "ZLIB"}),
        "shards": (lambda: D.range(9), {"shard_func": lambda x: x % 3}),
        "filtered": (lambda: D.range(9).filter(lambda x: x % 2 == 0), {}),
        "empty": (lambda: D.range(0), {}),
    }


def _spec(spec) -> str:
    if isinstance(spec, dict):
        return "{" + ", ".join(f"{k!r}: {_spec(v)}" for k, v in sorted(spec.items())) + "}"
    if isinstance(spec, (tuple, list)):
        return "(" + ", ".join(_spec(s) for s in spec) + ")"
    return f"{spec.dtype.name}{spec.shape.as_list() if spec.shape.rank is not None else None}"


def _show(ds) -> tuple:
    out = []
    for x in ds.as_numpy_iterator():
        if isinstance(x, dict):
            out.append({k: np.asarray(v).tolist() for k, v in sorted(x.items())})
        elif isinstance(x, (tuple, list)):
            out.append([np.asarray(v).tolist() for v in x])
        else:
            out.append(np.asarray(x).tolist())
    return _spec(ds.element_spec), int(ds.cardinality()), out


@pytest.mark.parametrize("case", sorted(_cases(real_tf)))
def test_saved_directories_cross_both_ways(tmp_path, case):
    results = {}
    for writer, wname in ((real_tf, "tf"), (sim_tf, "simdist")):
        make, kw = _cases(writer)[case]
        path = os.path.join(tmp_path, wname)
        make().save(path, **kw)
        for reader, rname in ((real_tf, "tf"), (sim_tf, "simdist")):
            results[(wname, rname)] = _show(reader.data.Dataset.load(path, compression=kw.get("compression")))
    want = results[("tf", "tf")]
    for (wname, rname), got in results.items():
        assert got == want, f"(spec, cardinality, values)={got!r}, but should be {want!r} [{case}: {wname} saves, " \
                            f"{rname} loads]"


def _files(root: str) -> dict[str, bytes]:
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), root)
            if n.endswith(".snapshot"):   # (under the run id, which differs)
                rel = os.path.join(*rel.split(os.sep)[1:])
            elif n != "dataset_spec.pb":
                continue
            out[rel] = open(os.path.join(d, n), "rb").read()
    return out


@pytest.mark.parametrize("case", ["range", "tuple_str", "none_dim", "shards", "filtered", "empty"])
def test_uncompressed_shard_files_bytes_equal(tmp_path, case):
    files = {}
    for writer, wname in ((real_tf, "tf"), (sim_tf, "simdist")):
        make, kw = _cases(writer)[case]
        make().save(os.path.join(tmp_path, wname), **kw)
        files[wname] = _files(os.path.join(tmp_path, wname))
    assert sorted(files["simdist"]) == sorted(files["tf"]), \
        f"files={sorted(files['simdist'])}, but should be {sorted(files['tf'])} [{case}]"
    for name, want in files["tf"].items():
        got = files["simdist"][name]
        assert got == want, f"{name}={got[:48]!r}..., but should be TF's {want[:48]!r}... [{case}]"

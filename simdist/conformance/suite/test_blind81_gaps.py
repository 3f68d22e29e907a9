"""The classes around the eighty-first blind batch's mutants (tests/mutants.py TRAINING_BATCH81) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant, and a disagreement the batch's
probes found (dataset.api-surface).

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind81_gaps --record`, which rewrites blind81_reference.json.gz;
MirroredStrategy over two logical CPUs). Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on
(recorded_programs.avx512_with_onednn): the programs whose values follow the CPU (prefix `kernel-`: oneDNN's kernels'
summation orders and its threads' splits) run on simdist elsewhere under its reference model of such a host. Floats
are compared by their bits."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind81_reference.json.gz")

#: programs whose TF 2.21 values follow the CPU (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu,
                       replicas=2)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- tf.data ---------------------------------------------------------------------------------------------------------
def _int64_arguments(tf: Any, mk: Any) -> Any:
    """The dataset methods' integer scalar arguments given as Python ints, NumPy integers and tensors of int64, int32,
    int16, uint8, uint64, bool and float32, and as a Python float, eagerly, inside a flat_map function (the element's
    dtype) and inside a tf.function: the first elements or the error's class (clause dataset.api-surface)."""
    ds = tf.data.Dataset.range(7)

    def first(d: Any) -> Any:
        return [np.asarray(e).tolist() for e in d.take(4)]
    methods = {
        "range": lambda v: tf.data.Dataset.range(v),
        "range start": lambda v: tf.data.Dataset.range(v, 5),
        "range step": lambda v: tf.data.Dataset.range(0, 6, v),
        "take": lambda v: ds.take(v), "skip": lambda v: ds.skip(v), "repeat": lambda v: ds.repeat(v),
        "batch": lambda v: ds.batch(v), "padded_batch": lambda v: ds.padded_batch(v),
        "shard num": lambda v: ds.shard(v, 0), "shard index": lambda v: ds.shard(3, v),
        "prefetch": lambda v: ds.prefetch(v), "shuffle buffer": lambda v: ds.shuffle(v, seed=3),
        "shuffle seed": lambda v: ds.shuffle(4, seed=v), "enumerate": lambda v: ds.enumerate(v),
    }
    values = {"int": lambda: 2, "np.int32": lambda: np.int32(2), "np.int64": lambda: np.int64(2),
              "int64": lambda: tf.constant(2, tf.int64), "int32": lambda: tf.constant(2),
              "int16": lambda: tf.constant(2, tf.int16), "uint8": lambda: tf.constant(2, tf.uint8),
              "uint64": lambda: tf.constant(2, tf.uint64), "bool": lambda: tf.constant(True),
              "float32": lambda: tf.constant(2.0), "float": lambda: 2.0}
    out = {}
    for mname, m in methods.items():
        for vname, v in values.items():
            out[f"{mname} {vname}"] = _error(lambda m=m, v=v: first(m(v())))
    for dt in ("int32", "int64", "uint8", "float32"):
        elems = tf.constant([2, 0, 3], getattr(tf, dt))
        out[f"flat_map range {dt}"] = _error(lambda e=elems: [int(x) for x in tf.data.Dataset.from_tensor_slices(e)
                                                             .flat_map(lambda x: tf.data.Dataset.range(x))])
        out[f"flat_map take {dt}"] = _error(lambda e=elems: [int(x) for x in tf.data.Dataset.from_tensor_slices(e)
                                                            .flat_map(lambda x: ds.take(x))])
        out[f"function range {dt}"] = _error(lambda d=dt: int(tf.function(
            lambda n: tf.data.Dataset.range(n).reduce(np.int64(0), lambda s, x: s + x))(tf.constant(4, getattr(tf, d)))))
    return out


_program("data-int64-arguments", _int64_arguments)


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", _ids("data-"))
def test_blind81_data(backend: Any, name: str) -> None:
    """tf.data's arguments, element specs and iteration: values or error classes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()

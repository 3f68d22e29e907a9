"""`keras.utils.audio_dataset_from_directory` on simdist vs TF 2.21 + Keras 3.15: a directory of 16-bit mono
.wav clips of different lengths in three classes, read unshuffled and shuffled with a seed (file order and
tf.data's shuffle buffer), batched by padded_batch (clips padded to the batch's longest), cut or padded to
output_sequence_length, ragged, without labels, with categorical and binary labels, explicit labels, split
into training/validation/both, and the argument errors (ragged with a length, sampling_rate, labels,
class_names, binary with three classes, an empty directory). Values, dtypes, shapes, class_names and error
classes/messages must be TF's. Clause keras.dataset-from-directory. Its golden (tests/goldens/) is stamped
with this file.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import wave
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# (class, file, samples): deterministic 16-bit PCM clips of different lengths
CLIPS = [("bird", "a.wav", 5), ("bird", "b.wav", 3), ("cat", "c.wav", 4), ("cat", "d.wav", 6),
         ("dog", "e.wav", 2), ("dog", "f.wav", 5), ("dog", "g.wav", 3)]


def _write_tree() -> str:
    root = tempfile.mkdtemp(prefix="audio23_")
    for k, (cls, name, n) in enumerate(CLIPS):
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        samples = ((np.arange(n) * 3000 + k * 1000) % 60000 - 30000).astype("<i2")
        with wave.open(os.path.join(root, cls, name), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(8000)
            w.writeframes(samples.tobytes())
    with open(os.path.join(root, "dog", "notes.txt"), "w") as f:   # not a .wav: ignored
        f.write("x")
    return root


def _read(ds: Any) -> Any:
    out = [list(ds.as_numpy_iterator())]
    names = getattr(ds, "class_names", None)
    return out + [names]


def _case(subset_both: bool = False, **kw: Any) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        root = _write_tree()
        ds = tf.keras.utils.audio_dataset_from_directory(root, verbose=False, **kw)
        if subset_both:
            return [_read(d) for d in ds]
        return _read(ds)
    return case


def _ragged_case(tf: Any) -> Any:
    root = _write_tree()
    ds = tf.keras.utils.audio_dataset_from_directory(root, ragged=True, shuffle=False, batch_size=3, verbose=False)
    return [(type(x).__name__, x.to_list(), y) for x, y in ds]


def _empty_case(tf: Any) -> Any:
    return tf.keras.utils.audio_dataset_from_directory(tempfile.mkdtemp(prefix="audio23_empty_"), verbose=False)


def _printing(case: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The case's result and what it printed (Keras prints the split's file counts whatever `verbose` says;
    the TF worker's stdout carries its answers, so nothing else may reach it)."""
    def run(tf: Any) -> Any:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                result = case(tf)
            except Exception as e:  # noqa: BLE001 - the error is the result, with the output before it
                result = ("raised", type(e).__name__, str(e))
        return result, _AUTO_NAME.sub("", out.getvalue())
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    c["read/unshuffled padded"] = _case(shuffle=False, batch_size=3)
    c["read/unbatched"] = _case(shuffle=False, batch_size=None)
    c["read/shuffled seed 4"] = _case(shuffle=True, seed=4, batch_size=2)
    c["read/length 4"] = _case(shuffle=False, batch_size=4, output_sequence_length=4)
    c["read/no labels"] = _case(shuffle=False, labels=None, batch_size=7)
    c["read/categorical"] = _case(shuffle=False, label_mode="categorical", batch_size=7)
    c["read/explicit labels"] = _case(shuffle=False, labels=[1, 0, 1, 0, 1, 0, 1], label_mode="binary", batch_size=7)
    c["read/class_names"] = _case(shuffle=False, class_names=["dog", "cat", "bird"], batch_size=7)
    c["split/training"] = _case(shuffle=True, seed=1, validation_split=0.3, subset="training", batch_size=10)
    c["split/validation"] = _case(shuffle=True, seed=1, validation_split=0.3, subset="validation", batch_size=10)
    c["split/both"] = _case(subset_both=True, shuffle=True, seed=2, validation_split=0.4, subset="both", batch_size=10)
    c["read/ragged"] = _ragged_case
    c["errors/ragged and length"] = _case(ragged=True, output_sequence_length=3)
    c["errors/sampling_rate float"] = _case(sampling_rate=8000.0)
    c["errors/sampling_rate 0"] = _case(sampling_rate=0)
    c["errors/sampling_rate without tensorflow-io"] = _case(sampling_rate=8000)
    c["errors/labels string"] = _case(labels="bad")
    c["errors/class_names with labels"] = _case(labels=[0] * 7, class_names=["a"])
    c["errors/label_mode"] = _case(label_mode="sparse")
    c["errors/binary with three classes"] = _case(label_mode="binary")
    c["errors/empty directory"] = _empty_case
    c["errors/split without seed"] = _case(shuffle=True, validation_split=0.3, subset="training")
    return {k: _printing(v) for k, v in c.items()}


_AUTO_NAME = re.compile(r"/[^\s'\"]*audio23_[A-Za-z0-9_]+()")   # (temporary directories: dropped from messages)
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.dataset-from-directory")
@pytest.mark.parametrize("prefix", ["read/", "split/", "errors/"])
def test_audio_dataset_from_directory_matches_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

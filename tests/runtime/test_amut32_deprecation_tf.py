"""Deprecation notices against TF 2.21: tf.config's deprecated aliases (clause function.run-eagerly) and
tf.data.experimental's deprecated forms (clause dataset.experimental-extras). TF's
`experimental_run_functions_eagerly` and `experimental_functions_run_eagerly` carry deprecation.py's
`@deprecated`, which raises no Python warning and logs, on each function's first call in the process, WARNING on
the "tensorflow" logger "From FILE:LINE: NAME (from MODULE) is deprecated and will be removed in a future
version.\\nInstructions for updating:\\n...", FILE:LINE the caller's; simdist warned DeprecationWarning at every
call instead, and nothing for the tf.data forms (scan, take_while, unique, group_by_window,
bucket_by_sequence_length, Counter, RandomDataset, enumerate_dataset, unbatch, shuffle_and_repeat, map_and_batch,
get_next_as_optional, parallel_interleave: each logs its own notice). Seen probing the seed-9 mutation sweep's
survivor at tf/config.py:38 (docs/conformance.md, thirty-second session). Each case runs its program in a fresh
interpreter (the notice is once per process)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_PROGRAM = '''
import json, logging, warnings
{imp}
rec = []
class H(logging.Handler):
    def emit(self, r):
        rec.append([r.levelname, r.name, r.getMessage()])
logging.getLogger("tensorflow").addHandler(H())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
{body}
print(json.dumps({{"logs": rec, "warnings": [[str(w.message), w.category.__name__] for w in caught
                                             if "deprecat" in str(w.message).lower()], "values": values}}))
'''


def _fresh(body: str):
    def case(tf: Any) -> Any:
        imp = "import tensorflow as tf" if tf.__name__ == "tensorflow" else "from simdist import tf"
        prog = _PROGRAM.format(imp=imp, body="\n".join("    " + line for line in body.strip().splitlines()))
        out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=300,
                             env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
        if out.returncode != 0:
            raise RuntimeError(out.stderr[-2000:])
        return out.stdout.strip().splitlines()[-1]
    return case


def _cases() -> dict[str, Any]:
    return {
        "notice/read twice, set twice": _fresh(
            "values = [tf.config.experimental_functions_run_eagerly()]\n"
            "tf.config.experimental_run_functions_eagerly(True)\n"
            "values.append(tf.config.experimental_functions_run_eagerly())\n"
            "tf.config.experimental_run_functions_eagerly(False)\n"
            "values.append(tf.config.functions_run_eagerly())"),
        "notice/set only": _fresh(
            "tf.config.experimental_run_functions_eagerly(1)\n"
            "values = [tf.config.functions_run_eagerly()]"),
        "notice/tf.data experimental forms, each twice": _fresh(_DATA_FORMS),
        # (blind35: the experimental sample/choose_from_datasets log interleave_ops' notices; choose's default
        # stop_on_empty_dataset=False skips the exhausted range(2), where the method's True stops: clause
        # dataset.sample-choose)
        "notice/tf.data sample_from_datasets and choose_from_datasets, each twice": _fresh(_SAMPLE_CHOOSE),
    }


_DATA_FORMS = """
E, R = tf.data.experimental, tf.data.Dataset.range
calls = [lambda: R(3).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s))),
         lambda: R(3).apply(E.take_while(lambda x: x < 2)),
         lambda: R(3).apply(E.unique()),
         lambda: R(4).apply(E.group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), 2)),
         lambda: tf.data.Dataset.from_tensors([1]).apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [1, 1])),
         lambda: E.Counter(),
         lambda: E.RandomDataset(1),
         lambda: R(3).apply(E.enumerate_dataset()),
         lambda: R(4).batch(2).apply(E.unbatch()),
         lambda: R(3).apply(E.shuffle_and_repeat(3, 1, seed=1)),
         lambda: R(3).apply(E.map_and_batch(lambda x: x, 2)),
         lambda: E.get_next_as_optional(iter(R(2))),
         lambda: R(2).apply(E.parallel_interleave(lambda x: R(2), 2))]
for f in calls:
    f()
    f()
values = len(calls)
"""

_SAMPLE_CHOOSE = """
E, R = tf.data.experimental, tf.data.Dataset.range
choices = lambda: tf.data.Dataset.from_tensor_slices(tf.constant([0, 0, 0, 1], tf.int64))
values = []
for _ in range(2):
    values.append([int(v) for v in E.sample_from_datasets([R(2), R(10, 12)], weights=[0.0, 1.0], seed=1)])
    values.append([int(v) for v in E.choose_from_datasets([R(2), R(10, 12)], choices())])
values.append([int(v) for v in tf.data.Dataset.choose_from_datasets([R(2), R(10, 12)], choices())])
"""


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.run-eagerly")
def test_deprecated_run_eagerly_aliases_log_tf_notice_once(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("notice/") and "tf.data" not in lab)


@pytest.mark.clause("dataset.experimental-extras")
def test_deprecated_data_forms_log_tf_notice_once(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("notice/tf.data"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

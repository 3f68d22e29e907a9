"""tf.config's deprecated aliases against TF 2.21 (clause function.run-eagerly): TF's
`experimental_run_functions_eagerly` and `experimental_functions_run_eagerly` carry deprecation.py's
`@deprecated`, which raises no Python warning and logs, on each function's first call in the process, WARNING on
the "tensorflow" logger "From FILE:LINE: NAME (from MODULE) is deprecated and will be removed in a future
version.\\nInstructions for updating:\\n...", FILE:LINE the caller's; simdist warned DeprecationWarning at every
call instead. Seen probing the seed-9 mutation sweep's survivor at tf/config.py:38 (docs/conformance.md,
thirty-second session). Each case runs its program in a fresh interpreter (the notice is once per process)."""

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
                                             if "eager" in str(w.message)], "values": values}}))
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
    }


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.run-eagerly")
def test_deprecated_run_eagerly_aliases_log_tf_notice_once(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("notice/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""tf.Module's default name against TF 2.21 (clause ops.tf-utilities): a Module
without a name takes its class name in snake case by TF's camel_to_snake (tensorflow/python/module/
module.py: `((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))` -> `_\\1`, lower-cased), so a run of capitals is
one word ("HTTPServer" -> "http_server"). Found triaging the seed-4 mutation sweep survivor
simdist/tf/_module.py:11 (docs/conformance.md, twenty-seventh session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_CLASS_NAMES = ["MyDenseModule", "HTTPServer2Thing", "A", "already_snake", "Dense2D", "XMLHttpRequest", "ABC",
                "ResNet50V2Block", "Mixed_caseName", "IOModule", "Conv2DTranspose"]


def _default_name(cls_name: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        cls = type(cls_name, (tf.Module,), {})
        return [cls().name, cls(name="given").name]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"name/{n}": _default_name(n) for n in _CLASS_NAMES}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(\b_NONE_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.tf-utilities")
def test_module_default_names_are_tfs_snake_case(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("name/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""tf.autograph.experimental.do_not_convert on simdist vs TF 2.21: a function tf.function traces unconverted keeps its
exception's class (IndexError, KeyError, ZeroDivisionError) where AutoGraph re-creates a converted function's as a
StagingError; the decorator with and without its argument, the wrapper's name, its values. Clause
function.trace-time-errors. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
from case_wrappers import error_class, error_last_line
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _index(x: Any) -> Any:
    return [1, 2][5]


def _zero(x: Any) -> Any:
    return 1 / 0


def _key(x: Any) -> Any:
    return {}["k"]


def _add(x: Any) -> Any:
    return x + 1


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for name, fn in (("index", _index), ("zero", _zero), ("key", _key)):
        # (a converted function's error carries AutoGraph's "in user code:" frame: its last line is compared)
        # (a converted KeyError's text is "in user code: ... KeyError: 'k'" on TF, "'k'" on simdist: its class only)
        wrap = error_class if name == "key" else error_last_line
        c[f"converted/{name}"] = wrap(lambda tf, fn=fn: tf.function(fn)(tf.constant(1)))
        c[f"unconverted/{name}"] = error_last_line(
            lambda tf, fn=fn: tf.function(tf.autograph.experimental.do_not_convert(fn))(tf.constant(1)))
        c[f"unconverted_decorator/{name}"] = error_last_line(
            lambda tf, fn=fn: tf.function(tf.autograph.experimental.do_not_convert()(fn))(tf.constant(1)))
    c["values"] = lambda tf: [tf.function(tf.autograph.experimental.do_not_convert(_add))(tf.constant(2)),
                              tf.autograph.experimental.do_not_convert(_add).__name__,
                              tf.autograph.experimental.do_not_convert(_add)(3)]
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(autograph_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.trace-time-errors")
def test_do_not_convert_keeps_exceptions_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

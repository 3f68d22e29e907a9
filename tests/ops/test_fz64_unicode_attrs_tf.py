"""The unicode ops' attributes converted before their allowed lists are read (clause ops.attr-types, fz64: fz62gen
seed 64402 #5, `tf.strings.unicode_encode(x, 'latin1', replacement_char=<string tensor>)`). TF 2.21's generated
wrappers (gen_string_ops.unicode_encode, unicode_decode, unicode_decode_with_offsets, unicode_transcode) run
`_execute.make_str` on each string attr, turn a replacement_char of None into 65533 and run `make_int` on it (which
takes 1.5 as 1 and an eager scalar tensor, and refuses a string, a vector or a graph tensor with TypeError), all before
the op: only then are the OpDef's allowed lists of output_encoding and errors read (eager InvalidArgumentError, a
graph's ValueError). simdist read the allowed lists first, refused a float and None, and took a vector through
NumPy's error. Compared: values, or the exception class."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_CHARS = ("int", "none", "float", "str", "tensor0_int", "tensor1_int", "tensor_str", "np_int", "out_of_range")
_ENCODINGS = ("UTF-8", "latin1")
_ERRORS = ("replace", "bogus")


def _char(tf: Any, which: str) -> Any:
    return {"int": lambda: 66, "none": lambda: None, "float": lambda: 66.5, "str": lambda: "a",
            "tensor0_int": lambda: tf.constant(66), "tensor1_int": lambda: tf.constant([65, 66]),
            "tensor_str": lambda: tf.constant(["a", "b"]), "np_int": lambda: np.int64(66),
            "out_of_range": lambda: 0x110000}[which]()


def _outcome(f: Callable[[], Any]) -> Any:
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the class is the result compared
        return ["error", type(e).__name__]
    rs = r if isinstance(r, (list, tuple)) else [r]
    out = []
    for x in rs:
        x = x.to_tensor() if hasattr(x, "to_tensor") else x
        out.append([x.dtype.name, list(x.shape), np.asarray(x.numpy()).ravel().tolist()])
    return out


def _case(op: str, char: str, enc: str, err: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rc = _char(tf, char)
        codes = tf.constant([[72, 0xD800], [105, 33]])   # (a lone surrogate: the replacement's place)
        words = tf.constant([b"Hi\xff", b"ok"])
        calls = {"encode": lambda: tf.strings.unicode_encode(codes, enc, errors=err, replacement_char=rc),
                 "decode": lambda: tf.strings.unicode_decode(words, enc, errors=err, replacement_char=rc),
                 "decode_offsets": lambda: tf.strings.unicode_decode_with_offsets(words, enc, errors=err,
                                                                                  replacement_char=rc),
                 "transcode": lambda: tf.strings.unicode_transcode(words, "UTF-8", enc, errors=err,
                                                                   replacement_char=rc)}
        if traced:
            return _outcome(lambda: tf.function(calls[op], autograph=False)())
        return _outcome(calls[op])
    return run


_CASES: dict[str, Callable[[Any], Any]] = {}
for _op in ("encode", "decode", "decode_offsets", "transcode"):
    for _c in _CHARS:
        for _e in _ENCODINGS:
            for _r in _ERRORS:
                _CASES[f"{_op}/{_c}/{_e}/{_r}"] = _case(_op, _c, _e, _r, False)
        _CASES[f"{_op}_traced/{_c}/latin1/replace"] = _case(_op, _c, "latin1", "replace", True)
        _CASES[f"{_op}_traced/{_c}/UTF-8/replace"] = _case(_op, _c, "UTF-8", "replace", True)
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz64_unicode_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.attr-types")
def test_unicode_attrs_are_converted_before_their_allowed_lists(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

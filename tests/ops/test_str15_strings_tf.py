"""The tf.strings functions of the fifteenth session (issue 29: the fourteenth fuzzer's missing
tf.strings names) against real TensorFlow 2.21: lower/upper/strip/length, to_hash_bucket and
to_hash_bucket_strong, join/reduce_join/unsorted_segment_join, substr, to_number, regex_full_match/
regex_replace, unicode_encode/unicode_transcode, split/bytes_split/unicode_decode/unicode_split
(and _with_offsets)/ngrams on a minimal tf.RaggedTensor. Values, dtypes and shapes bit for bit; errors by
class and by the first line of their message ("{{function_node ...}}" and " name: " removed: TF's
eager wrappers add them); empty strings, non-ASCII text, invalid UTF-8, broadcasting; each function
under tf.function and in MirroredStrategy.run; gradients through chains of string ops (TF registers
none: None where a chain's float path is cut). Needs the `tf` extra."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_STRATEGIES: dict[str, Any] = {}


def _text(e: BaseException) -> str:
    """An error as "Class: first line of its message", without the decorations that differ with
    the way it was raised: TF's eager "{{function_node ...}}" prefix and " name: " suffix, the
    " [Op:Name]" suffix (a graph's errors have none), an autograph frame ("in user code:", which
    simdist adds also with autograph=False: its last line is the error itself)."""
    text = str(e)
    if text.startswith("in user code:"):
        text = text.strip().split("\n")[-1].strip()
        text = text.split(": ", 1)[1] if text.startswith(type(e).__name__ + ": ") else text
    text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", text).split("\n")[0]
    text = re.sub(r"( name: )?$", "", text)
    text = re.sub(r" \[Op:\w+\]$", "", text)
    return f"{type(e).__name__}: {text}"


def _m(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """fn's outcome with its error message as a string output (a UnicodeDecodeError, whose
    position is in TF's own message buffer, raised as it is: compared by class)."""
    def run(tf: Any) -> Any:
        try:
            return fn(tf)
        except UnicodeDecodeError:
            raise
        except Exception as e:  # noqa: BLE001 - the error is the result
            return tf.constant(_text(e))
    return run


def _flat(tf: Any, out: Any) -> Any:
    """A RaggedTensor as comparable tensors: its type, shape and repr as text, flat values, row splits."""
    if isinstance(out, (list, tuple)):
        return [_flat(tf, o) for o in out]
    if type(out).__name__ == "RaggedTensor":
        return [tf.constant(f"RaggedTensor {out.shape} ragged_rank={out.ragged_rank} {out!r}"), out.flat_values,
                *out.nested_row_splits]
    return out


def _rg(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """_m of fn with its ragged outputs made comparable (_flat)."""
    return _m(lambda tf: _flat(tf, fn(tf)))


def _cls(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """fn's outcome, an error by its class only (messages holding a tensor's repr or graph names)."""
    def run(tf: Any) -> Any:
        try:
            return _flat(tf, fn(tf))
        except Exception as e:  # noqa: BLE001 - the error is the result
            return tf.constant(type(e).__name__)
    return run


_NUMBERS = ["0x1.8", "-0x10", "0X10", "0x1P-2", "-nan", "+inf", " +1", "1e+", "-.5e1", "0x1.8p1", "-0", "1.5 ",
            "\n1\n", "\v1", "nan()", "nan(ab_1)", "nan(-)", "+nan", "INF", "inFinity", "infinit", "+-1", "--1", "1.",
            "1e5", "+ 1", "0x1p", "0x.8", "1e-400", "00012", "0x", "1\x00", "\xa01", "\u0663", "1E3", "+0x10",
            "0x-1", "0b1", "1.e3", "0x1e3", "1e40", "-1e40", "3.4028235e38", "3.40282356e38", "3.4028236e38",
            "1e-45", "7e-46", "1e-46", "-1e-46", "1.00000000000000000000000000000000001", "2147483647",
            "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "9223372036854775807",
            "9223372036854775808", "18446744073709551615", "18446744073709551616", "+0", "1_0", "", " ",
            "1e999999", "0x1p99999", "1.7976931348623157e308", "1.7976931348623159e308",
            "2.4703282292062328e-324", "2.4703282292062327e-324", "0.1", "16777217", "16777219",
            "9007199254740993", "1.4012984643e-45", "0x1.000001p0", "0x1.0000018p0", "0x1.00000000000008p0",
            "8.589973e9", "1.00000005960464477539", "1.000000059604644775390625000001"]


def _numbers(out_type: str) -> Callable[[Any], Any]:
    """to_number of each string of _NUMBERS alone (a value, or its error as text), and all at once."""
    def run(tf: Any) -> Any:
        dt = getattr(tf, out_type)
        one = [_m(lambda tf, s=s: tf.strings.to_number(s, dt))(tf) for s in _NUMBERS]
        return one + [_m(lambda tf: tf.strings.to_number([["1", "2.5e0"], ["-3", "x"]], dt))(tf)]
    return run


def _two_cpus(tf: Any) -> None:
    """Two logical CPUs (TF's worker sets them before its first case initializes the context)."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs (simdist's on a fresh simulation for each case, TF's
    made once per worker)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
            _two_cpus(tf)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _in_run(fn: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    """fn(tf, x) in MirroredStrategy.run on each replica's own strings ("r0 ..." / "r1 ..."):
    both replicas' results."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        v = s.experimental_distribute_values_from_function(
            lambda ctx: tf.constant([f"r{ctx.replica_id_in_sync_group} Ab", " 1.5 ", "x\u00fc"]))
        out = s.run(lambda x: fn(tf, x), args=(v,))
        return list(s.experimental_local_results(out))
    return run


def _traced(fn: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    """fn(tf, x) in a tf.function whose argument x is a string tensor (a graph tensor)."""
    return edge_compare.traced(fn, lambda tf: tf.constant([" Ab 12 ", "\u00fcN\u00ef", "3.5", ""]))


def _grad(fn: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    """The gradient of sum(fn(tf, s) * v + v) for a float Variable v and s = as_string(v): the
    string path has no gradient, so only the "+ v" term's ones come back (TF: None through a
    NotDifferentiable op or one with none registered that no float path reaches)."""
    def run(tf: Any) -> Any:
        v = tf.Variable([1.5, -2.0, 3.0])
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(fn(tf, tf.strings.as_string(v, precision=1)) * v + v)
        return [y, tf.convert_to_tensor(tape.gradient(y, v))]
    return run


_FLOAT_OF = {  # per clause: a float32 result of a string op chain on s (as_string(v) in _grad)
    "ops.strings-case": lambda tf, s: tf.cast(tf.strings.length(tf.strings.upper(tf.strings.strip(s))), tf.float32),
    "ops.string-hash-bucket": lambda tf, s: tf.cast(tf.strings.to_hash_bucket(s, 7)
                                                    + tf.strings.to_hash_bucket_strong(s, 5, [1, 2]), tf.float32),
    "ops.strings-join": lambda tf, s: tf.strings.to_number(tf.strings.join([s, "5"])),
    "ops.strings-substr": lambda tf, s: tf.strings.to_number(tf.strings.substr(s, 0, 2)),
    "ops.strings-to-number": lambda tf, s: tf.strings.to_number(s, tf.float32),
    "ops.strings-regex": lambda tf, s: tf.strings.to_number(tf.strings.regex_replace(s, "\\.", "")),
    "ops.strings-unicode": lambda tf, s: tf.strings.to_number(tf.strings.unicode_transcode(s, "UTF-8", "UTF-8")),
}

_IN_FUNCTION = {  # per clause: the functions on a string tensor x, traced and in strategy.run
    "ops.strings-case": lambda tf, x: [tf.strings.lower(x), tf.strings.upper(x, encoding="utf-8"),
                                       tf.strings.strip(x), tf.strings.length(x, unit="UTF8_CHAR")],
    "ops.string-hash-bucket": lambda tf, x: [tf.strings.to_hash_bucket(x, 100),
                                             tf.strings.to_hash_bucket_strong(x, 100, [7, 9])],
    "ops.strings-join": lambda tf, x: [tf.strings.join([x, "-", x], separator="|"),
                                       tf.strings.reduce_join(x, separator=","),
                                       tf.strings.reduce_join(tf.reshape(x, [1, -1]), axis=1, keepdims=True),
                                       tf.strings.unsorted_segment_join(x, tf.range(tf.size(x)) % 2, 3)],
    "ops.strings-substr": lambda tf, x: [tf.strings.substr(x, 0, 2), tf.strings.substr(x, 0, -1),
                                         tf.strings.substr(x, 0, 2, unit="UTF8_CHAR")],
    "ops.strings-to-number": lambda tf, x: tf.strings.to_number(tf.strings.regex_replace(x, "[^0-9.]", "") + "1",
                                                                tf.float64),
    "ops.strings-regex": lambda tf, x: [tf.strings.regex_full_match(x, ".*[0-9].*"),
                                        tf.strings.regex_replace(x, "([a-z])", "<\\1>"),
                                        tf.strings.regex_full_match(x, tf.constant("\\s*\\S+.*"))],
    "ops.strings-unicode": lambda tf, x: [tf.strings.unicode_transcode(x, "UTF-8", "UTF-16-BE"),
                                          tf.strings.unicode_encode(tf.constant([[65, 252], [0x1F600, -1]]),
                                                                    "UTF-8")],
}

_IN_FUNCTION["ops.strings-ragged"] = lambda tf, x: [
    tf.strings.split(x).flat_values, tf.strings.split(x).row_splits, tf.strings.bytes_split(x).row_splits,
    *tf.strings.unicode_decode_with_offsets(x, "UTF-8")[1].nested_row_splits,
    tf.strings.unicode_split(x, "UTF-8").flat_values, tf.strings.ngrams(tf.strings.split(x), 2).flat_values]
_FLOAT_OF["ops.strings-ragged"] = lambda tf, s: tf.cast(tf.strings.split(s, ".").row_lengths()
                                                        + tf.strings.unicode_decode(s, "UTF-8").row_lengths(), tf.float32)

_RAW: list[tuple[str, str, Callable[[Any], Any]]] = [
    # --- ops.strings-case ------------------------------------------------------------------------------------
    ('lower-1', 'ops.strings-case', _m(lambda tf: tf.strings.lower(["ABC Ünï", b"\xff\xfeA", ""]))),
    ('lower-2', 'ops.strings-case',
     _m(lambda tf: tf.strings.lower(["ABC Ünï", b"\xff\xfeA", "ΣΑΣ ΑΣ.", "İ"], encoding="utf-8"))),
    ('upper-1', 'ops.strings-case',
     _m(lambda tf: tf.strings.upper(["abc ünï ß", b"\xff\xfea", "ﬁ ŉ ǰ"], encoding="utf-8"))),
    ('upper-2', 'ops.strings-case',
     _m(lambda tf: tf.strings.upper([[b"a\x00b", b"\x00B"], [b"a\xc3", "ÀÉ"]], encoding="utf-8"))),
    ('lower-3', 'ops.strings-case', _m(lambda tf: tf.strings.lower([b"A\x00B"]))),
    ('upper-3', 'ops.strings-case', _m(lambda tf: tf.strings.upper(["abc ünï ß"], encoding="latin1"))),
    ('lower-4', 'ops.strings-case', _m(lambda tf: tf.strings.lower("a", encoding="UTF-8"))),
    ('lower-5', 'ops.strings-case', _m(lambda tf: tf.strings.lower("a", encoding=3))),
    ('upper-4', 'ops.strings-case', _m(lambda tf: tf.strings.upper(tf.constant([1])))),
    ('upper-5', 'ops.strings-case', _m(lambda tf: tf.strings.upper([1]))),
    ('upper-6', 'ops.strings-case', _m(lambda tf: tf.strings.upper(1.5))),
    ('strip-1', 'ops.strings-case',
     _m(lambda tf: tf.strings.strip([" \t a b \n\x0b\x0c\r", "\xa0x\xa0", "", "   "]))),
    ('strip-2', 'ops.strings-case', _m(lambda tf: tf.strings.strip(tf.constant([[" a", "b "]])))),
    ('strip-3', 'ops.strings-case', _m(lambda tf: tf.strings.strip(tf.constant(2.0)))),
    ('length-1', 'ops.strings-case', _m(lambda tf: tf.strings.length(["", "abc", "ünï", b"\xff\xfe"]))),
    ('length-2', 'ops.strings-case',
     _m(lambda tf: tf.strings.length(["", "abc", "ünï", b"\xff\xfe", b"\xe2\x82", "😀x"], unit="UTF8_CHAR"))),
    ('length-3', 'ops.strings-case', _m(lambda tf: tf.strings.length(["a"], unit="CHAR"))),
    ('length-4', 'ops.strings-case', _m(lambda tf: tf.strings.length("a", unit=3))),
    ('length-5', 'ops.strings-case', _m(lambda tf: tf.strings.length(tf.zeros([2, 0], tf.string)))),
    ('length-6', 'ops.strings-case', _m(lambda tf: tf.strings.length(tf.constant([True])))),
    # --- ops.string-hash-bucket ------------------------------------------------------------------------------
    ('to-hash-bucket-1', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket(["", "a", "hello world", "ünï", b"\xff\x00\x01", "exactly8", "more than eight bytes here"], 1000))),
    ('to-hash-bucket-2', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket([["a", "b"], ["c", "d"]], 2**62))),
    ('to-hash-bucket-3', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket(["a"], 2**63))),
    ('to-hash-bucket-4', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket(["a"], "3"))),
    ('to-hash-bucket-5', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket(["a"], 1.5))),
    ('to-hash-bucket-6', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket([1.0], 3))),
    ('to-hash-bucket-7', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket(tf.constant([1.0]), 3))),
    ('to-hash-bucket-8', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket("a", 0))),
    ('to-hash-bucket-9', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket(tf.zeros([0, 2], tf.string), 5))),
    ('to-hash-bucket-strong-1', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["", "a", "hello world", "ünï", b"\xff\x00\x01", "exactly8", "more than eight bytes here"], 1000, [1, 2]))),
    ('to-hash-bucket-strong-2', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a", "b"], 2**62, [-1, 2**63-1]))),
    ('to-hash-bucket-strong-3', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 1000, [1, 2, 3]))),
    ('to-hash-bucket-strong-4', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 1000, []))),
    ('to-hash-bucket-strong-5', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 0, [1, 2]))),
    ('to-hash-bucket-strong-6', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 10, 5))),
    ('to-hash-bucket-strong-7', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 10, [1.5, 2]))),
    ('to-hash-bucket-strong-8', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 10, tf.constant([1, 2])))),
    ('to-hash-bucket-strong-9', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 10, [2**64, 2]))),
    ('to-hash-bucket-strong-10', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], 10, ["a", 2]))),
    ('to-hash-bucket-strong-11', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(["a"], tf.constant(3), [1, 2]))),
    ('to-hash-bucket-strong-12', 'ops.string-hash-bucket',
     _m(lambda tf: tf.strings.to_hash_bucket_strong(tf.constant([1]), 3, [1, 2]))),
    ('to-hash-bucket-fast-1', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket_fast(["", "a", "hello world", "ünï"], 1000))),
    ('to-hash-bucket-fast-2', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket_fast(["a"], 0))),
    ('to-hash-bucket-fast-3', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket_fast(["a"], 1.5))),
    ('to-hash-bucket-fast-4', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket_fast(["a"], "3"))),
    ('to-hash-bucket-fast-5', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket_fast(tf.constant([1.0]), 3))),
    ('to-hash-bucket-fast-6', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket_fast([1.0], 3))),
    ('to-hash-bucket-fast-7', 'ops.string-hash-bucket', _m(lambda tf: tf.strings.to_hash_bucket_fast(["a"], 2**63))),
    # --- ops.strings-join ------------------------------------------------------------------------------------
    ('reduce-join-1', 'ops.strings-join',
     _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=0, separator="|"))),
    ('reduce-join-2', 'ops.strings-join',
     _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=[0,1], keepdims=True))),
    ('reduce-join-3', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=2))),
    ('reduce-join-4', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=[0,0]))),
    ('reduce-join-5', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=[0,-2]))),
    ('reduce-join-6', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join(tf.zeros([2,0], tf.string), axis=1))),
    ('reduce-join-7', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join(tf.zeros([2,0], tf.string)))),
    ('reduce-join-8', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join("abc"))),
    ('reduce-join-9', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join("abc", axis=0))),
    ('reduce-join-10', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join([1,2]))),
    ('reduce-join-11', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=[]))),
    ('reduce-join-12', 'ops.strings-join',
     _m(lambda tf: tf.strings.reduce_join([[["a","b"],["c","d"]],[["e","f"],["g","h"]]], axis=[0,2]))),
    ('reduce-join-13', 'ops.strings-join',
     _m(lambda tf: tf.strings.reduce_join([[["a","b"],["c","d"]],[["e","f"],["g","h"]]], axis=[2,0]))),
    ('reduce-join-14', 'ops.strings-join', _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=[[0]]))),
    ('reduce-join-15', 'ops.strings-join',
     _m(lambda tf: tf.strings.reduce_join([["a","b"],["c","d"]], axis=tf.constant(1, tf.int64)))),
    ('reduce-join-16', 'ops.strings-join',
     _m(lambda tf: tf.strings.reduce_join(tf.zeros([0,3], tf.string), axis=0, separator="-"))),
    ('join-1', 'ops.strings-join', _m(lambda tf: tf.strings.join(["a", ["b", "c"]], separator="-"))),
    ('join-2', 'ops.strings-join', _m(lambda tf: tf.strings.join([["a","b"], ["b", "c", "d"]]))),
    ('join-3', 'ops.strings-join', _m(lambda tf: tf.strings.join([]))),
    ('join-4', 'ops.strings-join', _m(lambda tf: tf.strings.join([tf.constant([1])]))),
    ('join-5', 'ops.strings-join', _m(lambda tf: tf.strings.join("abc"))),
    ('join-6', 'ops.strings-join', _m(lambda tf: tf.strings.join([tf.zeros([0], tf.string), "x"]))),
    ('unsorted-segment-join-1', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], [1,0,1], 3, separator=":"))),
    ('unsorted-segment-join-2', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], [1,0,-1], 3))),
    ('unsorted-segment-join-3', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join([["a","b"],["c","d"]], [1,1], 2))),
    ('unsorted-segment-join-4', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], [1,0], 3))),
    ('unsorted-segment-join-5', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], [1,0,1], -1))),
    ('unsorted-segment-join-6', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], [1.0,0,1], 3))),
    ('unsorted-segment-join-7', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], [1,0,1], [3]))),
    ('unsorted-segment-join-8', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], [[1,0,1]], 3))),
    ('unsorted-segment-join-9', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], 0, 3))),
    ('unsorted-segment-join-10', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(tf.zeros([0], tf.string), tf.zeros([0], tf.int32), 2))),
    ('unsorted-segment-join-11', 'ops.strings-join',
     _m(lambda tf: tf.strings.unsorted_segment_join(["a","b","c"], tf.constant([1,0,1], tf.int64), tf.constant(2, tf.int64)))),
    # --- ops.strings-substr ----------------------------------------------------------------------------------
    ('substr-1', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab", ""], 1, 3))),
    ('substr-2', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab", ""], 0, 3))),
    ('substr-3', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], -2, 5))),
    ('substr-4', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], 1, -1))),
    ('substr-5', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], 3, 1))),
    ('substr-6', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], 2, 1))),
    ('substr-7', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], -3, 1))),
    ('substr-8', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], [1, 0], [2, 1]))),
    ('substr-9', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr([["hello", "ab"], ["xyz", "q"]], [1, 0], [2, 1]))),
    ('substr-10', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr([["hello", "ab"], ["xyz", "q"]], [1, 2], [2, 1]))),
    ('substr-11', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr([["hello", "ab"], ["xyz", "q"]], [1, 2], [2, 1], unit="UTF8_CHAR"))),
    ('substr-12', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr([["hello", "ab"], ["xyz", "q"]], [[1], [0]], 1))),
    ('substr-13', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr([["hello", "ab"], ["xyz", "q"]], [[1], [0]], [[1], [3]]))),
    ('substr-14', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], [1, 0, 0], 1))),
    ('substr-15', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], [1, 0, 0], [1, 1, 1]))),
    ('substr-16', 'ops.strings-substr', _m(lambda tf: tf.strings.substr("hello", [1, 0, 2], [1, 2, 3]))),
    ('substr-17', 'ops.strings-substr', _m(lambda tf: tf.strings.substr("hello", [[1, 0, 2]], [[1, 2, 3]]))),
    ('substr-18', 'ops.strings-substr', _m(lambda tf: tf.strings.substr("hello", [[[1, 0, 2]]], [[[1, 2, 3]]]))),
    ('substr-19', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], [[[1, 0]]], [[[1, 2]]]))),
    ('substr-20', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello"], 1, [1, 2]))),
    ('substr-21', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr(["ünïcode", b"\xff\xfeab", b"a\xe2\x82b"], 1, 2, unit="UTF8_CHAR"))),
    ('substr-22', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], -2, 2, unit="UTF8_CHAR"))),
    ('substr-23', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], 8, 2, unit="UTF8_CHAR"))),
    ('substr-24', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], 7, 2, unit="UTF8_CHAR"))),
    ('substr-25', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], -7, 2, unit="UTF8_CHAR"))),
    ('substr-26', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], -8, 2, unit="UTF8_CHAR"))),
    ('substr-27', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], 1, -2, unit="UTF8_CHAR"))),
    ('substr-28', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], -2, -1, unit="UTF8_CHAR"))),
    ('substr-29', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], -3, 1, unit="UTF8_CHAR"))),
    ('substr-30', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], -3, 10, unit="UTF8_CHAR"))),
    ('substr-31', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["ünïcode"], 1, 2, unit="CHAR"))),
    ('substr-32', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello"], 1.0, 2))),
    ('substr-33', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr(["hello"], tf.constant(1, tf.int64), tf.constant(2, tf.int64)))),
    ('substr-34', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello"], tf.constant(1, tf.int64), 2))),
    ('substr-35', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello"], 1, tf.constant(2, tf.int64)))),
    ('substr-36', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr(["hello"], tf.constant(1), tf.constant(2, tf.int64)))),
    ('substr-37', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(tf.constant([1]), 1, 2))),
    ('substr-38', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], [6, 0], [1, 1]))),
    ('substr-39', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(["hello", "ab"], [[1, 0]], [[1],[2]]))),
    ('substr-40', 'ops.strings-substr',
     _m(lambda tf: tf.strings.substr(["hello", "ab"], tf.zeros([0], tf.int32), tf.zeros([0], tf.int32)))),
    ('substr-41', 'ops.strings-substr', _m(lambda tf: tf.strings.substr(tf.zeros([0], tf.string), 0, 1))),
    ('substr-42', 'ops.strings-substr', _m(lambda tf: tf.strings.substr([b"\xff\xfe"], 3, 1))),
    # --- ops.strings-regex -----------------------------------------------------------------------------------
    ('regex-full-match-1', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["abc", "ab", "", "ünï"], "a.c"))),
    ('regex-full-match-2', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["abc", "ab", "", "ünï"], ".{3}"))),
    ('regex-full-match-3', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match([b"\xff", b"a\xffb"], "."))),
    ('regex-full-match-4', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match([b"\xff", b"a\xffb"], "a[^x]b"))),
    ('regex-full-match-5', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["abc"], "(a"))),
    ('regex-full-match-6', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["abc"], "a(?=b)bc"))),
    ('regex-full-match-7', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["abc"], "(a)\\1"))),
    ('regex-full-match-8', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["abc"], tf.constant("a.*")))),
    ('regex-full-match-9', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["abc"], tf.constant(["a.*"])))),
    ('regex-full-match-10', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["abc"], tf.constant("(a")))),
    ('regex-full-match-11', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(tf.constant([1]), "a"))),
    ('regex-full-match-12', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["a\nb", "a\n"], "a.b"))),
    ('regex-full-match-13', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["a\nb", "a\n"], "a$"))),
    ('regex-full-match-14', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["a\nb", "a\n"], "(?s)a.b"))),
    ('regex-full-match-15', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["a\nb", "a\n"], "(?m)a$\n"))),
    ('regex-full-match-16', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["AB", "Ünï", "ünÏ"], "(?i)ab|ünï"))),
    ('regex-full-match-17', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["ab", "a b", "٣", "a\vb", "a\tb"], "\\w+|\\d|a\\sb"))),
    ('regex-full-match-18', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "(?P<x>a)b"))),
    ('regex-full-match-19', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "a*?b"))),
    ('regex-full-match-20', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "\\Aab\\z"))),
    ('regex-full-match-21', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "ab\\Z"))),
    ('regex-full-match-22', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["a{,3}", "aaa"], "a{,3}"))),
    ('regex-full-match-23', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["a{", "aaa"], "a{"))),
    ('regex-full-match-24', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["a\n", "a"], "a\\12"))),
    ('regex-full-match-25', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["A"], "\\x41|\\x{42}"))),
    ('regex-full-match-26', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["a-", "b"], "[a\\-]+|[\\d\\w]"))),
    ('regex-full-match-27', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "a**"))),
    ('regex-full-match-28', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "[z-a]"))),
    ('regex-full-match-29', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "a{2,1}"))),
    ('regex-full-match-30', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "a)"))),
    ('regex-full-match-31', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "*"))),
    ('regex-full-match-32', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "a\\"))),
    ('regex-full-match-33', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], "[ab"))),
    ('regex-full-match-34', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_full_match(["word ab"], "\\bab\\b|.*\\bab\\b"))),
    ('regex-full-match-35', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_full_match(["ab"], b"\xff"))),
    ('regex-replace-1', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abcabc", "", "ünï"], "b", "X"))),
    ('regex-replace-2', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abcabc"], "b", "X", replace_global=False))),
    ('regex-replace-3', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abcabc"], "(b)(c)", "\\2\\1\\0"))),
    ('regex-replace-4', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abcabc"], "(b)(c)", "\\3"))),
    ('regex-replace-5', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abcabc"], "(b)(c)", "\\\\"))),
    ('regex-replace-6', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abcabc"], "(b)(c)", "$1"))),
    ('regex-replace-7', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abc"], "", "-"))),
    ('regex-replace-8', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["ünï"], "", "-"))),
    ('regex-replace-9', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace([b"a\xffb"], "", "-"))),
    ('regex-replace-10', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abc"], "x*", "-"))),
    ('regex-replace-11', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abc"], "x*", "-", replace_global=False))),
    ('regex-replace-12', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abc"], tf.constant("b"), "X"))),
    ('regex-replace-13', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abc"], "(", "X"))),
    ('regex-replace-14', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abc"], tf.constant("("), "X"))),
    ('regex-replace-15', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abc"], "b", tf.constant(["X"])))),
    ('regex-replace-16', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abcb"], "b", "\\x"))),
    ('regex-replace-17', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abcb"], "b", "Y\\x"))),
    ('regex-replace-18', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abcb"], "b", "Y\\x", replace_global=False))),
    ('regex-replace-19', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abc"], "b", "\\"))),
    ('regex-replace-20', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace([b"\xffab"], "a", "X"))),
    ('regex-replace-21', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace([b"\xffab"], ".", "X"))),
    ('regex-replace-22', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["aaa"], "a*", "X"))),
    ('regex-replace-23', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["abab"], "(?:ab)*?", "X"))),
    ('regex-replace-24', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace(["abab", "b"], "(a)?b", "[\\1]"))),
    ('regex-replace-25', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(["a.b.c"], "\\.", "\\\\."))),
    ('regex-replace-26', 'ops.strings-regex',
     _m(lambda tf: tf.strings.regex_replace([["x1y22", "3"]], "\\d+", "<\\0>"))),
    ('regex-replace-27', 'ops.strings-regex', _m(lambda tf: tf.strings.regex_replace(tf.constant([1]), "a", "b"))),
    # --- ops.strings-unicode ---------------------------------------------------------------------------------
    ('unicode-encode-1', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, 252, 0x1F600], "UTF-8"))),
    ('unicode-encode-2', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([[72, 252], [0x10FFFF, 0]], "UTF-16-BE"))),
    ('unicode-encode-3', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([[72, 252], [0x10FFFF, 0]], "UTF-32-BE"))),
    ('unicode-encode-4', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, -1, 0x110000, 0xD800], "UTF-8"))),
    ('unicode-encode-5', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, -1, 0x110000, 0xD800], "UTF-8", errors="ignore"))),
    ('unicode-encode-6', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, -1, 0x110000, 0xD800], "UTF-8", errors="strict"))),
    ('unicode-encode-7', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, -1], "UTF-8", replacement_char=63))),
    ('unicode-encode-8', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, -1], "UTF-8", replacement_char=-5))),
    ('unicode-encode-9', 'ops.strings-unicode', _m(lambda tf: tf.strings.unicode_encode([72, -1], "latin1"))),
    ('unicode-encode-10', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, -1], "UTF-8", errors="x"))),
    ('unicode-encode-11', 'ops.strings-unicode', _m(lambda tf: tf.strings.unicode_encode(72, "UTF-8"))),
    ('unicode-encode-12', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode(tf.zeros([2,0], tf.int32), "UTF-8"))),
    ('unicode-encode-13', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode(tf.zeros([0,2], tf.int32), "UTF-8"))),
    ('unicode-encode-14', 'ops.strings-unicode', _m(lambda tf: tf.strings.unicode_encode([72.0], "UTF-8"))),
    ('unicode-encode-15', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode(tf.constant([72], tf.int64), "UTF-8"))),
    ('unicode-encode-16', 'ops.strings-unicode', _m(lambda tf: tf.strings.unicode_encode([[[72, 73]]], "UTF-8"))),
    ('unicode-encode-17', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_encode([72, 0xDC00, 0xD800], "UTF-16-BE"))),
    ('unicode-transcode-1', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["Hello", "ünï", b"\xff\xfea", b"\xe2\x82", ""], "UTF-8", "UTF-16-BE"))),
    ('unicode-transcode-2', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["Hello", "ünï", b"\xff\xfea"], "UTF-8", "UTF-32-BE"))),
    ('unicode-transcode-3', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\x00H\xd8\x3d\xde\x00", b"\x00"], "UTF-16-BE", "UTF-8"))),
    ('unicode-transcode-4', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\x00H\xd8\x3d", b"\xdc\x00\x00A", b"\xd8\x3d\xd8\x3d\xde\x00"], "UTF-16-BE", "UTF-8"))),
    ('unicode-transcode-5', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\x00\x00\x00H\x00\x11\x00\x00", b"\x00\x00\xd8\x00", b"\x00\x00\x00"], "UTF-32-BE", "UTF-8"))),
    ('unicode-transcode-6', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\xff\xfea"], "UTF-8", "UTF-8", errors="ignore"))),
    ('unicode-transcode-7', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\xff\xfea"], "UTF-8", "UTF-8", errors="strict"))),
    ('unicode-transcode-8', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\xff\xfea"], "UTF-8", "UTF-8", replacement_char=63))),
    ('unicode-transcode-9', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\xff\xfea"], "UTF-8", "UTF-8", replace_control_characters=True))),
    ('unicode-transcode-10', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"a\x01\x7f\x9f"], "UTF-8", "UTF-8", replace_control_characters=True))),
    ('unicode-transcode-11', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["a\x01\t\n\u0085"], "UTF-8", "UTF-8", replace_control_characters=True))),
    ('unicode-transcode-12', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["a\x01\t\n\u0085"], "UTF-8", "UTF-8", replace_control_characters=True, errors="ignore"))),
    ('unicode-transcode-13', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["a"], "latin1", "UTF-8"))),
    ('unicode-transcode-14', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["a"], "UTF-8", "ISO-8859-1"))),
    ('unicode-transcode-15', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["aé"], "ISO-8859-1", "UTF-8"))),
    ('unicode-transcode-16', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["a", b"\xe9"], "US-ASCII", "UTF-8"))),
    ('unicode-transcode-17', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["a\ufeffb", b"\xef\xbb\xbfa"], "UTF-8", "UTF-16-BE"))),
    ('unicode-transcode-18', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\xfe\xff\x00a"], "UTF-16-BE", "UTF-8"))),
    ('unicode-transcode-19', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([b"\xed\xa0\x80", b"\xc0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98"], "UTF-8", "UTF-8"))),
    ('unicode-transcode-20', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["abc"], "UTF-8", "UTF-8", replacement_char=0x110000))),
    ('unicode-transcode-21', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(tf.constant([1]), "UTF-8", "UTF-8"))),
    ('unicode-transcode-22', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode("a", "UTF-8", "UTF-8", errors="strict"))),
    ('unicode-transcode-23', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode([[b"\xff", "x"]], "UTF-8", "UTF-8", replacement_char=0))),
    ('unicode-transcode-24', 'ops.strings-unicode',
     _m(lambda tf: tf.strings.unicode_transcode(["a\x01\t\n\u0085"], "UTF-8", "UTF-8", replace_control_characters=True, errors="strict"))),
    # --- ops.strings-ragged ----------------------------------------------------------------------------------------
    ('split-1', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split("a b  c "))),
    ('split-2', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split(["a b  c ", "", " x"]))),
    ('split-3', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split([["a b", "c"], ["", "d e f"]]))),
    ('split-4', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split(["a,b,,c", ""], sep=","))),
    ('split-5', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split(["a,b,,c"], sep=",", maxsplit=1))),
    ('split-6', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split(["a b c"], maxsplit=1))),
    ('split-7', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split(["a<>b<>c"], sep="<>"))),
    ('split-8', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split(["a b"], sep=""))),
    ('split-9', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split([1]))),
    ('split-10', 'ops.strings-ragged', _rg(lambda tf: tf.strings.split(tf.ragged.constant([["a b", "c"], []])))),
    ('bytes-split-1', 'ops.strings-ragged', _rg(lambda tf: tf.strings.bytes_split("abc"))),
    ('bytes-split-2', 'ops.strings-ragged', _rg(lambda tf: tf.strings.bytes_split(["ab", "", "ü"]))),
    ('bytes-split-3', 'ops.strings-ragged', _rg(lambda tf: tf.strings.bytes_split([["ab"], ["c"]]))),
    ('unicode-decode-1', 'ops.strings-ragged', _rg(lambda tf: tf.strings.unicode_decode("Hü😀", "UTF-8"))),
    ('unicode-decode-2', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode(["Hü", b"\xffa", ""], "UTF-8"))),
    ('unicode-decode-3', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode([b"\xe2\x82a\xf0\x9f\x98\x80\xed\xa0\x80"], "UTF-8"))),
    ('unicode-decode-with-offsets-1', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode_with_offsets([b"\xe2\x82a\xf0\x9f\x98\x80\xed\xa0\x80"], "UTF-8"))),
    ('unicode-decode-with-offsets-2', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode_with_offsets(["Hü", b"\xffa", ""], "UTF-8"))),
    ('unicode-decode-with-offsets-3', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode_with_offsets([b"\xffa\x01"], "UTF-8", errors="ignore", replace_control_characters=True))),
    ('unicode-decode-4', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode([b"\xffa"], "UTF-8", errors="strict"))),
    ('unicode-split-1', 'ops.strings-ragged', _rg(lambda tf: tf.strings.unicode_split(["Hü", b"\xffa"], "UTF-8"))),
    ('unicode-split-with-offsets-1', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_split_with_offsets(["Hü", b"\xffa"], "UTF-8"))),
    ('unicode-split-2', 'ops.strings-ragged', _rg(lambda tf: tf.strings.unicode_split(["Hü"], "UTF-16-BE"))),
    ('unicode-split-3', 'ops.strings-ragged', _rg(lambda tf: tf.strings.unicode_split(["Hü"], "latin1"))),
    ('unicode-decode-5', 'ops.strings-ragged', _rg(lambda tf: tf.strings.unicode_decode(["Hü"], "latin1"))),
    ('unicode-decode-with-offsets-4', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode_with_offsets([b"\x00H\x00\xfc\xd8\x3d\xde\x00\x00"], "UTF-16-BE"))),
    ('unicode-decode-with-offsets-5', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_decode_with_offsets([b"\x00\x00\x00H\x00\x11\x00\x00\x00"], "UTF-32-BE"))),
    ('unicode-decode-6', 'ops.strings-ragged', _rg(lambda tf: tf.strings.unicode_decode([["ab"], ["c"]], "UTF-8"))),
    ('unicode-decode-7', 'ops.strings-ragged', _rg(lambda tf: tf.strings.unicode_decode(tf.constant([1]), "UTF-8"))),
    ('ngrams-1', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams(["a", "b", "c", "d"], 2))),
    ('ngrams-2', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams(["a", "b", "c", "d"], (1, 3), separator="_"))),
    ('ngrams-3', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams([["a", "b", "c"], ["d", "e", "f"]], 2))),
    ('ngrams-4', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 2))),
    ('ngrams-5', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 3, pad_values="#"))),
    ('ngrams-6', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 3, pad_values=("<", ">"), padding_width=1))),
    ('ngrams-7', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 3, preserve_short_sequences=True))),
    ('ngrams-8', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 4, pad_values="#", padding_width=1, preserve_short_sequences=True))),
    ('ngrams-9', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.ngrams(tf.ragged.constant([[["a", "b"], ["c"]], [["d", "e", "f"]]]), 2))),
    ('ngrams-10', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams(["a", "b"], 5))),
    ('ngrams-11', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams(["a", "b"], 0))),
    ('ngrams-12', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams("a", 2))),
    ('ngrams-13', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams(["a", "b"], 2, padding_width=1))),
    ('ngrams-14', 'ops.strings-ragged', _rg(lambda tf: tf.strings.ngrams(["a", "b"], 2, pad_values=3))),
    ('ngrams-15', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.ngrams(["a", "b"], 2, pad_values="x", padding_width=0))),
    ('ragged-constant-1', 'ops.strings-ragged',
     _rg(lambda tf: tf.ragged.constant([["a", "b"], [], ["c"]]).to_tensor())),
    ('ragged-constant-2', 'ops.strings-ragged',
     _rg(lambda tf: tf.ragged.constant([[1, 2], [3]]).to_tensor(default_value=9))),
    ('ragged-constant-3', 'ops.strings-ragged',
     _rg(lambda tf: tf.ragged.constant([[[1, 2], [3]], [[4]]]).to_tensor())),
    ('ragged-constant-4', 'ops.strings-ragged', _rg(lambda tf: tf.ragged.constant([[1, 2], [3]]).row_lengths())),
    ('ragged-constant-5', 'ops.strings-ragged', _rg(lambda tf: tf.ragged.constant([[1, 2], [3]]).flat_values)),
    ('ragged-from-row-splits-1', 'ops.strings-ragged',
     _rg(lambda tf: tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 3]).row_splits)),
    ('ragged-from-row-splits-2', 'ops.strings-ragged',
     _rg(lambda tf: tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2]))),
    ('ragged-from-row-splits-3', 'ops.strings-ragged',
     _rg(lambda tf: tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 3]))),
    ('ragged-from-row-lengths-1', 'ops.strings-ragged',
     _rg(lambda tf: tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1]).values)),
    ('ragged-constant-6', 'ops.strings-ragged', _rg(lambda tf: tf.ragged.constant([[1.5], []]).flat_values)),
    ('unicode-encode-ragged-1', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_encode(tf.ragged.constant([[72, 252], [], [0x1F600]]), "UTF-8"))),
    ('unicode-encode-ragged-2', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_encode(tf.ragged.constant([[[72, 252], [65]], [[0x1F600, -1]]]), "UTF-16-BE"))),
    ('unicode-encode-ragged-3', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_encode(tf.ragged.constant([[[72, 252], [65]], [[0x1F600, -1]]]), "UTF-8", errors="strict"))),
    ('unicode-encode-ragged-4', 'ops.strings-ragged',
     _rg(lambda tf: tf.strings.unicode_encode(tf.strings.unicode_decode(["héllo", "wörld!"], "UTF-8"), "UTF-8"))),
    # --- what the ragged functions' wrappers make of a non-string input, eagerly and traced
    *[(f"ragged-convert-{k}-{mode}", "ops.strings-ragged", _cls((lambda f: f if mode == "eager" else
                                                                lambda tf: tf.function(lambda: f(tf),
                                                                                       autograph=False)())(f)))
      for k, f in (("bytes-split-int64", lambda tf: tf.strings.bytes_split(tf.constant(3, tf.int64))),
                   ("bytes-split-list", lambda tf: tf.strings.bytes_split([1])),
                   ("bytes-split-numpy", lambda tf: tf.strings.bytes_split(np.array([1]))),
                   ("split-int64", lambda tf: tf.strings.split(tf.constant([3], tf.int64))),
                   ("split-list", lambda tf: tf.strings.split([1])),
                   ("decode-int64", lambda tf: tf.strings.unicode_decode(tf.constant([3], tf.int64), "UTF-8")),
                   ("decode-list", lambda tf: tf.strings.unicode_decode([1], "UTF-8")),
                   ("unicode-split-int64", lambda tf: tf.strings.unicode_split(tf.constant([3], tf.int64), "UTF-8")),
                   ("ngrams-int64", lambda tf: tf.strings.ngrams(tf.constant([3], tf.int64), 2)),
                   ("ngrams-list", lambda tf: tf.strings.ngrams([1, 2], 2)))
      for mode in ("eager", "traced")],
    # --- ops.strings-to-number: each string alone for every out_type, and a failing batch ----------------------
    *[(f"to-number-{dt}", "ops.strings-to-number", _numbers(dt))
      for dt in ("float32", "float64", "int32", "int64", "uint32", "uint64")],
    *[(f"to-number-out-type-{dt}", "ops.strings-to-number", _m(lambda tf, dt=dt: tf.strings.to_number("1", getattr(tf, dt))))
      for dt in ("int8", "float16", "bfloat16", "string")],
    ("to-number-not-strings", "ops.strings-to-number", _m(lambda tf: tf.strings.to_number(tf.constant([1.0])))),
    ("to-number-python-floats", "ops.strings-to-number", _m(lambda tf: tf.strings.to_number([1.0]))),
    ("to-number-signbits", "ops.strings-to-number", lambda tf: tf.math.sign(1.0 / tf.strings.to_number(
        ["-0", "0", "-1e-50", "1e-50", "-0x0p0"]))),
    # --- what a string input converts: tensors and Variables as they are, NumPy and Python values per TF's wrappers
    *[(f"convert-{k}-{mode}", "ops.strings-case", _m((lambda f: f if mode == "eager" else
                                                      lambda tf: tf.function(lambda: f(tf), autograph=False)())(f)))
      for k, f in (("numpy-int64", lambda tf: tf.strings.strip(np.array([2, 3], np.int64))),
                   ("numpy-float32-scalar", lambda tf: tf.strings.upper(np.float32(1.0))),
                   ("numpy-str", lambda tf: tf.strings.strip(np.array(["a ", " b"]))),
                   ("list-of-ints", lambda tf: tf.strings.lower([1, 2])),
                   ("variable", lambda tf: tf.strings.length(tf.Variable(tf.constant([1.0], tf.float16)))),
                   ("regex-numpy", lambda tf: tf.strings.regex_replace(np.array([2, 3], np.int64), "a.", "x")))
      for mode in ("eager", "traced")],
    # --- each clause's functions traced, in strategy.run, and under a gradient tape --------------------------------
    *[(f"traced-{c.split('.')[1]}", c, _m(_traced(f))) for c, f in _IN_FUNCTION.items()],
    *[(f"strategy-run-{c.split('.')[1]}", c, _m(_in_run(f))) for c, f in _IN_FUNCTION.items()],
    *[(f"gradient-{c.split('.')[1]}", c, _m(_grad(f))) for c, f in _FLOAT_OF.items()],
    ("traced-not-strings", "ops.strings-case", _m(edge_compare.traced(lambda tf, x: tf.strings.lower(x),
                                                                     lambda tf: tf.constant([1])))),
    ("traced-join-not-strings", "ops.strings-join", _m(edge_compare.traced(lambda tf, x: tf.strings.join([x, x]),
                                                                          lambda tf: tf.constant([1])))),
    ("traced-substr-not-strings", "ops.strings-substr", _m(edge_compare.traced(
        lambda tf, x: tf.strings.substr(x, 0, 1), lambda tf: tf.constant([1])))),
    ("traced-regex-not-strings", "ops.strings-regex", _m(edge_compare.traced(
        lambda tf, x: tf.strings.regex_full_match(x, "a"), lambda tf: tf.constant([1])))),
    ("traced-bad-pattern", "ops.strings-regex", _m(_traced(lambda tf, x: tf.strings.regex_replace(x, "(?=a)", "")))),
    ("traced-bad-number", "ops.strings-to-number", _m(_traced(lambda tf, x: tf.strings.to_number(x)))),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = _RAW
EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.strings-case")
@EDGES.parametrize("ops.strings-case")
def test_lower_upper_strip_length(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.string-hash-bucket")
@EDGES.parametrize("ops.string-hash-bucket")
def test_to_hash_bucket_and_strong(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-join")
@EDGES.parametrize("ops.strings-join")
def test_join_reduce_join_segment_join(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-substr")
@EDGES.parametrize("ops.strings-substr")
def test_substr(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-to-number")
@EDGES.parametrize("ops.strings-to-number")
def test_to_number(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-regex")
@EDGES.parametrize("ops.strings-regex")
def test_regex_full_match_and_replace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-ragged")
@EDGES.parametrize("ops.strings-ragged")
def test_split_decode_ngrams_ragged(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-unicode")
@EDGES.parametrize("ops.strings-unicode")
def test_unicode_encode_and_transcode(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups without a test function: {EDGES.untested()}, but should be none"


if __name__ == "__main__":  # TF worker: python test_str15_strings_tf.py 0,1,2 -> pickled results on stdout
    import tensorflow
    _two_cpus(tensorflow)
    tf_workers.serve(EDGES.tf_worker)

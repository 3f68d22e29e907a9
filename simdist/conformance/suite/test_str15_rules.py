"""The tf.strings functions of issue 29's fifteenth batch — clauses ops.strings-case,
ops.string-hash-bucket, ops.strings-join, ops.strings-substr, ops.strings-to-number,
ops.strings-regex, ops.strings-unicode (TF 2.21 only).

Each test runs on the backend's `tf` alone. Expected values are computed here from the rule each
clause states (docs/spec.md) with Python's own bytes, str, re and codecs, or are the rule's
literal text; the comparison with TF 2.21 itself, case by case, is in
tests/ops/test_str15_strings_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, raises, to_numpy

clause = pytest.mark.clause


def _list(t):
    return to_numpy(t).reshape(-1).tolist()


def _check(got, want, call):
    g = _list(got)
    assert_true(g == list(want), f"out={g!r}, but should be {list(want)!r}", call=call)


@clause("ops.strings-case", ref="tf221")
def test_case_strip_and_length(tf):
    words = ["Abc Ünï", "", " \t x y\n\x0b\x0c\r"]
    raw = [w.encode() for w in words] + [b"\xff\xfeA"]
    _check(tf.strings.lower(raw), [s.lower() for s in raw], "lower: ASCII letters only")
    _check(tf.strings.upper(raw, encoding="utf-8"),
           [s.decode("utf-8", "replace").upper().encode() for s in raw], "upper(encoding='utf-8')")
    _check(tf.strings.upper(["straße"], encoding="utf-8"), ["STRASSE".encode()], "upper: full case mapping")
    _check(tf.strings.strip(raw + ["\xa0x".encode()]), [s.strip(b" \t\n\v\f\r") for s in raw] + ["\xa0x".encode()],
           "strip: ASCII whitespace")
    _check(tf.strings.length(raw), [len(s) for s in raw], "length in bytes")
    _check(tf.strings.length(raw + [b"\xe2\x82"], unit="UTF8_CHAR"),
           [sum((b & 0xC0) != 0x80 for b in s) for s in raw + [b"\xe2\x82"]], "length in UTF-8 characters")
    with raises(tf.errors.InvalidArgumentError, call="upper(encoding='latin1')"):
        tf.strings.upper(raw, encoding="latin1")
    with raises(tf.errors.InvalidArgumentError, call="length of an int32 tensor"):
        tf.strings.length(tf.constant([1]))


@clause("ops.string-hash-bucket", ref="tf221")
def test_hash_buckets_in_range_and_stable(tf):
    words = ["", "a", "hello world", "ünï", "exactly8", "more than eight bytes"]
    for fn, args in ((tf.strings.to_hash_bucket, ()), (tf.strings.to_hash_bucket_fast, ()),
                     (tf.strings.to_hash_bucket_strong, ([3, 4],))):
        got = _list(fn(words, 7, *args))
        assert_true(all(0 <= b < 7 for b in got) and got == _list(fn(list(words), 7, *args)),
                    f"buckets {got}, but should be in [0, 7) and the same on every call", call=fn.__name__)
        assert_true(to_numpy(fn(words, 7, *args)).dtype == np.int64, "the buckets are not int64", call=fn.__name__)
    one = _list(tf.strings.to_hash_bucket(words, 2 ** 62))
    assert_true(len(set(one)) == len(words), f"buckets {one} of distinct words collide in 2**62 buckets",
                call="to_hash_bucket(num_buckets=2**62)")
    keyed = [_list(tf.strings.to_hash_bucket_strong(words, 2 ** 62, k)) for k in ([1, 2], [2, 1])]
    assert_true(keyed[0] != keyed[1], f"the key changes nothing: {keyed}", call="to_hash_bucket_strong keys")
    with raises(tf.errors.InvalidArgumentError, call="to_hash_bucket_strong with a key of 3 ints"):
        tf.strings.to_hash_bucket_strong(words, 7, [1, 2, 3])
    with raises(tf.errors.InvalidArgumentError, call="to_hash_bucket(num_buckets=0)"):
        tf.strings.to_hash_bucket(words, 0)


@clause("ops.strings-join", ref="tf221")
def test_join_reduce_join_and_segments(tf):
    grid = [["a", "b", "c"], ["d", "e", "f"]]
    _check(tf.strings.join([grid, "-", grid], separator="|"), [f"{v}|-|{v}".encode() for r in grid for v in r],
           "join with a scalar")
    _check(tf.strings.reduce_join(grid), ["abcdef".encode()], "reduce_join of every axis")
    _check(tf.strings.reduce_join(grid, axis=[0, 1]), ["adbecf".encode()],
           "reduce_join(axis=[0, 1]): the first listed axis varies fastest")
    _check(tf.strings.reduce_join(grid, axis=0, separator=","), ["a,d".encode(), "b,e".encode(), "c,f".encode()],
           "reduce_join(axis=0)")
    got = to_numpy(tf.strings.reduce_join(grid, axis=-1, keepdims=True))
    assert_true(got.shape == (2, 1), f"out.shape={got.shape}, but should be (2, 1)", call="reduce_join keepdims")
    _check(tf.strings.unsorted_segment_join(["w", "x", "y", "z"], [2, 0, 2, 2], 4, separator=":"),
           [b"x", b"", b"w:y:z", b""], "unsorted_segment_join")
    with raises(tf.errors.InvalidArgumentError, call="join of shapes [3] and [2]"):
        tf.strings.join([["a", "b", "c"], ["d", "e"]])
    with raises(tf.errors.OutOfRangeError, call="reduce_join(axis=2) of a matrix"):
        tf.strings.reduce_join(grid, axis=2)
    with raises(tf.errors.InvalidArgumentError, call="unsorted_segment_join with id 4 of 4 segments"):
        tf.strings.unsorted_segment_join(["w", "x"], [0, 4], 4)


@clause("ops.strings-substr", ref="tf221")
def test_substr(tf):
    words = ["hello", "ab", ""]
    _check(tf.strings.substr(words, 0, 3), [w.encode()[:3] for w in words], "substr(0, 3)")
    _check(tf.strings.substr(words[:2], -2, 5), [w.encode()[-2:] for w in words[:2]], "substr(-2, 5)")
    _check(tf.strings.substr(words[:2], 1, -1), [w.encode()[1:] for w in words[:2]], "substr with len -1")
    _check(tf.strings.substr("hello", [1, 0, 2], [1, 2, 3]), [b"e", b"he", b"llo"], "substr broadcast")
    text = "ünïcode"
    _check(tf.strings.substr([text], 1, 2, unit="UTF8_CHAR"), [text[1:3].encode()], "substr in UTF-8 characters")
    with raises(tf.errors.InvalidArgumentError, call="substr(pos=1) of an empty string"):
        tf.strings.substr(words, 1, 3)
    with raises(tf.errors.InvalidArgumentError, call="substr with pos and len of other shapes"):
        tf.strings.substr(words, [1, 0, 0], 1)


@clause("ops.strings-to-number", ref="tf221")
def test_to_number(tf):
    texts = ["1.5", " 2 ", "-.5e1", "0x10", "0x1.8p1", "inf", "-Infinity", "1e40", "4e-46"]
    got = _list(tf.strings.to_number(texts))
    want = [np.float32(float.fromhex(t) if "0x" in t else float(t)) for t in texts]
    assert_true(got == [float(w) for w in want], f"out={got}, but should be {want}", call="to_number(float32)")
    nan = to_numpy(tf.strings.to_number(["nan", "-nan"], tf.float64))
    assert_true(np.isnan(nan).all() and list(np.signbit(nan)) == [False, True], f"out={nan}, but should be "
                "[nan, -nan]", call="to_number of nan texts")
    _check(tf.strings.to_number(["+5", " -7 ", "2147483647"], tf.int32), [5, -7, 2147483647], "to_number(int32)")
    _check(tf.strings.to_number(["18446744073709551615"], tf.uint64), [2 ** 64 - 1], "to_number(uint64)")
    for text, dt in (("1_0", tf.float32), ("1.0", tf.int32), ("2147483648", tf.int32), ("-5", tf.uint32),
                     ("", tf.float64), ("0x10", tf.int64)):
        with raises(tf.errors.InvalidArgumentError, call=f"to_number({text!r}, {dt.name})"):
            tf.strings.to_number(text, dt)


@clause("ops.strings-regex", ref="tf221")
def test_regex_full_match_and_replace(tf):
    words = ["abc", "ab", "", "a\nc"]
    _check(tf.strings.regex_full_match(words, "a.c"), [True, False, False, False], "regex_full_match('a.c')")
    _check(tf.strings.regex_full_match(words, tf.constant("(?s)a.c")), [True, False, False, True],
           "regex_full_match with a pattern tensor")
    _check(tf.strings.regex_replace(["abcabc"], "(b)(c)", "\\2\\1"), [b"acbacb"], "regex_replace with groups")
    _check(tf.strings.regex_replace(["abcabc"], "b", "X", replace_global=False), [b"aXcabc"],
           "regex_replace(replace_global=False)")
    _check(tf.strings.regex_replace(["aaa", "abc"], "a*", "X"), [b"X", b"XbXcX"],
           "regex_replace: no empty match where the last one ended")
    for pattern in ("(a", "a(?=b)", "(a)\\1", "a**", "[z-a]"):
        with raises(tf.errors.InvalidArgumentError, call=f"regex_full_match({pattern!r}): not RE2"):
            tf.strings.regex_full_match(words, pattern)


@clause("ops.strings-unicode", ref="tf221")
def test_unicode_encode_and_transcode(tf):
    cps = [[72, 252], [0x1F600, 0x10FFFF]]
    for enc, py in (("UTF-8", "utf-8"), ("UTF-16-BE", "utf-16-be"), ("UTF-32-BE", "utf-32-be")):
        _check(tf.strings.unicode_encode(cps, enc), ["".join(map(chr, r)).encode(py) for r in cps],
               f"unicode_encode({enc})")
    _check(tf.strings.unicode_encode([72, -1, 0xD800], "UTF-8"), ["H\ufffd\ufffd".encode()],
           "unicode_encode replaces invalid code points")
    _check(tf.strings.unicode_encode([72, -1], "UTF-8", errors="ignore"), [b"H"], "unicode_encode(errors='ignore')")
    raw = [b"ok", b"\xff\xfea", "ünï".encode()]
    _check(tf.strings.unicode_transcode(raw, "UTF-8", "UTF-16-BE"),
           [s.decode("utf-8", "replace").encode("utf-16-be") for s in raw], "unicode_transcode to UTF-16-BE")
    _check(tf.strings.unicode_transcode(raw, "UTF-8", "UTF-8", errors="ignore"),
           [s.decode("utf-8", "ignore").encode() for s in raw], "unicode_transcode(errors='ignore')")
    with raises(tf.errors.InvalidArgumentError, call="unicode_transcode(errors='strict') of invalid UTF-8"):
        tf.strings.unicode_transcode(raw, "UTF-8", "UTF-8", errors="strict")
    with raises(tf.errors.InvalidArgumentError, call="unicode_encode(errors='strict') of -1"):
        tf.strings.unicode_encode([72, -1], "UTF-8", errors="strict")


@clause("ops.strings-ragged", ref="tf221")
def test_split_decode_and_ngrams_are_ragged(tf):
    words = ["a b  c ", "", " x"]
    rt = tf.strings.split(words)
    got = rt.to_list()
    assert_true(got == [w.encode().split() for w in words], f"split gives {got}", call="split at whitespace")
    assert_true(to_numpy(rt.row_splits).tolist() == [0, 3, 3, 4], f"row_splits={to_numpy(rt.row_splits)}, but "
                "should be [0, 3, 3, 4]", call="split's row_splits")
    assert_true(rt.shape.as_list() == [3, None], f"shape={rt.shape}, but should be [3, None]", call="split's shape")
    _check(tf.strings.split("a,b,,c", sep=","), b"a,b,,c".split(b","), "split of a scalar with sep")
    got = tf.strings.split(["a,b,,c"], sep=",", maxsplit=1).to_list()
    assert_true(got == [b"a,b,,c".split(b",", 1)], f"split(maxsplit=1) gives {got}", call="split(maxsplit=1)")
    got = tf.strings.bytes_split(["ab", "ü"]).to_list()
    assert_true(got == [[b"a", b"b"], [bytes([c]) for c in "ü".encode()]], f"bytes_split gives {got}",
                call="bytes_split")
    text = ["Hü😀", ""]
    cps, offs = tf.strings.unicode_decode_with_offsets(text, "UTF-8")
    want = [[ord(c) for c in t] for t in text]
    assert_true(cps.to_list() == want, f"code points {cps.to_list()}, but should be {want}", call="unicode_decode")
    assert_true(offs.to_list() == [[0, 1, 3], []], f"offsets {offs.to_list()}, but should be [[0, 1, 3], []]",
                call="unicode_decode_with_offsets")
    got = tf.strings.unicode_split(text, "UTF-8").to_list()
    assert_true(got == [[c.encode() for c in t] for t in text], f"unicode_split gives {got}", call="unicode_split")
    toks = ["a", "b", "c", "d"]
    _check(tf.strings.ngrams(toks, 2), [f"{a} {b}".encode() for a, b in zip(toks, toks[1:])], "ngrams(2) of 1-D")
    got = tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 3, pad_values="#").to_list()
    # (len + 2 * (width - 1) - width + 1 windows: an empty row still gives two of padding only)
    want = [[b"# # a", b"# a b", b"a b c", b"b c #", b"c # #"], [b"# # d", b"# d #", b"d # #"], [b"# # #"] * 2]
    assert_true(got == want, f"ngrams gives {got}, but should be {want}", call="ngrams(3, pad_values='#')")
    with raises(ValueError, call="ngrams of a scalar"):
        tf.strings.ngrams("a", 2)

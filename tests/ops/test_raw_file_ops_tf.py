"""`tf.raw_ops.ReadFile`, `WriteFile`, `MatchingFiles` and `GenerateVocabRemapping` against real TensorFlow 2.21
(clause ops.raw-ops): their calls need files, so their cases live here rather than in raw_op_cases.json
(scripts/record_raw_op_cases.py ELSEWHERE). Each case makes its own temporary directory on its
backend and returns only what does not depend on its path (contents, base names, errors). Needs the
`tf` extra (or this module's golden).
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

FILE_OPS = ("GenerateVocabRemapping", "MatchingFiles", "ReadFile", "WriteFile")


def _in_dir(body: Callable[[Any, str], Any]) -> Callable[[Any], Any]:
    """The case `body(tf, directory)` run in a fresh temporary directory."""
    def run(tf: Any) -> Any:
        with tempfile.TemporaryDirectory() as d:
            return body(tf, d)
    return run


def _names(tf: Any, filenames: Any) -> Any:
    """The matched files' base names, in the order the op returned them."""
    return tf.constant([os.path.basename(f.decode()) for f in filenames.numpy().tolist()], dtype=tf.string)


def _write_read(tf: Any, d: str) -> Any:
    path = os.path.join(d, "a.bin")
    written = tf.raw_ops.WriteFile(filename=path, contents=tf.constant(b"line\x00two\n\xff"))
    return [tf.constant(repr(written)), tf.raw_ops.ReadFile(filename=path)]


def _overwrite(tf: Any, d: str) -> Any:
    path = os.path.join(d, "a.txt")
    tf.raw_ops.WriteFile(filename=path, contents="first, longer")
    tf.raw_ops.WriteFile(filename=path, contents="second")
    return tf.raw_ops.ReadFile(filename=path)


def _new_directory(tf: Any, d: str) -> Any:
    path = os.path.join(d, "sub", "deeper", "x.txt")
    tf.raw_ops.WriteFile(filename=path, contents="x")
    return tf.raw_ops.ReadFile(filename=path)


def _matching(tf: Any, d: str) -> Any:
    for name in ("c.txt", "a.txt", "b.log", "b.txt"):
        tf.raw_ops.WriteFile(filename=os.path.join(d, name), contents=name)
    return [_names(tf, tf.raw_ops.MatchingFiles(pattern=os.path.join(d, "*.txt"))),
            _names(tf, tf.raw_ops.MatchingFiles(pattern=[os.path.join(d, "b.*"), os.path.join(d, "?.txt")])),
            _names(tf, tf.raw_ops.MatchingFiles(pattern=os.path.join(d, "*.none")))]


def _traced(tf: Any, d: str) -> Any:
    path = os.path.join(d, "t.txt")

    @tf.function(autograph=False)
    def f() -> Any:
        tf.raw_ops.WriteFile(filename=path, contents="in a function")
        return tf.raw_ops.ReadFile(filename=path)
    return f()


_VOCABS = {"new": b"a\nb\nc\nd\ne\n", "old": b"c\na\nx\ne\n", "dup": b"c\na\nc\n", "crlf": b"a\r\nb\r\nc",
           "empty": b"", "blank": b"a\n\nb\n", "last": b"e\nd"}


def _vocab(new: str, old: str, traced: bool = False, **attrs: Any) -> Callable[[Any], Any]:
    """GenerateVocabRemapping of the vocabulary files `new` and `old` (keys of _VOCABS, or "" for an empty name,
    "missing" for a file not there, "dir" for the directory, [name] for a vector), written in the case's directory."""
    def body(tf: Any, d: str) -> Any:
        for name, text in _VOCABS.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(text)

        def path(v: Any) -> Any:
            if isinstance(v, list):
                return [path(x) for x in v]
            return "" if v == "" else d if v == "dir" else os.path.join(d, v)
        kw = {"new_vocab_file": path(new), "old_vocab_file": path(old), "new_vocab_offset": 0, "num_new_vocab": 5,
              **attrs}
        if traced:
            return tf.function(lambda: tf.raw_ops.GenerateVocabRemapping(**kw), autograph=False)()
        return tf.raw_ops.GenerateVocabRemapping(**kw)
    return _in_dir(body)


_VOCAB_CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("GenerateVocabRemapping: all the new vocabulary", "files", _vocab("new", "old")),
    ("GenerateVocabRemapping: an offset", "files", _vocab("new", "old", new_vocab_offset=2, num_new_vocab=3)),
    ("GenerateVocabRemapping: old_vocab_size 2", "files", _vocab("new", "old", old_vocab_size=2)),
    ("GenerateVocabRemapping: none (num_new_vocab 0)", "files", _vocab("new", "old", new_vocab_offset=5, num_new_vocab=0)),
    ("GenerateVocabRemapping: CRLF lines, a last line without newline", "files", _vocab("crlf", "old", num_new_vocab=3)),
    ("GenerateVocabRemapping: old CRLF lines", "files", _vocab("new", "crlf")),
    ("GenerateVocabRemapping: old last line without newline", "files", _vocab("new", "last")),
    ("GenerateVocabRemapping in a tf.function", "files", _vocab("new", "old", traced=True, new_vocab_offset=1, num_new_vocab=2)),
    ("GenerateVocabRemapping: old_vocab_size beyond the file", "errors", _vocab("new", "old", old_vocab_size=9)),
    ("GenerateVocabRemapping: old_vocab_size 0", "errors", _vocab("new", "old", old_vocab_size=0)),
    ("GenerateVocabRemapping: past the new vocabulary", "errors", _vocab("new", "old", new_vocab_offset=3, num_new_vocab=3)),
    ("GenerateVocabRemapping: a repeated old token", "errors", _vocab("new", "dup")),
    ("GenerateVocabRemapping: an empty new file", "errors", _vocab("empty", "old", num_new_vocab=0)),
    ("GenerateVocabRemapping: an empty old file", "errors", _vocab("new", "empty", num_new_vocab=2)),
    ("GenerateVocabRemapping: an empty line", "errors", _vocab("blank", "old", num_new_vocab=3)),
    ("GenerateVocabRemapping: a missing new file", "errors", _vocab("missing", "old", num_new_vocab=1)),
    ("GenerateVocabRemapping: a missing old file", "errors", _vocab("new", "missing", num_new_vocab=1)),
    ("GenerateVocabRemapping: a directory", "errors", _vocab("dir", "old", num_new_vocab=1)),
    ("GenerateVocabRemapping: an empty new name", "errors", _vocab("", "old", num_new_vocab=1)),
    ("GenerateVocabRemapping: an empty old name", "errors", _vocab("new", "", num_new_vocab=1)),
    ("GenerateVocabRemapping: a vector new name", "errors", _vocab(["new"], "old", num_new_vocab=1)),
    ("GenerateVocabRemapping: a vector old name", "errors", _vocab("new", ["old"], num_new_vocab=1)),
    ("GenerateVocabRemapping: a vector name in a tf.function", "errors", _vocab(["new"], "old", traced=True, num_new_vocab=1)),
    ("GenerateVocabRemapping: a negative offset", "errors", _vocab("new", "old", new_vocab_offset=-1, num_new_vocab=1)),
    ("GenerateVocabRemapping: old_vocab_size -2", "errors", _vocab("new", "old", old_vocab_size=-2)),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("WriteFile then ReadFile, bytes and its result", "files", _in_dir(_write_read)),
    ("WriteFile twice replaces the file", "files", _in_dir(_overwrite)),
    ("WriteFile makes the missing directories", "files", _in_dir(_new_directory)),
    ("MatchingFiles: one pattern, patterns, no match", "files", _in_dir(_matching)),
    ("WriteFile then ReadFile in a tf.function", "files", _in_dir(_traced)),
    ("ReadFile of a missing file", "errors", _in_dir(lambda tf, d: tf.raw_ops.ReadFile(
        filename=os.path.join(d, "missing")))),
    ("ReadFile of a directory", "errors", _in_dir(lambda tf, d: tf.raw_ops.ReadFile(filename=d))),
    ("ReadFile of a vector", "errors", _in_dir(lambda tf, d: tf.raw_ops.ReadFile(filename=[d, d]))),
    ("WriteFile of a vector", "errors", _in_dir(lambda tf, d: tf.raw_ops.WriteFile(
        filename=os.path.join(d, "v"), contents=["a", "b"]))),
    ("MatchingFiles of a matrix", "errors", _in_dir(lambda tf, d: tf.raw_ops.MatchingFiles(pattern=[[d]]))),
    ("ReadFile of a number", "errors", _in_dir(lambda tf, d: tf.raw_ops.ReadFile(filename=1))),
] + _VOCAB_CASES

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("files")
def test_raw_file_ops(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("errors")
def test_raw_file_op_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_file_op_has_a_case() -> None:
    """Each raw op this module stands for is called by some case (source text of the cases)."""
    import inspect
    import sys
    text = inspect.getsource(sys.modules[__name__]).split("CASES:")[0]
    missing = [op for op in FILE_OPS if f"tf.raw_ops.{op}(" not in text]
    assert not missing, f"file ops no case calls: {missing}, but each of {FILE_OPS} should be"


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_raw_file_ops_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

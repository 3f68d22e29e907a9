"""Disagreement classes of the fourteenth fuzzer still open: counted by the campaign and the
tests, not failed. A key is (snippet label, kind, TF's sign) as in tests/fuzz4/fz4_known.py: the
label (`fz14_progs`: "call:<op>", "operator:<op>", "call:<a>>call:<b>" for a chain, ...; a key
ending in ":" matches every label it begins), the kind (fz4_run.kind_of; "missing": simdist has
no such function, AttributeError, whatever TF does) and a text TF's outcome contains.

KNOWN_OPEN holds the classes analysed, each saying what TF 2.21 does and what simdist does;
fz14_seen.py holds the classes the first campaigns found and nobody has analysed yet (one line
each: seed, program, mode, both outcomes), so that a new class still fails the tests."""

from __future__ import annotations

from typing import Any

from fz14_seen import SEEN

_MISSING = ("conv", "conv2d_backprop_filter_v2", "conv2d_backprop_input_v2", "make_ndarray", "make_tensor_proto",
            "image.extract_glimpse", "image.generate_bounding_box_proposals", "strings.bytes_split", "strings.join",
            "strings.length", "strings.lower", "strings.ngrams", "strings.reduce_join", "strings.regex_full_match",
            "strings.regex_replace", "strings.split", "strings.strip", "strings.substr", "strings.to_hash_bucket",
            "strings.to_hash_bucket_strong", "strings.to_number", "strings.unicode_decode",
            "strings.unicode_decode_with_offsets", "strings.unicode_encode", "strings.unicode_script",
            "strings.unicode_split", "strings.unicode_split_with_offsets", "strings.unicode_transcode",
            "strings.unsorted_segment_join", "strings.upper", "random.stateless_parameterized_truncated_normal")

KNOWN_OPEN: dict[tuple[str, str, str], str] = {
    **{(f"call:{op}", "missing", ""): f"tf.{op} exists in TF 2.21, not in simdist's facade (simdist: AttributeError)"
       for op in _MISSING},
    ("random:", "value", "calls"):
        "tf.random.set_seed(n) inside a tf.function, then stateful random ops with and without an op seed: TF 2.21 "
        "derives the graph's op seeds from the FuncGraph's seed and its op count at trace time (random_seed.get_seed "
        "with graph._last_id), simdist from its own counter: other numbers in function/sig modes (eager agrees); "
        "seed 14 #11, #50, #119, #126, #139, #221",
    ("random:Generator.", "accepts", "ValueError"):
        "tf.random.Generator.from_seed inside a tf.function creates variables on every call: TF 2.21 raises "
        "ValueError on the first call (the fourth fuzzer's open class `convert:tf.Variable`, fz4_known.py), "
        "simdist's first call returns and later calls raise; seed 14 #192, #220",
    **{(f"call:{op}", "error-class", "'err', 'ValueError'"):
       f"tf.{op} of a MirroredVariable inside strategy.run (fz15b, analysed, not fixed): the distributed variable is "
       "no eager tensor, so TF 2.21 takes the op's eager fallback, which converts each operand to the op's fixed "
       "bool dtype: a float variable (or a float tensor beside it) is ValueError \"Incompatible type conversion "
       "requested to type bool for `tf.Variable of type float32\" / \"Tensor conversion requested dtype bool\"; "
       "simdist raises the kernel's InvalidArgumentError (math.check_distributed_variables covers the type-attr "
       "ops, not the fixed-dtype ones); seed 14 #33, seed 1420261202 #86"
       for op in ("math.logical_not", "logical_or")},
    ("program", "crashed", "Caching devices is not yet supported"):
        "a MirroredStrategy program whose inputs TF 2.21's worker cannot make (NotImplementedError \"Caching devices "
        "is not yet supported when eager execution is enabled.\" from tf.Variable in strategy.scope(), after earlier "
        "programs of the same worker; not analysed: some earlier call leaves a caching device in force), while "
        "simdist runs it; seed 14 #639, seed 1420261202 #678",
}


def _matches(key: tuple[str, str, str], label: str, kind: str, got: Any, want: Any) -> bool:
    name, k, sign = key
    if k == "missing":
        return got == ("err", "AttributeError") and any(part == name for part in label.split(">"))
    return k == kind and (label == name or (name.endswith(":") and label.startswith(name))) and sign in repr(want)


def known_key(prog: Any, t: int, got: Any, want: Any) -> tuple[str, str, str] | None:
    """The open class (analysed, or seen and not analysed) a disagreement of snippet t belongs to, or None."""
    if t < 0:   # (the whole program: a harness crash on one side)
        return next((key for key in KNOWN_OPEN if key[0] == "program" and key[2] in repr(want)), None)
    from fz14_run import kind_of
    label, kind = prog.labels[t], kind_of(got, want)
    for key in list(KNOWN_OPEN) + list(SEEN):
        if _matches(key, label, kind, got, want):
            return key
    return None

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
    **{key: "a MirroredStrategy program whose kept TF 2.21 answer is NotImplementedError for every snippet (TF's "
            "worker state after earlier programs, as the program crash below: analysed in fz15c); a fresh TF worker "
            "(`fz14_campaign.py SEED INDEX 1 --no-keep`) gives no disagreement for the program: simdist's outcomes are "
            "the fresh worker's; seed 14 #645, "
            "seed 1420261202 #953"
       for key in (("unary:not", "error-class", "'err', 'NotImplementedError'"),
                   ("operator:&", "error-class", "'err', 'NotImplementedError'"),
                   ("call:nn.weighted_cross_entropy_with_logits", "error-class", "'err', 'NotImplementedError'"),
                   ("call:linalg.matmul", "error-class", "'err', 'NotImplementedError'"),
                   ("call:linalg.matvec", "error-class", "'err', 'NotImplementedError'"))},
    ("call:linalg.matmul", "error-class", "'err', 'NotFoundError'"):
        "tf.linalg.matmul(a, b, output_type=T) with T unlike a's or b's dtype: TF 2.21 runs BatchMatMulV3 (Ta, Tb, "
        "Tout), whose CPU kernels exist for a few type triples only (int32 x float32 -> int32: NotFoundError); "
        "simdist ignores output_type and raises MatMul's input mismatch (InvalidArgumentError); seed 14 #78",
    ("call:nn.fractional_avg_pool", "error-class", "'err', 'MemoryError'"):
        "a 0-d NumPy array as a list attr (fractional_avg_pool's pooling_ratio=np.array(0.5)): TF 2.21's eager fast "
        "path takes it as a sequence and fails inside (MemoryError std::bad_alloc, as conv3d's strides=np.array(1)); "
        "simdist raises the wrapper's TypeError \"Expected list\"; seed 14 #401",
    ("call:linalg.banded_triangular_solve", "error-class", "'err', 'SystemError'"):
        "tf.linalg.banded_triangular_solve(np.uint64(2), -1): TF 2.21 leaks SystemError from its eager fast path "
        "(\"<class EagerTensor> returned a result with an exception set\"; not analysed further); simdist raises "
        "the op's input mismatch (InvalidArgumentError); seed 1420261202 #462",
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

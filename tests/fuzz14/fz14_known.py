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

_MISSING = ("strings.bytes_split", "strings.join", "strings.length", "strings.lower", "strings.ngrams",
            "strings.reduce_join", "strings.regex_full_match",
            "strings.regex_replace", "strings.split", "strings.strip", "strings.substr", "strings.to_hash_bucket",
            "strings.to_hash_bucket_strong", "strings.to_number", "strings.unicode_decode",
            "strings.unicode_decode_with_offsets", "strings.unicode_encode", "strings.unicode_script",
            "strings.unicode_split", "strings.unicode_split_with_offsets", "strings.unicode_transcode",
            "strings.unsorted_segment_join", "strings.upper")

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
    **{(f"call:{label}", "value", "calls"): f"{label} after tf.random.set_seed(n) inside a tf.function (fz14_progs "
       "puts set_seed before every stateful tf.random call): the `random:` class above, TF 2.21's graph-level seeds "
       "against simdist's (simdist's draws differ from TF's on some calls; seed 14 #535 random.shuffle(seed=42): "
       "simdist's first call differs, its third, after a retrace, is TF's first; seed 1420261202 #253, #920, #239)"
       for label in ("random.normal", "random.shuffle", "random.uniform", "random.uniform>call:divide")},
    **{(f"call:image.{op}", "value", "'ok'"): f"tf.image.{op} without a seed (fz14_progs sets no global seed before "
       "tf.image's random ops): TF 2.21 seeds the kernel nondeterministically (no global seed, no op seed: another "
       "draw in every process), simdist deterministically, so the values cannot agree; compared bit for bit because "
       "fz14_progs._exact's prefix 'imag' matches 'image.' (seed 1420261202 #78, #921; the seeded #787 was "
       "Grappler's ConstantPushDown, fixed in fz15d: function.grappler-rewrites)"
       for op in ("random_brightness", "random_flip_up_down")},
    ("call:signal.ifft2d", "value", "'ok'"):
        "tf.signal.ifft2d of a complex64 [3, 1, 3, 1] (seed 14 #314): TF 2.21's FFT gives -0.16666663 where simdist's "
        "(NumPy's pocketfft in complex64) gives -0.16666667 (one element, a last-bit difference of the FFT's order; "
        "not modelled); flagged only because fz14_progs._exact's prefix 'sign' matches 'signal.', so every tf.signal "
        "call is compared bit for bit",
    ("call:linalg.lstsq", "value", "'ok'"):
        "tf.linalg.lstsq(A, rhs, l2_regularizer=0.5) of a float32 A holding inf (seed 14 #771): TF 2.21's answer is "
        "NaN everywhere (its Cholesky path over AᵀA + λI), simdist's Cholesky solve keeps some columns finite; not "
        "analysed further",
    ("operator:/", "value", "calls"):
        "x / constant inside an input_signature tf.function where x holds float32 subnormals (seed 1420261202 #192): "
        "TF 2.21 computes x * (1/c) on both calls (ReduceDivToReciprocalMul), simdist on the first only (the recording "
        "is abandoned for a subnormal input and its second call divides: 1.0e-03 where TF gives 9.9999993e-04)",
    ("call:strings.as_string", "value", "'dist'"):
        "strategy.reduce SUM (axis None) of a per-replica string tensor (seed 14 #654): TF 2.21 raises "
        "InvalidArgumentError (no string all-reduce), simdist concatenates the strings",
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

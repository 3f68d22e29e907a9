"""Disagreement classes of the fourth fuzzer still open: such a disagreement is counted by the
profiles, not failed. A key is (snippet class, kind, TF's sign): the snippet class as
fz4_campaign.py counts it (`fz4_progs.label_of`; a key ending in ":" matches every class of that
template), the kind (fz3_run.kind_of), and a text that TF's outcome must contain (its repr), so an
entry names one rule, not every disagreement of a class. Each entry says what TF 2.21 does and
what simdist does."""

from __future__ import annotations

from typing import Any

KNOWN_OPEN: dict[tuple[str, str, str], str] = {
    ("unary_op:tf.nn.softmax", "gradient", "0.18174094"):
        "float32 softmax of a Variable [3, 1, 4] under a tape (fz32b: seed 3201 #100; rows [1e10, -7.25, 0.001, "
        "0.001], [3, 0, -0, 0], [-2, 1, 0, 0.5]): TF 2.21's eager oneDNN softmax on this AMD EPYC host gives "
        "0.18174094 and 0.2996401 in the third row and 0.043317165 in the second, simdist 0.18174092, 0.29964012 "
        "and 0.04331717 (its model of the kernel's exponential and division rounds the last bit otherwise); the "
        "rows' sums then miss 1.0 in simdist, so SoftmaxGrad's (1 - sum) * y is about -1e-7 where TF's is exactly 0; "
        "host-dependent, not analysed (ops.host-cpu)",
    ("variable:assign_sub", "error-class", "TypeError"):
        "`x0.assign_sub(np.array([2.5], np.float16), read_value=True)` of a bool Variable, then `len(x0)`, in a "
        "tf.function (fz26b: seed 2601 #139): AssignSubVariableOp has no bool kernel, an error of the graph's run, so "
        "TF 2.21's trace goes on to len() of a ResourceVariable (TypeError \"object of type 'ResourceVariable' has no "
        "len()\"); simdist's trace runs the assignment and stops at the missing kernel (InvalidArgumentError; tracing "
        "past a Variable argument is not modelled: fz27b's dry runs past a kernel's error do not bind variables)",
    ("protocol:np.ndim(x)", "value", "-1"):
        "np.ndim of a tf.function argument of unknown rank (an input_signature TensorSpec(None)): np.ndim reads "
        "`x.ndim`, which TF 2.21's graph tensor gives as TF_GraphGetTensorNumDims, -1 for an unknown rank, so the "
        "function returns -1; simdist traces with the argument's values and its tensors' ndim is the value's rank "
        "(2), which simdist's own kernels read everywhere, so it cannot answer -1 there without a graph tensor type; "
        "seed 2101 #103 (fz21)",
    ("variable:assign_sub", "error-class", "ValueError"):
        "`x0.assign_sub(False)` of a bool Variable in a tf.function (fz32b: fresh seed 3202 #183): TF 2.21 raises "
        "ValueError at trace (assign_sub converts False beside the bool variable and builds AssignSubVariableOp, whose "
        "missing bool kernel is a graph-run error: which step raises the ValueError is not analysed), simdist the "
        "missing kernel's InvalidArgumentError (the bool-variable assignment classes above and below)",
    ("variable:assign_add", "error-class", "TypeError"):
        "a first call whose kernel error (a bool variable's assign_add) comes before a later op's graph-build error "
        "(`v + 0` of the bool variable, TypeError): TF 2.21 builds the whole graph first and raises the TypeError, "
        "simdist's dry runs that find it are not asked for a call with a Variable argument (they pass tensors for "
        "variables), so it raises the kernel's InvalidArgumentError; seed 32 #141. fz13: passing the Variable itself "
        "would not help: AssignAddVariableOp has no bool kernel whatever the values, so every dry run stops there; "
        "a fix needs dry runs that go on past a kernel's run-time error with a placeholder output of the op's "
        "dtype and shape (TF's trace never runs kernels)",
    ("convert:tf.Variable", "trace-time", "UnliftableError"):
        "tf.Variable([x, x], dtype=tf.int64) of an int32 input_signature argument (fz23b: seed 2301 #154): TF 2.21's "
        "get_concrete_function lifts the variable's initial value out of the graph and fails (UnliftableError: "
        "the value depends on a placeholder), and its calls raise ValueError; simdist has no initializer lifting, "
        "so the trace raises the creation's ValueError as the calls do",
    ("convert:tf.Variable", "accepts", "ValueError"):
        "tf.Variable created inside a tf.function on every call: TF 2.21 traces the first call twice (the second "
        "trace refuses the creation: ValueError \"tf.function only supports singleton tf.Variables created on the "
        "first call\") and raises on every call; simdist runs the first call's Python once and meets the rule at "
        "the next call's recording, so its first call returns (fz11: it created a variable on every call before); "
        "seed 2 #50. fz13: a second run of the Python on the first call (a dry run under the refusing creator) "
        "would raise as TF does, but costs the singleton pattern a third Python run (its next call records again; "
        "TF runs the Python twice: tests/runtime/test_function_first_call_variables_tf.py counts them), and that "
        "second run cannot be the recording itself, because a recording charges the simulator and writes the "
        "variables (runtime/graph/recording.py: charges reach the recorder only when they are applied)",
}


def _matches(key: tuple[str, str, str], label: str, kind: str, want: Any) -> bool:
    name, k, sign = key
    return k == kind and (label == name or (name.endswith(":") and label.startswith(name))) and sign in repr(want)


def known_key(prog: Any, t: int, got: Any, want: Any) -> tuple[str, str, str] | None:
    """The open class a disagreement of snippet t belongs to, or None."""
    if t < 0:
        return None
    from fz4_run import kind_of
    label, kind = prog.labels[t], kind_of(got, want)
    return next((key for key in KNOWN_OPEN if _matches(key, label, kind, want)), None)

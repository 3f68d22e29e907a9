"""The golden-backed edge modules of tests/ops (test_op_edges_tf, test_fuzz2_edges_tf,
test_fuzz2_tail_tf, test_fuzz2_values_tf, test_op_gap_tf, test_op_gap3_tf, test_subnormals_tf)
run the same programs on real TF 2.21 and on simdist and compare their outcomes; this is their one
implementation of that.

A module lists CASES, tuples (id, group, program, ...): `group` is the clause (or group) a test
function parametrizes over, `program(tf)` gets a `tf` module and returns a tensor, a (nested)
list of them, or raises. Its outcome is ("ok", [(dtype name, array), ...]) or ("err", exception
class name). Two outcomes agree when they raise the same class, or give as many outputs with the
same dtype names, shapes and values: bit for bit by default (any NaN matches any NaN; -0.0
differs from 0.0), or within a relative tolerance where the module passes one (`within`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pytest

import tf_workers

Outcome = tuple[str, Any]
Agree = Callable[[np.ndarray, np.ndarray], np.ndarray]   # elementwise: where got agrees with want


def _float_like(a: np.ndarray) -> bool:
    """Floats, NumPy's and ml_dtypes' (bfloat16 is kind 'V')."""
    return a.dtype.kind == "f" or (a.dtype.kind == "V" and a.dtype.itemsize in (1, 2))


def bits_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elementwise: the same bits, any NaN matching any NaN (arrays of one shape and dtype)."""
    if not _float_like(got):
        return np.asarray(got == want)
    width = f"u{got.dtype.itemsize}"
    nan = np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))
    return nan | (got.view(width) == want.view(width))


def parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """bits_agree, part by part for complex values (a NaN part matching any NaN)."""
    if got.dtype.kind == "c":
        return bits_agree(got.real.copy(), want.real.copy()) & bits_agree(got.imag.copy(), want.imag.copy())
    return bits_agree(got, want)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal shapes, dtypes and bits (any NaN matches any NaN; -0.0 differs from 0.0)."""
    return a.shape == b.shape and a.dtype == b.dtype and bool(bits_agree(a, b).all())


def within(rtol: float, floors: Mapping[str, float] | None = None, atol_ratio: float = 1e-3) -> Agree:
    """Elementwise agreement within `rtol` (|got - want| <= rtol*|want| + rtol*atol_ratio) for
    kernels TF and simdist compute differently (Eigen's against SciPy's or LAPACK's), NaN with NaN
    and infinities with infinities of the same sign; a dtype named in `floors` gets at least that
    tolerance (float16's and bfloat16's own rounding). rtol 0: bit for bit (`bits_agree`)."""
    if rtol == 0:
        return bits_agree

    def agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
        if not _float_like(got):
            return np.asarray(got == want)
        x, y = got.astype(np.float64), want.astype(np.float64)
        tol = max(rtol, (floors or {}).get(got.dtype.name, 0.0))
        with np.errstate(invalid="ignore", over="ignore"):
            close = np.isfinite(x) & np.isfinite(y) & np.isclose(x, y, rtol=tol, atol=tol * atol_ratio)
        return close | (np.isnan(x) & np.isnan(y)) | (np.isinf(x) & (x == y))
    return agree


def traced(fn: Callable[..., Any], *makers: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A program running fn(tf, *tensors) inside a tf.function that takes the tensors (made by
    `makers` from `tf`) as its arguments, graph tensors as a traced program's inputs are; called once."""
    def run(tf: Any) -> Any:
        made = [make(tf) for make in makers]
        return tf.function(lambda *xs: fn(tf, *xs), autograph=False)(*made)
    return run


def _outputs(out: Any) -> list[Any]:
    """A program's outputs in order, nested lists and tuples flattened."""
    if isinstance(out, (list, tuple)):
        return [o for part in out for o in _outputs(part)]
    return [out]


def _output(o: Any) -> tuple[str, np.ndarray]:
    """(dtype name, array) of a tensor; ("ndarray <dtype>", array) of a NumPy array (an op handed to
    NumPy must be told apart from one that made a tensor); (type name, array) of a Python value."""
    if hasattr(o, "numpy"):
        return o.dtype.name, np.asarray(o.numpy())
    if isinstance(o, np.ndarray):
        return f"ndarray {o.dtype.name}", o
    return type(o).__name__, np.asarray(o)


def outcome(program: Callable[[Any], Any], tf: Any) -> Outcome:
    """("ok", [(dtype name, array), ...]) or ("err", exception class name) of program(tf)."""
    try:
        out = program(tf)
    except Exception as e:  # noqa: BLE001 - the error class is the result
        return ("err", type(e).__name__)
    return ("ok", [_output(o) for o in _outputs(out)])


def describe(result: Outcome) -> str:
    """'raises ValueError' or 'returns float32 (3,), int32 ()' for failure messages."""
    if result[0] == "err":
        return f"raises {result[1]}"
    return "returns " + (", ".join(f"{d} {a.shape}" for d, a in result[1]) or "no outputs")


def _item(x: Any) -> Any:
    return x.item() if hasattr(x, "item") else x


def check_outcome(name: str, want: Outcome, got: Outcome, agree: Agree = bits_agree) -> None:
    """Assert that simdist's outcome `got` is TF's `want` for the case called `name`."""
    if want[0] == "err" or got[0] == "err":
        assert got == want, f"simdist {describe(got)}, but TF 2.21 {describe(want)} [{name}]"
        return
    assert len(got[1]) == len(want[1]), f"simdist {describe(got)}: {len(got[1])} outputs, but TF 2.21 " \
                                        f"{describe(want)} [{name}]"
    for j, ((gd, ga), (wd, wa)) in enumerate(zip(got[1], want[1])):
        assert gd == wd, f"out[{j}].dtype={gd}, but TF 2.21 gives {wd} [{name}]"
        assert ga.shape == wa.shape, f"out[{j}].shape={ga.shape}, but TF 2.21 gives {wa.shape} [{name}]"
        assert ga.dtype == wa.dtype, f"out[{j}] holds {ga.dtype}, but TF 2.21's holds {wa.dtype} [{name}]"
        ok = np.broadcast_to(np.asarray(agree(ga, wa), bool), ga.shape)
        if not ok.all():
            at = [tuple(int(i) for i in ix) for ix in np.argwhere(~ok)[:3]]
            pairs = ", ".join(f"{ix}: {_item(ga[ix])!r} vs {_item(wa[ix])!r}" for ix in at)
            raise AssertionError(f"out[{j}]={ga.ravel()[:8]} (shape {ga.shape}), but TF 2.21 gives {wa.ravel()[:8]}; "
                                 f"{int((~ok).sum())} of {ok.size} differ, first {pairs} [{name}]")


class EdgeModule:
    """One edge module's cases with what every such module needs: the TF worker, TF's answers
    (live or golden, `tf_workers.spawn`), the parametrization of a test function over one group's
    cases, the check of one case, and the groups no test function covers."""

    def __init__(self, module_file: str, cases: Sequence[tuple],
                 agree: Callable[[tuple], Agree] = lambda case: bits_agree) -> None:
        self.module_file = module_file
        self.cases = cases
        self.agree = agree          # the comparison for a case (from its tuple: a tolerance it carries)
        self._covered: list[str] = []

    def outcome(self, tf: Any, k: int) -> Outcome:
        return outcome(self.cases[k][2], tf)

    def tf_worker(self, indices: list[int]) -> dict[int, Outcome]:
        """The worker side (`tf_workers.serve`): TF's outcomes of the cases `indices`."""
        import tensorflow as tf
        return {k: self.outcome(tf, k) for k in indices}

    def tf_answers(self) -> dict[int, Outcome]:
        """TF's outcomes of every case (the module-scoped `tf_results` fixture returns these)."""
        return tf_workers.spawn(self.module_file, list(range(len(self.cases))))

    def parametrize(self, group: str) -> Any:
        """The mark running a test function once per case of `group`, each with the case's id."""
        ks = [k for k, case in enumerate(self.cases) if case[1] == group]
        assert ks, f"no case of group {group} in {self.module_file}"
        self._covered.append(group)
        return pytest.mark.parametrize("k", ks, ids=[self.cases[k][0] for k in ks])

    def check(self, k: int, tf_results: dict[int, Outcome]) -> None:
        """Assert that simdist's outcome of case k is TF's."""
        from simdist import tf
        from simdist.runtime import host_cpu
        case = self.cases[k]
        # simdist models the CPU whose TF answered (oneDNN on or off, its vrcpps tables): this machine's for live
        # answers, a golden's recording host's
        with host_cpu.using(tf_workers.answers_model(self.module_file)):
            got = self.outcome(tf, k)
        check_outcome(case[0], tf_results[k], got, self.agree(case))

    def untested(self) -> list[str]:
        """The groups of cases that no `parametrize` mark runs (sorted)."""
        return sorted({case[1] for case in self.cases} - set(self._covered))

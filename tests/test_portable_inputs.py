"""The modules answered from goldens compute their inputs the same way on every host.

A golden holds TF 2.21's answers for the inputs its module computed where it was recorded; NumPy's
transcendental loops give other last bits on other CPUs (SVML on AVX-512, NumPy's own AVX2 builds,
the C library elsewhere: tests/portable_inputs.py), so a golden-opted module, or a tests/ module
it imports, that builds inputs with them feeds the recorded answers other inputs on another host
(40 cases failed on the AVX2 CI host that way). This test reads those modules' source and names
every such call; the fix is the same function from tests/portable_inputs.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tf_workers

HERE = Path(__file__).resolve().parent
# NumPy ufuncs with a CPU-dispatched float loop whose last bits vary by ISA
# (np.lib.introspect.opt_func_info(): X86_V3/X86_V4 builds, SVML on AVX512_SKX)
DISPATCHED = frozenset({
    "exp", "log", "exp2", "log2", "log10", "expm1", "log1p", "cbrt", "power", "float_power", "sin", "cos", "tan",
    "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
    "logaddexp", "logaddexp2", "hypot"})
RANDOM_NAMES = ("rng", "_rng", "RNG", "_RNG", "r")
# modules whose dispatched calls compute expected values, never inputs: OpSpec references (and their
# helpers), compared with simdist's output within rtol; their inputs come from op_specs.py's generators
REFERENCES_ONLY = {
    f"ops/specs_{area}.py": "NumPy references of OpSpecs (checked within rtol), not inputs"
    for area in ("core", "fidelity", "gap", "math", "nn")}


def _numpy_built(node: ast.AST) -> bool:
    """Whether node's expression calls NumPy or a random generator (so its value is a NumPy array)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            base = sub.func.value
            while isinstance(base, (ast.Attribute, ast.Call, ast.Subscript)):
                base = base.func if isinstance(base, ast.Call) else base.value
            if isinstance(base, ast.Name) and (base.id in ("np", "numpy") or base.id in RANDOM_NAMES):
                return True
    return False


def dispatched_calls(path: Path, root: Path = HERE) -> list[str]:
    """`file:line: what` for each call of a dispatched NumPy function, and each `**` of a NumPy-built
    operand by a non-integer power, in path's source."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        what = None
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.value.id in ("np", "numpy") and node.func.attr in DISPATCHED):
            what = f"np.{node.func.attr}(...)"
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = node.right.operand if isinstance(node.right, ast.UnaryOp) else node.right
            integer = isinstance(exponent, ast.Constant) and isinstance(exponent.value, int)
            if not integer and (_numpy_built(node.left) or _numpy_built(node.right)):
                what = f"{ast.unparse(node)[:60]}"
        if what:
            found.append(f"{path.relative_to(root)}:{node.lineno}: {what}")
    return found


def _golden_modules() -> list[Path]:
    opted = [p for p in sorted(HERE.rglob("test_*.py")) if "tf_or_golden(" in p.read_text()]
    return sorted({path for module in opted for path in tf_workers.import_closure(module)})


def test_golden_modules_use_portable_inputs() -> None:
    modules = _golden_modules()
    assert len(modules) >= 50, f"found {len(modules)} golden-opted modules and their imports, expected 50 or more"
    names = {path.relative_to(HERE).as_posix() for path in modules}
    stale = sorted(set(REFERENCES_ONLY) - names)
    assert not stale, f"REFERENCES_ONLY names {stale}, which no golden-opted module imports: remove them"
    found = [hit for path in modules if path.name != "portable_inputs.py"
             and path.relative_to(HERE).as_posix() not in REFERENCES_ONLY for hit in dispatched_calls(path)]
    assert not found, (
        f"{len(found)} input(s) of golden-opted modules come from NumPy functions whose last bits depend on the "
        f"CPU (their goldens then answer other inputs on another host); use tests/portable_inputs.py "
        f"(exp, log, power, pow2, pow10, log_uniform) instead:\n" + "\n".join(found))


def test_the_check_sees_dispatched_inputs(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import numpy as np\nrng = np.random.default_rng(0)\nx = 10 ** rng.uniform(0, 1, 3)\n"
                     "y = np.arange(3.0) ** 1.5\nz = np.exp(x)\nw = np.arange(3.0) ** 2\nt = lambda tf, a: a ** 0.5\n")
    hits = dispatched_calls(probe, root=tmp_path)
    assert [h.split(": ", 1)[0].rsplit(":", 1)[1] for h in hits] == ["3", "4", "5"], (
        f"the check found {hits}, but should flag lines 3 (10 ** uniform), 4 (arange ** 1.5) and 5 (np.exp), "
        f"not 6 (an integer power) or 7 (a tensor's power)")


SUITE = HERE.parent / "simdist" / "conformance" / "suite"
# dispatched calls in recorded suite modules that are portable all the same, each with the evidence
SUITE_PORTABLE = {
    "test_blind62_gaps.py": "np.exp of float32 logits only: NumPy's AVX-512F and AVX2 builds of float32 exp agree on "
                            "1,000,000 of 1,000,000 inputs in [-30, 30) (NPY_DISABLE_CPU_FEATURES=AVX512F..., "
                            "2026-12-06, an AVX-512 Xeon), and the module's programs pass on both hosts"}


def _recorded_suite_modules() -> list[Path]:
    """The suite modules whose expected values are TF 2.21's recorded answers (a reference .json.gz they name)."""
    return [p for p in sorted(SUITE.glob("*.py"))
            if p.name != "portable.py" and ("_reference.json.gz" in (text := p.read_text()) or "RecordedPrograms" in text)]


@pytest.mark.clause("ops.host-cpu")
def test_recorded_suite_modules_use_portable_inputs() -> None:
    """The suite's recordings (blind61-67's were made on an AVX2 host, this session's on an AVX-512 one) answer the
    inputs their host computed: kpaths54's `10.0 ** r.uniform(...)` fed 55 float64 and complex128 programs other
    inputs on an AVX-512 Xeon than on the AVX2 host that recorded them (2026-12-06)."""
    modules = _recorded_suite_modules()
    assert len(modules) >= 20, f"found {len(modules)} recorded suite modules, expected the ~30 with a reference file"
    stale = sorted(set(SUITE_PORTABLE) - {p.name for p in modules})
    assert not stale, f"SUITE_PORTABLE names {stale}, which are not recorded suite modules: remove them"
    found = [hit for path in modules if path.name not in SUITE_PORTABLE for hit in dispatched_calls(path, SUITE)]
    assert not found, (
        f"{len(found)} input(s) of recorded suite modules come from NumPy functions whose last bits depend on the "
        f"CPU (the recording then answers other inputs on another host); use "
        f"simdist/conformance/suite/portable.py (exp, sin, power, log_uniform) instead:\n" + "\n".join(found))

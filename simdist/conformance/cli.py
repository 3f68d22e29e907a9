"""``simdist conformance`` and ``simdist conformance-matrix``.

    simdist conformance --backend NAME [--report out.json] [--junit out.xml]
                        [--markdown out.md] [--xfails FILE] [--max-examples N]
                        [--profile default|ci|thorough] [-k EXPR] [-- PYTEST_ARGS...]

Exit status: 0 every selected test passed (known deviations listed in the xfail file count as
expected), 1 a clause failed (or a listed deviation unexpectedly passed), 2 bad input (unknown
backend, bad xfail file, no tests selected), 3 an internal error.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Sequence

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", required=True,
                   help="simdist, tensorflow, an entry point of group simdist.backends, or module:factory")
    p.add_argument("--report", metavar="FILE.json", help="write the clause-keyed JSON report")
    p.add_argument("--junit", metavar="FILE.xml", help="write JUnit XML")
    p.add_argument("--markdown", metavar="FILE.md", help="write a Markdown report")
    p.add_argument("--xfails", metavar="FILE|none",
                   help="known-deviation file (default: the suite's own file for built-in backends)")
    p.add_argument("--max-examples", type=int, metavar="N", help="hypothesis examples per property")
    p.add_argument("--profile", default="default", choices=("default", "ci", "thorough"),
                   help="hypothesis budget profile (default: %(default)s)")
    p.add_argument("--hypothesis-seed", metavar="SEED", help="repeat a run's hypothesis seed")
    p.add_argument("-k", dest="keyword", metavar="EXPR", help="only tests matching EXPR (pytest -k)")
    p.add_argument("-q", "--quiet", action="count", default=0, help="less output")
    p.add_argument("pytest_args", nargs="*", metavar="-- PYTEST_ARGS",
                   help="further pytest arguments after `--`")


def pytest_argv(args: argparse.Namespace) -> list[str]:
    # Not imported from the plugin: pytest must import the plugin itself (assertion rewriting).
    SUITE_DIR = Path(__file__).resolve().parent / "suite"
    argv = [str(SUITE_DIR), "-p", "simdist.conformance.plugin", "-p", "no:cacheprovider",
            f"--rootdir={SUITE_DIR.parent}", "--backend", args.backend,
            "--conformance-profile", args.profile, "-r", "fEX"]
    for opt, val in (("--report", args.report), ("--junit", args.junit), ("--markdown", args.markdown),
                     ("--xfails", args.xfails), ("--hypothesis-seed", args.hypothesis_seed),
                     ("-k", args.keyword)):
        if val:
            argv += [opt, str(val)]
    if args.max_examples is not None:
        argv += ["--max-examples", str(args.max_examples)]
    argv += ["-q"] * args.quiet
    argv += list(args.pytest_args or [])
    return argv


def run_on_simdist(plugin: Any, keyword: str | None = None, profile: str = "default",
                   extra: Sequence[str] = ()) -> int:
    """Run the suite against simdist in this process with one more pytest plugin (the suite
    surveys of benchmarks/: suite_options.py, suite_gradients.py); pytest's exit code."""
    import pytest
    ns = argparse.Namespace(backend="simdist", profile=profile, report=None, junit=None, markdown=None, xfails=None,
                            hypothesis_seed="0", keyword=keyword, max_examples=None, quiet=1, pytest_args=list(extra))
    return int(pytest.main(pytest_argv(ns), plugins=[plugin]))


def _check_inputs(args: argparse.Namespace) -> None:
    """Bad input found before pytest starts, so it is reported like every other command's
    (``simdist conformance: error: ...``, exit 2) instead of as a pytest INTERNALERROR."""
    from simdist.usage import UsageError
    from simdist.conformance.registry import BackendNotFound, preload

    if args.max_examples is not None and args.max_examples < 1:
        raise UsageError(f"--max-examples {args.max_examples}: expected >= 1")
    if args.xfails and args.xfails.lower() != "none" and not Path(args.xfails).is_file():
        raise UsageError(f"--xfails {args.xfails}: no such file")
    from simdist.scenario.outputs import check_file_path
    for flag, path in (("--report", args.report), ("--junit", args.junit), ("--markdown", args.markdown)):
        if path:
            check_file_path(path, flag)   # before the suite runs, not after
    try:
        preload(args.backend)
    except BackendNotFound as e:
        raise UsageError(f"--backend {args.backend}: {e}") from None


def run(args: argparse.Namespace) -> int:
    import pytest

    _check_inputs(args)
    code = int(pytest.main(pytest_argv(args)))
    if code == 5:   # pytest: no test collected or selected
        from simdist.usage import UsageError
        what = f"-k {args.keyword}" if args.keyword else "the arguments " + " ".join(args.pytest_args or [])
        raise UsageError(f"{what} selected no test of the suite (rule: -k takes a pytest keyword expression over "
                         "test names, e.g. -k 'gather and not rank0' or -k partial_batch)")
    # pytest: 0 ok, 1 tests failed, 2 interrupted, 3 internal error, 4 usage error
    return {0: EXIT_OK, 1: EXIT_FAILURE, 2: EXIT_USAGE, 3: EXIT_INTERNAL, 4: EXIT_USAGE}.get(code, EXIT_INTERNAL)


def _matrix(args: argparse.Namespace) -> int:
    from simdist.conformance import matrix

    return matrix.run(args, matrix.command_line(args, "simdist conformance-matrix"))


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "conformance", help="run the tf.distribute conformance suite against a backend",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    p.set_defaults(func=run)
    from simdist.conformance import matrix

    m = subparsers.add_parser(
        "conformance-matrix", help="build docs/conformance-matrix.md from real runs of simdist and TensorFlow releases",
        description=matrix.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    matrix.add_arguments(m)
    m.set_defaults(func=_matrix)


def main(argv: Sequence[str] | None = None) -> int:
    from simdist.usage import UsageError

    parser = argparse.ArgumentParser(prog="python -m simdist.conformance", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except UsageError as e:
        import sys
        print(f"simdist conformance: error: {e}", file=sys.stderr)
        return EXIT_USAGE

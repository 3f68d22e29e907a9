"""The `simdist` command: one subcommand per module, each registering itself.

Exit codes: 0 success; 1 the command ran and found a failure (a regression, a failing
conformance clause, a determinism mismatch); 2 bad input (usage, scenario or file errors);
3 an internal error (a bug in simdist: rerun with --debug and report the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

# Each module exposes `register(subparsers) -> None`, setting `func(args) -> int` as default.
SUBCOMMAND_MODULES = (
    "simdist.scenario.cli_run",
    "simdist.sweep.cli_sweep",
    "simdist.scenario.cli_gate",
    "simdist.scenario.cli_replay",
    "simdist.explore.cli_explore",
    "simdist.conformance.cli",
)

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="simdist",
        description="Deterministic simulator and conformance suite for tf.distribute.",
        epilog="Exit codes: 0 ok, 1 failure found (regression, failing clause), 2 bad input, 3 internal error.",
    )
    parser.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for modname in SUBCOMMAND_MODULES:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name and modname.startswith(e.name):
                continue  # subcommand not built yet
            raise
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args) or 0)
    except UsageError as e:
        if args.debug:
            raise
        print(f"simdist {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 - the CLI boundary turns bugs into one line + exit 3
        if args.debug:
            raise
        print(f"simdist {args.command}: internal error: {type(e).__name__}: {e} (rerun with --debug for the traceback)",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    # Run through the importable module, so `except UsageError` matches the class that
    # subcommands raise (simdist.cli.UsageError, not __main__.UsageError).
    from simdist.cli import main as _main
    sys.exit(_main())

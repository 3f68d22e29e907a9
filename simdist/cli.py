"""The `simdist` command: one subcommand per module, each registering itself.

Exit codes: 0 success; 1 the command ran and found a failure (a regression, a failing
conformance clause, a determinism mismatch) or ran out of memory; 2 bad input (usage, scenario or file errors);
3 an internal error (a bug in simdist: rerun with --debug and report the traceback); 130 interrupted
(Ctrl-C or SIGTERM: one line says what was kept and how to resume).
`--debug` (before or after the subcommand) adds the traceback without changing the code; a reader
that closes stdout early (`| head`) never changes it either.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from typing import Any, Sequence

from simdist.usage import UsageError

__all__ = ["UsageError", "build_parser", "main"]

# Each module exposes `register(subparsers) -> None`, setting `func(args) -> int` as default.
SUBCOMMAND_MODULES = (
    "simdist.scenario.cli_run",
    "simdist.sweep.cli_sweep",
    "simdist.scenario.cli_gate",
    "simdist.sweep.cli_replay",
    "simdist.explore.cli_explore",
    "simdist.conformance.cli",
    "simdist.validation.cli",
    "simdist.launch.cli_launch",
)

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="simdist",
        description="Deterministic simulator and conformance suite for tf.distribute.",
        epilog="Exit codes: 0 ok, 1 failure found (regression, failing clause), 2 bad input, 3 internal error, "
               "130 interrupted.",
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
    # `--debug` works after the subcommand too (`simdist run X --debug`); SUPPRESS keeps a
    # subparser from resetting the value given before the subcommand.
    for p in sub.choices.values():
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show the full traceback of an error (the exit code stays the same)")
    return parser


class _PipeSafe:
    """A text stream that stops writing, silently, once its reader has gone (``simdist gate ... |
    head -2``): the command runs to its end and keeps its exit code. The file descriptor is then
    pointed at /dev/null so that the interpreter's final flush does not fail either."""

    def __init__(self, stream: Any) -> None:
        self._s = stream
        self.closed_pipe = False

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                return self._s.write(text)
            except BrokenPipeError:
                self._broken()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._s.flush()
            except BrokenPipeError:
                self._broken()

    def _broken(self) -> None:
        self.closed_pipe = True
        try:
            fd = self._s.fileno()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._s, name)


def main(argv: Sequence[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _PipeSafe(out), _PipeSafe(err)
    try:
        from simdist.scenario.interrupts import saved_handlers
        with saved_handlers(restore=argv is not None):
            return _main(argv)
    except KeyboardInterrupt:   # before a subcommand started (while importing it)
        from simdist.scenario.interrupts import forget_handled_interrupt
        forget_handled_interrupt()
        print("simdist: interrupted; nothing was written", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if argv is None:   # a process of its own: the command is over, a late Ctrl-C must not
            from simdist.scenario.interrupts import ignore_interrupts   # kill its exit (-2)
            ignore_interrupts()
        try:
            sys.stdout.flush()
        finally:
            sys.stdout, sys.stderr = out, err


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    debug = getattr(args, "debug", False)
    # Python's and NumPy's global generators seeded from the root seed before any work (a run
    # without any seed is reproducible; a program's own np.random.seed still rules its draws)
    from simdist.sim.rng import seed_globals
    root = getattr(args, "seed", None)
    seed_globals(root if isinstance(root, int) and not isinstance(root, bool) else 0, f"cli/{args.command}")
    from simdist.scenario.interrupts import sigterm_as_interrupt
    try:
        with sigterm_as_interrupt():
            return int(args.func(args) or 0)
    except UsageError as e:
        if debug:
            traceback.print_exc()
        print(f"simdist {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except MemoryError:   # the machine's limit, not a bug: say so and how to size the run (exit 1)
        if debug:
            traceback.print_exc()
        print(f"simdist {args.command}: error: out of memory (the process could not allocate what the work needs; "
              "`simdist run FILE --dry-run` estimates a scenario's memory: make the model, batch, cluster or number "
              "of steps smaller)", file=sys.stderr)
        return EXIT_FAILURE
    except Exception as e:  # noqa: BLE001 - the CLI boundary turns bugs into one line + exit 3
        cause = _interrupt_in(e)
        if cause is None:
            return _internal(args.command, e, debug)
        return _interrupted(args.command, cause, debug)
    except KeyboardInterrupt as e:
        return _interrupted(args.command, e, debug)


def _interrupt_in(e: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt an exception wraps (Python turns one raised while a class is being
    made, e.g. during an import, into a RuntimeError), or None."""
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return None


def _interrupted(command: str, e: KeyboardInterrupt, debug: bool) -> int:
    """Ctrl-C or SIGTERM: the command's cleanup has run (children ended, partial files removed).
    A further Ctrl-C now would only kill the interpreter on its way out (exit -2, a traceback):
    the command is over, so interrupts are ignored from here on (in-process callers get their
    handlers back from `main`)."""
    from simdist.scenario.interrupts import forget_handled_interrupt, ignore_interrupts, note
    ignore_interrupts()
    forget_handled_interrupt()
    if debug:
        traceback.print_exc()
    how = f" ({e.args[0]})" if e.args and isinstance(e.args[0], str) and e.args[0].startswith("SIG") else ""
    print(f"simdist {command}: interrupted{how}; {note()}", file=sys.stderr)
    return EXIT_INTERRUPTED


def _internal(command: str, e: Exception, debug: bool) -> int:
    if debug:
        traceback.print_exc()
        print(f"simdist {command}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
    else:
        print(f"simdist {command}: internal error: {type(e).__name__}: {e} (rerun with --debug for the "
              "traceback)", file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":
    # Run through the importable module, so that its globals (not __main__'s copy) are the ones used.
    from simdist.cli import main as _main
    sys.exit(_main())

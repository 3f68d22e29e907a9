"""The invariants a run must keep: built in, and the user's (metric predicates, Python checks).

Built in (docs/faults.md states the promises they check):

- ``accounting``: no function lost or applied twice. Every scheduled function ended
  (completed, failed or cancelled; none pending); a function is put back only by a preemption
  (retries <= preemptions); a completed run completed every step, and its completed functions
  are its steps plus those redone after a checkpoint restore, no more, no fewer. A
  multi_worker_mirrored job: its step applications are its steps plus those a restart rolled
  back (``steps_applied = steps_completed + steps_redone``), and every restore brought back
  exactly the saved state (``restore_mismatches = 0``).
- ``remote_values``: every RemoteValue is resolved: a completed function's holds a value, a
  failed one's a `tf.errors` error, a cancelled one's the CancelledError TF documents.
- ``ends``: the run ends: no deadlock, no error of simdist itself, a failed run fails with a
  documented error, within the simulated-time and wall-time limits.
- ``determinism``: checked by the driver on a sample (a fresh process, another PYTHONHASHSEED).

User checks are ``module:function`` callables ``fn(metrics, variables)``: ``metrics`` is the
run's metrics.json document, ``variables`` maps each model variable's name to the run's
variable (timing-only parameter_server runs have shape-only variables, without values;
synchronous runs none). They return None/True (kept), False or a message (violated), or raise
AssertionError (violated, with its message).
"""

from __future__ import annotations


from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

__all__ = ["BUILTIN", "Violation", "first", "accounting", "remote_values", "run_error", "load_check", "call_check",
           "CheckError"]

BUILTIN = {
    "accounting": "no function lost or applied twice (every scheduled function ended; retries <= preemptions; "
                  "completed = steps + redone; multi_worker_mirrored: steps_applied = steps_completed + steps_redone "
                  "and every restore brought back the saved state)",
    "remote_values": "every RemoteValue resolved: a value, a tf.errors error, or TF's CancelledError",
    "determinism": "a re-run in a fresh process with another PYTHONHASHSEED gives byte-identical metrics",
    "ends": "the run ends: no deadlock, no internal error, within the simulated-time and wall-time limits",
}

# What TF 2.21 (and simdist) put in a cancelled function's RemoteValue (docs/faults.md, clause coord.errors).
_CANCELLED = ("The corresponding function is cancelled. Please reschedule the function.",
              "The corresponding function is aborted. Please reschedule the function.")
_CANCELLED_RUNNING = "The function "


@dataclass(frozen=True)
class Violation:
    invariant: str     # "accounting", "predicate: retries <= 50", "check: mod:fn", ...
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"invariant": self.invariant, "message": self.message}


def first(problems: list[str], limit: int = 3) -> str:
    more = f" (and {len(problems) - limit} more)" if len(problems) > limit else ""
    return "; ".join(problems[:limit]) + more


def accounting(metrics: dict[str, Any], steps: int) -> list[str]:
    """What breaks the closure accounting of a run's metrics ([] when it holds)."""
    s, c = metrics["summary"], metrics.get("coordinator")
    out = []
    ok = metrics["status"] == "ok"
    if ok and s.get("steps_completed") != steps:
        out.append(f"the run completed but steps_completed = {s.get('steps_completed')} != training.steps = {steps}")
    if "steps_applied" in s:   # a synchronous job with restarts (multi_worker_mirrored)
        applied, redone, done = int(s["steps_applied"]), int(s["steps_redone"]), int(s["steps_completed"])
        if applied != done + redone:
            out.append(f"steps_applied {applied} != steps_completed {done} + steps_redone {redone}: "
                       + ("a step was applied more than once" if applied > done + redone
                          else "an applied step was lost"))
        if s.get("restore_mismatches"):
            out.append(f"{int(s['restore_mismatches'])} restore(s) brought back a state that differs from the saved "
                       "checkpoint")
    if c is None:
        return out
    cl = c["closures"]
    if cl["pending"]:
        out.append(f"{cl['pending']} function(s) never ended (still queued or running when the run ended)")
    if cl["scheduled"] != cl["completed"] + cl["failed"] + cl["cancelled"] + cl["pending"]:
        out.append(f"closures scheduled {cl['scheduled']} != completed {cl['completed']} + failed {cl['failed']} + "
                   f"cancelled {cl['cancelled']} + pending {cl['pending']}: a function in an unknown state")
    if c["retries"] > c["preemptions"]:
        out.append(f"retries {c['retries']} > preemptions {c['preemptions']}: a function was put back without a "
                   "preemption")
    if ok:
        redone = int(s.get("redone_closures", 0))
        if cl["completed"] != s["steps_completed"] + redone:
            out.append(f"closures_completed {cl['completed']} != steps_completed {s['steps_completed']} + "
                       f"redone_closures {redone}: "
                       + ("a function was applied more than once" if cl["completed"] > s["steps_completed"] + redone
                          else "a completed function was lost"))
    return out


def remote_values(report: Iterable[tuple[int, str, int, str, BaseException | None]]) -> list[str]:
    """What breaks "every RemoteValue resolved with a documented outcome" in a coordinator's
    `closure_report()` ([] when it holds)."""
    from simdist.runtime.errors import CancelledError, OpError
    out = []
    for seq, state, attempts, status, err in report:
        where = f"function #{seq} ({state}, {attempts} attempt(s))"
        if status not in ("READY", "ABORTED"):
            out.append(f"{where}: its RemoteValue is {status}, never resolved")
        elif state == "completed":
            if err is not None:
                out.append(f"{where}: completed but fetch() raises {type(err).__name__}: {err}")
            elif attempts < 1:
                out.append(f"{where}: completed without ever running")
        elif state == "failed":
            if err is None:
                out.append(f"{where}: failed without an error")
            elif not isinstance(err, OpError):
                out.append(f"{where}: failed with {type(err).__name__}: {err}, not a tf.errors error")
        elif state == "cancelled":
            msg = str(err) if err is not None else ""
            if not isinstance(err, CancelledError):
                out.append(f"{where}: cancelled with {type(err).__name__ if err is not None else 'no error'}, not "
                           "CancelledError")
            elif not (msg in _CANCELLED or (msg.startswith(_CANCELLED_RUNNING) and "was cancelled while running"
                                              in msg)):
                out.append(f"{where}: CancelledError with an undocumented message {msg!r}")
    return out


def run_error(metrics: dict[str, Any]) -> str | None:
    """Why a failed run's error is not a documented outcome (None when it is, or the run is ok): a
    `tf.errors` error (out of memory, an unrecovered ps failure) or the runner's RunFailure are;
    a deadlock (SimulationStalled) is not: the run never ends."""
    if metrics["status"] == "ok":
        return None
    from simdist.runtime import errors
    err = metrics.get("error") or ""
    name = err.split(":", 1)[0]
    if name == "SimulationStalled":
        return f"deadlock: {err}"
    documented = {n for n in dir(errors) if isinstance(getattr(errors, n), type)
                  and issubclass(getattr(errors, n), errors.OpError)} | {"RunFailure", "UserCodeError"}
    if name not in documented:
        return f"failed with an undocumented error: {err}"
    return None


# ---------------------------------------------------------------------------------------------- user checks
class CheckError(ValueError):
    """A `module:function` check that cannot be loaded (the message says why, with a did-you-mean)."""


def load_check(ref: str, search: Sequence[str] = ()) -> Callable[..., Any]:
    """Import the check ``module:function`` by the rule of `simdist.scenario.usercode` (``search``:
    the scenario's directory and the working directory, as `search_dirs` gave them)."""
    from simdist.scenario.usercode import UserCodeError, resolve
    try:
        return resolve(ref, f"check {ref!r}", None, list(search))
    except UserCodeError as e:
        raise CheckError(str(e)) from None


CHECK_TIME_S = 60.0   # a check's own limit when the run's wall-time limit leaves it less than this: the rest


def call_check(ref: str, fn: Callable[..., Any], metrics: dict[str, Any], variables: dict[str, Any],
               timeout_s: float = CHECK_TIME_S) -> Violation | None:
    """Run one user check on a copy of the metrics (what it changes changes nothing else), within
    ``timeout_s`` seconds of wall time; a Violation if it says the run broke it, or if it crashed
    (SystemExit and KeyboardInterrupt included) or did not return in time."""
    import copy
    from simdist.scenario.usercode import blame, call_bounded, raised
    how, got = call_bounded(fn, (copy.deepcopy(metrics), variables), timeout_s)
    if how == "timeout":
        return Violation(f"check: {ref}", f"the check did not return within {timeout_s:.3g} s of wall time "
                                          "(rule: a check returns within [explore] max_wall_time)")
    if how == "raised":
        if isinstance(got, AssertionError):
            return Violation(f"check: {ref}", str(got) or "assertion failed")
        where = blame(got)
        return Violation(f"check: {ref}", f"the check {raised(got)}" + (f" (at {where})" if where else ""))
    if got is None or got is True:
        return None
    if got is False:
        return Violation(f"check: {ref}", "returned False")
    return Violation(f"check: {ref}", str(got))


def search_dirs(file: str) -> list[str]:
    """Where user checks are imported from: the scenario file's directory, then the working
    directory (`simdist.scenario.usercode.search_dirs`, the rule of every user module)."""
    from simdist.scenario.usercode import search_dirs as dirs
    return dirs(file)

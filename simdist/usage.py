"""UsageError: bad input from the user, the one error class every command shares.

It lives in this base module, not in `simdist.cli`, so that the rooms below the CLI (scenario,
sweep, explore, conformance) raise it without importing the command line that sits above them;
`simdist.cli` turns it into one line and exit code 2 (and keeps the name importable).
"""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""

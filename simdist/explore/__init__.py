"""Explore fault plans: random failures against invariants, shrunk to a minimal reproducer.

`simdist explore FILE` draws N random fault plans for the scenario's cluster (preemptions, ps
failures, stragglers, degraded links; rates and windows from the scenario's `[explore]` table),
runs them on the sweep executors, checks the built-in invariants (no function lost or applied
twice, every RemoteValue resolved with a documented error, determinism in a fresh process, the
run ends) and the user's (metric predicates, Python checks), shrinks each distinct failure to a
minimal plan (delta debugging on its events) and writes a report, a histogram, JUnit XML and a
ready `[[faults.*]]` fragment with the command that reproduces it byte for byte.

Modules: `config` (the [explore] table), `predicates` (metric predicates), `plans` (drawing
plans, their TOML and overrides), `limits` (wall/simulated-time watchdog), `invariants`
(the checks), `worker` (one plan -> one result row), `shrink` (delta debugging), `driver`
(baseline, plans on an executor, determinism sample, shrinking), `report` (files),
`cli_explore` (the subcommand). See docs/failure-injection.md and docs/cli.md.
"""

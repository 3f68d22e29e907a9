"""Show that the harden16 suite family kills mutants: plant each (a catalogue id, or one of
OWN below, which are not in the catalogue) in a private copy of the committed package and run only
``-k harden16`` of the conformance suite against it (simdist backend).

    python benchmarks/harden16_kills.py ID [ID ...]     # catalogue ids, own:NAME, or baseline

Prints one line per mutant: killed (with the first failing test) or survived.
"""

from __future__ import annotations

import sys

from suite_kills import find as _find, mutants, run as _run

_K = "simdist/keras/"
#: Five bugs written for this check (kinds the harden16 family enumerates), not in the catalogue.
OWN = {
    "adam-config-beta2-from-beta1": mutants.Mutant(
        "adam-config-beta2-from-beta1", "order", _K + "optimizers/adam.py",
        '"beta_2": self.beta_2', '"beta_2": self.beta_1', "Adam's config writes beta_2 from beta_1",
        layer="training"),
    "history-params-without-steps": mutants.Mutant(
        "history-params-without-steps", "state", _K + "callbacks/callback.py",
        "        self.params = params\n", "        self.params = {k: v for k, v in (params or {}).items() if k != 'steps'}\n",
        "the callbacks' params lack 'steps'", layer="training"),
    "test-end-logs-empty": mutants.Mutant(
        "test-end-logs-empty", "state", _K + "trainers/trainer.py",
        "        callbacks.on_test_end(logs)\n        if return_dict:",
        "        callbacks.on_test_end({})\n        if return_dict:", "evaluate's on_test_end gets empty logs",
        layer="training"),
    "pool-same-floor": mutants.Mutant(
        "pool-same-floor", "boundary", _K + "layers/argument_validation.py",
        "    elif padding == \"same\":\n        out = np.floor((spatial - 1) / strides) + 1\n    else:\n        raise ValueError(f\"Argument `padding` must be either 'valid' or 'same'. Received: padding={padding}\")",
        "    elif padding == \"same\":\n        out = np.floor(spatial / strides)\n    else:\n        raise ValueError(f\"Argument `padding` must be either 'valid' or 'same'. Received: padding={padding}\")", "a 'same' pooling's output length is floor(n / s), not ceil", layer="training"),
    "metrics-names-compiled-last": mutants.Mutant(
        "metrics-names-compiled-last", "order", _K + "trainers/trainer.py",
        "        return [m.name for m in self.metrics]\n",
        "        names = [m.name for m in self.metrics]\n"
        "        return [n for n in names if n != 'compile_metrics'] + [n for n in names if n == 'compile_metrics']\n", "metrics_names lists compile_metrics after the output losses",
        layer="training"),
}


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


def run(m: mutants.Mutant | None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the family."""
    return _run(m, "harden16")


if __name__ == "__main__":
    for mid in sys.argv[1:]:
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid))}", flush=True)

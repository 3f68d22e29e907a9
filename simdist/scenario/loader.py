"""Load and validate scenario files: tomllib + the schema in `schema`, every error at once.

    from simdist.scenario import load
    sc = load("scenarios/mirrored_allreduce.toml", overrides=["training.steps=5"])
    sc.config["model"]["global_batch"]      # validated, defaults filled, units in SI

Validation has two passes (see `validate`). All problems of both passes are raised together as
one `ScenarioError`; each names the file, the line (when it can be found), the key path and the
rule that was broken.

Nothing here imports the simulator: a `Topology` sketch of the cluster (`sketch`) is enough to
validate, so `simdist sweep` and `--dry-run` stay cheap. The concepts live in their own modules:
`tomlread` (reading TOML, source lines), `values` (units and FLOP counts), `overrides` (--param,
seed ranges), `sketch` (the cluster's names), `validate` (the two passes), `errors`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .errors import Issue, ScenarioError
from .overrides import apply_override, parse_override, parse_seeds, parse_value, split_values
from .schema import DTYPES
from .sketch import Topology, resolve_link
from .tomlread import limit_problems, read_toml
from .validate import _Validator

__all__ = ["Issue", "ScenarioError", "Scenario", "Topology", "load", "loads", "parse_value", "parse_override",
           "split_values", "parse_seeds", "apply_override", "resolve_link"]


@dataclass
class Scenario:
    """A validated scenario: ``config`` is the document with defaults filled and units in SI."""

    name: str
    file: str                      # as given (for messages)
    text: str                      # the source text
    config: dict[str, Any]
    overrides: list[tuple[str, Any]] = field(default_factory=list)
    topology: Topology | None = None
    plan: dict[str, Any] = field(default_factory=dict)   # derived: replicas, devices, workers, ps, ...

    @property
    def digest(self) -> str:
        """sha256 of the validated config without its [outputs], [sweep] and [explore] tables (which do not
        change what a run computes): two files that mean the same thing share it."""
        cfg = {k: v for k, v in self.config.items() if k not in ("outputs", "sweep", "explore")}
        return hashlib.sha256(json.dumps(cfg, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    @property
    def seed(self) -> int:
        return int(self.config["scenario"]["seed"])

    @property
    def strategy(self) -> str:
        return str(self.config["strategy"]["kind"])

    def with_overrides(self, overrides: Iterable[tuple[str, Any]]) -> "Scenario":
        """A new validated Scenario from the same text with more overrides applied."""
        return loads(self.text, self.file, list(self.overrides) + list(overrides))


def load(path: str | Path, overrides: Iterable[str | tuple[str, Any]] = (), quick: bool = False) -> Scenario:
    """Read and validate a scenario file; ``overrides`` are ``"key.path=value"`` strings or pairs,
    applied after the file's ``[quick]`` overrides when ``quick``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError([Issue(str(path), "", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError([Issue(str(path), "", "is a directory, expected a .toml scenario file")]) from None
    except UnicodeDecodeError as e:
        raise ScenarioError([Issue(str(path), "", f"not UTF-8 text ({e.reason} at byte {e.start})")]) from None
    except OSError as e:
        raise ScenarioError([Issue(str(path), "", f"cannot read: {e.strerror}")]) from None
    return loads(text, str(path), overrides, quick)


def loads(text: str, file: str = "<scenario>", overrides: Iterable[str | tuple[str, Any]] = (),
          quick: bool = False) -> Scenario:
    """Validate scenario ``text`` (``file`` names it in messages); see `load`."""
    doc = read_toml(text, file)
    pairs: list[tuple[str, Any]] = []
    issues: list[Issue] = []
    n_quick = 0
    if quick:
        q = doc.get("quick")
        if not isinstance(q, dict) or not q:
            raise ScenarioError([Issue(file, "quick", "--quick: this scenario has no [quick] table of overrides "
                                                      "(rule: a short variant must be declared in the file)")])
        pairs.extend((str(k), v) for k, v in q.items())
        n_quick = len(pairs)
    for ov in overrides:
        try:
            pairs.append(parse_override(ov) if isinstance(ov, str) else (str(ov[0]), ov[1]))
        except ValueError as e:
            issues.append(Issue(file, "", str(e)))
    for i, (path, value) in enumerate(pairs):
        try:
            apply_override(doc, path, value)
        except ValueError as e:
            where = f"quick.{path}" if i < n_quick else path
            issues.append(Issue(file, where, str(e), origin="[quick]" if i < n_quick else "--param"))
    v = _Validator(file, text, pairs, n_quick)
    for path, msg in limit_problems(doc):
        v.err(path, msg)
    if v.issues:   # validating values past these limits could overflow Python's recursion
        raise ScenarioError(issues + v.issues)
    config = v.validate(doc)
    issues = issues + v.issues
    if issues:
        raise ScenarioError(issues)
    sc = Scenario(name=config["scenario"]["name"], file=file, text=text, config=config, overrides=pairs)
    sc.topology = v.topology
    sc.plan = v.plan
    return sc


# bytes per element, for the runner
DTYPE_BYTES = DTYPES

"""Before/after counts of the option survey (benchmarks/suite_options.py) per family, from its --json reports.

    python benchmarks/suite_options_summary.py --set BEFORE_SET.json --strict BEFORE_STRICT.json \
        [--added ADDED.json ...] --out docs/survey21_options.json [--markdown docs/survey21_options.md]

BEFORE_SET is a `--set-only` run of the whole suite (the earlier rule), BEFORE_STRICT a run under the
stricter rule; each ADDED is a strict run of new modules only (`-k survey21`). Coverage is a union over
tests (a pair is effective when some call showed its option changing the output), so "after" is
BEFORE_STRICT's effective pairs with the ADDED runs' added. A raw op's pseudo-parameter counts only
where its inputs share a type attr (reports made before that rule are filtered here).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from suite_options import FAMILIES, RAW_PYTHON, _raw_shares_type_attr  # noqa: E402


def _params(r: dict[str, Any]) -> dict[str, list[str]]:
    out = {}
    for api, ps in r["parameters"].items():
        op = api.rsplit(".", 1)[1]
        out[api] = [p for p in ps if p != RAW_PYTHON or _raw_shares_type_attr(op)]
    return out


def _family(api: str) -> str:
    return max((f for f in FAMILIES if api.startswith(f + ".")), key=len)


def summarize(set_run: dict[str, Any], strict: dict[str, Any], added: list[dict[str, Any]]) -> dict[str, Any]:
    params = _params(set_run)
    for r in [strict, *added]:
        for api, ps in _params(r).items():
            params.setdefault(api, ps)
    set_pairs = {(a, p) for a, ps in set_run["nondefault"].items() for p in ps if p in params.get(a, ())}
    before = {(a, p) for a, ps in strict["effective"].items() for p in ps if p in params.get(a, ())}
    after = set(before)
    for r in added:
        after |= {(a, p) for a, ps in r["effective"].items() for p in ps if p in params.get(a, ())}
    status = dict(strict.get("status", {}))
    for r in added:
        for k, v in r.get("status", {}).items():
            status.setdefault(k, v)
    fams: dict[str, dict[str, int]] = {}
    for api, ps in sorted(params.items()):
        c = fams.setdefault(_family(api), {"apis": 0, "pairs": 0, "set_before": 0, "strict_before": 0,
                                           "strict_after": 0})
        c["apis"] += 1
        c["pairs"] += len(ps)
        for p in ps:
            c["set_before"] += (api, p) in set_pairs
            c["strict_before"] += (api, p) in before
            c["strict_after"] += (api, p) in after
    uncovered = {}
    for api, ps in sorted(params.items()):
        for p in ps:
            if (api, p) not in after:
                key = f"{api}({p})"
                uncovered[key] = status.get(key) or ("set, but not in a test the strict runs selected"
                                                     if (api, p) in set_pairs else "never set")
    total = {k: sum(c[k] for c in fams.values()) for k in ("apis", "pairs", "set_before", "strict_before",
                                                           "strict_after")}
    newly = sorted(f"{a}({p})" for a, p in after - before)
    neutral = sorted(f"{a}({p})" for a, p in set_pairs - before)
    return {"total": total, "by_family": fams, "newly_covered": newly,
            "set_but_not_output_changing_before": neutral, "uncovered_after": uncovered,
            "suite_exit": {"set": set_run.get("suite_exit"), "strict": strict.get("suite_exit"),
                           "added": [r.get("suite_exit") for r in added]}}


def markdown(s: dict[str, Any]) -> str:
    lines = ["| family | APIs | optional parameters | set (earlier rule) | output-changing before | after |",
             "|---|---:|---:|---:|---:|---:|"]
    for f, c in sorted(s["by_family"].items()):
        lines.append(f"| {f} | {c['apis']} | {c['pairs']} | {c['set_before']} | {c['strict_before']} | {c['strict_after']} |")
    t = s["total"]
    lines.append(f"| **all** | {t['apis']} | {t['pairs']} | {t['set_before']} | {t['strict_before']} | {t['strict_after']} |")
    lines += ["", f"Newly covered by the survey21 modules ({len(s['newly_covered'])}):", ""]
    lines += [f"- `{u}`" for u in s["newly_covered"]]
    lines += ["", f"Still uncovered after ({len(s['uncovered_after'])}; the status says why):", ""]
    lines += [f"- `{k}`: {v}" for k, v in s["uncovered_after"].items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", required=True)
    ap.add_argument("--strict", required=True)
    ap.add_argument("--added", nargs="*", default=[])
    ap.add_argument("--out", required=True)
    ap.add_argument("--markdown")
    ap.add_argument("--families", help="comma-separated families the markdown lists (default: all)")
    a = ap.parse_args(argv)
    load = lambda p: json.loads(Path(p).read_text(encoding="utf-8"))  # noqa: E731
    s = summarize(load(a.set), load(a.strict), [load(p) for p in a.added])
    Path(a.out).write_text(json.dumps(s, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if a.families:
        keep = tuple(a.families.split(","))
        s["by_family"] = {f: c for f, c in s["by_family"].items() if f in keep}
        s["total"] = {k: sum(c[k] for c in s["by_family"].values()) for k in s["total"]}
        for k in ("newly_covered", "set_but_not_output_changing_before"):
            s[k] = [u for u in s[k] if u.startswith(tuple(f + "." for f in keep))]
        s["uncovered_after"] = {u: v for u, v in s["uncovered_after"].items() if u.startswith(tuple(f + "." for f in keep))}
        Path(a.out).write_text(json.dumps(s, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if a.markdown:
        Path(a.markdown).write_text(markdown(s), encoding="utf-8")
    print(markdown(s).split("\n\n")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())

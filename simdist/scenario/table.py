"""Tidy result tables: one row per run (parameters x seed x metrics), and a per-group summary.

Files in a sweep directory:
  sweep.json        the plan (scenario digest, parameter grid, seeds) — what `resume` checks
  runs.jsonl        one JSON line per finished run, appended as runs finish (the journal)
  results.csv       the tidy table, rows in plan order (also results.parquet with pyarrow)
  summary.csv       per parameter combination: runs, ok, and mean / p50 / p95 of each metric

Columns of results.csv: ``run, seed, <one column per parameter>, status, error, digest``, then
the summary metrics in the order of `simdist.scenario.metrics.SUMMARY_METRICS`. Numbers are
written with Python's shortest round-trip repr, so the bytes depend only on the values.

The format belongs to the scenario room: `simdist sweep` and `simdist explore` write these tables,
`simdist gate` and `simdist replay` read them.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any, Iterable, Sequence

__all__ = ["Journal", "columns", "write_tables", "read_table", "summarize", "fmt"]

FIXED = ("run", "seed")
STATUS = ("status", "error", "digest")


class Journal:
    """runs.jsonl: appended line by line (flushed), read back tolerating a torn last line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        if not self.path.exists():
            return out
        with open(self.path, encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue  # an interrupted write
                out[row["run_id"]] = row
        return out

    def append(self, rows: Iterable[dict[str, Any]]) -> None:
        if self.path.exists() and self.path.stat().st_size:
            with open(self.path, "rb") as fh:
                fh.seek(-1, 2)
                torn = fh.read(1) != b"\n"
            if torn:  # an interrupted write: start on a fresh line
                with open(self.path, "a", encoding="utf-8") as fh:
                    fh.write("\n")
        with open(self.path, "a", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n")
            fh.flush()


def fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return repr(v)
    if isinstance(v, (list, dict)):
        return json.dumps(v, sort_keys=True, separators=(",", ":"))
    return str(v)


def columns(rows: Sequence[dict[str, Any]], params: Sequence[str]) -> list[str]:
    from simdist.scenario.metrics import SUMMARY_METRICS
    present: dict[str, None] = {}
    for r in rows:
        for k in r.get("metrics") or {}:
            present[k] = None
    metrics = [k for k in SUMMARY_METRICS if k in present] + sorted(k for k in present if k not in SUMMARY_METRICS)
    return list(FIXED) + list(params) + list(STATUS) + metrics


def _flat(r: dict[str, Any], params: Sequence[str]) -> dict[str, Any]:
    out = {"run": r["run"], "seed": r["seed"]}
    for p in params:
        out[p] = r["params"].get(p)
    out.update(status=r["status"], error=r.get("error"), digest=r.get("digest"))
    if r["status"] == "ok":
        out.update(r.get("metrics") or {})
    # A run that failed or errored leaves its metric cells empty (null in Parquet): a 0.0 there
    # would drag down any mean taken over the column. Its metrics.json (simdist replay) has what
    # it measured before failing.
    return out


def write_tables(out: Path, rows: Sequence[dict[str, Any]], params: Sequence[str], parquet: bool = True) -> list[Path]:
    """results.csv (+ results.parquet if pyarrow is installed) and summary.csv; returns the paths."""
    rows = sorted(rows, key=lambda r: r["run"])
    cols = columns(rows, params)
    flat = [_flat(r, params) for r in rows]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for f in flat:
        w.writerow([fmt(f.get(c)) for c in cols])
    written = [out / "results.csv"]
    _atomic(out / "results.csv", buf.getvalue())
    if parquet:
        p = _parquet(out / "results.parquet", flat, cols, params)
        if p is not None:
            written.append(p)
    summ = summarize(flat, params, [c for c in cols if c not in FIXED and c not in params and c not in STATUS])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if summ:
        head = list(summ[0])
        w.writerow(head)
        for s in summ:
            w.writerow([fmt(s[c]) for c in head])
    _atomic(out / "summary.csv", buf.getvalue())
    written.append(out / "summary.csv")
    return written


def _atomic(path: Path, text: str) -> None:
    from simdist.scenario.outputs import write_text
    write_text(path, text)


def _parquet(path: Path, flat: list[dict[str, Any]], cols: list[str], params: Sequence[str]) -> Path | None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return None
    arrays = []
    for c in cols:
        vals = [f.get(c) for f in flat]
        if c in params or c in ("error", "digest", "status"):
            arrays.append(pa.array([None if v is None else fmt(v) if not isinstance(v, str) else v for v in vals],
                                   type=pa.string()))
        elif c in FIXED:
            arrays.append(pa.array(vals, type=pa.int64()))
        else:
            arrays.append(pa.array([None if v is None else float(v) for v in vals], type=pa.float64()))
    table = pa.Table.from_arrays(arrays, names=cols)
    from simdist.scenario.outputs import write_atomic
    write_atomic(path, lambda tmp: pq.write_table(table, tmp, compression="zstd", write_statistics=False))
    return path


def _q(xs: list[float], q: float) -> float:
    pos = q * (len(xs) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize(flat: Sequence[dict[str, Any]], params: Sequence[str], metrics: Sequence[str]) -> list[dict[str, Any]]:
    """One row per parameter combination (plan order): runs, ok, failed, and for each metric its
    mean, p50 and p95 over the runs that completed (status ok)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    keys: dict[str, dict[str, Any]] = {}
    for f in flat:
        k = json.dumps([f.get(p) for p in params], sort_keys=True)
        groups.setdefault(k, []).append(f)
        keys[k] = {p: f.get(p) for p in params}
    out = []
    for k, rs in groups.items():
        row: dict[str, Any] = dict(keys[k])
        ok = [r for r in rs if r["status"] == "ok"]
        row.update(runs=len(rs), ok=len(ok), failed=len(rs) - len(ok))
        for m in metrics:
            xs = sorted(float(r[m]) for r in ok if r.get(m) is not None)
            if xs:
                row[f"{m}:mean"] = math.fsum(xs) / len(xs)
                row[f"{m}:p50"] = _q(xs, 0.5)
                row[f"{m}:p95"] = _q(xs, 0.95)
            else:
                row[f"{m}:mean"] = row[f"{m}:p50"] = row[f"{m}:p95"] = None
        out.append(row)
    return out


def read_table(path: str | Path) -> list[dict[str, Any]]:
    """results.csv (or .parquet) -> list of dicts with numbers parsed."""
    p = Path(path)
    if p.suffix == ".parquet":
        import pyarrow.parquet as pq
        return pq.read_table(p).to_pylist()
    with open(p, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = []
    for r in rows:
        d: dict[str, Any] = {}
        for k, v in r.items():
            if k in ("status", "error", "digest", "run_id"):
                d[k] = v
                continue
            try:
                d[k] = int(v) if v.lstrip("-").isdigit() else float(v)
            except ValueError:
                d[k] = v if v != "" else None
        out.append(d)
    return out

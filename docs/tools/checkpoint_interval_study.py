"""The checkpoint-interval study of docs/failure-injection.md (part 5): simdist's
multi_worker_mirrored engine against Young's and Daly's optimum checkpoint interval.

    python docs/tools/checkpoint_interval_study.py            # the figure + both tables (~17 min on a loaded 2-core machine)
    python docs/tools/checkpoint_interval_study.py --quick    # fewer seeds and points, for a look

Part A: a small MWMS job (2 hosts x 1 GPU, 2 s steps, T_s = steps x step time) whose worker 0 is
preempted as a Poisson process of mean M (downtime 0: a failure, not a lost VM), with a save cost
delta and a restart R = restart delay + restore (the restore reads what the save wrote, at the same
bandwidth: delta). For each (M, delta) pair the checkpoint interval tau (= checkpoint_every x step
time) is swept with `simdist.sweep` over many seeds (the same seeds at every tau: the same
preemption times, common random numbers); the mean completion time is compared with Daly (2006),
"A higher order estimate of the optimum checkpoint interval for restart dumps", Future Generation
Computer Systems 22(3):303-312, doi:10.1016/j.future.2004.11.016:

    T(tau)   = M e^{R/M} (e^{(tau+delta)/M} - 1) T_s / tau           (expected wall time)
    tau_opt  = sqrt(2 delta M) [1 + (1/3) sqrt(delta/(2M)) + (1/9) delta/(2M)] - delta   (delta < 2M)

(tau_opt is the paper's higher-order estimate; its figures 3-5 give tau_opt = 117, 57 and 9.1 min
for M = 24 h, 6 h, 15 min and delta = 5 min, which `daly_tau` reproduces: a test checks it). The
simulated optimum is the minimum of a + b/tau + c tau fitted to the mean completion times.

Part B: the realistic job (scenarios/train_mwms_preemption.toml, 600 steps) with what the formula
leaves out: replacement hosts that take minutes to come up, grace-period saves, a straggler.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

STEP_FLOPS = 1e12          # per example; 2 examples per replica at 1 TFLOP/s: a 2 s step
STEP_SECONDS = 2.0         # (what simdist then measures: 2 s of compute + a small all-reduce)
STATE_BYTES = 4_000_000    # the model's one variable (float32 x 1e6): what a checkpoint writes
DELAY = 20.0               # platform restart delay (s)
PAIRS = ((300.0, 5.0), (200.0, 10.0), (600.0, 20.0))     # (M, delta) in seconds
MULTIPLIERS = (0.4, 0.6, 1.0, 1.4, 2.0, 2.8)             # tau / tau_opt(Daly)


# ------------------------------------------------------------------------------------------ Daly
def daly_tau(m: float, delta: float) -> float:
    """Daly's higher-order optimum compute interval between checkpoints (delta < 2M; else M)."""
    if delta >= 2 * m:
        return m
    x = delta / (2 * m)
    return math.sqrt(2 * delta * m) * (1 + math.sqrt(x) / 3 + x / 9) - delta


def young_tau(m: float, delta: float) -> float:
    """Young's (1974) first-order optimum: sqrt(2 delta M)."""
    return math.sqrt(2 * delta * m)


def daly_time(tau: float, m: float, delta: float, r: float, ts: float) -> float:
    """Daly's expected wall time of a job of T_s compute with checkpoints every tau."""
    return m * math.exp(r / m) * math.expm1((tau + delta) / m) * ts / tau


# ------------------------------------------------------------------------------------------ the job
def scenario_text(m: float, delta: float, steps: int, delay: float = DELAY) -> str:
    """The study's MWMS scenario: 2 hosts x 1 GPU, 2 s steps, a checkpoint costing ~delta."""
    bandwidth = STATE_BYTES / delta
    return f"""[scenario]
name = "ckpt-interval-study"
seed = 0
[cluster]
preset = "gpu_cluster"
hosts = 2
gpus_per_host = 1
gpu_flops = "1TFLOPS"
[strategy]
kind = "multi_worker_mirrored"
collectives = "analytic"
restart = {{ delay = {delay!r}, workers = "all", max_restarts = 100000 }}
[model]
flops_per_example = {STEP_FLOPS!r}
global_batch = 4
[[model.variables]]
name = "w"
shape = [{STATE_BYTES // 4}]
[training]
steps = {steps}
checkpoint_every = 0
checkpoint_bandwidth = {bandwidth!r}
[faults.preemption_process]
mtbf = {m!r}
downtime = 0.0
workers = [0]
"""


def _sweep(text: str, name: str, seeds: Sequence[int], params: list[tuple[str, list[Any]]], workers: int,
           tmp: Path) -> list[dict[str, Any]]:
    from simdist.scenario.loader import loads
    from simdist.sweep.driver import run_sweep
    from simdist.sweep.plan import make_plan
    path = tmp / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    sc = loads(text, str(path), [])
    plan = make_plan(sc, list(seeds), params)
    res = run_sweep(plan, tmp / name, executor="process" if workers > 1 else "serial", workers=workers,
                    force=True, parquet=False)
    bad = [r for r in res.rows if r["status"] != "ok"]
    if bad:
        raise RuntimeError(f"{len(bad)} run(s) of {name} failed: {bad[0].get('error')}")
    return res.rows


def measure(m: float, delta: float, steps: int, tmp: Path) -> tuple[float, float, float]:
    """(T_s, delta, R) of the job as simdist times it: a fault-free run without checkpoints, the
    mean save of a run with them, and the restart delay + one restore (the same bytes read back)."""
    from simdist.scenario.loader import loads
    from simdist.scenario.runner import run
    text = scenario_text(m, delta, steps).split("[faults.preemption_process]")[0]
    ts = run(loads(text, str(tmp / "m.toml"), []), 0).metrics["summary"]["simulated_time_s"]
    s = run(loads(text, str(tmp / "m.toml"), [("training.checkpoint_every", 10)]), 0).metrics["summary"]
    d = s["time_checkpointing_s"] / s["checkpoints"]
    return ts, d, DELAY + d


def fit_optimum(taus: Sequence[float], times: Sequence[float]) -> tuple[float, float]:
    """(tau*, T(tau*)) of the least-squares fit T = a + b/tau + c tau."""
    import numpy as np
    t = np.asarray(taus, dtype=np.float64)
    a = np.stack([np.ones_like(t), 1 / t, t], axis=1)
    coef, *_ = np.linalg.lstsq(a, np.asarray(times, dtype=np.float64), rcond=None)
    if coef[1] <= 0 or coef[2] <= 0:
        raise ValueError(f"the fitted curve has no minimum (b={coef[1]:.3g}, c={coef[2]:.3g}): more seeds or points")
    tau = math.sqrt(coef[1] / coef[2])
    return tau, float(coef[0] + coef[1] / tau + coef[2] * tau)


def study_pair(m: float, delta: float, steps: int, seeds: Sequence[int], multipliers: Sequence[float],
               workers: int, tmp: Path, min_segments: float = 0.0) -> dict[str, Any]:
    """Sweep the checkpoint interval for one (M, delta): the simulated and Daly's curves and optima."""
    if min_segments:   # T_s >= min_segments x tau_opt: the last, partial segment weighs little
        steps = max(steps, math.ceil(min_segments * daly_tau(m, delta) / STEP_SECONDS))
    ts, d, r = measure(m, delta, steps, tmp)
    step = ts / steps
    tau_d = daly_tau(m, d)
    every = sorted({max(1, round(k * tau_d / step)) for k in multipliers})
    rows = _sweep(scenario_text(m, delta, steps), f"m{m:g}-d{delta:g}", seeds,
                  [("training.checkpoint_every", every)], workers, tmp)
    by: dict[int, list[float]] = {}
    for row in rows:
        by.setdefault(row["params"]["training.checkpoint_every"], []).append(row["metrics"]["simulated_time_s"])
    taus = [n * step for n in every]
    means = [sum(by[n]) / len(by[n]) for n in every]
    sems = [_sem(by[n]) for n in every]
    tau_s, t_s = fit_optimum(taus, means)
    return {"M": m, "delta": d, "R": r, "Ts": ts, "step": step, "taus": taus, "means": means, "sems": sems,
            "daly": [daly_time(t, m, d, r, ts) for t in taus], "tau_daly": tau_d, "tau_young": young_tau(m, d),
            "T_daly": daly_time(tau_d, m, d, r, ts), "tau_sim": tau_s, "T_sim": t_s,
            "tau_err": tau_s / tau_d - 1, "T_err": t_s / daly_time(tau_d, m, d, r, ts) - 1, "seeds": len(seeds)}


def _sem(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mu = sum(xs) / n
    return math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1) / n)


# ------------------------------------------------------------------------------------------ part B
MISSES = (
    ("Daly's model: downtime 0, no grace period", [("faults.preemption_process.downtime", 0.0),
                                                    ("training.grace_period", 0.0)]),
    ("replacement hosts take 2 min", [("training.grace_period", 0.0)]),
    ("+ grace-period saves (30 s notice)", []),
    ("+ a straggler host (worker 0's GPUs 1.25x slower)", [("faults.stragglers", [{"worker": k, "slowdown": 1.25}
                                                                                 for k in range(8)])]),
)


def misses(seeds: Sequence[int], workers: int, tmp: Path, steps: int = 600) -> list[dict[str, Any]]:
    """The realistic job with what Daly's formula leaves out, one row per variant."""
    from simdist.scenario.loader import load
    from simdist.scenario.runner import run
    path = ROOT / "scenarios" / "train_mwms_preemption.toml"
    text = path.read_text(encoding="utf-8")
    base = load(str(path), overrides=[("training.steps", steps), ("faults.preemption_process.downtime", 0.0),
                                      ("training.grace_period", 0.0)])
    clean = run(load(str(path), overrides=[("training.steps", steps), ("training.checkpoint_every", 0),
                                           ("faults.preemption_process.mtbf", "1000000000s")]), 0).metrics["summary"]
    ts = clean["simulated_time_s"]
    one = run(base.with_overrides([("faults.preemption_process.mtbf", "1000000000s")]), 0).metrics["summary"]
    d = one["time_checkpointing_s"] / one["checkpoints"]
    cfg = base.config
    m = cfg["faults"]["preemption_process"]["mtbf"] / cfg["cluster"]["hosts"]
    r = cfg["strategy"]["restart"]["delay"] + d
    tau = cfg["training"]["checkpoint_every"] * ts / steps
    predicted = daly_time(tau, m, d, r, ts)
    out = []
    for i, (label, over) in enumerate(MISSES):
        params = [("training.steps", [steps])] + [(k, [v]) for k, v in over]
        rows = _sweep(text, f"miss{i}", seeds, params, workers, tmp)
        times = [row["metrics"]["simulated_time_s"] for row in rows]
        lost = [row["metrics"]["time_lost_restart_s"] for row in rows]
        mean = sum(times) / len(times)
        out.append({"variant": label, "simulated": mean, "sem": _sem(times), "daly": predicted,
                    "diff": mean / predicted - 1, "lost": sum(lost) / len(lost), "M": m, "delta": d, "R": r,
                    "tau": tau, "Ts": ts})
    return out


# ------------------------------------------------------------------------------------------ output
def draw(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(results), figsize=(4.6 * len(results), 3.9), squeeze=False)
    for ax, r in zip(axes[0], results):
        ax.errorbar(r["taus"], r["means"], yerr=[2 * s for s in r["sems"]], fmt="o", color="#4C72B0",
                    label=f"simdist, mean of {r['seeds']} seeds (±2 s.e.)")
        import numpy as np
        grid = np.geomspace(min(r["taus"]), max(r["taus"]), 200)
        ax.plot(grid, [daly_time(t, r["M"], r["delta"], r["R"], r["Ts"]) for t in grid], color="#DD8452",
                label="Daly (2006) T(τ)")
        ax.axvline(r["tau_daly"], color="#DD8452", linestyle="--", linewidth=1, label=f"Daly τ_opt {r['tau_daly']:.0f} s")
        ax.axvline(r["tau_sim"], color="#4C72B0", linestyle=":", linewidth=1.5, label=f"simulated τ* {r['tau_sim']:.0f} s")
        ax.set_xscale("log")
        from matplotlib.ticker import NullFormatter, ScalarFormatter
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xticks([t for t in (20, 50, 100, 200, 400) if min(r["taus"]) * 0.9 <= t <= max(r["taus"]) * 1.1])
        ax.set_xlabel("checkpoint interval τ (s of compute)")
        ax.set_ylabel("completion time (s)")
        ax.set_title(f"M = {r['M']:g} s, δ = {r['delta']:.3g} s, R = {r['R']:.3g} s")
        ax.legend(fontsize=7)
    fig.suptitle("MWMS job under Poisson preemptions: simulated completion time vs Daly's model")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def table_a(results: list[dict[str, Any]]) -> str:
    lines = ["| M (s) | δ (s) | R (s) | T_s (s) | Young τ (s) | Daly τ_opt (s) | simulated τ* (s) | τ error | "
             "Daly T(τ_opt) (s) | simulated T(τ*) (s) | T error |", "|" + "---|" * 11]
    for r in results:
        lines.append(f"| {r['M']:g} | {r['delta']:.3g} | {r['R']:.3g} | {r['Ts']:.0f} | {r['tau_young']:.1f} | "
                     f"{r['tau_daly']:.1f} | {r['tau_sim']:.1f} | {100 * r['tau_err']:+.1f}% | {r['T_daly']:.0f} | "
                     f"{r['T_sim']:.0f} | {100 * r['T_err']:+.1f}% |")
    return "\n".join(lines)


def table_b(rows: list[dict[str, Any]]) -> str:
    lines = ["| variant | simulated completion (s) | Daly T(τ) (s) | difference | lost to restarts (s) |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['variant']} | {r['simulated']:.0f} ± {2 * r['sem']:.0f} | {r['daly']:.0f} | "
                     f"{100 * r['diff']:+.1f}% | {r['lost']:.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="6 seeds, 5 points, part A only")
    ap.add_argument("--seeds", type=int, default=None, help="seeds per point (default 16; --quick 6)")
    ap.add_argument("--steps", type=int, default=600, help="at least this many steps in the part A job (T_s = steps x 2 s)")
    ap.add_argument("--segments", type=float, default=25.0,
                    help="at least this many checkpoint intervals of Daly's tau_opt in T_s (more steps if needed)")
    ap.add_argument("--workers", type=int, default=2, help="processes")
    ap.add_argument("--img", default=str(ROOT / "docs" / "img" / "mwms-checkpoint-interval.png"))
    ap.add_argument("--no-misses", action="store_true", help="skip part B")
    a = ap.parse_args(argv)
    seeds = range(a.seeds or (6 if a.quick else 16))
    mult = (0.5, 0.7, 1.0, 1.4, 2.0) if a.quick else MULTIPLIERS
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        results = []
        for m, delta in PAIRS:
            r = study_pair(m, delta, a.steps, seeds, mult, a.workers, tmp, min_segments=a.segments)
            print(f"M={m:g} s delta={r['delta']:.3g} s: Daly tau_opt {r['tau_daly']:.1f} s, simulated "
                  f"{r['tau_sim']:.1f} s ({100 * r['tau_err']:+.1f}%); T {r['T_daly']:.0f} s vs {r['T_sim']:.0f} s "
                  f"({100 * r['T_err']:+.1f}%)", flush=True)
            results.append(r)
        draw(results, Path(a.img))
        print(f"wrote {a.img}\n\n{table_a(results)}\n")
        if not (a.quick or a.no_misses):
            print(table_b(misses(range(3), a.workers, tmp)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

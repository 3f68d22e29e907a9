"""A campaign of the training fuzzer (docs/spec.md `train.reference-grid`, kfuzz40): programs START..START+N of root seed SEED
(tests/fuzz_train/ftr_progs.py), run on the suite's tensorflow backend in a worker process (TF's answers kept
under .cache/fuzz_train-answers, one gzip'd JSON per program with its program hash, so a re-run asks TF only for
new or changed programs) and on simdist in this process, every observable compared with the training grid's
reference.compare (simdist/conformance/grid/reference.py); prints each disagreement (observable, expected vs
got) and the counts by class:

    python tests/fuzz_train/fz_train_campaign.py SEED START N [--answers DIR] [--no-simdist] [--show 3] [--upto 45]

Disagreements matching tests/fuzz_train/ftr_known.py are counted as known. Exit status 1 when any other
program disagrees. TF's side runs while simdist's does (two processes); run it under `nice -n 10`.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for _p in (HERE, ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from ftr_known import known_key  # noqa: E402
from ftr_progs import LATEST, compare, make_program, program_hash  # noqa: E402

ANSWERS_DIR = os.path.join(ROOT, ".cache", "fuzz_train-answers")


def answer_path(answers: str, seed: int, index: int) -> str:
    return os.path.join(answers, f"{seed}-{index:05d}.json.gz")


def load_answer(answers: str, case: Any, seed: int) -> dict[str, Any] | None:
    """TF's kept answer for the program, or None when there is none for its current source and data."""
    path = answer_path(answers, seed, case.index)
    if not os.path.exists(path):
        return None
    with gzip.open(path, "rt", encoding="utf-8") as f:
        entry = json.load(f)
    return entry if entry.get("hash") == program_hash(case) else None


def save_answer(answers: str, seed: int, index: int, entry: dict[str, Any]) -> None:
    os.makedirs(answers, exist_ok=True)
    path = answer_path(answers, seed, index)
    with gzip.GzipFile(path + ".part", "wb", mtime=0) as raw:
        raw.write(json.dumps(entry, sort_keys=True, separators=(",", ":")).encode())
    os.replace(path + ".part", path)


def tf_worker(seed: int, indices: list[int], answers: str, upto: int = LATEST) -> int:
    """Record TF 2.21's answer of each program (the grid's record_case: observables or TF's error)."""
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415
    from simdist.conformance.grid.record import record_case  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    for i in indices:
        case = make_program(seed, i, upto=upto)
        t = time.process_time()
        entry = record_case(backend, case)
        entry["host"] = this_host()
        if "error" in entry:
            backend.notice_error(Exception(entry["error"]["message"]))
        save_answer(answers, seed, i, entry)
        print(f"tf {seed}/{i}: {entry.get('error', {}).get('type', 'ok')} ({time.process_time() - t:.1f} s CPU)",
              file=sys.stderr, flush=True)
    return 0


def this_host() -> dict[str, Any]:
    """This machine's CPU as an answer records it (host_cpu.CPUModel's fields but the name; tests/tf_workers.py's
    form): TF's float values follow the CPU (clause ops.host-cpu), so simdist is checked with the model of the CPU
    that answered (kfuzz44: a slice program re-recorded on an AMD host without oneDNN differed under the tests'
    Intel reference model by 1.5e-6 in one gradient, and agreed under the AMD host's)."""
    import dataclasses  # noqa: PLC0415

    from simdist.runtime import host_cpu  # noqa: PLC0415
    model = dataclasses.asdict(host_cpu.detect())
    model.pop("name")
    model["flags"] = list(model["flags"])
    return model


def answer_model(answer: dict[str, Any] | None, answered_here: bool) -> Any:
    """The CPU model to run simdist with: the answer's recording host when it records one, this machine's when TF
    answers now, else the model in force (answers recorded before the forty-fourth session: the tests'
    "reference" for the slice's goldens, this machine for the campaign's cache)."""
    from simdist.runtime import host_cpu  # noqa: PLC0415
    if answer is not None and answer.get("host"):
        h = dict(answer["host"])
        return host_cpu.CPUModel("answer host", h.pop("vendor"), tuple(h.pop("flags")), **h)
    return host_cpu.detect() if answered_here else host_cpu.current()


def start_tf(seed: int, indices: list[int], answers: str, upto: int = LATEST) -> subprocess.Popen | None:
    if not indices:
        return None
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), "--tf-worker", str(seed),
                             ",".join(map(str, indices)), "--answers", answers, "--upto", str(upto)], env=env)


def run_simdist(case: Any) -> tuple[str, Any]:
    """("ran", observables) or ("raised", exception) of the program on simdist."""
    from simdist.conformance.grid import runner  # noqa: PLC0415
    from simdist.conformance.registry import load_backend  # noqa: PLC0415

    backend = load_backend("simdist")
    backend.setup()
    try:
        return "ran", runner.run_case(backend, case)
    except Exception as e:  # noqa: BLE001 - the error class is the observable
        return "raised", e


def _brief(message: str) -> str:
    """TF's error text, its head and its tail (a graph error names the failing node and the cause last)."""
    return message if len(message) <= 500 else message[:150] + " ... " + message[-350:]


def disagreements(case: Any, outcome: tuple[str, Any], answer: dict[str, Any]) -> list[str]:
    """One line per disagreeing observable (expected vs got), or the error classes."""
    status, value = outcome
    if "error" in answer:
        want = answer["error"]
        if status == "ran":
            return [f"error: ran, but TF 2.21 raises {want['type']}: {_brief(want['message'])}"]
        if type(value).__name__ != want["type"]:
            return [f"error: raised {type(value).__name__}: {str(value)[:300]}, but TF 2.21 raises {want['type']}: "
                    f"{_brief(want['message'])}"]
        return []
    if status == "raised":
        return [f"error: raised {type(value).__name__}: {str(value)[:400]}, but TF 2.21 runs the program"]
    return compare(case, value, answer)


def class_of(problems: list[str]) -> str:
    """A disagreement's class: the first problem's observable kind (or the error line's classes)."""
    first = problems[0]
    if first.startswith("error:"):
        return " ".join(first.split(":")[1].split()[:2])
    return first.split(":")[0].split("/")[0]


def campaign(seed: int, indices: list[int], answers: str = ANSWERS_DIR, simdist: bool = True,
             out: Any = sys.stdout, show: int = 3, upto: int = LATEST) -> tuple[list[str], dict[str, int]]:
    """(failure reports, known-class counts) of the programs; TF answers the programs it has not."""
    from simdist.runtime import host_cpu  # noqa: PLC0415

    cases = [make_program(seed, i, upto=upto) for i in indices]
    kept = {c.index: load_answer(answers, c, seed) for c in cases}
    todo = [c.index for c in cases if kept[c.index] is None]
    proc = start_tf(seed, todo, answers, upto)
    got = {}
    try:
        if simdist:
            for c in cases:
                t = time.process_time()
                with host_cpu.using(answer_model(kept[c.index], c.index in todo)):
                    got[c.index] = run_simdist(c)
                print(f"simdist {seed}/{c.index} {c.name}: {got[c.index][0]} ({time.process_time() - t:.1f} s CPU)",
                      file=sys.stderr, flush=True)
    finally:
        if proc is not None and proc.wait() != 0:
            raise RuntimeError(f"the TF worker exited with status {proc.returncode}")
    failures: list[str] = []
    known: dict[str, int] = {}
    shown: dict[str, int] = {}
    for c in cases if simdist else []:
        answer = load_answer(answers, c, seed)
        if answer is None:
            failures.append(f"{seed}/{c.index}: TF gave no answer")
            continue
        problems = disagreements(c, got[c.index], answer)
        if not problems:
            continue
        k = known_key(c, problems)
        if k is not None:
            known[k] = known.get(k, 0) + 1
            continue
        cls = class_of(problems)
        shown[cls] = shown.get(cls, 0) + 1
        report = (f"DISAGREE [{cls}] seed={seed} index={c.index} {c.name}\n  config: {c.describe()}\n  "
                  + "\n  ".join(problems[:6]))
        failures.append(report)
        if shown[cls] <= show:
            print(report, file=out, flush=True)
    return failures, known


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("start")
    ap.add_argument("n", type=int, nargs="?", default=0)
    ap.add_argument("--answers", default=ANSWERS_DIR)
    ap.add_argument("--tf-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-simdist", action="store_true", help="only record TF's answers")
    ap.add_argument("--show", type=int, default=3, help="reports printed per class")
    ap.add_argument("--source", action="store_true", help="print program START's source and exit")
    ap.add_argument("--upto", type=int, default=LATEST,
                    help="draw the programs as the generator of this session did (45: before kfuzz46's widening)")
    a = ap.parse_args()
    if a.tf_worker:
        return tf_worker(a.seed, [int(i) for i in a.start.split(",")], a.answers, a.upto)
    start = int(a.start)
    if a.source:
        c = make_program(a.seed, start, upto=a.upto)
        print(f"# {c.describe()}\n# params: {sorted(c.params)}\n{c.source}")
        return 0
    failures, known = campaign(a.seed, list(range(start, start + a.n)), a.answers, not a.no_simdist, show=a.show,
                               upto=a.upto)
    classes: dict[str, int] = {}
    for f in failures:
        cls = f.split("[", 1)[1].split("]", 1)[0] if f.startswith("DISAGREE") else "no-answer"
        classes[cls] = classes.get(cls, 0) + 1
    print(f"PROGRAMS {a.n} DISAGREEMENTS {len(failures)} CLASSES {len(classes)} KNOWN {sum(known.values())}")
    print("COUNTS", sorted(classes.items(), key=lambda kv: -kv[1]))
    print("KNOWN", sorted(known.items(), key=lambda kv: -kv[1]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

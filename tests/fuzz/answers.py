"""TF's answers to fuzz programs, kept on disk so that a long run asks TensorFlow once per program.

TF's result for a program depends only on the program (inputs, steps, mode), TF's release and
the CPU's kernel-relevant features (clause ops.host-cpu: float16's oneDNN kernels, the vendor's
vrcpps tables), never on simdist; so the slow profile's 20,000 programs need TF once, and a later run (after a
fix to simdist) compares simdist against the kept answers and asks TF live only for programs
whose text changed (generation drops candidate steps by simdist's results, so a fix can change a
program). A kept answer is found by the program's key: the SHA-256 of its pickled content, the
TF release and the host CPU's signature (`host_signature`). Files: `<dir>/<seed>-<index // 500>.pkl.gz`, a dict index ->
{release: (key, answer)}, `release` naming TF's release and the CPU signature that answered: the committed slices hold
the answers of every host the project runs on, and a run on any of them reads them without rewriting them (a file of
the older form, index -> (key, answer) for one host, is still read). The
default directory is `.cache/fuzz-answers` at the repository root (not committed: about 1 MB per
500 programs).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import os
import pickle
from typing import Any

CHUNK = 500
DEFAULT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           ".cache", "fuzz-answers")


def tf_release() -> str:
    """The installed TF's distribution and version (no import of TF: the parent process stays light)."""
    for dist in ("tensorflow-cpu", "tensorflow"):
        try:
            return f"{dist} {importlib.metadata.version(dist)}"
        except importlib.metadata.PackageNotFoundError:
            continue
    return "no tensorflow"


def host_signature() -> str:
    """What of this machine's CPU TF's answers depend on (simdist/runtime/host_cpu.py)."""
    from simdist.runtime import host_cpu
    cpu = host_cpu.detect()
    return (f"{cpu.estimates} estimates, float16 oneDNN {cpu.onednn_supports('float16')}, "
            f"bfloat16 oneDNN {cpu.onednn_supports('bfloat16')}")


def program_key(prog: Any, release: str) -> str:
    """The SHA-256 of everything TF's answer depends on: the mode, the inputs' dtypes, shapes and
    bytes (NaN payloads and signed zeros included), the steps, and TF's release."""
    h = hashlib.sha256(release.encode())
    h.update(prog.mode.encode())
    for group in (prog.inputs, prog.inputs2):
        h.update(b"|")
        for a in group:
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
    h.update(pickle.dumps(prog.steps, protocol=4))
    return h.hexdigest()


class Answers:
    """A directory of kept answers: `get` a program's answer (None when missing or stale),
    `put` one; `flush` writes the chunks changed since the last flush."""

    def __init__(self, directory: str = DEFAULT_DIR) -> None:
        self.directory = directory
        self.release = f"{tf_release()} on {host_signature()}"
        self._chunks: dict[tuple[int, int], dict[int, Any]] = {}
        self._dirty: set[tuple[int, int]] = set()
        self.hits = self.misses = 0

    def _path(self, cid: tuple[int, int]) -> str:
        return os.path.join(self.directory, f"{cid[0]}-{cid[1]}.pkl.gz")

    def _chunk(self, prog: Any) -> tuple[tuple[int, int], dict[int, Any]]:
        cid = (prog.seed, prog.index // CHUNK)
        if cid not in self._chunks:
            try:
                with gzip.open(self._path(cid), "rb") as f:
                    self._chunks[cid] = pickle.load(f)
            except FileNotFoundError:
                self._chunks[cid] = {}
        return cid, self._chunks[cid]

    def key(self, prog: Any) -> str:
        """The program's key under this store's release (a fuzzer with other program content overrides it)."""
        return program_key(prog, self.release)

    def get(self, prog: Any) -> Any | None:
        _, chunk = self._chunk(prog)
        kept = chunk.get(prog.index)
        if isinstance(kept, dict):
            kept = kept.get(self.release)
        if kept is not None and kept[0] == self.key(prog):
            self.hits += 1
            return kept[1]
        self.misses += 1
        return None

    def put(self, prog: Any, answer: Any) -> None:
        """Keep TF's answer for a whole generated program, beside other hosts' answers to it (a minimizer's
        subsets are not kept: they share the index of the program they came from)."""
        if isinstance(answer, tuple) and answer[:1] == ("tf-died",):
            return   # a crash of the worker is not an answer worth keeping
        cid, chunk = self._chunk(prog)
        kept = chunk.get(prog.index)
        hosts = dict(kept) if isinstance(kept, dict) else {}
        hosts[self.release] = (self.key(prog), answer)
        chunk[prog.index] = hosts
        self._dirty.add(cid)

    def flush(self) -> None:
        os.makedirs(self.directory, exist_ok=True)
        for cid in sorted(self._dirty):
            tmp = self._path(cid) + ".tmp"
            with gzip.GzipFile(tmp, "wb", compresslevel=3, mtime=0) as f:   # no timestamp: same answers, same bytes
                pickle.dump(self._chunks[cid], f, protocol=4)
            os.replace(tmp, self._path(cid))
        self._dirty.clear()

"""tf.io.gfile on the local filesystem against TF 2.21 (the forty-first session; clause
io.tensor-codec): GFile's modes, reads, writes, seeks, lines and iteration, stat, copy and rename
with and without overwrite, mkdir / makedirs / remove / rmtree / listdir and their error classes and
texts, walk top-down and bottom-up, join (local and with a scheme), glob, the registered schemes.

Each case is one program, the same on both backends, in a fresh temporary directory (TF's in its
worker process, live or from the golden); paths in answers are written relative to it ("<d>").
listdir and walk are compared sorted: TF lists in readdir's order, simdist sorted (the module
docstring of simdist/tf/_gfile.py).
"""

from __future__ import annotations

import os
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _rel(v: Any, d: str) -> Any:
    if isinstance(v, str):
        return v.replace(d, "<d>")
    if isinstance(v, bytes):
        return ["bytes", list(v)]
    if isinstance(v, (list, tuple)):
        return [_rel(x, d) for x in v]
    return v


def attempt(f: Callable[[], Any], d: str) -> Any:
    try:
        return ["ok", _rel(f(), d)]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, _rel(str(e), d)]


def files(tf: Any, d: str) -> Any:
    G = tf.io.gfile
    p = os.path.join(d, "f.txt")
    out: dict[str, Any] = {}
    out["lazy open of a missing file"] = attempt(lambda: type(G.GFile(os.path.join(d, "none"))).__name__, d)
    out["read a missing file"] = attempt(lambda: G.GFile(os.path.join(d, "none")).read(), d)
    out["bad mode"] = attempt(lambda: G.GFile(p, "x"), d)
    with G.GFile(p, "w") as f:
        out["write returns"] = attempt(lambda: f.write("hello\nworld\n"), d)
        out["write bytes"] = attempt(lambda: f.write(b"caf\xc3\xa9\n"), d)
        out["tell while writing"] = attempt(f.tell, d)
        out["read while writing"] = attempt(f.read, d)
    f = G.GFile(p)
    out["name and mode"] = [_rel(f.name, d), f.mode, f.seekable()]
    out["read 3"] = attempt(lambda: f.read(3), d)
    out["tell"] = attempt(f.tell, d)
    out["readline"] = attempt(f.readline, d)
    out["readlines"] = attempt(f.readlines, d)
    out["read at the end"] = attempt(f.read, d)
    out["seek whence 0"] = attempt(lambda: (f.seek(2), f.read(4))[1], d)
    out["seek whence 1"] = attempt(lambda: (f.seek(1, 1), f.read(3))[1], d)
    out["seek whence 2"] = attempt(lambda: (f.seek(-4, 2), f.read())[1], d)
    out["seek position"] = attempt(lambda: (f.seek(position=6), f.readline())[1], d)
    out["seek nothing"] = attempt(lambda: f.seek(), d)
    out["seek both"] = attempt(lambda: f.seek(1, position=2), d)
    out["seek whence 3"] = attempt(lambda: f.seek(0, 3), d)
    out["write in r"] = attempt(lambda: f.write("x"), d)
    out["size"] = attempt(f.size, d)
    f.seek(0)
    out["iterate"] = attempt(lambda: list(f), d)
    f.close()
    out["read bytes"] = attempt(lambda: G.GFile(p, "rb").read(), d)
    with G.GFile(p, "a") as f:
        f.write("more")
    out["after append"] = attempt(lambda: G.GFile(p).read(), d)
    with G.GFile(p, "w") as f:
        f.write("new")
    out["after a second w"] = attempt(lambda: G.GFile(p).read(), d)
    q = os.path.join(d, "never")
    with G.GFile(q, "w"):
        pass
    out["w never written"] = G.exists(q)
    with G.GFile(p, "r+") as f:
        out["r+ read"] = attempt(f.read, d)
    with G.GFile(p, "a+") as f:
        f.write("AB")
        f.flush()
        out["a+ read after a flushed write"] = attempt(f.read, d)
    out["a+ result"] = attempt(lambda: G.GFile(p).read(), d)
    with G.GFile(os.path.join(d, "b.bin"), "wb") as f:
        f.write(b"\x00\xff\x01")
    out["binary in text mode"] = attempt(lambda: G.GFile(os.path.join(d, "b.bin")).read(), d)
    out["binary in rb"] = attempt(lambda: G.GFile(os.path.join(d, "b.bin"), "rb").read(), d)
    return out


def tree(tf: Any, d: str) -> Any:
    G = tf.io.gfile
    j = os.path.join
    out: dict[str, Any] = {}
    out["mkdir"] = attempt(lambda: G.mkdir(j(d, "a")), d)
    out["mkdir again"] = attempt(lambda: G.mkdir(j(d, "a")), d)
    out["mkdir without parent"] = attempt(lambda: G.mkdir(j(d, "x", "y")), d)
    out["makedirs"] = attempt(lambda: G.makedirs(j(d, "a", "b", "c")), d)
    out["makedirs again"] = attempt(lambda: G.makedirs(j(d, "a", "b")), d)
    with G.GFile(j(d, "a", "f1"), "w") as f:
        f.write("12345")
    with G.GFile(j(d, "a", "b", "f2"), "w") as f:
        f.write("x")
    out["mkdir in a file"] = attempt(lambda: G.mkdir(j(d, "a", "f1", "z")), d)
    out["makedirs over a file"] = attempt(lambda: G.makedirs(j(d, "a", "f1")), d)
    out["stat file"] = attempt(lambda: (lambda s: [type(s).__name__, s.length, s.is_directory,
                                                   s.mtime_nsec % 1_000_000_000, s.mtime_nsec > 0])(G.stat(j(d, "a", "f1"))), d)
    out["stat dir"] = attempt(lambda: (lambda s: [s.is_directory, s.length > 0])(G.stat(j(d, "a"))), d)
    out["stat missing"] = attempt(lambda: G.stat(j(d, "none")), d)
    out["exists"] = [G.exists(j(d, "a")), G.exists(j(d, "a", "f1")), G.exists(j(d, "none"))]
    out["isdir"] = [G.isdir(j(d, "a")), G.isdir(j(d, "a", "f1")), G.isdir(j(d, "none"))]
    out["listdir"] = attempt(lambda: sorted(G.listdir(j(d, "a"))), d)
    out["listdir missing"] = attempt(lambda: G.listdir(j(d, "none")), d)
    out["listdir of a file"] = attempt(lambda: G.listdir(j(d, "a", "f1")), d)
    out["walk"] = attempt(lambda: [[t, sorted(s), sorted(f)] for t, s, f in G.walk(j(d, "a"))], d)
    out["walk bottom-up"] = attempt(lambda: [[t, sorted(s), sorted(f)] for t, s, f in G.walk(j(d, "a"), topdown=False)], d)
    out["walk missing"] = attempt(lambda: list(G.walk(j(d, "none"))), d)
    errs: list = []
    out["walk missing with onerror"] = attempt(lambda: (list(G.walk(j(d, "none"), onerror=errs.append)),
                                                        [type(e).__name__ for e in errs])[1], d)
    out["copy"] = attempt(lambda: G.copy(j(d, "a", "f1"), j(d, "a", "f3")), d)
    out["copy onto a file"] = attempt(lambda: G.copy(j(d, "a", "f1"), j(d, "a", "f3")), d)
    out["copy overwrite"] = attempt(lambda: G.copy(j(d, "a", "b", "f2"), j(d, "a", "f3"), overwrite=True), d)
    out["copied"] = attempt(lambda: G.GFile(j(d, "a", "f3")).read(), d)
    out["copy missing"] = attempt(lambda: G.copy(j(d, "none"), j(d, "a", "f4")), d)
    out["copy missing onto a file"] = attempt(lambda: G.copy(j(d, "none"), j(d, "a", "f3")), d)
    out["copy onto a directory"] = attempt(lambda: G.copy(j(d, "a", "f1"), j(d, "a", "b")), d)
    out["rename onto a file"] = attempt(lambda: G.rename(j(d, "a", "f3"), j(d, "a", "f1")), d)
    out["rename overwrite"] = attempt(lambda: G.rename(j(d, "a", "f3"), j(d, "a", "f1"), overwrite=True), d)
    out["renamed"] = [G.exists(j(d, "a", "f3")), attempt(lambda: G.GFile(j(d, "a", "f1")).read(), d)]
    out["rename missing"] = attempt(lambda: G.rename(j(d, "none"), j(d, "k")), d)
    out["rename a directory"] = attempt(lambda: G.rename(j(d, "a", "b"), j(d, "a", "b2")), d)
    out["after the renames"] = attempt(lambda: sorted(G.listdir(j(d, "a"))), d)
    out["glob"] = attempt(lambda: sorted(G.glob(j(d, "a", "*"))), d)
    out["glob list"] = attempt(lambda: sorted(G.glob([j(d, "a", "f*"), j(d, "a", "b2", "*")])), d)
    out["remove missing"] = attempt(lambda: G.remove(j(d, "none")), d)
    out["remove a directory"] = attempt(lambda: G.remove(j(d, "a", "b2")), d)
    out["remove"] = attempt(lambda: G.remove(j(d, "a", "f1")), d)
    out["rmtree missing"] = attempt(lambda: G.rmtree(j(d, "none")), d)
    out["rmtree a file"] = attempt(lambda: G.rmtree(j(d, "a", "b2", "f2")), d)
    out["rmtree"] = attempt(lambda: G.rmtree(j(d, "a")), d)
    out["gone"] = G.exists(j(d, "a"))
    return out


def names(tf: Any, d: str) -> Any:
    G = tf.io.gfile
    return {"join": [G.join("a", "b", "c"), G.join("a/", "/b"), G.join("a", ""), G.join("a"), G.join("gs://x", "y"),
                     G.join("gs://x/", "y", "z"), G.join("file:///tmp", "q")],
            "join nothing": attempt(lambda: G.join(), d),
            "join bytes and str": attempt(lambda: G.join(b"a", "b"), d),
            "schemes": sorted(G.get_registered_schemes()),
            "schemes a list": type(G.get_registered_schemes()).__name__,
            "file scheme": [G.exists("file://" + d), G.isdir("file://" + d)],
            "public": sorted(n for n in dir(G) if not n.startswith("_")),
            "GFile public": sorted(n for n in dir(G.GFile) if not n.startswith("_"))}


PROGRAMS: dict[str, Callable[[Any, str], Any]] = {"files": files, "tree": tree, "names": names}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf, os.path.realpath(workdir))


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("io.tensor-codec")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_gfile_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    bad = [k for k in want if got.get(k) != want[k]]
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got.get(k)!r}, but TF 2.21 gives {want[k]!r}"
                              for k in bad[:6]) + f" ({len(bad)} keys differ)"
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)

"""The pytest plugin that runs the conformance suite against a backend.

Loaded by ``simdist conformance`` (``-p simdist.conformance.plugin``) and, in a checkout, by
``conformance/conftest.py``. Options (group "simdist conformance"):

  --backend NAME|module:factory   the implementation under test (default: $SIMDIST_CONFORMANCE_BACKEND or simdist)
  --report FILE.json              the clause-keyed JSON report
  --junit FILE.xml                JUnit XML (pytest's junitxml, with a `clause` property per test)
  --markdown FILE.md              a readable report
  --xfails FILE|none              known deviations (default: the suite's file for a built-in backend)
  --max-examples N                hypothesis examples per property (overrides the profile)
  --conformance-profile NAME      default | ci | thorough

The hypothesis seed is fixed for the session (``--hypothesis-seed`` if given, else a random
one) and recorded in the report, so a run can be repeated exactly.
"""

from __future__ import annotations

import datetime as _dt
import os
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from simdist.conformance import SUITE_VERSION, repro
from simdist.conformance.assertions import current_backend, current_clause
from simdist.conformance.clauses import CLAUSES
from simdist.conformance.protocol import BackendInfo, missing_capabilities
from simdist.conformance.registry import BackendNotFound, load_backend
from simdist.conformance.report import TestResult, build_report, to_markdown, write_json
from simdist.conformance.xfails import XfailEntry, XfailFileError, builtin_xfail_file, load_xfails

SUITE_DIR = Path(__file__).resolve().parent / "suite"
REFS = ("both", "doc", "tf221")

PROFILES = {
    # name: (max_examples, description)
    "default": (30, "the default: every property gets 30 examples"),
    "ci": (8, "bounded for CI budgets"),
    "thorough": (200, "long runs"),
}


@dataclass
class _State:
    spec: str
    backend: Any = None
    info: BackendInfo | None = None
    xfails: list[XfailEntry] = field(default_factory=list)
    xfail_file: str | None = None
    results: dict[str, TestResult] = field(default_factory=dict)
    deviations: dict[str, str] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)   # a test's place in the run order (collection's)
    started: float = 0.0
    started_iso: str = ""
    seed: int | None = None
    profile: str = "default"
    report: dict[str, Any] | None = None
    setup_error: str | None = None
    # xdist's controller: each running test's entry (id, clauses, deviation, order) from its setup report, until its
    # verdict arrives: a test whose worker crashes has no verdict, and is reported an error with these clauses
    started_tests: dict[str, dict[str, Any]] = field(default_factory=dict)


_STATE_KEY = pytest.StashKey[_State]()
# The run's state where pytest_runtest_logreport (a hook without the config) gathers verdicts sent by xdist workers.
_controller_state: _State | None = None


def state(config: pytest.Config) -> _State | None:
    return config.stash.get(_STATE_KEY, None)


# --------------------------------------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("simdist-conformance", "simdist conformance suite")
    g.addoption("--backend", dest="conformance_backend",
                default=os.environ.get("SIMDIST_CONFORMANCE_BACKEND", "simdist"),
                help="backend under test: simdist, tensorflow, an entry point of group "
                     "simdist.backends, or module:factory (default: %(default)s)")
    g.addoption("--report", dest="conformance_report", default=None, metavar="FILE.json",
                help="write the clause-keyed JSON report here")
    g.addoption("--junit", dest="conformance_junit", default=None, metavar="FILE.xml",
                help="write JUnit XML here")
    g.addoption("--markdown", dest="conformance_markdown", default=None, metavar="FILE.md",
                help="write a Markdown report here")
    g.addoption("--xfails", dest="conformance_xfails", default=None, metavar="FILE|none",
                help="known-deviation file (default: the suite's own for built-in backends)")
    g.addoption("--max-examples", dest="conformance_max_examples", type=int, default=None,
                help="hypothesis examples per property test")
    g.addoption("--conformance-profile", dest="conformance_profile", default="default",
                choices=sorted(PROFILES), help="hypothesis budget profile (default: %(default)s)")


def _register_profiles(max_examples: int | None) -> None:
    from hypothesis import HealthCheck, settings

    common = dict(
        deadline=None,
        database=None,
        print_blob=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                               HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    for name, (n, _) in PROFILES.items():
        settings.register_profile(f"conformance-{name}", max_examples=n, **common)
    if max_examples is not None:
        settings.register_profile("conformance-custom", max_examples=max_examples, **common)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(id, ref='both'): the documented clause a test checks; "
                                       "ref is 'both', 'doc' (documented behaviour) or 'tf221' (TF 2.21's)")
    config.addinivalue_line("markers", "requires(*capabilities): backend capabilities the test needs")
    if state(config) is not None:
        return
    st = _State(spec=config.getoption("conformance_backend"))
    config.stash[_STATE_KEY] = st
    global _controller_state
    if not _is_xdist_worker(config):
        _controller_state = st

    from hypothesis import settings

    n = config.getoption("conformance_max_examples")
    _register_profiles(n)
    st.profile = config.getoption("conformance_profile")
    settings.load_profile("conformance-custom" if n is not None else f"conformance-{st.profile}")
    seed = config.getoption("hypothesis_seed", default=None)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        config.option.hypothesis_seed = str(seed)
        try:  # in case hypothesis' plugin configured itself before us
            from hypothesis import core

            core.global_force_seed = seed
        except Exception:  # noqa: BLE001
            pass
    st.seed = int(seed) if str(seed).isdigit() else seed

    junit = config.getoption("conformance_junit")
    if junit and not getattr(config.option, "xmlpath", None):
        config.option.xmlpath = junit
    repro.BACKEND_SPEC = st.spec


def pytest_sessionstart(session: pytest.Session) -> None:
    st = state(session.config)
    if st is None:
        return
    st.started = time.monotonic()
    st.started_iso = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    try:
        st.backend = load_backend(st.spec)
        setup = getattr(st.backend, "setup", None)
        if callable(setup):
            setup()
        st.info = BackendInfo.of(st.backend, st.spec)
    except BackendNotFound as e:
        raise pytest.UsageError(f"--backend {st.spec}: {e}") from e
    current_backend.set(st.backend)
    xf = session.config.getoption("conformance_xfails")
    path: Path | None
    if xf is None:   # the backend's own file (third-party backends), else the suite's for a built-in one
        own = getattr(st.backend, "xfail_file", None)
        path = Path(own) if own else builtin_xfail_file(st.info.name)
        if path is not None and not path.exists():
            raise pytest.UsageError(f"backend {st.info.name!r}: its xfail_file {own} does not exist")
    elif xf.lower() == "none":
        path = None
    else:
        path = Path(xf)
        if not path.exists():
            raise pytest.UsageError(f"--xfails {xf}: no such file")
    if path is not None:
        try:
            st.xfails = load_xfails(path)
        except XfailFileError as e:
            raise pytest.UsageError(str(e)) from e
        st.xfail_file = str(path)


def suite_test_id(item: pytest.Item) -> str | None:
    """The id of a suite test relative to the suite directory, or None for other tests."""
    try:
        rel = Path(item.path).resolve().relative_to(SUITE_DIR)
    except ValueError:
        return None
    _, _, rest = item.nodeid.partition("::")
    return f"{rel.as_posix()}::{rest}" if rest else rel.as_posix()


def item_clauses(item: pytest.Item) -> list[tuple[str, str]]:
    out = []
    for m in item.iter_markers("clause"):
        if not m.args:
            raise pytest.UsageError(f"{item.nodeid}: clause marker needs an id")
        ref = m.kwargs.get("ref", "both")
        if ref not in REFS:
            raise pytest.UsageError(f"{item.nodeid}: clause ref must be one of {REFS}, got {ref!r}")
        for cid in m.args:
            out.append((cid, ref))
    return sorted(set(out))


def _phase(item: pytest.Item) -> int:
    caps = {c for m in item.iter_markers("requires") for c in m.args}
    if "fault_injection" in caps:
        return 2
    if "multi_worker" in caps:
        return 1
    return 0


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    st = state(config)
    if st is None:
        return
    for item in items:
        tid = suite_test_id(item)
        if tid is None:
            continue
        clauses = item_clauses(item)
        unknown = [c for c, _ in clauses if c not in CLAUSES]
        if unknown:
            raise pytest.UsageError(f"{item.nodeid}: unknown clause id(s) {unknown}")
        for cid, ref in clauses:
            item.user_properties.append(("clause", f"{cid}@{ref}"))
        for entry in st.xfails:
            if entry.matches(tid, clauses):
                entry.used += 1
                st.deviations[item.nodeid] = entry.reason
                item.add_marker(pytest.mark.xfail(
                    reason=f"known deviation ({Path(st.xfail_file or '').name}:{entry.line}): {entry.reason}",
                    strict=True))
                break
    # Local tests first, then cluster tests, then fault injection (which kills processes).
    items.sort(key=_phase)
    st.order = {item.nodeid: i for i, item in enumerate(items)}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    st = state(item.config)
    if st is None or suite_test_id(item) is None:
        return
    repro.reset()
    clauses = item_clauses(item)
    current_clause.set(clauses[0][0] if clauses else None)
    current_backend.set(st.backend)
    needed = [c for m in item.iter_markers("requires") for c in m.args]
    missing = missing_capabilities(st.backend, needed)
    if missing:
        pytest.skip(f"backend {st.info.name!r} lacks capability {', '.join(missing)}")
    before = getattr(st.backend, "before_test", None)
    if callable(before):
        before(item.nodeid)


def _short(text: str, n: int = 500) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    st = state(item.config)
    tid = suite_test_id(item)
    if st is None or tid is None:
        return report
    res = st.results.get(item.nodeid)
    if res is None:
        res = st.results[item.nodeid] = TestResult(nodeid=tid, clauses=item_clauses(item),
                                                   deviation=st.deviations.get(item.nodeid))
    res.duration += report.duration
    wasxfail = getattr(report, "wasxfail", None)
    if report.when == "call":
        exc = call.excinfo.value if call.excinfo is not None else None
        after = getattr(st.backend, "after_test", None)
        if callable(after):
            try:
                after(item.nodeid, exc if report.failed or wasxfail is not None else None)
            except Exception:  # noqa: BLE001 - cleanup must not hide the verdict
                pass
    if report.when == "setup" and report.skipped:
        res.outcome, res.message = ("xfailed" if wasxfail is not None else "skipped"), _skip_reason(report)
    elif report.when == "setup" and report.failed:
        res.outcome, res.message = "error", _exc_message(call)
        res.longrepr = str(report.longrepr)
    elif report.when == "call":
        if wasxfail is not None and report.skipped:
            res.outcome, res.message = "xfailed", f"{wasxfail} | got: {_exc_message(call)}"
        elif wasxfail is not None and report.passed:
            res.outcome, res.message = "xpassed", f"passed, but listed as a known deviation: {wasxfail}"
        elif report.failed and call.excinfo is None:
            res.outcome, res.message = "xpassed", _short(str(report.longrepr))
        elif report.failed:
            res.outcome, res.message = "failed", _exc_message(call)
            res.longrepr = str(report.longrepr)
        elif report.skipped:
            res.outcome, res.message = "skipped", _skip_reason(report)
        else:
            res.outcome = "passed"
        if report.failed or (wasxfail is not None and report.skipped):
            text = repro.current()
            if text:
                res.repro = text
                report.sections.append(("Reproduction (copy-paste program)", text))
    elif report.when == "teardown" and report.failed and res.outcome not in ("failed", "error"):
        res.outcome, res.message = "error", f"teardown: {_exc_message(call)}"
    if report.when == "setup" and _is_xdist_worker(item.config):
        # who the test is, sent before it runs: if its worker dies, the controller still knows its clauses
        report.user_properties.append((_STARTED, {"nodeid": res.nodeid, "clauses": [list(c) for c in res.clauses],
                                                  "deviation": res.deviation, "order": st.order.get(item.nodeid, -1)}))
    if report.when == "teardown" and _is_xdist_worker(item.config):
        # the verdict travels to the xdist controller on the test's last report (plain types: execnet serializes it)
        report.user_properties.append((_CARRIED, {**asdict(res), "clauses": [list(c) for c in res.clauses],
                                                  "order": st.order.get(item.nodeid, -1)}))
    return report


_CARRIED = "simdist_conformance_result"
_STARTED = "simdist_conformance_started"
_XFAILS_USED = "simdist_conformance_xfails_used"


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """On pytest-xdist's controller: a suite test's verdict, gathered by the worker that ran it, joins the results
    (the report and the clause summary are the controller's). The entries are taken off the reports before junitxml
    and other plugins see their properties. A test whose worker crashed (xdist's report of phase "???") is an error of
    its clauses, known from its setup report; a crash before that report leaves the test out (the run still fails)."""
    st = _controller_state   # None in a worker: there the entry is on its way
    if st is None:
        return
    if report.when == "???" and report.failed:   # (xdist's DSession.handle_crashitem)
        data = st.started_tests.pop(report.nodeid, None)
        if data is not None and report.nodeid not in st.results:
            st.order[report.nodeid] = data.pop("order")
            st.results[report.nodeid] = TestResult(
                nodeid=data["nodeid"], clauses=[tuple(c) for c in data["clauses"]], deviation=data["deviation"],
                outcome="error", message=_short(str(report.longrepr)), longrepr=str(report.longrepr))
        return
    wanted = _STARTED if report.when == "setup" else _CARRIED if report.when == "teardown" else None
    for i, (name, value) in enumerate(report.user_properties):
        if name != wanted:
            continue
        del report.user_properties[i]
        data = dict(value)
        if wanted == _STARTED:
            st.started_tests[report.nodeid] = data
            return
        st.started_tests.pop(report.nodeid, None)
        st.order[report.nodeid] = data.pop("order")
        data["clauses"] = [tuple(c) for c in data["clauses"]]
        st.results[report.nodeid] = TestResult(**data)
        return


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """pytest-xdist's controller, as a worker stops: the xfail entries that matched its collection count as used."""
    st = _controller_state
    used = getattr(node, "workeroutput", {}).get(_XFAILS_USED)
    if st is None or not used:
        return
    for entry in st.xfails:
        if entry.line in used:
            entry.used += 1


def _exc_message(call: pytest.CallInfo[None]) -> str:
    if call.excinfo is None:
        return ""
    return _short(call.excinfo.exconly())


def _skip_reason(report: pytest.TestReport) -> str:
    lr = report.longrepr
    if isinstance(lr, tuple) and len(lr) == 3:
        reason = str(lr[2])
        return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
    return _short(str(lr))


def _hypothesis_info(st: _State) -> dict[str, Any]:
    from hypothesis import settings

    cur = settings()
    return {"profile": settings.get_current_profile_name(), "seed": st.seed,
            "max_examples": cur.max_examples, "suite_profile": st.profile}


def pytest_unconfigure(config: pytest.Config) -> None:
    global _controller_state
    if _controller_state is state(config):
        _controller_state = None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    st = state(session.config)
    if st is None or st.backend is None:
        return
    teardown = getattr(st.backend, "teardown", None)
    if callable(teardown):
        try:
            teardown()
        except Exception:  # noqa: BLE001
            pass
    if _is_xdist_worker(session.config):  # its verdicts went to the controller, which writes the report
        session.config.workeroutput[_XFAILS_USED] = [e.line for e in st.xfails if e.used]
        return
    st.info = BackendInfo.of(st.backend, st.spec)  # again: describe() may know more now
    # in the run order of one process, also when xdist's workers finished them in another
    results = [st.results[k] for k in sorted(st.results, key=lambda k: st.order.get(k, -1))]
    unused = [{"selector": e.selector, "reason": e.reason, "line": e.line} for e in st.xfails if not e.used]
    selection = {"args": list(session.config.args)}
    kexpr = session.config.getoption("keyword", default="")
    if kexpr:
        selection["keyword"] = kexpr
    st.report = build_report(
        results, backend=vars(st.info), hypothesis=_hypothesis_info(st), suite_version=SUITE_VERSION,
        started=st.started_iso, duration=time.monotonic() - st.started, unused_xfails=unused,
        xfail_file=st.xfail_file, exitstatus=int(exitstatus), selection=selection)
    path = session.config.getoption("conformance_report")
    if path:
        write_json(st.report, path)
    md = session.config.getoption("conformance_markdown")
    if md:
        Path(md).write_text(to_markdown(st.report), encoding="utf-8")


def pytest_report_header(config: pytest.Config) -> list[str]:
    st = state(config)
    if st is None:
        return []
    return [f"simdist conformance {SUITE_VERSION}: backend {st.spec}, "
            f"profile {st.profile}, hypothesis seed {st.seed}"]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    st = state(config)
    if st is None or st.report is None:
        return
    r = st.report
    tr = terminalreporter
    tr.section("simdist conformance")
    b = r["backend"]
    tr.write_line(f"backend {b['name']} {b['version']} ({b['spec']}); capabilities: "
                  f"{', '.join(b['capabilities']) or 'none'}")
    tr.write_line(f"hypothesis seed {r['hypothesis']['seed']} (repeat with --hypothesis-seed="
                  f"{r['hypothesis']['seed']}), max_examples {r['hypothesis']['max_examples']}")
    for col, label in (("doc", "documented"), ("tf221", "TF 2.21")):
        counts = ", ".join(f"{v} {k}" for k, v in r["summary"][col].items())
        tr.write_line(f"clauses vs {label}: {counts}")
    failing = [(cid, col) for cid, c in r["clauses"].items() for col in ("doc", "tf221")
               if c[col]["verdict"] == "fail"]
    if failing:
        tr.write_line("failing clauses: " + ", ".join(f"{cid}[{col}]" for cid, col in failing))
    if r["unused_xfails"]:
        tr.write_line(f"{len(r['unused_xfails'])} xfail entries matched no test: "
                      + ", ".join(u["selector"] for u in r["unused_xfails"]))
    for opt in ("conformance_report", "conformance_markdown", "conformance_junit"):
        p = config.getoption(opt)
        if p:
            tr.write_line(f"wrote {p}")

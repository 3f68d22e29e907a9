"""A case_results.Table's comparison by error class: the fuzzers' comparison, for cases whose message text is not the
rule under test (a graph node's name, a variable's creation name, TF's NodeDef dump). A module apart from
case_results, so that the goldens stamped with case_results stay current."""

from __future__ import annotations

from typing import Any, Callable

import case_results


def check_classes(table: case_results.Table, tf_results: dict[int, Any], selected: Callable[[str], bool]) -> None:
    """As `table.check`, but a refusal is compared by its error class alone (values in full)."""
    from simdist import tf
    labels = [(i, lab) for i, lab in enumerate(table.labels) if selected(lab)]
    assert labels, "no case selected"
    bad = []
    for i, lab in labels:
        got, want = table.run(tf, lab), tf_results[i]
        if want[0] == "err" and got[0] == "err" and got[1] == want[1]:
            continue
        d = case_results.diff(got, want, lab)
        if d:
            bad.append(d)
    assert not bad, f"{len(bad)} of {len(labels)} cases differ from TF 2.21:\n" + "\n".join(bad)

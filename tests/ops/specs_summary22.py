"""The op table's entries for tf.summary's ops (clause summary.event-files): writes to an event
file, not differentiable, what they write compared event by event with TF 2.21 in
tests/summary/test_summary22_tf.py. Importing this table imports tf.summary (lazy in the facade), which
registers them."""

import simdist.tf.summary  # noqa: F401 - registers the ops below

UNTESTED_OPS: dict[str, str] = {
    "WriteSummary": "writes one event (a bool output for the Python, none in TF; not differentiable): the events are "
                    "compared with TF 2.21's in tests/summary/test_summary22_tf.py (summary.event-files)",
    "WriteRawProtoSummary": "writes one event of serialized Summary protos (not differentiable): compared with TF "
                            "2.21's in tests/summary/test_summary22_tf.py (summary.event-files)",
    "WriteGraphSummary": "writes a GraphDef event (not differentiable): tests/summary/test_summary_rules.py "
                         "(summary.event-files)",
    "FlushSummaryWriter": "flushes a writer's queue (not differentiable): the records on disk are compared with TF "
                          "2.21's in tests/summary/test_summary22_tf.py (summary.event-files)",
}

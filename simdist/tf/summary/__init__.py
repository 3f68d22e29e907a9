"""`tf.summary` (TF 2.21 python/ops/summary_ops_v2.py and TensorBoard's summary_v2 plugins): event
files TensorBoard reads, written deterministically (clause summary.event-files). Imported on first
use of `tf.summary`; the plugins' functions need the `tensorboard` package (simdist[tensorboard])."""

from types import SimpleNamespace as _NS

from simdist.tf.summary._plugins import audio, histogram, image, scalar, text
from simdist.tf.summary._state import get_step as _get_step, record_if, set_step as _set_step, should_record_summaries
from simdist.tf.summary._trace import trace_export, trace_off, trace_on
from simdist.tf.summary._write import graph, summary_scope as _summary_scope, write, write_raw_pb as _write_raw_pb
from simdist.tf.summary._writer import SummaryWriter, create_file_writer, create_noop_writer, flush

experimental = _NS(get_step=_get_step, set_step=_set_step, summary_scope=_summary_scope, write_raw_pb=_write_raw_pb)

__all__ = ["SummaryWriter", "audio", "create_file_writer", "create_noop_writer", "experimental", "flush", "graph",
           "histogram", "image", "record_if", "scalar", "should_record_summaries", "text", "trace_export",
           "trace_off", "trace_on", "write"]

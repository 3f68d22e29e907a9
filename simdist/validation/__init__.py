"""Validation of simulated time against published measurements of real systems (docs/validation.md).

`table` holds the record of one published measurement and what simdist predicts for it;
the rows live in modules by workload kind (collectives, training throughput), and
`simdist validate` reruns them all.
"""

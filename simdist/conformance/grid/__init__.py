"""The training reference grid (clause ``train.reference-grid``, issue 29).

Many small deterministic training programs (:mod:`.programs`), written against the TF API so
they run unchanged on any backend; their observables recorded once on real TF 2.21 + Keras 3
(:mod:`.record`) and shipped beside this file (:mod:`.reference`), so the suite compares a
backend's values to TF's without TF installed.
"""

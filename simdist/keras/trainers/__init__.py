"""Keras 3's trainers (keras/src/trainers + backend/tensorflow/trainer.py) on simdist.tf: the
`Trainer` mixin of `Model` (compile, fit, evaluate, predict), the data adapters and the
compiled loss and metrics."""

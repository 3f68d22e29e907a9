"""`tf.keras.losses.Reduction`: the Keras 2 reduction names that TF 2.21's `tf.keras` still exports
(keras/src/legacy/losses.py, exported by keras._tf_keras only; plain `keras.losses` has none).

Its values are plain strings, which Keras 3's losses take as `reduction=`: NONE, SUM and
SUM_OVER_BATCH_SIZE are accepted; AUTO ("auto") is refused by every Keras 3 loss with ValueError
(clause keras.loss.reduction-legacy)."""

from __future__ import annotations


class Reduction:
    """Names of the loss reductions: AUTO, NONE, SUM, SUM_OVER_BATCH_SIZE."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple[str, ...]:
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key: str) -> None:
        """ValueError unless `key` is one of `all()`."""
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')

"""Keras's preprocessing layers that run in tf.data pipelines (keras/src/layers/preprocessing/)."""

"""Keras 3.15's model builders of tf.keras.applications, transcribed (docs/tools/transcribe_keras_applications.py)."""

"""Keras 3.15's audio preprocessing layers (keras/src/layers/preprocessing/*_spectrogram.py)."""

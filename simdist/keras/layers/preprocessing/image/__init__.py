"""Keras 3.15's image preprocessing and augmentation layers
(keras/src/layers/preprocessing/image_preprocessing/), one module per layer on base.py."""

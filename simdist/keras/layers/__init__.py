"""`keras.layers`: the base Layer and the layers simdist implements (one import line per name)."""

from __future__ import annotations

from simdist.keras.layers.core import Activation  # noqa: F401
from simdist.keras.layers.core import Dense  # noqa: F401
from simdist.keras.layers.core import Dropout  # noqa: F401
from simdist.keras.layers.core import Embedding  # noqa: F401
from simdist.keras.layers.core import Input  # noqa: F401
from simdist.keras.layers.core import InputLayer  # noqa: F401
from simdist.keras.layers.core import ReLU  # noqa: F401
from simdist.keras.layers.core import Softmax  # noqa: F401
from simdist.keras.layers.input_spec import InputSpec  # noqa: F401
from simdist.keras.layers.layer import Layer  # noqa: F401
from simdist.keras.layers.merging import Add  # noqa: F401
from simdist.keras.layers.merging import Concatenate  # noqa: F401
from simdist.keras.layers.merging import add  # noqa: F401
from simdist.keras.layers.merging import concatenate  # noqa: F401
from simdist.keras.layers.reshaping import Flatten  # noqa: F401
from simdist.keras.layers.reshaping import Reshape  # noqa: F401
from simdist.keras.layers.convolutional import Conv2D  # noqa: F401
from simdist.keras.layers.convolutional import Convolution2D  # noqa: F401
from simdist.keras.layers.normalization import BatchNormalization  # noqa: F401
from simdist.keras.layers.normalization import LayerNormalization  # noqa: F401
from simdist.keras.layers.pooling import AveragePooling2D  # noqa: F401
from simdist.keras.layers.pooling import AvgPool2D  # noqa: F401
from simdist.keras.layers.pooling import GlobalAveragePooling2D  # noqa: F401
from simdist.keras.layers.pooling import GlobalAvgPool2D  # noqa: F401
from simdist.keras.layers.pooling import GlobalMaxPool2D  # noqa: F401
from simdist.keras.layers.pooling import GlobalMaxPooling2D  # noqa: F401
from simdist.keras.layers.pooling import MaxPool2D  # noqa: F401
from simdist.keras.layers.pooling import MaxPooling2D  # noqa: F401
from simdist.keras.layers.global_pooling1d import GlobalAveragePooling1D  # noqa: F401
from simdist.keras.layers.global_pooling1d import GlobalAvgPool1D  # noqa: F401
from simdist.keras.layers.global_pooling1d import GlobalMaxPool1D  # noqa: F401
from simdist.keras.layers.global_pooling1d import GlobalMaxPooling1D  # noqa: F401
from simdist.keras.layers.convolutional import Conv1D  # noqa: F401
from simdist.keras.layers.convolutional import Convolution1D  # noqa: F401
from simdist.keras.layers.depthwise_separable import DepthwiseConv2D  # noqa: F401
from simdist.keras.layers.depthwise_separable import SeparableConv1D  # noqa: F401
from simdist.keras.layers.depthwise_separable import SeparableConv2D  # noqa: F401
from simdist.keras.layers.depthwise_separable import SeparableConvolution1D  # noqa: F401
from simdist.keras.layers.depthwise_separable import SeparableConvolution2D  # noqa: F401
from simdist.keras.layers.upsampling_padding import UpSampling1D  # noqa: F401
from simdist.keras.layers.upsampling_padding import UpSampling2D  # noqa: F401
from simdist.keras.layers.upsampling_padding import ZeroPadding1D  # noqa: F401
from simdist.keras.layers.upsampling_padding import ZeroPadding2D  # noqa: F401

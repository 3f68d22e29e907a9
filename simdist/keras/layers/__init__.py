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
from simdist.keras.layers.merging import Subtract  # noqa: F401
from simdist.keras.layers.merging import Multiply  # noqa: F401
from simdist.keras.layers.merging import Maximum  # noqa: F401
from simdist.keras.layers.merging import Minimum  # noqa: F401
from simdist.keras.layers.merging import subtract  # noqa: F401
from simdist.keras.layers.merging import multiply  # noqa: F401
from simdist.keras.layers.merging import maximum  # noqa: F401
from simdist.keras.layers.merging import minimum  # noqa: F401
from simdist.keras.layers.activation_layers import ELU  # noqa: F401
from simdist.keras.layers.activation_layers import Identity  # noqa: F401
from simdist.keras.layers.activation_layers import LeakyReLU  # noqa: F401
from simdist.keras.layers.prelu import PReLU  # noqa: F401
from simdist.keras.layers.merging import Average  # noqa: F401
from simdist.keras.layers.merging import Concatenate  # noqa: F401
from simdist.keras.layers.merging import average  # noqa: F401
from simdist.keras.layers.merging import add  # noqa: F401
from simdist.keras.layers.merging import concatenate  # noqa: F401
from simdist.keras.layers.reshaping import Flatten  # noqa: F401
from simdist.keras.layers.reshaping import Reshape  # noqa: F401
from simdist.keras.layers.permute import Permute  # noqa: F401
from simdist.keras.layers.cropping1d import Cropping1D  # noqa: F401
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
from simdist.keras.layers.pooling1d import AveragePooling1D  # noqa: F401
from simdist.keras.layers.pooling1d import AvgPool1D  # noqa: F401
from simdist.keras.layers.pooling1d import MaxPool1D  # noqa: F401
from simdist.keras.layers.pooling1d import MaxPooling1D  # noqa: F401
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
from simdist.keras.layers.masking import Masking  # noqa: F401
from simdist.keras.layers.rnn_cells import GRUCell  # noqa: F401
from simdist.keras.layers.rnn_cells import LSTMCell  # noqa: F401
from simdist.keras.layers.rnn_cells import SimpleRNNCell  # noqa: F401
from simdist.keras.layers.rnn import GRU  # noqa: F401
from simdist.keras.layers.rnn import LSTM  # noqa: F401
from simdist.keras.layers.rnn import RNN  # noqa: F401
from simdist.keras.layers.rnn import SimpleRNN  # noqa: F401
from simdist.keras.layers.bidirectional import Bidirectional  # noqa: F401
from simdist.keras.layers.einsum_dense import EinsumDense  # noqa: F401
from simdist.keras.layers.attention import MultiHeadAttention  # noqa: F401
from simdist.keras.layers.lambda_layer import Lambda  # noqa: F401
from simdist.keras.layers.repeat_vector import RepeatVector  # noqa: F401
from simdist.keras.layers.activity_regularization import ActivityRegularization  # noqa: F401
from simdist.keras.layers.dot import Dot  # noqa: F401
from simdist.keras.layers.dot import dot  # noqa: F401
from simdist.keras.layers.cropping import Cropping2D  # noqa: F401
from simdist.keras.layers.cropping import Cropping3D  # noqa: F401
from simdist.keras.layers.zero_padding3d import ZeroPadding3D  # noqa: F401
from simdist.keras.layers.noise import AlphaDropout  # noqa: F401
from simdist.keras.layers.noise import GaussianDropout  # noqa: F401
from simdist.keras.layers.noise import GaussianNoise  # noqa: F401
from simdist.keras.layers.spatial_dropout import SpatialDropout1D  # noqa: F401
from simdist.keras.layers.spatial_dropout import SpatialDropout2D  # noqa: F401
from simdist.keras.layers.spatial_dropout import SpatialDropout3D  # noqa: F401
from simdist.keras.layers.activation_layers import ThresholdedReLU  # noqa: F401
from simdist.keras.layers.conv3d import Conv3D  # noqa: F401
from simdist.keras.layers.conv3d import Convolution3D  # noqa: F401
from simdist.keras.layers.conv_transpose import Conv1DTranspose  # noqa: F401
from simdist.keras.layers.conv_transpose import Conv2DTranspose  # noqa: F401
from simdist.keras.layers.conv_transpose import Conv3DTranspose  # noqa: F401
from simdist.keras.layers.conv_transpose import Convolution1DTranspose  # noqa: F401
from simdist.keras.layers.conv_transpose import Convolution2DTranspose  # noqa: F401
from simdist.keras.layers.conv_transpose import Convolution3DTranspose  # noqa: F401
from simdist.keras.layers.pooling3d import MaxPooling3D  # noqa: F401
from simdist.keras.layers.pooling3d import AveragePooling3D  # noqa: F401
from simdist.keras.layers.pooling3d import MaxPool3D  # noqa: F401
from simdist.keras.layers.pooling3d import AvgPool3D  # noqa: F401
from simdist.keras.layers.pooling3d import GlobalAveragePooling3D  # noqa: F401
from simdist.keras.layers.pooling3d import GlobalMaxPooling3D  # noqa: F401
from simdist.keras.layers.pooling3d import GlobalAvgPool3D  # noqa: F401
from simdist.keras.layers.pooling3d import GlobalMaxPool3D  # noqa: F401
from simdist.keras.layers.group_normalization import GroupNormalization  # noqa: F401
from simdist.keras.layers.rms_normalization import RMSNormalization  # noqa: F401
from simdist.keras.layers.unit_normalization import UnitNormalization  # noqa: F401
from simdist.keras.layers.normalization_adapt import Normalization  # noqa: F401
from simdist.keras.layers.category_encoding import CategoryEncoding  # noqa: F401
from simdist.keras.layers.discretization import Discretization  # noqa: F401
from simdist.keras.layers.dot_attention import AdditiveAttention  # noqa: F401
from simdist.keras.layers.dot_attention import Attention  # noqa: F401
from simdist.keras.layers.depthwise_conv1d import DepthwiseConv1D  # noqa: F401
from simdist.keras.layers.upsampling3d import UpSampling3D  # noqa: F401
from simdist.keras.layers.rescaling import Rescaling  # noqa: F401
from simdist.keras.layers.time_distributed import TimeDistributed  # noqa: F401
from simdist.keras.layers.hashing import Hashing  # noqa: F401
from simdist.keras.layers.wrapper import Wrapper  # noqa: F401
from simdist.keras.layers.preprocessing.image.resizing import Resizing  # noqa: F401
from simdist.keras.layers.preprocessing.image.center_crop import CenterCrop  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_crop import RandomCrop  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_flip import RandomFlip  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_rotation import RandomRotation  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_zoom import RandomZoom  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_translation import RandomTranslation  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_contrast import RandomContrast  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_brightness import RandomBrightness  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_size import RandomHeight  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_size import RandomWidth  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_grayscale import RandomGrayscale  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_invert import RandomInvert  # noqa: F401
from simdist.keras.layers.preprocessing.image.solarization import Solarization  # noqa: F401
from simdist.keras.layers.preprocessing.image.auto_contrast import AutoContrast  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_saturation import RandomSaturation  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_hue import RandomHue  # noqa: F401
from simdist.keras.layers.preprocessing.image.mix_up import MixUp  # noqa: F401
from simdist.keras.layers.preprocessing.image.cut_mix import CutMix  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_color_degeneration import RandomColorDegeneration  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_posterization import RandomPosterization  # noqa: F401
from simdist.keras.layers.preprocessing.image.max_num_bounding_boxes import MaxNumBoundingBoxes  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_sharpness import RandomSharpness  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_erasing import RandomErasing  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_gaussian_blur import RandomGaussianBlur  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_color_jitter import RandomColorJitter  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_shear import RandomShear  # noqa: F401
from simdist.keras.layers.preprocessing.image.equalization import Equalization  # noqa: F401
from simdist.keras.layers.preprocessing.image.rand_augment import RandAugment  # noqa: F401
from simdist.keras.layers.preprocessing.image.aug_mix import AugMix  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_perspective import RandomPerspective  # noqa: F401
from simdist.keras.layers.preprocessing.image.random_elastic_transform import RandomElasticTransform  # noqa: F401
from simdist.keras.layers.preprocessing.image.clahe import ContrastLimitedAdaptiveHistogramEqualization  # noqa: F401,E501
from simdist.keras.layers.preprocessing.audio.stft_spectrogram import STFTSpectrogram  # noqa: F401
from simdist.keras.layers.preprocessing.audio.mel_spectrogram import MelSpectrogram  # noqa: F401
from simdist.keras.layers.preprocessing.pipeline import Pipeline  # noqa: F401
from simdist.keras.layers.string_lookup import StringLookup  # noqa: F401
from simdist.keras.layers.text_vectorization import TextVectorization  # noqa: F401
from simdist.keras.layers.integer_lookup import IntegerLookup  # noqa: F401
from simdist.keras.layers.hashed_crossing import HashedCrossing  # noqa: F401
from simdist.keras.layers.adaptive_pooling import AdaptiveAveragePooling1D  # noqa: F401
from simdist.keras.layers.adaptive_pooling import AdaptiveAveragePooling2D  # noqa: F401
from simdist.keras.layers.adaptive_pooling import AdaptiveAveragePooling3D  # noqa: F401
from simdist.keras.layers.adaptive_pooling import AdaptiveMaxPooling1D  # noqa: F401
from simdist.keras.layers.adaptive_pooling import AdaptiveMaxPooling2D  # noqa: F401
from simdist.keras.layers.adaptive_pooling import AdaptiveMaxPooling3D  # noqa: F401
from simdist.keras.layers.stacked_rnn_cells import StackedRNNCells  # noqa: F401
from simdist.keras.layers.grouped_query_attention import GroupQueryAttention  # noqa: F401
from simdist.keras.layers.spectral_normalization import SpectralNormalization  # noqa: F401
from simdist.keras.layers.reversible_embedding import ReversibleEmbedding  # noqa: F401
from simdist.keras.layers.layer_serialization import deserialize  # noqa: F401
from simdist.keras.layers.layer_serialization import serialize  # noqa: F401
from simdist.keras.layers.conv_lstm import ConvLSTM1D  # noqa: F401
from simdist.keras.layers.conv_lstm import ConvLSTM2D  # noqa: F401
from simdist.keras.layers.conv_lstm import ConvLSTM3D  # noqa: F401


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.layers names simdist has (one a line; clause api.namespaces)
    "Activation",
    "ActivityRegularization",
    "AdaptiveAveragePooling1D",
    "AdaptiveAveragePooling2D",
    "AdaptiveAveragePooling3D",
    "AdaptiveMaxPooling1D",
    "AdaptiveMaxPooling2D",
    "AdaptiveMaxPooling3D",
    "Add",
    "AdditiveAttention",
    "AlphaDropout",
    "Attention",
    "AugMix",
    "AutoContrast",
    "Average",
    "AveragePooling1D",
    "AveragePooling2D",
    "AveragePooling3D",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "BatchNormalization",
    "Bidirectional",
    "CategoryEncoding",
    "CenterCrop",
    "Concatenate",
    "ContrastLimitedAdaptiveHistogramEqualization",
    "Conv1D",
    "Conv1DTranspose",
    "Conv2D",
    "Conv2DTranspose",
    "Conv3D",
    "Conv3DTranspose",
    "ConvLSTM1D",
    "ConvLSTM2D",
    "ConvLSTM3D",
    "Convolution1D",
    "Convolution1DTranspose",
    "Convolution2D",
    "Convolution2DTranspose",
    "Convolution3D",
    "Convolution3DTranspose",
    "Cropping1D",
    "Cropping2D",
    "Cropping3D",
    "CutMix",
    "Dense",
    "DepthwiseConv1D",
    "DepthwiseConv2D",
    "Discretization",
    "Dot",
    "Dropout",
    "ELU",
    "EinsumDense",
    "Embedding",
    "Equalization",
    "Flatten",
    "GRU",
    "GRUCell",
    "GaussianDropout",
    "GaussianNoise",
    "GlobalAveragePooling1D",
    "GlobalAveragePooling2D",
    "GlobalAveragePooling3D",
    "GlobalAvgPool1D",
    "GlobalAvgPool2D",
    "GlobalAvgPool3D",
    "GlobalMaxPool1D",
    "GlobalMaxPool2D",
    "GlobalMaxPool3D",
    "GlobalMaxPooling1D",
    "GlobalMaxPooling2D",
    "GlobalMaxPooling3D",
    "GroupNormalization",
    "GroupQueryAttention",
    "HashedCrossing",
    "Hashing",
    "Identity",
    "Input",
    "InputLayer",
    "InputSpec",
    "IntegerLookup",
    "LSTM",
    "LSTMCell",
    "Lambda",
    "Layer",
    "LayerNormalization",
    "LeakyReLU",
    "Masking",
    "MaxPool1D",
    "MaxPool2D",
    "MaxPool3D",
    "MaxPooling1D",
    "MaxPooling2D",
    "MaxPooling3D",
    "Maximum",
    "MelSpectrogram",
    "Minimum",
    "MixUp",
    "MultiHeadAttention",
    "Multiply",
    "Normalization",
    "PReLU",
    "Permute",
    "Pipeline",
    "RMSNormalization",
    "RNN",
    "RandAugment",
    "RandomBrightness",
    "RandomColorDegeneration",
    "RandomColorJitter",
    "RandomContrast",
    "RandomCrop",
    "RandomElasticTransform",
    "RandomErasing",
    "RandomFlip",
    "RandomGaussianBlur",
    "RandomGrayscale",
    "RandomHeight",
    "RandomHue",
    "RandomInvert",
    "RandomPerspective",
    "RandomPosterization",
    "MaxNumBoundingBoxes",
    "RandomRotation",
    "RandomSaturation",
    "RandomSharpness",
    "RandomShear",
    "RandomTranslation",
    "RandomWidth",
    "RandomZoom",
    "ReLU",
    "RepeatVector",
    "Rescaling",
    "Reshape",
    "Resizing",
    "ReversibleEmbedding",
    "STFTSpectrogram",
    "SeparableConv1D",
    "SeparableConv2D",
    "SeparableConvolution1D",
    "SeparableConvolution2D",
    "SimpleRNN",
    "SimpleRNNCell",
    "Softmax",
    "Solarization",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
    "SpectralNormalization",
    "StackedRNNCells",
    "StringLookup",
    "Subtract",
    "TextVectorization",
    "ThresholdedReLU",
    "TimeDistributed",
    "UnitNormalization",
    "UpSampling1D",
    "UpSampling2D",
    "UpSampling3D",
    "Wrapper",
    "ZeroPadding1D",
    "ZeroPadding2D",
    "ZeroPadding3D",
    "add",
    "average",
    "concatenate",
    "deserialize",
    "dot",
    "maximum",
    "minimum",
    "multiply",
    "serialize",
    "subtract",
]
__dir__ = _api.dir_of(__name__)

"""`tf.signal`: the spectral ops (runtime/ops/fft.py: FFT/RFFT families, clause ops.signal-fft) and
TF's Python compositions on them (runtime/ops/signal_ops.py: shifts, windows, frame,
overlap_and_add, stft; clause ops.signal-compositions)."""

from simdist.runtime.ops.fft import (fft, fft2d, fft3d, fftnd, ifft, ifft2d, ifft3d, ifftnd, irfft,  # noqa: F401
                                     irfft2d, irfft3d, irfftnd, rfft, rfft2d, rfft3d, rfftnd)
from simdist.runtime.ops.signal_ops import (fftshift, frame, hamming_window, hann_window,  # noqa: F401
                                            ifftshift, inverse_stft, inverse_stft_window_fn, kaiser_bessel_derived_window,
                                            kaiser_window, overlap_and_add, stft, vorbis_window)
from simdist.runtime.ops.signal_dct import (dct, idct, inverse_mdct, linear_to_mel_weight_matrix,  # noqa: F401,E402
                                            mdct, mfccs_from_log_mel_spectrograms)

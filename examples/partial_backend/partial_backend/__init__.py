"""An example third-party package: a deliberately partial tf.distribute implementation
(`partial_backend.impl`) and the conformance backend that runs simdist's suite against it
(`partial_backend.backend`, registered as `--backend partial`)."""

__version__ = "0.1.0"

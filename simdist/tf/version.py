"""`tf.version` (clause api.version): the TF release simdist follows, marked as simdist's.

VERSION is `tf.__version__` ("2.21.0-simdist"), as TF 2.21's VERSION is its `__version__`: a program
comparing major and minor versions sees 2.21, the release whose behaviour simdist reproduces, and
the local suffix tells a log which backend ran. The GraphDef versions are TF 2.21's (observed:
2474, 0, 0): simdist's recorded graphs claim that format. GIT_VERSION and COMPILER_VERSION are
simdist's own (no TF build is involved)."""

VERSION = "2.21.0-simdist"
GIT_VERSION = "v2.21.0-simdist"
COMPILER_VERSION = "simdist (NumPy)"
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

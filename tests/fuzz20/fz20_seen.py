"""Classes the twentieth fuzzer's campaigns found and nobody has analysed one by one yet (generated
by fz20_seen_refresh.py from campaign logs; see fz20_known.py): (label, kind, TF's sign) -> where
and what each side did."""

SEEN: dict[tuple[str, str, str], str] = {('raw:BandedTriangularSolve', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                  "simdist's kernel error when the graph runs: seed "
                                                                  "2220261202 #96 (sig): TF 2.21 ('calls', (('err', "
                                                                  "'ValueError'), ('err', 'ValueError'), ('err', "
                                                                  "'ValueError'))); simdist ('calls', (('ok', "
                                                                  "'traced'), ('err', 'InvalidArgumentError'), "
                                                                  "('err', 'InvalidArgumentErro",
 ('raw:BandedTriangularSolve', 'rejects', "'err', 'InvalidArgumentError'"): 'seed 2220261202 #96 (sig): TF 2.21 '
                                                                            "('calls', (('ok', 'traced'), ('err', "
                                                                            "'InvalidArgumentError'), ('err', "
                                                                            "'InvalidArgumentErro; simdist ('calls', "
                                                                            "(('err', 'ValueError'), ('err', "
                                                                            "'ValueError'), ('err', 'ValueError')))",
 ('raw:BandedTriangularSolve', 'value', "'ok'"): "seed 20202612010 #35 (eager): TF 2.21 ('ok', ('T', 'complex64', "
                                                 "(1, 4, 1, 1), array([[[[ 2.+0.5j]],; simdist ('ok', ('T', "
                                                 "'complex64', (1, 4, 1, 1), array([[[[  2.+0.5j]],",
 ('raw:Cholesky', 'value', "'ok'"): "seed 2020261202 #269 (function): TF 2.21 ('calls', (('ok', ('T', 'complex128', "
                                    "(3, 3), array([[0.+0.j, 0.+0.j, 0.+0.j],; simdist ('calls', (('ok', ('T', "
                                    "'complex128', (3, 3), array([[nan+0.j,  0.+0.j,  0.+0.j],",
 ('raw:ClipByValue', 'value', "'ok'"): "seed 2220261202 #109 (sig): TF 2.21 ('calls', (('ok', 'traced'), ('ok', "
                                       "('T', 'complex64', (2, 2, 4, 2), array([[[[ 1.0000e-03; simdist ('calls', "
                                       "(('ok', 'traced'), ('ok', ('T', 'complex64', (2, 2, 4, 2), array([[[[ "
                                       '1.0000e-03',
 ('raw:CropAndResizeGradImage', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                   "simdist's kernel error when the graph runs: seed "
                                                                   "2220261202 #184 (sig): TF 2.21 ('calls', "
                                                                   "(('err', 'ValueError'), ('err', 'ValueError'), "
                                                                   "('err', 'ValueError'))); simdist ('calls', "
                                                                   "(('ok', 'traced'), ('err', "
                                                                   "'InvalidArgumentError'), ('err', "
                                                                   "'InvalidArgumentErro",
 ('raw:DenseToSparseSetOperation', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                      "simdist's kernel error when the graph runs: "
                                                                      "seed 2220261202 #121 (sig): TF 2.21 ('calls', "
                                                                      "(('err', 'ValueError'), ('err', "
                                                                      "'ValueError'), ('err', 'ValueError'))); "
                                                                      "simdist ('calls', (('ok', 'traced'), ('err', "
                                                                      "'InvalidArgumentError'), ('err', "
                                                                      "'InvalidArgumentErro",
 ('raw:DepthwiseConv2dNativeBackpropInput', 'error-class', "'err', 'ValueError'"): 'seed 2020261202 #206 (function): '
                                                                                   "TF 2.21 ('calls', (('err', "
                                                                                   "'ValueError'), ('err', "
                                                                                   "'ValueError'), ('err', "
                                                                                   "'ValueError'), ('ok', ('p; "
                                                                                   "simdist ('calls', (('err', "
                                                                                   "'UnimplementedError'), ('err', "
                                                                                   "'UnimplementedError'), ('err', "
                                                                                   "'Unimplem",
 ('raw:FractionalMaxPool', 'accepts', "'err', 'InvalidArgumentError'"): 'seed 2220261202 #87 (sig): TF 2.21 '
                                                                        "('calls', (('ok', 'traced'), ('err', "
                                                                        "'InvalidArgumentError'), ('err', "
                                                                        "'InvalidArgumentErro; simdist ('calls', "
                                                                        "(('ok', 'traced'), ('ok', ('list', (('T', "
                                                                        "'int64', (1, 1, 2, 4), array([[[[ 3, -",
 ('raw:FresnelSin', 'value', "'ok'"): "seed 2220261202 #161 (sig): TF 2.21 ('calls', (('ok', 'traced'), ('ok', ('T', "
                                      "'float64', (2, 3, 3), array([[[ 4.99704789e-001,; simdist ('calls', (('ok', "
                                      "'traced'), ('ok', ('T', 'float64', (2, 3, 3), array([[[ 4.99704789e-001,",
 ('raw:LearnedUnigramCandidateSampler', 'value', "'ok'"): "seed 2020261202 #202 (eager): TF 2.21 ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([0, 2])), ('T', 'flo; simdist ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([1, 0])), ('T', 'flo",
 ('raw:MatrixDiagV3', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                         'kernel error when the graph runs: seed 2220261202 #70 '
                                                         "(sig): TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                         "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                         "(('ok', 'traced'), ('err', 'InvalidArgumentError'), "
                                                         "('err', 'InvalidArgumentErro",
 ('raw:MatrixInverse', 'value', "'ok'"): "seed 2220261202 #51 (sig): TF 2.21 ('calls', (('ok', 'traced'), ('ok', "
                                         "('T', 'float32', (2, 3, 3), array([[[ 4.9998516e-01,  ; simdist ('calls', "
                                         "(('ok', 'traced'), ('ok', ('T', 'float32', (2, 3, 3), array([[[ "
                                         '4.9998513e-01,  ',
 ('raw:MatrixSquareRoot', 'value', "'ok'"): "seed 2020261201 #195 (function): TF 2.21 ('calls', (('ok', ('T', "
                                            "'complex64', (1, 4, 3, 3), array([[[[nan+nanj, nan+nanj, nan+nanj]; "
                                            "simdist ('calls', (('ok', ('T', 'complex64', (1, 4, 3, 3), "
                                            'array([[[[nan+0.j, nan+0.j, nan+0.j],',
 ('raw:Qr', 'gradient', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex128', "
                                 "(3, 3), array([[-0.70436073+0.j        ,  0.; simdist ('grad', ('ok', ('list', "
                                 "(('T', 'complex128', (3, 3), array([[-0.70436073+0.j        ,  0.",
 ('raw:Qr', 'value', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              "1, 1), array([[[nan+nanj]],; simdist ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              '1, 1), array([[[nan+0.j]],',
 ('raw:RandomIndexShuffle', 'accepts', "'err', 'TypeError'"): "seed 2020261202 #138 (sig): TF 2.21 ('calls', "
                                                              "(('err', 'TypeError'), ('err', 'TypeError'), ('err', "
                                                              "'TypeError'))); simdist ('calls', (('ok', 'traced'), "
                                                              "('err', 'InvalidArgumentError'), ('err', "
                                                              "'InvalidArgumentErro",
 ('raw:RandomIndexShuffle', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                               'kernel error when the graph runs: seed 2220261202 '
                                                               "#126 (sig): TF 2.21 ('calls', (('err', "
                                                               "'ValueError'), ('err', 'ValueError'), ('err', "
                                                               "'ValueError'))); simdist ('calls', (('ok', "
                                                               "'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                               "'InvalidArgumentErro",
 ('raw:SigmoidGrad', 'gradient', "'ok'"): "seed 2020261202 #174 (tape): TF 2.21 ('grad', ('ok', ('T', 'complex64', "
                                          "(3,), array([ 12.    -5.25j   , -19.5   +0.j     ,  -0.; simdist ('grad', "
                                          "('ok', ('T', 'complex64', (3,), array([ 12.    -5.25j   , -19.5   "
                                          '+0.j     ,  -0.',
 ('raw:SparseReduceMax', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                            'kernel error when the graph runs: seed 2220261202 #192 '
                                                            "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                            "('err', 'ValueError'), ('err', 'ValueError'))); simdist "
                                                            "('calls', (('ok', 'traced'), ('err', "
                                                            "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:SparseReduceSum', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                            'kernel error when the graph runs: seed 2220261202 #128 '
                                                            "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                            "('err', 'ValueError'), ('err', 'ValueError'))); simdist "
                                                            "('calls', (('ok', 'traced'), ('err', "
                                                            "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:SparseReshape', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                          'kernel error when the graph runs: seed 2220261202 #129 '
                                                          "(sig): TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                          "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                          "(('ok', 'traced'), ('err', 'InvalidArgumentError'), "
                                                          "('err', 'InvalidArgumentErro",
 ('raw:SparseSoftmax', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                          'kernel error when the graph runs: seed 2220261202 #42 '
                                                          "(sig): TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                          "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                          "(('ok', 'traced'), ('err', 'InvalidArgumentError'), "
                                                          "('err', 'InvalidArgumentErro",
 ('raw:Svd', 'value', "'ok'"): "seed 2020261201 #27 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (1, "
                               "1), array([[1.5+0.j]], dtype=complex64)),; simdist ('grad', ('ok', ('list', (('T', "
                               "'float32', (1, 1), array([[1.5]], dtype=float32)), ('T', '"}

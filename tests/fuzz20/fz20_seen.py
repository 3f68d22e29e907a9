"""Classes the twentieth fuzzer's campaigns found and nobody has analysed one by one yet (generated
by fz20_seen_refresh.py from campaign logs; see fz20_known.py): (label, kind, TF's sign) -> where
and what each side did."""

SEEN: dict[tuple[str, str, str], str] = {('raw:AvgPool', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                        'error when the graph runs: seed 20202612012 #9 (function): '
                                                        "TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                        "'ValueError'), ('err', 'ValueError'), ('ok', ('p; simdist "
                                                        "('calls', (('err', 'InvalidArgumentError'), ('err', "
                                                        "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:BandedTriangularSolve', 'value', "'ok'"): "seed 20202612010 #35 (eager): TF 2.21 ('ok', ('T', 'complex64', "
                                                 "(1, 4, 1, 1), array([[[[ 2.+0.5j]],; simdist ('ok', ('T', "
                                                 "'complex64', (1, 4, 1, 1), array([[[[  2.+0.5j]],",
 ('raw:BatchMatMulV2', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                          'kernel error when the graph runs: seed 2020261202 #15 '
                                                          "(sig): TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                          "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                          "(('ok', 'traced'), ('err', 'InvalidArgumentError'), "
                                                          "('err', 'InvalidArgumentErro",
 ('raw:BatchMatMulV2', 'trace-time', "'ok'"): "seed 20202612013 #4 (sig): TF 2.21 ('calls', (('ok', 'traced'), "
                                              "('ok', ('T', 'complex128', (2, 4, 4, 4), array([[[[ 8.2500000; "
                                              "simdist ('calls', (('err', 'ValueError'), ('ok', ('T', 'complex128', "
                                              '(2, 4, 4, 4), array([[[[ 8.25',
 ('raw:BatchToSpaceND', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                               'kernel error when the graph runs: seed 2020261202 '
                                                               "#57 (function): TF 2.21 ('calls', (('err', "
                                                               "'ValueError'), ('err', 'ValueError'), ('err', "
                                                               "'ValueError'), ('ok', ('p; simdist ('calls', "
                                                               "(('err', 'InvalidArgumentError'), ('err', "
                                                               "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:Betainc', 'accepts', "'err', 'ValueError'"): "seed 2020261201 #184 (sig): TF 2.21 ('calls', (('err', "
                                                    "'ValueError'), ('err', 'ValueError'), ('err', 'ValueError'))); "
                                                    "simdist ('calls', (('ok', 'traced'), ('ok', ('T', 'float32', "
                                                    '(2, 1, 3), array([[[nan, nan, nan]],',
 ('raw:Cholesky', 'value', "'ok'"): "seed 2020261202 #269 (function): TF 2.21 ('calls', (('ok', ('T', 'complex128', "
                                    "(3, 3), array([[0.+0.j, 0.+0.j, 0.+0.j],; simdist ('calls', (('ok', ('T', "
                                    "'complex128', (3, 3), array([[nan+0.j,  0.+0.j,  0.+0.j],",
 ('raw:ComputeAccidentalHits', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                  "simdist's kernel error when the graph runs: seed "
                                                                  "2020261202 #199 (sig): TF 2.21 ('calls', (('err', "
                                                                  "'ValueError'), ('err', 'ValueError'), ('err', "
                                                                  "'ValueError'))); simdist ('calls', (('ok', "
                                                                  "'traced'), ('err', 'InvalidArgumentError'), "
                                                                  "('err', 'InvalidArgumentErro",
 ('raw:Conv2DBackpropFilter', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                 "simdist's kernel error when the graph runs: seed "
                                                                 "20202612013 #15 (sig): TF 2.21 ('calls', (('err', "
                                                                 "'ValueError'), ('err', 'ValueError'), ('err', "
                                                                 "'ValueError'))); simdist ('calls', (('ok', "
                                                                 "'traced'), ('err', 'InvalidArgumentError'), "
                                                                 "('err', 'InvalidArgumentErro",
 ('raw:Conv2DBackpropFilter', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                     "simdist's kernel error when the graph runs: "
                                                                     'seed 2020261201 #175 (function): TF 2.21 '
                                                                     "('calls', (('err', 'ValueError'), ('err', "
                                                                     "'ValueError'), ('err', 'ValueError'), ('ok', "
                                                                     "('p; simdist ('calls', (('err', "
                                                                     "'InvalidArgumentError'), ('err', "
                                                                     "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:Conv3D', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                       'error when the graph runs: seed 2020261201 #83 (function): '
                                                       "TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                       "'ValueError'), ('err', 'ValueError'), ('ok', ('p; simdist "
                                                       "('calls', (('err', 'InvalidArgumentError'), ('err', "
                                                       "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:Conv3DBackpropInputV2', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                      "simdist's kernel error when the graph runs: "
                                                                      'seed 2020261201 #74 (function): TF 2.21 '
                                                                      "('calls', (('err', 'ValueError'), ('err', "
                                                                      "'ValueError'), ('err', 'ValueError'), ('ok', "
                                                                      "('p; simdist ('calls', (('err', "
                                                                      "'InvalidArgumentError'), ('err', "
                                                                      "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:DepthToSpace', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                         'kernel error when the graph runs: seed 2020261202 #132 '
                                                         "(sig): TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                         "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                         "(('ok', 'traced'), ('err', 'InvalidArgumentError'), "
                                                         "('err', 'InvalidArgumentErro",
 ('raw:DepthwiseConv2dNativeBackpropInput', 'error-class', "'err', 'ValueError'"): 'seed 2020261202 #206 (function): '
                                                                                   "TF 2.21 ('calls', (('err', "
                                                                                   "'ValueError'), ('err', "
                                                                                   "'ValueError'), ('err', "
                                                                                   "'ValueError'), ('ok', ('p; "
                                                                                   "simdist ('calls', (('err', "
                                                                                   "'UnimplementedError'), ('err', "
                                                                                   "'UnimplementedError'), ('err', "
                                                                                   "'Unimplem",
 ('raw:Dilation2D', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                       'error when the graph runs: seed 20202612013 #9 (sig): TF '
                                                       "2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                       "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                       "(('ok', 'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                       "'InvalidArgumentErro",
 ('raw:DynamicPartition', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                             'kernel error when the graph runs: seed 2020261201 #18 '
                                                             "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                             "('err', 'ValueError'), ('err', 'ValueError'))); "
                                                             "simdist ('calls', (('ok', 'traced'), ('err', "
                                                             "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:DynamicPartition', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                 "simdist's kernel error when the graph runs: seed "
                                                                 "2020261202 #244 (function): TF 2.21 ('calls', "
                                                                 "(('err', 'ValueError'), ('err', 'ValueError'), "
                                                                 "('err', 'ValueError'), ('ok', ('p; simdist "
                                                                 "('calls', (('err', 'InvalidArgumentError'), "
                                                                 "('err', 'InvalidArgumentError'), ('err', 'Inva",
 ('raw:DynamicStitch', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                          'kernel error when the graph runs: seed 2020261202 #29 '
                                                          "(sig): TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                          "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                          "(('ok', 'traced'), ('err', 'InvalidArgumentError'), "
                                                          "('err', 'InvalidArgumentErro",
 ('raw:GatherNd', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                     'error when the graph runs: seed 2020261201 #30 (sig): TF 2.21 '
                                                     "('calls', (('err', 'ValueError'), ('err', 'ValueError'), "
                                                     "('err', 'ValueError'))); simdist ('calls', (('ok', 'traced'), "
                                                     "('err', 'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:ImageProjectiveTransformV3', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at "
                                                                           "trace), simdist's kernel error when the "
                                                                           'graph runs: seed 2020261202 #72 '
                                                                           "(function): TF 2.21 ('calls', (('err', "
                                                                           "'ValueError'), ('err', 'ValueError'), "
                                                                           "('err', 'ValueError'), ('ok', ('p; "
                                                                           "simdist ('calls', (('err', "
                                                                           "'InvalidArgumentError'), ('err', "
                                                                           "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:LearnedUnigramCandidateSampler', 'value', "'ok'"): "seed 2020261202 #202 (eager): TF 2.21 ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([0, 2])), ('T', 'flo; simdist ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([1, 0])), ('T', 'flo",
 ('raw:LogUniformCandidateSampler', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                       "simdist's kernel error when the graph runs: "
                                                                       'seed 2020261202 #299 (sig): TF 2.21 '
                                                                       "('calls', (('err', 'ValueError'), ('err', "
                                                                       "'ValueError'), ('err', 'ValueError'))); "
                                                                       "simdist ('calls', (('ok', 'traced'), ('err', "
                                                                       "'InvalidArgumentError'), ('err', "
                                                                       "'InvalidArgumentErro",
 ('raw:MatrixSquareRoot', 'value', "'ok'"): "seed 2020261201 #195 (function): TF 2.21 ('calls', (('ok', ('T', "
                                            "'complex64', (1, 4, 3, 3), array([[[[nan+nanj, nan+nanj, nan+nanj]; "
                                            "simdist ('calls', (('ok', ('T', 'complex64', (1, 4, 3, 3), "
                                            'array([[[[nan+0.j, nan+0.j, nan+0.j],',
 ('raw:MaxPool3DGradGrad', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                              'kernel error when the graph runs: seed 2020261202 '
                                                              "#280 (sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                              "('err', 'ValueError'), ('err', 'ValueError'))); "
                                                              "simdist ('calls', (('ok', 'traced'), ('err', "
                                                              "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:MaxPool3DGradGrad', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                  "simdist's kernel error when the graph runs: seed "
                                                                  "2020261201 #208 (function): TF 2.21 ('calls', "
                                                                  "(('err', 'ValueError'), ('err', 'ValueError'), "
                                                                  "('err', 'ValueError'), ('ok', ('p; simdist "
                                                                  "('calls', (('err', 'InvalidArgumentError'), "
                                                                  "('err', 'InvalidArgumentError'), ('err', 'Inva",
 ('raw:MaxPoolGradGrad', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                "simdist's kernel error when the graph runs: seed "
                                                                "2020261201 #100 (function): TF 2.21 ('calls', "
                                                                "(('err', 'ValueError'), ('err', 'ValueError'), "
                                                                "('err', 'ValueError'), ('ok', ('p; simdist "
                                                                "('calls', (('err', 'InvalidArgumentError'), ('err', "
                                                                "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:OneHot', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                       'error when the graph runs: seed 2020261201 #194 (function): '
                                                       "TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                       "'ValueError'), ('err', 'ValueError'), ('ok', ('p; simdist "
                                                       "('calls', (('err', 'InvalidArgumentError'), ('err', "
                                                       "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:Qr', 'gradient', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex128', "
                                 "(3, 3), array([[-0.70436073+0.j        ,  0.; simdist ('grad', ('ok', ('list', "
                                 "(('T', 'complex128', (3, 3), array([[-0.70436073+0.j        ,  0.",
 ('raw:Qr', 'value', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              "1, 1), array([[[nan+nanj]],; simdist ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              '1, 1), array([[[nan+0.j]],',
 ('raw:RandomGammaGrad', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                            'kernel error when the graph runs: seed 2020261202 #139 '
                                                            "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                            "('err', 'ValueError'), ('err', 'ValueError'))); simdist "
                                                            "('calls', (('ok', 'traced'), ('err', "
                                                            "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:RandomIndexShuffle', 'accepts', "'err', 'TypeError'"): "seed 2020261202 #138 (sig): TF 2.21 ('calls', "
                                                              "(('err', 'TypeError'), ('err', 'TypeError'), ('err', "
                                                              "'TypeError'))); simdist ('calls', (('ok', 'traced'), "
                                                              "('err', 'InvalidArgumentError'), ('err', "
                                                              "'InvalidArgumentErro",
 ('raw:ResizeBicubicGrad', 'rejects', "'err', 'InvalidArgumentError'"): 'seed 2020261201 #46 (sig): TF 2.21 '
                                                                        "('calls', (('ok', 'traced'), ('err', "
                                                                        "'InvalidArgumentError'), ('err', "
                                                                        "'InvalidArgumentErro; simdist ('calls', "
                                                                        "(('err', 'ValueError'), ('err', "
                                                                        "'ValueError'), ('err', 'ValueError')))",
 ('raw:ResizeBilinearGrad', 'error-class', "'err', 'InvalidArgumentError'"): 'seed 2020261201 #42 (function): TF '
                                                                             "2.21 ('calls', (('err', "
                                                                             "'InvalidArgumentError'), ('err', "
                                                                             "'InvalidArgumentError'), ('err', "
                                                                             "'Inva; simdist ('calls', (('err', "
                                                                             "'ValueError'), ('err', 'ValueError'), "
                                                                             "('err', 'ValueError'), ('ok', ('p",
 ('raw:ResizeNearestNeighborGrad', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                      "simdist's kernel error when the graph runs: "
                                                                      "seed 20202612013 #16 (sig): TF 2.21 ('calls', "
                                                                      "(('err', 'ValueError'), ('err', "
                                                                      "'ValueError'), ('err', 'ValueError'))); "
                                                                      "simdist ('calls', (('ok', 'traced'), ('err', "
                                                                      "'InvalidArgumentError'), ('err', "
                                                                      "'InvalidArgumentErro",
 ('raw:ReverseSequence', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                            'kernel error when the graph runs: seed 2020261202 #55 '
                                                            "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                            "('err', 'ValueError'), ('err', 'ValueError'))); simdist "
                                                            "('calls', (('ok', 'traced'), ('err', "
                                                            "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:ScatterNd', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                          'kernel error when the graph runs: seed 2020261201 #186 '
                                                          "(function): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                          "('err', 'ValueError'), ('err', 'ValueError'), ('ok', ('p; "
                                                          "simdist ('calls', (('err', 'InvalidArgumentError'), "
                                                          "('err', 'InvalidArgumentError'), ('err', 'Inva",
 ('raw:SegmentMean', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                        'error when the graph runs: seed 2020261202 #26 (sig): TF '
                                                        "2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                        "'ValueError'), ('err', 'ValueError'))); simdist ('calls', "
                                                        "(('ok', 'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                        "'InvalidArgumentErro",
 ('raw:SigmoidGrad', 'gradient', "'ok'"): "seed 2020261202 #174 (tape): TF 2.21 ('grad', ('ok', ('T', 'complex64', "
                                          "(3,), array([ 12.    -5.25j   , -19.5   +0.j     ,  -0.; simdist ('grad', "
                                          "('ok', ('T', 'complex64', (3,), array([ 12.    -5.25j   , -19.5   "
                                          '+0.j     ,  -0.',
 ('raw:Slice', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                      'error when the graph runs: seed 2020261201 #215 (function): '
                                                      "TF 2.21 ('calls', (('err', 'ValueError'), ('err', "
                                                      "'ValueError'), ('err', 'ValueError'), ('ok', ('p; simdist "
                                                      "('calls', (('err', 'InvalidArgumentError'), ('err', "
                                                      "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:SobolSample', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                            'kernel error when the graph runs: seed 2020261202 #260 '
                                                            "(function): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                            "('err', 'ValueError'), ('err', 'ValueError'), ('ok', "
                                                            "('p; simdist ('calls', (('err', "
                                                            "'InvalidArgumentError'), ('err', "
                                                            "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:SoftmaxCrossEntropyWithLogits', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at "
                                                                          "trace), simdist's kernel error when the "
                                                                          'graph runs: seed 2020261201 #201 (sig): '
                                                                          "TF 2.21 ('calls', (('err', 'ValueError'), "
                                                                          "('err', 'ValueError'), ('err', "
                                                                          "'ValueError'))); simdist ('calls', "
                                                                          "(('ok', 'traced'), ('err', "
                                                                          "'InvalidArgumentError'), ('err', "
                                                                          "'InvalidArgumentErro",
 ('raw:SpaceToBatchND', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                               'kernel error when the graph runs: seed 2020261202 '
                                                               "#42 (function): TF 2.21 ('calls', (('err', "
                                                               "'ValueError'), ('err', 'ValueError'), ('err', "
                                                               "'ValueError'), ('ok', ('p; simdist ('calls', "
                                                               "(('err', 'InvalidArgumentError'), ('err', "
                                                               "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:SparseFillEmptyRows', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                "simdist's kernel error when the graph runs: seed "
                                                                "20202612013 #13 (sig): TF 2.21 ('calls', (('err', "
                                                                "'ValueError'), ('err', 'ValueError'), ('err', "
                                                                "'ValueError'))); simdist ('calls', (('ok', "
                                                                "'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                                "'InvalidArgumentErro",
 ('raw:SparseSparseMinimum', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                    "simdist's kernel error when the graph runs: "
                                                                    'seed 2020261201 #198 (function): TF 2.21 '
                                                                    "('calls', (('err', 'ValueError'), ('err', "
                                                                    "'ValueError'), ('err', 'ValueError'), ('ok', "
                                                                    "('p; simdist ('calls', (('err', "
                                                                    "'InvalidArgumentError'), ('err', "
                                                                    "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:SparseToDense', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                              'kernel error when the graph runs: seed 2020261202 #7 '
                                                              "(function): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                              "('err', 'ValueError'), ('err', 'ValueError'), ('ok', "
                                                              "('p; simdist ('calls', (('err', "
                                                              "'InvalidArgumentError'), ('err', "
                                                              "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:Svd', 'value', "'ok'"): "seed 2020261201 #27 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (1, "
                               "1), array([[1.5+0.j]], dtype=complex64)),; simdist ('grad', ('ok', ('list', (('T', "
                               "'float32', (1, 1), array([[1.5]], dtype=float32)), ('T', '",
 ('raw:TensorScatterMax', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                             'kernel error when the graph runs: seed 20202612013 #0 '
                                                             "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                             "('err', 'ValueError'), ('err', 'ValueError'))); "
                                                             "simdist ('calls', (('ok', 'traced'), ('err', "
                                                             "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:TensorScatterUpdate', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                    "simdist's kernel error when the graph runs: "
                                                                    'seed 2020261201 #123 (function): TF 2.21 '
                                                                    "('calls', (('err', 'ValueError'), ('err', "
                                                                    "'ValueError'), ('err', 'ValueError'), ('ok', "
                                                                    "('p; simdist ('calls', (('err', "
                                                                    "'InvalidArgumentError'), ('err', "
                                                                    "'InvalidArgumentError'), ('err', 'Inva",
 ('raw:TridiagonalMatMul', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                              'kernel error when the graph runs: seed 2020261201 #54 '
                                                              "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                              "('err', 'ValueError'), ('err', 'ValueError'))); "
                                                              "simdist ('calls', (('ok', 'traced'), ('err', "
                                                              "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:TridiagonalSolve', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                 "simdist's kernel error when the graph runs: seed "
                                                                 "2020261201 #98 (function): TF 2.21 ('calls', "
                                                                 "(('err', 'ValueError'), ('err', 'ValueError'), "
                                                                 "('err', 'ValueError'), ('ok', ('p; simdist "
                                                                 "('calls', (('err', 'InvalidArgumentError'), "
                                                                 "('err', 'InvalidArgumentError'), ('err', 'Inva",
 ('raw:Unpack', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                   'error when the graph runs: seed 2020261201 #76 (sig): TF 2.21 '
                                                   "('calls', (('err', 'ValueError'), ('err', 'ValueError'), ('err', "
                                                   "'ValueError'))); simdist ('calls', (('ok', 'traced'), ('err', "
                                                   "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:UnsortedSegmentSum', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                               'kernel error when the graph runs: seed 2020261201 '
                                                               "#197 (sig): TF 2.21 ('calls', (('err', "
                                                               "'ValueError'), ('err', 'ValueError'), ('err', "
                                                               "'ValueError'))); simdist ('calls', (('ok', "
                                                               "'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                               "'InvalidArgumentErro"}

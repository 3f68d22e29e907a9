"""Classes the twentieth fuzzer's campaigns found and nobody has analysed one by one yet (generated
by fz20_seen_refresh.py from campaign logs; see fz20_known.py): (label, kind, TF's sign) -> where
and what each side did."""

SEEN: dict[tuple[str, str, str], str] = {('raw:ArgMax', 'accepts', "'err', 'InvalidArgumentError'"): "seed 2420261204 #40 (sig): TF 2.21 ('calls', (('ok', "
                                                             "'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                             "'InvalidArgumentErro; simdist ('calls', (('ok', "
                                                             "'traced'), ('ok', ('T', 'int64', (), array(0))), "
                                                             "('ok', ('T', 'int64', (",
 ('raw:BesselK0e', 'gradient', "'ok'"): "seed 2420261203 #35 (tape): TF 2.21 ('grad', ('ok', ('T', 'float32', (3,), "
                                        "array([          inf, 7.2360125e-20,           inf]; simdist ('grad', "
                                        "('ok', ('T', 'float32', (3,), array([          inf, "
                                        '7.2360125e-20,           inf]',
 ('raw:BesselK1e', 'gradient', "'ok'"): "seed 2420261203 #128 (tape): TF 2.21 ('grad', ('ok', ('T', 'float64', (2,), "
                                        "array([            inf, 1.25331414e-150]))), ('ok',; simdist ('grad', "
                                        "('ok', ('T', 'float64', (2,), array([            inf, 1.25331414e-150]))), "
                                        "('ok',",
 ('raw:Cholesky', 'value', "'ok'"): "seed 2020261202 #269 (function): TF 2.21 ('calls', (('ok', ('T', 'complex128', "
                                    "(3, 3), array([[0.+0.j, 0.+0.j, 0.+0.j],; simdist ('calls', (('ok', ('T', "
                                    "'complex128', (3, 3), array([[nan+0.j,  0.+0.j,  0.+0.j],",
 ('raw:Conv', 'accepts', "'err', 'ValueError'"): "seed 2420261204 #14 (sig): TF 2.21 ('calls', (('err', "
                                                 "'ValueError'), ('err', 'ValueError'), ('err', 'ValueError'))); "
                                                 "simdist ('calls', (('ok', 'traced'), ('err', "
                                                 "'UnimplementedError'), ('err', 'UnimplementedError'))",
 ('raw:Conv', 'error-class', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's kernel "
                                                     'error when the graph runs: seed 2520261205 #118 (function): TF '
                                                     "2.21 ('calls', (('err', 'ValueError'), ('err', 'ValueError'), "
                                                     "('err', 'ValueError'), ('ok', ('p; simdist ('calls', (('err', "
                                                     "'InvalidArgumentError'), ('err', 'InvalidArgumentError'), "
                                                     "('err', 'Inva",
 ('raw:Conv2D', 'rejects', "'err', 'InvalidArgumentError'"): "seed 2320261203 #59 (tape): TF 2.21 ('grad', ('ok', "
                                                             "('T', 'float16', (0, 3, 0, 2), array([], shape=(0, 3, "
                                                             "0, 2), dtype=float16; simdist ('err', "
                                                             "'InvalidArgumentError')",
 ('raw:DepthwiseConv2dNative', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), "
                                                                  "simdist's kernel error when the graph runs: seed "
                                                                  "2420261204 #183 (sig): TF 2.21 ('calls', (('err', "
                                                                  "'ValueError'), ('err', 'ValueError'), ('err', "
                                                                  "'ValueError'))); simdist ('calls', (('ok', "
                                                                  "'traced'), ('err', 'InvalidArgumentError'), "
                                                                  "('err', 'InvalidArgumentErro",
 ('raw:DynamicStitch', 'value', "'ok'"): "seed 2320261203 #90 (tape): TF 2.21 ('grad', ('ok', ('T', 'string', (4, 4, "
                                         "1, 1), array([[[[b'\\xc3\\xa9t\\xc3\\xa9']],; simdist ('grad', ('ok', "
                                         "('T', 'string', (4, 4, 1, 1), array([[[[b'\\xc3\\xa9t\\xc3\\xa9']],",
 ('raw:InTopKV2', 'rejects', "'err', 'InvalidArgumentError'"): "seed 2420261204 #36 (sig): TF 2.21 ('calls', (('ok', "
                                                               "'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                               "'InvalidArgumentErro; simdist ('calls', (('err', "
                                                               "'ValueError'), ('err', 'ValueError'), ('err', "
                                                               "'ValueError')))",
 ('raw:InTopKV2', 'trace-time', "'ok'"): "seed 2420261204 #36 (sig): TF 2.21 ('calls', (('ok', 'traced'), ('ok', "
                                         "('T', 'bool', (4,), array([ True, False,  True, False]; simdist ('calls', "
                                         "(('err', 'ValueError'), ('ok', ('T', 'bool', (4,), array([ True, False,  "
                                         'True, F',
 ('raw:LearnedUnigramCandidateSampler', 'value', "'ok'"): "seed 2020261202 #202 (eager): TF 2.21 ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([0, 2])), ('T', 'flo; simdist ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([1, 0])), ('T', 'flo",
 ('raw:LogUniformCandidateSampler', 'value', "'ok'"): "seed 2520261203 #37 (sig): TF 2.21 ('ok', "
                                                      "('LogUniformCandidateSampler', (('T', 'int64', (5,), "
                                                      "array([0, 3, 2, 4, 1])), ('T',; simdist ('ok', "
                                                      "('LogUniformCandidateSampler', (('T', 'int64', (5,), "
                                                      "array([0, 2, 1, 4, 3])), ('T',",
 ('raw:MatrixInverse', 'value', "'ok'"): "seed 2520261205 #13 (eager): TF 2.21 ('ok', ('T', 'complex128', (3, 3, 3), "
                                         "array([[[ 0.53515506-3.39409561e-01j, -0.2762473 -1.; simdist ('ok', ('T', "
                                         "'complex128', (3, 3, 3), array([[[ 0.53515506-3.39409561e-01j, -0.2762473 "
                                         '-1.',
 ('raw:MatrixSetDiagV3', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                            'kernel error when the graph runs: seed 2420261204 #68 '
                                                            "(sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                            "('err', 'ValueError'), ('err', 'ValueError'))); simdist "
                                                            "('calls', (('ok', 'traced'), ('err', "
                                                            "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:MatrixSolve', 'gradient', "'ok'"): "seed 2420261203 #34 (tape): TF 2.21 ('grad', ('ok', ('T', 'complex64', "
                                          "(2, 2), array([[nan+nanj, nan+nanj],; simdist ('grad', ('ok', ('T', "
                                          "'complex64', (2, 2), array([[nan+nanj, nan+nanj],",
 ('raw:MatrixSquareRoot', 'gradient', "'ok'"): "seed 2320261203 #62 (tape): TF 2.21 ('grad', ('ok', ('T', "
                                               "'complex64', (3, 3), array([[ 1.9034089 +1.786521j  ,  "
                                               "0.36356345-0.; simdist ('grad', ('ok', ('T', 'complex64', (3, 3), "
                                               'array([[ 1.9034084 +1.7865204j ,  0.36356288-0.',
 ('raw:MatrixSquareRoot', 'value', "'ok'"): "seed 2020261201 #195 (function): TF 2.21 ('calls', (('ok', ('T', "
                                            "'complex64', (1, 4, 3, 3), array([[[[nan+nanj, nan+nanj, nan+nanj]; "
                                            "simdist ('calls', (('ok', ('T', 'complex64', (1, 4, 3, 3), "
                                            'array([[[[nan+0.j, nan+0.j, nan+0.j],',
 ('raw:Pow', 'value', "'ok'"): "seed 2520261201 #36 (eager): TF 2.21 ('ok', ('T', 'bfloat16', (1, 4, 1), "
                               "array([[[0],; simdist ('ok', ('T', 'bfloat16', (1, 4, 1), array([[[0],",
 ('raw:Qr', 'gradient', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex128', "
                                 "(3, 3), array([[-0.70436073+0.j        ,  0.; simdist ('grad', ('ok', ('list', "
                                 "(('T', 'complex128', (3, 3), array([[-0.70436073+0.j        ,  0.",
 ('raw:Qr', 'value', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              "1, 1), array([[[nan+nanj]],; simdist ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              '1, 1), array([[[nan+0.j]],',
 ('raw:ScaleAndTranslate', 'accepts', "'err', 'ValueError'"): "TF's shape function (ValueError at trace), simdist's "
                                                              'kernel error when the graph runs: seed 2420261204 '
                                                              "#142 (sig): TF 2.21 ('calls', (('err', 'ValueError'), "
                                                              "('err', 'ValueError'), ('err', 'ValueError'))); "
                                                              "simdist ('calls', (('ok', 'traced'), ('err', "
                                                              "'InvalidArgumentError'), ('err', 'InvalidArgumentErro",
 ('raw:ScaleAndTranslateGrad', 'rejects', "'err', 'InvalidArgumentError'"): 'seed 2420261204 #28 (sig): TF 2.21 '
                                                                            "('calls', (('ok', 'traced'), ('err', "
                                                                            "'InvalidArgumentError'), ('err', "
                                                                            "'InvalidArgumentErro; simdist ('calls', "
                                                                            "(('err', 'ValueError'), ('err', "
                                                                            "'ValueError'), ('err', 'ValueError')))",
 ('raw:Svd', 'value', "'ok'"): "seed 2020261201 #27 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (1, "
                               "1), array([[1.5+0.j]], dtype=complex64)),; simdist ('grad', ('ok', ('list', (('T', "
                               "'float32', (1, 1), array([[1.5]], dtype=float32)), ('T', '",
 ('raw:TensorScatterUpdate', 'rejects', "'err', 'InvalidArgumentError'"): 'seed 2420261204 #64 (sig): TF 2.21 '
                                                                          "('calls', (('ok', 'traced'), ('err', "
                                                                          "'InvalidArgumentError'), ('err', "
                                                                          "'InvalidArgumentErro; simdist ('calls', "
                                                                          "(('err', 'ValueError'), ('err', "
                                                                          "'ValueError'), ('err', 'ValueError')))"}

"""Classes the twentieth fuzzer's campaigns found and nobody has analysed one by one yet (generated
by fz20_seen_refresh.py from campaign logs; see fz20_known.py): (label, kind, TF's sign) -> where
and what each side did."""

SEEN: dict[tuple[str, str, str], str] = {('raw:ArgMax', 'accepts', "'err', 'ValueError'"): "seed 2020261202 #218 (sig): TF 2.21 ('calls', (('err', "
                                                   "'ValueError'), ('err', 'ValueError'), ('err', 'ValueError'))); "
                                                   "simdist ('calls', (('ok', 'traced'), ('ok', ('T', 'int64', (4,), "
                                                   "array([2, 2, 0, 1]))), ('ok', ('T",
 ('raw:AsString', 'rejects', "'ok'"): "seed 2020261201 #85 (eager): TF 2.21 ('ok', ('T', 'string', (4,), array([b'', "
                                      "b'a', b'Hello', b' x y '], dtype=object))); simdist ('err', "
                                      "'InvalidArgumentError')",
 ('raw:AsString', 'value', "'ok'"): "seed 2020261201 #85 (eager): TF 2.21 ('ok', ('T', 'string', (2, 4, 2), "
                                    "array([[[b'5', b'5'],; simdist ('ok', ('T', 'string', (2, 4, 2), "
                                    "array([[[b'5.000000', b'5.000000'],",
 ('raw:BandedTriangularSolve', 'value', "'ok'"): "seed 20202612010 #35 (eager): TF 2.21 ('ok', ('T', 'complex64', "
                                                 "(1, 4, 1, 1), array([[[[ 2.+0.5j]],; simdist ('ok', ('T', "
                                                 "'complex64', (1, 4, 1, 1), array([[[[  2.+0.5j]],",
 ('raw:BatchMatMulV2', 'trace-time', "'ok'"): "seed 20202612013 #4 (sig): TF 2.21 ('calls', (('ok', 'traced'), "
                                              "('ok', ('T', 'complex128', (2, 4, 4, 4), array([[[[ 8.2500000; "
                                              "simdist ('calls', (('err', 'ValueError'), ('ok', ('T', 'complex128', "
                                              '(2, 4, 4, 4), array([[[[ 8.25',
 ('raw:Betainc', 'accepts', "'err', 'ValueError'"): "seed 2020261201 #184 (sig): TF 2.21 ('calls', (('err', "
                                                    "'ValueError'), ('err', 'ValueError'), ('err', 'ValueError'))); "
                                                    "simdist ('calls', (('ok', 'traced'), ('ok', ('T', 'float32', "
                                                    '(2, 1, 3), array([[[nan, nan, nan]],',
 ('raw:BiasAddGrad', 'accepts', "'err', 'InvalidArgumentError'"): "seed 2020261202 #236 (tape): TF 2.21 ('err', "
                                                                  "'InvalidArgumentError'); simdist ('grad', ('ok', "
                                                                  "('T', 'uint64', (4,), array([7, 2, 1, 3], "
                                                                  "dtype=uint64))), ('ok', (('first",
 ('raw:BroadcastArgs', 'rejects', "'ok'"): "seed 2020261202 #49 (eager): TF 2.21 ('ok', ('T', 'int32', (3,), "
                                           "array([-2,  1,  4], dtype=int32))); simdist ('err', "
                                           "'InvalidArgumentError')",
 ('raw:Cholesky', 'value', "'ok'"): "seed 2020261202 #269 (function): TF 2.21 ('calls', (('ok', ('T', 'complex128', "
                                    "(3, 3), array([[0.+0.j, 0.+0.j, 0.+0.j],; simdist ('calls', (('ok', ('T', "
                                    "'complex128', (3, 3), array([[nan+0.j,  0.+0.j,  0.+0.j],",
 ('raw:ClipByValue', 'value', "'ok'"): "seed 2020261202 #119 (function): TF 2.21 ('calls', (('ok', ('T', 'bfloat16', "
                                       "(2, 3), array([[-1.5, -0, 0.75],; simdist ('calls', (('ok', ('T', "
                                       "'bfloat16', (2, 3), array([[-1.5, 0, 0.75],",
 ('raw:ConcatV2', 'error-class', "'err', 'InvalidArgumentError'"): "seed 2020261201 #185 (eager): TF 2.21 ('err', "
                                                                   "'InvalidArgumentError'); simdist ('err', "
                                                                   "'ValueError')",
 ('raw:Conv2D', 'accepts', "'err', 'InvalidArgumentError'"): "seed 2020261202 #146 (tape): TF 2.21 ('err', "
                                                             "'InvalidArgumentError'); simdist ('grad', ('ok', ('T', "
                                                             "'float32', (1, 2, 0, 2), array([], shape=(1, 2, 0, 2), "
                                                             'dtype=float32',
 ('raw:Conv2DBackpropInput', 'error-class', "'err', 'TypeError'"): "seed 2020261202 #277 (tape): TF 2.21 ('err', "
                                                                   "'TypeError'); simdist ('err', "
                                                                   "'InvalidArgumentError')",
 ('raw:DepthwiseConv2dNative', 'error-class', "'err', 'InvalidArgumentError'"): 'seed 20202612010 #36 (eager): TF '
                                                                                "2.21 ('err', "
                                                                                "'InvalidArgumentError'); simdist "
                                                                                "('err', 'UnimplementedError')",
 ('raw:DepthwiseConv2dNativeBackpropInput', 'error-class', "'err', 'ValueError'"): 'seed 2020261202 #206 (function): '
                                                                                   "TF 2.21 ('calls', (('err', "
                                                                                   "'ValueError'), ('err', "
                                                                                   "'ValueError'), ('err', "
                                                                                   "'ValueError'), ('ok', ('p; "
                                                                                   "simdist ('calls', (('err', "
                                                                                   "'UnimplementedError'), ('err', "
                                                                                   "'UnimplementedError'), ('err', "
                                                                                   "'Unimplem",
 ('raw:Dilation2D', 'error-class', "'err', 'UnimplementedError'"): "seed 2020261202 #142 (tape): TF 2.21 ('err', "
                                                                   "'UnimplementedError'); simdist ('err', "
                                                                   "'InvalidArgumentError')",
 ('raw:HistogramFixedWidth', 'accepts', "'err', 'InvalidArgumentError'"): 'seed 2020261201 #90 (eager): TF 2.21 '
                                                                          "('err', 'InvalidArgumentError'); simdist "
                                                                          "('ok', ('T', 'int32', (2,), array([2, 0], "
                                                                          'dtype=int32)))',
 ('raw:LRN', 'accepts', "'err', 'InvalidArgumentError'"): "seed 20202612011 #18 (tape): TF 2.21 ('err', "
                                                          "'InvalidArgumentError'); simdist ('grad', ('ok', ('T', "
                                                          "'float32', (1, 1, 0, 2), array([], shape=(1, 1, 0, 2), "
                                                          'dtype=float32',
 ('raw:LearnedUnigramCandidateSampler', 'value', "'ok'"): "seed 2020261202 #202 (eager): TF 2.21 ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([0, 2])), ('T', 'flo; simdist ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([1, 0])), ('T', 'flo",
 ('raw:LowerBound', 'accepts', "'err', 'InvalidArgumentError'"): "seed 2020261202 #187 (eager): TF 2.21 ('err', "
                                                                 "'InvalidArgumentError'); simdist ('ok', ('T', "
                                                                 "'int32', (2, 1), array([[1],",
 ('raw:Lu', 'accepts', "'err', 'InvalidArgumentError'"): "seed 2020261202 #150 (tape): TF 2.21 ('err', "
                                                         "'InvalidArgumentError'); simdist ('grad', ('ok', ('list', "
                                                         "(('T', 'complex64', (4, 2), array([[ 4.        +7.j        "
                                                         ',  0. ',
 ('raw:Lu', 'rejects', "'ok'"): "seed 2020261202 #150 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex128', "
                                "(3, 4, 4), array([[[-3.00000000e+000-3.40000; simdist ('err', "
                                "'InvalidArgumentError')",
 ('raw:MatrixSquareRoot', 'value', "'ok'"): "seed 2020261201 #195 (function): TF 2.21 ('calls', (('ok', ('T', "
                                            "'complex64', (1, 4, 3, 3), array([[[[nan+nanj, nan+nanj, nan+nanj]; "
                                            "simdist ('calls', (('ok', ('T', 'complex64', (1, 4, 3, 3), "
                                            'array([[[[nan+0.j, nan+0.j, nan+0.j],',
 ('raw:MaxPoolGradWithArgmax', 'accepts', "'err', 'InvalidArgumentError'"): 'seed 2020261201 #24 (tape): TF 2.21 '
                                                                            "('err', 'InvalidArgumentError'); "
                                                                            "simdist ('grad', ('ok', ('T', "
                                                                            "'bfloat16', (3,), array([0, 0.0019989, "
                                                                            "1], dtype=bfloat16))), ('err'",
 ('raw:MirrorPadGrad', 'accepts', "'err', 'InvalidArgumentError'"): "seed 2020261202 #78 (tape): TF 2.21 ('err', "
                                                                    "'InvalidArgumentError'); simdist ('grad', "
                                                                    "('ok', ('T', 'float16', (0, 0, 1), array([], "
                                                                    'shape=(0, 0, 1), dtype=float16))), (',
 ('raw:Qr', 'gradient', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex128', "
                                 "(3, 3), array([[-0.70436073+0.j        ,  0.; simdist ('grad', ('ok', ('list', "
                                 "(('T', 'complex128', (3, 3), array([[-0.70436073+0.j        ,  0.",
 ('raw:Qr', 'value', "'ok'"): "seed 2020261201 #110 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              "1, 1), array([[[nan+nanj]],; simdist ('grad', ('ok', ('list', (('T', 'complex64', (2, "
                              '1, 1), array([[[nan+0.j]],',
 ('raw:RGBToHSV', 'error-class', "'err', 'FailedPreconditionError'"): "seed 2020261201 #41 (tape): TF 2.21 ('err', "
                                                                      "'FailedPreconditionError'); simdist ('err', "
                                                                      "'InvalidArgumentError')",
 ('raw:RandomGammaGrad', 'value', "'ok'"): "seed 2020261202 #139 (sig): TF 2.21 ('calls', (('ok', 'traced'), ('ok', "
                                           "('T', 'float32', (1,), array([0.], dtype=float32))), (; simdist "
                                           "('calls', (('ok', 'traced'), ('ok', ('T', 'float32', (1,), array([nan], "
                                           'dtype=float32))), ',
 ('raw:RandomIndexShuffle', 'accepts', "'err', 'TypeError'"): "seed 2020261202 #138 (sig): TF 2.21 ('calls', "
                                                              "(('err', 'TypeError'), ('err', 'TypeError'), ('err', "
                                                              "'TypeError'))); simdist ('calls', (('ok', 'traced'), "
                                                              "('err', 'InvalidArgumentError'), ('err', "
                                                              "'InvalidArgumentErro",
 ('raw:Reshape', 'accepts', "'err', 'ValueError'"): "seed 2020261201 #209 (function): TF 2.21 ('calls', (('err', "
                                                    "'ValueError'), ('err', 'ValueError'), ('err', 'ValueError'), "
                                                    "('ok', ('p; simdist ('calls', (('ok', ('T', 'int32', (3, 3, 2, "
                                                    '4), array([[[[ 7,  1,  5,  2],',
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
 ('raw:SigmoidGrad', 'gradient', "'ok'"): "seed 2020261202 #174 (tape): TF 2.21 ('grad', ('ok', ('T', 'complex64', "
                                          "(3,), array([ 12.    -5.25j   , -19.5   +0.j     ,  -0.; simdist ('grad', "
                                          "('ok', ('T', 'complex64', (3,), array([ 12.    -5.25j   , -19.5   "
                                          '+0.j     ,  -0.',
 ('raw:Slice', 'accepts', "'err', 'TypeError'"): "seed 2020261201 #215 (function): TF 2.21 ('calls', (('err', "
                                                 "'TypeError'), ('err', 'TypeError'), ('err', 'TypeError'), ('ok', "
                                                 "('py',; simdist ('calls', (('ok', ('T', 'int8', (), array(3, "
                                                 "dtype=int8))), ('ok', ('T', 'int8', (), array",
 ('raw:Slice', 'gradient', "'ok'"): "seed 2020261202 #228 (tape): TF 2.21 ('grad', ('ok', ('T', 'complex64', (), "
                                    "array(nan-infj, dtype=complex64))), ('ok', (('first; simdist ('grad', ('ok', "
                                    "('T', 'complex64', (), array(nan-infj, dtype=complex64))), ('err', 'Invali",
 ('raw:SoftmaxCrossEntropyWithLogits', 'rejects', "'ok'"): "seed 2020261201 #201 (sig): TF 2.21 ('calls', (('ok', "
                                                           "'traced'), ('ok', ('list', (('T', 'bfloat16', (4,), "
                                                           "array([12.125, 26.37; simdist ('calls', (('ok', "
                                                           "'traced'), ('err', 'InvalidArgumentError'), ('err', "
                                                           "'InvalidArgumentErro",
 ('raw:Svd', 'value', "'ok'"): "seed 2020261201 #27 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (1, "
                               "1), array([[1.5+0.j]], dtype=complex64)),; simdist ('grad', ('ok', ('list', (('T', "
                               "'float32', (1, 1), array([[1.5]], dtype=float32)), ('T', '",
 ('raw:Unpack', 'rejects', "'ok'"): "seed 2020261201 #76 (sig): TF 2.21 ('calls', (('ok', 'traced'), ('ok', ('list', "
                                    "())), ('ok', ('list', ())))); simdist ('calls', (('ok', 'traced'), ('err', "
                                    "'InvalidArgumentError'), ('err', 'InvalidArgumentErro"}

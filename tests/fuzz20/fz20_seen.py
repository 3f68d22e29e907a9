"""Classes the twentieth fuzzer's campaigns found and nobody has analysed one by one yet (generated
by fz20_seen_refresh.py from campaign logs; see fz20_known.py): (label, kind, TF's sign) -> where
and what each side did."""

SEEN: dict[tuple[str, str, str], str] = {('raw:Cholesky', 'value', "'ok'"): "seed 2020261202 #269 (function): TF 2.21 ('calls', (('ok', ('T', 'complex128', "
                                    "(3, 3), array([[0.+0.j, 0.+0.j, 0.+0.j],; simdist ('calls', (('ok', ('T', "
                                    "'complex128', (3, 3), array([[nan+0.j,  0.+0.j,  0.+0.j],",
 ('raw:Conv2D', 'rejects', "'err', 'InvalidArgumentError'"): "seed 2320261203 #59 (tape): TF 2.21 ('grad', ('ok', "
                                                             "('T', 'float16', (0, 3, 0, 2), array([], shape=(0, 3, "
                                                             "0, 2), dtype=float16; simdist ('err', "
                                                             "'InvalidArgumentError')",
 ('raw:DynamicStitch', 'value', "'ok'"): "seed 2320261203 #90 (tape): TF 2.21 ('grad', ('ok', ('T', 'string', (4, 4, "
                                         "1, 1), array([[[[b'\\xc3\\xa9t\\xc3\\xa9']],; simdist ('grad', ('ok', "
                                         "('T', 'string', (4, 4, 1, 1), array([[[[b'\\xc3\\xa9t\\xc3\\xa9']],",
 ('raw:LearnedUnigramCandidateSampler', 'value', "'ok'"): "seed 2020261202 #202 (eager): TF 2.21 ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([0, 2])), ('T', 'flo; simdist ('ok', "
                                                          "('LearnedUnigramCandidateSampler', (('T', 'int64', (2,), "
                                                          "array([1, 0])), ('T', 'flo",
 ('raw:MatrixInverse', 'value', "'ok'"): "seed 2220261202 #51 (sig): TF 2.21 ('calls', (('ok', 'traced'), ('ok', "
                                         "('T', 'float32', (2, 3, 3), array([[[ 4.9998516e-01,  ; simdist ('calls', "
                                         "(('ok', 'traced'), ('ok', ('T', 'float32', (2, 3, 3), array([[[ "
                                         '4.9998513e-01,  ',
 ('raw:MatrixSquareRoot', 'gradient', "'ok'"): "seed 2320261203 #62 (tape): TF 2.21 ('grad', ('ok', ('T', "
                                               "'complex64', (3, 3), array([[ 1.9034089 +1.786521j  ,  "
                                               "0.36356345-0.; simdist ('grad', ('ok', ('T', 'complex64', (3, 3), "
                                               'array([[ 1.9034084 +1.7865204j ,  0.36356288-0.',
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
 ('raw:Svd', 'value', "'ok'"): "seed 2020261201 #27 (tape): TF 2.21 ('grad', ('ok', ('list', (('T', 'complex64', (1, "
                               "1), array([[1.5+0.j]], dtype=complex64)),; simdist ('grad', ('ok', ('list', (('T', "
                               "'float32', (1, 1), array([[1.5]], dtype=float32)), ('T', '"}

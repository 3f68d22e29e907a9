"""Measure simdist's PNG codec against TF 2.21 on generated images (run from the checkout: python scripts/measure_png_codec21.py)."""
import sys; sys.path.insert(0, ".")
import io, numpy as np, tensorflow as tf
from simdist.runtime.ops import png_codec
rng=np.random.default_rng(0)
ok=n=0; dok=dn=0
for c in (1,2,3,4):
  for (h,w) in [(1,1),(7,5),(17,23),(33,65),(64,48),(100,300)]:
    for kind in ("rand","grad","flat"):
      for dt in (np.uint8,np.uint16):
        top=255 if dt==np.uint8 else 65535
        a=(rng.integers(0,top+1,(h,w,c)) if kind=="rand" else (np.indices((h,w,c)).sum(0)*5 if kind=="grad" else np.full((h,w,c),7))).astype(dt)
        for lvl in (-1,0,1,9):
          t=tf.io.encode_png(a,compression=lvl).numpy(); m=png_codec.encode(a,lvl)
          n+=1; ok+= t==m
          if t!=m and n-ok<4: print("enc diff",c,h,w,kind,dt.__name__,lvl,len(t),len(m))
        for ch in (0,1,3,4):
          for bits in (8,16):
            d=tf.io.decode_png(t,channels=ch,dtype=tf.uint8 if bits==8 else tf.uint16).numpy()
            m2=png_codec.decode(t,ch,bits)
            dn+=1; e=np.array_equal(d,m2) and d.dtype==m2.dtype; dok+=e
            if not e and dn-dok<6: print("dec diff",c,h,w,kind,dt.__name__,ch,bits,d.shape,m2.shape, np.abs(d.astype(int)-m2).max() if d.shape==m2.shape else "")
print("encode",ok,n,"decode",dok,dn)

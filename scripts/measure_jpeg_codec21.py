"""Measure simdist's JPEG codec against TF 2.21 on generated images (run from the checkout: python scripts/measure_jpeg_codec21.py)."""
import sys; sys.path.insert(0, ".")
import io, numpy as np, tensorflow as tf
from PIL import Image
from simdist.runtime.ops import jpeg_codec as J
rng=np.random.default_rng(0)
res={}
def imgs():
  for (h,w) in [(1,1),(2,3),(7,5),(8,8),(17,23),(31,1),(1,40),(33,65),(64,48),(100,101)]:
    for c in (1,3):
      yield "rand",rng.integers(0,256,(h,w,c),dtype=np.uint8)
      yield "grad",(np.indices((h,w,c)).sum(0)*9%256).astype(np.uint8)
for kind,a in imgs():
  c=a.shape[2]
  for q,prog,sub in ((95,False,True),(60,True,True),(90,False,False)):
    jb=tf.io.encode_jpeg(a,quality=q,progressive=prog,chroma_downsampling=sub).numpy()
    m=J.encode(a,q,prog,False,sub,1,300,300,b"")
    k=("enc",c); r=res.setdefault(k,[0,0]); r[1]+=1; r[0]+=jb==m
    # pillow 4:2:2 encode too
    b=io.BytesIO(); Image.fromarray(a[...,0] if c==1 else a).save(b,format="JPEG",quality=q,subsampling=1); pb=b.getvalue()
    for src,data in (("tf",jb),("pil422",pb)):
      for ch in (0,1,3):
        for ratio in (1,2,4,8):
          for fancy in (True,False):
            for dct in ("","INTEGER_ACCURATE"):
              try: t=tf.io.decode_jpeg(data,channels=ch,ratio=ratio,fancy_upscaling=fancy,dct_method=dct).numpy()
              except Exception as e: t=type(e).__name__
              try: s=J.decode(data,ch,ratio,fancy,dct)
              except J.Unsupported as e: s="unsup"
              except Exception as e: s="ERR "+repr(e)
              k=(src,c,ch,ratio,fancy,dct or "FAST"); r=res.setdefault(k,[0,0,0]); r[1]+=1
              if isinstance(s,str): 
                  r[2]+= s=="unsup"
                  if s!="unsup": print(k, s)
              else:
                  e=isinstance(t,np.ndarray) and t.shape==s.shape and np.array_equal(t,s); r[0]+=e
                  if not e and r[1]-r[0]-r[2]==1: print("diff",k,a.shape,getattr(t,"shape",t),s.shape, np.abs(t.astype(int)-s).max() if isinstance(t,np.ndarray) and t.shape==s.shape else "")
bad={k:v for k,v in res.items() if v[0]!=v[1]}
enc=[v for k,v in res.items() if k[0]=="enc"]; dec=[v for k,v in res.items() if k[0]!="enc"]
print("encode_jpeg bytes equal", sum(v[0] for v in enc), "of", sum(v[1] for v in enc))
print("decode_jpeg pixels equal", sum(v[0] for v in dec), "of", sum(v[1]-v[2] for v in dec), "computed;",
      sum(v[2] for v in dec), "NotImplementedError (ISLOW without fancy upsampling of a subsampled JPEG)")
for k,v in bad.items(): print(k,v)

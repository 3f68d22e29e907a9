"""tf.io.decode_webp / decode_jxl (and tf.image's), and decode_image / decode_png / decode_jpeg of WebP content
(clause io.image-codecs; fz55b's missing functions), observed on TF 2.21.

WebP files: Pillow-encoded once (RandomState(0) pixels; lossless and lossy RGB, RGBA, a greyscale image WebP stores
as RGB, a three-frame lossless animation, a lossy gradient) and kept below as base64, so both processes decode the
same bytes. TF's DecodeImageV2Op reads every format in every decode op: a WebP is [frames, H, W, C] (decode_image
with expand_animations=False the first frame), channels 0, 3 or 4 only and uint8 only, a header libwebp refuses
"Failed to decode WebP header.", a requested channel count that the alpha flag contradicts "Number of channels
requested does not match input", a truncated stream "Failed to decode WebP image.". JPEG XL: a stream whose header
cannot be read is "Failed to decode JXL header" (simdist decodes no JPEG XL pixels: none are in these cases).
Each case: a list of [label, outcome] (dtype, shape and the pixels' bytes, or the error class and message).
"""

from __future__ import annotations

import base64
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

WEBP = {
    "rgb_lossless": "UklGRoAAAABXRUJQVlA4THQAAAAvBIAAAHegJrLVqGMobwfU2EAkXlLFTfpTiZpItppPRgICcoklrGGHDh05lMwojWSrmfkuN/EVsRY03dFilsx/eJ2zoSBm/Q5UcKzD8P34QBn2AzWTzmDqZsiK0gJVkW1QM/frgQRyqCakHEJF9D8a/NVNAQ==",
    "rgb_lossy": "UklGRmgAAABXRUJQVlA4IFwAAADQAQCdASoFAAMAAUAmJagCdAD0h/vOAADOD79/VP/vD0gzHD4P/5uR/+r3+9Vp8HfvvOpqnnQHgQnRzdgqPcs76/0/8nf5O4/4bzXQBAFtLPmrm5b+rn+bJYAAAA==",
    "rgba_lossless": "UklGRsgAAABXRUJQVlA4TLsAAAAvBcAAEL/ANLatRqByqoKhACy0jwSFZHdtzrESpgEANGFcsCN9czUP0EizQXM8YLLZTWxj20oEkWU04CmN0DK5U8V65JbtDJPa2iJpVgUJUKDwhFgbkIEmSPqsIZglAmfkiDhfZrPiuiq40SStHMvfb1rl032wfIXdTWid1J/7HuKfrrRSS/bFpWPLMtkzdBympvv9CyqK5nt4XOAoHmQKFkBh20Zq6vieGSL6H3FIy3eBOtvZE0Pt6ZVPAA==",
    "rgba_lossy": "UklGRoQAAABXRUJQVlA4WAoAAAAQAAAABQAAAwAAQUxQSBkAAAAAjgkfo7eAJk+6QSOujnlEf2SPF1WpxbJdAFZQOCBEAAAA8AEAnQEqBgAEAALATCUATocQACUcFQIAAM135znbFlkcep6fM8dK0wd8d4fG8q8cLYKc8JVNEuSzzV7eUtrj+DJAAAA=",
    "gray": "UklGRlIAAABXRUJQVlA4TEYAAAAvAkAAAC+gqI0UOOlgzx8SUIAGFLWRAicd7PlDAgrQgKI2UuCkgz1/SEABGpj/2N13B4C2/t/MgEK2EeDQvQSncBH9j+EF",
    "anim": "UklGRh4CAABXRUJQVlA4WAoAAAASAAAAAwAAAwAAQU5JTQYAAAAAAAAAAABBTk1GnAAAAAAAAAAAAAMAAAMAAGQAAAJWUDhMhAAAAC8DwAAQf6AoktQIcTcYQALFDwE4iY9YiIzIUhrZThSViY46FUMBdwvpE09JVIJSFElSc8FJVoADzKADTemFE9DBU20kqW0Wb2OGmFCZAgBghRiLeEfFS0zM1zIfFGZHMlU7+e945/wfv9/bZfRtmtoWRAIQM2zwxyPzdNkOSyL6H8vpQkFOTUakAAAAAAAAAAAAAwAAAwAAZAAAAlZQOEyMAAAALwPAABB/oCYAkObipQs3/8ZRzwZ2sJMWMIii2laiFWXoMPWgBGuoQgKnEHawgTszeI6i2rap90UGdSwJzIw0EEMEEf7xTK2ltpGkNvreAZHN6YRAKrJf9eXZBaLHdfMe/i8gf/YHGHK2d1lTUd3J/9+z/KDdqNlAEAlAfPDLChus8cgS0ZyI/kdvLSBBTk1GogAAAAAAAAAAAAMAAAMAAGQAAAJWUDhMigAAAC8DwAAQf2Cmto1OIuiglslm/KsENikUcIRwBFETAEjDKEEOqhCGGBTg9DaDBfyMYIqtNLKdyKaqVJHCUsPF7RgsVVABOCwSo7SNJDd5+WCmB599WB1X0YJz+f6TsPeSo8AvR/l7i+3bRpV50unPBG4VpIHj1BFkGhCbGJIqooo0PhWEieh/rA9kAg==",
    "gradient_lossy": "UklGRjgAAABXRUJQVlA4ICwAAACQAQCdASoIAAgABABoJZwAAuaBIYAA/sB/PFSMC2+7fMf4amVVmvVLcAAAAA==",
}


def _png(tf: Any) -> bytes:
    rgb = np.random.RandomState(0).randint(0, 256, (3, 5, 3)).astype(np.uint8)
    return tf.io.encode_png(tf.constant(rgb)).numpy()


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        a = np.asarray(r.numpy())
        out.append([label, [r.dtype.name, list(a.shape), a.tobytes().hex()]])
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        msg = str(e).split(" [Op:")[0].split("}} ")[-1].split("\n")[0]
        out.append([label, [type(e).__name__, msg]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    datas = {k: base64.b64decode(v) for k, v in WEBP.items()}
    datas.update({"truncated": datas["rgb_lossless"][:30], "empty": b"", "bad riff": b"RIFF\x00\x00\x00\x00WEBPVP8 ",
                  "png": _png(tf)})
    if case["name"] == "webp_ops":
        for k, d in datas.items():
            for ch in (0, 1, 3, 4):
                _try(out, f"{k} io.decode_webp channels {ch}", lambda d=d, ch=ch: tf.io.decode_webp(d, channels=ch))
            _try(out, f"{k} image.decode_webp", lambda d=d: tf.image.decode_webp(d))
            _try(out, f"{k} io.decode_jxl", lambda d=d: tf.io.decode_jxl(d))
            _try(out, f"{k} decode_png", lambda d=d: tf.io.decode_png(d))
            _try(out, f"{k} decode_jpeg", lambda d=d: tf.io.decode_jpeg(d))
        _try(out, "decode_webp of a vector", lambda: tf.io.decode_webp([datas["rgb_lossless"]]))
        _try(out, "decode_webp traced", lambda: tf.function(lambda c: tf.io.decode_webp(c))(
            tf.constant(datas["anim"])))
    elif case["name"] == "webp_decode_image":
        for k, d in datas.items():
            for ch in (None, 1, 3, 4):
                for dt in ("uint8", "uint16", "float32"):
                    _try(out, f"{k} decode_image channels {ch} {dt}",
                         lambda d=d, ch=ch, dt=dt: tf.io.decode_image(d, channels=ch, dtype=dt))
            _try(out, f"{k} decode_image expand_animations=False",
                 lambda d=d: tf.io.decode_image(d, expand_animations=False))
    elif case["name"] == "jxl":
        for label, d in [("signature only", b"\xff\x0a"), ("container only", b"\x00\x00\x00\x0cJXL \r\n\x87\n"),
                         ("empty", b""), ("junk", b"hello")]:
            for ch in (0, 2, 3):
                _try(out, f"{label} decode_jxl channels {ch}", lambda d=d, ch=ch: tf.io.decode_jxl(d, channels=ch))
            _try(out, f"{label} image.decode_jxl", lambda d=d: tf.image.decode_jxl(d))
        _try(out, "decode_jxl of a vector", lambda: tf.io.decode_jxl([b"\xff\x0a"]))
        _try(out, "decode_webp dtype float32", lambda: tf.io.decode_webp(b"x", dtype=tf.float32))
        _try(out, "decode_jxl dtype uint16", lambda: tf.io.decode_jxl(b"x", dtype=tf.uint16))
    return out


NAMES = ["webp_ops", "webp_decode_image", "jxl"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("io.image-codecs")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_webp_and_jxl_decoding(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]!r:.200}, TF 2.21 gives {w[1]!r:.200}" for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} of {len(want)} differ:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))

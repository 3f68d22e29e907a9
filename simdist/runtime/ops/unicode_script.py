"""tf.strings.unicode_script (TF's UnicodeScript kernel, unicode_script_op.cc): each int32 code
point's ICU script code (`uscript_getScript`, a UScriptCode), -1 (USCRIPT_INVALID_CODE) for a
value outside 0..0x10FFFF; int32, the input's shape.

TF 2.21 links ICU 69.1 (third_party/icu/workspace.bzl: icu-release-69-1), whose script data is
Unicode 13.0's. simdist reads the Unicode Script property from fontTools.unicodedata (its copy of
Unicode's Scripts.txt) and pins it to Unicode 13.0: a code point assigned after 13.0 (its age in
DerivedAge.txt, the unicode-age package) is Unknown (Zzzz, 103), as ICU 69 has it unassigned;
the two code points whose script Unicode changed after 13.0 keep 13.0's (`_SINCE_13`). A script
name maps to its number by ICU's UScriptCode enumeration (`ICU_SCRIPT_CODES`). The table is
checked against TF 2.21 over every code point (tests/ops/test_fz17_edges_tf.py).

Python values convert to int32 (2.5 is TypeError, a NumPy array of another dtype is cast); a
tensor of another dtype is the kernel's InvalidArgumentError eagerly, op_def_library's TypeError
while a tf.function traces. A RaggedTensor maps its flat values (register_unary_elementwise_api).
TF registers no gradient. Clause ops.strings-unicode-script.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch, trace_errors
from simdist.runtime.ops.args import dtype_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import register
from simdist.runtime.ops.string_args import STRING_COST
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["unicode_script", "ICU_SCRIPT_CODES"]

# ICU's UScriptCode enumeration up to ICU 69's USCRIPT_CODE_LIMIT (193): the ISO 15924 code of each
# value, in order (icu4c/source/common/unicode/uscript.h; read in the copy nodejs/node vendors,
# deps/icu-small/source/common/unicode/uscript.h at commit 13611c8e5df6537f5eba87ac1962e4ff6aa21c8c;
# values 0..192 are unchanged since ICU 66). Inherited is Zinh (uscript.h's comment: Qaai), Makasar
# Maka (ISO 15924; PropertyValueAliases.txt).
ICU_SCRIPT_CODES: tuple[str, ...] = (
    "Zyyy", "Zinh", "Arab", "Armn", "Beng", "Bopo", "Cher", "Copt", "Cyrl", "Dsrt",          # 0
    "Deva", "Ethi", "Geor", "Goth", "Grek", "Gujr", "Guru", "Hani", "Hang", "Hebr",          # 10
    "Hira", "Knda", "Kana", "Khmr", "Laoo", "Latn", "Mlym", "Mong", "Mymr", "Ogam",          # 20
    "Ital", "Orya", "Runr", "Sinh", "Syrc", "Taml", "Telu", "Thaa", "Thai", "Tibt",          # 30
    "Cans", "Yiii", "Tglg", "Hano", "Buhd", "Tagb", "Brai", "Cprt", "Limb", "Linb",          # 40
    "Osma", "Shaw", "Tale", "Ugar", "Hrkt", "Bugi", "Glag", "Khar", "Sylo", "Talu",          # 50
    "Tfng", "Xpeo", "Bali", "Batk", "Blis", "Brah", "Cham", "Cirt", "Cyrs", "Egyd",          # 60
    "Egyh", "Egyp", "Geok", "Hans", "Hant", "Hmng", "Hung", "Inds", "Java", "Kali",          # 70
    "Latf", "Latg", "Lepc", "Lina", "Mand", "Maya", "Mero", "Nkoo", "Orkh", "Perm",          # 80
    "Phag", "Phnx", "Plrd", "Roro", "Sara", "Syre", "Syrj", "Syrn", "Teng", "Vaii",          # 90
    "Visp", "Xsux", "Zxxx", "Zzzz", "Cari", "Jpan", "Lana", "Lyci", "Lydi", "Olck",          # 100
    "Rjng", "Saur", "Sgnw", "Sund", "Moon", "Mtei", "Armi", "Avst", "Cakm", "Kore",          # 110
    "Kthi", "Mani", "Phli", "Phlp", "Phlv", "Prti", "Samr", "Tavt", "Zmth", "Zsym",          # 120
    "Bamu", "Lisu", "Nkgb", "Sarb", "Bass", "Dupl", "Elba", "Gran", "Kpel", "Loma",          # 130
    "Mend", "Merc", "Narb", "Nbat", "Palm", "Sind", "Wara", "Afak", "Jurc", "Mroo",          # 140
    "Nshu", "Shrd", "Sora", "Takr", "Tang", "Wole", "Hluw", "Khoj", "Tirh", "Aghb",          # 150
    "Mahj", "Ahom", "Hatr", "Modi", "Mult", "Pauc", "Sidd", "Adlm", "Bhks", "Marc",          # 160
    "Newa", "Osge", "Hanb", "Jamo", "Zsye", "Gonm", "Soyo", "Zanb", "Dogr", "Gong",          # 170
    "Maka", "Medf", "Rohg", "Sogd", "Sogo", "Elym", "Hmnp", "Nand", "Wcho", "Chrs",          # 180
    "Diak", "Kits", "Yezi",                                                                  # 190
)
_UNKNOWN = ICU_SCRIPT_CODES.index("Zzzz")
_UNICODE = (13, 0)   # ICU 69.1's Unicode version
# Script values Unicode changed after 13.0 for code points 13.0 had assigned (Scripts-13.0.0.txt
# against the newer Scripts.txt fontTools ships): 13.0's value.
_SINCE_13 = {0x16FE2: "Zyyy", 0x16FE3: "Zyyy"}   # OLD CHINESE HOOK MARK, ITERATION MARK: Han later
_TABLE: list[np.ndarray] = []


def script_table() -> np.ndarray:
    """The UScriptCode of every code point 0..0x10FFFF (int32), built once."""
    if _TABLE:
        return _TABLE[0]
    import unicode_age.unicode_age_db as ages
    from fontTools.unicodedata import Scripts
    codes = {name: i for i, name in enumerate(ICU_SCRIPT_CODES)}
    starts = np.asarray(Scripts.RANGES + [0x110000], dtype=np.int64)
    values = np.asarray([codes.get(v, _UNKNOWN) for v in Scripts.VALUES], dtype=np.int32)
    table = np.repeat(values, np.diff(starts))
    assigned = np.zeros(0x110000, dtype=bool)
    for lo, hi, major, minor in ages.iter_spans():   # (DerivedAge.txt: a code point's first version)
        if (major, minor) <= _UNICODE:
            assigned[lo:hi + 1] = True
    table[~assigned] = _UNKNOWN
    for cp, name in _SINCE_13.items():
        table[cp] = codes[name]
    _TABLE.append(table)
    return table


def _scripts(x: np.ndarray) -> np.ndarray:
    cps = x.astype(np.int64)
    valid = (cps >= 0) & (cps <= 0x10FFFF)
    out = np.full(x.shape, -1, dtype=np.int32)
    out[valid] = script_table()[cps[valid]]
    return out


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0] != dtypes.int32:
        raise trace_errors.static(dtype_error("UnicodeScript", 0, dtypes.int32, dts[0]), TypeError,
                                  f"Input 'input' of 'UnicodeScript' Op has type {dts[0].name} that does not "
                                  "match expected type of int32.")
    return dtypes.int32


UNICODE_SCRIPT = register("UnicodeScript", _scripts, _rule, kind="elementwise", **STRING_COST)
no_tf_gradient("UnicodeScript")


def unicode_script(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """`tf.strings.unicode_script`: each int32 code point's ICU script code (-1 outside 0..0x10FFFF)."""
    from simdist.runtime.ragged_tensor import RaggedTensor
    if isinstance(input, RaggedTensor):   # (register_unary_elementwise_api: the flat values)
        return input.with_flat_values(unicode_script(input.flat_values))
    # (the fixed int32 input as TF's call converts it: a tensor or a variable reaches the kernel's
    # input check on the fast path; a distributed variable converts with int32, its ValueError;
    # fz14 seed 1420262201 #64)
    from simdist.runtime.ops import attr_rules
    x, = attr_rules.fixed_inputs("UnicodeScript", [(input, dtypes.int32, "input")],
                                 attr_rules.fast_path_takes("UnicodeScript", (input,)))
    return dispatch.execute(UNICODE_SCRIPT, (x,))

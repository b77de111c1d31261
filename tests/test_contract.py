"""The host contract (register maps, bit fields, stream records, error codes, keys) is declared once, in the generator
(hw/src/zkspinal/contract, the cores' *Regs / *Errors / *Record objects), and every other form of it is generated:
the committed C header, Python module, Rust module and Markdown tables equal what `./run.sh emit` wrote under
build/rtl/contract; no source file keeps its own copy of a register offset, a code, a field or a record position
(named like the contract or as a bare number); and a change of a position or width in the contract fails the known
answers of every language (sw/lib/zk_contract_kat.h, sw/lib/zk_contract_kat.rs, `known_answers` here)."""
from __future__ import annotations

import re
import shutil
import subprocess
import types
from pathlib import Path

import pytest

from conftest import ROOT
import reference_model.contract as C
from zkspinal.refs import cargo

GENERATED = {"sw/lib/zk_contract.h", "reference_model/contract.py", "sw/lib/zk_contract.rs",
             "vivado/lib/zk_contract.tcl", "hw/REGISTERS.md"}
EMITTED = ROOT / "build" / "rtl" / "contract"


@pytest.mark.parametrize("path", sorted(GENERATED))
def test_generated_files_current(path):
    emitted = EMITTED / path
    assert emitted.exists(), f"{emitted} missing: ./run.sh emit writes it"
    assert (ROOT / path).read_text() == emitted.read_text(), (
        f"{path} differs from the generator's declarations: ./run.sh contract rewrites it")


def contract_items() -> list[tuple[str, str, int]]:
    """(block, name, value) of every register offset and code of the Python module"""
    items = []
    for block in (k[:-5] for k in dir(C) if k.endswith("_REGS")):
        items += [(block, name, off) for name, (off, _, _) in getattr(C, f"{block}_REGS").items()]
    for block in (k[:-6] for k in dir(C) if k.endswith("_CODES")):
        items += [(block, name, value) for name, (value, _) in getattr(C, f"{block}_CODES").items()]
    return items


def test_contract_module_shape():
    items = contract_items()
    assert len(items) > 80
    assert C.POSEIDON_ERR_RANGE == 0x1C and C.POSEIDON_ERROR_RANGE == 1 and C.MSM_ERROR_CODES["timeout"][0] == 1 << 6
    assert C.SYSTEM_MAGIC == 0x7A6B5359 and C.SYSTEM_KIND == 0x1000 - 12 and C.USER_BAR_SYSTEM == 0x10000
    # no two registers of a map share an offset
    for block in (k[:-5] for k in dir(C) if k.endswith("_REGS")):
        offs = [off for off, _, _ in getattr(C, f"{block}_REGS").values()]
        assert len(offs) == len(set(offs)), block


def sources():
    """the hand-written sources that talk to the hardware: host tools, emulator, harnesses, testbenches, tools"""
    for pattern in ("sw/**/*.c", "sw/**/*.h", "sw/**/*.cpp", "sw/**/*.rs", "sw/**/*.py", "tests/**/*.py",
                    "zkspinal/**/*.py", "reference_model/**/*.py", "vivado/**/*.tcl", "vivado/**/*.py"):
        for f in ROOT.glob(pattern):
            rel = f.relative_to(ROOT).as_posix()
            if rel not in GENERATED and "/build/" not in f"/{rel}" and "/target/" not in rel and f.name != "test_contract.py":
                yield rel, f.read_text(errors="replace")


def test_no_copy_of_the_contract():
    """A register or code written as a constant of its own name with its value (`ERR_RANGE = 0x1C`,
    `R_FRAMING = 0x44`, `{"frames_in", 0x10, ...}`, `#define FL_ARM 0x104u`) is a copy: it must come from the
    generated module instead."""
    copies = []
    for rel, text in sources():
        for block, name, value in contract_items():
            if value < 4:  # 0, 1, 2: too common to tell a copy from any small number
                continue
            n = re.escape(name)
            num = rf"(?:0x0*{value:x}|{value})u?l?\b"
            assign = rf"\b(?:[A-Z]+_)?{n}\s*=\s*{num}"                 # NAME = 0x1C (Python, C enum)
            define = rf"#define\s+\w*{n}\s+\(?{num}"                   # #define FL_ARM 0x104u
            table = rf"\{{\s*\"{n}\"\s*,\s*{num}"                        # {"frames_in", 0x10, ...}
            const = rf"const\s+\w*{n}\s*:\s*u32\s*=\s*{num}"            # Rust
            tcl = rf"variable\s+\w*{n}\s+{num}"                          # Tcl
            for pat in (assign, define, table, const, tcl):
                for m in re.finditer(pat, text, re.IGNORECASE):
                    line = text.count("\n", 0, m.start()) + 1
                    copies.append(f"{rel}:{line}: {m.group(0)!r} copies {block}.{name}")
    assert not copies, "hand-written copies of the contract:\n" + "\n".join(copies)


# ---- numeric copies: contract values written as bare numbers --------------------------------------------------
# Files whose purpose is to restate the contract as numbers: the known answers (a mutated contract must fail there).
KNOWN_ANSWER_FILES = {"sw/lib/zk_contract_kat.h", "sw/lib/zk_contract_kat.rs"}
# A legitimate bare number: (file, the exact text of its line, stripped) -> why.  Keep it short: a number that
# comes from the contract is read from the generated module instead.
ALLOWED = {
    ("reference_model/poseidon/cli.py", "edges += [p, p + 1, 2**255, 2**256 - 1]"):
        "edge values of the 256-bit range check, not a bit position",
    ("tests/test_model_poseidon.py", "rows = [[P, 5], [P + 5, 2**256 - 1], [2**255, 0]]"):
        "edge values of the 256-bit range check, not a bit position",
    ("sw/emu/zkflash_model.c", "case 0x50: f->fsr = 0; return;"): "the flash's CLFSR command byte",
    ("sw/emu/zkflash_model.h", "*   0x50 CLFSR  clear the error flags      0x06 WREN / 0x04 WRDI      0x01 WRSR (one "
                               "byte; WEL needed; refused"): "the flash's CLFSR command byte",
    ("sw/tools/zk_flash_spi.c", "cmd1(f, 0x50); /* clear the flags for the next command */"):
        "the flash's CLFSR command byte",
    ("sw/lib/zkfmt.c", "one = _mm256_set1_epi8(1), pair = _mm256_set1_epi16(0x0110);"): "a SIMD multiplier pair",
    ("zkspinal/tb/flash_tb.py", "assert await tb.read(0xFF8, 0x10) == bytes(expect[0xFF8:0x1008])"):
        "a flash address across a 4 KiB boundary",
}


def record_widths(name: str, r) -> set[int]:
    """the field widths n a record serves in this project: for the MSM records every curve's, for the others their
    widest (max_n)"""
    from reference_model.curves import ADDERS
    return {a.field.n for a in ADDERS.values()} if name.startswith("MSM_RECORD") else {r.max_n}


def record_positions() -> tuple[set[int], set[int]]:
    """The bit positions and sizes of every record at each field width it serves (record_widths): (numbers searched
    anywhere, numbers searched as bit positions only: those below 256).  A field width n itself is configuration
    (a curve's, a hash's), not the contract's, and is not searched unless a position is that number for every n
    (the Poseidon flag at 255)."""
    records = {k: v for k, v in vars(C).items() if isinstance(v, C.Record)}
    ns = {k: record_widths(k, r) for k, r in records.items()}
    values, widths = set(), set().union(*ns.values())
    for name, f in vars(C).items():
        if isinstance(f, C.RecordField):
            r = max((k for k in records if name.startswith(k + "_")), key=len)
            values |= {x for n in ns[r] for x in (f.at(n).lsb, f.at(n).end)}
    for k, r in records.items():
        values |= {x for n in ns[k] for x in (r.bits(n), r.bytes(n))}
    for n in ns["MSM_RECORD_BUCKET"]:
        tag = C.MSM_RECORD_BUCKET_TAG.at(n)
        values |= {tag.lsb + f.lsb for f in (C.MSM_RECORD_TAG_WINDOW, C.MSM_RECORD_TAG_BUCKET)}
    values = {v for v in values if v >= 100 and v & (v - 1)}  # powers of two: too common to tell
    fixed = {x for f in vars(C).values() if isinstance(f, C.RecordField) and not (f.lsb_k or f.width_k)
             for x in (f.lsb_c, f.lsb_c + f.width_c)}                  # positions that do not depend on n
    values -= widths - fixed
    bit_only = {v for v in values if v < 256}
    return values - bit_only, bit_only


def numeric_copies(rel: str, text: str) -> list[str]:
    """Bare numbers of the contract in one source: a record position or size (1131, 1 << 255), a register offset
    from 0x40 up in hex (0x13C), a register field's shift and mask ((v >> 16) & 0xFFFF); byte-wide fields at byte
    boundaries and powers of two are left out, as too common to tell."""
    anywhere, bit_only = record_positions()
    pats = [rf"(?<![\w.-]){v}(?![\w-]|\.\d)" for v in sorted(anywhere)]
    pats += [rf"(?:<<|>>|\*\*|\bbits?)\s*{v}\b" for v in sorted(bit_only)]
    offsets = {off for _, _, off in contract_items_of("_REGS") if off >= 0x40 and off & (off - 1)}
    pats += [rf"\b0x0*{off:x}\b" for off in sorted(offsets)]
    for f in vars(C).values():
        if isinstance(f, C.Field) and f.lsb > 0 and not (f.width == 8 and f.lsb % 8 == 0):
            mask = (1 << f.width) - 1
            pats.append(rf">>\s*{f.lsb}\b\)?\s*&\s*(?:0x0*{mask:x}|{mask})\b")
    lines = text.splitlines()
    found = []
    for m in re.finditer("|".join(f"(?:{p})" for p in pats), text, re.IGNORECASE):
        n = text.count("\n", 0, m.start())
        if (rel, lines[n].strip()) not in ALLOWED:
            found.append(f"{rel}:{n + 1}: {m.group(0)!r} in {lines[n].strip()[:100]!r}")
    return found


def contract_items_of(suffix: str) -> list[tuple[str, str, int]]:
    return [item for item in contract_items() if f"{item[0]}{suffix}" in dir(C)]


def test_no_numeric_copy_of_the_contract():
    """Every record position, register offset and register field of the contract, searched as a bare number in the
    hand-written sources: each must come from the generated module (or be in ALLOWED, with its reason)."""
    copies = [c for rel, text in sources() if rel not in KNOWN_ANSWER_FILES for c in numeric_copies(rel, text)]
    assert not copies, "bare numbers of the contract:\n" + "\n".join(copies)


def test_numeric_copy_search_finds_a_planted_copy(tmp_path):
    """The search of test_no_numeric_copy_of_the_contract on a planted file: each kind of copy is found, and the
    generated form of the same values is not."""
    planted = tmp_path / "planted.c"
    planted.write_text("tag = rec >> 1508;\nw[3] |= 1ull << 255;\nzk_reg_read(d, 0x13C, &v);\n"
                       "uint32_t arities = (info >> 0) & 0xffff, engines = (info >> 16) & 0xff;\n"
                       "int rob = (info2 >> 16) & 0x7fff;\n/* bits above 1131 */\n")
    found = numeric_copies("planted.c", planted.read_text())
    assert [f.split(": ", 1)[1].split(" in ")[0] for f in found] == ["'1508'", "'<< 255'", "'0x13C'", "'>> 16) & 0x7fff'", "'1131'"], found
    generated = "tag = rec >> ZK_MSM_RECORD_BUCKET_TAG_LSB(n);\nint rob = zk_poseidon_info2_rob_entries(v);\n"
    assert numeric_copies("planted.c", generated) == []


# ---- known answers, and a mutated contract failing them in C, Rust and Python ------------------------------------
def known_answers(c) -> None:
    """The stream layouts reference_model/msm_formats.md and PoseidonAxis's documentation state (n = 377 for BLS12-377,
    255 for BLS12-381 Fr), against a contract module `c`; the same answers as sw/lib/zk_contract_kat.{h,rs}."""
    pairs = lambda fields, n: [tuple(f.at(n)) for f in fields]  # noqa: E731
    assert (c.MSM_RECORD_POINT.beats(377), c.MSM_RECORD_POINT.beat_bytes, c.MSM_RECORD_POINT.bytes(377)) == (3, 64, 192)
    assert (c.MSM_RECORD_BUCKET.bytes(377), c.MSM_RECORD_SCALARS.bytes()) == (192, 64)
    # BN254 (n = 254): 2-beat points, 3-beat buckets; BLS12-381 (n = 381): 3-beat points, 4-beat buckets
    assert [(c.MSM_RECORD_POINT.bytes(n), c.MSM_RECORD_BUCKET.bytes(n)) for n in (254, 381)] == [(128, 192), (192, 256)]
    assert (c.MSM_CURVE_BLS12_377, c.MSM_CURVE_BN254, c.MSM_CURVE_BLS12_381) == (0, 1, 2)
    assert pairs([c.MSM_RECORD_SCALARS_FIRST, c.MSM_RECORD_SCALARS_SECOND], 0) == [(0, 256), (256, 256)]
    assert pairs([c.MSM_RECORD_POINT_QM, c.MSM_RECORD_POINT_QP, c.MSM_RECORD_POINT_QT], 377) == \
        [(0, 377), (377, 377), (754, 377)]
    assert pairs([c.MSM_RECORD_BUCKET_U, c.MSM_RECORD_BUCKET_V, c.MSM_RECORD_BUCKET_W, c.MSM_RECORD_BUCKET_T,
                  c.MSM_RECORD_BUCKET_TAG], 377) == [(0, 377), (377, 377), (754, 377), (1131, 377), (1508, 28)]
    assert (tuple(c.MSM_RECORD_TAG_WINDOW), tuple(c.MSM_RECORD_TAG_BUCKET)) == ((0, 7), (7, 21))
    assert c.POSEIDON_FRAME_BEAT.bytes() == 32
    assert pairs([c.POSEIDON_FRAME_BEAT_ELEMENT, c.POSEIDON_FRAME_BEAT_LAST], 255) == [(0, 255), (255, 1)]
    assert pairs([c.POSEIDON_FRAME_IN_USER_ARITY, c.POSEIDON_FRAME_OUT_USER_ERROR], 0) == [(0, 8), (0, 3)]


# one change of the generator's declarations, as it shows in each generated file: (C header, Rust, Python)
MUTATIONS = {
    "tag bucket width 20": ("#define ZK_MSM_RECORD_TAG_BUCKET_WIDTH 21u", "#define ZK_MSM_RECORD_TAG_BUCKET_WIDTH 20u",
                            "MSM_RECORD_TAG_BUCKET: Field = Field { lsb: 7, width: 21 }",
                            "MSM_RECORD_TAG_BUCKET: Field = Field { lsb: 7, width: 20 }",
                            "MSM_RECORD_TAG_BUCKET = Field(7, 21)", "MSM_RECORD_TAG_BUCKET = Field(7, 20)"),
    "bucket record tag width 27": (
        "#define ZK_MSM_RECORD_BUCKET_TAG_WIDTH(n) 28u", "#define ZK_MSM_RECORD_BUCKET_TAG_WIDTH(n) 27u",
        "MSM_RECORD_BUCKET_TAG: RecordField = RecordField { lsb_k: 4, lsb_c: 0, width_k: 0, width_c: 28 }",
        "MSM_RECORD_BUCKET_TAG: RecordField = RecordField { lsb_k: 4, lsb_c: 0, width_k: 0, width_c: 27 }",
        "MSM_RECORD_BUCKET_TAG = RecordField(4, 0, 0, 28)", "MSM_RECORD_BUCKET_TAG = RecordField(4, 0, 0, 27)"),
    "bucket record content without the tag": (
        "#define ZK_MSM_RECORD_BUCKET_CONTENT(n) (4u * (n) + 28u)", "#define ZK_MSM_RECORD_BUCKET_CONTENT(n) (4u * (n) + 0u)",
        "MSM_RECORD_BUCKET: Record = Record { content_k: 4, content_c: 28,",
        "MSM_RECORD_BUCKET: Record = Record { content_k: 4, content_c: 0,",
        "MSM_RECORD_BUCKET = Record(4, 28, 512, 384)", "MSM_RECORD_BUCKET = Record(4, 0, 512, 384)"),
    "poseidon last flag at 254": (
        "#define ZK_POSEIDON_FRAME_BEAT_LAST_LSB 255u", "#define ZK_POSEIDON_FRAME_BEAT_LAST_LSB 254u",
        "POSEIDON_FRAME_BEAT_LAST: RecordField = RecordField { lsb_k: 0, lsb_c: 255,",
        "POSEIDON_FRAME_BEAT_LAST: RecordField = RecordField { lsb_k: 0, lsb_c: 254,",
        "POSEIDON_FRAME_BEAT_LAST = RecordField(0, 255, 0, 1)", "POSEIDON_FRAME_BEAT_LAST = RecordField(0, 254, 0, 1)"),
}


def mutated(path: str, old: str, new: str) -> str:
    text = (ROOT / path).read_text()
    assert text.count(old) == 1, f"{path}: the mutation's text {old!r} is not there once"
    return text.replace(old, new)


def c_kat_compiles(tmp_path, header: str) -> subprocess.CompletedProcess:
    (tmp_path / "zk_contract.h").write_text(header)
    shutil.copy(ROOT / "sw/lib/zk_contract_kat.h", tmp_path)
    (tmp_path / "kat.c").write_text('#include "zk_contract_kat.h"\nint main(void) { return 0; }\n')
    return subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-fsyntax-only", str(tmp_path / "kat.c")],
                          capture_output=True, text=True)


def rust_kat_compiles(tmp_path, module: str) -> subprocess.CompletedProcess:
    (tmp_path / "contract.rs").write_text(module)
    shutil.copy(ROOT / "sw/lib/zk_contract_kat.rs", tmp_path / "contract_kat.rs")
    (tmp_path / "lib.rs").write_text("mod contract;\nmod contract_kat;\n")
    rustc = str(Path(cargo()).with_name("rustc"))
    return subprocess.run([rustc, "--edition", "2021", "--crate-type", "lib", "--emit", "metadata", "-o",
                           str(tmp_path / "kat.rmeta"), str(tmp_path / "lib.rs")], capture_output=True, text=True)


def python_module(text: str):
    m = types.ModuleType("mutated_contract")
    exec(compile(text, "contract.py", "exec"), m.__dict__)
    return m


def test_known_answers_hold():
    known_answers(C)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutated_contract_fails_every_language(tmp_path, name):
    """The generated files with one declaration changed (as ContractFiles would write them): the C known answers do
    not compile, the Rust ones do not compile, the Python ones fail; the unchanged files pass all three."""
    c_old, c_new, rs_old, rs_new, py_old, py_new = MUTATIONS[name]
    for lang in ("c", "rs"):
        (tmp_path / lang).mkdir()
        (tmp_path / f"{lang}_ok").mkdir()
    ok = c_kat_compiles(tmp_path / "c_ok", (ROOT / "sw/lib/zk_contract.h").read_text())
    assert ok.returncode == 0, ok.stderr
    bad = c_kat_compiles(tmp_path / "c", mutated("sw/lib/zk_contract.h", c_old, c_new))
    assert bad.returncode != 0 and "static assert" in bad.stderr.lower(), bad.stderr
    ok = rust_kat_compiles(tmp_path / "rs_ok", (ROOT / "sw/lib/zk_contract.rs").read_text())
    assert ok.returncode == 0, ok.stderr
    bad = rust_kat_compiles(tmp_path / "rs", mutated("sw/lib/zk_contract.rs", rs_old, rs_new))
    assert bad.returncode != 0 and "error[E0080]" in bad.stderr, bad.stderr  # a const assert failed
    known_answers(python_module((ROOT / "reference_model/contract.py").read_text()))
    with pytest.raises(AssertionError):
        known_answers(python_module(mutated("reference_model/contract.py", py_old, py_new)))


def test_c_accessors_pack_as_python(tmp_path):
    """The generated C accessors write and read a bucket record and a Poseidon beat bit for bit as the Python
    contract's fields do (n = the record's widest field)."""
    n = C.MSM_RECORD_BUCKET.max_n
    fields = ["u", "v", "w", "t"]
    values = [(0x1234567890ABCDEF << (64 * k)) | (k + 1) for k in range(4)]        # limbs across words
    tag = C.MSM_RECORD_TAG_WINDOW.put(5) | C.MSM_RECORD_TAG_BUCKET.put(1234)
    limbs = lambda x: ", ".join(f"0x{(x >> (64 * i)) & (2**64 - 1):x}ull" for i in range(6))  # noqa: E731
    puts = "".join(f"    {{ const uint64_t v[6] = {{{limbs(x)}}}; zk_msm_record_bucket_{f}_put(rec, {n}u, v); }}\n"
                   for f, x in zip(fields, values))
    (tmp_path / "acc.c").write_text(
        '#include <stdio.h>\n#include "zk_contract.h"\nint main(void) {\n'
        f"    uint8_t rec[ZK_MSM_RECORD_BUCKET_BYTES({n}u)] = {{0}}, beat[ZK_POSEIDON_FRAME_BEAT_BYTES] = {{0}};\n{puts}"
        f"    {{ const uint64_t t[1] = {{{tag}u}}; zk_msm_record_bucket_tag_put(rec, {n}u, t); }}\n"
        "    { const uint64_t one[1] = {1}; zk_poseidon_frame_beat_last_put(beat, one); }\n"
        "    uint64_t back[6];\n    zk_msm_record_bucket_w_get(rec, " + str(n) + "u, back);\n"
        "    for (size_t i = 0; i < sizeof rec; i++) printf(\"%02x\", rec[i]);\n    printf(\"\\n\");\n"
        "    for (size_t i = 0; i < sizeof beat; i++) printf(\"%02x\", beat[i]);\n"
        "    printf(\"\\n\");\n    for (int i = 5; i >= 0; i--) printf(\"%016llx\", (unsigned long long)back[i]);\n"
        "    return 0;\n}\n")
    cc = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{ROOT / 'sw/lib'}", "-o",
                         str(tmp_path / "acc"), str(tmp_path / "acc.c")], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    rec, beat, w = subprocess.run([str(tmp_path / "acc")], capture_output=True, text=True, check=True).stdout.split()
    record = sum(getattr(C, f"MSM_RECORD_BUCKET_{f.upper()}").at(n).put(x) for f, x in zip(fields, values))
    record |= C.MSM_RECORD_BUCKET_TAG.at(n).put(tag)
    assert bytes.fromhex(rec) == record.to_bytes(C.MSM_RECORD_BUCKET.bytes(n), "little")
    assert bytes.fromhex(beat) == C.POSEIDON_FRAME_BEAT_LAST.at().put(1).to_bytes(C.POSEIDON_FRAME_BEAT.bytes(), "little")
    assert int(w, 16) == values[2]

"""The host contract (register maps, error codes, keys) is declared once, in the generator
(hw/src/zkspinal/contract, the cores' *Regs / *Errors objects), and every other form of it is generated:
the committed C header, Python module, Rust module and Markdown tables equal what `./run.sh emit` wrote under
build/rtl/contract, and no source file keeps its own copy of a register offset or a code."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT
import reference_model.contract as C

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

"""The MSM host library (sw/host-msm, Rust; built into build/cargo/release/libzkmsm.so) through its C ABI
(sw/host-msm/include/zkmsm.h), for what the model shares with the host tools rather than re-implements: the
window-spec grammar (`zkmsm_windows_parse`), so a spec means the same to the model, zk-msm and host-msm."""
from __future__ import annotations

import ctypes
import functools
from pathlib import Path

LIB = Path(__file__).resolve().parents[1] / "build" / "cargo" / "release" / "libzkmsm.so"


@functools.cache
def _lib() -> ctypes.CDLL:
    if not LIB.exists():
        raise RuntimeError(f"{LIB} is missing: build the MSM host library (cargo build --release in sw/host-msm with "
                           f"CARGO_TARGET_DIR=build/cargo; ./run.sh msm and the tests build it)")
    lib = ctypes.CDLL(str(LIB))
    lib.zkmsm_windows_parse.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t,
                                        ctypes.POINTER(ctypes.c_size_t)]
    lib.zkmsm_windows_parse.restype = ctypes.c_int
    lib.zkmsm_last_error.restype = ctypes.c_char_p
    return lib


def windows_parse(spec: str, cap: int) -> tuple[int, ...]:
    """The window widths of a spec ("13x13,12x7", "16,16,16"), least significant first, at most `cap`; ValueError
    naming the bad part otherwise."""
    lib = _lib()
    out, n = (ctypes.c_uint32 * cap)(), ctypes.c_size_t()
    if lib.zkmsm_windows_parse(spec.encode(), out, cap, ctypes.byref(n)):
        raise ValueError(lib.zkmsm_last_error().decode(errors="replace"))
    return tuple(out[:n.value])

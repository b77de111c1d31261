"""The MSM host library (sw/host-msm, Rust; built into build/cargo/release/libzkmsm.so) through its C ABI
(sw/host-msm/include/zkmsm.h), for what the model shares with the host tools rather than re-implements: the
window-spec grammar (`zkmsm_windows_parse`) and the JSON instance file (`zkmsm_instance_parse`), so a spec and a
file mean the same to the model, zk-msm and host-msm."""
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
    lib.zkmsm_instance_parse.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.zkmsm_instance_parse.restype = ctypes.c_void_p
    lib.zkmsm_instance_len.argtypes = [ctypes.c_void_p]
    lib.zkmsm_instance_len.restype = ctypes.c_size_t
    lib.zkmsm_instance_write.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
    lib.zkmsm_instance_write.restype = ctypes.c_int
    lib.zkmsm_instance_free.argtypes = [ctypes.c_void_p]
    lib.zkmsm_instance_free.restype = None
    return lib


def windows_parse(spec: str, cap: int) -> tuple[int, ...]:
    """The window widths of a spec ("13x13,12x7", "16,16,16"), least significant first, at most `cap`; ValueError
    naming the bad part otherwise."""
    lib = _lib()
    out, n = (ctypes.c_uint32 * cap)(), ctypes.c_size_t()
    if lib.zkmsm_windows_parse(spec.encode(), out, cap, ctypes.byref(n)):
        raise ValueError(lib.zkmsm_last_error().decode(errors="replace"))
    return tuple(out[:n.value])


POINT_BYTES, SCALAR_BYTES = 96, 32  # zkmsm.h ZKMSM_POINT_BYTES, ZKMSM_SCALAR_BYTES


def read_instance(text: bytes) -> tuple[list, list]:
    """(points, scalars) of a JSON instance (a point (x, y) or None for infinity, integers), by the host library's
    parser; ValueError naming the place otherwise."""
    lib = _lib()
    inst = lib.zkmsm_instance_parse(text, len(text))
    if not inst:
        raise ValueError(lib.zkmsm_last_error().decode(errors="replace"))
    try:
        n = lib.zkmsm_instance_len(inst)
        pts, scs = ctypes.create_string_buffer(n * POINT_BYTES + 1), ctypes.create_string_buffer(n * SCALAR_BYTES + 1)
        if lib.zkmsm_instance_write(inst, pts, scs):
            raise ValueError(lib.zkmsm_last_error().decode(errors="replace"))
    finally:
        lib.zkmsm_instance_free(inst)
    points = []
    for i in range(n):
        b = pts.raw[i * POINT_BYTES:(i + 1) * POINT_BYTES]
        if b[95] & 0x40:  # arkworks' infinity flag
            points.append(None)
        else:
            y = bytearray(b[48:])
            y[47] &= 0x3F  # the flags' two top bits
            points.append((int.from_bytes(b[:48], "little"), int.from_bytes(bytes(y), "little")))
    scalars = [int.from_bytes(scs.raw[i * SCALAR_BYTES:(i + 1) * SCALAR_BYTES], "little") for i in range(n)]
    return points, scalars

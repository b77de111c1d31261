"""reference_model.keccak against independent references: Python's hashlib (sha3_*, shake_*) for the sponge and
therefore the permutation, FIPS 202's published constants, the seed's table for test_speed (NB_ROUNDS = 100,000
in the long tier: the pure-Python permutation takes about 0.4 ms)."""
import hashlib
import random

import pytest

from reference_model import keccak as K

HASHLIB = {"sha3_224": hashlib.sha3_224, "sha3_256": hashlib.sha3_256, "sha3_384": hashlib.sha3_384,
           "sha3_512": hashlib.sha3_512, "shake_128": hashlib.shake_128, "shake_256": hashlib.shake_256}


def test_constants_match_fips202():
    # RC[0], RC[1], RC[23] and the rho offsets of lanes (1,0), (2,0), (4,4) as printed in FIPS 202
    assert K.ROUND_CONSTANTS[:2] == [0x1, 0x8082] and K.ROUND_CONSTANTS[23] == 0x8000000080008008
    assert (K.RHO[1], K.RHO[2], K.RHO[24]) == (1, 62, 14)
    assert sorted(K.PI_SRC) == list(range(25)) and K.PI_SRC[0] == 0


def test_permutation_of_zero():
    # Keccak-f[1600] of the all-zero state, first lanes (the Keccak team's KeccakF-1600 intermediate values)
    out = K.keccak_f1600([0] * 25)
    assert out[:2] == [0xF1258F7940E1DDE7, 0x84D5CCF933C0478A]


@pytest.mark.parametrize("mode", list(K.MODES))
def test_sponge_against_hashlib(mode):
    r = random.Random(mode)
    rate = K.MODES[mode].rate
    for n in [0, 1, 7, 8, rate - 1, rate, rate + 1, 2 * rate, 3 * rate + 1] + [r.randrange(1000) for _ in range(12)]:
        msg = r.randbytes(n)
        if K.MODES[mode].digest is None:
            for out_len in [1, 31, rate - 1, rate, rate + 1, 3 * rate + 7]:
                assert K.digest(mode, msg, out_len) == HASHLIB[mode](msg).digest(out_len), (n, out_len)
        else:
            assert K.digest(mode, msg) == HASHLIB[mode](msg).digest(), n


def test_padding():
    assert K.pad(b"", 8, 0x06) == bytes([0x06, 0, 0, 0, 0, 0, 0, 0x80])
    assert K.pad(b"\x01" * 7, 8, 0x1F) == b"\x01" * 7 + bytes([0x9F])
    assert len(K.pad(b"\x00" * 8, 8, 0x06)) == 16


def test_header_and_errors():
    assert K.sponge_header(5, 0x01020304) == bytes([5, 0, 0, 0, 4, 3, 2, 1])
    with pytest.raises(ValueError):
        K.digest("shake_128", b"", 0)
    with pytest.raises(ValueError):
        K.selected_runs(10, 1, 0)


def test_selected_runs():
    assert K.selected_runs(10, 2, 4) == [0, 1, 4, 5, 8, 9]
    assert K.selected_runs(5, 9, 3) == [0, 1, 2, 3, 4]
    assert K.selected_runs(7, 0, 3) == []


def test_test_speed_round_trip():
    # test_speed(run) with 1 permutation equals the sum of keccak_f1600 of the start lanes
    for run in (0, 1, 2 ** 32 - 1):
        st = [i + run for i in range(25)]
        assert K.test_speed(run, 1) == sum(K.keccak_f1600(st)) % 2 ** 64


@pytest.mark.long
def test_table_first_row():
    # the seed's row nb_elmts = 1: test_speed(0) with NB_ROUNDS = 100,000
    assert K.checksum(100_000, 65_536, 1, 65_536) == 0x3e05f34be7cc0386

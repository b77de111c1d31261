"""python -m reference_model.poseidon: Poseidon digests of preimages on stdin, or random preimages.

  python -m reference_model.poseidon --arity N [--hash-type merkle|constant|encryption|custom|sponge]
        [--length L] [--custom-id ID] [--plain|--optimized] [--strength standard|strengthened] [--reduce]
        [--count] [--jobs J]  < preimages  > digests
  python -m reference_model.poseidon --arity N --gen K [--seed S] [--reduce] [--hash-type constant --length L]

Input: one preimage per line, its elements as 0x-prefixed big-endian hex (1 to 64 digits, either case) separated
by blanks; N elements per line (L for --hash-type constant).  Output: one digest per line, 0x + 64 lowercase
hex digits.  An element >= p is an error unless --reduce is given, which reduces any value below 2^256 mod p.

Bad input: every bad line (up to 20) is reported on stderr as `line <n>: <problem>`, the exit status is 1, and
stdout holds the digests of the lines before the first bad one only.  Usage errors exit with status 2.

--gen K --seed S prints K preimages drawn from random.Random(S): each element is uniform below p, or with
probability 1/8 one of the edge values 0, 1, 2, p-1, p-2, (p-1)/2, 2^64-1, 2^128, 2^254-1; with --reduce the
range is 2^256 and the edge values also include p, p+1, 2^255, 2^256-1.  The same K, S and options always
print the same lines.
--count runs the step-by-step permutation and prints its field-operation counts per hash on stderr.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import multiprocessing
import random
import re
import sys
from typing import Iterator, TextIO

from . import digests
from .hash_type import HashType
from .instance import poseidon_constants
from .params import MAX_ARITY, STRENGTHS
from .permutation import OpCount, permute_optimized, permute_plain

MAX_ERRORS = 20
BATCH = 4096
HEX_ELEMENT = r"0x[0-9a-fA-F]{1,64}"
_TOKEN = re.compile(HEX_ELEMENT)


class UsageError(Exception):
    pass


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m reference_model.poseidon",
                                 description="Filecoin Poseidon (BLS12-381 Fr) digests of stdin preimages.")
    ap.add_argument("--arity", type=int, required=True, help=f"preimage elements per hash, 1..{MAX_ARITY}")
    ap.add_argument("--hash-type", default="merkle", choices=HashType.KINDS,
                    help="domain separation (default merkle: tag 2^arity - 1)")
    ap.add_argument("--length", type=int, help="--hash-type constant: preimage length L (default: arity)")
    ap.add_argument("--custom-id", type=int, help="--hash-type custom: identifier 1..256")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--plain", dest="optimized", action="store_false", help="the plain round schedule")
    mode.add_argument("--optimized", dest="optimized", action="store_true", help="the optimized one (default)")
    ap.set_defaults(optimized=True)
    ap.add_argument("--strength", default="standard", choices=STRENGTHS)
    ap.add_argument("--reduce", action="store_true", help="accept elements below 2^256 and reduce them mod p")
    ap.add_argument("--gen", type=int, metavar="K", help="print K random preimages instead of hashing")
    ap.add_argument("--seed", type=int, default=1, metavar="S", help="seed for --gen (default 1)")
    ap.add_argument("--count", action="store_true", help="print the field operations per hash on stderr")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes for hashing (default 1)")
    a = ap.parse_args(argv)
    if not 1 <= a.arity <= MAX_ARITY:
        ap.error(f"--arity must be 1..{MAX_ARITY}")
    if a.length is not None and a.hash_type != "constant":
        ap.error("--length applies to --hash-type constant only")
    if a.custom_id is not None and a.hash_type != "custom":
        ap.error("--custom-id applies to --hash-type custom only")
    try:
        if a.hash_type == "constant":
            a.htype = HashType("constant", a.length if a.length is not None else a.arity)
            a.htype.preimage_length(a.arity)
        elif a.hash_type == "custom":
            if a.custom_id is None:
                ap.error("--hash-type custom needs --custom-id")
            a.htype = HashType("custom", a.custom_id)
        else:
            a.htype = HashType(a.hash_type)
    except ValueError as e:
        ap.error(str(e))
    if a.gen is not None and a.gen < 0:
        ap.error("--gen K needs K >= 0")
    if a.jobs < 1:
        ap.error("--jobs must be at least 1")
    return a


def generate(k: int, seed: int, width: int, p: int, reduce: bool, out: TextIO) -> None:
    rng = random.Random(seed)
    edges = [0, 1, 2, p - 1, p - 2, (p - 1) // 2, 2**64 - 1, 2**128, 2**254 - 1]
    bound = p
    if reduce:
        edges += [p, p + 1, 2**255, 2**256 - 1]
        bound = 2**256
    lines = []
    for _ in range(k):
        row = [rng.choice(edges) if rng.random() < 0.125 else rng.randrange(bound) for _ in range(width)]
        lines.append(" ".join(f"0x{x:064x}" for x in row))
        if len(lines) >= BATCH:
            out.write("\n".join(lines) + "\n")
            lines = []
    if lines:
        out.write("\n".join(lines) + "\n")


def diagnose(line: str, width: int, p: int, reduce: bool) -> tuple[list[int] | None, str | None]:
    """(elements, None) for a good line, (None, problem) for a bad one."""
    toks = line.split()
    if len(toks) != width:
        return None, f"expected {width} elements, got {len(toks)}"
    vals = []
    for i, tok in enumerate(toks, 1):
        if not tok.startswith("0x"):
            return None, f"element {i} {tok[:80]!r} is not 0x-prefixed hex"
        if _TOKEN.fullmatch(tok) is None:
            digits = tok[2:]
            if digits and all(c in "0123456789abcdefABCDEF" for c in digits):
                return None, f"element {i} has {len(digits)} hex digits, more than 64 (above 2^256)"
            return None, f"element {i} {tok[:80]!r} is not hex"
        v = int(tok, 16)
        if v >= p:
            if not reduce:
                return None, f"element {i} {tok} is not below the field modulus p (--reduce reduces it)"
            v %= p
        vals.append(v)
    return vals, None


def read_batches(inp: TextIO, width: int, p: int, reduce: bool, errors: list[str]) -> Iterator[list[list[int]]]:
    """Parsed preimages in batches; stops yielding at the first bad line but records every bad line."""
    fast = re.compile(r"\s*" + r"\s+".join([f"({HEX_ELEMENT})"] * width) + r"\s*") if width else None
    batch: list[list[int]] = []
    bad = 0
    for n, line in enumerate(inp, 1):
        m = fast.fullmatch(line) if fast else None
        vals = None
        if m is not None:
            vals = [int(g, 16) for g in m.groups()]
            if any(v >= p for v in vals):
                vals = None
        if vals is None:
            vals, problem = diagnose(line, width, p, reduce)
            if problem is not None:
                bad += 1
                if bad <= MAX_ERRORS:
                    errors.append(f"line {n}: {problem}")
                if bad == 1 and batch:
                    yield batch          # the good lines before the first bad one
                    batch = []
                continue
        if not bad:
            batch.append(vals)
            if len(batch) >= BATCH:
                yield batch
                batch = []
    if bad > MAX_ERRORS:
        errors.append(f"... and {bad - MAX_ERRORS} more bad lines")
    if batch and not bad:
        yield batch


def _counted(c, a, batch) -> tuple[list[int], OpCount]:
    """Instrumented mode: the step-by-step permutation, checking every hash costs the same operations."""
    permute = permute_optimized if a.optimized else permute_plain
    out, first = [], None
    for pre in batch:
        n = OpCount()
        out.append(permute(c, a.htype.initial_state(pre, a.arity), n)[1])
        if first is not None and n != first:
            raise AssertionError("the operation count depends on the data")
        first = n
    return out, first


def _parallel(batches, a):
    """Hash batches in worker processes, at most 2 per worker in flight, results in input order."""
    with multiprocessing.get_context("fork").Pool(a.jobs) as pool:
        pending: collections.deque = collections.deque()
        for batch in batches:
            pending.append(pool.apply_async(digests, (batch, a.arity, a.htype, a.strength, a.optimized)))
            if len(pending) >= 2 * a.jobs:
                yield pending.popleft().get(), None
        while pending:
            yield pending.popleft().get(), None


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    if stdin is None:
        stdin = sys.stdin
        if hasattr(stdin, "reconfigure"):  # a real text stream (not a test harness stand-in)
            stdin.reconfigure(errors="replace")  # undecodable bytes become a "not hex" error on their line
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
            a = parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return int(e.code or 0)
    c = poseidon_constants(a.arity, a.strength)
    width = a.htype.preimage_length(a.arity)
    if a.gen is not None:
        generate(a.gen, a.seed, width, c.p, a.reduce, stdout)
        return 0
    errors: list[str] = []
    ops = None
    hashes = 0
    batches = read_batches(stdin, width, c.p, a.reduce, errors)
    if a.count:
        results = (_counted(c, a, batch) for batch in batches)
    elif a.jobs > 1:
        results = _parallel(batches, a)
    else:
        results = ((digests(batch, a.arity, a.htype, a.strength, a.optimized), None) for batch in batches)
    for out, n in results:
        if n is not None:
            if ops is not None and n != ops:
                raise AssertionError("the operation count depends on the data")
            ops = n
        hashes += len(out)
        stdout.write("".join(f"0x{d:064x}\n" for d in out))
    stdout.flush()
    for e in errors:
        print(f"poseidon: {e}", file=stderr)
    if a.count and ops is not None:
        print(f"poseidon: {'optimized' if a.optimized else 'plain'} arity {a.arity} ({a.strength}), per hash: "
              f"{ops.sbox_mul} S-box products + {ops.const_mul} constant products = {ops.mul} products, "
              f"{ops.add} additions; {hashes} hashes", file=stderr)
    return 1 if errors else 0

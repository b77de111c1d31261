#!/usr/bin/env bash
# zkspinal: the one entry point.  ./run.sh help lists the commands.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT" || exit 1
VENV="$ROOT/.venv"
STEP="start"

say()  { printf '\n==> %s\n' "$*"; }
die()  { printf '\nrun.sh: step "%s" failed: %s\n' "$STEP" "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif need sudo; then sudo "$@"; else die "need root (or sudo) for: $*"; fi; }

usage() {
  cat <<'USAGE'
usage: ./run.sh [command] [options]
  (none)            install what is missing, emit the Verilog, run a short demonstration through the RTL
  setup             install what is missing (apt packages, .venv, Mill) and nothing else
  emit [--only RE]  emit the Verilog of every core into build/rtl and print each top's md5 (the large board
                    configurations of build/rtl/on_demand.json only with --only: a command that needs one emits it)
  test [--long]     the quick test suite (with --long: also the soak runs); other args go to pytest
  bench [core]      benchmarks (field, poseidon, keccak, msm, msm-curves, poseidon-model, msm-host, host, system; none: all + report)
  constants [--check]  regenerate constants/poseidon (--check: compare the committed files instead)
  contract          rewrite the generated forms of the register maps and codes (sw/lib/zk_contract.h,
                    reference_model/contract.py, sw/lib/zk_contract.rs, vivado/lib/zk_contract.tcl,
                    hw/REGISTERS.md)
  hash [--arity N] [--config small|pc2|arity2|..._model]
                    Poseidon digests of stdin preimages (the model CLI's format) by zk-poseidon through the XDMA
                    emulator and the PoseidonInband RTL (Verilator): the path a card takes
  poseidon-model ARGS  the Poseidon golden model CLI (python -m reference_model.poseidon ARGS)
  msm --input FILE [--engine model|rtl] [--curve bls12_377|bn254|bls12_381] [--windows SPEC] [--config vu9p_model|...]
                    an MSM by the golden model, or by zk-msm through the XDMA emulator and the MsmAxis RTL
  msm-model ARGS    the MSM model CLI (gen, run, streams, post)
  prove [--curve bls12_377|bn254|bls12_381] [--hashes N] [--seed S] [--config NAME]
                    a Groth16 proof (MiMC chain of N hashes) with its G1 MSMs through sw/msm-fpga on an emulated
                    MSM card, against ark-groth16's own proof and verifier
  keccak-speed --rounds R --elements N --freq F --runs M [--engine cpu|rtl] [--units U]
                    the SNAP test_speed checksum on the CPU program or the KeccakSpeed RTL
  vivado BOARD [--core TOP] [--core-mhz MHZ] ...   bitstream for c1100 or vu9p (needs Vivado on PATH)
  help              this text
USAGE
}

# --- installs: only what is missing ------------------------------------------------------------------
setup_apt() {
  STEP="apt packages"
  local missing=()
  need iverilog || missing+=(iverilog)
  need yosys || missing+=(yosys)
  [ -f /usr/include/boost/version.hpp ] || missing+=(libboost-dev)
  need make || missing+=(make)
  need g++ || missing+=(g++)
  need valgrind || missing+=(valgrind)
  need tclsh || missing+=(tcl)                          # the Vivado scripts' checks run under tclsh
  need shellcheck || missing+=(shellcheck)
  [ -f /usr/include/lz4.h ] || missing+=(liblz4-dev)   # FST waveforms of the Verilator builds
  need cargo || [ -x "$HOME/.cargo/bin/cargo" ] || missing+=(cargo)
  # neptune compiles its own tree builders (sw/neptune-fpga's reference) only with a GPU feature, which links libOpenCL
  ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so ' || missing+=(ocl-icd-opencl-dev)
  need mvn || missing+=(maven)
  need java || missing+=(default-jdk-headless)
  python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (apt)"
    as_root apt-get update -qq || die "apt-get update failed"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" || die "apt-get install ${missing[*]} failed"
  fi
}

setup_venv() {
  STEP="python venv"
  local want; want="$(cat requirements.txt pyproject.toml | md5sum | cut -d' ' -f1)"
  if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.requirements.md5" 2>/dev/null)" = "$want" ]; then return; fi
  say "creating .venv from requirements.txt and pyproject.toml"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV" || die "python3 -m venv failed"
  "$VENV/bin/python" -m pip install -q --upgrade pip || die "pip upgrade failed"
  "$VENV/bin/python" -m pip install -q -r requirements.txt || die "pip install -r requirements.txt failed"
  # the repository's own packages (reference_model, zkspinal, zkemu, vivado_stub: pyproject.toml), editable
  "$VENV/bin/python" -m pip install -qq --no-deps -e . || die "pip install -e . failed"
  echo "$want" > "$VENV/.requirements.md5"
}

setup_mill() {
  STEP="mill"
  local jar="${MAVEN_REPO:-$HOME/.m2/repository}/com/lihaoyi/mill-dist/1.1.5/mill-dist-1.1.5.exe"
  if [ ! -f "$jar" ]; then
    say "fetching Mill 1.1.5 with mvn"
    mvn -q -B dependency:get -Dartifact=com.lihaoyi:mill-dist:1.1.5:exe -Dtransitive=false || die "mvn could not fetch mill-dist"
  fi
}

setup() { setup_apt; setup_venv; setup_mill; }

activate() { export PATH="$VENV/bin:$PATH"; export VIRTUAL_ENV="$VENV"; }

emit() {
  STEP="emit Verilog"
  say "emitting Verilog into build/rtl (log: build/emit.log)"
  # the build layer's emit (zkspinal/sim/rtl.py): the generator under the emit lock, its md5 lines
  "$VENV/bin/python" -m zkspinal.sim.rtl emit "$@" || die "Mill/SpinalHDL elaboration failed (end of build/emit.log above)"
}

run_tests() {
  STEP="tests"
  local args=() long=0
  for a in "$@"; do case "$a" in --long) long=1; args+=(--long);; *) args+=("$a");; esac; done
  mkdir -p build
  say "running the $( [ $long = 1 ] && echo "quick and long" || echo quick ) test suite"
  ZK_NO_EMIT=1 "$VENV/bin/python" -m pytest tests -n "${ZK_JOBS:-2}" --dist loadgroup -q -rfE \
    --junitxml=build/test-results.xml "${args[@]}"
  local rc=$?
  "$VENV/bin/python" tests/summary.py build/test-results.xml
  return $rc
}

py() { "$VENV/bin/python" "$@"; }

# make -C DIR under the build layer's lock (zkspinal/sim/buildlock.py make, as the tests build): two builds of one
# directory at once leave one of them with a half-written object file
locked_make() { "$VENV/bin/python" -m zkspinal.sim.buildlock make "$@"; }

# A top a command asks for, emitted when missing or stale; one the generator lacks stops the command at once with the
# ones it has (the one rule for "is the Verilog current": zkspinal/sim/rtl.py)
need_top() {
  "$VENV/bin/python" -m zkspinal.sim.rtl ensure "$1" >&2 || die "top $1 not available"
}

# the MSM host library (sw/host-msm: arkworks, the window-spec grammar), which zk-msm links and the model calls
host_msm() {
  "$VENV/bin/python" -c "from zkspinal.tools.host_msm import build_host; build_host()" >&2 || die "building sw/host-msm failed"
}

# ./run.sh msm --engine rtl: zk-msm (libzkxdma, the arkworks host library) against the XDMA emulator serving
# MsmAxis_<config> (default vu9p_model: Hardcaml's layout, the multiplier model; with --curve bn254 or bls12_381 that
# curve's VU9P twin, <curve>_vu9p_model); zk-msm options pass through (-w, -B for a configuration with another
# layout, --curve).
msm_rtl() {
  STEP="msm rtl"
  local config="" curve=bls12_377 args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --config) [ $# -ge 2 ] || die "--config needs a value"; config="$2"; shift 2 ;;
      --config=*) config="${1#*=}"; shift ;;
      --curve) [ $# -ge 2 ] || die "--curve needs a value"; curve="$2"; args+=(--curve "$2"); shift 2 ;;
      --curve=*) curve="${1#*=}"; args+=(--curve "$curve"); shift ;;
      --input) [ $# -ge 2 ] || die "--input needs a value"; args+=(-i "$2"); shift 2 ;;
      --input=*) args+=(-i "${1#*=}"); shift ;;
      *) args+=("$1"); shift ;;
    esac
  done
  if [ -z "$config" ]; then
    case "$curve" in bls12_377) config=vu9p_model ;; *) config="${curve}_vu9p_model" ;; esac
  fi
  local top="MsmAxis_$config"
  need_top "$top"
  host_msm
  { locked_make sw && locked_make sw msm; } >&2 || die "make -C sw msm failed"
  # a simulated engine is 10^4-10^5 times slower than a card: a 10-minute progress timeout (a later -t wins)
  "$VENV/bin/python" -m zkemu with "$top" -- sw/build/zk-msm -d @DEV -t 600000 "${args[@]}"
}

# ./run.sh hash: the card's path in simulation.  zk-poseidon (libzkxdma) against the XDMA emulator serving
# PoseidonInband_<config> (Verilator): preimages on stdin, digests on stdout, in the model CLI's format.
hash_rtl() {
  STEP="hash"
  local config=small args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --config) [ $# -ge 2 ] || die "--config needs a value"; config="$2"; shift 2 ;;
      --config=*) config="${1#*=}"; shift ;;
      --arity) [ $# -ge 2 ] || die "--arity needs a value"; args+=(-a "$2"); shift 2 ;;
      --arity=*) args+=(-a "${1#*=}"); shift ;;
      -h|--help) echo "usage: ./run.sh hash [--arity N] [--config small|pc2|arity2|pc2_model|arity2_model] [zk-poseidon options]"; return 0 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  local top="PoseidonInband_$config"
  need_top "$top"
  locked_make sw >&2 || die "make -C sw failed"
  "$VENV/bin/python" -m zkemu with "$top" -- sw/build/zk-poseidon -d @DEV -t 600000 "${args[@]}"
}

# ./run.sh prove: a Groth16 proof whose G1 MSMs run on an emulated MSM card (sw/msm-fpga's examples/prove.rs): the
# MiMC hash-chain circuit of --hashes N (644 constraints each), the proving key's G1 queries resident in the card
# (MsmAxis_<config>: by default the curve's prover twin), the proof compared byte for byte with ark-groth16's for the
# same randomness and checked by its verifier; prints the proof and where the time went.
prove_rtl() {
  STEP="prove"
  local config="" curve=bls12_377 hashes=1 seed=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --config|--curve|--hashes|--seed) [ $# -ge 2 ] || die "$1 needs a value"
        case "$1" in --config) config="$2" ;; --curve) curve="$2" ;; --hashes) hashes="$2" ;; --seed) seed="$2" ;; esac
        shift 2 ;;
      -h|--help) echo "usage: ./run.sh prove [--curve bls12_377|bn254|bls12_381] [--hashes N] [--seed S] [--config NAME]"; return 0 ;;
      *) die "prove: unknown option $1" ;;
    esac
  done
  [ -n "$config" ] || { [ "$curve" = bls12_377 ] && config=prover_model || config="${curve}_prover_model"; }
  local top="MsmAxis_$config"
  need_top "$top"
  locked_make sw >&2 || die "make -C sw failed"
  "$VENV/bin/python" -c "from zkspinal import refs; from zkspinal.paths import ROOT, BUILD; refs.cargo_build(ROOT / 'sw' / 'msm-fpga', BUILD / 'cargo-msm-fpga', '--examples')" >&2 \
    || die "building sw/msm-fpga failed"
  local windows
  windows=$("$VENV/bin/python" -c "from zkspinal.paths import top_info; print(','.join(map(str, top_info('$top')['windows'])))") \
    || die "no manifest entry for $top"
  "$VENV/bin/python" -m zkemu with "$top" -- build/cargo-msm-fpga/release/examples/prove "$curve" @DEV "$hashes" "$seed" "$windows"
}

cmd="${1:-demo}"; [ $# -gt 0 ] && shift
case "$cmd" in
  help|-h|--help) usage ;;
  setup) setup ;;
  emit) setup; activate; emit "$@" ;;
  demo) setup; activate; emit; STEP="demonstration"; say "demonstration through the RTL"; py -m zkspinal.tools.demo || die "the demonstration did not match the model" ;;
  test) setup; activate; emit; run_tests "$@" ;;
  bench) setup; activate; emit; STEP="bench ${1:-all}"; py -m zkspinal.bench "$@" || die "benchmark failed" ;;
  constants) setup; activate; py -m reference_model.poseidon.constants "$@" ;;
  contract) setup; STEP="contract"; ./mill --no-daemon hw.runMain zkspinal.emit.ContractFiles || die "ContractFiles failed" ;;
  poseidon-model) setup >/dev/null; activate; exec "$VENV/bin/python" -m reference_model.poseidon "$@" ;;
  msm) setup >/dev/null; activate; engine=model; args=()
    while [ $# -gt 0 ]; do
      case "$1" in --engine) engine="${2:-}"; shift; [ $# -gt 0 ] && shift ;; --engine=*) engine="${1#*=}"; shift ;; *) args+=("$1"); shift ;; esac
    done
    case "$engine" in
      model) STEP="msm model"; host_msm; exec "$VENV/bin/python" -m reference_model.msm run "${args[@]}" ;;
      rtl) msm_rtl "${args[@]}" ;;
      *) echo "run.sh msm: --engine must be model or rtl (got '$engine')" >&2; exit 2 ;;
    esac ;;
  msm-model) setup >/dev/null; activate; STEP="msm model"; host_msm; exec "$VENV/bin/python" -m reference_model.msm "$@" ;;
  hash) setup >/dev/null; activate; hash_rtl "$@" ;;
  prove) setup >/dev/null; activate; prove_rtl "$@" ;;
  keccak-speed) setup >/dev/null; activate; exec "$VENV/bin/python" -m zkspinal.tools.keccak_speed "$@" ;;
  vivado) setup; activate; emit
    BOARD="${1:-}"; [ -n "$BOARD" ] || die "usage: ./run.sh vivado c1100|vu9p [--core TOP] [--core-mhz MHZ] [--fifo-depth N] [--jobs N] [--flash-mb MB]"
    shift; STEP="vivado $BOARD"
    need vivado || die "vivado is not on PATH (source Vivado's settings64.sh); without it, ./run.sh test checks the scripts (tests/test_vivado_tcl.py)"
    mkdir -p "build/vivado/$BOARD"
    vivado -mode batch -nojournal -log "build/vivado/$BOARD/vivado.log" -source vivado/build.tcl -tclargs --board "$BOARD" "$@" \
      || die "the Vivado build failed (exit 2: timing not met; see build/vivado/$BOARD/)" ;;
  *) usage >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Streaming transfers of one large file (issue 15, item 1; docs/benchmarks.md "Large-file transfers"): the tcnfs
# CLI's put and get against libnfs's nfs-cp (NFSv4.0) on the same tcnfs server and the same file, side by side,
# alternating tools and their order between rounds so that load on this shared machine hits both alike. Prints a Markdown
# table (median seconds, MiB/s, peak RSS, tcnfs/nfs-cp throughput ratio) and writes it to OUT/transfer.md with
# every sample in OUT/transfer.csv. Every copy is checked with cmp. Stops the server on exit. Not part of the
# test command.
#
# Usage: scripts/bench-transfer.sh [--dir DIR] [--out DIR] [--size MIB] [--rounds N] [--heap SIZE] [--no-build]
#                                  [--nfs-cp PATH] [--old-jar JAR] [--settle SECONDS]
#   --dir DIR     work directory: the server's export and state, the local files (default /tmp/tcnfs-bench-transfer;
#                 needs 3 x SIZE free; the XFS test loop device is too small for 1 GiB)
#   --out DIR     results (default target/bench-transfer)
#   --size MIB    file size (default 1024)
#   --rounds N    rounds; each runs every tool once in each direction (default 3)
#   --heap SIZE   the CLI's -Xmx (default 96m: bounded memory is part of what is measured)
#   --no-build    use the jars that are there
#   --nfs-cp PATH the libnfs nfs-cp to compare with (default: nfs-cp on the PATH; libnfs-utils 4.0.0 cannot
#                 write over NFSv4, a libnfs 5.0.3 build can: docs/benchmarks.md says how to build one)
#   --old-jar JAR also run this tcnfs-cli.jar (an older build) in every round, as tool "tcnfs-old"
#   --settle S    seconds to wait (after sync) before every sample, so that each tool starts with the same
#                 memory state (default 3; see docs/benchmarks.md on free page reporting)
# Environment: JAVA (default java); TCNFS_CLIENT_JAR, TCNFS_SERVER_JAR (default the jars under */target; copy
# them elsewhere to keep building while it runs).
set -euo pipefail

DIR=/tmp/tcnfs-bench-transfer
SIZE=1024
ROUNDS=3
HEAP=96m
NFSCP=nfs-cp
OLD_JAR=
SETTLE=3
. "$(dirname "$0")/bench-lib.sh"
OUT=$BENCH_ROOT/target/bench-transfer
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --heap) HEAP=$2; shift 2 ;;
    --nfs-cp) NFSCP=$2; shift 2 ;;
    --old-jar) OLD_JAR=$2; shift 2 ;;
    --settle) SETTLE=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done

bench_build server,cli
SERVER_JAR=${TCNFS_SERVER_JAR:-$SERVER_JAR}
CLIENT_JAR=${TCNFS_CLIENT_JAR:-$CLI_JAR}
bench_require "$SERVER_JAR" "$CLIENT_JAR"
command -v "$NFSCP" >/dev/null || { echo "bench-transfer.sh: $NFSCP missing (apt-get install libnfs-utils)" >&2; exit 1; }
[ -z "$OLD_JAR" ] || [ -f "$OLD_JAR" ] || { echo "bench-transfer.sh: $OLD_JAR is missing" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-transfer.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

mkdir -p "$OUT"
bench_workdir run
mkdir -p "$WORK"/{data/bench,state,local}
bench_start_tcnfs "$WORK" "$OUT/server.log" -Xmx512m
SERVER_PID=$TCNFS_PID
PORT=$TCNFS_PORT

SRC=$WORK/local/src.bin
head -c $((SIZE * 1024 * 1024)) /dev/urandom >"$SRC"
cp "$SRC" "$WORK/data/bench/remote.bin"
sync
BYTES=$(stat -c %s "$SRC")
# the JVM options of scripts/tcnfs, plus the heap bound
TCNFS=("$JAVA" -Xmx"$HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -jar "$CLIENT_JAR")
TCNFS_OLD=("$JAVA" -Xmx"$HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -jar "$OLD_JAR")
URL=nfs://127.0.0.1:$PORT/bench
LIBNFS="?version=4&nfsport=$PORT"

TICKS=$(getconf CLK_TCK)
server_cpu() { awk -v t="$TICKS" -v n="$(bench_cpu_ticks "$SERVER_PID")" 'BEGIN { printf "%.2f", n / t }'; }

# run NAME DIRECTION CHECK-FILE COMMAND...: one timed sample into transfer.csv: wall seconds, peak RSS KiB, the
# client's CPU seconds (user + system), the server's CPU seconds meanwhile, ok|failed|corrupt
run() {
  local name=$1 dir=$2 check=$3; shift 3
  local t; t=$(mktemp)
  local status=ok
  sync
  sleep "$SETTLE"
  local s0; s0=$(server_cpu)
  if ! /usr/bin/time -f "%e %M %U %S" -o "$t" "$@" >"$OUT/last-$name-$dir.log" 2>&1; then status=failed; fi
  local s1; s1=$(server_cpu)
  if [ "$status" = ok ] && ! cmp -s "$SRC" "$check"; then status=corrupt; fi
  read -r secs rss user sys < <(tail -n 1 "$t")
  rm -f "$t" "$check"
  local ccpu scpu
  ccpu=$(awk -v a="$user" -v b="$sys" 'BEGIN {printf "%.2f", a + b}')
  scpu=$(awk -v a="$s1" -v b="$s0" 'BEGIN {printf "%.2f", a - b}')
  echo "$round,$name,$dir,$secs,$rss,$ccpu,$scpu,$status" >>"$OUT/transfer.csv"
  echo "round $round: $name $dir ${secs}s ${rss}KiB client-cpu ${ccpu}s server-cpu ${scpu}s $status" >&2
}

# one sample of each tool in one direction, the order alternating between rounds
both() {
  local d=$1
  local tools=(tcnfs nfs-cp)
  [ -z "$OLD_JAR" ] || tools+=(tcnfs-old)
  if [ $((round % 2)) = 0 ]; then tools=("${tools[@]:1}" "${tools[0]}"); fi
  for tool in "${tools[@]}"; do
    case "$tool-$d" in
      tcnfs-put) run tcnfs put "$WORK/data/bench/put-tcnfs.bin" "${TCNFS[@]}" put "$SRC" "$URL/put-tcnfs.bin" ;;
      tcnfs-old-put) run tcnfs-old put "$WORK/data/bench/put-old.bin" "${TCNFS_OLD[@]}" put "$SRC" "$URL/put-old.bin" ;;
      nfs-cp-put) run nfs-cp put "$WORK/data/bench/put-libnfs.bin" "$NFSCP" "$SRC" \
          "nfs://127.0.0.1/bench/put-libnfs.bin$LIBNFS" ;;
      tcnfs-get) run tcnfs get "$WORK/local/get-tcnfs.bin" "${TCNFS[@]}" get "$URL/remote.bin" "$WORK/local/get-tcnfs.bin" ;;
      tcnfs-old-get) run tcnfs-old get "$WORK/local/get-old.bin" "${TCNFS_OLD[@]}" get "$URL/remote.bin" \
          "$WORK/local/get-old.bin" ;;
      nfs-cp-get) run nfs-cp get "$WORK/local/get-libnfs.bin" "$NFSCP" "nfs://127.0.0.1/bench/remote.bin$LIBNFS" \
          "$WORK/local/get-libnfs.bin" ;;
    esac
  done
}

echo "round,tool,direction,seconds,rss_kib,client_cpu_s,server_cpu_s,status" >"$OUT/transfer.csv"
for round in $(seq 1 "$ROUNDS"); do
  both put
  both get
done
{ echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; echo "nfs-cp: $(command -v "$NFSCP")"; } >"$OUT/machine.txt"

python3 - "$OUT/transfer.csv" "$BYTES" "$SIZE" "$ROUNDS" "$HEAP" >"$OUT/transfer.md" <<'PY'
import csv, statistics, sys
path, size, mib, rounds, heap = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
rows = list(csv.DictReader(open(path)))
def stats(tool, d):
    ok = [r for r in rows if r["tool"] == tool and r["direction"] == d and r["status"] == "ok"]
    bad = [r for r in rows if r["tool"] == tool and r["direction"] == d and r["status"] != "ok"]
    if not ok:
        return None
    med = lambda k: statistics.median(float(r[k]) for r in ok)
    s = med("seconds")
    return dict(s=s, rate=size / s / 2**20, best=size / min(float(r["seconds"]) for r in ok) / 2**20,
                rss=max(int(r["rss_kib"]) for r in ok) / 1024, ccpu=med("client_cpu_s"), scpu=med("server_cpu_s"),
                bad=len(bad), n=len(ok))
print(f"{mib} MiB file, {rounds} rounds, tcnfs CLI -Xmx{heap}; medians of the successful samples")
print()
print("| direction | tool | ok/failed | median s | MiB/s (median) | MiB/s (best) | client CPU s | server CPU s"
      " | peak RSS MiB | tcnfs / nfs-cp: throughput (median, best), CPU (client+server) |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
for d in ("put", "get"):
    t, l = stats("tcnfs", d), stats("nfs-cp", d)
    o = stats("tcnfs-old", d)
    for tool, st in (("tcnfs", t), ("nfs-cp", l)) + ((("tcnfs-old", o),) if any(r["tool"] == "tcnfs-old" for r in rows) else ()):
        bad = sum(1 for r in rows if r["tool"] == tool and r["direction"] == d and r["status"] != "ok")
        ratio = ""
        if tool in ("tcnfs", "tcnfs-old"):
            t = st
            ratio = (f"{t['rate'] / l['rate']:.2f}, {t['best'] / l['best']:.2f}, "
                     f"{(t['ccpu'] + t['scpu']) / (l['ccpu'] + l['scpu']):.2f}") if t and l else "n/a"
        if st is None:
            print(f"| {d} | {tool} | 0/{bad} | - | - | - | - | - | - | {ratio} |")
        else:
            print(f"| {d} | {tool} | {st['n']}/{bad} | {st['s']:.2f} | {st['rate']:.0f} | {st['best']:.0f} "
                  f"| {st['ccpu']:.2f} | {st['scpu']:.2f} | {st['rss']:.0f} | {ratio} |")
PY
cat "$OUT/machine.txt" >>"$OUT/transfer.md"
cat "$OUT/transfer.md"

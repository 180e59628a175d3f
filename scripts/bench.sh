#!/usr/bin/env bash
# One command for the workload comparison of issue 6 (docs/benchmarks.md): builds the server fat jar and
# jmh/target/benchmarks.jar, starts one tcnfs server with two exports and NFS-Ganesha (NFSv4.1 only, VFS export,
# graceless, on a free loopback port), puts every export and the "disk" target's directory on the same file
# system, runs every workload against tcnfs-txn, tcnfs, tcnfs-async, ganesha and disk in one run, writes the
# results, and stops both servers (also on failure or Ctrl-C). Not part of the test command.
#
# Targets: "tcnfs-txn" and "tcnfs" are the same export (sync, the default: a plain name change is durable before
# its reply; a compound runs as a transaction when the client sets the flag, as tcnfs-txn does); "tcnfs-async" is
# a second export of the same server with the async option (docs/durability.md: plain name changes reply before
# their directory fsyncs, as Ganesha's VFS back end does). So results.md has both comparisons with Ganesha:
# "tcnfs-async / ganesha" like for like in durability, and "tcnfs / ganesha" with tcnfs's default.
#
# The tcnfs server runs with a bounded heap (--server-heap) and its metrics endpoint on a free port; the driver
# samples its heap from there during the bigtxn runs (heap.csv, and a table in results.md) and checks the
# operations of bigtxn's compound. The server allows 8,192 operations and 17 MiB (+64 KiB) per compound, so the
# bigtxn call (1,024 files x 16 KiB = 16 MiB of data in 4,102 operations, 16,945,384 request bytes) fits one
# compound: under the defaults (4,096 operations, 16 MiB + 64 KiB) it is 6 operations and ~100 KiB too large.
#
# Usage: scripts/bench.sh [--dir DIR] [--out DIR] [--server-heap SIZE] [--no-build] [-- more Workloads options]
#   --dir DIR          file system to work on (default /mnt/tcnfs-xfs/bench; scripts/mount-test-fs.sh makes it)
#   --out DIR          results: results.csv, results.md, heap.csv, *.png, server logs (default target/bench-results)
#   --server-heap SIZE the tcnfs server's -Xmx (default 512m; 8 clients x 16 MiB compounds need >= 320m)
#   --no-build         use the jars that are there
#   after --            passed to org.tcnfs.jmh.workload.Workloads (e.g. -- --workloads writefiles --files 200)
# Environment: TCNFS_BUILD_SUFFIX builds into target$SUFFIX (as -Dtcnfs.buildSuffix); JAVA (default java);
# TCNFS_JIT_OPTS replaces the server's JIT options (scripts/jit-options.sh: those of the README's run command).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/jit-options.sh"
DIR=/mnt/tcnfs-xfs/bench
OUT=$ROOT/target/bench-results
BUILD=1
HEAP=512m
SUFFIX=${TCNFS_BUILD_SUFFIX:-}
JAVA=${JAVA:-java}
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --server-heap) HEAP=$2; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

SERVER_JAR=$ROOT/server/target$SUFFIX/tcnfs-server.jar
BENCH_JAR=$ROOT/jmh/target$SUFFIX/benchmarks.jar
if [ "$BUILD" = 1 ]; then
  echo "building server and jmh (target$SUFFIX) ..."
  (cd "$ROOT" && { mvn -B -q -o -Dtcnfs.buildSuffix="$SUFFIX" package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl server,jmh -am \
      || mvn -B -q -Dtcnfs.buildSuffix="$SUFFIX" package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl server,jmh -am; })
fi
for jar in "$SERVER_JAR" "$BENCH_JAR"; do
  [ -f "$jar" ] || { echo "bench.sh: $jar is missing (run without --no-build)" >&2; exit 1; }
done
GANESHA=/usr/bin/ganesha.nfsd
[ -x "$GANESHA" ] || { echo "bench.sh: $GANESHA missing (scripts/install-test-deps.sh)" >&2; exit 1; }
mkdir -p "$DIR" "$OUT"
WORK=$(mktemp -d "$DIR/run-XXXXXX")
mkdir -p "$WORK"/{tcnfs-data,tcnfs-async,tcnfs-state,ganesha-export,ganesha-recovery,disk}
# the exports sit at their own paths under tcnfs's pseudo root
cat >"$WORK/tcnfs.exports" <<EXPORTS
$WORK/tcnfs-data  *(rw,no_root_squash)
$WORK/tcnfs-async *(rw,no_root_squash,async)
EXPORTS

TCNFS_PID=
GANESHA_PID=
stop() {
  set +e
  for pid in $GANESHA_PID $TCNFS_PID; do
    kill "$pid" 2>/dev/null
  done
  for pid in $GANESHA_PID $TCNFS_PID; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$WORK"
}
trap stop EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_port() { # port pid name
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    kill -0 "$2" 2>/dev/null || { echo "bench.sh: $3 exited; log in $OUT" >&2; return 1; }
    sleep 0.1
  done
  echo "bench.sh: $3 did not listen on $1" >&2; return 1
}

# shellcheck disable=SC2046 # several options, split on spaces
"$JAVA" $(bench_jit_options) -Xmx"$HEAP" -Xlog:gc:file="$OUT/tcnfs-gc.log" -jar "$SERVER_JAR" --port 0 --port-file "$WORK/tcnfs.port" \
  --exports "$WORK/tcnfs.exports" --state "$WORK/tcnfs-state" --grace 0 \
  --max-ops 8192 --max-request 17MiB \
  --metrics-port 0 --metrics-port-file "$WORK/tcnfs.metrics-port" >"$OUT/tcnfs.log" 2>&1 &
TCNFS_PID=$!
for _ in $(seq 1 300); do [ -s "$WORK/tcnfs.port" ] && break; kill -0 $TCNFS_PID || exit 1; sleep 0.1; done
TCNFS_PORT=$(cat "$WORK/tcnfs.port")
TCNFS_METRICS_PORT=$(cat "$WORK/tcnfs.metrics-port")
wait_port "$TCNFS_PORT" $TCNFS_PID tcnfs

GANESHA_PORT=$(free_port)
cat >"$WORK/ganesha.conf" <<CONF
NFS_CORE_PARAM { NFS_Port = $GANESHA_PORT; Bind_addr = 127.0.0.1; Protocols = 4; Enable_NLM = false; Enable_RQUOTA = false; Enable_UDP = false; }
NFSV4 { Graceless = true; Minor_Versions = 1; RecoveryBackend = fs; RecoveryRoot = $WORK/ganesha-recovery; }
NFS_KRB5 { Active_krb5 = false; }
EXPORT { Export_Id = 77; Path = $WORK/ganesha-export; Pseudo = /export; Protocols = 4; Transports = TCP;
  Access_Type = RW; Squash = No_Root_Squash; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = EVENT; }
CONF
"$GANESHA" -F -f "$WORK/ganesha.conf" -L "$OUT/ganesha.log" -p "$WORK/ganesha.pid" -N NIV_EVENT \
  >"$OUT/ganesha.out" 2>&1 &
GANESHA_PID=$!
wait_port "$GANESHA_PORT" $GANESHA_PID ganesha

echo "tcnfs on 127.0.0.1:$TCNFS_PORT (pid $TCNFS_PID, -Xmx$HEAP, metrics :$TCNFS_METRICS_PORT), ganesha on 127.0.0.1:$GANESHA_PORT (pid $GANESHA_PID), work in $WORK"
{ echo "date: $(date -u +%FT%TZ)"; echo "nproc: $(nproc)"; free -h | sed -n 2p | awk '{print "memory: "$2}';
  echo "file system: $(df -hT "$DIR" | tail -1)"; echo "java: $("$JAVA" -version 2>&1 | head -1)";
  echo "ganesha: $(dpkg-query -W -f='${Version}' nfs-ganesha 2>/dev/null || echo unknown)";
  echo "tcnfs server: -Xmx$HEAP --max-ops 8192 --max-request 17MiB; exports:"; sed 's/^/  /' "$WORK/tcnfs.exports"; } >"$OUT/machine.txt"
set +e
"$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads \
  --target "tcnfs-txn=nfs://127.0.0.1:$TCNFS_PORT$WORK/tcnfs-data?txn" \
  --target "tcnfs=nfs://127.0.0.1:$TCNFS_PORT$WORK/tcnfs-data" \
  --target "tcnfs-async=nfs://127.0.0.1:$TCNFS_PORT$WORK/tcnfs-async" \
  --target "ganesha=nfs://127.0.0.1:$GANESHA_PORT/export" \
  --target "disk=disk:$WORK/disk" \
  --server-metrics "http://127.0.0.1:$TCNFS_METRICS_PORT/metrics" --metrics-targets tcnfs-txn,tcnfs,tcnfs-async \
  --out "$OUT" "${EXTRA[@]}"
STATUS=$?
set -e
echo "results in $OUT (exit $STATUS)"
exit $STATUS

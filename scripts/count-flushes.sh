#!/usr/bin/env bash
# Counts the disk flushes one tcnfs server makes during one workload-driver run (issue 16): starts the server jar on
# fresh directories under $BENCH_DIR (default /mnt/tcnfs-xfs/bench), attaches `strace -f -c` for fsync and fdatasync
# (LMDB's commit = one fdatasync of data.mdb + one O_DSYNC meta page write), runs the driver against it alone, and
# prints the syscall counts, the driver's result and the server's group-commit counters (tcnfs_shared_fsyncs_total,
# tcnfs_lmdb_durable_commits_total and their *_requests_total; absent on builds before them).
#
# Usage: scripts/count-flushes.sh SERVER_JAR OUT_DIR [--txn] [Workloads options...]
#   e.g. scripts/count-flushes.sh server/target/tcnfs-server.jar target/flushes-wf8 --workloads writefiles \
#        --sizes 4K --clients 8 --warmup-files 0
# SERVER_JAVA_OPTS adds JVM options to the server (e.g. -Dtcnfs.early-lock-release=false); STRACE_CALLS replaces the
# traced calls (default fsync,fdatasync; "all" counts every system call).
set -euo pipefail
JAR=$1; OUT=$2; shift 2
QUERY=""
if [ "${1:-}" = "--txn" ]; then QUERY="?txn"; shift; fi
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs/bench}
. "$(dirname "$0")/bench-lib.sh"
SERVER_JAR=$JAR
mkdir -p "$OUT"
bench_workdir flushes
# shellcheck disable=SC2086 # SERVER_JAVA_OPTS holds several options
bench_start_tcnfs "$WORK" "$OUT/server.log" ${SERVER_JAVA_OPTS:-} -Xmx512m -- --max-ops 8192 --max-request 17MiB
strace -q -f -c -e trace="${STRACE_CALLS:-fsync,fdatasync}" -o "$OUT/strace.txt" -p "$TCNFS_PID" &
ST=$!
sleep 1
"$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress --target "tcnfs=nfs://127.0.0.1:$TCNFS_PORT/$QUERY" \
  --baseline tcnfs --reference tcnfs --out "$OUT" "$@" >"$OUT/driver.txt" 2>&1
kill -INT $ST; wait $ST || true
echo "load: $(uptime)"
cat "$OUT/strace.txt"
grep -h "tcnfs" "$OUT/results.csv" || true
curl -s "http://127.0.0.1:$TCNFS_MPORT/metrics" | grep -E "^tcnfs_compounds_total|^tcnfs_(fsync|shared_fsync|lmdb)|^tcnfs_txn_lock_wait" || true

#!/usr/bin/env bash
# Lock waits of one tcnfs build under the workload driver (issue 16): starts SERVER_JAR alone on a fresh directory,
# runs the driver against it (plain and transactional targets), and prints the server's lock-wait counters
# (tcnfs_txn_lock_wait_seconds_total, and tcnfs_txn_lock_blocked_* by key role and mode where the build has them)
# after the run (SERVER_JAVA_OPTS adds JVM options, e.g. a JFR recording). The counters do not depend on the machine's load the way timings do.
#
# Usage: scripts/bench-lock-waits.sh SERVER_JAR OUT_DIR [Workloads options...]
#   e.g. scripts/bench-lock-waits.sh server/target/tcnfs-server.jar target/lw-new --workloads shared \
#        --shared-percents 20 --warmup-rounds 0
# LW_PLAIN_ONLY=1 runs the plain target alone (without the transactional one on the same server).
set -euo pipefail
JAR=$1; OUT=$2; shift 2
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs/bench}
. "$(dirname "$0")/bench-lib.sh"
SERVER_JAR=$JAR
mkdir -p "$OUT"
bench_workdir lw
# shellcheck disable=SC2086 # SERVER_JAVA_OPTS holds several options
bench_start_tcnfs "$WORK" "$OUT/server.log" ${SERVER_JAVA_OPTS:-} -Xmx512m -- --max-ops 8192 --max-request 17MiB \
  --max-cached-reply 17MiB --reply-cache-memory 200MiB
TARGETS=(--target "tcnfs-txn=nfs://127.0.0.1:$TCNFS_PORT/?txn" --target "tcnfs=nfs://127.0.0.1:$TCNFS_PORT/")
if [ "${LW_PLAIN_ONLY:-0}" = 1 ]; then  # the plain target alone, so the counters are the plain compounds' own
  TARGETS=(--target "tcnfs=nfs://127.0.0.1:$TCNFS_PORT/")
fi
"$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress "${TARGETS[@]}" --out "$OUT" "$@"
curl -s "http://127.0.0.1:$TCNFS_MPORT/metrics" >"$OUT/metrics.txt"
grep -E '^tcnfs_txn_lock_(wait_seconds|blocked|early|commit_dep)|^tcnfs_shared_fsync|^tcnfs_lmdb_durable' "$OUT/metrics.txt" \
  | grep -v ' 0.0$' | tee "$OUT/lock-waits.txt"
# the server's CPU time (user + system, warm-up included): work done, less dependent on the load than timings
awk -v t="$(getconf CLK_TCK)" -v n="$(bench_cpu_ticks "$TCNFS_PID")" 'BEGIN { printf "server_cpu_seconds %.2f\n", n / t }' \
  | tee -a "$OUT/lock-waits.txt"

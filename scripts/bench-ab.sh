#!/usr/bin/env bash
# Side-by-side comparison of two tcnfs builds (issue 16): starts the server jar of build A ("old") and of build B
# ("tcnfs"), NFS-Ganesha and the disk target on the same file system, and runs the workload driver once against
# all of them (each tcnfs with and without transactions), so every ratio comes from one run.
#
# Usage: scripts/bench-ab.sh OLD_SERVER_JAR NEW_SERVER_JAR OUT_DIR [Workloads options...]
#   e.g. build the old commit with -Dtcnfs.buildSuffix=-base and the new one with -Dtcnfs.buildSuffix=-perf, then
#   for i in 1 2 3; do scripts/bench-ab.sh server/target-base/tcnfs-server.jar server/target-perf/tcnfs-server.jar \
#       target/ab-$i --workloads macro --warmup-rounds 1; done
# The driver is jmh/target$TCNFS_BUILD_SUFFIX/benchmarks.jar (default: jmh/target). Both servers allow cached replies
# of 17 MiB (--max-cached-reply): a transactional vread of 16 files needs its whole reply kept for a retry, and
# the default (4160 KiB) makes the client refuse the transactional cp -R. Results as with scripts/bench.sh.
# TCNFS_ASYNC=1 also starts the new build with an async export (rw,no_root_squash,async: plain compounds reply
# before their name changes are durable, docs/durability.md) as target tcnfs-async.
# Every tcnfs server gets the README's JIT options (scripts/jit-options.sh; TCNFS_JIT_OPTS overrides them).
# OLD_JAVA_OPTS / NEW_JAVA_OPTS add JVM options to the old / new server (e.g. the same jar with a feature off).
# AB_DATA_OPTIONS sets the export options of both the old and the new target (default rw,no_root_squash), e.g.
# rw,no_root_squash,async to compare two builds' async exports side by side.
# OLD_DATA_OPTIONS sets the old server's export options alone (e.g. rw,no_root_squash,async to compare it with
# tcnfs-async). BENCH_JAR overrides the driver jar.
set -euo pipefail
OLD_JAR=$1; NEW_JAR=$2; OUT=$3; shift 3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/jit-options.sh"
BENCH_JAR=${BENCH_JAR:-$ROOT/jmh/target${TCNFS_BUILD_SUFFIX:-}/benchmarks.jar}
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs/bench}
mkdir -p "$DIR" "$OUT"
W=$(mktemp -d "$DIR/ab-XXXXXX")
mkdir -p "$W"/{old-data,old-state,new-data,new-state,async-data,async-state,ganesha-export,ganesha-recovery,disk}
PIDS=()
stop() {
  set +e
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$W"
}
trap stop EXIT
start_tcnfs() { # name jar [data options]
  local opts=${OLD_JAVA_OPTS:-}
  [ "$1" = old ] || opts=${NEW_JAVA_OPTS:-}
  # shellcheck disable=SC2046 # several options, split on spaces
  java $(bench_jit_options) $opts -Xmx512m -jar "$2" --port 0 --port-file "$W/$1.port" --data "$W/$1-data" --data-options "${3:-rw,no_root_squash}" \
    --state "$W/$1-state" --grace 0 --max-ops 8192 --max-request 17MiB --max-cached-reply 17MiB \
    --reply-cache-memory 200MiB --metrics-port 0 >"$OUT/$1.log" 2>&1 &
  PIDS+=($!)
}
start_tcnfs old "$OLD_JAR" "${OLD_DATA_OPTIONS:-${AB_DATA_OPTIONS:-rw,no_root_squash}}"
start_tcnfs new "$NEW_JAR" "${AB_DATA_OPTIONS:-rw,no_root_squash}"
ASYNC_TARGET=()
if [ "${TCNFS_ASYNC:-0}" = 1 ]; then
  start_tcnfs async "$NEW_JAR" rw,no_root_squash,async
fi
GP=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$W/ganesha.conf" <<CONF
NFS_CORE_PARAM { NFS_Port = $GP; Bind_addr = 127.0.0.1; Protocols = 4; Enable_NLM = false; Enable_RQUOTA = false; Enable_UDP = false; }
NFSV4 { Graceless = true; Minor_Versions = 1; RecoveryBackend = fs; RecoveryRoot = $W/ganesha-recovery; }
NFS_KRB5 { Active_krb5 = false; }
EXPORT { Export_Id = 77; Path = $W/ganesha-export; Pseudo = /export; Protocols = 4; Transports = TCP;
  Access_Type = RW; Squash = No_Root_Squash; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = EVENT; }
CONF
/usr/bin/ganesha.nfsd -F -f "$W/ganesha.conf" -L "$OUT/ganesha.log" -p "$W/ganesha.pid" -N NIV_EVENT >"$OUT/ganesha.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 300); do
  [ -s "$W/old.port" ] && [ -s "$W/new.port" ] && (exec 3<>"/dev/tcp/127.0.0.1/$GP") 2>/dev/null && break
  sleep 0.2
done
OP=$(cat "$W/old.port"); NP=$(cat "$W/new.port")
if [ "${TCNFS_ASYNC:-0}" = 1 ]; then
  for _ in $(seq 1 300); do [ -s "$W/async.port" ] && break; sleep 0.2; done
  ASYNC_TARGET=(--target "tcnfs-async=nfs://127.0.0.1:$(cat "$W/async.port")/")
fi
java -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress \
  --target "tcnfs-txn=nfs://127.0.0.1:$NP/?txn" --target "tcnfs=nfs://127.0.0.1:$NP/" \
  --target "old-txn=nfs://127.0.0.1:$OP/?txn" --target "old=nfs://127.0.0.1:$OP/" \
  --target "ganesha=nfs://127.0.0.1:$GP/export" --target "disk=disk:$W/disk" "${ASYNC_TARGET[@]}" \
  --out "$OUT" "$@"

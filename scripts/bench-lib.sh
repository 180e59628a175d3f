# Shared parts of the benchmark scripts (bench-atomic-untar.sh, bench-atomic-untar-big.sh, bench-bigfile.sh,
# bench-fuse-nfs.sh, bench-fuse-ls.sh, bench-light.sh, bench-lock-waits.sh, bench-spanning-heap.sh, bench-txn-ops.sh,
# bench-transfer.sh, count-flushes.sh):
# the common options, the build step, the jar paths, a tcnfs server and an NFS-Ganesha server started on a work
# directory and stopped on exit, and the source-tree archive. Sourced, not run:
#
#   . "$(dirname "$0")/bench-lib.sh"
#   while [ $# -gt 0 ]; do
#     case "$1" in
#       --files) FILES=$2; shift 2 ;;
#       *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
#     esac
#   done
#   bench_build server,cli
#   bench_workdir name                # WORK: a fresh directory under $DIR, removed on exit
#   bench_start_tcnfs "$WORK" "$WORK/server.log" -Xmx1g -- --metrics-port off
#   ... nfs://127.0.0.1:$TCNFS_PORT/ ...
#
# Variables it sets or reads: BENCH_ROOT (the repository), JAVA (default java), DIR (work directories; each script
# sets its default before sourcing or before parsing), BUILD (1; --no-build sets 0), SERVER_JAR, CLI_JAR,
# CLIENT_JAR, BENCH_JAR (jmh's, under target$TCNFS_BUILD_SUFFIX), BENCH_DATA_OPTIONS (the export options of
# bench_start_tcnfs, default rw,no_root_squash), TCNFS_PID/TCNFS_PORT/TCNFS_MPORT after bench_start_tcnfs,
# GANESHA_MINOR_VERSIONS (default 1; "0, 1" for NFSv4.0 clients) and GANESHA_PID/GANESHA_PORT after
# bench_start_ganesha. Extra cleanup: put commands in BENCH_CLEANUP_HOOKS (an array), run first on exit.

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$BENCH_ROOT/scripts/jit-options.sh"
JAVA=${JAVA:-java}
BUILD=${BUILD:-1}
SERVER_JAR=$BENCH_ROOT/server/target/tcnfs-server.jar
CLI_JAR=$BENCH_ROOT/cli/target/tcnfs-cli.jar
CLIENT_JAR=$BENCH_ROOT/client/target/tcnfs-client.jar
BENCH_JAR=$BENCH_ROOT/jmh/target${TCNFS_BUILD_SUFFIX:-}/benchmarks.jar
BENCH_DATA_OPTIONS=${BENCH_DATA_OPTIONS:-rw,no_root_squash}
GANESHA_MINOR_VERSIONS=${GANESHA_MINOR_VERSIONS:-1}
BENCH_PIDS=()
BENCH_DIRS=()
BENCH_CLEANUP_HOOKS=()

# bench_usage: the comment block at the top of the calling script, without the '#'.
bench_usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}

# bench_option ARGS...: handles one option every script takes (--dir DIR, --no-build, -h/--help) and sets
# BENCH_SHIFT to the number of arguments it used; any other argument ends the script with status 2.
bench_option() {
  case "$1" in
    --dir) DIR=$2; BENCH_SHIFT=2 ;;
    --no-build) BUILD=0; BENCH_SHIFT=1 ;;
    -h|--help) bench_usage; exit 0 ;;
    *) echo "$(basename "$0"): unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
}

# bench_build MODULES: packages MODULES (comma-separated, with what they need) without tests, offline first,
# unless --no-build was given.
bench_build() {
  [ "$BUILD" = 1 ] || return 0
  echo "building $1 ..." >&2
  (cd "$BENCH_ROOT" && { mvn -B -q -o package -DskipTests -pl "$1" -am \
      || mvn -B -q package -DskipTests -pl "$1" -am; })
}

# bench_require FILES...: ends the script when one is missing.
bench_require() {
  local f
  for f in "$@"; do
    [ -e "$f" ] || { echo "$(basename "$0"): $f is missing (run without --no-build)" >&2; exit 1; }
  done
}

# bench_cli_setup: for the scripts that time the CLI against one server (bench-bigfile.sh,
# bench-atomic-untar-big.sh): SERVER_JAR and CLIENT_JAR from TCNFS_SERVER_JAR and TCNFS_CLIENT_JAR when set (else
# the server's and the CLI's jars under */target), built unless --no-build, both checked; OUT made and absolute;
# WORK a fresh run-XXXXXX under $DIR.
bench_cli_setup() {
  SERVER_JAR=${TCNFS_SERVER_JAR:-$SERVER_JAR}
  CLIENT_JAR=${TCNFS_CLIENT_JAR:-$CLI_JAR}
  bench_build server,cli
  bench_require "$SERVER_JAR" "$CLIENT_JAR"
  mkdir -p "$OUT"
  OUT=$(cd "$OUT" && pwd)
  bench_workdir run
}

# bench_workdir NAME: sets WORK to a fresh directory NAME-XXXXXX under $DIR, removed on exit.
bench_workdir() {
  mkdir -p "$DIR"
  WORK=$(mktemp -d "$DIR/$1-XXXXXX")
  BENCH_DIRS+=("$WORK")
}

# bench_cleanup: runs the hooks, stops every server started here (TERM, then KILL after 20 s) and removes the
# work directories (kept, with the servers' logs, when BENCH_KEEP=1). Installed as the EXIT trap when this file is
# sourced.
bench_cleanup() {
  set +e
  local hook pid
  for hook in "${BENCH_CLEANUP_HOOKS[@]}"; do eval "$hook"; done
  for pid in "${BENCH_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${BENCH_PIDS[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  BENCH_PIDS=()
  if [ "${BENCH_KEEP:-0}" = 1 ]; then
    echo "kept: ${BENCH_DIRS[*]}" >&2
  else
    for pid in "${BENCH_DIRS[@]}"; do rm -rf "$pid"; done
  fi
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

# bench_start_tcnfs WORK LOG [JVM-OPTIONS...] [-- SERVER-OPTIONS...]: starts $SERVER_JAR on 127.0.0.1 with the
# export WORK/data (options $BENCH_DATA_OPTIONS: no root squash unless changed) and the state WORK/state, any free
# port and a metrics port (unless the server options turn it off), no grace period; waits until it serves and
# sets TCNFS_PID, TCNFS_PORT and TCNFS_MPORT (empty when the endpoints are off). Several servers: one WORK each,
# and SERVER_JAR (or BENCH_DATA_OPTIONS) set before each call.
bench_start_tcnfs() {
  local work=$1 log=$2; shift 2
  local jvm=() server=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do jvm+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  server=("$@")
  mkdir -p "$work/data" "$work/state"
  rm -f "$work/port" "$work/mport"
  local metrics=(--metrics-port 0 --metrics-port-file "$work/mport")
  case " ${server[*]} " in *" --metrics-port "*) metrics=() ;; esac
  # the JIT options of the README's run command and the docker image (jit-options.sh)
  # shellcheck disable=SC2207 # several options, split on spaces
  local jit=($(bench_jit_options))
  "$JAVA" "${jit[@]}" "${jvm[@]}" -jar "$SERVER_JAR" --bind 127.0.0.1 --port 0 --port-file "$work/port" --data "$work/data" \
    --state "$work/state" --grace 0 "${metrics[@]}" --data-options "$BENCH_DATA_OPTIONS" "${server[@]}" >"$log" 2>&1 &
  TCNFS_PID=$!
  BENCH_PIDS+=("$TCNFS_PID")
  for _ in $(seq 1 600); do
    [ -s "$work/port" ] && { [ ${#metrics[@]} = 0 ] || [ -s "$work/mport" ]; } && break
    kill -0 "$TCNFS_PID" 2>/dev/null || { echo "$(basename "$0"): the server exited (see $log)" >&2; exit 1; }
    sleep 0.1
  done
  [ -s "$work/port" ] || { echo "$(basename "$0"): the server did not start (see $log)" >&2; exit 1; }
  TCNFS_PORT=$(tr -d '[:space:]' <"$work/port")
  TCNFS_MPORT=
  [ ${#metrics[@]} = 0 ] || TCNFS_MPORT=$(tr -d '[:space:]' <"$work/mport")
}

# bench_start_ganesha WORK LOG: starts NFS-Ganesha (the Debian package, as in bench-ab.sh: NFSv4.1, or the minor
# versions $GANESHA_MINOR_VERSIONS; VFS FSAL) exporting WORK/ganesha-export as /export on 127.0.0.1 and a free
# port; waits until it accepts connections and sets GANESHA_PID and GANESHA_PORT. Needs root.
bench_start_ganesha() {
  local work=$1 log=$2
  [ -x /usr/bin/ganesha.nfsd ] || { echo "$(basename "$0"): /usr/bin/ganesha.nfsd missing (apt-get install nfs-ganesha nfs-ganesha-vfs)" >&2; exit 1; }
  mkdir -p "$work/ganesha-export" "$work/ganesha-recovery"
  GANESHA_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat >"$work/ganesha.conf" <<CONF
NFS_CORE_PARAM { NFS_Port = $GANESHA_PORT; Bind_addr = 127.0.0.1; Protocols = 4; Enable_NLM = false; Enable_RQUOTA = false; Enable_UDP = false; }
NFSV4 { Graceless = true; Minor_Versions = $GANESHA_MINOR_VERSIONS; RecoveryBackend = fs; RecoveryRoot = $work/ganesha-recovery; }
NFS_KRB5 { Active_krb5 = false; }
EXPORT { Export_Id = 77; Path = $work/ganesha-export; Pseudo = /export; Protocols = 4; Transports = TCP;
  Access_Type = RW; Squash = No_Root_Squash; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = EVENT; }
CONF
  /usr/bin/ganesha.nfsd -F -f "$work/ganesha.conf" -L "$log" -p "$work/ganesha.pid" -N NIV_EVENT \
    >"$log.out" 2>&1 &
  GANESHA_PID=$!
  BENCH_PIDS+=("$GANESHA_PID")
  for _ in $(seq 1 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$GANESHA_PORT") 2>/dev/null && return 0
    kill -0 "$GANESHA_PID" 2>/dev/null || { echo "$(basename "$0"): ganesha exited (see $log)" >&2; exit 1; }
    sleep 0.2
  done
  echo "$(basename "$0"): ganesha did not start (see $log)" >&2
  exit 1
}

# bench_cpu_ticks PID (or PID/task/TID, one thread): the process's (thread's) user + system CPU so far, in clock
# ticks (getconf CLK_TCK a second): fields 14 and 15 of /proc/PID/stat, counted after the command name (which may
# hold spaces and parentheses: JVM threads are named "C2 CompilerThre", "GC Thread#0", ...).
bench_cpu_ticks() {
  sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# bench_driver_rate FILE: the ops/s of the last row of the table the workload driver (Workloads) printed to FILE,
# for a run with one target; empty if there is none.
bench_driver_rate() {
  grep -h '^| [a-z]' "$1" | grep -v '^| workload' | tail -1 | awk -F'|' '{gsub(/ /, "", $4); print $4}'
}

# bench_step CSV ROUND TARGET STEP COMMAND...: runs COMMAND (standard output dropped, standard error to
# $OUT/err-TARGET-STEP-ROUND.txt) and appends ROUND,TARGET,STEP,SECONDS,rc=STATUS to CSV (and prints it).
bench_step() {
  local csv=$1 r=$2 t=$3 s=$4; shift 4
  local t0 t1 rc
  t0=$(date +%s.%N); "$@" > /dev/null 2> "$OUT/err-$t-$s-$r.txt"; rc=$?; t1=$(date +%s.%N)
  echo "$r,$t,$s,$(python3 -c "print(round($t1-$t0,2))"),rc=$rc" | tee -a "$csv"
}

# bench_make_tree_tar WORK FILES DIRS: WORK/tree.tar, a seeded tree of FILES files (1-16 KiB) in DIRS nested
# directories under tree/ (the same tree for the same arguments), for the unmodified-client benches.
bench_make_tree_tar() {
  local work=$1 files=$2 dirs=$3
  python3 - "$work/tree" "$files" "$dirs" <<'PY'
import os, random, sys
root, files, dirs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]); random.seed(16)
ds = [root]; os.makedirs(root)
for i in range(dirs):
    d = os.path.join(random.choice(ds), 'd%03d' % i); os.makedirs(d); ds.append(d)
for i in range(files):
    with open(os.path.join(random.choice(ds), 'f%04d.c' % i), 'wb') as f:
        f.write(os.urandom(random.randint(1024, 16384)))
PY
  tar -C "$work" -cf "$work/tree.tar" tree && rm -rf "$work/tree"
}

# bench_make_archive WORK FILES: WORK/archive.tar of a source-like tree: FILES files of 1-6 KiB of random bytes
# in 50 directories (src/pkgN/fileM.c), the same for a given FILES on every run.
bench_make_archive() {
  local work=$1 files=$2
  python3 - "$work/src" "$files" <<'PY'
import os, random, sys
root, files = sys.argv[1], int(sys.argv[2])
random.seed(1)
for i in range(files):
    d = os.path.join(root, "pkg%d" % (i % 50))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "file%d.c" % i), "wb") as f:
        f.write(os.urandom(random.randint(1024, 6144)))
PY
  tar cf "$work/archive.tar" -C "$work" src
  rm -rf "$work/src"
}

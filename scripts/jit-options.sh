# Sourced by the benchmark scripts (bench-lib.sh, bench.sh, bench-ab.sh): the JIT options every tcnfs server they
# start gets, the same as the README's run command and the docker image's JDK_JAVA_OPTIONS (README, "Running the
# server"), so that a benchmark measures the server the way an operator runs it.
# TCNFS_JIT_OPTS overrides them; set and empty (TCNFS_JIT_OPTS=) leaves them out.
bench_jit_options() {
  echo "${TCNFS_JIT_OPTS--XX:PerMethodTrapLimit=0}"
}

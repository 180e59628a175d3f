package org.tcnfs.jmh.workload;

import java.util.Objects;

/**
 * One measured run: a workload with one parameter setting against one target.
 *
 * @param workload the workload ("writefiles", "macro-untar", ...)
 * @param parameter the setting, as text ("size=4K clients=8 k=16")
 * @param target the target's name
 * @param ops items done (files written or read, entries listed, paths removed ...)
 * @param bytes data bytes moved
 * @param seconds wall time from the common start of all clients to the end of the last one
 * @param error empty when the run succeeded, else why it did not (then the numbers are not meaningful)
 */
record Result(String workload, String parameter, String target, long ops, long bytes, double seconds,
        String error) {
    Result {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(error, "error");
        if (ops < 0 || bytes < 0 || seconds < 0 || Double.isNaN(seconds)) {
            throw new IllegalArgumentException("ops " + ops + ", bytes " + bytes + ", seconds " + seconds);
        }
    }

    /** A run that failed. */
    static Result failed(String workload, String parameter, String target, String error) {
        return new Result(workload, parameter, target, 0, 0, 0, error.isEmpty() ? "failed" : error);
    }

    boolean ok() {
        return error.isEmpty();
    }

    /** Items per second, NaN for a failed or empty run. */
    double opsPerSecond() {
        return ok() && seconds > 0 ? ops / seconds : Double.NaN;
    }

    /** MiB per second, NaN for a failed or empty run. */
    double mibPerSecond() {
        return ok() && seconds > 0 ? bytes / seconds / (1024.0 * 1024.0) : Double.NaN;
    }
}

/**
 * The end-to-end workload driver (issue 6): {@link org.tcnfs.jmh.workload.Workloads} runs file workloads
 * (writefiles, readfiles, compounding degree, shared files, a source-tree macro benchmark, the largest transaction
 * "bigtxn") against several
 * {@link org.tcnfs.jmh.workload.Target}s in one run — any NFSv4.1 server through the vectorized client, with or
 * without transactions, and the local disk with fsync as the physical limit — and writes CSV, a markdown table of
 * ratios and PNG plots; with a server's metrics endpoint, {@link org.tcnfs.jmh.workload.HeapSampler} records that
 * server's peak heap per run (a sampling thread of its own).
 *
 * <p>Threading: each simulated client runs on its own thread with its own {@link
 * org.tcnfs.jmh.workload.FsSession} (for NFS targets its own connection and session); nothing else is shared
 * but the progress bar. Exceptions: a failed item or transport error ends the measured run with an
 * {@link java.io.IOException}; the driver records it in the row's status and goes on with the next run.
 */
package org.tcnfs.jmh.workload;

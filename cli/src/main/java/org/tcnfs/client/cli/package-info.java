/**
 * The {@code tcnfs} command line (picocli): {@link org.tcnfs.client.cli.TcnfsCli} and one class per
 * subcommand (put, get, ls, stat, mkdir, rm, mv, cp, untar, apply), on the vectorized client of
 * {@code org.tcnfs.client.vector}; plain transfers (put, get, cp, untar) go through {@link
 * org.tcnfs.client.cli.Transfers}, which streams large files ({@code org.tcnfs.client.stream}) and batches small
 * ones. Remote files are URLs {@code nfs://host[:port]/path}.
 *
 * <p>Exit codes ({@link org.tcnfs.client.cli.ExitCode}): 0 success, 1 an NFS operation failed, 2 usage,
 * 3 connection or RPC failure, 4 the server has no transactions, 5 a transaction too large for the session,
 * 6 a local file error. Errors are one line on standard error, without stack traces.
 *
 * <p>Threading: one command per process, on one thread, but for the pool threads of a streamed file (which
 * also feed the progress bar). Exceptions: commands throw {@link
 * org.tcnfs.client.cli.CliException} (carrying the exit code) or {@link java.io.IOException}s, which {@link
 * org.tcnfs.client.cli.TcnfsCli} turns into a message and an exit code.
 */
package org.tcnfs.client.cli;

/**
 * JMH micro benchmarks of the transaction layer (issue 6, item 1): the lock manager, the LMDB handle table,
 * recovery records, FICLONERANGE against copying, and undo. Build with {@code mvn -B package -pl jmh -am
 * -DskipTests} and run {@code java -jar jmh/target/benchmarks.jar}; benchmarks that touch files take the
 * directory from the system property {@value org.tcnfs.jmh.BenchDirs#PROPERTY} (for instance a reflink XFS
 * mount), else the temporary directory. docs/benchmarks.md has the commands and the latest numbers.
 *
 * <p>Each benchmark's state is per trial and thread as JMH arranges; nothing here is used by the server.
 */
package org.tcnfs.jmh;

package org.tcnfs.txn.backup;

/**
 * One thing a {@link BackupManager} did before a mutation, described fully enough to undo the mutation
 * later, in this process or in recovery after a crash: the transaction layer stores these in its recovery
 * record. Paths are absolute.
 */
public sealed interface Backup permits RangeBackup, MovedAside {
}

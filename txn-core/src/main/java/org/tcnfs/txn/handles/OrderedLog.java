package org.tcnfs.txn.handles;

import java.util.Objects;

/**
 * A file system that makes its metadata changes durable in the order they were made, through one log, so that the
 * fsync of the object of a compound's last change of directory entries makes every earlier change of entries on that
 * file system durable too: a compound then needs one such fsync instead of one per directory it changed
 * ({@link TxnBuffer#syncPending}, docs/durability.md "One log force per compound").
 *
 * <p>Where it holds (read in the kernel sources, Linux 6.x): XFS. {@code xfs_dir_fsync} and {@code xfs_file_fsync}
 * call {@code xfs_log_force_inode} / {@code xfs_fsync_flush_log}, which force the log up to {@code ili_commit_seq},
 * the checkpoint sequence of the inode's last logged change, while the inode is pinned (its last change not yet on
 * disk), and do nothing when it is not (its last change, and so every earlier checkpoint, is on disk already);
 * {@code xfs_log_force_seq} forces that checkpoint and every earlier one, and checkpoints complete (unpin) in
 * sequence order ({@code xlog_state_do_callback}). One directory operation is one transaction that logs the
 * directory and the object it names ({@code xfs_create}, {@code xfs_link}, {@code xfs_remove}, {@code xfs_rename}).
 * Not assumed anywhere else: ext4 with {@code fast_commit} logs only one inode's own changes in a fast commit (and
 * whether it is off cannot be read without the device here), tmpfs and FUSE have no log, btrfs and NFS are left out.
 *
 * <p>One instance per export (and file system): syncs of two instances are never taken for one another. Immutable.
 */
public final class OrderedLog {
    private final String name;

    /** An ordered log named {@code name} (for messages: the export and its file system type). */
    public OrderedLog(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return "ordered log of " + name;
    }
}

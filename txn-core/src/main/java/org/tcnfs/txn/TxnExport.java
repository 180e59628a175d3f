package org.tcnfs.txn;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Objects;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.txn.backup.BackupStore;

/**
 * One export as the transaction layer sees it.
 *
 * @param exportId the export's id in the handle table
 * @param fs the export's own file system (not a pseudo file system around it)
 * @param root its local root directory
 * @param backups its backup area (on its file system, hidden from clients)
 * @param atPseudoRoot whether the export is the root of the NFS name space (PUTROOTFH reaches it: the
 *     server's single default export); a transactional compound on another export starts with PUTFH
 * @param policy the {@code txn=} policy for a client address
 */
public record TxnExport(String exportId, VirtualFileSystem fs, Path root, BackupStore backups, boolean atPseudoRoot,
        Policy policy) {

    /** The {@code txn=} policy a client gets on this export (from its matching export rule). */
    @FunctionalInterface
    public interface Policy {
        TxnPolicy forClient(InetAddress client);
    }

    public TxnExport {
        Objects.requireNonNull(exportId, "exportId");
        Objects.requireNonNull(fs, "fs");
        root = Objects.requireNonNull(root, "root").toAbsolutePath();
        Objects.requireNonNull(backups, "backups");
        Objects.requireNonNull(policy, "policy");
    }
}

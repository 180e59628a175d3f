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
 * @param pseudoPath where the export sits in the NFS name space ("/a/b"; "/" at its root), or "" if not known:
 *     a compound that reaches it from PUTROOTFH by LOOKUPs then locks only this export
 */
public record TxnExport(String exportId, VirtualFileSystem fs, Path root, BackupStore backups, boolean atPseudoRoot,
        Policy policy, String pseudoPath) {

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
        Objects.requireNonNull(pseudoPath, "pseudoPath");
        if (!pseudoPath.isEmpty() && !pseudoPath.startsWith("/")) {
            throw new IllegalArgumentException("pseudo path must be absolute: " + pseudoPath);
        }
    }

    /** An export whose place in the name space is "/" if it is at the root, else not known. */
    public TxnExport(String exportId, VirtualFileSystem fs, Path root, BackupStore backups, boolean atPseudoRoot,
            Policy policy) {
        this(exportId, fs, root, backups, atPseudoRoot, policy, atPseudoRoot ? "/" : "");
    }

    /** The names from the root of the name space to the export, if known. */
    public java.util.Optional<java.util.List<String>> pseudoComponents() {
        if (pseudoPath.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(java.util.Arrays.stream(pseudoPath.split("/")).filter(c -> !c.isEmpty())
                .toList());
    }
}

package org.tcnfs.client.cli;

import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRemove;
import org.tcnfs.client.vector.VRename;
import org.tcnfs.client.vector.VSetattr;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.WriteFlag;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * Items of a transaction in the words of a person, for error messages: the operation and its path(s) from the
 * server's root, modes in octal ({@code mkdir /home/alice (mode 700)}), never a record's {@code toString}.
 */
final class Labels {
    private Labels() {
    }

    /** {@code item} as an operation and its paths. */
    static String of(TxnItem item) {
        if (item instanceof VWrite w) {
            String verb = w.flags().contains(WriteFlag.APPEND) ? "append to"
                    : w.flags().contains(WriteFlag.EXCLUSIVE) ? "create" : "write";
            return verb + " " + abs(w.path());
        } else if (item instanceof org.tcnfs.client.vector.VWriteFrom w) {
            return "write " + abs(w.path());
        } else if (item instanceof VMkdir m) {
            return "mkdir " + abs(m.path()) + " (mode " + Integer.toOctalString(m.mode()) + ")";
        } else if (item instanceof VRename r) {
            return "rename " + abs(r.from()) + " to " + abs(r.to());
        } else if (item instanceof VRemove r) {
            return "remove " + abs(r.path());
        } else if (item instanceof VSymlink l) {
            return "symlink " + abs(l.path()) + " -> " + l.target();
        } else if (item instanceof VLink l) {
            return "link " + abs(l.existing()) + " as " + abs(l.newPath());
        } else if (item instanceof VSetattr a) {
            if (a.mode().isPresent() && a.size().isEmpty()) {
                return "chmod " + Integer.toOctalString(a.mode().getAsInt()) + " " + abs(a.path());
            }
            if (a.size().isPresent() && a.mode().isEmpty()) {
                return "truncate " + abs(a.path()) + " to " + a.size().getAsLong() + " bytes";
            }
            return "set attributes of " + abs(a.path());
        }
        throw new IllegalArgumentException("unknown item kind " + item.getClass().getSimpleName());
    }

    /** Plain words for the statuses people meet most; the RFC name follows in parentheses. */
    private static final java.util.Map<NfsStatus, String> PLAIN = java.util.Map.ofEntries(
            java.util.Map.entry(NfsStatus.NOENT, "no such file or directory"),
            java.util.Map.entry(NfsStatus.ACCESS, "permission denied"),
            java.util.Map.entry(NfsStatus.PERM, "operation not permitted"),
            java.util.Map.entry(NfsStatus.EXIST, "already exists"),
            java.util.Map.entry(NfsStatus.NOTDIR, "not a directory"),
            java.util.Map.entry(NfsStatus.ISDIR, "is a directory"),
            java.util.Map.entry(NfsStatus.NOTEMPTY, "directory not empty"),
            java.util.Map.entry(NfsStatus.NOSPC, "no space left"),
            java.util.Map.entry(NfsStatus.DQUOT, "quota exceeded"),
            java.util.Map.entry(NfsStatus.ROFS, "read-only export"),
            java.util.Map.entry(NfsStatus.NAMETOOLONG, "name too long"),
            java.util.Map.entry(NfsStatus.FBIG, "file too large"),
            java.util.Map.entry(NfsStatus.STALE, "stale file handle"),
            java.util.Map.entry(NfsStatus.NOT_SAME, "changed meanwhile"),
            java.util.Map.entry(NfsStatus.GRACE, "the server is in its grace period after a restart"),
            java.util.Map.entry(NfsStatus.DELAY, "the server is busy"));

    /** {@code status} in plain words where there are some, with its RFC name: "no such file or directory (NFS4ERR_NOENT)". */
    static String of(NfsStatus status) {
        String plain = PLAIN.get(status);
        return plain == null ? String.valueOf(status) : plain + " (" + status + ")";
    }

    private static String abs(String path) {
        return "/" + path;
    }
}

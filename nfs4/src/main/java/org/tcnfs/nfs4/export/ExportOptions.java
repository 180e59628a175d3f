package org.tcnfs.nfs4.export;

import java.util.Objects;
import java.util.Set;
import org.tcnfs.nfs4.vfs.Credential;

/**
 * What one client may do with one export: the options of an {@code /etc/exports} entry.
 *
 * @param access whether the client may change anything
 * @param squash which callers are mapped to the anonymous identity
 * @param anonUid the uid squashed callers get (exports option {@code anonuid}, default 65534)
 * @param anonGid the gid squashed callers get (exports option {@code anongid}, default 65534)
 * @param security the RPC security flavors accepted (only {@link SecurityFlavor#SYS} exists)
 * @param txn when compounds on this export run as transactions (tcnfs option {@code txn=})
 * @param async whether plain compounds may reply before their name changes are durable ({@code async}; the
 *     default {@code sync} makes them durable first; docs/durability.md, "The async export option")
 */
public record ExportOptions(Access access, Squash squash, int anonUid, int anonGid, Set<SecurityFlavor> security,
        TxnPolicy txn, boolean async) {

    /** The anonymous uid and gid when none is given (the traditional {@code nobody}). */
    public static final int NOBODY = 65534;

    /**
     * The defaults of {@code exports(5)}: read-only, root squashed to 65534:65534, {@code sec=sys}, and
     * transactions when the client asks ({@code txn=request}).
     */
    public static final ExportOptions DEFAULTS = new ExportOptions(Access.READ_ONLY, Squash.ROOT_SQUASH, NOBODY,
            NOBODY, Set.of(SecurityFlavor.SYS), TxnPolicy.REQUEST);

    /**
     * The options of a server's single default export (no exports file): read-write, root squashed as
     * {@code exports(5)} and knfsd do, so a remote root cannot create device nodes or set-uid-root files.
     */
    public static final ExportOptions DEFAULT_EXPORT = DEFAULTS.withAccess(Access.READ_WRITE);

    /**
     * Read-write, no root squashing: for tests and trusted networks only (a client's root acts as root on
     * the export, device nodes and set-uid-root files included).
     */
    public static final ExportOptions TRUSTED = DEFAULTS.withAccess(Access.READ_WRITE)
            .withSquash(Squash.NO_ROOT_SQUASH);

    /** Read-only or read-write ({@code ro} / {@code rw}). */
    public enum Access {
        READ_WRITE,
        READ_ONLY
    }

    /** Identity mapping ({@code root_squash} / {@code no_root_squash} / {@code all_squash}). */
    public enum Squash {
        /** uid 0 becomes the anonymous uid and gid 0 (primary or supplementary) the anonymous gid. */
        ROOT_SQUASH,
        /** Everyone keeps their identity, root included. */
        NO_ROOT_SQUASH,
        /** Everyone becomes the anonymous uid and gid, without supplementary groups. */
        ALL_SQUASH
    }

    /** RPC security flavors ({@code sec=}); tcnfs speaks AUTH_SYS only. */
    public enum SecurityFlavor {
        /** {@code AUTH_SYS} ({@code sec=sys}). */
        SYS
    }

    /** When a compound on the export runs as a transaction (DESIGN.md, "How a client asks"). */
    public enum TxnPolicy {
        /** Only when the client sets the transaction flag on the procedure number. */
        REQUEST,
        /** Every compound that changes something. */
        ALWAYS,
        /** Never; a compound with the flag is refused with NFS4ERR_NOTSUPP. */
        NEVER
    }

    /** Options of a {@code sync} export (the default). */
    public ExportOptions(Access access, Squash squash, int anonUid, int anonGid, Set<SecurityFlavor> security,
            TxnPolicy txn) {
        this(access, squash, anonUid, anonGid, security, txn, false);
    }

    public ExportOptions {
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(squash, "squash");
        Objects.requireNonNull(txn, "txn");
        security = Set.copyOf(security);
        if (security.isEmpty()) {
            throw new IllegalArgumentException("at least one security flavor is needed");
        }
    }

    /** Whether changes are refused ({@code ro}). */
    public boolean isReadOnly() {
        return access == Access.READ_ONLY;
    }

    /** The identity {@code caller} acts with on this export after squashing. */
    public Credential squash(Credential caller) {
        return switch (squash) {
            case NO_ROOT_SQUASH -> caller;
            case ALL_SQUASH -> new Credential(anonUid, anonGid, new int[0]);
            case ROOT_SQUASH -> squashRoot(caller);
        };
    }

    private Credential squashRoot(Credential caller) {
        int[] groups = caller.groups();
        boolean changed = false;
        for (int i = 0; i < groups.length; i++) {
            if (groups[i] == 0) {
                groups[i] = anonGid;
                changed = true;
            }
        }
        int uid = caller.uid() == 0 ? anonUid : caller.uid();
        int gid = caller.uid() == 0 || caller.gid() == 0 ? anonGid : caller.gid();
        if (!changed && uid == caller.uid() && gid == caller.gid()) {
            return caller;
        }
        return new Credential(uid, gid, groups);
    }

    public ExportOptions withAccess(Access newAccess) {
        return new ExportOptions(newAccess, squash, anonUid, anonGid, security, txn, async);
    }

    public ExportOptions withSquash(Squash newSquash) {
        return new ExportOptions(access, newSquash, anonUid, anonGid, security, txn, async);
    }

    public ExportOptions withAnonymous(int newAnonUid, int newAnonGid) {
        return new ExportOptions(access, squash, newAnonUid, newAnonGid, security, txn, async);
    }

    public ExportOptions withTxn(TxnPolicy newTxn) {
        return new ExportOptions(access, squash, anonUid, anonGid, security, newTxn, async);
    }

    /** These options with {@code async} ({@code true}) or {@code sync} ({@code false}). */
    public ExportOptions withAsync(boolean newAsync) {
        return new ExportOptions(access, squash, anonUid, anonGid, security, txn, newAsync);
    }
}

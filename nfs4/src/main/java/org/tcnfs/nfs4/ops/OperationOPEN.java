package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.state.ShareMode;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.AccessException;
import org.tcnfs.nfs4.status.BadXdrException;
import org.tcnfs.nfs4.status.ExistException;
import org.tcnfs.nfs4.status.GraceException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.status.NoGraceException;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.status.ReclaimBadException;
import org.tcnfs.nfs4.status.SymlinkException;
import org.tcnfs.nfs4.vfs.AccessRight;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.change_info4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.open_claim_type4;
import org.tcnfs.nfs4.xdr.open_delegation4;
import org.tcnfs.nfs4.xdr.opentype4;
import org.tcnfs.nfs4.xdr.why_no_delegation4;

/**
 * OPEN (RFC 8881 18.16): opens, and maybe creates, a regular file for an open owner with a share
 * reservation; the file becomes the current file handle and the open stateid the current stateid.
 *
 * <p>Claims: CLAIM_NULL (a name in the current directory, checked by {@link Names}), CLAIM_FH (the current
 * file handle), CLAIM_PREVIOUS (a reclaim: NFS4ERR_NO_GRACE outside the client's grace, else
 * NFS4ERR_RECLAIM_BAD, as no open survives a restart yet); the delegation claims are NFS4ERR_NOTSUPP.
 * During the grace period every other claim is NFS4ERR_GRACE.
 *
 * <p>Creation: UNCHECKED4 creates a missing file with the create attributes and truncates an existing one
 * when they hold size 0 (other attributes of an existing file are left alone); GUARDED4 answers
 * NFS4ERR_EXIST for an existing name; EXCLUSIVE4 and EXCLUSIVE4_1 keep the verifier in the new file's
 * access and modify times (seconds from the verifier's first and last four bytes) and answer a
 * retransmission, a file whose times hold the same verifier, as a success; EXCLUSIVE4_1 also applies
 * {@code cva_attrs}, which must be within {@code suppattr_exclcreat} (else NFS4ERR_INVAL). {@code attrset}
 * names the attributes set: the create attributes, plus time_access and time_modify for the exclusive modes
 * (the client then sets the times it wants), or size for a truncation. The mode defaults to
 * {@value #DEFAULT_FILE_MODE}; the owner is the caller. If the attributes cannot be applied to a new file it
 * is removed again.
 *
 * <p>The object must be a regular file: a directory is NFS4ERR_ISDIR, anything else NFS4ERR_SYMLINK (RFC
 * 8881 18.16.4: the client cannot know the type before the OPEN). Access: READ needs read (or execute)
 * permission, WRITE and truncation need modify permission; the OPEN that creates a file needs neither, so
 * a creator may write a file whose mode forbids it. Share conflicts with other open owners are
 * NFS4ERR_SHARE_DENIED; a second OPEN of the same owner upgrades its open (a new seqid). Truncation happens
 * only once the open is known to be grantable. {@code cinfo} is the directory's change attribute before and
 * after (not atomic when a file was created); results carry OPEN4_RESULT_LOCKTYPE_POSIX and no delegation
 * ({@link #noDelegation} answers the client's delegation wish). An NFSv4.1 client must have sent
 * RECLAIM_COMPLETE before a non-reclaim OPEN (else NFS4ERR_GRACE, RFC 8881 18.51.3).
 *
 * <p>NFSv4.0 (RFC 7530 16.16) differs in the client (the open owner's), the open owner's seqid and
 * OPEN4_RESULT_CONFIRM; see {@link #processNfs40}.
 */
public final class OperationOPEN implements NfsOperation {
    /** Mode of a file created without one. */
    static final int DEFAULT_FILE_MODE = 0644;

    /** The NFSv4.1 delegation wishes that may accompany the access bits. */
    private static final int WANT_BITS = OPEN4args.OPEN4_SHARE_ACCESS_WANT_DELEG_MASK
            | OPEN4args.OPEN4_SHARE_ACCESS_WANT_SIGNAL_DELEG_WHEN_RESRC_AVAIL
            | OPEN4args.OPEN4_SHARE_ACCESS_WANT_PUSH_DELEG_WHEN_UNCONTENDED;
    private static final int[] VERIFIER_ATTRS = Bitmaps.words(nfs4_attr.FATTR4_TIME_ACCESS,
            nfs4_attr.FATTR4_TIME_MODIFY);

    /** What the open found or made: the file, its directory's change info, what it set, what it runs last. */
    private record Opened(Inode file, change_info4 cinfo, int[] attrset, OpenStateTable.OpenAction beforeGrant) {
    }

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        OPEN4args args = (OPEN4args) op.args;
        if (context.minorVersion() == 0) {
            processNfs40(context, args, result);
            return;
        }
        Inode current = context.currentInode();
        NfsClient client = OpenStateTable.clientOf(context);
        ShareMode share = ShareMode.of(args.share_access & ~WANT_BITS, args.share_deny);
        StateId stateId = open(context, args, current, client, share, result);
        context.setCurrentStateId(stateId);
    }

    /**
     * NFSv4.0 (RFC 7530 16.16): the client is the open owner's (NFS4ERR_STALE_CLIENTID, NFS4ERR_EXPIRED),
     * whose lease this renews; the OPEN runs in sequence with the open owner's seqid, so a retransmission
     * gets the reply (and the current file handle) of the original. An owner that has not been confirmed
     * yet gets OPEN4_RESULT_CONFIRM. The NFSv4.1 claims (CLAIM_FH and the delegation handle claims) and
     * EXCLUSIVE4_1 do not exist in NFSv4.0 (NFS4ERR_BADXDR), nor do delegation wishes in the share access
     * (NFS4ERR_INVAL).
     */
    private static void processNfs40(CompoundContext context, OPEN4args args, nfs_resop4 result) throws IOException {
        Inode current = context.currentInode();
        StateHandler state = context.server().state();
        NfsClient client = state.renewNfs40(args.owner.clientid);
        OwnerSequence owner = state.opens().openOwner(client, args.owner.owner);
        owner.run(context, args.seqid, nfs_opnum4.OP_OPEN, result, () -> {
            if (args.claim.claim > open_claim_type4.CLAIM_DELEGATE_PREV) {
                throw new BadXdrException("claim type " + args.claim.claim + " is not one of NFSv4.0");
            }
            if (args.openhow.opentype == opentype4.OPEN4_CREATE && args.openhow.how.mode == createmode4.EXCLUSIVE4_1) {
                throw new BadXdrException("EXCLUSIVE4_1 is not an NFSv4.0 create mode");
            }
            ShareMode share = ShareMode.of(args.share_access, args.share_deny);
            open(context, args, current, client, share, result);
            if (!owner.isConfirmed()) {
                ((OPEN4resok) result.body).rflags |= OPEN4resok.OPEN4_RESULT_CONFIRM;
            }
        });
    }

    /**
     * Opens the file {@code args} claim for {@code client} with {@code share}: it becomes the current file
     * handle and the result; returns the open stateid.
     */
    private static StateId open(CompoundContext context, OPEN4args args, Inode current, NfsClient client,
            ShareMode share, nfs_resop4 result) throws IOException {
        StateHandler state = context.server().state();
        Opened opened = switch (args.claim.claim) {
            case open_claim_type4.CLAIM_NULL -> {
                requireNoGrace(context, state, client);
                yield openByName(context, current, Names.checkComponent(args.claim.file), args.openhow.how,
                        args.openhow.opentype == opentype4.OPEN4_CREATE, share);
            }
            case open_claim_type4.CLAIM_FH -> {
                requireNoGrace(context, state, client);
                yield openExisting(context, current, creation(args), share, new change_info4(false, 0, 0));
            }
            case open_claim_type4.CLAIM_PREVIOUS -> {
                if (!state.canReclaim(client)) {
                    throw new NoGraceException("reclaims are accepted only during the client's grace period");
                }
                throw new ReclaimBadException("no open of the previous server instance can be reclaimed");
            }
            case open_claim_type4.CLAIM_DELEGATE_CUR, open_claim_type4.CLAIM_DELEGATE_PREV,
                    open_claim_type4.CLAIM_DELEG_CUR_FH, open_claim_type4.CLAIM_DELEG_PREV_FH ->
                    throw new NotSuppException("no delegations are granted, so none can be claimed");
            default -> throw new InvalException("unknown claim type " + args.claim.claim);
        };

        StateId stateId = state.opens().open(client, args.owner.owner, opened.file(), share, opened.beforeGrant());
        context.setCurrentInode(opened.file());
        result.body = new OPEN4resok(stateId.toWire(), opened.cinfo(), OPEN4resok.OPEN4_RESULT_LOCKTYPE_POSIX,
                new bitmap4(Bitmaps.trim(opened.attrset())), noDelegation(args.share_access));
        return stateId;
    }

    /**
     * The answer to the delegation wish in {@code shareAccess} (RFC 8881 18.16.3, 10.4.1), as no delegation
     * is ever granted: without a wish (always so in NFSv4.0) OPEN_DELEGATE_NONE; with one,
     * OPEN_DELEGATE_NONE_EXT and its reason: WND4_NOT_WANTED for OPEN4_SHARE_ACCESS_WANT_NO_DELEG,
     * WND4_CANCELLED for OPEN4_SHARE_ACCESS_WANT_CANCEL, and WND4_RESOURCE (with no promise to signal) for a
     * wish for a read, write or any delegation. An undefined wish counts as no preference.
     */
    static open_delegation4 noDelegation(int shareAccess) {
        return switch (shareAccess & OPEN4args.OPEN4_SHARE_ACCESS_WANT_DELEG_MASK) {
            case OPEN4args.OPEN4_SHARE_ACCESS_WANT_NO_DELEG -> open_delegation4.noneBecause(why_no_delegation4.WND4_NOT_WANTED);
            case OPEN4args.OPEN4_SHARE_ACCESS_WANT_CANCEL -> open_delegation4.noneBecause(why_no_delegation4.WND4_CANCELLED);
            case OPEN4args.OPEN4_SHARE_ACCESS_WANT_READ_DELEG, OPEN4args.OPEN4_SHARE_ACCESS_WANT_WRITE_DELEG,
                    OPEN4args.OPEN4_SHARE_ACCESS_WANT_ANY_DELEG ->
                    open_delegation4.noneBecause(why_no_delegation4.WND4_RESOURCE);
            default -> open_delegation4.none();
        };
    }

    /**
     * A non-reclaim OPEN may not run during the grace period, nor (NFSv4.1, RFC 8881 18.51.3) before its
     * client sent RECLAIM_COMPLETE: both are NFS4ERR_GRACE.
     */
    private static void requireNoGrace(CompoundContext context, StateHandler state, NfsClient client)
            throws GraceException {
        if (state.inGrace()) {
            throw new GraceException("only reclaims are accepted during the grace period");
        }
        if (context.minorVersion() >= 1 && !client.reclaimComplete()) {
            throw new GraceException("client " + client + " has not sent RECLAIM_COMPLETE");
        }
    }

    /** The createhow4 when the OPEN asks to create, else {@code null}. */
    private static createhow4 creation(OPEN4args args) {
        return args.openhow.opentype == opentype4.OPEN4_CREATE ? args.openhow.how : null;
    }

    /** CLAIM_NULL: looks {@code name} up in {@code dir}, creating it as {@code how} says. */
    private static Opened openByName(CompoundContext context, Inode dir, String name, createhow4 how,
            boolean create, ShareMode share) throws IOException {
        VirtualFileSystem fs = context.fs();
        if (!create) {
            Directories.requireDirectory(fs, dir);
            Inode file = fs.lookup(dir, name);
            return openExisting(context, file, null, share, unchanged(fs, dir));
        }
        SetAttributes attrs;
        Inode existing;
        long before;
        VirtualFileSystem.Created created = null;
        // nothing changes until the create itself, under the compound's locks: its reads share one stretch of the
        // compound's scope, in which the file system resolves the directory once for the type, the name's lookup, the
        // change attribute before and the create (it used to resolve it for each); the one before this operation
        // when the engine offers it (a plain compound: the directory its LOOKUP chain found, as for REMOVE); the file
        // system ends the stretch at the create and reads the change attribute after it again
        CompoundScope.continueOffered();
        try {
            Directories.requireDirectory(fs, dir);
            attrs = createAttributes(context, how);
            existing = lookupOrNull(fs, dir, name);
            before = existing == null ? Directories.change(fs, dir) : 0;
            if (existing == null) {
                created = createFile(context, dir, name, how, attrs);
            }
        } catch (ExistException raced) {
            if (how.mode == createmode4.GUARDED4) {
                throw raced;
            }
            // another request created the name in between: treat it like an existing file
            CompoundScope.beginChange();
            return openExisting(context, fs.lookup(dir, name), how, share, unchanged(fs, dir));
        } finally {
            if (created == null) {
                // a create ended (or, confined to what it revised, suspended) the stretch itself (createThenChange):
                // the engine may resume it after this operation
                CompoundScope.beginChange();
            }
        }
        if (created != null) {
            return new Opened(created.inode(), new change_info4(false, before, created.change()), createdAttrs(how),
                    OpenStateTable.NOTHING);
        }
        return openExisting(context, existing, how, share, unchanged(fs, dir));
    }

    /**
     * An OPEN of a file that exists already: through its name (then {@code how} decides about truncation,
     * GUARDED4 and exclusive retransmissions) or through CLAIM_FH.
     */
    private static Opened openExisting(CompoundContext context, Inode file, createhow4 how, ShareMode share,
            change_info4 cinfo) throws IOException {
        VirtualFileSystem fs = context.fs();
        Stat stat = fs.getattr(file);
        if (how != null && how.mode == createmode4.GUARDED4) {
            throw new ExistException("the name exists (GUARDED4)");
        }
        if (how != null && (how.mode == createmode4.EXCLUSIVE4 || how.mode == createmode4.EXCLUSIVE4_1)) {
            if (stat.type() != FileType.REGULAR || !holdsVerifier(stat, verifierOf(how))) {
                throw new ExistException("the name exists and does not hold this exclusive create's verifier");
            }
            // a retransmission of the exclusive create that made this file: answer as that one did
            return new Opened(file, cinfo, createdAttrs(how), OpenStateTable.NOTHING);
        }
        requireRegular(stat);
        boolean truncate = how != null && Long.valueOf(0).equals(createAttributes(context, how).size());
        checkAccess(fs, file, share, truncate);
        if (truncate) {
            return new Opened(file, cinfo, Bitmaps.words(nfs4_attr.FATTR4_SIZE),
                    () -> fs.setattr(file, SetAttributes.NONE.withSize(0L)));
        }
        return new Opened(file, cinfo, new int[0], OpenStateTable.NOTHING);
    }

    /**
     * Creates the file as {@code how} says, with the verifier or the attributes (removes it on failure); with the
     * directory's change attribute after. Called in a stretch of the compound's scope: the create ends it.
     */
    private static VirtualFileSystem.Created createFile(CompoundContext context, Inode dir, String name,
            createhow4 how, SetAttributes attrs) throws IOException {
        VirtualFileSystem fs = context.fs();
        int mode = attrs.mode() != null ? attrs.mode() : DEFAULT_FILE_MODE;
        SetAttributes rest = attrs.withMode(null);
        if (how.mode == createmode4.EXCLUSIVE4 || how.mode == createmode4.EXCLUSIVE4_1) {
            byte[] verifier = verifierOf(how);
            rest = rest.withTimes(TimeChange.at(Instant.ofEpochSecond(word(verifier, 0))),
                    TimeChange.at(Instant.ofEpochSecond(word(verifier, 4))));
        }
        if (rest.uid() == null && rest.gid() == null && (rest.size() == null || rest.size() == 0)) {
            // mode and times only (a new file's size is 0 already): the file system sets them as it creates the
            // file, in one step where it creates atomically (the light path of transactions relies on it)
            return fs.createThenChange(dir, name, context.credential(), mode, rest.atime(), rest.mtime());
        }
        CompoundScope.beginChange();
        Inode created = fs.create(dir, name, context.credential(), mode);
        Directories.setattrOrRemove(fs, dir, name, created, rest, "OPEN");
        return new VirtualFileSystem.Created(created, Directories.change(fs, dir));
    }

    /** The create attributes of {@code how}; an empty mask is no change and needs no attribute codec. */
    private static SetAttributes createAttributes(CompoundContext context, createhow4 how) throws IOException {
        fattr4 attrs = switch (how.mode) {
            case createmode4.UNCHECKED4, createmode4.GUARDED4 -> how.createattrs;
            case createmode4.EXCLUSIVE4_1 -> how.ch_createboth.cva_attrs;
            default -> null;
        };
        if (attrs == null || Bitmaps.isEmpty(attrs.attrmask)) {
            return SetAttributes.NONE;
        }
        if (how.mode == createmode4.EXCLUSIVE4_1) {
            int[] allowed = FileAttributes.exclusiveCreateSupported().value;
            for (int n : Bitmaps.toNumbers(attrs.attrmask)) {
                if (!Bitmaps.isSet(allowed, n)) {
                    throw new InvalException("attribute " + n + " cannot be set by an exclusive create");
                }
            }
        }
        return FileAttributes.decodeSettable(context, attrs);
    }

    /** The attrset of a file this OPEN (or the one it retransmits) created. */
    private static int[] createdAttrs(createhow4 how) {
        return switch (how.mode) {
            case createmode4.UNCHECKED4, createmode4.GUARDED4 -> Bitmaps.trim(how.createattrs.attrmask.value.clone());
            case createmode4.EXCLUSIVE4 -> VERIFIER_ATTRS.clone();
            default -> union(how.ch_createboth.cva_attrs.attrmask.value, VERIFIER_ATTRS);
        };
    }

    private static int[] union(int[] a, int[] b) {
        int[] out = new int[Math.max(a.length, b.length)];
        for (int i = 0; i < out.length; i++) {
            out[i] = (i < a.length ? a[i] : 0) | (i < b.length ? b[i] : 0);
        }
        return Bitmaps.trim(out);
    }

    private static byte[] verifierOf(createhow4 how) {
        return how.mode == createmode4.EXCLUSIVE4 ? how.createverf.value : how.ch_createboth.cva_verf.value;
    }

    /** Whether the file's access and modify times hold {@code verifier}, as an exclusive create left them. */
    private static boolean holdsVerifier(Stat stat, byte[] verifier) {
        return stat.atime().getEpochSecond() == word(verifier, 0) && stat.atime().getNano() == 0
                && stat.mtime().getEpochSecond() == word(verifier, 4) && stat.mtime().getNano() == 0;
    }

    /** Four bytes of {@code b} from {@code at} as an unsigned number. */
    private static long word(byte[] b, int at) {
        return ((b[at] & 0xffL) << 24) | ((b[at + 1] & 0xffL) << 16) | ((b[at + 2] & 0xffL) << 8) | (b[at + 3] & 0xffL);
    }

    private static void requireRegular(Stat stat) throws IOException {
        if (stat.type() == FileType.DIRECTORY) {
            throw new IsDirException("OPEN of a directory");
        }
        if (stat.type() != FileType.REGULAR) {
            throw new SymlinkException("OPEN of a " + stat.type());
        }
    }

    private static void checkAccess(VirtualFileSystem fs, Inode file, ShareMode share, boolean truncate)
            throws IOException {
        if (share.allowsRead() && fs.access(file, EnumSet.of(AccessRight.READ, AccessRight.EXECUTE)).isEmpty()) {
            throw new AccessException("no read permission");
        }
        if (share.allowsWrite() || truncate) {
            Set<AccessRight> granted = fs.access(file, EnumSet.of(AccessRight.MODIFY));
            if (!granted.contains(AccessRight.MODIFY)) {
                throw new AccessException("no write permission");
            }
        }
    }

    private static Inode lookupOrNull(VirtualFileSystem fs, Inode dir, String name) throws IOException {
        try {
            return fs.lookup(dir, name);
        } catch (NoEntException e) {
            return null;
        }
    }

    /** The change info of a directory this OPEN did not change. */
    private static change_info4 unchanged(VirtualFileSystem fs, Inode dir) throws IOException {
        long change = Directories.change(fs, dir);
        return new change_info4(true, change, change);
    }
}

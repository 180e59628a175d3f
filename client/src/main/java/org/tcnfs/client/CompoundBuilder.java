package org.tcnfs.client;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.tcnfs.nfs4.xdr.ACCESS4args;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.COMMIT4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.DESTROY_CLIENTID4args;
import org.tcnfs.nfs4.xdr.DESTROY_SESSION4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4args;
import org.tcnfs.nfs4.xdr.FREE_STATEID4args;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCKT4args;
import org.tcnfs.nfs4.xdr.LOCKU4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.NVERIFY4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.READDIR4args;
import org.tcnfs.nfs4.xdr.RECLAIM_COMPLETE4args;
import org.tcnfs.nfs4.xdr.RELEASE_LOCKOWNER4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.RENEW4args;
import org.tcnfs.nfs4.xdr.SECINFO_NO_NAME4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID_CONFIRM4args;
import org.tcnfs.nfs4.xdr.TEST_STATEID4args;
import org.tcnfs.nfs4.xdr.VERIFY4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.cb_client4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.exist_lock_owner4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.lock_owner4;
import org.tcnfs.nfs4.xdr.locker4;
import org.tcnfs.nfs4.xdr.netaddr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_client_id4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.open_to_lock_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.sessionid4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * Builds a {@code COMPOUND4args}, one method per operation, in the order called.
 *
 * <pre>{@code
 * COMPOUND4args args = new CompoundBuilder()
 *         .putrootfh()
 *         .lookup("dir")
 *         .mkdir("new")
 *         .getfh()
 *         .getattr(nfs4_attr.FATTR4_TYPE, nfs4_attr.FATTR4_MODE)
 *         .build();
 * }</pre>
 *
 * <p>Minor version 1 and an empty tag unless set. Names are sent as given (no checks), so tests can send
 * names a server must refuse. {@link Nfs41Session} adds the SEQUENCE in front; add it here only to send
 * exactly what you want. Not thread-safe; {@link #build()} may be called more than once.
 */
public final class CompoundBuilder {
    /** The default stateid of an open's owner-less access ({@code seqid} 0, all-zero {@code other}). */
    public static stateid4 anonymousStateid() {
        return new stateid4(0, new byte[12]);
    }

    /** The "current stateid" of RFC 8881 section 16.2.3.1.2 ({@code seqid} 1, all-zero {@code other}). */
    public static stateid4 currentStateid() {
        return new stateid4(1, new byte[12]);
    }

    private final List<nfs_argop4> ops = new ArrayList<>();
    private String tag = "";
    private int minorVersion = 1;

    /** The compound's tag (echoed by the server). */
    public CompoundBuilder tag(String tag) {
        this.tag = Objects.requireNonNull(tag);
        return this;
    }

    /** The minor version (1 unless set). */
    public CompoundBuilder minorVersion(int minorVersion) {
        this.minorVersion = minorVersion;
        return this;
    }

    /** Any operation, with arguments of the right type or deliberately wrong ones (or none). */
    public CompoundBuilder op(int opnum, XdrAble args) {
        ops.add(new nfs_argop4(opnum, args));
        return this;
    }

    // ---- sessions (RFC 8881 section 18.35 - 18.51)

    /** SEQUENCE with {@code sa_cachethis} set, so the server keeps the whole reply for a retry. */
    public CompoundBuilder sequence(byte[] sessionId, int sequenceId, int slotId, int highestSlotId) {
        SEQUENCE4args a = new SEQUENCE4args();
        a.sa_sessionid = new sessionid4(sessionId.clone());
        a.sa_sequenceid = sequenceId;
        a.sa_slotid = slotId;
        a.sa_highest_slotid = highestSlotId;
        a.sa_cachethis = true;
        return sequence(a);
    }

    public CompoundBuilder sequence(SEQUENCE4args args) {
        return op(OP_SEQUENCE, args);
    }

    public CompoundBuilder exchangeId(EXCHANGE_ID4args args) {
        return op(OP_EXCHANGE_ID, args);
    }

    public CompoundBuilder createSession(CREATE_SESSION4args args) {
        return op(OP_CREATE_SESSION, args);
    }

    public CompoundBuilder destroySession(byte[] sessionId) {
        DESTROY_SESSION4args a = new DESTROY_SESSION4args();
        a.dsa_sessionid = new sessionid4(sessionId.clone());
        return op(OP_DESTROY_SESSION, a);
    }

    public CompoundBuilder destroyClientId(long clientId) {
        DESTROY_CLIENTID4args a = new DESTROY_CLIENTID4args();
        a.dca_clientid = clientId;
        return op(OP_DESTROY_CLIENTID, a);
    }

    /** RECLAIM_COMPLETE for all file systems ({@code rca_one_fs} false). */
    public CompoundBuilder reclaimComplete() {
        return op(OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args());
    }

    // ---- file handles

    public CompoundBuilder putrootfh() {
        return op(OP_PUTROOTFH, null);
    }

    public CompoundBuilder putpubfh() {
        return op(OP_PUTPUBFH, null);
    }

    public CompoundBuilder putfh(byte[] handle) {
        return op(OP_PUTFH, new PUTFH4args(new nfs_fh4(handle.clone())));
    }

    public CompoundBuilder getfh() {
        return op(OP_GETFH, null);
    }

    public CompoundBuilder savefh() {
        return op(OP_SAVEFH, null);
    }

    public CompoundBuilder restorefh() {
        return op(OP_RESTOREFH, null);
    }

    public CompoundBuilder lookup(String name) {
        return op(OP_LOOKUP, new LOOKUP4args(name));
    }

    /** One LOOKUP per non-empty component of a slash-separated path. */
    public CompoundBuilder lookupPath(String path) {
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                lookup(part);
            }
        }
        return this;
    }

    public CompoundBuilder lookupp() {
        return op(OP_LOOKUPP, null);
    }

    /** SECINFO_NO_NAME with {@code style} (0: current file handle, 1: its parent). */
    public CompoundBuilder secinfoNoName(int style) {
        return op(OP_SECINFO_NO_NAME, new SECINFO_NO_NAME4args(style));
    }

    // ---- attributes

    public CompoundBuilder getattr(int... attributes) {
        return op(OP_GETATTR, new GETATTR4args(Attrs.mask(attributes)));
    }

    /** SETATTR with the anonymous stateid. */
    public CompoundBuilder setattr(fattr4 attributes) {
        return setattr(anonymousStateid(), attributes);
    }

    public CompoundBuilder setattr(stateid4 stateid, fattr4 attributes) {
        return op(OP_SETATTR, new SETATTR4args(stateid, attributes));
    }

    public CompoundBuilder verify(fattr4 attributes) {
        return op(OP_VERIFY, new VERIFY4args(attributes));
    }

    public CompoundBuilder nverify(fattr4 attributes) {
        return op(OP_NVERIFY, new NVERIFY4args(attributes));
    }

    /** ACCESS with a mask of {@code ACCESS4_*} bits. */
    public CompoundBuilder access(int mask) {
        return op(OP_ACCESS, new ACCESS4args(mask));
    }

    // ---- namespace

    /** CREATE of a directory, no attributes. */
    public CompoundBuilder mkdir(String name) {
        return mkdir(name, Attrs.builder().build());
    }

    public CompoundBuilder mkdir(String name, fattr4 attributes) {
        return create(new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), name, attributes));
    }

    /** CREATE of a symbolic link to {@code target}. */
    public CompoundBuilder symlink(String name, String target) {
        createtype4 type = new createtype4(nfs_ftype4.NF4LNK);
        type.linkdata = target.getBytes(StandardCharsets.UTF_8);
        return create(new CREATE4args(type, name, Attrs.builder().build()));
    }

    public CompoundBuilder create(CREATE4args args) {
        return op(OP_CREATE, args);
    }

    /** REMOVE of {@code name} in the current directory. */
    public CompoundBuilder remove(String name) {
        return op(OP_REMOVE, new REMOVE4args(name));
    }

    /** RENAME from the saved directory's {@code oldName} to the current directory's {@code newName}. */
    public CompoundBuilder rename(String oldName, String newName) {
        return op(OP_RENAME, new RENAME4args(oldName, newName));
    }

    /** LINK of the saved file as {@code newName} in the current directory. */
    public CompoundBuilder link(String newName) {
        return op(OP_LINK, new LINK4args(newName));
    }

    public CompoundBuilder readlink() {
        return op(OP_READLINK, null);
    }

    /** READDIR from the start, asking for {@code attributes} of each entry. */
    public CompoundBuilder readdir(int maxcount, int... attributes) {
        return readdir(0, new byte[8], maxcount, maxcount, attributes);
    }

    public CompoundBuilder readdir(long cookie, byte[] cookieVerifier, int dircount, int maxcount, int... attributes) {
        return op(OP_READDIR, new READDIR4args(cookie, new verifier4(cookieVerifier.clone()), dircount, maxcount,
                Attrs.mask(attributes)));
    }

    // ---- state and data

    /** OPEN (minor version 1, so seqid 0) with any {@code openhow} and {@code claim}. */
    public CompoundBuilder open(OPEN4args args) {
        return op(OP_OPEN, args);
    }

    /**
     * OPEN of {@code name} in the current directory, creating it (UNCHECKED4) with {@code attributes} if
     * missing; {@code access} is an {@code OPEN4_SHARE_ACCESS_*} value, deny NONE.
     */
    public CompoundBuilder openCreate(long clientId, byte[] owner, String name, int access, fattr4 attributes) {
        return open(new OPEN4args(0, access, OPEN4args.OPEN4_SHARE_DENY_NONE,
                new open_owner4(clientId, owner.clone()),
                openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, attributes)),
                open_claim4.byName(name)));
    }

    /** OPEN of the existing {@code name} in the current directory, deny NONE. */
    public CompoundBuilder openExisting(long clientId, byte[] owner, String name, int access) {
        return open(new OPEN4args(0, access, OPEN4args.OPEN4_SHARE_DENY_NONE,
                new open_owner4(clientId, owner.clone()), openflag4.noCreate(), open_claim4.byName(name)));
    }

    public CompoundBuilder close(stateid4 openStateid) {
        return op(OP_CLOSE, new CLOSE4args(0, openStateid));
    }

    public CompoundBuilder read(stateid4 stateid, long offset, int count) {
        return op(OP_READ, new READ4args(stateid, offset, count));
    }

    /** WRITE with FILE_SYNC4. */
    public CompoundBuilder write(stateid4 stateid, long offset, byte[] data) {
        return write(stateid, offset, stable_how4.FILE_SYNC4, data);
    }

    /** WRITE with a {@code stable_how4} value. */
    public CompoundBuilder write(stateid4 stateid, long offset, int stable, byte[] data) {
        return op(OP_WRITE, new WRITE4args(stateid, offset, stable, ByteBuffer.wrap(data.clone())));
    }

    public CompoundBuilder commit(long offset, int count) {
        return op(OP_COMMIT, new COMMIT4args(offset, count));
    }

    /**
     * LOCK by a lock owner new to the server, made from the open's stateid.
     *
     * @param lockType an {@code nfs_lock_type4} value
     * @param length the range's length; {@code -1} (all ones) for "to the end of file"
     */
    public CompoundBuilder lockNewOwner(int lockType, long offset, long length, stateid4 openStateid, long clientId,
            byte[] owner) {
        locker4 locker = locker4.newOwner(new open_to_lock_owner4(0, openStateid, 0,
                new lock_owner4(clientId, owner.clone())));
        return lock(new LOCK4args(lockType, false, offset, length, locker));
    }

    /** LOCK by an owner that already holds a lock stateid on the file. */
    public CompoundBuilder lockExistingOwner(int lockType, long offset, long length, stateid4 lockStateid) {
        locker4 locker = locker4.existingOwner(new exist_lock_owner4(lockStateid, 0));
        return lock(new LOCK4args(lockType, false, offset, length, locker));
    }

    public CompoundBuilder lock(LOCK4args args) {
        return op(OP_LOCK, args);
    }

    public CompoundBuilder locku(int lockType, stateid4 lockStateid, long offset, long length) {
        return op(OP_LOCKU, new LOCKU4args(lockType, 0, lockStateid, offset, length));
    }

    /** LOCKT: would this owner's lock of the range conflict? */
    public CompoundBuilder lockt(int lockType, long offset, long length, long clientId, byte[] owner) {
        return op(OP_LOCKT, new LOCKT4args(lockType, offset, length, new lock_owner4(clientId, owner.clone())));
    }

    public CompoundBuilder testStateid(stateid4... stateids) {
        return op(OP_TEST_STATEID, new TEST_STATEID4args(stateids.clone()));
    }

    public CompoundBuilder freeStateid(stateid4 stateid) {
        return op(OP_FREE_STATEID, new FREE_STATEID4args(stateid));
    }

    // ---- NFSv4.0 (RFC 7530): client ids and owner seqids; send these with minorVersion(0)

    /**
     * SETCLIENTID: the client's identity string and boot verifier, and a callback address (tcnfs records
     * it but never calls back).
     */
    public CompoundBuilder setclientid(byte[] id, byte[] verifier, int callbackProgram, String netid, String address) {
        return op(OP_SETCLIENTID, new SETCLIENTID4args(new nfs_client_id4(new verifier4(verifier.clone()), id.clone()),
                new cb_client4(callbackProgram, new netaddr4(netid, address)), 1));
    }

    public CompoundBuilder setclientidConfirm(long clientId, byte[] confirmVerifier) {
        return op(OP_SETCLIENTID_CONFIRM,
                new SETCLIENTID_CONFIRM4args(clientId, new verifier4(confirmVerifier.clone())));
    }

    public CompoundBuilder renew(long clientId) {
        return op(OP_RENEW, new RENEW4args(clientId));
    }

    /** OPEN of {@code name} in the current directory by an NFSv4.0 open owner, with its {@code seqid}. */
    public CompoundBuilder openNfs40(int seqid, long clientId, byte[] owner, String name, int access, createhow4 how) {
        return open(new OPEN4args(seqid, access, OPEN4args.OPEN4_SHARE_DENY_NONE,
                new open_owner4(clientId, owner.clone()), how == null ? openflag4.noCreate() : openflag4.create(how),
                open_claim4.byName(name)));
    }

    public CompoundBuilder openConfirm(stateid4 openStateid, int seqid) {
        return op(OP_OPEN_CONFIRM, new OPEN_CONFIRM4args(openStateid, seqid));
    }

    /** CLOSE with the open owner's {@code seqid}. */
    public CompoundBuilder close(int seqid, stateid4 openStateid) {
        return op(OP_CLOSE, new CLOSE4args(seqid, openStateid));
    }

    public CompoundBuilder releaseLockowner(long clientId, byte[] owner) {
        return op(OP_RELEASE_LOCKOWNER, new RELEASE_LOCKOWNER4args(new lock_owner4(clientId, owner.clone())));
    }

    /** How many operations were added so far. */
    public int size() {
        return ops.size();
    }

    /** A new {@code COMPOUND4args} with the operations added so far. */
    public COMPOUND4args build() {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = tag;
        args.minorversion = minorVersion;
        args.argarray = ops.toArray(new nfs_argop4[0]);
        return args;
    }
}

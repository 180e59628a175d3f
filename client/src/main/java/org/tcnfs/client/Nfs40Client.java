package org.tcnfs.client;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN_CONFIRM;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SETCLIENTID;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4resok;
import org.tcnfs.nfs4.xdr.SETCLIENTID4resok;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * An NFSv4.0 client ID on one connection (RFC 7530 section 9.1.1): SETCLIENTID and SETCLIENTID_CONFIRM at
 * {@link #create}, then {@link #execute} sends minor-version-0 compounds (no SEQUENCE). The client has one
 * open owner; {@link #seqid()} is the seqid its next OPEN, OPEN_CONFIRM, OPEN_DOWNGRADE or CLOSE carries,
 * and {@link #executeSequenced} advances it after the reply as RFC 7530 9.1.7 says: always, except after
 * STALE_CLIENTID, STALE_STATEID, BAD_STATEID, BAD_SEQID, BADXDR, RESOURCE, NOFILEHANDLE or MOVED.
 *
 * <p>Requests of the open owner must go one at a time; {@link #openCreate} and {@link #close} are
 * synchronized for that. The lease is the client's to renew ({@link #renew}); NFSv4.0 has no way to
 * destroy a client ID, so there is nothing to close.
 */
public final class Nfs40Client {
    /** The callback program the client names; tcnfs never calls back. */
    public static final int CB_PROGRAM = 0x40000000;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<NfsStatus> NOT_SEQUENCED = Set.of(NfsStatus.STALE_CLIENTID, NfsStatus.STALE_STATEID,
            NfsStatus.BAD_STATEID, NfsStatus.BAD_SEQID, NfsStatus.BADXDR, NfsStatus.RESOURCE, NfsStatus.NOFILEHANDLE,
            NfsStatus.MOVED);

    private final NfsConnection connection;
    private final long clientId;
    private final byte[] openOwner;
    private int seqid;

    /** An open file: its handle and the open stateid. */
    public record Opened(byte[] fileHandle, stateid4 stateid) {
        public Opened {
            fileHandle = fileHandle.clone();
            Objects.requireNonNull(stateid, "stateid");
        }

        @Override
        public byte[] fileHandle() {
            return fileHandle.clone();
        }
    }

    private Nfs40Client(NfsConnection connection, long clientId, byte[] openOwner) {
        this.connection = connection;
        this.clientId = clientId;
        this.openOwner = openOwner;
    }

    /**
     * SETCLIENTID with the identity {@code name} plus a random suffix and a random verifier, then
     * SETCLIENTID_CONFIRM.
     *
     * @throws org.tcnfs.nfs4.status.NfsException when the server refuses either
     */
    public static Nfs40Client create(NfsConnection connection, String name) throws IOException {
        byte[] suffix = new byte[8];
        RANDOM.nextBytes(suffix);
        byte[] id = (name + "-" + HexFormat.of().formatHex(suffix)).getBytes(StandardCharsets.UTF_8);
        byte[] verifier = new byte[8];
        RANDOM.nextBytes(verifier);
        CompoundResult set = send(connection, new CompoundBuilder().minorVersion(0).tag("setclientid")
                .setclientid(id, verifier, CB_PROGRAM, "tcp", "127.0.0.1.0.0"));
        set.orThrow();
        SETCLIENTID4resok ok = set.body(OP_SETCLIENTID, SETCLIENTID4resok.class);
        send(connection, new CompoundBuilder().minorVersion(0).tag("setclientid_confirm")
                .setclientidConfirm(ok.clientid, ok.setclientid_confirm.value)).orThrow();
        return new Nfs40Client(connection, ok.clientid, ("owner-" + HexFormat.of().formatHex(suffix))
                .getBytes(StandardCharsets.UTF_8));
    }

    private static CompoundResult send(NfsConnection connection, CompoundBuilder ops) throws IOException {
        var args = ops.build();
        return new CompoundResult(args, connection.compound(args));
    }

    public NfsConnection connection() {
        return connection;
    }

    public long clientId() {
        return clientId;
    }

    /** The name of the client's open owner. */
    public byte[] openOwner() {
        return openOwner.clone();
    }

    /** The seqid of the open owner's next request. */
    public synchronized int seqid() {
        return seqid;
    }

    /** Sends {@code ops} as a minor-version-0 COMPOUND (whatever minor version the builder had). */
    public CompoundResult execute(CompoundBuilder ops) throws IOException {
        return send(connection, ops.minorVersion(0));
    }

    /**
     * Sends {@code ops}, which carry the open owner's {@link #seqid()}, and advances the seqid by the status
     * of the last operation run (see the class comment).
     */
    public synchronized CompoundResult executeSequenced(CompoundBuilder ops) throws IOException {
        CompoundResult result = execute(ops);
        List<nfs_resop4> results = result.results();
        if (!results.isEmpty() && !NOT_SEQUENCED.contains(NfsStatus.of(results.get(results.size() - 1).status))) {
            seqid++;
        }
        return result;
    }

    /** RENEW. */
    public CompoundResult renew() throws IOException {
        return execute(new CompoundBuilder().renew(clientId));
    }

    /**
     * OPEN of {@code name} in the directory {@code dirHandle} for reading and writing, created (UNCHECKED4)
     * if missing, and OPEN_CONFIRM when the server asks for it.
     *
     * @throws org.tcnfs.nfs4.status.NfsException when the server refuses either
     */
    public synchronized Opened openCreate(byte[] dirHandle, String name) throws IOException {
        CompoundResult opened = executeSequenced(new CompoundBuilder().putfh(dirHandle).openNfs40(seqid, clientId,
                openOwner, name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4())).getfh());
        opened.orThrow();
        OPEN4resok ok = opened.body(OP_OPEN, OPEN4resok.class);
        byte[] file = opened.fileHandle();
        stateid4 stateid = ok.stateid;
        if ((ok.rflags & OPEN4resok.OPEN4_RESULT_CONFIRM) != 0) {
            CompoundResult confirmed = executeSequenced(new CompoundBuilder().putfh(file).openConfirm(stateid, seqid));
            confirmed.orThrow();
            stateid = confirmed.body(OP_OPEN_CONFIRM, OPEN_CONFIRM4resok.class).open_stateid;
        }
        return new Opened(file, stateid);
    }

    /** CLOSE of {@code file}. */
    public synchronized CompoundResult close(Opened file) throws IOException {
        return executeSequenced(new CompoundBuilder().putfh(file.fileHandle()).close(seqid, file.stateid()));
    }

    @Override
    public String toString() {
        return "Nfs40Client[" + Long.toHexString(clientId) + ", seqid " + seqid() + "]";
    }
}

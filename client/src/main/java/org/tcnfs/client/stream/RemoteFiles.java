package org.tcnfs.client.stream;

import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TIME_MODIFY;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.nfs4.status.NfsExceptions;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.nfstime4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * Opens remote files for streaming on the session of a {@link VnfsClient}, by path relative to its export.
 *
 * <pre>{@code
 * RemoteFiles files = RemoteFiles.of(nfs);
 * try (RemoteFileWriter out = files.create("big.iso", 0644, progress::stepBy)) {
 *     out.transferFrom(Files.newInputStream(local));
 * }
 * try (RemoteFileReader in = files.openRead("big.iso", progress::stepBy)) {
 *     in.transferTo(Files.newOutputStream(copy));
 * }
 * }</pre>
 *
 * <p>Each stream keeps up to {@link #inFlight()} compounds outstanding (the session's slots, at most
 * {@value #DEFAULT_IN_FLIGHT} unless set), each of one READ or WRITE of the negotiated size.
 */
public final class RemoteFiles {
    /** Compounds in flight per stream unless {@link #inFlight(int)} says otherwise. */
    public static final int DEFAULT_IN_FLIGHT = 8;
    /** Resends of a READ or WRITE the server answered NFS4ERR_DELAY (its file's lock was busy). */
    static final int DELAY_RETRIES = 10;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Nfs41Session session;
    private final byte[] root;
    private final int readSize;
    private final int writeSize;
    private final int inFlight;
    private final byte[] owner;

    private RemoteFiles(Nfs41Session session, byte[] root, int readSize, int writeSize, int inFlight, byte[] owner) {
        this.session = session;
        this.root = root;
        this.readSize = readSize;
        this.writeSize = writeSize;
        this.inFlight = inFlight;
        this.owner = owner;
    }

    /** Streams on {@code client}'s session and export, with its READ and WRITE sizes. */
    public static RemoteFiles of(VnfsClient client) {
        Objects.requireNonNull(client, "client");
        Nfs41Session s = client.session();
        int slots = Math.max(1, s.foreChannel().ca_maxrequests);
        byte[] suffix = new byte[8];
        RANDOM.nextBytes(suffix);
        byte[] owner = ("stream-" + HexFormat.of().formatHex(suffix)).getBytes(StandardCharsets.UTF_8);
        return new RemoteFiles(s, client.rootHandle(), client.maxRead(), client.maxWrite(),
                Math.min(DEFAULT_IN_FLIGHT, slots), owner);
    }

    /** The same, with at most {@code compounds} in flight per stream (at least one). */
    public RemoteFiles inFlight(int compounds) {
        if (compounds < 1) {
            throw new IllegalArgumentException("in flight: " + compounds);
        }
        return new RemoteFiles(session, root, readSize, writeSize, compounds, owner);
    }

    /** Compounds in flight per stream. */
    public int inFlight() {
        return inFlight;
    }

    /** Bytes per READ. */
    public int readSize() {
        return readSize;
    }

    /** Bytes per WRITE. */
    public int writeSize() {
        return writeSize;
    }

    /**
     * Opens {@code path} for writing from its start, creating it with {@code mode} or truncating it.
     *
     * @param progress told the bytes of each WRITE the server acknowledged (on a pool thread)
     * @throws org.tcnfs.nfs4.status.NfsException when the server refuses the OPEN
     */
    public RemoteFileWriter create(String path, int mode, LongConsumer progress) throws IOException {
        String p = RemotePath.normalize(path);
        CompoundBuilder ops = new CompoundBuilder().tag("stream-create").putfh(root).lookupPath(RemotePath.parent(p))
                .openCreate(session.clientId(), owner, RemotePath.name(p), OPEN4args.OPEN4_SHARE_ACCESS_WRITE,
                        Attrs.builder().mode(mode & 07777).size(0).build())
                .getfh();
        CompoundResult r = session.execute(ops).orThrow();
        stateid4 open = r.body(OP_OPEN, OPEN4resok.class).stateid;
        return new RemoteFileWriter(this, p, r.fileHandle(), open, progress == null ? n -> { } : progress);
    }

    /**
     * Opens the regular file {@code path} for reading.
     *
     * @param progress told the bytes of each READ as the reader hands them out
     * @throws org.tcnfs.nfs4.status.NfsException when the server refuses the OPEN
     */
    public RemoteFileReader openRead(String path, LongConsumer progress) throws IOException {
        String p = RemotePath.normalize(path);
        CompoundBuilder ops = new CompoundBuilder().tag("stream-open").putfh(root).lookupPath(RemotePath.parent(p))
                .openExisting(session.clientId(), owner, RemotePath.name(p), OPEN4args.OPEN4_SHARE_ACCESS_READ)
                .getfh().getattr(FATTR4_TYPE, FATTR4_SIZE, FATTR4_MODE, FATTR4_TIME_MODIFY);
        CompoundResult r = session.execute(ops).orThrow();
        stateid4 open = r.body(OP_OPEN, OPEN4resok.class).stateid;
        Attrs a = Attrs.decode(r.body(OP_GETATTR, GETATTR4resok.class).obj_attributes);
        nfstime4 t = a.has(FATTR4_TIME_MODIFY) ? a.timeModify() : new nfstime4();
        return new RemoteFileReader(this, p, r.fileHandle(), open, a.has(FATTR4_SIZE) ? a.size() : 0,
                a.has(FATTR4_MODE) ? a.mode() : 0, Instant.ofEpochSecond(t.seconds, t.nseconds),
                progress == null ? n -> { } : progress);
    }

    Nfs41Session session() {
        return session;
    }

    /** A pool of {@link #inFlight} daemon threads for one stream's compounds. */
    ExecutorService pool(String what) {
        return Executors.newFixedThreadPool(inFlight, r -> {
            Thread t = new Thread(r, "tcnfs-" + what + "-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Sends {@code ops}, resending it after a growing pause while the server answers NFS4ERR_DELAY; a
     * failure other than that is thrown as its status's exception.
     */
    CompoundResult send(CompoundBuilder ops) throws IOException {
        CompoundResult r = session.execute(ops);
        for (int attempt = 0; r.status() == NfsStatus.DELAY && attempt < DELAY_RETRIES; attempt++) {
            try {
                Thread.sleep(Math.min(1000, 10L << attempt));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            }
            r = session.execute(ops);
        }
        if (!r.isOk()) {
            throw NfsExceptions.of(r.status(), r.toString().length() > 300 ? r.toString().substring(0, 300)
                    : r.toString());
        }
        return r;
    }
}

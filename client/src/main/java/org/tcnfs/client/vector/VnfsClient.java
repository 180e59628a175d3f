package org.tcnfs.client.vector;

import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEID;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MAXREAD;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MAXWRITE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_NUMLINKS;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_OWNER;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_OWNER_GROUP;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TIME_MODIFY;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_ACCESS;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUPP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_NVERIFY;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTPUBFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTROOTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READDIR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READLINK;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_RESTOREFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SAVEFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SECINFO;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SECINFO_NO_NAME;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_VERIFY;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.NoReplyException;
import org.tcnfs.client.rpc.RpcAcceptStatus;
import org.tcnfs.client.rpc.RpcReplyException;
import org.tcnfs.client.vector.internal.Backoff;
import org.tcnfs.client.vector.internal.Emitter;
import org.tcnfs.client.vector.internal.Packer;
import org.tcnfs.client.vector.internal.Step;
import org.tcnfs.nfs4.status.NfsExceptions;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.READDIR4resok;
import org.tcnfs.nfs4.xdr.READLINK4resok;
import org.tcnfs.nfs4.xdr.channel_attrs4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.entry4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.nfstime4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * A vectorized NFSv4.1 client in the manner of vNFS (Chen et al., FAST 2017): every call takes many items and
 * sends them in as few COMPOUNDs as the session's limits allow, resolving paths inside the compound (PUTFH of
 * the export's root, LOOKUP, SAVEFH/RESTOREFH) and writing through the current stateid (RFC 8881 16.2.3.1.2),
 * so a small file costs about four operations.
 *
 * <pre>{@code
 * try (VnfsClient nfs = VnfsClient.builder().host("127.0.0.1").port(2049).export("/").uid(1000).gid(1000)
 *         .connect()) {
 *     nfs.vmkdir(List.of("etc"), Mode.PLAIN, Parents.CREATE).orThrow();
 *     // the paper's example: a new user in passwd, group and shadow, all or nothing
 *     VResult<Void> r = nfs.vtxn(List.of(
 *             VWrite.append("etc/passwd", "alice:x:1001:1001::/home/alice:/bin/sh\n".getBytes()),
 *             VWrite.append("etc/group", "alice:x:1001:\n".getBytes()),
 *             VWrite.append("etc/shadow", "alice:!:19000:0:99999:7:::\n".getBytes())));
 *     System.out.println(r.committed() ? "added" : "nothing changed, item " + r.firstFailure() + " failed");
 * }
 * }</pre>
 *
 * <p>Every call has a {@link Mode}: {@link Mode#PLAIN} sends ordinary compounds and stops at the first failed
 * item (earlier items stay done); {@link Mode#TRANSACTION} sends exactly one compound with the transaction flag,
 * refuses it before sending when it exceeds the session's limits ({@link CompoundTooLargeException}), and fails
 * with {@link TransactionsUnsupportedException} against a server that answers the flag with PROC_UNAVAIL.
 * Calls that need a first look (appends read sizes, {@code mkdir} with parents probes what exists, large reads
 * and listings continue with handles) do that look in plain compounds before the transaction.
 *
 * <p>Threading: one call at a time per client (calls are synchronized). Exceptions: NFS statuses are per item in
 * the {@link VResult}; transport failures, RPC errors and a failed SEQUENCE are {@link IOException}s.
 */
public final class VnfsClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VnfsClient.class);
    /** Request and reply bytes kept for the RPC header, the AUTH_SYS credential, the tag and SEQUENCE. */
    static final int HEADER_RESERVE = 1024;
    /** Writes larger than this go into their own compounds in plain mode. */
    private static final int DEFAULT_IO_SIZE = 1024 * 1024;
    /**
     * Operations a compound may have run before the one the server answered NFS4ERR_DELAY or NFS4ERR_GRACE
     * for the compound to be sent again as it is: they change nothing (RFC 8881 2.10.6.1.3's re-runnable
     * ones), and the refused operation did nothing.
     */
    private static final java.util.Set<Integer> SAFE_TO_RERUN = java.util.Set.of(OP_ACCESS, OP_GETATTR, OP_GETFH,
            OP_LOOKUP, OP_LOOKUPP, OP_NVERIFY, OP_PUTFH, OP_PUTPUBFH, OP_PUTROOTFH, OP_READ, OP_READDIR,
            OP_READLINK, OP_RESTOREFH, OP_SAVEFH, OP_SECINFO, OP_SECINFO_NO_NAME, OP_VERIFY);
    /**
     * Operations (SEQUENCE included) above which a plain compound answered GARBAGE_ARGS is taken as too large
     * and resent in halves; at or below, GARBAGE_ARGS is an error.
     */
    static final int GARBAGE_SPLIT_MIN_OPS = 64;
    /**
     * Request bytes of each compound of a transaction that spans compounds (less when the session allows less).
     * More compounds of a transaction cost little, while the client holds up to about four times a compound while
     * it packs and encodes one (the data, the next part tried, and the growing encode buffer): 4 MiB keeps an
     * atomic untar or put --txn of any size within a 96 MiB heap.
     */
    public static final long SPANNING_COMPOUND_BYTES = 4L * 1024 * 1024;
    /** Default request size of plain compounds (see {@link Builder#plainCompoundBytes}). */
    public static final long DEFAULT_PLAIN_COMPOUND_BYTES = 1024 * 1024;
    private static final int[] INFO_ATTRS = {FATTR4_TYPE, FATTR4_SIZE, FATTR4_FILEID, FATTR4_MODE, FATTR4_NUMLINKS,
        FATTR4_OWNER, FATTR4_OWNER_GROUP, FATTR4_TIME_MODIFY};
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The longest wait for a late reply, in timeouts, unless {@link Builder#maxWait} says otherwise. */
    public static final int MAX_WAIT_TIMEOUTS = 10;

    private final NfsConnection connection;
    private final Nfs41Session session;
    private final String server;
    private final String export;
    private final byte[] rootHandle;
    private final int maxRead;
    private final int maxWrite;
    /** Packs plain compounds; its operation limit shrinks when a server refuses compounds it granted. */
    private Packer packer;
    private final Packer txnPacker;
    /** Packs the compounds of a transaction that spans compounds: at most {@link #SPANNING_COMPOUND_BYTES}. */
    private final Packer spanningPacker;
    private final byte[] openOwner;
    private final ProgressListener listener;
    private final WriteStability stability;
    private final AtomicLong compounds = new AtomicLong();
    /** How long a request answered NFS4ERR_DELAY or NFS4ERR_GRACE is retried (the timeout). */
    private final Duration retryFor;
    private volatile boolean transactionsUnavailable;

    private VnfsClient(NfsConnection connection, Nfs41Session session, String export, byte[] rootHandle,
            int maxRead, int maxWrite, Packer.Limits limits, long plainBytes, ProgressListener listener,
            WriteStability stability, Duration retryFor) {
        this.connection = connection;
        this.session = session;
        InetSocketAddress a = connection.remoteAddress();
        this.server = a == null ? "?" : a.getHostString() + ":" + a.getPort();
        this.export = export;
        this.rootHandle = rootHandle;
        this.maxRead = maxRead;
        this.maxWrite = maxWrite;
        this.txnPacker = new Packer(rootHandle, limits);
        this.spanningPacker = new Packer(rootHandle, new Packer.Limits(limits.maxOperations(),
                Math.min(limits.maxRequestBytes(), SPANNING_COMPOUND_BYTES), limits.maxReplyBytes(),
                limits.maxCachedReplyBytes()));
        this.packer = new Packer(rootHandle, new Packer.Limits(limits.maxOperations(),
                Math.min(limits.maxRequestBytes(), plainBytes), limits.maxReplyBytes(), limits.maxCachedReplyBytes()));
        byte[] suffix = new byte[8];
        RANDOM.nextBytes(suffix);
        this.openOwner = ("vnfs-" + HexFormat.of().formatHex(suffix)).getBytes(StandardCharsets.UTF_8);
        this.listener = listener;
        this.stability = stability;
        this.retryFor = retryFor;
    }

    /** A builder of a connection. */
    public static Builder builder() {
        return new Builder();
    }

    /** Connection settings: host, port, export, identity, timeout, progress listener. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 2049;
        private String export = "/";
        private int uid;
        private int gid;
        private int[] groups = new int[0];
        private String machine = "tcnfs-client";
        private Duration timeout = Duration.ofSeconds(60);
        private Duration maxWait;
        private ProgressListener listener = ProgressListener.NONE;
        private long plainCompoundBytes = DEFAULT_PLAIN_COMPOUND_BYTES;
        private WriteStability stability = WriteStability.FILE_SYNC;

        private Builder() {
        }

        /**
         * The largest request a plain call packs into one compound ({@value #DEFAULT_PLAIN_COMPOUND_BYTES} bytes
         * unless set; never more than the session allows). Plain calls may split, so smaller compounds cost
         * little and keep the server's decoding memory bounded; transactions may always use the session's
         * whole limit, as they cannot split.
         */
        public Builder plainCompoundBytes(long bytes) {
            if (bytes < 4096) {
                throw new IllegalArgumentException("plain compounds of " + bytes + " bytes");
            }
            this.plainCompoundBytes = bytes;
            return this;
        }

        public Builder host(String newHost) {
            this.host = Objects.requireNonNull(newHost, "host");
            return this;
        }

        public Builder port(int newPort) {
            if (newPort < 1 || newPort > 65535) {
                throw new IllegalArgumentException("port " + newPort);
            }
            this.port = newPort;
            return this;
        }

        /** The exported path to work in (resolved from the server's root by LOOKUPs); "/" unless set. */
        public Builder export(String newExport) {
            this.export = RemotePath.normalize(newExport);
            return this;
        }

        /** The AUTH_SYS uid (0 unless set). */
        public Builder uid(int newUid) {
            this.uid = newUid;
            return this;
        }

        /** The AUTH_SYS gid (0 unless set). */
        public Builder gid(int newGid) {
            this.gid = newGid;
            return this;
        }

        /** Supplementary AUTH_SYS groups. */
        public Builder groups(int... newGroups) {
            this.groups = newGroups.clone();
            return this;
        }

        /** The machine name in the AUTH_SYS credential. */
        public Builder machine(String newMachine) {
            this.machine = Objects.requireNonNull(newMachine, "machine");
            return this;
        }

        /**
         * How long to wait for the connection and each reply, and how long to keep retrying a request the server
         * answers NFS4ERR_DELAY or NFS4ERR_GRACE (busy, or in its grace period after a restart) with growing
         * pauses (60 s unless set).
         */
        public Builder timeout(Duration newTimeout) {
            if (newTimeout.isNegative() || newTimeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive");
            }
            this.timeout = newTimeout;
            return this;
        }

        /**
         * How long a call whose reply is late keeps waiting in all while the server shows it is still working on it
         * (a large commit or rollback; a slow compound on a loaded server): {@value #MAX_WAIT_TIMEOUTS} times the
         * timeout unless set, never less than the timeout. Each timeout without a reply the client asks the server
         * (the same request again, which it answers NFS4ERR_DELAY while the first one runs, or a NULL ping when it
         * is too busy to say) and gives up early when it answers nothing at all. A call that gives up fails with a
         * {@link LateReplyException} that says what is known of the outcome.
         */
        public Builder maxWait(Duration newMaxWait) {
            if (newMaxWait.isNegative() || newMaxWait.isZero()) {
                throw new IllegalArgumentException("maxWait must be positive");
            }
            this.maxWait = newMaxWait;
            return this;
        }

        /** How WRITEs ask for stable storage ({@link WriteStability#FILE_SYNC} unless set). */
        public Builder writeStability(WriteStability newStability) {
            this.stability = Objects.requireNonNull(newStability, "stability");
            return this;
        }

        public Builder listener(ProgressListener newListener) {
            this.listener = Objects.requireNonNull(newListener, "listener");
            return this;
        }

        /**
         * Connects, creates an NFSv4.1 session and looks up the export.
         *
         * @throws IOException when the server cannot be reached, refuses the session or lacks the export
         */
        public VnfsClient connect() throws IOException {
            AuthSys credential = new AuthSys(uid, gid, groups, machine);
            Duration patience = maxWait != null ? maxWait : timeout.multipliedBy(MAX_WAIT_TIMEOUTS);
            NfsConnection connection = NfsConnection.connect(new InetSocketAddress(host, port), credential, timeout,
                    patience.compareTo(timeout) < 0 ? timeout : patience);
            try {
                Nfs41Session session = Nfs41Session.create(connection, "vnfs");
                CompoundBuilder lookup = new CompoundBuilder().tag("vnfs-export").putrootfh();
                lookup.lookupPath(export).getfh().getattr(FATTR4_MAXREAD, FATTR4_MAXWRITE);
                CompoundResult r = session.execute(lookup);
                Backoff backoff = new Backoff(timeout);
                while (r.status() == NfsStatus.DELAY && backoff.pause()) {
                    r = session.execute(lookup); // looks only: safe to send again
                }
                if (!r.isOk()) {
                    session.close();
                    throw NfsExceptions.of(r.status(), "export /" + export + " on " + host + ":" + port + ": " + r);
                }
                Attrs io = Attrs.decode(r.body(OP_GETATTR, GETATTR4resok.class).obj_attributes);
                channel_attrs4 fore = session.foreChannel();
                long request = (long) fore.ca_maxrequestsize - HEADER_RESERVE;
                long reply = Integer.toUnsignedLong(fore.ca_maxresponsesize) - HEADER_RESERVE;
                long cachedReply = Math.min(reply,
                        Integer.toUnsignedLong(fore.ca_maxresponsesize_cached) - HEADER_RESERVE);
                Packer.Limits limits = new Packer.Limits(fore.ca_maxoperations - 1, request, reply,
                        Math.max(1, cachedReply));
                int rd = (int) Math.min(io.has(FATTR4_MAXREAD) ? io.number(FATTR4_MAXREAD) : DEFAULT_IO_SIZE,
                        Math.max(4096, cachedReply - 4096));
                int wr = (int) Math.min(io.has(FATTR4_MAXWRITE) ? io.number(FATTR4_MAXWRITE) : DEFAULT_IO_SIZE,
                        Math.max(4096, request - 4096));
                LOG.debug("connected to {}:{} /{}: {}, maxread {}, maxwrite {}", host, port, export, limits, rd, wr);
                return new VnfsClient(connection, session, export, r.fileHandle(), rd, wr, limits, plainCompoundBytes,
                        listener, stability, timeout);
            } catch (IOException | RuntimeException e) {
                connection.close();
                throw e;
            }
        }
    }

    // ---- facts about the connection

    /** The server as host:port. */
    public String server() {
        return server;
    }

    /** The export this client works in. */
    public String export() {
        return "/" + export;
    }

    /** Operations a compound may hold for the items (the session's maximum less SEQUENCE). */
    public int maxOperations() {
        return txnPacker.limits().maxOperations();
    }

    /** Request bytes a transaction may hold for its items (the session's maximum less headers). */
    public long maxRequestBytes() {
        return txnPacker.limits().maxRequestBytes();
    }

    /** Request bytes a plain compound holds at most. */
    public long plainCompoundBytes() {
        return packer.limits().maxRequestBytes();
    }

    /** Reply bytes a compound that changes nothing may take (it is sent uncached: ca_maxresponsesize). */
    public long maxReplyBytes() {
        return txnPacker.limits().maxReplyBytes();
    }

    /** Reply bytes a compound that changes something may take (its reply is cached: ca_maxresponsesize_cached). */
    public long maxCachedReplyBytes() {
        return txnPacker.limits().maxCachedReplyBytes();
    }

    /** Bytes per READ. */
    public int maxRead() {
        return maxRead;
    }

    /** Bytes per WRITE. */
    public int maxWrite() {
        return maxWrite;
    }

    /** COMPOUND RPCs the vectorized calls of this client sent so far (not the session's own setup). */
    public long compoundsSent() {
        return compounds.get();
    }

    /**
     * The session this client's calls go through. It is thread-safe (each call takes a free slot), so other
     * code, such as {@link org.tcnfs.client.stream.RemoteFiles}, may send compounds on it next to this client.
     */
    public Nfs41Session session() {
        return session;
    }

    /** The file handle of the export this client works in. */
    public byte[] rootHandle() {
        return rootHandle.clone();
    }

    /** Whether a transactional call already found out the server has no transactions. */
    public boolean transactionsKnownUnavailable() {
        return transactionsUnavailable;
    }

    // ---- data

    /**
     * Writes each item (create, truncate, append as its flags say). In plain mode a file too large for one
     * compound is written in compounds of its own (open, writes, close); in a transaction it is written in parts,
     * in a transaction that spans compounds ({@link #vtxn}).
     */
    public synchronized VResult<Void> vwrite(List<VWrite> items, Mode mode) throws IOException {
        Map<String, Long> ends = appendOffsets(items);
        if (mode == Mode.TRANSACTION) {
            return runTransactionParts("vwrite", items, ends);
        }
        long large = Math.max(4096, packer.limits().maxRequestBytes() - 64 * 1024);
        List<VResult<Void>> parts = new ArrayList<>();
        int i = 0;
        while (i < items.size()) {
            if (items.get(i).dataUnsafe().length > large) {
                VWrite w = items.get(i);
                VResult<Void> one = writeLarge(w, ends.getOrDefault(w.path(), -1L));
                parts.add(one);
                listener.itemsDone(1);
                i++;
                if (!one.isOk()) {
                    break;
                }
                continue;
            }
            int j = i;
            List<Step<Void>> steps = new ArrayList<>();
            while (j < items.size() && items.get(j).dataUnsafe().length <= large) {
                steps.add(writeStep(items.get(j), ends.getOrDefault(items.get(j).path(), -1L)));
                j++;
            }
            VResult<Void> batch = run("vwrite", steps, mode, OnFailure.STOP);
            parts.add(batch);
            i = j;
            if (!batch.isOk()) {
                break;
            }
        }
        return padNotRun(VResult.concat(parts, mode), items.size());
    }

    /** Sizes of the files the appends of {@code items} go to, read in plain compounds. */
    private Map<String, Long> appendOffsets(List<? extends TxnItem> items) throws IOException {
        List<String> paths = new ArrayList<>();
        for (TxnItem item : items) {
            if (item instanceof VWrite w && w.has(WriteFlag.APPEND) && !w.has(WriteFlag.TRUNCATE)
                    && !paths.contains(w.path())) {
                paths.add(w.path());
            }
        }
        Map<String, Long> sizes = new HashMap<>();
        if (paths.isEmpty()) {
            return sizes;
        }
        VResult<FileInfo> infos = run("append sizes", paths.stream().map(this::getattrStep).toList(), Mode.PLAIN,
                OnFailure.CONTINUE);
        for (int i = 0; i < paths.size(); i++) {
            ItemResult<FileInfo> r = infos.item(i);
            sizes.put(paths.get(i), r.isDone() ? r.value().size() : 0L);
        }
        return sizes;
    }

    /**
     * Reads each item. The first {@link #maxRead()} bytes of every file come in the call's compound(s) (one
     * transaction in {@link Mode#TRANSACTION}); the rest of larger reads follows in plain compounds, by handle.
     *
     * @return per item the bytes read
     */
    public synchronized VResult<byte[]> vread(List<VRead> items, Mode mode) throws IOException {
        List<Step<Chunk>> steps = new ArrayList<>();
        for (VRead r : items) {
            steps.add(openReadStep(r.path(), r.offset(), chunkOf(r.length())));
        }
        VResult<Chunk> first = run("vread", steps, mode, OnFailure.STOP);
        List<ByteArrayOutputStream> data = new ArrayList<>();
        List<ItemResult<byte[]>> results = new ArrayList<>();
        Map<Integer, long[]> pending = new LinkedHashMap<>();
        Map<Integer, byte[]> handles = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            data.add(out);
            results.add(null);
            ItemResult<Chunk> r = first.item(i);
            if (!r.isDone()) {
                results.set(i, new ItemResult<>(r.outcome(), r.status(), null));
                continue;
            }
            out.writeBytes(r.value().data());
            VRead want = items.get(i);
            long got = r.value().data().length;
            boolean more = !r.value().eof() && got > 0 && (want.length() == VRead.TO_END || got < want.length());
            if (more) {
                pending.put(i, new long[] {want.offset() + got, want.length() == VRead.TO_END ? -1 : want.length() - got});
                handles.put(i, r.value().handle());
            }
        }
        int sent = first.compounds();
        while (!pending.isEmpty()) {
            List<Integer> order = new ArrayList<>(pending.keySet());
            List<Step<Chunk>> more = new ArrayList<>();
            for (int i : order) {
                long[] p = pending.get(i);
                more.add(readStep(handles.get(i), p[0], chunkOf(p[1])));
            }
            VResult<Chunk> next = run("vread (continued)", more, Mode.PLAIN, OnFailure.CONTINUE);
            sent += next.compounds();
            for (int k = 0; k < order.size(); k++) {
                int i = order.get(k);
                ItemResult<Chunk> r = next.item(k);
                if (!r.isDone()) {
                    results.set(i, new ItemResult<>(Outcome.FAILED, r.status() == null ? NfsStatus.IO : r.status(), null));
                    pending.remove(i);
                    continue;
                }
                data.get(i).writeBytes(r.value().data());
                long[] p = pending.get(i);
                long got = r.value().data().length;
                p[0] += got;
                if (p[1] >= 0) {
                    p[1] -= got;
                }
                if (r.value().eof() || got == 0 || p[1] == 0) {
                    pending.remove(i);
                }
            }
        }
        int firstFailure = -1;
        for (int i = 0; i < items.size(); i++) {
            if (results.get(i) == null) {
                results.set(i, ItemResult.done(data.get(i).toByteArray()));
            } else if (firstFailure < 0 && results.get(i).outcome() == Outcome.FAILED) {
                firstFailure = i;
            }
        }
        return new VResult<>(results, firstFailure, first.committed() && firstFailure < 0, mode, sent);
    }

    private int chunkOf(long length) {
        return (int) (length < 0 ? maxRead : Math.min(length, maxRead));
    }

    /**
     * Opens each existing file with {@code access}; close them with {@link #vclose}.
     *
     * @return per item the handle and open stateid
     */
    public synchronized VResult<OpenFile> vopen(List<String> paths, OpenAccess access, Mode mode) throws IOException {
        List<Step<OpenFile>> steps = new ArrayList<>();
        for (String p : paths) {
            String path = RemotePath.normalize(p);
            steps.add(new Step<>() {
                @Override
                public void emit(Emitter e) {
                    e.directory(RemotePath.parent(path));
                    e.ops().openExisting(session.clientId(), openOwner, RemotePath.name(path), access.bits()).getfh();
                }

                @Override
                public OpenFile decode(List<nfs_resop4> results) {
                    stateid4 s = body(results, OP_OPEN, OPEN4resok.class).stateid;
                    return new OpenFile(path, handleOf(results), s.seqid, s.other);
                }
            });
        }
        return run("vopen", steps, mode, OnFailure.STOP);
    }

    /** Closes files opened by {@link #vopen}. */
    public synchronized VResult<Void> vclose(List<OpenFile> files, Mode mode) throws IOException {
        List<Step<Void>> steps = new ArrayList<>();
        for (OpenFile f : files) {
            steps.add(voidStep(e -> e.ops().putfh(f.handle()).close(new stateid4(f.stateidSeqid(), f.stateidOther()))));
        }
        return run("vclose", steps, mode, OnFailure.STOP);
    }

    /**
     * Copies files by reading them (plain compounds) and writing the copies (in {@code mode}; one transaction
     * for all copies in {@link Mode#TRANSACTION}). tcnfs offers NFSv4.1 only, so there is no server-side COPY.
     */
    public synchronized VResult<Void> vcopy(List<VCopy> items, Mode mode) throws IOException {
        VResult<byte[]> read = vread(items.stream().map(c -> VRead.whole(c.from())).toList(), Mode.PLAIN);
        int readable = read.firstFailure() < 0 ? items.size() : read.firstFailure();
        List<VWrite> writes = new ArrayList<>();
        for (int i = 0; i < readable; i++) {
            writes.add(VWrite.create(items.get(i).to(), read.value(i)));
        }
        VResult<Void> written = vwrite(writes, mode);
        List<ItemResult<Void>> results = new ArrayList<>(written.items());
        int first = written.firstFailure();
        for (int i = readable; i < items.size(); i++) {
            ItemResult<byte[]> r = read.item(i);
            if (i == readable) {
                results.add(ItemResult.failed(r.status() == null ? NfsStatus.IO : r.status()));
                first = first < 0 ? i : first;
            } else {
                results.add(ItemResult.notRun());
            }
        }
        return new VResult<>(results, first, written.committed() && first < 0, mode,
                read.compounds() + written.compounds());
    }

    // ---- attributes and names

    /** The attributes of each path. */
    public synchronized VResult<FileInfo> vgetattrs(List<String> paths, Mode mode) throws IOException {
        return run("vgetattrs", paths.stream().map(this::getattrStep).toList(), mode, OnFailure.STOP);
    }

    /** Sets the attributes of each item. */
    public synchronized VResult<Void> vsetattrs(List<VSetattr> items, Mode mode) throws IOException {
        return run("vsetattrs", items.stream().map(this::setattrStep).toList(), mode, OnFailure.STOP);
    }

    /**
     * Creates each directory. With {@link Parents#CREATE}, missing parents are created too and existing
     * directories are fine: plain compounds first find out what exists (LOOKUP chains), then the missing
     * directories are created, parents first, in {@code mode}.
     */
    public synchronized VResult<Void> vmkdir(List<String> paths, Mode mode, Parents parents) throws IOException {
        List<String> targets = paths.stream().map(RemotePath::normalize).toList();
        if (parents == Parents.REQUIRE) {
            return run("vmkdir", targets.stream().map(p -> mkdirStep(new VMkdir(p))).toList(), mode, OnFailure.STOP);
        }
        Probe probe = probe(targets);
        java.util.Set<String> toMake = new java.util.LinkedHashSet<>();
        Map<Integer, NfsStatus> refused = new HashMap<>();
        for (int i = 0; i < targets.size(); i++) {
            String t = targets.get(i);
            List<String> chain = prefixes(t);
            for (String prefix : chain) {
                Boolean isDir = probe.isDirectory.get(prefix);
                if (isDir == null) {
                    toMake.add(prefix);
                } else if (!isDir) {
                    refused.put(i, prefix.equals(t) ? NfsStatus.EXIST : NfsStatus.NOTDIR);
                    break;
                }
            }
        }
        List<String> toCreate = new ArrayList<>(toMake);
        toCreate.sort((a, b) -> RemotePath.depth(a) != RemotePath.depth(b)
                ? Integer.compare(RemotePath.depth(a), RemotePath.depth(b)) : a.compareTo(b));
        if (!refused.isEmpty() && mode == Mode.TRANSACTION) {
            List<ItemResult<Void>> results = new ArrayList<>();
            int first = Collections.min(refused.keySet());
            for (int i = 0; i < targets.size(); i++) {
                results.add(i == first ? ItemResult.failed(refused.get(i)) : ItemResult.notRun());
            }
            return new VResult<>(results, first, false, mode, probe.compounds);
        }
        VResult<Void> made = run("vmkdir", toCreate.stream().map(p -> mkdirStep(new VMkdir(p))).toList(), mode,
                OnFailure.STOP);
        Map<String, ItemResult<Void>> byDir = new HashMap<>();
        for (int k = 0; k < toCreate.size(); k++) {
            byDir.put(toCreate.get(k), made.item(k));
        }
        List<ItemResult<Void>> results = new ArrayList<>();
        int first = -1;
        for (int i = 0; i < targets.size(); i++) {
            ItemResult<Void> r = ItemResult.done(null);
            if (refused.containsKey(i)) {
                r = ItemResult.failed(refused.get(i));
            } else {
                for (String prefix : prefixes(targets.get(i))) {
                    ItemResult<Void> d = byDir.get(prefix);
                    if (d != null && rank(d.outcome()) > rank(r.outcome())) {
                        r = d;
                    }
                }
            }
            if (r.outcome() == Outcome.FAILED && first < 0) {
                first = i;
            }
            results.add(r);
        }
        return new VResult<>(results, first, made.committed() && first < 0, mode, probe.compounds + made.compounds());
    }

    /**
     * The directories among {@code paths} and their parents that do not exist yet, parents first: what a
     * transaction has to create before it puts files there (found in plain compounds, as {@code mkdir -p} does).
     *
     * @throws IOException also when one of them exists but is not a directory (NFS4ERR_NOTDIR)
     */
    public synchronized List<String> missingDirectories(List<String> paths) throws IOException {
        List<String> targets = paths.stream().map(RemotePath::normalize).filter(p -> !p.isEmpty()).distinct().toList();
        Probe probe = probe(targets);
        java.util.Set<String> missing = new java.util.LinkedHashSet<>();
        for (String t : targets) {
            for (String prefix : prefixes(t)) {
                Boolean isDir = probe.isDirectory.get(prefix);
                if (Boolean.FALSE.equals(isDir)) {
                    throw NfsExceptions.of(NfsStatus.NOTDIR, "/" + prefix + " is not a directory");
                }
                if (isDir == null) {
                    missing.add(prefix);
                }
            }
        }
        List<String> out = new ArrayList<>(missing);
        out.sort((a, b) -> RemotePath.depth(a) != RemotePath.depth(b)
                ? Integer.compare(RemotePath.depth(a), RemotePath.depth(b)) : a.compareTo(b));
        return out;
    }

    private static int rank(Outcome o) {
        return switch (o) {
            case DONE -> 0;
            case UNDONE -> 1;
            case NOT_RUN -> 2;
            case FAILED -> 3;
        };
    }

    /** Every prefix of {@code path}, shortest first, ending with the path itself. */
    private static List<String> prefixes(String path) {
        List<String> out = new ArrayList<>();
        String acc = "";
        for (String part : RemotePath.components(path)) {
            acc = acc.isEmpty() ? part : acc + "/" + part;
            out.add(acc);
        }
        return out;
    }

    /** What exists of the given paths and their parents: path -> is a directory; absent = missing. */
    private record Probe(Map<String, Boolean> isDirectory, int compounds) {
    }

    private Probe probe(List<String> targets) throws IOException {
        Map<String, Boolean> isDir = new HashMap<>();
        java.util.Set<String> missing = new java.util.HashSet<>();
        TreeSet<String> wanted = new TreeSet<>(targets);
        int sent = 0;
        while (true) {
            List<String> open = new ArrayList<>();
            for (String t : wanted) {
                if (!known(t, isDir, missing)) {
                    open.add(t);
                }
            }
            if (open.isEmpty()) {
                return new Probe(isDir, sent);
            }
            List<Step<Void>> steps = open.stream().map(t -> voidStep(e -> e.object(t).ops().getattr(FATTR4_TYPE)))
                    .toList();
            Sent s = sendPlain(steps, 0, "mkdir probe");
            Packer.Packed p = s.packed();
            CompoundResult r = s.result();
            sent += s.compounds();
            listener.itemsDone(0);
            nfs_resop4[] res = checkedResults(r);
            for (int k = 0; k < p.items(); k++) {
                int[] range = p.ranges().get(k);
                List<String> chain = prefixes(open.get(k));
                if (res.length - 1 >= range[1] && allOk(res, range[0] + 1, range[1] + 1)) {
                    for (int c = 0; c < chain.size() - 1; c++) {
                        isDir.put(chain.get(c), true);
                    }
                    Attrs a = Attrs.decode(((GETATTR4resok) res[range[1]].body).obj_attributes);
                    isDir.put(open.get(k), a.type() == 2);
                    continue;
                }
                // the failing item: the LOOKUPs before the failure found directories, the failed one is missing
                int lookupsOk = 0;
                for (int op = range[0] + 1; op < res.length; op++) {
                    if (res[op].resop == OP_LOOKUP && res[op].status == 0) {
                        lookupsOk++;
                    }
                }
                for (int c = 0; c < Math.min(lookupsOk, chain.size()); c++) {
                    isDir.put(chain.get(c), true);
                }
                if (lookupsOk < chain.size()) {
                    if (NfsStatus.of(res[res.length - 1].status) == NfsStatus.NOTDIR && lookupsOk > 0) {
                        isDir.put(chain.get(lookupsOk - 1), false);
                    } else {
                        missing.add(chain.get(lookupsOk));
                    }
                }
                break;
            }
        }
    }

    private static boolean known(String path, Map<String, Boolean> isDir, java.util.Set<String> missing) {
        if (isDir.containsKey(path)) {
            return true;
        }
        for (String prefix : prefixes(path)) {
            if (missing.contains(prefix) || Boolean.FALSE.equals(isDir.get(prefix))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Lists each directory, with the attributes of every entry; {@link Recursion#RECURSIVE} lists everything
     * beneath, one vectorized round per level. Pages after the first follow in plain compounds, by handle.
     */
    public synchronized VResult<List<DirEntry>> vlistdir(List<String> paths, Recursion recursion, Mode mode)
            throws IOException {
        List<String> dirs = paths.stream().map(RemotePath::normalize).toList();
        List<List<DirEntry>> found = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            found.add(new ArrayList<>());
        }
        VResult<List<DirEntry>> top = listLevel(dirs, mode, OnFailure.STOP);
        int sent = top.compounds();
        List<Integer> owners = new ArrayList<>();
        List<String> next = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            if (top.item(i).isDone()) {
                for (DirEntry e : top.value(i)) {
                    found.get(i).add(e);
                    if (recursion == Recursion.RECURSIVE && e.info().isDirectory()) {
                        owners.add(i);
                        next.add(e.path());
                    }
                }
            }
        }
        Map<Integer, NfsStatus> failures = new HashMap<>();
        while (!next.isEmpty()) {
            VResult<List<DirEntry>> level = listLevel(next, Mode.PLAIN, OnFailure.CONTINUE);
            sent += level.compounds();
            List<Integer> nextOwners = new ArrayList<>();
            List<String> nextDirs = new ArrayList<>();
            for (int k = 0; k < next.size(); k++) {
                int owner = owners.get(k);
                ItemResult<List<DirEntry>> r = level.item(k);
                if (!r.isDone()) {
                    failures.putIfAbsent(owner, r.status() == null ? NfsStatus.IO : r.status());
                    continue;
                }
                for (DirEntry e : r.value()) {
                    found.get(owner).add(e);
                    if (e.info().isDirectory()) {
                        nextOwners.add(owner);
                        nextDirs.add(e.path());
                    }
                }
            }
            owners = nextOwners;
            next = nextDirs;
        }
        List<ItemResult<List<DirEntry>>> results = new ArrayList<>();
        int first = top.firstFailure();
        for (int i = 0; i < dirs.size(); i++) {
            ItemResult<List<DirEntry>> r = top.item(i);
            if (r.isDone() && failures.containsKey(i)) {
                r = ItemResult.failed(failures.get(i));
                first = first < 0 ? i : Math.min(first, i);
            } else if (r.isDone()) {
                r = ItemResult.done(List.copyOf(found.get(i)));
            }
            results.add(r);
        }
        return new VResult<>(results, first, top.committed() && first < 0, mode, sent);
    }

    /** One page-complete listing of each directory (first pages in {@code mode}, later pages plain). */
    private VResult<List<DirEntry>> listLevel(List<String> dirs, Mode mode, OnFailure onFailure) throws IOException {
        int maxcount = (int) Math.max(8192, Math.min(128 * 1024, packer.limits().maxReplyBytes() / 8));
        List<Step<Page>> steps = new ArrayList<>();
        for (String d : dirs) {
            steps.add(readdirStep(d, null, 0, new byte[8], maxcount));
        }
        VResult<Page> first = run("vlistdir", steps, mode, onFailure);
        int sent = first.compounds();
        List<List<DirEntry>> entries = new ArrayList<>();
        Map<Integer, Page> pending = new LinkedHashMap<>();
        List<ItemResult<List<DirEntry>>> results = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            entries.add(new ArrayList<>());
            results.add(null);
            ItemResult<Page> r = first.item(i);
            if (!r.isDone()) {
                results.set(i, new ItemResult<>(r.outcome(), r.status(), null));
                continue;
            }
            entries.get(i).addAll(r.value().entries());
            if (!r.value().eof()) {
                pending.put(i, r.value());
            }
        }
        while (!pending.isEmpty()) {
            List<Integer> order = new ArrayList<>(pending.keySet());
            List<Step<Page>> more = new ArrayList<>();
            for (int i : order) {
                Page p = pending.get(i);
                more.add(readdirStep(dirs.get(i), p.handle(), p.cookie(), p.verifier(), maxcount));
            }
            VResult<Page> next = run("vlistdir (continued)", more, Mode.PLAIN, OnFailure.CONTINUE);
            sent += next.compounds();
            for (int k = 0; k < order.size(); k++) {
                int i = order.get(k);
                ItemResult<Page> r = next.item(k);
                if (!r.isDone()) {
                    results.set(i, ItemResult.failed(r.status() == null ? NfsStatus.IO : r.status()));
                    pending.remove(i);
                    continue;
                }
                entries.get(i).addAll(r.value().entries());
                if (r.value().eof() || r.value().entries().isEmpty()) {
                    pending.remove(i);
                } else {
                    pending.put(i, r.value());
                }
            }
        }
        int firstFailure = -1;
        for (int i = 0; i < dirs.size(); i++) {
            if (results.get(i) == null) {
                results.set(i, ItemResult.done(entries.get(i)));
            } else if (firstFailure < 0 && results.get(i).outcome() == Outcome.FAILED) {
                firstFailure = i;
            }
        }
        return new VResult<>(results, firstFailure, first.committed() && firstFailure < 0, mode, sent);
    }

    /** Creates each symbolic link. */
    public synchronized VResult<Void> vsymlink(List<VSymlink> items, Mode mode) throws IOException {
        return run("vsymlink", items.stream().map(this::symlinkStep).toList(), mode, OnFailure.STOP);
    }

    /** The text of each symbolic link. */
    public synchronized VResult<String> vreadlink(List<String> paths, Mode mode) throws IOException {
        List<Step<String>> steps = new ArrayList<>();
        for (String p : paths) {
            String path = RemotePath.normalize(p);
            steps.add(new Step<>() {
                @Override
                public void emit(Emitter e) {
                    objectVia(e, path).ops().readlink();
                }

                @Override
                public String decode(List<nfs_resop4> results) {
                    return new String(body(results, OP_READLINK, READLINK4resok.class).link, StandardCharsets.UTF_8);
                }
            });
        }
        return run("vreadlink", steps, mode, OnFailure.STOP);
    }

    /** Makes each hard link. */
    public synchronized VResult<Void> vlink(List<VLink> items, Mode mode) throws IOException {
        return run("vlink", items.stream().map(this::linkStep).toList(), mode, OnFailure.STOP);
    }

    /** Removes each file, link or empty directory. */
    public synchronized VResult<Void> vremove(List<String> paths, Mode mode) throws IOException {
        return run("vremove", paths.stream().map(p -> removeStep(new VRemove(p))).toList(), mode, OnFailure.STOP);
    }

    /** Renames each item. */
    public synchronized VResult<Void> vrename(List<VRename> items, Mode mode) throws IOException {
        return run("vrename", items.stream().map(this::renameStep).toList(), mode, OnFailure.STOP);
    }

    /**
     * Runs writes, renames, removes, mkdirs, setattrs, symlinks and links, in the given order, as one transaction:
     * all of them take effect, or none. When they do not fit one compound, they run in a transaction that spans
     * compounds, and a write larger than one compound is split into parts at their offsets. The bytes of a
     * {@link VWriteFrom} are read only as its parts are packed, so memory holds a few compounds of data whatever
     * the items carry (compounds of a transaction that spans compounds: at most {@link #SPANNING_COMPOUND_BYTES}).
     *
     * @throws TransactionsUnsupportedException when the server has no transactions (nothing changed)
     * @throws java.io.UncheckedIOException when the data of a {@link VWriteFrom} cannot be read (the transaction
     *     is aborted)
     */
    public VResult<Void> vtxn(List<? extends TxnItem> items) throws IOException {
        return vapply(items, Mode.TRANSACTION);
    }

    /** Mixed items as {@link #vtxn}, in either mode (plain: as few compounds as fit, stopping at a failure). */
    public synchronized VResult<Void> vapply(List<? extends TxnItem> items, Mode mode) throws IOException {
        Map<String, Long> ends = appendOffsets(items);
        if (mode == Mode.TRANSACTION) {
            return runTransactionParts("vtxn", items, ends);
        }
        List<Step<Void>> steps = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        int part = (int) Math.max(4096, Math.min(packer.limits().maxRequestBytes() - 64 * 1024,
                (long) Math.max(1, packer.limits().maxOperations() - 16) * maxWrite));
        for (int i = 0; i < items.size(); i++) {
            TxnItem item = items.get(i);
            if (item instanceof VWriteFrom f) {
                addPartSteps(f, part, i, steps, owner);
            } else {
                steps.add(stepOf(item, ends));
                owner.add(i);
            }
        }
        return perItem(run("vapply", steps, mode, OnFailure.STOP), owner, items.size());
    }

    /** The steps that write {@code f} in parts of at most {@code part} bytes, each owned by item {@code item}. */
    private void addPartSteps(VWriteFrom f, int part, int item, List<Step<Void>> steps, List<Integer> owner) {
        for (long from = 0; from == 0 || from < f.length(); from += part) {
            steps.add(dataPartStep(f.path(), f.mode(), f.data(), f.offset(), from,
                    (int) Math.min(part, f.length() - from)));
            owner.add(item);
        }
    }

    /**
     * Runs {@code items} as one transaction. A write whose data is larger than {@link #transactionPartBytes} (so
     * larger than one compound) becomes several steps: the first opens (creates, truncates) the file as the
     * item's flags say and writes the first part, each later one opens the file again by its path and writes the
     * next part at its offset. They run in a transaction that spans compounds, so the whole file is written or
     * nothing. The result has one entry per item: a split item's is that of its failed part, or of its last.
     */
    private VResult<Void> runTransactionParts(String what, List<? extends TxnItem> items, Map<String, Long> ends)
            throws IOException {
        int part = transactionPartBytes();
        List<Step<Void>> steps = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        long streamed = 0;
        for (int i = 0; i < items.size(); i++) {
            TxnItem item = items.get(i);
            if (item instanceof VWriteFrom f) {
                streamed += f.length() + 4096;
                addPartSteps(f, part, i, steps, owner);
            } else if (item instanceof VWrite w && w.dataUnsafe().length > part) {
                long end = ends.getOrDefault(w.path(), -1L);
                int length = w.dataUnsafe().length;
                for (int from = 0; from < length; from += part) {
                    steps.add(writeStep(w, end, from, Math.min(length, from + part)));
                    owner.add(i);
                }
            } else {
                steps.add(stepOf(item, ends));
                owner.add(i);
            }
        }
        if (streamed > part) {
            // data read as it is sent does not fit one compound: no trial packing of all of it in memory
            if (transactionsUnavailable) {
                throw TransactionsUnsupportedException.procUnavail(server, null);
            }
            return perItem(runSpanning(what, steps), owner, items.size());
        }
        return perItem(run(what, steps, Mode.TRANSACTION, OnFailure.STOP), owner, items.size());
    }

    /**
     * Writes local files in one transaction: each remote file is created or truncated with its mode and gets the
     * local file's bytes, all of them or none. A file is read in parts as its compounds are packed, so memory
     * holds about one compound of data, whatever the files' sizes; work larger than one compound runs in a
     * transaction that spans compounds. The result has one entry per file.
     *
     * @throws TransactionsUnsupportedException when the server has no transactions (nothing changed)
     * @throws java.io.UncheckedIOException when a local file cannot be read (the transaction is aborted)
     */
    public synchronized VResult<Void> vwriteFiles(List<VWriteFile> items) throws IOException {
        if (transactionsUnavailable) {
            throw TransactionsUnsupportedException.procUnavail(server, null);
        }
        int part = transactionPartBytes();
        List<Step<Void>> steps = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < items.size(); i++) {
            VWriteFile f = items.get(i);
            long size = java.nio.file.Files.size(f.local());
            total += size + 4096;
            for (long from = 0; from == 0 || from < size; from += part) {
                steps.add(filePartStep(f, from, (int) Math.min(part, size - from)));
                owner.add(i);
            }
        }
        VResult<Void> r = total <= part ? run("vwrite", steps, Mode.TRANSACTION, OnFailure.STOP)
                : runSpanning("vwrite", steps);
        return perItem(r, owner, items.size());
    }

    /** The step that writes {@code length} bytes at {@code from} of {@code f}, read from the local file when packed. */
    private Step<Void> filePartStep(VWriteFile f, long from, int length) {
        return dataPartStep(f.path(), f.mode(), LocalData.of(f.local()), 0, from, length);
    }

    /**
     * The step that writes bytes {@code from} to {@code from + length} of a file at {@code path}, read from
     * {@code data} at {@code base + from} each time the step is packed. The part at 0 creates or truncates the
     * file with {@code mode}; a later part opens it again by its path and writes at its offset (a part of a
     * transaction that began with the first). A failed read is thrown as an {@link java.io.UncheckedIOException}.
     */
    private Step<Void> dataPartStep(String path, int mode, LocalData data, long base, long from, int length) {
        int chunks = Math.max(1, (length + maxWrite - 1) / maxWrite);
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                byte[] bytes;
                try {
                    bytes = length == 0 ? new byte[0] : data.read(base + from, length);
                } catch (IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
                if (bytes.length != length) {
                    throw new java.io.UncheckedIOException(new java.io.EOFException(path + ": expected " + length
                            + " bytes at " + (base + from) + ", got " + bytes.length));
                }
                e.directory(RemotePath.parent(path));
                if (from == 0) {
                    addOpenForWrite(e.ops(), new VWrite(path, 0, new byte[0],
                            java.util.EnumSet.of(WriteFlag.CREATE, WriteFlag.TRUNCATE), mode));
                } else {
                    e.ops().openExisting(session.clientId(), openOwner, RemotePath.name(path),
                            OPEN4args.OPEN4_SHARE_ACCESS_WRITE);
                }
                addWrites(e.ops(), CompoundBuilder.currentStateid(), from, bytes, 0, length);
                e.ops().close(CompoundBuilder.currentStateid());
            }

            @Override
            public long replyBytes() {
                return 512L + 64L * chunks;
            }

            @Override
            public Void decode(List<nfs_resop4> results) {
                return null;
            }
        };
    }

    /** One result per item from the result of their steps ({@code owner}: each step's item). */
    private static VResult<Void> perItem(VResult<Void> r, List<Integer> owner, int items) {
        if (owner.size() == items || r.items().size() != owner.size()) {
            return r;
        }
        List<ItemResult<Void>> results = new ArrayList<>(Collections.nCopies(items, null));
        for (int s = 0; s < owner.size(); s++) {
            results.set(owner.get(s), r.item(s));
        }
        int failed = r.firstFailure() < 0 ? -1 : owner.get(r.firstFailure());
        if (failed >= 0) {
            results.set(failed, r.item(r.firstFailure()));
        }
        return new VResult<>(results, failed, r.committed(), r.mode(), r.compounds());
    }

    /**
     * The most data bytes one step of a transactional write carries: what the compounds of a transaction that
     * spans compounds allow, less room for the other operations, and at most as many WRITEs as the operation
     * limit leaves.
     */
    private int transactionPartBytes() {
        Packer.Limits l = spanningPacker.limits();
        long bytes = Math.max(4096, l.maxRequestBytes() - 64 * 1024);
        long byOps = (long) Math.max(1, l.maxOperations() - 16) * maxWrite;
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.min(bytes, byOps));
    }

    private Step<Void> stepOf(TxnItem item, Map<String, Long> ends) {
        if (item instanceof VWrite w) {
            return writeStep(w, ends.getOrDefault(w.path(), -1L));
        } else if (item instanceof VRename r) {
            return renameStep(r);
        } else if (item instanceof VRemove r) {
            return removeStep(r);
        } else if (item instanceof VMkdir m) {
            return mkdirStep(m);
        } else if (item instanceof VSetattr s) {
            return setattrStep(s);
        } else if (item instanceof VSymlink s) {
            return symlinkStep(s);
        } else if (item instanceof VLink l) {
            return linkStep(l);
        }
        throw new IllegalArgumentException("unknown item " + item);
    }

    // ---- steps

    /** RESTOREFH/PUTFH of the parent then LOOKUP of the name; the root by PUTFH alone. */
    private static Emitter objectVia(Emitter e, String path) {
        if (path.isEmpty()) {
            return e.object(path);
        }
        e.directory(RemotePath.parent(path));
        e.ops().lookup(RemotePath.name(path));
        return e;
    }

    private Step<Void> writeStep(VWrite w, long end) {
        return writeStep(w, end, 0, w.dataUnsafe().length);
    }

    /**
     * The step that writes bytes {@code from} to {@code to} of {@code w}'s data. The part at 0 opens the file as
     * {@code w}'s flags say (create, truncate, append after a size check); a later part opens the existing file
     * and writes at its offset (a part of a transaction that began with the first).
     */
    private Step<Void> writeStep(VWrite w, long end, int from, int to) {
        byte[] data = w.dataUnsafe();
        int chunks = Math.max(1, (to - from + maxWrite - 1) / maxWrite);
        boolean appends = w.has(WriteFlag.APPEND) && !w.has(WriteFlag.TRUNCATE);
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                e.directory(RemotePath.parent(w.path()));
                long offset = appends ? Math.max(end, 0) : w.offset();
                if (from == 0) {
                    addOpenForWrite(e.ops(), w);
                    if (appends) {
                        e.ops().verify(Attrs.builder().size(offset).build());
                    }
                } else {
                    e.ops().openExisting(session.clientId(), openOwner, RemotePath.name(w.path()),
                            OPEN4args.OPEN4_SHARE_ACCESS_WRITE);
                }
                addWrites(e.ops(), CompoundBuilder.currentStateid(), offset, data, from, to);
                e.ops().close(CompoundBuilder.currentStateid());
            }

            @Override
            public long replyBytes() {
                return 512L + 64L * chunks;
            }

            @Override
            public Void decode(List<nfs_resop4> results) {
                return null;
            }
        };
    }

    /** OPEN for writing as the flags say, then SETATTR size 0 for a truncation of a file that must exist. */
    private void addOpenForWrite(CompoundBuilder ops, VWrite w) {
        String name = RemotePath.name(w.path());
        int access = OPEN4args.OPEN4_SHARE_ACCESS_WRITE;
        if (w.has(WriteFlag.CREATE)) {
            Attrs.Builder attrs = Attrs.builder().mode(w.mode());
            if (w.has(WriteFlag.TRUNCATE) && !w.has(WriteFlag.EXCLUSIVE)) {
                attrs.size(0);
            }
            int how = w.has(WriteFlag.EXCLUSIVE) ? createmode4.GUARDED4 : createmode4.UNCHECKED4;
            ops.open(new OPEN4args(0, access, OPEN4args.OPEN4_SHARE_DENY_NONE, new open_owner4(session.clientId(),
                    openOwner.clone()), openflag4.create(createhow4.withAttributes(how, attrs.build())),
                    open_claim4.byName(name)));
        } else {
            ops.openExisting(session.clientId(), openOwner, name, access);
            if (w.has(WriteFlag.TRUNCATE)) {
                ops.setattr(CompoundBuilder.currentStateid(), Attrs.builder().size(0).build());
            }
        }
    }

    /** WRITEs of at most {@link #maxWrite} bytes each, as stable as the client's {@link WriteStability} says. */
    private void addWrites(CompoundBuilder ops, stateid4 stateid, long offset, byte[] data, int from, int to) {
        for (int pos = from; pos < to; pos += maxWrite) {
            int n = Math.min(maxWrite, to - pos);
            ops.op(org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE, new org.tcnfs.nfs4.xdr.WRITE4args(stateid,
                    offset + pos, stability.stableHow(), ByteBuffer.wrap(data, pos, n).slice()));
        }
    }

    /** A write too large for one compound: OPEN and the first WRITEs, more WRITEs by handle, then CLOSE. */
    private VResult<Void> writeLarge(VWrite w, long end) throws IOException {
        byte[] data = w.dataUnsafe();
        long budget = packer.limits().maxRequestBytes() - 8192;
        int perCompound = (int) Math.max(1, Math.min(budget / (maxWrite + 64L), packer.limits().maxOperations() - 8));
        CompoundBuilder first = new CompoundBuilder().tag("vnfs-large");
        Emitter e = new Emitter(rootHandle, first);
        e.directory(RemotePath.parent(w.path()));
        addOpenForWrite(first, w);
        first.getfh();
        long offset = w.offset();
        if (w.has(WriteFlag.APPEND) && !w.has(WriteFlag.TRUNCATE)) {
            offset = Math.max(end, 0);
            first.verify(Attrs.builder().size(offset).build());
        }
        int pos = Math.min(data.length, perCompound * maxWrite);
        addWrites(first, CompoundBuilder.currentStateid(), offset, data, 0, pos);
        int sent = 1;
        CompoundResult r = send(first, Mode.PLAIN);
        checkedResults(r);
        if (!r.isOk()) {
            return single(ItemResult.failed(r.status()), sent);
        }
        stateid4 open = r.body(OP_OPEN, OPEN4resok.class).stateid;
        byte[] fh = r.fileHandle();
        NfsStatus failure = null;
        while (pos < data.length && failure == null) {
            int to = (int) Math.min(data.length, pos + (long) perCompound * maxWrite);
            CompoundBuilder more = new CompoundBuilder().tag("vnfs-large").putfh(fh);
            addWrites(more, open, offset, data, pos, to);
            CompoundResult m = send(more, Mode.PLAIN);
            sent++;
            checkedResults(m);
            if (!m.isOk()) {
                failure = m.status();
            }
            pos = to;
        }
        CompoundResult closed = send(new CompoundBuilder().tag("vnfs-large").putfh(fh).close(open), Mode.PLAIN);
        sent++;
        if (failure == null && !closed.isOk()) {
            failure = closed.status();
        }
        return single(failure == null ? ItemResult.done(null) : ItemResult.failed(failure), sent);
    }

    private static VResult<Void> single(ItemResult<Void> r, int compounds) {
        return new VResult<>(List.of(r), r.outcome() == Outcome.FAILED ? 0 : -1, r.isDone(), Mode.PLAIN, compounds);
    }

    /** Read data, whether it reached the end, and the file's handle for more. */
    private record Chunk(byte[] handle, byte[] data, boolean eof) {
    }

    /** OPEN (read, by name in the parent), GETFH, READ with the current stateid, CLOSE. */
    private Step<Chunk> openReadStep(String path, long offset, int count) {
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                e.directory(RemotePath.parent(path));
                e.ops().openExisting(session.clientId(), openOwner, RemotePath.name(path),
                        OPEN4args.OPEN4_SHARE_ACCESS_READ).getfh()
                        .read(CompoundBuilder.currentStateid(), offset, count)
                        .close(CompoundBuilder.currentStateid());
            }

            @Override
            public long replyBytes() {
                return 1024L + count;
            }

            @Override
            public Chunk decode(List<nfs_resop4> results) {
                return chunk(handleOf(results), body(results, OP_READ, READ4resok.class));
            }
        };
    }

    /** PUTFH, READ with the anonymous stateid: the rest of a read. */
    private Step<Chunk> readStep(byte[] handle, long offset, int count) {
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                e.ops().putfh(handle).read(CompoundBuilder.anonymousStateid(), offset, count);
            }

            @Override
            public long replyBytes() {
                return 512L + count;
            }

            @Override
            public Chunk decode(List<nfs_resop4> results) {
                return chunk(handle, body(results, OP_READ, READ4resok.class));
            }
        };
    }

    private static Chunk chunk(byte[] handle, READ4resok read) {
        ByteBuffer b = read.data.duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new Chunk(handle, bytes, read.eof);
    }

    private Step<FileInfo> getattrStep(String p) {
        String path = RemotePath.normalize(p);
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                objectVia(e, path).ops().getattr(INFO_ATTRS);
            }

            @Override
            public FileInfo decode(List<nfs_resop4> results) throws IOException {
                return info(Attrs.decode(body(results, OP_GETATTR, GETATTR4resok.class).obj_attributes));
            }
        };
    }

    private Step<Void> setattrStep(VSetattr s) {
        Attrs.Builder b = Attrs.builder();
        s.mode().ifPresent(b::mode);
        s.size().ifPresent(b::size);
        s.owner().ifPresent(b::owner);
        s.group().ifPresent(b::ownerGroup);
        s.modifyTime().ifPresent(t -> b.timeModifySet(t.getEpochSecond(), t.getNano()));
        fattr4 attrs = b.build();
        return voidStep(e -> objectVia(e, s.path()).ops().setattr(attrs));
    }

    private Step<Void> mkdirStep(VMkdir m) {
        return voidStep(e -> {
            e.directory(RemotePath.parent(m.path()));
            e.ops().mkdir(RemotePath.name(m.path()), Attrs.builder().mode(m.mode()).build());
        });
    }

    private Step<Void> symlinkStep(VSymlink s) {
        return voidStep(e -> {
            e.directory(RemotePath.parent(s.path()));
            e.ops().symlink(RemotePath.name(s.path()), s.target());
        });
    }

    private Step<Void> removeStep(VRemove r) {
        return voidStep(e -> {
            e.directory(RemotePath.parent(r.path()));
            e.ops().remove(RemotePath.name(r.path()));
            e.invalidate(r.path());
        });
    }

    private Step<Void> renameStep(VRename r) {
        String fromDir = RemotePath.parent(r.from());
        return voidStep(e -> {
            e.object(fromDir).ops().savefh();
            e.savedIs(fromDir);
            e.object(RemotePath.parent(r.to())).ops().rename(RemotePath.name(r.from()), RemotePath.name(r.to()));
            e.invalidate(r.from());
            e.invalidate(r.to());
        });
    }

    private Step<Void> linkStep(VLink l) {
        return voidStep(e -> {
            e.object(l.existing()).ops().savefh();
            e.savedIs(null);
            e.object(RemotePath.parent(l.newPath())).ops().link(RemotePath.name(l.newPath()));
        });
    }

    /** A listing page: the directory's handle, entries, where to go on, whether it is the last. */
    private record Page(byte[] handle, List<DirEntry> entries, long cookie, byte[] verifier, boolean eof) {
    }

    private Step<Page> readdirStep(String dir, byte[] handle, long cookie, byte[] verifier, int maxcount) {
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                if (handle == null) {
                    objectVia(e, dir).ops().getfh();
                } else {
                    e.ops().putfh(handle);
                }
                e.ops().readdir(cookie, verifier, maxcount, maxcount, INFO_ATTRS);
            }

            @Override
            public long replyBytes() {
                return 512L + maxcount;
            }

            @Override
            public Page decode(List<nfs_resop4> results) throws IOException {
                byte[] fh = handle == null ? handleOf(results) : handle;
                READDIR4resok ok = body(results, OP_READDIR, READDIR4resok.class);
                List<DirEntry> entries = new ArrayList<>();
                long last = cookie;
                for (entry4 en : ok.reply.entries) {
                    String name = new String(en.name, StandardCharsets.UTF_8);
                    entries.add(new DirEntry(RemotePath.join(dir, name), name, info(Attrs.decode(en.attrs))));
                    last = en.cookie;
                }
                return new Page(fh, entries, last, ok.cookieverf.value.clone(), ok.reply.eof);
            }
        };
    }

    /** A step without a value. */
    private static Step<Void> voidStep(java.util.function.Consumer<Emitter> emit) {
        return new Step<>() {
            @Override
            public void emit(Emitter e) {
                emit.accept(e);
            }

            @Override
            public Void decode(List<nfs_resop4> results) {
                return null;
            }
        };
    }

    private static FileInfo info(Attrs a) {
        nfstime4 t = a.has(FATTR4_TIME_MODIFY) ? a.timeModify() : new nfstime4();
        return new FileInfo(FileInfo.FileType.of(a.type()), a.has(FATTR4_SIZE) ? a.size() : 0,
                a.has(FATTR4_MODE) ? a.mode() : 0, a.has(FATTR4_NUMLINKS) ? a.numlinks() : 1,
                a.has(FATTR4_OWNER) ? a.owner() : "", a.has(FATTR4_OWNER_GROUP) ? a.ownerGroup() : "",
                Instant.ofEpochSecond(t.seconds, t.nseconds), a.has(FATTR4_FILEID) ? a.fileid() : 0);
    }

    private static <T> T body(List<nfs_resop4> results, int opnum, Class<T> type) {
        for (int i = results.size() - 1; i >= 0; i--) {
            if (results.get(i).resop == opnum) {
                return type.cast(results.get(i).body);
            }
        }
        throw new IllegalStateException("no result of op " + opnum);
    }

    private static byte[] handleOf(List<nfs_resop4> results) {
        return body(results, OP_GETFH, GETFH4resok.class).object.value.clone();
    }

    // ---- sending

    /** What a plain call does after a failed item. */
    private enum OnFailure {
        /** Nothing more is sent; later items are NOT_RUN (the vNFS contract). */
        STOP,
        /** Later items still run (internal look-ups: probes, continuations). */
        CONTINUE
    }

    private <T> VResult<T> run(String what, List<? extends Step<T>> steps, Mode mode, OnFailure onFailure)
            throws IOException {
        if (steps.isEmpty()) {
            return new VResult<>(List.of(), -1, true, mode, 0);
        }
        if (mode == Mode.TRANSACTION) {
            return runTransaction(what, steps);
        }
        List<ItemResult<T>> results = new ArrayList<>(Collections.nCopies(steps.size(), null));
        int first = -1;
        int sent = 0;
        int i = 0;
        Backoff backoff = null;
        while (i < steps.size()) {
            Sent s;
            try {
                s = sendPlain(steps, i, what);
            } catch (NoReplyException e) {
                throw new LateReplyException(what + ": " + server + " did not answer within " + seconds(e)
                        + stillWorking(e) + "; items 1 to " + i + " of "
                        + steps.size() + " are done, the next ones may or may not be (in order)",
                        LateReplyException.Known.SOME_DONE, e);
            }
            Packer.Packed p = s.packed();
            CompoundResult r = s.result();
            sent += s.compounds();
            int failed = decode(p, r, steps, results, Mode.PLAIN);
            if (failed > p.firstItem() && notNow(r.status()) && itemMayRunAgain(p, r, failed)) {
                // the items before it in this compound are done; the refused one did nothing: send it again
                // (a refused first item was sent again by send() already, up to the timeout)
                backoff = backoff != null ? backoff : new Backoff(retryFor);
                if (backoff.pause()) {
                    LOG.debug("{}: {} for item {}, sending it again", what, r.status(), failed);
                    listener.itemsDone(failed - p.firstItem());
                    i = failed;
                    continue;
                }
            }
            backoff = failed < 0 ? null : backoff;
            listener.itemsDone(failed < 0 ? p.items() : failed - p.firstItem() + 1);
            if (failed < 0) {
                i += p.items();
                continue;
            }
            first = first < 0 ? failed : first;
            if (onFailure == OnFailure.STOP) {
                for (int k = failed + 1; k < steps.size(); k++) {
                    results.set(k, ItemResult.notRun());
                }
                break;
            }
            i = failed + 1;
        }
        return new VResult<>(results, first, first < 0, Mode.PLAIN, sent);
    }

    /** A plain compound as sent and answered, and how many tries it took. */
    private record Sent(Packer.Packed packed, CompoundResult result, int compounds) {
    }

    /**
     * Packs and sends the next plain compound. Some servers grant more operations per compound at
     * CREATE_SESSION than they accept (NFS-Ganesha 4 grants what is asked and refuses more than 100 with
     * NFS4ERR_RESOURCE before running anything): a compound refused as too large, with no operation run, is
     * packed again with half the operations and resent, and the lower limit is kept for later calls. The same
     * holds for a compound of more than {@value #GARBAGE_SPLIT_MIN_OPS} operations answered with the RPC status
     * GARBAGE_ARGS (NFS-Ganesha 4.3's decoder takes at most 1,024 operations, whatever the session says); a
     * smaller one, or a single item, fails with that {@link RpcReplyException}. Such a compound was never
     * decoded, so its SEQUENCE did not run: the session does not advance the slot's sequence id
     * ({@link Nfs41Session#execute}), and the slot's next request carries it again. A compound answered
     * NFS4ERR_DELAY before any operation ran (tcnfs: its locks were busy) is resent as it is, after a growing
     * pause ({@link #send}), and so is one answered NFS4ERR_DELAY or NFS4ERR_GRACE after operations that
     * change nothing.
     */
    private Sent sendPlain(List<? extends Step<?>> steps, int from, String what) throws IOException {
        long before = compounds.get();
        while (true) {
            Packer.Packed p = packer.next(steps, from, what);
            CompoundResult r;
            try {
                r = send(p.ops(), Mode.PLAIN);
            } catch (RpcReplyException e) {
                if (!undecodedForItsSize(p, e)) {
                    throw e;
                }
                halve(p, RpcAcceptStatus.GARBAGE_ARGS);
                continue;
            }
            if (!refusedAsTooLarge(r) || p.ops().size() <= 1) {
                return new Sent(p, r, (int) (compounds.get() - before));
            }
            halve(p, r.status());
        }
    }

    /**
     * Packs later plain compounds with at most half of {@code refused}'s operations, which the server refused
     * with {@code why}.
     */
    private void halve(Packer.Packed refused, Object why) {
        int ops = Math.max(1, refused.ops().size() / 2);
        LOG.info("{} refused a compound of {} operations with {}; sending at most {} from now on", server,
                refused.ops().size() + 1, why, ops + 1);
        Packer.Limits l = packer.limits();
        packer = new Packer(rootHandle, l.withMaxOperations(ops));
    }

    /**
     * Whether the server answered {@code p} with GARBAGE_ARGS while it holds more than
     * {@value #GARBAGE_SPLIT_MIN_OPS} operations (SEQUENCE included) of more than one item: then its size is
     * the likely reason, and halves may pass.
     */
    private static boolean undecodedForItsSize(Packer.Packed p, RpcReplyException e) {
        return e.acceptStatus().orElse(null) == RpcAcceptStatus.GARBAGE_ARGS
                && p.ops().size() + 1 > GARBAGE_SPLIT_MIN_OPS && p.items() > 1;
    }

    /** Whether {@code status} means "not now, try again": NFS4ERR_DELAY or NFS4ERR_GRACE. */
    private static boolean notNow(NfsStatus status) {
        return status == NfsStatus.DELAY || status == NfsStatus.GRACE;
    }

    /**
     * Whether a plain compound answered NFS4ERR_DELAY or NFS4ERR_GRACE changed nothing, so it may be sent
     * again as it is: every operation before the refused one is {@linkplain #SAFE_TO_RERUN re-runnable}.
     */
    private static boolean mayRunAgain(CompoundResult r) {
        return notNow(r.status()) && onlySafeOps(r, 1, r.response().resarray.length - 1);
    }

    /** Whether the operations of item {@code failed} before its refused one change nothing. */
    private static boolean itemMayRunAgain(Packer.Packed p, CompoundResult r, int failed) {
        int[] range = p.ranges().get(failed - p.firstItem());
        return onlySafeOps(r, range[0] + 1, r.response().resarray.length - 1);
    }

    /** Whether the request's operations {@code from} to {@code to} (exclusive; SEQUENCE is 0) are re-runnable. */
    private static boolean onlySafeOps(CompoundResult r, int from, int to) {
        for (int k = Math.max(1, from); k < to; k++) {
            if (!SAFE_TO_RERUN.contains(r.request().argarray[k].argop)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the server refused the compound for its size before running any operation. */
    private static boolean refusedAsTooLarge(CompoundResult r) {
        nfs_resop4[] res = r.response().resarray;
        NfsStatus status = r.status();
        boolean tooLarge = status == NfsStatus.RESOURCE || status == NfsStatus.TOO_MANY_OPS
                || status == NfsStatus.REQ_TOO_BIG;
        return tooLarge && (res.length == 0 || res.length == 1 && res[0].status != 0);
    }

    private <T> VResult<T> runTransaction(String what, List<? extends Step<T>> steps) throws IOException {
        if (transactionsUnavailable) {
            throw TransactionsUnsupportedException.procUnavail(server, null);
        }
        Packer.Packed p;
        try {
            p = txnPacker.all(steps, what);
        } catch (CompoundTooLargeException tooLarge) {
            LOG.debug("{} does not fit one compound ({}); running it as a transaction that spans compounds", what,
                    tooLarge.getMessage());
            return runSpanning(what, steps);
        }
        List<ItemResult<T>> results = new ArrayList<>(Collections.nCopies(steps.size(), null));
        long before = compounds.get();
        CompoundResult r;
        try {
            r = send(p.ops(), Mode.TRANSACTION);
        } catch (NoReplyException e) {
            throw outcomeUnknown(what, "the transactional compound", e);
        }
        int sent = (int) (compounds.get() - before);
        nfs_resop4[] res = r.response().resarray;
        if (r.status() == NfsStatus.NOTSUPP && res.length == 2 && res[0].status == 0) {
            throw TransactionsUnsupportedException.refused(server, brief(r));
        }
        int failed = decode(p, r, steps, results, Mode.TRANSACTION);
        listener.itemsDone(steps.size());
        return new VResult<>(results, failed, failed < 0, Mode.TRANSACTION, sent);
    }

    /**
     * Runs a transaction that does not fit one compound as a transaction that spans compounds (docs/protocol.md):
     * TXN_BEGIN, the items packed into as few TXN_COMPOUNDs as the session allows, TXN_COMMIT. A compound that
     * fails ends the transaction on the server (nothing of it remains) and its item is the failure; the items
     * before it are UNDONE. NFS4ERR_DEADLOCK (wait-die: an older transaction holds a key) or NFS4ERR_DELAY
     * (locks busy) also ends it: it is begun again with its old ticket, so that it keeps its age, after a pause of
     * the one retry policy ({@link Backoff}, as for TXN_BEGIN's NFS4ERR_DELAY). There is no fixed number of
     * attempts: it gives up when the timeout passed without progress, where progress is an attempt that got
     * further than every earlier one, or one that died of NFS4ERR_DEADLOCK (an older transaction holds the key
     * and runs: as the older ones finish, this one becomes the oldest, which never dies); and in any case after
     * {@value #SPANNING_PATIENCE} times the timeout.
     */
    private <T> VResult<T> runSpanning(String what, List<? extends Step<T>> steps) throws IOException {
        long ticket = 0;
        int sent = 0;
        Backoff backoff = null;
        long started = System.nanoTime();
        int furthest = 0;
        for (int attempt = 0; ; attempt++) {
            Nfs41Session.SpanningTransaction txn = beginSpanning(ticket);
            ticket = txn.ticket();
            List<ItemResult<T>> results = new ArrayList<>(Collections.nCopies(steps.size(), null));
            int from = 0;
            int failed = -1;
            NfsStatus retryable = null;
            boolean ended = false;
            try {
                while (from < steps.size()) {
                    Packer.Packed p = spanningPacker.next(steps, from, what);
                    compounds.incrementAndGet();
                    CompoundResult r;
                    try {
                        r = txn.execute(p.ops());
                    } catch (NoReplyException e) {
                        throw new LateReplyException(what + ": " + server + " did not answer a compound of the "
                                + "transaction (items " + (from + 1) + " to " + (from + p.items()) + " of "
                                + steps.size() + ") within " + seconds(e) + stillWorking(e) + "; the transaction was not committed and never will be: the "
                                + "server rolls it back (nothing of it remains) when it is done, when this "
                                + "connection closes or after its idle timeout", LateReplyException.Known.NOT_COMMITTED,
                                e);
                    }
                    sent++;
                    if ((r.status() == NfsStatus.DEADLOCK || r.status() == NfsStatus.DELAY)
                            && refusedAtItsFirstOperation(r)) {
                        retryable = r.status();
                        ended = true;
                        break;
                    }
                    int f = decode(p, r, steps, results, Mode.TRANSACTION);
                    if (f >= 0) {
                        failed = f;
                        ended = true;
                        break;
                    }
                    listener.itemsDone(p.items());
                    from += p.items();
                }
            } finally {
                if (!ended && from < steps.size()) {
                    abortQuietly(txn);
                }
            }
            if (retryable != null) {
                backoff = backoff != null ? backoff : new Backoff(retryFor);
                if (retryable == NfsStatus.DEADLOCK || from > furthest) {
                    backoff.progressed();
                }
                furthest = Math.max(furthest, from);
                boolean patient = System.nanoTime() - started < retryFor.toNanos() * SPANNING_PATIENCE;
                if (!patient || !backoff.pause()) {
                    throw NfsExceptions.of(retryable, what + ": gave up after " + (attempt + 1) + " attempts of a "
                            + "transaction that spans compounds in " + (System.nanoTime() - started) / 1_000_000
                            + " ms, the last ended with " + retryable + " (ticket " + ticket + ")");
                }
                LOG.debug("{}: the transaction that spans compounds ended with {} after {} of {} items; began it "
                        + "again with ticket {} (attempt {})", what, retryable, from, steps.size(), ticket,
                        attempt + 2);
                continue;
            }
            if (failed >= 0) {
                for (int k = 0; k < failed; k++) {
                    results.set(k, ItemResult.undone());
                }
                for (int k = failed + 1; k < steps.size(); k++) {
                    results.set(k, ItemResult.notRun());
                }
                return new VResult<>(results, failed, false, Mode.TRANSACTION, sent);
            }
            int status;
            try {
                status = txn.commit();
            } catch (NoReplyException e) {
                throw outcomeUnknown(what, "TXN_COMMIT of its " + sent + " compounds", e);
            }
            sent++;
            if (status != NfsStatus.OK.code()) {
                throw NfsExceptions.of(NfsStatus.of(status), what + ": TXN_COMMIT failed; nothing of the "
                        + steps.size() + " items remains");
            }
            return new VResult<>(results, -1, true, Mode.TRANSACTION, sent);
        }
    }

    /**
     * A transaction that spans compounds is begun again after NFS4ERR_DEADLOCK or NFS4ERR_DELAY for at most this
     * many times the timeout in all, however much progress it sees.
     */
    private static final int SPANNING_PATIENCE = 10;

    private Nfs41Session.SpanningTransaction beginSpanning(long ticket) throws IOException {
        Backoff backoff = new Backoff(retryFor);
        while (true) {
            Nfs41Session.SpanningTransaction txn;
            try {
                txn = session.beginTransaction(ticket);
            } catch (RpcReplyException e) {
                if (e.acceptStatus().orElse(null) == RpcAcceptStatus.PROC_UNAVAIL) {
                    transactionsUnavailable = true;
                    throw TransactionsUnsupportedException.procUnavail(server, e);
                }
                throw e;
            }
            NfsStatus status = NfsStatus.of(txn.beginStatus());
            if (status == NfsStatus.OK) {
                return txn;
            }
            if (status != NfsStatus.DELAY || !backoff.pause()) {
                throw NfsExceptions.of(status, "TXN_BEGIN refused by " + server);
            }
        }
    }

    /** The failure of a transaction whose commit got no answer in time: committed whole, or nothing changed. */
    private LateReplyException outcomeUnknown(String what, String call, NoReplyException e) {
        return new LateReplyException(what + ": " + server + " did not answer " + call + " within " + seconds(e)
                + stillWorking(e) + "; the transaction's outcome is unknown: it "
                + "either committed whole or changed nothing (look at one of its files, e.g. with tcnfs stat, to see "
                + "which)", LateReplyException.Known.COMMITTED_OR_NOTHING, e);
    }

    /** What the server said while the call waited: it was still working on it, or nothing. */
    private static String stillWorking(NoReplyException e) {
        return e.workingAnswers() > 0 ? " although it answered " + e.workingAnswers() + " times that it was still "
                + "working on it" : "";
    }

    private static String seconds(NoReplyException e) {
        return (e.waited().toMillis() + 500) / 1000 + " s";
    }

    private static void abortQuietly(Nfs41Session.SpanningTransaction txn) {
        try {
            txn.abort();
        } catch (IOException | RuntimeException e) {
            LOG.debug("TXN_ABORT failed (the server aborts it when the connection closes or it idles): {}",
                    e.toString());
        }
    }

    /** Whether the compound failed at its first operation after SEQUENCE (where locks are taken): nothing ran. */
    private static boolean refusedAtItsFirstOperation(CompoundResult r) {
        nfs_resop4[] res = r.response().resarray;
        return res.length <= 2 && (res.length < 2 || res[0].status == 0);
    }

    /**
     * Fills {@code results} for the items of {@code p} from the reply; returns the failed item's index or -1. In
     * a transaction that failed, the items before the failure are UNDONE.
     */
    private <T> int decode(Packer.Packed p, CompoundResult r, List<? extends Step<T>> steps,
            List<ItemResult<T>> results, Mode mode) throws IOException {
        nfs_resop4[] res = checkedResults(r);
        List<nfs_resop4> ops = Arrays.asList(res).subList(1, res.length);
        int failed = -1;
        for (int k = 0; k < p.items(); k++) {
            int item = p.firstItem() + k;
            int[] range = p.ranges().get(k);
            if (failed >= 0) {
                results.set(item, ItemResult.notRun());
            } else if (ops.size() >= range[1] && allOk(res, range[0] + 1, range[1] + 1)) {
                results.set(item, ItemResult.done(steps.get(item).decode(ops.subList(range[0], range[1]))));
            } else if (ops.size() > range[0]) {
                failed = item;
                results.set(item, ItemResult.failed(NfsStatus.of(res[res.length - 1].status)));
            } else {
                throw new IOException("compound stopped before item " + item + " without a failure: " + brief(r));
            }
        }
        if (failed < 0 && !r.isOk()) {
            throw new IOException("compound failed after its last item: " + brief(r));
        }
        if (failed >= 0 && mode == Mode.TRANSACTION) {
            for (int k = p.firstItem(); k < failed; k++) {
                results.set(k, ItemResult.undone());
            }
        }
        return failed;
    }

    /** The reply's results, SEQUENCE first; an IOException when the SEQUENCE itself failed. */
    private static nfs_resop4[] checkedResults(CompoundResult r) throws IOException {
        nfs_resop4[] res = r.response().resarray;
        if (res.length == 0) {
            throw NfsExceptions.of(r.status(), "compound refused before SEQUENCE: " + brief(r));
        }
        if (res[0].status != 0) {
            throw NfsExceptions.of(NfsStatus.of(res[0].status), "SEQUENCE failed: " + brief(r));
        }
        return res;
    }

    /** The compound's description, cut to a readable length. */
    private static String brief(CompoundResult r) {
        String all = r.toString();
        return all.length() <= 400 ? all : all.substring(0, 400) + "... (" + r.request().argarray.length + " ops)";
    }

    private static boolean allOk(nfs_resop4[] res, int from, int to) {
        for (int i = from; i < to; i++) {
            if (res[i].status != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends {@code ops}, again after a growing pause ({@link Backoff}, for at most the timeout) while the
     * server answers "not now" without having changed anything: NFS4ERR_DELAY or NFS4ERR_GRACE to a
     * transaction (it rolled back, whatever ran), or to a plain compound whose operations before the refused
     * one change nothing (the refused one did nothing: RFC 8881 15.1.1.3, 15.1.9.2).
     */
    private CompoundResult send(CompoundBuilder ops, Mode mode) throws IOException {
        CompoundResult r = sendOnce(ops, mode);
        if (!notNow(r.status()) || mode == Mode.PLAIN && !mayRunAgain(r)) {
            return r;
        }
        Backoff backoff = new Backoff(retryFor);
        while (backoff.pause()) {
            r = sendOnce(ops, mode);
            if (!notNow(r.status()) || mode == Mode.PLAIN && !mayRunAgain(r)) {
                break;
            }
        }
        LOG.debug("{} after {} retries: {}", server, backoff.pauses(), r.status());
        return r;
    }

    private CompoundResult sendOnce(CompoundBuilder ops, Mode mode) throws IOException {
        compounds.incrementAndGet();
        if (mode == Mode.PLAIN) {
            return session.execute(ops);
        }
        try {
            return session.executeTransaction(ops);
        } catch (RpcReplyException e) {
            if (e.acceptStatus().orElse(null) == RpcAcceptStatus.PROC_UNAVAIL) {
                transactionsUnavailable = true;
                throw TransactionsUnsupportedException.procUnavail(server, e);
            }
            throw e;
        }
    }

    private static <T> VResult<T> padNotRun(VResult<T> r, int size) {
        if (r.items().size() == size) {
            return r;
        }
        List<ItemResult<T>> items = new ArrayList<>(r.items());
        while (items.size() < size) {
            items.add(ItemResult.notRun());
        }
        return new VResult<>(items, r.firstFailure(), r.committed(), r.mode(), r.compounds());
    }

    /** Destroys the session and closes the connection; calling it again does nothing. */
    @Override
    public synchronized void close() throws IOException {
        try {
            session.close();
        } finally {
            connection.close();
        }
    }

    @Override
    public String toString() {
        return "VnfsClient[" + server + " /" + export + ", " + txnPacker.limits() + "]";
    }
}

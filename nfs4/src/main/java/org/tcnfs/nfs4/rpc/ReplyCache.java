package org.tcnfs.nfs4.rpc;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.tcnfs.nfs4.compound.OperationSet;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_argop4;

/**
 * The duplicate request cache of NFSv4.0 COMPOUNDs that change something (RFC 7530 section 3.1.1: a client that lost
 * a reply, typically with its connection, sends the same call again with the same XID; running a CREATE, REMOVE or
 * RENAME a second time would answer NFS4ERR_EXIST or NFS4ERR_NOENT for a change that was made). NFSv4.1 has its own,
 * exact replay cache in the session's slots; this one serves minor version 0 only.
 *
 * <p><b>What is kept.</b> The reply of a minor version 0 COMPOUND that holds an operation changing the file system or
 * the server's state ({@link #NON_IDEMPOTENT}) and no operation whose reply carries file data or a listing (READ,
 * READDIR, READLINK; such a compound is not kept and runs again), keyed by the caller's socket address (address
 * and port, as knfsd keys its cache: a client retransmits on its connection or on a new one from the same port) and
 * XID, and checked against the request's fingerprint (its size and a CRC of its first bytes,
 * {@link NfsRpcService#fingerprint}). One entry per socket address and XID: any other request with that XID from
 * that address (another fingerprint) replaces it, so a client that reuses XIDs never gets an old reply for a new
 * call, only the reply of a byte-identical call sent again.
 *
 * <p><b>While the first call runs</b> a copy of it is dropped (no reply: the client's retransmission timer sends
 * it again, and the reply of the first goes out anyway), as knfsd does.
 *
 * <p><b>Bounds.</b> At most {@value #MAX_ENTRIES} replies of at most {@value #MAX_OPS_PER_REPLY} operations each and
 * {@value #MAX_OPS} operations together (the results of the operations kept are small: status, change info,
 * stateids, at most one attribute set each), each for at most {@link #TTL_NANOS} (120 s, knfsd's expiry); the
 * least recently used reply goes first. A compound of more operations is not kept.
 *
 * <p>Thread-safe: every method takes this object's lock, for a few map operations.
 */
final class ReplyCache {
    /** Most replies kept. */
    static final int MAX_ENTRIES = 1024;
    /** Most operations of one reply kept. */
    static final int MAX_OPS_PER_REPLY = 1024;
    /** Most operations of all replies kept together. */
    static final int MAX_OPS = 8 * 1024;
    /** How long a reply is kept: 120 s. */
    static final long TTL_NANOS = 120_000_000_000L;

    /** Operations whose second run would not answer as the first, or would change something again. */
    static final OperationSet NON_IDEMPOTENT = OperationSet.of(OP_OPEN, OP_OPEN_CONFIRM, OP_OPEN_DOWNGRADE, OP_CLOSE,
            OP_CREATE, OP_REMOVE, OP_RENAME, OP_LINK, OP_SETATTR, OP_WRITE, OP_LOCK, OP_LOCKU, OP_SETCLIENTID,
            OP_SETCLIENTID_CONFIRM, OP_RELEASE_LOCKOWNER, OP_DELEGRETURN, OP_DELEGPURGE);
    /** Operations whose replies are too large to keep. */
    private static final OperationSet LARGE_REPLY = OperationSet.of(OP_READ, OP_READDIR, OP_READLINK);

    /** What to do with a call. */
    enum Verdict {
        /** Run it (and {@link #finish} or {@link #abandon} it). */
        RUN,
        /** Send the kept reply of {@link Lookup#reply}. */
        REPLAY,
        /** Drop it: the same call is running. */
        DROP
    }

    /** The verdict on a call, with the kept reply for {@link Verdict#REPLAY}. */
    record Lookup(Verdict verdict, COMPOUND4res reply) {
        static final Lookup RUN = new Lookup(Verdict.RUN, null);
        static final Lookup DROP = new Lookup(Verdict.DROP, null);
    }

    /** A caller's call: its socket address and XID. */
    record Key(InetSocketAddress caller, int xid) {
    }

    private static final class Entry {
        final long fingerprint;
        final int proc;
        final long bornNanos;
        /** The reply once the call ran; null while it runs. */
        COMPOUND4res reply;
        int ops;

        Entry(long fingerprint, int proc, long bornNanos) {
            this.fingerprint = fingerprint;
            this.proc = proc;
            this.bornNanos = bornNanos;
        }
    }

    private final LongSupplier clock;
    /** Access order: the least recently used first. Guarded by this. */
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(256, 0.75f, true);
    /** Operations of the replies in {@link #entries}. Guarded by this. */
    private int ops;
    private final LongAdder replays = new LongAdder();

    ReplyCache() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds, as {@link System#nanoTime()} (tests move it) */
    ReplyCache(LongSupplier clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Whether the reply of {@code args} is kept: see the class comment. */
    static boolean keeps(COMPOUND4args args) {
        if (args.minorversion != 0 || args.argarray.length > MAX_OPS_PER_REPLY) {
            return false;
        }
        boolean changes = false;
        for (nfs_argop4 op : args.argarray) {
            if (LARGE_REPLY.contains(op.argop)) {
                return false;
            }
            changes |= NON_IDEMPOTENT.contains(op.argop);
        }
        return changes;
    }

    /**
     * The verdict on a call of {@code key} with {@code fingerprint} to procedure {@code proc}: a kept reply of the
     * same call, a drop while the same call runs, else run it (it is then marked running, replacing whatever was
     * kept for the key).
     */
    synchronized Lookup begin(Key key, int proc, long fingerprint) {
        long now = clock.getAsLong();
        expire(now);
        Entry entry = entries.get(key);
        if (entry != null && entry.fingerprint == fingerprint && entry.proc == proc
                && now - entry.bornNanos <= TTL_NANOS) {
            if (entry.reply == null) {
                return Lookup.DROP;
            }
            replays.increment();
            return new Lookup(Verdict.REPLAY, entry.reply);
        }
        remove(key);
        entries.put(key, new Entry(fingerprint, proc, now));
        trim();
        return Lookup.RUN;
    }

    /** Keeps {@code reply} as the answer of the running call of {@code key} (if it is still the one kept). */
    synchronized void finish(Key key, long fingerprint, COMPOUND4res reply) {
        Entry entry = entries.get(key);
        if (entry == null || entry.fingerprint != fingerprint || entry.reply != null) {
            return;
        }
        entry.reply = reply;
        entry.ops = reply.resarray.length;
        ops += entry.ops;
        trim();
    }

    /** Forgets the running call of {@code key}: it got no reply to keep (it failed outside the compound). */
    synchronized void abandon(Key key, long fingerprint) {
        Entry entry = entries.get(key);
        if (entry != null && entry.fingerprint == fingerprint && entry.reply == null) {
            entries.remove(key);
        }
    }

    /** Replies sent again from the cache since the start. */
    long replays() {
        return replays.sum();
    }

    /** Replies and running calls kept now (tests). */
    synchronized int size() {
        return entries.size();
    }

    private void remove(Key key) {
        Entry old = entries.remove(key);
        if (old != null) {
            ops -= old.ops;
        }
    }

    /**
     * Drops the entries older than the TTL from the head of the access order, up to the first younger one: entries
     * not used since they were made are in the order they were made; one used since (a replay) sits further back
     * and goes when it reaches the head, by {@link #trim}, or is refused by {@link #begin} when found too old.
     */
    private void expire(long now) {
        Iterator<Entry> it = entries.values().iterator();
        while (it.hasNext()) {
            Entry entry = it.next();
            if (now - entry.bornNanos <= TTL_NANOS) {
                break;
            }
            ops -= entry.ops;
            it.remove();
        }
    }

    /** Drops the least recently used entries beyond the bounds. */
    private void trim() {
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while ((entries.size() > MAX_ENTRIES || ops > MAX_OPS) && it.hasNext()) {
            Entry entry = it.next().getValue();
            ops -= entry.ops;
            it.remove();
        }
    }
}

package org.tcnfs.client.vector.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.client.vector.CompoundTooLargeException;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * Packs steps into compounds within a session's limits: at most {@code maxOperations} operations and
 * {@code maxRequestBytes} encoded bytes per compound, and replies estimated within {@code maxReplyBytes}, or
 * within {@code maxCachedReplyBytes} when the compound changes something (its reply is then asked to be
 * cached, {@link Nfs41Session#needsCachedReply}). The limits given are those left for the items (the caller
 * subtracts SEQUENCE and the RPC headers).
 */
public final class Packer {
    /**
     * Limits for the items of one compound.
     *
     * @param maxReplyBytes reply bytes of a compound that changes nothing (sent uncached:
     *     {@code ca_maxresponsesize})
     * @param maxCachedReplyBytes reply bytes of a compound that changes something (its reply is cached:
     *     {@code ca_maxresponsesize_cached}); at most {@code maxReplyBytes}
     */
    public record Limits(int maxOperations, long maxRequestBytes, long maxReplyBytes, long maxCachedReplyBytes) {
        public Limits {
            if (maxOperations < 1 || maxRequestBytes < 1 || maxReplyBytes < 1 || maxCachedReplyBytes < 1) {
                throw new IllegalArgumentException("limits too small: " + maxOperations + " ops, "
                        + maxRequestBytes + " request bytes, " + maxReplyBytes + " reply bytes, "
                        + maxCachedReplyBytes + " cached reply bytes");
            }
            maxCachedReplyBytes = Math.min(maxCachedReplyBytes, maxReplyBytes);
        }

        /** The same reply limit for every compound, cached or not. */
        public Limits(int maxOperations, long maxRequestBytes, long maxReplyBytes) {
            this(maxOperations, maxRequestBytes, maxReplyBytes, maxReplyBytes);
        }

        /** The same limits with at most {@code ops} operations. */
        public Limits withMaxOperations(int ops) {
            return new Limits(ops, maxRequestBytes, maxReplyBytes, maxCachedReplyBytes);
        }

        /** The reply limit of a compound that does ({@code cached}) or does not change something. */
        public long maxReplyBytes(boolean cached) {
            return cached ? maxCachedReplyBytes : maxReplyBytes;
        }
    }

    /** One compound's worth of items: its operations and each item's range in them. */
    public record Packed(CompoundBuilder ops, int firstItem, List<int[]> ranges) {
        /** How many items it holds. */
        public int items() {
            return ranges.size();
        }
    }

    private final byte[] rootHandle;
    private final Limits limits;

    public Packer(byte[] rootHandle, Limits limits) {
        this.rootHandle = rootHandle.clone();
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    /**
     * The next compound: as many steps from {@code from} on as fit.
     *
     * @throws CompoundTooLargeException when the step at {@code from} does not fit a compound by itself
     */
    public Packed next(List<? extends Step<?>> steps, int from, String what) throws CompoundTooLargeException {
        CompoundBuilder ops = new CompoundBuilder().tag("vnfs");
        Emitter emitter = new Emitter(rootHandle, ops);
        List<int[]> ranges = new ArrayList<>();
        long bytes = 0;
        long reply = 0;
        boolean cached = false;
        int i = from;
        while (i < steps.size()) {
            CompoundBuilder trial = new CompoundBuilder();
            Emitter forked = emitter.fork(trial);
            steps.get(i).emit(forked);
            nfs_argop4[] added = trial.build().argarray;
            long size = size(added);
            long replyBytes = steps.get(i).replyBytes();
            boolean cachedWith = cached || Nfs41Session.needsCachedReply(added);
            if (ops.size() + added.length > limits.maxOperations() || bytes + size > limits.maxRequestBytes()
                    || reply + replyBytes > limits.maxReplyBytes(cachedWith)) {
                if (ranges.isEmpty()) {
                    throw new CompoundTooLargeException(what + " item " + i, added.length, size, replyBytes,
                            limits.maxOperations(), limits.maxRequestBytes(), limits.maxReplyBytes(cachedWith));
                }
                break;
            }
            cached = cachedWith;
            int start = ops.size();
            for (nfs_argop4 op : added) {
                ops.op(op.argop, op.args);
            }
            emitter = forked.fork(ops);
            ranges.add(new int[] {start, ops.size()});
            bytes += size;
            reply += replyBytes;
            i++;
        }
        return new Packed(ops, from, ranges);
    }

    /**
     * All steps in one compound.
     *
     * @throws CompoundTooLargeException when they do not fit, with the totals they would need
     */
    public Packed all(List<? extends Step<?>> steps, String what) throws CompoundTooLargeException {
        CompoundBuilder ops = new CompoundBuilder().tag("vnfs-txn");
        Emitter emitter = new Emitter(rootHandle, ops);
        List<int[]> ranges = new ArrayList<>();
        long bytes = 0;
        long reply = 0;
        boolean cached = false;
        for (Step<?> step : steps) {
            int start = ops.size();
            CompoundBuilder trial = new CompoundBuilder();
            Emitter forked = emitter.fork(trial);
            step.emit(forked);
            nfs_argop4[] added = trial.build().argarray;
            bytes += size(added);
            reply += step.replyBytes();
            cached = cached || Nfs41Session.needsCachedReply(added);
            for (nfs_argop4 op : added) {
                ops.op(op.argop, op.args);
            }
            emitter = forked.fork(ops);
            ranges.add(new int[] {start, ops.size()});
        }
        if (ops.size() > limits.maxOperations() || bytes > limits.maxRequestBytes()
                || reply > limits.maxReplyBytes(cached)) {
            throw new CompoundTooLargeException("transactional " + what + " of " + steps.size() + " items", ops.size(),
                    bytes, reply, limits.maxOperations(), limits.maxRequestBytes(), limits.maxReplyBytes(cached));
        }
        return new Packed(ops, 0, ranges);
    }

    /** The encoded size of {@code ops} (WRITE data counted, not copied). */
    static long size(nfs_argop4[] ops) {
        long total = 0;
        for (nfs_argop4 op : ops) {
            if (op.argop == nfs_opnum4.OP_WRITE && op.args instanceof WRITE4args w) {
                int n = w.data.remaining();
                total += 4 + 16 + 8 + 4 + 4 + ((n + 3) & ~3);
            } else {
                total += XdrBytes.encode(op).length;
            }
        }
        return total;
    }
}

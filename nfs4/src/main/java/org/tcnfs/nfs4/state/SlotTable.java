package org.tcnfs.nfs4.state;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.status.BadHighSlotException;
import org.tcnfs.nfs4.status.BadSlotException;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.RetryUncachedRepException;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.status.SeqMisorderedException;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.XdrSizeCounter;

/**
 * The fore channel slots of a session with their reply cache (RFC 8881 2.10.6.1).
 *
 * <p>Each slot remembers the sequence id of its last request, whether that request still runs, and its
 * complete reply. A request with the next sequence id is new; one with the same id is a retransmission,
 * answered from the cache and never run again; any other id is misordered. A slot runs one request at a
 * time: while it runs, anything sent on the slot is answered NFS4ERR_DELAY. A request that has not
 * completed after {@code staleAfterMillis} is taken as lost (the engine always completes a slot, so this
 * only guards against a thread dying mid-request) and its slot is freed without a cached reply.
 *
 * <p>Thread-safe: each slot is guarded by its own monitor.
 */
public final class SlotTable {

    /** What {@link #admit} decided. */
    public sealed interface Admission permits NewRequest, Retransmission {
    }

    /** A new request now holds slot {@code slotId} with {@code sequenceId}; complete it with {@link #complete}. */
    public record NewRequest(int slotId, int sequenceId) implements Admission {
    }

    /** A retransmission of a completed request; {@code reply} is what was sent the first time. */
    public record Retransmission(COMPOUND4res reply) implements Admission {
    }

    /** Whether a slot keeps a request's whole reply for retransmissions. */
    public enum ReplyCaching {
        /** Keep it ({@code sa_cachethis}, or a compound of SEQUENCE alone, whose reply is small). */
        KEEP,
        /**
         * Keep the reply only when it carries no bulk data (no successful READ or READDIR) and fits the
         * table's size for kept replies: such replies are small, and some clients (nfs-rs) resend a request after an error with the same sequence id,
         * expecting the same answer rather than NFS4ERR_RETRY_UNCACHED_REP (RFC 8881 2.10.6.1.3 lets a
         * server cache more than asked). A retransmission of a dropped reply gets NFS4ERR_RETRY_UNCACHED_REP.
         */
        DROP
    }

    private static final Logger LOG = LoggerFactory.getLogger(SlotTable.class);
    /** Bytes of an accepted RPC reply header, counted with a kept reply as ca_maxresponsesize_cached does. */
    private static final int RPC_REPLY_HEADER_BYTES = 24;

    private final Slot[] slots;
    private final long keepBytes;

    /**
     * A table of {@code count} slots, ids 0 to {@code count - 1}, each expecting sequence id 1 first,
     * keeping replies of any size.
     */
    public SlotTable(int count) {
        this(count, Long.MAX_VALUE);
    }

    /**
     * A table of {@code count} slots whose replies kept without {@link ReplyCaching#KEEP} are at most
     * {@code keepBytes} encoded bytes (larger ones are not kept: their retransmission gets
     * NFS4ERR_RETRY_UNCACHED_REP). Replies to be kept are held to the session's
     * {@code ca_maxresponsesize_cached} before they are made (NFS4ERR_REP_TOO_BIG_TO_CACHE).
     */
    public SlotTable(int count, long keepBytes) {
        if (count < 1) {
            throw new IllegalArgumentException("a slot table needs at least one slot");
        }
        this.keepBytes = keepBytes;
        slots = new Slot[count];
        for (int i = 0; i < count; i++) {
            slots[i] = new Slot();
        }
    }

    /** The highest slot id of this table. */
    public int highestSlotId() {
        return slots.length - 1;
    }

    /**
     * Decides what a SEQUENCE on {@code slotId} with {@code sequenceId} is.
     *
     * @param highestSlotId the client's {@code sa_highest_slotid}
     * @param caching whether to keep the whole reply for a retransmission
     * @param nowMillis the current time of the server's clock
     * @param staleAfterMillis after how long a request that never completed counts as lost
     * @throws BadSlotException if there is no such slot
     * @throws BadHighSlotException if {@code highestSlotId} is beyond this table
     * @throws DelayException if the slot's previous request still runs
     * @param fingerprint the request's content fingerprint; a request with the last sequence id but another
     *     fingerprint is not a retransmission
     * @throws RetryUncachedRepException for a retransmission whose reply was not kept
     * @throws SeqMisorderedException for a sequence id that is neither the last nor the next
     */
    public Admission admit(int slotId, int sequenceId, int highestSlotId, ReplyCaching caching, long fingerprint,
            long nowMillis, long staleAfterMillis) throws BadSlotException, BadHighSlotException, DelayException,
            RetryUncachedRepException, SeqMisorderedException {
        if (Integer.compareUnsigned(slotId, highestSlotId()) > 0) {
            throw new BadSlotException("slot " + Integer.toUnsignedString(slotId) + " beyond " + highestSlotId());
        }
        if (Integer.compareUnsigned(highestSlotId, highestSlotId()) > 0) {
            throw new BadHighSlotException("highest slot " + Integer.toUnsignedString(highestSlotId)
                    + " beyond " + highestSlotId());
        }
        return slots[slotId].admit(slotId, sequenceId, caching, fingerprint, nowMillis, staleAfterMillis);
    }

    /**
     * Ends the request that holds {@code slotId} with {@code sequenceId}, keeping {@code reply} if it was
     * to be kept. Does nothing if the slot has moved on (the request was taken as lost).
     *
     * @return whether the slot was completed by this call
     */
    public boolean complete(int slotId, int sequenceId, COMPOUND4res reply) {
        return slots[slotId].complete(sequenceId, reply, keepBytes);
    }

    /** Whether any slot runs a request that is not yet taken as lost. */
    public boolean hasActiveRequests(long nowMillis, long staleAfterMillis) {
        for (Slot s : slots) {
            if (s.isActive(nowMillis, staleAfterMillis)) {
                return true;
            }
        }
        return false;
    }

    /** The state of one slot. */
    private static final class Slot {
        private int sequenceId;
        private boolean used;
        private boolean busy;
        private long busySince;
        private boolean keepReply;
        private COMPOUND4res reply;
        private long fingerprint;

        synchronized Admission admit(int slotId, int seq, ReplyCaching caching, long requestFingerprint, long now,
                long staleAfter) throws DelayException, RetryUncachedRepException, SeqMisorderedException {
            if (busy) {
                if (now - busySince <= staleAfter) {
                    throw new DelayException("slot " + slotId + " still runs sequence " + Integer.toUnsignedString(sequenceId));
                }
                busy = false;
                reply = null;
            }
            if (used && seq == sequenceId && requestFingerprint == fingerprint) {
                if (reply == null) {
                    throw new RetryUncachedRepException("slot " + slotId + " kept no reply for sequence "
                            + Integer.toUnsignedString(seq));
                }
                return new Retransmission(reply);
            }
            if (used && seq == sequenceId) {
                // A different request with the last sequence id: not a retransmission (RFC 8881 calls it a
                // false retry). Clients that abandon an in-flight request reuse its sequence id this way
                // (nfs-rs does); running the new request is safe, as it never ran, and keeps them working.
                LOG.debug("slot {} sequence {} reused for a different request; running it", slotId,
                        Integer.toUnsignedString(seq));
            } else if (seq != sequenceId + 1) {
                throw new SeqMisorderedException("slot " + slotId + " expects sequence "
                        + Integer.toUnsignedString(sequenceId + 1) + ", got " + Integer.toUnsignedString(seq));
            }
            sequenceId = seq;
            used = true;
            busy = true;
            busySince = now;
            keepReply = caching == ReplyCaching.KEEP;
            fingerprint = requestFingerprint;
            reply = null;
            return new NewRequest(slotId, seq);
        }

        synchronized boolean complete(int seq, COMPOUND4res res, long keepBytes) {
            if (!busy || seq != sequenceId) {
                return false;
            }
            busy = false;
            reply = keepReply || (holdsNoBulkData(res) && fits(res, keepBytes)) ? res : null;
            return true;
        }

        synchronized boolean isActive(long now, long staleAfter) {
            return busy && now - busySince <= staleAfter;
        }
    }

    /** Whether {@code res} encodes to at most {@code keepBytes} bytes (counted, not encoded). */
    private static boolean fits(COMPOUND4res res, long keepBytes) {
        if (keepBytes == Long.MAX_VALUE) {
            return true;
        }
        try {
            return XdrSizeCounter.sizeOf(res) + RPC_REPLY_HEADER_BYTES <= keepBytes;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether no operation of {@code res} returned file data or directory entries. */
    static boolean holdsNoBulkData(COMPOUND4res res) {
        for (nfs_resop4 r : res.resarray) {
            if (r.status == 0 && (r.resop == nfs_opnum4.OP_READ || r.resop == nfs_opnum4.OP_READDIR)) {
                return false;
            }
        }
        return true;
    }
}

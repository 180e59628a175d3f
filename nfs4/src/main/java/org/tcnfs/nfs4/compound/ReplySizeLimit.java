package org.tcnfs.nfs4.compound;

import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.XdrSizeCounter;

/**
 * The reply size a session allows one compound (RFC 8881 2.10.6.4, 18.46.3), and the bytes its reply has
 * used so far: the fore channel's {@code ca_maxresponsesize}, and {@code ca_maxresponsesize_cached} when
 * the client asked SEQUENCE to cache the reply. Both include the RPC reply header.
 *
 * <p>{@link OperationExecutor} charges each operation's encoded result as it completes; the operation whose
 * result would push the reply past a limit fails instead, with NFS4ERR_REP_TOO_BIG or, past the cached
 * limit only, NFS4ERR_REP_TOO_BIG_TO_CACHE. Belongs to one compound; not thread-safe.
 */
public final class ReplySizeLimit {
    /**
     * Bytes of an accepted RPC reply before the procedure's result: xid, message type, reply status, an
     * AUTH_NONE or AUTH_SYS verifier (flavor and empty body) and accept status.
     */
    static final int RPC_REPLY_HEADER_BYTES = 24;

    private final long maxBytes;
    private final long maxCachedBytes;
    private long used;

    /**
     * A limit for a compound with tag {@code tag}; its COMPOUND4res header (status, tag, result count) and
     * the RPC reply header count as used.
     *
     * @param maxBytes ca_maxresponsesize
     * @param maxCachedBytes ca_maxresponsesize_cached when the reply is to be cached, else {@code maxBytes}
     */
    public ReplySizeLimit(String tag, int maxBytes, int maxCachedBytes) {
        if (maxBytes < 0 || maxCachedBytes < 0) {
            throw new IllegalArgumentException("negative reply size limit");
        }
        this.maxBytes = maxBytes;
        this.maxCachedBytes = Math.min(maxCachedBytes, maxBytes);
        this.used = RPC_REPLY_HEADER_BYTES + 4 + XdrSizeCounter.sizeOfString(tag == null ? "" : tag) + 4;
    }

    /** Bytes of the reply so far, headers included. */
    public long used() {
        return used;
    }

    /**
     * Adds {@code bytes} of results if they fit; otherwise leaves the count and returns the status the
     * operation that produced them fails with.
     *
     * @return {@code null} if they fit, else REP_TOO_BIG or REP_TOO_BIG_TO_CACHE
     */
    NfsStatus charge(long bytes) {
        long total = used + bytes;
        if (total > maxBytes) {
            return NfsStatus.REP_TOO_BIG;
        }
        if (total > maxCachedBytes) {
            return NfsStatus.REP_TOO_BIG_TO_CACHE;
        }
        used = total;
        return null;
    }

    /** Adds {@code bytes} of a failed result, which is sent whatever its size. */
    void chargeAnyway(long bytes) {
        used += bytes;
    }
}

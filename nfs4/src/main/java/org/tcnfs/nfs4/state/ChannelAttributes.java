package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.status.TooSmallException;
import org.tcnfs.nfs4.xdr.channel_attrs4;

/**
 * The limits of one channel of a session ({@code channel_attrs4} of RFC 8881 18.36), as values. All
 * sizes are unsigned 32-bit on the wire; values above {@link Integer#MAX_VALUE} are read as that.
 *
 * @param headerPadSize bytes of header padding (always 0 on the fore channel: the server does not pad)
 * @param maxRequestSize largest request, RPC header included
 * @param maxResponseSize largest reply
 * @param maxResponseSizeCached largest reply the server keeps in a slot's reply cache
 * @param maxOperations most operations in one COMPOUND, SEQUENCE included
 * @param maxRequests number of slots
 */
public record ChannelAttributes(
        int headerPadSize,
        int maxRequestSize,
        int maxResponseSize,
        int maxResponseSizeCached,
        int maxOperations,
        int maxRequests) {

    /** The smallest request and reply size a fore channel may negotiate (a SEQUENCE must fit). */
    public static final int MIN_MESSAGE_SIZE = 256;

    public ChannelAttributes {
        if (headerPadSize < 0 || maxRequestSize < 0 || maxResponseSize < 0 || maxResponseSizeCached < 0
                || maxOperations < 0 || maxRequests < 0) {
            throw new IllegalArgumentException("negative channel attribute");
        }
    }

    /** The values of wire attributes, unsigned values above 2^31-1 clamped to {@link Integer#MAX_VALUE}. */
    public static ChannelAttributes of(channel_attrs4 wire) {
        return new ChannelAttributes(
                unsigned(wire.ca_headerpadsize),
                unsigned(wire.ca_maxrequestsize),
                unsigned(wire.ca_maxresponsesize),
                unsigned(wire.ca_maxresponsesize_cached),
                unsigned(wire.ca_maxoperations),
                unsigned(wire.ca_maxrequests));
    }

    /** The fore channel the server grants for this request, each limit the client's or the server's, the lower. */
    public static ChannelAttributes negotiateFore(ChannelAttributes asked, NfsLimits limits) throws TooSmallException {
        if (asked.maxRequestSize < MIN_MESSAGE_SIZE || asked.maxResponseSize < MIN_MESSAGE_SIZE) {
            throw new TooSmallException("fore channel request or reply size below " + MIN_MESSAGE_SIZE);
        }
        if (asked.maxOperations < 1 || asked.maxRequests < 1) {
            throw new TooSmallException("fore channel without operations or slots");
        }
        int response = Math.min(asked.maxResponseSize, limits.maxResponseBytes());
        return new ChannelAttributes(
                0,
                Math.min(asked.maxRequestSize, limits.maxRequestBytes()),
                response,
                Math.min(asked.maxResponseSizeCached, response),
                Math.min(asked.maxOperations, limits.maxOperations()),
                Math.min(asked.maxRequests, limits.maxSessionSlots()));
    }

    /** The highest slot id of a channel with these attributes. */
    public int highestSlotId() {
        return maxRequests - 1;
    }

    /** These attributes on the wire (no RDMA). */
    public channel_attrs4 toWire() {
        channel_attrs4 w = new channel_attrs4();
        w.ca_headerpadsize = headerPadSize;
        w.ca_maxrequestsize = maxRequestSize;
        w.ca_maxresponsesize = maxResponseSize;
        w.ca_maxresponsesize_cached = maxResponseSizeCached;
        w.ca_maxoperations = maxOperations;
        w.ca_maxrequests = maxRequests;
        w.ca_rdma_ird = new int[0];
        return w;
    }

    private static int unsigned(int v) {
        return v < 0 ? Integer.MAX_VALUE : v;
    }
}

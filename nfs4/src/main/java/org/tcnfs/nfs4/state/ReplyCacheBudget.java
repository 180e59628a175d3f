package org.tcnfs.nfs4.state;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory bound of all sessions' reply caches together ({@link SessionLimits#replyCacheBytes()}).
 *
 * <p>A session reserves, at CREATE_SESSION, its slot count times the bytes one slot may keep, and gives
 * them back when it is destroyed. What a slot may keep is the {@code ca_maxresponsesize_cached} granted,
 * no more than {@link SessionLimits#maxCachedReplyBytes()}, and at least {@link SessionLimits#MIN_SLOT_BYTES}
 * (replies without bulk data are kept up to that size even when the client did not ask, see
 * {@link SlotTable}). Every session is guaranteed a share ({@link #guaranteedShare}, 16 KiB with the
 * defaults) and reserves at least that; it may reserve more while the budget has room. RFC 8881
 * 18.36.4 lets the server grant less than asked of every channel attribute, so when the budget runs short
 * the grant of a new session shrinks, never one made earlier:
 * <ol>
 *   <li>no session reserves more than a quarter of the budget, nor what the guaranteed shares of the
 *       sessions that {@link SessionLimits#maxSessions()} still allows need;</li>
 *   <li>within that, the session gets fewer slots ({@code ca_maxrequests}) than asked; slots past the first
 *       are granted only while all reservations stay within a quarter of the budget, so that a few sessions
 *       asking for many large slots do not leave the sessions after them one small slot (with the defaults,
 *       nine clients of the vectorized client, each asking eight slots of max-cached-reply, all get a slot
 *       of that size);</li>
 *   <li>and when not even one slot of the asked size fits, one slot with a smaller
 *       {@code ca_maxresponsesize_cached} (at least the guaranteed share).</li>
 * </ol>
 * Sessions beyond {@code maxSessions} are refused by the {@link ClientRegistry} (NFS4ERR_NOSPC), so a
 * session that is admitted always gets at least one slot.
 *
 * <p>Thread-safe.
 */
final class ReplyCacheBudget {
    private static final Logger LOG = LoggerFactory.getLogger(ReplyCacheBudget.class);

    /** What a new session may keep: its fore channel as granted and the bytes it reserved. */
    record Grant(ChannelAttributes foreChannel, int slotBytes, long reservedBytes) {
    }

    private final SessionLimits limits;
    private long reserved;
    private boolean shortLogged;

    ReplyCacheBudget(SessionLimits limits) {
        this.limits = limits;
    }

    /**
     * Reserves the reply cache of a new session whose fore channel was negotiated as {@code fore}, when
     * {@code sessions} sessions exist already (fewer than {@code maxSessions}).
     */
    synchronized Grant reserve(ChannelAttributes fore, int sessions) {
        long budget = limits.replyCacheBytes();
        long share = guaranteedShare(limits);
        long headroom = (long) Math.max(0, limits.maxSessions() - sessions - 1) * share;
        long perSession = Math.max(budget / 4, share);
        // short: what is left of the whole budget, not the per-session cap, limits this session
        boolean budgetShort = budget - reserved - headroom < perSession;
        long available = Math.min(budget - reserved - headroom, perSession);
        // Each live session reserved at least its share, so at least one share is left for a new one.
        available = Math.max(available, share);
        int asked = Math.min(fore.maxResponseSizeCached(), limits.maxCachedReplyBytes());
        int cached = asked;
        int slotBytes = Math.max(cached, SessionLimits.MIN_SLOT_BYTES);
        // Slots past the first come only from the first quarter of the budget: a session that asks for many large
        // slots may not leave the sessions after it without one slot of the size they ask.
        long extraRoom = Math.min(available, Math.max(slotBytes, budget / 4 - reserved));
        int slots = (int) Math.min(fore.maxRequests(), extraRoom / slotBytes);
        if (slots < 1) {
            slots = 1;
            slotBytes = (int) available;
            cached = Math.min(cached, slotBytes);
        }
        boolean trimmed = slots < fore.maxRequests() || cached < asked;
        if (trimmed && !budgetShort) {
            LOG.debug("session granted {} slots of {} bytes (asked {} of {}): at most a quarter of the reply cache "
                    + "budget ({} bytes) per session", slots, cached, fore.maxRequests(), asked, budget);
        } else if (trimmed) {
            if (!shortLogged) {
                LOG.warn("reply cache budget of {} bytes is short ({} reserved by {} sessions): new sessions get "
                        + "fewer slots or smaller cached replies than asked (setting reply-cache-memory)",
                        budget, reserved, sessions);
                shortLogged = true;
            }
        } else {
            shortLogged = false;
        }
        long bytes = Math.max((long) slots * slotBytes, share);
        reserved += bytes;
        ChannelAttributes granted = new ChannelAttributes(fore.headerPadSize(), fore.maxRequestSize(),
                fore.maxResponseSize(), cached, fore.maxOperations(), slots);
        return new Grant(granted, slotBytes, bytes);
    }

    /**
     * What every session is sure to get: a quarter of the budget split among {@code maxSessions} (16 KiB with
     * the defaults), and at least {@link SessionLimits#MIN_SLOT_BYTES}; the other three quarters go to
     * whoever asks first, a quarter at most each.
     */
    static long guaranteedShare(SessionLimits limits) {
        return Math.max(limits.replyCacheBytes() / (4L * limits.maxSessions()), SessionLimits.MIN_SLOT_BYTES);
    }

    /** Gives back what a destroyed session reserved. */
    synchronized void release(long bytes) {
        reserved -= bytes;
    }

    /** Bytes reserved by all sessions now. */
    synchronized long reservedBytes() {
        return reserved;
    }
}

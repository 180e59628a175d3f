package org.tcnfs.nfs4.state;

/**
 * How many clients and sessions the server keeps, and how much memory their reply caches may hold.
 *
 * <p>Every slot of a session may keep one reply for retransmissions (RFC 8881 2.10.6.1). A session
 * reserves, when it is created, its slot count times the size of one kept reply; the sum of all
 * reservations never exceeds {@code replyCacheBytes} (see {@link ReplyCacheBudget}). Sizes are those of the
 * encoded replies (XDR bytes, RPC header included).
 *
 * @param maxClients most client records (NFSv4.0 and NFSv4.1, confirmed or not) kept at once; EXCHANGE_ID and
 *     SETCLIENTID past it first drop the oldest unconfirmed record (it holds no state), then the confirmed
 *     record without session or state renewed longest ago, and are refused when there is none
 *     (NFS4ERR_DELAY, NFS4ERR_RESOURCE)
 * @param maxSessions most NFSv4.1 sessions at once, all clients together; CREATE_SESSION past it is
 *     NFS4ERR_NOSPC
 * @param maxCachedReplyBytes largest reply a slot keeps: CREATE_SESSION grants {@code ca_maxresponsesize_cached}
 *     no larger
 * @param replyCacheBytes bytes all sessions' reply caches may reserve together; must hold
 *     {@link #MIN_SLOT_BYTES} for each of {@code maxSessions} sessions, so a new session always gets at
 *     least one slot
 * @param maxOwnersPerClient most NFSv4.0 open and lock owners one client keeps with their last reply (RFC
 *     7530 9.1.7); past it the least recently used owners without state are forgotten, and a new owner is
 *     NFS4ERR_RESOURCE when every owner holds state
 * @param maxClientsPerAddress most client records created from one source address; past it EXCHANGE_ID and
 *     SETCLIENTID first drop that address's oldest unconfirmed record, then its clients whose lease lapsed,
 *     then its confirmed record without state renewed longest ago, and are refused when there is none
 *     (NFS4ERR_DELAY, NFS4ERR_RESOURCE): one address cannot fill the client table and lock others out
 * @param maxSessionsPerAddress most sessions of the clients created from one source address; CREATE_SESSION
 *     past it is NFS4ERR_NOSPC
 * @param clientMemoryBytes estimated heap bytes the records, sessions (without their kept replies), owners,
 *     opens, lock states and byte-range locks of all clients may take together (see {@code ClientMemory})
 * @param clientMemoryPerAddressBytes the same for the clients created from one source address: past it the
 *     address's records without state are forgotten to make room for a new one, else its EXCHANGE_ID is
 *     NFS4ERR_DELAY and SETCLIENTID NFS4ERR_RESOURCE; CREATE_SESSION is NFS4ERR_NOSPC; a new open, lock
 *     state, lock or NFSv4.0 owner is NFS4ERR_RESOURCE (NFSv4.0) or NFS4ERR_DELAY (NFSv4.1). At most
 *     {@code clientMemoryBytes}
 */
public record SessionLimits(
        int maxClients,
        int maxSessions,
        int maxCachedReplyBytes,
        long replyCacheBytes,
        int maxOwnersPerClient,
        int maxClientsPerAddress,
        int maxSessionsPerAddress,
        long clientMemoryBytes,
        long clientMemoryPerAddressBytes) {

    /**
     * The reply cache space each slot reserves at least, whatever the client asks: a reply of a few
     * small operations (OPEN, CLOSE, LOCK and the like) fits, as in Linux knfsd's 2 KiB slot cache.
     */
    public static final int MIN_SLOT_BYTES = 2048;

    /**
     * 16,384 clients (of any address; 64 MiB of client state, 16 MiB per address), 1,024 sessions, replies of at
     * most 4 MiB + 64 KiB kept (four 1 MiB READs and room for
     * the other results of their compound), 64 MiB for all reply caches, 4,096 NFSv4.0 owners per client.
     * (The server's configuration sizes the reply caches by the heap instead: setting reply-cache-memory.)
     *
     * <p>Why 4 MiB + 64 KiB: the project's own client library sets {@code sa_cachethis} on every compound,
     * and its users send up to four 1 MiB READs (the default max-io) per compound (the integration tests'
     * helpers do; the vectorized client sets {@code sa_cachethis} only on compounds that change something and
     * sizes those by the cached grant, the others by {@code ca_maxresponsesize}). A slot then
     * pins at most a quarter of what it could before (16 MiB + 64 KiB), and the memory bound of all sessions
     * ({@code replyCacheBytes}) does the rest. Linux knfsd keeps only about 2 KiB per slot, and clients that
     * ask to cache only non-idempotent compounds cope with that. Kept replies of 512 KiB or more are humongous
     * objects in G1 (with 1 MiB regions, at heaps below 2 GiB) and can take up to twice their encoded size.
     */
    public static final SessionLimits DEFAULTS = new SessionLimits(16384, 1024,
            4 * 1024 * 1024 + 64 * 1024, 64L * 1024 * 1024, 4096);

    /**
     * Default of {@link #maxClients()} and {@link #maxClientsPerAddress()}: a backstop, the memory budgets
     * ({@link #clientMemoryBytes()}, {@link #clientMemoryPerAddressBytes()}) bound what the records hold.
     */
    public static final int DEFAULT_MAX_CLIENTS = 16384;
    /** Default of {@link #maxSessionsPerAddress()}. */
    public static final int DEFAULT_PER_ADDRESS = 256;
    /** Default of {@link #clientMemoryBytes()} (the server's configuration takes an eighth of the heap). */
    public static final long DEFAULT_CLIENT_MEMORY = 64L * 1024 * 1024;
    /** The smallest per-address client memory budget: a few records with some state. */
    public static final long MIN_CLIENT_MEMORY_PER_ADDRESS = 64L * 1024;

    /**
     * Limits with {@code maxClients} clients per address, {@link #DEFAULT_PER_ADDRESS} sessions per address
     * (at most the total) and the default client memory budgets (a quarter of the total per address).
     */
    public SessionLimits(int maxClients, int maxSessions, int maxCachedReplyBytes, long replyCacheBytes,
            int maxOwnersPerClient, int maxClientsPerAddress, int maxSessionsPerAddress) {
        this(maxClients, maxSessions, maxCachedReplyBytes, replyCacheBytes, maxOwnersPerClient, maxClientsPerAddress,
                maxSessionsPerAddress, DEFAULT_CLIENT_MEMORY, DEFAULT_CLIENT_MEMORY / 4);
    }

    /**
     * Limits with {@code maxClients} clients and {@link #DEFAULT_PER_ADDRESS} sessions per source address (at
     * most the totals), and the default client memory budgets.
     */
    public SessionLimits(int maxClients, int maxSessions, int maxCachedReplyBytes, long replyCacheBytes,
            int maxOwnersPerClient) {
        this(maxClients, maxSessions, maxCachedReplyBytes, replyCacheBytes, maxOwnersPerClient,
                maxClients, Math.min(DEFAULT_PER_ADDRESS, maxSessions));
    }

    public SessionLimits {
        if (maxClients < 1 || maxSessions < 1 || maxOwnersPerClient < 1 || maxClientsPerAddress < 1
                || maxSessionsPerAddress < 1) {
            throw new IllegalArgumentException("client, session and owner limits must be positive");
        }
        if (maxCachedReplyBytes < MIN_SLOT_BYTES) {
            throw new IllegalArgumentException("largest cached reply must be at least " + MIN_SLOT_BYTES + " bytes");
        }
        if (clientMemoryPerAddressBytes < MIN_CLIENT_MEMORY_PER_ADDRESS || clientMemoryBytes < clientMemoryPerAddressBytes) {
            throw new IllegalArgumentException("client memory budgets must be at least " + MIN_CLIENT_MEMORY_PER_ADDRESS
                    + " bytes per address and no less in total than per address");
        }
        if (replyCacheBytes < (long) maxSessions * MIN_SLOT_BYTES) {
            throw new IllegalArgumentException("a reply cache of " + replyCacheBytes + " bytes cannot give "
                    + maxSessions + " sessions one slot of " + MIN_SLOT_BYTES + " bytes each");
        }
    }
}

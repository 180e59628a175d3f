/**
 * Client, session, open and lock state of NFSv4.0 and 4.1: client ids, sessions with their slot reply
 * caches, leases and the grace period, stateids, share reservations and byte-range locks.
 *
 * <p>{@link org.tcnfs.nfs4.state.StateHandler} owns all of it and is thread-safe.
 *
 * <p>Clients and sessions (RFC 8881 2.10, 18.35, 18.36, 18.46): {@link org.tcnfs.nfs4.state.NfsClient} is
 * the record EXCHANGE_ID makes and CREATE_SESSION confirms; {@link org.tcnfs.nfs4.state.NfsSession} holds the
 * negotiated {@link org.tcnfs.nfs4.state.ChannelAttributes} and a {@link org.tcnfs.nfs4.state.SlotTable},
 * whose slots keep the last reply so a retransmission is answered without running again. A daemon reaper
 * expires clients whose lease ran out and releases their state through
 * {@link org.tcnfs.nfs4.state.OpenStateTable#releaseClient}. The grace period ends early when a small client
 * record (kept durably in an optional directory, see {@link org.tcnfs.nfs4.state.StateHandler}) shows that
 * every client of the previous run has finished reclaiming. All time decisions use the injected clock.
 *
 * <p>Opens and locks (RFC 8881 8.2, 9): {@link org.tcnfs.nfs4.state.OpenStateTable} keeps per file the opens
 * (one per open owner, with its {@link org.tcnfs.nfs4.state.ShareMode}), the lock states (one per lock owner)
 * and a {@link org.tcnfs.nfs4.state.ByteRangeLockSet} with POSIX semantics; stateids come from a
 * {@link org.tcnfs.nfs4.state.StateIdGenerator} (boot epoch and counter). Threading: the stateid index and
 * the file index are concurrent maps; everything of one file is guarded by that file's monitor, and no
 * thread holds two file monitors; each client's operations share its read lock, and releasing the client
 * takes its write lock, so nothing of a released client survives (lock order: client, then file).
 *
 * <p>NFSv4.0 (RFC 7530): SETCLIENTID and SETCLIENTID_CONFIRM make and confirm client records (kept apart
 * from NFSv4.1's, not written to the client record) whose lease RENEW and every use of their client id or
 * stateids renew, and which the same reaper expires. Each NFSv4.0 open owner and lock owner has an
 * {@link org.tcnfs.nfs4.state.OwnerSequence}: the seqid of its last request and that request's reply, so a
 * retransmission is answered from it (RFC 7530 9.1.7), and for an open owner whether OPEN_CONFIRM ran.
 * NFSv4.0 stateids carry their client, so that a stateid of an expired client is NFS4ERR_EXPIRED and one of
 * an earlier server instance NFS4ERR_STALE_STATEID (see {@link org.tcnfs.nfs4.state.OpenStateTable}). Lock
 * order: owner sequence (open owner before lock owner), client, file.
 *
 * <p>Bounds ({@link org.tcnfs.nfs4.state.SessionLimits}): client records, sessions, the size of one kept
 * reply and the memory of all sessions' reply caches together (reserved per session at CREATE_SESSION, see
 * {@code ReplyCacheBudget}), the NFSv4.0 owners one client keeps, and the estimated bytes of all client state
 * per source address and in total ({@code ClientMemory}: records, sessions, owners, opens, lock states and
 * byte-range locks, charged to the address that created the client through its {@code ClientCharge}). Past a
 * bound, records that cost nothing to drop go first (unconfirmed, lease lapsed, confirmed without state), then
 * new clients, sessions and state are refused with a status the RFCs allow for the operation.
 *
 * <p>Rollback: a {@link org.tcnfs.nfs4.state.StateJournal} records, for one transactional compound, the
 * opens and lock states it changed as they were before, and the open state table puts them back exactly
 * (share modes, seqids, byte-range locks, existence) when the compound rolls back.
 *
 * <p>Exceptions: operations of the state handler throw the {@link org.tcnfs.nfs4.status.NfsException} of
 * the protocol status (BADSESSION, SEQ_MISORDERED, STALE_CLIENTID, ...); a client record directory that cannot
 * be used at start is an {@link java.io.UncheckedIOException}.
 */
package org.tcnfs.nfs4.state;

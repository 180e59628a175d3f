/**
 * Client, session, open and lock state of NFSv4.0 and 4.1: client ids, sessions with their slot reply
 * caches, leases and the grace period, stateids, share reservations and byte-range locks.
 *
 * <p>{@link org.tcnfs.nfs4.state.StateHandler} owns all of it and is thread-safe.
 */
package org.tcnfs.nfs4.state;

/**
 * The COMPOUND engine: {@link org.tcnfs.nfs4.compound.CompoundEngine} runs the operations of a request in
 * order with a {@link org.tcnfs.nfs4.compound.CompoundContext} (current and saved file handle and stateid,
 * session, caller), {@link org.tcnfs.nfs4.compound.OperationExecutor} runs one
 * {@link org.tcnfs.nfs4.compound.NfsOperation} and is the one place where exceptions become statuses, and
 * {@link org.tcnfs.nfs4.compound.CompoundHook}s let a transaction layer wrap the compound.
 *
 * <p>A context belongs to one request thread; the engine, executor and operations are shared and
 * stateless.
 */
package org.tcnfs.nfs4.compound;

package org.tcnfs.nfs4.compound;

import java.io.IOException;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Callbacks around a COMPOUND, for a layer that wraps its execution (transactions, metrics).
 *
 * <p>All methods run on the request's thread, in this order: {@link #beforeCompound} once, then for each
 * operation run {@link #beforeOp} and {@link #afterOp}, then {@link #afterCompound} once, also when an
 * operation failed or the engine stopped early. {@link CompoundContext#procedure()} tells the RPC procedure
 * number, which carries the transaction flag. A hook that throws an
 * {@link org.tcnfs.nfs4.status.NfsException} from {@code beforeCompound} or {@code beforeOp} ends the
 * compound with that status at that point; from {@code afterOp} it replaces the operation's status;
 * from {@code afterCompound} it replaces the compound's status. Other exceptions become
 * NFS4ERR_SERVERFAULT. A server with no hooks pays nothing for them.
 */
public interface CompoundHook {

    /** Before the first operation; all arguments, the tag and the procedure number are visible. */
    default void beforeCompound(CompoundContext context, COMPOUND4args args) throws IOException {
    }

    /** Before operation {@code index} runs (after SEQUENCE has been accepted for later operations). */
    default void beforeOp(CompoundContext context, int index, nfs_argop4 op) throws IOException {
    }

    /**
     * Whether this hook's {@link #beforeOp} and {@link #afterOp} of operation {@code index} (not the first) leave
     * every object of the file systems and its attributes as they found them, so that what the compound read before
     * the operation is still true after them as far as this hook goes (the engine then lets a
     * {@link org.tcnfs.nfs4.vfs.CompoundScope stretch} go on past the operation). Asked after {@link #beforeOp}.
     * The default, {@code false}, is right for any hook that may change something.
     */
    default boolean keepsObjectsAround(CompoundContext context, int index, nfs_argop4 op) {
        return false;
    }

    /** After operation {@code index} ran, with its result (which the hook may inspect). */
    default void afterOp(CompoundContext context, int index, nfs_argop4 op, nfs_resop4 result) throws IOException {
    }

    /** After the last operation ran, with the reply about to be sent. */
    default void afterCompound(CompoundContext context, COMPOUND4res res) throws IOException {
    }
}

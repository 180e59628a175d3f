package org.tcnfs.client.vector.internal;

import java.io.IOException;
import java.util.List;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * One item's operations in a compound, and how its value is read from their results.
 *
 * @param <T> the item's value
 */
public interface Step<T> {
    /** Adds the item's operations; may be called more than once (each time on a fresh emitter state). */
    void emit(Emitter emitter);

    /** An upper bound of the bytes the item's results take in the reply. */
    default long replyBytes() {
        return 1024;
    }

    /**
     * The item's value from the results of its operations, every one NFS4_OK.
     *
     * @throws IOException when a result cannot be decoded
     */
    T decode(List<nfs_resop4> results) throws IOException;
}

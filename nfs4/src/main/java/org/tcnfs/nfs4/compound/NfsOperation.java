package org.tcnfs.nfs4.compound;

import java.io.IOException;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * One NFSv4 operation ({@code OperationREAD}, {@code OperationWRITE}, ...).
 *
 * <p>{@link #process} finds {@code result.status} set to NFS4_OK and {@code result.body} empty. On success
 * it fills the body. On failure it throws the {@link org.tcnfs.nfs4.status.NfsException} for the status;
 * the engine then sends the status with no body. An operation whose result carries a body with a failure
 * status (LOCK4denied, SETATTR's attrsset) sets {@code result.status} and {@code result.body} itself and
 * returns normally. Implementations are stateless and shared by all requests.
 */
@FunctionalInterface
public interface NfsOperation {
    void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException;
}

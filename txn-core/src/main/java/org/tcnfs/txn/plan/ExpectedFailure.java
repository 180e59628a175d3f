package org.tcnfs.txn.plan;

import java.util.Objects;

/**
 * The operation at which the plan stops following the compound, because it is bound to fail when it runs:
 * a PUTFH of a handle that does not resolve, a name that {@code Names.checkComponent} refuses, an operation
 * that needs a current or saved file handle when there is none, a change in a read-only pseudo directory,
 * an illegal operation. Since a compound stops at its first failure, no later operation can run.
 *
 * <p>The caller must treat the plan as covering operations {@code 0..opIndex} only: if operation
 * {@code opIndex} succeeds after all (the name space changed between planning and locking), the caller
 * must not run the next operation under this plan (re-plan, or answer NFS4ERR_DELAY and roll back).
 *
 * @param opIndex position of the operation in the compound
 * @param opName its RFC name, such as {@code PUTFH}
 * @param reason why it is bound to fail (for the log, not for the client)
 */
public record ExpectedFailure(int opIndex, String opName, String reason) {
    public ExpectedFailure {
        if (opIndex < 0) {
            throw new IllegalArgumentException("negative op index " + opIndex);
        }
        Objects.requireNonNull(opName, "opName");
        Objects.requireNonNull(reason, "reason");
    }
}

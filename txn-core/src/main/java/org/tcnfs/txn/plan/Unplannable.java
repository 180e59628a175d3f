package org.tcnfs.txn.plan;

import java.util.Objects;

/**
 * Why a compound has no plan: it holds an operation whose effect the planner does not know (NFSv4.2
 * operations, OPENATTR, pNFS layouts, delegation requests, operation numbers it has never heard of), so it
 * cannot say which objects the compound touches. The caller refuses the transaction or runs the compound
 * some other way.
 *
 * @param opIndex position of the first such operation
 * @param opcode its operation number ({@code nfs_opnum4})
 * @param reason a sentence naming the operation (for the log, not for the client)
 */
public record Unplannable(int opIndex, int opcode, String reason) {
    public Unplannable {
        if (opIndex < 0) {
            throw new IllegalArgumentException("negative op index " + opIndex);
        }
        Objects.requireNonNull(reason, "reason");
    }
}

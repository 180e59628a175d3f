package org.tcnfs.txn.plan;

import java.util.Optional;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * What the planner asks of the server's NFSv4.0 open owners (RFC 7530 section 9.1.7): whether an OPEN would be
 * answered as a retransmission of its owner's last request. Such an OPEN runs nothing: it answers the last reply
 * and makes the file opened then the current file, whatever name it carries now, so the plan must follow that
 * file, not the name ({@code OpenOperation}). The answer may change before the OPEN runs; the OPEN then checks
 * ({@code CompoundContext.checkPlannedRetransmission}).
 */
@FunctionalInterface
public interface Retransmissions {

    /** For compounds that are not NFSv4.0, or a planner without open owners: no OPEN is a retransmission. */
    Retransmissions NONE = args -> Optional.empty();

    /** The last reply {@code args} would be answered with, or empty if the OPEN would run. */
    Optional<OwnerSequence.Retransmission> ofOpen(OPEN4args args);
}

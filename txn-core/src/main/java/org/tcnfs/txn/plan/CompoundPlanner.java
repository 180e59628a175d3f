package org.tcnfs.txn.plan;

import java.io.IOException;
import java.util.Objects;
import org.tcnfs.nfs4.xdr.COMPOUND4args;

/**
 * The pre-scan of a COMPOUND (DESIGN.md, the transaction protocol, step 2): from the whole argument array,
 * before any operation runs, the {@link TxnPlan} of every object the compound reads or changes, including
 * names that do not exist yet, and the changes the backup and undo layers prepare for.
 *
 * <p>The planner follows the current and saved file handles through the operations as the server will:
 * <ul>
 *   <li>PUTFH resolves its handle through the {@link PathResolver} (once per distinct handle); PUTROOTFH and
 *       PUTPUBFH go to {@link PathResolver#root()}; LOOKUP and LOOKUPP step to the child or parent path
 *       whether or not it exists (LOOKUP never follows symbolic links); SAVEFH and RESTOREFH copy the
 *       handles; CREATE and OPEN make the new object current; SECINFO (NFSv4.1 and later) and SECINFO_NO_NAME
 *       consume the current file handle.</li>
 *   <li>Keys. READ on every place the compound visits or reads (PUTFH, PUTROOTFH, LOOKUP's directory and
 *       result, LOOKUPP, GETFH, GETATTR, ACCESS, VERIFY, NVERIFY, READ, READLINK, READDIR, COMMIT, SECINFO,
 *       OPEN without truncation). WRITE on what changes: WRITE, SETATTR, a truncating OPEN; for CREATE, a
 *       creating OPEN, REMOVE and LINK the directory and the name; for RENAME both directories and both
 *       names (so a directory rename conflicts, through the lock manager's ancestor READ locks, with all
 *       work beneath either name); for LINK also the linked object. Places in pseudo directories get no
 *       keys (nothing there can change).</li>
 *   <li>Object keys. Each object the compound changes gets a WRITE {@link ObjectKey} on its handle: the
 *       handle of its PUTFH, or else what {@link PathResolver#identify} says of its path before the
 *       compound, so two names of one hard-linked file exclude each other.</li>
 *   <li>Session and state operations (SEQUENCE, EXCHANGE_ID, CREATE_SESSION, DESTROY_SESSION,
 *       DESTROY_CLIENTID, BIND_CONN_TO_SESSION, BACKCHANNEL_CTL, RECLAIM_COMPLETE, CLOSE, OPEN_DOWNGRADE,
 *       OPEN_CONFIRM, LOCK, LOCKT, LOCKU, TEST_STATEID, FREE_STATEID, DELEGRETURN, DELEGPURGE, RENEW,
 *       SETCLIENTID, SETCLIENTID_CONFIRM, RELEASE_LOCKOWNER) have no keys.</li>
 * </ul>
 *
 * <p>Where an operation is bound to fail the plan stops ({@link ExpectedFailure}): a PUTFH of an empty or
 * unresolvable handle (stale, malformed, of an export the caller may not see: the operation answers its
 * normal error when it runs), a name {@code Names.checkComponent} refuses (the plan does not follow the
 * path past an invalid name; the operation fails with that name's error), an operation needing a current
 * or saved file handle when there is none, a change in a pseudo directory, LOOKUP of a name a pseudo
 * directory lacks, LOOKUPP above the root, a RENAME or LINK between exports, OP_ILLEGAL. An operation
 * without a descriptor in the {@link OperationTable} makes the compound {@link Unplannable}; one with a
 * descriptor that the planner does not follow is a server fault ({@code IllegalStateException}), never a
 * silent skip ({@code OperationTableTest} keeps the two in step).
 *
 * <p>Cost: linear in the operations, plus path translations when the compound renames (a handful of
 * comparisons per earlier rename); no I/O besides the resolver calls. Stateless and thread-safe; a
 * {@link TxnPlan} for the same arguments and resolver answers is always the same.
 */
public final class CompoundPlanner {

    /** A planner; it holds nothing, so one may serve every request. */
    public CompoundPlanner() {
    }

    /**
     * Plans {@code compound} against the name space as {@code resolver} sees it now.
     *
     * @param compound the decoded arguments; not changed
     * @param resolver the caller's view of handles and exports
     * @return the plan: complete, stopped at an expected failure, or unplannable
     * @throws IOException if a resolver lookup failed (not for a bad handle, which only stops the plan)
     */
    public TxnPlan plan(COMPOUND4args compound, PathResolver resolver) throws IOException {
        return plan(compound, resolver, Retransmissions.NONE);
    }

    /**
     * Plans {@code compound} as {@link #plan(COMPOUND4args, PathResolver)} does, taking an NFSv4.0 OPEN that
     * {@code retransmissions} says is a retransmission for one that only answers its owner's last reply.
     */
    public TxnPlan plan(COMPOUND4args compound, PathResolver resolver, Retransmissions retransmissions)
            throws IOException {
        Objects.requireNonNull(compound, "compound");
        Objects.requireNonNull(resolver, "resolver");
        Objects.requireNonNull(retransmissions, "retransmissions");
        return new Simulation(compound, resolver, retransmissions).run();
    }
}

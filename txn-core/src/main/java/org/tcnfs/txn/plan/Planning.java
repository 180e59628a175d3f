package org.tcnfs.txn.plan;

import java.io.IOException;
import java.util.Optional;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;

/**
 * What an {@link ObjectOperation} sees of the planner's run over one compound while it plans its operation:
 * the simulated current and saved file handles, the lock keys and mutations found so far, and the history of
 * the names the compound creates, removes and renames. An operation reads its arguments, checks them the way
 * it will when it runs, and either stops the plan ({@link #expectFailure}: it is bound to fail there; {@link
 * #unknown}: the planner cannot follow it) or adds its keys and mutations.
 *
 * <p>Methods that take the operation's position and arguments ({@code index}, {@code op}) check something
 * and answer {@code null} (or {@code false}) when the check fails, having stopped the plan at that operation
 * with the reason; the operation then returns without adding anything.
 *
 * <p>Single use, single thread: one per planner run.
 */
public interface Planning {

    /** The operation's arguments as {@code type}, or {@code null} (the compound is then unplannable). */
    <T> T args(int index, nfs_argop4 op, Class<T> type);

    /** The current file handle, or {@code null} if there is none (NFS4ERR_NOFILEHANDLE). */
    Register current(int index, nfs_argop4 op);

    /** The saved file handle, or {@code null} if there is none (NFS4ERR_NOFILEHANDLE). */
    Register saved(int index, nfs_argop4 op);

    /** {@link #directoryInExport} of the current file handle. */
    ObjectPath currentDirectoryInExport(int index, nfs_argop4 op);

    /**
     * The path of a directory the operation changes, or {@code null}: {@code dir} is {@code null} (no file
     * handle) or a pseudo directory (read-only: NFS4ERR_ROFS).
     */
    ObjectPath directoryInExport(int index, nfs_argop4 op, Register dir);

    /** {@code name} if it is a valid component ({@code Names.checkComponent}), else {@code null}. */
    String checkName(int index, nfs_argop4 op, String name);

    /** Whether {@code a} and {@code b} are in one export; if not, the plan stops (NFS4ERR_XDEV). */
    boolean sameExport(int index, nfs_argop4 op, ObjectPath a, ObjectPath b);

    /** The plan stops at this operation, which is bound to fail for {@code reason} (first reason wins). */
    void expectFailure(int index, nfs_argop4 op, String reason);

    /** The planner cannot follow this operation: the compound is {@link Unplannable}. */
    void unknown(int index, nfs_argop4 op, String reason);

    /**
     * For the NFSv4.0 OPEN at {@code index}: the last reply of its open owner if the OPEN is a retransmission of
     * that owner's last request ({@link Retransmissions}); empty otherwise and for other minor versions. Empty, with
     * the compound made {@link Unplannable}, when an earlier operation of the compound carries a seqid (it may change
     * the answer before the OPEN runs).
     */
    Optional<OwnerSequence.Retransmission> retransmission(int index, nfs_argop4 op, OPEN4args args);

    /**
     * Operation {@code index} is an OPEN answered from its owner's last reply {@code again}: it changes nothing,
     * fails if that reply did, and else makes the file opened then the current file handle (as PUTFH would).
     */
    void retransmitted(int index, nfs_argop4 op, OwnerSequence.Retransmission again) throws IOException;

    /** The path of {@code name} in {@code dir}, for a name {@link #checkName} answered. */
    ObjectPath child(ObjectPath dir, String checkedName);

    /** A READ key on {@code path} (unless it has a WRITE key already). */
    void readKey(ObjectPath path);

    /** A READ key on where {@code register} is, if that is in an export. */
    void readKey(Register register);

    /** A WRITE key on {@code path}. */
    void writeKey(ObjectPath path);

    /**
     * A WRITE key on a changed object by handle ({@link ObjectKey}): its {@code knownHandle}, else the handle
     * its origin has now, if any.
     *
     * @throws IOException if the resolver cannot look the origin up
     */
    void writeObject(ObjectRef object, Inode knownHandle) throws IOException;

    /**
     * Whether {@code object} is an object that existed before the compound and that no earlier operation of
     * the compound removed or renamed away: its origin is present and the resolver identifies an object
     * there. The answer is an assumption of the plan ({@link Assumption.PathIdentifies}), checked again under
     * the locks, so an operation may lock less for an existing name (a READ key on its directory when it
     * changes no directory entry) and the compound is planned again if the name came or went meanwhile.
     *
     * @throws IOException if the resolver cannot look the origin up
     */
    boolean existedBefore(ObjectRef object) throws IOException;

    /** A change the operation makes, in operation order. */
    void mutation(Mutation mutation);

    /** The object {@code register} is bound to, with where it was before the compound. */
    ObjectRef ref(Register register);

    /** Whatever {@code path} names now (after the compound's earlier operations), with where it was before. */
    ObjectRef atPath(ObjectPath path);

    /** The operation creates a new object at {@code path}. */
    void created(ObjectPath path);

    /** The operation removes the name {@code path}. */
    void removed(ObjectPath path);

    /** The operation renames {@code from} to {@code to}: the current and saved file handles move with it. */
    void renamed(ObjectPath from, ObjectPath to);

    /** The operation gives the object at {@code origin} (before the compound) the new name {@code path}. */
    void aliased(ObjectPath path, Optional<ObjectPath> origin);

    /** The current file handle becomes {@code object}. */
    void currentIs(ObjectRef object);

    /** The current file handle becomes what {@code path} names now (reached by name). */
    void currentByName(ObjectPath path);
}

package org.tcnfs.txn.plan;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.ops.CreateOperation;
import org.tcnfs.txn.ops.LinkOperation;
import org.tcnfs.txn.ops.OpenOperation;
import org.tcnfs.txn.ops.RemoveOperation;
import org.tcnfs.txn.ops.RenameOperation;
import org.tcnfs.txn.ops.SetattrOperation;
import org.tcnfs.txn.ops.WriteOperation;

/**
 * What the transaction layer knows of each NFSv4 operation, in one table indexed by operation number, in the
 * manner of knfsd's {@code nfsd4_ops[]} (STYLE.md section 4): for each operation what it locks, whether it
 * changes file-system objects, only open/lock/session state, or nothing, how the planner follows it ({@link
 * Planner}), which {@link Mutation}s it lists, which {@link UndoStep}s those become, and what becomes of the
 * open and lock state it creates or changes on rollback.
 *
 * <p>An operation that changes objects is written in one place, its {@link ObjectOperation} class in {@code
 * org.tcnfs.txn.ops}, and its descriptor is made from that class ({@link Descriptor#of}): what it locks and
 * changes (its {@code plan}), the kinds of mutation it lists and the kinds of undo step they become. The rest
 * is forced by the compiler: the undo of each kind of mutation is prepared by one method of {@code
 * UndoPreparer}'s {@link Mutation.Visitor}, and each kind of undo step is encoded ({@code ProtoMapping}),
 * decoded (a switch over the {@code recovery.proto} oneof without default) and executed ({@code UndoExecutor})
 * by one method of an {@link UndoStep.Visitor}. An operation that changes no object is followed by the planner
 * as its {@link Follow} says (a switch without default). A {@link Descriptor} cannot be built without a
 * planner, and an operation changes objects if and only if its planner is its own class.
 *
 * <p>The planner ({@link CompoundPlanner}) looks every operation up here: an operation without a descriptor
 * makes the compound {@link Unplannable} (a plain one is then locked whole, a transactional one refused).
 * {@code OperationTableTest} fails when an operation the server runs ({@code Operations.all()}) has no
 * descriptor, when an operation that changes objects plans other kinds of mutation than its descriptor names
 * (or has no sample compound in the test), when an operation marked read-only or state-only plans a mutation or
 * a WRITE lock, or when a kind of {@link Mutation} or {@link UndoStep} belongs to no operation; {@code
 * OperationUndoCoverageTest} fails when a kind of mutation is not prepared, recorded and undone into the undo
 * steps its descriptor names. docs/architecture.md ("One place per operation") lists the steps of adding an
 * operation (NFSv4.2 ALLOCATE, CLONE).
 *
 * <p>Immutable and thread-safe.
 */
public final class OperationTable {

    /** What an operation changes. */
    public enum Effect {
        /** Nothing: it reads objects or attributes, or moves file handles. */
        READ_ONLY,
        /** Only open, lock, session or client state in memory; no file-system object. */
        STATE_ONLY,
        /** File-system objects: it has mutations and undo steps. */
        CHANGES_OBJECTS
    }

    /** What an operation locks (the planner's keys; every key also read-locks its ancestors). */
    public enum Locks {
        /** No object. */
        NONE,
        /** READ on the place the new current file handle leads to (for LOOKUP also the directory). */
        NEW_CURRENT_READ,
        /** READ on the current object. */
        CURRENT_READ,
        /** WRITE on the current object, and its object key. */
        CURRENT_WRITE,
        /** WRITE on the current directory and the name in it (the name's object key for REMOVE). */
        CURRENT_DIRECTORY_AND_NAME,
        /**
         * OPEN: READ on the directory and the file; WRITE on the name when it may create, on the file when it
         * truncates.
         */
        OPEN,
        /** RENAME: WRITE on both directories and both names. */
        BOTH_DIRECTORIES_AND_NAMES,
        /** LINK: WRITE on the target directory and new name, and on the linked object (its object key). */
        LINK
    }

    /** What a rolled-back compound does with the open, share or lock state the operation creates or changes. */
    public enum StateOnRollback {
        /** The operation creates and changes no open, share or lock state. */
        NONE,
        /**
         * Put back exactly as it was before the compound, from the compound's {@code StateJournal}
         * ({@code OpenStateTable.restore}, run by the transaction's rollback): states it created are released,
         * states it upgraded, downgraded, confirmed, locked, unlocked, closed or freed get their share modes,
         * stateid seqids, byte-range locks (split and merged ranges) and existence back. NFSv4.0 owner
         * sequences are not rolled back (they number requests the client got replies to).
         */
        RESTORED,
        /**
         * Left as the operation made it: session and client state (slots, sessions, client ids, leases), which
         * numbers or authorizes requests rather than holding objects, as a session's slot sequence does.
         */
        KEPT
    }

    /**
     * How the planner follows an operation: a {@link Follow} for one that changes no object, the operation's
     * own {@link ObjectOperation} class for one that does. A descriptor without one cannot be built.
     */
    public sealed interface Planner permits Follow, ObjectOperation {
    }

    /**
     * How the planner follows an operation that changes no object (the planner handles each in a switch
     * without default, so a new constant does not compile until it is followed).
     */
    public enum Follow implements Planner {
        /** PUTFH: the handle becomes current, READ on where it leads. */
        PUTFH,
        /** PUTROOTFH and PUTPUBFH: the root becomes current, READ on it. */
        PUTROOTFH,
        /** LOOKUP: READ on the directory, the named object becomes current, READ on it. */
        LOOKUP,
        /** LOOKUPP: READ on the directory, its parent becomes current, READ on it. */
        LOOKUPP,
        /** SAVEFH: the current file handle is saved. */
        SAVEFH,
        /** RESTOREFH: the saved file handle becomes current. */
        RESTOREFH,
        /** READ on the current object (GETATTR, READ, ...). */
        READ_CURRENT,
        /** SECINFO: READ on the directory and the named object; NFSv4.1 clears the current file handle. */
        SECINFO,
        /** SECINFO_NO_NAME: READ on the current object (or its parent); clears the current file handle. */
        SECINFO_NO_NAME,
        /** Session, client, open and lock state only: no object is read or changed. */
        NO_OBJECT,
        /** ILLEGAL: the plan stops there (NFS4ERR_OP_ILLEGAL). */
        ILLEGAL
    }

    /**
     * One operation's descriptor.
     *
     * @param opcode the operation number ({@code nfs_opnum4})
     * @param locks what it locks
     * @param effect what it changes
     * @param mutations the kinds of {@link Mutation} the planner lists for it (empty unless it changes objects)
     * @param undoSteps the kinds of {@link UndoStep} its mutations are undone by (empty likewise)
     * @param state what a rollback does with the open and lock state it creates or changes
     * @param planner how the planner follows it: its {@link ObjectOperation} if and only if it changes objects
     */
    public record Descriptor(int opcode, Locks locks, Effect effect, Set<Class<? extends Mutation>> mutations,
            Set<Class<? extends UndoStep>> undoSteps, StateOnRollback state, Planner planner) {
        public Descriptor {
            Objects.requireNonNull(locks, "locks");
            Objects.requireNonNull(effect, "effect");
            mutations = Set.copyOf(mutations);
            undoSteps = Set.copyOf(undoSteps);
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(planner, "planner");
            boolean changes = effect == Effect.CHANGES_OBJECTS;
            if (changes == mutations.isEmpty() || mutations.isEmpty() != undoSteps.isEmpty()) {
                throw new IllegalArgumentException(nfs_opnum4.name(opcode) + ": an operation changes objects if and "
                        + "only if it names its mutations and their undo steps");
            }
            if (changes != planner instanceof ObjectOperation) {
                throw new IllegalArgumentException(nfs_opnum4.name(opcode) + ": an operation changes objects if and "
                        + "only if it is planned by its own ObjectOperation");
            }
            if (planner instanceof ObjectOperation o && o.opcode() != opcode) {
                throw new IllegalArgumentException(nfs_opnum4.name(opcode) + " planned by the class of "
                        + nfs_opnum4.name(o.opcode()));
            }
        }

        /** The descriptor of an operation that changes objects, made from its class. */
        public static Descriptor of(ObjectOperation operation) {
            return new Descriptor(operation.opcode(), operation.locks(), Effect.CHANGES_OBJECTS, operation.mutations(),
                    operation.undoSteps(), operation.state(), operation);
        }

        /** The operation's RFC name. */
        public String name() {
            return nfs_opnum4.name(opcode);
        }

        /** Its class, if it changes objects. */
        public Optional<ObjectOperation> operation() {
            return planner instanceof ObjectOperation o ? Optional.of(o) : Optional.empty();
        }
    }

    private static final Map<Integer, Descriptor> TABLE;

    static {
        Map<Integer, Descriptor> t = new LinkedHashMap<>();
        // file handles: move the current and saved handles, change nothing
        readOnly(t, OP_PUTFH, Locks.NEW_CURRENT_READ, Follow.PUTFH);
        readOnly(t, OP_PUTROOTFH, Locks.NEW_CURRENT_READ, Follow.PUTROOTFH);
        readOnly(t, OP_PUTPUBFH, Locks.NEW_CURRENT_READ, Follow.PUTROOTFH);
        readOnly(t, OP_LOOKUP, Locks.NEW_CURRENT_READ, Follow.LOOKUP);
        readOnly(t, OP_LOOKUPP, Locks.NEW_CURRENT_READ, Follow.LOOKUPP);
        readOnly(t, OP_SAVEFH, Locks.NONE, Follow.SAVEFH);
        readOnly(t, OP_RESTOREFH, Locks.NONE, Follow.RESTOREFH);
        readOnly(t, OP_GETFH, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_SECINFO, Locks.CURRENT_READ, Follow.SECINFO);
        readOnly(t, OP_SECINFO_NO_NAME, Locks.CURRENT_READ, Follow.SECINFO_NO_NAME);
        // reads
        readOnly(t, OP_GETATTR, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_ACCESS, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_VERIFY, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_NVERIFY, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_READ, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_READLINK, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_READDIR, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_COMMIT, Locks.CURRENT_READ, Follow.READ_CURRENT);
        readOnly(t, OP_LOCKT, Locks.NONE, Follow.NO_OBJECT);
        readOnly(t, OP_TEST_STATEID, Locks.NONE, Follow.NO_OBJECT);
        readOnly(t, OP_ILLEGAL, Locks.NONE, Follow.ILLEGAL);
        // changes of objects: each operation's class says what it locks, changes and how that is undone
        changes(t, new WriteOperation());
        changes(t, new SetattrOperation());
        changes(t, new CreateOperation());
        changes(t, new RemoveOperation());
        changes(t, new RenameOperation());
        changes(t, new LinkOperation());
        changes(t, new OpenOperation());
        // open and lock state: recorded by the compound's StateJournal, put back by the rollback
        state(t, OP_LOCK, StateOnRollback.RESTORED);
        state(t, OP_CLOSE, StateOnRollback.RESTORED);
        state(t, OP_OPEN_DOWNGRADE, StateOnRollback.RESTORED);
        state(t, OP_OPEN_CONFIRM, StateOnRollback.RESTORED);
        state(t, OP_LOCKU, StateOnRollback.RESTORED);
        state(t, OP_FREE_STATEID, StateOnRollback.RESTORED);
        state(t, OP_RELEASE_LOCKOWNER, StateOnRollback.RESTORED);
        // no delegation is ever granted: DELEGRETURN only answers errors, DELEGPURGE is not run at all
        state(t, OP_DELEGRETURN, StateOnRollback.NONE);
        state(t, OP_DELEGPURGE, StateOnRollback.NONE);
        // sessions and clients
        state(t, OP_SEQUENCE, StateOnRollback.KEPT);
        state(t, OP_EXCHANGE_ID, StateOnRollback.KEPT);
        state(t, OP_CREATE_SESSION, StateOnRollback.KEPT);
        state(t, OP_DESTROY_SESSION, StateOnRollback.KEPT);
        state(t, OP_DESTROY_CLIENTID, StateOnRollback.KEPT);
        state(t, OP_BIND_CONN_TO_SESSION, StateOnRollback.KEPT);
        state(t, OP_BACKCHANNEL_CTL, StateOnRollback.KEPT);
        state(t, OP_RECLAIM_COMPLETE, StateOnRollback.KEPT);
        state(t, OP_RENEW, StateOnRollback.KEPT);
        state(t, OP_SETCLIENTID, StateOnRollback.KEPT);
        state(t, OP_SETCLIENTID_CONFIRM, StateOnRollback.KEPT);
        TABLE = Collections.unmodifiableMap(t);
    }

    private OperationTable() {
    }

    private static void put(Map<Integer, Descriptor> t, Descriptor d) {
        if (t.putIfAbsent(d.opcode(), d) != null) {
            throw new IllegalStateException("two descriptors for " + d.name());
        }
    }

    private static void readOnly(Map<Integer, Descriptor> t, int opcode, Locks locks, Follow follow) {
        put(t, new Descriptor(opcode, locks, Effect.READ_ONLY, Set.of(), Set.of(), StateOnRollback.NONE, follow));
    }

    private static void state(Map<Integer, Descriptor> t, int opcode, StateOnRollback state) {
        put(t, new Descriptor(opcode, Locks.NONE, Effect.STATE_ONLY, Set.of(), Set.of(), state, Follow.NO_OBJECT));
    }

    private static void changes(Map<Integer, Descriptor> t, ObjectOperation operation) {
        put(t, Descriptor.of(operation));
    }

    /** The descriptor of operation {@code opcode}, if the transaction layer knows it. */
    public static Optional<Descriptor> find(int opcode) {
        return Optional.ofNullable(TABLE.get(opcode));
    }

    /** Every descriptor, in the table's order. */
    public static List<Descriptor> all() {
        return List.copyOf(TABLE.values());
    }
}

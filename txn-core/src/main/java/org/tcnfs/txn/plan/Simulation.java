package org.tcnfs.txn.plan;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_ILLEGAL;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.ops.Names;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.SECINFO4args;
import org.tcnfs.nfs4.xdr.SECINFO_NO_NAME4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.secinfo_style4;
import org.tcnfs.txn.lock.LockMode;

/**
 * One run of the planner over one compound: the simulated file handles, the keys and changes found so far.
 * See {@link CompoundPlanner} for the rules. It follows the operations that change no object itself ({@link
 * OperationTable.Follow}) and lets each operation that changes objects plan itself ({@link ObjectOperation}),
 * through the {@link Planning} it implements. Single use, single thread.
 */
final class Simulation implements Planning {
    private static final Logger LOG = LoggerFactory.getLogger(Simulation.class);
    /** {@link #sizeOf}: no size among the attributes. */
    private static final long NO_SIZE = -1;
    /** {@link #sizeOf}: a size the operation cannot decode. */
    private static final long BAD_SIZE = -2;

    private final nfs_argop4[] ops;
    private final int minorVersion;
    private final PathResolver resolver;
    private final Retransmissions retransmissions;
    /** The OPENs planned as retransmissions answered from their owner's last reply; null until the first. */
    private SortedSet<Integer> retransmitted;

    private final Map<ObjectPath, LockMode> keys = new HashMap<>();
    /** An object by handle, as the object keys name it. */
    private record ObjectId(String exportId, Inode handle) {
    }

    private final Map<ObjectId, LockMode> objectKeys = new HashMap<>();
    private final List<Mutation> mutations = new ArrayList<>();
    private final Map<Inode, ResolvedPath> resolved = new LinkedHashMap<>();
    private final Map<ObjectPath, Optional<Inode>> identified = new LinkedHashMap<>();
    private final NamespaceHistory history = new NamespaceHistory();

    private ResolvedPath root;
    private Register current;
    private Register saved;
    private ExpectedFailure stop;
    private Unplannable unplannable;

    Simulation(COMPOUND4args compound, PathResolver resolver, Retransmissions retransmissions) {
        this.ops = Objects.requireNonNullElse(compound.argarray, new nfs_argop4[0]);
        this.minorVersion = compound.minorversion;
        this.resolver = resolver;
        this.retransmissions = retransmissions;
    }

    TxnPlan run() throws IOException {
        for (int i = 0; i < ops.length && stop == null && unplannable == null; i++) {
            nfs_argop4 op = ops[i];
            if (op == null) {
                unplannable = new Unplannable(i, OP_ILLEGAL, "operation " + i + " is missing");
            } else {
                step(i, op);
            }
        }
        if (unplannable != null) {
            LOG.debug("compound of {} operations is not plannable: {}", ops.length, unplannable.reason());
            return TxnPlan.unplannable(ops.length, unplannable);
        }
        if (stop != null) {
            LOG.debug("plan stops at operation {} ({}): {}", stop.opIndex(), stop.opName(), stop.reason());
        }
        return build();
    }

    private TxnPlan build() {
        List<PathKey> pathKeys = new ArrayList<>(keys.size());
        for (ObjectPath path : ObjectPath.sorted(keys.keySet())) {
            pathKeys.add(new PathKey(path, keys.get(path)));
        }
        List<ObjectKey> handleKeys = new ArrayList<>(objectKeys.size());
        objectKeys.forEach((id, mode) -> handleKeys.add(new ObjectKey(id.exportId(), id.handle(), mode)));
        handleKeys.sort(null);
        List<Assumption> assumptions = new ArrayList<>(resolved.size() + identified.size());
        resolved.forEach((handle, path) -> assumptions.add(new Assumption.HandleResolves(handle, path)));
        identified.forEach((path, handle) -> assumptions.add(new Assumption.PathIdentifies(path, handle)));
        return new TxnPlan(ops.length, pathKeys, handleKeys, mutations, assumptions, Optional.ofNullable(stop),
                Optional.empty(), retransmitted == null ? Set.of() : retransmitted);
    }

    // ---- the operations ----

    private void step(int i, nfs_argop4 op) throws IOException {
        Optional<OperationTable.Descriptor> descriptor = OperationTable.find(op.argop);
        if (descriptor.isEmpty()) {
            unknown(i, op, nfs_opnum4.name(op.argop) + " has no descriptor in OperationTable");
            return;
        }
        OperationTable.Planner planner = descriptor.get().planner();
        if (planner instanceof ObjectOperation operation) {
            operation.plan(this, i, op);
        } else {
            follow((OperationTable.Follow) planner, i, op);
        }
    }

    /** One way of following an operation that changes no object. */
    @FunctionalInterface
    private interface Step {
        void run(int i, nfs_argop4 op) throws IOException;
    }

    /** Follows an operation that changes no object (a switch without default: every way is handled). */
    private void follow(OperationTable.Follow how, int i, nfs_argop4 op) throws IOException {
        Step step = switch (how) {
            case PUTFH -> this::putfh;
            case PUTROOTFH -> this::putroot;
            case LOOKUP -> this::lookup;
            case LOOKUPP -> this::lookupp;
            case SAVEFH -> (index, o) -> {
                if (requireCurrent(index, o) != null) {
                    saved = current;
                }
            };
            case RESTOREFH -> (index, o) -> {
                if (saved == null) {
                    expectFailure(index, o, "nothing saved (NFS4ERR_RESTOREFH)");
                } else {
                    current = saved;
                }
            };
            case READ_CURRENT -> this::readCurrent;
            case SECINFO -> this::secinfo;
            case SECINFO_NO_NAME -> this::secinfoNoName;
            case NO_OBJECT -> (index, o) -> {
                // session and state only: no object is read or changed
            };
            case ILLEGAL -> (index, o) -> expectFailure(index, o, "illegal operation (NFS4ERR_OP_ILLEGAL)");
        };
        step.run(i, op);
    }

    private void putfh(int i, nfs_argop4 op) throws IOException {
        PUTFH4args args = args(i, op, PUTFH4args.class);
        if (args == null) {
            return;
        }
        byte[] bytes = args.object == null ? null : args.object.value;
        if (bytes == null || bytes.length == 0) {
            expectFailure(i, op, "empty file handle (NFS4ERR_BADHANDLE)");
            return;
        }
        Inode handle = Inode.of(bytes);
        ResolvedPath original = resolvedOnce(handle);
        if (original instanceof ResolvedPath.Unresolvable u) {
            expectFailure(i, op, "handle " + handle + " does not resolve: " + u.reason());
            return;
        }
        currentIsHandle(handle, original);
    }

    /** Where {@code handle} points before the compound, asked of the resolver once and kept as an assumption. */
    private ResolvedPath resolvedOnce(Inode handle) throws IOException {
        ResolvedPath original = resolved.get(handle);
        if (original == null) {
            original = Objects.requireNonNull(resolver.resolve(handle), "resolver answered null");
            resolved.put(handle, original);
        }
        return original;
    }

    private void currentIsHandle(Inode handle, ResolvedPath original) {
        ResolvedPath now = original instanceof ObjectPath p ? history.forward(p) : original;
        current = Register.ofHandle(now, handle, original);
        readKey(current);
    }

    private void putroot(int i, nfs_argop4 op) throws IOException {
        if (root == null) {
            root = Objects.requireNonNull(resolver.root(), "resolver answered null");
        }
        if (root instanceof ResolvedPath.Unresolvable u) {
            expectFailure(i, op, "no root: " + u.reason());
            return;
        }
        current = Register.byName(root, history.size());
        readKey(current);
    }

    private void lookup(int i, nfs_argop4 op) throws IOException {
        LOOKUP4args args = args(i, op, LOOKUP4args.class);
        Register dir = args == null ? null : requireCurrent(i, op);
        String name = dir == null ? null : checkName(i, op, args.objname);
        if (name == null) {
            return;
        }
        readKey(dir);
        ResolvedPath next = Objects.requireNonNull(resolver.lookup(dir.where(), name), "resolver answered null");
        moveTo(i, op, next);
    }

    private void lookupp(int i, nfs_argop4 op) throws IOException {
        Register dir = requireCurrent(i, op);
        if (dir == null) {
            return;
        }
        readKey(dir);
        ResolvedPath next = Objects.requireNonNull(resolver.parent(dir.where()), "resolver answered null");
        moveTo(i, op, next);
    }

    /** LOOKUP and LOOKUPP: {@code next} becomes current and is read. */
    private void moveTo(int i, nfs_argop4 op, ResolvedPath next) {
        if (next instanceof ResolvedPath.Unresolvable u) {
            expectFailure(i, op, u.reason() + " (NFS4ERR_NOENT)");
            return;
        }
        current = Register.byName(next, history.size());
        readKey(current);
    }

    private void readCurrent(int i, nfs_argop4 op) {
        Register object = requireCurrent(i, op);
        if (object != null) {
            readKey(object);
        }
    }

    private void secinfo(int i, nfs_argop4 op) throws IOException {
        SECINFO4args args = args(i, op, SECINFO4args.class);
        Register dir = args == null ? null : requireCurrent(i, op);
        String name = dir == null ? null : checkName(i, op, args.name);
        if (name == null) {
            return;
        }
        readKey(dir);
        ResolvedPath child = Objects.requireNonNull(resolver.lookup(dir.where(), name), "resolver answered null");
        if (child instanceof ResolvedPath.Unresolvable u) {
            expectFailure(i, op, u.reason() + " (NFS4ERR_NOENT)");
            return;
        }
        if (child instanceof ObjectPath p) {
            readKey(p);
        }
        if (minorVersion >= 1) {
            current = null;
        }
    }

    private void secinfoNoName(int i, nfs_argop4 op) throws IOException {
        SECINFO_NO_NAME4args args = args(i, op, SECINFO_NO_NAME4args.class);
        Register object = args == null ? null : requireCurrent(i, op);
        if (object == null) {
            return;
        }
        readKey(object);
        if (args.value == secinfo_style4.SECINFO_STYLE4_PARENT) {
            ResolvedPath parent = Objects.requireNonNull(resolver.parent(object.where()), "resolver answered null");
            if (parent instanceof ResolvedPath.Unresolvable u) {
                expectFailure(i, op, u.reason() + " (NFS4ERR_NOENT)");
                return;
            }
            if (parent instanceof ObjectPath p) {
                readKey(p);
            }
        } else if (args.value != secinfo_style4.SECINFO_STYLE4_CURRENT_FH) {
            expectFailure(i, op, "unknown secinfo style " + args.value + " (NFS4ERR_BADXDR)");
            return;
        }
        current = null;
    }

    // ---- keys ----

    @Override
    public void readKey(Register register) {
        ObjectPath path = register.path();
        if (path != null) {
            readKey(path);
        }
    }

    @Override
    public void readKey(ObjectPath path) {
        keys.putIfAbsent(path, LockMode.READ);
    }

    @Override
    public void writeKey(ObjectPath path) {
        keys.put(path, LockMode.WRITE);
    }

    /** The object key of a changed object: by its known handle, else by what its origin identifies. */
    @Override
    public void writeObject(ObjectRef object, Inode knownHandle) throws IOException {
        Inode handle = knownHandle;
        if (handle == null && object.origin().isPresent()) {
            handle = identified(object.origin().get()).orElse(null);
        }
        if (handle != null) {
            objectKeys.put(new ObjectId(object.path().exportId(), handle), LockMode.WRITE);
        }
    }

    @Override
    public boolean existedBefore(ObjectRef object) throws IOException {
        return object.origin().isPresent() && identified(object.origin().get()).isPresent()
                && !resolver.removalPending(object.origin().get(), resolvedParent(object.origin().get()));
    }

    /**
     * A handle of this compound's PUTFHs that the resolver resolved to the directory {@code origin} is in (before the
     * compound), or null: the resolver may look {@code origin} up there ({@link PathResolver#identify(ObjectPath,
     * Inode)}).
     */
    private Inode resolvedParent(ObjectPath origin) {
        ObjectPath parent = origin.parent().orElse(null);
        if (parent == null) {
            return null;
        }
        for (Map.Entry<Inode, ResolvedPath> entry : resolved.entrySet()) {
            if (parent.equals(entry.getValue())) {
                return entry.getKey();
            }
        }
        return null;
    }

    /** What the resolver identifies at {@code origin}, asked once per path and kept as an assumption. */
    private Optional<Inode> identified(ObjectPath origin) throws IOException {
        Optional<Inode> found = identified.get(origin);
        if (found == null) {
            found = Objects.requireNonNull(resolver.identify(origin, resolvedParent(origin)), "resolver answered null");
            identified.put(origin, found);
        }
        return found;
    }

    // ---- what operations that change objects see (Planning) ----

    @Override
    public Register current(int i, nfs_argop4 op) {
        return requireCurrent(i, op);
    }

    @Override
    public Register saved(int i, nfs_argop4 op) {
        return requireSaved(i, op);
    }

    @Override
    public ObjectPath currentDirectoryInExport(int i, nfs_argop4 op) {
        return requireDirectoryInExport(i, op, current);
    }

    @Override
    public ObjectPath directoryInExport(int i, nfs_argop4 op, Register dir) {
        return requireDirectoryInExport(i, op, dir);
    }

    @Override
    public ObjectPath child(ObjectPath dir, String checkedName) {
        return dir.checkedChild(checkedName);
    }

    @Override
    public void mutation(Mutation mutation) {
        mutations.add(Objects.requireNonNull(mutation, "mutation"));
    }

    @Override
    public ObjectRef ref(Register register) {
        return register.ref(history);
    }

    @Override
    public ObjectRef atPath(ObjectPath path) {
        return new ObjectRef(path, history.originOf(path, history.size()));
    }

    @Override
    public void created(ObjectPath path) {
        history.created(path);
    }

    @Override
    public void removed(ObjectPath path) {
        history.removed(path);
    }

    @Override
    public void renamed(ObjectPath from, ObjectPath to) {
        history.renamed(from, to);
        if (current != null) {
            current = current.renamed(from, to);
        }
        if (saved != null) {
            saved = saved.renamed(from, to);
        }
    }

    @Override
    public void aliased(ObjectPath path, Optional<ObjectPath> origin) {
        history.aliased(path, origin);
    }

    @Override
    public Optional<OwnerSequence.Retransmission> retransmission(int at, nfs_argop4 op, OPEN4args args) {
        if (minorVersion != 0 || args.owner == null) {
            return Optional.empty();
        }
        for (int i = 0; i < at; i++) {
            if (ops[i] != null && SEQUENCED_NFS40.contains(ops[i].argop)) {
                // that operation runs first and may change the owner's last request, and with it whether this OPEN
                // is a retransmission: asked now, the answer could be the other one when the OPEN runs, which then
                // goes no further (NFS4ERR_DELAY, every time the compound is sent)
                unknown(at, op, "an NFSv4.0 OPEN after " + nfs_opnum4.name(ops[i].argop) + " in one compound: "
                        + "whether it retransmits its owner's last request is known only when it runs");
                return Optional.empty();
            }
        }
        return Objects.requireNonNull(retransmissions.ofOpen(args), "retransmissions answered null");
    }

    /** NFSv4.0 operations that carry an owner's seqid (RFC 7530 9.1.7), which a later OPEN's may depend on. */
    private static final Set<Integer> SEQUENCED_NFS40 = Set.of(nfs_opnum4.OP_OPEN, nfs_opnum4.OP_OPEN_CONFIRM,
            nfs_opnum4.OP_OPEN_DOWNGRADE, nfs_opnum4.OP_CLOSE, nfs_opnum4.OP_LOCK, nfs_opnum4.OP_LOCKU);

    @Override
    public void retransmitted(int i, nfs_argop4 op, OwnerSequence.Retransmission again) throws IOException {
        if (retransmitted == null) {
            retransmitted = new TreeSet<>();
        }
        retransmitted.add(i);
        if (again.status() != NfsStatus.OK.code()) {
            expectFailure(i, op, "a retransmission answered with its last reply, " + NfsStatus.nameOf(again.status()));
            return;
        }
        if (again.file() == null) {
            return;
        }
        ResolvedPath original = resolvedOnce(again.file());
        if (original instanceof ResolvedPath.Unresolvable u) {
            // the OPEN succeeds and makes that handle current; what follows fails or not as the handle does:
            // the planner cannot say which, so the compound is not plannable (a plain one locks the exports whole)
            unknown(i, op, "a retransmitted OPEN makes current a handle that does not resolve: " + u.reason());
            return;
        }
        currentIsHandle(again.file(), original);
    }

    @Override
    public void currentIs(ObjectRef object) {
        current = Register.of(object);
    }

    @Override
    public void currentByName(ObjectPath path) {
        current = Register.byName(path, history.size());
    }

    // ---- checks that end the plan ----

    private Register requireCurrent(int i, nfs_argop4 op) {
        if (current == null) {
            expectFailure(i, op, "no current file handle (NFS4ERR_NOFILEHANDLE)");
        }
        return current;
    }

    private Register requireSaved(int i, nfs_argop4 op) {
        if (saved == null) {
            expectFailure(i, op, "no saved file handle (NFS4ERR_NOFILEHANDLE)");
        }
        return saved;
    }

    /** The path of a directory the operation changes: in an export, as pseudo directories are read-only. */
    private ObjectPath requireDirectoryInExport(int i, nfs_argop4 op, Register dir) {
        if (dir == null) {
            if (stop == null) {
                expectFailure(i, op, "no current file handle (NFS4ERR_NOFILEHANDLE)");
            }
            return null;
        }
        if (dir.path() == null) {
            expectFailure(i, op, "a pseudo directory cannot change (NFS4ERR_ROFS)");
        }
        return dir.path();
    }

    @Override
    public boolean sameExport(int i, nfs_argop4 op, ObjectPath a, ObjectPath b) {
        if (!a.exportId().equals(b.exportId())) {
            expectFailure(i, op, "between exports " + a.exportId() + " and " + b.exportId() + " (NFS4ERR_XDEV)");
            return false;
        }
        return true;
    }

    /** The name if {@code Names.checkComponent} accepts it; else the plan stops here and this is null. */
    @Override
    public String checkName(int i, nfs_argop4 op, String name) {
        try {
            return Names.checkComponent(name);
        } catch (NfsException e) {
            expectFailure(i, op, "invalid name: " + e.getMessage() + " (" + e.status() + ")");
            return null;
        }
    }

    @Override
    public <T> T args(int i, nfs_argop4 op, Class<T> type) {
        if (!type.isInstance(op.args)) {
            unknown(i, op, nfs_opnum4.name(op.argop) + " without " + type.getSimpleName());
            return null;
        }
        return type.cast(op.args);
    }

    @Override
    public void expectFailure(int i, nfs_argop4 op, String reason) {
        if (stop == null) {
            stop = new ExpectedFailure(i, nfs_opnum4.name(op.argop), reason);
        }
    }

    @Override
    public void unknown(int i, nfs_argop4 op, String reason) {
        unplannable = new Unplannable(i, op.argop, reason);
    }
}

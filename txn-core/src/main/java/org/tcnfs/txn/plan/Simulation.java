package org.tcnfs.txn.plan;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.ops.Names;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.SECINFO4args;
import org.tcnfs.nfs4.xdr.SECINFO_NO_NAME4args;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_claim_type4;
import org.tcnfs.nfs4.xdr.opentype4;
import org.tcnfs.nfs4.xdr.secinfo_style4;
import org.tcnfs.txn.lock.LockMode;

/**
 * One run of the planner over one compound: the simulated file handles, the keys and changes found so far.
 * See {@link CompoundPlanner} for the rules. Single use, single thread.
 */
final class Simulation {
    private static final Logger LOG = LoggerFactory.getLogger(Simulation.class);
    /** {@link #sizeOf}: no size among the attributes. */
    private static final long NO_SIZE = -1;
    /** {@link #sizeOf}: a size the operation cannot decode. */
    private static final long BAD_SIZE = -2;

    private final nfs_argop4[] ops;
    private final int minorVersion;
    private final PathResolver resolver;

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

    Simulation(COMPOUND4args compound, PathResolver resolver) {
        this.ops = Objects.requireNonNullElse(compound.argarray, new nfs_argop4[0]);
        this.minorVersion = compound.minorversion;
        this.resolver = resolver;
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
                Optional.empty());
    }

    // ---- the operations ----

    private void step(int i, nfs_argop4 op) throws IOException {
        if (OperationTable.find(op.argop).isEmpty()) {
            unknown(i, op, nfs_opnum4.name(op.argop) + " has no descriptor in OperationTable");
            return;
        }
        switch (op.argop) {
            case OP_PUTFH -> putfh(i, op);
            case OP_PUTROOTFH, OP_PUTPUBFH -> putroot(i, op);
            case OP_LOOKUP -> lookup(i, op);
            case OP_LOOKUPP -> lookupp(i, op);
            case OP_SAVEFH -> {
                if (requireCurrent(i, op) != null) {
                    saved = current;
                }
            }
            case OP_RESTOREFH -> {
                if (saved == null) {
                    expectFailure(i, op, "nothing saved (NFS4ERR_RESTOREFH)");
                } else {
                    current = saved;
                }
            }
            case OP_GETFH, OP_GETATTR, OP_ACCESS, OP_VERIFY, OP_NVERIFY, OP_READ, OP_READLINK, OP_READDIR,
                    OP_COMMIT -> readCurrent(i, op);
            case OP_SECINFO -> secinfo(i, op);
            case OP_SECINFO_NO_NAME -> secinfoNoName(i, op);
            case OP_CREATE -> create(i, op);
            case OP_OPEN -> open(i, op);
            case OP_REMOVE -> remove(i, op);
            case OP_RENAME -> rename(i, op);
            case OP_LINK -> link(i, op);
            case OP_SETATTR -> setattr(i, op);
            case OP_WRITE -> writeData(i, op);
            case OP_SEQUENCE, OP_EXCHANGE_ID, OP_CREATE_SESSION, OP_DESTROY_SESSION, OP_DESTROY_CLIENTID,
                    OP_BIND_CONN_TO_SESSION, OP_BACKCHANNEL_CTL, OP_RECLAIM_COMPLETE, OP_CLOSE, OP_OPEN_DOWNGRADE,
                    OP_OPEN_CONFIRM, OP_LOCK, OP_LOCKT, OP_LOCKU, OP_TEST_STATEID, OP_FREE_STATEID,
                    OP_DELEGRETURN, OP_DELEGPURGE, OP_RENEW, OP_SETCLIENTID, OP_SETCLIENTID_CONFIRM,
                    OP_RELEASE_LOCKOWNER -> {
                // session and state only: no object is read or changed
            }
            case OP_ILLEGAL -> expectFailure(i, op, "illegal operation (NFS4ERR_OP_ILLEGAL)");
            default -> throw new IllegalStateException(nfs_opnum4.name(op.argop)
                    + " has a descriptor in OperationTable but the planner does not follow it");
        }
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
        ResolvedPath original = resolved.get(handle);
        if (original == null) {
            original = Objects.requireNonNull(resolver.resolve(handle), "resolver answered null");
            resolved.put(handle, original);
        }
        if (original instanceof ResolvedPath.Unresolvable u) {
            expectFailure(i, op, "handle " + handle + " does not resolve: " + u.reason());
            return;
        }
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

    private void create(int i, nfs_argop4 op) {
        CREATE4args args = args(i, op, CREATE4args.class);
        ObjectPath dir = args == null ? null : requireDirectoryInExport(i, op, current);
        if (dir == null) {
            return;
        }
        FileType type = createType(args.objtype == null ? -1 : args.objtype.type);
        if (type == null) {
            expectFailure(i, op, "CREATE cannot make type " + (args.objtype == null ? "none" : args.objtype.type)
                    + " (NFS4ERR_BADTYPE)");
            return;
        }
        String name = checkName(i, op, args.objname);
        if (name == null) {
            return;
        }
        if (type == FileType.SYMLINK) {
            try {
                Names.checkLinkTarget(args.objtype.linkdata);
            } catch (NfsException e) {
                expectFailure(i, op, "bad link target: " + e.getMessage() + " (" + e.status() + ")");
                return;
            }
        }
        if (hasSize(args.createattrs)) {
            expectFailure(i, op, "CREATE cannot set a size (NFS4ERR_INVAL)");
            return;
        }
        ObjectPath path = dir.checkedChild(name);
        writeKey(dir);
        writeKey(path);
        ObjectRef created = ObjectRef.created(path);
        mutations.add(new Mutation.Creation(i, created, type, Mutation.Creation.How.CREATE));
        history.created(path);
        current = Register.of(created);
    }

    private void open(int i, nfs_argop4 op) throws IOException {
        OPEN4args args = args(i, op, OPEN4args.class);
        Register base = args == null ? null : requireCurrent(i, op);
        if (base == null) {
            return;
        }
        open_claim4 claim = args.claim;
        int claimType = claim == null ? -1 : claim.claim;
        createhow4 how = args.openhow != null && args.openhow.opentype == opentype4.OPEN4_CREATE
                ? args.openhow.how : null;
        if (args.openhow != null && args.openhow.opentype == opentype4.OPEN4_CREATE && how == null) {
            expectFailure(i, op, "OPEN4_CREATE without createhow4 (NFS4ERR_BADXDR)");
            return;
        }
        switch (claimType) {
            case open_claim_type4.CLAIM_NULL -> openByName(i, op, base, claim.file, how);
            case open_claim_type4.CLAIM_DELEGATE_CUR -> openByName(i, op, base,
                    claim.delegate_cur_info == null ? null : claim.delegate_cur_info.file, null);
            case open_claim_type4.CLAIM_DELEGATE_PREV -> openByName(i, op, base, claim.file_delegate_prev, null);
            case open_claim_type4.CLAIM_FH -> openCurrent(i, op, base, how);
            case open_claim_type4.CLAIM_DELEG_CUR_FH, open_claim_type4.CLAIM_DELEG_PREV_FH,
                    open_claim_type4.CLAIM_PREVIOUS -> openCurrent(i, op, base, null);
            default -> unknown(i, op, "OPEN with claim type " + claimType + " is not known to the planner");
        }
    }

    /** OPEN of {@code rawName} in {@code base}, creating it as {@code how} says ({@code null}: no create). */
    private void openByName(int i, nfs_argop4 op, Register base, String rawName, createhow4 how)
            throws IOException {
        ObjectPath dir = requireDirectoryInExport(i, op, base);
        String name = dir == null ? null : checkName(i, op, rawName);
        if (name == null) {
            return;
        }
        ObjectPath path = dir.checkedChild(name);
        if (how == null) {
            readKey(dir);
            readKey(path);
            current = Register.byName(path, history.size());
            return;
        }
        Mutation.Creation.How mode = openCreateMode(how.mode);
        if (mode == null) {
            expectFailure(i, op, "unknown create mode " + how.mode + " (NFS4ERR_BADXDR)");
            return;
        }
        long truncateTo = mode == Mutation.Creation.How.OPEN_UNCHECKED ? sizeOf(how.createattrs) : NO_SIZE;
        if (truncateTo == BAD_SIZE) {
            expectFailure(i, op, "create attributes with a size that does not decode (NFS4ERR_INVAL)");
            return;
        }
        ObjectRef file = mode == Mutation.Creation.How.OPEN_GUARDED ? ObjectRef.created(path)
                : new ObjectRef(path, history.originOf(path, history.size()));
        writeKey(dir);
        writeKey(path);
        mutations.add(new Mutation.Creation(i, file, FileType.REGULAR, mode));
        if (truncateTo == 0) {
            mutations.add(new Mutation.SizeChange(i, file, 0, Mutation.SizeChange.Cause.OPEN_TRUNCATE));
            writeObject(file, null);
        }
        if (mode == Mutation.Creation.How.OPEN_GUARDED) {
            history.created(path);
        }
        current = Register.of(file);
    }

    /** OPEN of the current file (CLAIM_FH and the claims that name no file). */
    private void openCurrent(int i, nfs_argop4 op, Register file, createhow4 how) throws IOException {
        ObjectPath path = file.path();
        if (path == null) {
            expectFailure(i, op, "OPEN of a pseudo directory (NFS4ERR_ISDIR)");
            return;
        }
        long truncateTo = how != null && how.mode == createmode4.UNCHECKED4 ? sizeOf(how.createattrs) : NO_SIZE;
        if (truncateTo == BAD_SIZE) {
            expectFailure(i, op, "create attributes with a size that does not decode (NFS4ERR_INVAL)");
            return;
        }
        if (truncateTo != 0) {
            readKey(path);
            return;
        }
        ObjectRef ref = file.ref(history);
        writeKey(path);
        writeObject(ref, file.handle());
        mutations.add(new Mutation.SizeChange(i, ref, 0, Mutation.SizeChange.Cause.OPEN_TRUNCATE));
    }

    private void remove(int i, nfs_argop4 op) throws IOException {
        REMOVE4args args = args(i, op, REMOVE4args.class);
        ObjectPath dir = args == null ? null : requireDirectoryInExport(i, op, current);
        String name = dir == null ? null : checkName(i, op, args.target);
        if (name == null) {
            return;
        }
        ObjectPath path = dir.checkedChild(name);
        ObjectRef victim = new ObjectRef(path, history.originOf(path, history.size()));
        writeKey(dir);
        writeKey(path);
        writeObject(victim, null);
        mutations.add(new Mutation.Removal(i, victim));
        history.removed(path);
    }

    private void rename(int i, nfs_argop4 op) throws IOException {
        RENAME4args args = args(i, op, RENAME4args.class);
        if (args == null) {
            return;
        }
        ObjectPath fromDir = requireDirectoryInExport(i, op, requireSaved(i, op));
        ObjectPath toDir = fromDir == null ? null : requireDirectoryInExport(i, op, current);
        String oldName = toDir == null ? null : checkName(i, op, args.oldname);
        String newName = oldName == null ? null : checkName(i, op, args.newname);
        if (newName == null || !sameExport(i, op, fromDir, toDir)) {
            return;
        }
        ObjectPath from = fromDir.checkedChild(oldName);
        ObjectPath to = toDir.checkedChild(newName);
        ObjectRef source = new ObjectRef(from, history.originOf(from, history.size()));
        ObjectRef target = new ObjectRef(to, history.originOf(to, history.size()));
        writeKey(fromDir);
        writeKey(toDir);
        writeKey(from);
        writeKey(to);
        writeObject(source, null);
        writeObject(target, null);
        mutations.add(new Mutation.Rename(i, source, target));
        if (!from.equals(to)) {
            history.renamed(from, to);
            current = current.renamed(from, to);
            saved = saved.renamed(from, to);
        }
    }

    private void link(int i, nfs_argop4 op) throws IOException {
        LINK4args args = args(i, op, LINK4args.class);
        Register source = args == null ? null : requireSaved(i, op);
        ObjectPath dir = source == null ? null : requireDirectoryInExport(i, op, current);
        if (dir == null) {
            return;
        }
        if (source.path() == null) {
            expectFailure(i, op, "LINK of a pseudo directory (NFS4ERR_ISDIR)");
            return;
        }
        String name = checkName(i, op, args.newname);
        if (name == null || !sameExport(i, op, source.path(), dir)) {
            return;
        }
        ObjectPath path = dir.checkedChild(name);
        ObjectRef linked = source.ref(history);
        writeKey(source.path());
        writeKey(dir);
        writeKey(path);
        writeObject(linked, source.handle());
        mutations.add(new Mutation.HardLink(i, linked, ObjectRef.created(path)));
        history.aliased(path, linked.origin());
    }

    private void setattr(int i, nfs_argop4 op) throws IOException {
        SETATTR4args args = args(i, op, SETATTR4args.class);
        Register object = args == null ? null : requireCurrent(i, op);
        if (object == null) {
            return;
        }
        if (object.path() == null) {
            expectFailure(i, op, "SETATTR of a pseudo directory (NFS4ERR_ROFS)");
            return;
        }
        int[] attributes = attributeNumbers(args.obj_attributes);
        if (attributes.length == 0) {
            readKey(object);
            return;
        }
        long size = sizeOf(args.obj_attributes);
        if (size == BAD_SIZE) {
            expectFailure(i, op, "a size that does not decode (NFS4ERR_INVAL, NFS4ERR_BADXDR or NFS4ERR_FBIG)");
            return;
        }
        ObjectRef ref = object.ref(history);
        writeKey(object.path());
        writeObject(ref, object.handle());
        List<Integer> numbers = new ArrayList<>(attributes.length);
        for (int n : attributes) {
            numbers.add(n);
        }
        mutations.add(new Mutation.AttributeChange(i, ref, numbers));
        if (size != NO_SIZE) {
            mutations.add(new Mutation.SizeChange(i, ref, size, Mutation.SizeChange.Cause.SETATTR));
        }
    }

    private void writeData(int i, nfs_argop4 op) throws IOException {
        WRITE4args args = args(i, op, WRITE4args.class);
        Register file = args == null ? null : requireCurrent(i, op);
        if (file == null) {
            return;
        }
        long offset = args.offset;
        long length = args.data == null ? 0 : args.data.remaining();
        if (offset < 0 || offset > Long.MAX_VALUE - length) {
            expectFailure(i, op, "write ends beyond maxfilesize (NFS4ERR_FBIG)");
            return;
        }
        if (file.path() == null) {
            expectFailure(i, op, "WRITE to a pseudo directory (NFS4ERR_ISDIR)");
            return;
        }
        if (length == 0) {
            readKey(file);
            return;
        }
        ObjectRef ref = file.ref(history);
        writeKey(file.path());
        writeObject(ref, file.handle());
        mutations.add(new Mutation.Write(i, ref, offset, length));
    }

    // ---- keys ----

    private void readKey(Register register) {
        ObjectPath path = register.path();
        if (path != null) {
            readKey(path);
        }
    }

    private void readKey(ObjectPath path) {
        keys.putIfAbsent(path, LockMode.READ);
    }

    private void writeKey(ObjectPath path) {
        keys.put(path, LockMode.WRITE);
    }

    /** The object key of a changed object: by its known handle, else by what its origin identifies. */
    private void writeObject(ObjectRef object, Inode knownHandle) throws IOException {
        Inode handle = knownHandle;
        if (handle == null && object.origin().isPresent()) {
            ObjectPath origin = object.origin().get();
            Optional<Inode> found = identified.get(origin);
            if (found == null) {
                found = Objects.requireNonNull(resolver.identify(origin), "resolver answered null");
                identified.put(origin, found);
            }
            handle = found.orElse(null);
        }
        if (handle != null) {
            objectKeys.put(new ObjectId(object.path().exportId(), handle), LockMode.WRITE);
        }
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

    private boolean sameExport(int i, nfs_argop4 op, ObjectPath a, ObjectPath b) {
        if (!a.exportId().equals(b.exportId())) {
            expectFailure(i, op, "between exports " + a.exportId() + " and " + b.exportId() + " (NFS4ERR_XDEV)");
            return false;
        }
        return true;
    }

    /** The name if {@code Names.checkComponent} accepts it; else the plan stops here and this is null. */
    private String checkName(int i, nfs_argop4 op, String name) {
        try {
            return Names.checkComponent(name);
        } catch (NfsException e) {
            expectFailure(i, op, "invalid name: " + e.getMessage() + " (" + e.status() + ")");
            return null;
        }
    }

    private <T> T args(int i, nfs_argop4 op, Class<T> type) {
        if (!type.isInstance(op.args)) {
            unknown(i, op, nfs_opnum4.name(op.argop) + " without " + type.getSimpleName());
            return null;
        }
        return type.cast(op.args);
    }

    private void expectFailure(int i, nfs_argop4 op, String reason) {
        if (stop == null) {
            stop = new ExpectedFailure(i, nfs_opnum4.name(op.argop), reason);
        }
    }

    private void unknown(int i, nfs_argop4 op, String reason) {
        unplannable = new Unplannable(i, op.argop, reason);
    }

    // ---- argument decoding ----

    private static FileType createType(int nfsType) {
        return switch (nfsType) {
            case nfs_ftype4.NF4DIR -> FileType.DIRECTORY;
            case nfs_ftype4.NF4LNK -> FileType.SYMLINK;
            case nfs_ftype4.NF4BLK -> FileType.BLOCK;
            case nfs_ftype4.NF4CHR -> FileType.CHAR;
            case nfs_ftype4.NF4SOCK -> FileType.SOCKET;
            case nfs_ftype4.NF4FIFO -> FileType.FIFO;
            default -> null;
        };
    }

    private static Mutation.Creation.How openCreateMode(int mode) {
        return switch (mode) {
            case createmode4.UNCHECKED4 -> Mutation.Creation.How.OPEN_UNCHECKED;
            case createmode4.GUARDED4 -> Mutation.Creation.How.OPEN_GUARDED;
            case createmode4.EXCLUSIVE4, createmode4.EXCLUSIVE4_1 -> Mutation.Creation.How.OPEN_EXCLUSIVE;
            default -> null;
        };
    }

    private static int[] attributeNumbers(fattr4 attrs) {
        if (attrs == null || attrs.attrmask == null || attrs.attrmask.value == null) {
            return new int[0];
        }
        return Bitmaps.toNumbers(attrs.attrmask);
    }

    private static boolean hasSize(fattr4 attrs) {
        return attrs != null && attrs.attrmask != null && attrs.attrmask.value != null
                && Bitmaps.isSet(attrs.attrmask, nfs4_attr.FATTR4_SIZE);
    }

    /**
     * The size among {@code attrs}: {@link #NO_SIZE} if there is none, {@link #BAD_SIZE} if the operation
     * cannot decode it. The size (attribute 4) is the first value in {@code attr_vals}: attributes 0 to 3 are
     * read-only, and a mask naming one of them is refused (NFS4ERR_INVAL) before anything is set.
     */
    private static long sizeOf(fattr4 attrs) {
        if (!hasSize(attrs)) {
            return NO_SIZE;
        }
        bitmap4 mask = attrs.attrmask;
        if ((mask.value[0] & 0x0f) != 0 || attrs.attr_vals == null || attrs.attr_vals.length < 8) {
            return BAD_SIZE;
        }
        long size = 0;
        for (int b = 0; b < 8; b++) {
            size = (size << 8) | (attrs.attr_vals[b] & 0xff);
        }
        return size < 0 ? BAD_SIZE : size;
    }
}

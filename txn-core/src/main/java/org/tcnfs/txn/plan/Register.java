package org.tcnfs.txn.plan;

import java.util.Optional;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * The simulated current or saved file handle: where it is, its handle when the compound named it by one
 * (PUTFH), and how to find where its object was before the compound. {@code null} stands for "no file
 * handle". Operations see it through {@link Planning}; only the planner makes and moves registers.
 *
 * <p>The origin is computed on first use: from the path and the number of name-space events at the time
 * the register was bound to its object (a later rename moves {@link #where} but not the object).
 */
public final class Register {
    private final ResolvedPath where;
    private final Inode handle;
    private final ObjectPath bindPath;
    private final int bindTime;
    private Optional<ObjectPath> origin;

    private Register(ResolvedPath where, Inode handle, ObjectPath bindPath, int bindTime,
            Optional<ObjectPath> origin) {
        this.where = where;
        this.handle = handle;
        this.bindPath = bindPath;
        this.bindTime = bindTime;
        this.origin = origin;
    }

    /** A handle of a PUTFH that resolved to {@code original} before the compound and is at {@code now}. */
    static Register ofHandle(ResolvedPath now, Inode handle, ResolvedPath original) {
        Optional<ObjectPath> origin = original instanceof ObjectPath p ? Optional.of(p) : Optional.empty();
        return new Register(now, handle, null, 0, origin);
    }

    /** An object reached by name (LOOKUP, LOOKUPP, PUTROOTFH, OPEN) after {@code time} events. */
    static Register byName(ResolvedPath where, int time) {
        if (where instanceof ObjectPath p) {
            return new Register(where, null, p, time, null);
        }
        return new Register(where, null, null, 0, Optional.empty());
    }

    /** An object whose origin is known already ({@link ObjectRef}). */
    static Register of(ObjectRef ref) {
        return new Register(ref.path(), null, null, 0, ref.origin());
    }

    ResolvedPath where() {
        return where;
    }

    /** The path in an export, or {@code null} in a pseudo directory. */
    public ObjectPath path() {
        return where instanceof ObjectPath p ? p : null;
    }

    /** The handle if the compound named this object by one, else {@code null}. */
    public Inode handle() {
        return handle;
    }

    /** The object as an {@link ObjectRef}; only for registers in an export. */
    ObjectRef ref(NamespaceHistory history) {
        if (origin == null) {
            origin = history.originOf(bindPath, bindTime);
        }
        return new ObjectRef(path(), origin);
    }

    /** This register after a rename of {@code from} to {@code to}. */
    Register renamed(ObjectPath from, ObjectPath to) {
        ObjectPath p = path();
        if (p == null || !p.isWithin(from)) {
            return this;
        }
        return new Register(p.rebase(from, to), handle, bindPath, bindTime, origin);
    }
}

package org.tcnfs.txn.plan;

import java.io.IOException;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * What the planner needs to know of the name space before a compound runs: where handles point, where the
 * caller's root is, and how names lead across export boundaries. The server implements it over the LMDB
 * handle table and its export table (one instance may serve one caller, as the pseudo file system differs
 * per client); tests use a small map.
 *
 * <p>The planner calls {@link #resolve} at most once per distinct handle of a compound, {@link #root} at
 * most once, {@link #identify} at most once per distinct path, and {@link #lookup} / {@link #parent} once per
 * LOOKUP / LOOKUPP. {@link #lookup} and {@link #parent} must be cheap and free of I/O: they only decide
 * export boundaries (pseudo directories, nested exports), never whether a name exists.
 *
 * <p>Everything a resolver answers is an assumption of the plan ({@link Assumption}), checked again after
 * the locks are taken ({@link TxnPlan#assumptionsHold}).
 */
public interface PathResolver {

    /**
     * Where {@code handle} points now (before the compound runs): a path in an export, a pseudo directory,
     * or {@link ResolvedPath.Unresolvable} for a handle that is stale, malformed, of an export the caller
     * may not see, or otherwise unusable. Never throws for a bad handle.
     *
     * @param handle a non-empty handle as the client sent it
     * @throws IOException only if the lookup itself failed (storage error)
     */
    ResolvedPath resolve(Inode handle) throws IOException;

    /**
     * Where PUTROOTFH and PUTPUBFH lead for this caller: the pseudo root ({@link ResolvedPath.Pseudo#root()}),
     * or the root of the export at "/" if there is one.
     *
     * @throws IOException only if the lookup itself failed
     */
    ResolvedPath root() throws IOException;

    /**
     * Where LOOKUP of {@code name} in {@code dir} leads, without asking whether the name exists. The default
     * stays in the export: {@code dir.child(name)} for a path in an export, {@link ResolvedPath.Unresolvable}
     * in a pseudo directory. Resolvers override it to leave pseudo directories (into other pseudo directories
     * or export roots) and to enter exports nested in an export; a name a pseudo directory does not list is
     * {@link ResolvedPath.Unresolvable} (LOOKUP will fail with NFS4ERR_NOENT).
     *
     * @param dir a path in an export or a pseudo directory, never {@link ResolvedPath.Unresolvable}
     * @param name a valid component name ({@code Names.checkComponent})
     */
    default ResolvedPath lookup(ResolvedPath dir, String name) throws IOException {
        if (dir instanceof ObjectPath path) {
            return path.checkedChild(name);
        }
        return new ResolvedPath.Unresolvable("no name " + name + " in " + dir);
    }

    /**
     * Where LOOKUPP from {@code dir} leads. The default stays in the export: the parent directory, and
     * {@link ResolvedPath.Unresolvable} above an export root or a pseudo directory. Resolvers override it to
     * lead from an export root to the pseudo directory or the export directory around it, and from a
     * pseudo directory to its parent ({@link ResolvedPath.Unresolvable} above the pseudo root: LOOKUPP will
     * fail with NFS4ERR_NOENT).
     *
     * @param dir a path in an export or a pseudo directory, never {@link ResolvedPath.Unresolvable}
     */
    default ResolvedPath parent(ResolvedPath dir) throws IOException {
        if (dir instanceof ObjectPath path && !path.isRoot()) {
            return path.parent().orElseThrow();
        }
        return new ResolvedPath.Unresolvable("no parent of " + dir);
    }

    /**
     * The handle of the object at {@code path} now, if it exists and has one; the planner asks for objects
     * the compound changes but reaches by name, so that two names of one hard-linked file lock one object
     * key ({@link ObjectKey}). Must not follow symbolic links. The default knows none: then only the path
     * keys protect such objects.
     *
     * @throws IOException only if the lookup itself failed
     */
    default Optional<Inode> identify(ObjectPath path) throws IOException {
        return Optional.empty();
    }

    /**
     * {@link #identify(ObjectPath)}, knowing {@code parent}: a handle that {@link #resolve} answered with the path's
     * parent directory while the same compound was planned, or null. A resolver may look the last name up there
     * instead of walking from the root: the answers agree unless the name space changed since, and then the plan's
     * {@link Assumption.HandleResolves} of {@code parent} and {@link Assumption.PathIdentifies} are checked again.
     *
     * @throws IOException only if the lookup itself failed
     */
    default Optional<Inode> identify(ObjectPath path, Inode parent) throws IOException {
        return identify(path);
    }

    /** {@link #removalPending(ObjectPath)}, knowing {@code parent} as {@link #identify(ObjectPath, Inode)} does. */
    default boolean removalPending(ObjectPath path, Inode parent) throws IOException {
        return removalPending(path);
    }

    /**
     * Whether the name at {@code path} is one a plain REMOVE removed a moment ago whose row the handle table has
     * not dropped yet ({@link #identify} still finds it): the planner then does not take the name for an existing
     * one. The default knows none.
     *
     * @throws IOException only if the lookup itself failed
     */
    default boolean removalPending(ObjectPath path) throws IOException {
        return false;
    }

    /**
     * A count of the changes of everything this resolver answers from, or -1 when it cannot tell (the default) or a
     * change is under way. Read before planning, it lets the caller skip checking the plan's assumptions again
     * ({@link TxnPlan#assumptionsHold}) when {@link #unchangedSince} says nothing changed.
     */
    default long changeCount() {
        return -1;
    }

    /**
     * Whether nothing this resolver answers from changed since {@link #changeCount()} answered {@code count}: then
     * every answer given in between is still the answer now. False when it cannot tell (the default, and for -1).
     */
    default boolean unchangedSince(long count) {
        return false;
    }
}

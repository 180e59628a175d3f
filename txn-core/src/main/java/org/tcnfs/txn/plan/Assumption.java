package org.tcnfs.txn.plan;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * Something a plan took from its {@link PathResolver}, which must still be true once the locks are held
 * (DESIGN.md, transaction protocol step 3): otherwise another compound changed the name space between
 * planning and locking, and the caller releases the locks and plans again.
 */
public sealed interface Assumption permits Assumption.HandleResolves, Assumption.PathIdentifies {

    /**
     * Whether the resolver still answers as it did.
     *
     * @throws IOException if the resolver's lookup failed
     */
    boolean holds(PathResolver resolver) throws IOException;

    /**
     * A handle of a PUTFH resolved to {@code resolved}.
     *
     * @param handle the handle
     * @param resolved what {@link PathResolver#resolve} answered
     */
    record HandleResolves(Inode handle, ResolvedPath resolved) implements Assumption {
        public HandleResolves {
            Objects.requireNonNull(handle, "handle");
            Objects.requireNonNull(resolved, "resolved");
        }

        /**
         * {@inheritDoc} Two {@link ResolvedPath.Unresolvable} answers agree whatever their reasons.
         */
        @Override
        public boolean holds(PathResolver resolver) throws IOException {
            ResolvedPath now = resolver.resolve(handle);
            if (resolved instanceof ResolvedPath.Unresolvable) {
                return now instanceof ResolvedPath.Unresolvable;
            }
            return resolved.equals(now);
        }
    }

    /**
     * The object at {@code path} (before the compound runs) had the handle {@code handle}, or none.
     *
     * @param path the path asked about
     * @param handle what {@link PathResolver#identify} answered
     */
    record PathIdentifies(ObjectPath path, Optional<Inode> handle) implements Assumption {
        public PathIdentifies {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(handle, "handle");
        }

        @Override
        public boolean holds(PathResolver resolver) throws IOException {
            return handle.equals(resolver.identify(path));
        }
    }
}

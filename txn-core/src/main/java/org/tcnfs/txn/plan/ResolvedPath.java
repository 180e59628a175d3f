package org.tcnfs.txn.plan;

import java.util.List;
import java.util.Objects;

/**
 * Where a file handle, or a step of the name space, leads: a place in an export ({@link ObjectPath}), a
 * synthetic directory of the pseudo file system that joins the exports ({@link Pseudo}), or nowhere the
 * planner can follow ({@link Unresolvable}).
 */
public sealed interface ResolvedPath permits ObjectPath, ResolvedPath.Pseudo, ResolvedPath.Unresolvable {

    /**
     * A directory of the pseudo file system: read-only, synthetic, never changed by a compound, so it needs
     * no lock key.
     *
     * @param components the names from the pseudo root ("/") to this directory; empty for the pseudo root
     */
    record Pseudo(List<String> components) implements ResolvedPath {
        public Pseudo {
            components = List.copyOf(components);
        }

        /** The pseudo root. */
        public static Pseudo root() {
            return new Pseudo(List.of());
        }

        @Override
        public String toString() {
            return "pseudo:/" + String.join("/", components);
        }
    }

    /**
     * A handle or step that leads nowhere: a stale or malformed handle, a handle of an export the caller may
     * not see, a name missing from a pseudo directory, the parent of the pseudo root. The operation that
     * gets there fails with its normal error when it runs; the plan stops following the compound there.
     *
     * @param reason for the log and the plan, not for the client
     */
    record Unresolvable(String reason) implements ResolvedPath {
        public Unresolvable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}

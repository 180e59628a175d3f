package org.tcnfs.server;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a reload of the exports file did ({@link TcnfsServer#reloadExports()}): the exports (by path) it added,
 * removed and changed, or why it changed nothing.
 *
 * @param added exports served from now on that were not before
 * @param removed exports no longer served (their handles are NFS4ERR_STALE from now on)
 * @param changed exports whose client rules or options changed (new compounds use the new ones)
 * @param rejected why the new file was not taken (the exports served before stay as they were); empty when
 *     it was taken
 */
public record ExportsReload(List<String> added, List<String> removed, List<String> changed,
        Optional<String> rejected) {

    public ExportsReload {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        changed = List.copyOf(changed);
        Objects.requireNonNull(rejected, "rejected");
    }

    /** A reload that changed nothing because of {@code why}. */
    static ExportsReload rejected(String why) {
        return new ExportsReload(List.of(), List.of(), List.of(), Optional.of(why));
    }

    /** Whether the new exports are served (possibly identical to the old ones). */
    public boolean applied() {
        return rejected.isEmpty();
    }
}

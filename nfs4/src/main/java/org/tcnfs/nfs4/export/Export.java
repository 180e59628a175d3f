package org.tcnfs.nfs4.export;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;

/**
 * One exported file system: where clients find it in the pseudo file system, what it is, and who may use
 * it how.
 *
 * <p>The file system must {@linkplain VirtualFileSystem#recognizes recognize} only handles of objects in
 * its own tree: {@link PseudoFs} routes each handle to the export whose file system recognizes it (the one
 * with the longest path first, so nested exports sharing one handle store route correctly).
 *
 * @param path the pseudo path, absolute and normalized ({@code "/"}, {@code "/srv/data"}: no empty, "." or
 *     ".." components, no trailing slash)
 * @param fs the file system whose root appears at {@code path}
 * @param rules the client rules in order; the first that matches a client decides, and a client no rule
 *     matches does not see the export
 */
public record Export(String path, VirtualFileSystem fs, List<ExportRule> rules) {
    public Export {
        checkPath(path);
        Objects.requireNonNull(fs, "fs");
        rules = List.copyOf(rules);
        if (rules.isEmpty()) {
            throw new IllegalArgumentException("export " + path + " has no client rules");
        }
    }

    /** The options of the first rule that matches {@code client}, or empty if the export is hidden from it. */
    public Optional<ExportOptions> optionsFor(InetAddress client) {
        for (ExportRule rule : rules) {
            if (rule.clients().matches(client)) {
                return Optional.of(rule.options());
            }
        }
        return Optional.empty();
    }

    /**
     * Checks that {@code path} is an absolute normalized path.
     *
     * @throws IllegalArgumentException naming the problem
     */
    static void checkPath(String path) {
        Objects.requireNonNull(path, "path");
        if (path.equals("/")) {
            return;
        }
        if (!path.startsWith("/") || path.endsWith("/")) {
            throw new IllegalArgumentException("export path must be absolute without a trailing '/': " + path);
        }
        for (String component : path.substring(1).split("/", -1)) {
            if (component.isEmpty() || component.equals(".") || component.equals("..")
                    || component.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("export path has an empty, '.' or '..' component: " + path);
            }
        }
    }

    @Override
    public String toString() {
        return "Export[" + path + " " + rules + "]";
    }
}

package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/** Something the workloads run against: an NFSv4.1 server (with or without transactions) or a local directory. */
interface Target {
    /** The short name in tables and plots ("tcnfs-txn", "ganesha", "disk"). */
    String name();

    /** Opens one client's session (for NFS targets a new connection and NFSv4.1 session). */
    FsSession open() throws IOException;

    /** The same target without transactions, for untimed setup and cleanup ({@code this} unless it has them). */
    default Target plain() {
        return this;
    }

    /**
     * The same target, but each call of its sessions goes in one COMPOUND when the session's limits allow it, in
     * plain mode too (plain calls otherwise split at the client's default request size); {@code this} for
     * targets without compounds.
     */
    default Target oneCompoundPerCall() {
        return this;
    }

    /**
     * Parses {@code name=nfs://host:port/export}, {@code name=nfs://host:port/export?txn} (transactional
     * compounds) or {@code name=disk:/directory}.
     *
     * @throws IllegalArgumentException when the text is none of these
     */
    static TargetSpec parse(String text) {
        int eq = text.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("target '" + text + "': expected name=nfs://host:port/export[?txn] "
                    + "or name=disk:/dir");
        }
        String name = text.substring(0, eq);
        String where = text.substring(eq + 1);
        if (where.startsWith("disk:")) {
            String dir = where.substring("disk:".length());
            if (dir.isEmpty()) {
                throw new IllegalArgumentException("target '" + text + "': disk: needs a directory");
            }
            return new TargetSpec(name, TargetSpec.Kind.DISK, null, 0, dir, false);
        }
        if (!where.startsWith("nfs://")) {
            throw new IllegalArgumentException("target '" + text + "': unknown scheme (nfs:// or disk:)");
        }
        URI uri = URI.create(where);
        if (uri.getHost() == null || uri.getPort() < 1) {
            throw new IllegalArgumentException("target '" + text + "': nfs://host:port/export needs host and port");
        }
        String export = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
        String query = uri.getQuery() == null ? "" : uri.getQuery();
        if (!query.isEmpty() && !query.equals("txn")) {
            throw new IllegalArgumentException("target '" + text + "': unknown option '" + query + "' (only ?txn)");
        }
        return new TargetSpec(name, TargetSpec.Kind.NFS, uri.getHost(), uri.getPort(), export, query.equals("txn"));
    }

    /**
     * A parsed target.
     *
     * @param name the short name
     * @param kind NFS or DISK
     * @param host the server (NFS only)
     * @param port the server's port (NFS only)
     * @param path the export (NFS) or the directory (DISK)
     * @param transactions whether compounds carry the transaction flag (NFS only)
     */
    record TargetSpec(String name, Kind kind, String host, int port, String path, boolean transactions) {
        public TargetSpec {
            if (name == null || name.isBlank() || name.contains(",")) {
                throw new IllegalArgumentException("target name '" + name + "'");
            }
        }

        /** The target this describes. */
        Target create(Identity identity) {
            return kind == Kind.DISK ? new DiskTarget(name, Path.of(path))
                    : new NfsTarget(name, host, port, path,
                    transactions ? org.tcnfs.client.vector.Mode.TRANSACTION : org.tcnfs.client.vector.Mode.PLAIN,
                    identity);
        }

        /** Kinds of target. */
        enum Kind {
            NFS, DISK
        }
    }

    /** The AUTH_SYS identity NFS targets use. */
    record Identity(int uid, int gid) {
    }
}

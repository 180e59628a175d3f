package org.tcnfs.server.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What {@code GET /status} reports: a snapshot of a running server.
 *
 * @param version the build's version
 * @param started when the server started serving
 * @param uptime time since then
 * @param bind the address the NFS service listens on
 * @param nfsPort its TCP port
 * @param exports the exports, in order
 * @param clients confirmed NFSv4 clients
 * @param sessions open sessions
 * @param inGrace whether the grace period runs (only reclaims may take state)
 * @param handleTableBytes size of the LMDB file of the handle table, if it could be read
 * @param pendingRecoveryRecords recovery records in LMDB: transactions running now, or left by a failed undo
 */
public record ServerStatus(
        String version,
        Instant started,
        Duration uptime,
        String bind,
        int nfsPort,
        List<ExportStatus> exports,
        int clients,
        int sessions,
        boolean inGrace,
        OptionalLong handleTableBytes,
        int pendingRecoveryRecords) {

    public ServerStatus {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(uptime, "uptime");
        Objects.requireNonNull(bind, "bind");
        exports = List.copyOf(exports);
        Objects.requireNonNull(handleTableBytes, "handleTableBytes");
    }

    /**
     * One export.
     *
     * @param path its path in the NFS name space
     * @param directory the local directory behind it
     * @param rules its client rules as in the exports file, for example {@code *(rw,root_squash)}
     */
    public record ExportStatus(String path, String directory, List<String> rules) {
        public ExportStatus {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(directory, "directory");
            rules = List.copyOf(rules);
        }
    }

    /** The snapshot as one JSON object (the body of {@code /status}). */
    public String toJson() {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"version\":").append(quote(version))
                .append(",\"started\":").append(quote(started.toString()))
                .append(",\"uptime_seconds\":").append(uptime.toSeconds())
                .append(",\"bind\":").append(quote(bind))
                .append(",\"nfs_port\":").append(nfsPort)
                .append(",\"exports\":[");
        for (int i = 0; i < exports.size(); i++) {
            ExportStatus e = exports.get(i);
            b.append(i == 0 ? "" : ",").append("{\"path\":").append(quote(e.path()))
                    .append(",\"directory\":").append(quote(e.directory())).append(",\"rules\":[");
            for (int j = 0; j < e.rules().size(); j++) {
                b.append(j == 0 ? "" : ",").append(quote(e.rules().get(j)));
            }
            b.append("]}");
        }
        b.append("],\"clients\":").append(clients)
                .append(",\"sessions\":").append(sessions)
                .append(",\"in_grace\":").append(inGrace)
                .append(",\"pending_recovery_records\":").append(pendingRecoveryRecords);
        if (handleTableBytes.isPresent()) {
            b.append(",\"handle_table_bytes\":").append(handleTableBytes.getAsLong());
        }
        return b.append("}").toString();
    }

    /** A JSON string literal (RFC 8259 section 7). */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}

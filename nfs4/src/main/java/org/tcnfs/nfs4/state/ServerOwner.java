package org.tcnfs.nfs4.state;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * How the server names itself in EXCHANGE_ID (RFC 8881 2.5 and 18.35): {@code so_major_id} and
 * {@code eir_server_scope}. Both stay the same across restarts of one install, so that clients reclaim
 * after a restart and see one server; two installs differ.
 *
 * @param majorId the server owner's major id (at most 1,024 bytes as UTF-8)
 * @param scope the server scope (at most 1,024 bytes as UTF-8)
 */
public record ServerOwner(String majorId, String scope) {
    public ServerOwner {
        Objects.requireNonNull(majorId, "majorId");
        Objects.requireNonNull(scope, "scope");
        if (majorId.isEmpty() || majorId.getBytes(StandardCharsets.UTF_8).length > 1024
                || scope.getBytes(StandardCharsets.UTF_8).length > 1024) {
            throw new IllegalArgumentException("server owner and scope must have 1 to 1024 bytes");
        }
    }
}

package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;

/**
 * The server's log names a client by its owner as people read it (issue 17): the text a client sends in
 * EXCHANGE_ID ({@code "Linux NFSv4.1 host"}), quoted, with other bytes escaped, not as hex.
 */
class ClientOwnerLogIT extends SharedServerTest {
    @Test
    void aRestartedClientIsLoggedWithItsOwnerAsText() throws Exception {
        byte[] owner = "Linux NFSv4.1 it-host\u0001".getBytes(StandardCharsets.UTF_8);
        try (NfsConnection first = server.connect()) {
            Nfs41Session.create(first, owner, new byte[] {1, 1, 1, 1, 1, 1, 1, 1});
        }
        // the same owner with a new verifier: the client restarted, and the server replaces its record
        try (NfsConnection second = server.connect()) {
            Nfs41Session.create(second, owner, new byte[] {2, 2, 2, 2, 2, 2, 2, 2}).close();
        }

        String log = server.outputOfLastStart();
        assertThat(log).contains("replaced by").contains("\"Linux NFSv4.1 it-host\\x01\"")
                .doesNotContain(HexFormat.of().formatHex(owner));
    }
}

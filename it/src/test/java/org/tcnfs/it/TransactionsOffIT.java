package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.RawReply;
import org.tcnfs.client.rpc.RpcAcceptStatus;

/**
 * A server that does not run transactions (so far: one with an exports file) answers the transaction flag
 * with PROC_UNAVAIL, so a client can never mistake it for a transactional one (DESIGN.md, "How a client
 * asks for a transaction").
 */
class TransactionsOffIT {

    @Test
    void transactionFlagIsProcUnavailWhereTransactionsAreOff() throws IOException {
        Path work = Paths.get(System.getProperty("tcnfs.it.work", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(work);
        Path exported = Files.createTempDirectory(work, "exported-");
        Path exports = exported.resolveSibling(exported.getFileName() + ".exports");
        Files.writeString(exports, exported + " 127.0.0.1(rw,no_root_squash)\n", StandardCharsets.UTF_8);
        try (ServerProcess server = ServerProcess.start("--exports", exports.toString());
                NfsConnection connection = server.connect()) {
            RawReply flagged = connection.callRaw(NfsConnection.PROC_COMPOUND_TXN, new byte[0]);
            RawReply plain = connection.callRaw(NfsConnection.PROC_COMPOUND, new byte[0]);

            assertThat(flagged.acceptStatus()).isEqualTo(RpcAcceptStatus.PROC_UNAVAIL);
            assertThat(plain.acceptStatus()).isNotEqualTo(RpcAcceptStatus.PROC_UNAVAIL);
        }
    }
}

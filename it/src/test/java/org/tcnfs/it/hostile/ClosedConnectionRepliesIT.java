package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * Clients that close their connection before the reply to their request: oncrpc4j logs an ERROR for each reply
 * it cannot send, so 500 such connections made 500 ERROR lines. Now the server drops a reply whose connection
 * closed while the compound ran, and the server's logback configuration turns oncrpc4j's line into one WARN
 * per 10 s with a count: no ERROR line, a handful of lines at most, and the server serves on.
 */
class ClosedConnectionRepliesIT extends AttackedServerTest {
    @Test
    void fiveHundredConnectionsClosedBeforeTheirReplyLeaveNoErrorLineAndAtMostAFewWarnings() throws IOException {
        CompoundBuilder slow = new CompoundBuilder().minorVersion(0).putrootfh();
        for (int i = 0; i < 100; i++) {
            slow.getattr(nfs4_attr.FATTR4_SIZE, nfs4_attr.FATTR4_MODE, nfs4_attr.FATTR4_OWNER);
        }
        byte[] request = Hostile.record(Hostile.compoundCall(77, XdrBytes.encode(slow.build())));
        int linesBefore = (int) server.output().lines().count();
        Hostile.Memory before = Hostile.memory(server);
        for (int round = 0; round < 10; round++) {
            List<Socket> sockets = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                Socket s = Hostile.connect(server);
                s.getOutputStream().write(request);
                sockets.add(s);
            }
            sockets.forEach(Hostile::closeQuietly); // before any reply is read
        }
        Hostile.sleep(3000); // the compounds finish and their replies find the connections closed
        long after = probeAfterTheQueueDrained();
        Hostile.report("500 connections closed before their reply", before, Hostile.memory(server), after, after);
        List<String> lines = server.output().lines().skip(linesBefore).toList();
        lines.forEach(l -> System.out.println("SERVER " + l));
        assertThat(lines).as("ERROR lines").noneMatch(l -> l.contains(" ERROR "));
        assertThat(lines).as("oncrpc4j's line").noneMatch(l -> l.contains("Failed to send RPC"));
        assertThat(lines.size()).as("lines logged during the attack").isLessThan(10);
        assertThat(server.isAlive()).isTrue();
    }

    /**
     * A probe once the server has worked through the attack's compounds (50,000 GETATTRs, which take a while on
     * a loaded machine): up to 6 tries of the normal client's 10 s timeout.
     */
    private long probeAfterTheQueueDrained() throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return normal.probeMillis();
            } catch (java.net.SocketTimeoutException e) {
                if (attempt == 6) {
                    throw e;
                }
                System.out.println("HOSTILE probe " + attempt + " timed out; the server is still busy");
            }
        }
    }
}

package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.handles.HandleTable;

/**
 * A crash of a server whose plain {@code sync} compounds made their handle rows durable in the row journal only
 * (docs/durability.md, "The row journal"): the server halts at the first LMDB commit that would carry those rows
 * (the background flush, about a second after the first create), so every create answered before it has its row in
 * the journal and nowhere else. After the restart the journal is replayed: every handle a client got names the very
 * file it named, and a LOOKUP of the name answers the same handle.
 */
@Tag("crash")
class JournaledRowsCrashIT {
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aHandleOfACreateWhoseRowOnlyTheJournalHeldStillResolvesToItsFileAfterACrash() throws Exception {
        List<String> crashAt = List.of("-D" + CrashPoints.PROPERTY + "=" + HandleTable.JOURNALED_ROWS_COMMIT_POINT);
        try (ServerProcess server = ServerProcess.start(crashAt, ServerProcess.TRUSTED_ROOT_ARGS.toArray(
                new String[0]))) {
            Map<String, byte[]> handles = new LinkedHashMap<>(); // name -> handle the client got
            Map<String, Long> ids = new LinkedHashMap<>(); // name -> file id the client saw
            try (NfsConnection connection = server.connect();
                    Nfs41Session session = Nfs41Session.create(connection, "journaled-rows-crash")) {
                NfsOps nfs = new NfsOps(session);
                byte[] root = nfs.rootFh();
                for (int i = 0; i < 50; i++) {
                    String name = "f" + i;
                    byte[] fh = nfs.createFile(root, name, name.getBytes(StandardCharsets.UTF_8));
                    long id = nfs.getattr(fh, nfs4_attr.FATTR4_FILEID).fileid();
                    handles.put(name, fh);
                    ids.put(name, id);
                    if (i == 0) {
                        assertThat(server.metric("tcnfs_row_journal_records_total"))
                                .as("the create's rows went to the row journal").isPositive();
                    }
                }
            } catch (IOException | IllegalStateException e) {
                // the server halted while the client was still creating: what it answered before counts
            }
            assertThat(handles).as("creates answered before the halt").isNotEmpty();
            assertThat(server.awaitExit(EXIT_TIMEOUT)).as("halted before the rows' LMDB commit")
                    .isEqualTo(CrashPoints.EXIT_STATUS);
            server.setJvmArgs();
            server.relaunch();
            assertThat(server.outputOfLastStart()).as("the journal was replayed").contains("replayed");

            try (NfsConnection connection = server.connect();
                    Nfs41Session session = Nfs41Session.create(connection, "journaled-rows-crash-check")) {
                NfsOps nfs = new NfsOps(session);
                byte[] root = nfs.rootFh();
                for (Map.Entry<String, byte[]> e : handles.entrySet()) {
                    String name = e.getKey();
                    assertThat(nfs.getattr(e.getValue(), nfs4_attr.FATTR4_FILEID).fileid())
                            .as("the file handle %s of %s names", HexFormat.of().formatHex(e.getValue()), name)
                            .isEqualTo(ids.get(name));
                    assertThat(nfs.lookup(root, name)).as("a lookup of %s", name).isEqualTo(e.getValue());
                }
                System.out.printf("JournaledRowsCrashIT: %d creates answered before the halt, all resolve%n",
                        handles.size());
            }
        }
    }
}

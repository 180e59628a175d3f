package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;

/**
 * What a finished transaction must not leave behind: backup directories under the export's
 * {@code .tcnfs/txn} (deleted by the background cleaner, so waited for) and recovery records in the LMDB
 * side table {@code txn-records} (readable only while the server is stopped).
 */
final class TxnLeftovers {
    /** The LMDB side table that holds recovery records. */
    static final String RECORDS_TABLE = "txn-records";

    private TxnLeftovers() {
    }

    /** The transactions' backup area of a server's export. */
    static Path backupArea(ServerProcess server) {
        return server.exportDir().resolve(ExportSnapshot.HIDDEN).resolve("txn");
    }

    /**
     * The backup directories still there after waiting up to {@code waitMillis} for the cleaner; empty when
     * none is left.
     */
    static List<String> backupsLeft(ServerProcess server, long waitMillis) throws IOException {
        Path area = backupArea(server);
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        while (true) {
            List<String> left = list(area);
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            sleep(50);
        }
    }

    /**
     * The keys (hex) of the recovery records in the state directory's LMDB. The server must be stopped
     * (LMDB is opened here); restart it afterwards.
     */
    static List<String> recordsLeft(ServerProcess server) throws IOException {
        if (server.isAlive()) {
            throw new IllegalStateException("stop the server before reading its LMDB");
        }
        List<String> records = new ArrayList<>();
        HandleTable table = HandleTable.open(server.stateDir().resolve("handles"));
        try {
            var side = table.sideTable(RECORDS_TABLE);
            try (HandleSnapshot snapshot = table.read()) {
                snapshot.forEach(side, (k, v) -> records.add(HexFormat.of().formatHex(k)));
            }
        } finally {
            table.close();
        }
        return records;
    }

    private static List<String> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

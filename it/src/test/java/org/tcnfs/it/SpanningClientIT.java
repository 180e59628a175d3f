package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.CliRunner.tcnfs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.it.CliRunner.Run;
import org.tcnfs.client.vector.Outcome;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRemove;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;

/**
 * The client switches on its own from one transactional compound to a transaction that spans compounds when the
 * work does not fit one compound (issue 15 item 3): {@code vtxn}, {@code tcnfs untar --atomic}. The server allows
 * only 64 operations per compound here, so a few hundred items need many compounds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpanningClientIT {
    private ServerProcess server;
    private Path tmp;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.startIn(ServerProcess.defaultWorkDirectory(), List.of(), "--max-ops", "64");
        tmp = Files.createTempDirectory(ServerProcess.defaultWorkDirectory(), "spanning-client-");
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        ServerProcess.deleteTree(tmp);
    }

    private VnfsClient connect() throws IOException {
        return VnfsClient.builder().host("127.0.0.1").port(server.port()).export("/").connect();
    }

    private static List<TxnItem> tree(String root, int files) {
        List<TxnItem> items = new ArrayList<>();
        items.add(new VMkdir(root));
        for (int d = 0; d < 10; d++) {
            items.add(new VMkdir(root + "/d" + d));
        }
        for (int i = 0; i < files; i++) {
            items.add(VWrite.create(root + "/d" + (i % 10) + "/f" + i, ("file " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return items;
    }

    @Test
    void vtxnOfMoreThanOneCompoundCommitsAsOneTransaction() throws IOException {
        try (VnfsClient nfs = connect()) {
            VResult<Void> r = nfs.vtxn(tree("big", 300));

            assertThat(r.isOk()).isTrue();
            assertThat(r.committed()).isTrue();
            assertThat(r.mode()).isEqualTo(Mode.TRANSACTION);
            assertThat(r.compounds()).as("compounds sent").isGreaterThan(10);
        }
        Path big = server.exportDir().resolve("big");
        assertThat(big.resolve("d7/f297")).hasContent("file 297");
        try (var s = Files.walk(big)) {
            assertThat(s.filter(Files::isRegularFile).count()).isEqualTo(300);
        }
    }

    @Test
    void vtxnWhoseLastItemFailsLeavesNothingOfTheEarlierCompounds() throws IOException {
        List<TxnItem> items = tree("failing", 300);
        items.add(new VRemove("failing/no-such-file"));
        try (VnfsClient nfs = connect()) {
            VResult<Void> r = nfs.vtxn(items);

            assertThat(r.committed()).isFalse();
            assertThat(r.firstFailure()).isEqualTo(items.size() - 1);
            assertThat(r.item(0).outcome()).isEqualTo(Outcome.UNDONE);
            assertThat(r.item(items.size() - 2).outcome()).isEqualTo(Outcome.UNDONE);
        }
        assertThat(server.exportDir().resolve("failing")).doesNotExist();
    }

    @Test
    void untarAtomicOfAnArchiveLargerThanOneCompoundCommitsAndOneWithABadLastEntryLeavesNothing() throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < 400; i++) {
            files.put("src/pkg" + (i % 9) + "/file" + i + ".c", ("int f" + i + ";\n").getBytes(StandardCharsets.UTF_8));
        }
        Path good = tar("good.tar", files, false);
        Path bad = tar("bad.tar", files, true);
        String url = "nfs://127.0.0.1:" + server.port() + "/";

        Run ok = tcnfs("untar", "--atomic", good.toString(), url + "untar-good");
        assertThat(ok.status()).as(ok.err()).isZero();
        Path extracted = server.exportDir().resolve("untar-good");
        assertThat(extracted.resolve("src/pkg3/file399.c")).hasContent("int f399;");
        try (var s = Files.walk(extracted)) {
            assertThat(s.filter(Files::isRegularFile).count()).isEqualTo(400);
        }

        // the bad archive ends with a file below a name that is a file in the archive itself: that entry fails
        Run failed = tcnfs("untar", "--atomic", bad.toString(), url + "untar-bad");
        assertThat(failed.status()).as(failed.err()).isNotZero();
        assertThat(failed.err()).contains("transaction rolled back, nothing changed");
        assertThat(server.exportDir().resolve("untar-bad")).doesNotExist();
    }

    private Path tar(String name, Map<String, byte[]> files, boolean badLastEntry) throws IOException {
        Path archive = tmp.resolve(name);
        try (OutputStream out = Files.newOutputStream(archive);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                TarArchiveEntry e = new TarArchiveEntry(f.getKey());
                e.setSize(f.getValue().length);
                e.setMode(0644);
                tar.putArchiveEntry(e);
                tar.write(f.getValue());
                tar.closeArchiveEntry();
            }
            if (badLastEntry) {
                String under = files.keySet().iterator().next() + "/below";
                TarArchiveEntry e = new TarArchiveEntry(under);
                e.setSize(1);
                e.setMode(0644);
                tar.putArchiveEntry(e);
                tar.write('x');
                tar.closeArchiveEntry();
            }
        }
        return archive;
    }
}

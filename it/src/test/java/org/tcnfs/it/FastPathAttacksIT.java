package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_CHANGE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEID;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * The fast paths of the speed work (per-compound attribute cache, quiet reads without locks, a REMOVE's handle
 * row removed a moment after its name, O_TMPFILE creates) attacked through the wire: a GETATTR after a change in
 * the same compound shows the change; a handle of a removed file is NFS4ERR_STALE (never the data of the file
 * that got its inode number); readers racing a RENAME never see a half-renamed state or another object.
 */
class FastPathAttacksIT extends SharedServerTest {
    private ItSession s;
    private NfsOps nfs;
    private byte[] dir;
    private String dirName;
    private static int runs;

    @BeforeEach
    void open() throws IOException {
        s = ItSession.open(server, "fastpath");
        nfs = s.nfs();
        dirName = "fp" + (runs++);
        dir = nfs.mkdir(nfs.rootFh(), dirName);
    }

    @AfterEach
    void close() throws IOException {
        s.close();
    }

    private static byte[] text(String t) {
        return t.getBytes(StandardCharsets.UTF_8);
    }

    private static Attrs attrsAt(CompoundResult r, int index) throws IOException {
        return Attrs.decode(r.bodies(OP_GETATTR, GETATTR4resok.class).get(index).obj_attributes);
    }

    private static byte[] data(READ4resok read) {
        ByteBuffer b = read.data.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void getattrAfterSetattrInTheSameCompoundShowsTheNewValues() throws IOException {
        byte[] f = nfs.createFile(dir, "f", text("0123456789"));
        CompoundResult r = nfs.runOk(new CompoundBuilder().putfh(f)
                .getattr(FATTR4_SIZE, FATTR4_MODE, FATTR4_CHANGE)
                .setattr(CompoundBuilder.anonymousStateid(), Attrs.builder().size(4).mode(0600).build())
                .getattr(FATTR4_SIZE, FATTR4_MODE, FATTR4_CHANGE)
                .setattr(CompoundBuilder.anonymousStateid(), Attrs.builder().mode(0640).build())
                .getattr(FATTR4_SIZE, FATTR4_MODE, FATTR4_CHANGE));
        Attrs before = attrsAt(r, 0);
        Attrs between = attrsAt(r, 1);
        Attrs after = attrsAt(r, 2);
        assertThat(before.size()).isEqualTo(10);
        assertThat(between.size()).isEqualTo(4);
        assertThat(between.mode() & 07777).isEqualTo(0600);
        assertThat(between.change()).isNotEqualTo(before.change());
        assertThat(after.mode() & 07777).isEqualTo(0640);
        assertThat(after.change()).isNotEqualTo(between.change());
        assertThat(nfs.getattr(f, FATTR4_SIZE, FATTR4_MODE).mode() & 07777).isEqualTo(0640);
    }

    @Test
    void getattrAfterWriteInTheSameCompoundShowsTheNewSizeAndChange() throws IOException {
        CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir)
                .openCreate(s.session().clientId(), nfs.openOwner(), "w", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                        Attrs.builder().size(0).mode(0644).build())
                .getattr(FATTR4_SIZE, FATTR4_CHANGE)
                .write(CompoundBuilder.currentStateid(), 0, text("abc"))
                .getattr(FATTR4_SIZE, FATTR4_CHANGE)
                .write(CompoundBuilder.currentStateid(), 100, text("z"))
                .getattr(FATTR4_SIZE, FATTR4_CHANGE)
                .read(CompoundBuilder.currentStateid(), 0, 200)
                .close(CompoundBuilder.currentStateid()));
        Attrs a0 = attrsAt(opened, 0);
        Attrs a1 = attrsAt(opened, 1);
        Attrs a2 = attrsAt(opened, 2);
        assertThat(a0.size()).isZero();
        assertThat(a1.size()).isEqualTo(3);
        assertThat(a2.size()).isEqualTo(101);
        assertThat(a1.change()).isNotEqualTo(a0.change());
        assertThat(a2.change()).isNotEqualTo(a1.change());
        assertThat(data(opened.body(OP_READ, READ4resok.class))).hasSize(101);
    }

    @Test
    void removeThenReadThroughTheOldHandleInOneCompoundIsStale() throws IOException {
        for (int i = 0; i < 20; i++) {
            byte[] f = nfs.createFile(dir, "r" + i, text("victim " + i));
            CompoundResult r = nfs.run(new CompoundBuilder().putfh(dir).remove("r" + i)
                    .putfh(f).read(CompoundBuilder.anonymousStateid(), 0, 100));
            assertThat(r.status()).as("round %d: %s", i, r).isEqualTo(NfsStatus.STALE);
            CompoundResult later = nfs.run(new CompoundBuilder().putfh(f).getattr(FATTR4_SIZE));
            assertThat(later.status()).as("round %d: %s", i, later).isEqualTo(NfsStatus.STALE);
        }
    }

    /**
     * A handle kept across REMOVE and new creates that reuse the inode number: NFS4ERR_STALE, never the new
     * file's attributes or data (the file systems free an inode number at unlink and hand it out again soon).
     */
    @Test
    void handleOfARemovedFileIsStaleWhenNewFilesReuseItsInodeNumber() throws IOException {
        int reused = 0;
        for (int round = 0; round < 10; round++) {
            byte[] old = nfs.createFile(dir, "old" + round, text("old data " + round));
            long oldIno = (Long) Files.getAttribute(server.exportDir().resolve(dirName).resolve("old" + round),
                    "unix:ino");
            nfs.runOk(new CompoundBuilder().putfh(dir).remove("old" + round));
            Map<Long, String> byIno = new HashMap<>();
            for (int i = 0; i < 8; i++) {
                String name = "new" + round + "-" + i;
                nfs.createFile(dir, name, text("NEW DATA " + name));
                byIno.put((Long) Files.getAttribute(server.exportDir().resolve(dirName).resolve(name), "unix:ino"),
                        name);
            }
            if (byIno.containsKey(oldIno)) {
                reused++;
            }
            CompoundResult read = nfs.run(new CompoundBuilder().putfh(old)
                    .read(CompoundBuilder.anonymousStateid(), 0, 100));
            assertThat(read.status()).as("READ through the removed file's handle, round %d: %s", round, read)
                    .isEqualTo(NfsStatus.STALE);
            CompoundResult attrs = nfs.run(new CompoundBuilder().putfh(old).getattr(FATTR4_FILEID, FATTR4_SIZE));
            assertThat(attrs.status()).as("GETATTR, round %d: %s", round, attrs).isEqualTo(NfsStatus.STALE);
        }
        System.out.println("inode numbers reused by a new file in " + reused + " of 10 rounds");
    }

    /**
     * Readers (LOOKUP + READ, READDIR) race a writer that renames a file back and forth and replaces a second
     * one: every LOOKUP that succeeds leads to the data of the file under that name, and every READDIR shows
     * exactly one of the two names.
     */
    @Test
    void readersRacingRenamesSeeEitherNameWithItsOwnDataNeverBothOrNeither() throws Exception {
        nfs.createFile(dir, "a", text("content of the moving file"));
        nfs.createFile(dir, "other", text("content of the other file"));
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        Thread renamer = new Thread(() -> {
            try (ItSession w = ItSession.open(server, "renamer")) {
                boolean atA = true;
                while (!stop.get()) {
                    CompoundResult r = w.nfs().run(new CompoundBuilder().putfh(dir).savefh().putfh(dir)
                            .rename(atA ? "a" : "b", atA ? "b" : "a"));
                    if (r.isOk()) {
                        atA = !atA;
                    } else if (r.status() != NfsStatus.DELAY) {
                        problems.add("RENAME: " + r.status());
                    }
                }
            } catch (IOException | RuntimeException e) {
                problems.add("renamer: " + e);
            }
        });
        renamer.start();
        try (ItSession r = ItSession.open(server, "reader")) {
            long end = System.nanoTime() + 3_000_000_000L;
            int rounds = 0;
            while (System.nanoTime() < end && problems.isEmpty()) {
                rounds++;
                for (String name : List.of("a", "b")) {
                    CompoundResult looked = r.nfs().run(new CompoundBuilder().putfh(dir).lookup(name)
                            .read(CompoundBuilder.anonymousStateid(), 0, 100));
                    if (looked.isOk()) {
                        String got = new String(data(looked.body(OP_READ, READ4resok.class)), StandardCharsets.UTF_8);
                        if (!got.equals("content of the moving file")) {
                            problems.add("LOOKUP " + name + " then READ gave '" + got + "'");
                        }
                    } else if (looked.status() != NfsStatus.NOENT && looked.status() != NfsStatus.DELAY) {
                        problems.add("LOOKUP " + name + ": " + looked.status());
                    }
                }
                CompoundResult listed = r.nfs().run(new CompoundBuilder().putfh(dir).readdir(8192, FATTR4_FILEID));
                if (listed.isOk()) {
                    List<String> names = new ArrayList<>(r.nfs().readdirNames(dir));
                    long moving = names.stream().filter(n -> n.equals("a") || n.equals("b")).count();
                    if (moving != 1 || !names.contains("other")) {
                        problems.add("READDIR: " + names);
                    }
                } else if (listed.status() != NfsStatus.DELAY) {
                    problems.add("READDIR: " + listed.status());
                }
            }
            System.out.println("rename race: " + rounds + " reader rounds");
        } finally {
            stop.set(true);
            renamer.join();
        }
        assertThat(problems).isEmpty();
    }

    /** The open file's handle stays readable after REMOVE until CLOSE (its data, never another file's). */
    @Test
    void removedOpenFileReadsItsOwnDataWhileNewFilesAreCreated() throws IOException {
        CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir)
                .openCreate(s.session().clientId(), nfs.openOwner(), "open", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                        Attrs.builder().size(0).mode(0644).build())
                .getfh());
        byte[] fh = opened.fileHandle();
        stateid4 st = opened.body(OP_OPEN, OPEN4resok.class).stateid;
        nfs.write(fh, st, 0, text("still mine"));
        nfs.runOk(new CompoundBuilder().putfh(dir).remove("open"));
        for (int i = 0; i < 8; i++) {
            nfs.createFile(dir, "n" + i, text("someone else " + i));
        }
        CompoundResult read = nfs.run(new CompoundBuilder().putfh(fh).read(st, 0, 100));
        if (read.isOk()) {
            assertThat(new String(data(read.body(OP_READ, READ4resok.class)), StandardCharsets.UTF_8))
                    .isEqualTo("still mine");
        } else {
            assertThat(read.status()).isEqualTo(NfsStatus.STALE);
        }
        nfs.runOk(new CompoundBuilder().putfh(fh).close(st));
        assertThat(nfs.run(new CompoundBuilder().putfh(fh).getattr(FATTR4_SIZE)).status())
                .isEqualTo(NfsStatus.STALE);
    }


    /**
     * A reader's compound (READ, then GETATTR of the size) never sees half of a writer's plain compound that
     * truncates the file and writes new content (DESIGN.md: concurrent readers never see a partial compound),
     * also when the reads take the quiet path without locks.
     */
    @Test
    void readsNeverSeeHalfOfATruncateAndWriteCompound() throws Exception {
        byte[] f = nfs.createFile(dir, "t", "A".repeat(100).getBytes(StandardCharsets.UTF_8));
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        Thread writer = new Thread(() -> {
            try (ItSession w = ItSession.open(server, "truncator")) {
                CompoundResult opened = w.nfs().runOk(new CompoundBuilder().putfh(dir)
                        .openCreate(w.session().clientId(), w.nfs().openOwner(), "t", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                                Attrs.builder().mode(0644).build()));
                stateid4 st = opened.body(OP_OPEN, OPEN4resok.class).stateid;
                boolean a = false;
                while (!stop.get()) {
                    byte[] content = (a ? "A".repeat(100) : "B".repeat(50)).getBytes(StandardCharsets.UTF_8);
                    CompoundResult r = w.nfs().run(new CompoundBuilder().putfh(f)
                            .setattr(st, Attrs.builder().size(0).build()).write(st, 0, content));
                    if (r.isOk()) {
                        a = !a;
                    } else if (r.status() != NfsStatus.DELAY) {
                        problems.add("writer: " + r.status());
                    }
                }
            } catch (IOException | RuntimeException e) {
                problems.add("writer: " + e);
            }
        });
        writer.start();
        int rounds = 0;
        try (ItSession r = ItSession.open(server, "reader")) {
            long end = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < end && problems.isEmpty()) {
                rounds++;
                CompoundResult got = r.nfs().run(new CompoundBuilder().putfh(f)
                        .read(CompoundBuilder.anonymousStateid(), 0, 200).getattr(FATTR4_SIZE));
                if (!got.isOk()) {
                    if (got.status() != NfsStatus.DELAY) {
                        problems.add("reader: " + got.status());
                    }
                    continue;
                }
                String text = new String(data(got.body(OP_READ, READ4resok.class)), StandardCharsets.UTF_8);
                long size = attrsAt(got, 0).size();
                if (!(text.equals("A".repeat(100)) || text.equals("B".repeat(50))) || size != text.length()) {
                    problems.add("READ gave " + text.length() + " bytes '" + text.substring(0, Math.min(10,
                            text.length())) + "...', GETATTR size " + size);
                }
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        System.out.println("truncate race: " + rounds + " reader rounds");
        assertThat(problems).isEmpty();
    }

    /**
     * Light-path transactions (one change that POSIX makes atomic, no recovery record) whose later GETATTR or
     * ACCESS fails for the client's arguments: the whole compound rolls back, and the file keeps its name, data
     * and handle.
     */
    @Test
    void lightPathTransactionWhoseLastOperationFailsLeavesNothingChanged() throws IOException {
        List<String> outcomes = new ArrayList<>();
        int k = 0;
        for (CompoundBuilder tail : List.of(new CompoundBuilder().getattr(48),
                new CompoundBuilder().access(0x10000), new CompoundBuilder().restorefh())) {
            for (String change : List.of("remove", "truncate", "chmod")) {
                String name = "l" + (k++);
                byte[] f = nfs.createFile(dir, name, text("keep me " + name));
                CompoundBuilder b = new CompoundBuilder();
                switch (change) {
                    case "remove" -> b.putfh(dir).remove(name).putfh(f);
                    case "truncate" -> b.putfh(f).setattr(CompoundBuilder.anonymousStateid(),
                            Attrs.builder().size(2).build());
                    default -> b.putfh(f).setattr(CompoundBuilder.anonymousStateid(),
                            Attrs.builder().mode(0600).build());
                }
                CompoundResult r = s.session().executeTransaction(append(b, tail));
                outcomes.add(change + " then " + r.statuses().get(r.statuses().size() - 1) + ": " + r.status());
                if (!r.isOk()) {
                    assertThat(nfs.read(f)).as("%s after %s", name, r).isEqualTo(text("keep me " + name));
                    assertThat(nfs.getattr(f, FATTR4_MODE).mode() & 07777).isEqualTo(0644);
                    assertThat(nfs.lookup(dir, name)).isEqualTo(f);
                }
            }
        }
        System.out.println("light path tails: " + outcomes);
    }

    private static CompoundBuilder append(CompoundBuilder head, CompoundBuilder tail) {
        for (org.tcnfs.nfs4.xdr.nfs_argop4 op : tail.build().argarray) {
            head.op(op.argop, op.args);
        }
        return head;
    }
}

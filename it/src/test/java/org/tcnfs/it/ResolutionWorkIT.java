package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_CHANGE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_NUMLINKS;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TIME_MODIFY;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_REMOVE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.REMOVE4resok;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * The work the server does to resolve handles and names in the compounds of {@code ls -lR} and {@code rm -rf}
 * (issue 16), through the wire: a compound checks each directory once for symbolic links on the way from the
 * export root (DESIGN.md, "Handles"; counted by {@code tcnfs_symlink_checks_total}), and the next compound checks
 * again, so a directory replaced by a symbolic link beside the server makes its objects stale at once; REMOVE
 * reads its directory once before the change and answers the change attributes a GETATTR sees (RFC 8881 18.25);
 * a run of operations that change nothing resolves each handle once ({@code tcnfs_handle_resolutions_total}), and
 * never past a change the compound made; a WRITE resolves its file once for the export's permission check and the
 * data (RFC 8881 18.32). A LOOKUP looks its name up in a descriptor of its directory, which a compound opens below the
 * export root once, so the kernel looks up names below the export root only ({@code tcnfs_path_names_total}).
 */
class ResolutionWorkIT extends SharedServerTest {
    private static final String CHECKS = "tcnfs_symlink_checks_total";
    private static final String RESOLUTIONS = "tcnfs_handle_resolutions_total";
    private static final String NAMES = "tcnfs_path_names_total";
    private static final int DEPTH = 10;
    private static final int FILES = 16;

    private NfsOps nfs;
    private byte[] top;

    @BeforeAll
    void connect() throws IOException {
        Nfs41Session session = Nfs41Session.create(server.connect(), "resolution-work");
        nfs = new NfsOps(session);
        top = nfs.mkdir(nfs.rootFh(), "resolution-work");
    }

    private double checks() throws IOException {
        return server.metric(CHECKS);
    }

    /** A directory {@code name/a/b} under the test's directory with {@link #FILES} files; returns b's handle. */
    private byte[] tree(String name) throws IOException {
        byte[] dir = nfs.mkdir(nfs.mkdir(nfs.mkdir(top, name), "a"), "b");
        for (int i = 0; i < FILES; i++) {
            nfs.createFile(dir, "f" + i, ("file " + i).getBytes(StandardCharsets.UTF_8));
        }
        return dir;
    }

    @Test
    void aCompoundOfLookupsAndGetattrsInOneDirectoryChecksItsPathForSymlinksOnce() throws IOException {
        tree("getattrs");
        CompoundBuilder b = new CompoundBuilder().putfh(top).lookup("getattrs").lookup("a").lookup("b").savefh();
        for (int i = 0; i < FILES; i++) {
            b.restorefh().lookup("f" + i).getattr(FATTR4_SIZE);
        }
        double before = checks();
        CompoundResult r = nfs.runOk(b);
        double made = checks() - before;
        assertThat(r.bodies(OP_GETATTR, GETATTR4resok.class)).hasSize(FILES);
        // the old server checked the directory of every object it resolved: 2 per LOOKUP, 1 per GETATTR (>= 50)
        assertThat(made).as("symlink checks of one compound").isLessThanOrEqualTo(2);
    }

    /** {@code name/d0/.../d9/f} under the test's directory; the names to look up from it, {@code name} first. */
    private List<String> deepTree(String name) throws IOException {
        return nfs.mkdirChainWithFile(top, name, DEPTH);
    }

    /** The names of the paths below the export root of the directory {@code names} starts in and each it names. */
    private static int namesBelowTheRoot(List<String> names) {
        int sum = 0;
        for (int depth = 1; depth <= names.size() + 1; depth++) {
            sum += depth;
        }
        return sum;
    }

    @Test
    void aLookupWalkOfOneNamePerCompoundMakesTheKernelLookUpOnlyNamesBelowTheExportRoot() throws IOException {
        List<String> names = deepTree("walk-per-compound");
        double before = server.metric(NAMES);
        byte[] at = top;
        for (String name : names) {
            // as a kernel client walks a path: PUTFH, LOOKUP, GETFH, GETATTR
            at = nfs.runOk(new CompoundBuilder().putfh(at).lookup(name).getfh().getattr(FATTR4_SIZE)).fileHandle();
        }
        double made = server.metric(NAMES) - before;
        // the old server walked absolute paths three times per such compound (lstat and openat2 of the directory,
        // lstat of the name), every name from the file system's root; now the directory is opened by its names below
        // the export root (openat2 relative to the root's descriptor) and the name is looked up in it: the test's
        // directory is an entry of the export root, so compound k looks up k + 1 names
        assertThat(made).as("names looked up for " + names.size() + " compounds")
                .isLessThanOrEqualTo(namesBelowTheRoot(names));
    }

    @Test
    void aLookupChainInOneCompoundMakesTheKernelLookUpOnlyNamesBelowTheExportRoot() throws IOException {
        List<String> names = deepTree("walk-in-one-compound");
        CompoundBuilder b = new CompoundBuilder().putfh(top);
        names.forEach(b::lookup);
        double before = server.metric(NAMES);
        nfs.runOk(b.getfh().getattr(FATTR4_SIZE));
        // PUTFH opens the test's directory (1 name below the root), LOOKUP k looks up the k names below it
        assertThat(server.metric(NAMES) - before).as("names looked up for one compound of " + names.size()
                + " LOOKUPs").isLessThanOrEqualTo(namesBelowTheRoot(names));
    }

    @Test
    void aLookupInADirectoryReplacedBySymlinkBesideTheServerIsStale() throws IOException {
        byte[] dir = tree("replaced-lookup");
        assertThat(nfs.lookup(dir, "f2")).isNotNull();
        Path a = server.exportDir().resolve("resolution-work/replaced-lookup/a");
        Path outside = server.exportDir().getParent().resolve("outside-lookup-" + System.nanoTime());
        Files.move(a, outside);
        Files.createSymbolicLink(a, outside);
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(dir).lookup("f2").getattr(FATTR4_SIZE));
        assertThat(r.status()).as("LOOKUP in b, now reached through the link a").isEqualTo(NfsStatus.STALE);
    }

    @Test
    void everyCompoundChecksItsDirectoriesAgain() throws IOException {
        byte[] dir = tree("again");
        byte[] file = nfs.lookup(dir, "f0");
        double before = checks();
        nfs.getattr(file, FATTR4_SIZE);
        nfs.getattr(file, FATTR4_SIZE);
        assertThat(checks() - before).as("symlink checks of two compounds of one GETATTR").isEqualTo(2);
    }

    @Test
    void aDirectoryReplacedBySymlinkBesideTheServerMakesItsObjectsStaleInTheNextCompound() throws IOException {
        byte[] dir = tree("replaced");
        byte[] file = nfs.lookup(dir, "f1");
        assertThat(nfs.getattr(file, FATTR4_SIZE).size()).isEqualTo("file 1".length());
        Path a = server.exportDir().resolve("resolution-work/replaced/a");
        Path outside = server.exportDir().getParent().resolve("outside-" + System.nanoTime());
        Files.move(a, outside);
        Files.createSymbolicLink(a, outside);
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(file).getattr(FATTR4_SIZE));
        assertThat(r.status()).isEqualTo(NfsStatus.STALE);
        CompoundResult byName = nfs.run(new CompoundBuilder().putfh(top).lookup("replaced").lookup("a").lookup("b"));
        assertThat(byName.status()).as("LOOKUP b in the link a").isEqualTo(NfsStatus.SYMLINK);
    }

    @Test
    void removeAnswersTheChangeAttributesAGetattrOfItsDirectorySees() throws IOException {
        byte[] dir = tree("remove");
        CompoundResult r = nfs.runOk(new CompoundBuilder().putfh(dir).getattr(FATTR4_CHANGE).remove("f2")
                .getattr(FATTR4_CHANGE).remove("f3").getattr(FATTR4_CHANGE));
        List<GETATTR4resok> seen = r.bodies(OP_GETATTR, GETATTR4resok.class);
        List<REMOVE4resok> removed = r.bodies(OP_REMOVE, REMOVE4resok.class);
        long first = Attrs.decode(seen.get(0).obj_attributes).change();
        long second = Attrs.decode(seen.get(1).obj_attributes).change();
        long third = Attrs.decode(seen.get(2).obj_attributes).change();
        assertThat(removed.get(0).cinfo.before).isEqualTo(first);
        assertThat(removed.get(0).cinfo.after).isEqualTo(second).isNotEqualTo(first);
        assertThat(removed.get(1).cinfo.before).isEqualTo(second);
        assertThat(removed.get(1).cinfo.after).isEqualTo(third).isNotEqualTo(second);
    }

    @Test
    void aLookupChainAndTheLookupsOfOneDirectorysEntriesResolveEachDirectoryOnce() throws IOException {
        tree("resolutions");
        CompoundBuilder b = new CompoundBuilder().putfh(top).lookup("resolutions").lookup("a").lookup("b").savefh();
        for (int i = 0; i < FILES; i++) {
            b.restorefh().lookup("f" + i).getattr(FATTR4_SIZE);
        }
        double before = server.metric(RESOLUTIONS);
        CompoundResult r = nfs.runOk(b);
        double made = server.metric(RESOLUTIONS) - before;
        assertThat(r.bodies(OP_GETATTR, GETATTR4resok.class)).hasSize(FILES);
        // the old server resolved the directory of every LOOKUP on the disk again (19 here, each an LMDB read, a
        // path and an lstat); now each handle once per run of operations that change nothing: top, and b only
        // if the table did not know it under its name
        assertThat(made).as("handles resolved on the disk by one compound").isLessThanOrEqualTo(2);
    }

    @Test
    void anOpenThatCreatesAfterALookupChainUsesTheDirectoryTheChainResolved() throws IOException {
        tree("open-create");
        CompoundBuilder b = new CompoundBuilder().putfh(top).lookup("open-create").lookup("a").lookup("b")
                .openCreate(nfs.session().clientId(), nfs.openOwner(), "new", OPEN4args.OPEN4_SHARE_ACCESS_WRITE,
                        Attrs.builder().mode(0644).build())
                .getfh().close(CompoundBuilder.currentStateid());
        double before = server.metric(RESOLUTIONS);
        CompoundResult r = nfs.runOk(b);
        double made = server.metric(RESOLUTIONS) - before;
        assertThat(r.body(OP_OPEN, OPEN4resok.class).cinfo.before)
                .as("the directory's change attribute before the create").isNotZero();
        // the LOOKUP chain resolves top on the disk (b's LOOKUP keeps what it found, the table knowing b under its
        // name); the OPEN used to begin a stretch of its own and resolve b again before the create (2 here: the
        // driver's one-file-per-compound row), now it continues the chain's where nothing changed in between (a
        // plain compound); CLOSE resolves nothing
        assertThat(made).as("handles resolved by a LOOKUP chain, an OPEN that creates and a CLOSE").isEqualTo(1);
    }

    @Test
    void theOperationsAfterAnOpenThatCreatedAFileFindItWithoutResolvingItsHandle() throws IOException {
        tree("open-write");
        byte[] data = "written right after the create".getBytes(StandardCharsets.UTF_8);
        CompoundBuilder b = new CompoundBuilder().putfh(top).lookup("open-write").lookup("a").lookup("b")
                .openCreate(nfs.session().clientId(), nfs.openOwner(), "new", OPEN4args.OPEN4_SHARE_ACCESS_WRITE,
                        Attrs.builder().mode(0640).build())
                .getfh().getattr(FATTR4_SIZE, FATTR4_MODE)
                .write(CompoundBuilder.currentStateid(), 0, stable_how4.FILE_SYNC4, data)
                .getattr(FATTR4_SIZE).close(CompoundBuilder.currentStateid());
        double before = server.metric(RESOLUTIONS);
        CompoundResult r = nfs.runOk(b);
        double made = server.metric(RESOLUTIONS) - before;
        List<GETATTR4resok> attrs = r.bodies(OP_GETATTR, GETATTR4resok.class);
        Attrs created = Attrs.decode(attrs.get(0).obj_attributes);
        assertThat(created.size()).as("the new file's size right after the create").isZero();
        assertThat(created.mode()).as("its mode").isEqualTo(0640);
        assertThat(Attrs.decode(attrs.get(1).obj_attributes).size()).as("its size after the WRITE")
                .isEqualTo(data.length);
        assertThat(nfs.read(r.fileHandle())).isEqualTo(data);
        // the LOOKUP chain resolves top (as in the case above); the create leaves the new file in the stretch, so
        // the GETATTR and the WRITE after it find it there (the jar before resolved it for each: 4 in all); the WRITE
        // changes it, so the GETATTR after the WRITE resolves it again
        assertThat(made).as("handles resolved by a LOOKUP chain, OPEN, GETATTR, WRITE, GETATTR, CLOSE").isEqualTo(2);
    }

    @Test
    void afterAnOpenThatCreatedAFileItsDirectoryAndTheNewNameAreReadAsTheCreateLeftThem() throws IOException {
        byte[] dir = tree("open-then-dir");
        long changeBefore = nfs.getattr(dir, FATTR4_CHANGE).change();
        sleepPastTheClockTick();
        CompoundBuilder b = new CompoundBuilder().putfh(dir).savefh().getattr(FATTR4_CHANGE, FATTR4_TIME_MODIFY)
                .openCreate(nfs.session().clientId(), nfs.openOwner(), "late", OPEN4args.OPEN4_SHARE_ACCESS_WRITE,
                        Attrs.builder().mode(0644).build())
                .getfh().restorefh().getattr(FATTR4_CHANGE, FATTR4_TIME_MODIFY).lookup("late").getfh();
        CompoundResult r = nfs.runOk(b);
        nfs.runOk(new CompoundBuilder().putfh(r.fileHandle()).close(r.body(OP_OPEN, OPEN4resok.class).stateid));
        List<GETATTR4resok> attrs = r.bodies(OP_GETATTR, GETATTR4resok.class);
        Attrs before = Attrs.decode(attrs.get(0).obj_attributes);
        Attrs after = Attrs.decode(attrs.get(1).obj_attributes);
        Attrs now = nfs.getattr(dir, FATTR4_CHANGE, FATTR4_TIME_MODIFY);
        // the directory's GETATTR after the create, in the stretch the engine resumed after the OPEN, is the
        // directory as the create left it (its lstat after the create), not as the GETATTR before it read it
        assertThat(before.change()).isEqualTo(changeBefore);
        assertThat(after.change()).as("the directory's change attribute after the create").isNotEqualTo(changeBefore)
                .isEqualTo(r.body(OP_OPEN, OPEN4resok.class).cinfo.after).isEqualTo(now.change());
        assertThat(mtime(after)).as("the directory's mtime after the create").isNotEqualTo(mtime(before))
                .isEqualTo(mtime(now));
        List<GETFH4resok> handles = r.bodies(OP_GETFH, GETFH4resok.class);
        assertThat(handles.get(1).object.value).as("the handle LOOKUP finds under the new name")
                .isEqualTo(handles.get(0).object.value);
    }

    private static Instant mtime(Attrs attrs) {
        return Instant.ofEpochSecond(attrs.timeModify().seconds, attrs.timeModify().nseconds);
    }

    /** Waits long enough for the kernel's coarse clock (file times) to move past the last change's time. */
    private static void sleepPastTheClockTick() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Opens the existing file {@code name} of {@code dir} for writing; the stateid, and the handle into {@code fh}. */
    private stateid4 openForWrite(byte[] dir, String name, byte[][] fh) throws IOException {
        CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir)
                .openExisting(nfs.session().clientId(), nfs.openOwner(), name, OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                .getfh());
        fh[0] = opened.fileHandle();
        return opened.body(OP_OPEN, OPEN4resok.class).stateid;
    }

    @Test
    void aStableWriteResolvesItsFileOnceForItsPermissionCheckAndItsData() throws IOException {
        byte[] dir = tree("write-resolutions");
        byte[][] fh = new byte[1][];
        stateid4 open = openForWrite(dir, "f0", fh);
        CompoundBuilder b = new CompoundBuilder().putfh(fh[0]);
        for (int i = 0; i < 4; i++) {
            b.write(open, 4096L * i, stable_how4.FILE_SYNC4, new byte[4096]);
        }
        double before = server.metric(RESOLUTIONS);
        nfs.runOk(b);
        double made = server.metric(RESOLUTIONS) - before;
        nfs.runOk(new CompoundBuilder().putfh(fh[0]).close(open));
        // a WRITE changes its file, so no WRITE reuses what an operation before it resolved; the old server resolved
        // the file twice per WRITE (the export's permission check, then the write: 1 + 8 here with PUTFH's), now
        // once (issue 16: each resolution an LMDB read, a path and an lstat, for every file the write rows write)
        assertThat(made).as("handles resolved by PUTFH and 4 stable WRITEs").isLessThanOrEqualTo(1 + 4);
    }

    @Test
    void aWriteByAUserWithoutWritePermissionIsAccessAndChangesNothing() throws IOException {
        byte[] dir = tree("write-permission");
        byte[][] fh = new byte[1][];
        stateid4 open = openForWrite(dir, "f1", fh);
        nfs.runOk(new CompoundBuilder().putfh(fh[0]).setattr(Attrs.builder().mode(0644).build()));
        CompoundResult refused = nfs.session().execute(new CompoundBuilder().putfh(fh[0])
                .write(open, 0, stable_how4.FILE_SYNC4, "changed".getBytes(StandardCharsets.UTF_8)),
                AuthSys.of(4242, 4242));
        nfs.runOk(new CompoundBuilder().putfh(fh[0]).close(open));
        assertThat(refused.status()).isEqualTo(NfsStatus.ACCESS);
        assertThat(new String(nfs.read(fh[0]), StandardCharsets.UTF_8)).isEqualTo("file 1");
    }

    @Test
    void aRemoveResolvesItsDirectoryOnceAndReadsItsChangeAttributeAfterWithoutResolvingItAgain() throws IOException {
        byte[] dir = tree("remove-resolutions");
        CompoundBuilder b = new CompoundBuilder().putfh(dir);
        for (int i = 0; i < 4; i++) {
            b.remove("f" + i);
        }
        double before = server.metric(RESOLUTIONS);
        nfs.runOk(b);
        // the old server resolved the directory three times per REMOVE (its change attribute before, the
        // removal, the change attribute after): 13 here with PUTFH's; then twice (before and removal shared one
        // resolution): 9; now the change attribute after is one lstat of the path the removal used
        assertThat(server.metric(RESOLUTIONS) - before).as("handles resolved by PUTFH and 4 REMOVEs")
                .isLessThanOrEqualTo(1 + 4);
    }

    /** {@code name/d0 .. d(count-1)} under the test's directory, each with one file {@code f}. */
    private void directoriesWithAFile(String name, int count) throws IOException {
        byte[] parent = nfs.mkdir(top, name);
        for (int i = 0; i < count; i++) {
            nfs.createFile(nfs.mkdir(parent, "d" + i), "f", "f".getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * The driver's rm -rf (and a vectorized client's) over {@link #directoriesWithAFile}: per path PUTFH of the test's
     * directory, the LOOKUP chain, REMOVE, as one compound ({@code send} runs it plain or as a transaction and checks
     * its status); returns the handles it resolved on the disk, having checked every file is gone.
     */
    private double resolutionsOfLookupChainsEachEndingInARemove(String name, CompoundSender send) throws IOException {
        directoriesWithAFile(name, FILES);
        CompoundBuilder b = new CompoundBuilder();
        for (int i = 0; i < FILES; i++) {
            b.putfh(top).lookup(name).lookup("d" + i).remove("f");
        }
        double before = server.metric(RESOLUTIONS);
        CompoundResult r = send.send(b);
        double made = server.metric(RESOLUTIONS) - before;
        assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.OK);
        assertThat(r.bodies(OP_REMOVE, REMOVE4resok.class)).hasSize(FILES);
        for (int i = 0; i < FILES; i++) {
            assertThat(nfs.readdirNames(nfs.lookup(nfs.lookup(top, name), "d" + i))).isEmpty();
        }
        return made;
    }

    /** Sends one compound, plain or as a transaction. */
    @FunctionalInterface
    private interface CompoundSender {
        CompoundResult send(CompoundBuilder compound) throws IOException;
    }

    @Test
    void aCompoundOfLookupChainsEachEndingInARemoveResolvesTheirCommonDirectoryOnceNotOncePerPath() throws IOException {
        double made = resolutionsOfLookupChainsEachEndingInARemove("chains", nfs::run);
        // the old server began a new stretch after every REMOVE and before its hooks: it resolved the test's directory
        // again for each chain and each REMOVE's directory again for the REMOVE (2 per path, 32 here); now a plain
        // compound's stretch goes on past a REMOVE, which renews its directory and drops its victim
        assertThat(made).as("handles resolved on the disk for " + FILES + " removed paths").isLessThanOrEqualTo(2);
    }

    @Test
    void aTransactionOfLookupChainsEachEndingInARemoveResolvesTheirCommonDirectoryOnceNotOncePerPath()
            throws IOException {
        double made = resolutionsOfLookupChainsEachEndingInARemove("txn-chains",
                compound -> nfs.session().executeTransaction(compound));
        // a transaction's REMOVE (prepared up front, its victim renamed into the backup directory) goes on in the
        // stretch before it as a plain one does; the jar before began a new stretch after each (32 here)
        assertThat(made).as("handles resolved on the disk for " + FILES + " removed paths").isLessThanOrEqualTo(2);
    }

    @Test
    void aLookupAfterARemoveInTheSameTransactionDoesNotFindTheRemovedNameAndTheTransactionPutsItBack()
            throws IOException {
        byte[] dir = tree("txn-removed-name");
        byte[] f4 = nfs.lookup(dir, "f4");
        CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(top)
                .lookup("txn-removed-name").lookup("a").lookup("b").lookup("f4").putfh(dir).remove("f4").putfh(top)
                .lookup("txn-removed-name").lookup("a").lookup("b").lookup("f4"));
        assertThat(r.bodies(OP_REMOVE, REMOVE4resok.class)).hasSize(1);
        assertThat(r.status()).as("the last LOOKUP, of the removed name").isEqualTo(NfsStatus.NOENT);
        assertThat(nfs.lookup(dir, "f4")).as("rolled back: the file under its handle of before").isEqualTo(f4);
    }

    @Test
    void aDirectoryLookedUpAgainAfterARemoveInATransactionShowsTheChangeTheRemoveAnswered() throws IOException {
        tree("txn-renewed");
        CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(top).lookup("txn-renewed")
                .lookup("a").lookup("b").getattr(FATTR4_CHANGE).remove("f1").putfh(top).lookup("txn-renewed")
                .lookup("a").lookup("b").getattr(FATTR4_CHANGE, FATTR4_SIZE));
        assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.OK);
        List<GETATTR4resok> seen = r.bodies(OP_GETATTR, GETATTR4resok.class);
        REMOVE4resok removed = r.bodies(OP_REMOVE, REMOVE4resok.class).get(0);
        assertThat(removed.cinfo.before).isEqualTo(Attrs.decode(seen.get(0).obj_attributes).change());
        assertThat(Attrs.decode(seen.get(1).obj_attributes).change()).as("b looked up again after the REMOVE")
                .isEqualTo(removed.cinfo.after).isNotEqualTo(removed.cinfo.before);
    }

    @Test
    void aFileThatLostOneOfItsTwoNamesShowsOneLinkToTheRestOfTheCompound() throws IOException {
        byte[] dir = tree("lost-link");
        byte[] file = nfs.lookup(dir, "f5");
        nfs.runOk(new CompoundBuilder().putfh(file).savefh().putfh(dir).link("g5"));
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(file).getattr(FATTR4_NUMLINKS).putfh(dir)
                .remove("g5").putfh(file).getattr(FATTR4_NUMLINKS).putfh(dir).lookup("g5"));
        assertThat(r.status()).as("LOOKUP of the removed name").isEqualTo(NfsStatus.NOENT);
        List<GETATTR4resok> seen = r.bodies(OP_GETATTR, GETATTR4resok.class);
        assertThat(Attrs.decode(seen.get(0).obj_attributes).numlinks()).isEqualTo(2);
        assertThat(Attrs.decode(seen.get(1).obj_attributes).numlinks()).as("resolved before the REMOVE of g5")
                .isEqualTo(1);
    }

    @Test
    void aDirectoryRenamedBesideTheServerAfterACompoundOfRemovesIsNotFoundUnderItsOldNameByTheNext()
            throws IOException {
        directoriesWithAFile("renamed-after", 2);
        byte[] d1 = nfs.lookup(nfs.lookup(top, "renamed-after"), "d1");
        nfs.runOk(new CompoundBuilder().putfh(top).lookup("renamed-after").lookup("d0").remove("f")
                .putfh(top).lookup("renamed-after").lookup("d1").getattr(FATTR4_SIZE));
        Path renamed = server.exportDir().resolve("resolution-work/renamed-after");
        Files.move(renamed.resolve("d1"), renamed.resolve("moved"));
        Files.delete(renamed.resolve("d0"));
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(top).lookup("renamed-after").lookup("d0"));
        assertThat(r.status()).as("LOOKUP of d0, removed beside the server").isEqualTo(NfsStatus.NOENT);
        r = nfs.run(new CompoundBuilder().putfh(top).lookup("renamed-after").lookup("d1").remove("f"));
        assertThat(r.status()).as("LOOKUP of d1, renamed beside the server").isEqualTo(NfsStatus.NOENT);
        r = nfs.run(new CompoundBuilder().putfh(d1).remove("f"));
        assertThat(r.status()).as("REMOVE in d1 by its handle, renamed beside the server").isEqualTo(NfsStatus.STALE);
        assertThat(Files.exists(renamed.resolve("moved/f"))).isTrue();
        nfs.runOk(new CompoundBuilder().putfh(top).lookup("renamed-after").lookup("moved").remove("f"));
        assertThat(Files.exists(renamed.resolve("moved/f"))).isFalse();
    }

    @Test
    void aDirectoryTheCompoundRemovedIsStaleForItsLaterOperations() throws IOException {
        byte[] dir = tree("removed-dir");
        byte[] empty = nfs.mkdir(dir, "empty");
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(dir).lookup("empty").getattr(FATTR4_SIZE)
                .putfh(dir).remove("empty").putfh(empty).getattr(FATTR4_SIZE));
        assertThat(r.bodies(OP_REMOVE, REMOVE4resok.class)).hasSize(1);
        assertThat(r.status()).as("GETATTR of the removed directory, resolved before the REMOVE")
                .isEqualTo(NfsStatus.STALE);
    }

    @Test
    void aLookupAfterARemoveInTheSameDirectoryDoesNotFindTheRemovedName() throws IOException {
        byte[] dir = tree("removed-name");
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(top).lookup("removed-name").lookup("a").lookup("b")
                .lookup("f4").putfh(dir).remove("f4").putfh(top).lookup("removed-name").lookup("a").lookup("b")
                .lookup("f4"));
        assertThat(r.bodies(OP_REMOVE, REMOVE4resok.class)).hasSize(1);
        assertThat(r.status()).as("the last LOOKUP, of the removed name").isEqualTo(NfsStatus.NOENT);
    }

    /**
     * The driver's rm -rf shape over the files of {@code shared/a/b} ({@link #tree}): per file, PUTFH of the test's
     * directory, the LOOKUP chain to b, then what {@code last} adds for the file's name.
     */
    private CompoundBuilder chainsTo(String shared, BiConsumer<CompoundBuilder, String> last) {
        CompoundBuilder b = new CompoundBuilder();
        for (int i = 0; i < FILES; i++) {
            last.accept(b.putfh(top).lookup(shared).lookup("a").lookup("b"), "f" + i);
        }
        return b;
    }

    @Test
    void aCompoundOfLookupChainsSharingTheirDirectoriesLooksUpEachDirectoryNameOnceNotOncePerPath()
            throws IOException {
        tree("shared-lookups");
        CompoundBuilder b = chainsTo("shared-lookups", (chain, file) -> chain.lookup(file).getattr(FATTR4_SIZE));
        double before = server.metric(NAMES);
        CompoundResult r = nfs.runOk(b);
        double made = server.metric(NAMES) - before;
        assertThat(r.bodies(OP_GETATTR, GETATTR4resok.class)).hasSize(FILES);
        // the old server looked every name of every chain up again (a statx relative to the test's directory's
        // descriptor: 1 + 2 + 3 names for the directories, 4 for the file), 161 names here with the PUTFH's; now a
        // name the stretch already looked up in the same directory is answered from what it found, leaving the first
        // chain's directories and each file (71)
        assertThat(made).as("names looked up for " + FILES + " LOOKUP chains").isLessThanOrEqualTo(8 + 4 * FILES);
    }

    @Test
    void aCompoundOfLookupChainsEachEndingInARemoveLooksUpTheirSharedDirectoryNamesOnce() throws IOException {
        tree("shared-removes");
        CompoundBuilder b = chainsTo("shared-removes", CompoundBuilder::remove);
        double before = server.metric(NAMES);
        CompoundResult r = nfs.runOk(b);
        double made = server.metric(NAMES) - before;
        assertThat(r.bodies(OP_REMOVE, REMOVE4resok.class)).hasSize(FILES);
        // the old server looked every chain's directory names up again (1 + 2 + 3 names below the test's directory)
        // before the REMOVE's 11 (the victim's statx and unlinkat, 4 names each, its directory's statx after, 3), 273
        // here; now the chain's names are answered past each REMOVE (which renews its directory's answer) (183)
        assertThat(made).as("names looked up for " + FILES + " removed paths").isLessThanOrEqualTo(8 + 11 * FILES);
        assertThat(nfs.readdirNames(nfs.lookup(nfs.lookup(nfs.lookup(top, "shared-removes"), "a"), "b"))).isEmpty();
    }

    @Test
    void aDirectoryLookedUpAgainAfterARemoveInItShowsTheChangeTheRemoveAnswered() throws IOException {
        tree("renewed");
        CompoundResult r = nfs.runOk(new CompoundBuilder().putfh(top).lookup("renewed").lookup("a").lookup("b")
                .getattr(FATTR4_CHANGE).remove("f1").putfh(top).lookup("renewed").lookup("a").lookup("b")
                .getattr(FATTR4_CHANGE, FATTR4_SIZE));
        List<GETATTR4resok> seen = r.bodies(OP_GETATTR, GETATTR4resok.class);
        REMOVE4resok removed = r.bodies(OP_REMOVE, REMOVE4resok.class).get(0);
        assertThat(removed.cinfo.before).isEqualTo(Attrs.decode(seen.get(0).obj_attributes).change());
        assertThat(Attrs.decode(seen.get(1).obj_attributes).change()).as("b looked up again after the REMOVE")
                .isEqualTo(removed.cinfo.after).isNotEqualTo(removed.cinfo.before);
    }

    @Test
    void aFileLookedUpByTwoNamesShowsOneLinkUnderTheOtherAfterTheRemoveOfOne() throws IOException {
        byte[] dir = tree("two-names");
        nfs.runOk(new CompoundBuilder().putfh(nfs.lookup(dir, "f7")).savefh().putfh(dir).link("g7"));
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(dir).lookup("g7").getattr(FATTR4_NUMLINKS)
                .putfh(dir).lookup("f7").getattr(FATTR4_NUMLINKS).putfh(dir).remove("g7")
                .putfh(dir).lookup("f7").getattr(FATTR4_NUMLINKS).putfh(dir).lookup("g7"));
        assertThat(r.status()).as("LOOKUP of the removed name").isEqualTo(NfsStatus.NOENT);
        List<GETATTR4resok> seen = r.bodies(OP_GETATTR, GETATTR4resok.class);
        assertThat(Attrs.decode(seen.get(1).obj_attributes).numlinks()).isEqualTo(2);
        assertThat(Attrs.decode(seen.get(2).obj_attributes).numlinks()).as("f7 looked up again after the REMOVE of g7")
                .isEqualTo(1);
    }

    @Test
    void namesRemovedRenamedAndCreatedBesideTheServerAreSeenByTheNextCompound() throws IOException {
        byte[] dir = tree("beside");
        CompoundBuilder looked = new CompoundBuilder();
        for (String name : List.of("f0", "f1", "f2")) {
            looked.putfh(top).lookup("beside").lookup("a").lookup("b").lookup(name).getattr(FATTR4_SIZE);
        }
        nfs.runOk(looked);
        Path b = server.exportDir().resolve("resolution-work/beside/a/b");
        Files.delete(b.resolve("f0"));
        Files.move(b.resolve("f1"), b.resolve("moved"));
        Files.writeString(b.resolve("f2"), "replaced, longer than before");
        Files.writeString(b.resolve("new"), "new");
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("f2").putfh(dir).lookup("f0")).status())
                .as("f0, removed beside the server").isEqualTo(NfsStatus.NOENT);
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("f2").putfh(dir).lookup("f1")).status())
                .as("f1, renamed beside the server").isEqualTo(NfsStatus.NOENT);
        CompoundResult r = nfs.runOk(new CompoundBuilder().putfh(dir).lookup("moved").getattr(FATTR4_SIZE)
                .putfh(dir).lookup("new").getattr(FATTR4_SIZE).putfh(dir).lookup("f2").getattr(FATTR4_SIZE));
        List<GETATTR4resok> seen = r.bodies(OP_GETATTR, GETATTR4resok.class);
        assertThat(Attrs.decode(seen.get(0).obj_attributes).size()).isEqualTo("file 1".length());
        assertThat(Attrs.decode(seen.get(1).obj_attributes).size()).isEqualTo("new".length());
        assertThat(Attrs.decode(seen.get(2).obj_attributes).size()).isEqualTo("replaced, longer than before".length());
    }

    @Test
    void anInvalidNameLookedUpAfterValidOnesInTheSameDirectoryStillFails() throws IOException {
        byte[] dir = tree("invalid-after");
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("f0").putfh(dir).lookup("f0").putfh(dir)
                .lookup("..")).status()).isEqualTo(NfsStatus.BADNAME);
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("f0").putfh(dir).lookup("f0/x")).status())
                .isEqualTo(NfsStatus.BADCHAR);
        assertThat(nfs.run(new CompoundBuilder().putfh(top).lookup("invalid-after").putfh(nfs.rootFh())
                .lookup(".tcnfs")).status()).as("the reserved name").isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void lookupKeepsItsErrorsAndTheirOrder() throws IOException {
        byte[] dir = tree("errors");
        byte[] file = nfs.lookup(dir, "f0");
        byte[] link = nfs.runOk(new CompoundBuilder().putfh(dir).symlink("l", "b").getfh()).fileHandle();
        assertThat(nfs.run(new CompoundBuilder().putfh(file).lookup("x")).statusOf(OP_LOOKUP))
                .isEqualTo(NfsStatus.NOTDIR);
        assertThat(nfs.run(new CompoundBuilder().putfh(link).lookup("x")).statusOf(OP_LOOKUP))
                .isEqualTo(NfsStatus.SYMLINK);
        assertThat(nfs.run(new CompoundBuilder().putfh(file).lookup("..")).statusOf(OP_LOOKUP))
                .as("a bad name on a file: the file first").isEqualTo(NfsStatus.NOTDIR);
        assertThat(nfs.run(new CompoundBuilder().putfh(link).lookup("")).statusOf(OP_LOOKUP))
                .as("a bad name on a symbolic link: the link first").isEqualTo(NfsStatus.SYMLINK);
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("..")).statusOf(OP_LOOKUP))
                .isEqualTo(NfsStatus.BADNAME);
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("missing")).statusOf(OP_LOOKUP))
                .isEqualTo(NfsStatus.NOENT);
    }
}

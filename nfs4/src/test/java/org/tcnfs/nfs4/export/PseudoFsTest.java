package org.tcnfs.nfs4.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.status.NfsAssertions.assertStatus;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.export.ExportOptions.Access;
import org.tcnfs.nfs4.export.ExportOptions.Squash;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.AccessRight;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.DirectoryListing;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.WriteStability;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;

class PseudoFsTest {
    private static final Credential ROOT = Credential.ROOT;
    private static final Credential ALICE = new Credential(1000, 100, new int[] {300});
    private static final Credential BOB = new Credential(1001, 100, new int[0]);
    private static final Credential CAROL = new Credential(1002, 200, new int[0]);
    private static final byte[] ZERO_VERIFIER = new byte[8];
    private static final InetAddress LAN = address("10.0.0.5");
    private static final InetAddress OUTSIDE = address("192.0.2.1");
    private static final ExportOptions RW = ExportOptions.DEFAULTS.withAccess(Access.READ_WRITE);

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static ExportTable single(InMemoryFileSystem fs, ExportOptions options) {
        return new ExportTable(List.of(new Export("/", fs, List.of(ExportRule.everyone(options)))));
    }

    @Test
    void aCallerGetsTheSameViewAgainAndAnotherCallerItsOwn() {
        ExportTable table = single(new InMemoryFileSystem(), RW);

        PseudoFs alice = table.forCaller(ALICE, LAN);
        assertThat(table.forCaller(new Credential(1000, 100, new int[] {300}), LAN)).isSameAs(alice);
        assertThat(table.forCaller(ALICE, OUTSIDE)).isNotSameAs(alice);
        assertThat(table.forCaller(BOB, LAN)).isNotSameAs(alice);
        assertThat(table.forCaller(new Credential(1000, 100, new int[] {301}), LAN)).isNotSameAs(alice);
    }

    @Test
    void theCacheOfViewsIsBounded() {
        ExportTable table = single(new InMemoryFileSystem(), RW);
        PseudoFs first = table.forCaller(new Credential(1, 1, new int[0]), LAN);

        for (int uid = 2; uid <= ExportTable.MAX_CACHED_VIEWS + 1; uid++) {
            table.forCaller(new Credential(uid, 1, new int[0]), LAN);
        }
        assertThat(table.forCaller(new Credential(1, 1, new int[0]), LAN)).as("emptied once full").isNotSameAs(first);
    }

    /** Two exports: /srv/data for 10.0.0.0/8 only, /pub (read-only) for everyone. */
    @Nested
    class TwoExports {
        private final InMemoryFileSystem data = new InMemoryFileSystem();
        private final InMemoryFileSystem pub = new InMemoryFileSystem();
        private final ExportTable table = new ExportTable(List.of(
                new Export("/srv/data", data, List.of(new ExportRule(ClientMatcher.parse("10.0.0.0/8"),
                        RW.withSquash(Squash.NO_ROOT_SQUASH)))),
                new Export("/pub", pub, List.of(ExportRule.everyone(ExportOptions.DEFAULTS)))));

        @Test
        void pseudoRootListsTheFirstComponentsOfVisibleExports() throws IOException {
            PseudoFs lan = table.forCaller(ROOT, LAN);
            Inode root = lan.getRootInode();
            assertThat(names(lan.list(root, ZERO_VERIFIER, 0, 10))).containsExactly("pub", "srv");
            PseudoFs outside = table.forCaller(ROOT, OUTSIDE);
            assertThat(outside.getRootInode()).isEqualTo(root);
            assertThat(names(outside.list(root, ZERO_VERIFIER, 0, 10))).containsExactly("pub");
        }

        @Test
        void pseudoDirectoriesLeadToExportRootsAndBack() throws IOException {
            PseudoFs fs = table.forCaller(ALICE, LAN);
            Inode root = fs.getRootInode();
            Inode srv = fs.lookup(root, "srv");
            Inode dataRoot = fs.lookup(srv, "data");
            assertThat(dataRoot).isEqualTo(data.getRootInode());
            assertThat(fs.lookup(root, "pub")).isEqualTo(pub.getRootInode());
            assertThat(fs.parentOf(dataRoot)).isEqualTo(srv);
            assertThat(fs.parentOf(srv)).isEqualTo(root);
            assertStatus(() -> fs.parentOf(root), NfsStatus.NOENT);
            assertStatus(() -> fs.lookup(srv, "other"), NfsStatus.NOENT);
        }

        @Test
        void pseudoDirectoriesAreReadOnlyRootOwnedDirectories() throws IOException {
            PseudoFs fs = table.forCaller(ROOT, LAN);
            Inode root = fs.getRootInode();
            Stat stat = fs.getattr(root);
            assertThat(stat.type()).isEqualTo(FileType.DIRECTORY);
            assertThat(stat.mode()).isEqualTo(0555);
            assertThat(stat.uid()).isZero();
            assertThat(root.length()).isEqualTo(16);
            assertThat(fs.fileSystemId(root)).isEqualTo(ExportTable.PSEUDO_FSID);
            assertStatus(() -> fs.mkdir(root, "x", ROOT, 0755), NfsStatus.ROFS);
            assertStatus(() -> fs.create(root, "x", ROOT, 0644), NfsStatus.ROFS);
            assertStatus(() -> fs.remove(root, "pub"), NfsStatus.ROFS);
            assertStatus(() -> fs.setattr(root, SetAttributes.NONE.withMode(0777)), NfsStatus.ROFS);
            assertStatus(() -> fs.readlink(root), NfsStatus.INVAL);
            assertStatus(() -> fs.read(root, 0, ByteBuffer.allocate(1)), NfsStatus.ISDIR);
            assertThat(fs.access(root, EnumSet.allOf(AccessRight.class)))
                    .containsExactlyInAnyOrder(AccessRight.READ, AccessRight.LOOKUP);
        }

        @Test
        void pseudoHandlesAreDeterministicAcrossTables() throws IOException {
            ExportTable again = new ExportTable(table.exports());
            Inode srv = table.forCaller(ROOT, LAN).lookup(table.forCaller(ROOT, LAN).getRootInode(), "srv");
            PseudoFs other = again.forCaller(ROOT, LAN);
            assertThat(other.lookup(other.getRootInode(), "srv")).isEqualTo(srv);
            assertThat(other.getattr(srv).fileId()).isEqualTo(table.forCaller(ROOT, LAN).getattr(srv).fileId());
        }

        @Test
        void hiddenExportIsNoEntByNameAndAccessByHandle() throws IOException {
            Inode file = data.create(data.getRootInode(), "secret", ROOT, 0644);
            Inode srv = table.forCaller(ROOT, LAN).lookup(table.forCaller(ROOT, LAN).getRootInode(), "srv");
            PseudoFs outside = table.forCaller(ROOT, OUTSIDE);
            assertStatus(() -> outside.lookup(outside.getRootInode(), "srv"), NfsStatus.NOENT);
            assertStatus(() -> outside.getattr(file), NfsStatus.ACCESS);
            assertStatus(() -> outside.getattr(data.getRootInode()), NfsStatus.ACCESS);
            assertStatus(() -> outside.getattr(srv), NfsStatus.ACCESS);
        }

        @Test
        void handlesRouteToTheirExportAndExportsHaveDistinctFsids() throws IOException {
            Inode inData = data.create(data.getRootInode(), "a", ROOT, 0644);
            Inode inPub = pub.create(pub.getRootInode(), "b", ROOT, 0644);
            PseudoFs fs = table.forCaller(ROOT, LAN);
            assertThat(fs.getattr(inData).fileId()).isEqualTo(data.getattr(inData).fileId());
            assertThat(fs.getattr(inPub).fileId()).isEqualTo(pub.getattr(inPub).fileId());
            assertThat(Set.of(fs.fileSystemId(inData), fs.fileSystemId(inPub), ExportTable.PSEUDO_FSID)).hasSize(3);
            assertThat(fs.fileSystemId(data.getRootInode())).isEqualTo(fs.fileSystemId(inData));
            assertThat(fs.recognizes(inData)).isTrue();
        }

        @Test
        void unknownHandleIsStaleAndImpossibleLengthIsBadHandle() throws IOException {
            PseudoFs fs = table.forCaller(ROOT, LAN);
            assertStatus(() -> fs.getattr(Inode.of(new byte[16])), NfsStatus.STALE);
            assertStatus(() -> fs.getattr(Inode.of(new byte[7])), NfsStatus.BADHANDLE);
            assertStatus(() -> fs.lookup(Inode.of(new byte[64]), "x"), NfsStatus.BADHANDLE);
            assertThat(fs.recognizes(Inode.of(new byte[16]))).isFalse();
        }

        @Test
        void removedObjectsHandleIsStale() throws IOException {
            PseudoFs fs = table.forCaller(ROOT, LAN);
            Inode file = fs.create(data.getRootInode(), "gone", ROOT, 0644);
            fs.remove(data.getRootInode(), "gone");
            assertStatus(() -> fs.getattr(file), NfsStatus.STALE);
        }

        @Test
        void exportRootIsMountedOnItsPseudoDirectory() throws IOException {
            PseudoFs fs = table.forCaller(ROOT, LAN);
            Inode root = data.getRootInode();
            Stat stat = fs.getattr(root);
            long mountedOn = fs.mountedOnFileId(root, stat);
            assertThat(mountedOn).isEqualTo(ExportTable.pseudoFileId("/srv/data")).isNotEqualTo(stat.fileId());
            Inode file = data.create(root, "f", ROOT, 0644);
            Stat fileStat = fs.getattr(file);
            assertThat(fs.mountedOnFileId(file, fileStat)).isEqualTo(fileStat.fileId());
        }

        @Test
        void isReadOnlyIsFalseOnlyForAnExportTheCallerMayChange() throws IOException {
            assertThat(table.forCaller(ROOT, LAN).isReadOnly(data.getRootInode())).isFalse();
            assertThat(table.forCaller(ROOT, LAN).isReadOnly(pub.getRootInode())).isTrue();
            assertThat(table.forCaller(ROOT, OUTSIDE).isReadOnly(data.getRootInode())).as("hidden").isTrue();
            assertThat(table.forCaller(ROOT, LAN).isReadOnly(new InMemoryFileSystem().getRootInode()))
                    .as("not in the table (a removed export)").isTrue();
        }

        @Test
        void readOnlyExportRefusesEveryChangeButAllowsReading() throws IOException {
            Inode root = pub.getRootInode();
            Inode file = pub.create(root, "f", ROOT, 0666);
            pub.write(file, 0, bytes("hi"), WriteStability.FILE_SYNC);
            Inode dir = pub.mkdir(root, "d", ROOT, 0777);
            PseudoFs fs = table.forCaller(ROOT, LAN);
            assertStatus(() -> fs.create(root, "x", ROOT, 0644), NfsStatus.ROFS);
            assertStatus(() -> fs.mkdir(root, "x", ROOT, 0755), NfsStatus.ROFS);
            assertStatus(() -> fs.symlink(root, "x", "t", ROOT, 0777), NfsStatus.ROFS);
            assertStatus(() -> fs.mknod(root, "x", FileType.FIFO, 0, 0, ROOT, 0644), NfsStatus.ROFS);
            assertStatus(() -> fs.link(file, root, "x"), NfsStatus.ROFS);
            assertStatus(() -> fs.remove(root, "f"), NfsStatus.ROFS);
            assertStatus(() -> fs.rename(root, "f", dir, "f"), NfsStatus.ROFS);
            assertStatus(() -> fs.write(file, 0, bytes("x"), WriteStability.FILE_SYNC), NfsStatus.ROFS);
            assertStatus(() -> fs.setattr(file, SetAttributes.NONE.withSize(0L)), NfsStatus.ROFS);
            assertThat(fs.read(file, 0, ByteBuffer.allocate(10)).count()).isEqualTo(2);
            assertThat(fs.access(file, EnumSet.allOf(AccessRight.class))).containsExactly(AccessRight.READ);
            assertThat(fs.access(dir, EnumSet.allOf(AccessRight.class)))
                    .containsExactlyInAnyOrder(AccessRight.READ, AccessRight.LOOKUP);
            assertThat(pub.lookup(root, "f")).isEqualTo(file);
        }

        @Test
        void renameAndLinkAcrossExportsAreXDev() throws IOException {
            Inode file = data.create(data.getRootInode(), "f", ROOT, 0644);
            InMemoryFileSystem other = new InMemoryFileSystem();
            ExportTable rw = new ExportTable(List.of(
                    new Export("/a", data, List.of(ExportRule.everyone(ExportOptions.TRUSTED))),
                    new Export("/b", other, List.of(ExportRule.everyone(ExportOptions.TRUSTED)))));
            PseudoFs fs = rw.forCaller(ROOT, LAN);
            assertStatus(() -> fs.rename(data.getRootInode(), "f", other.getRootInode(), "f"), NfsStatus.XDEV);
            assertStatus(() -> fs.link(file, other.getRootInode(), "f"), NfsStatus.XDEV);
            assertStatus(() -> fs.rename(data.getRootInode(), "f", fs.getRootInode(), "f"), NfsStatus.XDEV);
            assertThat(data.lookup(data.getRootInode(), "f")).isEqualTo(file);
        }

        @Test
        void pseudoListingPagesWithCookiesAndChecksVerifier() throws IOException {
            PseudoFs fs = table.forCaller(ROOT, LAN);
            Inode root = fs.getRootInode();
            DirectoryListing first = fs.list(root, ZERO_VERIFIER, 0, 1);
            assertThat(first.entries()).hasSize(1);
            assertThat(first.complete()).isFalse();
            DirEntry pubEntry = first.entries().get(0);
            assertThat(pubEntry.cookie()).isGreaterThanOrEqualTo(3);
            assertThat(pubEntry.stat().fileId()).isEqualTo(pub.getattr(pub.getRootInode()).fileId());
            DirectoryListing rest = fs.list(root, first.verifier(), pubEntry.cookie(), 10);
            assertThat(names(rest)).containsExactly("srv");
            assertThat(rest.complete()).isTrue();
            byte[] wrong = first.verifier();
            wrong[0] ^= 1;
            assertStatus(() -> fs.list(root, wrong, pubEntry.cookie(), 10), NfsStatus.NOT_SAME);
            assertStatus(() -> fs.list(root, first.verifier(), 99, 10), NfsStatus.BAD_COOKIE);
        }
    }

    @Nested
    class ExportAtRoot {
        private final InMemoryFileSystem fs = new InMemoryFileSystem();

        @Test
        void singleExportAtSlashIsThePseudoRoot() throws IOException {
            PseudoFs view = single(fs, ExportOptions.TRUSTED).forCaller(ROOT, LAN);
            Inode root = view.getRootInode();
            assertThat(root).isEqualTo(fs.getRootInode());
            assertThat(view.fileSystemId(root)).isNotEqualTo(ExportTable.PSEUDO_FSID);
            Stat stat = view.getattr(root);
            assertThat(view.mountedOnFileId(root, stat)).isEqualTo(stat.fileId());
            assertStatus(() -> view.parentOf(root), NfsStatus.NOENT);
            Inode dir = view.mkdir(root, "d", ROOT, 0755);
            assertThat(view.lookup(root, "d")).isEqualTo(dir);
            assertThat(view.parentOf(dir)).isEqualTo(root);
        }

        @Test
        void exportAtSlashHiddenFromClientLeavesAnEmptyPseudoRoot() throws IOException {
            ExportTable table = new ExportTable(List.of(new Export("/", fs,
                    List.of(new ExportRule(ClientMatcher.parse("10.0.0.0/8"), ExportOptions.TRUSTED)))));
            PseudoFs outside = table.forCaller(ROOT, OUTSIDE);
            Inode root = outside.getRootInode();
            assertThat(root).isNotEqualTo(fs.getRootInode());
            assertThat(outside.list(root, ZERO_VERIFIER, 0, 10).entries()).isEmpty();
            assertStatus(() -> outside.getattr(fs.getRootInode()), NfsStatus.ACCESS);
        }
    }

    @Nested
    class NestedExports {
        private final InMemoryFileSystem outer = new InMemoryFileSystem();
        private final InMemoryFileSystem inner = new InMemoryFileSystem();
        private final Inode mountPoint;
        private final ExportTable table;

        NestedExports() throws IOException {
            mountPoint = outer.mkdir(outer.getRootInode(), "data", ROOT, 0755);
            table = new ExportTable(List.of(
                    new Export("/srv", outer, List.of(ExportRule.everyone(ExportOptions.TRUSTED))),
                    new Export("/srv/data", inner, List.of(ExportRule.everyone(ExportOptions.TRUSTED)))));
        }

        @Test
        void lookupCrossesIntoTheInnerExportAndLookuppComesBack() throws IOException {
            PseudoFs fs = table.forCaller(ROOT, LAN);
            Inode srv = fs.lookup(fs.getRootInode(), "srv");
            assertThat(srv).isEqualTo(outer.getRootInode());
            Inode data = fs.lookup(srv, "data");
            assertThat(data).isEqualTo(inner.getRootInode());
            assertThat(fs.parentOf(data)).isEqualTo(outer.getRootInode());
            assertThat(fs.mountedOnFileId(data, fs.getattr(data))).isEqualTo(outer.getattr(mountPoint).fileId());
            assertThat(names(fs.list(fs.getRootInode(), ZERO_VERIFIER, 0, 10))).containsExactly("srv");
        }

        @Test
        void listingShowsTheInnerRootAndTheMountPointCannotBeRemoved() throws IOException {
            PseudoFs fs = table.forCaller(ROOT, LAN);
            DirectoryListing listing = fs.list(outer.getRootInode(), ZERO_VERIFIER, 0, 10);
            assertThat(listing.entries()).singleElement()
                    .satisfies(e -> assertThat(e.stat().fileId()).isEqualTo(inner.getattr(inner.getRootInode()).fileId()));
            assertStatus(() -> fs.remove(outer.getRootInode(), "data"), NfsStatus.ACCESS);
            assertStatus(() -> fs.rename(outer.getRootInode(), "data", outer.getRootInode(), "x"), NfsStatus.ACCESS);
        }

        @Test
        void hiddenOuterExportBecomesAPseudoDirectory() throws IOException {
            ExportTable partly = new ExportTable(List.of(
                    new Export("/srv", outer, List.of(new ExportRule(ClientMatcher.parse("10.0.0.0/8"),
                            ExportOptions.TRUSTED))),
                    new Export("/srv/data", inner, List.of(ExportRule.everyone(ExportOptions.TRUSTED)))));
            PseudoFs fs = partly.forCaller(ROOT, OUTSIDE);
            Inode srv = fs.lookup(fs.getRootInode(), "srv");
            assertThat(srv).isNotEqualTo(outer.getRootInode());
            assertThat(fs.fileSystemId(srv)).isEqualTo(ExportTable.PSEUDO_FSID);
            assertThat(fs.lookup(srv, "data")).isEqualTo(inner.getRootInode());
        }
    }

    @Nested
    class Squashing {
        private final InMemoryFileSystem fs = new InMemoryFileSystem();
        private final Inode shared;

        Squashing() throws IOException {
            shared = fs.mkdir(fs.getRootInode(), "shared", ROOT, 0777);
        }

        @Test
        void rootSquashedRootCreatesAsNobodyAndCannotWriteRootOwnedDirectories() throws IOException {
            PseudoFs view = single(fs, RW).forCaller(ROOT, LAN);
            Inode file = view.create(shared, "f", ROOT, 0644);
            assertThat(view.getattr(file).uid()).isEqualTo(65534);
            assertThat(view.getattr(file).gid()).isEqualTo(65534);
            assertStatus(() -> view.create(fs.getRootInode(), "x", ROOT, 0644), NfsStatus.ACCESS);
        }

        @Test
        void noRootSquashKeepsRootPowers() throws IOException {
            PseudoFs view = single(fs, ExportOptions.TRUSTED).forCaller(ROOT, LAN);
            Inode file = view.create(fs.getRootInode(), "x", ROOT, 0644);
            assertThat(view.getattr(file).uid()).isZero();
        }

        @Test
        void allSquashMapsEveryUserToTheAnonymousIds() throws IOException {
            ExportOptions options = RW.withSquash(Squash.ALL_SQUASH).withAnonymous(4000, 4001);
            PseudoFs view = single(fs, options).forCaller(ALICE, LAN);
            Inode file = view.create(shared, "f", ALICE, 0644);
            assertThat(view.getattr(file).uid()).isEqualTo(4000);
            assertThat(view.getattr(file).gid()).isEqualTo(4001);
        }

        @Test
        void createUsesTheCallersIdentityNotTheOwnerArgument() throws IOException {
            PseudoFs view = single(fs, RW).forCaller(ALICE, LAN);
            Inode file = view.create(shared, "f", ROOT, 0644);
            assertThat(view.getattr(file).uid()).isEqualTo(1000);
        }
    }

    @Nested
    class Permissions {
        private final InMemoryFileSystem fs = new InMemoryFileSystem();
        private final ExportTable table = single(fs, ExportOptions.TRUSTED);
        private final Inode root = fs.getRootInode();
        private final Inode home;
        private final Inode file;

        Permissions() throws IOException {
            home = fs.mkdir(root, "home", ALICE, 0750);
            file = fs.create(home, "f", ALICE, 0640);
            fs.write(file, 0, bytes("data"), WriteStability.FILE_SYNC);
        }

        private PseudoFs as(Credential cred) {
            return table.forCaller(cred, LAN);
        }

        @Test
        void ownerGroupAndOtherClassesDecideReadAndWrite() throws IOException {
            assertThat(as(ALICE).read(file, 0, ByteBuffer.allocate(10)).count()).isEqualTo(4);
            as(ALICE).write(file, 0, bytes("D"), WriteStability.FILE_SYNC);
            assertThat(as(BOB).read(file, 0, ByteBuffer.allocate(10)).count()).isEqualTo(4);
            assertStatus(() -> as(BOB).write(file, 0, bytes("x"), WriteStability.FILE_SYNC), NfsStatus.ACCESS);
            assertStatus(() -> as(CAROL).read(file, 0, ByteBuffer.allocate(10)), NfsStatus.ACCESS);
            assertThat(as(ROOT).read(file, 0, ByteBuffer.allocate(10)).count()).isEqualTo(4);
        }

        @Test
        void ownerClassIsUsedEvenWhenGroupWouldAllowMore() throws IOException {
            fs.setattr(file, SetAttributes.NONE.withMode(0070));
            fs.setattr(home, SetAttributes.NONE.withMode(0070));
            assertStatus(() -> as(ALICE).lookup(home, "f"), NfsStatus.ACCESS);
            assertThat(as(BOB).lookup(home, "f")).isEqualTo(file);
        }

        @Test
        void lookupNeedsSearchPermissionOnTheDirectory() throws IOException {
            assertThat(as(BOB).lookup(home, "f")).isEqualTo(file);
            assertStatus(() -> as(CAROL).lookup(home, "f"), NfsStatus.ACCESS);
            assertStatus(() -> as(CAROL).list(home, ZERO_VERIFIER, 0, 10), NfsStatus.ACCESS);
            assertStatus(() -> as(CAROL).parentOf(home), NfsStatus.ACCESS);
            assertThat(as(ROOT).lookup(home, "f")).isEqualTo(file);
        }

        @Test
        void createAndRemoveNeedWriteAndSearchOnTheDirectory() throws IOException {
            assertStatus(() -> as(BOB).create(home, "g", BOB, 0644), NfsStatus.ACCESS);
            assertStatus(() -> as(BOB).remove(home, "f"), NfsStatus.ACCESS);
            assertStatus(() -> as(BOB).mkdir(home, "g", BOB, 0755), NfsStatus.ACCESS);
            assertStatus(() -> as(BOB).symlink(home, "g", "t", BOB, 0777), NfsStatus.ACCESS);
            Inode g = as(ALICE).create(home, "g", ALICE, 0644);
            assertThat(fs.getattr(g).uid()).isEqualTo(1000);
            as(ALICE).remove(home, "g");
            assertStatus(() -> fs.lookup(home, "g"), NfsStatus.NOENT);
        }

        @Test
        void renameAndLinkNeedWriteOnBothDirectories() throws IOException {
            Inode open = fs.mkdir(root, "open", ROOT, 0777);
            assertStatus(() -> as(BOB).rename(home, "f", open, "f"), NfsStatus.ACCESS);
            assertStatus(() -> as(BOB).link(file, home, "f2"), NfsStatus.ACCESS);
            as(BOB).link(file, open, "bobs-link");
            as(ALICE).rename(home, "f", open, "moved");
            assertThat(fs.lookup(open, "moved")).isEqualTo(file);
        }

        @Test
        void stickyDirectoryOnlyLetsOwnersRemoveOrRename() throws IOException {
            Inode tmp = fs.mkdir(root, "tmp", ROOT, 01777);
            as(ALICE).create(tmp, "alices", ALICE, 0666);
            as(BOB).create(tmp, "bobs", BOB, 0666);
            assertStatus(() -> as(BOB).remove(tmp, "alices"), NfsStatus.PERM);
            assertStatus(() -> as(BOB).rename(tmp, "alices", tmp, "stolen"), NfsStatus.PERM);
            assertStatus(() -> as(ALICE).rename(tmp, "alices", tmp, "bobs"), NfsStatus.PERM);
            as(BOB).rename(tmp, "bobs", tmp, "bobs2");
            as(ALICE).remove(tmp, "alices");
            as(ROOT).remove(tmp, "bobs2");
            assertThat(fs.list(tmp, ZERO_VERIFIER, 0, 10).entries()).isEmpty();
        }

        @Test
        void stickyDirectoryOwnerMayRemoveOthersFiles() throws IOException {
            Inode tmp = fs.mkdir(root, "tmp", ALICE, 01777);
            as(BOB).create(tmp, "bobs", BOB, 0666);
            as(ALICE).remove(tmp, "bobs");
            assertStatus(() -> fs.lookup(tmp, "bobs"), NfsStatus.NOENT);
        }

        @Test
        void movingADirectoryToAnotherParentNeedsWriteOnIt() throws IOException {
            Inode open = fs.mkdir(root, "open", ROOT, 0777);
            fs.mkdir(open, "alices", ALICE, 0755);
            Inode other = fs.mkdir(root, "other", ROOT, 0777);
            assertStatus(() -> as(BOB).rename(open, "alices", other, "x"), NfsStatus.ACCESS);
            as(BOB).rename(open, "alices", open, "renamed-in-place");
            as(ALICE).rename(open, "renamed-in-place", other, "x");
        }

        @Test
        void ownerMayWriteAFileWithoutWriteBitsButOthersMayNot() throws IOException {
            fs.setattr(file, SetAttributes.NONE.withMode(0444));
            as(ALICE).write(file, 0, bytes("x"), WriteStability.FILE_SYNC);
            as(ALICE).setattr(file, SetAttributes.NONE.withSize(1L));
            assertThat(fs.getattr(file).size()).isEqualTo(1);
            fs.setattr(file, SetAttributes.NONE.withMode(0666));
            fs.setattr(home, SetAttributes.NONE.withMode(0755));
            as(CAROL).write(file, 0, bytes("y"), WriteStability.FILE_SYNC);
            fs.setattr(file, SetAttributes.NONE.withMode(0644));
            assertStatus(() -> as(CAROL).setattr(file, SetAttributes.NONE.withSize(0L)), NfsStatus.ACCESS);
        }

        @Test
        void onlyOwnerOrRootChangesModeAndOnlyRootChangesOwner() throws IOException {
            assertStatus(() -> as(BOB).setattr(file, SetAttributes.NONE.withMode(0777)), NfsStatus.PERM);
            as(ALICE).setattr(file, SetAttributes.NONE.withMode(0600));
            assertThat(fs.getattr(file).mode()).isEqualTo(0600);
            assertStatus(() -> as(ALICE).setattr(file, SetAttributes.NONE.withOwner(1001, null)), NfsStatus.PERM);
            as(ALICE).setattr(file, SetAttributes.NONE.withOwner(1000, null));
            as(ROOT).setattr(file, SetAttributes.NONE.withOwner(1001, null));
            assertThat(fs.getattr(file).uid()).isEqualTo(1001);
        }

        @Test
        void ownerMayChangeGroupOnlyToOneOfItsGroups() throws IOException {
            as(ALICE).setattr(file, SetAttributes.NONE.withOwner(null, 300));
            assertThat(fs.getattr(file).gid()).isEqualTo(300);
            assertStatus(() -> as(ALICE).setattr(file, SetAttributes.NONE.withOwner(null, 200)), NfsStatus.PERM);
            assertStatus(() -> as(BOB).setattr(file, SetAttributes.NONE.withOwner(null, 100)), NfsStatus.PERM);
        }

        @Test
        void chownDropsSetUidAndNonMemberCannotSetSetGid() throws IOException {
            fs.setattr(file, SetAttributes.NONE.withMode(06755));
            as(ROOT).setattr(file, SetAttributes.NONE.withOwner(1001, null));
            assertThat(fs.getattr(file).mode()).isEqualTo(0755);
            Inode own = fs.create(home, "own", ALICE, 0644);
            as(ALICE).setattr(own, SetAttributes.NONE.withOwner(null, 300));
            fs.setattr(own, SetAttributes.NONE.withOwner(null, 200));
            as(ALICE).setattr(own, SetAttributes.NONE.withMode(02755));
            assertThat(fs.getattr(own).mode()).isEqualTo(0755);
        }

        @Test
        void explicitTimesNeedOwnershipServerTimeNeedsWritePermission() throws IOException {
            TimeChange past = TimeChange.at(Instant.parse("2001-01-01T00:00:00Z"));
            assertStatus(() -> as(BOB).setattr(file, SetAttributes.NONE.withTimes(past, past)), NfsStatus.PERM);
            assertStatus(() -> as(BOB).setattr(file,
                    SetAttributes.NONE.withTimes(TimeChange.serverTime(), TimeChange.serverTime())), NfsStatus.ACCESS);
            as(ALICE).setattr(file, SetAttributes.NONE.withTimes(past, past));
            assertThat(fs.getattr(file).mtime()).isEqualTo(past.at());
            fs.setattr(file, SetAttributes.NONE.withMode(0660));
            as(BOB).setattr(file, SetAttributes.NONE.withTimes(TimeChange.serverTime(), TimeChange.serverTime()));
            assertThat(fs.getattr(file).mtime()).isAfter(past.at());
        }

        @Test
        void rootNeedsSomeExecuteBitToExecute() throws IOException {
            assertThat(as(ROOT).access(file, EnumSet.allOf(AccessRight.class)))
                    .containsExactlyInAnyOrder(AccessRight.READ, AccessRight.MODIFY, AccessRight.EXTEND);
            fs.setattr(file, SetAttributes.NONE.withMode(0641));
            assertThat(as(ROOT).access(file, EnumSet.of(AccessRight.EXECUTE))).containsExactly(AccessRight.EXECUTE);
        }

        @Test
        void accessReportsTheRightsOfEachClass() throws IOException {
            Set<AccessRight> all = EnumSet.allOf(AccessRight.class);
            assertThat(as(ALICE).access(file, all))
                    .containsExactlyInAnyOrder(AccessRight.READ, AccessRight.MODIFY, AccessRight.EXTEND);
            assertThat(as(BOB).access(file, all)).containsExactly(AccessRight.READ);
            assertThat(as(CAROL).access(file, all)).isEmpty();
            assertThat(as(ALICE).access(home, all)).containsExactlyInAnyOrder(AccessRight.READ, AccessRight.LOOKUP,
                    AccessRight.MODIFY, AccessRight.EXTEND, AccessRight.DELETE);
            assertThat(as(BOB).access(home, all)).containsExactlyInAnyOrder(AccessRight.READ, AccessRight.LOOKUP);
            assertThat(as(BOB).access(home, EnumSet.of(AccessRight.DELETE))).isEmpty();
        }

        @Test
        void setGidDirectoryGivesItsGroupToNewObjects() throws IOException {
            Inode project = fs.mkdir(root, "project", ROOT, 0777);
            fs.setattr(project, new SetAttributes(02777, null, 500, null, null, null));
            Inode f = as(ALICE).create(project, "f", ALICE, 0644);
            Inode d = as(ALICE).mkdir(project, "d", ALICE, 0755);
            assertThat(fs.getattr(f).gid()).isEqualTo(500);
            assertThat(fs.getattr(d).gid()).isEqualTo(500);
            assertThat(fs.getattr(d).mode()).isEqualTo(02755);
            Inode plain = as(ALICE).create(home, "plain", ALICE, 0644);
            assertThat(fs.getattr(plain).gid()).isEqualTo(100);
        }

        @Test
        void onlyRootCreatesDevices() throws IOException {
            Inode open = fs.mkdir(root, "open", ROOT, 0777);
            assertStatus(() -> as(ALICE).mknod(open, "sda", FileType.BLOCK, 8, 0, ALICE, 0660), NfsStatus.PERM);
            as(ALICE).mknod(open, "fifo", FileType.FIFO, 0, 0, ALICE, 0644);
            Inode dev = as(ROOT).mknod(open, "null", FileType.CHAR, 1, 3, ROOT, 0666);
            assertThat(fs.getattr(dev).rdevMajor()).isEqualTo(1);
        }
    }

    private static List<String> names(DirectoryListing listing) {
        return listing.entries().stream().map(DirEntry::name).toList();
    }
}

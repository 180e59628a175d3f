package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.ops.StateHarness.bytes;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_BOTH;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_READ;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_WANT_NO_DELEG;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_WRITE;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_DENY_BOTH;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_DENY_NONE;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_DENY_READ;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_DENY_WRITE;
import static org.tcnfs.nfs4.xdr.nfs_lock_type4.READ_LT;
import static org.tcnfs.nfs4.xdr.nfs_lock_type4.WRITEW_LT;
import static org.tcnfs.nfs4.xdr.nfs_lock_type4.WRITE_LT;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.state.OpenStateTable.IoMode;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.WriteStability;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.DELEGRETURN4args;
import org.tcnfs.nfs4.xdr.FREE_STATEID4args;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCK4denied;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.LOCKT4args;
import org.tcnfs.nfs4.xdr.LOCKU4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.OPEN_DOWNGRADE4args;
import org.tcnfs.nfs4.xdr.OPEN_DOWNGRADE4resok;
import org.tcnfs.nfs4.xdr.TEST_STATEID4args;
import org.tcnfs.nfs4.xdr.TEST_STATEID4resok;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.exist_lock_owner4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.lock_owner4;
import org.tcnfs.nfs4.xdr.locker4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_delegation_type4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * OPEN, CLOSE, OPEN_DOWNGRADE, LOCK, LOCKT, LOCKU, TEST_STATEID, FREE_STATEID and DELEGRETURN through the
 * real executor (RFC 8881 sections 8, 9 and 18), with NFSv4.1 sessions set directly on the contexts.
 */
class StateOperationsTest {
    private static final long EOF = -1L;

    private final StateHarness server = new StateHarness();
    private final StateHarness.Client a = server.client(0x1111);
    private final StateHarness.Client b = server.client(0x2222);

    @AfterEach
    void stop() {
        server.close();
    }

    private Inode file(String name) throws Exception {
        return server.fs.lookup(server.fs.getRootInode(), name);
    }

    private static StateId id(stateid4 s) {
        return StateId.of(s);
    }

    private static stateid4 withSeqid(stateid4 s, int seqid) {
        return new stateid4(seqid, s.other.clone());
    }

    // ------------------------------------------------------------------------------------------ OPEN

    @Test
    void openCreatesAMissingFileAndMakesItAndItsStateidCurrent() throws Exception {
        long before = server.fs.getattr(server.fs.getRootInode()).change();
        OPEN4resok res = a.openOk("owner", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);

        assertThat(a.current()).isEqualTo(file("f"));
        assertThat(a.context.currentStateId()).isEqualTo(id(res.stateid));
        assertThat(res.stateid.seqid).isEqualTo(1);
        assertThat(res.rflags).isEqualTo(OPEN4resok.OPEN4_RESULT_LOCKTYPE_POSIX);
        assertThat(res.delegation.delegation_type).isEqualTo(open_delegation_type4.OPEN_DELEGATE_NONE);
        assertThat(res.cinfo.before).isEqualTo(before);
        assertThat(res.cinfo.after).isNotEqualTo(before);
        assertThat(server.fs.getattr(file("f")).type()).isEqualTo(FileType.REGULAR);
    }

    @Test
    void openWithoutCreateOfAMissingNameIsNoEnt() throws Exception {
        assertThat(NfsStatus.of(a.open("o", "missing", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void guardedCreateOfAnExistingNameIsExist() throws Exception {
        a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        nfs_resop4 res = b.open("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.GUARDED4, new fattr4()));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.EXIST);
    }

    @Test
    void createAttributesAreAppliedAndReportedInAttrset() throws Exception {
        nfs_resop4 res = a.open("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.GUARDED4, StateHarness.modeAttr(0600)));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
        assertThat(Bitmaps.toNumbers(((OPEN4resok) res.body).attrset)).containsExactly(nfs4_attr.FATTR4_MODE);
        assertThat(server.fs.getattr(file("f")).mode()).isEqualTo(0600);
    }

    @Test
    void uncheckedOpenWithSizeZeroTruncatesAnExistingFileAndLeavesOtherAttributesAlone() throws Exception {
        Inode f = server.fs.create(server.fs.getRootInode(), "f", Credential.ROOT, 0640);
        server.fs.write(f, 0, ByteBuffer.wrap(new byte[100]), WriteStability.FILE_SYNC);

        fattr4 sizeAndMode = new fattr4(new bitmap4(new int[] {1 << 4, 1 << 1}),
                ByteBuffer.allocate(12).putLong(0).putInt(0777).array());
        nfs_resop4 res = a.open("o", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.UNCHECKED4, sizeAndMode));

        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
        assertThat(Bitmaps.toNumbers(((OPEN4resok) res.body).attrset)).containsExactly(nfs4_attr.FATTR4_SIZE);
        Stat stat = server.fs.getattr(f);
        assertThat(stat.size()).isZero();
        assertThat(stat.mode()).isEqualTo(0640);
    }

    @Test
    void uncheckedOpenOfAnExistingFileWithoutSizeKeepsItsData() throws Exception {
        Inode f = server.fs.create(server.fs.getRootInode(), "f", Credential.ROOT, 0644);
        server.fs.write(f, 0, ByteBuffer.wrap(new byte[10]), WriteStability.FILE_SYNC);
        OPEN4resok res = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        assertThat(Bitmaps.isEmpty(res.attrset)).isTrue();
        assertThat(server.fs.getattr(f).size()).isEqualTo(10);
    }

    @Test
    void truncationIsNotDoneWhenTheOpenIsShareDenied() throws Exception {
        Inode f = server.fs.create(server.fs.getRootInode(), "f", Credential.ROOT, 0644);
        server.fs.write(f, 0, ByteBuffer.wrap(new byte[10]), WriteStability.FILE_SYNC);
        a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_WRITE);

        nfs_resop4 res = b.open("o", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.UNCHECKED4, StateHarness.sizeAttr(0)));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.SHARE_DENIED);
        assertThat(server.fs.getattr(f).size()).isEqualTo(10);
    }

    @Test
    void exclusiveCreateRetransmissionSucceedsAndAnotherVerifierIsExist() throws Exception {
        verifier4 verf = new verifier4(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        nfs_resop4 first = a.open("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE, createhow4.exclusive(verf));
        assertThat(NfsStatus.of(first.status)).isEqualTo(NfsStatus.OK);
        assertThat(Bitmaps.toNumbers(((OPEN4resok) first.body).attrset))
                .containsExactly(nfs4_attr.FATTR4_TIME_ACCESS, nfs4_attr.FATTR4_TIME_MODIFY);

        nfs_resop4 again = a.open("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.exclusive(new verifier4(verf.value.clone())));
        assertThat(NfsStatus.of(again.status)).isEqualTo(NfsStatus.OK);
        assertThat(((OPEN4resok) again.body).stateid.other).isEqualTo(((OPEN4resok) first.body).stateid.other);

        nfs_resop4 other = b.open("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.exclusive(new verifier4(new byte[] {9, 9, 9, 9, 9, 9, 9, 9})));
        assertThat(NfsStatus.of(other.status)).isEqualTo(NfsStatus.EXIST);
    }

    @Test
    void exclusive41CreateAppliesItsAttributesAndRefusesTimes() throws Exception {
        verifier4 verf = new verifier4(new byte[] {0, 0, 0, 7, 0, 0, 0, 9});
        nfs_resop4 res = a.open("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.exclusive41(verf, StateHarness.modeAttr(0604)));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
        assertThat(Bitmaps.toNumbers(((OPEN4resok) res.body).attrset)).containsExactly(nfs4_attr.FATTR4_MODE,
                nfs4_attr.FATTR4_TIME_ACCESS, nfs4_attr.FATTR4_TIME_MODIFY);
        Stat stat = server.fs.getattr(file("f"));
        assertThat(stat.mode()).isEqualTo(0604);
        assertThat(stat.atime().getEpochSecond()).isEqualTo(7);
        assertThat(stat.mtime().getEpochSecond()).isEqualTo(9);

        fattr4 mtimeToServerTime = new fattr4(new bitmap4(new int[] {0, 1 << (nfs4_attr.FATTR4_TIME_MODIFY_SET - 32)}),
                new byte[4]);
        nfs_resop4 refused = a.open("o", "g", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.exclusive41(verf, mtimeToServerTime));
        assertThat(NfsStatus.of(refused.status)).isEqualTo(NfsStatus.INVAL);
        assertThat(server.fs.list(server.fs.getRootInode(), new byte[8], 0, 100).entries())
                .extracting(e -> e.name()).containsExactly("f");
    }

    @Test
    void openOfADirectoryIsIsDirAndOfOtherNonFilesIsSymlink() throws Exception {
        Inode root = server.fs.getRootInode();
        server.fs.mkdir(root, "d", Credential.ROOT, 0755);
        server.fs.symlink(root, "l", "target", Credential.ROOT, 0777);
        server.fs.mknod(root, "p", FileType.FIFO, 0, 0, Credential.ROOT, 0644);
        assertThat(NfsStatus.of(a.open("o", "d", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.ISDIR);
        assertThat(NfsStatus.of(a.open("o", "l", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.SYMLINK);
        assertThat(NfsStatus.of(a.open("o", "p", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.SYMLINK);
    }

    @Test
    void openNamesAreChecked() throws Exception {
        createhow4 how = createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4());
        assertThat(NfsStatus.of(a.open("o", "", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, how).status))
                .isEqualTo(NfsStatus.INVAL);
        assertThat(NfsStatus.of(a.open("o", "..", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, how).status))
                .isEqualTo(NfsStatus.BADNAME);
        assertThat(NfsStatus.of(a.open("o", "a/b", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, how).status))
                .isEqualTo(NfsStatus.BADCHAR);
        assertThat(NfsStatus.of(a.open("o", "x".repeat(256), OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, how)
                .status)).isEqualTo(NfsStatus.NAMETOOLONG);
        assertThat(server.fs.list(server.fs.getRootInode(), new byte[8], 0, 100).entries()).isEmpty();
    }

    @Test
    void openWithAccessZeroIsInvalAndDelegationWishesAreIgnored() throws Exception {
        assertThat(NfsStatus.of(a.open("o", "f", 0, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4())).status)).isEqualTo(NfsStatus.INVAL);
        nfs_resop4 res = a.open("o", "f", OPEN4_SHARE_ACCESS_READ | OPEN4_SHARE_ACCESS_WANT_NO_DELEG,
                OPEN4_SHARE_DENY_NONE, createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void conflictingShareReservationsAreShareDenied() throws Exception {
        a.openOk("oa", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_WRITE);
        assertThat(NfsStatus.of(b.open("ob", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.SHARE_DENIED);
        assertThat(NfsStatus.of(b.open("ob", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_READ, null).status))
                .isEqualTo(NfsStatus.SHARE_DENIED);
        // another open owner of the same client is just as much another owner
        assertThat(NfsStatus.of(a.open("oa2", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.SHARE_DENIED);
        assertThat(NfsStatus.of(b.open("ob", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void aSecondOpenByTheSameOwnerUpgradesTheOpenAndBumpsTheSeqid() throws Exception {
        OPEN4resok first = a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        Inode f = a.current();
        assertThatThrownBy(() -> server.state.opens().checkIo(a.context, id(first.stateid), f, IoMode.WRITE))
                .isInstanceOfSatisfying(NfsException.class, e -> assertThat(e.status()).isEqualTo(NfsStatus.OPENMODE));

        OPEN4resok second = a.openOk("o", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE);
        assertThat(second.stateid.other).isEqualTo(first.stateid.other);
        assertThat(second.stateid.seqid).isEqualTo(2);
        server.state.opens().checkIo(a.context, id(second.stateid), f, IoMode.WRITE);
        assertThatThrownBy(() -> server.state.opens().checkIo(a.context, id(first.stateid), f, IoMode.WRITE))
                .isInstanceOfSatisfying(NfsException.class,
                        e -> assertThat(e.status()).isEqualTo(NfsStatus.OLD_STATEID));
    }

    @Test
    void anonymousWritesAreLockedWhileAnOpenDeniesWrite() throws Exception {
        a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_WRITE);
        Inode f = a.current();
        assertThatThrownBy(() -> server.state.opens().checkIo(b.context, StateId.ANONYMOUS, f, IoMode.WRITE))
                .isInstanceOfSatisfying(NfsException.class, e -> assertThat(e.status()).isEqualTo(NfsStatus.LOCKED));
        server.state.opens().checkIo(b.context, StateId.ANONYMOUS, f, IoMode.READ);
        server.state.opens().checkIo(b.context, StateId.READ_BYPASS, f, IoMode.READ);
    }

    @Test
    void theCreatorMayWriteAFileWhoseModeForbidsItButOthersMayNot() throws Exception {
        nfs_resop4 created = a.open("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.GUARDED4, StateHarness.modeAttr(0444)));
        assertThat(NfsStatus.of(created.status)).isEqualTo(NfsStatus.OK);
        assertThat(NfsStatus.of(b.open("ob", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.ACCESS);
        assertThat(NfsStatus.of(b.open("ob", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void openByFileHandleOpensTheCurrentFile() throws Exception {
        Inode f = server.fs.create(server.fs.getRootInode(), "f", Credential.ROOT, 0644);
        a.putfh(f);
        OPEN4resok res = a.ok(OP_OPEN, new OPEN4args(0, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE,
                new open_owner4(0, bytes("o")), openflag4.noCreate(), open_claim4.byFileHandle()), OPEN4resok.class);
        assertThat(a.current()).isEqualTo(f);
        assertThat(res.stateid.seqid).isEqualTo(1);
    }

    @Test
    void openWithoutASessionIsNotSupported() throws Exception {
        a.context.setSession(null);
        assertThat(NfsStatus.of(a.open("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.NOTSUPP);
    }

    @Test
    void reclaimsOutsideTheGracePeriodAreNoGrace() throws Exception {
        a.putfh(server.fs.create(server.fs.getRootInode(), "f", Credential.ROOT, 0644));
        assertThat(a.status(OP_OPEN, new OPEN4args(0, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE,
                new open_owner4(0, bytes("o")), openflag4.noCreate(), open_claim4.previous(0))))
                .isEqualTo(NfsStatus.NO_GRACE);
        assertThat(a.status(OP_LOCK, new LOCK4args(WRITE_LT, true, 0, 1,
                locker4.existingOwner(new exist_lock_owner4(new stateid4(1, new byte[12]), 0)))))
                .isEqualTo(NfsStatus.NO_GRACE);
    }

    @Test
    void duringGraceOnlyReclaimsAreAcceptedAndNoneCanSucceed() throws Exception {
        try (StateHarness graceful = new StateHarness(Duration.ofHours(1))) {
            StateHarness.Client c = graceful.reclaimingClient(7);
            Inode f = graceful.fs.create(graceful.fs.getRootInode(), "f", Credential.ROOT, 0644);
            assertThat(NfsStatus.of(c.open("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                    .isEqualTo(NfsStatus.GRACE);
            c.putfh(f);
            assertThat(c.status(OP_OPEN, new OPEN4args(0, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE,
                    new open_owner4(0, bytes("o")), openflag4.noCreate(), open_claim4.previous(0))))
                    .isEqualTo(NfsStatus.RECLAIM_BAD);
            assertThat(c.status(OP_LOCK, new LOCK4args(WRITE_LT, false, 0, 1,
                    locker4.existingOwner(new exist_lock_owner4(new stateid4(1, new byte[12]), 0)))))
                    .isEqualTo(NfsStatus.GRACE);
            assertThat(c.status(OP_LOCKT, new LOCKT4args(WRITE_LT, 0, 1, new lock_owner4(0, bytes("l")))))
                    .isEqualTo(NfsStatus.GRACE);
        }
    }

    // ------------------------------------------------------------------------------------------ CLOSE, OPEN_DOWNGRADE

    @Test
    void closeReleasesTheShareReservationAndAnswersTheInvalidStateid() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_BOTH);
        stateid4 closed = a.ok(OP_CLOSE, new CLOSE4args(0, open.stateid), stateid4.class);
        assertThat(id(closed)).isEqualTo(StateId.INVALID);
        assertThat(a.context.currentStateId()).isEqualTo(StateId.INVALID);

        b.openOk("ob", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        a.putfh(file("f"));
        assertThat(a.close(open.stateid)).isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void closeAcceptsTheCurrentStateidMarker() throws Exception {
        a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        assertThat(a.close(StateId.CURRENT.toWire())).isEqualTo(NfsStatus.OK);
    }

    @Test
    void closeOfAnotherClientsOpenOrOfAnotherFileIsBadStateid() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        b.putfh(file("f"));
        assertThat(b.close(open.stateid)).isEqualTo(NfsStatus.BAD_STATEID);
        a.openOk("o", "g", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        assertThat(a.close(open.stateid)).isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void downgradeGoesBackToTheModeOfAnEarlierOpenOnly() throws Exception {
        a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        OPEN4resok both = a.openOk("o", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_WRITE);
        assertThat(NfsStatus.of(b.open("ob", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.SHARE_DENIED);

        OPEN_DOWNGRADE4resok down = a.ok(OP_OPEN_DOWNGRADE,
                new OPEN_DOWNGRADE4args(both.stateid, 0, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE),
                OPEN_DOWNGRADE4resok.class);
        assertThat(down.open_stateid.seqid).isEqualTo(3);
        assertThat(a.context.currentStateId()).isEqualTo(id(down.open_stateid));
        assertThat(NfsStatus.of(b.open("ob", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.OK);

        a.putfh(file("f"));
        assertThat(a.status(OP_OPEN_DOWNGRADE,
                new OPEN_DOWNGRADE4args(down.open_stateid, 0, OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE)))
                .isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void downgradeOfASingleBothOpenToReadIsInval() throws Exception {
        OPEN4resok both = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        assertThat(a.status(OP_OPEN_DOWNGRADE,
                new OPEN_DOWNGRADE4args(both.stateid, 0, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE)))
                .isEqualTo(NfsStatus.INVAL);
    }

    // ------------------------------------------------------------------------------------------ LOCK, LOCKT, LOCKU

    @Test
    void twoOwnersLockingOverlappingRangesAreDeniedWithTheHolder() throws Exception {
        OPEN4resok openA = a.openOk("oa", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        stateid4 lockA = a.lockNewOk(openA.stateid, "lockA", 0, 100);
        assertThat(lockA.seqid).isEqualTo(1);
        assertThat(a.context.currentStateId()).isEqualTo(id(lockA));

        OPEN4resok openB = b.openOk("ob", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        nfs_resop4 res = b.lockNew(openB.stateid, "lockB", READ_LT, 50, 10);

        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.DENIED);
        LOCK4denied denied = (LOCK4denied) res.body;
        assertThat(denied.offset).isZero();
        assertThat(denied.length).isEqualTo(100);
        assertThat(denied.locktype).isEqualTo(WRITE_LT);
        assertThat(denied.owner.clientid).isEqualTo(0x1111);
        assertThat(denied.owner.owner).isEqualTo(bytes("lockA"));

        // a denied new lock owner got no lock stateid: it may still lock elsewhere as a new owner
        nfs_resop4 elsewhere = b.lockNew(openB.stateid, "lockB", WRITEW_LT, 100, EOF);
        assertThat(NfsStatus.of(elsewhere.status)).isEqualTo(NfsStatus.OK);
        assertThat(((LOCK4resok) elsewhere.body).lock_stateid.seqid).isEqualTo(1);
    }

    @Test
    void readLocksOfTwoOwnersCoexist() throws Exception {
        OPEN4resok openA = a.openOk("oa", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        OPEN4resok openB = b.openOk("ob", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        assertThat(NfsStatus.of(a.lockNew(openA.stateid, "la", READ_LT, 0, EOF).status)).isEqualTo(NfsStatus.OK);
        assertThat(NfsStatus.of(b.lockNew(openB.stateid, "lb", READ_LT, 0, EOF).status)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void lockRangesAndTypesAreChecked() throws Exception {
        OPEN4resok read = a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        assertThat(NfsStatus.of(a.lockNew(read.stateid, "l", READ_LT, 5, 0).status)).isEqualTo(NfsStatus.INVAL);
        assertThat(NfsStatus.of(a.lockNew(read.stateid, "l", READ_LT, 100, 0xfffffffffffffffeL).status))
                .isEqualTo(NfsStatus.INVAL);
        assertThat(NfsStatus.of(a.lockNew(read.stateid, "l", 9, 0, 1).status)).isEqualTo(NfsStatus.INVAL);
        assertThat(NfsStatus.of(a.lockNew(read.stateid, "l", WRITE_LT, 0, 1).status)).isEqualTo(NfsStatus.OPENMODE);
        assertThat(NfsStatus.of(a.lockNew(read.stateid, "l", READ_LT, 0xfffffffffffffff0L, 16).status))
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void aLockStateidGrowsWithEachLockAndOldOrFutureSeqidsAreRefused() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        stateid4 lock1 = a.lockNewOk(open.stateid, "l", 0, 10);
        nfs_resop4 second = a.lockExisting(lock1, WRITE_LT, 20, 10);
        stateid4 lock2 = ((LOCK4resok) second.body).lock_stateid;
        assertThat(lock2.seqid).isEqualTo(2);
        assertThat(lock2.other).isEqualTo(lock1.other);

        assertThat(NfsStatus.of(a.lockExisting(lock1, WRITE_LT, 40, 1).status)).isEqualTo(NfsStatus.OLD_STATEID);
        assertThat(NfsStatus.of(a.lockExisting(withSeqid(lock1, 9), WRITE_LT, 40, 1).status))
                .isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(NfsStatus.of(a.lockExisting(withSeqid(lock1, 0), WRITE_LT, 40, 1).status))
                .isEqualTo(NfsStatus.OK);
        // an open stateid is no lock stateid
        assertThat(NfsStatus.of(a.lockExisting(open.stateid, WRITE_LT, 40, 1).status))
                .isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void locktReportsConflictsWithoutCreatingStateAndNeverAgainstTheOwnLocks() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        a.lockNewOk(open.stateid, "la", 10, 10);

        b.putfh(file("f"));
        nfs_resop4 res = b.run(OP_LOCKT, new LOCKT4args(READ_LT, 0, 15, new lock_owner4(0, bytes("lb"))));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.DENIED);
        assertThat(((LOCK4denied) res.body).offset).isEqualTo(10);
        assertThat(((LOCK4denied) res.body).owner.owner).isEqualTo(bytes("la"));
        assertThat(b.status(OP_LOCKT, new LOCKT4args(WRITE_LT, 20, EOF, new lock_owner4(0, bytes("lb")))))
                .isEqualTo(NfsStatus.OK);
        assertThat(a.status(OP_LOCKT, new LOCKT4args(WRITE_LT, 0, EOF, new lock_owner4(0, bytes("la")))))
                .isEqualTo(NfsStatus.OK);
        // same owner name of another client is another owner
        assertThat(b.status(OP_LOCKT, new LOCKT4args(WRITE_LT, 0, EOF, new lock_owner4(0x1111, bytes("la")))))
                .isEqualTo(NfsStatus.DENIED);
        assertThat(b.status(OP_LOCKT, new LOCKT4args(WRITE_LT, 0, 0, new lock_owner4(0, bytes("lb")))))
                .isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void locktOfADirectoryIsIsDir() throws Exception {
        a.putfh(server.fs.getRootInode());
        assertThat(a.status(OP_LOCKT, new LOCKT4args(WRITE_LT, 0, 1, new lock_owner4(0, bytes("l")))))
                .isEqualTo(NfsStatus.ISDIR);
    }

    @Test
    void lockuOfTheMiddleSplitsTheLock() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        stateid4 lock = a.lockNewOk(open.stateid, "la", 0, 100);
        stateid4 after = a.ok(OP_LOCKU, new LOCKU4args(WRITE_LT, 0, lock, 40, 20), stateid4.class);
        assertThat(after.seqid).isEqualTo(2);
        assertThat(a.context.currentStateId()).isEqualTo(id(after));

        b.putfh(file("f"));
        lock_owner4 other = new lock_owner4(0, bytes("lb"));
        assertThat(b.status(OP_LOCKT, new LOCKT4args(WRITE_LT, 40, 20, other))).isEqualTo(NfsStatus.OK);
        LOCK4denied left = (LOCK4denied) b.run(OP_LOCKT, new LOCKT4args(WRITE_LT, 0, 50, other)).body;
        assertThat(left.offset).isZero();
        assertThat(left.length).isEqualTo(40);
        LOCK4denied right = (LOCK4denied) b.run(OP_LOCKT, new LOCKT4args(WRITE_LT, 50, EOF, other)).body;
        assertThat(right.offset).isEqualTo(60);
        assertThat(right.length).isEqualTo(40);

        assertThat(a.status(OP_LOCKU, new LOCKU4args(WRITE_LT, 0, lock, 0, 1))).isEqualTo(NfsStatus.OLD_STATEID);
    }

    @Test
    void closeReleasesTheLocksTakenThroughTheOpen() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        stateid4 lock = a.lockNewOk(open.stateid, "la", 0, EOF);
        assertThat(a.close(open.stateid)).isEqualTo(NfsStatus.OK);

        OPEN4resok openB = b.openOk("ob", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        assertThat(NfsStatus.of(b.lockNew(openB.stateid, "lb", WRITE_LT, 0, EOF).status)).isEqualTo(NfsStatus.OK);
        assertThat(testStateids(a, lock)).containsExactly(NfsStatus.BAD_STATEID.code());
    }

    // ------------------------------------------------------------------------------------------ TEST_STATEID, FREE_STATEID

    private static int[] testStateids(StateHarness.Client c, stateid4... ids) throws Exception {
        return c.ok(OP_TEST_STATEID, new TEST_STATEID4args(ids), TEST_STATEID4resok.class).tsr_status_codes;
    }

    @Test
    void testStateidGivesOneStatusPerStateid() throws Exception {
        a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE);
        byte[] unknown = open.stateid.other.clone();
        unknown[11] ^= 0x55;

        int[] codes = testStateids(a, open.stateid, withSeqid(open.stateid, 1), withSeqid(open.stateid, 0),
                withSeqid(open.stateid, 3), new stateid4(1, unknown), StateId.ANONYMOUS.toWire(),
                StateId.CURRENT.toWire());
        assertThat(Arrays.stream(codes).mapToObj(NfsStatus::of)).containsExactly(NfsStatus.OK,
                NfsStatus.OLD_STATEID, NfsStatus.OK, NfsStatus.BAD_STATEID, NfsStatus.BAD_STATEID,
                NfsStatus.BAD_STATEID, NfsStatus.BAD_STATEID);
        assertThat(testStateids(b, open.stateid)).containsExactly(NfsStatus.BAD_STATEID.code());
    }

    @Test
    void freeStateidOfALockStateidHoldingLocksIsLocksHeldAndFreesItOnceUnlocked() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        stateid4 lock = a.lockNewOk(open.stateid, "la", 0, 10);
        assertThat(a.status(OP_FREE_STATEID, new FREE_STATEID4args(lock))).isEqualTo(NfsStatus.LOCKS_HELD);
        assertThat(a.status(OP_FREE_STATEID, new FREE_STATEID4args(open.stateid))).isEqualTo(NfsStatus.LOCKS_HELD);

        stateid4 unlocked = a.ok(OP_LOCKU, new LOCKU4args(WRITE_LT, 0, lock, 0, EOF), stateid4.class);
        assertThat(a.status(OP_FREE_STATEID, new FREE_STATEID4args(unlocked))).isEqualTo(NfsStatus.OK);
        assertThat(testStateids(a, unlocked, open.stateid))
                .containsExactly(NfsStatus.BAD_STATEID.code(), NfsStatus.OK.code());
        assertThat(a.status(OP_FREE_STATEID, new FREE_STATEID4args(unlocked))).isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void delegreturnIsAlwaysBadStateidAndNeedsAFileHandle() throws Exception {
        assertThat(a.status(OP_DELEGRETURN, new DELEGRETURN4args(new stateid4(1, new byte[12]))))
                .isEqualTo(NfsStatus.NOFILEHANDLE);
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE);
        assertThat(a.status(OP_DELEGRETURN, new DELEGRETURN4args(open.stateid))).isEqualTo(NfsStatus.BAD_STATEID);
    }

    // ------------------------------------------------------------------------------------------ client release

    @Test
    void releasingAClientDropsItsOpensLocksAndStateids() throws Exception {
        OPEN4resok open = a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_WRITE);
        stateid4 lock = a.lockNewOk(open.stateid, "la", 0, EOF);

        server.state.opens().releaseClient(a.client);

        OPEN4resok openB = b.openOk("ob", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        assertThat(NfsStatus.of(b.lockNew(openB.stateid, "lb", WRITE_LT, 0, EOF).status)).isEqualTo(NfsStatus.OK);
        assertThat(testStateids(a, open.stateid, lock))
                .containsExactly(NfsStatus.BAD_STATEID.code(), NfsStatus.BAD_STATEID.code());
    }
}

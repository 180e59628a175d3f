package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.ObjectRef;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.TxnPlan;

/**
 * Which transactional compounds take the light path ({@link LightPath}): one change that is one system call,
 * followed only by operations that cannot fail for the client's arguments or the tree.
 */
class LightPathTest {
    private static final String EXPORT = "exp";
    /** Names that exist in the export root before the compound. */
    private static final Set<String> EXISTING = Set.of("f", "g", "d", "x", "y");

    private final PathResolver resolver = new RootNamesResolver(EXPORT, EXISTING);

    private Optional<String> whyNot(boolean createsAtomically, nfs_argop4... ops) throws IOException {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = 1;
        args.argarray = ops;
        TxnPlan plan = new CompoundPlanner().plan(args, resolver);
        return LightPath.whyNot(plan, args, () -> createsAtomically);
    }

    private Optional<String> whyNot(nfs_argop4... ops) throws IOException {
        return whyNot(true, ops);
    }

    @Test
    void aLoneRemoveTakesTheLightPath() throws IOException {
        assertThat(whyNot(putrootfh(), remove("x"))).isEmpty();
    }

    @Test
    void aRemoveFollowedByGetattrTakesTheLightPath() throws IOException {
        assertThat(whyNot(putrootfh(), remove("x"), getattr())).isEmpty();
    }

    @Test
    void twoRemovesTakeTheFullPath() throws IOException {
        assertThat(whyNot(putrootfh(), remove("x"), remove("y"))).hasValueSatisfying(
                w -> assertThat(w).contains("more than one operation"));
    }

    @Test
    void aRemoveFollowedByALookupThatMayFailTakesTheFullPath() throws IOException {
        assertThat(whyNot(putrootfh(), remove("x"), lookup("f"))).hasValueSatisfying(
                w -> assertThat(w).contains("LOOKUP").contains("may fail"));
    }

    @Test
    void restorefhAfterTheChangeIsLightOnlyWhenAHandleWasSaved() throws IOException {
        assertThat(whyNot(putrootfh(), lookup("f"), savefh(), putrootfh(), link("l"), restorefh(), getattr()))
                .isEmpty();
        assertThat(whyNot(putrootfh(), remove("x"), restorefh())).isPresent();
    }

    @Test
    void aRenameTakesTheFullPathEvenWithinOneDirectory() throws IOException {
        assertThat(whyNot(putrootfh(), savefh(), rename("f", "n"))).hasValueSatisfying(
                w -> assertThat(w).contains("handle row"));
        assertThat(whyNot(putrootfh(), savefh(), lookup("d"), rename("f", "n"))).isPresent();
    }

    @Test
    void aSetattrOfOneCallsAttributesTakesTheLightPath() throws IOException {
        assertThat(whyNot(putrootfh(), lookup("f"), setMode(0644), getattr())).isEmpty();
        assertThat(whyNot(putrootfh(), lookup("f"), setSize(0))).isEmpty();
    }

    @Test
    void aSetattrOfSizeAndModeTakesTheFullPath() throws IOException {
        assertThat(whyNot(putrootfh(), lookup("f"), setSizeAndMode(0, 0644))).hasValueSatisfying(
                w -> assertThat(w).contains("more than one call"));
    }

    @Test
    void anOpenThatCreatesIsLightOnlyWhereTheFileSystemCreatesAtomically() throws IOException {
        assertThat(whyNot(true, putrootfh(), openCreate("n", createmode4.GUARDED4), getfh(), getattr())).isEmpty();
        assertThat(whyNot(true, putrootfh(), openCreate("n", createmode4.UNCHECKED4), getfh())).isEmpty();
        assertThat(whyNot(false, putrootfh(), openCreate("n", createmode4.GUARDED4), getfh())).hasValueSatisfying(
                w -> assertThat(w).contains("then sets its mode"));
    }

    @Test
    void anExclusiveOpenIsLightOnlyWhereTheFileSystemSetsTheVerifierBeforeTheNameAppears() throws IOException {
        assertThat(whyNot(true, putrootfh(), openExclusive("n"), getfh())).isEmpty();
        assertThat(whyNot(false, putrootfh(), openExclusive("n"), getfh())).isPresent();
    }

    @Test
    void anOpenWithOtherCreateAttributesThanModeTakesTheFullPath() throws IOException {
        fattr4 owner = new fattr4(Bitmaps.of(nfs4_attr.FATTR4_OWNER), new byte[] {0, 0, 0, 1, '0', 0, 0, 0});
        nfs_argop4 open = open(openflag4.create(createhow4.withAttributes(createmode4.GUARDED4, owner)), "n");
        assertThat(whyNot(putrootfh(), open)).hasValueSatisfying(w -> assertThat(w).contains("attribute 36"));
    }

    @Test
    void aMkdirTakesTheFullPath() throws IOException {
        assertThat(whyNot(putrootfh(), mkdir("n"))).hasValueSatisfying(w -> assertThat(w).contains("CREATE"));
    }

    @Test
    void aWriteWithinOnePageTakesTheLightPath() throws IOException {
        assertThat(whyNot(putrootfh(), lookup("f"), write(0, 10))).isEmpty();
        assertThat(whyNot(putrootfh(), lookup("f"), write(8192, 4096), getattr())).as("a whole aligned page")
                .isEmpty();
        assertThat(whyNot(putrootfh(), lookup("f"), write(4095, 1))).as("the last byte of a page").isEmpty();
    }

    @Test
    void onlyAnUnstableWriteIsDurableWithItsCommitInsteadOfItsTransaction() throws IOException {
        assertThat(isUnstableWrite(putrootfh(), lookup("f"), write(0, 10, stable_how4.UNSTABLE4), getattr())).isTrue();
        assertThat(isUnstableWrite(putrootfh(), lookup("f"), write(0, 10, stable_how4.FILE_SYNC4))).isFalse();
        assertThat(isUnstableWrite(putrootfh(), lookup("f"), write(0, 10, stable_how4.DATA_SYNC4))).isFalse();
        assertThat(isUnstableWrite(putrootfh(), lookup("f"), setSize(0))).isFalse();
    }

    private boolean isUnstableWrite(nfs_argop4... ops) throws IOException {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = 1;
        args.argarray = ops;
        return LightPath.isUnstableWrite(new CompoundPlanner().plan(args, resolver), args);
    }

    @Test
    void aWriteAcrossAPageBoundaryTakesTheFullPath() throws IOException {
        assertThat(whyNot(putrootfh(), lookup("f"), write(4095, 2))).hasValueSatisfying(
                w -> assertThat(w).contains("WRITE").contains("spans pages"));
        assertThat(whyNot(putrootfh(), lookup("f"), write(0, 4097))).isPresent();
        assertThat(whyNot(putrootfh(), lookup("f"), write(100, 4096))).as("one page long, not aligned").isPresent();
    }

    @Test
    void aWriteFollowedByACloseOrASecondWriteTakesTheFullPath() throws IOException {
        assertThat(whyNot(putrootfh(), lookup("f"), write(0, 10), write(10, 10))).hasValueSatisfying(
                w -> assertThat(w).contains("more than one operation"));
        assertThat(whyNot(putrootfh(), lookup("f"), write(0, 10), lookup("x"))).hasValueSatisfying(
                w -> assertThat(w).contains("may fail"));
    }

    @Test
    void aCompoundThatChangesNothingIsNotLight() throws IOException {
        assertThat(whyNot(putrootfh(), lookup("f"), getattr())).isPresent();
    }

    @Test
    void aRemovedDirectoryIsLightOnlyWhereTheFileSystemRemovesItIntoAPlace() {
        UndoStep file = new UndoStep.MoveBack(1, ObjectRef.at(RelativePath.of("x")), ObjectKind.REGULAR,
                RelativePath.of("rm-1"));
        UndoStep dir = new UndoStep.MoveBack(1, ObjectRef.at(RelativePath.of("x")), ObjectKind.DIRECTORY,
                RelativePath.of("rm-1"));
        COMPOUND4args rmdir = compound(putrootfh(), remove("x"));

        assertThat(LightPath.whyNotSteps(List.of(file), rmdir, () -> false)).isEmpty();
        assertThat(LightPath.whyNotSteps(List.of(dir), rmdir, () -> true)).isEmpty();
        assertThat(LightPath.whyNotSteps(List.of(dir), rmdir, () -> false)).hasValueSatisfying(
                w -> assertThat(w).contains("cannot remove a directory into a place"));
    }

    @Test
    void aDirectoryARenameReplacesRulesTheLightPathOut() {
        UndoStep dir = new UndoStep.MoveBack(2, ObjectRef.at(RelativePath.of("n")), ObjectKind.DIRECTORY,
                RelativePath.of("mv-2"));

        assertThat(LightPath.whyNotSteps(List.of(dir), compound(putrootfh(), savefh(), rename("d", "n")), () -> true))
                .hasValueSatisfying(w -> assertThat(w).contains("moved aside first"));
    }

    private static COMPOUND4args compound(nfs_argop4... ops) {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = 1;
        args.argarray = ops;
        return args;
    }

    private static nfs_argop4 putrootfh() {
        return new nfs_argop4(nfs_opnum4.OP_PUTROOTFH, null);
    }

    private static nfs_argop4 savefh() {
        return new nfs_argop4(nfs_opnum4.OP_SAVEFH, null);
    }

    private static nfs_argop4 restorefh() {
        return new nfs_argop4(nfs_opnum4.OP_RESTOREFH, null);
    }

    private static nfs_argop4 getfh() {
        return new nfs_argop4(nfs_opnum4.OP_GETFH, null);
    }

    private static nfs_argop4 getattr() {
        return new nfs_argop4(nfs_opnum4.OP_GETATTR, new GETATTR4args(Bitmaps.of(nfs4_attr.FATTR4_SIZE)));
    }

    private static nfs_argop4 lookup(String name) {
        return new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args(name));
    }

    private static nfs_argop4 remove(String name) {
        return new nfs_argop4(nfs_opnum4.OP_REMOVE, new REMOVE4args(name));
    }

    private static nfs_argop4 rename(String from, String to) {
        return new nfs_argop4(nfs_opnum4.OP_RENAME, new RENAME4args(from, to));
    }

    private static nfs_argop4 link(String name) {
        return new nfs_argop4(nfs_opnum4.OP_LINK, new LINK4args(name));
    }

    private static nfs_argop4 mkdir(String name) {
        return new nfs_argop4(nfs_opnum4.OP_CREATE,
                new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), name, new fattr4()));
    }

    private static nfs_argop4 write(long offset, int length) {
        return write(offset, length, stable_how4.FILE_SYNC4);
    }

    private static nfs_argop4 write(long offset, int length, int stable) {
        return new nfs_argop4(nfs_opnum4.OP_WRITE,
                new WRITE4args(new stateid4(), offset, stable, ByteBuffer.allocate(length)));
    }

    private static nfs_argop4 setMode(int mode) {
        return new nfs_argop4(nfs_opnum4.OP_SETATTR, new SETATTR4args(new stateid4(),
                new fattr4(Bitmaps.of(nfs4_attr.FATTR4_MODE), ByteBuffer.allocate(4).putInt(mode).array())));
    }

    private static nfs_argop4 setSize(long size) {
        return new nfs_argop4(nfs_opnum4.OP_SETATTR, new SETATTR4args(new stateid4(),
                new fattr4(Bitmaps.of(nfs4_attr.FATTR4_SIZE), ByteBuffer.allocate(8).putLong(size).array())));
    }

    private static nfs_argop4 setSizeAndMode(long size, int mode) {
        byte[] vals = ByteBuffer.allocate(12).putLong(size).putInt(mode).array();
        return new nfs_argop4(nfs_opnum4.OP_SETATTR, new SETATTR4args(new stateid4(),
                new fattr4(Bitmaps.of(nfs4_attr.FATTR4_SIZE, nfs4_attr.FATTR4_MODE), vals)));
    }

    private static nfs_argop4 openCreate(String name, int mode) {
        return open(openflag4.create(createhow4.withAttributes(mode, new fattr4(Bitmaps.of(nfs4_attr.FATTR4_MODE),
                ByteBuffer.allocate(4).putInt(0644).array()))), name);
    }

    private static nfs_argop4 openExclusive(String name) {
        return open(openflag4.create(createhow4.exclusive41(new verifier4(new byte[8]), new fattr4())), name);
    }

    private static nfs_argop4 open(openflag4 how, String name) {
        return new nfs_argop4(nfs_opnum4.OP_OPEN, new OPEN4args(0, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                OPEN4args.OPEN4_SHARE_DENY_NONE, new open_owner4(1, new byte[] {1}), how, open_claim4.byName(name)));
    }
}

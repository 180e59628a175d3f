package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.TxnPlan;

/**
 * Which compounds can have all their undo prepared before they run (TransactionHook, protocol step 2): only
 * those in which every name means the same object from the first operation to the last.
 */
class PreparableUpFrontTest {
    private static final String EXPORT = "exp";
    /** Names that exist in the export root before the compound. */
    private static final Set<String> EXISTING = Set.of("f", "g", "a", "x", "y");

    private final PathResolver resolver = new RootNamesResolver(EXPORT, EXISTING);

    private TxnPlan plan(nfs_argop4... ops) throws IOException {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = 1;
        args.argarray = ops;
        TxnPlan plan = new CompoundPlanner().plan(args, resolver);
        assertThat(plan.isPlannable()).isTrue();
        assertThat(plan.expectedFailure()).isEmpty();
        return plan;
    }

    private static nfs_argop4 putrootfh() {
        return new nfs_argop4(nfs_opnum4.OP_PUTROOTFH, null);
    }

    private static nfs_argop4 savefh() {
        return new nfs_argop4(nfs_opnum4.OP_SAVEFH, null);
    }

    private static nfs_argop4 lookup(String name) {
        return new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args(name));
    }

    private static nfs_argop4 write(long offset, int length) {
        return new nfs_argop4(nfs_opnum4.OP_WRITE,
                new WRITE4args(new stateid4(), offset, stable_how4.FILE_SYNC4, ByteBuffer.allocate(length)));
    }

    private static nfs_argop4 mkdir(String name) {
        return new nfs_argop4(nfs_opnum4.OP_CREATE,
                new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), name, new fattr4()));
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

    @Test
    void writesCreatesAndRemovesOfDistinctNamesArePreparableUpFront() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("f"), write(0, 100), putrootfh(), lookup("g"), write(4096, 10),
                putrootfh(), mkdir("d"), putrootfh(), remove("x"), putrootfh(), mkdir("e"), remove("y"));

        assertThat(plan.writes()).hasSize(2);
        assertThat(plan.creations()).hasSize(2);
        assertThat(plan.removals()).hasSize(2);
        assertThat(TransactionSteps.preparableUpFront(plan)).isTrue();
    }

    @Test
    void aCompoundThatRenamesIsNotPreparableUpFront() throws IOException {
        TxnPlan plan = plan(putrootfh(), savefh(), rename("f", "n"));

        assertThat(plan.renames()).hasSize(1);
        assertThat(TransactionSteps.preparableUpFront(plan)).isFalse();
    }

    @Test
    void aRenameAmongDistinctWritesIsStillNotPreparableUpFront() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("g"), write(0, 1), putrootfh(), savefh(), rename("f", "n"));

        assertThat(TransactionSteps.preparableUpFront(plan)).isFalse();
    }

    @Test
    void removeOfANameThenCreateOfTheSameNameIsNotPreparableUpFront() throws IOException {
        TxnPlan plan = plan(putrootfh(), remove("a"), mkdir("a"));

        assertThat(plan.removals()).hasSize(1);
        assertThat(plan.creations()).hasSize(1);
        assertThat(TransactionSteps.preparableUpFront(plan)).isFalse();
    }

    @Test
    void removeOfANameThenALinkUnderThatNameIsNotPreparableUpFront() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("f"), savefh(), putrootfh(), remove("a"), link("a"));

        assertThat(plan.links()).hasSize(1);
        assertThat(TransactionSteps.preparableUpFront(plan)).isFalse();
    }

    @Test
    void removeThenCreateOfAnotherNameIsPreparableUpFront() throws IOException {
        TxnPlan plan = plan(putrootfh(), remove("a"), mkdir("b"));

        assertThat(plan.creations()).hasSize(1);
        assertThat(TransactionSteps.preparableUpFront(plan)).isTrue();
    }

    @Test
    void aCompoundThatChangesNothingIsPreparableUpFront() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("f"));

        assertThat(plan.mutates()).isFalse();
        assertThat(TransactionSteps.preparableUpFront(plan)).isTrue();
    }

    @Test
    void plansListMutationsInCompoundOrder() throws IOException {
        TxnPlan plan = plan(putrootfh(), remove("a"), mkdir("a"));

        assertThat(plan.mutations()).extracting(m -> m.opIndex()).isSorted();
        assertThat(List.of(plan.mutations().get(0).getClass().getSimpleName())).containsExactly("Removal");
    }
}

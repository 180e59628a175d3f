package org.tcnfs.txn.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.ops.Operations;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.OperationCodecs;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.OperationTable.Descriptor;
import org.tcnfs.txn.plan.OperationTable.Effect;
import org.tcnfs.txn.plan.OperationTable.StateOnRollback;

/**
 * One place per operation (issue 13, item 6): every operation the server runs has a descriptor saying what it
 * locks and changes and how its changes are undone, and the planner follows exactly the operations the table
 * knows.
 */
class OperationTableTest {

    private static String names(Set<Integer> opcodes) {
        Set<String> names = new TreeSet<>();
        opcodes.forEach(op -> names.add(nfs_opnum4.name(op)));
        return names.toString();
    }

    @Test
    void everyOperationTheServerRunsIsPlannedOrMarkedReadOnly() {
        Set<Integer> missing = new HashSet<>(Operations.all().keySet());
        OperationTable.all().forEach(d -> missing.remove(d.opcode()));
        assertThat(missing).as("operations in Operations.all() without a descriptor in OperationTable: %s",
                names(missing)).isEmpty();
    }

    @Test
    void everyOperationTheServerCanDecodeHasADescriptor() {
        Set<Integer> missing = new TreeSet<>();
        for (int op = 0; op < 100; op++) {
            if (OperationCodecs.knows(op) && OperationTable.find(op).isEmpty()) {
                missing.add(op);
            }
        }
        assertThat(missing).as("decodable operations without a descriptor: %s", names(missing)).isEmpty();
    }

    @Test
    void anOperationThatChangesObjectsNamesItsMutationsAndTheirUndoSteps() {
        for (Descriptor d : OperationTable.all()) {
            if (d.effect() == Effect.CHANGES_OBJECTS) {
                assertThat(d.mutations()).as(d.name()).isNotEmpty();
                assertThat(d.undoSteps()).as(d.name()).isNotEmpty();
            } else {
                assertThat(d.mutations()).as(d.name()).isEmpty();
                assertThat(d.undoSteps()).as(d.name()).isEmpty();
            }
        }
    }

    @Test
    void everyKindOfMutationAndUndoStepBelongsToAnOperation() {
        Set<Class<?>> mutations = new HashSet<>();
        Set<Class<?>> steps = new HashSet<>();
        for (Descriptor d : OperationTable.all()) {
            mutations.addAll(d.mutations());
            steps.addAll(d.undoSteps());
        }
        assertThat(mutations).containsExactlyInAnyOrder(Mutation.class.getPermittedSubclasses());
        assertThat(steps).containsExactlyInAnyOrder(UndoStep.class.getPermittedSubclasses());
    }

    /** Each operation of the table, with empty arguments, after a PUTFH: the planner follows it or stops at it. */
    @Test
    void thePlannerFollowsEveryOperationInTheTable() throws IOException {
        MapResolver resolver = MapResolver.rootedAt("e");
        Inode dir = resolver.add(ObjectPath.root("e").child("d"));
        CompoundPlanner planner = new CompoundPlanner();
        for (Descriptor d : OperationTable.all()) {
            nfs_argop4 op = new nfs_argop4(d.opcode(), OperationCodecs.newArgs(d.opcode()));
            TxnPlan plan = planner.plan(Ops.compound(Ops.putfh(dir), op), resolver);
            assertThat(plan.unplannable()).as("%s is in the table but not planned", d.name()).isEmpty();
            if (d.effect() != Effect.CHANGES_OBJECTS) {
                assertThat(plan.mutations()).as("%s is marked %s", d.name(), d.effect()).isEmpty();
            }
        }
    }

    @Test
    void anOperationWithoutADescriptorMakesTheCompoundUnplannable() throws IOException {
        MapResolver resolver = MapResolver.rootedAt("e");
        Inode dir = resolver.add(ObjectPath.root("e").child("d"));
        int allocate = 59; // NFSv4.2 ALLOCATE: not (yet) known
        assertThat(OperationTable.find(allocate)).isEmpty();
        TxnPlan plan = new CompoundPlanner().plan(Ops.compound(Ops.putfh(dir), Ops.op(allocate)), resolver);
        assertThat(plan.unplannable()).isPresent();
        assertThat(plan.unplannable().get().opIndex()).isEqualTo(1);
        assertThat(plan.unplannable().get().reason()).contains("no descriptor");
    }

    /**
     * The state journal (StateJournal, merged with issue 13 item 2) puts back every open, share and lock
     * state a rolled-back compound created or changed: no open or lock operation is "kept" any more, and
     * only session and client operations leave their state as they made it.
     */
    @Test
    void rollbackRestoresTheStateOfEveryOpenAndLockOperationAndKeepsOnlySessionAndClientState() {
        Set<Integer> restored = Set.of(nfs_opnum4.OP_OPEN, nfs_opnum4.OP_CLOSE, nfs_opnum4.OP_OPEN_DOWNGRADE,
                nfs_opnum4.OP_OPEN_CONFIRM, nfs_opnum4.OP_LOCK, nfs_opnum4.OP_LOCKU, nfs_opnum4.OP_FREE_STATEID,
                nfs_opnum4.OP_RELEASE_LOCKOWNER);
        Set<Integer> kept = Set.of(nfs_opnum4.OP_SEQUENCE, nfs_opnum4.OP_EXCHANGE_ID, nfs_opnum4.OP_CREATE_SESSION,
                nfs_opnum4.OP_DESTROY_SESSION, nfs_opnum4.OP_DESTROY_CLIENTID, nfs_opnum4.OP_BIND_CONN_TO_SESSION,
                nfs_opnum4.OP_BACKCHANNEL_CTL, nfs_opnum4.OP_RECLAIM_COMPLETE, nfs_opnum4.OP_RENEW,
                nfs_opnum4.OP_SETCLIENTID, nfs_opnum4.OP_SETCLIENTID_CONFIRM);
        for (Descriptor d : OperationTable.all()) {
            StateOnRollback expected = restored.contains(d.opcode()) ? StateOnRollback.RESTORED
                    : kept.contains(d.opcode()) ? StateOnRollback.KEPT : StateOnRollback.NONE;
            assertThat(d.state()).as(d.name()).isEqualTo(expected);
        }
    }

    @Test
    void tableNamesEachOperationOnce() {
        List<Descriptor> all = OperationTable.all();
        assertThat(all.stream().map(Descriptor::opcode).distinct().count()).isEqualTo(all.size());
    }
}

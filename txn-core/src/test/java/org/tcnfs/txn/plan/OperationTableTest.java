package org.tcnfs.txn.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
        for (int opcode : Operations.all().keySet()) {
            Descriptor d = OperationTable.find(opcode).orElseThrow();
            if (d.effect() == Effect.CHANGES_OBJECTS) {
                assertThat(d.operation()).as("%s changes objects: planned by its own class", d.name()).isPresent();
            } else {
                assertThat(d.planner()).as("%s is marked %s: followed by the planner", d.name(), d.effect())
                        .isInstanceOf(OperationTable.Follow.class);
            }
        }
    }

    /**
     * Compounds (after the PUTFH of directory d) in which each operation that changes objects does so: {@link
     * #everyOperationThatChangesObjectsPlansExactlyTheKindsOfMutationItNames} fails for an operation without
     * one here, so a new operation (ALLOCATE, CLONE) comes with its sample.
     */
    private static Map<Integer, List<List<nfs_argop4>>> samples(Inode dir, Inode file) {
        return Map.of(
                nfs_opnum4.OP_WRITE, List.of(List.of(Ops.putfh(file), Ops.write(0, 10))),
                nfs_opnum4.OP_SETATTR, List.of(List.of(Ops.putfh(file), Ops.setSizeAndMode(0, 0600))),
                nfs_opnum4.OP_CREATE, List.of(List.of(Ops.mkdir("n"))),
                nfs_opnum4.OP_REMOVE, List.of(List.of(Ops.remove("f"))),
                nfs_opnum4.OP_RENAME, List.of(List.of(Ops.savefh(), Ops.rename("f", "n"))),
                nfs_opnum4.OP_LINK, List.of(List.of(Ops.putfh(file), Ops.savefh(), Ops.putfh(dir), Ops.link("n"))),
                nfs_opnum4.OP_OPEN, List.of(List.of(Ops.openCreate("n")), List.of(Ops.openTruncate("f"))));
    }

    /**
     * Each operation that changes objects, planned in compounds where it does: the plan follows it to the end,
     * takes a WRITE lock, and lists mutations at its position of exactly the kinds its descriptor names (no
     * other kind, and each named kind in some sample).
     */
    @Test
    void everyOperationThatChangesObjectsPlansExactlyTheKindsOfMutationItNames() throws IOException {
        MapResolver resolver = MapResolver.rootedAt("e");
        ObjectPath d = ObjectPath.root("e").child("d");
        Inode dir = resolver.add(d);
        Inode file = resolver.add(d.child("f"));
        Map<Integer, List<List<nfs_argop4>>> samples = samples(dir, file);
        CompoundPlanner planner = new CompoundPlanner();
        for (Descriptor desc : OperationTable.all()) {
            if (desc.effect() != Effect.CHANGES_OBJECTS) {
                assertThat(samples).as("%s changes no objects", desc.name()).doesNotContainKey(desc.opcode());
                continue;
            }
            assertThat(samples).as("%s changes objects but has no sample compound here", desc.name())
                    .containsKey(desc.opcode());
            Set<Class<?>> planned = new HashSet<>();
            for (List<nfs_argop4> sample : samples.get(desc.opcode())) {
                List<nfs_argop4> ops = new java.util.ArrayList<>();
                ops.add(Ops.putfh(dir));
                ops.addAll(sample);
                TxnPlan plan = planner.plan(Ops.compound(ops), resolver);
                int last = ops.size() - 1;
                assertThat(plan.unplannable()).as(desc.name()).isEmpty();
                assertThat(plan.expectedFailure()).as(desc.name()).isEmpty();
                assertThat(ops.get(last).argop).isEqualTo(desc.opcode());
                List<Mutation> mine = plan.mutations().stream().filter(m -> m.opIndex() == last).toList();
                assertThat(mine).as("%s plans no mutation", desc.name()).isNotEmpty();
                mine.forEach(m -> planned.add(m.getClass()));
                assertThat(plan.keys()).as("%s takes no WRITE lock", desc.name())
                        .anyMatch(k -> k.mode() == org.tcnfs.txn.lock.LockMode.WRITE);
            }
            assertThat(planned).as("kinds of mutation %s plans", desc.name())
                    .containsExactlyInAnyOrderElementsOf(desc.mutations());
        }
    }

    /**
     * Each operation marked as changing no object, planned after the PUTFH of a directory with arguments that
     * name an existing entry: it lists no mutation, takes no WRITE lock, and one that locks nothing adds no key.
     */
    @Test
    void everyOperationMarkedReadOnlyOrStateOnlyOnlyReads() throws IOException {
        MapResolver resolver = MapResolver.rootedAt("e");
        ObjectPath d = ObjectPath.root("e").child("d");
        Inode dir = resolver.add(d);
        resolver.add(d.child("f"));
        CompoundPlanner planner = new CompoundPlanner();
        List<PathKey> baseline = planner.plan(Ops.compound(Ops.putfh(dir)), resolver).keys();
        for (Descriptor desc : OperationTable.all()) {
            if (desc.effect() == Effect.CHANGES_OBJECTS) {
                continue;
            }
            nfs_argop4 op = switch (desc.opcode()) {
                case nfs_opnum4.OP_LOOKUP -> Ops.lookup("f");
                case nfs_opnum4.OP_SECINFO -> Ops.secinfo("f");
                case nfs_opnum4.OP_PUTFH -> Ops.putfh(dir);
                default -> new nfs_argop4(desc.opcode(), OperationCodecs.newArgs(desc.opcode()));
            };
            TxnPlan plan = planner.plan(Ops.compound(Ops.putfh(dir), Ops.savefh(), op), resolver);
            assertThat(plan.unplannable()).as(desc.name()).isEmpty();
            assertThat(plan.mutations()).as("%s is marked %s", desc.name(), desc.effect()).isEmpty();
            assertThat(plan.objectKeys()).as("%s is marked %s", desc.name(), desc.effect()).isEmpty();
            assertThat(plan.keys()).as("%s is marked %s", desc.name(), desc.effect())
                    .allMatch(k -> k.mode() == org.tcnfs.txn.lock.LockMode.READ);
            if (desc.locks() == OperationTable.Locks.NONE) {
                assertThat(plan.keys()).as("%s locks nothing", desc.name()).isEqualTo(baseline);
            }
        }
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

package org.tcnfs.txn.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.txn.lock.LockMode.READ;
import static org.tcnfs.txn.lock.LockMode.WRITE;
import static org.tcnfs.txn.plan.Ops.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;

/** The pre-scan of compounds (DESIGN.md, the transaction protocol, step 2). */
class CompoundPlannerTest {
    private static final String EXPORT = "exp";

    private final CompoundPlanner planner = new CompoundPlanner();
    private final MapResolver resolver = MapResolver.rootedAt(EXPORT);

    private static ObjectPath path(String... components) {
        return ObjectPath.of(EXPORT, components);
    }

    private static PathKey key(LockMode mode, String... components) {
        return new PathKey(path(components), mode);
    }

    private TxnPlan plan(nfs_argop4... ops) throws IOException {
        return planner.plan(compound(ops), resolver);
    }

    @Test
    void mkdirThenMkdirBeneathItWriteLocksBothNewNamesAndTheirParents() throws IOException {
        TxnPlan plan = plan(sequence(), putrootfh(), mkdir("a"), putrootfh(), lookup("a"), mkdir("b"));

        assertThat(plan.keys()).containsExactly(key(WRITE), key(WRITE, "a"), key(WRITE, "a", "b"));
        assertThat(plan.creations()).extracting(c -> c.object().path(), Mutation.Creation::type)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(path("a"), FileType.DIRECTORY),
                        org.assertj.core.groups.Tuple.tuple(path("a", "b"), FileType.DIRECTORY));
        assertThat(plan.creations()).allSatisfy(c -> assertThat(c.object().origin()).isEmpty());
        assertThat(plan.expectedFailure()).isEmpty();
        assertThat(plan.coveredOps()).isEqualTo(6);
    }

    @Test
    void createMakesTheNewObjectCurrentSoTheNextCreateGoesInsideIt() throws IOException {
        TxnPlan plan = plan(putrootfh(), mkdir("a"), mkdir("b"), symlink("l", "../x"));

        assertThat(plan.keys()).containsExactly(key(WRITE), key(WRITE, "a"), key(WRITE, "a", "b"),
                key(WRITE, "a", "b", "l"));
    }

    @Test
    void paperExampleWriteLocksTheThreeFilesAndReadLocksTheirDirectory() throws IOException {
        List<nfs_argop4> ops = new ArrayList<>(List.of(sequence(), putrootfh(), lookup("etc"), savefh()));
        for (String file : List.of("passwd", "group", "shadow")) {
            ops.addAll(List.of(restorefh(), open(file), write(0, 512), getattr(), close()));
        }
        TxnPlan plan = planner.plan(compound(ops), resolver);

        assertThat(plan.keys()).containsExactly(key(READ), key(READ, "etc"), key(WRITE, "etc", "group"),
                key(WRITE, "etc", "passwd"), key(WRITE, "etc", "shadow"));
        assertThat(plan.writes()).extracting(w -> w.file().path())
                .containsExactly(path("etc", "passwd"), path("etc", "group"), path("etc", "shadow"));
        assertThat(plan.writes()).allSatisfy(w -> {
            assertThat(w.offset()).isZero();
            assertThat(w.length()).isEqualTo(512);
        });
        assertThat(plan.mutates()).isTrue();
        assertThat(plan.coveredOps()).isEqualTo(ops.size());
    }

    @Test
    void renameOfADirectoryWriteLocksBothParentsAndBothNames() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("src"), savefh(), putrootfh(), lookup("dst"), rename("d", "e"));

        assertThat(plan.keys()).containsExactly(key(READ), key(WRITE, "dst"), key(WRITE, "dst", "e"),
                key(WRITE, "src"), key(WRITE, "src", "d"));
        assertThat(plan.renames()).singleElement().satisfies(r -> {
            assertThat(r.opIndex()).isEqualTo(5);
            assertThat(r.source()).isEqualTo(ObjectRef.unchanged(path("src", "d")));
            assertThat(r.target()).isEqualTo(ObjectRef.unchanged(path("dst", "e")));
        });
    }

    @Test
    void putfhAfterADirectoryRenameFindsTheObjectUnderItsNewNameAndKeepsItsOrigin() throws IOException {
        Inode file = resolver.add(path("src", "d", "f"));
        TxnPlan plan = plan(putrootfh(), lookup("src"), savefh(), putrootfh(), rename("d", "e"), putfh(file),
                write(0, 10));

        assertThat(plan.modeOf(path("e", "f"))).contains(WRITE);
        assertThat(plan.modeOf(path("src", "d", "f"))).isEmpty();
        assertThat(plan.writes()).singleElement().satisfies(w -> {
            assertThat(w.file().path()).isEqualTo(path("e", "f"));
            assertThat(w.file().origin()).contains(path("src", "d", "f"));
        });
    }

    @Test
    void writeBeneathADirectoryRenamedEarlierInTheCompoundHasThePreCompoundOrigin() throws IOException {
        TxnPlan plan = plan(putrootfh(), savefh(), rename("a", "b"), lookup("b"), open("f"), write(100, 1));

        assertThat(plan.writes()).singleElement().satisfies(w -> {
            assertThat(w.file().path()).isEqualTo(path("b", "f"));
            assertThat(w.file().origin()).contains(path("a", "f"));
        });
    }

    @Test
    void nameCreatedAfterItsOldObjectWasRenamedAwayHasNoOrigin() throws IOException {
        TxnPlan plan = plan(putrootfh(), savefh(), rename("a", "b"), openCreate("a"), write(0, 1));

        assertThat(plan.writes()).singleElement().satisfies(w -> {
            assertThat(w.file().path()).isEqualTo(path("a"));
            assertThat(w.file().origin()).isEmpty();
        });
    }

    @Test
    void saveAndRestoreBringBackTheSavedDirectory() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("a"), savefh(), lookup("b"), getfh(), restorefh(), mkdir("c"));

        assertThat(plan.keys()).containsExactly(key(READ), key(WRITE, "a"), key(READ, "a", "b"),
                key(WRITE, "a", "c"));
    }

    @Test
    void restoreWithNothingSavedStopsThePlanThere() throws IOException {
        TxnPlan plan = plan(putrootfh(), restorefh(), mkdir("c"));

        assertThat(plan.expectedFailure()).hasValueSatisfying(f -> {
            assertThat(f.opIndex()).isEqualTo(1);
            assertThat(f.opName()).isEqualTo("RESTOREFH");
        });
        assertThat(plan.coveredOps()).isEqualTo(2);
        assertThat(plan.creations()).isEmpty();
        assertThat(plan.keys()).containsExactly(key(READ));
    }

    @Test
    void putfhOfAStoredHandleResolvesToItsPathOncePerDistinctHandle() throws IOException {
        Inode dir = resolver.add(path("home", "ann"));
        Inode other = resolver.add(path("tmp"));
        TxnPlan plan = plan(putfh(dir), mkdir("x"), putfh(other), getattr(), putfh(dir), remove("y"));

        assertThat(plan.keys()).containsExactly(key(WRITE, "home", "ann"), key(WRITE, "home", "ann", "x"),
                key(WRITE, "home", "ann", "y"), key(READ, "tmp"));
        assertThat(resolver.resolveCalls).containsExactly(dir, other);
        assertThat(plan.assumptions()).containsExactly(
                new Assumption.HandleResolves(dir, path("home", "ann")),
                new Assumption.HandleResolves(other, path("tmp")),
                new Assumption.PathIdentifies(path("home", "ann", "y"), Optional.empty()));
    }

    @Test
    void unresolvableHandleStopsThePlanAtItsPutfh() throws IOException {
        Inode stale = Inode.of(new byte[] {9, 9, 9});
        TxnPlan plan = plan(putrootfh(), mkdir("a"), putfh(stale), mkdir("b"), write(0, 5));

        assertThat(plan.expectedFailure()).hasValueSatisfying(f -> {
            assertThat(f.opIndex()).isEqualTo(2);
            assertThat(f.opName()).isEqualTo("PUTFH");
        });
        assertThat(plan.keys()).containsExactly(key(WRITE), key(WRITE, "a"));
        assertThat(plan.writes()).isEmpty();
        assertThat(plan.assumptions()).singleElement()
                .isInstanceOf(Assumption.HandleResolves.class)
                .satisfies(a -> assertThat(((Assumption.HandleResolves) a).resolved())
                        .isInstanceOf(ResolvedPath.Unresolvable.class));
    }

    @Test
    void emptyHandleStopsThePlanWithoutAskingTheResolver() throws IOException {
        TxnPlan plan = plan(putfh(Inode.of(new byte[0])), getattr());

        assertThat(plan.expectedFailure()).map(ExpectedFailure::opIndex).contains(0);
        assertThat(resolver.resolveCalls).isEmpty();
    }

    @Test
    void writeRangesAndTruncationsAreCollectedPerFile() throws IOException {
        Inode file = resolver.add(path("data", "f"));
        TxnPlan plan = plan(putfh(file), write(0, 4096), write(8192, 100), write(50, 0), setSizeAndMode(10, 0600),
                openCurrentTruncate(), putrootfh(), lookup("data"), openTruncate("g"), write(0, 3));

        ObjectRef f = ObjectRef.unchanged(path("data", "f"));
        ObjectRef g = ObjectRef.unchanged(path("data", "g"));
        assertThat(plan.writesByFile()).containsOnlyKeys(f, g);
        assertThat(plan.writesByFile().get(f)).extracting(Mutation.Write::offset, Mutation.Write::length)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 4096L),
                        org.assertj.core.groups.Tuple.tuple(8192L, 100L));
        assertThat(plan.sizeChanges()).extracting(Mutation.SizeChange::opIndex, s -> s.file().path(),
                Mutation.SizeChange::newSize, Mutation.SizeChange::cause).containsExactly(
                org.assertj.core.groups.Tuple.tuple(4, path("data", "f"), 10L, Mutation.SizeChange.Cause.SETATTR),
                org.assertj.core.groups.Tuple.tuple(5, path("data", "f"), 0L,
                        Mutation.SizeChange.Cause.OPEN_TRUNCATE),
                org.assertj.core.groups.Tuple.tuple(8, path("data", "g"), 0L,
                        Mutation.SizeChange.Cause.OPEN_TRUNCATE));
        assertThat(plan.attributeChanges()).singleElement().satisfies(a -> {
            assertThat(a.attributes()).containsExactly(nfs4_attr.FATTR4_SIZE, nfs4_attr.FATTR4_MODE);
            assertThat(a.sets(nfs4_attr.FATTR4_MODE)).isTrue();
        });
        assertThat(plan.creations()).singleElement().satisfies(c -> {
            assertThat(c.object()).isEqualTo(g);
            assertThat(c.how()).isEqualTo(Mutation.Creation.How.OPEN_UNCHECKED);
            assertThat(c.how().mayFindExisting()).isTrue();
        });
        assertThat(plan.keys()).containsExactly(key(READ), key(WRITE, "data"), key(WRITE, "data", "f"),
                key(WRITE, "data", "g"));
    }

    @Test
    void openCreateOfAnExistingNameReadLocksItsDirectoryAndAssumesTheName() throws IOException {
        Inode file = resolver.add(path("shared", "s1"));
        TxnPlan plan = plan(sequence(), putrootfh(), lookup("shared"), openTruncate("s1"), write(0, 4096), close());

        assertThat(plan.keys()).containsExactly(key(READ), key(READ, "shared"), key(WRITE, "shared", "s1"));
        assertThat(plan.objectKeys()).extracting(ObjectKey::handle).containsExactly(file);
        assertThat(plan.assumptions()).contains(new Assumption.PathIdentifies(path("shared", "s1"), Optional.of(file)));
        assertThat(plan.creations()).singleElement()
                .satisfies(c -> assertThat(c.how()).isEqualTo(Mutation.Creation.How.OPEN_UNCHECKED));
    }

    @Test
    void openCreateOfAnExistingNameIsPlannedAgainOnceTheNameIsGone() throws IOException {
        resolver.add(path("shared", "s1"));
        TxnPlan plan = plan(putrootfh(), lookup("shared"), openCreate("s1"));
        assertThat(plan.assumptionsHold(resolver)).isTrue();

        resolver.remove(path("shared", "s1"));

        assertThat(plan.assumptionsHold(resolver)).isFalse();
        assertThat(plan(putrootfh(), lookup("shared"), openCreate("s1")).modeOf(path("shared"))).contains(WRITE);
    }

    @Test
    void openCreateOfAMissingNameWriteLocksItsDirectory() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("shared"), openTruncate("s1"), write(0, 1));

        assertThat(plan.keys()).containsExactly(key(READ), key(WRITE, "shared"), key(WRITE, "shared", "s1"));
        assertThat(plan.assumptions()).contains(new Assumption.PathIdentifies(path("shared", "s1"), Optional.empty()));
    }

    @Test
    void openCreateOfANameTheCompoundRemovedWriteLocksItsDirectory() throws IOException {
        resolver.add(path("shared", "s1"));
        TxnPlan plan = plan(putrootfh(), lookup("shared"), remove("s1"), openCreate("s1"));

        assertThat(plan.modeOf(path("shared"))).contains(WRITE);
    }

    @Test
    void openGuardedAndExclusiveOfAnExistingNameStillWriteLockItsDirectory() throws IOException {
        resolver.add(path("shared", "s1"));

        assertThat(plan(putrootfh(), lookup("shared"), openGuarded("s1")).modeOf(path("shared"))).contains(WRITE);
        assertThat(plan(putrootfh(), lookup("shared"), openExclusive("s1")).modeOf(path("shared"))).contains(WRITE);
    }

    @Test
    void writeOfNoBytesOnlyReads() throws IOException {
        Inode file = resolver.add(path("f"));
        TxnPlan plan = plan(putfh(file), write(7, 0));

        assertThat(plan.keys()).containsExactly(key(READ, "f"));
        assertThat(plan.mutates()).isFalse();
    }

    @Test
    void writeEndingBeyondTheLargestFileStopsThePlan() throws IOException {
        Inode file = resolver.add(path("f"));
        TxnPlan plan = plan(putfh(file), write(Long.MAX_VALUE - 1, 2), remove("x"));

        assertThat(plan.expectedFailure()).map(ExpectedFailure::opIndex).contains(1);
        assertThat(plan.mutations()).isEmpty();
    }

    @Test
    void lookuppStepsToTheParentDirectory() throws IOException {
        Inode deep = resolver.add(path("a", "b", "c"));
        TxnPlan plan = plan(putfh(deep), lookupp(), mkdir("x"), lookupp(), lookupp(), lookupp(), getattr());

        assertThat(plan.keys()).containsExactly(key(READ), key(READ, "a"), key(WRITE, "a", "b"),
                key(READ, "a", "b", "c"), key(WRITE, "a", "b", "x"));
        assertThat(plan.expectedFailure()).isEmpty();
    }

    @Test
    void lookuppAboveTheExportRootStopsThePlan() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookupp(), mkdir("x"));

        assertThat(plan.expectedFailure()).map(ExpectedFailure::opName).contains("LOOKUPP");
        assertThat(plan.creations()).isEmpty();
    }

    @Test
    void lookupOfANameThatDoesNotExistYetStillYieldsItsKey() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("missing"), lookup("deeper"), getfh());

        assertThat(plan.keys()).containsExactly(key(READ), key(READ, "missing"), key(READ, "missing", "deeper"));
    }

    @Test
    void invalidNameStopsThePlanAtItsOperation() throws IOException {
        TxnPlan dotdot = plan(putrootfh(), lookup(".."), mkdir("x"));
        TxnPlan slash = plan(putrootfh(), mkdir("a/b"), mkdir("x"));
        TxnPlan nonUtf8 = plan(putrootfh(), remove(null));

        assertThat(dotdot.expectedFailure()).hasValueSatisfying(f -> {
            assertThat(f.opIndex()).isEqualTo(1);
            assertThat(f.reason()).contains("BADNAME");
        });
        assertThat(dotdot.keys()).containsExactly(key(READ));
        assertThat(slash.expectedFailure()).hasValueSatisfying(f -> assertThat(f.reason()).contains("BADCHAR"));
        assertThat(slash.creations()).isEmpty();
        assertThat(nonUtf8.expectedFailure()).hasValueSatisfying(f -> assertThat(f.reason()).contains("INVAL"));
    }

    @Test
    void operationWithoutCurrentFileHandleStopsThePlan() throws IOException {
        TxnPlan plan = plan(sequence(), getattr(), putrootfh(), mkdir("x"));

        assertThat(plan.expectedFailure()).hasValueSatisfying(f -> {
            assertThat(f.opIndex()).isEqualTo(1);
            assertThat(f.reason()).contains("NOFILEHANDLE");
        });
        assertThat(plan.keys()).isEmpty();
    }

    @Test
    void secinfoConsumesTheCurrentFileHandleInNfsv41() throws IOException {
        TxnPlan plan = plan(putrootfh(), secinfo("a"), getattr());

        assertThat(plan.keys()).containsExactly(key(READ), key(READ, "a"));
        assertThat(plan.expectedFailure()).map(ExpectedFailure::opIndex).contains(2);
    }

    @Test
    void operationThePlannerDoesNotKnowMakesTheCompoundUnplannable() throws IOException {
        TxnPlan plan = plan(sequence(), putrootfh(), mkdir("a"), op(nfs_opnum4.OP_OPENATTR), getattr());

        assertThat(plan.isPlannable()).isFalse();
        assertThat(plan.unplannable()).hasValueSatisfying(u -> {
            assertThat(u.opIndex()).isEqualTo(3);
            assertThat(u.opcode()).isEqualTo(nfs_opnum4.OP_OPENATTR);
            assertThat(u.reason()).contains("OPENATTR");
        });
        assertThat(plan.keys()).isEmpty();
        assertThat(plan.mutations()).isEmpty();
        assertThat(plan.mutates()).isTrue();
        assertThat(plan.coveredOps()).isZero();
    }

    @Test
    void operationNumberNobodyKnowsMakesTheCompoundUnplannable() throws IOException {
        TxnPlan plan = plan(putrootfh(), op(nfs_opnum4.OP_CLONE));

        assertThat(plan.unplannable()).map(Unplannable::reason).hasValueSatisfying(r -> assertThat(r).contains("CLONE"));
    }

    @Test
    void illegalOperationStopsThePlanAsItsErrorIsCertain() throws IOException {
        TxnPlan plan = plan(putrootfh(), op(nfs_opnum4.OP_ILLEGAL));

        assertThat(plan.isPlannable()).isTrue();
        assertThat(plan.expectedFailure()).map(ExpectedFailure::opName).contains("ILLEGAL");
    }

    @Test
    void sessionAndStateOperationsHaveNoKeys() throws IOException {
        TxnPlan plan = plan(sequence(), op(nfs_opnum4.OP_RECLAIM_COMPLETE), op(nfs_opnum4.OP_TEST_STATEID));

        assertThat(plan.keys()).isEmpty();
        assertThat(plan.objectKeys()).isEmpty();
        assertThat(plan.mutates()).isFalse();
        assertThat(plan.expectedFailure()).isEmpty();
    }

    @Test
    void pseudoDirectoriesGetNoKeysAndLeadIntoTheExport() throws IOException {
        MapResolver pseudo = MapResolver.withPseudoRoot("export", EXPORT);
        TxnPlan plan = planner.plan(compound(putrootfh(), getattr(), lookup("export"), lookup("x"), mkdir("y"),
                putrootfh(), lookup("export"), lookupp(), getfh()), pseudo);

        assertThat(plan.keys()).containsExactly(key(READ), key(WRITE, "x"), key(WRITE, "x", "y"));
        assertThat(plan.expectedFailure()).isEmpty();
    }

    @Test
    void changeInAPseudoDirectoryStopsThePlan() throws IOException {
        MapResolver pseudo = MapResolver.withPseudoRoot("export", EXPORT);
        TxnPlan mkdirInRoot = planner.plan(compound(putrootfh(), mkdir("y")), pseudo);
        TxnPlan missingName = planner.plan(compound(putrootfh(), lookup("other"), mkdir("y")), pseudo);
        Inode pseudoHandle = pseudo.addPseudo(List.of());
        TxnPlan byHandle = planner.plan(compound(putfh(pseudoHandle), setMode(0777)), pseudo);

        assertThat(mkdirInRoot.expectedFailure()).hasValueSatisfying(f -> assertThat(f.reason()).contains("ROFS"));
        assertThat(missingName.expectedFailure()).hasValueSatisfying(f -> {
            assertThat(f.opIndex()).isEqualTo(1);
            assertThat(f.reason()).contains("NOENT");
        });
        assertThat(byHandle.expectedFailure()).map(ExpectedFailure::opIndex).contains(1);
        assertThat(byHandle.keys()).isEmpty();
    }

    @Test
    void anNfs40OpenThatRetransmitsItsOwnersLastOpenFollowsTheFileOpenedThenAndCreatesNothing() throws IOException {
        Inode opened = resolver.add(path("dir", "d"));
        COMPOUND4args args = compound(putrootfh(), lookup("dir"), openCreate("a"), write(0, 10));
        args.minorversion = 0;
        Retransmissions lastOpenedD = open -> Optional.of(new OwnerSequence.Retransmission(0, opened));

        TxnPlan plan = planner.plan(args, resolver, lastOpenedD);

        assertThat(plan.retransmissions()).containsExactly(2);
        assertThat(plan.creations()).isEmpty();
        assertThat(plan.mutations()).singleElement().isInstanceOfSatisfying(Mutation.Write.class,
                w -> assertThat(w.file().path()).isEqualTo(path("dir", "d")));
        assertThat(plan.objectKeys()).containsExactly(new ObjectKey(EXPORT, opened, WRITE));
        assertThat(plan.modeOf(path("dir", "a"))).isEmpty();

        args.minorversion = 1;
        assertThat(planner.plan(args, resolver, lastOpenedD).retransmissions())
                .as("NFSv4.1 has no open owner seqids").isEmpty();
    }

    @Test
    void aRetransmittedOpenWhoseLastReplyFailedStopsThePlanThere() throws IOException {
        COMPOUND4args args = compound(putrootfh(), openCreate("a"), write(0, 10));
        args.minorversion = 0;

        TxnPlan plan = planner.plan(args, resolver,
                open -> Optional.of(new OwnerSequence.Retransmission(NfsStatus.NOENT.code(), null)));

        assertThat(plan.expectedFailure()).hasValueSatisfying(f -> assertThat(f.opIndex()).isEqualTo(1));
        assertThat(plan.mutations()).isEmpty();
    }

    @Test
    void twoNamesOfOneHardLinkedFileLockTheSameObjectKey() throws IOException {
        Inode file = resolver.add(path("x", "f1"));
        resolver.alias(path("y", "f2"), file);
        TxnPlan byFirstName = plan(putrootfh(), lookup("x"), open("f1"), write(0, 1));
        TxnPlan bySecondName = plan(putrootfh(), lookup("y"), lookup("f2"), setMode(0600));
        TxnPlan byHandle = plan(putfh(file), write(0, 1));

        ObjectKey expected = new ObjectKey(EXPORT, file, WRITE);
        assertThat(byFirstName.objectKeys()).containsExactly(expected);
        assertThat(bySecondName.objectKeys()).containsExactly(expected);
        assertThat(byHandle.objectKeys()).containsExactly(expected);
        assertThat(byFirstName.modeOf(path("x", "f1"))).contains(WRITE);
        assertThat(bySecondName.modeOf(path("y", "f2"))).contains(WRITE);
    }

    @Test
    void lockRequestsCarryThePathKeysAndOneObjectKeyPerFileForTheLockManager() throws IOException {
        Inode file = resolver.add(path("x", "f1"));
        resolver.alias(path("y", "f2"), file);
        TxnPlan first = plan(putrootfh(), lookup("x"), open("f1"), write(0, 1));
        TxnPlan second = plan(putrootfh(), lookup("y"), lookup("f2"), write(0, 1));

        assertThat(first.lockRequests()).containsExactly(LockRequest.read(LockKey.root(EXPORT)),
                LockRequest.read(LockKey.ofPath(EXPORT, "x")), LockRequest.write(LockKey.ofPath(EXPORT, "x", "f1")),
                new ObjectKey(EXPORT, file, WRITE).toLockRequest());
        LockRequest objectLock = first.lockRequests().get(3);
        assertThat(objectLock.key().isObject()).isTrue();
        assertThat(second.lockRequests()).contains(objectLock);
        assertThat(new ObjectKey(EXPORT, resolver.add(path("other")), WRITE).toLockRequest())
                .isNotEqualTo(objectLock);
    }

    @Test
    void identifyIsAskedOncePerChangedPathAndNeverForReadsOrNewNames() throws IOException {
        TxnPlan plan = plan(putrootfh(), lookup("d"), open("f"), write(0, 1), write(1, 1), setMode(0644),
                read(0, 10), putrootfh(), lookup("r"), getattr(), putrootfh(), mkdir("n"), openGuarded("g"),
                write(0, 1));

        assertThat(resolver.identifyCalls).containsExactly(path("d", "f"));
        assertThat(plan.assumptions()).containsExactly(
                new Assumption.PathIdentifies(path("d", "f"), Optional.empty()));
    }

    @Test
    void aNameInTheDirectoryOfAPutfhIsIdentifiedThereAndANameReachedByLookupsFromTheRoot() throws IOException {
        Inode dir = resolver.add(path("d"));
        resolver.add(path("d", "f"));
        resolver.add(path("e", "g"));

        plan(putfh(dir), remove("f"), putrootfh(), lookup("e"), remove("g"));

        assertThat(resolver.identifyCalls).containsExactly(path("d", "f"), path("e", "g"));
        assertThat(resolver.identifyParents).containsExactly(Map.entry(path("d", "f"), dir));
    }

    @Test
    void linkAndRemoveAreListedWithTheirObjects() throws IOException {
        Inode file = resolver.add(path("a", "f"));
        Inode dir = resolver.add(path("b"));
        resolver.add(path("b", "old"));
        TxnPlan plan = plan(putfh(file), savefh(), putfh(dir), link("g"), remove("old"));

        assertThat(plan.links()).singleElement().satisfies(l -> {
            assertThat(l.source()).isEqualTo(ObjectRef.unchanged(path("a", "f")));
            assertThat(l.newName()).isEqualTo(ObjectRef.created(path("b", "g")));
        });
        assertThat(plan.removals()).singleElement()
                .satisfies(r -> assertThat(r.object()).isEqualTo(ObjectRef.unchanged(path("b", "old"))));
        assertThat(plan.keys()).containsExactly(key(WRITE, "a", "f"), key(WRITE, "b"), key(WRITE, "b", "g"),
                key(WRITE, "b", "old"));
        assertThat(plan.objectKeys()).extracting(ObjectKey::handle)
                .containsExactlyInAnyOrder(file, resolver.identify(path("b", "old")).orElseThrow());
    }

    @Test
    void writeThroughANewLinkIdentifiesTheLinkedObject() throws IOException {
        Inode file = resolver.add(path("a", "f"));
        TxnPlan plan = plan(putrootfh(), lookup("a"), lookup("f"), savefh(), lookupp(), link("g"), open("g"),
                write(0, 1));

        assertThat(plan.writes()).singleElement().satisfies(w -> {
            assertThat(w.file().path()).isEqualTo(path("a", "g"));
            assertThat(w.file().origin()).contains(path("a", "f"));
        });
        assertThat(plan.objectKeys()).containsExactly(new ObjectKey(EXPORT, file, WRITE));
    }

    @Test
    void removeThenCreateOfTheSameNameHasNoOrigin() throws IOException {
        TxnPlan plan = plan(putrootfh(), remove("f"), openCreate("f"), write(0, 1));

        assertThat(plan.removals()).singleElement()
                .satisfies(r -> assertThat(r.object().origin()).contains(path("f")));
        assertThat(plan.writes()).singleElement().satisfies(w -> assertThat(w.file().origin()).isEmpty());
    }

    @Test
    void exclusiveAndGuardedOpensAreCreationsOfRegularFiles() throws IOException {
        TxnPlan plan = plan(putrootfh(), openExclusive("e"), putrootfh(), openGuarded("g"));

        assertThat(plan.creations()).extracting(Mutation.Creation::how, Mutation.Creation::type).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Mutation.Creation.How.OPEN_EXCLUSIVE, FileType.REGULAR),
                org.assertj.core.groups.Tuple.tuple(Mutation.Creation.How.OPEN_GUARDED, FileType.REGULAR));
        assertThat(plan.creations().get(0).object().origin()).contains(path("e"));
        assertThat(plan.creations().get(1).object().origin()).isEmpty();
        assertThat(plan.sizeChanges()).isEmpty();
    }

    @Test
    void openWithoutCreateOnlyReads() throws IOException {
        Inode file = resolver.add(path("f"));
        TxnPlan plan = plan(putrootfh(), open("f"), read(0, 100), putfh(file), openCurrent());

        assertThat(plan.keys()).containsExactly(key(READ), key(READ, "f"));
        assertThat(plan.mutates()).isFalse();
        assertThat(plan.objectKeys()).isEmpty();
    }

    @Test
    void renameBetweenExportsStopsThePlan() throws IOException {
        Inode other = resolver.add(ObjectPath.root("other"));
        TxnPlan plan = plan(putrootfh(), savefh(), putfh(other), rename("a", "b"), mkdir("x"));

        assertThat(plan.expectedFailure()).hasValueSatisfying(f -> assertThat(f.reason()).contains("XDEV"));
        assertThat(plan.renames()).isEmpty();
    }

    @Test
    void assumptionsNoLongerHoldOnceAHandleMoved() throws IOException {
        Inode dir = resolver.add(path("a"));
        TxnPlan plan = plan(putfh(dir), mkdir("x"));
        assertThat(plan.assumptionsHold(resolver)).isTrue();

        resolver.move(dir, path("b"));

        assertThat(plan.assumptionsHold(resolver)).isFalse();
    }

    @Test
    void assumptionsNoLongerHoldOnceAChangedPathNamesAnotherObject() throws IOException {
        TxnPlan plan = plan(putrootfh(), remove("f"));
        assertThat(plan.assumptionsHold(resolver)).isTrue();

        resolver.add(path("f"));

        assertThat(plan.assumptionsHold(resolver)).isFalse();
    }

    @Test
    void planningTheSameCompoundTwiceGivesEqualPlans() throws IOException {
        Inode file = resolver.add(path("z", "f"));
        COMPOUND4args args = compound(putrootfh(), mkdir("m"), mkdir("a"), putfh(file), write(0, 9),
                putrootfh(), savefh(), rename("q", "b"), remove("c"));

        assertThat(planner.plan(args, resolver)).isEqualTo(planner.plan(args, resolver));
    }

    @Test
    void aCompoundOf4096OperationsPlansInWellUnderAMillisecondPerOperation() throws IOException {
        List<nfs_argop4> ops = new ArrayList<>();
        ops.add(sequence());
        ops.add(putrootfh());
        ops.add(mkdir("top"));
        ops.add(savefh());
        for (int i = 0; ops.size() + 6 <= 4096; i++) {
            ops.addAll(List.of(restorefh(), openCreate("f" + i), write(0, 16), close(), restorefh(),
                    rename("f" + i, "g" + i)));
        }
        while (ops.size() < 4096) {
            ops.add(getattr());
        }
        COMPOUND4args args = compound(ops);
        for (int warmup = 0; warmup < 5; warmup++) {
            planner.plan(args, resolver);
        }

        long start = System.nanoTime();
        TxnPlan plan = planner.plan(args, resolver);
        long micros = (System.nanoTime() - start) / 1000;

        assertThat(plan.coveredOps()).isEqualTo(4096);
        assertThat(plan.writes()).hasSize(682);
        assertThat(plan.renames()).hasSize(682);
        assertThat(micros).as("microseconds for 4096 operations").isLessThan(4096L * 100);
    }

    @Test
    void aChainOf4096LookupsPlansInWellUnderAMillisecondPerOperation() throws IOException {
        List<nfs_argop4> ops = new ArrayList<>();
        ops.add(putrootfh());
        while (ops.size() < 4095) {
            ops.add(lookup("d" + ops.size()));
        }
        ops.add(mkdir("x"));
        COMPOUND4args args = compound(ops);
        for (int warmup = 0; warmup < 5; warmup++) {
            planner.plan(args, resolver);
        }

        long start = System.nanoTime();
        TxnPlan plan = planner.plan(args, resolver);
        long micros = (System.nanoTime() - start) / 1000;

        assertThat(plan.keys()).hasSize(4096);
        assertThat(plan.keys().get(0)).isEqualTo(key(READ));
        assertThat(plan.keys().get(4095).path().depth()).isEqualTo(4095);
        assertThat(plan.keys().get(4095).mode()).isEqualTo(WRITE);
        assertThat(plan.keys().get(4094).mode()).isEqualTo(WRITE);
        assertThat(plan.keys().get(4093).mode()).isEqualTo(READ);
        assertThat(micros).as("microseconds for 4096 operations").isLessThan(4096L * 100);
    }
}

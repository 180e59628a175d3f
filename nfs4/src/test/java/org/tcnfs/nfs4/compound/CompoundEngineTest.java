package org.tcnfs.nfs4.compound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/** The COMPOUND loop of RFC 8881 15.2 and the hooks, with operations that only record that they ran. */
class CompoundEngineTest {
    private final List<String> trace = new ArrayList<>();
    private final InMemoryFileSystem fs = new InMemoryFileSystem();
    private final ServerContext server = new ServerContext((cred, addr) -> fs,
            new StateHandler(NfsLimits.DEFAULTS, Clock.systemUTC()), NfsLimits.DEFAULTS, Clock.systemUTC());

    private NfsOperation recording(String name) {
        return (ctx, op, res) -> trace.add(name);
    }

    private Map<Integer, NfsOperation> ops() {
        Map<Integer, NfsOperation> ops = new HashMap<>();
        ops.put(OP_SEQUENCE, recording("SEQUENCE"));
        ops.put(OP_PUTROOTFH, recording("PUTROOTFH"));
        ops.put(OP_GETFH, recording("GETFH"));
        ops.put(OP_SAVEFH, recording("SAVEFH"));
        ops.put(OP_EXCHANGE_ID, recording("EXCHANGE_ID"));
        ops.put(OP_REMOVE, (ctx, op, res) -> {
            trace.add("REMOVE");
            throw new NoEntException();
        });
        ops.put(OP_READ, (ctx, op, res) -> {
            throw new IllegalStateException("bug in an operation");
        });
        ops.put(OP_WRITE, (ctx, op, res) -> {
            throw new NoClassDefFoundError("a class the operation needs failed to load");
        });
        return ops;
    }

    private CompoundEngine engine(CompoundHook... hooks) {
        return new CompoundEngine(OperationExecutor.of(ops()), List.of(hooks), Set.of(0, 1));
    }

    private CompoundContext context(int minor) {
        return CompoundContext.builder().server(server).minorVersion(minor).tag("t")
                .credential(Credential.ROOT).clientAddress(InetAddress.getLoopbackAddress())
                .connection(new Object()).build();
    }

    private static COMPOUND4args compound(int minor, int... opcodes) {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "t";
        args.minorversion = minor;
        args.argarray = new nfs_argop4[opcodes.length];
        for (int i = 0; i < opcodes.length; i++) {
            args.argarray[i] = new nfs_argop4(opcodes[i], null);
        }
        return args;
    }

    private static List<NfsStatus> statuses(COMPOUND4res res) {
        List<NfsStatus> list = new ArrayList<>();
        for (nfs_resop4 r : res.resarray) {
            list.add(NfsStatus.of(r.status));
        }
        return list;
    }

    @Test
    void attributesAreReadOncePerObjectUntilAnOperationThatMayChangeSomethingRuns() throws IOException {
        List<Integer> modes = new ArrayList<>();
        Map<Integer, NfsOperation> ops = new HashMap<>();
        ops.put(OP_SEQUENCE, recording("SEQUENCE"));
        ops.put(OP_PUTROOTFH, (ctx, op, res) -> {
            ctx.setCurrentInode(fs.getRootInode());
            modes.add(ctx.getattr(ctx.currentInode()).mode());
        });
        // changes the directory behind the compound's back (as another process on the server could)
        ops.put(OP_GETFH, (ctx, op, res) -> fs.setattr(fs.getRootInode(),
                new SetAttributes(0700, null, null, null, null, null)));
        ops.put(OP_GETATTR, (ctx, op, res) -> modes.add(ctx.getattr(ctx.currentInode()).mode()));
        ops.put(OP_SETATTR, recording("SETATTR"));
        CompoundEngine engine = new CompoundEngine(OperationExecutor.of(ops), List.of(), Set.of(1));
        int before = fs.getattr(fs.getRootInode()).mode() & 07777;

        COMPOUND4res res = engine.process(context(1),
                compound(1, OP_SEQUENCE, OP_PUTROOTFH, OP_GETFH, OP_GETATTR, OP_SETATTR, OP_GETATTR));

        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
        assertThat(modes).as("PUTROOTFH, GETATTR after a read-only op, GETATTR after SETATTR")
                .containsExactly(before, before, 0700);
    }

    @Test
    void aStretchLastsWhileOnlyOperationsThatChangeNothingRunAndNoneIsOpenWhileAnotherOneRuns() {
        List<Long> stretches = new ArrayList<>();
        Map<Integer, NfsOperation> ops = new HashMap<>();
        for (int op : List.of(OP_SEQUENCE, OP_PUTROOTFH, OP_LOOKUP, OP_GETATTR, OP_REMOVE, OP_GETFH)) {
            ops.put(op, (ctx, args, res) -> stretches.add(CompoundScope.stretch()));
        }
        List<Long> hooksSaw = new ArrayList<>();
        CompoundHook hook = new CompoundHook() {
            @Override
            public void beforeOp(CompoundContext context, int index, nfs_argop4 op) {
                hooksSaw.add(CompoundScope.stretch());
            }

            @Override
            public void afterCompound(CompoundContext context, COMPOUND4res res) {
                hooksSaw.add(CompoundScope.stretch());
            }
        };
        CompoundEngine engine = new CompoundEngine(OperationExecutor.of(ops), List.of(hook), Set.of(1));

        engine.process(context(1), compound(1, OP_SEQUENCE, OP_PUTROOTFH, OP_LOOKUP, OP_GETATTR, OP_REMOVE,
                OP_LOOKUP, OP_GETFH));
        long outside = CompoundScope.stretch();

        assertThat(stretches).hasSize(7);
        assertThat(stretches.get(0)).as("SEQUENCE").isNotZero();
        assertThat(stretches.subList(0, 4)).as("SEQUENCE PUTROOTFH LOOKUP GETATTR").containsOnly(stretches.get(0));
        assertThat(stretches.get(4)).as("while REMOVE runs").isZero();
        assertThat(stretches.get(5)).as("LOOKUP after REMOVE").isNotZero().isNotEqualTo(stretches.get(0))
                .isEqualTo(stretches.get(6));
        assertThat(hooksSaw.get(0)).as("the first operation's hooks").isZero();
        assertThat(hooksSaw.get(4)).as("the hooks before REMOVE").isZero();
        assertThat(hooksSaw.get(7)).as("the hooks at the compound's end").isZero();
        assertThat(outside).as("outside a compound").isZero();
    }

    /** The stretches LOOKUP, REMOVE (after {@link CompoundScope#continueOffered()}) and LOOKUP saw, in order. */
    private List<Long> stretchesAroundARemove(boolean hookKeeps, boolean fileSystemSuspends) {
        List<Long> stretches = new ArrayList<>();
        Map<Integer, NfsOperation> ops = new HashMap<>();
        for (int op : List.of(OP_PUTROOTFH, OP_LOOKUP)) {
            ops.put(op, (ctx, args, res) -> stretches.add(CompoundScope.stretch()));
        }
        ops.put(OP_REMOVE, (ctx, args, res) -> {
            CompoundScope.continueOffered();
            stretches.add(CompoundScope.stretch());
            if (fileSystemSuspends) {
                CompoundScope.suspend();
            } else {
                CompoundScope.beginChange();
            }
        });
        CompoundHook hook = new CompoundHook() {
            @Override
            public boolean keepsObjectsAround(CompoundContext context, int index, nfs_argop4 op) {
                return hookKeeps;
            }
        };
        new CompoundEngine(OperationExecutor.of(ops), List.of(hook), Set.of(0))
                .process(context(0), compound(0, OP_PUTROOTFH, OP_LOOKUP, OP_REMOVE, OP_LOOKUP));
        return stretches.subList(1, 4);
    }

    @Test
    void aStretchGoesOnPastARemoveOnlyWhenEveryHookKeepsObjectsAndTheFileSystemSuspendedIt() {
        List<Long> kept = stretchesAroundARemove(true, true);
        assertThat(kept.get(0)).isNotZero();
        assertThat(kept).as("LOOKUP, REMOVE, LOOKUP").containsOnly(kept.get(0));

        List<Long> hookChanges = stretchesAroundARemove(false, true);
        assertThat(hookChanges.get(1)).as("REMOVE after hooks that may change something").isNotZero()
                .isNotEqualTo(hookChanges.get(0));
        assertThat(hookChanges.get(2)).as("LOOKUP after it").isNotZero().isNotIn(hookChanges.subList(0, 2));

        List<Long> ended = stretchesAroundARemove(true, false);
        assertThat(ended.get(1)).as("REMOVE continues the offered stretch").isEqualTo(ended.get(0));
        assertThat(ended.get(2)).as("LOOKUP after a change the file system ended the stretch for").isNotZero()
                .isNotEqualTo(ended.get(0));
    }

    @Test
    void operationsRunInOrderAndTheCompoundStopsAtTheFirstFailure() {
        COMPOUND4res res = engine().process(context(1), compound(1, OP_SEQUENCE, OP_PUTROOTFH, OP_REMOVE, OP_GETFH));
        assertThat(trace).containsExactly("SEQUENCE", "PUTROOTFH", "REMOVE");
        assertThat(statuses(res)).containsExactly(NfsStatus.OK, NfsStatus.OK, NfsStatus.NOENT);
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.NOENT);
        assertThat(res.tag).isEqualTo("t");
    }

    @Test
    void aTagThatIsNotUtf8IsInvalBeforeAnyOperationAndReturnedAsSent() {
        COMPOUND4args args = compound(1, OP_SEQUENCE, OP_PUTROOTFH);
        args.tagBytes = new byte[] {'t', (byte) 0xff, (byte) 0xc0};
        COMPOUND4res res = engine().process(context(1), args);
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.INVAL);
        assertThat(res.resarray).isEmpty();
        assertThat(trace).isEmpty();
        assertThat(res.tagBytes).containsExactly('t', (byte) 0xff, (byte) 0xc0);
    }

    @Test
    void unimplementedOperationIsNotSuppAndIllegalOneIsOpIllegal() {
        COMPOUND4res notImpl = engine().process(context(1), compound(1, OP_SEQUENCE, OP_COMMIT));
        assertThat(statuses(notImpl)).containsExactly(NfsStatus.OK, NfsStatus.NOTSUPP);
        COMPOUND4res illegal = engine().process(context(1), compound(1, OP_SEQUENCE, OP_ILLEGAL, OP_GETFH));
        assertThat(statuses(illegal)).containsExactly(NfsStatus.OK, NfsStatus.OP_ILLEGAL);
        assertThat(illegal.resarray[1].resop).isEqualTo(OP_ILLEGAL);
    }

    @Test
    void aBugInAnOperationIsServerFaultNotAnEscapingException() {
        COMPOUND4res res = engine().process(context(1), compound(1, OP_SEQUENCE, OP_READ));
        assertThat(statuses(res)).containsExactly(NfsStatus.OK, NfsStatus.SERVERFAULT);
    }

    @Test
    void anErrorInAnOperationIsServerFaultAndTheHooksStillEndTheCompound() {
        List<String> hookTrace = new ArrayList<>();
        CompoundHook hook = new CompoundHook() {
            @Override
            public void afterCompound(CompoundContext context, COMPOUND4res res) {
                hookTrace.add("after compound " + NfsStatus.of(res.status));
            }
        };
        COMPOUND4res res = engine(hook).process(context(1), compound(1, OP_SEQUENCE, OP_WRITE, OP_GETFH));
        assertThat(statuses(res)).containsExactly(NfsStatus.OK, NfsStatus.SERVERFAULT);
        assertThat(hookTrace).containsExactly("after compound NFS4ERR_SERVERFAULT");
    }

    @Test
    void unservedMinorVersionIsMinorVersMismatchWithNoResults() {
        COMPOUND4res res = new CompoundEngine(OperationExecutor.of(ops()), List.of(), Set.of(1))
                .process(context(2), compound(2, OP_PUTROOTFH));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.MINOR_VERS_MISMATCH);
        assertThat(res.resarray).isEmpty();
        assertThat(trace).isEmpty();
    }

    @Test
    void emptyCompoundIsOk() {
        COMPOUND4res res = engine().process(context(1), compound(1));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
        assertThat(res.resarray).isEmpty();
    }

    @Test
    void minorVersionOneWithoutSequenceFirstIsOpNotInSession() {
        COMPOUND4res res = engine().process(context(1), compound(1, OP_PUTROOTFH, OP_GETFH));
        assertThat(statuses(res)).containsExactly(NfsStatus.OP_NOT_IN_SESSION);
        assertThat(trace).isEmpty();
    }

    @Test
    void sequenceAfterTheFirstPositionIsSequencePos() {
        COMPOUND4res res = engine().process(context(1), compound(1, OP_SEQUENCE, OP_SEQUENCE));
        assertThat(statuses(res)).containsExactly(NfsStatus.OK, NfsStatus.SEQUENCE_POS);
    }

    @Test
    void sessionlessOperationMustBeTheOnlyOne() {
        assertThat(statuses(engine().process(context(1), compound(1, OP_EXCHANGE_ID))))
                .containsExactly(NfsStatus.OK);
        assertThat(statuses(engine().process(context(1), compound(1, OP_EXCHANGE_ID, OP_PUTROOTFH))))
                .containsExactly(NfsStatus.NOT_ONLY_OP);
    }

    @Test
    void minorVersionZeroNeedsNoSequence() {
        COMPOUND4res res = engine().process(context(0), compound(0, OP_PUTROOTFH, OP_GETFH));
        assertThat(statuses(res)).containsExactly(NfsStatus.OK, NfsStatus.OK);
    }

    @Test
    void hooksSeeTheCompoundAndEveryOperationInOrder() {
        CompoundHook hook = new CompoundHook() {
            @Override
            public void beforeCompound(CompoundContext context, COMPOUND4args args) {
                trace.add("before compound of " + args.argarray.length + " via proc " + context.procedure());
            }

            @Override
            public void beforeOp(CompoundContext context, int index, nfs_argop4 op) {
                trace.add("before " + index);
            }

            @Override
            public void afterOp(CompoundContext context, int index, nfs_argop4 op, nfs_resop4 result) {
                trace.add("after " + index + " " + NfsStatus.of(result.status));
            }

            @Override
            public void afterCompound(CompoundContext context, COMPOUND4res res) {
                trace.add("after compound " + NfsStatus.of(res.status));
            }
        };
        engine(hook).process(context(1), compound(1, OP_SEQUENCE, OP_REMOVE, OP_GETFH));
        assertThat(trace).containsExactly("before compound of 3 via proc 1", "before 0", "SEQUENCE",
                "after 0 NFS4_OK", "before 1", "REMOVE", "after 1 NFS4ERR_NOENT", "after compound NFS4ERR_NOENT");
    }

    @Test
    void hookFailureBeforeAnOperationBecomesThatOperationsStatusAndItDoesNotRun() {
        CompoundHook refusing = new CompoundHook() {
            @Override
            public void beforeOp(CompoundContext context, int index, nfs_argop4 op) throws IOException {
                if (index == 1) {
                    throw new org.tcnfs.nfs4.status.DelayException();
                }
            }
        };
        COMPOUND4res res = engine(refusing).process(context(1), compound(1, OP_SEQUENCE, OP_PUTROOTFH));
        assertThat(statuses(res)).containsExactly(NfsStatus.OK, NfsStatus.DELAY);
        assertThat(trace).containsExactly("SEQUENCE");
    }

    @Test
    void hookFailureAfterTheCompoundReplacesItsStatus() {
        CompoundHook failing = new CompoundHook() {
            @Override
            public void afterCompound(CompoundContext context, COMPOUND4res res) {
                throw new IllegalStateException("commit failed");
            }
        };
        COMPOUND4res res = engine(failing).process(context(1), compound(1, OP_SEQUENCE));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.SERVERFAULT);
    }

    @Test
    void completeReplyIsHandedToTheReplyCacheAndAReplayIsAnsweredFromIt() {
        List<COMPOUND4res> cached = new ArrayList<>();
        Map<Integer, NfsOperation> ops = ops();
        ops.put(OP_SEQUENCE, (ctx, op, res) -> {
            if (!cached.isEmpty()) {
                ctx.setReplay(cached.get(0));
            } else {
                ctx.setReplyCache(cached::add);
            }
        });
        CompoundEngine engine = new CompoundEngine(OperationExecutor.of(ops), List.of(), Set.of(1));
        COMPOUND4res first = engine.process(context(1), compound(1, OP_SEQUENCE, OP_REMOVE));
        COMPOUND4res second = engine.process(context(1), compound(1, OP_SEQUENCE, OP_REMOVE));
        assertThat(second).isSameAs(first);
        assertThat(trace).containsExactly("REMOVE");
    }

    /** Whether the file system was told, during {@code opcodes}, that a LOOKUP may meet a name again. */
    private boolean namesMayRepeatDuring(int... opcodes) {
        List<Boolean> seen = new ArrayList<>();
        Map<Integer, NfsOperation> ops = new HashMap<>();
        for (int op : List.of(OP_SEQUENCE, OP_PUTFH, OP_PUTROOTFH, OP_LOOKUP, OP_LOOKUPP, OP_SAVEFH, OP_RESTOREFH,
                OP_GETATTR, OP_REMOVE)) {
            ops.put(op, (ctx, args, res) -> seen.add(CompoundScope.namesMayRepeat()));
        }
        CompoundEngine engine = new CompoundEngine(OperationExecutor.of(ops), List.of(), Set.of(0, 1));
        COMPOUND4res res = engine.process(context(0), compound(0, opcodes));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
        assertThat(seen).hasSize(opcodes.length).containsOnly(seen.get(0));
        assertThat(CompoundScope.namesMayRepeat()).as("outside a compound").isFalse();
        return seen.get(0);
    }

    @Test
    void aSingleLookupChainIsToldNoNameRepeats() {
        assertThat(namesMayRepeatDuring(OP_PUTFH, OP_LOOKUP, OP_LOOKUP, OP_LOOKUP, OP_GETATTR)).isFalse();
        assertThat(namesMayRepeatDuring(OP_PUTROOTFH, OP_GETATTR, OP_PUTFH, OP_LOOKUP, OP_GETATTR))
                .as("handles set before the only chain").isFalse();
        assertThat(namesMayRepeatDuring(OP_PUTFH, OP_LOOKUP, OP_REMOVE, OP_GETATTR)).isFalse();
    }

    @Test
    void aLookupAfterGoingBackToAHandleIsToldNamesMayRepeat() {
        assertThat(namesMayRepeatDuring(OP_PUTROOTFH, OP_LOOKUP, OP_REMOVE, OP_PUTROOTFH, OP_LOOKUP, OP_REMOVE))
                .as("the driver's rm -rf: one chain from the root per path").isTrue();
        assertThat(namesMayRepeatDuring(OP_PUTFH, OP_SAVEFH, OP_LOOKUP, OP_RESTOREFH, OP_LOOKUP)).isTrue();
        assertThat(namesMayRepeatDuring(OP_PUTFH, OP_LOOKUP, OP_LOOKUPP, OP_LOOKUP)).isTrue();
        assertThat(namesMayRepeatDuring(OP_PUTFH, OP_LOOKUP, OP_PUTFH, OP_GETATTR, OP_LOOKUP)).isTrue();
    }
}

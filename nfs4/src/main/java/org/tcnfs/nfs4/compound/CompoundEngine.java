package org.tcnfs.nfs4.compound;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.XdrSupport;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Runs a COMPOUND (RFC 8881 section 2.10.6 and 15.2): the operations in order, stopping at the first
 * one that fails, with the compound's status that of the last operation run.
 *
 * <p>It enforces the NFSv4.1 session rules that concern the position of operations (SEQUENCE first;
 * EXCHANGE_ID, CREATE_SESSION, DESTROY_SESSION, DESTROY_CLIENTID and BIND_CONN_TO_SESSION allowed without
 * it only as the sole operation), answers a retransmission that SEQUENCE recognized with the cached reply,
 * stores each new reply through {@link CompoundContext#replyCache()}, and calls the {@link CompoundHook}s.
 *
 * <p>Which operations a minor version has: in minor version 0 only ACCESS (3) to RELEASE_LOCKOWNER (39)
 * exist; any other operation number, SEQUENCE and every other NFSv4.1 operation included, is answered
 * NFS4ERR_OP_ILLEGAL with the result's operation number set to ILLEGAL (RFC 7530 15.2, 16.38). In minor
 * version 1 the NFSv4.0 operations that RFC 8881 section 17 lists as "MUST NOT implement" (OPEN_CONFIRM,
 * RENEW, SETCLIENTID, SETCLIENTID_CONFIRM, RELEASE_LOCKOWNER) are answered NFS4ERR_NOTSUPP, the status
 * RFC 8881 gives operations that must not be implemented in the minor version, before the position rules.
 * An NFSv4.0 compound of more operations than {@link NfsLimits#maxOperations()} is answered
 * NFS4ERR_RESOURCE without running any (in NFSv4.1 the session's limit applies, checked by SEQUENCE).
 */
public final class CompoundEngine {
    private static final Logger LOG = LoggerFactory.getLogger(CompoundEngine.class);

    private static final OperationSet SESSIONLESS_OPS = OperationSet.of(OP_EXCHANGE_ID, OP_CREATE_SESSION,
            OP_DESTROY_SESSION, OP_DESTROY_CLIENTID, OP_BIND_CONN_TO_SESSION);
    /** NFSv4.0 operations that NFSv4.1 servers must not implement (RFC 8881 section 17, "MNI"). */
    private static final OperationSet NFS40_ONLY_OPS =
            OperationSet.of(OP_OPEN_CONFIRM, OP_RENEW, OP_SETCLIENTID, OP_SETCLIENTID_CONFIRM, OP_RELEASE_LOCKOWNER);

    private final OperationExecutor executor;
    /** In call order; an array, so that calling them per operation makes no iterator (issue 16, h-warm). */
    private final CompoundHook[] hooks;
    private final Set<Integer> minorVersions;

    /**
     * @param executor runs single operations
     * @param hooks called around the compound and each operation, in list order
     * @param minorVersions the NFSv4 minor versions served; others get NFS4ERR_MINOR_VERS_MISMATCH
     */
    public CompoundEngine(OperationExecutor executor, List<CompoundHook> hooks, Set<Integer> minorVersions) {
        this.executor = Objects.requireNonNull(executor);
        this.hooks = List.copyOf(hooks).toArray(new CompoundHook[0]);
        this.minorVersions = Set.copyOf(minorVersions);
    }

    /** Runs {@code args}; never throws. The file system sees it as one {@link CompoundScope}. */
    public COMPOUND4res process(CompoundContext context, COMPOUND4args args) {
        long outer = CompoundScope.begin(mayRepeatLookups(args.argarray));
        try {
            return processInScope(context, args);
        } finally {
            CompoundScope.end(outer);
        }
    }

    private COMPOUND4res processInScope(CompoundContext context, COMPOUND4args args) {
        COMPOUND4res res = new COMPOUND4res();
        res.tag = args.tag;
        res.tagBytes = args.tagBytes;
        if (!minorVersions.contains(args.minorversion)) {
            res.status = NfsStatus.MINOR_VERS_MISMATCH.code();
            return res;
        }
        if (args.tagBytes != null && !XdrSupport.isUtf8(args.tagBytes)) {
            // the tag is a utf8str_cs: bytes that are not UTF-8 are NFS4ERR_INVAL (RFC 8881 section 14.5, RFC 7530
            // section 12.7), before any operation runs; the reply still carries the tag as it came (RFC 8881
            // section 18.2.3, RFC 7530 section 16.2.3)
            res.status = NfsStatus.INVAL.code();
            return res;
        }
        int count = args.argarray.length;
        if (args.minorversion == 0 && count > context.server().limits().maxOperations()) {
            // NFSv4.0 has no session to negotiate a limit with: a compound beyond the server's is refused
            // whole, before any operation runs (RFC 7530 15.2, NFS4ERR_RESOURCE)
            res.status = NfsStatus.RESOURCE.code();
            return res;
        }
        nfs_resop4[] results = new nfs_resop4[count];
        int ran = 0;
        NfsStatus early = beforeCompound(context, args);
        if (early != null) {
            res.status = early.code();
            return res;
        }
        for (int i = 0; i < count; i++) {
            nfs_argop4 op = args.argarray[i];
            context.setPosition(i, count);
            nfs_resop4 result;
            try {
                result = runOne(context, op, i, count, args);
            } catch (RuntimeException | Error e) {
                // escaped the operation executor (a class that failed to load, the heap exhausted): the compound
                // ends here, and the hooks still run so that its locks are released and a transaction undone
                LOG.error("operation {} ({}) of a compound failed unexpectedly; answering NFS4ERR_SERVERFAULT", i,
                        op.argop, e);
                result = new nfs_resop4(op.argop, NfsStatus.SERVERFAULT.code(), null);
            }
            results[ran++] = result;
            if (i == 0 && context.replay() != null) {
                return context.replay();
            }
            if (result.status != NfsStatus.OK.code()) {
                break;
            }
        }
        res.resarray = ran == count ? results : Arrays.copyOf(results, ran);
        res.status = ran == 0 ? NfsStatus.OK.code() : results[ran - 1].status;
        CompoundScope.beginChange();
        afterCompound(context, res);
        if (context.replyCache() != null) {
            context.replyCache().accept(res);
        }
        return res;
    }

    private nfs_resop4 runOne(CompoundContext context, nfs_argop4 op, int index, int count, COMPOUND4args args) {
        if (op.argop == OP_ILLEGAL || args.minorversion == 0 && !inMinorVersionZero(op.argop)) {
            // before the hooks: no refusal of theirs (a transaction that cannot start, say) may stand in for
            // NFS4ERR_OP_ILLEGAL, the only status of an ILLEGAL result (RFC 7530 16.38, RFC 8881 18.50)
            return new nfs_resop4(OP_ILLEGAL, NfsStatus.OP_ILLEGAL.code(), null);
        }
        if (args.minorversion >= 1 && NFS40_ONLY_OPS.contains(op.argop)) {
            return new nfs_resop4(op.argop, NfsStatus.NOTSUPP.code(), null);
        }
        NfsStatus refused = positionRule(args, op, index, count);
        if (refused != null) {
            return new nfs_resop4(op.argop, refused.code(), null);
        }
        if (!executor.implementsOp(op.argop)) {
            // a defined operation this server does not implement (its arguments were not decoded): NFS4ERR_NOTSUPP
            // (RFC 8881 15.1.1.5), before the hooks, which know only the operations that run
            return new nfs_resop4(op.argop, NfsStatus.NOTSUPP.code(), null);
        }
        boolean keeps = KEEPS_ATTRIBUTES.contains(op.argop);
        long stretch = CompoundScope.stretch();
        if (index == 0 || !keeps) {
            // the hooks of the first operation plan the compound and may back objects up before it runs
            CompoundScope.beginChange();
        }
        for (CompoundHook hook : hooks) {
            try {
                hook.beforeOp(context, index, op);
            } catch (Exception e) {
                NfsStatus s = OperationExecutor.statusOf(e, "compound hook before " + name(op.argop));
                return new nfs_resop4(op.argop, s.code(), null);
            }
        }
        // the stretch before a change may go on past it when the hooks around it change nothing (CompoundScope)
        boolean offered = !keeps && index > 0 && stretch != 0 && hooksKeepObjects(context, index, op);
        if (!keeps) {
            context.forgetAttributes();
            if (offered) {
                CompoundScope.offer(stretch);
            }
        }
        if (keeps && index == 0) {
            CompoundScope.endChange();
        }
        nfs_resop4 result = executor.execute(context, op);
        if (offered) {
            CompoundScope.resume();
        } else if (!keeps) {
            CompoundScope.endChange();
        }
        for (CompoundHook hook : hooks) {
            try {
                hook.afterOp(context, index, op, result);
            } catch (Exception e) {
                OperationExecutor.fail(result, OperationExecutor.statusOf(e, "compound hook after " + name(op.argop)));
            }
        }
        return result;
    }

    /**
     * Whether a LOOKUP of {@code ops} may look up a name it or an earlier LOOKUP looked up in the same directory: only
     * if a LOOKUP follows an operation that puts the current filehandle back somewhere (PUTFH, PUTROOTFH, PUTPUBFH,
     * RESTOREFH, LOOKUPP) after an earlier LOOKUP. A chain of LOOKUPs from one handle (the compounds of kernel clients
     * and libnfs) only goes deeper, and never meets a name twice (RFC 8881 forbids "." and ".." as components).
     */
    static boolean mayRepeatLookups(nfs_argop4[] ops) {
        boolean lookedUp = false;
        boolean movedBack = false;
        for (nfs_argop4 op : ops) {
            switch (op.argop) {
                case OP_LOOKUP -> {
                    if (movedBack) {
                        return true;
                    }
                    lookedUp = true;
                }
                case OP_PUTFH, OP_PUTROOTFH, OP_PUTPUBFH, OP_RESTOREFH, OP_LOOKUPP -> movedBack = lookedUp;
                default -> {
                }
            }
        }
        return false;
    }

    /** Whether every hook said its work before and after operation {@code index} changes no object. */
    private boolean hooksKeepObjects(CompoundContext context, int index, nfs_argop4 op) {
        for (CompoundHook hook : hooks) {
            if (!hook.keepsObjectsAround(context, index, op)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Operations that change no object and no attribute, after which {@link CompoundContext#getattr} may give what
     * it read before (READ is not one: it may set the access time); a run of them is one
     * {@link CompoundScope#stretch()}.
     */
    private static final OperationSet KEEPS_ATTRIBUTES = OperationSet.of(OP_SEQUENCE, OP_PUTFH, OP_PUTROOTFH,
            OP_PUTPUBFH, OP_GETFH, OP_LOOKUP, OP_LOOKUPP, OP_SAVEFH, OP_RESTOREFH, OP_GETATTR, OP_ACCESS, OP_VERIFY,
            OP_NVERIFY, OP_READDIR, OP_READLINK, OP_SECINFO, OP_SECINFO_NO_NAME);

    /** Whether {@code opnum} is an operation of NFSv4.0 (ILLEGAL itself runs, and fails, as usual). */
    private static boolean inMinorVersionZero(int opnum) {
        return opnum == OP_ILLEGAL || (opnum >= OP_ACCESS && opnum <= OP_RELEASE_LOCKOWNER);
    }

    /** The NFSv4.1 rules on where operations may stand; {@code null} when {@code op} may run here. */
    private static NfsStatus positionRule(COMPOUND4args args, nfs_argop4 op, int index, int count) {
        if (args.minorversion == 0 || op.argop == OP_ILLEGAL) {
            return null;
        }
        int first = args.argarray[0].argop;
        if (index == 0) {
            if (first == OP_SEQUENCE) {
                return null;
            }
            if (SESSIONLESS_OPS.contains(first)) {
                return count == 1 ? null : NfsStatus.NOT_ONLY_OP;
            }
            return NfsStatus.OP_NOT_IN_SESSION;
        }
        if (op.argop == OP_SEQUENCE) {
            return NfsStatus.SEQUENCE_POS;
        }
        return null;
    }

    private NfsStatus beforeCompound(CompoundContext context, COMPOUND4args args) {
        for (CompoundHook hook : hooks) {
            try {
                hook.beforeCompound(context, args);
            } catch (Exception e) {
                return OperationExecutor.statusOf(e, "compound hook before compound");
            }
        }
        return null;
    }

    private void afterCompound(CompoundContext context, COMPOUND4res res) {
        for (CompoundHook hook : hooks) {
            try {
                hook.afterCompound(context, res);
            } catch (Exception e) {
                res.status = OperationExecutor.statusOf(e, "compound hook after compound").code();
            }
        }
    }
}

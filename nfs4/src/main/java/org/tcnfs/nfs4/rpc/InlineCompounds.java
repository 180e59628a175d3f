package org.tcnfs.nfs4.rpc;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.util.Set;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.READDIR4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;

/**
 * Which plain COMPOUNDs are short enough to run on the network thread that read them (issue 16: the hand-off
 * to a worker, a thread wake-up, was most of the round trip of a one-operation compound): those whose every
 * operation only reads metadata, changes nothing and flushes nothing (PUTFH, LOOKUP, GETATTR, ACCESS and the
 * like, SEQUENCE), at most {@value #MAX_OPS} of them, with at most one READDIR of at most
 * {@value #MAX_READDIR_BYTES} reply bytes. Such a compound takes no lock while no writer is about (a quiet read)
 * and otherwise only read locks, and {@link RpcCallFilter} runs one inline only while no request is with the
 * workers, so it waits for no other compound, and only when the client waits for it (no further request of the
 * connection arrived with it: requests sent without waiting run side by side on the workers). Anything else (every change, READ, transactions, spanning
 * transactions, calls in records over {@value #MAX_RECORD_BYTES} bytes) goes to the workers as before.
 */
final class InlineCompounds {
    /** The largest record (RPC header and arguments) decoded on the network thread to be judged. */
    static final int MAX_RECORD_BYTES = 2048;
    /**
     * Most operations of a compound run inline. Not more (issue 16, h-inline): 16, enough for libnfs's path walks
     * of 12 names, took a third off a walk's round trip one call at a time, but made fuse-nfs's cp -R and rm -rf
     * slower (rm -rf 2x, paired runs): a walk run here keeps the network thread from reading the calls the client
     * sends meanwhile, which workers would have run side by side.
     */
    static final int MAX_OPS = 8;
    /** The largest READDIR reply (maxcount) a compound run inline may ask for. */
    static final int MAX_READDIR_BYTES = 32 * 1024;

    private static final Set<Integer> READS_METADATA = Set.of(OP_SEQUENCE, OP_PUTFH, OP_PUTROOTFH, OP_PUTPUBFH,
            OP_GETFH, OP_LOOKUP, OP_LOOKUPP, OP_SAVEFH, OP_RESTOREFH, OP_GETATTR, OP_ACCESS, OP_VERIFY, OP_NVERIFY,
            OP_READLINK, OP_SECINFO, OP_SECINFO_NO_NAME);

    private InlineCompounds() {
    }

    /** Whether {@code args} may run on the network thread (see the class comment). */
    static boolean isShort(COMPOUND4args args) {
        nfs_argop4[] ops = args.argarray;
        if (ops.length == 0 || ops.length > MAX_OPS) {
            return false;
        }
        int readdirs = 0;
        for (nfs_argop4 op : ops) {
            if (op.argop == OP_READDIR) {
                if (++readdirs > 1 || !(op.args instanceof READDIR4args r)
                        || Integer.compareUnsigned(r.maxcount, MAX_READDIR_BYTES) > 0) {
                    return false;
                }
            } else if (!READS_METADATA.contains(op.argop)) {
                return false;
            }
        }
        return true;
    }
}

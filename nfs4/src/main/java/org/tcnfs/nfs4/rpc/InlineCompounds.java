package org.tcnfs.nfs4.rpc;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.util.Set;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.READDIR4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.stable_how4;

/**
 * Which plain COMPOUNDs are short enough to run on the network thread that read them (issue 16: the hand-off to a
 * worker and back, two thread wake-ups, was most of the round trip of a one-operation compound), in two kinds:
 * <ul>
 *   <li>{@link Kind#READS}: every operation only reads (PUTFH, LOOKUP, GETATTR, ACCESS and the like, SEQUENCE), with
 *       at most one READDIR of at most {@value #MAX_READDIR_BYTES} reply bytes and at most one READ of at most
 *       {@value #MAX_READ_BYTES} bytes (h-inline2: cp -R of small files). Such a compound takes no lock while no
 *       writer is about (a quiet read) and otherwise only read locks, and flushes nothing.</li>
 *   <li>{@link Kind#CHANGES} (h-inline2): operations that change names, attributes, open state or a few bytes of
 *       data in the export of the compound's PUTFH handles, but never flush by themselves on an {@code async} export
 *       (docs/durability.md, "The async export option"): OPEN (create or not), OPEN_CONFIRM, OPEN_DOWNGRADE, CLOSE,
 *       CREATE, REMOVE, RENAME, LINK, SETATTR and UNSTABLE4 WRITEs of at most {@value #MAX_WRITE_BYTES} bytes of data
 *       in all (what fuse-nfs writes per page), beside PUTFH, SAVEFH, RESTOREFH, GETFH, GETATTR, ACCESS, VERIFY,
 *       NVERIFY and SEQUENCE. Nothing that finds a handle by name or from the root (LOOKUP, LOOKUPP, PUTROOTFH,
 *       PUTPUBFH): the compound's objects stay in the exports of its PUTFH handles, which the caller checks. No
 *       stable WRITE and no COMMIT (they fsync the file on every export). Such a compound takes WRITE locks, so
 *       {@link RpcCallFilter} runs it only when the server's guard says the exports of all its PUTFH handles are
 *       {@code async} and plain for the client (not {@code txn=always}: a transaction writes a record), the handle
 *       table has room for its rows and directory syncs without a commit of its own, and no other compound holds or
 *       waits for a lock, and never beside another inline compound ({@link InlineTurns}).</li>
 * </ul>
 * Either kind has at most {@value #MAX_OPS} operations and comes in a record of at most {@value #MAX_RECORD_BYTES}
 * bytes besides its WRITE data, and runs inline only while no request is with the workers (so no other compound holds
 * a lock it would wait for, and none can hold one until it is done but one handed to a worker by the other network
 * thread in the instant between the check and the locking, which it then waits for, as inline reads always could),
 * and only when the client waits for it (no further request of the connection arrived with it: requests sent
 * without waiting run side by side on the workers). Everything else (COMMIT, stable or large WRITEs, large READs,
 * transactions, spanning transactions, changes on a {@code sync} export) goes to the workers as before. What the
 * network thread may still wait for is the file system itself: an unlink or truncation that frees a large file's
 * extents (REMOVE, RENAME over a file, CLOSE of a removed file, SETATTR of the size), a READ of data not in the page
 * cache.
 */
final class InlineCompounds {
    /** The largest record (RPC header and arguments) run inline, not counting the data of an UNSTABLE4 WRITE. */
    static final int MAX_RECORD_BYTES = 2048;
    /**
     * The most data of the WRITEs of a compound run inline: one page or two, what fuse-nfs sends for each page of a
     * file a program writes (h-inline2: 18,600 WRITEs of about 4 KiB in untar and cp -R of 2,000 small files).
     */
    static final int MAX_WRITE_BYTES = 8 * 1024;
    /** The largest record decoded on the network thread to be judged. */
    static final int MAX_DECODED_RECORD_BYTES = MAX_RECORD_BYTES + MAX_WRITE_BYTES;
    /**
     * Most operations of a compound run inline. Not more (issue 16, h-inline): 16, enough for libnfs's path walks
     * of 12 names, took a third off a walk's round trip one call at a time, but made fuse-nfs's cp -R and rm -rf
     * slower (rm -rf 2x, paired runs): a walk run here keeps the network thread from reading the calls the client
     * sends meanwhile, which workers would have run side by side.
     */
    static final int MAX_OPS = 8;
    /** The largest READDIR reply (maxcount) a compound run inline may ask for. */
    static final int MAX_READDIR_BYTES = 32 * 1024;
    /** The largest READ (count) a compound run inline may ask for: a small file of cp -R in one call. */
    static final int MAX_READ_BYTES = 32 * 1024;

    /** Where a compound may run. */
    enum Kind {
        /** On a worker. */
        WORKER,
        /** Inline: it only reads. */
        READS,
        /** Inline, if the server's guard agrees: it changes, flushing nothing by itself on an {@code async} export. */
        CHANGES
    }

    private static final Set<Integer> READS_METADATA = Set.of(OP_SEQUENCE, OP_PUTFH, OP_PUTROOTFH, OP_PUTPUBFH,
            OP_GETFH, OP_LOOKUP, OP_LOOKUPP, OP_SAVEFH, OP_RESTOREFH, OP_GETATTR, OP_ACCESS, OP_VERIFY, OP_NVERIFY,
            OP_READLINK, OP_SECINFO, OP_SECINFO_NO_NAME);
    /** What a changing compound may use besides its changes: nothing that reaches an object by name or root. */
    private static final Set<Integer> STAYS_IN_EXPORT = Set.of(OP_SEQUENCE, OP_PUTFH, OP_GETFH, OP_SAVEFH,
            OP_RESTOREFH, OP_GETATTR, OP_ACCESS, OP_VERIFY, OP_NVERIFY);
    /** Changes that flush nothing by themselves on an {@code async} export (WRITE only UNSTABLE4: see below). */
    private static final Set<Integer> CHANGES_WITHOUT_FLUSH = Set.of(OP_OPEN, OP_OPEN_CONFIRM, OP_OPEN_DOWNGRADE,
            OP_CLOSE, OP_CREATE, OP_REMOVE, OP_RENAME, OP_LINK, OP_SETATTR, OP_WRITE);

    private InlineCompounds() {
    }

    /** Where {@code args}, which came in a record of {@code recordBytes}, may run (see the class comment). */
    static Kind kind(COMPOUND4args args, int recordBytes) {
        nfs_argop4[] ops = args.argarray;
        if (ops.length == 0 || ops.length > MAX_OPS || recordBytes > MAX_DECODED_RECORD_BYTES) {
            return Kind.WORKER;
        }
        boolean reads = recordBytes <= MAX_RECORD_BYTES;
        boolean changes = true;
        int readdirs = 0;
        int dataReads = 0;
        long written = 0;
        for (nfs_argop4 op : ops) {
            switch (op.argop) {
                case OP_READDIR -> {
                    changes = false;
                    reads &= ++readdirs == 1 && op.args instanceof READDIR4args r
                            && Integer.compareUnsigned(r.maxcount, MAX_READDIR_BYTES) <= 0;
                }
                case OP_READ -> {
                    changes = false;
                    reads &= ++dataReads == 1 && op.args instanceof READ4args r
                            && Integer.compareUnsigned(r.count, MAX_READ_BYTES) <= 0;
                }
                case OP_WRITE -> {
                    reads = false;
                    changes &= op.args instanceof WRITE4args w && w.stable == stable_how4.UNSTABLE4
                            && (written += w.data.remaining()) <= MAX_WRITE_BYTES;
                }
                default -> {
                    reads &= READS_METADATA.contains(op.argop);
                    changes &= STAYS_IN_EXPORT.contains(op.argop) || CHANGES_WITHOUT_FLUSH.contains(op.argop);
                }
            }
            if (!reads && !changes) {
                return Kind.WORKER;
            }
        }
        if (reads) {
            return Kind.READS;
        }
        return changes && recordBytes - written <= MAX_RECORD_BYTES ? Kind.CHANGES : Kind.WORKER;
    }
}

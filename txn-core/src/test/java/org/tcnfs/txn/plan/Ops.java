package org.tcnfs.txn.plan;

import java.nio.ByteBuffer;
import java.util.List;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.SECINFO4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;

/** Builds the operations of test compounds, as a client would send them. */
final class Ops {
    private Ops() {
    }

    static COMPOUND4args compound(nfs_argop4... ops) {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = 1;
        args.argarray = ops;
        return args;
    }

    static COMPOUND4args compound(List<nfs_argop4> ops) {
        return compound(ops.toArray(new nfs_argop4[0]));
    }

    static nfs_argop4 sequence() {
        return new nfs_argop4(nfs_opnum4.OP_SEQUENCE, new SEQUENCE4args());
    }

    static nfs_argop4 putrootfh() {
        return new nfs_argop4(nfs_opnum4.OP_PUTROOTFH, null);
    }

    static nfs_argop4 putfh(Inode handle) {
        return new nfs_argop4(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(handle.toBytes())));
    }

    static nfs_argop4 lookup(String name) {
        return new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args(name));
    }

    static nfs_argop4 lookupp() {
        return new nfs_argop4(nfs_opnum4.OP_LOOKUPP, null);
    }

    static nfs_argop4 savefh() {
        return new nfs_argop4(nfs_opnum4.OP_SAVEFH, null);
    }

    static nfs_argop4 restorefh() {
        return new nfs_argop4(nfs_opnum4.OP_RESTOREFH, null);
    }

    static nfs_argop4 getfh() {
        return new nfs_argop4(nfs_opnum4.OP_GETFH, null);
    }

    static nfs_argop4 getattr() {
        return new nfs_argop4(nfs_opnum4.OP_GETATTR, new GETATTR4args(Bitmaps.of(nfs4_attr.FATTR4_SIZE)));
    }

    static nfs_argop4 secinfo(String name) {
        return new nfs_argop4(nfs_opnum4.OP_SECINFO, new SECINFO4args(name));
    }

    static nfs_argop4 mkdir(String name) {
        return new nfs_argop4(nfs_opnum4.OP_CREATE,
                new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), name, new fattr4()));
    }

    static nfs_argop4 symlink(String name, String target) {
        createtype4 type = new createtype4(nfs_ftype4.NF4LNK);
        type.linkdata = target.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new nfs_argop4(nfs_opnum4.OP_CREATE, new CREATE4args(type, name, new fattr4()));
    }

    /** OPEN of an existing file by name, for reading and writing. */
    static nfs_argop4 open(String name) {
        return openWith(openflag4.noCreate(), open_claim4.byName(name));
    }

    /** OPEN UNCHECKED4 by name, with no create attributes. */
    static nfs_argop4 openCreate(String name) {
        return openWith(openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4())),
                open_claim4.byName(name));
    }

    /** OPEN GUARDED4 by name. */
    static nfs_argop4 openGuarded(String name) {
        return openWith(openflag4.create(createhow4.withAttributes(createmode4.GUARDED4, new fattr4())),
                open_claim4.byName(name));
    }

    /** OPEN EXCLUSIVE4_1 by name. */
    static nfs_argop4 openExclusive(String name) {
        return openWith(openflag4.create(createhow4.exclusive41(new verifier4(new byte[8]), new fattr4())),
                open_claim4.byName(name));
    }

    /** OPEN UNCHECKED4 by name with size 0: creates or truncates. */
    static nfs_argop4 openTruncate(String name) {
        return openWith(openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, sizeAttr(0))),
                open_claim4.byName(name));
    }

    /** OPEN UNCHECKED4 of the current file (CLAIM_FH) with size 0: truncates. */
    static nfs_argop4 openCurrentTruncate() {
        return openWith(openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, sizeAttr(0))),
                open_claim4.byFileHandle());
    }

    /** OPEN of the current file (CLAIM_FH), no create. */
    static nfs_argop4 openCurrent() {
        return openWith(openflag4.noCreate(), open_claim4.byFileHandle());
    }

    private static nfs_argop4 openWith(openflag4 how, open_claim4 claim) {
        return new nfs_argop4(nfs_opnum4.OP_OPEN, new OPEN4args(0, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                OPEN4args.OPEN4_SHARE_DENY_NONE, new open_owner4(1, new byte[] {1}), how, claim));
    }

    static nfs_argop4 close() {
        return new nfs_argop4(nfs_opnum4.OP_CLOSE, new CLOSE4args());
    }

    static nfs_argop4 write(long offset, int length) {
        return new nfs_argop4(nfs_opnum4.OP_WRITE,
                new WRITE4args(new stateid4(), offset, stable_how4.FILE_SYNC4, ByteBuffer.allocate(length)));
    }

    static nfs_argop4 read(long offset, int count) {
        return new nfs_argop4(nfs_opnum4.OP_READ, new READ4args(new stateid4(), offset, count));
    }

    /** SETATTR of the size. */
    static nfs_argop4 setSize(long size) {
        return new nfs_argop4(nfs_opnum4.OP_SETATTR, new SETATTR4args(new stateid4(), sizeAttr(size)));
    }

    /** SETATTR of the size and the mode (values in attribute order: size, then mode). */
    static nfs_argop4 setSizeAndMode(long size, int mode) {
        byte[] vals = ByteBuffer.allocate(12).putLong(size).putInt(mode).array();
        return new nfs_argop4(nfs_opnum4.OP_SETATTR, new SETATTR4args(new stateid4(),
                new fattr4(Bitmaps.of(nfs4_attr.FATTR4_SIZE, nfs4_attr.FATTR4_MODE), vals)));
    }

    /** SETATTR of the mode. */
    static nfs_argop4 setMode(int mode) {
        return new nfs_argop4(nfs_opnum4.OP_SETATTR, new SETATTR4args(new stateid4(),
                new fattr4(Bitmaps.of(nfs4_attr.FATTR4_MODE), ByteBuffer.allocate(4).putInt(mode).array())));
    }

    static nfs_argop4 remove(String name) {
        return new nfs_argop4(nfs_opnum4.OP_REMOVE, new REMOVE4args(name));
    }

    static nfs_argop4 rename(String oldName, String newName) {
        return new nfs_argop4(nfs_opnum4.OP_RENAME, new RENAME4args(oldName, newName));
    }

    static nfs_argop4 link(String newName) {
        return new nfs_argop4(nfs_opnum4.OP_LINK, new LINK4args(newName));
    }

    static nfs_argop4 op(int opcode) {
        return new nfs_argop4(opcode, null);
    }

    static fattr4 sizeAttr(long size) {
        return new fattr4(Bitmaps.of(nfs4_attr.FATTR4_SIZE), ByteBuffer.allocate(8).putLong(size).array());
    }
}

package org.tcnfs.txn;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;

/**
 * The fixture of the tests that drive a transaction without the wire: an export "/" in {@code work/export}
 * with one file "f" holding {@link #BEFORE}, a real handle table (root and "f") in {@code work/state}, and a
 * real backup area; its file system is one that fails if anything uses it. Closing it closes the table.
 */
final class OneFileExport implements AutoCloseable {
    static final byte[] BEFORE = "before".getBytes(StandardCharsets.US_ASCII);
    static final byte[] AFTER = "after!".getBytes(StandardCharsets.US_ASCII);

    final Path root;
    final Path file;
    final HandleTable table;
    final Nfh fileHandle;
    /** A file system that throws on every call, with {@code unusedBecause} as the message. */
    final VirtualFileSystem unused;
    final TxnExport export;

    private OneFileExport(Path root, Path file, HandleTable table, Nfh fileHandle, VirtualFileSystem unused,
            TxnExport export) {
        this.root = root;
        this.file = file;
        this.table = table;
        this.fileHandle = fileHandle;
        this.unused = unused;
        this.export = export;
    }

    static OneFileExport create(Path work, String unusedBecause) throws IOException {
        Path root = Files.createDirectories(work.resolve("export"));
        Path file = root.resolve("f");
        Files.write(file, BEFORE);
        HandleTable table = HandleTable.open(Files.createDirectories(work.resolve("state")));
        Nfh fileHandle;
        try (HandleBatch batch = table.write()) {
            Nfh rootHandle = batch.ensureRoot("/", 1, 100, 0);
            fileHandle = batch.register(rootHandle, "f", FileType.REGULAR, 1, 101, 0);
            batch.commit();
        }
        VirtualFileSystem unused = (VirtualFileSystem) Proxy.newProxyInstance(OneFileExport.class.getClassLoader(),
                new Class<?>[] {VirtualFileSystem.class}, (proxy, method, args) -> {
                    throw new UnsupportedOperationException(unusedBecause);
                });
        TxnExport export = new TxnExport("/", unused, root, BackupStore.open(work.resolve("backups")), true,
                client -> TxnPolicy.REQUEST);
        return new OneFileExport(root, file, table, fileHandle, unused, export);
    }

    /** A compound tagged {@code tag}: SEQUENCE, PUTFH of "f", then {@code last}. */
    COMPOUND4args compound(String tag, nfs_argop4 last) {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = tag;
        args.minorversion = 1;
        args.argarray = new nfs_argop4[] {
            new nfs_argop4(nfs_opnum4.OP_SEQUENCE, new SEQUENCE4args()),
            new nfs_argop4(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(fileHandle.toBytes()))),
            last};
        return args;
    }

    /**
     * SEQUENCE, PUTFH of "f", WRITE of {@link #AFTER} followed by zeros to 4,097 bytes at offset 0 (FILE_SYNC4),
     * tagged {@code tag}: two pages, so it takes the full path (a WRITE within one page is light); the tests make
     * its effect themselves, {@link #AFTER}.
     */
    COMPOUND4args writeCompound(String tag) {
        return compound(tag, new nfs_argop4(nfs_opnum4.OP_WRITE, new WRITE4args(new stateid4(), 0,
                stable_how4.FILE_SYNC4, ByteBuffer.wrap(java.util.Arrays.copyOf(AFTER, 4097)))));
    }

    /** SEQUENCE, PUTFH of "f", WRITE of {@link #AFTER} at offset 0 (FILE_SYNC4), tagged {@code tag}: one page. */
    COMPOUND4args writeInOnePageCompound(String tag) {
        return compound(tag, new nfs_argop4(nfs_opnum4.OP_WRITE, new WRITE4args(new stateid4(), 0,
                stable_how4.FILE_SYNC4, ByteBuffer.wrap(AFTER))));
    }

    /** How many transaction records the handle table holds. */
    int records() {
        AtomicInteger count = new AtomicInteger();
        try (HandleSnapshot snapshot = table.read()) {
            snapshot.forEach(table.sideTable(TransactionHook.RECORDS_TABLE), (k, v) -> count.incrementAndGet());
        }
        return count.get();
    }

    @Override
    public void close() {
        table.close();
    }
}

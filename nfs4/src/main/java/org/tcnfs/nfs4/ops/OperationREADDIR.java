package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.BadCookieException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.TooSmallException;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.DirectoryListing;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.READDIR4args;
import org.tcnfs.nfs4.xdr.READDIR4resok;
import org.tcnfs.nfs4.xdr.XdrSupport;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.dirlist4;
import org.tcnfs.nfs4.xdr.entry4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * READDIR (RFC 8881 18.23): entries of the current directory after {@code cookie}, each with the
 * requested attributes, as many as fit.
 *
 * <p>Sizing: the whole READDIR4resok (verifier, entries with their XDR overhead, list end and eof) stays
 * within {@code maxcount} (capped at the server's largest reply); {@code dircount}, when not 0, limits the
 * bytes of cookies and names, but never below one entry. If not even one entry fits in {@code maxcount}
 * the answer is NFS4ERR_TOOSMALL.
 *
 * <p>Cookies: 0 starts the listing (the verifier is then ignored); 1 and 2 are reserved
 * (NFS4ERR_BAD_COOKIE); the file system refuses an unknown cookie (NFS4ERR_BAD_COOKIE) and a verifier
 * from an earlier state of the directory (NFS4ERR_NOT_SAME).
 *
 * <p>Attributes: the file handle of an entry is looked up only when an attribute needs it. If the
 * attributes of one entry cannot be had, the entry carries just {@code rdattr_error} when the client asked
 * for it; otherwise the operation fails with that error.
 *
 * <p>The file system is asked for entries in batches sized from {@code maxcount} and the entry size seen
 * so far, so a long directory read in small replies costs time in proportion to what is returned.
 */
public final class OperationREADDIR implements NfsOperation {
    /** Bytes of READDIR4resok besides its entries: cookie verifier, end of list, eof. */
    static final int RESOK_OVERHEAD = XdrSupport.NFS4_VERIFIER_SIZE + 4 + 4;
    private static final int MAX_BATCH = 1024;
    private static final int MIN_FIRST_BATCH = 16;
    /** A guess at the size of an entry with the attributes a client usually asks for. */
    private static final int TYPICAL_ENTRY = 128;
    private static final byte[] ZERO_VERIFIER = new byte[XdrSupport.NFS4_VERIFIER_SIZE];

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        READDIR4args args = (READDIR4args) op.args;
        Inode dir = context.currentInode();
        long cookie = args.cookie;
        if (cookie == 1 || cookie == 2) {
            throw new BadCookieException("cookie " + cookie + " is reserved");
        }
        bitmap4 requested = args.attr_request;
        FileAttributes.requireReadable(requested);
        boolean rdattrError = Bitmaps.isSet(requested, nfs4_attr.FATTR4_RDATTR_ERROR);
        long maxcount = Math.min(Integer.toUnsignedLong(args.maxcount), context.server().limits().maxResponseBytes());
        long dircount = Integer.toUnsignedLong(args.dircount);
        long budget = maxcount - RESOK_OVERHEAD;
        if (budget < 0) {
            // an empty directory's reply (verifier, no entry, eof) fits in exactly RESOK_OVERHEAD bytes
            throw new TooSmallException("maxcount " + maxcount + " holds not even an empty reply");
        }
        VirtualFileSystem fs = context.fs();

        byte[] verifier = cookie == 0 ? ZERO_VERIFIER : args.cookieverf.value;
        byte[] replyVerifier = null;
        List<entry4> entries = new ArrayList<>();
        long used = 0;
        long dirBytes = 0;
        boolean eof = false;
        long cursor = cookie;
        int batch = (int) Math.max(MIN_FIRST_BATCH, Math.min(MAX_BATCH, budget / TYPICAL_ENTRY + 1));
        fill:
        while (true) {
            DirectoryListing page = fs.list(dir, verifier, cursor, batch);
            if (replyVerifier == null) {
                replyVerifier = page.verifier();
            }
            for (DirEntry e : page.entries()) {
                entry4 entry = entryOf(context, fs, dir, e, requested, rdattrError);
                int size = entry.encodedSize();
                int nameAndCookie = 8 + 4 + ((entry.name.length + 3) & ~3);
                boolean fits = used + size <= budget
                        && (dircount == 0 || entries.isEmpty() || dirBytes + nameAndCookie <= dircount);
                if (!fits) {
                    if (entries.isEmpty()) {
                        throw new TooSmallException("maxcount " + maxcount + " holds no entry");
                    }
                    break fill;
                }
                entries.add(entry);
                used += size;
                dirBytes += nameAndCookie;
                cursor = e.cookie();
            }
            if (page.complete()) {
                eof = true;
                break;
            }
            if (page.entries().isEmpty()) {
                break; // no progress possible; the client asks again from the same cookie
            }
            verifier = page.verifier();
            long average = Math.max(1, used / entries.size());
            batch = (int) Math.max(1, Math.min(MAX_BATCH, (budget - used) / average + 1));
        }
        result.body = new READDIR4resok(new verifier4(replyVerifier),
                new dirlist4(entries.toArray(new entry4[0]), eof));
    }

    private static entry4 entryOf(CompoundContext context, VirtualFileSystem fs, Inode dir, DirEntry e,
            bitmap4 requested, boolean rdattrError) throws IOException {
        fattr4 attrs;
        try {
            attrs = FileAttributes.encode(context, () -> fs.lookup(dir, e.name()), e.stat(), requested);
        } catch (NfsException failure) {
            if (!rdattrError) {
                throw failure;
            }
            attrs = FileAttributes.rdattrErrorOnly(failure.status());
        }
        return new entry4(e.cookie(), e.name().getBytes(StandardCharsets.UTF_8), attrs);
    }
}

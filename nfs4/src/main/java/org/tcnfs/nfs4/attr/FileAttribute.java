package org.tcnfs.nfs4.attr;

import static org.tcnfs.nfs4.xdr.nfs4_attr.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.time.Instant;
import org.tcnfs.nfs4.status.BadXdrException;
import org.tcnfs.nfs4.status.FBigException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.vfs.FileSystemId;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.xdr.XdrSupport;
import org.tcnfs.nfs4.xdr.nfs_ftype4;

/**
 * Every attribute this server supports, one constant each, with how its value is encoded (for GETATTR,
 * READDIR and VERIFY) and, for the settable ones, decoded (for SETATTR and the create attributes of OPEN
 * and CREATE). Attributes missing here are unsupported: they are left out of GETATTR replies and refused
 * with NFS4ERR_ATTRNOTSUPP by SETATTR and VERIFY.
 *
 * <p>Values are XDR as RFC 8881 section 5 defines them; the constants are in attribute-number order.
 */
public enum FileAttribute {
    // ---- REQUIRED (RFC 8881 5.6) ----
    SUPPORTED_ATTRS(FATTR4_SUPPORTED_ATTRS, (s, w) -> w.putBitmap(FileAttributes.supportedWords(s.context()))),
    TYPE(FATTR4_TYPE, (s, w) -> w.putInt(ftype(s.stat().type()))),
    FH_EXPIRE_TYPE(FATTR4_FH_EXPIRE_TYPE, (s, w) -> w.putInt(FH4_PERSISTENT)),
    CHANGE(FATTR4_CHANGE, (s, w) -> w.putLong(s.stat().change())),
    SIZE(FATTR4_SIZE, (s, w) -> w.putLong(s.stat().size()), FileAttribute::decodeSize),
    LINK_SUPPORT(FATTR4_LINK_SUPPORT, (s, w) -> w.putBoolean(true)),
    SYMLINK_SUPPORT(FATTR4_SYMLINK_SUPPORT, (s, w) -> w.putBoolean(true)),
    NAMED_ATTR(FATTR4_NAMED_ATTR, (s, w) -> w.putBoolean(false)),
    FSID(FATTR4_FSID, FileAttribute::encodeFsid),
    UNIQUE_HANDLES(FATTR4_UNIQUE_HANDLES, (s, w) -> w.putBoolean(true)),
    LEASE_TIME(FATTR4_LEASE_TIME,
            (s, w) -> w.putInt((int) Math.min(s.context().server().limits().lease().toSeconds(), 0xffffffffL))),
    RDATTR_ERROR(FATTR4_RDATTR_ERROR, (s, w) -> w.putInt(s.rdattrError().code())),
    // ---- RECOMMENDED (RFC 8881 5.7) ----
    ACLSUPPORT(FATTR4_ACLSUPPORT, (s, w) -> w.putInt(0)),
    CANSETTIME(FATTR4_CANSETTIME, (s, w) -> w.putBoolean(true)),
    CASE_INSENSITIVE(FATTR4_CASE_INSENSITIVE, (s, w) -> w.putBoolean(false)),
    CASE_PRESERVING(FATTR4_CASE_PRESERVING, (s, w) -> w.putBoolean(true)),
    CHOWN_RESTRICTED(FATTR4_CHOWN_RESTRICTED, (s, w) -> w.putBoolean(true)),
    FILEHANDLE(FATTR4_FILEHANDLE, (s, w) -> w.putOpaque(s.inode().toBytes())),
    FILEID(FATTR4_FILEID, (s, w) -> w.putLong(s.stat().fileId())),
    FILES_AVAIL(FATTR4_FILES_AVAIL, (s, w) -> w.putLong(s.fsStat().freeFiles())),
    FILES_FREE(FATTR4_FILES_FREE, (s, w) -> w.putLong(s.fsStat().freeFiles())),
    FILES_TOTAL(FATTR4_FILES_TOTAL, (s, w) -> w.putLong(s.fsStat().totalFiles())),
    HOMOGENEOUS(FATTR4_HOMOGENEOUS, (s, w) -> w.putBoolean(true)),
    MAXFILESIZE(FATTR4_MAXFILESIZE, (s, w) -> w.putLong(FileAttributes.MAX_FILE_SIZE)),
    MAXLINK(FATTR4_MAXLINK, (s, w) -> w.putInt(FileAttributes.MAX_LINK)),
    MAXNAME(FATTR4_MAXNAME, (s, w) -> w.putInt(FileAttributes.MAX_NAME)),
    MAXREAD(FATTR4_MAXREAD, (s, w) -> w.putLong(s.context().server().limits().maxRead())),
    MAXWRITE(FATTR4_MAXWRITE, (s, w) -> w.putLong(s.context().server().limits().maxWrite())),
    MODE(FATTR4_MODE, (s, w) -> w.putInt(s.stat().mode()), FileAttribute::decodeMode),
    NO_TRUNC(FATTR4_NO_TRUNC, (s, w) -> w.putBoolean(true)),
    NUMLINKS(FATTR4_NUMLINKS, (s, w) -> w.putInt(s.stat().nlink())),
    OWNER(FATTR4_OWNER, (s, w) -> w.putString(IdMapper.toWire(s.stat().uid())), FileAttribute::decodeOwner),
    OWNER_GROUP(FATTR4_OWNER_GROUP, (s, w) -> w.putString(IdMapper.toWire(s.stat().gid())),
            FileAttribute::decodeOwnerGroup),
    RAWDEV(FATTR4_RAWDEV, (s, w) -> {
        w.putInt(s.stat().rdevMajor());
        w.putInt(s.stat().rdevMinor());
    }),
    SPACE_AVAIL(FATTR4_SPACE_AVAIL, (s, w) -> w.putLong(s.fsStat().availableBytes())),
    SPACE_FREE(FATTR4_SPACE_FREE, (s, w) -> w.putLong(s.fsStat().freeBytes())),
    SPACE_TOTAL(FATTR4_SPACE_TOTAL, (s, w) -> w.putLong(s.fsStat().totalBytes())),
    SPACE_USED(FATTR4_SPACE_USED, (s, w) -> w.putLong(s.stat().spaceUsed())),
    TIME_ACCESS(FATTR4_TIME_ACCESS, (s, w) -> w.putTime(s.stat().atime())),
    /** Write-only: {@code settime4}. */
    TIME_ACCESS_SET(FATTR4_TIME_ACCESS_SET, null, (r, b, ids) -> b.atime = decodeSettime(r)),
    /** Only where the file system knows the creation time; otherwise left out of the reply. */
    TIME_CREATE(FATTR4_TIME_CREATE, FileAttribute::encodeTimeCreate, null),
    TIME_DELTA(FATTR4_TIME_DELTA, (s, w) -> w.putTime(FileAttributes.TIME_DELTA)),
    TIME_METADATA(FATTR4_TIME_METADATA, (s, w) -> w.putTime(s.stat().ctime())),
    TIME_MODIFY(FATTR4_TIME_MODIFY, (s, w) -> w.putTime(s.stat().mtime())),
    /** Write-only: {@code settime4}. */
    TIME_MODIFY_SET(FATTR4_TIME_MODIFY_SET, null, (r, b, ids) -> b.mtime = decodeSettime(r)),
    MOUNTED_ON_FILEID(FATTR4_MOUNTED_ON_FILEID,
            (s, w) -> w.putLong(s.context().fs().mountedOnFileId(s.inode(), s.stat()))),
    // ---- REQUIRED, NFSv4.1 ----
    SUPPATTR_EXCLCREAT(FATTR4_SUPPATTR_EXCLCREAT, (s, w) -> w.putBitmap(FileAttributes.EXCLCREAT_WORDS));

    /**
     * Writes one attribute's value. One that writes nothing leaves the attribute out of the reply (the
     * object lacks it, as time_create may); every XDR value has at least four bytes.
     */
    @FunctionalInterface
    interface Encoder {
        void encode(AttributeSource source, AttrWriter out) throws IOException;
    }

    /** Reads one settable attribute's value into the builder. */
    @FunctionalInterface
    interface Decoder {
        void decode(AttrReader in, SetAttributesBuilder into, IdMapper ids) throws IOException;
    }

    private final int number;
    private final Encoder encoder;
    private final Decoder decoder;

    FileAttribute(int number, Encoder encoder) {
        this(number, encoder, null);
    }

    FileAttribute(int number, Encoder encoder, Decoder decoder) {
        this.number = number;
        this.encoder = encoder;
        this.decoder = decoder;
    }

    /** The attribute number ({@code FATTR4_*}). */
    public int number() {
        return number;
    }

    /** Whether a client may set it (SETATTR, create attributes). */
    public boolean isSettable() {
        return decoder != null;
    }

    /** Whether a client may read it (GETATTR, READDIR, VERIFY); false for the write-only time setters. */
    public boolean isReadable() {
        return encoder != null;
    }

    Encoder encoder() {
        return encoder;
    }

    Decoder decoder() {
        return decoder;
    }

    // ---- encoders that need more than one line ----

    private static int ftype(FileType type) {
        return switch (type) {
            case REGULAR -> nfs_ftype4.NF4REG;
            case DIRECTORY -> nfs_ftype4.NF4DIR;
            case SYMLINK -> nfs_ftype4.NF4LNK;
            case BLOCK -> nfs_ftype4.NF4BLK;
            case CHAR -> nfs_ftype4.NF4CHR;
            case SOCKET -> nfs_ftype4.NF4SOCK;
            case FIFO -> nfs_ftype4.NF4FIFO;
        };
    }

    private static void encodeFsid(AttributeSource s, AttrWriter w) throws IOException {
        FileSystemId fsid = s.context().fs().fileSystemId(s.inode());
        w.putLong(fsid.major());
        w.putLong(fsid.minor());
    }

    private static void encodeTimeCreate(AttributeSource s, AttrWriter w) {
        Instant btime = s.stat().btime();
        if (btime != null) {
            w.putTime(btime);
        }
    }

    // ---- decoders ----

    private static void decodeMode(AttrReader r, SetAttributesBuilder b, IdMapper ids) throws IOException {
        // The permission bits only, as knfsd and NFS-Ganesha do: libnfs sends the file type along
        // (0100644, 040755), and a mode cannot change an object's type anyway.
        b.mode = r.getInt() & 07777;
    }

    private static void decodeSize(AttrReader r, SetAttributesBuilder b, IdMapper ids) throws IOException {
        long size = r.getLong();
        if (size < 0 || size > FileAttributes.MAX_FILE_SIZE) {
            throw new FBigException("size " + Long.toUnsignedString(size) + " exceeds maxfilesize");
        }
        b.size = size;
    }

    private static void decodeOwner(AttrReader r, SetAttributesBuilder b, IdMapper ids) throws IOException {
        b.uid = ids.uidOf(nonEmpty(decodeUtf8(r), "owner"));
    }

    private static void decodeOwnerGroup(AttrReader r, SetAttributesBuilder b, IdMapper ids) throws IOException {
        b.gid = ids.gidOf(nonEmpty(decodeUtf8(r), "owner_group"));
    }

    /** An empty owner or group names nobody: NFS4ERR_INVAL (not BADOWNER, which is for unknown names). */
    private static String nonEmpty(String value, String attribute) throws InvalException {
        if (value.isEmpty()) {
            throw new InvalException("empty " + attribute);
        }
        return value;
    }

    private static String decodeUtf8(AttrReader r) throws IOException {
        byte[] bytes = r.getOpaque(XdrSupport.NFS4_OPAQUE_LIMIT);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalException("owner is not UTF-8");
        }
    }

    private static TimeChange decodeSettime(AttrReader r) throws IOException {
        int how = r.getInt();
        return switch (how) {
            case SET_TO_SERVER_TIME4 -> TimeChange.serverTime();
            case SET_TO_CLIENT_TIME4 -> TimeChange.at(r.getTime());
            default -> throw new BadXdrException("time_how4 " + how);
        };
    }
}

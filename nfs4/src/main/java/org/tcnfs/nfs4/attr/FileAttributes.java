package org.tcnfs.nfs4.attr;

import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.status.AttrNotSuppException;
import org.tcnfs.nfs4.status.BadXdrException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * Converts between {@code fattr4} and the values of the SPI: encodes the attributes GETATTR, READDIR and
 * VERIFY ask for, and decodes the attributes SETATTR, OPEN and CREATE set. Each attribute's encoding and
 * decoding is one constant of {@link FileAttribute}.
 *
 * <p>Owner strings are sent as numeric ids and accepted as numbers, {@code name@domain} or {@code name}
 * (see {@link IdMapper}). Stateless apart from the id mapper's short-lived cache of the passwd and group
 * files; thread-safe.
 */
public final class FileAttributes {
    /** {@code maxfilesize}. */
    public static final long MAX_FILE_SIZE = Long.MAX_VALUE;
    /** {@code maxlink}. */
    public static final int MAX_LINK = 65000;
    /** {@code maxname}: the longest name component in bytes. */
    public static final int MAX_NAME = 255;
    /** {@code time_delta}: the granularity of the times the server keeps. */
    public static final Instant TIME_DELTA = Instant.ofEpochSecond(0, 1);

    private static final FileAttribute[] BY_NUMBER = byNumber();
    /** The words of {@code supported_attrs}. Never modified. */
    static final int[] SUPPORTED_WORDS = supportedWords();
    /**
     * The words of {@code supported_attrs} in NFSv4.0: the supported attributes RFC 7530 defines (numbers up
     * to {@code mounted_on_fileid}, 55); the later ones exist only from NFSv4.1 on. Never modified.
     */
    static final int[] SUPPORTED_WORDS_NFS40 = upTo(SUPPORTED_WORDS, nfs4_attr.FATTR4_MOUNTED_ON_FILEID);
    /**
     * The words of {@code suppattr_exclcreat}: what an EXCLUSIVE4_1 create may set. Times are left out so
     * that a server may keep the create verifier in them.
     */
    static final int[] EXCLCREAT_WORDS = Bitmaps.words(
            nfs4_attr.FATTR4_SIZE, nfs4_attr.FATTR4_MODE, nfs4_attr.FATTR4_OWNER, nfs4_attr.FATTR4_OWNER_GROUP);
    /** The attributes that need the object's handle (as opposed to its {@link Stat}). */
    private static final int[] NEED_INODE = Bitmaps.words(nfs4_attr.FATTR4_FSID, nfs4_attr.FATTR4_FILEHANDLE,
            nfs4_attr.FATTR4_FILES_AVAIL, nfs4_attr.FATTR4_FILES_FREE, nfs4_attr.FATTR4_FILES_TOTAL,
            nfs4_attr.FATTR4_SPACE_AVAIL, nfs4_attr.FATTR4_SPACE_FREE, nfs4_attr.FATTR4_SPACE_TOTAL,
            nfs4_attr.FATTR4_MOUNTED_ON_FILEID);
    private static final IdMapper IDS = IdMapper.system();

    private FileAttributes() {
    }

    /** Supplies an object's handle when an attribute needs it (READDIR looks it up only then). */
    @FunctionalInterface
    public interface InodeSupplier {
        Inode get() throws IOException;
    }

    /** The attributes this server supports ({@code supported_attrs}); a fresh mask. */
    public static bitmap4 supported() {
        return new bitmap4(SUPPORTED_WORDS.clone());
    }

    /** The attributes an EXCLUSIVE4_1 create may set ({@code suppattr_exclcreat}); a fresh mask. */
    public static bitmap4 exclusiveCreateSupported() {
        return new bitmap4(EXCLCREAT_WORDS.clone());
    }

    /** The attribute with this number, or {@code null} if the server does not support it. */
    public static FileAttribute forNumber(int number) {
        return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
    }

    /** Whether encoding {@code requested} needs the object's handle and not only its {@link Stat}. */
    public static boolean needsInode(bitmap4 requested) {
        return Bitmaps.intersects(requested.value, NEED_INODE);
    }

    /**
     * Encodes the {@code requested} attributes of {@code inode} (whose {@code stat} the caller already has);
     * attributes the server does not support, or that this object lacks (time_create), are left out of the
     * returned mask.
     *
     * @throws InvalException if a write-only attribute (time_access_set, time_modify_set) is requested
     */
    public static fattr4 encode(CompoundContext context, Inode inode, Stat stat, bitmap4 requested)
            throws IOException {
        Objects.requireNonNull(inode, "inode");
        return encode(context, () -> inode, stat, requested);
    }

    /**
     * Like {@link #encode(CompoundContext, Inode, Stat, bitmap4)}, asking {@code inode} for the handle only
     * if a requested attribute needs it (see {@link #needsInode}).
     */
    public static fattr4 encode(CompoundContext context, InodeSupplier inode, Stat stat, bitmap4 requested)
            throws IOException {
        Objects.requireNonNull(stat, "stat");
        requireReadable(requested);
        AttributeSource source = new AttributeSource(context, stat, inode, NfsStatus.OK);
        int[] supported = supportedWords(context);
        int words = Math.min(requested.value.length, supported.length);
        int[] returned = new int[words];
        AttrWriter out = new AttrWriter(256);
        for (int i = 0; i < words; i++) {
            int bits = requested.value[i] & supported[i];
            while (bits != 0) {
                int bit = Integer.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                FileAttribute attribute = BY_NUMBER[i * 32 + bit];
                int mark = out.size();
                attribute.encoder().encode(source, out);
                if (out.size() > mark) {
                    returned[i] |= 1 << bit;
                }
            }
        }
        return new fattr4(new bitmap4(Bitmaps.trim(returned)), out.toByteArray());
    }

    /** An {@code fattr4} holding only {@code rdattr_error} (a READDIR entry whose attributes failed). */
    public static fattr4 rdattrErrorOnly(NfsStatus error) {
        AttrWriter out = new AttrWriter(4);
        out.putInt(error.code());
        return new fattr4(Bitmaps.of(nfs4_attr.FATTR4_RDATTR_ERROR), out.toByteArray());
    }

    /**
     * Checks that no write-only attribute is requested.
     *
     * @throws InvalException if time_access_set or time_modify_set is
     */
    public static void requireReadable(bitmap4 requested) throws InvalException {
        int words = Math.min(requested.value.length, SUPPORTED_WORDS.length);
        for (int i = 0; i < words; i++) {
            int bits = requested.value[i] & SUPPORTED_WORDS[i];
            while (bits != 0) {
                int bit = Integer.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (!BY_NUMBER[i * 32 + bit].isReadable()) {
                    throw new InvalException("write-only attribute " + BY_NUMBER[i * 32 + bit] + " requested");
                }
            }
        }
    }

    /**
     * Decodes attributes a client wants to set (SETATTR, OPEN and CREATE create attributes).
     *
     * @throws org.tcnfs.nfs4.status.AttrNotSuppException for an attribute the server does not support
     * @throws org.tcnfs.nfs4.status.InvalException for a read-only attribute or a bad value
     * @throws org.tcnfs.nfs4.status.BadXdrException if the values do not decode
     */
    public static SetAttributes decodeSettable(CompoundContext context, fattr4 attrs) throws IOException {
        return decodeSettableWithMask(context, attrs).changes();
    }

    /**
     * Decodes attributes a client wants to set, together with the mask of what they set (the
     * {@code attrsset} of SETATTR4res, the {@code attrset} of OPEN4resok and CREATE4resok). Nothing is
     * changed here; the caller applies {@link AttributesToSet#changes()}.
     *
     * <p>Checks, in this order: every attribute in the mask is supported (else NFS4ERR_ATTRNOTSUPP), every
     * one is settable (else NFS4ERR_INVAL), the values decode and fill {@code attr_vals} exactly (else
     * NFS4ERR_BADXDR); a mode keeps its permission bits (07777) and ignores the rest, as knfsd and
     * NFS-Ganesha do; a bad time is NFS4ERR_INVAL, a size beyond maxfilesize
     * NFS4ERR_FBIG, an owner or group that maps to no id NFS4ERR_BADOWNER.
     */
    public static AttributesToSet decodeSettableWithMask(CompoundContext context, fattr4 attrs) throws IOException {
        int[] numbers = Bitmaps.toNumbers(attrs.attrmask);
        for (int n : numbers) {
            if (forNumber(n) == null) {
                throw new AttrNotSuppException("attribute " + n + " is not supported");
            }
        }
        for (int n : numbers) {
            if (!BY_NUMBER[n].isSettable()) {
                throw new InvalException("attribute " + BY_NUMBER[n] + " is read-only");
            }
        }
        AttrReader in = new AttrReader(attrs.attr_vals);
        SetAttributesBuilder builder = new SetAttributesBuilder();
        for (int n : numbers) {
            BY_NUMBER[n].decoder().decode(in, builder, IDS);
        }
        if (in.hasRemaining()) {
            throw new BadXdrException("attribute values longer than the mask says");
        }
        return new AttributesToSet(builder.build(), new bitmap4(Bitmaps.trim(attrs.attrmask.value)));
    }

    /**
     * Whether the object's attributes equal {@code given} (VERIFY and NVERIFY): the server encodes the
     * attributes of {@code given}'s mask and compares the bytes.
     *
     * @throws AttrNotSuppException if {@code given} names an unsupported attribute
     * @throws InvalException if it names rdattr_error or a write-only attribute
     */
    public static boolean matches(CompoundContext context, Inode inode, Stat stat, fattr4 given) throws IOException {
        for (int n : Bitmaps.toNumbers(given.attrmask)) {
            FileAttribute attribute = forNumber(n);
            if (attribute == null) {
                throw new AttrNotSuppException("attribute " + n + " is not supported");
            }
            if (attribute == FileAttribute.RDATTR_ERROR || !attribute.isReadable()) {
                throw new InvalException("attribute " + attribute + " cannot be verified");
            }
        }
        fattr4 mine = encode(context, inode, stat, given.attrmask);
        return Bitmaps.sameBits(mine.attrmask.value, given.attrmask.value)
                && Arrays.equals(mine.attr_vals, given.attr_vals);
    }

    private static FileAttribute[] byNumber() {
        int max = 0;
        for (FileAttribute a : FileAttribute.values()) {
            max = Math.max(max, a.number());
        }
        FileAttribute[] table = new FileAttribute[max + 1];
        for (FileAttribute a : FileAttribute.values()) {
            if (table[a.number()] != null) {
                throw new IllegalStateException("attribute number used twice: " + a.number());
            }
            table[a.number()] = a;
        }
        return table;
    }

    /** The supported attributes of the compound's minor version (all of them without a context). */
    static int[] supportedWords(CompoundContext context) {
        return context != null && context.minorVersion() == 0 ? SUPPORTED_WORDS_NFS40 : SUPPORTED_WORDS;
    }

    /** {@code words} without the attributes numbered above {@code last}. */
    private static int[] upTo(int[] words, int last) {
        int[] out = words.clone();
        for (int n = last + 1; n < out.length * 32; n++) {
            out[n / 32] &= ~(1 << (n % 32));
        }
        return Bitmaps.trim(out);
    }

    private static int[] supportedWords() {
        int[] numbers = new int[BY_NUMBER.length];
        int k = 0;
        for (FileAttribute a : FileAttribute.values()) {
            numbers[k++] = a.number();
        }
        return Bitmaps.words(Arrays.copyOf(numbers, k));
    }
}

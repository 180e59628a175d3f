package org.tcnfs.client;

import static org.tcnfs.nfs4.xdr.nfs4_attr.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfstime4;

/**
 * Attribute values as a client sees them: decoded from a {@code fattr4} (GETATTR, READDIR), or
 * collected with {@link #builder()} into a {@code fattr4} to send (SETATTR, CREATE, OPEN).
 *
 * <p>Decodes the fixed-size and string attributes of RFC 8881 section 5 (everything but ACLs, locations,
 * layouts and fs_status); a reply that carries another attribute cannot be decoded and fails with an
 * {@link IOException}, so ask only for these. Values are kept as {@code Long} (all integers),
 * {@code Boolean}, {@code String}, {@code byte[]} (filehandle), {@code int[]} (bitmaps),
 * {@link nfstime4} and {@code long[]} (fsid, rawdev).
 */
public final class Attrs {
    /** settime4 {@code how}: the server's clock. */
    public static final int SET_TO_SERVER_TIME4 = 0;
    /** settime4 {@code how}: the given time. */
    public static final int SET_TO_CLIENT_TIME4 = 1;

    private final Map<Integer, Object> values;

    private Attrs(Map<Integer, Object> values) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    /**
     * Decodes {@code attrs}.
     *
     * @throws IOException when the values are short, or an attribute has no decoder here
     */
    public static Attrs decode(fattr4 attrs) throws IOException {
        Map<Integer, Object> values = new LinkedHashMap<>();
        Xdr xdr = new Xdr(attrs.attr_vals.clone());
        xdr.beginDecoding();
        for (int attr : numbers(attrs.attrmask)) {
            values.put(attr, decodeOne(attr, xdr));
        }
        if (xdr.hasMoreData()) {
            throw new IOException("bytes left over after attributes " + values.keySet());
        }
        return new Attrs(values);
    }

    /** Attribute numbers set in {@code mask}, ascending. */
    public static int[] numbers(bitmap4 mask) {
        int count = 0;
        for (int w : mask.value) {
            count += Integer.bitCount(w);
        }
        int[] out = new int[count];
        int n = 0;
        for (int word = 0; word < mask.value.length; word++) {
            for (int bit = 0; bit < 32; bit++) {
                if ((mask.value[word] & (1 << bit)) != 0) {
                    out[n++] = word * 32 + bit;
                }
            }
        }
        return out;
    }

    /** A bitmap with the given attribute numbers set. */
    public static bitmap4 mask(int... attributes) {
        int words = 0;
        for (int a : attributes) {
            if (a < 0) {
                throw new IllegalArgumentException("attribute " + a);
            }
            words = Math.max(words, a / 32 + 1);
        }
        int[] value = new int[words];
        for (int a : attributes) {
            value[a / 32] |= 1 << (a % 32);
        }
        return new bitmap4(value);
    }

    private static Object decodeOne(int attr, XdrDecodingStream xdr) throws IOException {
        return switch (attr) {
            case FATTR4_SUPPORTED_ATTRS, FATTR4_SUPPATTR_EXCLCREAT -> {
                bitmap4 b = new bitmap4();
                b.xdrDecode(xdr);
                yield b.value;
            }
            case FATTR4_TYPE, FATTR4_FH_EXPIRE_TYPE, FATTR4_LEASE_TIME, FATTR4_RDATTR_ERROR, FATTR4_ACLSUPPORT,
                    FATTR4_MAXLINK, FATTR4_MAXNAME, FATTR4_MODE, FATTR4_NUMLINKS, FATTR4_LAYOUT_BLKSIZE ->
                    Integer.toUnsignedLong(xdr.xdrDecodeInt());
            case FATTR4_CHANGE, FATTR4_SIZE, FATTR4_FILEID, FATTR4_FILES_AVAIL, FATTR4_FILES_FREE,
                    FATTR4_FILES_TOTAL, FATTR4_MAXFILESIZE, FATTR4_MAXREAD, FATTR4_MAXWRITE,
                    FATTR4_QUOTA_AVAIL_HARD, FATTR4_QUOTA_AVAIL_SOFT, FATTR4_QUOTA_USED, FATTR4_SPACE_AVAIL,
                    FATTR4_SPACE_FREE, FATTR4_SPACE_TOTAL, FATTR4_SPACE_USED, FATTR4_MOUNTED_ON_FILEID ->
                    xdr.xdrDecodeLong();
            case FATTR4_LINK_SUPPORT, FATTR4_SYMLINK_SUPPORT, FATTR4_NAMED_ATTR, FATTR4_UNIQUE_HANDLES,
                    FATTR4_ARCHIVE, FATTR4_CANSETTIME, FATTR4_CASE_INSENSITIVE, FATTR4_CASE_PRESERVING,
                    FATTR4_CHOWN_RESTRICTED, FATTR4_HIDDEN, FATTR4_HOMOGENEOUS, FATTR4_NO_TRUNC,
                    FATTR4_SYSTEM -> xdr.xdrDecodeInt() != 0;
            case FATTR4_FSID, FATTR4_CHANGE_POLICY -> new long[] {xdr.xdrDecodeLong(), xdr.xdrDecodeLong()};
            case FATTR4_RAWDEV -> new long[] {Integer.toUnsignedLong(xdr.xdrDecodeInt()),
                    Integer.toUnsignedLong(xdr.xdrDecodeInt())};
            case FATTR4_FILEHANDLE -> xdr.xdrDecodeDynamicOpaque();
            case FATTR4_MIMETYPE, FATTR4_OWNER, FATTR4_OWNER_GROUP ->
                    new String(xdr.xdrDecodeDynamicOpaque(), StandardCharsets.UTF_8);
            case FATTR4_TIME_ACCESS, FATTR4_TIME_BACKUP, FATTR4_TIME_CREATE, FATTR4_TIME_DELTA,
                    FATTR4_TIME_METADATA, FATTR4_TIME_MODIFY, FATTR4_DIR_NOTIF_DELAY,
                    FATTR4_DIRENT_NOTIF_DELAY -> {
                nfstime4 t = new nfstime4();
                t.xdrDecode(xdr);
                yield t;
            }
            default -> throw new IOException("no decoder for attribute " + attr);
        };
    }

    /** Whether the attribute was returned. */
    public boolean has(int attr) {
        return values.containsKey(attr);
    }

    /** All values by attribute number. */
    public Map<Integer, Object> values() {
        return values;
    }

    /** The raw value of {@code attr}; fails when it was not returned. */
    public Object get(int attr) {
        Object v = values.get(attr);
        if (v == null) {
            throw new IllegalStateException("attribute " + attr + " was not returned; got " + values.keySet());
        }
        return v;
    }

    /** An integer attribute (type, size, mode, numlinks, fileid, change, ...). */
    public long number(int attr) {
        return (Long) get(attr);
    }

    /** {@code type} as an {@code nfs_ftype4} value. */
    public int type() {
        return (int) number(FATTR4_TYPE);
    }

    public long size() {
        return number(FATTR4_SIZE);
    }

    /** {@code mode}: the permission bits (07777). */
    public int mode() {
        return (int) number(FATTR4_MODE);
    }

    public long numlinks() {
        return number(FATTR4_NUMLINKS);
    }

    public long fileid() {
        return number(FATTR4_FILEID);
    }

    public long change() {
        return number(FATTR4_CHANGE);
    }

    public String owner() {
        return (String) get(FATTR4_OWNER);
    }

    public String ownerGroup() {
        return (String) get(FATTR4_OWNER_GROUP);
    }

    public nfstime4 timeModify() {
        return (nfstime4) get(FATTR4_TIME_MODIFY);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Attrs{");
        values.forEach((k, v) -> sb.append(k).append('=').append(describe(v)).append(", "));
        return sb.append('}').toString();
    }

    private static String describe(Object v) {
        if (v instanceof long[] a) {
            return java.util.Arrays.toString(a);
        } else if (v instanceof int[] a) {
            return java.util.Arrays.toString(a);
        } else if (v instanceof byte[] a) {
            return a.length + " bytes";
        } else if (v instanceof nfstime4 t) {
            return t.seconds + "." + t.nseconds;
        }
        return String.valueOf(v);
    }

    /** A builder of attributes to set. */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects attribute values to send; {@link #build()} encodes them in attribute order. */
    public static final class Builder {
        private final Map<Integer, XdrAble> encoders = new TreeMap<>();

        private Builder() {
        }

        public Builder mode(int mode) {
            return put(FATTR4_MODE, x -> x.xdrEncodeInt(mode));
        }

        public Builder size(long size) {
            return put(FATTR4_SIZE, x -> x.xdrEncodeLong(size));
        }

        /** {@code owner}: a user name, or a numeric uid as a string. */
        public Builder owner(String owner) {
            return put(FATTR4_OWNER, x -> x.xdrEncodeDynamicOpaque(owner.getBytes(StandardCharsets.UTF_8)));
        }

        public Builder ownerGroup(String group) {
            return put(FATTR4_OWNER_GROUP, x -> x.xdrEncodeDynamicOpaque(group.getBytes(StandardCharsets.UTF_8)));
        }

        /** {@code time_modify_set} to the given time. */
        public Builder timeModifySet(long seconds, int nseconds) {
            return put(FATTR4_TIME_MODIFY_SET, x -> {
                x.xdrEncodeInt(SET_TO_CLIENT_TIME4);
                x.xdrEncodeLong(seconds);
                x.xdrEncodeInt(nseconds);
            });
        }

        /** {@code time_access_set} to the given time. */
        public Builder timeAccessSet(long seconds, int nseconds) {
            return put(FATTR4_TIME_ACCESS_SET, x -> {
                x.xdrEncodeInt(SET_TO_CLIENT_TIME4);
                x.xdrEncodeLong(seconds);
                x.xdrEncodeInt(nseconds);
            });
        }

        /** {@code time_modify_set} to the server's clock. */
        public Builder timeModifySetToServer() {
            return put(FATTR4_TIME_MODIFY_SET, x -> x.xdrEncodeInt(SET_TO_SERVER_TIME4));
        }

        /** Any attribute, given its XDR encoding (also for values a server must refuse). */
        public Builder raw(int attr, byte[] encoded) {
            byte[] copy = encoded.clone();
            return put(attr, x -> x.xdrEncodeOpaque(copy, copy.length));
        }

        private Builder put(int attr, Encoder encoder) {
            encoders.put(attr, encoder);
            return this;
        }

        public fattr4 build() {
            int[] attrs = encoders.keySet().stream().mapToInt(Integer::intValue).toArray();
            Sequence all = new Sequence(encoders.values().toArray(new XdrAble[0]));
            return new fattr4(mask(attrs), XdrBytes.encode(all));
        }
    }

    /** Encodes one value. */
    @FunctionalInterface
    private interface Encoder extends XdrAble {
        void encode(XdrEncodingStream xdr) throws IOException;

        @Override
        default void xdrEncode(XdrEncodingStream xdr) throws IOException {
            encode(xdr);
        }

        @Override
        default void xdrDecode(XdrDecodingStream xdr) {
            throw new UnsupportedOperationException("encode only");
        }
    }

    private record Sequence(XdrAble[] parts) implements XdrAble {
        @Override
        public void xdrEncode(XdrEncodingStream xdr) throws IOException {
            for (XdrAble p : parts) {
                p.xdrEncode(xdr);
            }
        }

        @Override
        public void xdrDecode(XdrDecodingStream xdr) {
            throw new UnsupportedOperationException("encode only");
        }
    }
}

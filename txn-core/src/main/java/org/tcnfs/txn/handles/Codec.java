package org.tcnfs.txn.handles;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * The binary layouts of the handle table's keys and values (all big-endian).
 *
 * <pre>
 * nodes:   key handle(16)                        value node record (below)
 * names:   key parent(16) name(UTF-8)            value child handle(16)
 * inodes:  key len(1) exportId(UTF-8) ino(8)     value handle(16)
 * exports: key exportId(UTF-8)                   value root handle(16)
 *
 * node record, version 1:
 *   version(1) = 1, type(1) = nfs_ftype4 code, len(1) exportId(UTF-8), dev(8), ino(8), generation(8),
 *   linkCount(4), then per link: parent(16) len(2) name(UTF-8)
 * </pre>
 */
final class Codec {
    private static final byte VERSION = 1;

    private Codec() {
    }

    static byte[] handle(Nfh handle) {
        return handle.toBytes();
    }

    static Nfh handle(byte[] bytes) {
        if (bytes.length != Nfh.LENGTH) {
            throw new HandleTableException("corrupt handle value of " + bytes.length + " bytes");
        }
        return Nfh.of(bytes);
    }

    static byte[] nameKey(Nfh parent, String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(Nfh.LENGTH + utf8.length)
                .putLong(parent.high()).putLong(parent.low()).put(utf8).array();
    }

    /** The prefix all name keys of {@code parent} start with. */
    static byte[] namePrefix(Nfh parent) {
        return parent.toBytes();
    }

    static String nameOfKey(byte[] key) {
        return new String(key, Nfh.LENGTH, key.length - Nfh.LENGTH, StandardCharsets.UTF_8);
    }

    static byte[] inodeKey(String exportId, long ino) {
        byte[] utf8 = exportId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + utf8.length + Long.BYTES)
                .put((byte) utf8.length).put(utf8).putLong(ino).array();
    }

    static byte[] exportKey(String exportId) {
        return exportId.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] encode(Node node) {
        byte[] export = node.exportId().getBytes(StandardCharsets.UTF_8);
        List<byte[]> names = new ArrayList<>(node.links().size());
        int size = 1 + 1 + 1 + export.length + 8 + 8 + 8 + 4;
        for (Link link : node.links()) {
            byte[] name = link.name().getBytes(StandardCharsets.UTF_8);
            names.add(name);
            size += Nfh.LENGTH + 2 + name.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(VERSION).put((byte) typeCode(node.type())).put((byte) export.length).put(export);
        out.putLong(node.dev()).putLong(node.ino()).putLong(node.generation()).putInt(node.links().size());
        for (int i = 0; i < names.size(); i++) {
            Nfh parent = node.links().get(i).parent();
            byte[] name = names.get(i);
            out.putLong(parent.high()).putLong(parent.low()).putShort((short) name.length).put(name);
        }
        return out.array();
    }

    static Node decode(Nfh handle, byte[] value) {
        try {
            ByteBuffer in = ByteBuffer.wrap(value);
            byte version = in.get();
            if (version != VERSION) {
                throw new HandleTableException("unknown node record version " + version + " for " + handle);
            }
            FileType type = typeOf(in.get());
            String exportId = exportId(in, Byte.toUnsignedInt(in.get()));
            long dev = in.getLong();
            long ino = in.getLong();
            long generation = in.getLong();
            int count = in.getInt();
            if (count < 0 || count > in.remaining() / (Nfh.LENGTH + 2)) {
                throw new HandleTableException("corrupt link count " + count + " for " + handle);
            }
            List<Link> links = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Nfh parent = new Nfh(in.getLong(), in.getLong());
                links.add(new Link(parent, string(in, Short.toUnsignedInt(in.getShort()))));
            }
            if (in.hasRemaining()) {
                throw new HandleTableException("trailing bytes in the node record of " + handle);
            }
            return new Node(handle, exportId, type, dev, ino, generation, links);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new HandleTableException("corrupt node record for " + handle, e);
        }
    }

    private static String string(ByteBuffer in, int length) {
        if (length > in.remaining()) {
            throw new BufferUnderflowException();
        }
        String text = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return text;
    }

    /** The export id last decoded, with its bytes: every node of an export repeats them. */
    private record KnownExport(byte[] bytes, String id) {
    }

    private static volatile KnownExport lastExport = new KnownExport(new byte[0], "");

    /** {@link #string} for an export id, reusing the last one decoded when the bytes are the same. */
    private static String exportId(ByteBuffer in, int length) {
        if (length > in.remaining()) {
            throw new BufferUnderflowException();
        }
        KnownExport known = lastExport;
        int from = in.arrayOffset() + in.position();
        if (Arrays.equals(known.bytes(), 0, known.bytes().length, in.array(), from, from + length)) {
            in.position(in.position() + length);
            return known.id();
        }
        String id = string(in, length);
        lastExport = new KnownExport(Arrays.copyOfRange(in.array(), from, from + length), id);
        return id;
    }

    /** The {@code nfs_ftype4} code of a type. */
    static int typeCode(FileType type) {
        return switch (type) {
            case REGULAR -> 1;
            case DIRECTORY -> 2;
            case BLOCK -> 3;
            case CHAR -> 4;
            case SYMLINK -> 5;
            case SOCKET -> 6;
            case FIFO -> 7;
        };
    }

    static FileType typeOf(int code) {
        return switch (code) {
            case 1 -> FileType.REGULAR;
            case 2 -> FileType.DIRECTORY;
            case 3 -> FileType.BLOCK;
            case 4 -> FileType.CHAR;
            case 5 -> FileType.SYMLINK;
            case 6 -> FileType.SOCKET;
            case 7 -> FileType.FIFO;
            default -> throw new HandleTableException("unknown type code " + code);
        };
    }
}

package org.tcnfs.proto;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.tcnfs.proto.recovery.Content;
import org.tcnfs.proto.recovery.Envelope;
import org.tcnfs.proto.recovery.TxnRecord;

/**
 * Turns {@link RecoveryRecord}s and {@link TxnIdState}s into bytes and back. The transaction layer stores
 * the bytes in LMDB; no protobuf type leaves this module.
 *
 * <p>The bytes are a protobuf {@code Envelope} ({@code tcnfs/recovery.proto}): a format version, what the
 * value is, the value's own protobuf bytes and their CRC-32C. So a damaged value is rejected rather than
 * read as a slightly different one (a flipped bit in a path would otherwise still parse, and undo would
 * touch the wrong file), and a value of one type is never read as the other.
 *
 * <p>Decoding accepts bytes written by this version, and by later versions that only added fields (unknown
 * fields are ignored). It rejects, with {@link InvalidRecordException} and never another exception, bytes
 * that are not such a value: malformed protobuf, a checksum that does not match, a missing or newer
 * {@link #FORMAT_VERSION}, an undo step or range source of a kind this version does not know, or values
 * that break a record's rules.
 *
 * <p>Stateless and thread-safe.
 */
public final class RecoveryRecords {

    /** The layout version this class writes and the newest it reads. */
    public static final int FORMAT_VERSION = 1;

    private RecoveryRecords() {
    }

    /** The bytes of {@code record}. */
    public static byte[] encode(RecoveryRecord record) {
        Objects.requireNonNull(record, "record");
        return seal(Content.CONTENT_TXN_RECORD, ProtoMapping.toProto(record).toByteString());
    }

    /**
     * The record whose bytes are {@code bytes}.
     *
     * @throws InvalidRecordException if {@code bytes} is not a valid recovery record of a version this one
     *     reads
     */
    public static RecoveryRecord decode(byte[] bytes) throws InvalidRecordException {
        ByteString payload = open(bytes, Content.CONTENT_TXN_RECORD, "recovery record");
        TxnRecord message;
        try {
            message = TxnRecord.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidRecordException("invalid recovery record: " + e.getMessage(), e);
        }
        try {
            return ProtoMapping.fromProto(message);
        } catch (IllegalArgumentException e) {
            throw new InvalidRecordException("invalid recovery record: " + e.getMessage(), e);
        }
    }

    /** The bytes of {@code state}. */
    public static byte[] encode(TxnIdState state) {
        Objects.requireNonNull(state, "state");
        return seal(Content.CONTENT_TXN_ID_STATE, ProtoMapping.toProto(state).toByteString());
    }

    /**
     * The transaction id state whose bytes are {@code bytes}.
     *
     * @throws InvalidRecordException if {@code bytes} is not a valid transaction id state of a version this
     *     one reads
     */
    public static TxnIdState decodeTxnIdState(byte[] bytes) throws InvalidRecordException {
        ByteString payload = open(bytes, Content.CONTENT_TXN_ID_STATE, "transaction id state");
        org.tcnfs.proto.recovery.TxnIdState message;
        try {
            message = org.tcnfs.proto.recovery.TxnIdState.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidRecordException("invalid transaction id state: " + e.getMessage(), e);
        }
        try {
            return ProtoMapping.fromProto(message);
        } catch (IllegalArgumentException e) {
            throw new InvalidRecordException("invalid transaction id state: " + e.getMessage(), e);
        }
    }

    private static byte[] seal(Content content, ByteString payload) {
        return Envelope.newBuilder()
                .setFormatVersion(FORMAT_VERSION)
                .setContent(content)
                .setPayload(payload)
                .setPayloadCrc32C(crc32c(payload))
                .build()
                .toByteArray();
    }

    /** The checked payload of an envelope holding {@code expected}. */
    private static ByteString open(byte[] bytes, Content expected, String what) throws InvalidRecordException {
        Objects.requireNonNull(bytes, "bytes");
        Envelope envelope;
        try {
            envelope = Envelope.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidRecordException("not a " + what + ": " + e.getMessage(), e);
        }
        int version = envelope.getFormatVersion();
        if (version == 0) {
            throw new InvalidRecordException("not a " + what + ": no format version");
        }
        if (version < 0 || version > FORMAT_VERSION) {
            throw new InvalidRecordException(what + " has format version " + Integer.toUnsignedString(version)
                    + ", newer than " + FORMAT_VERSION + ", the newest this server reads");
        }
        if (envelope.getContent() != expected) {
            throw new InvalidRecordException("not a " + what + ": holds " + envelope.getContent());
        }
        ByteString payload = envelope.getPayload();
        if (crc32c(payload) != envelope.getPayloadCrc32C()) {
            throw new InvalidRecordException(what + " is damaged: checksum mismatch");
        }
        return payload;
    }

    private static int crc32c(ByteString payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload.asReadOnlyByteBuffer());
        return (int) crc.getValue();
    }
}

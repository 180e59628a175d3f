package org.tcnfs.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.ByteString;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.tcnfs.proto.recovery.Content;
import org.tcnfs.proto.recovery.Envelope;

/**
 * Fuzzes the recovery record codec ({@link RecoveryRecords}, {@link ProtoMapping}) with what recovery may
 * find in the state directory. The first byte of an input says what the rest is: {@code 0} the stored
 * bytes themselves; {@code 1} or {@code 2} the payload of a recovery record or a transaction id state,
 * which the test seals in a well-formed envelope with its checksum (the fuzzer could not find a CRC-32C by
 * itself, and the payload is what {@link ProtoMapping} reads). Run with a small heap, so that an
 * allocation sized by a claimed length fails as OutOfMemoryError.
 *
 * <p>Properties: decoding returns a value or throws {@link InvalidRecordException}, never another
 * exception; a value that decodes encodes again, and those bytes decode to an equal value and encode to
 * the same bytes.
 */
class RecoveryRecordCodecFuzzTest {
    static final byte STORED = 0;
    static final byte RECORD_PAYLOAD = 1;
    static final byte TXN_ID_STATE_PAYLOAD = 2;

    @FuzzTest(maxDuration = "20s")
    void storedBytesDecodeOrAreInvalidAndValuesRoundTrip(byte[] input) {
        if (input.length == 0) {
            return;
        }
        byte[] rest = Arrays.copyOfRange(input, 1, input.length);
        switch (input[0]) {
            case RECORD_PAYLOAD -> record(seal(Content.CONTENT_TXN_RECORD, rest));
            case TXN_ID_STATE_PAYLOAD -> txnIdState(seal(Content.CONTENT_TXN_ID_STATE, rest));
            default -> {
                record(rest);
                txnIdState(rest);
            }
        }
    }

    private static void record(byte[] stored) {
        RecoveryRecord record;
        try {
            record = RecoveryRecords.decode(stored);
        } catch (InvalidRecordException e) {
            return;
        }
        byte[] encoded = RecoveryRecords.encode(record);
        RecoveryRecord again = decodeValid(encoded);
        assertThat(again).isEqualTo(record);
        assertThat(RecoveryRecords.encode(again)).isEqualTo(encoded);
    }

    private static void txnIdState(byte[] stored) {
        TxnIdState state;
        try {
            state = RecoveryRecords.decodeTxnIdState(stored);
        } catch (InvalidRecordException e) {
            return;
        }
        byte[] encoded = RecoveryRecords.encode(state);
        try {
            assertThat(RecoveryRecords.decodeTxnIdState(encoded)).isEqualTo(state);
        } catch (InvalidRecordException e) {
            throw new AssertionError("the encoding of a decoded state does not decode", e);
        }
    }

    private static RecoveryRecord decodeValid(byte[] encoded) {
        try {
            return RecoveryRecords.decode(encoded);
        } catch (InvalidRecordException e) {
            throw new AssertionError("the encoding of a decoded record does not decode", e);
        }
    }

    /** {@code payload} in an envelope of the current format version, with its checksum. */
    static byte[] seal(Content content, byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        return Envelope.newBuilder()
                .setFormatVersion(RecoveryRecords.FORMAT_VERSION)
                .setContent(content)
                .setPayload(ByteString.copyFrom(payload))
                .setPayloadCrc32C((int) crc.getValue())
                .build()
                .toByteArray();
    }
}

package org.tcnfs.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tcnfs.proto.recovery.Content;
import org.tcnfs.proto.recovery.Envelope;
import org.tcnfs.proto.recovery.TxnRecord;

class RecoveryRecordsTest {

    private static RecoveryRecord roundTrip(RecoveryRecord record) throws InvalidRecordException {
        return RecoveryRecords.decode(RecoveryRecords.encode(record));
    }

    private static RecoveryRecord withSteps(List<UndoStep> steps) {
        RecoveryRecord.Builder builder = RecoveryRecord.builder(7, "export", Samples.START).opCount(Samples.OP_COUNT);
        steps.forEach(builder::step);
        return builder.build();
    }

    static Stream<UndoStep> everyStep() {
        return Samples.steps().stream();
    }

    @ParameterizedTest
    @MethodSource("everyStep")
    void eachUndoStepRoundTrips(UndoStep step) throws InvalidRecordException {
        RecoveryRecord record = withSteps(List.of(step));

        assertThat(roundTrip(record).steps()).containsExactly(step);
    }

    @Test
    void theSamplesCoverEveryUndoStepKind() {
        Set<Class<?>> covered = Samples.steps().stream().map(Object::getClass).collect(Collectors.toSet());

        assertThat(covered).containsExactlyInAnyOrder(UndoStep.class.getPermittedSubclasses());
    }

    @Test
    void aFullRecordRoundTrips() throws InvalidRecordException {
        RecoveryRecord record = Samples.fullRecord();

        RecoveryRecord decoded = roundTrip(record);

        assertThat(decoded).isEqualTo(record);
        assertThat(decoded.backupDirectory()).contains(".tcnfs/backup/7");
        assertThat(decoded.lastUndoError()).contains("EIO while cloning back etc/passwd");
        assertThat(decoded.pendingUndo()).hasSize(Samples.steps().size() - 3);
    }

    @Test
    void aMinimalRecordRoundTrips() throws InvalidRecordException {
        RecoveryRecord record = Samples.minimalRecord();

        RecoveryRecord decoded = roundTrip(record);

        assertThat(decoded).isEqualTo(record);
        assertThat(decoded.backupDirectory()).isEmpty();
        assertThat(decoded.lastUndoError()).isEmpty();
        assertThat(decoded.steps()).isEmpty();
    }

    @Test
    void startTimesRoundTripToTheNanosecondAtBothEndsOfTheRange() throws InvalidRecordException {
        for (Instant started : List.of(RecoveryRecord.EARLIEST, RecoveryRecord.LATEST,
                Instant.parse("1950-01-01T00:00:00.000000001Z"), Samples.START)) {
            RecoveryRecord record = RecoveryRecord.builder(3, "e", started).build();

            assertThat(roundTrip(record).started()).isEqualTo(started);
        }
    }

    @Test
    void txnIdStateRoundTrips() throws InvalidRecordException {
        for (TxnIdState state : List.of(TxnIdState.INITIAL, new TxnIdState(Long.MAX_VALUE),
                TxnIdState.INITIAL.advancedBy(1024))) {
            assertThat(RecoveryRecords.decodeTxnIdState(RecoveryRecords.encode(state))).isEqualTo(state);
        }
    }

    // ------------------------------------------------------------------ corrupt and foreign bytes

    @Test
    void emptyBytesAreNotARecord() {
        assertThatThrownBy(() -> RecoveryRecords.decode(new byte[0]))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("no format version");
        assertThatThrownBy(() -> RecoveryRecords.decodeTxnIdState(new byte[0]))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("no format version");
    }

    @Test
    void malformedProtobufIsInvalid() {
        byte[] truncated = Arrays.copyOf(RecoveryRecords.encode(Samples.fullRecord()), 100);

        assertThatThrownBy(() -> RecoveryRecords.decode(truncated))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageStartingWith("not a recovery record");
        assertThatThrownBy(() -> RecoveryRecords.decode(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}))
                .isInstanceOf(InvalidRecordException.class);
    }

    @Test
    void aTxnIdStateIsNotARecoveryRecord() {
        byte[] state = RecoveryRecords.encode(new TxnIdState(5));

        assertThatThrownBy(() -> RecoveryRecords.decode(state))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("not a recovery record: holds CONTENT_TXN_ID_STATE");
        assertThatThrownBy(() -> RecoveryRecords.decodeTxnIdState(RecoveryRecords.encode(Samples.minimalRecord())))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("not a transaction id state: holds CONTENT_TXN_RECORD");
    }

    @Test
    void aDamagedPayloadFailsItsChecksum() {
        byte[] bytes = RecoveryRecords.encode(Samples.fullRecord());
        int pathByte = indexOf(bytes, "etc/passwd".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        bytes[pathByte] ^= 0x01; // "dtc/passwd": still a valid record, but not the one written

        assertThatThrownBy(() -> RecoveryRecords.decode(bytes))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("recovery record is damaged: checksum mismatch");
    }

    @Test
    void anEnvelopeWithoutItsChecksumIsDamaged() {
        byte[] bytes = envelope(Content.CONTENT_TXN_RECORD, proto(Samples.fullRecord())).clearPayloadCrc32C()
                .build().toByteArray();

        assertThatThrownBy(() -> RecoveryRecords.decode(bytes))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("checksum mismatch");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    @Test
    void aNewerFormatVersionIsRejected() {
        byte[] bytes = envelope(Content.CONTENT_TXN_RECORD, proto(Samples.minimalRecord())).setFormatVersion(2)
                .build().toByteArray();

        assertThatThrownBy(() -> RecoveryRecords.decode(bytes))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("format version 2, newer than 1");
    }

    @Test
    void aTxnIdFloorOfZeroIsInvalid() {
        byte[] bytes = sealed(Content.CONTENT_TXN_ID_STATE, org.tcnfs.proto.recovery.TxnIdState.newBuilder().build());

        assertThatThrownBy(() -> RecoveryRecords.decodeTxnIdState(bytes))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("next_txn_id_floor");
    }

    static Stream<UnaryOperator<TxnRecord.Builder>> brokenRules() {
        return Stream.of(
                b -> b.setTxnId(0),
                b -> b.setTxnId(-1L), // 2^64 - 1 as uint64
                b -> b.setExportId(""),
                b -> b.setOpCount(1), // steps belong to ops up to 11
                b -> b.setUndoneSteps(1000),
                b -> b.setUndoAttempts(-1),
                b -> b.setBackupDir("with\0nul"),
                b -> b.setLockKeys(0, b.getLockKeys(0).toBuilder().setModeValue(0)),
                b -> b.setLockKeys(0, b.getLockKeys(0).toBuilder().setModeValue(17)),
                b -> b.setPreImages(0, b.getPreImages(0).toBuilder().setKind(
                        org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_REGULAR)), // absent name with a kind
                b -> b.setPreImages(1, b.getPreImages(1).toBuilder().clearKind()), // present name without
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setOpIndex(12)), // op indexes decrease
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setOpIndex(-1)),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().clearKind()),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setOldSize(100))), // ranges past old size
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setOldSize(-1L))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setRanges(1,
                                b.getSteps(0).getRestoreRanges().getRanges(1).toBuilder().setOffset(4000)))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setRanges(1,
                                b.getSteps(0).getRestoreRanges().getRanges(1).toBuilder().setLength(8)))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setRanges(0,
                                b.getSteps(0).getRestoreRanges().getRanges(0).toBuilder().clearSource()))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setRanges(0,
                                b.getSteps(0).getRestoreRanges().getRanges(0).toBuilder().setLength(0)))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setTarget(
                                b.getSteps(0).getRestoreRanges().getTarget().toBuilder().setPath("../etc/passwd")))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setTarget(
                                b.getSteps(0).getRestoreRanges().getTarget().toBuilder().setPath("/etc/passwd")))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setTarget(
                                b.getSteps(0).getRestoreRanges().getTarget().toBuilder().setPath("")))),
                b -> b.setSteps(0, b.getSteps(0).toBuilder().setRestoreRanges(
                        b.getSteps(0).getRestoreRanges().toBuilder().setTarget(
                                b.getSteps(0).getRestoreRanges().getTarget().toBuilder()
                                        .setHandle(ByteString.copyFrom(new byte[15]))))),
                b -> b.setSteps(3, b.getSteps(3).toBuilder().setRemoveCreated(
                        b.getSteps(3).getRemoveCreated().toBuilder().setKindValue(99))),
                b -> b.setSteps(8, b.getSteps(8).toBuilder().setMoveBack(
                        b.getSteps(8).getMoveBack().toBuilder().setBackup(""))),
                b -> b.setSteps(10, b.getSteps(10).toBuilder().setRenameBack(
                        b.getSteps(10).getRenameBack().toBuilder().setKeptTargetBackup("a/../b"))),
                b -> b.setSteps(12, b.getSteps(12).toBuilder().setRestoreAttributes(
                        b.getSteps(12).getRestoreAttributes().toBuilder().clearOld())),
                b -> b.setSteps(13, b.getSteps(13).toBuilder().setRestoreAttributes(
                        b.getSteps(13).getRestoreAttributes().toBuilder().setOld(
                                b.getSteps(13).getRestoreAttributes().getOld().toBuilder().setMode(010000)))),
                b -> b.setSteps(13, b.getSteps(13).toBuilder().setRestoreAttributes(
                        b.getSteps(13).getRestoreAttributes().toBuilder().setOld(
                                b.getSteps(13).getRestoreAttributes().getOld().toBuilder().setAtime(
                                        org.tcnfs.proto.recovery.UnixTime.newBuilder().setNanos(1_000_000_000))))),
                b -> b.setSteps(13, b.getSteps(13).toBuilder().setRestoreAttributes(
                        b.getSteps(13).getRestoreAttributes().toBuilder().setOld(
                                b.getSteps(13).getRestoreAttributes().getOld().toBuilder().setMtime(
                                        org.tcnfs.proto.recovery.UnixTime.newBuilder().setSeconds(Long.MAX_VALUE))))));
    }

    @ParameterizedTest
    @MethodSource("brokenRules")
    void aRecordThatBreaksARuleIsInvalid(UnaryOperator<TxnRecord.Builder> breakRule) {
        byte[] bytes = sealed(breakRule.apply(proto(Samples.fullRecord()).toBuilder()));

        assertThatThrownBy(() -> RecoveryRecords.decode(bytes))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageStartingWith("invalid recovery record: ");
    }

    @Test
    void anInvalidStepIsReportedWithItsPlace() {
        TxnRecord.Builder message = proto(Samples.fullRecord()).toBuilder();
        message.setSteps(8, message.getSteps(8).toBuilder().setMoveBack(
                message.getSteps(8).getMoveBack().toBuilder().setBackup("..")));

        assertThatThrownBy(() -> RecoveryRecords.decode(sealed(message)))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("steps[8]: move_back.backup: not a plain name");
    }

    @Test
    void randomAndDamagedBytesAreRejectedWithInvalidRecordOnly() {
        long seed = System.nanoTime();
        System.out.println("RecoveryRecordsTest fuzz seed " + seed);
        Random random = new Random(seed);
        RecoveryRecord original = Samples.fullRecord();
        byte[] valid = RecoveryRecords.encode(original);
        int decoded = 0;
        int rejected = 0;
        for (int trial = 0; trial < 20_000; trial++) {
            byte[] bytes;
            if (trial % 2 == 0) {
                bytes = new byte[random.nextInt(64)];
                random.nextBytes(bytes);
            } else {
                bytes = valid.clone();
                int flips = 1 + random.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                }
                if (random.nextInt(4) == 0) {
                    bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
                }
            }
            try {
                RecoveryRecord read = RecoveryRecords.decode(bytes);
                assertThat(read).as("seed %d, trial %d: damaged bytes read as another record", seed, trial)
                        .isEqualTo(original);
                decoded++;
            } catch (InvalidRecordException e) {
                rejected++;
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ", trial " + trial + ": "
                        + java.util.HexFormat.of().formatHex(bytes), e);
            }
            try {
                RecoveryRecords.decodeTxnIdState(bytes);
            } catch (InvalidRecordException e) {
                rejected++;
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ", trial " + trial + " (TxnIdState): "
                        + java.util.HexFormat.of().formatHex(bytes), e);
            }
        }
        assertThat(rejected).isPositive();
        System.out.println("fuzz: " + decoded + " damaged records read back unchanged, " + rejected + " rejections");
    }

    // ------------------------------------------------------------------ forward compatibility

    @Test
    void unknownFieldsAreIgnoredAtEveryLevel() throws InvalidRecordException {
        RecoveryRecord record = Samples.fullRecord();
        UnknownFieldSet unknown = UnknownFieldSet.newBuilder()
                .addField(1000, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
                .addField(1001, UnknownFieldSet.Field.newBuilder()
                        .addLengthDelimited(ByteString.copyFromUtf8("from a later version")).build())
                .build();
        TxnRecord.Builder message = proto(record).toBuilder().setUnknownFields(unknown);
        message.setSteps(0, message.getSteps(0).toBuilder().setUnknownFields(unknown)
                .setRestoreRanges(message.getSteps(0).getRestoreRanges().toBuilder()
                        .setTarget(message.getSteps(0).getRestoreRanges().getTarget().toBuilder()
                                .setUnknownFields(unknown))));
        message.setLockKeys(0, message.getLockKeys(0).toBuilder().setUnknownFields(unknown));
        message.setPreImages(1, message.getPreImages(1).toBuilder().setAttributes(
                message.getPreImages(1).getAttributes().toBuilder().setUnknownFields(unknown)));

        byte[] bytes = envelope(Content.CONTENT_TXN_RECORD, message.build()).setUnknownFields(unknown).build()
                .toByteArray();

        assertThat(RecoveryRecords.decode(bytes)).isEqualTo(record);
    }

    @Test
    void bytesAppendedAsANewFieldAreIgnored() throws InvalidRecordException {
        RecoveryRecord record = Samples.fullRecord();
        byte[] encoded = RecoveryRecords.encode(record);
        // field 50, wire type 2 (length-delimited): tag (50 << 3 | 2) = 402 = varint 0x92 0x03, 3 bytes
        byte[] appended = new byte[encoded.length + 6];
        System.arraycopy(encoded, 0, appended, 0, encoded.length);
        System.arraycopy(new byte[] {(byte) 0x92, 0x03, 3, 'n', 'e', 'w'}, 0, appended, encoded.length, 6);

        assertThat(RecoveryRecords.decode(appended)).isEqualTo(record);
    }

    @Test
    void anUndoStepOfAKindFromALaterVersionFailsTheWholeRecord() {
        TxnRecord.Builder message = proto(Samples.fullRecord()).toBuilder();
        org.tcnfs.proto.recovery.UndoStep future = org.tcnfs.proto.recovery.UndoStep.newBuilder()
                .setOpIndex(21)
                .setUnknownFields(UnknownFieldSet.newBuilder()
                        .addField(99, UnknownFieldSet.Field.newBuilder()
                                .addLengthDelimited(ByteString.copyFromUtf8("deallocate")).build())
                        .build())
                .build();
        message.addSteps(future);

        assertThatThrownBy(() -> RecoveryRecords.decode(sealed(message)))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("steps[14]: undo step of no kind known to this version");
    }

    /**
     * A record of every kind of undo step as this format wrote it before the undo steps became a visitor (issue
     * 13, item 6; bytes kept in {@code full-record-format1.hex}, written by commit d81456a's code): a record a
     * crash left on disk then is still decoded to the same steps, and encoding them again gives the same bytes.
     * The file is never rewritten: a new kind of step gets a sample in {@link Samples#steps()}, not here.
     */
    @Test
    void aRecordWrittenBeforeTheStepsBecameAVisitorDecodesToTheSameSteps() throws Exception {
        byte[] old;
        try (var in = RecoveryRecordsTest.class.getResourceAsStream("full-record-format1.hex")) {
            old = java.util.HexFormat.of().parseHex(new String(in.readAllBytes(),
                    java.nio.charset.StandardCharsets.US_ASCII).strip());
        }

        RecoveryRecord decoded = RecoveryRecords.decode(old);

        assertThat(decoded).isEqualTo(Samples.format1Record());
        assertThat(RecoveryRecords.encode(decoded)).isEqualTo(old);
    }

    // ------------------------------------------------------------------ size

    @Test
    void aRecordOfAThousandStepsRoundTrips() throws InvalidRecordException {
        RecoveryRecord.Builder builder = RecoveryRecord.builder(123_456_789, "export-1", Samples.START)
                .backupDirectory("/srv/export/.tcnfs/backup/123456789")
                .opCount(1000);
        List<UndoStep> templates = Samples.steps();
        Set<String> lockKeys = new HashSet<>();
        for (int op = 0; op < 1000; op++) {
            String dir = "dir" + (op / 100);
            String name = dir + "/file-" + op;
            lockKeys.add(dir);
            lockKeys.add(name);
            UndoStep template = templates.get(op % templates.size());
            builder.step(retarget(template, op, RelativePath.of(name)));
            builder.preImage(PreImage.present(ObjectRef.of(RelativePath.of(name), Samples.HANDLE_A, op),
                    ObjectKind.REGULAR, Samples.allAttributes()));
        }
        lockKeys.stream().sorted().forEach(key -> builder.lockKey(LockKey.write(key)));
        RecoveryRecord record = builder.build();

        byte[] bytes = RecoveryRecords.encode(record);
        RecoveryRecord decoded = RecoveryRecords.decode(bytes);

        assertThat(decoded).isEqualTo(record);
        assertThat(decoded.steps()).hasSize(1000);
        // a rough figure for the report, not an assertion: warm up, then average encode + decode
        for (int i = 0; i < 100; i++) {
            roundTrip(record);
        }
        int rounds = 100;
        long before = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            roundTrip(record);
        }
        long micros = (System.nanoTime() - before) / 1000 / rounds;
        System.out.printf("record of 1,000 steps, 1,000 pre-images, %d lock keys: %,d bytes,"
                + " encode + decode %,d us on average%n", lockKeys.size(), bytes.length, micros);
    }

    /** {@code template} moved to op {@code op} and path {@code path}. */
    private static UndoStep retarget(UndoStep template, int op, RelativePath path) {
        if (template instanceof UndoStep.RestoreRanges s) {
            return new UndoStep.RestoreRanges(op, new ObjectRef(path, s.target().handle(), s.target().fileId()),
                    s.oldSize(), s.ranges());
        } else if (template instanceof UndoStep.RestoreSize s) {
            return new UndoStep.RestoreSize(op, new ObjectRef(path, s.target().handle(), s.target().fileId()),
                    s.oldSize());
        } else if (template instanceof UndoStep.RemoveCreated s) {
            return new UndoStep.RemoveCreated(op, ObjectRef.at(path), s.kind());
        } else if (template instanceof UndoStep.UnlinkLink s) {
            return new UndoStep.UnlinkLink(op, new ObjectRef(path, s.link().handle(), s.link().fileId()));
        } else if (template instanceof UndoStep.MoveBack s) {
            return new UndoStep.MoveBack(op, new ObjectRef(path, s.original().handle(), s.original().fileId()),
                    s.kind(), RelativePath.of("victim-" + op));
        } else if (template instanceof UndoStep.RenameBack s) {
            return new UndoStep.RenameBack(op, new ObjectRef(path, s.from().handle(), s.from().fileId()),
                    ObjectRef.at(path.parent().resolve("renamed-" + op)),
                    s.keptTargetBackup().map(b -> RelativePath.of("kept-" + op)));
        } else if (template instanceof UndoStep.RestoreAttributes s) {
            return new UndoStep.RestoreAttributes(op, new ObjectRef(path, s.target().handle(), s.target().fileId()),
                    s.old());
        }
        throw new AssertionError(template);
    }

    /** The protobuf message inside the bytes of {@code record}. */
    private static TxnRecord proto(RecoveryRecord record) {
        try {
            return TxnRecord.parseFrom(Envelope.parseFrom(RecoveryRecords.encode(record)).getPayload());
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code payload} in a valid envelope of {@code content}, as the codec would write it. */
    private static byte[] sealed(Content content, Message payload) {
        return envelope(content, payload).build().toByteArray();
    }

    private static Envelope.Builder envelope(Content content, Message payload) {
        ByteString bytes = payload.toByteString();
        CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        return Envelope.newBuilder().setFormatVersion(1).setContent(content).setPayload(bytes)
                .setPayloadCrc32C((int) crc.getValue());
    }

    private static byte[] sealed(TxnRecord.Builder message) {
        return sealed(Content.CONTENT_TXN_RECORD, message.build());
    }
}

package org.tcnfs.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;
import org.tcnfs.nfs4.xdr.opentype4;
import org.tcnfs.nfs4.xdr.stable_how4;

class CompoundBuilderTest {

    private static int[] opnums(COMPOUND4args args) {
        return Arrays.stream(args.argarray).mapToInt(op -> op.argop).toArray();
    }

    @Test
    void operationsAppearInTheOrderTheyWereAdded() {
        COMPOUND4args args = new CompoundBuilder().putrootfh().lookup("a").getfh().savefh().lookupp().restorefh()
                .readlink().build();

        assertThat(opnums(args)).containsExactly(OP_PUTROOTFH, OP_LOOKUP, OP_GETFH, OP_SAVEFH, OP_LOOKUPP,
                OP_RESTOREFH, OP_READLINK);
        assertThat(((LOOKUP4args) args.argarray[1].args).objname).isEqualTo("a");
        assertThat(args.argarray[0].args).isNull();
    }

    @Test
    void minorVersionIsOneAndTagEmptyUnlessSet() {
        COMPOUND4args plain = new CompoundBuilder().putrootfh().build();
        COMPOUND4args tagged = new CompoundBuilder().tag("t").minorVersion(0).putrootfh().build();

        assertThat(plain.minorversion).isEqualTo(1);
        assertThat(plain.tag).isEmpty();
        assertThat(tagged.minorversion).isZero();
        assertThat(tagged.tag).isEqualTo("t");
    }

    @Test
    void compoundEncodesToTheRfcWireLayout() throws IOException {
        byte[] fh = {1, 2, 3, 4, 5};
        byte[] encoded = XdrBytes.encode(new CompoundBuilder().tag("t").putfh(fh).lookup("ab").build());

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(expected);
        d.writeInt(1); // tag length
        d.write(new byte[] {'t', 0, 0, 0});
        d.writeInt(1); // minorversion
        d.writeInt(2); // two operations
        d.writeInt(OP_PUTFH);
        d.writeInt(5);
        d.write(new byte[] {1, 2, 3, 4, 5, 0, 0, 0});
        d.writeInt(OP_LOOKUP);
        d.writeInt(2);
        d.write(new byte[] {'a', 'b', 0, 0});
        assertThat(encoded).isEqualTo(expected.toByteArray());
    }

    @Test
    void encodedCompoundDecodesBackToTheSameOperations() throws IOException {
        COMPOUND4args sent = new CompoundBuilder()
                .sequence(new byte[16], 7, 2, 3)
                .putrootfh()
                .mkdir("d")
                .symlink("s", "../target")
                .rename("old", "new")
                .build();

        COMPOUND4args received = XdrBytes.decode(XdrBytes.encode(sent), new COMPOUND4args());

        assertThat(opnums(received)).containsExactly(OP_SEQUENCE, OP_PUTROOTFH, OP_CREATE, OP_CREATE, OP_RENAME);
        SEQUENCE4args seq = (SEQUENCE4args) received.argarray[0].args;
        assertThat(seq.sa_sequenceid).isEqualTo(7);
        assertThat(seq.sa_slotid).isEqualTo(2);
        assertThat(seq.sa_highest_slotid).isEqualTo(3);
        assertThat(seq.sa_cachethis).isTrue();
        CREATE4args dir = (CREATE4args) received.argarray[2].args;
        assertThat(dir.objtype.type).isEqualTo(nfs_ftype4.NF4DIR);
        assertThat(dir.objname).isEqualTo("d");
        CREATE4args link = (CREATE4args) received.argarray[3].args;
        assertThat(link.objtype.type).isEqualTo(nfs_ftype4.NF4LNK);
        assertThat(new String(link.objtype.linkdata, StandardCharsets.UTF_8)).isEqualTo("../target");
        RENAME4args rename = (RENAME4args) received.argarray[4].args;
        assertThat(rename.oldname).isEqualTo("old");
        assertThat(rename.newname).isEqualTo("new");
    }

    @Test
    void getattrMaskSetsOneBitPerAttributeAcrossWords() {
        COMPOUND4args args = new CompoundBuilder().getattr(nfs4_attr.FATTR4_TYPE, nfs4_attr.FATTR4_MODE,
                nfs4_attr.FATTR4_SUPPATTR_EXCLCREAT).build();

        int[] words = ((GETATTR4args) args.argarray[0].args).attr_request.value;
        assertThat(words).containsExactly(1 << 1, 1 << (33 - 32), 1 << (75 - 64));
        assertThat(Attrs.numbers(Attrs.mask(1, 33, 75))).containsExactly(1, 33, 75);
    }

    @Test
    void lookupPathAddsOneLookupPerNonEmptyComponent() {
        COMPOUND4args args = new CompoundBuilder().lookupPath("/a//b/c/").build();

        assertThat(Arrays.stream(args.argarray).map(op -> ((LOOKUP4args) op.args).objname))
                .containsExactly("a", "b", "c");
    }

    @Test
    void putfhAndWriteCopyTheCallersArrays() {
        byte[] fh = {9, 9};
        byte[] data = {1, 2, 3};
        CompoundBuilder b = new CompoundBuilder().putfh(fh).write(CompoundBuilder.anonymousStateid(), 10, data);
        fh[0] = 0;
        data[0] = 0;

        COMPOUND4args args = b.build();
        assertThat(((PUTFH4args) args.argarray[0].args).object.value).containsExactly(9, 9);
        WRITE4args write = (WRITE4args) args.argarray[1].args;
        assertThat(write.offset).isEqualTo(10);
        assertThat(write.stable).isEqualTo(stable_how4.FILE_SYNC4);
        assertThat(write.data.get(0)).isEqualTo((byte) 1);
    }

    @Test
    void openCreateAsksForAnUncheckedCreateByName() {
        COMPOUND4args args = new CompoundBuilder().openCreate(42L, new byte[] {7}, "f",
                OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().mode(0640).build()).build();

        OPEN4args open = (OPEN4args) args.argarray[0].args;
        assertThat(open.owner.clientid).isEqualTo(42L);
        assertThat(open.owner.owner).containsExactly(7);
        assertThat(open.openhow.opentype).isEqualTo(opentype4.OPEN4_CREATE);
        assertThat(open.claim.file).isEqualTo("f");
        assertThat(open.share_access).isEqualTo(OPEN4args.OPEN4_SHARE_ACCESS_BOTH);
    }

    @Test
    void lockNewOwnerCarriesTheOpenStateidAndTheOwner() {
        COMPOUND4args args = new CompoundBuilder().lockNewOwner(nfs_lock_type4.WRITE_LT, 0, -1,
                CompoundBuilder.currentStateid(), 5L, new byte[] {1, 2}).build();

        LOCK4args lock = (LOCK4args) args.argarray[0].args;
        assertThat(lock.locktype).isEqualTo(nfs_lock_type4.WRITE_LT);
        assertThat(lock.length).isEqualTo(-1L);
        assertThat(lock.locker.new_lock_owner).isTrue();
        assertThat(lock.locker.open_owner.open_stateid.seqid).isEqualTo(1);
        assertThat(lock.locker.open_owner.lock_owner.clientid).isEqualTo(5L);
    }

    @Test
    void rawOperationIsSentAsGiven() throws IOException {
        COMPOUND4args args = new CompoundBuilder().op(12345, null).build();

        byte[] encoded = XdrBytes.encode(args);
        assertThat(Arrays.copyOfRange(encoded, encoded.length - 4, encoded.length)).containsExactly(0, 0, 0x30, 0x39);
        assertThat(args.argarray).extracting(op -> op.argop).containsExactly(12345);
    }

    @Test
    void buildCanBeCalledAgainAndSeesLaterOperations() {
        CompoundBuilder b = new CompoundBuilder().putrootfh();
        COMPOUND4args first = b.build();
        b.getfh();

        assertThat(first.argarray).hasSize(1);
        assertThat(b.build().argarray).extracting((nfs_argop4 op) -> op.argop).containsExactly(OP_PUTROOTFH, OP_GETFH);
        assertThat(b.size()).isEqualTo(2);
    }

    @Test
    void attributesBuiltForSetattrDecodeToTheSameValues() throws IOException {
        Attrs attrs = Attrs.decode(Attrs.builder().size(1234).mode(0755).owner("7").ownerGroup("8").build());

        assertThat(attrs.size()).isEqualTo(1234);
        assertThat(attrs.mode()).isEqualTo(0755);
        assertThat(attrs.owner()).isEqualTo("7");
        assertThat(attrs.ownerGroup()).isEqualTo("8");
        assertThat(attrs.values().keySet()).containsExactly(nfs4_attr.FATTR4_SIZE, nfs4_attr.FATTR4_MODE,
                nfs4_attr.FATTR4_OWNER, nfs4_attr.FATTR4_OWNER_GROUP);
    }

    @Test
    void attributeWithoutDecoderIsAnError() {
        assertThatThrownBy(() -> Attrs.decode(Attrs.builder().raw(nfs4_attr.FATTR4_ACL, new byte[4]).build()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("12");
    }

    @Test
    void askingForAnAttributeThatWasNotReturnedFailsWithTheReturnedOnes() throws IOException {
        Attrs attrs = Attrs.decode(Attrs.builder().mode(0600).build());

        assertThat(attrs.has(nfs4_attr.FATTR4_SIZE)).isFalse();
        assertThatThrownBy(attrs::size).hasMessageContaining("was not returned");
    }
}

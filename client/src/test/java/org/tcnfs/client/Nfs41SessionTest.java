package org.tcnfs.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.stateid4;

class Nfs41SessionTest {
    private static final byte[] FILE = new byte[16];

    @Test
    void compoundsThatOnlyReadDoNotAskTheServerToCacheTheirReply() {
        assertThat(Nfs41Session.needsCachedReply(new CompoundBuilder().putrootfh().lookup("a").getfh()
                .getattr(1).read(new stateid4(), 0, 1 << 20).build())).isFalse();
    }

    @Test
    void compoundsThatChangeSomethingAskTheServerToCacheTheirReply() {
        assertThat(Nfs41Session.needsCachedReply(new CompoundBuilder().putfh(FILE)
                .write(new stateid4(), 0, new byte[1]).build())).isTrue();
        assertThat(Nfs41Session.needsCachedReply(new CompoundBuilder().putrootfh().remove("a").build())).isTrue();
    }

    @Test
    void openReadCloseOfAnExistingFileDoesNotAskTheServerToCacheTheReply() {
        assertThat(Nfs41Session.needsCachedReply(new CompoundBuilder().putrootfh().lookup("d")
                .openExisting(1, new byte[] {1}, "a", OPEN4args.OPEN4_SHARE_ACCESS_READ).getfh()
                .read(CompoundBuilder.currentStateid(), 0, 1 << 20).close(CompoundBuilder.currentStateid())
                .build())).isFalse();
    }

    @Test
    void anOpenLeftOpenOrForWritingAsksTheServerToCacheTheReply() {
        assertThat(Nfs41Session.needsCachedReply(new CompoundBuilder().putrootfh()
                .openExisting(1, new byte[] {1}, "a", OPEN4args.OPEN4_SHARE_ACCESS_READ).getfh().build()))
                .as("left open").isTrue();
        assertThat(Nfs41Session.needsCachedReply(new CompoundBuilder().putrootfh()
                .openExisting(1, new byte[] {1}, "a", OPEN4args.OPEN4_SHARE_ACCESS_BOTH)
                .close(CompoundBuilder.currentStateid()).build())).as("for writing").isTrue();
        assertThat(Nfs41Session.needsCachedReply(new CompoundBuilder().putfh(FILE)
                .close(CompoundBuilder.currentStateid()).build())).as("a CLOSE alone").isTrue();
    }
}

package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.RawReply;
import org.tcnfs.client.rpc.RpcAcceptStatus;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;

/**
 * The COMPOUND tag through the wire. The tag is a {@code utf8str_cs}; RFC 8881 section 18.2.3 (RFC 7530 section
 * 16.2.3) says the tag of the response SHOULD be the tag of the request, and section 14.5 (RFC 7530 section 12.7)
 * that a string which is not valid UTF-8 gets NFS4ERR_INVAL. So: a valid tag comes back byte for byte with the
 * results; a tag that is not UTF-8 is NFS4ERR_INVAL with no operation run (NFSv4.0 and 4.1 alike), and its
 * bytes still come back exactly as sent (pynfs COMP3 checks both). Before, the server decoded the tag with
 * U+FFFD replacements, ran the compound and answered another tag.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompoundTagIT {
    private ServerProcess server;
    private NfsConnection connection;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.start();
        connection = server.connect();
    }

    @AfterAll
    void stop() throws IOException {
        if (connection != null) {
            connection.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** COMPOUND with {@code tag} as its raw bytes, then the operations of {@code ops}. */
    private COMPOUND4res compound(byte[] tag, CompoundBuilder ops) throws IOException {
        COMPOUND4args args = ops.build();
        args.tagBytes = tag;
        RawReply reply = connection.callRaw(NfsConnection.PROC_COMPOUND, XdrBytes.encode(args));
        assertThat(reply.acceptStatus()).isEqualTo(RpcAcceptStatus.SUCCESS);
        return XdrBytes.decode(reply.body(), new COMPOUND4res());
    }

    @Test
    void aValidUtf8TagComesBackByteForByte() throws IOException {
        byte[] tag = "tag \u00e9\u2713 \uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
        COMPOUND4res res = compound(tag, new CompoundBuilder().minorVersion(0).putrootfh().getfh());
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
        assertThat(res.resarray).hasSize(2);
        assertThat(res.tagBytes).isEqualTo(tag);
    }

    @Test
    void aTagThatIsNotUtf8IsInvalWithNoOperationRunAndComesBackAsSent() throws IOException {
        byte[][] invalid = {
            {(byte) 0xff, (byte) 0xfe, 'a'},                       // bytes that never occur in UTF-8
            {'o', 'k', (byte) 0xe2, (byte) 0x82},                  // a sequence cut short at the end
            {(byte) 0xc0, (byte) 0xaf},                            // an overlong encoding of '/'
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80},               // a UTF-16 surrogate
            ByteBuffer.allocate(5).put((byte) 0x80).put("abc".getBytes(StandardCharsets.US_ASCII)).array(),
        };
        for (int minor : new int[] {0, 1}) {
            for (byte[] tag : invalid) {
                COMPOUND4res res = compound(tag, new CompoundBuilder().minorVersion(minor).putrootfh().getfh());
                assertThat(NfsStatus.of(res.status)).as("minor version %d, tag %s", minor, hex(tag))
                        .isEqualTo(NfsStatus.INVAL);
                assertThat(res.resarray).as("operations run").isEmpty();
                assertThat(res.tagBytes).as("tag returned").isEqualTo(tag);
            }
        }
        // the connection and the server go on
        COMPOUND4res after = compound("after".getBytes(StandardCharsets.UTF_8),
                new CompoundBuilder().minorVersion(0).putrootfh());
        assertThat(NfsStatus.of(after.status)).isEqualTo(NfsStatus.OK);
    }

    private static String hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
    }
}

package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code open_none_delegation4}: why no delegation was granted (NFSv4.1), with the server's promise for
 * WND4_CONTENTION ({@link #ond_server_will_push_deleg}) and WND4_RESOURCE
 * ({@link #ond_server_will_signal_avail}).
 */
public class open_none_delegation4 implements XdrAble {
    public int ond_why;
    public boolean ond_server_will_push_deleg;
    public boolean ond_server_will_signal_avail;

    public open_none_delegation4() {
    }

    public open_none_delegation4(int ond_why) {
        this.ond_why = ond_why;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(ond_why);
        switch (ond_why) {
            case why_no_delegation4.WND4_CONTENTION -> xdr.xdrEncodeBoolean(ond_server_will_push_deleg);
            case why_no_delegation4.WND4_RESOURCE -> xdr.xdrEncodeBoolean(ond_server_will_signal_avail);
            default -> {
            }
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        ond_why = xdr.xdrDecodeInt();
        ond_server_will_push_deleg = false;
        ond_server_will_signal_avail = false;
        switch (ond_why) {
            case why_no_delegation4.WND4_CONTENTION -> ond_server_will_push_deleg = XdrSupport.decodeBoolean(xdr);
            case why_no_delegation4.WND4_RESOURCE -> ond_server_will_signal_avail = XdrSupport.decodeBoolean(xdr);
            default -> {
            }
        }
    }
}

package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code createhow4}: a {@link createmode4} with its arm: {@link #createattrs} for UNCHECKED4 and GUARDED4,
 * {@link #createverf} for EXCLUSIVE4, {@link #ch_createboth} for EXCLUSIVE4_1. An unknown mode does not
 * decode.
 */
public class createhow4 implements XdrAble {
    public int mode;
    public fattr4 createattrs;
    public verifier4 createverf;
    public creatverfattr ch_createboth;

    public createhow4() {
    }

    /** UNCHECKED4 or GUARDED4 with {@code createattrs}. */
    public static createhow4 withAttributes(int mode, fattr4 createattrs) {
        createhow4 how = new createhow4();
        how.mode = mode;
        how.createattrs = createattrs;
        return how;
    }

    /** EXCLUSIVE4 with {@code verifier}. */
    public static createhow4 exclusive(verifier4 verifier) {
        createhow4 how = new createhow4();
        how.mode = createmode4.EXCLUSIVE4;
        how.createverf = verifier;
        return how;
    }

    /** EXCLUSIVE4_1 with {@code verifier} and {@code attrs}. */
    public static createhow4 exclusive41(verifier4 verifier, fattr4 attrs) {
        createhow4 how = new createhow4();
        how.mode = createmode4.EXCLUSIVE4_1;
        how.ch_createboth = new creatverfattr(verifier, attrs);
        return how;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(mode);
        switch (mode) {
            case createmode4.UNCHECKED4, createmode4.GUARDED4 -> createattrs.xdrEncode(xdr);
            case createmode4.EXCLUSIVE4 -> createverf.xdrEncode(xdr);
            case createmode4.EXCLUSIVE4_1 -> ch_createboth.xdrEncode(xdr);
            default -> throw new MalformedXdrException("createmode4 " + mode);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        mode = xdr.xdrDecodeInt();
        createattrs = null;
        createverf = null;
        ch_createboth = null;
        switch (mode) {
            case createmode4.UNCHECKED4, createmode4.GUARDED4 -> {
                createattrs = new fattr4();
                createattrs.xdrDecode(xdr);
            }
            case createmode4.EXCLUSIVE4 -> {
                createverf = new verifier4();
                createverf.xdrDecode(xdr);
            }
            case createmode4.EXCLUSIVE4_1 -> {
                ch_createboth = new creatverfattr();
                ch_createboth.xdrDecode(xdr);
            }
            default -> throw new MalformedXdrException("createmode4 " + mode);
        }
    }
}

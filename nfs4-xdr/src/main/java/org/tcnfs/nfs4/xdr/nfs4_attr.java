package org.tcnfs.nfs4.xdr;

/**
 * Attribute numbers ({@code FATTR4_*}, RFC 8881 section 5.8 and RFC 5662) and the small constants of
 * attribute values ({@code fh_expire_type}, {@code aclsupport}, {@code time_how4}).
 *
 * <p>Bit {@code n} of a {@link bitmap4} stands for attribute number {@code n}.
 */
public final class nfs4_attr {
    // REQUIRED attributes (RFC 8881 5.6)
    public static final int FATTR4_SUPPORTED_ATTRS = 0;
    public static final int FATTR4_TYPE = 1;
    public static final int FATTR4_FH_EXPIRE_TYPE = 2;
    public static final int FATTR4_CHANGE = 3;
    public static final int FATTR4_SIZE = 4;
    public static final int FATTR4_LINK_SUPPORT = 5;
    public static final int FATTR4_SYMLINK_SUPPORT = 6;
    public static final int FATTR4_NAMED_ATTR = 7;
    public static final int FATTR4_FSID = 8;
    public static final int FATTR4_UNIQUE_HANDLES = 9;
    public static final int FATTR4_LEASE_TIME = 10;
    public static final int FATTR4_RDATTR_ERROR = 11;
    public static final int FATTR4_FILEHANDLE = 19;
    public static final int FATTR4_SUPPATTR_EXCLCREAT = 75;

    // RECOMMENDED attributes (RFC 8881 5.7)
    public static final int FATTR4_ACL = 12;
    public static final int FATTR4_ACLSUPPORT = 13;
    public static final int FATTR4_ARCHIVE = 14;
    public static final int FATTR4_CANSETTIME = 15;
    public static final int FATTR4_CASE_INSENSITIVE = 16;
    public static final int FATTR4_CASE_PRESERVING = 17;
    public static final int FATTR4_CHOWN_RESTRICTED = 18;
    public static final int FATTR4_FILEID = 20;
    public static final int FATTR4_FILES_AVAIL = 21;
    public static final int FATTR4_FILES_FREE = 22;
    public static final int FATTR4_FILES_TOTAL = 23;
    public static final int FATTR4_FS_LOCATIONS = 24;
    public static final int FATTR4_HIDDEN = 25;
    public static final int FATTR4_HOMOGENEOUS = 26;
    public static final int FATTR4_MAXFILESIZE = 27;
    public static final int FATTR4_MAXLINK = 28;
    public static final int FATTR4_MAXNAME = 29;
    public static final int FATTR4_MAXREAD = 30;
    public static final int FATTR4_MAXWRITE = 31;
    public static final int FATTR4_MIMETYPE = 32;
    public static final int FATTR4_MODE = 33;
    public static final int FATTR4_NO_TRUNC = 34;
    public static final int FATTR4_NUMLINKS = 35;
    public static final int FATTR4_OWNER = 36;
    public static final int FATTR4_OWNER_GROUP = 37;
    public static final int FATTR4_QUOTA_AVAIL_HARD = 38;
    public static final int FATTR4_QUOTA_AVAIL_SOFT = 39;
    public static final int FATTR4_QUOTA_USED = 40;
    public static final int FATTR4_RAWDEV = 41;
    public static final int FATTR4_SPACE_AVAIL = 42;
    public static final int FATTR4_SPACE_FREE = 43;
    public static final int FATTR4_SPACE_TOTAL = 44;
    public static final int FATTR4_SPACE_USED = 45;
    public static final int FATTR4_SYSTEM = 46;
    public static final int FATTR4_TIME_ACCESS = 47;
    public static final int FATTR4_TIME_ACCESS_SET = 48;
    public static final int FATTR4_TIME_BACKUP = 49;
    public static final int FATTR4_TIME_CREATE = 50;
    public static final int FATTR4_TIME_DELTA = 51;
    public static final int FATTR4_TIME_METADATA = 52;
    public static final int FATTR4_TIME_MODIFY = 53;
    public static final int FATTR4_TIME_MODIFY_SET = 54;
    public static final int FATTR4_MOUNTED_ON_FILEID = 55;
    public static final int FATTR4_DIR_NOTIF_DELAY = 56;
    public static final int FATTR4_DIRENT_NOTIF_DELAY = 57;
    public static final int FATTR4_DACL = 58;
    public static final int FATTR4_SACL = 59;
    public static final int FATTR4_CHANGE_POLICY = 60;
    public static final int FATTR4_FS_STATUS = 61;
    public static final int FATTR4_FS_LAYOUT_TYPES = 62;
    public static final int FATTR4_LAYOUT_HINT = 63;
    public static final int FATTR4_LAYOUT_TYPES = 64;
    public static final int FATTR4_LAYOUT_BLKSIZE = 65;
    public static final int FATTR4_LAYOUT_ALIGNMENT = 66;
    public static final int FATTR4_FS_LOCATIONS_INFO = 67;
    public static final int FATTR4_MDSTHRESHOLD = 68;
    public static final int FATTR4_RETENTION_GET = 69;
    public static final int FATTR4_RETENTION_SET = 70;
    public static final int FATTR4_RETENTEVT_GET = 71;
    public static final int FATTR4_RETENTEVT_SET = 72;
    public static final int FATTR4_RETENTION_HOLD = 73;
    public static final int FATTR4_MODE_SET_MASKED = 74;
    public static final int FATTR4_FS_CHARSET_CAP = 76;

    // fh_expire_type4 (RFC 8881 4.2.1)
    public static final int FH4_PERSISTENT = 0x00000000;
    public static final int FH4_NOEXPIRE_WITH_OPEN = 0x00000001;
    public static final int FH4_VOLATILE_ANY = 0x00000002;
    public static final int FH4_VOL_MIGRATION = 0x00000004;
    public static final int FH4_VOL_RENAME = 0x00000008;

    // aclsupport4 bits (RFC 8881 6.2.1.2)
    public static final int ACL4_SUPPORT_ALLOW_ACL = 0x00000001;
    public static final int ACL4_SUPPORT_DENY_ACL = 0x00000002;
    public static final int ACL4_SUPPORT_AUDIT_ACL = 0x00000004;
    public static final int ACL4_SUPPORT_ALARM_ACL = 0x00000008;

    // time_how4: the discriminant of settime4 (RFC 8881 3.3.2)
    public static final int SET_TO_SERVER_TIME4 = 0;
    public static final int SET_TO_CLIENT_TIME4 = 1;

    private nfs4_attr() {
    }
}

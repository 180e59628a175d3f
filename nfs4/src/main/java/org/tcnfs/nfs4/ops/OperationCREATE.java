package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.attr.AttributesToSet;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.BadTypeException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.CREATE4resok;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.change_info4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * CREATE (RFC 8881 18.4): makes a directory, symbolic link, block or character device, socket or FIFO in
 * the current directory; the new object becomes current.
 *
 * <p>Checks come first and change nothing: the current file handle must be a directory (NFS4ERR_NOTDIR,
 * NFS4ERR_SYMLINK), the type one of those above (NF4REG and the rest: NFS4ERR_BADTYPE), the name must
 * follow {@link Names}, a link target {@link Names#checkLinkTarget}, and the create attributes must
 * decode; a size among them is NFS4ERR_INVAL (nothing CREATE makes has one).
 *
 * <p>The mode is the one the client sent, else 0755 for directories, 0777 for symbolic links and 0644 for
 * the rest; the owner is the caller. Other create attributes (owner, group, times) are applied right after
 * creation; if that fails the new object is removed again and the error returned. On success
 * {@code attrset} is the mask of the attributes the client sent (all of them were set; see
 * {@link FileAttributes#decodeSettableWithMask}) and {@code cinfo} holds the directory's change attribute
 * before and after, not atomic.
 */
public final class OperationCREATE implements NfsOperation {
    /** Mode of a directory created without one. */
    static final int DEFAULT_DIR_MODE = 0755;
    /** Mode of a symbolic link created without one. */
    static final int DEFAULT_SYMLINK_MODE = 0777;
    /** Mode of a device, socket or FIFO created without one. */
    static final int DEFAULT_SPECIAL_MODE = 0644;

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        CREATE4args args = (CREATE4args) op.args;
        VirtualFileSystem fs = context.fs();
        Inode dir = context.currentInode();
        createtype4 objtype = args.objtype;
        AttributesToSet toSet;
        SetAttributes attrs;
        String name;
        long before;
        Inode created;
        // nothing changes until the object is made, under the compound's locks: the reads before it share one stretch
        // of the compound's scope, in which the file system resolves the directory once for the type, the change
        // attribute before and the create's own checks (it used to resolve it for each); a file system that caches
        // ends the stretch before it changes anything, and the stretch ends here at the latest
        CompoundScope.endChange();
        try {
            Directories.requireDirectory(fs, dir);
            FileType type = typeOf(objtype.type);
            name = Names.checkComponent(args.objname);
            String target = type == FileType.SYMLINK ? Names.checkLinkTarget(objtype.linkdata) : null;
            toSet = decodeCreateAttributes(context, args.createattrs);
            attrs = toSet.changes();
            if (attrs.size() != null) {
                throw new InvalException("CREATE cannot set the size of a " + type);
            }
            int mode = attrs.mode() != null ? attrs.mode() : defaultMode(type);

            before = Directories.change(fs, dir);
            created = switch (type) {
                case DIRECTORY -> fs.mkdir(dir, name, context.credential(), mode);
                case SYMLINK -> fs.symlink(dir, name, target, context.credential(), mode);
                case BLOCK, CHAR -> fs.mknod(dir, name, type, objtype.devdata.specdata1, objtype.devdata.specdata2,
                        context.credential(), mode);
                default -> fs.mknod(dir, name, type, 0, 0, context.credential(), mode);
            };
        } finally {
            CompoundScope.beginChange();
        }
        Directories.setattrOrRemove(fs, dir, name, created, attrs.withMode(null), "CREATE");
        long after = Directories.change(fs, dir);

        context.setCurrentInode(created);
        result.body = new CREATE4resok(new change_info4(false, before, after), toSet.mask());
    }

    private static FileType typeOf(int nfsType) throws BadTypeException {
        return switch (nfsType) {
            case nfs_ftype4.NF4DIR -> FileType.DIRECTORY;
            case nfs_ftype4.NF4LNK -> FileType.SYMLINK;
            case nfs_ftype4.NF4BLK -> FileType.BLOCK;
            case nfs_ftype4.NF4CHR -> FileType.CHAR;
            case nfs_ftype4.NF4SOCK -> FileType.SOCKET;
            case nfs_ftype4.NF4FIFO -> FileType.FIFO;
            default -> throw new BadTypeException("CREATE cannot make objects of type " + nfsType);
        };
    }

    private static int defaultMode(FileType type) {
        return switch (type) {
            case DIRECTORY -> DEFAULT_DIR_MODE;
            case SYMLINK -> DEFAULT_SYMLINK_MODE;
            default -> DEFAULT_SPECIAL_MODE;
        };
    }

    /** The create attributes and their mask; an empty mask is no change and skips the attribute codec. */
    private static AttributesToSet decodeCreateAttributes(CompoundContext context, fattr4 attrs) throws IOException {
        for (int word : attrs.attrmask.value) {
            if (word != 0) {
                return FileAttributes.decodeSettableWithMask(context, attrs);
            }
        }
        return new AttributesToSet(SetAttributes.NONE, new bitmap4());
    }
}

package org.tcnfs.nfs4.status;

/** Builds the exception that stands for a status, for code that receives a status as a value. */
public final class NfsExceptions {
    private NfsExceptions() {
    }

    /**
     * The exception for {@code status}.
     *
     * @throws IllegalArgumentException for {@link NfsStatus#OK}, which is not an error
     */
    public static NfsException of(NfsStatus status, String message) {
        return switch (status) {
            case OK -> throw new IllegalArgumentException("NFS4_OK is not an error");
            case PERM -> new PermException(message);
            case NOENT -> new NoEntException(message);
            case IO -> new IoException(message);
            case NXIO -> new NxioException(message);
            case ACCESS -> new AccessException(message);
            case EXIST -> new ExistException(message);
            case XDEV -> new XDevException(message);
            case NOTDIR -> new NotDirException(message);
            case ISDIR -> new IsDirException(message);
            case INVAL -> new InvalException(message);
            case FBIG -> new FBigException(message);
            case NOSPC -> new NoSpcException(message);
            case ROFS -> new RoFsException(message);
            case MLINK -> new MLinkException(message);
            case NAMETOOLONG -> new NameTooLongException(message);
            case NOTEMPTY -> new NotEmptyException(message);
            case DQUOT -> new DQuotException(message);
            case STALE -> new StaleException(message);
            case BADHANDLE -> new BadHandleException(message);
            case BAD_COOKIE -> new BadCookieException(message);
            case NOTSUPP -> new NotSuppException(message);
            case TOOSMALL -> new TooSmallException(message);
            case SERVERFAULT -> new ServerFaultException(message);
            case BADTYPE -> new BadTypeException(message);
            case DELAY -> new DelayException(message);
            case SAME -> new SameException(message);
            case DENIED -> new DeniedException(message);
            case EXPIRED -> new ExpiredException(message);
            case LOCKED -> new LockedException(message);
            case GRACE -> new GraceException(message);
            case FHEXPIRED -> new FhExpiredException(message);
            case SHARE_DENIED -> new ShareDeniedException(message);
            case WRONGSEC -> new WrongSecException(message);
            case CLID_INUSE -> new ClidInUseException(message);
            case RESOURCE -> new ResourceException(message);
            case MOVED -> new MovedException(message);
            case NOFILEHANDLE -> new NoFileHandleException(message);
            case MINOR_VERS_MISMATCH -> new MinorVersMismatchException(message);
            case STALE_CLIENTID -> new StaleClientIdException(message);
            case STALE_STATEID -> new StaleStateIdException(message);
            case OLD_STATEID -> new OldStateIdException(message);
            case BAD_STATEID -> new BadStateIdException(message);
            case BAD_SEQID -> new BadSeqIdException(message);
            case NOT_SAME -> new NotSameException(message);
            case LOCK_RANGE -> new LockRangeException(message);
            case SYMLINK -> new SymlinkException(message);
            case RESTOREFH -> new RestoreFhException(message);
            case LEASE_MOVED -> new LeaseMovedException(message);
            case ATTRNOTSUPP -> new AttrNotSuppException(message);
            case NO_GRACE -> new NoGraceException(message);
            case RECLAIM_BAD -> new ReclaimBadException(message);
            case RECLAIM_CONFLICT -> new ReclaimConflictException(message);
            case BADXDR -> new BadXdrException(message);
            case LOCKS_HELD -> new LocksHeldException(message);
            case OPENMODE -> new OpenModeException(message);
            case BADOWNER -> new BadOwnerException(message);
            case BADCHAR -> new BadCharException(message);
            case BADNAME -> new BadNameException(message);
            case BAD_RANGE -> new BadRangeException(message);
            case LOCK_NOTSUPP -> new LockNotSuppException(message);
            case OP_ILLEGAL -> new OpIllegalException(message);
            case DEADLOCK -> new DeadlockException(message);
            case FILE_OPEN -> new FileOpenException(message);
            case ADMIN_REVOKED -> new AdminRevokedException(message);
            case CB_PATH_DOWN -> new CbPathDownException(message);
            case BADIOMODE -> new BadIoModeException(message);
            case BADLAYOUT -> new BadLayoutException(message);
            case BAD_SESSION_DIGEST -> new BadSessionDigestException(message);
            case BADSESSION -> new BadSessionException(message);
            case BADSLOT -> new BadSlotException(message);
            case COMPLETE_ALREADY -> new CompleteAlreadyException(message);
            case CONN_NOT_BOUND_TO_SESSION -> new ConnNotBoundToSessionException(message);
            case DELEG_ALREADY_WANTED -> new DelegAlreadyWantedException(message);
            case BACK_CHAN_BUSY -> new BackChanBusyException(message);
            case LAYOUTTRYLATER -> new LayoutTryLaterException(message);
            case LAYOUTUNAVAILABLE -> new LayoutUnavailableException(message);
            case NOMATCHING_LAYOUT -> new NoMatchingLayoutException(message);
            case RECALLCONFLICT -> new RecallConflictException(message);
            case UNKNOWN_LAYOUTTYPE -> new UnknownLayoutTypeException(message);
            case SEQ_MISORDERED -> new SeqMisorderedException(message);
            case SEQUENCE_POS -> new SequencePosException(message);
            case REQ_TOO_BIG -> new ReqTooBigException(message);
            case REP_TOO_BIG -> new RepTooBigException(message);
            case REP_TOO_BIG_TO_CACHE -> new RepTooBigToCacheException(message);
            case RETRY_UNCACHED_REP -> new RetryUncachedRepException(message);
            case UNSAFE_COMPOUND -> new UnsafeCompoundException(message);
            case TOO_MANY_OPS -> new TooManyOpsException(message);
            case OP_NOT_IN_SESSION -> new OpNotInSessionException(message);
            case HASH_ALG_UNSUPP -> new HashAlgUnsuppException(message);
            case CLIENTID_BUSY -> new ClientIdBusyException(message);
            case PNFS_IO_HOLE -> new PnfsIoHoleException(message);
            case SEQ_FALSE_RETRY -> new SeqFalseRetryException(message);
            case BAD_HIGH_SLOT -> new BadHighSlotException(message);
            case DEADSESSION -> new DeadSessionException(message);
            case ENCR_ALG_UNSUPP -> new EncrAlgUnsuppException(message);
            case PNFS_NO_LAYOUT -> new PnfsNoLayoutException(message);
            case NOT_ONLY_OP -> new NotOnlyOpException(message);
            case WRONG_CRED -> new WrongCredException(message);
            case WRONG_TYPE -> new WrongTypeException(message);
            case DIRDELEG_UNAVAIL -> new DirDelegUnavailException(message);
            case REJECT_DELEG -> new RejectDelegException(message);
            case RETURNCONFLICT -> new ReturnConflictException(message);
            case DELEG_REVOKED -> new DelegRevokedException(message);
            case PARTNER_NOTSUPP -> new PartnerNotSuppException(message);
            case PARTNER_NO_AUTH -> new PartnerNoAuthException(message);
            case UNION_NOTSUPP -> new UnionNotSuppException(message);
            case OFFLOAD_DENIED -> new OffloadDeniedException(message);
            case WRONG_LFS -> new WrongLfsException(message);
            case BADLABEL -> new BadLabelException(message);
            case OFFLOAD_NO_REQS -> new OffloadNoReqsException(message);
        };
    }
}

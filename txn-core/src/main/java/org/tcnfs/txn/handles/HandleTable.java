package org.tcnfs.txn.handles;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persistent map between the 16-byte handles clients hold ({@link Nfh}) and the local objects of every
 * export, kept in one LMDB environment under {@code <stateDirectory>/handles}.
 *
 * <p>Four tables: handle &rarr; {@link Node} (export, type, inode, names); (parent handle, name) &rarr;
 * handle; (export, inode) &rarr; handle; export &rarr; root handle. A directory rename changes one name row
 * and one node, so descendants keep their handles and their derived {@link HandleView#path paths} follow.
 *
 * <p>Reads: the convenience methods here each run in a short read transaction; {@link #read()} gives a
 * consistent snapshot for several reads. Writes: {@link #write()} gives a {@link HandleBatch}, one atomic
 * and (by default) durable LMDB write transaction. Other records that must commit together with handle
 * changes live in {@link #sideTable(String) side tables} of the same environment.
 *
 * <p><b>Directory paths.</b> {@link HandleView#path} walks up the parents; the table caches the paths of the
 * directories it walked ({@link #MAX_CACHED_DIRECTORIES} at most), tagged with a directory epoch that every
 * LMDB commit changing a directory's row (register, rename, removal, rebind) raises before and after it. A
 * view uses the cache only for its own epoch, when no such commit ran while it began and, on a thread bound
 * to a buffer, only while the buffer changed no directory; so a LOOKUP's parent chain costs one read, and
 * files coming and going keep the cache.
 *
 * <p><b>Change count.</b> Every change a reader of the committed table can see (an LMDB commit, rows kept
 * {@link PendingRows pending}, a row removal queued in or taken out of {@link #late()}) counts as started before it
 * becomes visible and as ended after ({@link #changing()}, {@link #changed()}). {@link #changeCount()} reads the
 * count while none is under way, and {@link #unchangedSince} says whether none started since: then every read of
 * the committed table in between saw the same rows. The planner uses it to skip re-checking its assumptions
 * ({@code CompoundLocker}).
 *
 * <p><b>Cached reads.</b> {@link #cachedRead} keeps what reads of the committed table answered, across threads, for
 * as long as the change count stays where it was when they read ({@link RowCache}, at most {@link #MAX_CACHED_READS}
 * answers): the planner's and the file systems' reads of the rows a compound names, repeated compound after compound
 * while nothing changes. Any change moves the count and so drops every answer kept before it. Once a transaction
 * whose buffer holds changes has asked, each answer keeps the rows it was read from ({@link RowsRead}), so such a
 * transaction uses it too unless it changed one of those rows; until then (a server of plain exports) answers are
 * kept bare, with nothing recorded per read.
 *
 * <p><b>Durability.</b> Under {@link Durability#FULL} the environment is opened with {@code MDB_NOMETASYNC}: a
 * commit writes its pages, {@code fdatasync}s them and writes the meta page unsynced; a durable commit then
 * syncs once more ({@link #sync()}), which makes the meta page durable (as LMDB's own {@code O_DSYNC} meta write
 * would: two device flushes either way). A {@link #commitLazily lazy} commit skips that second flush: it is
 * visible at once and survives a crash as soon as any later commit or sync ran (LMDB keeps two meta pages, so a
 * crash before that falls back to the commit before it, never to a torn table). Work that may wait for the
 * disk for a bounded time ({@link LateDurability}: directory fsyncs of {@code async} exports, removals of the
 * rows of removed objects) is queued in {@link #late()} and done by its background thread.
 *
 * <p><b>Pending rows.</b> The rows of plain compounds on {@code async} exports need not be durable at the reply:
 * {@link TxnBuffer#commitPending} keeps them in memory ({@link PendingRows}), visible to every reader at once (a
 * snapshot reads them live, over its LMDB snapshot), until the next LMDB commit, which applies them before its own
 * changes, or at the latest the {@link #late()} flush, which commits them durably before its directory syncs. A
 * crash loses them, never the table's consistency.
 *
 * <p><b>Row journal.</b> The rows of a plain compound on a {@code sync} export are made durable by one {@code
 * fdatasync} of a {@link RowJournal} ({@code rows.journal} beside {@code data.mdb}) instead of a durable LMDB commit
 * of two flushes ({@link TxnBuffer#commitJournaled}): under the journal's lock the rows become {@link PendingRows
 * pending} (visible to all at once) and their record is written, then the journal is flushed. Every LMDB commit that
 * applies pending rows writes, in the same transaction, the sequence number of the last record whose rows it
 * applied (taken under the journal's lock with the rows, so the cut is consistent); once a durable commit holds
 * every record written, the journal starts again at its beginning. When the table opens, the records above the
 * applied number are replayed into one durable commit before anything else reads the table. A record may also carry
 * rows of {@link #journalSideTable journaled side tables}: a transaction's recovery record ({@link #commitJournaled})
 * and its commit point (its buffer's rows and the record's deletion, {@link TxnBuffer#commitJournaled(Consumer)})
 * each take one journal flush instead of a durable LMDB commit, and are replayed before recovery reads the records.
 * Off when the builder's {@link Builder#rowJournalBytes} is 0, under a {@link Durability} other than {@link
 * Durability#FULL}, or when pending rows are off.
 *
 * <p>Thread-safe. Read transactions are not bound to threads ({@code MDB_NOTLS}); a batch is bound to its
 * thread and batches run one at a time. Close every snapshot and batch before {@link #close()}.
 */
public final class HandleTable implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HandleTable.class);

    /** Default size of the memory map: 8 GiB of address space, sparse on disk. */
    public static final long DEFAULT_MAP_SIZE = 8L << 30;
    /** Default number of concurrent read transactions. */
    public static final int DEFAULT_MAX_READERS = 1024;
    /** Longest export id in bytes of UTF-8. */
    public static final int MAX_EXPORT_ID_BYTES = 128;
    /** Deepest chain of parents the table follows (deeper is treated as corruption). */
    public static final int MAX_DEPTH = 4096;
    /** Most side tables an environment can hold. */
    public static final int MAX_SIDE_TABLES = 12;

    /**
     * Most ended read transactions kept for reuse ({@code mdb_txn_reset}, then {@code mdb_txn_renew} for the next
     * snapshot): beginning a read transaction costs lmdbjava a handle and native buffers, and a LOOKUP takes
     * several snapshots. Each kept transaction holds one of the environment's reader slots while idle.
     */
    public static final int MAX_IDLE_READ_TRANSACTIONS = 32;

    /**
     * Most answers {@link #cachedRead} keeps at once (the cache is emptied when full): the rows of a walk or listing
     * of a few thousand objects as each reader asks for them (a file system's node and paths, the planner's path and
     * export of a handle), a few hundred bytes each.
     */
    public static final int MAX_CACHED_READS = 8192;

    /** Most directory paths {@link #cachedDirectoryPath cached} at once (the cache is emptied when full). */
    public static final int MAX_CACHED_DIRECTORIES = 16_384;

    /**
     * Default of {@link Builder#maxPendingRows}: 32,768 rows (about 8,000 creates, a few MiB; the server's setting
     * {@code async-pending-rows}).
     */
    public static final int DEFAULT_MAX_PENDING_ROWS = 32_768;

    /**
     * Default of {@link Builder#rowJournalBytes}: 16 MiB, or the system property {@value #ROW_JOURNAL_BYTES_PROPERTY}
     * (0 turns the journal off). At a few hundred bytes per compound, room for some 50,000 compounds between two
     * background flushes (each of which lets the journal start again at its beginning); written in full once, when
     * the file is made.
     */
    public static final long DEFAULT_ROW_JOURNAL_BYTES = 16L << 20;
    /** The system property that sets {@link Builder#rowJournalBytes} (0: off; the old durable LMDB commit). */
    public static final String ROW_JOURNAL_BYTES_PROPERTY = "tcnfs.row-journal-bytes";
    /** The journal's file in the table's directory. */
    static final String ROW_JOURNAL_FILE = "rows.journal";
    private static final byte[] APPLIED_KEY = "applied".getBytes(StandardCharsets.UTF_8);

    private static final String SIDE_PREFIX = "side:";

    /** How much a commit waits for the disk. */
    public enum Durability {
        /** Commit returns after data and metadata are synced: nothing committed is lost in a crash. */
        FULL,
        /** The meta page is not synced: a crash may lose the last commit, never consistency. */
        NO_META_SYNC,
        /** No syncs: a crash may lose recent commits (tests and benchmarks only). */
        NONE
    }

    private final Path directory;
    private final Env<byte[]> env;
    /** Called with the name of each crash point reached ({@link Builder#crashPoints}). */
    private final Consumer<String> crashPoints;
    /** Whether a durable commit must sync after LMDB's commit ({@link Durability#FULL} on a NOMETASYNC env). */
    private final boolean syncAfterCommit;
    /** Whether LMDB syncs the data pages in each commit (every durability but {@link Durability#NONE}). */
    private final boolean commitSyncsData;
    /** Whether a lazy commit ran since the last {@link #sync()}. */
    private final AtomicBoolean unsynced = new AtomicBoolean();
    private final LongAdder commits = new LongAdder();
    private final LongAdder snapshots = new LongAdder();
    private final LongAdder flushes = new LongAdder();
    private final LongAdder queuedDirectorySyncsJoined = new LongAdder();
    /** Rows' flushes of plain compounds run on a pool thread while the compound's thread synced its files. */
    private final LongAdder rowFlushesHandedOff = new LongAdder();
    /** Directory syncs of compounds (and transactions) that one sync on an {@link OrderedLog} covered. */
    private final LongAdder directorySyncsCovered = new LongAdder();
    private final LateDurability late;
    /** Rows of plain compounds on {@code async} exports that wait for the next LMDB commit ({@link PendingRows}). */
    private final PendingRows pending;
    final Dbi<byte[]> nodes;
    final Dbi<byte[]> names;
    final Dbi<byte[]> inodes;
    final Dbi<byte[]> exports;
    /** The {@link RowJournal}'s bookkeeping: the sequence number of the last record applied ({@link #APPLIED_KEY}). */
    private final Dbi<byte[]> journalState;
    /** The row journal, or null when off (see the class comment). Set once, when the table opens. */
    private volatile RowJournal journal;
    /**
     * Whether rows a crash may lose are visible: rows of {@code async} compounds kept pending, or a lazy commit, since
     * the last durable LMDB commit. A transaction's rows may stand on them (a file made in a directory an {@code async}
     * compound just made), so while this holds its journal record is refused and it commits durably to LMDB, which
     * carries them ({@link #keepJournaled}). Set and cleared under the journal's lock (the durable commit that clears it
     * drained every pending row under that lock, and its sync made every lazy commit durable).
     */
    private boolean lossyRowsVisible;
    /** The applied sequence number the last LMDB commit wrote (durable after the next {@link #sync()}). */
    private volatile long committedJournalSequence = -1;
    private final Map<String, SideTable> sideTables = new ConcurrentHashMap<>();
    /**
     * The side tables whose rows a journal record may carry ({@link #journalSideTable}), with the rows of each written
     * to the journal so far (a meter).
     */
    private final Map<Dbi<byte[]>, JournaledSide> journaledSides = new ConcurrentHashMap<>();
    /** Rows the replay at open applied, by table name ({@link #replayedJournalRows}). */
    private final Map<String, Long> replayedRows = new ConcurrentHashMap<>();
    /**
     * Per thread: the buffer it is {@link #bind bound} to, or null. The slot stays for the thread's life and only its
     * content changes (a binding per operation would otherwise set and remove a thread-local entry each time).
     */
    private final ThreadLocal<BoundSlot> bound = ThreadLocal.withInitial(BoundSlot::new);
    private final GroupCommit groupCommit = new GroupCommit(this::lmdbBatch);
    private final SharedFsync sharedFsync = new SharedFsync();
    /**
     * Raised twice around every LMDB commit that changes a directory's row (odd while it commits), so a
     * view can tell whether the directory rows it reads are those of the cached paths.
     */
    private final AtomicLong directoryEpoch = new AtomicLong();
    private final ConcurrentHashMap<Nfh, CachedPath> directoryPaths = new ConcurrentHashMap<>();
    /** Changes visible to readers begun and ended (see the class comment, "Change count"); started >= ended. */
    private final AtomicLong changesStarted = new AtomicLong();
    private final AtomicLong changesEnded = new AtomicLong();
    private final RowCache cachedReads = new RowCache(MAX_CACHED_READS);
    /**
     * Whether a thread whose buffer holds rows of its own has asked {@link #cachedRead} (from then on every read
     * records its rows, so such threads can use its answer); never reset.
     */
    private volatile boolean bufferedReaders;
    /** Ended (reset) read transactions for reuse, at most {@link #MAX_IDLE_READ_TRANSACTIONS}. */
    private final ArrayBlockingQueue<Txn<byte[]>> idleReads = new ArrayBlockingQueue<>(MAX_IDLE_READ_TRANSACTIONS);

    /** The path of a directory as of one {@link #directoryEpoch}. */
    private record CachedPath(long epoch, List<String> names) {
    }

    private HandleTable(Path directory, Env<byte[]> env, Durability durability, Duration lateDelay,
            int maxPendingRows, Consumer<String> crashPoints) {
        this.directory = directory;
        this.crashPoints = crashPoints;
        this.env = env;
        this.syncAfterCommit = durability == Durability.FULL;
        this.commitSyncsData = durability != Durability.NONE;
        this.late = new LateDurability(this, lateDelay);
        this.nodes = env.openDbi("nodes", DbiFlags.MDB_CREATE);
        this.names = env.openDbi("names", DbiFlags.MDB_CREATE);
        this.inodes = env.openDbi("inodes", DbiFlags.MDB_CREATE);
        this.exports = env.openDbi("exports", DbiFlags.MDB_CREATE);
        this.journalState = env.openDbi("journal", DbiFlags.MDB_CREATE);
        // names are scanned by prefix for a directory's entries (childNames) when a directory goes
        this.pending = new PendingRows(maxPendingRows, Set.of(names));
    }

    /** A builder for a table under {@code stateDirectory} (the environment goes to its {@code handles}). */
    public static Builder builder(Path stateDirectory) {
        return new Builder(stateDirectory);
    }

    /** Opens (creating if needed) the table under {@code stateDirectory} with default settings. */
    public static HandleTable open(Path stateDirectory) {
        return builder(stateDirectory).open();
    }

    /** The directory that holds the LMDB files. */
    public Path directory() {
        return directory;
    }

    /**
     * A consistent read-only snapshot; close it promptly. On a thread {@link #bind bound} to a transaction's
     * buffer, the snapshot reads through the buffer (the transaction sees its own changes).
     */
    public HandleSnapshot read() {
        return read(bound.get().buffer, UnaryOperator.identity());
    }

    /** {@link #read()} for a thread bound to {@code buffer} (or to none: null), its store {@code outer}-wrapped. */
    private HandleSnapshot read(TxnBuffer buffer, UnaryOperator<Store> outer) {
        if (buffer != null) {
            return buffer.snapshot(outer);
        }
        return committedSnapshot(directoryEpoch.get(), outer);
    }

    /**
     * A snapshot of the committed table: one LMDB read transaction with the {@link PendingRows pending rows} over it,
     * {@code wrap}ped; it may use cached directory paths of the epoch {@code before} (read before it began; -1:
     * none) if {@link #cacheEpoch} allows.
     */
    HandleSnapshot committedSnapshot(long before, UnaryOperator<Store> wrap) {
        snapshots.increment();
        long reader = pending.enter();
        Txn<byte[]> txn;
        try {
            txn = readTransaction();
        } catch (RuntimeException e) {
            pending.exit(reader);
            throw e;
        }
        Store store = new LmdbStore(txn);
        if (reader != PendingRows.NO_READER) {
            store = pending.over(store);
        }
        return new HandleSnapshot(this, wrap.apply(store), () -> {
            endReadTransaction(txn);
            pending.exit(reader);
        }, before < 0 ? -1 : cacheEpoch(before));
    }

    /**
     * The epoch a view that began its LMDB read transaction after reading {@code before} may use cached
     * directory paths of, or -1: only when no directory change was committing meanwhile, so that the
     * view's directory rows are exactly those of the epoch.
     */
    long cacheEpoch(long before) {
        return (before & 1) == 0 && directoryEpoch.get() == before ? before : -1;
    }

    /**
     * The number of changes of the committed table so far, or -1 while one is under way or on a thread {@link #bind
     * bound} to a transaction's buffer (its reads see the buffer). If {@link #unchangedSince} this count later, every
     * read of the table in between saw the same rows (see the class comment, "Change count").
     */
    public long changeCount() {
        if (bound.get().buffer != null) {
            return -1;
        }
        long ended = changesEnded.get(); // first: a change that starts after this read makes the counts differ
        return changesStarted.get() == ended ? ended : -1;
    }

    /**
     * The committed table's change count for a cache of what reads of it answered ({@link #cachedRead}), whatever the
     * thread's buffer holds (a buffer's rows are not a change of the committed table); -1 while a change is under way.
     */
    long committedChangeCount() {
        long ended = changesEnded.get(); // first, as in changeCount()
        return changesStarted.get() == ended ? ended : -1;
    }

    /**
     * Whether no change of the committed table started since {@link #changeCount()} (or {@link
     * #committedChangeCount()}) answered {@code count}.
     */
    public boolean unchangedSince(long count) {
        return count >= 0 && changesStarted.get() == count;
    }

    /**
     * What {@code read} answers in a snapshot of the table, kept under {@code key} ({@link RowCache}): answered from
     * there while the committed table's {@link #committedChangeCount() change count} is the one it was read under, and
     * kept only if no change started while it was read. Each answer is kept with the rows its read asked for ({@link
     * RowsRead}), once any such thread has asked (until then an answer is kept bare, and only threads without rows of
     * their own use it). A thread whose buffer holds rows of its own (a transaction after its first change) uses a kept
     * answer only if it has its rows and its buffer changed none of them ({@link TxnBuffer#changesNoneOf}), else it
     * reads through its buffer; and what it reads is kept only if none of it came from its buffer. So every answer
     * kept is what a read of the committed table answers at that count: no other thread sees a buffer's rows here
     * before its commit, and a buffer discarded leaves nothing.
     *
     * @param key names the read and everything its answer depends on besides the table (by {@code equals}); each
     *     caller uses a key type of its own, so that keys of different readers never meet
     * @param read the read: no side effect but on the caller's own meters; its answer immutable and not null, a
     *     function of the rows it reads
     * @return the answer, kept or read now
     */
    @SuppressWarnings("unchecked")
    public <T> T cachedRead(Object key, Function<HandleSnapshot, T> read) {
        TxnBuffer buffer = bound.get().buffer;
        boolean ownRows = buffer != null && !buffer.isEmpty();
        if (ownRows && !bufferedReaders) {
            bufferedReaders = true;
        }
        long count = committedChangeCount();
        Object kept = cachedReads.get(count, key);
        if (kept != null && !ownRows) {
            return (T) (kept instanceof Kept withRows ? withRows.answer() : kept);
        }
        if (kept instanceof Kept withRows && buffer.changesNoneOf(withRows.rows(), withRows.complete())) {
            return (T) withRows.answer();
        }
        RowsRead rows = bufferedReaders ? new RowsRead() : null;
        T answer;
        boolean complete;
        try (HandleSnapshot snapshot = read(buffer, rows == null ? UnaryOperator.identity() : rows::over)) {
            answer = Objects.requireNonNull(read.apply(snapshot), "read answered null");
            complete = !snapshot.usedCachedPaths();
        }
        if (unchangedSince(count) && (!ownRows || buffer.changesNoneOf(rows, complete))) {
            Object keeping = rows == null ? answer : new Kept(answer, rows, complete);
            if (kept == null) {
                cachedReads.put(count, key, keeping);
            } else if (rows != null && !(kept instanceof Kept)) {
                // kept bare before any buffered thread asked: now with its rows, so such threads can use it too
                cachedReads.replace(count, key, kept, keeping);
            }
        }
        return answer;
    }

    /**
     * An answer of {@link #cachedRead} with the rows its read asked for; {@code complete} unless a path it read began
     * with a directory's cached path ({@link AbstractView#usedCachedPaths}). An answer kept without its rows is kept
     * bare (never a {@code Kept}, a type no reader's answer can be).
     */
    private record Kept(Object answer, RowsRead rows, boolean complete) {
    }

    /**
     * The export id of {@code handle}'s row, if the table has one, through {@link #cachedRead}: the planner's and the
     * inline guard's look-up of a PUTFH handle's export, under one key, so both are answered by one kept read.
     */
    public Optional<String> exportIdOf(Nfh handle) {
        return cachedRead(new ExportOf(handle), snapshot -> snapshot.node(handle).map(Node::exportId));
    }

    /** What {@link #exportIdOf} answers for {@code handle}: a key of the cache. */
    private record ExportOf(Nfh handle) {
    }

    /** How many answers {@link #cachedRead} keeps now (tests). */
    int cachedReadCount() {
        return cachedReads.size();
    }

    /** A change readers will see starts; call {@link #changed()} once it is visible (or abandoned). */
    void changing() {
        changesStarted.incrementAndGet();
    }

    /** The change {@link #changing()} announced is visible (or abandoned). */
    void changed() {
        changesEnded.incrementAndGet();
    }

    /** The epoch that a view reads before it begins its LMDB read transaction (see {@link #cacheEpoch}). */
    long directoryEpoch() {
        return directoryEpoch.get();
    }

    /** The cached path of directory {@code handle} as of {@code epoch}, or null. */
    List<String> cachedDirectoryPath(Nfh handle, long epoch) {
        CachedPath cached = directoryPaths.get(handle);
        return cached != null && cached.epoch() == epoch ? cached.names() : null;
    }

    /** How many directory paths are cached (tests). */
    int cachedDirectories() {
        return directoryPaths.size();
    }

    /** Remembers the path of directory {@code handle} as of {@code epoch}. */
    void cacheDirectoryPath(Nfh handle, long epoch, List<String> names) {
        if (directoryEpoch.get() != epoch) {
            return;
        }
        if (directoryPaths.size() >= MAX_CACHED_DIRECTORIES) {
            directoryPaths.clear();
        }
        directoryPaths.put(handle, new CachedPath(epoch, List.copyOf(names)));
    }

    /** A read transaction: an idle one renewed, else a new one. End it with {@link #endReadTransaction}. */
    Txn<byte[]> readTransaction() {
        Txn<byte[]> idle;
        while ((idle = idleReads.poll()) != null) {
            try {
                idle.renew();
                return idle;
            } catch (LmdbException | IllegalStateException e) {
                LOG.debug("renewing an idle read transaction failed, dropping it: {}", e.toString());
                closeQuietly(idle);
            }
        }
        try {
            return env.txnRead();
        } catch (LmdbException e) {
            throw translate("starting a read transaction", e);
        }
    }

    /** Ends a read transaction of {@link #readTransaction}: reset and kept for reuse, or closed. */
    void endReadTransaction(Txn<byte[]> txn) {
        if (env.isClosed()) {
            return; // closing the environment ended it
        }
        try {
            txn.reset();
        } catch (LmdbException | IllegalStateException e) {
            closeQuietly(txn);
            return;
        }
        if (!idleReads.offer(txn)) {
            closeQuietly(txn);
        }
    }

    /** How many ended read transactions wait for reuse (tests). */
    int idleReadTransactions() {
        return idleReads.size();
    }

    private static void closeQuietly(Txn<byte[]> txn) {
        try {
            txn.close();
        } catch (RuntimeException e) {
            LOG.debug("closing a read transaction failed: {}", e.toString());
        }
    }

    /**
     * A write batch; blocks while another LMDB batch is open. See {@link HandleBatch} for the rules. On a
     * thread {@link #bind bound} to a transaction's buffer, the batch's commit moves its changes into the
     * buffer instead of LMDB, and it never blocks.
     */
    public HandleBatch write() {
        TxnBuffer buffer = bound.get().buffer;
        if (buffer != null) {
            return buffer.batch();
        }
        return lmdbBatch(true);
    }

    /** A batch on LMDB whose commit is durable when it returns if {@code durable}, else {@link #commitLazily lazy}. */
    private HandleBatch lmdbBatch(boolean durable) {
        try {
            Txn<byte[]> txn = env.txnWrite();
            Store lmdb = new LmdbStore(txn);
            PendingRows.Drain drain;
            long journaled = -1;
            // held until the batch ends: no record's rows become pending while it decides on LMDB's rows alone
            RowJournal j = journal;
            ReentrantLock appends = j == null ? null : j.lock();
            if (appends != null) {
                appends.lock();
            }
            try {
                // every commit carries the rows still pending first: none becomes durable without those before it
                drain = pending.drainInto(lmdb);
                if (appends != null && drain != null) {
                    // the rows of every record up to this one are in this commit (the consistent cut)
                    journaled = j.lastAppended();
                    lmdb.put(journalState, APPLIED_KEY, longBytes(journaled));
                }
            } catch (RuntimeException e) {
                txn.close();
                if (appends != null) {
                    appends.unlock();
                }
                throw e;
            }
            long applied = journaled;
            return new HandleBatch(this, drain == null ? lmdb : drain.recording(lmdb), new HandleBatch.Ending() {
                @Override
                public void commit(boolean directoriesChanged) {
                    if (directoriesChanged) {
                        directoryEpoch.incrementAndGet();
                    }
                    if (applied >= 0 && drain.appliesRows()) {
                        crashPoints.accept(JOURNALED_ROWS_COMMIT_POINT);
                    }
                    changing();
                    try {
                        if (drain == null) {
                            txn.commit();
                        } else {
                            synchronized (pending) {
                                txn.commit();
                                pending.committed(drain);
                            }
                        }
                    } catch (LmdbException e) {
                        throw translate("committing handle changes", e);
                    } finally {
                        changed();
                        if (directoriesChanged) {
                            directoryEpoch.incrementAndGet();
                        }
                    }
                    if (applied >= 0) {
                        committedJournalSequence = applied;
                    }
                    commits.increment();
                    if (commitSyncsData) {
                        flushes.increment();
                    }
                    if (durable && syncAfterCommit) {
                        sync();
                        lossyRowsVisible = false;
                    } else if (!durable) {
                        unsynced.set(true);
                        lossyRowsVisible = true;
                    }
                }

                @Override
                public void close(boolean committed) {
                    try {
                        txn.close();
                    } finally {
                        if (appends != null) {
                            appends.unlock();
                        }
                    }
                }
            });
        } catch (LmdbException e) {
            throw translate("starting a write transaction", e);
        }
    }

    /**
     * A new, empty TXN buffer (DESIGN.md, step 6): handle changes of one transactional compound, kept in
     * memory over the committed table until {@link TxnBuffer#commit} applies them in one LMDB write
     * transaction. Changes reach the buffer while the thread is {@link #bind bound} to it.
     */
    public TxnBuffer buffer() {
        return new TxnBuffer(this, new CommittedStore(), true);
    }

    /**
     * A new, empty buffer for a plain compound that holds its locks: its handle changes wait there and
     * become durable in one commit before the reply. Unlike a transaction's {@link #buffer()}, its owner
     * does not sync the files written: the buffer keeps their syncs ({@link #syncAtCompoundEnd}).
     */
    public TxnBuffer plainBuffer() {
        return new TxnBuffer(this, new CommittedStore(), false);
    }

    /**
     * Routes this thread's {@link #read()} and {@link #write()} (and the convenience reads) through
     * {@code buffer} until the returned binding is closed.
     *
     * @throws IllegalStateException if the thread is bound already
     */
    public Binding bind(TxnBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        BoundSlot slot = bound.get();
        if (slot.buffer != null) {
            throw new IllegalStateException("this thread is bound to a transaction's buffer already");
        }
        slot.buffer = buffer;
        return new Binding();
    }

    /** Unbinds this thread from any buffer (harmless when it is not bound). */
    public void unbindCurrentThread() {
        bound.get().buffer = null;
    }

    /** Whether this thread is bound to a buffer. */
    public boolean isBound() {
        return bound.get().buffer != null;
    }

    /**
     * Whether a stable WRITE on this thread leaves its fsync to the end of its compound, which comes before
     * the reply. On a thread bound to a transaction's buffer the transaction fsyncs every file it wrote
     * before its commit point (through the sync {@code opener} opens when the buffer {@linkplain
     * TxnBuffer#keepFileSyncs keeps file syncs}); on one bound to a plain compound's buffer the buffer keeps the sync
     * {@code opener} opens (one per {@code key}) for {@link TxnBuffer#syncPending()}. On an unbound thread
     * it returns false: sync now. {@code key} names the object (its handle) for every compound: compounds
     * syncing the same key at the same moment share an fsync ({@link SharedFsync}).
     */
    public boolean syncAtCompoundEnd(Object key, TxnBuffer.SyncOpener opener) throws IOException {
        return atCompoundEnd(key, opener, false);
    }

    /**
     * {@link #syncAtCompoundEnd} of a file or a directory: a transaction's buffer keeps the sync of a file when it
     * {@linkplain TxnBuffer#keepFileSyncs keeps file syncs} for its commit, never a directory's.
     */
    private boolean atCompoundEnd(Object key, TxnBuffer.SyncOpener opener, boolean directory) throws IOException {
        TxnBuffer buffer = bound.get().buffer;
        if (buffer == null) {
            return false;
        }
        if (!buffer.ownerSyncsData() || (!directory && buffer.keepsFileSyncs())) {
            buffer.syncBeforeCommit(key, opener);
        }
        return true;
    }

    /**
     * {@link #syncAtCompoundEnd} for a directory whose entries the caller has just changed: on a thread bound to the
     * buffer of a plain compound that {@linkplain TxnBuffer#defersDirectorySyncs defers its directory syncs} (an
     * {@code async} export), nothing is opened or kept when the {@link #late()} queue already holds a sync of
     * {@code key} that has not begun (it covers this change): one {@code open} and {@code close} of the directory
     * less per compound that creates or removes in a directory written a moment before.
     */
    public boolean syncDirectoryAtCompoundEnd(Object key, TxnBuffer.SyncOpener opener) throws IOException {
        TxnBuffer buffer = bound.get().buffer;
        if (buffer != null && buffer.defersDirectorySyncs() && late.holdsDirectorySync(key)) {
            queuedDirectorySyncsJoined.increment();
            return true;
        }
        return atCompoundEnd(key, opener, true);
    }

    /**
     * Whether this thread runs a plain compound that hands its directory syncs to the {@link #late()} queue (an
     * {@code async} export, {@link TxnBuffer#deferringDirectorySyncs}): they run up to a second later, after the
     * compound's end.
     */
    public boolean defersDirectorySyncs() {
        TxnBuffer buffer = bound.get().buffer;
        return buffer != null && buffer.defersDirectorySyncs();
    }

    /**
     * Tells the buffer of the plain compound this thread runs that the change of entries of {@code directory} just
     * made (and kept for a sync at the compound's end by {@link #syncDirectoryAtCompoundEnd}) logged {@code object}
     * in the same file-system transaction, such as the object it created: on a file system that logs in order an
     * fsync of that object covers the directory's ({@link OrderedLog}). Nothing on an unbound thread.
     */
    public void loggedWithLastDirectoryChange(Object directory, Object object) {
        TxnBuffer buffer = bound.get().buffer;
        if (buffer != null && !buffer.ownerSyncsData()) {
            buffer.loggedWithLastDirectoryChange(directory, object);
        }
    }

    /**
     * Counts {@code syncs} directory syncs left out because the sync of a compound's last change of entries covered
     * them on an {@link OrderedLog} (a plain compound's by its buffer, a transaction's by its commit).
     */
    public void directorySyncsCovered(int syncs) {
        if (syncs > 0) {
            directorySyncsCovered.add(syncs);
        }
    }

    /**
     * Directory syncs of compounds (plain ones and transactions' commits) left out because, on a file system that logs
     * in order, the fsync of the object of the compound's last change of entries covered them ({@link OrderedLog}).
     */
    public long directorySyncsCovered() {
        return directorySyncsCovered.sum();
    }

    /**
     * Directory syncs of plain {@code async} compounds that a sync already queued covered
     * ({@link #syncDirectoryAtCompoundEnd}).
     */
    public long queuedDirectorySyncsJoined() {
        return queuedDirectorySyncsJoined.sum();
    }

    /**
     * Lets the row of name {@code name} in directory {@code parent} outlive the object a plain REMOVE just
     * removed there, for a bounded time ({@link LateDurability}): on a thread bound to a plain compound's buffer
     * the row goes after the compound's directory syncs ({@link TxnBuffer#forgetRemovedRows}); on an unbound
     * thread, which synced the directory already, it is queued now. Returns the handle the row names, or empty
     * if the caller must remove the row itself as before: on a thread bound to a transaction's buffer (whose
     * commit must remove it atomically) unless that buffer {@link TxnBuffer#removesRowsLate removes rows late}
     * (a light-path transaction), when the table has no such row, or when the queue is full.
     */
    public Optional<Nfh> unlinkAfterSync(Nfh parent, String name) {
        TxnBuffer buffer = bound.get().buffer;
        if (buffer != null && !buffer.removesRowsLate()) {
            return Optional.empty();
        }
        Optional<Nfh> handle = child(parent, name);
        if (handle.isEmpty()) {
            return handle;
        }
        if (buffer != null) {
            buffer.unlinkAfterSync(parent, name, handle.get());
            return handle;
        }
        return late.unlinkLater(parent, name, handle.get()) ? handle : Optional.empty();
    }

    /**
     * Where the REMOVE of the object with inode number {@code ino} (an empty directory or a non-directory), on this
     * thread, is to rename it instead of removing it: the place a transaction's buffer keeps it at for its undo
     * ({@link TxnBuffer#keepRemoved}), taken once; empty elsewhere (remove it).
     */
    public Optional<java.nio.file.Path> placeForRemoved(long ino) {
        TxnBuffer buffer = bound.get().buffer;
        return buffer == null ? Optional.empty() : buffer.takeRemovedPlace(ino);
    }

    /**
     * On a thread bound to a plain compound's buffer: the change about to be made (a RENAME's rows) must become
     * durable only after the compound's directory syncs, so the buffer is not committed alongside them
     * ({@link TxnBuffer#mayCommitAlongsideSyncs}). Elsewhere nothing.
     */
    public void commitAfterSyncs() {
        TxnBuffer buffer = bound.get().buffer;
        if (buffer != null) {
            buffer.markCommitAfterSyncs();
        }
    }

    /** The buffer one thread is bound to; used by that thread only. */
    private static final class BoundSlot {
        TxnBuffer buffer;
    }

    /** A thread's binding to a buffer; closing it unbinds the thread. */
    public final class Binding implements AutoCloseable {
        private Binding() {
        }

        @Override
        public void close() {
            bound.get().buffer = null;
        }
    }

    /** Work on a batch that {@link #inGroupCommit} runs and commits. */
    @FunctionalInterface
    public interface BatchWork<T> {
        /**
         * Reads and changes the table through {@code batch} (never commits or closes it). May run again, on
         * a fresh batch, if the group it ran in failed; so it must not act outside the batch in a way that
         * matters twice.
         */
        T apply(HandleBatch batch) throws IOException;
    }

    /**
     * Runs {@code work} in an LMDB write transaction and commits it, sharing the transaction, and so the
     * disk sync, with the work other threads hand in at the same time (group commit): while one group
     * commits, the next gathers, and its first thread commits all of it at once. Each piece of work sees
     * the changes of those before it in the group, as with batches one after another. Returns once the
     * work is committed (durable under {@link Durability#FULL}). If the group's commit fails, each piece is
     * run again alone, so one failing piece does not fail the others. On a thread {@link #bind bound} to a
     * TXN buffer the work goes into the buffer instead, as {@link #write()} batches do.
     *
     * @return what {@code work} returned
     * @throws IOException or a runtime exception, as {@code work} threw it, or a {@link HandleTableException}
     *     of the commit
     */
    public <T> T inGroupCommit(BatchWork<T> work) throws IOException {
        Objects.requireNonNull(work, "work");
        TxnBuffer buffer = bound.get().buffer;
        if (buffer != null) {
            try (HandleBatch batch = buffer.batch()) {
                T result = work.apply(batch);
                batch.commit();
                return result;
            }
        }
        return inLmdbGroupCommit(work);
    }

    /**
     * Commits {@code work} to LMDB in a group commit (see {@link #inGroupCommit}) even on a thread bound to
     * a TXN buffer: for what must be durable whatever becomes of the transaction (its recovery record, the
     * transaction id floor, undo progress, the buffer's own commit).
     */
    public void commitDurably(Consumer<HandleBatch> work) {
        commitToLmdb(work, true);
    }

    /**
     * Commits {@code work} to LMDB like {@link #commitDurably}, visible to all at once, but without waiting for
     * the meta page to reach the disk: one device flush instead of two. It becomes durable with the next commit
     * or {@link #sync()} (the {@link #late()} thread syncs within its delay); a crash before that may lose it,
     * never the table's consistency. For rows whose loss only makes handles answer NFS4ERR_STALE: those of
     * plain compounds on {@code async} exports, deferred removals.
     */
    public void commitLazily(Consumer<HandleBatch> work) {
        commitToLmdb(work, false);
    }

    /**
     * Commits {@code work} durably, as {@link #commitDurably} does, through the {@link RowJournal} when the journal
     * takes its rows (rows of the handle tables and of {@link #journalSideTable journaled side tables}, a record that
     * fits): visible to every reader at once as pending rows, and durable when this returns by one flush of the
     * journal (shared with the callers flushing it at the same moment) instead of a durable LMDB commit's two; in LMDB
     * with a later commit, or by the replay at the next open. Otherwise (journal off or failed, rows of another table,
     * pending rows full) it is {@link #commitDurably}. Also on a thread bound to a buffer it commits the committed
     * table. For blind writes (the transaction layer's recovery records): {@code work} runs on a batch over the
     * committed rows, not inside an LMDB write transaction, so it must not decide what to write from what it reads.
     *
     * @throws HandleTableException the commit failed (or, after a failed journal flush, the commit of the pending
     *     rows)
     */
    public void commitJournaled(Consumer<HandleBatch> work) {
        Objects.requireNonNull(work, "work");
        if (journal == null) {
            commitDurably(work);
            return;
        }
        plainBuffer().commitJournaled(work);
    }

    private void commitToLmdb(Consumer<HandleBatch> work, boolean durable) {
        Objects.requireNonNull(work, "work");
        try {
            inLmdbGroupCommit(batch -> {
                work.accept(batch);
                return null;
            }, durable);
        } catch (IOException e) {
            throw new HandleTableException("group commit failed: " + e.getMessage(), e);
        }
    }

    /** Whether a {@link #commitLazily lazy} commit ran since the last {@link #sync()}. */
    boolean hasUnsyncedCommits() {
        return unsynced.get();
    }

    /**
     * Makes {@code changes} (a plain {@code async} compound's buffer) visible to every reader at once without an LMDB
     * commit: they wait as {@link PendingRows} for the next commit, at the latest the {@link #late()} flush within
     * its delay, and a crash before it loses them (their handles then answer NFS4ERR_STALE). False, changing nothing,
     * when pending rows are off or full: the caller commits as before.
     */
    boolean keepPending(OverlayStore changes, boolean directoriesChanged) {
        if (!pending.enabled()) {
            return false;
        }
        RowJournal j = journal;
        boolean kept;
        if (j == null) {
            kept = publishPending(changes, directoriesChanged);
        } else {
            // as a journaled compound's rows: never while an LMDB write transaction is open (see lmdbBatch)
            j.lock().lock();
            try {
                kept = publishPending(changes, directoriesChanged);
                lossyRowsVisible |= kept;
            } finally {
                j.lock().unlock();
            }
        }
        if (kept) {
            late.rowsWaiting();
        }
        return kept;
    }

    /** Adds {@code changes} to the pending rows, visible to all at once, if they fit; whether they did. */
    private boolean publishPending(OverlayStore changes, boolean directoriesChanged) {
        boolean kept;
        if (directoriesChanged) {
            directoryEpoch.incrementAndGet();
        }
        changing();
        try {
            kept = pending.tryAdd(changes);
        } finally {
            changed();
            if (directoriesChanged) {
                directoryEpoch.incrementAndGet();
            }
        }
        return kept;
    }

    /**
     * Makes {@code changes} (a plain {@code sync} compound's buffer, a transaction's record or commit point) visible
     * to every reader at once as pending rows and writes their record to the {@link RowJournal}, not yet flushed: pass
     * the answer to {@link #flushJournal}, after which they are durable. Returns -1, changing nothing, when the journal
     * does not take them (off, failed, pending rows full, a row of a side table not {@link #journalSideTable
     * journaled}, a record larger than the journal, or no room even after committing the pending rows; for {@code
     * transaction}'s rows, while {@link #lossyRowsVisible rows a crash may lose} are visible): the caller commits
     * durably as before. When writing the record fails, the rows (visible by then) are committed durably here and 0 is
     * returned (nothing left to flush).
     *
     * @param transaction whether the rows are a transaction's, which may stand on rows of {@code async} compounds
     *     (a plain {@code sync} compound's stand on durable rows only: its export's compounds keep none pending)
     */
    long keepJournaled(OverlayStore changes, boolean directoriesChanged, boolean transaction) {
        RowJournal j = journal;
        if (j == null || !pending.enabled()) {
            return -1;
        }
        Encoded encoded = encodeRows(changes);
        if (encoded == null) {
            return -1;
        }
        for (int attempt = 0; ; attempt++) {
            long sequence;
            try {
                sequence = j.append(encoded.payload(),
                        () -> !(transaction && lossyRowsVisible) && publishPending(changes, directoriesChanged));
            } catch (IOException e) {
                journalFailed(j, "writing", e);
                return 0;
            }
            if (sequence == RowJournal.NO_ROOM && attempt == 0) {
                // the durable commit of every pending row lets the journal start again at its beginning
                commitDurably(batch -> { });
                continue;
            }
            if (sequence >= 0) {
                encoded.count();
                late.rowsWaiting();
            }
            return sequence < 0 ? -1 : sequence;
        }
    }

    /**
     * Returns once the journal record {@code sequence} of {@link #keepJournaled} is durable (a flush shared with the
     * compounds waiting at the same moment). When the flush fails, every pending row is committed durably instead.
     *
     * @throws HandleTableException when that commit fails too
     */
    void flushJournal(long sequence) {
        RowJournal j = journal;
        if (sequence <= 0 || j == null) {
            return;
        }
        try {
            j.flush(sequence);
        } catch (IOException e) {
            journalFailed(j, "flushing", e);
        }
    }

    /**
     * The journal failed ({@code doing} it): no record is written to it any more, and the rows pending now (those
     * of the records that may be lost among them) are committed durably.
     */
    private void journalFailed(RowJournal j, String doing, IOException e) {
        j.fail();
        LOG.error("{} the row journal {} failed: {}; it is off until the server restarts, plain compounds commit "
                + "their handle rows to LMDB (check the state directory's file system)", doing, j.file(), e.toString());
        commitDurably(batch -> { });
    }

    /** Records written to the row journal since the table opened (0 when it is off). */
    public long journalRecords() {
        RowJournal j = journal;
        return j == null ? 0 : j.appendCount();
    }

    /** {@code fdatasync}s of the row journal since the table opened (0 when it is off). */
    public long journalFlushes() {
        RowJournal j = journal;
        return j == null ? 0 : j.flushCount();
    }

    /**
     * Flushes of a plain compound's rows (the journal's, or a shared table sync) that ran on a pool thread while the
     * compound's own thread synced the files and directories it changed ({@link TxnBuffer#commitVisiblyAlongsideSyncs}).
     */
    public long rowFlushesHandedOff() {
        return rowFlushesHandedOff.sum();
    }

    void countRowFlushHandedOff() {
        rowFlushesHandedOff.increment();
    }

    /** The row journal, or null when it is off (tests). */
    RowJournal journal() {
        return journal;
    }

    /** The handle tables' names, by their code in a journal record (the index of {@link #journaledTables}). */
    private static final List<String> HANDLE_TABLE_NAMES = List.of("nodes", "names", "inodes", "exports");

    /** The handle tables' dbis, by their code in a journal record (the index). */
    private List<Dbi<byte[]>> journaledTables() {
        return List.of(nodes, names, inodes, exports);
    }

    /** A journal record's code for a row of a {@link #journalSideTable journaled} side table; its name follows. */
    private static final int SIDE_TABLE_CODE = 4;

    /** A side table registered as journaled, and the rows of it written to the journal (a meter). */
    private record JournaledSide(SideTable table, LongAdder rows) {
    }

    /**
     * Lets journal records carry rows of {@code side} (the transaction layer's recovery records): a {@link
     * #commitJournaled journaled commit} or a buffer's {@link TxnBuffer#commitJournaled(Consumer)} whose rows include
     * some of it then takes the journal instead of a durable LMDB commit. Its pending rows are read through the same
     * overlay as the handle tables' by every {@link #read()} (a snapshot's {@link HandleView#get(SideTable, byte[])}
     * and {@link HandleView#forEach}), and replayed into LMDB when the table opens, before anything reads it. Call at
     * startup, like {@link #sideTable}.
     */
    public void journalSideTable(SideTable side) {
        Objects.requireNonNull(side, "side");
        journaledSides.putIfAbsent(side.dbi(), new JournaledSide(side, new LongAdder()));
    }

    /** Rows of the journaled side table {@code name} written to the row journal since the table opened (a meter). */
    public long journaledSideRows(String name) {
        for (JournaledSide side : journaledSides.values()) {
            if (side.table().name().equals(name)) {
                return side.rows().sum();
            }
        }
        return 0;
    }

    /**
     * Rows the row journal's replay applied when the table opened, by table name ({@code nodes}, {@code names},
     * {@code inodes}, {@code exports}, or a side table's name); empty when nothing was replayed.
     */
    public Map<String, Long> replayedJournalRows() {
        return Map.copyOf(replayedRows);
    }

    /** A journal record's payload and the journaled side tables it carries rows of, with their counts. */
    private record Encoded(byte[] payload, Map<JournaledSide, Integer> sideRows) {
        /** Counts the side rows as written (the record was appended). */
        void count() {
            sideRows.forEach((side, rows) -> side.rows().add(rows));
        }
    }

    /**
     * The payload of a journal record for {@code changes}: per row its table's code (1 byte; for a side table {@link
     * #SIDE_TABLE_CODE} and its name, 2 bytes of length and UTF-8), the key's length (4) and bytes, the value's length
     * (4; -1 for a removal) and bytes. Null when a row is in a table that is not journaled.
     */
    private Encoded encodeRows(OverlayStore changes) {
        List<Dbi<byte[]>> tables = journaledTables();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        boolean[] foreign = new boolean[1];
        Map<JournaledSide, Integer> sideRows = new HashMap<>(2);
        changes.forEachChange((dbi, key, value) -> {
            int code = tables.indexOf(dbi);
            JournaledSide side = code < 0 ? journaledSides.get(dbi) : null;
            if (code < 0 && side == null) {
                foreign[0] = true;
                return;
            }
            try {
                if (side == null) {
                    out.writeByte(code);
                } else {
                    byte[] name = side.table().name().getBytes(StandardCharsets.UTF_8);
                    out.writeByte(SIDE_TABLE_CODE);
                    out.writeShort(name.length);
                    out.write(name);
                    sideRows.merge(side, 1, Integer::sum);
                }
                out.writeInt(key.length);
                out.write(key);
                out.writeInt(value == null ? -1 : value.length);
                if (value != null) {
                    out.write(value);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
            }
        });
        return foreign[0] ? null : new Encoded(bytes.toByteArray(), sideRows);
    }

    /** One row of a journal record: its table, key, and value or null for a removal. */
    private record JournaledRow(Dbi<byte[]> dbi, String table, byte[] key, byte[] value) {
    }

    /**
     * The rows of a journal record ({@link #encodeRows}), added to {@code into}; a side table a row names is opened
     * (so call it outside any LMDB write transaction).
     *
     * @throws HandleTableException for a payload that does not parse (a length beyond it, an unknown table)
     */
    private void decodeRows(byte[] payload, List<JournaledRow> into) {
        List<Dbi<byte[]>> tables = journaledTables();
        ByteBuffer in = ByteBuffer.wrap(payload);
        try {
            while (in.hasRemaining()) {
                int code = in.get();
                Dbi<byte[]> dbi;
                String table;
                if (code == SIDE_TABLE_CODE) {
                    table = new String(take(in, Short.toUnsignedInt(in.getShort())), StandardCharsets.UTF_8);
                    dbi = sideTable(table).dbi();
                } else if (code >= 0 && code < tables.size()) {
                    dbi = tables.get(code);
                    table = HANDLE_TABLE_NAMES.get(code);
                } else {
                    throw new HandleTableException("row journal record names table " + code);
                }
                byte[] key = take(in, in.getInt());
                int length = in.getInt();
                into.add(new JournaledRow(dbi, table, key, length == -1 ? null : take(in, length)));
            }
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new HandleTableException("row journal record cut short or damaged: " + e, e);
        }
    }

    /** The next {@code length} bytes of {@code in}, checked against what is left before allocating. */
    private static byte[] take(ByteBuffer in, int length) {
        if (length < 0 || length > in.remaining()) {
            throw new HandleTableException("row journal record claims " + length + " bytes, " + in.remaining()
                    + " left");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    /**
     * Replays the row journal (the records above the applied sequence number, in one durable commit that also
     * records the journal's new starting number) and, when {@code size > 0}, opens it for appending. A journal
     * left by a run with the journal on is replayed also when it is off now.
     */
    private void openJournal(long size) throws IOException {
        Path file = directory.resolve(ROW_JOURNAL_FILE);
        List<RowJournal.Entry> run = RowJournal.read(file);
        if (size <= 0 && run.isEmpty()) {
            return;
        }
        byte[] stored;
        try (HandleSnapshot snapshot = committedSnapshot(-1, store -> store)) {
            stored = snapshot.store.get(journalState, APPLIED_KEY);
        }
        long applied = stored == null ? 0 : ByteBuffer.wrap(stored).getLong();
        long highest = applied;
        List<RowJournal.Entry> replayed = new ArrayList<>();
        for (RowJournal.Entry e : run) {
            highest = Math.max(highest, e.sequence());
            if (e.sequence() > applied) {
                replayed.add(e);
            }
        }
        long fileSize = Files.exists(file) ? Files.size(file) : 0;
        long next = RowJournal.firstSequenceAfter(highest, Math.max(size, fileSize));
        List<JournaledRow> rows = new ArrayList<>();
        for (RowJournal.Entry e : replayed) {
            decodeRows(e.payload(), rows); // before the write transaction: a side table may have to be opened
        }
        try (HandleBatch batch = lmdbBatch(true)) {
            for (JournaledRow row : rows) {
                if (row.value() == null) {
                    batch.store.delete(row.dbi(), row.key());
                } else {
                    batch.store.put(row.dbi(), row.key(), row.value());
                }
                replayedRows.merge(row.table(), 1L, Long::sum);
            }
            batch.store.put(journalState, APPLIED_KEY, longBytes(next - 1));
            if (!replayed.isEmpty()) {
                batch.markDirectoriesChanged();
            }
            batch.commit();
        }
        if (!replayed.isEmpty()) {
            LOG.info("row journal {}: replayed {} records (sequence {} to {}) into the handle table", file,
                    replayed.size(), replayed.get(0).sequence(), replayed.get(replayed.size() - 1).sequence());
        }
        if (size > 0) {
            journal = RowJournal.open(file, size, next);
        }
    }

    /**
     * Commits the {@link PendingRows pending rows} durably if any wait, and drops those no reader needs any more;
     * whether rows are still kept (a later call may drop them). For {@link LateDurability#flush()}.
     */
    boolean flushPendingRows() {
        if (pending.waiting() > 0) {
            commitDurably(batch -> { });
        } else {
            pending.reclaim();
        }
        return pending.size() > 0;
    }

    /**
     * Whether a compound of an {@code async} export that adds at most {@code rows} rows and queues at most as many
     * directory syncs and row removals would, run now, keep them all in memory and in the {@link #late()} queue:
     * commit and flush nothing itself (asked before a change runs on a network thread; issue 16). Answers from
     * memory; the work of compounds running meanwhile may still take the room.
     */
    public boolean keepsLateWork(int rows) {
        return pending.hasRoom(rows) && late.hasRoom(rows);
    }

    /** Rows of {@code async} compounds kept in memory: waiting for an LMDB commit, or committed and kept for readers. */
    public int pendingRows() {
        return pending.size();
    }

    /** Rows of {@code async} compounds that no LMDB commit carried yet. */
    public int uncommittedPendingRows() {
        return pending.waiting();
    }

    /**
     * Snapshots of the committed table taken since it was opened (an LMDB read transaction each, on behalf of every
     * reader: file systems, planner, locker); {@link #cachedRead} answers from its cache take none.
     */
    public long snapshotCount() {
        return snapshots.sum();
    }

    /** LMDB write transactions committed since the table was opened. */
    public long commitCount() {
        return commits.sum();
    }

    /**
     * Device flushes of the table's file since it was opened: one per commit (LMDB's {@code fdatasync} of its
     * pages) and one per {@link #sync()} (the meta page of a durable commit, or of lazy commits before it).
     */
    public long flushCount() {
        return flushes.sum();
    }

    /** What waits for the disk in the background: deferred directory syncs and row removals. */
    public LateDurability late() {
        return late;
    }

    private <T> T inLmdbGroupCommit(BatchWork<T> work) throws IOException {
        return groupCommit.run(work, true);
    }

    private <T> T inLmdbGroupCommit(BatchWork<T> work, boolean durable) throws IOException {
        return groupCommit.run(work, durable);
    }

    /**
     * Pieces of work handed to {@link #inGroupCommit} and {@link #commitDurably} for LMDB since the start: the
     * durable commits there would have been without group commit.
     */
    public long durableCommitRequests() {
        return groupCommit.requests();
    }

    /** LMDB commits that {@link #inGroupCommit} and {@link #commitDurably} made since the start (one per group). */
    public long durableCommits() {
        return groupCommit.commits();
    }

    /**
     * The fsyncs that compounds share (one fsync of an object, started after each caller's change, serves
     * every compound that needs it at that moment).
     */
    public SharedFsync sharedFsync() {
        return sharedFsync;
    }

    /** Reads of the latest committed rows, each in its own short read transaction; never written. */
    private final class CommittedStore implements Store {
        @Override
        public byte[] get(Dbi<byte[]> dbi, byte[] key) {
            return reading(store -> store.get(dbi, key));
        }

        @Override
        public void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
            throw new UnsupportedOperationException("the committed table is changed only by batches");
        }

        @Override
        public boolean delete(Dbi<byte[]> dbi, byte[] key) {
            throw new UnsupportedOperationException("the committed table is changed only by batches");
        }

        @Override
        public void scan(Dbi<byte[]> dbi, byte[] prefix, java.util.function.BiConsumer<byte[], byte[]> action) {
            reading(store -> {
                store.scan(dbi, prefix, action);
                return null;
            });
        }

        /**
         * {@code read} on a short read transaction with the pending rows over it: an idle one renewed ({@link
         * #readTransaction}), as a snapshot takes, not a new one per row.
         */
        private <T> T reading(java.util.function.Function<Store, T> read) {
            long reader = pending.enter();
            try {
                Txn<byte[]> txn = readTransaction();
                try {
                    Store store = new LmdbStore(txn);
                    return read.apply(reader == PendingRows.NO_READER ? store : pending.over(store));
                } finally {
                    endReadTransaction(txn);
                }
            } catch (LmdbException e) {
                throw translate("reading the handle table", e);
            } finally {
                pending.exit(reader);
            }
        }
    }

    /**
     * The side table called {@code name}, created on first use. Call this at startup, never while the
     * calling thread has a batch open.
     *
     * @throws IllegalArgumentException for an empty name or one longer than 64 bytes
     * @throws HandleTableException if {@value #MAX_SIDE_TABLES} side tables exist already
     */
    public SideTable sideTable(String name) {
        Objects.requireNonNull(name, "name");
        int length = name.getBytes(StandardCharsets.UTF_8).length;
        if (length == 0 || length > 64) {
            throw new IllegalArgumentException("side table names have 1 to 64 bytes: \"" + name + "\"");
        }
        synchronized (sideTables) {
            SideTable existing = sideTables.get(name);
            if (existing != null) {
                return existing;
            }
            if (sideTables.size() >= MAX_SIDE_TABLES) {
                throw new HandleTableException("no more than " + MAX_SIDE_TABLES + " side tables");
            }
            try {
                SideTable table = new SideTable(name, env.openDbi(SIDE_PREFIX + name, DbiFlags.MDB_CREATE));
                sideTables.put(name, table);
                return table;
            } catch (LmdbException e) {
                throw translate("opening side table " + name, e);
            }
        }
    }

    /** {@link HandleView#node} in its own read transaction. */
    public Optional<Node> node(Nfh handle) {
        try (HandleSnapshot snapshot = read()) {
            return snapshot.node(handle);
        }
    }

    /** {@link HandleView#child} in its own read transaction. */
    public Optional<Nfh> child(Nfh parent, String name) {
        try (HandleSnapshot snapshot = read()) {
            return snapshot.child(parent, name);
        }
    }

    /** {@link HandleView#byInode} in its own read transaction. */
    public Optional<Nfh> byInode(String exportId, long ino) {
        try (HandleSnapshot snapshot = read()) {
            return snapshot.byInode(exportId, ino);
        }
    }

    /** {@link HandleView#root} in its own read transaction. */
    public Optional<Nfh> root(String exportId) {
        try (HandleSnapshot snapshot = read()) {
            return snapshot.root(exportId);
        }
    }

    /** {@link HandleView#path(Nfh)} in its own read transaction. */
    public Optional<List<String>> path(Nfh handle) {
        try (HandleSnapshot snapshot = read()) {
            return snapshot.path(handle);
        }
    }

    /**
     * Forces everything committed so far to disk: every {@link #commitLazily lazy} commit, and under a
     * {@link Durability} weaker than {@link Durability#FULL} every commit.
     */
    public void sync() {
        long applied = committedJournalSequence;
        unsynced.set(false);
        try {
            env.sync(true);
        } catch (LmdbException e) {
            unsynced.set(true);
            throw translate("syncing the handle table", e);
        }
        flushes.increment();
        RowJournal j = journal;
        if (j != null && applied >= 0) {
            j.applied(applied);
        }
    }

    /**
     * {@link #sync()}, shared with the callers that need it at the same moment ({@link SharedFsync}): returns once a
     * sync that started after this call began has completed, so every commit made before the call is durable.
     */
    public void syncShared() throws IOException {
        sharedFsync.sync(this, this::sync);
    }

    /** Names of the side tables that exist in the environment (opened or not). */
    public List<String> sideTableNames() {
        List<String> result = new ArrayList<>();
        for (byte[] name : env.getDbiNames()) {
            String text = new String(name, StandardCharsets.UTF_8);
            if (text.startsWith(SIDE_PREFIX)) {
                result.add(text.substring(SIDE_PREFIX.length()));
            }
        }
        return result;
    }

    /** Closes the environment; every snapshot and batch must be closed before. Calling it again is harmless. */
    @Override
    public void close() {
        if (!env.isClosed()) {
            late.close();
            if (pending.waiting() > 0 || journal != null) {
                try {
                    commitDurably(batch -> { }); // the rows of async compounds that came after the last flush
                } catch (HandleTableException e) {
                    LOG.error("committing {} pending handle rows at close failed: {}; the handles of the objects "
                            + "async compounds created last answer NFS4ERR_STALE", pending.waiting(), e.getMessage());
                }
            }
            if (unsynced.get()) {
                try {
                    sync();
                } catch (HandleTableException e) {
                    LOG.error("syncing the handle table at close failed: {}; the last handle changes of async "
                            + "exports may be lost", e.getMessage());
                }
            }
            Txn<byte[]> idle;
            while ((idle = idleReads.poll()) != null) {
                closeQuietly(idle);
            }
            RowJournal j = journal;
            if (j != null) {
                try {
                    j.close();
                } catch (IOException e) {
                    LOG.warn("closing the row journal {} failed: {}", j.file(), e.toString());
                }
            }
            env.close();
            LOG.debug("closed handle table {}", directory);
        }
    }

    static void checkExportId(String exportId) {
        Objects.requireNonNull(exportId, "exportId");
        int length = exportId.getBytes(StandardCharsets.UTF_8).length;
        if (length == 0 || length > MAX_EXPORT_ID_BYTES) {
            throw new IllegalArgumentException("export ids have 1 to " + MAX_EXPORT_ID_BYTES + " bytes: \""
                    + exportId + "\"");
        }
    }

    static HandleTableException translate(String what, LmdbException e) {
        if (e instanceof Env.MapFullException) {
            return new MapFullException(what, e);
        }
        return new HandleTableException(what + " failed: " + e.getMessage(), e);
    }

    /**
     * The crash point ({@code org.tcnfs.txn.CrashPoints}) reached right before an LMDB commit that carries rows the
     * row journal holds: halting there leaves rows whose compounds got their reply in the journal only.
     */
    public static final String JOURNALED_ROWS_COMMIT_POINT = "before-journaled-rows-commit";

    /** The LMDB map is full; raise {@link Builder#mapSize(long)}. */
    public static final class MapFullException extends HandleTableException {
        private static final long serialVersionUID = 1L;

        MapFullException(String what, Throwable cause) {
            super(what + " failed: the handle table is full", cause);
        }
    }

    /** Settings of a {@link HandleTable}; {@link #open()} validates them and opens the table. */
    public static final class Builder {
        private final Path stateDirectory;
        private long mapSize = DEFAULT_MAP_SIZE;
        private int maxReaders = DEFAULT_MAX_READERS;
        private Durability durability = Durability.FULL;
        private Duration lateDelay = LateDurability.configuredDelay();
        private int maxPendingRows = DEFAULT_MAX_PENDING_ROWS;
        private long rowJournalBytes = Long.getLong(ROW_JOURNAL_BYTES_PROPERTY, DEFAULT_ROW_JOURNAL_BYTES);
        private Consumer<String> crashPoints = point -> { };

        private Builder(Path stateDirectory) {
            this.stateDirectory = Objects.requireNonNull(stateDirectory, "stateDirectory");
        }

        /** Largest size the table can reach, in bytes (address space; the file grows as needed). */
        public Builder mapSize(long bytes) {
            this.mapSize = bytes;
            return this;
        }

        /** Most read transactions open at once. */
        public Builder maxReaders(int readers) {
            this.maxReaders = readers;
            return this;
        }

        /** How durable commits are; {@link Durability#FULL} unless told otherwise. */
        public Builder durability(Durability value) {
            this.durability = Objects.requireNonNull(value, "durability");
            return this;
        }

        /** How long {@link LateDurability} work waits at most ({@link LateDurability#DEFAULT_DELAY}; tests). */
        Builder lateDelay(Duration delay) {
            if (delay.isNegative() || delay.isZero()) {
                throw new IllegalArgumentException("the delay must be positive: " + delay);
            }
            this.lateDelay = delay;
            return this;
        }

        /**
         * Most {@link #keepPending pending rows} of {@code async} compounds kept in memory at once
         * ({@link #DEFAULT_MAX_PENDING_ROWS}); 0 commits each such compound to LMDB lazily instead.
         */
        public Builder maxPendingRows(int rows) {
            if (rows < 0) {
                throw new IllegalArgumentException("maxPendingRows must not be negative: " + rows);
            }
            this.maxPendingRows = rows;
            return this;
        }

        /**
         * Size of the {@link RowJournal} in bytes ({@link #DEFAULT_ROW_JOURNAL_BYTES}); 0 turns it off (plain
         * {@code sync} compounds then commit their rows durably to LMDB). Used only under {@link Durability#FULL}
         * with pending rows on.
         */
        public Builder rowJournalBytes(long bytes) {
            if (bytes != 0 && bytes < 4096) {
                throw new IllegalArgumentException("a row journal has 0 (off) or at least 4096 bytes: " + bytes);
            }
            this.rowJournalBytes = bytes;
            return this;
        }

        /**
         * What the table calls when it reaches a crash point ({@link #JOURNALED_ROWS_COMMIT_POINT}): the server
         * passes its {@code CrashPoints} (crash tests); nothing by default.
         */
        public Builder crashPoints(Consumer<String> reach) {
            this.crashPoints = Objects.requireNonNull(reach, "reach");
            return this;
        }

        /**
         * Opens the table, creating the directory and the environment if needed.
         *
         * @throws IllegalArgumentException for a map size under 1 MiB or fewer than 1 reader
         * @throws UncheckedIOException if the directory cannot be created
         * @throws HandleTableException if LMDB cannot open the environment
         */
        public HandleTable open() {
            if (mapSize < (1L << 20)) {
                throw new IllegalArgumentException("map size must be at least 1 MiB: " + mapSize);
            }
            if (maxReaders < 1) {
                throw new IllegalArgumentException("at least one reader: " + maxReaders);
            }
            Path directory = stateDirectory.resolve("handles");
            List<Path> created = new ArrayList<>();
            for (Path p = directory.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
                created.add(p);
            }
            try {
                Files.createDirectories(directory);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + directory, e);
            }
            List<EnvFlags> flags = new ArrayList<>(List.of(EnvFlags.MDB_NOTLS));
            switch (durability) {
                // the meta page is synced by HandleTable.sync() after a durable commit, not by LMDB, so that a
                // lazy commit can skip it (see the class comment)
                case FULL, NO_META_SYNC -> flags.add(EnvFlags.MDB_NOMETASYNC);
                case NONE -> flags.add(EnvFlags.MDB_NOSYNC);
            }
            LmdbLibrary.extractInto(stateDirectory);
            Env<byte[]> env;
            try {
                env = Env.create(ByteArrayProxy.PROXY_BA)
                        .setMapSize(mapSize)
                        .setMaxDbs(5 + MAX_SIDE_TABLES)
                        .setMaxReaders(maxReaders)
                        .open(directory.toFile(), flags.toArray(new EnvFlags[0]));
            } catch (LmdbException e) {
                throw translate("opening the handle table in " + directory, e);
            }
            try {
                int stale = env.readerCheck();
                if (stale > 0) {
                    LOG.info("cleared {} stale reader slots in {}", stale, directory);
                }
                // LMDB syncs its files but never the directory: without this a power cut could drop
                // data.mdb's name, and every handle and recovery record with it (docs/durability.md).
                syncDirectories(directory, created);
                HandleTable table = new HandleTable(directory, env, durability, lateDelay, maxPendingRows,
                        crashPoints);
                try {
                    table.openJournal(durability == Durability.FULL && maxPendingRows > 0 ? rowJournalBytes : 0);
                } catch (IOException | RuntimeException e) {
                    table.close();
                    throw new HandleTableException("opening the row journal in " + directory + " failed: " + e, e);
                }
                LOG.debug("opened handle table {} (map {} bytes, {})", directory, mapSize, durability);
                return table;
            } catch (LmdbException e) {
                env.close();
                throw translate("opening the handle table in " + directory, e);
            }
        }

        /**
         * Makes the names of the environment's files durable, and those of the directories this open
         * {@code created} on the way to it: fsync of the environment's directory and of each created one's parent.
         * A file system that cannot sync a directory gets a warning, not a refusal to start.
         */
        private static void syncDirectories(Path directory, List<Path> created) {
            List<Path> dirs = new ArrayList<>(List.of(directory.toAbsolutePath()));
            for (Path c : created) {
                if (c.getParent() != null) {
                    dirs.add(c.getParent());
                }
            }
            for (Path dir : dirs) {
                try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
                    ch.force(true);
                } catch (IOException e) {
                    LOG.warn("cannot fsync directory {} of the handle table ({}): a power cut may lose the handle "
                            + "table's files; put the state directory on a local file system", dir, e.toString());
                }
            }
        }
    }
}

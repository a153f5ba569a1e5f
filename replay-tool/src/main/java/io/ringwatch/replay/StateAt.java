package io.ringwatch.replay;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongFunction;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.ChangeView;
import io.ringwatch.persistence.LogFormatException;
import io.ringwatch.persistence.LogDirectoryException;
import io.ringwatch.persistence.RevisionRecord;
import io.ringwatch.persistence.SnapshotCorruptedException;
import io.ringwatch.persistence.SnapshotEntry;
import io.ringwatch.persistence.SnapshotReader;

/**
 * Rebuilds the state of a key range at a past revision R from a log, without an engine.
 * <p>
 * Start: the newest snapshot S &le; R whose following revisions the log still holds, or empty
 * state when the log starts at revision 1 and that is cheaper (R revisions to read against
 * last &minus; S). Then every change in (S, R] is applied with the key's recorded post-state.
 * <p>
 * The engine's snapshots are fuzzy: taken while the writer went on, they may hold a key at a state
 * later than S, or miss a key deleted after S. Replay up to R fixes every key changed in (S, R];
 * any other key's state at R is the previous state recorded by its first change after R, so the
 * revisions after R are read too and each untouched key found there is set to that previous state.
 * A key changed after R by nobody is as the snapshot holds it, which is then exact.
 * <p>
 * One command thread; allocates the state (a sorted map of copies) and the set of settled keys.
 */
final class StateAt
{
    private final SourceLog log;
    private final KeyFilter filter;
    private final PrintWriter warnings;
    private final NavigableMap<byte[], KeyState> keys = new TreeMap<>(Arrays::compareUnsigned);
    private final NavigableSet<byte[]> settled = new TreeSet<>(Arrays::compareUnsigned);

    /**
     * What was rebuilt.
     *
     * @param revision         the revision the state is at.
     * @param snapshotRevision the snapshot it started from, 0 for empty state.
     * @param keys             the selected keys at that revision, in unsigned byte order.
     */
    record Result(long revision, long snapshotRevision, NavigableMap<byte[], KeyState> keys)
    {
    }

    private StateAt(final SourceLog log, final KeyFilter filter, final PrintWriter warnings)
    {
        this.log = log;
        this.filter = filter;
        this.warnings = warnings;
    }

    /**
     * Rebuilds the state of the keys {@code filter} selects at {@code revision}.
     *
     * @param log      the open log.
     * @param revision the revision, named by {@code option} in messages.
     * @param option   the option that gave it ({@code --at}, {@code --from}).
     * @param filter   the keys to keep.
     * @param warnings where to say that a corrupt snapshot was skipped.
     * @param progress makes the bar once the number of revisions to read is known.
     * @return the state.
     * @throws RevisionOutOfRangeException if the revision is not positive, beyond the log, or out of
     *                                     reach (the log does not start at 1 and no snapshot helps).
     * @throws CorruptLogException         if the log fails a check on the way.
     */
    static Result rebuild(
        final SourceLog log, final long revision, final String option, final KeyFilter filter,
        final PrintWriter warnings, final LongFunction<Progress> progress)
    {
        return new StateAt(log, filter, warnings).run(revision, option, progress);
    }

    private Result run(final long revision, final String option, final LongFunction<Progress> progress)
    {
        SourceLog.requirePositive(option, revision);
        final long first = log.firstRevision();
        final long last = log.lastRevision();
        if (last == 0)
        {
            throw new RevisionOutOfRangeException(log.directory() + " holds no revision yet");
        }
        if (revision > last)
        {
            throw new RevisionOutOfRangeException(option + " " + revision + " is beyond the log's last revision " + last);
        }
        final boolean canStartEmpty = first == 1;
        for (final long snapshot : SnapshotCatalog.revisions(log.directory()))
        {
            if (snapshot > revision || snapshot < first - 1)
            {
                continue;
            }
            if (canStartEmpty && revision <= last - snapshot)
            {
                break;
            }
            if (load(snapshot))
            {
                replay(snapshot, revision, progress.apply(last - snapshot));
                return new Result(revision, snapshot, keys);
            }
        }
        if (!canStartEmpty)
        {
            throw new RevisionOutOfRangeException(option + " " + revision + " is out of reach: the log starts at revision " +
                first + " and no usable snapshot at or below " + revision + " covers the revisions before it");
        }
        replay(0, revision, progress.apply(revision));
        return new Result(revision, 0, keys);
    }

    /**
     * Loads the selected keys of snapshot {@code revision}.
     *
     * @return false (and nothing loaded) if the snapshot is corrupt or unreadable.
     */
    private boolean load(final long revision)
    {
        try (SnapshotReader reader = SnapshotReader.open(SnapshotCatalog.file(log.directory(), revision)))
        {
            if (reader.snapshotRevision() != revision)
            {
                throw new SnapshotCorruptedException("snapshot file of revision " + revision + " says it was taken at " +
                    reader.snapshotRevision());
            }
            final SnapshotEntry entry = new SnapshotEntry();
            while (reader.next(entry))
            {
                if (filter.matches(entry.buffer(), 0, entry.keyLength()))
                {
                    final byte[] key = new byte[entry.keyLength()];
                    final byte[] value = new byte[entry.valueLength()];
                    entry.buffer().getBytes(0, key);
                    entry.buffer().getBytes(entry.valueOffset(), value);
                    keys.put(key, new KeyState(key, value, entry.createRevision(), entry.modRevision(), entry.version(),
                        entry.lease()));
                }
            }
            return true;
        }
        catch (final SnapshotCorruptedException | LogFormatException | LogDirectoryException ex)
        {
            warnings.println("warning: skipping snapshot " + revision + ": " + ex.getMessage());
            keys.clear();
            return false;
        }
    }

    private void replay(final long base, final long revision, final Progress progress)
    {
        final long last = log.lastRevision();
        final boolean fuzzy = base != 0 && revision < last;
        if (revision > base)
        {
            log.read(new RevisionSpan(base + 1, revision), record -> apply(record, fuzzy), progress);
        }
        if (fuzzy)
        {
            log.read(new RevisionSpan(revision + 1, last), this::settleUntouched, progress, revision - base);
        }
        progress.finish();
    }

    private void apply(final RevisionRecord record, final boolean trackTouched)
    {
        for (int i = 0; i < record.changeCount(); i++)
        {
            final ChangeView change = record.change(i);
            if (!filter.matches(change.buffer(), change.keyOffset(), change.keyLength()))
            {
                continue;
            }
            final byte[] key = KeyState.key(change);
            if (change.type() == ChangeType.PUT)
            {
                keys.put(key, KeyState.after(change));
            }
            else
            {
                keys.remove(key);
            }
            if (trackTouched)
            {
                settled.add(key);
            }
        }
    }

    /**
     * For each key first met here and not changed up to the target revision: its state then is
     * the previous state this change recorded.
     */
    private void settleUntouched(final RevisionRecord record)
    {
        for (int i = 0; i < record.changeCount(); i++)
        {
            final ChangeView change = record.change(i);
            if (!filter.matches(change.buffer(), change.keyOffset(), change.keyLength()))
            {
                continue;
            }
            final byte[] key = KeyState.key(change);
            if (settled.add(key))
            {
                final KeyState before = KeyState.before(change);
                if (before == null)
                {
                    keys.remove(key);
                }
                else
                {
                    keys.put(key, before);
                }
            }
        }
    }
}

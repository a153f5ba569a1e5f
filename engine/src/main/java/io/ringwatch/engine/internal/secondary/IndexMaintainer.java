package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.List;

/**
 * The writer's side of the secondary indexes: keeps every active index current as each change
 * is applied, and adopts indexes added or removed at runtime between two commands.
 *
 * <p>Protocol per command, all on the ONE writer thread: {@link #beginCommand} (adopt a new set
 * of indexes if one was published), then {@link #checkPut} / {@link #checkTxn} for every new
 * value the command will write, BEFORE the first mutation (a function that throws fails that
 * write and nothing changes), then {@link #onChange} once per applied change. Allocates nothing
 * per change in steady state; adopting a new set allocates the arrays once.
 */
public final class IndexMaintainer
{
    private static final SecondaryIndex[] NONE = new SecondaryIndex[0];

    private final WatchWindow window;
    private final EventRecord replayRecord = new EventRecord();
    private final IndexValues olds = new IndexValues();
    private final IndexValues news = new IndexValues();
    private final UnsafeBuffer opValue = new UnsafeBuffer(new byte[0]);
    /** Published by the admin thread; the writer adopts it at its next command. */
    private volatile SecondaryIndex[] wanted = NONE;
    private SecondaryIndex[] adoptedFrom = NONE;
    private SecondaryIndex[] active = NONE;
    private IndexValues[] staged = new IndexValues[0];
    private int stagedPuts;
    private boolean someFailed;

    /**
     * @param window the window an adopted index catches up from.
     */
    public IndexMaintainer(final WatchWindow window)
    {
        this.window = window;
    }

    /** Admin thread: the indexes the writer must maintain from its next command on. */
    void publish(final SecondaryIndex[] indexes)
    {
        wanted = indexes;
    }

    /**
     * Starts a command: adopts a newly published set of indexes, catching each new one up from
     * the revision its build was exact at to {@code revision}. Writer thread only.
     *
     * @param revision the newest applied revision.
     */
    public void beginCommand(final long revision)
    {
        stagedPuts = 0;
        final SecondaryIndex[] next = wanted;
        if (next != adoptedFrom || someFailed)
        {
            adopt(next, revision);
        }
    }

    /**
     * Starts undoing changes (a journal failure's roll-back, on the journal thread once the writer
     * changes nothing more): the values staged for the writer's last command are not the values
     * being restored, so every {@link #onChange} derives its own. No allocation.
     */
    public void beginUndo()
    {
        stagedPuts = 0;
    }

    /**
     * Derives every active index's values from a value about to be put, before anything is
     * mutated. Writer thread only; allocates nothing in steady state.
     *
     * @param value  holds the new value.
     * @param length its length.
     * @throws IndexFunctionException if a function throws: fail the write, change nothing.
     */
    public void checkPut(final DirectBuffer value, final int length)
    {
        final SecondaryIndex[] indexes = active;
        for (int i = 0; i < indexes.length; i++)
        {
            staged[i].collect(indexes[i].name, indexes[i].function, value, 0, length);
        }
        stagedPuts++;
    }

    /**
     * {@link #checkPut} for every put of a transaction's chosen branch. Writer thread only.
     *
     * @param ops the operations about to be applied.
     * @throws IndexFunctionException if a function throws: fail the transaction, change nothing.
     */
    public void checkTxn(final List<Op> ops)
    {
        if (active.length == 0)
        {
            return;
        }
        for (int i = 0, size = ops.size(); i < size; i++)
        {
            final Op op = ops.get(i);
            if (op.kind() == Op.Kind.PUT)
            {
                opValue.wrap(op.value());
                checkPut(opValue, op.value().length);
            }
        }
    }

    /**
     * Files an applied change under its new index values and out of its old ones. Writer thread
     * only, once per changed key; never throws: an index whose function now rejects a value it
     * accepted before, or derives index values from it that were not filed, is disabled (reads of
     * it fail with that error) rather than left wrong.
     *
     * @param revision    the change's revision.
     * @param key         holds the key.
     * @param keyLength   the key's length.
     * @param prev        the key's previous entry ({@code found()} false if it was absent).
     * @param value       holds the new value; null for a delete.
     * @param valueLength the new value's length.
     */
    public void onChange(
        final long revision, final DirectBuffer key, final int keyLength, final IndexEntry prev,
        final DirectBuffer value, final int valueLength)
    {
        final SecondaryIndex[] indexes = active;
        for (int i = 0; i < indexes.length; i++)
        {
            final SecondaryIndex index = indexes[i];
            if (index.state() != SecondaryIndex.ACTIVE)
            {
                continue;
            }
            try
            {
                if (prev.found())
                {
                    olds.collect(index.name, index.function, prev.value(), 0, prev.valueLength());
                }
                else
                {
                    olds.clear();
                }
                final IndexValues derived;
                if (value == null)
                {
                    news.clear();
                    derived = news;
                }
                else
                {
                    // A command with a single put staged exactly this value: reuse its derivation.
                    derived = stagedPuts == 1 ? staged[i] : news.collect(index.name, index.function, value, 0, valueLength);
                }
                index.update(key, 0, keyLength, olds, derived, revision, true);
            }
            catch (final IndexFunctionException e)
            {
                index.fail(new IndexFunctionException("index '" + index.name + "' was disabled at revision " + revision +
                    ": its function rejected a value it had accepted before, or derived other index values from it " +
                    "(it must be deterministic); remove and add it again",
                    e));
                someFailed = true;
            }
        }
    }

    private void adopt(final SecondaryIndex[] next, final long revision)
    {
        final SecondaryIndex[] kept = new SecondaryIndex[next.length];
        int count = 0;
        for (final SecondaryIndex index : next)
        {
            if (index.state() == SecondaryIndex.PENDING)
            {
                catchUp(index, revision);
            }
            if (index.state() == SecondaryIndex.ACTIVE)
            {
                kept[count++] = index;
            }
        }
        active = Arrays.copyOf(kept, count);
        if (staged.length < count)
        {
            staged = Arrays.copyOf(staged, count);
            for (int i = 0; i < count; i++)
            {
                if (staged[i] == null)
                {
                    staged[i] = new IndexValues();
                }
            }
        }
        adoptedFrom = next;
        someFailed = false;
    }

    /** Replays what the index's build has not seen; it becomes active, lapped or failed. */
    private void catchUp(final SecondaryIndex index, final long revision)
    {
        try
        {
            if (index.replay(window, replayRecord, index.exactThrough, revision, true))
            {
                index.activate();
            }
            else
            {
                index.lapped();
            }
        }
        catch (final IndexFunctionException e)
        {
            index.fail(e);
        }
    }
}

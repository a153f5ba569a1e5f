package io.ringwatch.engine.watch;

import io.ringwatch.engine.kv.RangeResult;

/**
 * The result of a list-then-watch (client-go's List+Watch): a snapshot of a range consistent at
 * {@code snapshot().revision()} and a watcher that delivers every later change of that range
 * from the next revision on, with no gap and no duplicate. Immutable.
 *
 * @param <W> the watcher type (push or pull).
 */
public final class ListWatch<W extends Watcher>
{
    private final RangeResult snapshot;
    private final W watcher;

    /**
     * @param snapshot the consistent snapshot.
     * @param watcher  the watcher continuing it.
     */
    public ListWatch(final RangeResult snapshot, final W watcher)
    {
        this.snapshot = snapshot;
        this.watcher = watcher;
    }

    /**
     * @return the snapshot, consistent at its revision.
     */
    public RangeResult snapshot()
    {
        return snapshot;
    }

    /**
     * @return the watcher, starting at the snapshot's revision + 1.
     */
    public W watcher()
    {
        return watcher;
    }
}

package io.ringwatch.jmh.engine;

import io.ringwatch.engine.stats.EngineStats;

import java.util.Locale;

/**
 * A SYNC engine's group commits over one iteration, from the counts its journal keeps anyway
 * ({@link EngineStats#journalAppends()}, one operation per revision appended;
 * {@link EngineStats#journalFlushes()}, one per flush): the mean number of revisions each forced
 * flush made durable, the batch size at which to run the raw baselines ({@code syncEvery}). The
 * counts also include writes outside the measurement's loop while the iteration runs (none in
 * {@link WriteBenchmark}). One JMH worker thread at a time; allocates only the line it returns.
 */
final class JournalBatches
{
    private final EngineStats stats;
    private long appendsAtMark;
    private long flushesAtMark;

    /**
     * @param stats a persistent engine's figures (its journal timers are not null).
     */
    JournalBatches(final EngineStats stats)
    {
        this.stats = stats;
    }

    /** Notes the journal's counts now. */
    void mark()
    {
        appendsAtMark = stats.journalAppends().count();
        flushesAtMark = stats.journalFlushes().count();
    }

    /**
     * @return a line naming the revisions appended and flushes forced since {@link #mark()}, and
     * their ratio.
     */
    String sinceMark()
    {
        final long appended = stats.journalAppends().count() - appendsAtMark;
        final long flushes = stats.journalFlushes().count() - flushesAtMark;
        return String.format(Locale.ROOT, "(journal: %d revisions in %d forced flushes, %.1f per flush) ",
            appended, flushes, flushes == 0 ? 0.0 : (double)appended / flushes);
    }
}

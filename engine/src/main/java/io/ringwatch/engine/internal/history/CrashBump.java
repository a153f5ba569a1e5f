package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.spi.Journal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After an unclean close of an ASYNC journal, moves the revision past every number the crashed
 * engine may have shown, as etcd's {@code etcdutl snapshot restore --bump-revision B
 * --mark-compacted}: an ASYNC engine shows a revision (watchers, reads) before its journal
 * records it, so a kill -9 can take revisions a client saw; reopened from the last recorded
 * revision L, the engine would hand L + 1.. to new changes, and a client resuming after a revision
 * it saw would silently miss them. Instead the journal skips to L + B and compacts there
 * ({@link Journal#skipTo}), durably, before the writer starts: a client resuming from any revision
 * below L + B is refused as compacted and relists. A SYNC journal shows nothing before it is
 * durable, and a clean close lost nothing, so neither bumps.
 * <p>
 * Opening thread, once, after recovery and before the writer starts; allocates nothing but a log line.
 */
public final class CrashBump
{
    private static final Logger LOG = LoggerFactory.getLogger(CrashBump.class);

    private CrashBump()
    {
    }

    /**
     * Bumps the revision when the journal was not closed cleanly and is ASYNC.
     *
     * @param journal   the journal just recovered from.
     * @param recovered the revision recovery reached.
     * @param bump      how far to jump, B, above the most revisions a crash can have taken after
     *                  being shown.
     * @param name      the engine's name, for the log line.
     * @return the revision the engine starts at: {@code recovered}, or {@code recovered + bump}.
     */
    public static long apply(final Journal journal, final long recovered, final long bump, final String name)
    {
        if (journal.isSync() || journal.closedCleanly())
        {
            return recovered;
        }
        final long bumped = Math.addExact(recovered, bump);
        journal.skipTo(bumped);
        LOG.warn("{}: the revision log was not closed cleanly (kill, crash or log failure) and is ASYNC, so revisions after {} " +
            "may have been shown and lost: skipped to revision {} and compacted there, so clients that saw them relist",
            name, recovered, bumped);
        return bumped;
    }
}

package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.errors.WriterFailedException;
import io.ringwatch.engine.internal.thread.Joins;
import io.ringwatch.engine.lease.Leases;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * The lease timer thread: every check interval it asks the writer to end the leases due now
 * ({@link Leases#expireDue()}), unless no lease lives: a check is a command through the writer
 * (and the journal), which would wake an idle engine's threads for nothing. It decides nothing itself: the writer does, from the time each
 * command carries, in order with the writes. Started on construction; {@link #close()} stops it, and
 * so does a failed journal or writer (every later command is refused until the engine is reopened).
 */
final class LeaseTimer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(LeaseTimer.class);

    private final Thread thread;
    private final Leases leases;
    private final IntSupplier liveLeases;
    private final long intervalNanos;
    private volatile boolean running = true;

    LeaseTimer(final String name, final Leases leases, final IntSupplier liveLeases, final Duration interval)
    {
        this.leases = leases;
        this.liveLeases = liveLeases;
        this.intervalNanos = interval.toNanos();
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run()
    {
        while (running)
        {
            LockSupport.parkNanos(this, intervalNanos);
            if (!running)
            {
                return;
            }
            if (liveLeases.getAsInt() == 0)
            {
                // A grant still in flight is checked at the next interval, within its TTL.
                continue;
            }
            try
            {
                leases.expireDue();
            }
            catch (final EngineClosedException e)
            {
                return;
            }
            catch (final JournalFailedException | WriterFailedException e)
            {
                // Every later check would be refused the same way until the engine is reopened:
                // one line, not one per check interval for as long as the engine stays open.
                LOG.error("lease expiry stops until the engine is reopened: {}", e.toString());
                return;
            }
            catch (final RingWatchException e)
            {
                // A lease whose keys the journal refuses to delete in one revision stays; try again later.
                LOG.warn("lease expiry check failed: {}", e.toString());
            }
        }
    }

    /**
     * Stops the thread and waits for it (its command in flight, if any, completes first). Called
     * before the write pipeline closes.
     */
    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        Joins.joinUninterruptibly(thread);
    }
}

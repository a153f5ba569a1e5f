package io.ringwatch.server.watch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.server.admission.AdmissionMarks;
import io.ringwatch.server.admission.WriteAdmission;
import io.ringwatch.server.admission.WriteGate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several pumps' shares of write admission: the backlog is the slowest reading watch's over every
 * pump, a pump's share stays until that pump publishes again, and pumps publishing at once never
 * leave the last publication unevaluated (whichever pump evaluates goes again for one that came
 * during its evaluation).
 */
class AdmissionSharesTest
{
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("admission-shares").build());
    private final WriteGate gate = new WriteGate(engine::currentRevision, 16);
    private final WriteAdmission admission = new WriteAdmission(AdmissionMarks.defaults(), TimeUnit.HOURS.toNanos(1), gate);

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void theBacklogIsTheSlowestOverEveryPump()
    {
        final AdmissionShares shares = new AdmissionShares(engine.stats(), admission, 3);
        for (int i = 0; i < 20; i++)
        {
            engine.put("k" + i, "v");
        }
        final long revision = engine.currentRevision();
        final long now = System.nanoTime();
        shares.publish(0, Long.MAX_VALUE, now);
        assertEquals(0, admission.backlog(), "no live watch: nothing owed");
        shares.watchesLive(1);
        shares.publish(0, Long.MAX_VALUE, now);
        assertEquals(0, admission.backlog(), "every watch in step");
        shares.publish(1, revision - 5, now);
        assertEquals(5, admission.backlog(), "pump 1's watch behind");
        shares.publish(2, revision - 9, now);
        assertEquals(9, admission.backlog(), "pump 2's is further behind");
        shares.publish(1, Long.MAX_VALUE, now);
        assertEquals(9, admission.backlog(), "pump 2's share stays until pump 2 publishes again");
        shares.publish(2, revision - 1, now);
        assertEquals(1, admission.backlog());
        shares.publish(2, Long.MAX_VALUE, now);
        assertEquals(0, admission.backlog());
    }

    @Test
    void aSharePublishedDuringAnotherPumpsEvaluationIsEvaluatedByThatPump() throws Exception
    {
        for (int i = 0; i < 20; i++)
        {
            engine.put("k" + i, "v");
        }
        final long revision = engine.currentRevision();
        final CountDownLatch evaluating = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        final AtomicInteger windowReads = new AtomicInteger();
        // The engine's figures, but the first evaluation stops after it read the shares (it reads the
        // window last) until pump 1 has published.
        final EngineStats stats = (EngineStats)Proxy.newProxyInstance(EngineStats.class.getClassLoader(), new Class<?>[] {EngineStats.class},
            (proxy, method, args) ->
            {
                if (method.getName().equals("windowOldestRevision") && windowReads.getAndIncrement() == 0)
                {
                    evaluating.countDown();
                    assertTrue(proceed.await(60, TimeUnit.SECONDS), "hang guard");
                }
                return method.invoke(engine.stats(), args);
            });
        final AdmissionShares shares = new AdmissionShares(stats, admission, 2);
        shares.watchesLive(1);
        final Thread pump0 = new Thread(() -> shares.publish(0, revision - 3, System.nanoTime()), "pump-0");
        pump0.start();
        assertTrue(evaluating.await(60, TimeUnit.SECONDS), "hang guard");
        shares.publish(1, revision - 7, System.nanoTime());
        assertEquals(0, admission.backlog(), "pump 1 found pump 0 evaluating and left its share to it");
        proceed.countDown();
        pump0.join(TimeUnit.SECONDS.toMillis(60));
        assertEquals(7, admission.backlog(), "pump 0 evaluated again with pump 1's share");
    }

    @Test
    void concurrentPublicationsEndEvaluatedWithEveryPumpsLast() throws Exception
    {
        final int pumps = 4;
        final int rounds = 20_000;
        final AdmissionShares shares = new AdmissionShares(engine.stats(), admission, pumps);
        for (int i = 0; i < 100; i++)
        {
            engine.put("k" + i, "v");
        }
        shares.watchesLive(1);
        final long revision = engine.currentRevision();
        final CyclicBarrier start = new CyclicBarrier(pumps);
        final Thread[] threads = new Thread[pumps];
        for (int p = 0; p < pumps; p++)
        {
            final int pump = p;
            threads[p] = new Thread(() ->
            {
                try
                {
                    start.await();
                }
                catch (final Exception e)
                {
                    throw new IllegalStateException(e);
                }
                for (int r = 0; r < rounds; r++)
                {
                    // Each pump's last share: pump p ends p + 1 revisions behind.
                    final long behind = r == rounds - 1 ? pump + 1 : 50 + (r + pump) % 40;
                    shares.publish(pump, revision - behind, System.nanoTime());
                }
            }, "pump-" + p);
            threads[p].start();
        }
        for (final Thread thread : threads)
        {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertEquals(pumps, admission.backlog(), "the last evaluation saw every pump's last share: the slowest, pump "
            + (pumps - 1) + ", " + pumps + " revisions behind");
    }
}
